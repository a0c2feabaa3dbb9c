/*
 * presets.c: named presets in SQL: the textfp_preset type, simhash(doc,
 * preset, idf), minhash(doc, preset), simhash_features(doc, preset),
 * shingles(doc, preset), textfp_presets(), and the C entry points other
 * glue calls (presets.h).
 *
 * A textfp_preset is a preset's frozen number, 4 bytes by value, written as
 * its name.  It is a type of its own, in the user-defined category, rather
 * than text, so that a quoted literal in second place keeps resolving to
 * the text parameter of 1.1's featureless overloads (simhash(body, 'null')):
 * PostgreSQL prefers the string category for an unknown literal.  A preset
 * is named (preset => 'x') or cast ('x'::textfp_preset).
 */
#include "postgres.h"

#include "funcapi.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "presets.h"

/* simhash(doc, preset, idf) */
#define SIMHASH_PRESET_ARG_IDF 2

static const char *
method_name(tfp_preset_method m)
{
	return m == TFP_PRESET_SIMHASH ? "simhash" : "minhash";
}

/* The names of every preset, quoted and separated by commas, for hints. */
static char *
preset_names(void)
{
	StringInfoData s;

	initStringInfo(&s);
	for (size_t i = 0; i < tfp_preset_count(); i++)
		appendStringInfo(&s, "%s\"%s\"", i ? ", " : "", tfp_preset_at(i)->name);
	return s.data;
}

const tfp_preset *
textfp_preset_lookup(const char *name)
{
	const tfp_preset *p = tfp_preset_by_name(name, strlen(name));

	if (p == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown textfp preset: \"%s\"", name),
				 errhint("Presets are %s; textfp_presets() describes them.", preset_names())));
	return p;
}

const TextfpOptions *
textfp_preset_options(const tfp_preset *p)
{
	/* the table is small and constant: one slot a preset, filled on first use */
	static TextfpOptions cache[64];
	static bool filled[lengthof(cache)];
	size_t		i = 0;

	while (i < tfp_preset_count() && tfp_preset_at(i) != p)
		i++;
	if (i >= tfp_preset_count() || i >= lengthof(cache))
		elog(ERROR, "textfp preset \"%s\" is not in the table", p->name);
	if (!filled[i])
	{
		tfp_preset_options(p, &cache[i].opts);
		cache[i].pipeline_id = tfp_pipeline_id(&cache[i].opts);
		filled[i] = true;
	}
	return &cache[i];
}

static void
check_method(const tfp_preset *p, tfp_preset_method method)
{
	if (p->method != method)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("preset \"%s\" is a %s preset", p->name, method_name(p->method)),
				 errhint("Use %s(doc, preset => '%s'), or a %s preset: SELECT name FROM textfp_presets() WHERE method = '%s'.",
						 method_name(p->method), p->name, method_name(method), method_name(method))));
}

void
textfp_preset_check(const tfp_preset *p, tfp_preset_method method, const tfp_idf *idf)
{
	check_method(p, method);
	if (p->idf && idf == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("preset \"%s\" needs an idf_model", p->name),
				 errdetail("It weighs each feature by how rare it is in your collection."),
				 errhint("Build the model over the table, idf_model(simhash_features(doc, preset => '%s')), and pass it: simhash(doc, preset => '%s', idf => model).",
						 p->name, p->name)));
	if (!p->idf && idf != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("preset \"%s\" takes no idf_model", p->name),
				 errhint("Leave idf out, or use a preset that weighs by a model: SELECT name FROM textfp_presets() WHERE options->>'idf' = 'model'.")));
}

Datum
textfp_preset_fingerprint(const tfp_preset *p, text *doc, const tfp_idf *idf, bool *isnull)
{
	const TextfpOptions *o = textfp_preset_options(p);
	size_t		nfeatures;
	Datum		result;

	textfp_preset_check(p, p->method, idf);
	if (p->method == TFP_PRESET_SIMHASH)
	{
		tfp_options opts = o->opts;

		opts.idf = idf;
		result = Simhash64GetDatum(textfp_simhash_doc(doc, &opts, &nfeatures));
	}
	else
		result = PointerGetDatum(textfp_minhash_doc(doc, &o->opts, o->pipeline_id, p->k,
													p->minhash_method, &nfeatures));
	*isnull = nfeatures == 0;
	return result;
}

/* --- the textfp_preset type ----------------------------------------------- */

static const tfp_preset *
preset_arg(FunctionCallInfo fcinfo, int argno)
{
	int32		id = PG_GETARG_INT32(argno);
	const tfp_preset *p = tfp_preset_by_id(id);

	/* only a value from a later textfp, read by an older library, gets here */
	if (p == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("textfp preset number %d is unknown to this version of textfp", id),
				 errhint("Install the textfp library the database was updated for.")));
	return p;
}

PG_FUNCTION_INFO_V1(textfp_preset_in);
Datum
textfp_preset_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	const tfp_preset *p = tfp_preset_by_name(s, strlen(s));

	if (p == NULL)
		TFP_INPUT_ERROR(fcinfo,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("unknown textfp preset: \"%s\"", s),
						 errhint("Presets are %s; textfp_presets() describes them.", preset_names())));
	PG_RETURN_INT32(p->id);
}

PG_FUNCTION_INFO_V1(textfp_preset_out);
Datum
textfp_preset_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(pstrdup(preset_arg(fcinfo, 0)->name));
}

/* The binary form is the name, as the text form, so that clients need no numbers. */
PG_FUNCTION_INFO_V1(textfp_preset_recv);
Datum
textfp_preset_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			len = buf->len - buf->cursor;
	const char *name = pq_getmsgbytes(buf, len);
	const tfp_preset *p = tfp_preset_by_name(name, len);

	/* the bytes are not shown: they need not be text in any encoding */
	if (p == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary textfp_preset: %d bytes that name no preset", len),
				 errhint("Presets are %s.", preset_names())));
	PG_RETURN_INT32(p->id);
}

PG_FUNCTION_INFO_V1(textfp_preset_send);
Datum
textfp_preset_send(PG_FUNCTION_ARGS)
{
	const char *name = preset_arg(fcinfo, 0)->name;
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, name, strlen(name));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* --- fingerprints under a preset ------------------------------------------ */

/* simhash(doc, preset, idf DEFAULT 'none'): NULL for a text without features */
PG_FUNCTION_INFO_V1(textfp_simhash_preset);
Datum
textfp_simhash_preset(PG_FUNCTION_ARGS)
{
	const tfp_preset *p = preset_arg(fcinfo, 1);
	tfp_idf		view;
	const tfp_idf *idf = textfp_idf_arg(fcinfo, SIMHASH_PRESET_ARG_IDF, &view);
	bool		isnull;
	Datum		fp;

	textfp_preset_check(p, TFP_PRESET_SIMHASH, idf);
	fp = textfp_preset_fingerprint(p, PG_GETARG_TEXT_PP(0), idf, &isnull);
	if (isnull)
		PG_RETURN_NULL();
	return fp;
}

/* minhash(doc, preset): NULL for a text without shingles */
PG_FUNCTION_INFO_V1(textfp_minhash_preset);
Datum
textfp_minhash_preset(PG_FUNCTION_ARGS)
{
	const tfp_preset *p = preset_arg(fcinfo, 1);
	bool		isnull;
	Datum		sig;

	textfp_preset_check(p, TFP_PRESET_MINHASH, NULL);
	sig = textfp_preset_fingerprint(p, PG_GETARG_TEXT_PP(0), NULL, &isnull);
	if (isnull)
		PG_RETURN_NULL();
	return sig;
}

/* simhash_features(doc, preset): what an idf_model of a SimHash preset counts */
PG_FUNCTION_INFO_V1(textfp_simhash_features_preset);
Datum
textfp_simhash_features_preset(PG_FUNCTION_ARGS)
{
	const tfp_preset *p = preset_arg(fcinfo, 1);

	check_method(p, TFP_PRESET_SIMHASH);
	PG_RETURN_ARRAYTYPE_P(textfp_simhash_feature_array(PG_GETARG_TEXT_PP(0),
													   &textfp_preset_options(p)->opts));
}

/* shingles(doc, preset): the set a MinHash preset signs */
PG_FUNCTION_INFO_V1(textfp_shingles_preset);
Datum
textfp_shingles_preset(PG_FUNCTION_ARGS)
{
	const tfp_preset *p = preset_arg(fcinfo, 1);

	check_method(p, TFP_PRESET_MINHASH);
	PG_RETURN_ARRAYTYPE_P(textfp_shingle_array(PG_GETARG_TEXT_PP(0),
											   &textfp_preset_options(p)->opts));
}

/* --- textfp_presets() ------------------------------------------------------ */

/* Option values as the SQL arguments spell them. */
static const char *
tokenizer_name(const tfp_preset *p)
{
	return p->tokenizer == TFP_TOKENIZER_ICU ? "icu" : "ngram";
}

static const char *
weighting_name(const tfp_preset *p)
{
	return p->weighting == TFP_WEIGHT_TF ? "tf" :
		p->weighting == TFP_WEIGHT_BINARY ? "binary" : "sublinear";
}

static const char *
numbers_name(const tfp_preset *p)
{
	return p->numbers == TFP_NUMBERS_KEEP ? "keep" :
		p->numbers == TFP_NUMBERS_DROP ? "drop" : "shape";
}

static const char *
chinese_name(const tfp_preset *p)
{
	return p->chinese == TFP_CHINESE_MAINLAND ? "mainland" : "none";
}

/* The options as a JSON object, every one named as the SQL argument is. */
static void
options_json(StringInfo s, const tfp_preset *p)
{
	appendStringInfo(s, "{\"featureless\": \"null\"");
	if (p->method == TFP_PRESET_MINHASH)
		appendStringInfo(s, ", \"k\": %d, \"method\": \"%s\"", p->k,
						 p->minhash_method == TFP_MINHASH_OPH ? "oph" : "kperm");
	appendStringInfo(s, ", \"ngram\": %d, \"shingle\": %d, \"tokenizer\": \"%s\", \"simplify\": %s"
					 ", \"stopwords\": \"%s\", \"user_stopwords\": []",
					 p->ngram, p->shingle, tokenizer_name(p), p->simplify ? "true" : "false",
					 tfp_stopwords_name(p->builtin_stopwords));
	if (p->method == TFP_PRESET_SIMHASH)
		appendStringInfo(s, ", \"weighting\": \"%s\"", weighting_name(p));
	appendStringInfo(s, ", \"seed\": 0");
	if (p->method == TFP_PRESET_SIMHASH)
		appendStringInfo(s, ", \"numbers\": \"%s\", \"keywords\": %d, \"idf\": \"%s\"",
						 numbers_name(p), p->keywords, p->idf ? "model" : "none");
	appendStringInfo(s, ", \"chinese\": \"%s\"}", chinese_name(p));
}

/* The call with every option spelled out that gives the preset's value. */
static void
expression(StringInfo s, const tfp_preset *p)
{
	if (p->method == TFP_PRESET_SIMHASH)
		appendStringInfo(s, "simhash(doc, 'null', ngram => %d, shingle => %d, tokenizer => '%s', "
						 "simplify => %s, stopwords => '%s', user_stopwords => '{}', weighting => '%s', "
						 "seed => 0, numbers => '%s', keywords => %d, idf => %s, chinese => '%s')",
						 p->ngram, p->shingle, tokenizer_name(p), p->simplify ? "true" : "false",
						 tfp_stopwords_name(p->builtin_stopwords), weighting_name(p), numbers_name(p),
						 p->keywords, p->idf ? "model" : "'none'", chinese_name(p));
	else
		appendStringInfo(s, "minhash(doc, 'null', k => %d, method => '%s', ngram => %d, shingle => %d, "
						 "tokenizer => '%s', simplify => %s, stopwords => '%s', user_stopwords => '{}', "
						 "seed => 0, chinese => '%s')",
						 p->k, p->minhash_method == TFP_MINHASH_OPH ? "oph" : "kperm",
						 p->ngram, p->shingle, tokenizer_name(p), p->simplify ? "true" : "false",
						 tfp_stopwords_name(p->builtin_stopwords), chinese_name(p));
}

PG_FUNCTION_INFO_V1(textfp_presets);
Datum
textfp_presets(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	for (size_t i = 0; i < tfp_preset_count(); i++)
	{
		const tfp_preset *p = tfp_preset_at(i);
		StringInfoData opts;
		StringInfoData expr;
		Datum		d[7];
		bool		nulls[7] = {false, false, false, false, false, false, false};

		initStringInfo(&opts);
		options_json(&opts, p);
		initStringInfo(&expr);
		expression(&expr, p);
		d[0] = CStringGetTextDatum(p->name);
		d[1] = CStringGetTextDatum(method_name(p->method));
		d[2] = BoolGetDatum(p->recommended);
		d[3] = Float8GetDatum(p->threshold);
		d[4] = DirectFunctionCall1(jsonb_in, CStringGetDatum(opts.data));
		d[5] = CStringGetTextDatum(expr.data);
		d[6] = CStringGetTextDatum(p->description);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, d, nulls);
	}
	return (Datum) 0;
}
