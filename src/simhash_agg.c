/*
 * simhash_agg.c: SimHash from features that come from elsewhere: the
 * simhash_agg(feature_hash, weight) aggregate and simhash(tsvector).
 *
 * The state is the core's fixed-point accumulator, so the result does not
 * depend on row order and partial states combine exactly (parallel plans).
 */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "tsearch/ts_type.h"
#include "utils/float.h"

#include "textfp.h"

/* The sums, and how many rows gave a hash and a weight (none: NULL, like sum). */
typedef struct SimhashAggState
{
	tfp_simhash_acc acc;
	int64		rows;
} SimhashAggState;

static SimhashAggState *
agg_state(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext aggcxt;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "%s called in non-aggregate context", fname);
	return (SimhashAggState *) MemoryContextAllocZero(aggcxt, sizeof(SimhashAggState));
}

static void
report_weight(tfp_status rc, double w)
{
	if (rc == TFP_EWEIGHT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("simhash_agg weight must be between 0 and %.0f, got %s",
						TFP_MAX_WEIGHT, float8out_internal(w))));
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("sum of simhash_agg weights is out of range")));
}

PG_FUNCTION_INFO_V1(simhash_agg_transfn);
Datum
simhash_agg_transfn(PG_FUNCTION_ARGS)
{
	SimhashAggState *st;
	double		w;
	int64		fixed;
	tfp_status	rc;

	st = PG_ARGISNULL(0) ? agg_state(fcinfo, "simhash_agg_transfn") :
		(SimhashAggState *) PG_GETARG_POINTER(0);
	/* rows with a null hash or weight contribute nothing, like sum() */
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_POINTER(st);
	w = PG_GETARG_FLOAT8(2);
	rc = tfp_weight_to_fixed(w, &fixed);
	if (rc == TFP_OK)
		rc = tfp_simhash_add(&st->acc, (uint64) PG_GETARG_INT64(1), fixed);
	if (rc != TFP_OK)
		report_weight(rc, w);
	st->rows++;
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(simhash_agg_finalfn);
Datum
simhash_agg_finalfn(PG_FUNCTION_ARGS)
{
	SimhashAggState *st = PG_ARGISNULL(0) ? NULL : (SimhashAggState *) PG_GETARG_POINTER(0);

	if (st == NULL || st->rows == 0)
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH64(tfp_simhash_final(&st->acc));
}

PG_FUNCTION_INFO_V1(simhash_agg_combinefn);
Datum
simhash_agg_combinefn(PG_FUNCTION_ARGS)
{
	SimhashAggState *into;
	SimhashAggState *from;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_POINTER(PG_GETARG_POINTER(0));
	}
	from = (SimhashAggState *) PG_GETARG_POINTER(1);
	if (PG_ARGISNULL(0))
	{
		into = agg_state(fcinfo, "simhash_agg_combinefn");
		*into = *from;
		PG_RETURN_POINTER(into);
	}
	into = (SimhashAggState *) PG_GETARG_POINTER(0);
	if (tfp_simhash_merge(&into->acc, &from->acc) != TFP_OK)
		report_weight(TFP_EOVERFLOW, 0);
	into->rows += from->rows;
	PG_RETURN_POINTER(into);
}

PG_FUNCTION_INFO_V1(simhash_agg_serialfn);
Datum
simhash_agg_serialfn(PG_FUNCTION_ARGS)
{
	SimhashAggState *st = (SimhashAggState *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, st->rows);
	pq_sendint64(&buf, (int64) st->acc.total);
	for (int i = 0; i < SIMHASH_BITS; i++)
		pq_sendint64(&buf, st->acc.v[i]);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(simhash_agg_deserialfn);
Datum
simhash_agg_deserialfn(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	SimhashAggState *st = agg_state(fcinfo, "simhash_agg_deserialfn");
	StringInfoData buf;

	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
	st->rows = pq_getmsgint64(&buf);
	st->acc.total = (uint64) pq_getmsgint64(&buf);
	for (int i = 0; i < SIMHASH_BITS; i++)
		st->acc.v[i] = pq_getmsgint64(&buf);
	pq_getmsgend(&buf);
	pfree(buf.data);
	PG_RETURN_POINTER(st);
}

/*
 * simhash(tsvector): each lexeme is a feature hashed (as UTF-8, seed 0) like
 * a token, weighted by its number of positions (1 once stripped).
 */
PG_FUNCTION_INFO_V1(textfp_simhash_tsvector);
Datum
textfp_simhash_tsvector(PG_FUNCTION_ARGS)
{
	TSVector	tsv = PG_GETARG_TSVECTOR(0);
	WordEntry  *entries = ARRPTR(tsv);
	char	   *lexemes = STRPTR(tsv);
	tfp_simhash_acc acc;

	tfp_simhash_init(&acc);
	for (int i = 0; i < tsv->size; i++)
	{
		size_t		len;
		char	   *u8 = textfp_to_utf8(lexemes + entries[i].pos, entries[i].len, &len);
		int64		npos = entries[i].haspos ? POSDATALEN(tsv, &entries[i]) : 1;

		/* SQL_ASCII bytes are taken as UTF-8, as simhash(text) takes them */
		if (!tfp_utf8_valid(u8, len))
			textfp_report(TFP_EUTF8, NULL);
		if (npos < 1)
			npos = 1;
		if (tfp_simhash_add(&acc, tfp_hash(u8, len, 0),
							npos << TFP_WEIGHT_FRAC_BITS) != TFP_OK)
			report_weight(TFP_EOVERFLOW, 0);
		if (u8 != lexemes + entries[i].pos)
			pfree(u8);
		CHECK_FOR_INTERRUPTS();
	}
	PG_FREE_IF_COPY(tsv, 0);
	PG_RETURN_SIMHASH64(tfp_simhash_final(&acc));
}
