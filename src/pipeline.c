/*
 * pipeline.c: SQL entry points of the text pipeline: simhash(text, ...),
 * textfp_features(), textfp_normalize(), textfp_stopwords().
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

#include "textfp.h"

/* The options follow the text. */
#define OPT_ARG0 1

PG_FUNCTION_INFO_V1(textfp_simhash_text);
Datum
textfp_simhash_text(PG_FUNCTION_ARGS)
{
	text	   *doc = PG_GETARG_TEXT_PP(0);
	const tfp_options *opts = &textfp_get_options(fcinfo, OPT_ARG0, true)->opts;
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	tfp_env		env;
	uint64		fp;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_simhash_text(&env, opts, u8, len, &fp, NULL);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	PG_RETURN_SIMHASH64(fp);
}

typedef struct FeaturesState
{
	tfp_featureset fs;
	tfp_options opts;
} FeaturesState;

PG_FUNCTION_INFO_V1(textfp_features);
Datum
textfp_features(PG_FUNCTION_ARGS)
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
		opts = &textfp_parse_options(fcinfo, OPT_ARG0, true,
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

PG_FUNCTION_INFO_V1(textfp_normalize);
Datum
textfp_normalize(PG_FUNCTION_ARGS)
{
	text	   *doc = PG_GETARG_TEXT_PP(0);
	bool		simplify = PG_GETARG_BOOL(1);
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	char	   *norm;
	size_t		nlen;
	tfp_env		env;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_normalize(&env, u8, len, simplify, &norm, &nlen);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	PG_RETURN_TEXT_P(cstring_to_text(textfp_from_utf8(norm, nlen)));
}

/* The built-in lists, as shipped (before normalisation). */
extern const char *const tfp_stopwords_zh_data[];
extern const char *const tfp_stopwords_en_data[];

PG_FUNCTION_INFO_V1(textfp_stopwords);
Datum
textfp_stopwords(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	int			mask;
	size_t		nzh;
	size_t		nen;
	size_t		i;

	if (SRF_IS_FIRSTCALL())
	{
		text	   *list = PG_GETARG_TEXT_PP(0);

		funcctx = SRF_FIRSTCALL_INIT();
		if (textfp_text_is(list, "builtin"))
			mask = TFP_STOP_ZH | TFP_STOP_EN;
		else if (textfp_text_is(list, "zh"))
			mask = TFP_STOP_ZH;
		else if (textfp_text_is(list, "en"))
			mask = TFP_STOP_EN;
		else if (textfp_text_is(list, "none"))
			mask = 0;
		else
			textfp_bad_choice("list", list, "\"builtin\", \"zh\", \"en\" and \"none\"");
		funcctx->user_fctx = (void *) (intptr_t) mask;
		funcctx->max_calls =
			((mask & TFP_STOP_ZH) ? tfp_builtin_stopword_count(TFP_STOP_ZH) : 0) +
			((mask & TFP_STOP_EN) ? tfp_builtin_stopword_count(TFP_STOP_EN) : 0);
	}
	funcctx = SRF_PERCALL_SETUP();
	mask = (int) (intptr_t) funcctx->user_fctx;
	nzh = (mask & TFP_STOP_ZH) ? tfp_builtin_stopword_count(TFP_STOP_ZH) : 0;
	nen = (mask & TFP_STOP_EN) ? tfp_builtin_stopword_count(TFP_STOP_EN) : 0;
	i = funcctx->call_cntr;
	if (i < nzh + nen)
	{
		const char *w = i < nzh ? tfp_stopwords_zh_data[i] : tfp_stopwords_en_data[i - nzh];

		SRF_RETURN_NEXT(funcctx, PointerGetDatum(cstring_to_text(textfp_from_utf8(w, strlen(w)))));
	}
	SRF_RETURN_DONE(funcctx);
}
