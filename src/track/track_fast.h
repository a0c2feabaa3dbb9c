/*
 * track_fast.h: what the files of the in-memory relink share.
 *
 *   track_fast.c          reading the store into arrays, choosing each row's
 *                         link by the batched path's rule, writing the links
 *                         that changed; the memory ceiling
 *   track_fast_simhash.c  near rows of SimHash: a multi-index hash (mih_mem.c)
 *   track_fast_minhash.c  near rows of MinHash: LSH band tables (lsh_mem.c)
 *
 * Rows are numbered in (at, key) order; a link is kept as row numbers.
 */
#ifndef TEXTFP_TRACK_FAST_H
#define TEXTFP_TRACK_FAST_H

#include "track.h"

/*
 * Bytes a row takes whatever the fingerprint: the key's Datum (8), a NULL
 * flag (1), the old link as row numbers (source 4, story 4, score 2) and the
 * new one (4, 4, 2).  A by-reference key adds its bytes rounded up to 8.
 */
#define FAST_ROW_BYTES 29

/* A score: a Hamming distance 0..64 or equal positions 0..k; or one of these. */
#define FAST_SCORE_NULL 0xFFFF
#define FAST_SCORE_OTHER 0xFFFE	/* not a score: differs from any link */
/* old_source, old_story */
#define FAST_ROW_NONE (-1)		/* no source */
#define FAST_ROW_OTHER (-2)		/* a key not among the rows before: differs from any link */

/*
 * A pass over this many rows or more says its progress, a NOTICE each tenth
 * of the rows linked; the batches say theirs past one batch of the default
 * 1,000 rows, and a smaller pass takes well under a second.
 */
#define FAST_PROGRESS_ROWS 1000

typedef struct FastRows
{
	TrackConfig *c;
	MemoryContext cxt;			/* everything below (SPI's calls switch contexts) */
	uint32		n;
	Datum	   *keys;
	uint8	   *absent;			/* NULL fingerprint */
	int32	   *old_source;
	int32	   *old_story;
	uint16	   *old_score;
	int32	   *source;
	int32	   *story;
	uint16	   *score;
	/* SimHash: the fingerprints */
	uint64	   *fps;
	/* MinHash: each signature whole (a minhash_sig Datum), sig_size bytes apart */
	char	   *sigs;
	Size		sig_size;
	int			k;
	bool		sig_seen;		/* a signature kept: the first in row sig_first */
	uint32		sig_first;
	bool		mixed;			/* signatures made differently: not answered in memory */
	/* by-reference keys, copied one after the other */
	char	   *arena;
	Size		arena_used;
	Size		arena_size;
	/* fast_link_row()'s near rows and the memory of one row's choice */
	TrackNear  *near;
	size_t		near_cap;
	MemoryContext row_cxt;
	/* the tenths of the rows linked that a progress NOTICE has told */
	uint32		told;
} FastRows;

/* track_fast.c */
extern void *fast_alloc(FastRows *r, Size n);
extern Datum fast_fp(FastRows *r, uint32 row);
extern void fast_link_row(FastRows *r, uint32 i, uint64 *order, size_t nh);

/* track_fast_simhash.c */
#define FAST_SIMHASH_ROW_BYTES 24
extern double fast_simhash_fixed_bytes(void);
extern void fast_simhash_link(FastRows *r);

/* track_fast_minhash.c */
extern Size fast_minhash_sig_size(int k);
extern double fast_minhash_row_bytes(TrackConfig *c);
extern bool fast_minhash_applies(TrackConfig *c, int64 n);
extern void fast_minhash_keep(FastRows *r, uint32 i, Datum fp);
extern void fast_minhash_link(FastRows *r);

#endif							/* TEXTFP_TRACK_FAST_H */
