/*
 * tfp_mih_mem.h: an in-memory multi-index hash over an array of 64-bit codes
 * in a fixed order, for exact "which earlier codes lie within r bits of code
 * i" queries: the fast relink of a tracked table's store (track_fast.c) asks
 * it once per row, in (time, key) order.
 *
 * The layout, the probe radii and the emission rule are those of the mih
 * access method (tfp_mih.h): m substrings, table i probed within t[i] bits,
 * sum(t[i] + 1) > r, each answer reported by one table only.  Each table
 * keeps the row numbers of its buckets one after the other, ascending within
 * a bucket (a counting sort), so a query for the rows before i stops each
 * bucket at the first row >= i.
 *
 * The caller owns the memory: tfp_mih_mem_sizes() says how many uint32_t
 * the two arrays take; tfp_mih_mem_build_table() fills one table at a time
 * (the server checks for a cancel between tables).  No PostgreSQL headers.
 */
#ifndef TFP_MIH_MEM_H
#define TFP_MIH_MEM_H

#include "tfp_mih.h"

/* The substrings of the in-memory index: 16 bits each, the widest mih has. */
#define TFP_MIH_MEM_M 4

typedef struct tfp_mih_mem
{
	tfp_mih_layout layout;
	tfp_mih_plan plan;
	const uint64_t *codes;		/* the caller's, n of them */
	const uint8_t *absent;		/* non-zero: codes[j] is no code (NULL); may be NULL */
	uint32_t	n;
	uint32_t	present;		/* codes not absent */
	uint32_t   *start;			/* layout.offset[m] + 1: first entry of each bucket */
	uint32_t   *rows;			/* m * present row numbers, table by table */
} tfp_mih_mem;

/* The number of uint32_t of start[] and of rows[] for n codes. */
extern void tfp_mih_mem_sizes(uint32_t n, size_t *start_len, size_t *rows_len);

/*
 * Sets up ix over codes[0..n) for queries of radius r (0..64), start[] and
 * rows[] sized by tfp_mih_mem_sizes(); then build table 0 .. m - 1.
 */
extern void tfp_mih_mem_init(tfp_mih_mem *ix, const uint64_t *codes, const uint8_t *absent,
							 uint32_t n, int r, uint32_t *start, uint32_t *rows);
extern void tfp_mih_mem_build_table(tfp_mih_mem *ix, int i);

/*
 * The rows j < before (not absent) with popcount(codes[j] ^ q) <= r, each
 * once, in no particular order: the first cap into out[]; returns how many
 * there are (more than cap: call again with room for them).
 */
extern size_t tfp_mih_mem_query(const tfp_mih_mem *ix, uint64_t q, uint32_t before,
								uint32_t *out, size_t cap);

#endif							/* TFP_MIH_MEM_H */
