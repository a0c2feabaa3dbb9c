/*
 * test_winnow.c: unit cases for winnowing and containment (winnow.c).
 * Included by test_core.c.  The reference is the definition itself: the set
 * of the minimum of every window of w hashes (every hash when there are
 * fewer than w), computed naively.
 */

/* A 64-bit LCG's high bits: enough for synthetic hash streams. */
static uint64_t
wn_rand(uint64_t *s)
{
	*s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
	return *s ^ (*s >> 29);
}

static int
cmp_signed(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a;
	int64_t		y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

/* The naive set of window minima of h[0..n), as a signed set; returns its size. */
static size_t
naive_winnow(const uint64_t *h, size_t n, int w, uint64_t *out)
{
	size_t		m = 0;

	if (n == 0)
		return 0;
	for (size_t start = 0; start + (size_t) w <= n || start == 0; start++)
	{
		size_t		end = start + (size_t) w < n ? start + (size_t) w : n;
		uint64_t	best = h[start];

		for (size_t i = start; i < end; i++)
			if (h[i] < best)
				best = h[i];
		out[m++] = best;
		if (end == n)
			break;
	}
	qsort(out, m, sizeof(uint64_t), cmp_signed);
	return tfp_unique_u64(out, m);
}

/* tfp_winnow over h[0..n); *out freed by the caller through env. */
static tfp_status
run_winnow(const uint64_t *h, size_t n, int w, uint64_t **out, size_t *nout)
{
	tfp_winnow	wn;
	tfp_status	rc = TFP_OK;

	tfp_winnow_init(&env, &wn, w);
	for (size_t i = 0; i < n && rc == TFP_OK; i++)
		rc = tfp_winnow_add(&wn, h[i], NULL, 0);
	if (rc == TFP_OK)
		rc = tfp_winnow_finish(&wn, out, nout);
	tfp_winnow_free(&wn);
	return rc;
}

static void
winnow_matches_naive_window_minima(void)
{
	uint64_t	seed = 22;
	uint64_t	h[400];
	uint64_t	want[400];

	for (int trial = 0; trial < 600; trial++)
	{
		size_t		n = (size_t) (wn_rand(&seed) % 300);
		int			w = 1 + (int) (wn_rand(&seed) % 40);
		/* small alphabets give ties, which must not change the set */
		uint64_t	mod = trial % 3 == 0 ? 7 : UINT64_MAX;
		uint64_t   *got = NULL;
		size_t		ngot = 0;
		size_t		nwant;

		for (size_t i = 0; i < n; i++)
			h[i] = mod == UINT64_MAX ? wn_rand(&seed) : wn_rand(&seed) % mod;
		nwant = naive_winnow(h, n, w, want);
		REQUIRE_INT_EQ(run_winnow(h, n, w, &got, &ngot), TFP_OK);
		CHECK_INT_EQ((int) ngot, (int) nwant);
		CHECK(ngot == nwant && (n == 0 || memcmp(got, want, ngot * sizeof(uint64_t)) == 0));
		CHECK(tfp_is_signed_set(got, ngot));
		if (got)
			env.free(env.ctx, got);
	}
}

/*
 * The guarantee: two streams that share a run of w hashes (w + k - 1 tokens
 * for shingles of k) share a fingerprint, wherever the run is.
 */
static void
winnow_shared_run_shares_a_fingerprint(void)
{
	uint64_t	seed = 7;
	uint64_t	a[300];
	uint64_t	b[300];

	for (int trial = 0; trial < 2000; trial++)
	{
		int			w = 1 + (int) (wn_rand(&seed) % 32);
		size_t		na = (size_t) w + wn_rand(&seed) % 200;
		size_t		nb = (size_t) w + wn_rand(&seed) % 200;
		size_t		at_a = (size_t) (wn_rand(&seed) % (na - (size_t) w + 1));
		size_t		at_b = (size_t) (wn_rand(&seed) % (nb - (size_t) w + 1));
		uint64_t   *fa = NULL,
				   *fb = NULL;
		size_t		nfa,
					nfb;

		for (size_t i = 0; i < na; i++)
			a[i] = wn_rand(&seed);
		for (size_t i = 0; i < nb; i++)
			b[i] = wn_rand(&seed);
		for (int i = 0; i < w; i++)
			b[at_b + (size_t) i] = a[at_a + (size_t) i];
		REQUIRE_INT_EQ(run_winnow(a, na, w, &fa, &nfa), TFP_OK);
		REQUIRE_INT_EQ(run_winnow(b, nb, w, &fb, &nfb), TFP_OK);
		CHECK(tfp_signed_set_shared(fa, nfa, fb, nfb) >= 1);
		env.free(env.ctx, fa);
		env.free(env.ctx, fb);
	}
}

/*
 * A stream quoted inside a longer one keeps its share: every window wholly
 * inside the quote picks the same hash in both, so the quote's fingerprints
 * away from its ends are all found.
 */
static void
winnow_quoted_stream_is_contained(void)
{
	uint64_t	seed = 99;
	uint64_t	a[500];
	uint64_t	b[2000];
	int			w = 6;

	for (int trial = 0; trial < 200; trial++)
	{
		size_t		na = 100 + wn_rand(&seed) % 400;
		size_t		before = wn_rand(&seed) % 700;
		size_t		after = wn_rand(&seed) % 700;
		size_t		nb = before + na + after;
		uint64_t   *fa = NULL,
				   *fb = NULL;
		size_t		nfa,
					nfb;

		for (size_t i = 0; i < na; i++)
			a[i] = wn_rand(&seed);
		for (size_t i = 0; i < nb; i++)
			b[i] = i >= before && i < before + na ? a[i - before] : wn_rand(&seed);
		REQUIRE_INT_EQ(run_winnow(a, na, w, &fa, &nfa), TFP_OK);
		REQUIRE_INT_EQ(run_winnow(b, nb, w, &fb, &nfb), TFP_OK);
		/* every fingerprint of a whole-window of a is in b: all of them */
		CHECK_INT_EQ((int) tfp_signed_set_shared(fa, nfa, fb, nfb), (int) nfa);
		env.free(env.ctx, fa);
		env.free(env.ctx, fb);
	}
}

static void
winnow_limits_and_memory(void)
{
	tfp_winnow	wn;
	uint64_t	seed = 3;
	tfp_status	rc = TFP_OK;
	tfp_options o = opts_default();
	uint64_t   *out;
	size_t		n;

	/* more fingerprints than the limit: TFP_ETOOMANY, nothing leaked */
	tfp_winnow_init(&env, &wn, 1);
	wn.limit = 100;
	for (int i = 0; i < 1000 && rc == TFP_OK; i++)
		rc = tfp_winnow_add(&wn, wn_rand(&seed), NULL, 0);
	CHECK_INT_EQ(rc, TFP_ETOOMANY);
	tfp_winnow_free(&wn);
	/* windows outside 1..TFP_WINNOW_MAX_WINDOW */
	CHECK_INT_EQ(tfp_winnow_text(&env, &o, "a b c", 5, 0, &out, &n), TFP_ETOOLONG);
	CHECK_INT_EQ(tfp_winnow_text(&env, &o, "a b c", 5, TFP_WINNOW_MAX_WINDOW + 1, &out, &n), TFP_ETOOLONG);
	/* an empty text has no fingerprints; bad UTF-8 is reported */
	REQUIRE_INT_EQ(tfp_winnow_text(&env, &o, "", 0, 4, &out, &n), TFP_OK);
	CHECK_INT_EQ((int) n, 0);
	if (out)
		env.free(env.ctx, out);
	CHECK_INT_EQ(tfp_winnow_text(&env, &o, "\xc3", 1, 4, &out, &n), TFP_EUTF8);
}

typedef struct winnow_probe
{
	const char *text;
	int			window;
} winnow_probe;

static tfp_status
winnow_probe_fn(const void *arg)
{
	const winnow_probe *p = arg;
	tfp_options o = opts_default();
	uint64_t   *out = NULL;
	size_t		n;
	tfp_status	rc;

	o.shingle = 4;
	o.builtin_stopwords = 0;
	rc = tfp_winnow_text(&env, &o, p->text, strlen(p->text), p->window, &out, &n);
	if (rc == TFP_OK && out)
		env.free(env.ctx, out);
	return rc;
}

static void
winnow_allocation_failures(void)
{
	static char words[8192];
	winnow_probe p = {words, 6};
	const tfp_stopset *dummy;

	REQUIRE_INT_EQ(tfp_builtin_stopset(&env, TFP_STOP_EN, &dummy), TFP_OK);
	for (size_t len = 0, i = 0; len + 16 < sizeof(words); i++)
		len += (size_t) sprintf(words + len, "w%zu ", i);
	CHECK(walk_alloc_failures("winnow", winnow_probe_fn, &p) > 0);
}

/*
 * Golden fingerprints: the frozen values of winnow(text) with its SQL
 * defaults (shingle 4, window 6, no stopwords), the same in sql/excerpts.sql.
 */
static void
winnow_golden_values(void)
{
	static const char *en = "The quick brown fox jumps over the lazy dog while the cat sleeps on the warm windowsill.";
	tfp_options o = opts_default();
	uint64_t   *out = NULL;
	size_t		n;
	char		buf[512];
	size_t		len = 0;

	o.shingle = 4;
	o.builtin_stopwords = 0;
	REQUIRE_INT_EQ(tfp_winnow_text(&env, &o, en, strlen(en), 6, &out, &n), TFP_OK);
	for (size_t i = 0; i < n && len + 24 < sizeof(buf); i++)
		len += (size_t) sprintf(buf + len, "%s%" PRId64, i ? "," : "", (int64_t) out[i]);
	buf[len] = '\0';
	CHECK_STR_EQ(buf, WINNOW_GOLDEN_EN);
	env.free(env.ctx, out);
}

static void
winnow_containment_needed_is_exact(void)
{
	static const double cs[] = {0.0, 1e-9, 0.1, 0.2, 0.25, 0.3, 0.5, 0.75, 0.9, 1.0};

	for (size_t n = 0; n <= 600; n++)
	{
		for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
		{
			size_t		s = tfp_containment_needed(cs[i], n, 0);

			CHECK(s <= n || (n == 0 && s == 0));
			CHECK(n == 0 || (double) s / (double) n >= cs[i]);
			CHECK(s == 0 || (double) (s - 1) / (double) n < cs[i]);
			/* min_shared is a floor */
			CHECK_INT_EQ((int) tfp_containment_needed(cs[i], n, 3), (int) (s > 3 ? s : 3));
		}
		for (size_t s = 1; s <= n; s++)
		{
			double		c = (double) s / (double) n;

			CHECK_INT_EQ((int) tfp_containment_needed(c, n, 0), (int) s);
			CHECK_INT_EQ((int) tfp_containment_needed(nextafter(c, 2.0), n, 0), (int) (s + 1));
		}
	}
	CHECK_INT_EQ((int) tfp_containment_needed(-1.0, 10, 1), 1);
	CHECK_INT_EQ((int) tfp_containment_needed(1.5, 10, 1), 11);
}

static void
winnow_signed_sets(void)
{
	uint64_t	a[] = {(uint64_t) INT64_C(-5), (uint64_t) INT64_C(-1), 0, 3, 9};
	uint64_t	b[] = {(uint64_t) INT64_C(-5), 0, 4, 9, 12};
	uint64_t	c[] = {1, 1, 2};
	uint64_t	d[] = {1, (uint64_t) INT64_C(-1)};

	CHECK(tfp_is_signed_set(a, 5));
	CHECK(tfp_is_signed_set(b, 5));
	CHECK(!tfp_is_signed_set(c, 3));
	CHECK(!tfp_is_signed_set(d, 2));	/* unsigned order is not signed order */
	CHECK(tfp_is_signed_set(a, 0));
	CHECK_INT_EQ((int) tfp_signed_set_shared(a, 5, b, 5), 3);
	CHECK_INT_EQ((int) tfp_signed_set_shared(a, 5, b, 0), 0);
	CHECK_INT_EQ((int) tfp_unique_u64(c, 3), 2);
}
