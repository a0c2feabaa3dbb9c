/*
 * test_pieces.c: the pipeline works in pieces (so that a cancel is answered
 * and memory stays bounded) and must give exactly what whole-text processing
 * gives.  Included by test_core.c.
 */

/* Phrases of ICU's Traditional-Simplified rules (up to 5 characters) and
 * words around them, so that rules meet piece boundaries at every offset. */
static const char *const trad_phrases[] = {
	"茶餘飯後", "餘", "甚麼", "麼", "瞭解", "明瞭", "關係", "聯繫", "繫", "于飛",
	"宮商角徵羽", "崑崙", "生薑", "複雜", "這個國家的經濟發展很快", "，", "。",
	"乾淨", "頭髮", "發展", " ", "abc", "ＡＢＣ", "e\xCC\x81", "\xEF\xB7\xBA",
};

/* A text of n pseudo-random picks from words (fixed sequence). */
static char *
make_text(const char *const *words, size_t nwords, size_t n, uint32_t seed, size_t *len)
{
	size_t		cap = n * 32 + 1;
	char	   *buf = malloc(cap);
	size_t		used = 0;

	for (size_t i = 0; i < n; i++)
	{
		const char *w;
		size_t		wl;

		seed = seed * 1103515245u + 12345u;
		w = words[(seed >> 16) % nwords];
		wl = strlen(w);
		if (used + wl >= cap)
			break;
		memcpy(buf + used, w, wl);
		used += wl;
	}
	buf[used] = '\0';
	*len = used;
	return buf;
}

/* Normalised in pieces of p bytes: the same bytes as in one piece. */
static void
pieces_normalize_equals_whole(void)
{
	for (uint32_t seed = 1; seed <= 6; seed++)
	{
		size_t		len;
		char	   *text = make_text(trad_phrases, sizeof(trad_phrases) / sizeof(trad_phrases[0]),
									 300, seed, &len);

		for (int simplify = 0; simplify <= 1; simplify++)
		{
			char	   *whole = NULL;
			size_t		wlen = 0;

			REQUIRE_INT_EQ(tfp_normalize_pieces(&env, text, len, simplify, SIZE_MAX / 4, &whole, &wlen), TFP_OK);
			/* e + combining acute is 3 bytes without a boundary: pieces from 8 bytes */
			for (size_t p = 8; p <= 200; p += (p < 64 ? 1 : 17))
			{
				char	   *part = NULL;
				size_t		plen = 0;

				REQUIRE_INT_EQ(tfp_normalize_pieces(&env, text, len, simplify, p, &part, &plen), TFP_OK);
				if (plen != wlen || memcmp(part, whole, wlen) != 0)
					UNIT_FAIL("seed %u simplify %d pieces of %zu bytes differ from the whole text",
							  seed, simplify, p);
				env.free(env.ctx, part);
			}
			env.free(env.ctx, whole);
		}
		free(text);
	}
}

/* Simplification in pieces crosses phrase rules exactly as the whole text does. */
static void
pieces_simplify_phrases(void)
{
	/* 茶餘飯後 is a rule of its own, and 餘 alone another: a cut inside the phrase must not split it */
	for (size_t pad = 0; pad < 12; pad++)
	{
		char		text[256];
		char	   *whole = NULL;
		char	   *part = NULL;
		size_t		wlen;
		size_t		plen;
		size_t		len;

		memset(text, 'x', pad);
		strcpy(text + pad, "茶餘飯後茶餘飯後，甚麼");
		len = strlen(text);
		REQUIRE_INT_EQ(tfp_normalize_pieces(&env, text, len, true, 1000, &whole, &wlen), TFP_OK);
		REQUIRE_INT_EQ(tfp_normalize_pieces(&env, text, len, true, 4, &part, &plen), TFP_OK);
		CHECK(plen == wlen && memcmp(part, whole, wlen) == 0);
		CHECK(strstr(whole, "茶余饭后茶余饭后,什么") != NULL);
		env.free(env.ctx, whole);
		env.free(env.ctx, part);
	}
}

typedef struct token_list
{
	size_t		n;
	size_t		off[4096];
	size_t		len[4096];
} token_list;

static tfp_status
collect_token(void *arg, size_t off, size_t len)
{
	token_list *t = (token_list *) arg;

	if (t->n < 4096)
	{
		t->off[t->n] = off;
		t->len[t->n] = len;
	}
	t->n++;
	return TFP_OK;
}

/* Word break over the whole text in one go, as textfp 1.0 did: the reference. */
static void
icu_reference_tokens(const char *text, size_t len, token_list *out)
{
	UErrorCode	st = U_ZERO_ERROR;
	UBreakIterator *b = ubrk_open(UBRK_WORD, "zh", NULL, 0, &st);
	UText		ut = UTEXT_INITIALIZER;
	int32_t		prev;
	int32_t		pos;

	utext_openUTF8(&ut, text, (int64_t) len, &st);
	ubrk_setUText(b, &ut, &st);
	out->n = 0;
	prev = ubrk_first(b);
	while ((pos = ubrk_next(b)) != UBRK_DONE)
	{
		if (ubrk_getRuleStatus(b) >= UBRK_WORD_NONE_LIMIT)
			collect_token(out, (size_t) prev, (size_t) (pos - prev));
		prev = pos;
	}
	utext_close(&ut);
	ubrk_close(b);
}

/* The ICU tokenizer gives exactly what one word-break pass over the text gives. */
static void
pieces_icu_tokens_equal_whole(void)
{
	static const char *const words[] = {
		"我们", "今天", "讨论", "系统", "管理", "软件", "包", "，", "。", "、", "“", "”",
		" ", "Debian", "apt-get", "3.14", "don't", "🎉", "\xE2\x80\x8D", "\n", "中华人民共和国",
		"はい", "カタカナ", "ภาษาไทย", "e\xCC\x81", "a@b.c", "1,000", "x.y", "@", "_",
	};
	tfp_options o = opts_nostop();
	static token_list whole;
	static token_list ours;

	o.tokenizer = TFP_TOKENIZER_ICU;
	for (uint32_t seed = 1; seed <= 8; seed++)
	{
		size_t		len;
		char	   *text = make_text(words, sizeof(words) / sizeof(words[0]), 400, seed, &len);

		icu_reference_tokens(text, len, &whole);
		REQUIRE(whole.n > 50 && whole.n <= 4096);
		ours.n = 0;
		REQUIRE_INT_EQ(tfp_tokenize_stream(&env, &o, text, len, collect_token, &ours), TFP_OK);
		if (ours.n != whole.n ||
			memcmp(ours.off, whole.off, whole.n * sizeof(size_t)) != 0 ||
			memcmp(ours.len, whole.len, whole.n * sizeof(size_t)) != 0)
			UNIT_FAIL("seed %u: ICU tokens differ from one pass (%zu vs %zu tokens)",
					  seed, ours.n, whole.n);
		free(text);
	}
}

/* A run longer than max_run is cut: bounded work, a forced boundary. */
static void
pieces_icu_long_run_is_cut(void)
{
	tfp_options o = opts_nostop();
	static token_list t;
	size_t		n = 3 * 200;
	char	   *text = malloc(n + 1);

	o.tokenizer = TFP_TOKENIZER_ICU;
	for (size_t i = 0; i < n; i += 3)
		memcpy(text + i, "中", 3);
	t.n = 0;
	REQUIRE_INT_EQ(tfp_tokenize_runs(&env, &o, text, n, 64, collect_token, &t), TFP_OK);
	/* no token crosses a cut: every 64 characters, 192 bytes */
	REQUIRE(t.n > 0 && t.n <= 4096);
	for (size_t i = 0; i < t.n; i++)
		CHECK(t.off[i] / 192 == (t.off[i] + t.len[i] - 1) / 192);
	/* the same run of words that the rules join ("a@a@a...") */
	for (size_t i = 0; i < n; i += 2)
		memcpy(text + i, "a@", 2);
	t.n = 0;
	REQUIRE_INT_EQ(tfp_tokenize_runs(&env, &o, text, n, 64, collect_token, &t), TFP_OK);
	REQUIRE(t.n > 0 && t.n <= 4096);
	for (size_t i = 0; i < t.n; i++)
		CHECK(t.len[i] <= 64);
	free(text);
}

/* Expansion past the normalised limit is refused, and nothing is left allocated. */
static void
pieces_normalize_limit(void)
{
	/* U+FDFA becomes 18 characters (33 bytes): 3 bytes in, 33 out */
	size_t		n = (TFP_MAX_NORMALIZED_BYTES / 33 + 2) * 3;
	char	   *text = malloc(n);
	char	   *out = NULL;
	size_t		olen;

	REQUIRE(text != NULL);
	for (size_t i = 0; i < n; i += 3)
		memcpy(text + i, "\xEF\xB7\xBA", 3);
	CHECK_INT_EQ(tfp_normalize(&env, text, n, false, &out, &olen), TFP_ENORMLONG);
	CHECK(out == NULL);
	/* just under the limit is fine */
	CHECK_INT_EQ(tfp_normalize(&env, text, (TFP_MAX_NORMALIZED_BYTES / 33 - 1) * 3, false, &out, &olen), TFP_OK);
	CHECK(olen == (TFP_MAX_NORMALIZED_BYTES / 33 - 1) * 33);
	if (out)
		env.free(env.ctx, out);
	free(text);
}

/* At most limit (TFP_MAX_FEATURES) distinct features are kept. */
static void
pieces_feature_table_limit(void)
{
	tfp_feature_table t;
	tfp_status	rc = TFP_OK;
	uint64_t	i;

	tfp_feature_table_init(&env, &t, true, false);
	CHECK_INT_EQ(t.limit, TFP_MAX_FEATURES);
	t.limit = 100000;
	for (i = 0; i < t.limit && rc == TFP_OK; i++)
		rc = tfp_feature_table_add(&t, i * UINT64_C(0x9E3779B97F4A7C15), NULL, 0);
	CHECK_INT_EQ(rc, TFP_OK);
	CHECK_INT_EQ(t.n, 100000);
	/* a repeat only counts; a new one is refused */
	CHECK_INT_EQ(tfp_feature_table_add(&t, 0, NULL, 0), TFP_OK);
	CHECK_INT_EQ(t.items[0].count, 2);
	CHECK_INT_EQ(tfp_feature_table_add(&t, 12345, NULL, 0), TFP_ETOOMANY);
	tfp_feature_table_free(&t);
}

/* The radix sort orders like a comparison sort, as unsigned and as signed. */
static void
pieces_radix_sort(void)
{
	enum {N = 5000};
	static uint64_t v[N];
	uint64_t	x = 88172645463325252ULL;

	for (int as_signed = 0; as_signed <= 1; as_signed++)
	{
		for (size_t n = 0; n <= N; n += (n < 20 ? 1 : 997))
		{
			for (size_t i = 0; i < n; i++)
			{
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				/* repeats, extremes and shared low bytes */
				v[i] = i % 7 == 0 ? UINT64_MAX : i % 11 == 0 ? 0 : (i % 3 ? x : x & ~UINT64_C(0xFF));
			}
			REQUIRE_INT_EQ(tfp_sort_u64(&env, v, n, as_signed), TFP_OK);
			for (size_t i = 1; i < n; i++)
				if (as_signed ? (int64_t) v[i - 1] > (int64_t) v[i] : v[i - 1] > v[i])
				{
					UNIT_FAIL("n %zu signed %d: out of order at %zu", n, as_signed, i);
					break;
				}
		}
	}
}
