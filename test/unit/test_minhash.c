/*
 * test_minhash.c: unit cases for MinHash signatures and exact Jaccard
 * (minhash.c).  Included by test_core.c, which holds the case table.
 *
 * The statistical cases use fixed seeds, so they are deterministic; their
 * bounds are five standard errors wide, so a biased or badly mixed
 * estimator fails them while the real one passes on any platform.
 */
#include <math.h>

static uint64_t
mh_rand(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void
mh_oph(const uint64_t *items, size_t n, int k, uint64_t seed, uint32_t *out)
{
	static tfp_minhash_acc acc;

	tfp_minhash_init(&acc, k, seed);
	for (size_t i = 0; i < n; i++)
		tfp_minhash_add(&acc, items[i]);
	tfp_minhash_final(&acc, out);
}

static void
minhash_jaccard_needed_is_exact(void)
{
	static const double ts[] = {0.0, 1e-9, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99, 1.0};

	for (int k = 1; k <= TFP_MINHASH_K_MAX; k++)
	{
		for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
		{
			int			c = tfp_jaccard_needed(ts[i], k);

			CHECK(c >= 0 && c <= k);
			CHECK((double) c / k >= ts[i]);
			CHECK(c == 0 || (double) (c - 1) / k < ts[i]);
		}
		/* thresholds that are exactly c / k, and the doubles either side */
		for (int c = 0; c <= k; c++)
		{
			double		t = (double) c / k;

			CHECK_INT_EQ(tfp_jaccard_needed(t, k), c);
			if (c > 0)
				CHECK_INT_EQ(tfp_jaccard_needed(nextafter(t, 2.0), k), c + 1 > k ? k + 1 : c + 1);
			if (c > 0)
				CHECK_INT_EQ(tfp_jaccard_needed(nextafter(t, -1.0), k), c);
		}
	}
	CHECK_INT_EQ(tfp_jaccard_needed(-0.5, 128), 0);
	CHECK_INT_EQ(tfp_jaccard_needed(1.5, 128), 129);
}

/* tfp_sort_unique_u64's new length, or SIZE_MAX on an error */
static size_t
sort_unique(uint64_t *v, size_t n)
{
	size_t		m;

	return tfp_sort_unique_u64(&env, v, n, &m) == TFP_OK ? m : SIZE_MAX;
}

static void
minhash_set_jaccard_exact(void)
{
	uint64_t	a[] = {5, 1, 3, 3, 9, 1};
	uint64_t	b[] = {3, 4, 5, UINT64_MAX};
	size_t		na = sort_unique(a, 6);
	size_t		nb = sort_unique(b, 4);

	REQUIRE_INT_EQ(na, 4);
	CHECK_U64_EQ(a[0], 1);
	CHECK_U64_EQ(a[3], 9);
	REQUIRE_INT_EQ(nb, 4);
	CHECK_U64_EQ(b[3], UINT64_MAX);
	/* {1,3,5,9} and {3,4,5,max}: 2 common of 6 */
	CHECK(tfp_set_jaccard(a, na, b, nb) == 2.0 / 6.0);
	CHECK(tfp_set_jaccard(a, na, a, na) == 1.0);
	CHECK(tfp_set_jaccard(a, 0, b, 0) == 1.0);
	CHECK(tfp_set_jaccard(a, na, b, 0) == 0.0);
	CHECK_INT_EQ(sort_unique(a, 0), 0);
	/* the sorted fast path: sorted input kept, a repeat or a descent still sorts */
	{
		uint64_t	s[] = {1, 2, 7};
		uint64_t	r[] = {1, 2, 2, 7};
		uint64_t	d[] = {1, 7, 2};

		CHECK_INT_EQ(sort_unique(s, 3), 3);
		CHECK_INT_EQ(sort_unique(r, 4), 3);
		CHECK_U64_EQ(r[2], 7);
		CHECK_INT_EQ(sort_unique(d, 3), 3);
		CHECK_U64_EQ(d[1], 2);
		CHECK_U64_EQ(d[2], 7);
	}
	/* signed (bigint) order, as shingles() returns: rotated to unsigned order */
	{
		uint64_t	g[] = {UINT64_MAX - 5, UINT64_MAX, 0, 3, 9};

		CHECK_INT_EQ(sort_unique(g, 5), 5);
		CHECK_U64_EQ(g[0], 0);
		CHECK_U64_EQ(g[2], 9);
		CHECK_U64_EQ(g[3], UINT64_MAX - 5);
		CHECK_U64_EQ(g[4], UINT64_MAX);
	}
}

static void
minhash_empty_and_singleton(void)
{
	uint32_t	out[64];
	uint64_t	one = 42;

	mh_oph(NULL, 0, 64, 0, out);
	for (int i = 0; i < 64; i++)
		CHECK_U64_EQ(out[i], TFP_MINHASH_EMPTY);
	tfp_minhash_kperm(NULL, 0, 64, 0, out, NULL);
	for (int i = 0; i < 64; i++)
		CHECK_U64_EQ(out[i], TFP_MINHASH_EMPTY);
	/* one item fills one bin; densification copies it everywhere */
	mh_oph(&one, 1, 64, 7, out);
	for (int i = 1; i < 64; i++)
		CHECK_U64_EQ(out[i], out[0]);
	/* k = 1 and the largest k */
	mh_oph(&one, 1, 1, 7, out);
	{
		static uint32_t big[TFP_MINHASH_K_MAX];

		mh_oph(&one, 1, TFP_MINHASH_K_MAX, 7, big);
		for (int i = 0; i < TFP_MINHASH_K_MAX; i++)
			CHECK_U64_EQ(big[i], out[0]);
	}
}

static void
minhash_order_and_repeats_do_not_matter(void)
{
	uint64_t	items[300];
	uint64_t	shuffled[600];
	uint64_t	s = 1;
	uint32_t	a[128];
	uint32_t	b[128];

	for (int i = 0; i < 300; i++)
		items[i] = mh_rand(&s);
	for (int i = 0; i < 300; i++)
	{
		shuffled[i] = items[299 - i];
		shuffled[300 + i] = items[(i * 7) % 300];
	}
	mh_oph(items, 300, 128, 5, a);
	mh_oph(shuffled, 600, 128, 5, b);
	CHECK_INT_EQ(tfp_minhash_matches(a, b, 128), 128);
	tfp_minhash_kperm(items, 300, 128, 5, a, NULL);
	tfp_minhash_kperm(shuffled, 600, 128, 5, b, NULL);
	CHECK_INT_EQ(tfp_minhash_matches(a, b, 128), 128);
	/* another seed is another permutation */
	mh_oph(items, 300, 128, 6, b);
	CHECK(tfp_minhash_matches(a, b, 128) < 8);
}

/* Pinned values: a change here changes every stored signature. */
static void
minhash_golden_values(void)
{
	uint64_t	items[10];
	uint32_t	out[8];
	static const uint32_t want_oph[8] = {0x15caf192u, 0x04016f54u, 0x30f1b3f0u, 0xd8d0d955u, 0x1042121eu, 0x05bdc32eu, 0x15caf192u, 0x1042121eu};
	static const uint32_t want_kperm[8] = {0x0b716879u, 0x7dee8aa1u, 0x0a26a972u, 0x08b0132du, 0x1f63f57au, 0x1eedda5au, 0x030d1497u, 0x1359b4d3u};

	for (int i = 0; i < 10; i++)
		items[i] = (uint64_t) i * 1000003;
	mh_oph(items, 10, 8, 0, out);
	for (int i = 0; i < 8; i++)
		CHECK_U64_EQ(out[i], want_oph[i]);
	tfp_minhash_kperm(items, 10, 8, 0, out, NULL);
	for (int i = 0; i < 8; i++)
		CHECK_U64_EQ(out[i], want_kperm[i]);
}

/*
 * Sets A = ids [0, na), B = ids [na - common, na - common + nb) as random
 * items (fresh per trial), signed with a fresh seed per trial.  Returns the
 * mean error and the variance of the estimate over the trials.
 */
static void
mh_trials(int method, int k, int na, int nb, int common, int trials,
		  double *mean_err, double *var, double *exact)
{
	static uint64_t a[4096];
	static uint64_t b[4096];
	static uint32_t sa[TFP_MINHASH_K_MAX];
	static uint32_t sb[TFP_MINHASH_K_MAX];
	double		j = (double) common / (na + nb - common);
	double		sum = 0;
	double		sum2 = 0;
	uint64_t	s = 12345;

	for (int t = 0; t < trials; t++)
	{
		uint64_t	salt = mh_rand(&s);
		uint64_t	seed = mh_rand(&s);
		double		est;

		for (int i = 0; i < na; i++)
		{
			uint64_t	x = salt + (uint64_t) i;

			a[i] = mh_rand(&x);
		}
		for (int i = 0; i < nb; i++)
		{
			uint64_t	x = salt + (uint64_t) (na - common + i);

			b[i] = mh_rand(&x);
		}
		if (method == TFP_MINHASH_OPH)
		{
			mh_oph(a, na, k, seed, sa);
			mh_oph(b, nb, k, seed, sb);
		}
		else
		{
			tfp_minhash_kperm(a, na, k, seed, sa, NULL);
			tfp_minhash_kperm(b, nb, k, seed, sb, NULL);
		}
		est = (double) tfp_minhash_matches(sa, sb, k) / k;
		sum += est - j;
		sum2 += (est - j) * (est - j);
	}
	*mean_err = sum / trials;
	*var = sum2 / trials - (*mean_err) * (*mean_err);
	*exact = j;
}

static void
minhash_estimator_large_sets(void)
{
	/* sets much larger than k: unbiased, variance about J(1 - J) / k */
	static const int commons[] = {182, 600, 1000, 1412, 1895};
	const int	k = 128;
	const int	trials = 400;

	for (size_t c = 0; c < sizeof(commons) / sizeof(commons[0]); c++)
	{
		double		err;
		double		var;
		double		j;
		double		binom;

		mh_trials(TFP_MINHASH_OPH, k, 2000, 2000, commons[c], trials, &err, &var, &j);
		binom = j * (1 - j) / k;
		if (fabs(err) > 5 * sqrt(binom / trials) || var < 0.6 * binom || var > 1.4 * binom)
			UNIT_FAIL("J %.3f: mean error %.5f, variance %.6f against J(1-J)/k %.6f",
					  j, err, var, binom);
	}
}

static void
minhash_estimator_small_sets(void)
{
	/* fewer items than bins: densification keeps the estimate unbiased */
	static const int sizes[] = {2, 5, 20, 60};
	const int	k = 128;
	const int	trials = 2000;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
	{
		int			n = sizes[i];
		int			common = (n + 1) / 2;
		double		err;
		double		var;
		double		j;

		mh_trials(TFP_MINHASH_OPH, k, n, n, common, trials, &err, &var, &j);
		/* the variance is at most that of a single comparison, J(1 - J) */
		if (fabs(err) > 5 * sqrt(j * (1 - j) / trials))
			UNIT_FAIL("n %d, J %.3f: mean error %.5f (variance %.5f)", n, j, err, var);
	}
}

static void
minhash_reference_estimator(void)
{
	double		err;
	double		var;
	double		j;
	double		binom;

	/* k independent hashes: binomial, whatever the set size */
	mh_trials(TFP_MINHASH_KPERM, 64, 200, 200, 120, 300, &err, &var, &j);
	binom = j * (1 - j) / 64;
	if (fabs(err) > 5 * sqrt(binom / 300) || var < 0.6 * binom || var > 1.4 * binom)
		UNIT_FAIL("J %.3f: mean error %.5f, variance %.6f against %.6f", j, err, var, binom);
	mh_trials(TFP_MINHASH_KPERM, 64, 10, 10, 5, 300, &err, &var, &j);
	binom = j * (1 - j) / 64;
	if (fabs(err) > 5 * sqrt(binom / 300) || var < 0.6 * binom || var > 1.4 * binom)
		UNIT_FAIL("small sets: J %.3f: mean error %.5f, variance %.6f against %.6f", j, err, var, binom);
}

static void
minhash_pipeline_id_tracks_options(void)
{
	tfp_options o;
	tfp_options p;
	const char *w1[] = {"alpha", "beta"};
	const char *w2[] = {"beta", "alpha", "alpha"};
	size_t		l1[] = {5, 4};
	size_t		l2[] = {4, 5, 5};
	tfp_stopset *s1;
	tfp_stopset *s2;
	uint32_t	base;

	tfp_options_default(&o);
	base = tfp_pipeline_id(&o);
	CHECK(base != 0);
	p = o;
	p.seed = 99;
	p.weighting = TFP_WEIGHT_BINARY;
	CHECK_U64_EQ(tfp_pipeline_id(&p), base);	/* kept apart / ignored */
	p = o;
	p.ngram = 3;
	CHECK(tfp_pipeline_id(&p) != base);
	p = o;
	p.shingle = 2;
	CHECK(tfp_pipeline_id(&p) != base);
	p = o;
	p.simplify = true;
	CHECK(tfp_pipeline_id(&p) != base);
	p = o;
	p.builtin_stopwords = TFP_STOP_EN;
	CHECK(tfp_pipeline_id(&p) != base);
	p = o;
	p.tokenizer = TFP_TOKENIZER_ICU;
	CHECK(tfp_pipeline_id(&p) != base);

	REQUIRE(tfp_stopset_build(&env, w1, l1, 2, &s1) == TFP_OK);
	REQUIRE(tfp_stopset_build(&env, w2, l2, 3, &s2) == TFP_OK);
	p = o;
	p.user_stopwords = s1;
	CHECK(tfp_pipeline_id(&p) != base);
	{
		tfp_options q = o;

		q.user_stopwords = s2;
		/* the same words in another order, with a repeat: the same set */
		CHECK_U64_EQ(tfp_pipeline_id(&q), tfp_pipeline_id(&p));
	}
	CHECK_U64_EQ(tfp_stopset_fingerprint(NULL), 0);
	tfp_stopset_free(&env, s1);
	tfp_stopset_free(&env, s2);
	/* pinned: stored signatures carry it (simhash's defaults, and minhash's: shingle 2, no stopwords) */
	CHECK_U64_EQ(base, UINT32_C(0x195b949c));
	p = o;
	p.shingle = 2;
	p.builtin_stopwords = 0;
	CHECK_U64_EQ(tfp_pipeline_id(&p), UINT32_C(0x820db166));
}

static void
minhash_text_matches_items(void)
{
	tfp_options o;
	tfp_featureset fs;
	const char *doc = "Reprinted stories keep most of their words; 转载的新闻保留大部分字词。";
	uint32_t	from_text[32];
	uint32_t	from_items[32];
	uint64_t	items[256];

	tfp_options_default(&o);
	o.seed = 3;
	REQUIRE(tfp_extract(&env, &o, doc, strlen(doc), true, false, &fs) == TFP_OK);
	REQUIRE(fs.n > 5 && fs.n < 256);
	for (size_t i = 0; i < fs.n; i++)
		items[i] = fs.items[i].hash;
	for (int m = TFP_MINHASH_OPH; m <= TFP_MINHASH_KPERM; m++)
	{
		REQUIRE(tfp_minhash_text(&env, &o, doc, strlen(doc), 32, m, from_text, NULL) == TFP_OK);
		if (m == TFP_MINHASH_OPH)
			mh_oph(items, fs.n, 32, 3, from_items);
		else
			tfp_minhash_kperm(items, fs.n, 32, 3, from_items, NULL);
		CHECK_INT_EQ(tfp_minhash_matches(from_text, from_items, 32), 32);
	}
	tfp_featureset_free(&env, &fs);
}

static void
minhash_pair_matches_counts(void)
{
	/* 3 rows equal, 1 sharing half the positions, 1 unrelated (k = 4) */
	static const uint32_t r0[4] = {1, 2, 3, 4};
	static const uint32_t r1[4] = {1, 2, 3, 4};
	static const uint32_t r2[4] = {1, 2, 3, 4};
	static const uint32_t r3[4] = {1, 2, 9, 9};
	static const uint32_t r4[4] = {7, 7, 7, 7};
	const uint32_t *rows[5] = {r0, r1, r2, r3, r4};
	double		share[5];
	uint64_t	pairs = tfp_minhash_pair_matches(rows, 5, 4, 100, share, NULL);

	/* 10 pairs: 3 equal (4), 3 with r3 (2), 4 with r4 (0) */
	REQUIRE_INT_EQ(pairs, 10);
	CHECK(share[0] == 1.0);
	CHECK(share[1] == 0.6);
	CHECK(share[2] == 0.6);
	CHECK(share[3] == 0.3);
	CHECK(share[4] == 0.3);
	/* at most 3 rows: 3 pairs, a fixed choice */
	{
		double		again[5];

		REQUIRE_INT_EQ(tfp_minhash_pair_matches(rows, 5, 4, 3, share, NULL), 3);
		rows[0] = r0, rows[1] = r1, rows[2] = r2, rows[3] = r3, rows[4] = r4;
		REQUIRE_INT_EQ(tfp_minhash_pair_matches(rows, 5, 4, 3, again, NULL), 3);
		for (int c = 0; c <= 4; c++)
			CHECK(share[c] == again[c]);
	}
	CHECK_INT_EQ(tfp_minhash_pair_matches(rows, 1, 4, 100, share, NULL), 0);
}
