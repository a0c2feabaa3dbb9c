/*
 * test_presets.c: the preset table (presets.c), included by test_core.c.
 *
 * A preset is frozen once released: its number, name, options and threshold
 * are spelled out here, so that any change to the table fails a test, and
 * its fingerprints of fixed texts are the golden values expected/presets.out
 * pins for SQL.
 */
#include "tfp_presets.h"

/* Every preset as released; a new preset is a new row, never an edit. */
static const tfp_preset frozen_presets[] = {
	{.id = 1, .name = "simhash_idf_v1", .method = TFP_PRESET_SIMHASH, .ngram = 1, .shingle = 1,
		.tokenizer = TFP_TOKENIZER_NGRAM, .simplify = false, .chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_EN, .weighting = TFP_WEIGHT_TF,
	.numbers = TFP_NUMBERS_KEEP, .keywords = 0, .idf = true, .threshold = 13, .recommended = true},
	{.id = 2, .name = "simhash_v1", .method = TFP_PRESET_SIMHASH, .ngram = 1, .shingle = 1,
		.tokenizer = TFP_TOKENIZER_NGRAM, .simplify = false, .chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_EN, .weighting = TFP_WEIGHT_SUBLINEAR,
	.numbers = TFP_NUMBERS_KEEP, .keywords = 0, .idf = false, .threshold = 11, .recommended = false},
	{.id = 3, .name = "minhash_v1", .method = TFP_PRESET_MINHASH, .ngram = 1, .shingle = 1,
		.tokenizer = TFP_TOKENIZER_NGRAM, .simplify = false, .chinese = TFP_CHINESE_MAINLAND,
		.builtin_stopwords = TFP_STOP_ZH | TFP_STOP_SNOWBALL, .weighting = TFP_WEIGHT_BINARY,
		.numbers = TFP_NUMBERS_KEEP, .k = 128, .minhash_method = TFP_MINHASH_OPH,
	.threshold = 0.46875, .recommended = true},
};

#define N_FROZEN (sizeof(frozen_presets) / sizeof(frozen_presets[0]))

static void
presets_are_frozen(void)
{
	REQUIRE(tfp_preset_count() >= N_FROZEN);
	for (size_t i = 0; i < N_FROZEN; i++)
	{
		const tfp_preset *w = &frozen_presets[i];
		const tfp_preset *p = tfp_preset_by_id(w->id);

		REQUIRE(p != NULL);
		CHECK_STR_EQ(p->name, w->name);
		CHECK_INT_EQ(p->method, w->method);
		CHECK_INT_EQ(p->ngram, w->ngram);
		CHECK_INT_EQ(p->shingle, w->shingle);
		CHECK_INT_EQ(p->tokenizer, w->tokenizer);
		CHECK_INT_EQ(p->simplify, w->simplify);
		CHECK_INT_EQ(p->chinese, w->chinese);
		CHECK_INT_EQ(p->builtin_stopwords, w->builtin_stopwords);
		CHECK_INT_EQ(p->numbers, w->numbers);
		CHECK_INT_EQ(p->recommended, w->recommended);
		CHECK(p->threshold == w->threshold);
		if (w->method == TFP_PRESET_SIMHASH)
		{
			CHECK_INT_EQ(p->weighting, w->weighting);
			CHECK_INT_EQ(p->keywords, w->keywords);
			CHECK_INT_EQ(p->idf, w->idf);
		}
		else
		{
			CHECK_INT_EQ(p->k, w->k);
			CHECK_INT_EQ(p->minhash_method, w->minhash_method);
		}
		CHECK(p->description != NULL && p->description[0] != '\0');
	}
}

/* Numbers and names unique, one recommended preset per method, values in range. */
static void
presets_table_is_consistent(void)
{
	int			recommended[3] = {0, 0, 0};

	for (size_t i = 0; i < tfp_preset_count(); i++)
	{
		const tfp_preset *p = tfp_preset_at(i);

		CHECK(p->id > 0);
		for (size_t j = 0; j < i; j++)
		{
			CHECK(tfp_preset_at(j)->id != p->id);
			CHECK(strcmp(tfp_preset_at(j)->name, p->name) != 0);
		}
		CHECK(tfp_preset_by_name(p->name, strlen(p->name)) == p);
		CHECK(tfp_preset_by_id(p->id) == p);
		REQUIRE(p->method == TFP_PRESET_SIMHASH || p->method == TFP_PRESET_MINHASH);
		recommended[p->method] += p->recommended;
		CHECK(p->ngram >= 1 && p->ngram <= TFP_MAX_NGRAM);
		CHECK(p->shingle >= 1 && p->shingle <= TFP_MAX_SHINGLE);
		CHECK(tfp_stopwords_name(p->builtin_stopwords) != NULL);
		/* chinese => 'mainland' refuses simplify in SQL: so must a preset */
		CHECK(!(p->simplify && p->chinese != TFP_CHINESE_NONE));
		if (p->method == TFP_PRESET_SIMHASH)
			CHECK(p->threshold >= 0 && p->threshold <= SIMHASH_BITS && p->threshold == (int) p->threshold);
		else
		{
			CHECK(p->k >= 1 && p->k <= TFP_MINHASH_K_MAX);
			CHECK(p->threshold > 0 && p->threshold <= 1);
			CHECK(!p->idf);
		}
	}
	CHECK_INT_EQ(recommended[TFP_PRESET_SIMHASH], 1);
	CHECK_INT_EQ(recommended[TFP_PRESET_MINHASH], 1);
	/* exact names only */
	CHECK(tfp_preset_by_name(S("minhash_v")) == NULL);
	CHECK(tfp_preset_by_name(S("minhash_v1x")) == NULL);
	CHECK(tfp_preset_by_name(S("MINHASH_V1")) == NULL);
	CHECK(tfp_preset_by_name(S("")) == NULL);
	CHECK(tfp_preset_by_id(0) == NULL);
	CHECK(tfp_preset_at(tfp_preset_count()) == NULL);
	CHECK_STR_EQ(tfp_stopwords_name(TFP_STOP_ZH | TFP_STOP_EN), "builtin");
	CHECK_STR_EQ(tfp_stopwords_name(TFP_STOP_ZH | TFP_STOP_SNOWBALL), "zh+snowball");
	CHECK_STR_EQ(tfp_stopwords_name(0), "none");
	CHECK(tfp_stopwords_name(TFP_STOP_ALL + 1) == NULL);
}

/* expected/presets.out's texts */
static const char *const preset_texts[] = {
	"The quick brown fox jumps over the lazy dog while the cat sleeps on the warm windowsill.",
	"国务院新闻办公室今天举行新闻发布会，介绍前三季度国民经济运行情况。",
	"這套軟體的檔案是互動式的，程式設計師可以從網路下載。",
	"这套软件的文件是交互式的，程序员可以从网上下载。",
	"Apple 发布了新款 iPhone 16，售价 5999 元起，2024 年 9 月上市。",
	"",
	"。！？ ... !!!",
};

#define N_PRESET_TEXTS (sizeof(preset_texts) / sizeof(preset_texts[0]))

/*
 * The golden values of expected/presets.out: simhash_idf_v1 with the model
 * of the texts above (width 64), simhash_v1, and minhash_v1's first four and
 * last values; 0 where the text has no features (NULL in SQL).
 */
static void
presets_golden_values(void)
{
	static const uint64_t idf_v1[] = {
		UINT64_C(0x8206968280dab2e7), UINT64_C(0x33c7e59056c69d1e), UINT64_C(0x954cdb9fd0fcb978),
		UINT64_C(0x95685abdf3adb978), UINT64_C(0x63bd388f6d5f8013), 0, 0,
	};
	static const uint64_t v1[] = {
		UINT64_C(0x82048682801a90e7), UINT64_C(0x33c7e59455e69d1e), UINT64_C(0x956cdb9ed1fdb978),
		UINT64_C(0x95685abdf3adb978), UINT64_C(0x63bd388f6d5f8013), 0, 0,
	};
	static const uint32_t mh[][5] = {
		{0x9e658c59, 0x9354c2b5, 0x552d8c90, 0x9e658c59, 0x9e658c59},
		{0x510d49c9, 0xabd622e2, 0x9a44bab3, 0x13e43127, 0x2079711b},
		{0x2bbe1e43, 0xf11b81f9, 0x2aa7b448, 0xf11b81f9, 0x2aa7b448},
		{0x2bbe1e43, 0xf11b81f9, 0x2aa7b448, 0xf11b81f9, 0x2aa7b448},
		{0x48b357c5, 0x312b8b10, 0x9a44bab3, 0x48b357c5, 0x9a44bab3},
	};
	static uint32_t counts[TFP_IDF_DEPTH * 64];
	tfp_idf		model = {.docs = N_PRESET_TEXTS, .width = 64, .counts = counts};
	const tfp_preset *idf_p = tfp_preset_by_name(S("simhash_idf_v1"));
	const tfp_preset *v1_p = tfp_preset_by_name(S("simhash_v1"));
	const tfp_preset *mh_p = tfp_preset_by_name(S("minhash_v1"));
	tfp_options o;

	REQUIRE(idf_p != NULL && v1_p != NULL && mh_p != NULL);

	/* the model, as idf_model(simhash_features(body, preset => ...), 64) builds it */
	memset(counts, 0, sizeof(counts));
	tfp_preset_options(idf_p, &o);
	for (size_t t = 0; t < N_PRESET_TEXTS; t++)
	{
		tfp_featureset fs;
		uint64_t	h[256];
		size_t		n;

		REQUIRE_INT_EQ(tfp_extract(&env, &o, preset_texts[t], strlen(preset_texts[t]), true, false, &fs),
					   TFP_OK);
		n = fs.n;
		REQUIRE(n <= 256);
		for (size_t i = 0; i < n; i++)
			h[i] = fs.items[i].hash;
		tfp_featureset_free(&env, &fs);
		REQUIRE_INT_EQ(tfp_idf_add_doc(counts, 64, h, n), TFP_OK);
	}
	REQUIRE(tfp_idf_check(&model));

	for (size_t t = 0; t < N_PRESET_TEXTS; t++)
	{
		const char *s = preset_texts[t];
		uint64_t	fp;
		size_t		nf;
		uint32_t	sig[128];

		tfp_preset_options(idf_p, &o);
		o.idf = &model;
		REQUIRE_INT_EQ(tfp_simhash_text(&env, &o, s, strlen(s), &fp, &nf), TFP_OK);
		if ((nf ? fp : 0) != idf_v1[t])
			UNIT_FAIL("simhash_idf_v1 of text %zu: %016" PRIx64 ", want %016" PRIx64, t + 1, fp, idf_v1[t]);

		tfp_preset_options(v1_p, &o);
		REQUIRE_INT_EQ(tfp_simhash_text(&env, &o, s, strlen(s), &fp, &nf), TFP_OK);
		if ((nf ? fp : 0) != v1[t])
			UNIT_FAIL("simhash_v1 of text %zu: %016" PRIx64 ", want %016" PRIx64, t + 1, fp, v1[t]);

		tfp_preset_options(mh_p, &o);
		REQUIRE_INT_EQ(mh_p->k, 128);
		REQUIRE_INT_EQ(tfp_minhash_text(&env, &o, s, strlen(s), mh_p->k, mh_p->minhash_method, sig, &nf),
					   TFP_OK);
		if (t < sizeof(mh) / sizeof(mh[0]))
		{
			if (sig[0] != mh[t][0] || sig[1] != mh[t][1] || sig[2] != mh[t][2] ||
				sig[3] != mh[t][3] || sig[127] != mh[t][4])
				UNIT_FAIL("minhash_v1 of text %zu: %08x %08x %08x %08x .. %08x", t + 1,
						  sig[0], sig[1], sig[2], sig[3], sig[127]);
		}
		else
			CHECK_INT_EQ(nf, 0);
	}
	/* the pipeline id in minhash_v1's signatures (pipe= in SQL) */
	tfp_preset_options(mh_p, &o);
	CHECK_U64_EQ(tfp_pipeline_id(&o), 0xaaed9511);
}
