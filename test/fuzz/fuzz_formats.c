/*
 * fuzz_formats.c: libFuzzer target for the text and binary forms that the
 * input and receive functions of hamming_ball, minhash_sig and jaccard_ball
 * hand to the core (src/core/formats.c).
 *
 * Any input is offered to every parser.  What a parser accepts must be in
 * range and must survive the way back: a hamming_ball written back as
 * "hex/radius" and a minhash_sig written by tfp_minhash_sig_format parse to
 * the same values, and a decoded binary signature encodes to exactly the
 * bytes it was decoded from.  The first bytes, read as a header and values,
 * must survive encode -> decode and format -> parse whatever they are.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "tfp_core.h"

static uint32_t values[TFP_MINHASH_K_MAX];
static uint32_t again[TFP_MINHASH_K_MAX];
static uint8_t bytes[TFP_MINHASH_BINARY_HEADER + 4 * TFP_MINHASH_K_MAX];
static char text[64 + 8 * TFP_MINHASH_K_MAX];

static void
check_hamming_ball(const char *s, size_t len)
{
	uint64_t	center;
	int64_t		radius;
	tfp_form_error e = tfp_hamming_ball_parse(s, len, &center, &radius);

	FUZZ_CHECK(e == TFP_FORM_OK || e == TFP_FORM_SYNTAX || e == TFP_FORM_RADIUS);
	if (e == TFP_FORM_OK)
	{
		char		buf[32];
		uint64_t	c2;
		int64_t		r2;

		FUZZ_CHECK(radius >= 0 && radius <= SIMHASH_BITS);
		tfp_hex64_format(center, buf);
		snprintf(buf + 16, sizeof(buf) - 16, "/%d", (int) radius);
		FUZZ_CHECK(tfp_hamming_ball_parse(buf, strlen(buf), &c2, &r2) == TFP_FORM_OK);
		FUZZ_CHECK(c2 == center && r2 == radius);
	}
}

static void
check_minhash_text(const char *s, size_t len)
{
	tfp_minhash_header h;
	tfp_minhash_header h2;
	int64_t		found;
	tfp_form_error e = tfp_minhash_sig_parse(s, len, &h, values, &found);

	FUZZ_CHECK(e == TFP_FORM_OK || e == TFP_FORM_SYNTAX || e == TFP_FORM_K || e == TFP_FORM_DIGITS);
	if (e == TFP_FORM_K)
		FUZZ_CHECK(found < 1 || found > TFP_MINHASH_K_MAX);
	if (e == TFP_FORM_OK)
	{
		size_t		n;

		FUZZ_CHECK(h.k >= 1 && h.k <= TFP_MINHASH_K_MAX && h.value_bits == 32);
		n = tfp_minhash_sig_format(&h, values, text, sizeof(text));
		FUZZ_CHECK(n < sizeof(text) && n == strlen(text));
		/* the same form, hex digits in lower case */
		FUZZ_CHECK(n == len);
		for (size_t i = 0; i < n; i++)
			FUZZ_CHECK(text[i] == s[i] || (s[i] >= 'A' && s[i] <= 'F' && text[i] == s[i] + 32));
		FUZZ_CHECK(tfp_minhash_sig_parse(text, n, &h2, again, &found) == TFP_FORM_OK);
		FUZZ_CHECK(memcmp(&h, &h2, sizeof(h)) == 0 && memcmp(values, again, 4 * (size_t) h.k) == 0);
	}
}

static void
check_minhash_binary(const uint8_t *data, size_t size)
{
	tfp_minhash_header h;
	size_t		used;
	tfp_form_error e = tfp_minhash_sig_decode(data, size, &h, values, &used);

	FUZZ_CHECK(e == TFP_FORM_OK || e == TFP_FORM_SHORT || e == TFP_FORM_METHOD || e == TFP_FORM_K);
	if (e == TFP_FORM_OK)
	{
		FUZZ_CHECK(used <= size && used == TFP_MINHASH_BINARY_HEADER + 4 * (size_t) h.k);
		FUZZ_CHECK(tfp_minhash_sig_encode(&h, values, bytes) == used);
		FUZZ_CHECK(memcmp(bytes, data, used) == 0);
	}
	else
		FUZZ_CHECK(used == 0);
}

/* Whatever the bytes, as a header and values: encode/decode and format/parse agree. */
static void
check_round_trips(const uint8_t *data, size_t size)
{
	tfp_minhash_header h;
	tfp_minhash_header h2;
	size_t		used;
	int64_t		found;
	size_t		nbin;
	size_t		n;

	if (size < 12)
		return;
	h.k = 1 + (int) ((data[0] | (data[1] << 8)) % TFP_MINHASH_K_MAX);
	h.method = (data[2] & 1) ? TFP_MINHASH_OPH : TFP_MINHASH_KPERM;
	h.value_bits = 32;
	memcpy(&h.pipeline, data + 3, 4);
	memcpy(&h.seed, data + 4, 8);
	for (int i = 0; i < h.k; i++)
		values[i] = (uint32_t) (data[(12 + i) % size] * 0x01010101u) ^ (uint32_t) i;
	nbin = tfp_minhash_sig_encode(&h, values, bytes);
	FUZZ_CHECK(tfp_minhash_sig_decode(bytes, nbin, &h2, again, &used) == TFP_FORM_OK && used == nbin);
	FUZZ_CHECK(memcmp(&h, &h2, sizeof(h)) == 0 && memcmp(values, again, 4 * (size_t) h.k) == 0);
	n = tfp_minhash_sig_format(&h, values, text, sizeof(text));
	FUZZ_CHECK(tfp_minhash_sig_parse(text, n, &h2, again, &found) == TFP_FORM_OK);
	FUZZ_CHECK(memcmp(&h, &h2, sizeof(h)) == 0 && memcmp(values, again, 4 * (size_t) h.k) == 0);
	/* a truncated binary form is short, never read past its end */
	FUZZ_CHECK(tfp_minhash_sig_decode(bytes, nbin - 1, &h2, again, &used) == TFP_FORM_SHORT);
}

static void
check_threshold(const char *s, size_t len)
{
	double		t = -1;
	tfp_form_error e = tfp_threshold_parse(s, len, &t);

	FUZZ_CHECK(e == TFP_FORM_OK || e == TFP_FORM_SYNTAX || e == TFP_FORM_THRESHOLD);
	if (e == TFP_FORM_OK)
		FUZZ_CHECK(t >= 0.0 && t <= 1.0);
	FUZZ_CHECK(tfp_threshold_check(NAN) == TFP_FORM_THRESHOLD);
	FUZZ_CHECK(tfp_threshold_check(INFINITY) == TFP_FORM_THRESHOLD);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;

	check_hamming_ball(s, size);
	check_minhash_text(s, size);
	check_minhash_binary(data, size);
	check_round_trips(data, size);
	check_threshold(s, size);
	return 0;
}
