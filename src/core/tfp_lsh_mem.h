/*
 * tfp_lsh_mem.h: in-memory LSH band tables over an array of MinHash
 * signatures in a fixed order, for exact "which earlier signatures are near
 * signature i" queries: the fast relink of a MinHash registration's store
 * (src/track/track_fast_minhash.c) asks it once per row, in (time, key)
 * order.
 *
 * Near means what the store's lookup means, `fp @@ lsh_query(q, bands,
 * rows, min_bands) AND fp <@ jaccard_ball(q, threshold)`: neither signature
 * featureless, at least min_bands of the first `bands` bands of `rows`
 * positions equal in every position (tfp_lsh_equal_bands: values, not band
 * keys), and at least tfp_jaccard_needed(threshold, k) equal positions.  All
 * signatures share one header (k, method, seed, pipeline): the caller checks
 * it, as the operators compare no others.
 *
 * Each band has a table: the rows grouped by a 32-bit key of the band (its
 * value for bands of one position, else the top bits of tfp_lsh_band_key:
 * rows whose band is equal always share a key, rows that share a key by
 * chance are weeded out by the exact test).  Only keys two rows or more share
 * are kept, their rows ascending, so the rows before i in i's bucket are a
 * prefix of it.  A row near i shares min_bands of i's buckets, so it is in
 * one of any bands - min_bands + 1 of them: a query counts the rows of the
 * shortest ones (GIN's trick for min_bands of n keys), then of each longer
 * one not too long for its cost, and tests only the rows whose count can
 * still reach min_bands, each once.
 *
 * Memory (through the caller's tfp_env), at most per row and band: a bucket
 * number (4 bytes), a place in a bucket (4) and a bucket start (2: a bucket
 * holds two rows or more); per row a query's mark (4) and, while a band is
 * built, a sort key and its radix buffer (16): TFP_LSH_MEM_BYTES_PER_ROW().
 * Places are 32 bits: n * bands must stay below 2^32 - 1 (the caller checks).
 * No PostgreSQL headers.
 */
#ifndef TFP_LSH_MEM_H
#define TFP_LSH_MEM_H

#include "tfp_core.h"

#define TFP_LSH_MEM_NONE UINT32_MAX	/* no bucket: the row's key is its own */

/* The most bytes a row takes, for bands bands (see above). */
#define TFP_LSH_MEM_BYTES_PER_ROW(bands) ((size_t) (bands) * 10 + 20)

typedef struct tfp_lsh_mem
{
	tfp_env    *env;
	const uint32_t *values;		/* row j's k values at values + j * stride */
	size_t		stride;
	const uint8_t *absent;		/* non-zero: row j has no signature; may be NULL */
	uint32_t	n;
	int			k;
	int			bands;
	int			rows;
	int			min_bands;
	int			needed;			/* equal positions: tfp_jaccard_needed(threshold, k) */
	tfp_lsh_header header;
	uint32_t   *bucket;			/* n * bands: row j's bucket in band t at j * bands + t */
	uint32_t   *start;			/* nbuckets + 1: each bucket's first place in members[] */
	uint32_t   *members;		/* the rows of each bucket, ascending */
	uint32_t	nbuckets;
	size_t		nmembers;
	uint32_t   *mark;			/* n: the query that last met row j, and its buckets counted */
	uint32_t	query;
	uint64_t   *order;			/* bands: a query's (rows before i << 32 | band) */
} tfp_lsh_mem;

/*
 * Sets up ix over n signatures (values, stride: see above) with header h,
 * for the banding and the threshold given (bands * rows <= k); then build
 * band 0 .. bands - 1 (the server checks for a cancel between them too).
 * TFP_ENOMEM: call tfp_lsh_mem_free().
 */
extern tfp_status tfp_lsh_mem_init(tfp_lsh_mem *ix, tfp_env *env, const uint32_t *values, size_t stride,
								   const uint8_t *absent, uint32_t n, const tfp_lsh_header *h,
								   int bands, int rows, int min_bands, double threshold);
extern tfp_status tfp_lsh_mem_build_band(tfp_lsh_mem *ix, int band);

/*
 * The rows j < i near row i (see above), each once, in no particular order,
 * into out[] (room for i of them), with their equal positions in matches[];
 * returns how many.
 */
extern size_t tfp_lsh_mem_query(tfp_lsh_mem *ix, uint32_t i, uint32_t *out, uint16_t *matches);

/* The bytes ix holds now. */
extern size_t tfp_lsh_mem_bytes(const tfp_lsh_mem *ix);

extern void tfp_lsh_mem_free(tfp_lsh_mem *ix);

#endif							/* TFP_LSH_MEM_H */
