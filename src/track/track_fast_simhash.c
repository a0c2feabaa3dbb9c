/*
 * track_fast_simhash.c: the near rows of the in-memory relink
 * (track_fast.c) for a SimHash registration: every earlier row within the
 * threshold's Hamming radius, as the store's `fp <@ hamming_ball(q, r)`
 * lookup gives them, from an in-memory multi-index hash (src/core/mih_mem.c).
 *
 * Memory, per row (FAST_SIMHASH_ROW_BYTES): the fingerprint (8) and its row
 * number in each of the four hash tables (16); plus the tables' bucket
 * starts (fast_simhash_fixed_bytes(): 1 MB).
 */
#include "postgres.h"

#include "miscadmin.h"
#include "port/pg_bitutils.h"

#include "tfp_mih_mem.h"
#include "track_fast.h"

double
fast_simhash_fixed_bytes(void)
{
	size_t		start_len,
				rows_len;

	tfp_mih_mem_sizes(0, &start_len, &rows_len);
	return (double) start_len * sizeof(uint32);
}

/* Every row's link, in order, each from the rows before it. */
void
fast_simhash_link(FastRows *r)
{
	TrackConfig *c = r->c;
	size_t		start_len,
				rows_len;
	tfp_mih_mem ix;
	size_t		cap = 1024;
	uint32	   *hits = MemoryContextAlloc(r->cxt, sizeof(uint32) * cap);
	uint64	   *order = MemoryContextAlloc(r->cxt, sizeof(uint64) * cap);

	tfp_mih_mem_sizes(r->n, &start_len, &rows_len);
	tfp_mih_mem_init(&ix, r->fps, r->absent, r->n, (int) c->threshold,
					 fast_alloc(r, sizeof(uint32) * start_len), fast_alloc(r, sizeof(uint32) * rows_len));
	for (int t = 0; t < TFP_MIH_MEM_M; t++)
	{
		CHECK_FOR_INTERRUPTS();
		tfp_mih_mem_build_table(&ix, t);
	}

	for (uint32 i = 0; i < r->n; i++)
	{
		size_t		nh = 0;

		CHECK_FOR_INTERRUPTS();
		if (!r->absent[i])
		{
			nh = tfp_mih_mem_query(&ix, r->fps[i], i, hits, cap);
			if (nh > cap)
			{
				while (cap < nh)
					cap *= 2;
				hits = repalloc_huge(hits, sizeof(uint32) * cap);
				order = repalloc_huge(order, sizeof(uint64) * cap);
				nh = tfp_mih_mem_query(&ix, r->fps[i], i, hits, cap);
			}
			for (size_t h = 0; h < nh; h++)
				order[h] = ((uint64) pg_popcount64(r->fps[hits[h]] ^ r->fps[i]) << 32) | hits[h];
		}
		fast_link_row(r, i, order, nh);
	}
}
