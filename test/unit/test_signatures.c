/*
 * test_signatures.c: the pinyin first-letter and longest-sentence signatures
 * (pinyin.c, sentences.c): what they read, golden values, the edits they
 * must not see, pieces, interrupts and allocation failures.  Included by
 * test_core.c.
 */
#include "tfp_sig.h"


/* A few paragraphs of Chinese with the same-reading substitutions below. */
static const char sig_zh[] =
	"维护者应当仔细阅读上游的版权声明，确认软件可以自由分发。"
	"如果上游没有提供许可证文件，请先与作者联系，再开始打包工作。"
	"打包之前，最好先在干净的环境中编译一次，确认构建依赖都已经写明。"
	"每次上传之前都要运行检查工具，修正它报告的所有错误和大部分警告。";
/* 阅读→悦读, 声明→生明, 分发→分法, 作者→做者, 环境→环静, 错误→错物 */
static const char sig_zh_homophones[] =
	"维护者应当仔细悦读上游的版权生明，确认软件可以自由分法。"
	"如果上游没有提供许可证文件，请先与做者联系，再开始打包工作。"
	"打包之前，最好先在干净的环静中编译一次，确认构建依赖都已经写明。"
	"每次上传之前都要运行检查工具，修正它报告的所有错物和大部分警告。";

static uint64_t *
pinyin_sig(const char *s, int window, size_t *n)
{
	uint64_t   *v = NULL;

	*n = 0;
	if (tfp_pinyin_signature(&env, s, strlen(s), window, &v, n) != TFP_OK)
		UNIT_FAIL("tfp_pinyin_signature failed");
	return v;
}

static void
pinyin_letters_of_characters(void)
{
	char	   *letters;
	size_t		n;
	char		c;

	REQUIRE_INT_EQ(tfp_pinyin_letters(&env, S("中华人民共和国 abc 123，他她它"), &letters, &n), TFP_OK);
	CHECK_MEM_STR(letters, n, "zhrmghgttt");
	env.free(env.ctx, letters);
	/* a character with a vowel reading; not Han; kana */
	CHECK_INT_EQ(tfp_pinyin_letter(&env, 0x7231, &c), TFP_OK);	/* 爱 ài */
	CHECK_INT_EQ(c, 'a');
	CHECK_INT_EQ(tfp_pinyin_letter(&env, 'a', &c), TFP_OK);
	CHECK_INT_EQ(c, 0);
	CHECK_INT_EQ(tfp_pinyin_letter(&env, 0x3042, &c), TFP_OK);	/* あ */
	CHECK_INT_EQ(c, 0);
	/* asked twice (the second from the cache): the same */
	CHECK_INT_EQ(tfp_pinyin_letter(&env, 0x7231, &c), TFP_OK);
	CHECK_INT_EQ(c, 'a');
	/* Traditional characters read as their Simplified forms do */
	REQUIRE_INT_EQ(tfp_pinyin_letters(&env, S("這個國家的經濟"), &letters, &n), TFP_OK);
	CHECK_MEM_STR(letters, n, "zggjdjj");
	env.free(env.ctx, letters);
}

static void
pinyin_reference_sums_to_one(void)
{
	uint32_t	sum = 0;

	for (int a = 0; a < TFP_PINYIN_LETTERS; a++)
		sum += tfp_pinyin_reference[a];
	CHECK_INT_EQ(sum, 65536);
	/* no pinyin starts with i, u or v */
	CHECK_INT_EQ(tfp_pinyin_reference['i' - 'a'], 0);
	CHECK_INT_EQ(tfp_pinyin_reference['u' - 'a'], 0);
	CHECK_INT_EQ(tfp_pinyin_reference['v' - 'a'], 0);
	/* frozen: the first and last entries as generated */
	CHECK_INT_EQ(tfp_pinyin_reference[0], 145);
	CHECK_INT_EQ(tfp_pinyin_reference[25], 7362);
}

static void
pinyin_signature_golden_and_homophones(void)
{
	static const uint64_t golden[] = {
		UINT64_C(0x008c024a014002ee), UINT64_C(0x0105100a01cb1660), UINT64_C(0x01831204008c024a),
		UINT64_C(0x01cb166003840c08), UINT64_C(0x020102ca01831204), UINT64_C(0x03840c08020102ca),
		UINT64_C(0x03c000880105100a)
	};
	size_t		n;
	size_t		nh;
	uint64_t   *v = pinyin_sig(sig_zh, 16, &n);
	uint64_t   *h = pinyin_sig(sig_zh_homophones, 16, &nh);

	REQUIRE(v != NULL && h != NULL);
	CHECK_INT_EQ(n, sizeof(golden) / sizeof(golden[0]));
	for (size_t i = 0; i < n && i < sizeof(golden) / sizeof(golden[0]); i++)
		if (v[i] != golden[i])
			UNIT_FAIL("value %zu: got 0x%016" PRIx64 ", want 0x%016" PRIx64, i, v[i], golden[i]);
	/* sorted as signed, distinct */
	for (size_t i = 1; i < n; i++)
		CHECK((int64_t) v[i - 1] < (int64_t) v[i]);
	/* every substitution keeps the reading's first letter: the same values */
	CHECK_INT_EQ(nh, n);
	CHECK_INT_EQ(tfp_sorted_overlap(v, n, h, nh), n);
	env.free(env.ctx, v);
	env.free(env.ctx, h);
}

static void
pinyin_signature_short_and_without_han(void)
{
	size_t		n;
	uint64_t   *v;

	/* no Han: nothing */
	v = pinyin_sig("The quick brown fox, ひらがな, 한국어", 16, &n);
	CHECK_INT_EQ(n, 0);
	env.free(env.ctx, v);
	v = pinyin_sig("", 16, &n);
	CHECK_INT_EQ(n, 0);
	env.free(env.ctx, v);
	/* fewer letters than half a window: nothing; exactly half: one value, its code twice */
	v = pinyin_sig("中华人民共和", 16, &n);
	CHECK_INT_EQ(n, 0);
	env.free(env.ctx, v);
	v = pinyin_sig("中华人民共和国家", 16, &n);
	REQUIRE_INT_EQ(n, 1);
	CHECK_U64_EQ(v[0] >> 32, v[0] & 0xFFFFFFFF);
	env.free(env.ctx, v);
	/* a window out of range */
	CHECK_INT_EQ(tfp_pinyin_signature(&env, S("中华"), TFP_PINYIN_WINDOW_MIN - 1, &v, &n), TFP_ETOOLONG);
}

static void
pinyin_windows_move_with_insertions(void)
{
	/* one character inserted changes only the values near it */
	char	   *letters;
	char	   *edited;
	size_t		n;
	uint64_t	a[256];
	uint64_t	b[256];
	size_t		na;
	size_t		nb;

	REQUIRE_INT_EQ(tfp_pinyin_letters(&env, S(sig_zh), &letters, &n), TFP_OK);
	REQUIRE(n > 100 && n < 250);
	edited = malloc(n + 2);
	memcpy(edited, letters, n / 2);
	edited[n / 2] = 'x';
	memcpy(edited + n / 2 + 1, letters + n / 2, n - n / 2);
	REQUIRE_INT_EQ(tfp_pinyin_windows(&env, letters, n, 8, a, &na), TFP_OK);
	REQUIRE_INT_EQ(tfp_pinyin_windows(&env, edited, n + 1, 8, b, &nb), TFP_OK);
	CHECK(na >= 10);
	CHECK(tfp_sorted_overlap(a, na, b, nb) + 4 >= na);
	free(edited);
	env.free(env.ctx, letters);
}

/* Sentences of a text as "canonical|length" lines. */
typedef struct sentence_log
{
	char		buf[8192];
	size_t		len;
} sentence_log;

static tfp_status
log_sentence(void *arg, const char *canon, size_t len, size_t length)
{
	sentence_log *l = arg;
	int			w = snprintf(l->buf + l->len, sizeof(l->buf) - l->len, "%.*s|%zu\n",
							 (int) len, canon, length);

	if (w > 0 && (size_t) w < sizeof(l->buf) - l->len)
		l->len += (size_t) w;
	return TFP_OK;
}

static const char sig_en[] =
	"Packaging starts with the upstream source.  Read its licence carefully before\n"
	"you upload, and Mr. Smith's notes too.\n"
	"\n"
	"Short one.  The build dependencies must be complete, or the package will fail\n"
	"to build from source on the autobuilders!  Does it build twice in a row?\n"
	"\n\n"
	"最后，上传之前运行检查工具。ＦＵＬＬ　ＷＩＤＴＨ text, e.g. this.";

static void
sentences_breaks_and_canonical_form(void)
{
	sentence_log l = {{0}, 0};

	REQUIRE_INT_EQ(tfp_sentences(&env, S(sig_en), 0, log_sentence, &l), TFP_OK);
	l.buf[l.len] = '\0';
	CHECK_STR_EQ(l.buf,
				 "packaging starts with the upstream source|36\n"
				 /* ICU's root rules know no abbreviations: "Mr." ends a sentence */
				 "read its licence carefully before you upload and mr|43\n"
				 "smith s notes too|14\n"
				 "short one|8\n"
				 "the build dependencies must be complete or the package will fail to build from source on the autobuilders|88\n"
				 "does it build twice in a row|22\n"
				 "最 后 上 传 之 前 运 行 检 查 工 具|12\n"
				 "full width text e g this|19\n");
}

static void
sentence_signature_order_and_ties(void)
{
	static const char a[] = "One two three four five.  Alpha beta gamma delta.  Six seven eight.  Aaa bbb ccc ddd.";
	static const char b[] = "Aaa bbb ccc ddd.  Six seven eight.  Alpha beta gamma delta.  One two three four five.";
	uint64_t	va[8];
	uint64_t	vb[8];
	uint64_t	v1[8];
	size_t		na;
	size_t		nb;
	size_t		n1;

	/* reordered sentences: the same signature, whatever k */
	for (int k = 1; k <= 5; k++)
	{
		REQUIRE_INT_EQ(tfp_sentence_signature(&env, S(a), k, 0, va, &na), TFP_OK);
		REQUIRE_INT_EQ(tfp_sentence_signature(&env, S(b), k, 0, vb, &nb), TFP_OK);
		CHECK_INT_EQ(na, k < 4 ? k : 4);
		CHECK_INT_EQ(nb, na);
		CHECK(memcmp(va, vb, na * sizeof(uint64_t)) == 0);
	}
	/*
	 * k = 1: the longest, "one two three four five" or "alpha beta gamma
	 * delta" (19 letters each): the smaller hash wins the tie
	 */
	REQUIRE_INT_EQ(tfp_sentence_signature(&env, S(a), 1, 0, v1, &n1), TFP_OK);
	REQUIRE_INT_EQ(n1, 1);
	{
		uint64_t	h1 = tfp_hash(S("one two three four five"), 0);
		uint64_t	h2 = tfp_hash(S("alpha beta gamma delta"), 0);

		CHECK_U64_EQ(v1[0], h1 < h2 ? h1 : h2);
	}
	/* min_length leaves short sentences out; a repeated sentence counts once */
	REQUIRE_INT_EQ(tfp_sentence_signature(&env, S(a), 8, 15, va, &na), TFP_OK);
	CHECK_INT_EQ(na, 2);
	REQUIRE_INT_EQ(tfp_sentence_signature(&env, S("Same words here.  Same words here!  SAME WORDS HERE"), 8, 0, va, &na), TFP_OK);
	CHECK_INT_EQ(na, 1);
	/* nothing to sign */
	REQUIRE_INT_EQ(tfp_sentence_signature(&env, S(" ... !!! \n\n "), 4, 0, va, &na), TFP_OK);
	CHECK_INT_EQ(na, 0);
	REQUIRE_INT_EQ(tfp_sentence_signature(&env, S(""), 4, 0, va, &na), TFP_OK);
	CHECK_INT_EQ(na, 0);
	/* out of range, bad UTF-8 */
	CHECK_INT_EQ(tfp_sentence_signature(&env, S(a), 0, 0, va, &na), TFP_ETOOLONG);
	CHECK_INT_EQ(tfp_sentence_signature(&env, S("ab\xC3"), 4, 0, va, &na), TFP_EUTF8);
}

static void
sentence_signature_golden(void)
{
	/* XXH3 of the three longest sentences' canonical forms, sorted as bigint */
	static const uint64_t golden[] = {
		UINT64_C(0x881c1e2e16e6b432), UINT64_C(0xb4d12076ae989546), UINT64_C(0xddef9752d9bd23fb)
	};
	static const char *const longest[] = {
		"the build dependencies must be complete or the package will fail to build from source on the autobuilders",
		"read its licence carefully before you upload and mr",
		"packaging starts with the upstream source"
	};
	uint64_t	v[8];
	size_t		n;

	REQUIRE_INT_EQ(tfp_sentence_signature(&env, S(sig_en), 3, 10, v, &n), TFP_OK);
	REQUIRE_INT_EQ(n, 3);
	for (size_t i = 0; i < n; i++)
		if (v[i] != golden[i])
			UNIT_FAIL("value %zu: got 0x%016" PRIx64 ", want 0x%016" PRIx64, i, v[i], golden[i]);
	for (int i = 0; i < 3; i++)
	{
		uint64_t	h = tfp_hash(longest[i], strlen(longest[i]), 0);

		CHECK(h == golden[0] || h == golden[1] || h == golden[2]);
	}
}

static void
sentences_pieces_equal_whole(void)
{
	/* paragraphs longer than a piece: every piece size gives the whole text's sentences */
	static char text[20000];
	/* from a little more than the longest sentence up */
	static const size_t sizes[] = {48, 50, 333, 1000, 4096};
	sentence_log whole = {{0}, 0};
	size_t		len = 0;

	for (int i = 0; len + 200 < sizeof(text); i++)
		len += (size_t) snprintf(text + len, sizeof(text) - len,
								 i % 7 == 6 ? "第%d段的句子在这里结束。\n\n" :
								 i % 3 ? "Sentence number %d ends here. " : "Line %d wraps\nhere, then ends? ",
								 i);
	REQUIRE_INT_EQ(tfp_sentences(&env, text, len, 0, log_sentence, &whole), TFP_OK);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
	{
		sentence_log p = {{0}, 0};
		uint64_t	a[16];
		uint64_t	b[16];
		size_t		na;
		size_t		nb;

		REQUIRE_INT_EQ(tfp_sentences(&env, text, len, sizes[s], log_sentence, &p), TFP_OK);
		if (p.len != whole.len || memcmp(p.buf, whole.buf, p.len) != 0)
			UNIT_FAIL("piece size %zu: sentences differ from the whole text's", sizes[s]);
		REQUIRE_INT_EQ(tfp_sentence_signature(&env, text, len, 16, 0, a, &na), TFP_OK);
		REQUIRE_INT_EQ(tfp_sentence_signature_pieces(&env, text, len, 16, 0, sizes[s], b, &nb), TFP_OK);
		CHECK(na == nb && memcmp(a, b, na * sizeof(uint64_t)) == 0);
	}
	/* one sentence longer than a piece is cut there, and only there */
	{
		static char run[3000];
		sentence_log p = {{0}, 0};

		memset(run, 'a', sizeof(run) - 1);
		REQUIRE_INT_EQ(tfp_sentences(&env, run, sizeof(run) - 1, 1000, log_sentence, &p), TFP_OK);
		CHECK_STR_EQ(p.buf + 2 * (1000 + strlen("|1000\n")) + 999, "|999\n");
		CHECK_INT_EQ(p.len, 2 * (1000 + strlen("|1000\n")) + 999 + strlen("|999\n"));
	}
}

static void
signatures_interrupts_and_allocations(void)
{
	static char big[400000];
	size_t		len = 0;
	uint64_t   *v;
	uint64_t	s[4];
	size_t		n;

	while (len + 1000 < sizeof(big))
		len += (size_t) snprintf(big + len, sizeof(big) - len, "%s %s\n", sig_zh, sig_en);
	env.check_interrupts = counting_interrupts_fn;
	ca.interrupts = 0;
	REQUIRE_INT_EQ(tfp_pinyin_signature(&env, big, len, 32, &v, &n), TFP_OK);
	CHECK(ca.interrupts >= 10);
	env.free(env.ctx, v);
	ca.interrupts = 0;
	REQUIRE_INT_EQ(tfp_sentence_signature(&env, big, len, 4, 10, s, &n), TFP_OK);
	CHECK(ca.interrupts >= 10);
	env.check_interrupts = NULL;
}

static tfp_status
probe_pinyin(const void *arg)
{
	uint64_t   *v;
	size_t		n;
	tfp_status	rc = tfp_pinyin_signature(&env, arg, strlen(arg), 8, &v, &n);

	if (rc == TFP_OK)
		env.free(env.ctx, v);
	return rc;
}

static tfp_status
probe_sentences(const void *arg)
{
	uint64_t	v[4];
	size_t		n;

	return tfp_sentence_signature_pieces(&env, arg, strlen(arg), 4, 0, 40, v, &n);
}

static void
signatures_allocation_failures(void)
{
	CHECK(walk_alloc_failures("pinyin", probe_pinyin, sig_zh) >= 3);
	CHECK(walk_alloc_failures("sentences", probe_sentences, sig_en) >= 3);
}
