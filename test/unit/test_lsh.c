/*
 * test_lsh.c: unit cases for LSH banding of MinHash signatures (lsh.c).
 * Included by test_core.c after test_minhash.c, whose mh_rand() and mh_oph()
 * it uses.
 *
 * The statistical case uses fixed seeds and bounds five standard errors
 * wide: a wrong S-curve or correlated bands fail it, the real ones pass.
 */

static void
lsh_test_header(tfp_lsh_header *h)
{
	h->k = 16;
	h->method = TFP_MINHASH_OPH;
	h->value_bits = 32;
	h->pipeline = 0x820db166u;
	h->seed = 0;
}

/* Pinned band keys: they are stored in indexes and users' tables. */
static void
lsh_golden_band_keys(void)
{
	uint32_t	v[16];
	tfp_lsh_header h;
	static const uint64_t want_r4[4] = {
		UINT64_C(0xf544b9f9c8f1acd8), UINT64_C(0xeb128769927a7523),
		UINT64_C(0x6251595c0f86d751), UINT64_C(0xf580338d25fbab1a)
	};

	for (int i = 0; i < 16; i++)
		v[i] = (uint32_t) (i * 0x9e3779b9u);
	lsh_test_header(&h);
	for (int b = 0; b < 4; b++)
		CHECK_U64_EQ(tfp_lsh_band_key(&h, 4, b, v), want_r4[b]);
}

/* The key is XXH3-64 of the documented little-endian layout. */
static void
lsh_band_key_layout(void)
{
	uint32_t	v[16];
	unsigned char buf[TFP_LSH_KEY_HEADER_BYTES + 16];
	tfp_lsh_header h;
	size_t		n = 0;

	for (int i = 0; i < 16; i++)
		v[i] = 0x01020304u * (uint32_t) (i + 1);
	lsh_test_header(&h);
	h.seed = UINT64_C(0x1122334455667788);
	buf[n++] = TFP_LSH_KEY_VERSION;
	buf[n++] = TFP_MINHASH_OPH;
	buf[n++] = 32;
	buf[n++] = 0;
	buf[n++] = 16, buf[n++] = 0;	/* k */
	buf[n++] = 4, buf[n++] = 0; /* rows */
	buf[n++] = 0x66, buf[n++] = 0xb1, buf[n++] = 0x0d, buf[n++] = 0x82;
	for (int i = 0; i < 8; i++)
		buf[n++] = (unsigned char) (h.seed >> (8 * i));
	buf[n++] = 2, buf[n++] = 0; /* band 2 */
	buf[n++] = 0, buf[n++] = 0;
	REQUIRE_INT_EQ(n, TFP_LSH_KEY_HEADER_BYTES);
	for (int i = 8; i < 12; i++)
		for (int j = 0; j < 4; j++)
			buf[n++] = (unsigned char) (v[i] >> (8 * j));
	CHECK_U64_EQ(tfp_lsh_band_key(&h, 4, 2, v), tfp_hash(buf, n, 0));
}

/* Every header field, the band's place and its values change the key. */
static void
lsh_band_key_mixes_header(void)
{
	uint32_t	v[16];
	tfp_lsh_header h,
				o;
	uint64_t	base;

	for (int i = 0; i < 16; i++)
		v[i] = (uint32_t) (i * 7919u + 1);
	lsh_test_header(&h);
	base = tfp_lsh_band_key(&h, 4, 1, v);
	o = h, o.k = 32;
	CHECK(tfp_lsh_band_key(&o, 4, 1, v) != base);
	o = h, o.method = TFP_MINHASH_KPERM;
	CHECK(tfp_lsh_band_key(&o, 4, 1, v) != base);
	o = h, o.seed = 1;
	CHECK(tfp_lsh_band_key(&o, 4, 1, v) != base);
	o = h, o.pipeline = 0;
	CHECK(tfp_lsh_band_key(&o, 4, 1, v) != base);
	o = h, o.value_bits = 16;
	CHECK(tfp_lsh_band_key(&o, 4, 1, v) != base);
	/* the same values as band 1 of rows 4, placed as band 2 of rows 2 */
	CHECK(tfp_lsh_band_key(&h, 2, 2, v) != base);
	CHECK(tfp_lsh_band_key(&h, 4, 2, v + 4) != base);
	v[5] ^= 1;
	CHECK(tfp_lsh_band_key(&h, 4, 1, v) != base);
	v[5] ^= 1;
	/* values outside the band do not matter */
	v[0] ^= 1;
	v[9] ^= 1;
	CHECK_U64_EQ(tfp_lsh_band_key(&h, 4, 1, v), base);
}

static void
lsh_featureless_and_fit(void)
{
	uint32_t	v[8];

	for (int i = 0; i < 8; i++)
		v[i] = TFP_MINHASH_EMPTY;
	CHECK(tfp_minhash_is_featureless(v, 8));
	v[7] = 0;
	CHECK(!tfp_minhash_is_featureless(v, 8));
	CHECK(tfp_minhash_is_featureless(v, 7));
	CHECK_INT_EQ(tfp_lsh_indexed_bands(128, 32, 4), 32);
	CHECK_INT_EQ(tfp_lsh_indexed_bands(64, 32, 4), 16);
	CHECK_INT_EQ(tfp_lsh_indexed_bands(128, 20, 5), 20);
	CHECK_INT_EQ(tfp_lsh_indexed_bands(3, 20, 5), 0);
	CHECK_INT_EQ(tfp_lsh_indexed_bands(128, 20, 0), 0);
}

/* Counting equal bands agrees with a plain count, early stops included. */
static void
lsh_equal_bands_counts(void)
{
	uint64_t	s = 99;
	uint32_t	a[64];
	uint32_t	b[64];

	for (int t = 0; t < 2000; t++)
	{
		int			rows = 1 + (int) (mh_rand(&s) % 8);
		int			bands = 64 / rows;
		int			enough = 1 + (int) (mh_rand(&s) % bands);
		int			naive = 0;
		int			got;

		for (int i = 0; i < 64; i++)
		{
			a[i] = (uint32_t) mh_rand(&s);
			/* equal with probability 0.8 */
			b[i] = mh_rand(&s) % 5 ? a[i] : a[i] + 1;
		}
		for (int i = 0; i < bands; i++)
		{
			bool		eq = true;

			for (int j = 0; j < rows; j++)
				eq = eq && a[i * rows + j] == b[i * rows + j];
			naive += eq;
		}
		got = tfp_lsh_equal_bands(a, b, bands, rows, enough);
		CHECK(got <= naive);
		CHECK((got >= enough) == (naive >= enough));
		if (naive >= enough)
			CHECK_INT_EQ(got, enough);
	}
}

static double
naive_tail(int n, double p, int m)
{
	double		sum = 0;

	for (int j = m; j <= n; j++)
	{
		double		c = 1;

		for (int i = 0; i < j; i++)
			c = c * (n - i) / (i + 1);
		sum += c * pow(p, j) * pow(1 - p, n - j);
	}
	return sum;
}

static void
lsh_probability_values(void)
{
	static const double ps[] = {1e-9, 0.001, 0.05, 0.3, 0.5, 0.77, 0.999};

	for (int n = 1; n <= 40; n += 3)
		for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
			for (int m = 1; m <= n; m += 2)
			{
				double		want = naive_tail(n, ps[i], m);
				double		got = tfp_binomial_tail(n, ps[i], m);

				if (!(fabs(got - want) <= 1e-12 + 1e-9 * want))
					UNIT_FAIL("tail(%d, %g, %d) = %.17g, want %.17g", n, ps[i], m, got, want);
			}
	CHECK(tfp_binomial_tail(10, 0.5, 0) == 1.0);
	CHECK(tfp_binomial_tail(10, 0.5, 11) == 0.0);
	CHECK(tfp_binomial_tail(10, 0.0, 1) == 0.0);
	CHECK(tfp_binomial_tail(10, 1.0, 10) == 1.0);
	/* tiny tails keep their digits: 1000 * 1e-12 */
	CHECK(fabs(tfp_binomial_tail(1000, 1e-12, 1) / 1e-9 - 1) < 1e-9);
	CHECK(fabs(tfp_binomial_tail(1024, 1e-6, 2) / (1024.0 * 1023 / 2 * 1e-12) - 1) < 2e-3);

	/* the S-curve with m = 1 is 1 - (1 - s^r)^b */
	for (double s = 0; s <= 1.0; s += 0.0625)
		CHECK(fabs(tfp_lsh_probability(s, 20, 5, 1) - (1 - pow(1 - pow(s, 5), 20))) < 1e-12);
	CHECK(tfp_lsh_probability(0.0, 20, 5, 1) == 0.0);
	CHECK(tfp_lsh_probability(1.0, 20, 5, 20) == 1.0);
	/* given c of k: C(c, r) / C(k, r) per band */
	CHECK(tfp_lsh_band_given(3, 128, 4) == 0.0);
	CHECK(fabs(tfp_lsh_band_given(64, 128, 2) - 64.0 * 63 / (128.0 * 127)) < 1e-15);
	CHECK(tfp_lsh_band_given(128, 128, 4) == 1.0);
	CHECK(tfp_lsh_probability_given(128, 128, 32, 4, 32) == 1.0);
}

/*
 * Independent positions (k independent hashes): the share of pairs with at
 * least m equal bands is the S-curve, within five standard errors.
 */
static void
lsh_probability_matches_simulation(void)
{
	static uint64_t a[300];
	static uint64_t b[300];
	uint32_t	sa[64];
	uint32_t	sb[64];
	uint64_t	s = 2026;
	const int	trials = 3000;
	static const struct
	{
		int			common;
		int			bands,
					rows,
					m;
	}			cases[] = {{150, 16, 4, 1}, {200, 32, 2, 3}, {100, 8, 8, 1}, {250, 16, 4, 4}};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		/* two sets of 200 with `common` shared: J = common / (400 - common) */
		int			common = cases[c].common;
		double		j = (double) common / (400 - common);
		double		p = tfp_lsh_probability(j, cases[c].bands, cases[c].rows, cases[c].m);
		double		se = sqrt(p * (1 - p) / trials);
		int			hits = 0;

		for (int t = 0; t < trials; t++)
		{
			uint64_t	salt = mh_rand(&s);

			for (int i = 0; i < 200; i++)
			{
				a[i] = mh_rand(&salt);
				b[i] = i < common ? a[i] : mh_rand(&salt);
			}
			tfp_minhash_kperm(a, 200, 64, salt, sa, NULL);
			tfp_minhash_kperm(b, 200, 64, salt, sb, NULL);
			hits += tfp_lsh_equal_bands(sa, sb, cases[c].bands, cases[c].rows,
										cases[c].m) >= cases[c].m;
		}
		if (!(fabs((double) hits / trials - p) <= 5 * se + 1e-9))
			UNIT_FAIL("J = %.3f (%d x %d, m = %d): measured %.4f, S-curve %.4f, s.e. %.4f",
					  j, cases[c].bands, cases[c].rows, cases[c].m, (double) hits / trials, p, se);
	}
}

/* The same choices as datasketch's _optimal_param (weights 0.5 and 0.5). */
static void
lsh_choose_matches_datasketch(void)
{
	static const struct
	{
		double		t;
		int			k;
		int			b,
					r;
	}			want[] = {{0.5, 128, 25, 5}, {0.28, 128, 42, 3}, {0.8, 128, 9, 13}, {0.5, 64, 14, 4}, {0.9, 256, 9, 28}};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
	{
		tfp_lsh_goal g = {0};
		tfp_lsh_choice c;

		g.threshold = want[i].t;
		g.k = want[i].k;
		g.fp_weight = 0.5;
		g.fn_weight = 0.5;
		g.max_min_bands = 1;
		CHECK(tfp_lsh_choose(&g, &c, NULL));
		if (c.bands != want[i].b || c.rows != want[i].r || c.min_bands != 1)
			UNIT_FAIL("t = %g, k = %d: got %d x %d, want %d x %d", want[i].t, want[i].k,
					  c.bands, c.rows, want[i].b, want[i].r);
		CHECK(c.candidates == -1);
		CHECK(c.false_positive > 0 && c.false_negative > 0);
	}
}

/* With pair statistics: the budget holds, or the fewest candidates come back. */
static void
lsh_choose_with_budget(void)
{
	double		pmf[65] = {0};
	tfp_lsh_goal g = {0};
	tfp_lsh_choice c;

	/* 99% of pairs with 2 equal positions of 64, 1% with 20 */
	pmf[2] = 0.99;
	pmf[20] = 0.01;
	g.threshold = 0.5;
	g.k = 64;
	g.fp_weight = 0.5;
	g.fn_weight = 0.5;
	g.max_min_bands = 3;
	g.pmf = pmf;
	g.others = 1e6;
	g.max_candidates = 100;
	CHECK(tfp_lsh_choose(&g, &c, NULL));
	CHECK(c.candidates >= 0 && c.candidates <= 100);
	CHECK_INT_EQ((int) (c.candidates * 1e6 + 0.5),
				 (int) (tfp_lsh_expected_candidates(pmf, 64, 1e6, c.bands, c.rows, c.min_bands) * 1e6 + 0.5));
	/* an impossible budget: false, and the fewest candidates of all */
	g.max_candidates = -1;
	CHECK(!tfp_lsh_choose(&g, &c, NULL));
	CHECK(c.candidates >= 0);
	for (int b = 1; b <= 64; b++)
		for (int r = 1; b * r <= 64; r++)
			for (int m = 1; m <= 3 && m <= b; m++)
				CHECK(tfp_lsh_expected_candidates(pmf, 64, 1e6, b, r, m) >= c.candidates);
}

/*
 * 1.0's search, every banding evaluated: the reference tfp_lsh_choose must
 * agree with (small k only: it is what took 36 s at k = 1024).
 */
static double
lsh_ref_area(double lo, double hi, int b, int r, int m, bool above)
{
	double		h = (hi - lo) / 128;
	double		sum = 0;

	if (!(hi > lo))
		return 0.0;
	for (int i = 0; i <= 128; i++)
	{
		double		p = tfp_lsh_probability(lo + i * h, b, r, m);
		double		f = above ? 1.0 - p : p;
		int			w = (i == 0 || i == 128) ? 1 : (i % 2 ? 4 : 2);

		sum += w * f;
	}
	return sum * h / 3.0;
}

static bool
lsh_ref_choose(const tfp_lsh_goal *g, tfp_lsh_choice *best)
{
	bool		found = false;
	bool		best_fits = false;
	double		best_cost = 0;

	memset(best, 0, sizeof(*best));
	for (int b = 1; b <= g->k; b++)
		for (int r = 1; b * r <= g->k; r++)
			for (int m = 1; m <= g->max_min_bands && m <= b; m++)
			{
				tfp_lsh_choice c;
				double		cost;
				bool		fits = true;

				memset(&c, 0, sizeof(c));
				c.bands = b;
				c.rows = r;
				c.min_bands = m;
				c.candidates = -1;
				c.false_positive = lsh_ref_area(0.0, g->threshold, b, r, m, false);
				c.false_negative = lsh_ref_area(g->threshold, 1.0, b, r, m, true);
				cost = g->fp_weight * c.false_positive + g->fn_weight * c.false_negative;
				if (g->pmf)
				{
					c.candidates = tfp_lsh_expected_candidates(g->pmf, g->k, g->others, b, r, m);
					fits = c.candidates <= g->max_candidates;
				}
				if (!found || (fits && !best_fits) || (fits && best_fits && cost < best_cost) ||
					(!fits && !best_fits && c.candidates < best->candidates))
				{
					*best = c;
					best_cost = cost;
					best_fits = fits;
					found = true;
				}
			}
	return best_fits;
}

static double
lsh_unit(uint64_t *s)
{
	return (double) (mh_rand(s) >> 11) / 9007199254740992.0;
}

/*
 * On random goals (thresholds and weights at their bounds among them, with
 * and without pair statistics and budgets), the same banding as 1.0 and the
 * same areas and candidates to the bit; or, where 1.0's differs from it by
 * less than the tie (1e-11 of the larger weight), the first in order.
 */
static void
lsh_choose_matches_reference(void)
{
	uint64_t	s = 20261126;
	double		pmf[33];
	int			ties = 0;

	for (int it = 0; it < 160; it++)
	{
		tfp_lsh_goal g = {0};
		tfp_lsh_choice a,
					b;
		bool		fa,
					fb;
		double		u = lsh_unit(&s);

		g.threshold = u < 0.1 ? 0 : u < 0.2 ? 1 : u < 0.3 ? lsh_unit(&s) * 1e-3 :
			u < 0.4 ? 1 - lsh_unit(&s) * 1e-3 : lsh_unit(&s);
		g.k = 1 + (int) (lsh_unit(&s) * 24);
		u = lsh_unit(&s);
		g.fp_weight = u < 0.15 ? 0 : lsh_unit(&s);
		g.fn_weight = u > 0.85 ? 0 : lsh_unit(&s);
		if (g.fp_weight == 0 && g.fn_weight == 0)
			g.fn_weight = 1;
		if (lsh_unit(&s) < 0.1)
			g.fp_weight *= 1e-200;
		g.max_min_bands = 1 + (int) (lsh_unit(&s) * g.k);
		if (lsh_unit(&s) < 0.4)
		{
			double		total = 0;

			for (int c = 0; c <= g.k; c++)
			{
				pmf[c] = lsh_unit(&s) < 0.5 ? 0 : pow(lsh_unit(&s), 3) * exp(-8.0 * c / g.k);
				total += pmf[c];
			}
			if (total == 0)
				pmf[0] = total = 1;
			for (int c = 0; c <= g.k; c++)
				pmf[c] /= total;
			g.pmf = pmf;
			g.others = pow(10, 1 + lsh_unit(&s) * 6);
			g.max_candidates = lsh_unit(&s) < 0.2 ? -1 : pow(10, lsh_unit(&s) * 6 - 2);
		}
		fa = tfp_lsh_choose(&g, &a, NULL);
		fb = lsh_ref_choose(&g, &b);
		if (fa == fb && a.bands == b.bands && a.rows == b.rows && a.min_bands == b.min_bands)
		{
			CHECK(a.false_positive == b.false_positive && a.false_negative == b.false_negative);
			CHECK(a.candidates == b.candidates);
			continue;
		}
		{
			double		wf = g.threshold > 0 ? g.fp_weight : 0;
			double		wn = g.threshold < 1 ? g.fn_weight : 0;
			double		w = wf > wn ? wf : wn;
			double		ca = (wf * a.false_positive + wn * a.false_negative) / w;
			double		cb = (wf * b.false_positive + wn * b.false_negative) / w;
			bool		first = a.bands < b.bands || (a.bands == b.bands && (a.rows < b.rows ||
																			(a.rows == b.rows && a.min_bands < b.min_bands)));

			if (fa == fb && first && fabs(ca - cb) <= 2e-11 * (wf + wn) / w &&
				(!g.pmf || a.candidates <= g.max_candidates))
				ties++;
			else
				UNIT_FAIL("t = %.17g, k = %d, weights %g %g, max_min_bands %d, budget %g: got %d x %d m %d (%.17g), 1.0 %d x %d m %d (%.17g)",
						  g.threshold, g.k, g.fp_weight, g.fn_weight, g.max_min_bands,
						  g.pmf ? g.max_candidates : -1, a.bands, a.rows, a.min_bands, ca,
						  b.bands, b.rows, b.min_bands, cb);
		}
	}
	/* ties happen (bandings of one S-curve, costs at the level of rounding), not often */
	CHECK(ties < 40);
}

/* Counts the search's interrupt checks. */
static void
lsh_count_check(void *ctx)
{
	(*(int *) ctx)++;
}

/*
 * Every argument at its extremes, k = 1024: the work is bounded (1.0
 * evaluated 258 tails for each of 28,000 bandings at max_min_bands = 4, of
 * a million at 1024, each of k + 1 pairs' shares again with statistics),
 * the answer is a banding in range, and the search answers interrupts.
 */
static void
lsh_choose_extremes_bounded(void)
{
	static const double thresholds[] = {0, 1e-9, 0.5, 1 - 1e-9, 1};
	static const int max_m[] = {1, 1024};
	static const double weights[][2] = {{1, 1}, {0, 1}, {1, 0}, {1e-300, 1.7976931348623157e308}};
	static double pmf[1025];
	double		total = 0;
	uint64_t	most = 0,
				most_pmf = 0;

	for (size_t ti = 0; ti < sizeof(thresholds) / sizeof(thresholds[0]); ti++)
		for (size_t mi = 0; mi < sizeof(max_m) / sizeof(max_m[0]); mi++)
			for (size_t wi = 0; wi < sizeof(weights) / sizeof(weights[0]); wi++)
			{
				tfp_lsh_goal g = {0};
				tfp_lsh_choice c;
				int			checks = 0;
				tfp_env		env = {0};

				env.check_interrupts = lsh_count_check;
				env.ctx = &checks;
				g.threshold = thresholds[ti];
				g.k = TFP_MINHASH_K_MAX;
				g.fp_weight = weights[wi][0];
				g.fn_weight = weights[wi][1];
				g.max_min_bands = max_m[mi];
				CHECK(tfp_lsh_choose(&g, &c, &env));
				CHECK(c.bands >= 1 && c.rows >= 1 && c.bands * c.rows <= g.k);
				CHECK(c.min_bands >= 1 && c.min_bands <= c.bands && c.min_bands <= g.max_min_bands);
				CHECK(c.false_positive >= 0 && c.false_positive <= 1 && c.false_negative >= 0 && c.false_negative <= 1);
				CHECK(checks >= g.k);
				if (c.work > most)
					most = c.work;
			}
	CHECK(most > 0);
	if (most > 1000000)
		UNIT_FAIL("a search evaluated %llu tails", (unsigned long long) most);

	/* with statistics: unrelated pairs around 20 of 1024 equal, families at every c */
	for (int c = 0; c <= 1024; c++)
	{
		double		x = (c - 20.0) / 4.5;

		pmf[c] = exp(-0.5 * x * x) + 1e-4 * exp(-c / 300.0);
		total += pmf[c];
	}
	for (int c = 0; c <= 1024; c++)
		pmf[c] /= total;
	for (int mi = 0; mi < 2; mi++)
		for (int bi = 0; bi < 3; bi++)
		{
			static const int pmf_max_m[] = {4, 1024};
			static const double budgets[] = {-1, 1, 100};
			tfp_lsh_goal g = {0};
			tfp_lsh_choice c;
			bool		fits;

			g.threshold = 0.5;
			g.k = TFP_MINHASH_K_MAX;
			g.fp_weight = 1;
			g.fn_weight = 1;
			g.max_min_bands = pmf_max_m[mi];
			g.pmf = pmf;
			g.others = 1e6;
			g.max_candidates = budgets[bi];
			fits = tfp_lsh_choose(&g, &c, NULL);
			CHECK(fits == (budgets[bi] >= 0));
			CHECK(c.bands * c.rows <= g.k && c.min_bands <= g.max_min_bands);
			CHECK(fits ? c.candidates <= g.max_candidates : c.candidates > g.max_candidates);
			if (c.work > most_pmf)
				most_pmf = c.work;
		}
	if (most_pmf > 8000000)
		UNIT_FAIL("a search with statistics evaluated %llu tails", (unsigned long long) most_pmf);
}

static void
lsh_parse_params(void)
{
	int			b = -1,
				r = -1,
				m = -1;
	static const char *const bad[] = {
		"", "bands=1,rows=1", "bands=1,rows=1,min_bands=", "bands=01,rows=1,min_bands=1",
		"bands=1,rows=1,min_bands=1 ", " bands=1,rows=1,min_bands=1", "bands=-1,rows=1,min_bands=1",
		"bands=+1,rows=1,min_bands=1", "bands=1000000000,rows=1,min_bands=1",
		"bands=1,rows=1,min_bands=1,", "rows=1,bands=1,min_bands=1", "bands=1;rows=1;min_bands=1",
		"bands=99999999999999999999,rows=1,min_bands=1"
	};

	CHECK(tfp_lsh_parse_params("bands=20,rows=5,min_bands=2", 27, &b, &r, &m));
	CHECK_INT_EQ(b, 20);
	CHECK_INT_EQ(r, 5);
	CHECK_INT_EQ(m, 2);
	CHECK(tfp_lsh_parse_params("bands=0,rows=999999999,min_bands=0", 34, &b, &r, &m));
	CHECK_INT_EQ(r, 999999999);
	/* the length bounds the parse: no reading past it */
	CHECK(!tfp_lsh_parse_params("bands=20,rows=5,min_bands=2", 26, &b, &r, &m));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		b = r = m = -7;
		if (tfp_lsh_parse_params(bad[i], strlen(bad[i]), &b, &r, &m))
			UNIT_FAIL("accepted \"%s\"", bad[i]);
		CHECK(b == -7 && r == -7 && m == -7);
	}
}
