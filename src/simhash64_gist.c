/*
 * simhash64_gist.c: GiST operator class for simhash64 (gist_simhash64_ops).
 *
 * A key bounds a subtree by the bits all its fingerprints share: the AND and
 * the OR of them.  The bits fixed in a key give an exact lower bound of the
 * Hamming distance from a query to anything below it, so radius searches and
 * nearest-neighbour scans return exactly what a sequential scan returns.
 *
 * Fingerprints of unrelated texts are close to random, and the AND/OR of a
 * random page leaves every bit free.  The tree prunes because picksplit and
 * the sorted build group fingerprints that share bits, trie-fashion: each
 * split fixes one bit on both sides, and sorted builds fill pages with runs of
 * equal leading bits.  docs/indexing.md has the measured effect.
 */
#include "postgres.h"

#include "access/gist.h"
#include "access/stratnum.h"
#include "utils/sortsupport.h"

#include "textfp.h"

PG_FUNCTION_INFO_V1(gist_simhash64_key_in);
Datum
gist_simhash64_key_in(PG_FUNCTION_ARGS)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("cannot accept a value of type %s", "gist_simhash64_key")));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gist_simhash64_key_out);
Datum
gist_simhash64_key_out(PG_FUNCTION_ARGS)
{
	SimhashGistKey *key = (SimhashGistKey *) PG_GETARG_POINTER(0);
	char		a[17];
	char		o[17];

	tfp_hex64_format(key->and_bits, a);
	tfp_hex64_format(key->or_bits, o);
	PG_RETURN_CSTRING(psprintf("(%s,%s)", a, o));
}

static SimhashGistKey *
key_of_value(uint64 v)
{
	SimhashGistKey *key = (SimhashGistKey *) palloc(sizeof(SimhashGistKey));

	key->and_bits = v;
	key->or_bits = v;
	return key;
}

PG_FUNCTION_INFO_V1(gist_simhash64_consistent);
Datum
gist_simhash64_consistent(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	SimhashGistKey *key = (SimhashGistKey *) DatumGetPointer(entry->key);
	uint64		center;
	int			radius = simhash_query_radius(strategy, PG_GETARG_DATUM(1), &center);

	/* leaf keys are the exact value, and internal bounds are exact too */
	*recheck = false;
	PG_RETURN_BOOL(tfp_bound_distance(key->and_bits, key->or_bits, center) <= radius);
}

PG_FUNCTION_INFO_V1(gist_simhash64_distance);
Datum
gist_simhash64_distance(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	uint64		q = PG_GETARG_SIMHASH64(1);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	SimhashGistKey *key = (SimhashGistKey *) DatumGetPointer(entry->key);

	*recheck = false;
	PG_RETURN_FLOAT8((float8) tfp_bound_distance(key->and_bits, key->or_bits, q));
}

/* AND and OR of the keys at the given offsets (all n entries if offs is NULL). */
static SimhashGistKey *
union_of(GistEntryVector *entryvec, OffsetNumber *offs, int n)
{
	SimhashGistKey *res = (SimhashGistKey *) palloc(sizeof(SimhashGistKey));

	res->and_bits = ~UINT64CONST(0);
	res->or_bits = 0;
	for (int i = 0; i < n; i++)
	{
		SimhashGistKey *k = (SimhashGistKey *)
			DatumGetPointer(entryvec->vector[offs ? offs[i] : i].key);

		res->and_bits &= k->and_bits;
		res->or_bits |= k->or_bits;
	}
	return res;
}

PG_FUNCTION_INFO_V1(gist_simhash64_union);
Datum
gist_simhash64_union(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	int		   *size = (int *) PG_GETARG_POINTER(1);

	*size = sizeof(SimhashGistKey);
	PG_RETURN_POINTER(union_of(entryvec, NULL, entryvec->n));
}

/* Bits that joining add to subtree key o would leave free, beyond those free now. */
int
simhash_gist_penalty(const SimhashGistKey *o, const SimhashGistKey *a)
{
	uint64		free_before = o->or_bits & ~o->and_bits;
	uint64		free_after = (o->or_bits | a->or_bits) & ~(o->and_bits & a->and_bits);

	return tfp_popcount64(free_after) - tfp_popcount64(free_before);
}

PG_FUNCTION_INFO_V1(gist_simhash64_compress);
Datum
gist_simhash64_compress(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *res;

	if (!entry->leafkey)
		PG_RETURN_POINTER(entry);
	res = (GISTENTRY *) palloc(sizeof(GISTENTRY));
	gistentryinit(*res, PointerGetDatum(key_of_value(DatumGetSimhash64(entry->key))),
				  entry->rel, entry->page, entry->offset, false);
	PG_RETURN_POINTER(res);
}

/* Index-only scans: a leaf key is the fingerprint itself. */
PG_FUNCTION_INFO_V1(gist_simhash64_fetch);
Datum
gist_simhash64_fetch(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	SimhashGistKey *key = (SimhashGistKey *) DatumGetPointer(entry->key);
	GISTENTRY  *res = (GISTENTRY *) palloc(sizeof(GISTENTRY));

	gistentryinit(*res, Simhash64GetDatum(key->and_bits),
				  entry->rel, entry->page, entry->offset, false);
	PG_RETURN_POINTER(res);
}

PG_FUNCTION_INFO_V1(gist_simhash64_penalty);
Datum
gist_simhash64_penalty(PG_FUNCTION_ARGS)
{
	GISTENTRY  *orig = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *add = (GISTENTRY *) PG_GETARG_POINTER(1);
	float	   *penalty = (float *) PG_GETARG_POINTER(2);

	*penalty = (float) simhash_gist_penalty((SimhashGistKey *) DatumGetPointer(orig->key),
											(SimhashGistKey *) DatumGetPointer(add->key));
	PG_RETURN_POINTER(penalty);
}

/*
 * Split on the free bit that divides the entries most evenly, as a bit trie
 * would: both halves then have that bit fixed.  Identical entries (no free
 * bit) are split in half.  Keys are read through their SimhashGistKey prefix,
 * so the hamming_ball class shares this.
 */
void
simhash_gist_assign(GistEntryVector *entryvec, GIST_SPLITVEC *v)
{
	OffsetNumber maxoff = entryvec->n - 1;
	int			n = maxoff - FirstOffsetNumber + 1;
	int			fixed1[SIMHASH_BITS] = {0};
	int			fixed0[SIMHASH_BITS] = {0};
	int			best_bit = -1;
	int			best_smaller = 0;

	for (OffsetNumber i = FirstOffsetNumber; i <= maxoff; i++)
	{
		SimhashGistKey *k = (SimhashGistKey *) DatumGetPointer(entryvec->vector[i].key);

		for (int b = 0; b < SIMHASH_BITS; b++)
		{
			fixed1[b] += (int) ((k->and_bits >> b) & 1);
			fixed0[b] += (int) ((~k->or_bits >> b) & 1);
		}
	}
	/* the bit whose smaller fixed side is largest: the most even split */
	for (int b = SIMHASH_BITS - 1; b >= 0; b--)
	{
		int			smaller = Min(fixed0[b], fixed1[b]);

		if (smaller > best_smaller)
		{
			best_smaller = smaller;
			best_bit = b;
		}
	}

	v->spl_left = (OffsetNumber *) palloc(n * sizeof(OffsetNumber));
	v->spl_right = (OffsetNumber *) palloc(n * sizeof(OffsetNumber));
	v->spl_nleft = 0;
	v->spl_nright = 0;
	for (OffsetNumber i = FirstOffsetNumber; i <= maxoff; i++)
	{
		SimhashGistKey *k = (SimhashGistKey *) DatumGetPointer(entryvec->vector[i].key);
		uint64		bit = best_bit < 0 ? 0 : UINT64CONST(1) << best_bit;
		bool		go_right;

		if (best_bit < 0)
			go_right = (i - FirstOffsetNumber) >= n / 2;
		else if (k->and_bits & bit)
			go_right = true;
		else if (!(k->or_bits & bit))
			go_right = false;
		else					/* the bit is free in this subtree */
			go_right = v->spl_nright < v->spl_nleft;
		if (go_right)
			v->spl_right[v->spl_nright++] = i;
		else
			v->spl_left[v->spl_nleft++] = i;
	}
}

PG_FUNCTION_INFO_V1(gist_simhash64_picksplit);
Datum
gist_simhash64_picksplit(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	GIST_SPLITVEC *v = (GIST_SPLITVEC *) PG_GETARG_POINTER(1);

	simhash_gist_assign(entryvec, v);
	v->spl_ldatum = PointerGetDatum(union_of(entryvec, v->spl_left, v->spl_nleft));
	v->spl_rdatum = PointerGetDatum(union_of(entryvec, v->spl_right, v->spl_nright));
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(gist_simhash64_same);
Datum
gist_simhash64_same(PG_FUNCTION_ARGS)
{
	SimhashGistKey *a = (SimhashGistKey *) PG_GETARG_POINTER(0);
	SimhashGistKey *b = (SimhashGistKey *) PG_GETARG_POINTER(1);
	bool	   *result = (bool *) PG_GETARG_POINTER(2);

	*result = a->and_bits == b->and_bits && a->or_bits == b->or_bits;
	PG_RETURN_POINTER(result);
}

/*
 * Sorted build: leaf keys in unsigned order of the fingerprint, so each page
 * holds a run of fingerprints with equal leading bits.
 */
static int
key_cmp(Datum a, Datum b, SortSupport ssup)
{
	uint64		x = ((SimhashGistKey *) DatumGetPointer(a))->and_bits;
	uint64		y = ((SimhashGistKey *) DatumGetPointer(b))->and_bits;

	return x < y ? -1 : (x > y ? 1 : 0);
}

PG_FUNCTION_INFO_V1(gist_simhash64_sortsupport);
Datum
gist_simhash64_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = key_cmp;
	PG_RETURN_VOID();
}
