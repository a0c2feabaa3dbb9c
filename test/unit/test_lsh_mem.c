/*
 * test_lsh_mem.c: unit cases for the in-memory LSH band tables
 * (lsh_mem.c): each row's near rows among the rows before it against brute
 * force over the operators' rule.  Included by test_core.c after
 * test_blocks.c (its generator, blocks_rand).
 */
#include "tfp_lsh_mem.h"

static int
lsh_mem_cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/*
 * n signatures of k values, stride apart, in families: a root, then copies
 * with a random number of positions changed (some equal to the root, many
 * sharing few bands); some absent, some featureless; values drawn from a
 * small range in some positions, so that unrelated rows share bands (long
 * buckets) too.
 */
static void
lsh_mem_signatures(uint64_t *s, uint32_t *values, size_t stride, uint8_t *absent, uint32_t n, int k)
{
	for (uint32_t j = 0; j < n; j++)
	{
		uint32_t   *v = values + (size_t) j * stride;

		absent[j] = blocks_rand(s) % 23 == 0;
		if (j % 11 == 0)
		{
			for (int p = 0; p < k; p++)
				v[p] = p % 3 == 0 ? (uint32_t) (blocks_rand(s) % 4) : (uint32_t) blocks_rand(s);
		}
		else
		{
			const uint32_t *root = values + (size_t) (j - j % 11) * stride;
			int			changed = (int) (blocks_rand(s) % (uint64_t) (k + 1));

			memcpy(v, root, sizeof(uint32_t) * (size_t) k);
			for (int c = 0; c < changed; c++)
				v[blocks_rand(s) % (uint64_t) k] = (uint32_t) blocks_rand(s);
		}
		if (blocks_rand(s) % 31 == 0)
			for (int p = 0; p < k; p++)
				v[p] = TFP_MINHASH_EMPTY;
		/* padding past k: never read */
		for (size_t p = (size_t) k; p < stride; p++)
			v[p] = (uint32_t) blocks_rand(s);
	}
}

/*
 * Bandings of one and of several positions, min_bands from 1 to all, at
 * thresholds from almost nothing to all positions equal, n from 0 to 2000:
 * every row's answer is exactly the brute force's (the rows before it, each
 * once, with their equal positions).
 */
static void
lsh_mem_queries_match_brute_force(void)
{
	static const uint32_t sizes[] = {0, 1, 9, 400, 2000};
	static const struct
	{
		int			k,
					bands,
					rows,
					min_bands;
		double		threshold;
	}			cases[] = {
		{128, 44, 1, 6, 0.3125},
		{128, 44, 1, 5, 0.2890625},
		{128, 44, 1, 1, 0.01},
		{128, 64, 2, 3, 0.7},
		{64, 8, 4, 2, 0.5},
		{64, 16, 1, 16, 0.2},
		{32, 1, 1, 1, 1.0},
		{32, 10, 3, 4, 0.25},
	};
	uint64_t	s = 4242;
	long		near_pairs = 0;

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++)
		{
			uint32_t	n = sizes[si];
			int			k = cases[ci].k;
			size_t		stride = (size_t) k + 3;
			uint32_t   *values = malloc(sizeof(uint32_t) * stride * (n + 1));
			uint8_t    *absent = malloc(n + 1);
			uint32_t   *out = malloc(sizeof(uint32_t) * (n + 1));
			uint16_t   *matches = malloc(sizeof(uint16_t) * (n + 1));
			uint32_t   *want = malloc(sizeof(uint32_t) * (n + 1));
			uint16_t   *want_matches = malloc(sizeof(uint16_t) * (n + 1));
			uint16_t   *got_matches = malloc(sizeof(uint16_t) * (n + 1));
			tfp_lsh_header h = {k, TFP_MINHASH_OPH, 32, 0x1234u, 99};
			tfp_lsh_mem ix;
			int			needed = tfp_jaccard_needed(cases[ci].threshold, k);
			int			bad = 0;

			lsh_mem_signatures(&s, values, stride, absent, n, k);
			REQUIRE(tfp_lsh_mem_init(&ix, &env, values, stride, absent, n, &h, cases[ci].bands,
									 cases[ci].rows, cases[ci].min_bands, cases[ci].threshold) == TFP_OK);
			for (int t = 0; t < cases[ci].bands; t++)
				REQUIRE(tfp_lsh_mem_build_band(&ix, t) == TFP_OK);
			for (uint32_t i = 0; i < n; i++)
			{
				const uint32_t *q = values + (size_t) i * stride;
				size_t		nw = 0;
				size_t		got;

				for (uint32_t j = 0; j < i; j++)
				{
					const uint32_t *v = values + (size_t) j * stride;
					int			eq = tfp_minhash_matches(v, q, k);

					/* minhash_lsh_match() and the jaccard_ball operator, written out */
					if (absent[i] || absent[j] || tfp_minhash_is_featureless(q, k) ||
						tfp_minhash_is_featureless(v, k))
						continue;
					if (tfp_lsh_equal_bands(v, q, cases[ci].bands, cases[ci].rows, cases[ci].min_bands) <
						cases[ci].min_bands || eq < needed)
						continue;
					want_matches[nw] = (uint16_t) eq;
					want[nw++] = j;
				}
				got = tfp_lsh_mem_query(&ix, i, out, matches);
				near_pairs += (long) nw;
				if (got != nw)
				{
					bad++;
					continue;
				}
				/* sorted by row, each row's equal positions beside it */
				{
					uint64_t   *pairs = malloc(sizeof(uint64_t) * (got + 1));

					for (size_t a = 0; a < got; a++)
						pairs[a] = ((uint64_t) out[a] << 16) | matches[a];
					qsort(pairs, got, sizeof(uint64_t), lsh_mem_cmp_u64);
					for (size_t a = 0; a < got; a++)
					{
						out[a] = (uint32_t) (pairs[a] >> 16);
						got_matches[a] = (uint16_t) (pairs[a] & 0xffff);
					}
					free(pairs);
				}
				if (got > 0 && (memcmp(out, want, sizeof(uint32_t) * got) != 0 ||
								memcmp(got_matches, want_matches, sizeof(uint16_t) * got) != 0))
					bad++;
			}
			/* past the end, and a second query of a row: the same answer */
			CHECK_INT_EQ((int) tfp_lsh_mem_query(&ix, n, out, matches), 0);
			if (n > 0)
			{
				size_t		a = tfp_lsh_mem_query(&ix, n - 1, out, matches);
				size_t		b = tfp_lsh_mem_query(&ix, n - 1, out, matches);

				CHECK_INT_EQ((int) a, (int) b);
			}
			tfp_lsh_mem_free(&ix);
			if (bad != 0)
				UNIT_FAIL("n %u, k %d, %d bands of %d, at least %d, threshold %g: %d rows differ from brute force",
						  n, k, cases[ci].bands, cases[ci].rows, cases[ci].min_bands, cases[ci].threshold, bad);
			free(values);
			free(absent);
			free(out);
			free(matches);
			free(want);
			free(want_matches);
			free(got_matches);
		}
	/* the cases are not empty */
	CHECK(near_pairs > 10000);
}

/*
 * Long buckets (every row shares every band) are scanned with interrupt
 * checks within a query: each query from row 4096 on meets 16 * i rows and i
 * candidates.
 */
static void
lsh_mem_checks_interrupts(void)
{
	uint32_t	n = 5000;
	int			k = 16;
	uint32_t   *values = malloc(sizeof(uint32_t) * k * n);
	uint32_t   *out = malloc(sizeof(uint32_t) * n);
	uint16_t   *matches = malloc(sizeof(uint16_t) * n);
	tfp_lsh_header h = {k, TFP_MINHASH_OPH, 32, 1, 1};
	tfp_lsh_mem ix;
	long		near = 0;

	for (size_t p = 0; p < (size_t) k * n; p++)
		values[p] = (uint32_t) (p % (size_t) k);
	env.check_interrupts = counting_interrupts_fn;
	REQUIRE(tfp_lsh_mem_init(&ix, &env, values, (size_t) k, NULL, n, &h, 16, 1, 1, 0.5) == TFP_OK);
	for (int t = 0; t < 16; t++)
		REQUIRE(tfp_lsh_mem_build_band(&ix, t) == TFP_OK);
	ca.interrupts = 0;
	for (uint32_t i = 0; i < n; i++)
		near += (long) tfp_lsh_mem_query(&ix, i, out, matches);
	CHECK(near == (long) n * (n - 1) / 2);
	CHECK(ca.interrupts >= (long) (n - 4096));
	tfp_lsh_mem_free(&ix);
	free(values);
	free(out);
	free(matches);
}

/* Out of memory at each allocation in turn: TFP_ENOMEM, and nothing leaks. */
static void
lsh_mem_out_of_memory(void)
{
	uint32_t	n = 200;
	int			k = 32;
	uint32_t   *values = malloc(sizeof(uint32_t) * k * n);
	uint8_t    *absent = malloc(n);
	tfp_lsh_header h = {k, TFP_MINHASH_OPH, 32, 1, 1};
	uint64_t	s = 5;
	int			refused = 0;

	lsh_mem_signatures(&s, values, (size_t) k, absent, n, k);
	for (long fail = 0; fail < 200; fail++)
	{
		tfp_lsh_mem ix;
		tfp_status	rc;

		env_reset();
		ca.fail_after = fail;
		rc = tfp_lsh_mem_init(&ix, &env, values, (size_t) k, absent, n, &h, 8, 4, 2, 0.5);
		for (int t = 0; rc == TFP_OK && t < 8; t++)
			rc = tfp_lsh_mem_build_band(&ix, t);
		tfp_lsh_mem_free(&ix);
		CHECK(rc == TFP_OK || rc == TFP_ENOMEM);
		refused += rc == TFP_ENOMEM;
		CHECK_INT_EQ((int) ca.live, 0);
		if (rc == TFP_OK)
			break;
	}
	CHECK(refused > 5);
	free(values);
	free(absent);
}
