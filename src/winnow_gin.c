/*
 * winnow_gin.c: GIN operator class gin_winnow_ops for bigint[] of winnowed
 * fingerprints, exact for @@ excerpt_query.
 *
 * A row is indexed under each of its distinct fingerprints.  A row matches
 * a query only if it shares at least `needed` fingerprints with it: for
 * quoting(q, c, m) that is max(m, ceil(c |q|)), known from the query; for
 * quoted_in(q, c, m) it depends on the row's own size, which the keys do not
 * give, so the index asks for m and the recheck applies the share.  The
 * consistent functions are gin_minhash_ops's ("at least so many keys"),
 * through the same GinMinhashQuery.
 *
 * The option `bits` keeps the top bits of each fingerprint as its key: with
 * fewer bits unrelated rows share keys, so the index stores posting lists
 * (a byte or two a row) instead of one entry per fingerprint, at the cost of
 * more candidates to recheck.  A shared fingerprint is always a shared key,
 * and fingerprints that share a key each count it, so a row's count of
 * matched keys is never below its count of shared fingerprints: the index
 * stays exact for every `bits`.
 */
#include "postgres.h"

#include "access/gin.h"
#include "access/reloptions.h"
#include "utils/array.h"

#include "textfp.h"

#define GIN_WINNOW_BITS_DEFAULT 64
#define GIN_WINNOW_BITS_MIN 8

typedef struct GinWinnowOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			bits;
} GinWinnowOptions;

static int
key_bits(FunctionCallInfo fcinfo)
{
	if (PG_HAS_OPCLASS_OPTIONS())
		return ((GinWinnowOptions *) PG_GET_OPCLASS_OPTIONS())->bits;
	return GIN_WINNOW_BITS_DEFAULT;
}

/* The keys of fingerprints: their top bits (GIN drops a row's repeated keys). */
static Datum *
set_keys(const uint64 *v, size_t n, int bits)
{
	Datum	   *keys = palloc((n ? n : 1) * sizeof(Datum));

	for (size_t i = 0; i < n; i++)
		keys[i] = Int64GetDatum(bits >= 64 ? (int64) v[i] : (int64) (v[i] >> (64 - bits)));
	return keys;
}

PG_FUNCTION_INFO_V1(gin_winnow_options);
Datum
gin_winnow_options(PG_FUNCTION_ARGS)
{
	local_relopts *relopts = (local_relopts *) PG_GETARG_POINTER(0);

	init_local_reloptions(relopts, sizeof(GinWinnowOptions));
	add_local_int_reloption(relopts, "bits",
							"fingerprint bits kept in each key",
							GIN_WINNOW_BITS_DEFAULT, GIN_WINNOW_BITS_MIN, 64,
							offsetof(GinWinnowOptions, bits));
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gin_winnow_extract_value);
Datum
gin_winnow_extract_value(PG_FUNCTION_ARGS)
{
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	size_t		n;
	const uint64 *v = textfp_int8_set(PG_GETARG_ARRAYTYPE_P(0), "fingerprints", &n);

	*nentries = (int32) n;
	PG_RETURN_POINTER(set_keys(v, n, key_bits(fcinfo)));
}

PG_FUNCTION_INFO_V1(gin_winnow_extract_query);
Datum
gin_winnow_extract_query(PG_FUNCTION_ARGS)
{
	ExcerptQuery *q = PG_GETARG_EXCERPT_QUERY_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	GinMinhashQuery *gq;
	size_t		needed;

	if (strategy != EXCERPT_STRATEGY)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	/* for quoted_in, at least min_shared; the row's share is rechecked */
	needed = q->kind == EXCERPT_QUOTED_IN ? (size_t) q->min_shared : excerpt_query_needed(q, 0);
	if (needed > (size_t) q->n)
	{
		/* no row can share that many: no keys, and the default mode matches nothing */
		*nentries = 0;
		PG_RETURN_POINTER(NULL);
	}
	gq = palloc(sizeof(GinMinhashQuery));
	gq->needed = (int) needed;
	*nentries = q->n;
	*extra_data = palloc(sizeof(Pointer) * q->n);
	for (int i = 0; i < q->n; i++)
		(*extra_data)[i] = (Pointer) gq;
	PG_RETURN_POINTER(set_keys((const uint64 *) q->hashes, q->n, key_bits(fcinfo)));
}
