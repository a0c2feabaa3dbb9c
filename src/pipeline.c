/*
 * pipeline.c: SQL entry points of the text pipeline: simhash(text, ...),
 * textfp_features(), textfp_normalize(), textfp_stopwords().
 *
 * Every function takes the same named options in the same order after the
 * text.  Parsed options (and the user stopword set built from them) are
 * cached in fn_extra, so a scan parses them once, not once per row.
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

/* Position of the first option argument, after the text. */
#define OPT_ARG0 1
#define NUM_OPT_ARGS 8
#define MAX_USER_STOPWORDS 100000

typedef struct OptionsCache
{
	/* the raw arguments this entry was built from */
	int32		ngram;
	int32		shingle;
	text	   *tokenizer;
	bool		simplify;
	text	   *stopwords;
	ArrayType  *user_stopwords;
	text	   *weighting;
	int64		seed;
	/* what they mean */
	tfp_options opts;
	tfp_stopset *user_set;
} OptionsCache;

static bool
text_is(text *t, const char *s)
{
	size_t		len = strlen(s);

	return VARSIZE_ANY_EXHDR(t) == len && memcmp(VARDATA_ANY(t), s, len) == 0;
}

static bool
texts_equal(text *a, text *b)
{
	return VARSIZE_ANY_EXHDR(a) == VARSIZE_ANY_EXHDR(b) &&
		memcmp(VARDATA_ANY(a), VARDATA_ANY(b), VARSIZE_ANY_EXHDR(a)) == 0;
}

static void
check_range(const char *name, int32 value, int32 lo, int32 hi)
{
	if (value < lo || value > hi)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be between %d and %d, got %d", name, lo, hi, value)));
}

static void
bad_choice(const char *name, text *value, const char *valid)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for %s: \"%s\"", name, text_to_cstring(value)),
			 errhint("Valid values are %s.", valid)));
}

/* Normalise the user's stopwords exactly as tokens are, and build a set. */
static tfp_stopset *
build_user_stopwords(ArrayType *arr, bool simplify, MemoryContext cxt)
{
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	char	  **words;
	size_t	   *lens;
	tfp_env		env;
	tfp_env		setenv;
	tfp_stopset *set;
	tfp_status	rc;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("user_stopwords must be a one-dimensional array")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	if (n == 0)
		return NULL;
	if (n > MAX_USER_STOPWORDS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many user_stopwords: %d", n),
				 errdetail("At most %d are allowed.", MAX_USER_STOPWORDS)));

	textfp_env_init(&env, CurrentMemoryContext);
	words = palloc(n * sizeof(char *));
	lens = palloc(n * sizeof(size_t));
	for (int i = 0; i < n; i++)
	{
		text	   *t;
		char	   *u8;
		size_t		u8len;

		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("user_stopwords must not contain nulls")));
		t = DatumGetTextPP(elems[i]);
		u8 = textfp_to_utf8(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &u8len);
		if (u8len > TFP_MAX_STOPWORD_BYTES)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("user stopword is too long"),
					 errdetail("A stopword may have at most %d bytes.", TFP_MAX_STOPWORD_BYTES)));
		rc = tfp_normalize(&env, u8, u8len, simplify, &words[i], &lens[i]);
		if (rc != TFP_OK)
			textfp_report(rc, &env);
		/* normalising can grow a word; keep it matchable all the same */
		if (lens[i] > TFP_MAX_STOPWORD_BYTES)
			lens[i] = 0;
	}
	textfp_env_init(&setenv, cxt);
	rc = tfp_stopset_build(&setenv, (const char *const *) words, lens, n, &set);
	if (rc != TFP_OK)
		textfp_report(rc, &setenv);
	return set;
}

static bool
options_match(const OptionsCache *c, FunctionCallInfo fcinfo)
{
	ArrayType  *user = PG_GETARG_ARRAYTYPE_P(OPT_ARG0 + 5);

	return c->ngram == PG_GETARG_INT32(OPT_ARG0) &&
		c->shingle == PG_GETARG_INT32(OPT_ARG0 + 1) &&
		texts_equal(c->tokenizer, PG_GETARG_TEXT_PP(OPT_ARG0 + 2)) &&
		c->simplify == PG_GETARG_BOOL(OPT_ARG0 + 3) &&
		texts_equal(c->stopwords, PG_GETARG_TEXT_PP(OPT_ARG0 + 4)) &&
		VARSIZE(c->user_stopwords) == VARSIZE(user) &&
		memcmp(c->user_stopwords, user, VARSIZE(user)) == 0 &&
		texts_equal(c->weighting, PG_GETARG_TEXT_PP(OPT_ARG0 + 6)) &&
		c->seed == PG_GETARG_INT64(OPT_ARG0 + 7);
}

/* Parse and check this call's option arguments into memory of cxt. */
static OptionsCache *
parse_options(FunctionCallInfo fcinfo, MemoryContext cxt)
{
	int32		ngram = PG_GETARG_INT32(OPT_ARG0);
	int32		shingle = PG_GETARG_INT32(OPT_ARG0 + 1);
	text	   *tokenizer = PG_GETARG_TEXT_PP(OPT_ARG0 + 2);
	bool		simplify = PG_GETARG_BOOL(OPT_ARG0 + 3);
	text	   *stopwords = PG_GETARG_TEXT_PP(OPT_ARG0 + 4);
	ArrayType  *user = PG_GETARG_ARRAYTYPE_P(OPT_ARG0 + 5);
	text	   *weighting = PG_GETARG_TEXT_PP(OPT_ARG0 + 6);
	int64		seed = PG_GETARG_INT64(OPT_ARG0 + 7);
	MemoryContext old;
	OptionsCache *c;
	tfp_options *o;

	check_range("ngram", ngram, 1, TFP_MAX_NGRAM);
	check_range("shingle", shingle, 1, TFP_MAX_SHINGLE);

	old = MemoryContextSwitchTo(cxt);
	c = palloc0(sizeof(OptionsCache));
	c->ngram = ngram;
	c->shingle = shingle;
	c->simplify = simplify;
	c->seed = seed;
	c->tokenizer = (text *) PG_DETOAST_DATUM_COPY(PointerGetDatum(tokenizer));
	c->stopwords = (text *) PG_DETOAST_DATUM_COPY(PointerGetDatum(stopwords));
	c->weighting = (text *) PG_DETOAST_DATUM_COPY(PointerGetDatum(weighting));
	c->user_stopwords = (ArrayType *) PG_DETOAST_DATUM_COPY(PointerGetDatum(user));
	MemoryContextSwitchTo(old);

	o = &c->opts;
	tfp_options_default(o);
	o->ngram = ngram;
	o->shingle = shingle;
	o->simplify = simplify;
	o->seed = (uint64) seed;

	if (text_is(tokenizer, "ngram"))
		o->tokenizer = TFP_TOKENIZER_NGRAM;
	else if (text_is(tokenizer, "icu"))
		o->tokenizer = TFP_TOKENIZER_ICU;
	else
		bad_choice("tokenizer", tokenizer, "\"ngram\" and \"icu\"");

	if (text_is(stopwords, "builtin"))
		o->builtin_stopwords = TFP_STOP_ZH | TFP_STOP_EN;
	else if (text_is(stopwords, "zh"))
		o->builtin_stopwords = TFP_STOP_ZH;
	else if (text_is(stopwords, "en"))
		o->builtin_stopwords = TFP_STOP_EN;
	else if (text_is(stopwords, "none"))
		o->builtin_stopwords = 0;
	else
		bad_choice("stopwords", stopwords, "\"builtin\", \"zh\", \"en\" and \"none\"");

	if (text_is(weighting, "tf"))
		o->weighting = TFP_WEIGHT_TF;
	else if (text_is(weighting, "binary"))
		o->weighting = TFP_WEIGHT_BINARY;
	else
		bad_choice("weighting", weighting, "\"tf\" and \"binary\"");

	c->user_set = build_user_stopwords(user, simplify, cxt);
	o->user_stopwords = c->user_set;
	return c;
}

/*
 * The options of a scalar call, from fn_extra when the arguments are those
 * of the last call (they almost always are: constants or defaults).  A
 * replaced entry stays in fn_mcxt until the query ends; that happens only
 * when options vary from row to row.
 */
static const tfp_options *
get_options(FunctionCallInfo fcinfo)
{
	OptionsCache *c = (OptionsCache *) fcinfo->flinfo->fn_extra;

	if (c == NULL || !options_match(c, fcinfo))
	{
		c = parse_options(fcinfo, fcinfo->flinfo->fn_mcxt);
		fcinfo->flinfo->fn_extra = c;
	}
	return &c->opts;
}

PG_FUNCTION_INFO_V1(textfp_simhash_text);
Datum
textfp_simhash_text(PG_FUNCTION_ARGS)
{
	text	   *doc = PG_GETARG_TEXT_PP(0);
	const tfp_options *opts = get_options(fcinfo);
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	tfp_env		env;
	uint64		fp;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_simhash_text(&env, opts, u8, len, &fp);
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
		opts = &parse_options(fcinfo, funcctx->multi_call_memory_ctx)->opts;
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
		if (text_is(list, "builtin"))
			mask = TFP_STOP_ZH | TFP_STOP_EN;
		else if (text_is(list, "zh"))
			mask = TFP_STOP_ZH;
		else if (text_is(list, "en"))
			mask = TFP_STOP_EN;
		else if (text_is(list, "none"))
			mask = 0;
		else
			bad_choice("list", list, "\"builtin\", \"zh\", \"en\" and \"none\"");
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
