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
	ix->stamp = env->alloc(env->ctx, (n ? n : 1) * sizeof(uint32_t));
	ix->order = env->alloc(env->ctx, (size_t) bands * sizeof(uint64_t));
	ix->start = env->alloc(env->ctx, sizeof(uint32_t));
	if (ix->bucket == NULL || ix->stamp == NULL || ix->order == NULL || ix->start == NULL)
		return TFP_ENOMEM;
	ix->start[0] = 0;
	/* every byte 0xff: TFP_LSH_MEM_NONE, in slices with interrupt checks */
	for (size_t p = 0; p < nb; p += SCAN_CHECK)
	{
		size_t		len = nb - p < SCAN_CHECK ? nb - p : SCAN_CHECK;

		memset(ix->bucket + p, 0xff, len * sizeof(uint32_t));
		check_interrupts(ix);
	}
	tfp_clear(env, ix->stamp, (size_t) n * sizeof(uint32_t));
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

size_t
tfp_lsh_mem_query(tfp_lsh_mem *ix, uint32_t i, uint32_t *out, uint16_t *matches)
{
	const uint32_t *q = row_values(ix, i);
	const uint32_t *bq = ix->bucket + (size_t) i * ix->bands;
	int			nonempty = 0;
	size_t		found = 0;
	size_t		kept = 0;
	size_t		scanned = 0;
	uint32_t	id;

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
	if (++ix->query == 0)
	{
		/* the stamps wrapped: start afresh */
		tfp_clear(ix->env, ix->stamp, (size_t) ix->n * sizeof(uint32_t));
		ix->query = 1;
	}
	id = ix->query;
	/* every bucket but the min_bands - 1 longest */
	sort_order(ix->order, ix->bands);
	for (int o = 0; o <= ix->bands - ix->min_bands; o++)
	{
		uint32_t	before = (uint32_t) (ix->order[o] >> 32);
		uint32_t	b = bq[(uint32_t) ix->order[o]];

		if (before == 0)
			continue;
		for (uint32_t e = ix->start[b], end = ix->start[b] + before; e < end; e++)
		{
			uint32_t	j = ix->members[e];

			if (ix->stamp[j] != id)
			{
				ix->stamp[j] = id;
				out[found++] = j;
			}
			if ((++scanned & (SCAN_CHECK - 1)) == 0)
				check_interrupts(ix);
		}
	}
	/* the exact test, the operators' */
	for (size_t c = 0; c < found; c++)
	{
		uint32_t	j = out[c];
		const uint32_t *v = row_values(ix, j);
		int			eq;

		if ((c & (TEST_CHECK - 1)) == TEST_CHECK - 1)
			check_interrupts(ix);
		if (tfp_lsh_equal_bands(v, q, ix->bands, ix->rows, ix->min_bands) < ix->min_bands)
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
	if (ix->stamp)
		env->free(env->ctx, ix->stamp);
	if (ix->order)
		env->free(env->ctx, ix->order);
	memset(ix, 0, sizeof(*ix));
}
