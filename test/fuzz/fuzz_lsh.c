/*
 * fuzz_lsh.c: libFuzzer target for LSH banding (lsh.c).
 *
 * The whole input is offered to tfp_lsh_parse_params: what it accepts must
 * be the canonical text "bands=B,rows=R,min_bands=M" of the numbers it
 * returns (so nothing but that form is accepted), and rejected input must
 * leave the outputs alone.  Then the input, read as two signatures of k
 * values (k = 1 + first byte % 64, values from the bytes that follow, the
 * second a copy of the first with positions changed where a byte says so),
 * is banded for every rows and bands that fit: equal-band counts must agree
 * with a plain count wherever the early stop allows, band keys must be the
 * same for equal bands, and probabilities must stay in [0, 1].
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "tfp_core.h"

#define MAX_K 64

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int			b = -3,
				r = -3,
				m = -3;
	uint32_t	x[MAX_K];
	uint32_t	y[MAX_K];
	tfp_lsh_header h = {0};
	int			k;

	if (tfp_lsh_parse_params((const char *) data, size, &b, &r, &m))
	{
		char		canon[64];
		int			n = snprintf(canon, sizeof(canon), "bands=%d,rows=%d,min_bands=%d", b, r, m);

		FUZZ_CHECK(b >= 0 && r >= 0 && m >= 0);
		FUZZ_CHECK(n > 0 && (size_t) n == size && memcmp(canon, data, size) == 0);
	}
	else
		FUZZ_CHECK(b == -3 && r == -3 && m == -3);

	if (size < 1)
		return 0;
	k = 1 + data[0] % MAX_K;
	for (int i = 0; i < k; i++)
	{
		size_t		at = 1 + (size_t) i * 2;

		x[i] = at < size ? (uint32_t) data[at] * 0x01000193u : TFP_MINHASH_EMPTY;
		y[i] = (at + 1 < size && data[at + 1] & 1) ? x[i] + 1 : x[i];
	}
	h.k = k;
	h.method = TFP_MINHASH_OPH;
	h.value_bits = 32;
	h.pipeline = size > 2 ? data[2] : 0;
	for (int rows = 1; rows <= k; rows++)
	{
		int			bands = tfp_lsh_indexed_bands(k, k, rows);
		int			naive = 0;

		FUZZ_CHECK(bands == k / rows);
		for (int i = 0; i < bands; i++)
		{
			bool		eq = memcmp(x + i * rows, y + i * rows, sizeof(uint32_t) * rows) == 0;

			naive += eq;
			if (eq)
				FUZZ_CHECK(tfp_lsh_band_key(&h, rows, i, x) == tfp_lsh_band_key(&h, rows, i, y));
		}
		for (int enough = 1; enough <= bands; enough++)
		{
			int			got = tfp_lsh_equal_bands(x, y, bands, rows, enough);

			FUZZ_CHECK(got <= naive && (got >= enough) == (naive >= enough));
			FUZZ_CHECK(naive < enough || got == enough);
		}
		for (int c = 0; c <= k; c++)
		{
			double		p = tfp_lsh_probability_given(c, k, bands, rows, 1 + c % bands);

			FUZZ_CHECK(p >= 0.0 && p <= 1.0);
		}
		{
			double		s = (double) data[0] / 255.0;
			double		p = tfp_lsh_probability(s, bands, rows, 1 + (int) (size % bands));

			FUZZ_CHECK(p >= 0.0 && p <= 1.0 && !isnan(p));
		}
	}
	{
		bool		empty = true;

		for (int i = 0; i < k; i++)
			empty = empty && x[i] == TFP_MINHASH_EMPTY;
		FUZZ_CHECK(tfp_minhash_is_featureless(x, k) == empty);
	}
	return 0;
}
