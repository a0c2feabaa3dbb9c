/*
 * test_weights.c: unit tests of 1.1's weights (included by test_core.c):
 * fixed-point logarithms, sublinear TF, the IDF sketch, keyword selection
 * and the numbers option.
 */

static double
fixed_to_double(int64_t v)
{
	return ldexp((double) v, -TFP_WEIGHT_FRAC_BITS);
}

static void
weights_log_fixed_values(void)
{
	/* powers of two are exact */
	for (int k = 0; k < 64; k++)
		CHECK(tfp_log2_fixed(UINT64_C(1) << k) == ((int64_t) k << TFP_WEIGHT_FRAC_BITS));
	CHECK(tfp_ln_fixed(1) == 0);
	/* within 2^-20 of libm, and never decreasing */
	{
		int64_t		prev = 0;
		uint64_t	state = 7;

		for (uint64_t x = 1; x < 5000; x++)
		{
			int64_t		l = tfp_ln_fixed(x);

			if (fabs(fixed_to_double(l) - log((double) x)) > ldexp(1, -20))
				UNIT_FAIL("ln(%" PRIu64 "): %.9f, libm %.9f", x, fixed_to_double(l), log((double) x));
			if (l < prev)
				UNIT_FAIL("ln not monotone at %" PRIu64, x);
			prev = l;
		}
		for (int i = 0; i < 2000; i++)
		{
			uint64_t	x = xorshift64(&state) >> (xorshift64(&state) % 63);

			if (x == 0)
				continue;
			if (fabs(fixed_to_double(tfp_log2_fixed(x)) - log2((double) x)) > ldexp(1, -20))
				UNIT_FAIL("log2(%" PRIu64 ") off", x);
		}
	}
	/* frozen values: a change here changes stored fingerprints */
	CHECK(tfp_ln_fixed(2) == 11629080);
	CHECK(tfp_ln_fixed(3) == 18431656);
	CHECK(tfp_ln_fixed(1000) == 115892902);
}

static void
weights_sublinear_and_idf(void)
{
	tfp_options o = opts_nostop();
	tfp_feature f = {.hash = 42, .count = 1};
	int64_t		one = INT64_C(1) << TFP_WEIGHT_FRAC_BITS;

	o.weighting = TFP_WEIGHT_SUBLINEAR;
	CHECK(tfp_feature_weight_fixed(&o, &f) == one);
	f.count = 2;
	CHECK(tfp_feature_weight_fixed(&o, &f) == one + tfp_ln_fixed(2));
	f.count = 1000;
	CHECK(fabs(fixed_to_double(tfp_feature_weight_fixed(&o, &f)) - (1 + log(1000.0))) < 1e-6);
	/* 1.0's weights are unchanged */
	o.weighting = TFP_WEIGHT_TF;
	CHECK(tfp_feature_weight_fixed(&o, &f) == 1000 * one);
	o.weighting = TFP_WEIGHT_BINARY;
	CHECK(tfp_feature_weight_fixed(&o, &f) == one);
	CHECK(!tfp_weights_per_feature(&o));
	o.weighting = TFP_WEIGHT_SUBLINEAR;
	CHECK(tfp_weights_per_feature(&o));

	/* idf: a sketch of 10 documents, feature 1 in all, feature 2 in one */
	{
		uint32_t	counts[TFP_IDF_DEPTH * 1024] = {0};
		tfp_idf		m = {.docs = 10, .width = 1024, .counts = counts};
		uint64_t	all[] = {1, 2};
		uint64_t	common[] = {1};
		int64_t		w1,
					w2,
					w3;

		REQUIRE_INT_EQ(tfp_idf_add_doc(counts, 1024, all, 2), TFP_OK);
		for (int d = 0; d < 9; d++)
			REQUIRE_INT_EQ(tfp_idf_add_doc(counts, 1024, common, 1), TFP_OK);
		REQUIRE(tfp_idf_check(&m));
		CHECK_U64_EQ(m.total, 11);
		CHECK_U64_EQ(tfp_idf_df(&m, 1), 10);
		CHECK_U64_EQ(tfp_idf_df(&m, 2), 1);
		CHECK_U64_EQ(tfp_idf_df(&m, 3), 0);
		w1 = tfp_idf_weight_fixed(&m, 1);
		w2 = tfp_idf_weight_fixed(&m, 2);
		w3 = tfp_idf_weight_fixed(&m, 3);
		/* 1 + ln(11/11), 1 + ln(11/2), 1 + ln(11/1) */
		CHECK(w1 == one);
		CHECK(fabs(fixed_to_double(w2) - (1 + log(11.0 / 2))) < 1e-6);
		CHECK(fabs(fixed_to_double(w3) - (1 + log(11.0))) < 1e-6);
		/* the weight is tf part times idf */
		o.weighting = TFP_WEIGHT_TF;
		o.idf = &m;
		f.hash = 2;
		f.count = 3;
		CHECK(llabs(tfp_feature_weight_fixed(&o, &f) - 3 * w2) <= 1);
		CHECK(tfp_weights_per_feature(&o));
		/* the empty model weighs nothing */
		m.docs = 0;
		m.log2_docs = 0;
		CHECK(tfp_idf_weight_fixed(&m, 2) == one);
		CHECK(tfp_feature_weight_fixed(&o, &f) == 3 * one);
		CHECK(!tfp_weights_per_feature(&o));
	}
}

static void
weights_idf_sketch_merges_and_checks(void)
{
	enum
	{
		W = 256
	};
	static uint32_t whole[TFP_IDF_DEPTH * W],
				a[TFP_IDF_DEPTH * W],
				b[TFP_IDF_DEPTH * W];
	uint64_t	state = 99;
	tfp_idf		m = {.docs = 200, .width = W, .counts = whole};

	memset(whole, 0, sizeof(whole));
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	for (int d = 0; d < 200; d++)
	{
		uint64_t	feats[20];

		for (int i = 0; i < 20; i++)
			feats[i] = xorshift64(&state) % 500;
		/* distinct within the document, as the caller must make them */
		for (int i = 0; i < 20; i++)
			feats[i] = feats[i] * 20 + (uint64_t) i;
		REQUIRE_INT_EQ(tfp_idf_add_doc(whole, W, feats, 20), TFP_OK);
		REQUIRE_INT_EQ(tfp_idf_add_doc(d % 3 ? a : b, W, feats, 20), TFP_OK);
	}
	/* a split table sums to the whole one, in either order */
	{
		static uint32_t ab[TFP_IDF_DEPTH * W],
					ba[TFP_IDF_DEPTH * W];

		memcpy(ab, a, sizeof(a));
		memcpy(ba, b, sizeof(b));
		REQUIRE_INT_EQ(tfp_idf_merge(ab, b, W), TFP_OK);
		REQUIRE_INT_EQ(tfp_idf_merge(ba, a, W), TFP_OK);
		CHECK(memcmp(ab, whole, sizeof(whole)) == 0);
		CHECK(memcmp(ba, whole, sizeof(whole)) == 0);
	}
	REQUIRE(tfp_idf_check(&m));
	CHECK_U64_EQ(m.total, 200 * 20);
	/* estimates never exceed the documents */
	for (uint64_t h = 0; h < 10000; h++)
		if (tfp_idf_df(&m, h) > 200)
			UNIT_FAIL("df(%" PRIu64 ") above docs", h);
	/* rows of unequal sums are refused, and so are bad widths */
	whole[W + 3]++;
	CHECK(!tfp_idf_check(&m));
	whole[W + 3]--;
	m.width = 100;
	CHECK(!tfp_idf_check(&m));
	m.width = W;
	/* counters that would pass UINT32_MAX */
	a[0] = UINT32_MAX;
	b[0] = 1;
	CHECK_INT_EQ(tfp_idf_merge(a, b, W), TFP_EOVERFLOW);
	{
		uint64_t	feat = 0;

		for (uint32_t i = 0; i < TFP_IDF_DEPTH * W; i++)
			a[i] = UINT32_MAX;
		CHECK_INT_EQ(tfp_idf_add_doc(a, W, &feat, 1), TFP_EOVERFLOW);
	}
}

static void
weights_keywords_are_the_heaviest(void)
{
	uint64_t	state = 5;

	for (int round = 0; round < 200; round++)
	{
		size_t		n = 1 + xorshift64(&state) % 300;
		size_t		keep = xorshift64(&state) % (n + 5);
		tfp_feature items[300];
		int64_t		w[300];
		int64_t		ws[300];
		size_t		nkeep = keep < n ? keep : n;

		for (size_t i = 0; i < n; i++)
		{
			items[i].hash = xorshift64(&state) % 1000;	/* some ties of hash too */
			items[i].count = 1;
			w[i] = (int64_t) (xorshift64(&state) % 8);	/* many ties of weight */
			ws[i] = w[i];
		}
		tfp_select_keywords(items, w, n, keep);
		/* every kept one is at least as heavy as every dropped one */
		for (size_t i = 0; i < nkeep; i++)
			for (size_t j = nkeep; j < n; j++)
				if (w[i] < w[j] || (w[i] == w[j] && items[i].hash > items[j].hash))
				{
					UNIT_FAIL("round %d: kept %zu (w %" PRId64 ") lighter than dropped %zu (w %" PRId64 ")",
							  round, i, w[i], j, w[j]);
					i = nkeep;
					break;
				}
		/* the same multiset of weights */
		{
			int64_t		sa = 0,
						sb = 0;

			for (size_t i = 0; i < n; i++)
			{
				sa += ws[i] * 7919 + ws[i] * ws[i];
				sb += w[i] * 7919 + w[i] * w[i];
			}
			CHECK(sa == sb);
		}
	}
}

/* Manual SimHash over weighted features, with keyword selection by full sort. */
static tfp_status
simhash_weighted_by_hand(const tfp_options *o, const char *text, size_t len, uint64_t *out)
{
	tfp_featureset fs;
	tfp_simhash_acc acc;
	tfp_status	rc = tfp_extract(&env, o, text, len, true, false, &fs);
	size_t		n;
	int64_t    *w;

	if (rc != TFP_OK)
		return rc;
	n = fs.n;
	w = malloc((n ? n : 1) * sizeof(int64_t));
	for (size_t i = 0; i < n; i++)
		w[i] = tfp_feature_weight_fixed(o, &fs.items[i]);
	/* selection sort of the heaviest keywords to the front */
	if (o->keywords > 0 && (size_t) o->keywords < n)
	{
		for (size_t i = 0; i < (size_t) o->keywords; i++)
		{
			size_t		best = i;

			for (size_t j = i + 1; j < n; j++)
				if (w[j] > w[best] || (w[j] == w[best] && fs.items[j].hash < fs.items[best].hash))
					best = j;
			{
				tfp_feature tf = fs.items[i];
				int64_t		tw = w[i];

				fs.items[i] = fs.items[best];
				w[i] = w[best];
				fs.items[best] = tf;
				w[best] = tw;
			}
		}
		n = (size_t) o->keywords;
	}
	tfp_simhash_init(&acc);
	for (size_t i = 0; i < n && rc == TFP_OK; i++)
		rc = tfp_simhash_add(&acc, fs.items[i].hash, w[i]);
	free(w);
	tfp_featureset_free(&env, &fs);
	if (rc == TFP_OK)
		*out = tfp_simhash_final(&acc);
	return rc;
}

static void
weights_simhash_text_equals_by_hand(void)
{
	static const char *const texts[] = {
		"foo foo foo bar baz baz the the the the 12 12 345",
		"Apple 发布了新款 iPhone 16，售价 5999 元起。苹果苹果苹果",
		"a table: 1 2 3 4 5 6 7 8 9 10 11 12 13 row row",
		"",
	};
	static uint32_t counts[TFP_IDF_DEPTH * 64];
	tfp_idf		model = {.docs = 3, .width = 64, .counts = counts};
	uint64_t	foo = tfp_hash("foo", 3, 0);
	uint64_t	the = tfp_hash("the", 3, 0);
	uint64_t	doc1[] = {foo, the};
	uint64_t	doc2[] = {the};

	memset(counts, 0, sizeof(counts));
	REQUIRE_INT_EQ(tfp_idf_add_doc(counts, 64, doc1, 2), TFP_OK);
	REQUIRE_INT_EQ(tfp_idf_add_doc(counts, 64, doc2, 1), TFP_OK);
	REQUIRE_INT_EQ(tfp_idf_add_doc(counts, 64, doc2, 1), TFP_OK);
	REQUIRE(tfp_idf_check(&model));

	for (int v = 0; v < 8; v++)
	{
		tfp_options o = opts_nostop();

		o.weighting = v % 2 ? TFP_WEIGHT_SUBLINEAR : (v % 4 == 2 ? TFP_WEIGHT_BINARY : TFP_WEIGHT_TF);
		o.idf = v & 2 ? &model : NULL;
		o.keywords = v & 4 ? 3 : 0;
		o.numbers = (tfp_numbers) (v % 3);
		for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
		{
			uint64_t	a = 1,
						b = 2;
			size_t		nf = 99;

			if (tfp_simhash_text(&env, &o, texts[t], strlen(texts[t]), &a, &nf) != TFP_OK ||
				simhash_weighted_by_hand(&o, texts[t], strlen(texts[t]), &b) != TFP_OK)
				UNIT_FAIL("variant %d text %zu: error", v, t);
			else if (a != b)
				UNIT_FAIL("variant %d text %zu: %016" PRIx64 " != by hand %016" PRIx64, v, t, a, b);
			if (t == 3 && nf != 0)
				UNIT_FAIL("variant %d: empty text has %zu features", v, nf);
		}
	}
	/* sublinear damps a repeated token: one word said 40 times no longer decides every bit */
	{
		tfp_options tf = opts_nostop();
		tfp_options sub = opts_nostop();
		char		text[400] = "alpha beta gamma delta epsilon";
		uint64_t	a,
					b,
					alone;

		for (int i = 0; i < 40; i++)
			strcat(text, " x");
		sub.weighting = TFP_WEIGHT_SUBLINEAR;
		REQUIRE_INT_EQ(tfp_simhash_text(&env, &tf, text, strlen(text), &a, NULL), TFP_OK);
		REQUIRE_INT_EQ(tfp_simhash_text(&env, &sub, text, strlen(text), &b, NULL), TFP_OK);
		REQUIRE_INT_EQ(tfp_simhash_text(&env, &tf, S("x"), &alone, NULL), TFP_OK);
		CHECK_U64_EQ(a, alone);
		CHECK(b != alone);
	}
}

/* Feature texts of a text under opts, joined by "|". */
static void
feature_texts(const tfp_options *o, const char *text, char *out, size_t size)
{
	tfp_featureset fs;

	out[0] = '\0';
	if (tfp_extract(&env, o, text, strlen(text), true, true, &fs) != TFP_OK)
	{
		snprintf(out, size, "error");
		return;
	}
	for (size_t i = 0; i < fs.n; i++)
	{
		size_t		l = strlen(out);

		snprintf(out + l, size - l, "%s%.*s", i ? "|" : "", (int) fs.items[i].text_len,
				 fs.text + fs.items[i].text_off);
	}
	tfp_featureset_free(&env, &fs);
}

static void
weights_numbers_option(void)
{
	tfp_options o = opts_nostop();
	char		buf[256];
	const char *text = "v2 of 12 rows, 3 cols: 4096 ４２ 2026年 x86";

	feature_texts(&o, text, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "v2|of|12|rows|3|cols|4096|42|2026|年|x86");
	o.numbers = TFP_NUMBERS_DROP;
	feature_texts(&o, text, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "v2|of|rows|cols|年|x86");
	o.numbers = TFP_NUMBERS_SHAPE;
	feature_texts(&o, text, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "v2|of|00|rows|0|cols|0000|年|x86");
	/* shingles span the shape tokens */
	o.shingle = 2;
	feature_texts(&o, "page 12 of 345", buf, sizeof(buf));
	CHECK_STR_EQ(buf, "page 00|00 of|of 000");
	o.numbers = TFP_NUMBERS_DROP;
	feature_texts(&o, "page 12 of 345", buf, sizeof(buf));
	CHECK_STR_EQ(buf, "page of");
	/* the pipeline identity changes only when numbers does */
	{
		tfp_options k = opts_nostop();
		tfp_options d = opts_nostop();

		d.numbers = TFP_NUMBERS_DROP;
		CHECK(tfp_pipeline_id(&k) != tfp_pipeline_id(&d));
		d.numbers = TFP_NUMBERS_SHAPE;
		CHECK(tfp_pipeline_id(&k) != tfp_pipeline_id(&d));
		d.numbers = TFP_NUMBERS_KEEP;
		d.keywords = 5;
		d.weighting = TFP_WEIGHT_SUBLINEAR;
		CHECK(tfp_pipeline_id(&k) == tfp_pipeline_id(&d));
	}
}
