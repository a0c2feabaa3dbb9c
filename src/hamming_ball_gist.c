/*
 * hamming_ball_gist.c: GiST operator class for hamming_ball
 * (gist_hamming_ball_ops), for && and so for exclusion constraints such as
 * EXCLUDE USING gist (hamming_ball(fp, 3) WITH &&).
 *
 * A key is the AND/OR bound of the centres below (as in gist_simhash64_ops)
 * plus their largest radius: two balls overlap when their centres are at most
 * r1 + r2 apart, so a subtree can hold an overlapping ball only if the bound
 * distance to the query centre is at most its radius plus that largest one.
 */
#include "postgres.h"

#include "access/gist.h"
#include "access/stratnum.h"

#include "textfp.h"

PG_FUNCTION_INFO_V1(gist_hamming_ball_key_in);
Datum
gist_hamming_ball_key_in(PG_FUNCTION_ARGS)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("cannot accept a value of type %s", "gist_hamming_ball_key")));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gist_hamming_ball_key_out);
Datum
gist_hamming_ball_key_out(PG_FUNCTION_ARGS)
{
	BallGistKey *key = (BallGistKey *) PG_GETARG_POINTER(0);
	char		a[17];
	char		o[17];

	tfp_hex64_format(key->and_bits, a);
	tfp_hex64_format(key->or_bits, o);
	PG_RETURN_CSTRING(psprintf("(%s,%s,%d)", a, o, key->max_radius));
}

PG_FUNCTION_INFO_V1(gist_hamming_ball_consistent);
Datum
gist_hamming_ball_consistent(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	HammingBall *q = PG_GETARG_HAMMING_BALL_P(1);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	BallGistKey *key = (BallGistKey *) DatumGetPointer(entry->key);

	if (strategy != BALL_OVERLAP_STRATEGY)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	*recheck = false;			/* exact at leaves, a true bound inside */
	PG_RETURN_BOOL(tfp_bound_distance(key->and_bits, key->or_bits, q->center)
				   <= q->radius + key->max_radius);
}

/* Bound of the keys at the given offsets (all n entries if offs is NULL). */
static BallGistKey *
union_of(GistEntryVector *entryvec, OffsetNumber *offs, int n)
{
	BallGistKey *res = (BallGistKey *) palloc0(sizeof(BallGistKey));

	res->and_bits = ~UINT64CONST(0);
	for (int i = 0; i < n; i++)
	{
		BallGistKey *k = (BallGistKey *)
			DatumGetPointer(entryvec->vector[offs ? offs[i] : i].key);

		res->and_bits &= k->and_bits;
		res->or_bits |= k->or_bits;
		res->max_radius = Max(res->max_radius, k->max_radius);
	}
	return res;
}

PG_FUNCTION_INFO_V1(gist_hamming_ball_union);
Datum
gist_hamming_ball_union(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	int		   *size = (int *) PG_GETARG_POINTER(1);

	*size = sizeof(BallGistKey);
	PG_RETURN_POINTER(union_of(entryvec, NULL, entryvec->n));
}

PG_FUNCTION_INFO_V1(gist_hamming_ball_compress);
Datum
gist_hamming_ball_compress(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *res;
	HammingBall *b;
	BallGistKey *key;

	if (!entry->leafkey)
		PG_RETURN_POINTER(entry);
	b = (HammingBall *) DatumGetPointer(entry->key);
	key = (BallGistKey *) palloc0(sizeof(BallGistKey));
	key->and_bits = b->center;
	key->or_bits = b->center;
	key->max_radius = b->radius;
	res = (GISTENTRY *) palloc(sizeof(GISTENTRY));
	gistentryinit(*res, PointerGetDatum(key), entry->rel, entry->page, entry->offset, false);
	PG_RETURN_POINTER(res);
}

PG_FUNCTION_INFO_V1(gist_hamming_ball_penalty);
Datum
gist_hamming_ball_penalty(PG_FUNCTION_ARGS)
{
	GISTENTRY  *orig = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *add = (GISTENTRY *) PG_GETARG_POINTER(1);
	float	   *penalty = (float *) PG_GETARG_POINTER(2);
	BallGistKey *o = (BallGistKey *) DatumGetPointer(orig->key);
	BallGistKey *a = (BallGistKey *) DatumGetPointer(add->key);

	/* bits freed and radius grown both loosen the bound by one bit each */
	*penalty = (float) (simhash_gist_penalty((SimhashGistKey *) o, (SimhashGistKey *) a) +
						Max(0, a->max_radius - o->max_radius));
	PG_RETURN_POINTER(penalty);
}

PG_FUNCTION_INFO_V1(gist_hamming_ball_picksplit);
Datum
gist_hamming_ball_picksplit(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	GIST_SPLITVEC *v = (GIST_SPLITVEC *) PG_GETARG_POINTER(1);

	simhash_gist_assign(entryvec, v);
	v->spl_ldatum = PointerGetDatum(union_of(entryvec, v->spl_left, v->spl_nleft));
	v->spl_rdatum = PointerGetDatum(union_of(entryvec, v->spl_right, v->spl_nright));
	PG_RETURN_POINTER(v);
}

PG_FUNCTION_INFO_V1(gist_hamming_ball_same);
Datum
gist_hamming_ball_same(PG_FUNCTION_ARGS)
{
	BallGistKey *a = (BallGistKey *) PG_GETARG_POINTER(0);
	BallGistKey *b = (BallGistKey *) PG_GETARG_POINTER(1);
	bool	   *result = (bool *) PG_GETARG_POINTER(2);

	*result = a->and_bits == b->and_bits && a->or_bits == b->or_bits &&
		a->max_radius == b->max_radius;
	PG_RETURN_POINTER(result);
}
