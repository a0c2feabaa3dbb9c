/*
 * pipeline.c: SQL entry points of the text pipeline: simhash(text, ...),
 * textfp_features(), textfp_normalize(), textfp_stopwords(),
 * textfp_chinese_tables().
 *
 * Every function takes the same named options in the same order after the
 * text; options.c parses them.
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "presets.h"
#include "textfp.h"

/* The SimHash of doc under opts; *nfeatures gets how many features it had. */
uint64
textfp_simhash_doc(text *doc, const tfp_options *opts, size_t *nfeatures)
{
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	tfp_env		env;
	uint64		fp;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_simhash_text(&env, opts, u8, len, &fp, nfeatures);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	return fp;
}

/*
 * simhash(doc, <options>) and, from 1.1, simhash(doc, featureless,
 * <options>, chinese): the same fingerprint, except that with featureless
 * => 'null' a text without features (empty, punctuation, only stopwords)
 * gives NULL, which matches nothing and conflicts with nothing, where 1.0's
 * function gives 0000000000000000 for all of them.
 */
/* simhash(doc, featureless, ngram, ..., seed, numbers, keywords, idf, chinese) */
#define SIMHASH_ARG_IDF 12
#define SIMHASH_ARG_CHINESE 13
/* simhash_features(doc, ngram, ..., seed, numbers, chinese) */
#define SIMHASH_FEATURES_ARG_CHINESE 9

static Datum
simhash_text(FunctionCallInfo fcinfo, int first_option, int chinese_arg, bool null_if_featureless)
{
	/* 1.1's overload has numbers, keywords and idf after seed, then chinese */
	bool		ranked = first_option == 2;
	tfp_options local = textfp_get_ranked_options(fcinfo, first_option, true, ranked, chinese_arg)->opts;
	tfp_idf		idf_view;
	uint64		fp;
	size_t		nfeatures;

	if (ranked)
		local.idf = textfp_idf_arg(fcinfo, SIMHASH_ARG_IDF, &idf_view);
	fp = textfp_simhash_doc(PG_GETARG_TEXT_PP(0), &local, &nfeatures);
	if (nfeatures == 0 && null_if_featureless)
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH64(fp);
}

PG_FUNCTION_INFO_V1(textfp_simhash_text);
Datum
textfp_simhash_text(PG_FUNCTION_ARGS)
{
	return simhash_text(fcinfo, 1, -1, false);
}

PG_FUNCTION_INFO_V1(textfp_simhash_text_featureless);
Datum
textfp_simhash_text_featureless(PG_FUNCTION_ARGS)
{
	return simhash_text(fcinfo, 2, SIMHASH_ARG_CHINESE, textfp_null_if_featureless(PG_GETARG_TEXT_PP(1)));
}

/* The sorted (as bigint), distinct feature hashes of doc under opts. */
ArrayType *
textfp_simhash_feature_array(text *doc, const tfp_options *opts)
{
	tfp_featureset fs;
	uint64	   *h;
	Datum	   *d;
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	tfp_env		env;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_extract(&env, opts, u8, len, true, false, &fs);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	if (fs.n > MaxArraySize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many features: %zu", fs.n)));
	h = palloc((fs.n ? fs.n : 1) * sizeof(uint64));
	for (size_t i = 0; i < fs.n; i++)
		h[i] = fs.items[i].hash;
	if ((rc = tfp_sort_u64(&env, h, fs.n, true)) != TFP_OK)
		textfp_report(rc, &env);
	d = palloc((fs.n ? fs.n : 1) * sizeof(Datum));
	for (size_t i = 0; i < fs.n; i++)
		d[i] = Int64GetDatum((int64) h[i]);
	return construct_array(d, (int) fs.n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
}

/*
 * simhash_features(doc, <options>, numbers): the sorted, distinct feature
 * hashes simhash() weighs under the same options, which idf_model() counts.
 */
PG_FUNCTION_INFO_V1(textfp_simhash_features);
Datum
textfp_simhash_features(PG_FUNCTION_ARGS)
{
	const tfp_options *opts = &textfp_get_ranked_options(fcinfo, 1, false, true, SIMHASH_FEATURES_ARG_CHINESE)->opts;

	PG_RETURN_ARRAYTYPE_P(textfp_simhash_feature_array(PG_GETARG_TEXT_PP(0), opts));
}

typedef struct FeaturesState
{
	tfp_featureset fs;
	tfp_options opts;
} FeaturesState;

/*
 * textfp_features(doc, <options>) and, from 1.1, textfp_features(doc,
 * chinese, <options>): options from first_option, chinese_arg -1 in 1.0's
 * form.
 */
static Datum
features_text(FunctionCallInfo fcinfo, int first_option, int chinese_arg)
{
	FuncCallContext *funcctx;
	FeaturesState *st;

	if (SRF_IS_FIRSTCALL())
	{
		text	   *doc = PG_GETARG_TEXT_PP(0);
		const tfp_options *opts;
		MemoryContext old;
		TupleDesc	tupdesc;
		size_t		len;
		char	   *u8;
		tfp_env		env;
		tfp_status	rc;

		/* fn_extra belongs to the SRF machinery: no options cache here */
		funcctx = SRF_FIRSTCALL_INIT();
		opts = &textfp_parse_options(fcinfo, first_option, true, chinese_arg,
									 funcctx->multi_call_memory_ctx)->opts;
		old = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		funcctx->tuple_desc = BlessTupleDesc(tupdesc);
		st = palloc0(sizeof(FeaturesState));
		st->opts = *opts;
		u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
		textfp_env_init(&env, funcctx->multi_call_memory_ctx);
		rc = tfp_extract(&env, opts, u8, len, true, true, &st->fs);
		if (rc != TFP_OK)
			textfp_report(rc, &env);
		funcctx->user_fctx = st;
		funcctx->max_calls = st->fs.n;
		MemoryContextSwitchTo(old);
	}

	funcctx = SRF_PERCALL_SETUP();
	st = (FeaturesState *) funcctx->user_fctx;
	if (funcctx->call_cntr < funcctx->max_calls)
	{
		const tfp_feature *f = &st->fs.items[funcctx->call_cntr];
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = PointerGetDatum(cstring_to_text(
			textfp_from_utf8(st->fs.text + f->text_off, f->text_len)));
		values[1] = Int64GetDatum((int64) f->hash);
		values[2] = Float8GetDatum(ldexp((double) tfp_feature_weight_fixed(&st->opts, f),
										 -TFP_WEIGHT_FRAC_BITS));
		SRF_RETURN_NEXT(funcctx,
						HeapTupleGetDatum(heap_form_tuple(funcctx->tuple_desc, values, nulls)));
	}
	SRF_RETURN_DONE(funcctx);
}

PG_FUNCTION_INFO_V1(textfp_features);
Datum
textfp_features(PG_FUNCTION_ARGS)
{
	return features_text(fcinfo, 1, -1);
}

PG_FUNCTION_INFO_V1(textfp_features_chinese);
Datum
textfp_features_chinese(PG_FUNCTION_ARGS)
{
	return features_text(fcinfo, 2, 1);
}

static Datum
normalize_text(text *doc, bool simplify, tfp_chinese chinese)
{
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	char	   *norm;
	size_t		nlen;
	tfp_env		env;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_normalize_chinese(&env, u8, len, simplify, chinese, 0, &norm, &nlen);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	PG_RETURN_TEXT_P(cstring_to_text(textfp_from_utf8(norm, nlen)));
}

PG_FUNCTION_INFO_V1(textfp_normalize);
Datum
textfp_normalize(PG_FUNCTION_ARGS)
{
	return normalize_text(PG_GETARG_TEXT_PP(0), PG_GETARG_BOOL(1), TFP_CHINESE_NONE);
}

/* textfp_normalize(doc, chinese, simplify) (1.1) */
PG_FUNCTION_INFO_V1(textfp_normalize_chinese);
Datum
textfp_normalize_chinese(PG_FUNCTION_ARGS)
{
	bool		simplify = PG_GETARG_BOOL(2);

	return normalize_text(PG_GETARG_TEXT_PP(0), simplify,
						  textfp_chinese_option(PG_GETARG_TEXT_PP(1), simplify));
}

/*
 * textfp_chinese_tables(): the tables behind the values of chinese, with
 * what identifies them (the digest's first 64 bits are in pipeline ids).
 */
PG_FUNCTION_INFO_V1(textfp_chinese_tables);
Datum
textfp_chinese_tables(PG_FUNCTION_ARGS)
{
	static const struct
	{
		const char *value;
		tfp_chinese chinese;
	}			values[] = {{"mainland", TFP_CHINESE_MAINLAND}};
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	for (size_t i = 0; i < lengthof(values); i++)
	{
		const char *name;
		const char *sha256;
		uint64		digest;
		Datum		d[3];
		bool		nulls[3] = {false, false, false};

		if (!tfp_chinese_table(values[i].chinese, &name, &sha256, &digest))
			elog(ERROR, "no table for chinese => '%s'", values[i].value);
		d[0] = CStringGetTextDatum(values[i].value);
		d[1] = CStringGetTextDatum(name);
		d[2] = CStringGetTextDatum(sha256);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, d, nulls);
	}
	return (Datum) 0;
}

/* The built-in lists, as shipped (before normalisation). */
extern const char *const tfp_stopwords_zh_data[];
extern const char *const tfp_stopwords_en_data[];
extern const char *const tfp_stopwords_snowball_en_data[];

/* The words of the lists in mask, in the order zh, en, snowball. */
static const char *
stopword_at(int mask, size_t i)
{
	static const struct
	{
		int			list;
		const char *const *data;
	}			lists[] = {
		{TFP_STOP_ZH, tfp_stopwords_zh_data},
		{TFP_STOP_EN, tfp_stopwords_en_data},
		{TFP_STOP_SNOWBALL, tfp_stopwords_snowball_en_data},
	};

	for (size_t l = 0; l < lengthof(lists); l++)
	{
		size_t		n;

		if (!(mask & lists[l].list))
			continue;
		n = tfp_builtin_stopword_count(lists[l].list);
		if (i < n)
			return lists[l].data[i];
		i -= n;
	}
	return NULL;
}

PG_FUNCTION_INFO_V1(textfp_stopwords);
Datum
textfp_stopwords(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	const char *w;

	if (SRF_IS_FIRSTCALL())
	{
		funcctx = SRF_FIRSTCALL_INIT();
		funcctx->user_fctx = (void *) (intptr_t) textfp_stopword_lists("list", PG_GETARG_TEXT_PP(0));
	}
	funcctx = SRF_PERCALL_SETUP();
	w = stopword_at((int) (intptr_t) funcctx->user_fctx, funcctx->call_cntr);
	if (w != NULL)
		SRF_RETURN_NEXT(funcctx, PointerGetDatum(cstring_to_text(textfp_from_utf8(w, strlen(w)))));
	SRF_RETURN_DONE(funcctx);
}
