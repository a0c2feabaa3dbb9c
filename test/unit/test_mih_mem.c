/*
 * test_mih_mem.c: unit cases for the in-memory multi-index hash (mih_mem.c):
 * its radius queries over the rows before i against brute force.  Included
 * by test_core.c after test_blocks.c (its generator, blocks_rand).
 */
#include "tfp_mih_mem.h"

static int
mih_mem_cmp_u32(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *) a;
	uint32_t	y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

/*
 * Codes in clusters (a root, then rows 1..14 bits from it, some equal, some
 * absent), n from 0 to 3000 (the small ones answered by a full pass, the
 * large ones by probes): every query of every radius gives exactly the rows
 * before it that brute force gives, each once.
 */
static void
mih_mem_queries_match_brute_force(void)
{
	static const uint32_t sizes[] = {0, 1, 7, 300, 3000};
	static const int radii[] = {0, 1, 3, 7, 10, 11, 12, 20, 40, 64};
	uint64_t	s = 777;
	int			plans[2] = {0, 0};

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
	{
		uint32_t	n = sizes[k];
		uint64_t   *codes = malloc(sizeof(uint64_t) * (n + 1));
		uint8_t    *absent = malloc(n + 1);
		uint32_t   *out = malloc(sizeof(uint32_t) * (n + 1));
		uint32_t   *want = malloc(sizeof(uint32_t) * (n + 1));
		size_t		start_len,
					rows_len;
		uint32_t   *start;
		uint32_t   *rows;

		tfp_mih_mem_sizes(n, &start_len, &rows_len);
		start = malloc(sizeof(uint32_t) * start_len);
		rows = malloc(sizeof(uint32_t) * (rows_len + 1));
		for (uint32_t j = 0; j < n; j++)
		{
			absent[j] = blocks_rand(&s) % 17 == 0;
			if (j % 8 == 0)
				codes[j] = blocks_rand(&s);
			else if (j % 8 == 1)
				codes[j] = codes[j - 1];	/* an exact copy */
			else
			{
				uint64_t	c = codes[j - j % 8];
				int			d = 1 + (int) (blocks_rand(&s) % 14);

				for (int b = 0; b < d; b++)
					c ^= UINT64_C(1) << (blocks_rand(&s) % 64);
				codes[j] = c;
			}
		}
		for (size_t ri = 0; ri < sizeof(radii) / sizeof(radii[0]); ri++)
		{
			tfp_mih_mem ix;
			int			r = radii[ri];
			int			bad = 0;

			tfp_mih_mem_init(&ix, codes, absent, n, r, start, rows);
			for (int i = 0; i < TFP_MIH_MEM_M; i++)
				tfp_mih_mem_build_table(&ix, i);
			plans[ix.plan.full_pass]++;
			for (uint32_t i = 0; i <= n; i++)
			{
				/* the row's own code, or a random one past the end */
				uint64_t	q = i < n ? codes[i] : blocks_rand(&s);
				size_t		nw = 0;
				size_t		got;

				for (uint32_t j = 0; j < i; j++)
					if (!absent[j] && tfp_popcount64(codes[j] ^ q) <= r)
						want[nw++] = j;
				/* too little room first: the count says how much is needed */
				got = tfp_mih_mem_query(&ix, q, i, out, nw > 0 ? nw - 1 : 0);
				if (got != nw)
				{
					bad++;
					continue;
				}
				got = tfp_mih_mem_query(&ix, q, i, out, nw);
				qsort(out, got, sizeof(uint32_t), mih_mem_cmp_u32);
				if (got != nw || (nw > 0 && memcmp(out, want, sizeof(uint32_t) * nw) != 0))
					bad++;
			}
			if (bad != 0)
				UNIT_FAIL("n %u, radius %d: %d queries differ from brute force", n, r, bad);
		}
		free(codes);
		free(absent);
		free(out);
		free(want);
		free(start);
		free(rows);
	}
	/* both ways of answering were exercised */
	CHECK(plans[0] > 0);
	CHECK(plans[1] > 0);
}
