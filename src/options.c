/*
 * options.c: the text pipeline's named SQL arguments, parsed into
 * tfp_options once per query and cached in fn_extra.
 *
 * simhash(), minhash(), shingles() and textfp_features() take the same
 * options with the same names, in the same order, after their own leading
 * arguments; the set-based functions leave out weighting, which a set
 * ignores.  The caller says where the options start and whether weighting
 * is among them.  The 1.1 forms also take chinese, at a place of its own
 * (last in simhash()/minhash() with featureless, second in shingles(),
 * textfp_features() and textfp_normalize()).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "textfp.h"
#include "tfp_presets.h"

#define MAX_USER_STOPWORDS 100000

typedef struct OptionsCache
{
	/* where the options are and the raw arguments this entry was built from */
	int			first;
	bool		has_weighting;
	int			chinese_arg;	/* -1 without a chinese argument */
	int32		ngram;
	int32		shingle;
	text	   *tokenizer;
	bool		simplify;
	text	   *stopwords;
	ArrayType  *user_stopwords;
	text	   *weighting;		/* NULL without a weighting argument */
	int64		seed;
	bool		has_ranking;	/* numbers and keywords follow seed (1.1 simhash) */
	text	   *numbers;
	int32		keywords;
	text	   *chinese;		/* NULL without a chinese argument */
	/* what they mean */
	TextfpOptions parsed;
	tfp_stopset *user_set;
} OptionsCache;

/* Argument positions, relative to the first option. */
#define ARG_NGRAM		0
#define ARG_SHINGLE		1
#define ARG_TOKENIZER	2
#define ARG_SIMPLIFY	3
#define ARG_STOPWORDS	4
#define ARG_USER		5
#define ARG_WEIGHTING	6
#define ARG_SEED(w)		((w) ? 7 : 6)
#define ARG_NUMBERS(w)	((w) ? 8 : 7)	/* with ranking */
#define ARG_KEYWORDS	9		/* with weighting and ranking */

bool
textfp_text_is(text *t, const char *s)
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

void
textfp_check_range(const char *name, int32 value, int32 lo, int32 hi)
{
	if (value < lo || value > hi)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be between %d and %d, got %d", name, lo, hi, value)));
}

void
textfp_bad_choice(const char *name, text *value, const char *valid)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for %s: \"%s\"", name, text_to_cstring(value)),
			 errhint("Valid values are %s.", valid)));
}

/* The featureless argument: true for 'null', false for 'fingerprint' (1.0's answer). */
bool
textfp_null_if_featureless(text *value)
{
	if (textfp_text_is(value, "null"))
		return true;
	if (textfp_text_is(value, "fingerprint"))
		return false;
	/* a preset given by position lands here: featureless is a text, a preset is not */
	if (tfp_preset_by_name(VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value)) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for featureless: \"%s\"", text_to_cstring(value)),
				 errhint("\"%s\" is a preset: name it, preset => '%s'.",
						 text_to_cstring(value), text_to_cstring(value))));
	textfp_bad_choice("featureless", value, "\"null\" and \"fingerprint\"");
}

/*
 * The built-in lists a stopwords value names, as a TFP_STOP_* mask: "builtin"
 * (zh and en, the 1.0 default), "none", or list names joined by "+": "zh",
 * "en" (npm stopwords-en), "snowball" (Snowball's English list, 1.1).
 */
int
textfp_stopword_lists(const char *what, text *value)
{
	static const struct
	{
		const char *name;
		int			mask;
	}			lists[] = {{"zh", TFP_STOP_ZH}, {"en", TFP_STOP_EN}, {"snowball", TFP_STOP_SNOWBALL}};
	const char *p = VARDATA_ANY(value);
	const char *end = p + VARSIZE_ANY_EXHDR(value);
	static const char *const valid =
		"\"builtin\" (zh+en), \"none\", and \"zh\", \"en\", \"snowball\" or several of them joined by \"+\", each once, such as \"zh+snowball\"";
	int			mask = 0;

	if (textfp_text_is(value, "builtin"))
		return TFP_STOP_ZH | TFP_STOP_EN;
	if (textfp_text_is(value, "none"))
		return 0;
	while (p < end)
	{
		const char *plus = memchr(p, '+', end - p);
		size_t		len = (plus ? plus : end) - p;
		size_t		i;

		for (i = 0; i < lengthof(lists); i++)
			if (strlen(lists[i].name) == len && memcmp(lists[i].name, p, len) == 0)
				break;
		if (i == lengthof(lists) || (mask & lists[i].mask))
			textfp_bad_choice(what, value, valid);
		mask |= lists[i].mask;
		if (plus == NULL)
			break;
		p = plus + 1;
		if (p == end)			/* a trailing "+" */
			textfp_bad_choice(what, value, valid);
	}
	if (mask == 0)
		textfp_bad_choice(what, value, valid);
	return mask;
}

/*
 * What a chinese value asks for: "none" (the default), or "mainland":
 * Taiwan and Hong Kong words and characters to mainland Simplified through
 * the frozen table opencc-1.1.6-tw-hk-mainland.  A value names one table
 * forever; a table made from other data comes under a new value.
 * ICU's character conversion first would turn the Traditional keys the
 * table looks for into something else, hence the error.
 */
tfp_chinese
textfp_chinese_option(text *value, bool simplify)
{
	tfp_chinese c;

	if (textfp_text_is(value, "none"))
		c = TFP_CHINESE_NONE;
	else if (textfp_text_is(value, "mainland"))
		c = TFP_CHINESE_MAINLAND;
	else
		textfp_bad_choice("chinese", value, "\"none\" and \"mainland\"");
	if (c != TFP_CHINESE_NONE && simplify)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("simplify => true cannot be combined with chinese => '%s'", text_to_cstring(value)),
				 errdetail("Both convert Traditional Chinese to Simplified; chinese => 'mainland' converts words as well as characters."),
				 errhint("Leave simplify false.")));
	return c;
}

/* Normalise the user's stopwords exactly as tokens are, and build a set. */
static tfp_stopset *
build_user_stopwords(ArrayType *arr, bool simplify, tfp_chinese chinese, MemoryContext cxt)
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
		rc = tfp_normalize_chinese(&env, u8, u8len, simplify, chinese, 0, &words[i], &lens[i]);
		if (rc != TFP_OK)
			textfp_report(rc, &env);
		/*
		 * Normalising can grow a word (NFKC): refused like a long one, never
		 * dropped in silence, as 1.0 did (it could match no token either way:
		 * no token over the limit is looked up).
		 */
		if (lens[i] > TFP_MAX_STOPWORD_BYTES)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("user stopword is too long after normalization"),
					 errdetail("A stopword may have at most %d bytes after Unicode normalization (NFKC); \"%s\" has %zu.",
							   TFP_MAX_STOPWORD_BYTES, text_to_cstring(t), lens[i])));
	}
	textfp_env_init(&setenv, cxt);
	rc = tfp_stopset_build(&setenv, (const char *const *) words, lens, n, &set);
	if (rc != TFP_OK)
		textfp_report(rc, &setenv);
	return set;
}

static bool
options_match(const OptionsCache *c, FunctionCallInfo fcinfo, int first, bool w,
			  bool ranking, int chinese_arg)
{
	ArrayType  *user;

	if (c->first != first || c->has_weighting != w || c->has_ranking != ranking ||
		c->chinese_arg != chinese_arg)
		return false;
	if (chinese_arg >= 0 && !texts_equal(c->chinese, PG_GETARG_TEXT_PP(chinese_arg)))
		return false;
	if (ranking &&
		((w && c->keywords != PG_GETARG_INT32(first + ARG_KEYWORDS)) ||
		 !texts_equal(c->numbers, PG_GETARG_TEXT_PP(first + ARG_NUMBERS(w)))))
		return false;
	user = PG_GETARG_ARRAYTYPE_P(first + ARG_USER);
	return c->ngram == PG_GETARG_INT32(first + ARG_NGRAM) &&
		c->shingle == PG_GETARG_INT32(first + ARG_SHINGLE) &&
		texts_equal(c->tokenizer, PG_GETARG_TEXT_PP(first + ARG_TOKENIZER)) &&
		c->simplify == PG_GETARG_BOOL(first + ARG_SIMPLIFY) &&
		texts_equal(c->stopwords, PG_GETARG_TEXT_PP(first + ARG_STOPWORDS)) &&
		VARSIZE(c->user_stopwords) == VARSIZE(user) &&
		memcmp(c->user_stopwords, user, VARSIZE(user)) == 0 &&
		(!w || texts_equal(c->weighting, PG_GETARG_TEXT_PP(first + ARG_WEIGHTING))) &&
		c->seed == PG_GETARG_INT64(first + ARG_SEED(w));
}

static text *
copy_text(text *t)
{
	return (text *) PG_DETOAST_DATUM_COPY(PointerGetDatum(t));
}

static OptionsCache *
parse_options(FunctionCallInfo fcinfo, int first, bool has_weighting,
			  bool has_ranking, int chinese_arg, MemoryContext cxt)
{
	int32		ngram = PG_GETARG_INT32(first + ARG_NGRAM);
	int32		shingle = PG_GETARG_INT32(first + ARG_SHINGLE);
	text	   *tokenizer = PG_GETARG_TEXT_PP(first + ARG_TOKENIZER);
	bool		simplify = PG_GETARG_BOOL(first + ARG_SIMPLIFY);
	text	   *stopwords = PG_GETARG_TEXT_PP(first + ARG_STOPWORDS);
	ArrayType  *user = PG_GETARG_ARRAYTYPE_P(first + ARG_USER);
	int64		seed = PG_GETARG_INT64(first + ARG_SEED(has_weighting));
	MemoryContext old;
	OptionsCache *c;
	tfp_options *o;

	textfp_check_range("ngram", ngram, 1, TFP_MAX_NGRAM);
	textfp_check_range("shingle", shingle, 1, TFP_MAX_SHINGLE);

	old = MemoryContextSwitchTo(cxt);
	c = palloc0(sizeof(OptionsCache));
	c->first = first;
	c->has_weighting = has_weighting;
	c->chinese_arg = chinese_arg;
	c->ngram = ngram;
	c->shingle = shingle;
	c->simplify = simplify;
	c->seed = seed;
	c->tokenizer = copy_text(tokenizer);
	c->stopwords = copy_text(stopwords);
	if (has_weighting)
		c->weighting = copy_text(PG_GETARG_TEXT_PP(first + ARG_WEIGHTING));
	c->has_ranking = has_ranking;
	if (has_ranking)
	{
		c->numbers = copy_text(PG_GETARG_TEXT_PP(first + ARG_NUMBERS(has_weighting)));
		c->keywords = has_weighting ? PG_GETARG_INT32(first + ARG_KEYWORDS) : 0;
	}
	if (chinese_arg >= 0)
		c->chinese = copy_text(PG_GETARG_TEXT_PP(chinese_arg));
	c->user_stopwords = (ArrayType *) PG_DETOAST_DATUM_COPY(PointerGetDatum(user));
	MemoryContextSwitchTo(old);

	o = &c->parsed.opts;
	tfp_options_default(o);
	o->ngram = ngram;
	o->shingle = shingle;
	o->simplify = simplify;
	o->seed = (uint64) seed;

	if (textfp_text_is(tokenizer, "ngram"))
		o->tokenizer = TFP_TOKENIZER_NGRAM;
	else if (textfp_text_is(tokenizer, "icu"))
		o->tokenizer = TFP_TOKENIZER_ICU;
	else
		textfp_bad_choice("tokenizer", tokenizer, "\"ngram\" and \"icu\"");

	o->builtin_stopwords = textfp_stopword_lists("stopwords", stopwords);

	if (!has_weighting)
		o->weighting = TFP_WEIGHT_BINARY;
	else if (textfp_text_is(c->weighting, "tf"))
		o->weighting = TFP_WEIGHT_TF;
	else if (textfp_text_is(c->weighting, "binary"))
		o->weighting = TFP_WEIGHT_BINARY;
	else if (textfp_text_is(c->weighting, "sublinear"))
		o->weighting = TFP_WEIGHT_SUBLINEAR;
	else
		textfp_bad_choice("weighting", c->weighting, "\"tf\", \"binary\" and \"sublinear\"");

	if (has_ranking)
	{
		if (textfp_text_is(c->numbers, "keep"))
			o->numbers = TFP_NUMBERS_KEEP;
		else if (textfp_text_is(c->numbers, "drop"))
			o->numbers = TFP_NUMBERS_DROP;
		else if (textfp_text_is(c->numbers, "shape"))
			o->numbers = TFP_NUMBERS_SHAPE;
		else
			textfp_bad_choice("numbers", c->numbers, "\"keep\", \"drop\" and \"shape\"");
		textfp_check_range("keywords", c->keywords, 0, TFP_MAX_FEATURES);
		o->keywords = c->keywords;
	}

	if (chinese_arg >= 0)
		o->chinese = textfp_chinese_option(c->chinese, simplify);
	c->user_set = build_user_stopwords(user, simplify, o->chinese, cxt);
	o->user_stopwords = c->user_set;
	c->parsed.pipeline_id = tfp_pipeline_id(o);
	return c;
}

/* Parsed options in memory of cxt, for callers that keep their own state. */
const TextfpOptions *
textfp_parse_options(FunctionCallInfo fcinfo, int first, bool has_weighting,
					 int chinese_arg, MemoryContext cxt)
{
	return &parse_options(fcinfo, first, has_weighting, false, chinese_arg, cxt)->parsed;
}

/*
 * The options of a scalar call, cached in fn_extra.  The arguments are
 * almost always the same in every row (constants or defaults); when they
 * vary (options from a column, say), a few recent sets stay parsed, each in
 * a memory context of its own that is deleted when it leaves the cache, so
 * memory stays bounded however many rows the query has.
 */
#define OPTIONS_CACHE_SIZE 4

typedef struct OptionsCacheSet
{
	int			n;
	OptionsCache *entry[OPTIONS_CACHE_SIZE];	/* most recently used first */
	MemoryContext cxt[OPTIONS_CACHE_SIZE];
} OptionsCacheSet;

/* parse_options into cxt; on an error, cxt is deleted (PL/pgSQL keeps fn_mcxt long) */
static OptionsCache *
parse_in_context(FunctionCallInfo fcinfo, int first, bool has_weighting,
				 bool has_ranking, int chinese_arg, MemoryContext cxt)
{
	OptionsCache *c = NULL;

	PG_TRY();
	{
		c = parse_options(fcinfo, first, has_weighting, has_ranking, chinese_arg, cxt);
	}
	PG_CATCH();
	{
		MemoryContextDelete(cxt);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return c;
}

const TextfpOptions *
textfp_get_options(FunctionCallInfo fcinfo, int first, bool has_weighting, int chinese_arg)
{
	return textfp_get_ranked_options(fcinfo, first, has_weighting, false, chinese_arg);
}

/*
 * The same, where numbers (and, with weighting, keywords) follow seed
 * (has_ranking: 1.1's simhash overload and simhash_features).
 */
const TextfpOptions *
textfp_get_ranked_options(FunctionCallInfo fcinfo, int first, bool has_weighting,
						  bool has_ranking, int chinese_arg)
{
	OptionsCacheSet *set = (OptionsCacheSet *) fcinfo->flinfo->fn_extra;
	OptionsCache *hit;
	MemoryContext cxt;
	int			i;

	if (set == NULL)
	{
		set = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(OptionsCacheSet));
		fcinfo->flinfo->fn_extra = set;
	}
	for (i = 0; i < set->n; i++)
		if (options_match(set->entry[i], fcinfo, first, has_weighting, has_ranking, chinese_arg))
			break;
	if (i < set->n)
	{
		hit = set->entry[i];
		cxt = set->cxt[i];
	}
	else
	{
		if (set->n == OPTIONS_CACHE_SIZE)
			MemoryContextDelete(set->cxt[--set->n]);
		cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "textfp options",
									ALLOCSET_SMALL_SIZES);
		hit = parse_in_context(fcinfo, first, has_weighting, has_ranking, chinese_arg, cxt);
		i = set->n++;
	}
	/* move to the front */
	memmove(&set->entry[1], &set->entry[0], sizeof(set->entry[0]) * i);
	memmove(&set->cxt[1], &set->cxt[0], sizeof(set->cxt[0]) * i);
	set->entry[0] = hit;
	set->cxt[0] = cxt;
	return &hit->parsed;
}
