/*
 * minhash_gin.c: GIN operator class for minhash_sig (gin_minhash_ops), exact
 * for =, % and <@ jaccard_ball.
 *
 * A signature is indexed under its k (position, value) pairs as bigint keys:
 * the position above 32 bits, the top "bits" bits of the value below (the
 * opclass option; fewer bits give a smaller index with longer posting
 * lists).  An estimate of at least t needs c = tfp_jaccard_needed(t, k)
 * equal positions, and equal positions have equal keys, so a row matching
 * fewer than c of the query's keys cannot qualify.  The rest are rechecked
 * with the operator itself: keys of truncated values can match where values
 * differ, and the keys don't record k, seed or pipeline, which the operator
 * checks (raising its error for mixed signatures).  GIN's own scan takes the
 * k - c + 1 rarest keys as the required ones, so a high threshold reads few
 * posting lists.
 */
#include "postgres.h"

#include "access/gin.h"
#include "access/reloptions.h"
#include "access/stratnum.h"

#include "textfp.h"

#define GIN_MINHASH_BITS_DEFAULT 16

typedef struct GinMinhashOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			bits;
} GinMinhashOptions;

static int
key_bits(FunctionCallInfo fcinfo)
{
	if (PG_HAS_OPCLASS_OPTIONS())
		return ((GinMinhashOptions *) PG_GET_OPCLASS_OPTIONS())->bits;
	return GIN_MINHASH_BITS_DEFAULT;
}

static Datum *
sig_keys(const MinhashSig *sig, int bits)
{
	Datum	   *keys = palloc(sizeof(Datum) * sig->k);

	for (int i = 0; i < sig->k; i++)
		keys[i] = Int64GetDatum((int64) (((uint64) i << 32) |
										 (sig->values[i] >> (32 - bits))));
	return keys;
}

PG_FUNCTION_INFO_V1(gin_minhash_options);
Datum
gin_minhash_options(PG_FUNCTION_ARGS)
{
	local_relopts *relopts = (local_relopts *) PG_GETARG_POINTER(0);

	init_local_reloptions(relopts, sizeof(GinMinhashOptions));
	add_local_int_reloption(relopts, "bits",
							"value bits kept in each (position, value) key",
							GIN_MINHASH_BITS_DEFAULT, 1, MINHASH_VALUE_BITS,
							offsetof(GinMinhashOptions, bits));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gin_minhash_extract_value);
Datum
gin_minhash_extract_value(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);

	*nentries = sig->k;
	PG_RETURN_POINTER(sig_keys(sig, key_bits(fcinfo)));
}

PG_FUNCTION_INFO_V1(gin_minhash_extract_query);
Datum
gin_minhash_extract_query(PG_FUNCTION_ARGS)
{
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	int32	   *searchMode = (int32 *) PG_GETARG_POINTER(6);
	MinhashSig *sig;
	GinMinhashQuery *q = palloc(sizeof(GinMinhashQuery));

	switch (strategy)
	{
		case MINHASH_EQ_STRATEGY:
			sig = PG_GETARG_MINHASH_SIG_P(0);
			q->needed = sig->k;
			break;
		case MINHASH_NEAR_STRATEGY:
			sig = PG_GETARG_MINHASH_SIG_P(0);
			q->needed = tfp_jaccard_needed(textfp_jaccard_threshold, sig->k);
			break;
		case MINHASH_WITHIN_STRATEGY:
			{
				JaccardBall *b = PG_GETARG_JACCARD_BALL_P(0);

				sig = &b->sig;
				q->needed = tfp_jaccard_needed(b->threshold, sig->k);
				break;
			}
		default:
			elog(ERROR, "unrecognized strategy number: %d", strategy);
	}

	if (q->needed == 0)
	{
		/* a threshold of 0 accepts every row: the recheck still checks k */
		*nentries = 0;
		*searchMode = GIN_SEARCH_MODE_ALL;
		PG_RETURN_POINTER(NULL);
	}
	*nentries = sig->k;
	*extra_data = palloc(sizeof(Pointer) * sig->k);
	for (int i = 0; i < sig->k; i++)
		(*extra_data)[i] = (Pointer) q;
	PG_RETURN_POINTER(sig_keys(sig, key_bits(fcinfo)));
}

static int
needed_keys(int32 nkeys, Pointer *extra_data)
{
	return nkeys == 0 ? 0 : ((GinMinhashQuery *) extra_data[0])->needed;
}

PG_FUNCTION_INFO_V1(gin_minhash_consistent);
Datum
gin_minhash_consistent(PG_FUNCTION_ARGS)
{
	bool	   *check = (bool *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(5);
	int			matched = 0;

	for (int i = 0; i < nkeys; i++)
		matched += check[i];
	*recheck = true;
	PG_RETURN_BOOL(matched >= needed_keys(nkeys, extra_data));
}

PG_FUNCTION_INFO_V1(gin_minhash_triconsistent);
Datum
gin_minhash_triconsistent(PG_FUNCTION_ARGS)
{
	GinTernaryValue *check = (GinTernaryValue *) PG_GETARG_POINTER(0);
	int32		nkeys = PG_GETARG_INT32(3);
	Pointer    *extra_data = (Pointer *) PG_GETARG_POINTER(4);
	int			possible = 0;

	for (int i = 0; i < nkeys; i++)
		possible += check[i] != GIN_FALSE;
	if (possible < needed_keys(nkeys, extra_data))
		PG_RETURN_GIN_TERNARY_VALUE(GIN_FALSE);
	PG_RETURN_GIN_TERNARY_VALUE(GIN_MAYBE);
}
