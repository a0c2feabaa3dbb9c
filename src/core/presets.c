/*
 * presets.c: the table of named presets (tfp_presets.h).
 *
 * Each row was chosen by bench/presets/ on three evaluation sets
 * (docs/quality.md, "1.1: presets").  A row never changes once released:
 * stored fingerprints and expression indexes hold what it computes.  A
 * better set of options is a new row with a new name and a new id.
 */
#include <string.h>

#include "tfp_presets.h"

static const tfp_preset presets[] = {
	{
		.id = 1,
		.name = "simhash_idf_v1",
		.method = TFP_PRESET_SIMHASH,
		.ngram = 1,
		.shingle = 1,
		.tokenizer = TFP_TOKENIZER_NGRAM,
		.simplify = false,
		.chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_EN,
		.weighting = TFP_WEIGHT_TF,
		.numbers = TFP_NUMBERS_KEEP,
		.keywords = 0,
		.idf = true,
		.threshold = 13,
		.recommended = true,
		.description = "SimHash weighted by TF-IDF: needs an idf_model of the collection "
		"(idf_model(simhash_features(doc, preset => 'simhash_idf_v1'))); Chinese as characters, "
		"Taiwan and Hong Kong wording converted to mainland; Hamming radius 13",
	},
	{
		.id = 2,
		.name = "simhash_v1",
		.method = TFP_PRESET_SIMHASH,
		.ngram = 1,
		.shingle = 1,
		.tokenizer = TFP_TOKENIZER_NGRAM,
		.simplify = false,
		.chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_EN,
		.weighting = TFP_WEIGHT_SUBLINEAR,
		.numbers = TFP_NUMBERS_KEEP,
		.keywords = 0,
		.idf = false,
		.threshold = 11,
		.recommended = false,
		.description = "SimHash without a model (sublinear TF), for a generated column or before "
		"a collection exists; Chinese as characters, Taiwan and Hong Kong wording converted to "
		"mainland; Hamming radius 11",
	},
	{
		.id = 3,
		.name = "minhash_v1",
		.method = TFP_PRESET_MINHASH,
		.ngram = 1,
		.shingle = 1,
		.tokenizer = TFP_TOKENIZER_NGRAM,
		.simplify = false,
		.chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_SNOWBALL,
		.weighting = TFP_WEIGHT_BINARY,
		.numbers = TFP_NUMBERS_KEEP,
		.k = 128,
		.minhash_method = TFP_MINHASH_OPH,
		.threshold = 0.46875,	/* 60 of 128 positions */
		.recommended = true,
		.description = "MinHash of the set of words and Chinese characters, stopwords "
		"zh+snowball, Taiwan and Hong Kong wording converted to mainland; Jaccard 0.46875 (60 of 128)",
	},
	{
		.id = 4,
		.name = "simhash_v2",
		.method = TFP_PRESET_SIMHASH,
		.ngram = 2,
		.shingle = 1,
		.tokenizer = TFP_TOKENIZER_NGRAM,
		.simplify = false,
		.chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_EN,
		.weighting = TFP_WEIGHT_SUBLINEAR,
		.numbers = TFP_NUMBERS_KEEP,
		.keywords = 0,
		.idf = false,
		.threshold = 11,
		.recommended = false,
		.description = "SimHash without a model (sublinear TF), Chinese as character pairs: unrelated "
		"Chinese texts share single characters, not pairs; Taiwan and Hong Kong wording converted to "
		"mainland; Hamming radius 11.  A table registration's SimHash default",
	},
	{
		.id = 5,
		.name = "minhash_v2",
		.method = TFP_PRESET_MINHASH,
		.ngram = 1,
		.shingle = 2,
		.tokenizer = TFP_TOKENIZER_NGRAM,
		.simplify = false,
		.chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_SNOWBALL,
		.weighting = TFP_WEIGHT_BINARY,
		.numbers = TFP_NUMBERS_KEEP,
		.k = 128,
		.minhash_method = TFP_MINHASH_OPH,
		.threshold = 0.3125,	/* 40 of 128 positions */
		.recommended = false,
		.description = "MinHash of the set of pairs of consecutive words and Chinese characters "
		"(shingle 2): unrelated Chinese texts share characters, not pairs; stopwords zh+snowball, "
		"Taiwan and Hong Kong wording converted to mainland; Jaccard 0.3125 (40 of 128).  A table "
		"registration's MinHash default before minhash_v3",
	},
	{
		.id = 6,
		.name = "minhash_v3",
		.method = TFP_PRESET_MINHASH,
		.ngram = 1,
		.shingle = 3,
		.tokenizer = TFP_TOKENIZER_NGRAM,
		.simplify = false,
		.chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_SNOWBALL,
		.weighting = TFP_WEIGHT_BINARY,
		.numbers = TFP_NUMBERS_KEEP,
		.k = 128,
		.minhash_method = TFP_MINHASH_OPH,
		.threshold = 0.296875,	/* 38 of 128 positions */
		.recommended = false,
		.description = "MinHash of the set of runs of three consecutive words and Chinese characters "
		"(shingle 3): unrelated texts share few of them, so lookups and relinks stay fast at a million "
		"rows; stopwords zh+snowball, Taiwan and Hong Kong wording converted to mainland; Jaccard 0.296875 "
		"(38 of 128).  A table registration's MinHash default",
	},
};

size_t
tfp_preset_count(void)
{
	return sizeof(presets) / sizeof(presets[0]);
}

const tfp_preset *
tfp_preset_at(size_t i)
{
	return i < tfp_preset_count() ? &presets[i] : NULL;
}

const tfp_preset *
tfp_preset_by_name(const char *name, size_t len)
{
	for (size_t i = 0; i < tfp_preset_count(); i++)
		if (strlen(presets[i].name) == len && memcmp(presets[i].name, name, len) == 0)
			return &presets[i];
	return NULL;
}

const tfp_preset *
tfp_preset_by_id(int id)
{
	for (size_t i = 0; i < tfp_preset_count(); i++)
		if (presets[i].id == id)
			return &presets[i];
	return NULL;
}

void
tfp_preset_options(const tfp_preset *p, tfp_options *opts)
{
	tfp_options_default(opts);
	opts->ngram = p->ngram;
	opts->shingle = p->shingle;
	opts->tokenizer = p->tokenizer;
	opts->simplify = p->simplify;
	opts->chinese = p->chinese;
	opts->builtin_stopwords = p->builtin_stopwords;
	/* sets ignore weights: the SQL set functions pass binary, so must we */
	opts->weighting = p->method == TFP_PRESET_SIMHASH ? p->weighting : TFP_WEIGHT_BINARY;
	opts->numbers = p->numbers;
	opts->keywords = p->keywords;
}

const char *
tfp_stopwords_name(int mask)
{
	static const char *const names[TFP_STOP_ALL + 1] = {
		"none", "zh", "en", "builtin", "snowball", "zh+snowball", "en+snowball", "zh+en+snowball",
	};

	return mask >= 0 && mask <= TFP_STOP_ALL ? names[mask] : NULL;
}
