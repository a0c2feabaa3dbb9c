/*
 * minhash_lsh.c: the LSH banding functions of minhash_sig: minhash_bands()
 * (a signature's band keys), lsh_probability() (the S-curve) and
 * lsh_params() (the banding that minimises weighted false positive and
 * false negative areas, optionally within a budget of candidates per row
 * predicted from a column's ANALYZE statistics); and minhash_lsh(), the
 * signature of the recommended configuration for band indexes at scale.
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "textfp.h"

/*
 * The recommended configuration of textfp 1.1 for band indexes at scale
 * (docs/minhash.md, "Settings that scale"): minhash's options but word or
 * n-gram triples.  Part of the SQL interface: never change; a later
 * recommendation gets a function of its own.
 */
#define LSH_RECOMMENDED_K		128
#define LSH_RECOMMENDED_SHINGLE 3

/* minhash_bands(sig, bands, rows): the 64-bit key of each band */
PG_FUNCTION_INFO_V1(minhash_sig_bands);
Datum
minhash_sig_bands(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);
	int32		bands = PG_GETARG_INT32(1);
	int32		rows = PG_GETARG_INT32(2);
	tfp_lsh_header h;
	Datum	   *keys;

	minhash_lsh_check_banding(sig->k, bands, rows, 1);
	/* no features, no bands: never one key that every empty text shares */
	if (tfp_minhash_is_featureless(sig->values, sig->k))
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(INT8OID));
	minhash_lsh_header(sig, &h);
	keys = palloc(sizeof(Datum) * bands);
	for (int i = 0; i < bands; i++)
		keys[i] = Int64GetDatum((int64) tfp_lsh_band_key(&h, rows, i, sig->values));
	PG_RETURN_ARRAYTYPE_P(construct_array(keys, bands, INT8OID, 8, FLOAT8PASSBYVAL,
										  TYPALIGN_DOUBLE));
}

static void
check_similarity(const char *name, double j)
{
	if (!(j >= 0.0 && j <= 1.0))	/* also NaN */
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be between 0 and 1, got %g", name, j)));
}

/*
 * lsh_probability(j, bands, rows, min_bands, k): the probability that a pair
 * becomes a candidate.  Without k, j is the pair's Jaccard similarity and
 * positions are independent; with k, j is an estimate from k positions
 * (round(j * k) of them equal).  Not STRICT only for k: NULL in any other
 * argument gives NULL.
 */
PG_FUNCTION_INFO_V1(textfp_lsh_probability);
Datum
textfp_lsh_probability(PG_FUNCTION_ARGS)
{
	double		j;
	int32		bands,
				rows,
				min_bands;

	for (int i = 0; i < 4; i++)
		if (PG_ARGISNULL(i))
			PG_RETURN_NULL();
	j = PG_GETARG_FLOAT8(0);
	bands = PG_GETARG_INT32(1);
	rows = PG_GETARG_INT32(2);
	min_bands = PG_GETARG_INT32(3);
	check_similarity("j", j);
	if (PG_ARGISNULL(4))
	{
		minhash_lsh_check_banding(TFP_MINHASH_K_MAX, bands, rows, min_bands);
		PG_RETURN_FLOAT8(tfp_lsh_probability(j, bands, rows, min_bands));
	}
	else
	{
		int32		k = PG_GETARG_INT32(4);

		textfp_check_range("k", k, 1, TFP_MINHASH_K_MAX);
		minhash_lsh_check_banding(k, bands, rows, min_bands);
		PG_RETURN_FLOAT8(tfp_lsh_probability_given((int) floor(j * k + 0.5), k,
												   bands, rows, min_bands));
	}
}

static void
check_weight(const char *name, double w)
{
	if (!(w >= 0.0 && isfinite(w)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a finite number >= 0, got %g", name, w)));
}

static void
check_goal(tfp_lsh_goal *g)
{
	check_similarity("threshold", g->threshold);
	check_weight("false_positive_weight", g->fp_weight);
	check_weight("false_negative_weight", g->fn_weight);
	if (g->fp_weight + g->fn_weight <= 0.0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false_positive_weight and false_negative_weight must not both be 0")));
	textfp_check_range("max_min_bands", g->max_min_bands, 1, g->k);
}

static Datum
choice_tuple(FunctionCallInfo fcinfo, const tfp_lsh_choice *c)
{
	TupleDesc	tupdesc;
	Datum		values[6];
	bool		nulls[6] = {false, false, false, false, false, c->candidates < 0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = Int32GetDatum(c->bands);
	values[1] = Int32GetDatum(c->rows);
	values[2] = Int32GetDatum(c->min_bands);
	values[3] = Float8GetDatum(c->false_positive);
	values[4] = Float8GetDatum(c->false_negative);
	values[5] = Float8GetDatum(c->candidates);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
}

/* lsh_params(threshold, k, false_positive_weight, false_negative_weight, max_min_bands) */
PG_FUNCTION_INFO_V1(textfp_lsh_params);
Datum
textfp_lsh_params(PG_FUNCTION_ARGS)
{
	tfp_lsh_goal g = {0};
	tfp_lsh_choice c;
	tfp_env		env;

	g.threshold = PG_GETARG_FLOAT8(0);
	g.k = PG_GETARG_INT32(1);
	g.fp_weight = PG_GETARG_FLOAT8(2);
	g.fn_weight = PG_GETARG_FLOAT8(3);
	g.max_min_bands = PG_GETARG_INT32(4);
	textfp_check_range("k", g.k, 1, TFP_MINHASH_K_MAX);
	check_goal(&g);
	textfp_env_init(&env, CurrentMemoryContext);
	(void) tfp_lsh_choose(&g, &c, &env);
	PG_RETURN_DATUM(choice_tuple(fcinfo, &c));
}

/*
 * lsh_params(relation, column_name, threshold, max_candidates,
 * false_positive_weight, false_negative_weight, max_min_bands): the same
 * search among bandings predicted, from the column's ANALYZE statistics, to
 * give at most max_candidates candidates per row.
 */
PG_FUNCTION_INFO_V1(textfp_lsh_params_column);
Datum
textfp_lsh_params_column(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	Name		column = PG_GETARG_NAME(1);
	tfp_lsh_goal g = {0};
	tfp_lsh_choice c;
	LshColumnStats st;
	double		reltuples;
	double		common = 0;
	tfp_env		env;

	g.threshold = PG_GETARG_FLOAT8(2);
	g.max_candidates = PG_GETARG_FLOAT8(3);
	g.fp_weight = PG_GETARG_FLOAT8(4);
	g.fn_weight = PG_GETARG_FLOAT8(5);
	g.max_min_bands = PG_GETARG_INT32(6);
	if (!(g.max_candidates >= 0.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_candidates must be >= 0, got %g", g.max_candidates)));

	minhash_lsh_column_stats(relid, NameStr(*column), &st, &reltuples);
	g.k = st.k;
	check_goal(&g);
	g.pmf = st.pmf;
	g.others = Max(reltuples - 1.0, 0.0) * st.ordinary;

	/*
	 * Rows equal to a common value are candidates of each other under any
	 * banding (unless featureless): a share of the budget spent up front.
	 */
	for (int i = 0; i < st.nmcv; i++)
		if (!tfp_minhash_is_featureless(st.mcv[i]->values, st.mcv[i]->k))
			common += st.mcv_freq[i] * Max(st.mcv_freq[i] * reltuples - 1.0, 0.0);
	g.max_candidates -= common;
	textfp_env_init(&env, CurrentMemoryContext);
	(void) tfp_lsh_choose(&g, &c, &env);
	c.candidates += common;
	PG_RETURN_DATUM(choice_tuple(fcinfo, &c));
}

/*
 * minhash_lsh(doc, seed): minhash(doc, featureless => 'null', k => 128,
 * shingle => 3, seed => seed) with every other option at minhash's default
 * (ngram 2, the default tokenizer, no simplify, no stopwords, one-permutation
 * hashing): the same signature, header included, and NULL for a text without
 * shingles, which then matches nothing.
 */
PG_FUNCTION_INFO_V1(textfp_minhash_lsh);
Datum
textfp_minhash_lsh(PG_FUNCTION_ARGS)
{
	int64		seed = PG_GETARG_INT64(1);
	tfp_options opts;
	MinhashSig *sig;
	size_t		nfeatures;

	tfp_options_default(&opts);
	opts.shingle = LSH_RECOMMENDED_SHINGLE;
	opts.builtin_stopwords = 0;
	opts.weighting = TFP_WEIGHT_BINARY;	/* as for every set-based function */
	opts.seed = (uint64) seed;
	sig = textfp_minhash_doc(PG_GETARG_TEXT_PP(0), &opts, tfp_pipeline_id(&opts), LSH_RECOMMENDED_K,
							 TFP_MINHASH_OPH, &nfeatures);
	if (nfeatures == 0)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(sig);
}
