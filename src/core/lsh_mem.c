/*
 * lsh_mem.c: the in-memory LSH band tables of the fast relink.  See
 * tfp_lsh_mem.h.
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_lsh_mem.h"

/* Rows scanned, and rows tested, between interrupt checks. */
#define SCAN_CHECK 65536
#define TEST_CHECK 4096

/*
 * A row's mark: the query that last met it above MARK_COUNT_BITS, the
 * buckets that query counted it in below (at most TFP_MINHASH_K_MAX): one
 * word a row met, read and written once.
 */
#define MARK_COUNT_BITS 11
#define MARK_COUNT_MASK ((UINT32_C(1) << MARK_COUNT_BITS) - 1)
#define MARK_QUERIES (UINT32_C(1) << (32 - MARK_COUNT_BITS))

/* Rows ahead whose mark a scan asks the cache for. */
#define PREFETCH_AHEAD 16

static void
check_interrupts(tfp_lsh_mem *ix)
{
	if (ix->env->check_interrupts)
		ix->env->check_interrupts(ix->env->ctx);
}

static const uint32_t *
row_values(const tfp_lsh_mem *ix, uint32_t j)
{
	return ix->values + (size_t) j * ix->stride;
}

/* Whether row j has bands: a signature, not featureless (lsh_query.c). */
static bool
banded(const tfp_lsh_mem *ix, uint32_t j)
{
	return (ix->absent == NULL || !ix->absent[j]) && !tfp_minhash_is_featureless(row_values(ix, j), ix->k);
}

tfp_status
tfp_lsh_mem_init(tfp_lsh_mem *ix, tfp_env *env, const uint32_t *values, size_t stride,
				 const uint8_t *absent, uint32_t n, const tfp_lsh_header *h,
				 int bands, int rows, int min_bands, double threshold)
{
	size_t		nb = (size_t) n * (size_t) bands;

	memset(ix, 0, sizeof(*ix));
	ix->env = env;
	ix->values = values;
	ix->stride = stride;
	ix->absent = absent;
	ix->n = n;
	ix->k = h->k;
	ix->bands = bands;
	ix->rows = rows;
	ix->min_bands = min_bands;
	ix->needed = tfp_jaccard_needed(threshold, h->k);
	ix->header = *h;
	ix->bucket = env->alloc(env->ctx, (nb ? nb : 1) * sizeof(uint32_t));
	ix->mark = env->alloc(env->ctx, (n ? n : 1) * sizeof(uint32_t));
	ix->order = env->alloc(env->ctx, (size_t) bands * sizeof(uint64_t));
	ix->start = env->alloc(env->ctx, sizeof(uint32_t));
	if (ix->bucket == NULL || ix->mark == NULL || ix->order == NULL || ix->start == NULL)
		return TFP_ENOMEM;
	ix->start[0] = 0;
	/* every byte 0xff: TFP_LSH_MEM_NONE, in slices with interrupt checks */
	for (size_t p = 0; p < nb; p += SCAN_CHECK)
	{
		size_t		len = nb - p < SCAN_CHECK ? nb - p : SCAN_CHECK;

		memset(ix->bucket + p, 0xff, len * sizeof(uint32_t));
		check_interrupts(ix);
	}
	tfp_clear(env, ix->mark, (size_t) n * sizeof(uint32_t));
	return TFP_OK;
}

/* The 32-bit key of row j's band t: rows with the band equal share it. */
static uint32_t
band_key(const tfp_lsh_mem *ix, uint32_t j, int t)
{
	const uint32_t *v = row_values(ix, j);

	if (ix->rows == 1)
		return v[t];
	return (uint32_t) (tfp_lsh_band_key(&ix->header, ix->rows, t, v) >> 32);
}

/*
 * Band t's table: the banded rows sorted by (key, row); each run of two rows
 * or more a bucket, appended to members[].
 */
tfp_status
tfp_lsh_mem_build_band(tfp_lsh_mem *ix, int t)
{
	tfp_env    *env = ix->env;
	uint64_t   *v = env->alloc(env->ctx, (ix->n ? ix->n : 1) * sizeof(uint64_t));
	size_t		m = 0;
	size_t		shared = 0;
	size_t		runs = 0;
	tfp_status	rc;
	uint32_t   *p;

	if (v == NULL)
		return TFP_ENOMEM;
	for (uint32_t j = 0; j < ix->n; j++)
	{
		if (banded(ix, j))
			v[m++] = ((uint64_t) band_key(ix, j, t) << 32) | j;
		if ((j & (SCAN_CHECK - 1)) == SCAN_CHECK - 1)
			check_interrupts(ix);
	}
	if ((rc = tfp_sort_u64(env, v, m, false)) != TFP_OK)
	{
		env->free(env->ctx, v);
		return rc;
	}
	/* the room this band's buckets take, exactly */
	for (size_t a = 0, b; a < m; a = b)
	{
		for (b = a + 1; b < m && (v[b] >> 32) == (v[a] >> 32); b++)
			;
		if (b - a >= 2)
		{
			shared += b - a;
			runs++;
		}
	}
	p = tfp_grow(env, ix->members, ix->nmembers * sizeof(uint32_t), (ix->nmembers + shared + 1) * sizeof(uint32_t));
	if (p == NULL)
	{
		env->free(env->ctx, v);
		return TFP_ENOMEM;
	}
	ix->members = p;
	p = tfp_grow(env, ix->start, ((size_t) ix->nbuckets + 1) * sizeof(uint32_t),
				 ((size_t) ix->nbuckets + runs + 1) * sizeof(uint32_t));
	if (p == NULL)
	{
		env->free(env->ctx, v);
		return TFP_ENOMEM;
	}
	ix->start = p;
	for (size_t a = 0, b; a < m; a = b)
	{
		for (b = a + 1; b < m && (v[b] >> 32) == (v[a] >> 32); b++)
			;
		if (b - a < 2)
			continue;
		for (size_t e = a; e < b; e++)
		{
			uint32_t	j = (uint32_t) v[e];

			ix->members[ix->nmembers++] = j;
			ix->bucket[(size_t) j * ix->bands + t] = ix->nbuckets;
		}
		ix->start[++ix->nbuckets] = (uint32_t) ix->nmembers;
		if ((ix->nbuckets & (SCAN_CHECK - 1)) == 0)
			check_interrupts(ix);
	}
	env->free(env->ctx, v);
	return TFP_OK;
}

/* The rows before i in bucket b (ascending, i among them): where i is. */
static uint32_t
rows_before(const tfp_lsh_mem *ix, uint32_t b, uint32_t i)
{
	uint32_t	lo = ix->start[b];
	uint32_t	hi = ix->start[b + 1];
	uint32_t	first = lo;

	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;

		if (ix->members[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - first;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

static void
sort_order(uint64_t *o, int n)
{
	if (n > 64)
	{
		qsort(o, (size_t) n, sizeof(uint64_t), cmp_u64);
		return;
	}
	for (int a = 1; a < n; a++)
	{
		uint64_t	x = o[a];
		int			b = a;

		for (; b > 0 && o[b - 1] > x; b--)
			o[b] = o[b - 1];
		o[b] = x;
	}
}

/*
 * A long bucket is scanned (and counted) rather than left out of the count
 * when it is at most this many times as long as the rows met so far: a row
 * met costs a counter, a row tested a read of its signature (a cache miss).
 */
#define SCAN_RATHER_THAN_TEST 16

/* Counts the rows before i in bucket b: new ones into out[]. */
static size_t
count_bucket(tfp_lsh_mem *ix, uint32_t b, uint32_t before, uint32_t id, uint32_t *out, size_t found,
			 size_t *scanned)
{
	const uint32_t *members = ix->members + ix->start[b];
	uint32_t   *mark = ix->mark;
	uint32_t	met = id << MARK_COUNT_BITS;

	for (uint32_t e = 0; e < before; e++)
	{
		uint32_t	j = members[e];

#if defined(__GNUC__) || defined(__clang__)
		if (e + PREFETCH_AHEAD < before)
			__builtin_prefetch(&mark[members[e + PREFETCH_AHEAD]], 1);
#endif
		if ((mark[j] & ~MARK_COUNT_MASK) != met)
		{
			mark[j] = met | 1;
			out[found++] = j;
		}
		else
			mark[j]++;
		if ((++*scanned & (SCAN_CHECK - 1)) == 0)
			check_interrupts(ix);
	}
	return found;
}

size_t
tfp_lsh_mem_query(tfp_lsh_mem *ix, uint32_t i, uint32_t *out, uint16_t *matches)
{
	const uint32_t *q = row_values(ix, i);
	const uint32_t *bq = ix->bucket + (size_t) i * ix->bands;
	int			nonempty = 0;
	int			left_out;
	size_t		found = 0;
	size_t		kept = 0;
	size_t		scanned = 0;
	uint32_t	id;
	bool		exact;

	if (i >= ix->n || !banded(ix, i))
		return 0;
	for (int t = 0; t < ix->bands; t++)
	{
		uint32_t	before = bq[t] == TFP_LSH_MEM_NONE ? 0 : rows_before(ix, bq[t], i);

		ix->order[t] = ((uint64_t) before << 32) | (uint32_t) t;
		nonempty += before > 0;
	}
	/* fewer than min_bands buckets with earlier rows: no row shares enough */
	if (nonempty < ix->min_bands)
		return 0;
	if (++ix->query == MARK_QUERIES)
	{
		/* the marks' query numbers wrapped: start afresh */
		tfp_clear(ix->env, ix->mark, (size_t) ix->n * sizeof(uint32_t));
		ix->query = 1;
	}
	id = ix->query;

	/*
	 * Count the equal buckets of the rows met: every bucket but the
	 * min_bands - 1 longest (a near row is in one of those), then of the
	 * longest each that is not too long for its cost.  A near row has
	 * min_bands equal buckets, at most one in each bucket left out: a count
	 * below min_bands - left_out rules a row out without reading it.
	 */
	sort_order(ix->order, ix->bands);
	for (int o = 0; o <= ix->bands - ix->min_bands; o++)
	{
		uint32_t	before = (uint32_t) (ix->order[o] >> 32);

		if (before > 0)
			found = count_bucket(ix, bq[(uint32_t) ix->order[o]], before, id, out, found, &scanned);
	}
	left_out = ix->min_bands - 1;
	for (int o = ix->bands - ix->min_bands + 1; o < ix->bands; o++)
	{
		uint32_t	before = (uint32_t) (ix->order[o] >> 32);

		if (before > (uint64_t) SCAN_RATHER_THAN_TEST * (found + 1))
			break;				/* this one and the longer ones stay out */
		found = count_bucket(ix, bq[(uint32_t) ix->order[o]], before, id, out, found, &scanned);
		left_out--;
	}
	/* a count of every band of one value is the number of equal bands */
	exact = left_out == 0 && ix->rows == 1;

	/* the exact test, the operators' */
	for (size_t c = 0; c < found; c++)
	{
		uint32_t	j = out[c];
		const uint32_t *v;
		int			eq;

		if ((c & (TEST_CHECK - 1)) == TEST_CHECK - 1)
			check_interrupts(ix);
		if ((int) (ix->mark[j] & MARK_COUNT_MASK) < ix->min_bands - left_out)
			continue;
		v = row_values(ix, j);
		if (!exact && tfp_lsh_equal_bands(v, q, ix->bands, ix->rows, ix->min_bands) < ix->min_bands)
			continue;
		eq = tfp_minhash_matches(v, q, ix->k);
		if (eq < ix->needed)
			continue;
		out[kept] = j;
		matches[kept] = (uint16_t) eq;
		kept++;
	}
	return kept;
}

size_t
tfp_lsh_mem_bytes(const tfp_lsh_mem *ix)
{
	return sizeof(uint32_t) * ((size_t) ix->n * ix->bands + ix->nbuckets + 1 + ix->nmembers + ix->n) +
		sizeof(uint64_t) * (size_t) ix->bands;
}

void
tfp_lsh_mem_free(tfp_lsh_mem *ix)
{
	tfp_env    *env = ix->env;

	if (ix->bucket)
		env->free(env->ctx, ix->bucket);
	if (ix->start)
		env->free(env->ctx, ix->start);
	if (ix->members)
		env->free(env->ctx, ix->members);
	if (ix->mark)
		env->free(env->ctx, ix->mark);
	if (ix->order)
		env->free(env->ctx, ix->order);
	memset(ix, 0, sizeof(*ix));
}
