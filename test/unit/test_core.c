/*
 * test_core.c: unit tests of the pure-C core (src/core), run by `make unittest`.
 *
 * Every case runs against a counting allocator: a case fails if it leaves any
 * allocation made through tfp_env live, and the allocator can be told to fail
 * after N allocations to walk every out-of-memory path.  Expected hash values
 * come from outside our code (xxhsum, the xxHash sanity-check table); golden
 * fingerprints are the ones expected/golden.out pins for SQL simhash().
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/utext.h>

#include "tfp_core.h"
#include "unit.h"

/* ------------------------------------------------------------------------
 * Counting allocator
 * ------------------------------------------------------------------------ */

#define ALLOC_MAGIC UINT64_C(0x7466705f616c6c63)	/* "tfp_allc" */
#define ALLOC_HEADER 16			/* keeps the returned pointer 16-aligned */

typedef struct counting_alloc
{
	long		live;			/* allocations not yet freed */
	long		total;			/* successful allocations so far */
	long		fail_after;		/* refuse once total reaches this; -1 never */
	long		refused;		/* allocations refused */
	long		bad_frees;		/* frees of pointers we did not hand out */
	long		interrupts;		/* check_interrupts calls */
} counting_alloc;

static counting_alloc ca;
static tfp_env env;

static void *
counting_alloc_fn(void *ctx, size_t size)
{
	counting_alloc *a = ctx;
	unsigned char *p;

	if (a->fail_after >= 0 && a->total >= a->fail_after)
	{
		a->refused++;
		return NULL;
	}
	if (size > SIZE_MAX - ALLOC_HEADER)
		return NULL;
	p = malloc(size + ALLOC_HEADER);
	if (p == NULL)
		return NULL;
	memcpy(p, &(uint64_t) {ALLOC_MAGIC}, sizeof(uint64_t));
	a->total++;
	a->live++;
	return p + ALLOC_HEADER;
}

static void
counting_free_fn(void *ctx, void *ptr)
{
	counting_alloc *a = ctx;
	unsigned char *p;
	uint64_t	magic;

	if (ptr == NULL)
	{
		a->bad_frees++;			/* the core never frees NULL through env */
		return;
	}
	p = (unsigned char *) ptr - ALLOC_HEADER;
	memcpy(&magic, p, sizeof(magic));
	if (magic != ALLOC_MAGIC)
	{
		a->bad_frees++;
		return;
	}
	memset(p, 0, sizeof(magic));	/* a second free is caught too */
	a->live--;
	free(p);
}

static void
counting_interrupts_fn(void *ctx)
{
	((counting_alloc *) ctx)->interrupts++;
}

static void
env_reset(void)
{
	memset(&ca, 0, sizeof(ca));
	ca.fail_after = -1;
	env.alloc = counting_alloc_fn;
	env.realloc = NULL;			/* the core copies: every allocation counted */
	env.free = counting_free_fn;
	env.check_interrupts = NULL;
	env.ctx = &ca;
	env.icu_error = 0;
}

static void
case_setup(void)
{
	env_reset();
}

static void
case_teardown(void)
{
	if (ca.live != 0)
		UNIT_FAIL("leak: %ld allocation(s) made through tfp_env still live", ca.live);
	if (ca.bad_frees != 0)
		UNIT_FAIL("%ld free(s) of pointers not from tfp_env (or double frees)", ca.bad_frees);
}

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

#define S(lit) (lit), (sizeof(lit) - 1)

static tfp_options
opts_default(void)
{
	tfp_options o;

	tfp_options_default(&o);
	return o;
}

static tfp_options
opts_nostop(void)
{
	tfp_options o = opts_default();

	o.builtin_stopwords = 0;
	return o;
}

/*
 * Normalise (as the pipeline does) and tokenise text; return the tokens
 * joined by '|' in a static buffer, or "ERROR n".
 */
static const char *
tokens_of(const tfp_options *o, const char *text)
{
	static char buf[8192];
	char	   *norm = NULL;
	size_t		nlen = 0;
	tfp_span   *tok = NULL;
	size_t		ntok = 0;
	size_t		used = 0;
	tfp_status	rc;

	rc = tfp_normalize(&env, text, strlen(text), o->simplify, &norm, &nlen);
	if (rc != TFP_OK)
	{
		snprintf(buf, sizeof(buf), "ERROR %d", (int) rc);
		return buf;
	}
	rc = tfp_tokenize(&env, o, norm, nlen, &tok, &ntok);
	if (rc != TFP_OK)
	{
		env.free(env.ctx, norm);
		snprintf(buf, sizeof(buf), "ERROR %d", (int) rc);
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < ntok; i++)
	{
		int			n;

		if (tok[i].off > nlen || tok[i].len > nlen - tok[i].off)
		{
			snprintf(buf, sizeof(buf), "ERROR span %zu out of bounds", i);
			break;
		}
		n = snprintf(buf + used, sizeof(buf) - used, "%s%.*s", i ? "|" : "",
					 (int) tok[i].len, norm + tok[i].off);
		if (n < 0 || (size_t) n >= sizeof(buf) - used)
			break;
		used += (size_t) n;
	}
	if (tok)
		env.free(env.ctx, tok);
	env.free(env.ctx, norm);
	return buf;
}

/* Normalise into a static buffer, or "ERROR n". */
static const char *
normalized(const char *in, size_t len, bool simplify, size_t *outlen)
{
	static char buf[8192];
	char	   *out = NULL;
	size_t		olen = 0;
	tfp_status	rc = tfp_normalize(&env, in, len, simplify, &out, &olen);

	if (rc != TFP_OK)
	{
		snprintf(buf, sizeof(buf), "ERROR %d", (int) rc);
		if (outlen)
			*outlen = strlen(buf);
		return buf;
	}
	if (olen >= sizeof(buf))
		olen = sizeof(buf) - 1;
	memcpy(buf, out, olen);
	buf[olen] = '\0';
	if (out[olen] != '\0')
		UNIT_FAIL("normalised text is not NUL-terminated");
	env.free(env.ctx, out);
	if (outlen)
		*outlen = olen;
	return buf;
}

/* Feature i's text, as a static NUL-terminated copy. */
static const char *
feature_text(const tfp_featureset *fs, size_t i)
{
	static char buf[4096];
	size_t		len = fs->items[i].text_len;

	if (fs->text == NULL || fs->items[i].text_off > fs->text_len ||
		len > fs->text_len - fs->items[i].text_off)
		return "(out of bounds)";
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, fs->text + fs->items[i].text_off, len);
	buf[len] = '\0';
	return buf;
}

/* Simhash by hand from tfp_extract's deduplicated features. */
static tfp_status
simhash_via_extract(const tfp_options *o, const char *text, size_t len,
					uint64_t *out)
{
	tfp_featureset fs;
	tfp_simhash_acc acc;
	tfp_status	rc = tfp_extract(&env, o, text, len, true, false, &fs);

	if (rc != TFP_OK)
		return rc;
	tfp_simhash_init(&acc);
	for (size_t i = 0; i < fs.n && rc == TFP_OK; i++)
		rc = tfp_simhash_add(&acc, fs.items[i].hash,
							 tfp_feature_weight_fixed(o, &fs.items[i]));
	tfp_featureset_free(&env, &fs);
	if (rc == TFP_OK)
		*out = tfp_simhash_final(&acc);
	return rc;
}

static uint64_t
xorshift64(uint64_t *state)
{
	uint64_t	x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* ------------------------------------------------------------------------
 * Hashing
 * ------------------------------------------------------------------------ */

/* The buffer of xxHash's own sanity check (cli/xsum_sanity_check.c). */
static void
xxh_sanity_buffer(unsigned char *buf, size_t len)
{
	uint64_t	gen = UINT64_C(2654435761);	/* PRIME32 */

	for (size_t i = 0; i < len; i++)
	{
		buf[i] = (unsigned char) (gen >> 56);
		gen *= UINT64_C(11400714785074694797);	/* PRIME64 */
	}
}

static void
hash_xxh3_known_vectors(void)
{
	/* Seed 0: each also computed with `xxhsum -H3` (xxHash 0.8.1). */
	static const struct
	{
		const char *s;
		uint64_t	h;
	}			strs[] = {
		{"", UINT64_C(0x2D06800538D394C2)},
		{"a", UINT64_C(0xe6c632b61e964e1f)},
		{"abc", UINT64_C(0x78af5f94892f3950)},
		{"hello", UINT64_C(0x9555e8555c62dcfd)},
		{"brown fox", UINT64_C(0x6cfff712752a6dc6)},
		{"The quick brown fox jumps over the lazy dog", UINT64_C(0xce7d19a5418fb365)},
		{"今天", UINT64_C(0xe1ae6aaa4a177f32)},
	};

	/*
	 * Lengths covering every XXH3 code path, over xxHash's sanity buffer:
	 * seed 0 values agree with both xxhsum and xxHash's table, the PRIME64
	 * seeded ones come from xxHash's table (XSUM_XXH3_testdata).
	 */
	static const struct
	{
		size_t		len;
		uint64_t	seed0;
		uint64_t	seed_prime64;
	}			vec[] = {
		{0, UINT64_C(0x2D06800538D394C2), UINT64_C(0xA8A6B918B2F0364A)},
		{1, UINT64_C(0xC44BDFF4074EECDB), UINT64_C(0x032BE332DD766EF8)},
		{6, UINT64_C(0x27B56A84CD2D7325), UINT64_C(0x84589C116AB59AB9)},
		{12, UINT64_C(0xA713DAF0DFBB77E7), UINT64_C(0xE7303E1B2336DE0E)},
		{24, UINT64_C(0xA3FE70BF9D3510EB), UINT64_C(0x850E80FC35BDD690)},
		{48, UINT64_C(0x397DA259ECBA1F11), UINT64_C(0xADC2CBAA44ACC616)},
		{80, UINT64_C(0xBCDEFBBB2C47C90A), UINT64_C(0xC6DD0CB699532E73)},
		{195, UINT64_C(0xCD94217EE362EC3A), UINT64_C(0xBA68003D370CB3D9)},
		{403, UINT64_C(0xCDEB804D65C6DEA4), UINT64_C(0x6259F6ECFD6443FD)},
		{512, UINT64_C(0x617E49599013CB6B), UINT64_C(0x3CE457DE14C27708)},
		{2048, UINT64_C(0xDD59E2C3A5F038E0), UINT64_C(0x66F81670669ABABC)},
		{2240, UINT64_C(0x6E73A90539CF2948), UINT64_C(0x757BA8487D1B5247)},
		{2367, UINT64_C(0xCB37AEB9E5D361ED), UINT64_C(0xD2DB3415B942B42A)},
	};
	unsigned char buf[2367];

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		CHECK_U64_EQ(tfp_hash(strs[i].s, strlen(strs[i].s), 0), strs[i].h);

	xxh_sanity_buffer(buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++)
	{
		CHECK_U64_EQ(tfp_hash(buf, vec[i].len, 0), vec[i].seed0);
		CHECK_U64_EQ(tfp_hash(buf, vec[i].len, UINT64_C(11400714785074694797)),
					 vec[i].seed_prime64);
	}
}

static void
hash_seed_and_input_sensitivity(void)
{
	/* textfp_features('hello 世界', seed => 1) in expected/golden.out */
	CHECK_U64_EQ(tfp_hash(S("hello"), 1), (uint64_t) INT64_C(8408359951548325522));
	CHECK_U64_EQ(tfp_hash(S("世界"), 1), (uint64_t) INT64_C(-8043538242656369689));
	CHECK(tfp_hash(S("hello"), 0) != tfp_hash(S("hello"), 1));
	CHECK(tfp_hash(S("hello"), 0) != tfp_hash(S("hellp"), 0));
	/* a NULL pointer with length 0 is the empty string */
	CHECK_U64_EQ(tfp_hash(NULL, 0, 0), UINT64_C(0x2D06800538D394C2));
}

/* ------------------------------------------------------------------------
 * UTF-8 validation
 * ------------------------------------------------------------------------ */

static void
utf8_valid_sequences(void)
{
	CHECK(tfp_utf8_valid(S("")));
	CHECK(tfp_utf8_valid(S("plain ascii \x01\x7f")));
	CHECK(tfp_utf8_valid("a\0b", 3));	/* NUL is a valid code point */
	CHECK(tfp_utf8_valid(S("\xC2\x80")));	/* U+0080, smallest 2-byte */
	CHECK(tfp_utf8_valid(S("\xDF\xBF")));	/* U+07FF */
	CHECK(tfp_utf8_valid(S("\xE0\xA0\x80")));	/* U+0800, smallest 3-byte */
	CHECK(tfp_utf8_valid(S("\xED\x9F\xBF")));	/* U+D7FF, below surrogates */
	CHECK(tfp_utf8_valid(S("\xEE\x80\x80")));	/* U+E000, above surrogates */
	CHECK(tfp_utf8_valid(S("\xEF\xBF\xBF")));	/* U+FFFF */
	CHECK(tfp_utf8_valid(S("\xF0\x90\x80\x80")));	/* U+10000 */
	CHECK(tfp_utf8_valid(S("\xF4\x8F\xBF\xBF")));	/* U+10FFFF */
	CHECK(tfp_utf8_valid(S("今天天气 café 😀 한국어")));
}

static void
utf8_invalid_sequences(void)
{
	static const struct
	{
		const char *s;
		size_t		len;
		const char *why;
	}			bad[] = {
		{S("\x80"), "lone continuation byte"},
		{S("a\xBFz"), "stray continuation byte"},
		{S("\xC0\x80"), "overlong NUL (C0)"},
		{S("\xC1\xBF"), "overlong 2-byte (C1)"},
		{S("\xE0\x80\x80"), "overlong 3-byte"},
		{S("\xE0\x9F\xBF"), "overlong 3-byte, U+07FF"},
		{S("\xF0\x80\x80\x80"), "overlong 4-byte"},
		{S("\xF0\x8F\xBF\xBF"), "overlong 4-byte, U+FFFF"},
		{S("\xED\xA0\x80"), "surrogate U+D800"},
		{S("\xED\xBF\xBF"), "surrogate U+DFFF"},
		{S("\xED\xA0\xBD\xED\xB8\x80"), "CESU-8 surrogate pair"},
		{S("\xF4\x90\x80\x80"), "U+110000"},
		{S("\xF5\x80\x80\x80"), "F5 lead byte"},
		{S("\xF8\x88\x80\x80\x80"), "5-byte form"},
		{S("\xFE"), "FE"},
		{S("\xFF"), "FF"},
		{S("\xC3"), "truncated 2-byte at end"},
		{S("\xE4\xBB"), "truncated 3-byte at end"},
		{S("\xF0\x9F\x98"), "truncated 4-byte at end"},
		{S("\xE4\xBBz"), "3-byte cut by ASCII"},
		{S("\xC3\xC3\xA9"), "lead byte followed by lead byte"},
		{S("ok\xF0\x9F\x98\x80\xF0"), "valid emoji then truncated"},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (tfp_utf8_valid(bad[i].s, bad[i].len))
			UNIT_FAIL("accepted invalid UTF-8: %s", bad[i].why);

	/* the length bounds the scan: a valid prefix of an invalid buffer */
	CHECK(tfp_utf8_valid("ab\xFF", 2));
	CHECK(!tfp_utf8_valid("\xE4\xBB\x8A", 2));
}

/* ------------------------------------------------------------------------
 * Normalisation
 * ------------------------------------------------------------------------ */

static void
normalize_ascii_fast_path_matches_icu(void)
{
	/*
	 * ASCII input skips ICU.  Prefixing each ASCII character to a non-ASCII
	 * one that cannot combine with it sends it through ICU instead; both
	 * must give the same bytes.
	 */
	for (int c = 0; c < 0x80; c++)
	{
		char		in[3] = {(char) c, '\xC3', '\xA9'};	/* c + U+00E9 */
		char		want = (c >= 'A' && c <= 'Z') ? (char) (c - 'A' + 'a') : (char) c;
		size_t		olen;
		const char *out;

		out = normalized(in, 1, false, &olen);
		if (olen != 1 || out[0] != want)
			UNIT_FAIL("fast path of 0x%02x: got %zu bytes", c, olen);
		out = normalized(in, 3, false, &olen);
		if (olen != 3 || out[0] != want || memcmp(out + 1, "\xC3\xA9", 2) != 0)
			UNIT_FAIL("ICU path of 0x%02x differs from the fast path", c);
	}

	CHECK_STR_EQ(normalized(S("Hello, World! 123"), false, NULL), "hello, world! 123");
	CHECK_STR_EQ(normalized(S("Hello, World! 123 Ünïcode"), false, NULL),
				 "hello, world! 123 ünïcode");
	CHECK_STR_EQ(normalized(S("MiXeD CaSe ÀÉÎ"), true, NULL), "mixed case àéî");
}

static void
normalize_nfkc_casefold(void)
{
	size_t		len;

	CHECK_STR_EQ(normalized(S("ＡＢＣ１２３"), false, NULL), "abc123");
	CHECK_STR_EQ(normalized(S("\xEF\xAC\x81"), false, NULL), "fi");	/* U+FB01 ﬁ */
	CHECK_STR_EQ(normalized(S("Straße"), false, NULL), "strasse");
	CHECK_STR_EQ(normalized(S("ÀÉÎ Straße"), false, NULL), "àéî strasse");
	CHECK_STR_EQ(normalized(S("ｶﾀｶﾅ"), false, NULL), "カタカナ");	/* half-width */
	CHECK_STR_EQ(normalized(S("①Ǆ"), false, NULL), "1dž");
	CHECK_STR_EQ(normalized(S("e\xCC\x81"), false, NULL), "é");	/* composed */
	CHECK_STR_EQ(normalized(S("a\xC2\xAD" "b"), false, NULL), "ab");	/* soft hyphen dropped */
	CHECK_STR_EQ(normalized(S("ＴＥＸＴＦＰ　ｆｉｎｇｅｒｐｒｉｎｔｓ，２０２６"), false, NULL),
				 "textfp fingerprints,2026");

	/* empty input and embedded NULs */
	CHECK_STR_EQ(normalized(S(""), false, &len), "");
	CHECK_INT_EQ(len, 0);
	normalized("A\0B", 3, false, &len);
	CHECK_INT_EQ(len, 3);
	{
		const char *o = normalized("\xC3\x89\0B", 4, false, &len);

		CHECK_INT_EQ(len, 4);
		CHECK(memcmp(o, "\xC3\xA9\0b", 4) == 0);
	}
}

static void
normalize_expansion_grows_buffer(void)
{
	/* U+FDFA is one UTF-16 unit that NFKC spells out as 18 code points */
	static const char one[] = "\xEF\xB7\xBA";
	char		in[3 * 200];
	char	   *out = NULL;
	size_t		olen = 0;
	char		single[64];
	size_t		slen;

	const char *n1 = normalized(S(one), false, &slen);

	REQUIRE(slen < sizeof(single));
	memcpy(single, n1, slen + 1);
	CHECK_INT_EQ(slen, 33);		/* 15 Arabic letters and 3 spaces */
	CHECK_STR_EQ(single, "صلى الله عليه وسلم");

	for (int i = 0; i < 200; i++)
		memcpy(in + 3 * i, one, 3);
	REQUIRE_INT_EQ(tfp_normalize(&env, in, sizeof(in), false, &out, &olen), TFP_OK);
	CHECK_INT_EQ(olen, 200 * slen);
	for (int i = 0; olen == 200 * slen && i < 200; i++)
		if (memcmp(out + i * slen, single, slen) != 0)
		{
			UNIT_FAIL("copy %d of the expansion differs", i);
			break;
		}
	env.free(env.ctx, out);

	/* and through the simplifier, whose buffer starts at the NFKC size */
	REQUIRE_INT_EQ(tfp_normalize(&env, in, sizeof(in), true, &out, &olen), TFP_OK);
	CHECK_INT_EQ(olen, 200 * slen);
	env.free(env.ctx, out);
}

static void
normalize_simplify(void)
{
	CHECK_STR_EQ(normalized(S("繁體"), true, NULL), "繁体");
	CHECK_STR_EQ(normalized(S("繁體"), false, NULL), "繁體");
	CHECK_STR_EQ(normalized(S("這個國家的經濟發展很快"), true, NULL), "这个国家的经济发展很快");
	CHECK_STR_EQ(normalized(S("這個國家的經濟發展很快"), false, NULL), "這個國家的經濟發展很快");
	CHECK_STR_EQ(normalized(S("ABC 繁體"), true, NULL), "abc 繁体");
	/* Simplified input and non-Han text pass through */
	CHECK_STR_EQ(normalized(S("今天天气很好"), true, NULL), "今天天气很好");
	CHECK_STR_EQ(normalized(S("Grüße, カタカナ, 한국어"), true, NULL), "grüsse, カタカナ, 한국어");
}

static void
normalize_versions(void)
{
	char		buf[32];
	char		tiny[2];

	tfp_icu_version(buf, sizeof(buf));
	CHECK(buf[0] >= '1' && buf[0] <= '9');
	CHECK(strchr(buf, '.') != NULL);
	tfp_unicode_version(buf, sizeof(buf));
	CHECK(buf[0] >= '1' && buf[0] <= '9');
	tfp_icu_version(tiny, sizeof(tiny));
	CHECK(tiny[1] == '\0');
}

/* ------------------------------------------------------------------------
 * Tokenising
 * ------------------------------------------------------------------------ */

static void
tokenize_words_and_digits(void)
{
	tfp_options o = opts_default();

	CHECK_STR_EQ(tokens_of(&o, "Hello, world! It's a well-known fact."),
				 "hello|world|it|s|a|well|known|fact");
	CHECK_STR_EQ(tokens_of(&o, "  tabs\tand\nnewlines\r\n"), "tabs|and|newlines");
	CHECK_STR_EQ(tokens_of(&o, "abc123 4.5 2026-01-02 x_y"), "abc123|4|5|2026|01|02|x|y");
	CHECK_STR_EQ(tokens_of(&o, "café naïve Ελληνικά кириллица"),
				 "café|naïve|ελληνικά|кириллица");
	/* non-ASCII digits are digits */
	CHECK_STR_EQ(tokens_of(&o, "٣٤ १२"), "٣٤|१२");
}

static void
tokenize_mixed_script_splits_at_cjk(void)
{
	tfp_options o = opts_default();

	CHECK_STR_EQ(tokens_of(&o, "iPhone手机"), "iphone|手机");
	CHECK_STR_EQ(tokens_of(&o, "手机iPhone"), "手机|iphone");
	CHECK_STR_EQ(tokens_of(&o, "新款iPhone16发布"), "新款|iphone16|发布");
	CHECK_STR_EQ(tokens_of(&o, "Apple 发布了新款 iPhone 16，售价 5999 元起。"),
				 "apple|发布|布了|了新|新款|iphone|16|售价|5999|元起");
}

static void
tokenize_cjk_ngrams(void)
{
	tfp_options o = opts_default();

	CHECK_STR_EQ(tokens_of(&o, "今天天气"), "今天|天天|天气");
	/* runs split at punctuation and spaces */
	CHECK_STR_EQ(tokens_of(&o, "今天，天气 很好"), "今天|天气|很好");
	/* a run no longer than n is one token */
	CHECK_STR_EQ(tokens_of(&o, "我"), "我");
	CHECK_STR_EQ(tokens_of(&o, "我 你们"), "我|你们");

	o.ngram = 1;
	CHECK_STR_EQ(tokens_of(&o, "今天天气"), "今|天|天|气");
	o.ngram = 3;
	CHECK_STR_EQ(tokens_of(&o, "今天天气"), "今天天|天天气");
	CHECK_STR_EQ(tokens_of(&o, "今天"), "今天");
	o.ngram = 4;
	CHECK_STR_EQ(tokens_of(&o, "今天天气"), "今天天气");
	o.ngram = TFP_MAX_NGRAM;
	CHECK_STR_EQ(tokens_of(&o, "一二三四五六七八九"), "一二三四五六七八|二三四五六七八九");
	/* 〆 (U+3006) is a letter outside the CJK ranges: a word of its own */
	CHECK_STR_EQ(tokens_of(&o, "〇〆々"), "〇|〆|々");
	/* CJK extension B, outside the BMP */
	o.ngram = 2;
	CHECK_STR_EQ(tokens_of(&o, "𠀀𠀁𠀂"), "𠀀𠀁|𠀁𠀂");
}

static void
tokenize_hangul_and_kana_ngrams(void)
{
	tfp_options o = opts_default();

	CHECK_STR_EQ(tokens_of(&o, "가나다라"), "가나|나다|다라");
	CHECK_STR_EQ(tokens_of(&o, "서울은 수도"), "서울|울은|수도");
	CHECK_STR_EQ(tokens_of(&o, "カタカナ"), "カタ|タカ|カナ");
	CHECK_STR_EQ(tokens_of(&o, "ひらがな"), "ひら|らが|がな");
	/* the prolonged sound mark is part of a Katakana run, the middle dot is not */
	CHECK_STR_EQ(tokens_of(&o, "コーヒー・ケーキ"), "コー|ーヒ|ヒー|ケー|ーキ");
	/* Han, Kana and Hangul adjacent: one run of n-grams */
	CHECK_STR_EQ(tokens_of(&o, "東京タワー"), "東京|京タ|タワ|ワー");
}

static void
tokenize_combining_marks_stay_in_word(void)
{
	tfp_options o = opts_default();

	/* q + U+0307 has no precomposed form, so NFKC keeps the mark */
	CHECK_STR_EQ(tokens_of(&o, "q\xCC\x87x aq\xCC\x87"), "q\xCC\x87x|aq\xCC\x87");
	/* Devanagari vowel signs are marks */
	CHECK_STR_EQ(tokens_of(&o, "हिन्दी भाषा"), "हिन्दी|भाषा");
	/* a mark after a CJK character belongs to its n-gram */
	CHECK_STR_EQ(tokens_of(&o, "今\xCC\x87天气"), "今\xCC\x87天|天气");
}

static void
tokenize_long_cjk_run(void)
{
	/* longer than the 256 offsets the run buffer starts with */
	enum
	{
		N = 1000
	};
	tfp_options o = opts_default();
	char	   *text = malloc(3 * N);
	tfp_span   *tok = NULL;
	size_t		ntok = 0;

	REQUIRE(text != NULL);
	for (int i = 0; i < N; i++)
	{
		uint32_t	cp = 0x4E00 + (uint32_t) i;

		text[3 * i] = (char) (0xE0 | (cp >> 12));
		text[3 * i + 1] = (char) (0x80 | ((cp >> 6) & 0x3F));
		text[3 * i + 2] = (char) (0x80 | (cp & 0x3F));
	}
	for (int n = 1; n <= TFP_MAX_NGRAM; n++)
	{
		o.ngram = n;
		tok = NULL;
		if (tfp_tokenize(&env, &o, text, 3 * N, &tok, &ntok) != TFP_OK)
		{
			UNIT_FAIL("ngram %d: error", n);
			continue;
		}
		if (ntok != (size_t) (N - n + 1))
			UNIT_FAIL("ngram %d: %zu tokens, want %d", n, ntok, N - n + 1);
		for (size_t i = 0; i < ntok; i++)
			if (tok[i].off != 3 * i || tok[i].len != 3 * (uint32_t) n)
			{
				UNIT_FAIL("ngram %d: token %zu at %u+%u", n, i,
						  (unsigned) tok[i].off, (unsigned) tok[i].len);
				break;
			}
		env.free(env.ctx, tok);
	}
	free(text);
}

static void
tokenize_drops_punctuation_symbols_emoji(void)
{
	tfp_options o = opts_default();

	CHECK_STR_EQ(tokens_of(&o, "!!! ??? ... ★☆ 🎉"), "");
	CHECK_STR_EQ(tokens_of(&o, "hello😀world ★ $100 €5 ©2026 #tag @me"),
				 "hello|world|100|5|2026|tag|me");
	CHECK_STR_EQ(tokens_of(&o, "「引号」《书名》、。"), "引号|书名");
}

static void
tokenize_empty_input(void)
{
	tfp_options o = opts_default();
	tfp_span   *tok = (tfp_span *) &o;	/* must be overwritten */
	size_t		ntok = 99;

	REQUIRE_INT_EQ(tfp_tokenize(&env, &o, "", 0, &tok, &ntok), TFP_OK);
	CHECK_INT_EQ(ntok, 0);
	REQUIRE(tok != (tfp_span *) &o);
	if (tok)
		env.free(env.ctx, tok);
	o.tokenizer = TFP_TOKENIZER_ICU;
	tok = (tfp_span *) &o;
	ntok = 99;
	REQUIRE_INT_EQ(tfp_tokenize(&env, &o, "", 0, &tok, &ntok), TFP_OK);
	CHECK_INT_EQ(ntok, 0);
	REQUIRE(tok != (tfp_span *) &o);
	if (tok)
		env.free(env.ctx, tok);
	CHECK_STR_EQ(tokens_of(&o, " \t\n,.;"), "");
}

static void
tokenize_is_cjk_ranges(void)
{
	static const struct
	{
		uint32_t	cp;
		bool		cjk;
	}			cases[] = {
		{'a', false}, {'0', false}, {0x00E9, false}, {0x0410, false},
		{0x10FF, false}, {0x1100, true}, {0x11FF, true}, {0x1200, false},	/* Hangul Jamo */
		{0x2E7F, false}, {0x2E80, true}, {0x2FDF, true}, {0x2FE0, false},	/* radicals */
		{0x3000, false}, {0x3001, false}, {0x3002, false},	/* ideographic space, 、。 */
		{0x3005, true}, {0x3006, false}, {0x3007, true},
		{0x3020, false}, {0x3021, true}, {0x3029, true}, {0x302A, false},
		{0x3037, false}, {0x3038, true}, {0x303B, true}, {0x303C, false},
		{0x3040, false}, {0x3041, true}, {0x309F, true},	/* Hiragana */
		{0x30A0, false}, {0x30A1, true}, {0x30FA, true}, {0x30FB, false},
		{0x30FC, true}, {0x30FF, true},	/* Katakana */
		{0x3104, false}, {0x3105, true}, {0x312F, true}, {0x3130, false},	/* Bopomofo */
		{0x3131, true}, {0x318F, true}, {0x3190, false},
		{0x31A0, true}, {0x31BF, true}, {0x31C0, false},
		{0x31EF, false}, {0x31F0, true}, {0x31FF, true}, {0x3200, false},
		{0x33FF, false}, {0x3400, true}, {0x4DBF, true}, {0x4DC0, false},	/* ext A, Yijing */
		{0x4DFF, false}, {0x4E00, true}, {0x9FFF, true}, {0xA000, false},	/* URO, Yi */
		{0xA95F, false}, {0xA960, true}, {0xA97F, true}, {0xA980, false},
		{0xABFF, false}, {0xAC00, true}, {0xD7A3, true}, {0xD7FF, true}, {0xD800, false},
		{0xF8FF, false}, {0xF900, true}, {0xFAFF, true}, {0xFB00, false},
		{0xFF21, false}, {0xFF66, false},	/* full-/half-width forms: NFKC maps them */
		{0x1F600, false}, {0x1FFFF, false},
		{0x20000, true}, {0x2A6DF, true}, {0x323AF, true}, {0x323B0, false},
		{0x10FFFF, false},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (tfp_is_cjk(cases[i].cp) != cases[i].cjk)
			UNIT_FAIL("tfp_is_cjk(U+%04X) should be %s", (unsigned) cases[i].cp,
					  cases[i].cjk ? "true" : "false");
}

/* Spans of the ICU tokenizer: in bounds, in order, not overlapping. */
static bool
icu_spans_sane(const char *norm, size_t nlen, const tfp_span *tok, size_t ntok)
{
	size_t		prev_end = 0;

	for (size_t i = 0; i < ntok; i++)
	{
		if (tok[i].len == 0 || tok[i].off < prev_end || tok[i].off > nlen ||
			tok[i].len > nlen - tok[i].off)
			return false;
		/* words only: never a space or ASCII punctuation inside */
		for (size_t j = 0; j < tok[i].len; j++)
			if (strchr(" \t\n,.!?", norm[tok[i].off + j]) && norm[tok[i].off + j])
				return false;
		prev_end = tok[i].off + tok[i].len;
	}
	return true;
}

static void
tokenize_icu_dictionary_words(void)
{
	tfp_options o = opts_default();
	const char *text = "今天天气很好";
	tfp_span   *tok = NULL;
	size_t		ntok = 0;
	size_t		total = 0;

	o.tokenizer = TFP_TOKENIZER_ICU;
	REQUIRE_INT_EQ(tfp_tokenize(&env, &o, text, strlen(text), &tok, &ntok), TFP_OK);
	CHECK(ntok > 0);
	CHECK(icu_spans_sane(text, strlen(text), tok, ntok));
	for (size_t i = 0; i < ntok; i++)
		total += tok[i].len;
	/* dictionary words cover the whole run, unlike overlapping bigrams */
	CHECK_INT_EQ(total, strlen(text));
	CHECK(ntok < 5);			/* fewer tokens than the 5 bigrams */
	if (tok)
		env.free(env.ctx, tok);

	/* mixed text: ASCII words come out whole, punctuation is dropped */
	CHECK_STR_EQ(tokens_of(&o, "Hello, world!"), "hello|world");
	{
		const char *t = tokens_of(&o, "hello 世界");

		CHECK(strncmp(t, "hello|", 6) == 0);
		CHECK(strstr(t, "世") != NULL);
	}
	CHECK_STR_EQ(tokens_of(&o, "!!! ... 🎉"), "");
}

static void
tokenize_icu_spans_are_substrings(void)
{
	static const char *const texts[] = {
		"中华人民共和国国务院新闻办公室今天举行新闻发布会，介绍经济运行情况。",
		"東京は日本の首都です。カタカナとひらがな。",
		"서울은 대한민국의 수도입니다.",
		"Apple 发布了新款 iPhone 16，售价 5999 元起。",
		"ภาษาไทยไม่มีช่องว่าง",
	};
	tfp_options o = opts_default();

	o.tokenizer = TFP_TOKENIZER_ICU;
	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
	{
		char	   *norm = NULL;
		size_t		nlen = 0;
		tfp_span   *tok = NULL;
		size_t		ntok = 0;

		REQUIRE_INT_EQ(tfp_normalize(&env, texts[t], strlen(texts[t]), false, &norm, &nlen), TFP_OK);
		if (tfp_tokenize(&env, &o, norm, nlen, &tok, &ntok) != TFP_OK)
			UNIT_FAIL("ICU tokenizer failed on text %zu", t);
		else
		{
			if (ntok == 0)
				UNIT_FAIL("no tokens from text %zu", t);
			if (!icu_spans_sane(norm, nlen, tok, ntok))
				UNIT_FAIL("bad spans from text %zu", t);
			/* each token is valid UTF-8, so breaks fall between characters */
			for (size_t i = 0; i < ntok; i++)
				if (tok[i].off + tok[i].len <= nlen &&
					!tfp_utf8_valid(norm + tok[i].off, tok[i].len))
					UNIT_FAIL("token %zu of text %zu splits a character", i, t);
			if (tok)
				env.free(env.ctx, tok);
		}
		env.free(env.ctx, norm);
	}
}

static void
tokenize_calls_check_interrupts(void)
{
	tfp_options o = opts_default();
	size_t		len = 3 * 70000;
	char	   *text = malloc(len);
	tfp_span   *tok = NULL;
	size_t		ntok = 0;

	REQUIRE(text != NULL);
	for (size_t i = 0; i < len; i += 3)
		memcpy(text + i, "ab ", 3);
	env.check_interrupts = counting_interrupts_fn;

	CHECK_INT_EQ(tfp_tokenize(&env, &o, text, len, &tok, &ntok), TFP_OK);
	CHECK_INT_EQ(ntok, 70000);
	CHECK(ca.interrupts >= 1);
	if (tok)
		env.free(env.ctx, tok);

	ca.interrupts = 0;
	o.tokenizer = TFP_TOKENIZER_ICU;
	tok = NULL;
	CHECK_INT_EQ(tfp_tokenize(&env, &o, text, len, &tok, &ntok), TFP_OK);
	CHECK_INT_EQ(ntok, 70000);
	CHECK(ca.interrupts >= 1);
	if (tok)
		env.free(env.ctx, tok);
	free(text);
}

/* ------------------------------------------------------------------------
 * Stopwords
 * ------------------------------------------------------------------------ */

static void
stopset_build_and_contains(void)
{
	const char *const words[] = {"foo", "bar", "foo", "", "我们", "a b"};
	const size_t lens[] = {3, 3, 3, 0, 6, 3};
	tfp_stopset *set = NULL;

	REQUIRE_INT_EQ(tfp_stopset_build(&env, words, lens, 6, &set), TFP_OK);
	REQUIRE(set != NULL);
	CHECK(tfp_stopset_contains(set, S("foo")));
	CHECK(tfp_stopset_contains(set, S("bar")));
	CHECK(tfp_stopset_contains(set, S("我们")));
	CHECK(tfp_stopset_contains(set, S("a b")));
	CHECK(!tfp_stopset_contains(set, S("")));	/* empty entries are skipped */
	CHECK(!tfp_stopset_contains(set, S("fo")));
	CHECK(!tfp_stopset_contains(set, S("fooo")));
	CHECK(!tfp_stopset_contains(set, S("Foo")));	/* exact bytes: words come normalised */
	CHECK(!tfp_stopset_contains(set, S("baz")));
	CHECK(!tfp_stopset_contains(set, "foo\0", 4));
	tfp_stopset_free(&env, set);

	/* a NULL set contains nothing, and freeing NULL is a no-op */
	CHECK(!tfp_stopset_contains(NULL, S("foo")));
	tfp_stopset_free(&env, NULL);
}

static void
stopset_empty_and_duplicates_only(void)
{
	const char *const dup[] = {"x", "x", "x", "x"};
	const size_t duplens[] = {1, 1, 1, 1};
	const char *const empties[] = {"", ""};
	const size_t emptylens[] = {0, 0};
	tfp_stopset *set = NULL;

	REQUIRE_INT_EQ(tfp_stopset_build(&env, NULL, NULL, 0, &set), TFP_OK);
	CHECK(!tfp_stopset_contains(set, S("")));
	CHECK(!tfp_stopset_contains(set, S("x")));
	tfp_stopset_free(&env, set);

	REQUIRE_INT_EQ(tfp_stopset_build(&env, empties, emptylens, 2, &set), TFP_OK);
	CHECK(!tfp_stopset_contains(set, S("")));
	tfp_stopset_free(&env, set);

	REQUIRE_INT_EQ(tfp_stopset_build(&env, dup, duplens, 4, &set), TFP_OK);
	CHECK(tfp_stopset_contains(set, S("x")));
	CHECK(!tfp_stopset_contains(set, S("xx")));
	tfp_stopset_free(&env, set);
}

static void
stopset_large_and_limits(void)
{
	enum
	{
		N = 5000
	};
	char	  (*store)[16] = malloc(N * sizeof(*store));
	const char **words = malloc(N * sizeof(*words));
	size_t	   *lens = malloc(N * sizeof(*lens));
	tfp_stopset *set = NULL;
	char		longword[TFP_MAX_STOPWORD_BYTES + 1];
	const char *lw[1] = {longword};
	size_t		lwlen[1];

	REQUIRE(store && words && lens);
	for (int i = 0; i < N; i++)
	{
		lens[i] = (size_t) snprintf(store[i], sizeof(store[i]), "w%d", i);
		words[i] = store[i];
	}
	if (tfp_stopset_build(&env, words, lens, N, &set) != TFP_OK)
		UNIT_FAIL("building a %d-word set failed", N);
	else
	{
		int			missing = 0;
		int			extra = 0;

		for (int i = 0; i < N; i++)
		{
			char		probe[16];
			int			n = snprintf(probe, sizeof(probe), "v%d", i);

			missing += !tfp_stopset_contains(set, words[i], lens[i]);
			extra += tfp_stopset_contains(set, probe, (size_t) n);
		}
		CHECK_INT_EQ(missing, 0);
		CHECK_INT_EQ(extra, 0);
		tfp_stopset_free(&env, set);
	}

	/* a word of exactly the maximum length is kept; one more byte is refused */
	memset(longword, 'z', sizeof(longword));
	lwlen[0] = TFP_MAX_STOPWORD_BYTES;
	set = NULL;
	REQUIRE_INT_EQ(tfp_stopset_build(&env, lw, lwlen, 1, &set), TFP_OK);
	CHECK(tfp_stopset_contains(set, longword, TFP_MAX_STOPWORD_BYTES));
	CHECK(!tfp_stopset_contains(set, longword, TFP_MAX_STOPWORD_BYTES + 1));
	tfp_stopset_free(&env, set);
	lwlen[0] = TFP_MAX_STOPWORD_BYTES + 1;
	set = NULL;
	CHECK_INT_EQ(tfp_stopset_build(&env, lw, lwlen, 1, &set), TFP_ETOOLONG);
	CHECK(set == NULL);

	free(store);
	free(words);
	free(lens);
}

static void
stopset_builtin_lists(void)
{
	const tfp_stopset *en = NULL;
	const tfp_stopset *zh = NULL;
	const tfp_stopset *again = NULL;

	REQUIRE_INT_EQ(tfp_builtin_stopset(&env, TFP_STOP_EN, &en), TFP_OK);
	REQUIRE_INT_EQ(tfp_builtin_stopset(&env, TFP_STOP_ZH, &zh), TFP_OK);
	CHECK(en != NULL && zh != NULL && en != zh);
	CHECK(tfp_stopset_contains(en, S("the")));
	CHECK(tfp_stopset_contains(en, S("and")));
	CHECK(!tfp_stopset_contains(en, S("fox")));
	CHECK(!tfp_stopset_contains(en, S("The")));	/* the list is normalised */
	CHECK(tfp_stopset_contains(zh, S("我们")));
	CHECK(tfp_stopset_contains(zh, S("的")));
	CHECK(!tfp_stopset_contains(zh, S("fox")));
	CHECK(!tfp_stopset_contains(zh, S("公园")));
	CHECK(!tfp_stopset_contains(zh, S("the")));
	CHECK(tfp_builtin_stopword_count(TFP_STOP_EN) > 100);
	CHECK(tfp_builtin_stopword_count(TFP_STOP_ZH) > 100);
	CHECK_INT_EQ(tfp_builtin_stopword_count(0), 0);

	/* built once per process */
	REQUIRE_INT_EQ(tfp_builtin_stopset(&env, TFP_STOP_EN, &again), TFP_OK);
	CHECK(again == en);
	/* the built-in lists live outside the caller's allocator */
	CHECK_INT_EQ(ca.live, 0);
}

/* ------------------------------------------------------------------------
 * Feature extraction
 * ------------------------------------------------------------------------ */

/* The features' texts joined by '|', with "xN" after any count above 1. */
static const char *
features_of(const tfp_options *o, const char *text)
{
	static char buf[8192];
	tfp_featureset fs;
	size_t		used = 0;
	tfp_status	rc = tfp_extract(&env, o, text, strlen(text), true, true, &fs);

	if (rc != TFP_OK)
	{
		snprintf(buf, sizeof(buf), "ERROR %d", (int) rc);
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < fs.n; i++)
	{
		const char *ft = feature_text(&fs, i);
		int			n;

		if (tfp_hash(ft, strlen(ft), o->seed) != fs.items[i].hash)
			UNIT_FAIL("hash of feature \"%s\" is not XXH3 of its text", ft);
		if (fs.items[i].count > 1)
			n = snprintf(buf + used, sizeof(buf) - used, "%s%sx%u", i ? "|" : "", ft,
						 (unsigned) fs.items[i].count);
		else
			n = snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? "|" : "", ft);
		if (n < 0 || (size_t) n >= sizeof(buf) - used)
			break;
		used += (size_t) n;
	}
	tfp_featureset_free(&env, &fs);
	return buf;
}

static void
options_default_values(void)
{
	tfp_options o;

	memset(&o, 0x5a, sizeof(o));
	tfp_options_default(&o);
	/* the SQL functions' defaults (docs/reference.md) */
	CHECK_INT_EQ(o.ngram, 2);
	CHECK_INT_EQ(o.shingle, 1);
	CHECK_INT_EQ(o.tokenizer, TFP_TOKENIZER_NGRAM);
	CHECK(!o.simplify);
	CHECK_INT_EQ(o.builtin_stopwords, TFP_STOP_ZH | TFP_STOP_EN);
	CHECK(o.user_stopwords == NULL);
	CHECK_INT_EQ(o.weighting, TFP_WEIGHT_TF);
	CHECK_U64_EQ(o.seed, 0);
}

static void
extract_shingles(void)
{
	tfp_options o = opts_nostop();

	o.shingle = 2;
	CHECK_STR_EQ(features_of(&o, "alpha beta gamma"), "alpha beta|beta gamma");
	CHECK_U64_EQ(tfp_hash(S("hello big"), 0), (uint64_t) INT64_C(-7222529899203314414));
	CHECK_STR_EQ(features_of(&o, "Hello,  big\tworld"), "hello big|big world");
	o.shingle = 3;
	CHECK_STR_EQ(features_of(&o, "one two three four"), "one two three|two three four");
	/* fewer tokens than k: one shingle of all of them */
	o.shingle = 5;
	CHECK_STR_EQ(features_of(&o, "alpha beta"), "alpha beta");
	CHECK_STR_EQ(features_of(&o, "alpha"), "alpha");
	CHECK_STR_EQ(features_of(&o, ""), "");
	o.shingle = TFP_MAX_SHINGLE;
	CHECK_STR_EQ(features_of(&o, "a b c d e f g h i j k l m n o p q"),
				 "a b c d e f g h i j k l m n o p|b c d e f g h i j k l m n o p q");
	/* CJK n-grams are the tokens shingles are made of */
	o.shingle = 2;
	CHECK_STR_EQ(features_of(&o, "今天天气"), "今天 天天|天天 天气");
}

static void
extract_dedupe_counts(void)
{
	tfp_options o = opts_nostop();
	tfp_featureset fs;

	CHECK_STR_EQ(features_of(&o, "foo bar foo FOO baz bar"), "foox3|barx2|baz");
	o.shingle = 2;
	CHECK_STR_EQ(features_of(&o, "a b a b a b"), "a bx3|b ax2");
	o.shingle = 1;

	/* without dedupe: one feature per occurrence, in order, count 1 */
	REQUIRE_INT_EQ(tfp_extract(&env, &o, S("foo bar foo"), false, false, &fs), TFP_OK);
	REQUIRE_INT_EQ(fs.n, 3);
	CHECK_U64_EQ(fs.items[0].hash, tfp_hash(S("foo"), 0));
	CHECK_U64_EQ(fs.items[1].hash, tfp_hash(S("bar"), 0));
	CHECK_U64_EQ(fs.items[2].hash, tfp_hash(S("foo"), 0));
	for (size_t i = 0; i < fs.n; i++)
		CHECK_INT_EQ(fs.items[i].count, 1);
	CHECK(fs.text == NULL);
	tfp_featureset_free(&env, &fs);

	/* want_text needs dedupe: without it no texts are kept */
	REQUIRE_INT_EQ(tfp_extract(&env, &o, S("foo bar"), false, true, &fs), TFP_OK);
	CHECK_INT_EQ(fs.n, 2);
	CHECK(fs.text == NULL);
	CHECK_INT_EQ(fs.text_len, 0);
	tfp_featureset_free(&env, &fs);
	CHECK(fs.items == NULL && fs.n == 0);	/* free resets the set */
}

static void
extract_dedupe_many_distinct(void)
{
	enum
	{
		N = 6000
	};
	tfp_options o = opts_nostop();
	char	   *text = malloc(N * 2 * 8);
	size_t		len = 0;
	tfp_featureset fs;

	REQUIRE(text != NULL);
	for (int rep = 0; rep < 2; rep++)
		for (int i = 0; i < N; i++)
			len += (size_t) sprintf(text + len, "w%d ", i);
	REQUIRE_INT_EQ(tfp_extract(&env, &o, text, len, true, false, &fs), TFP_OK);
	CHECK_INT_EQ(fs.n, N);
	for (size_t i = 0; i < fs.n; i++)
	{
		char		w[16];
		int			n = snprintf(w, sizeof(w), "w%zu", i);

		if (fs.items[i].count != 2 || fs.items[i].hash != tfp_hash(w, (size_t) n, 0))
		{
			UNIT_FAIL("feature %zu: count %u", i, (unsigned) fs.items[i].count);
			break;
		}
	}
	tfp_featureset_free(&env, &fs);
	free(text);
}

static void
extract_want_text(void)
{
	tfp_options o = opts_nostop();
	tfp_featureset fs;

	o.seed = 12345;
	REQUIRE_INT_EQ(tfp_extract(&env, &o, S("Hello 世界 hello"), true, true, &fs), TFP_OK);
	REQUIRE_INT_EQ(fs.n, 2);
	CHECK_STR_EQ(feature_text(&fs, 0), "hello");
	CHECK_STR_EQ(feature_text(&fs, 1), "世界");
	CHECK_INT_EQ(fs.items[0].count, 2);
	CHECK_U64_EQ(fs.items[0].hash, tfp_hash(S("hello"), 12345));
	CHECK_U64_EQ(fs.items[1].hash, tfp_hash(S("世界"), 12345));
	CHECK_INT_EQ(fs.text_len, 5 + 6);	/* each distinct text kept once */
	tfp_featureset_free(&env, &fs);

	/* textfp_features('hello 世界', stopwords => 'none') in expected/golden.out */
	o.seed = 0;
	REQUIRE_INT_EQ(tfp_extract(&env, &o, S("hello 世界"), true, true, &fs), TFP_OK);
	REQUIRE_INT_EQ(fs.n, 2);
	CHECK_U64_EQ(fs.items[0].hash, (uint64_t) INT64_C(-7685981735718036227));
	CHECK_U64_EQ(fs.items[1].hash, (uint64_t) INT64_C(8623208233050749173));
	tfp_featureset_free(&env, &fs);
}

static void
extract_stopwords_removed(void)
{
	tfp_options o = opts_default();
	const char *const uw[] = {"fox", "公园"};
	const size_t uwl[] = {3, 6};
	tfp_stopset *user = NULL;

	CHECK_STR_EQ(features_of(&o, "The fox and the dog"), "fox|dog");
	CHECK_STR_EQ(features_of(&o, "the and of"), "");
	CHECK_STR_EQ(features_of(&o, "今天天气很好，我们去公园散步吧。"),
				 "今天|天天|天气|气很|很好|们去|去公|公园|园散|散步|步吧");
	o.builtin_stopwords = TFP_STOP_EN;
	CHECK_STR_EQ(features_of(&o, "我们 the fox"), "我们|fox");
	o.builtin_stopwords = TFP_STOP_ZH;
	CHECK_STR_EQ(features_of(&o, "我们 the fox"), "the|fox");
	o.builtin_stopwords = 0;
	CHECK_STR_EQ(features_of(&o, "The fox and the dog"), "thex2|fox|and|dog");

	/* user stopwords, alone and with the built-in ones */
	REQUIRE_INT_EQ(tfp_stopset_build(&env, uw, uwl, 2, &user), TFP_OK);
	o.user_stopwords = user;
	CHECK_STR_EQ(features_of(&o, "The fox and the dog 公园"), "thex2|and|dog");
	o.builtin_stopwords = TFP_STOP_EN | TFP_STOP_ZH;
	CHECK_STR_EQ(features_of(&o, "The fox and the dog 公园"), "dog");
	/* shingles are made after stopwords are gone */
	o.shingle = 2;
	CHECK_STR_EQ(features_of(&o, "quick the brown fox dog"), "quick brown|brown dog");
	tfp_stopset_free(&env, user);
}

static void
extract_weighting(void)
{
	tfp_options o = opts_nostop();
	tfp_feature f = {0, 5, 0, 0};
	const int64_t one = INT64_C(1) << TFP_WEIGHT_FRAC_BITS;

	o.weighting = TFP_WEIGHT_TF;
	CHECK_INT_EQ(tfp_feature_weight_fixed(&o, &f), 5 * one);
	f.count = 1;
	CHECK_INT_EQ(tfp_feature_weight_fixed(&o, &f), one);
	f.count = UINT32_MAX;
	CHECK_INT_EQ(tfp_feature_weight_fixed(&o, &f), (int64_t) UINT32_MAX * one);
	o.weighting = TFP_WEIGHT_BINARY;
	CHECK_INT_EQ(tfp_feature_weight_fixed(&o, &f), one);
	f.count = 5;
	CHECK_INT_EQ(tfp_feature_weight_fixed(&o, &f), one);
}

static void
extract_bad_options_rejected(void)
{
	static const int bad_ngram[] = {0, -1, TFP_MAX_NGRAM + 1};
	static const int bad_shingle[] = {0, -1, TFP_MAX_SHINGLE + 1};
	tfp_options o = opts_default();
	tfp_featureset fs;
	uint64_t	h = 7;

	for (size_t i = 0; i < 3; i++)
	{
		o = opts_default();
		o.ngram = bad_ngram[i];
		CHECK(tfp_extract(&env, &o, S("x"), true, true, &fs) != TFP_OK);
		CHECK(fs.items == NULL && fs.n == 0);
		CHECK(tfp_simhash_text(&env, &o, S("x"), &h, NULL) != TFP_OK);
		o = opts_default();
		o.shingle = bad_shingle[i];
		CHECK(tfp_extract(&env, &o, S("x"), true, true, &fs) != TFP_OK);
		CHECK(tfp_simhash_text(&env, &o, S("x"), &h, NULL) != TFP_OK);
	}
	CHECK_U64_EQ(h, 7);			/* untouched on error */

	/* the extremes are accepted */
	o = opts_default();
	o.ngram = TFP_MAX_NGRAM;
	o.shingle = TFP_MAX_SHINGLE;
	CHECK_INT_EQ(tfp_simhash_text(&env, &o, S("x"), &h, NULL), TFP_OK);
	o.ngram = 1;
	o.shingle = 1;
	CHECK_INT_EQ(tfp_simhash_text(&env, &o, S("x"), &h, NULL), TFP_OK);
}

static void
extract_calls_check_interrupts(void)
{
	/* 70,000 distinct one-character-run features in 140,000 code points */
	tfp_options o = opts_nostop();
	size_t		n = 70000;
	char	   *text = malloc(n * 7);
	size_t		len = 0;
	tfp_featureset fs;

	REQUIRE(text != NULL);
	for (size_t i = 0; i < n; i++)
		len += (size_t) sprintf(text + len, "%zx ", i);
	env.check_interrupts = counting_interrupts_fn;
	REQUIRE_INT_EQ(tfp_extract(&env, &o, text, len, true, false, &fs), TFP_OK);
	CHECK_INT_EQ(fs.n, n);
	/* the tokenizer every 65,536 characters, extract every 65,536 shingles */
	CHECK(ca.interrupts >= 2);
	tfp_featureset_free(&env, &fs);
	free(text);
}

/* ------------------------------------------------------------------------
 * SimHash
 * ------------------------------------------------------------------------ */

static void
simhash_text_equals_manual_accumulation(void)
{
	static const char *const texts[] = {
		"The quick brown fox jumps over the lazy dog",
		"今天天气很好，我们去公园散步吧。",
		"foo foo foo bar baz baz",
		"Apple 发布了新款 iPhone 16，售价 5999 元起。",
		"",
	};
	tfp_options variants[5];

	variants[0] = opts_default();
	variants[1] = opts_default();
	variants[1].weighting = TFP_WEIGHT_BINARY;
	variants[2] = opts_nostop();
	variants[2].shingle = 3;
	variants[2].seed = 99;
	variants[3] = opts_default();
	variants[3].tokenizer = TFP_TOKENIZER_ICU;
	variants[3].simplify = true;
	variants[4] = opts_nostop();
	variants[4].ngram = 1;
	variants[4].weighting = TFP_WEIGHT_BINARY;

	for (size_t v = 0; v < 5; v++)
		for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
		{
			uint64_t	a = 1;
			uint64_t	b = 2;

			if (tfp_simhash_text(&env, &variants[v], texts[t], strlen(texts[t]), &a, NULL) != TFP_OK ||
				simhash_via_extract(&variants[v], texts[t], strlen(texts[t]), &b) != TFP_OK)
				UNIT_FAIL("variant %zu text %zu: error", v, t);
			else if (a != b)
				UNIT_FAIL("variant %zu text %zu: simhash_text %016" PRIx64 " != manual %016" PRIx64,
						  v, t, a, b);
		}

	/* TF and binary agree when every feature occurs once, differ otherwise */
	{
		tfp_options tf = opts_nostop();
		tfp_options bin = opts_nostop();
		uint64_t	a,
					b;

		bin.weighting = TFP_WEIGHT_BINARY;
		REQUIRE_INT_EQ(tfp_simhash_text(&env, &tf, S("one two three"), &a, NULL), TFP_OK);
		REQUIRE_INT_EQ(tfp_simhash_text(&env, &bin, S("one two three"), &b, NULL), TFP_OK);
		CHECK_U64_EQ(a, b);
		/* "one" three times outweighs "two" and "three" on every bit */
		REQUIRE_INT_EQ(tfp_simhash_text(&env, &tf, S("one one one two three"), &a, NULL), TFP_OK);
		CHECK_U64_EQ(a, tfp_hash(S("one"), 0));
	}
}

static void
simhash_single_feature_and_ties(void)
{
	tfp_simhash_acc acc;
	const int64_t one = INT64_C(1) << TFP_WEIGHT_FRAC_BITS;
	uint64_t	h = UINT64_C(0x0123456789abcdef);

	tfp_simhash_init(&acc);
	CHECK_U64_EQ(tfp_simhash_final(&acc), 0);	/* nothing added */
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, h, one), TFP_OK);
	CHECK_U64_EQ(tfp_simhash_final(&acc), h);

	/* h and ~h with equal weight tie on every bit: ties give 0 */
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, ~h, one), TFP_OK);
	CHECK_U64_EQ(tfp_simhash_final(&acc), 0);
	for (int i = 0; i < SIMHASH_BITS; i++)
		CHECK_INT_EQ(acc.v[i], 0);
	CHECK_INT_EQ(acc.total, 2 * one);

	/* one fixed-point unit breaks the tie */
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, h, 1), TFP_OK);
	CHECK_U64_EQ(tfp_simhash_final(&acc), h);

	/* a zero weight changes nothing */
	tfp_simhash_init(&acc);
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, UINT64_MAX, 0), TFP_OK);
	CHECK_U64_EQ(tfp_simhash_final(&acc), 0);

	/* bit i set where the weight for it is larger */
	tfp_simhash_init(&acc);
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, UINT64_C(0xFF00FF00FF00FF00), 3), TFP_OK);
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, UINT64_C(0xFFFF0000FFFF0000), 2), TFP_OK);
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, UINT64_C(0x00000000FFFFFFFF), 2), TFP_OK);
	/* per bit: +3/-3, +2/-2, +2/-2; 0xFF00.. bits win unless both others oppose */
	{
		uint64_t	want = 0;

		for (int i = 0; i < 64; i++)
		{
			int64_t		s = 0;

			s += ((UINT64_C(0xFF00FF00FF00FF00) >> i) & 1) ? 3 : -3;
			s += ((UINT64_C(0xFFFF0000FFFF0000) >> i) & 1) ? 2 : -2;
			s += ((UINT64_C(0x00000000FFFFFFFF) >> i) & 1) ? 2 : -2;
			if (s > 0)
				want |= UINT64_C(1) << i;
		}
		CHECK_U64_EQ(tfp_simhash_final(&acc), want);
	}
}

static void
simhash_order_independent_and_merge(void)
{
	enum
	{
		N = 500
	};
	uint64_t	hashes[N];
	int64_t		weights[N];
	uint64_t	rng = UINT64_C(0x9E3779B97F4A7C15);
	tfp_simhash_acc fwd,
				rev,
				a,
				b,
				c;

	for (int i = 0; i < N; i++)
	{
		hashes[i] = xorshift64(&rng);
		weights[i] = (int64_t) (xorshift64(&rng) >> 20);	/* up to 2^44 */
	}

	tfp_simhash_init(&fwd);
	tfp_simhash_init(&rev);
	for (int i = 0; i < N; i++)
	{
		REQUIRE_INT_EQ(tfp_simhash_add(&fwd, hashes[i], weights[i]), TFP_OK);
		REQUIRE_INT_EQ(tfp_simhash_add(&rev, hashes[N - 1 - i], weights[N - 1 - i]), TFP_OK);
	}
	CHECK(memcmp(&fwd, &rev, sizeof(fwd)) == 0);
	CHECK_U64_EQ(tfp_simhash_final(&fwd), tfp_simhash_final(&rev));

	/* three partial states merged in any grouping equal the sequential one */
	tfp_simhash_init(&a);
	tfp_simhash_init(&b);
	tfp_simhash_init(&c);
	for (int i = 0; i < N; i++)
		REQUIRE_INT_EQ(tfp_simhash_add(i % 3 == 0 ? &a : i % 3 == 1 ? &b : &c,
									   hashes[i], weights[i]), TFP_OK);
	{
		tfp_simhash_acc ab = a;
		tfp_simhash_acc cb = c;

		REQUIRE_INT_EQ(tfp_simhash_merge(&ab, &b), TFP_OK);
		REQUIRE_INT_EQ(tfp_simhash_merge(&ab, &c), TFP_OK);
		CHECK(memcmp(&ab, &fwd, sizeof(fwd)) == 0);
		REQUIRE_INT_EQ(tfp_simhash_merge(&cb, &b), TFP_OK);
		REQUIRE_INT_EQ(tfp_simhash_merge(&cb, &a), TFP_OK);
		CHECK(memcmp(&cb, &fwd, sizeof(fwd)) == 0);
		CHECK_U64_EQ(tfp_simhash_final(&cb), tfp_simhash_final(&fwd));
	}

	/* merging an empty state is the identity */
	{
		tfp_simhash_acc empty;
		tfp_simhash_acc copy = fwd;

		tfp_simhash_init(&empty);
		REQUIRE_INT_EQ(tfp_simhash_merge(&copy, &empty), TFP_OK);
		CHECK(memcmp(&copy, &fwd, sizeof(fwd)) == 0);
		REQUIRE_INT_EQ(tfp_simhash_merge(&empty, &fwd), TFP_OK);
		CHECK(memcmp(&empty, &fwd, sizeof(fwd)) == 0);
	}
}

/* The byte-lane batch sum equals one tfp_simhash_add per feature. */
static void
simhash_add_uniform(void)
{
	enum {N = 1000};
	static uint64_t items[N];
	const int64_t w = INT64_C(3) << TFP_WEIGHT_FRAC_BITS;
	uint64_t	x = UINT64_C(0x9E3779B97F4A7C15);

	for (int i = 0; i < N; i++)
	{
		/* xorshift: varied bits, and runs over several 255-feature batches */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		items[i] = (i % 5 == 0) ? ~UINT64_C(0) : x;
	}
	for (size_t n = 0; n <= N; n += (n < 300 ? 1 : 97))
	{
		tfp_simhash_acc one_by_one;
		tfp_simhash_acc batch;

		tfp_simhash_init(&one_by_one);
		tfp_simhash_init(&batch);
		for (size_t i = 0; i < n; i++)
			REQUIRE_INT_EQ(tfp_simhash_add(&one_by_one, items[i], w), TFP_OK);
		REQUIRE_INT_EQ(tfp_simhash_add_uniform(&batch, items, n, w, NULL), TFP_OK);
		CHECK(memcmp(&one_by_one, &batch, sizeof(batch)) == 0);
	}
	/* a sum past INT64_MAX is refused, not wrapped */
	{
		tfp_simhash_acc acc;

		tfp_simhash_init(&acc);
		acc.total = (uint64_t) INT64_MAX - 10;
		CHECK_INT_EQ(tfp_simhash_add_uniform(&acc, items, 2, 6, NULL), TFP_EOVERFLOW);
		CHECK_INT_EQ(tfp_simhash_add_uniform(&acc, items, 2, 5, NULL), TFP_OK);
	}
}

static void
simhash_weight_to_fixed(void)
{
	int64_t		w = 12345;
	const int64_t one = INT64_C(1) << TFP_WEIGHT_FRAC_BITS;

	CHECK_INT_EQ(tfp_weight_to_fixed(1.0, &w), TFP_OK);
	CHECK_INT_EQ(w, one);
	CHECK_INT_EQ(tfp_weight_to_fixed(0.5, &w), TFP_OK);
	CHECK_INT_EQ(w, one / 2);
	CHECK_INT_EQ(tfp_weight_to_fixed(2.5, &w), TFP_OK);
	CHECK_INT_EQ(w, 5 * one / 2);
	CHECK_INT_EQ(tfp_weight_to_fixed(0.0, &w), TFP_OK);
	CHECK_INT_EQ(w, 0);
	CHECK_INT_EQ(tfp_weight_to_fixed(-0.0, &w), TFP_OK);
	CHECK_INT_EQ(w, 0);
	CHECK_INT_EQ(tfp_weight_to_fixed(TFP_MAX_WEIGHT, &w), TFP_OK);
	CHECK_INT_EQ(w, INT64_C(1) << 54);
	/* rounding to the nearest 2^-24, halves to even */
	CHECK_INT_EQ(tfp_weight_to_fixed(ldexp(1.0, -25), &w), TFP_OK);
	CHECK_INT_EQ(w, 0);
	CHECK_INT_EQ(tfp_weight_to_fixed(ldexp(3.0, -25), &w), TFP_OK);
	CHECK_INT_EQ(w, 2);
	CHECK_INT_EQ(tfp_weight_to_fixed(ldexp(1.0, -26) * 3, &w), TFP_OK);
	CHECK_INT_EQ(w, 1);
	CHECK_INT_EQ(tfp_weight_to_fixed(5e-324, &w), TFP_OK);	/* denormal */
	CHECK_INT_EQ(w, 0);

	w = 777;
	CHECK_INT_EQ(tfp_weight_to_fixed(NAN, &w), TFP_EWEIGHT);
	CHECK_INT_EQ(tfp_weight_to_fixed(-NAN, &w), TFP_EWEIGHT);
	CHECK_INT_EQ(tfp_weight_to_fixed(INFINITY, &w), TFP_EWEIGHT);
	CHECK_INT_EQ(tfp_weight_to_fixed(-INFINITY, &w), TFP_EWEIGHT);
	CHECK_INT_EQ(tfp_weight_to_fixed(-1.0, &w), TFP_EWEIGHT);
	CHECK_INT_EQ(tfp_weight_to_fixed(-5e-324, &w), TFP_EWEIGHT);
	CHECK_INT_EQ(tfp_weight_to_fixed(nextafter(TFP_MAX_WEIGHT, INFINITY), &w), TFP_EWEIGHT);
	CHECK_INT_EQ(tfp_weight_to_fixed(1e300, &w), TFP_EWEIGHT);
	CHECK_INT_EQ(w, 777);		/* untouched on error */
}

static void
simhash_overflow_detected(void)
{
	tfp_simhash_acc acc;
	tfp_simhash_acc other;
	tfp_simhash_acc saved;
	int64_t		maxw = INT64_C(1) << 54;	/* TFP_MAX_WEIGHT in fixed point */

	/* one weight of INT64_MAX fits exactly; one unit more does not */
	tfp_simhash_init(&acc);
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, UINT64_C(0xAAAAAAAAAAAAAAAA), INT64_MAX), TFP_OK);
	CHECK_U64_EQ(tfp_simhash_final(&acc), UINT64_C(0xAAAAAAAAAAAAAAAA));
	saved = acc;
	CHECK_INT_EQ(tfp_simhash_add(&acc, 0, 1), TFP_EOVERFLOW);
	CHECK(memcmp(&acc, &saved, sizeof(acc)) == 0);	/* unchanged by the failed add */
	CHECK_INT_EQ(tfp_simhash_add(&acc, 0, 0), TFP_OK);

	/* negative weights are refused */
	tfp_simhash_init(&acc);
	CHECK_INT_EQ(tfp_simhash_add(&acc, 0, -1), TFP_EOVERFLOW);
	CHECK_INT_EQ(tfp_simhash_add(&acc, 0, INT64_MIN), TFP_EOVERFLOW);
	CHECK_INT_EQ(acc.total, 0);

	/* many maximal weights: 2^9 - 1 of 2^54 fit below 2^63, 2^9 do not */
	tfp_simhash_init(&acc);
	for (int i = 0; i < 511; i++)
		REQUIRE_INT_EQ(tfp_simhash_add(&acc, (uint64_t) i * UINT64_C(0x9E3779B97F4A7C15), maxw), TFP_OK);
	CHECK_INT_EQ(tfp_simhash_add(&acc, 1, maxw), TFP_EOVERFLOW);
	CHECK_INT_EQ(tfp_simhash_add(&acc, 1, INT64_MAX - 511 * maxw), TFP_OK);

	/* merge: totals that would pass INT64_MAX */
	tfp_simhash_init(&acc);
	tfp_simhash_init(&other);
	REQUIRE_INT_EQ(tfp_simhash_add(&acc, 5, INT64_MAX / 2 + 1), TFP_OK);
	REQUIRE_INT_EQ(tfp_simhash_add(&other, 6, INT64_MAX / 2 + 1), TFP_OK);
	saved = acc;
	CHECK_INT_EQ(tfp_simhash_merge(&acc, &other), TFP_EOVERFLOW);
	CHECK(memcmp(&acc, &saved, sizeof(acc)) == 0);
	tfp_simhash_init(&other);
	REQUIRE_INT_EQ(tfp_simhash_add(&other, 6, INT64_MAX / 2), TFP_OK);
	CHECK_INT_EQ(tfp_simhash_merge(&acc, &other), TFP_OK);
	CHECK_INT_EQ(acc.total, (uint64_t) INT64_MAX);
}

static void
simhash_empty_text_is_zero(void)
{
	static const char *const texts[] = {"", "   ", "!!! ??? ... ★☆ 🎉", "the and of", "的 了 我们"};
	tfp_options o = opts_default();

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
	{
		uint64_t	h = 1;

		if (tfp_simhash_text(&env, &o, texts[i], strlen(texts[i]), &h, NULL) != TFP_OK)
			UNIT_FAIL("text %zu: error", i);
		else if (h != 0)
			UNIT_FAIL("text %zu: %016" PRIx64 ", want 0", i, h);
	}
	o.shingle = 3;
	{
		uint64_t	h = 1;

		CHECK_INT_EQ(tfp_simhash_text(&env, &o, S(""), &h, NULL), TFP_OK);
		CHECK_U64_EQ(h, 0);
	}
}

/* expected/golden.out: simhash(body, ...) for the same texts and options */
static const struct
{
	const char *text;
	uint64_t	fp[6];
}			golden[] = {
	{"The quick brown fox jumps over the lazy dog",
	{0x84048682805292e3, 0xe6febc0abf316fe2, 0x8212868318d29267, 0x84048682805292e3, 0x84048682805292e3, 0x42bf246683884149}},
	{"PostgreSQL is a powerful, open source object-relational database system with over 35 years of active development.",
	{0x7667e11211f1b58e, 0x495584cc00a1014c, 0xf667b7123191079a, 0x7667e11211f1b58e, 0x7667e11211f1b58e, 0xe3e31669d762dd45}},
	{"Breaking: Markets rallied on Tuesday after the central bank held interest rates steady, surprising analysts.",
	{0xb397ba5d447d7ffb, 0x460101302094121c, 0xab1fab4f6d5b7ffb, 0xb397ba5d447d7ffb, 0xb397ba5d447d7ffb, 0x3fffa27f92c59185}},
	{"今天天气很好，我们去公园散步吧。",
	{0x222d6ed1720a2ba5, 0x80f051172341466b, 0x1817050a921d2042, 0x222d6ed1720a2ba5, 0x3a032e8d1a0f0b32, 0x2cbc4fcda432da62}},
	{"中华人民共和国国务院新闻办公室今天举行新闻发布会，介绍经济运行情况。",
	{0xa45d09aa280e713e, 0xbfa113174bf76ee7, 0x880d21fa00447e44, 0xa45d09aa280e713e, 0xa6fc072a604a1b1e, 0x636e2e3ab43f5ba3}},
	{"這個國家的經濟發展很快，人民生活水平不斷提高。",
	{0x156ac4c63a730d86, 0xa4824ca58078c905, 0x64e10957d762a54d, 0xb320a466a840b412, 0x0be244040b631d94, 0xde2449f2bdabb751}},
	{"Apple 发布了新款 iPhone 16，售价 5999 元起。",
	{0xf316e20ac0928142, 0xecc6ce68efff80a4, 0x1566e3c2d3978170, 0xf316e20ac0928142, 0xd417d38ef5378976, 0x2ba406cc6595233b}},
	{"ＰｏｓｔｇｒｅＳＱＬ　数据库　２０２６年　版本１５",
	{0xc604260905419000, 0x750e8006fba0e747, 0xd52808092f418e22, 0xc604260905419000, 0x422c0e0925519206, 0x204214430e6002cd}},
	{"東京は日本の首都です。カタカナとひらがな。",
	{0x2e94129b9f18fbc5, 0x18f10cd443682f89, 0x3ce09478f2ffb475, 0x2e14129bbe19fbc1, 0x0a3f2b0d42881b80, 0xd8ec153c81b692dd}},
	{"서울은 대한민국의 수도입니다.",
	{0x77a342298e18226c, 0xa4c56b37d5aff30c, 0xe37ad9aabf16a2e9, 0x77a342298e18226c, 0x6739059ab80a49dc, 0x7b252098511cad42}},
	{"", {0, 0, 0, 0, 0, 0}},
	{"!!! ??? ... ★☆ 🎉", {0, 0, 0, 0, 0, 0}},
};

#define GOLDEN_ICU_COLUMN 4

static tfp_options
golden_options(int column)
{
	tfp_options o = opts_default();

	switch (column)
	{
		case 1:
			o.shingle = 2;
			break;
		case 2:
			o.ngram = 3;
			o.builtin_stopwords = 0;
			break;
		case 3:
			o.simplify = true;
			break;
		case GOLDEN_ICU_COLUMN:
			o.tokenizer = TFP_TOKENIZER_ICU;
			break;
		case 5:
			o.weighting = TFP_WEIGHT_BINARY;
			o.seed = 42;
			break;
	}
	return o;
}

static void
golden_check_columns(int first, int last)
{
	static const char *const names[] = {
		"default", "shingle=2", "ngram=3 no stopwords", "simplify", "icu", "binary seed=42"
	};

	for (size_t t = 0; t < sizeof(golden) / sizeof(golden[0]); t++)
		for (int c = first; c <= last; c++)
		{
			tfp_options o = golden_options(c);
			uint64_t	h = 0;
			tfp_status	rc = tfp_simhash_text(&env, &o, golden[t].text, strlen(golden[t].text), &h, NULL);

			if (rc != TFP_OK)
				UNIT_FAIL("golden text %zu (%s): error %d", t + 1, names[c], (int) rc);
			else if (h != golden[t].fp[c])
				UNIT_FAIL("golden text %zu (%s): got %016" PRIx64 ", want %016" PRIx64,
						  t + 1, names[c], h, golden[t].fp[c]);
		}
}

static void
golden_simhash_default_options(void)
{
	golden_check_columns(0, 0);
}

static void
golden_simhash_other_options(void)
{
	golden_check_columns(1, GOLDEN_ICU_COLUMN - 1);
	golden_check_columns(GOLDEN_ICU_COLUMN + 1, 5);
}

static void
golden_simhash_icu_tokenizer(void)
{
	char		v[32];
	int			before = unit_state.failures;

	/* dictionary segmentation follows ICU's data: pinned for this ICU */
	golden_check_columns(GOLDEN_ICU_COLUMN, GOLDEN_ICU_COLUMN);
	if (unit_state.failures > before)
	{
		tfp_icu_version(v, sizeof(v));
		UNIT_FAIL("ICU tokenizer goldens were taken with ICU 72.1; this is ICU %s", v);
	}
}

/* ------------------------------------------------------------------------
 * Hex form and popcount
 * ------------------------------------------------------------------------ */

static void
hex_round_trip(void)
{
	static const uint64_t values[] = {
		0, 1, UINT64_MAX, UINT64_C(0x0123456789abcdef), UINT64_C(0x8000000000000000),
		UINT64_C(0x84048682805292e3), UINT64_C(0x00000000ffffffff),
	};
	uint64_t	rng = 42;
	char		buf[17];
	uint64_t	back;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
	{
		memset(buf, 'X', sizeof(buf));
		tfp_hex64_format(values[i], buf);
		CHECK_INT_EQ(strlen(buf), 16);
		REQUIRE(tfp_hex64_parse(buf, 16, &back));
		CHECK_U64_EQ(back, values[i]);
	}
	for (int i = 0; i < 1000; i++)
	{
		uint64_t	v = xorshift64(&rng);

		tfp_hex64_format(v, buf);
		if (!tfp_hex64_parse(buf, 16, &back) || back != v)
		{
			UNIT_FAIL("round trip of %016" PRIx64 " failed", v);
			break;
		}
		for (int j = 0; j < 16; j++)
			if (!((buf[j] >= '0' && buf[j] <= '9') || (buf[j] >= 'a' && buf[j] <= 'f')))
			{
				UNIT_FAIL("format wrote '%c'", buf[j]);
				break;
			}
	}
	tfp_hex64_format(UINT64_C(0x0123456789abcdef), buf);
	CHECK_STR_EQ(buf, "0123456789abcdef");
	tfp_hex64_format(0, buf);
	CHECK_STR_EQ(buf, "0000000000000000");

	/* upper and mixed case parse */
	REQUIRE(tfp_hex64_parse(S("0123456789ABCDEF"), &back));
	CHECK_U64_EQ(back, UINT64_C(0x0123456789abcdef));
	REQUIRE(tfp_hex64_parse(S("FfFfFfFfFfFfFfFf"), &back));
	CHECK_U64_EQ(back, UINT64_MAX);
}

static void
hex_rejects_bad_input(void)
{
	static const char *const bad[] = {
		"", "0", "012345678abcdef", "0123456789abcdef0",
		"0123456789abcdeg", "g123456789abcdef", "0x23456789abcdef", "0123456789abcde ",
		" 123456789abcdef", "-123456789abcdef", "+123456789abcdef", "0123456789abcdeF\n",
		"０123456789abcde",
	};
	uint64_t	v = 0x5a5a;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (tfp_hex64_parse(bad[i], strlen(bad[i]), &v))
			UNIT_FAIL("accepted \"%s\"", bad[i]);
	CHECK(!tfp_hex64_parse("0123456\0" "89abcdef", 16, &v));	/* embedded NUL */
	CHECK(!tfp_hex64_parse("0123456789abcdef", 15, &v));
	/* the length, not a NUL, bounds the input */
	CHECK(tfp_hex64_parse("0123456789abcdefXYZ", 16, &v));
	CHECK_U64_EQ(v, UINT64_C(0x0123456789abcdef));
	v = 0x5a5a;
	CHECK(!tfp_hex64_parse(S("zzzzzzzzzzzzzzzz"), &v));
	CHECK_U64_EQ(v, 0x5a5a);	/* untouched on error */
	/* every byte value at every position: only the 22 hex digits pass */
	for (int pos = 0; pos < 16; pos += 5)
		for (int c = 0; c < 256; c++)
		{
			char		s[16];
			bool		hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
				(c >= 'A' && c <= 'F');

			memset(s, '7', sizeof(s));
			s[pos] = (char) c;
			if (tfp_hex64_parse(s, 16, &v) != hex)
				UNIT_FAIL("byte 0x%02x at %d: wrong verdict", c, pos);
		}
}

static int
naive_popcount(uint64_t x)
{
	int			n = 0;

	for (int i = 0; i < 64; i++)
		n += (int) ((x >> i) & 1);
	return n;
}

static void
popcount_matches_naive(void)
{
	uint64_t	rng = 7;

	CHECK_INT_EQ(tfp_popcount64(0), 0);
	CHECK_INT_EQ(tfp_popcount64(UINT64_MAX), 64);
	CHECK_INT_EQ(tfp_popcount64(UINT64_C(1) << 63), 1);
	for (int i = 0; i < 64; i++)
		CHECK_INT_EQ(tfp_popcount64(UINT64_C(1) << i), 1);
	for (int i = 0; i < 10000; i++)
	{
		uint64_t	x = xorshift64(&rng);
		uint64_t	y = xorshift64(&rng);

		if (i & 1)
			x &= xorshift64(&rng);	/* sparser values too */
		if (tfp_popcount64(x) != naive_popcount(x) ||
			tfp_hamming64(x, y) != naive_popcount(x ^ y))
		{
			UNIT_FAIL("popcount of %016" PRIx64 " differs from naive", x);
			break;
		}
	}
	CHECK_INT_EQ(tfp_hamming64(0, UINT64_MAX), 64);
	CHECK_INT_EQ(tfp_hamming64(UINT64_C(0x84048682805292e3), UINT64_C(0x84048682805292e3)), 0);
}

static void
bound_distance_is_a_lower_bound(void)
{
	uint64_t	rng = 12345;

	/* a one-member set: exactly the Hamming distance */
	for (int i = 0; i < 1000; i++)
	{
		uint64_t	x = xorshift64(&rng);
		uint64_t	q = xorshift64(&rng);

		if (tfp_bound_distance(x, x, q) != tfp_hamming64(x, q))
		{
			UNIT_FAIL("one-member bound of %016" PRIx64 " is not exact", x);
			break;
		}
	}
	/* larger sets of nearby fingerprints: never above any member's distance */
	for (int trial = 0; trial < 500; trial++)
	{
		uint64_t	base = xorshift64(&rng);
		uint64_t	q = trial % 2 ? xorshift64(&rng) : base ^ (xorshift64(&rng) & xorshift64(&rng));
		uint64_t	and_bits = UINT64_MAX;
		uint64_t	or_bits = 0;
		int			nearest = 64;
		int			members = 2 + trial % 8;

		for (int m = 0; m < members; m++)
		{
			uint64_t	x = base ^ (xorshift64(&rng) & xorshift64(&rng) & xorshift64(&rng));

			and_bits &= x;
			or_bits |= x;
			if (tfp_hamming64(x, q) < nearest)
				nearest = tfp_hamming64(x, q);
		}
		if (tfp_bound_distance(and_bits, or_bits, q) > nearest)
		{
			UNIT_FAIL("trial %d: bound %d above the nearest member's %d", trial,
					  tfp_bound_distance(and_bits, or_bits, q), nearest);
			break;
		}
	}
	/* the set of everything bounds nothing; q inside the set bounds 0 */
	CHECK_INT_EQ(tfp_bound_distance(0, UINT64_MAX, UINT64_C(0x1234)), 0);
	CHECK_INT_EQ(tfp_bound_distance(UINT64_C(0xF0), UINT64_C(0xFF), UINT64_C(0xF3)), 0);
	CHECK_INT_EQ(tfp_bound_distance(UINT64_C(0xF0), UINT64_C(0xFF), UINT64_C(0x100)), 5);
}

/* ------------------------------------------------------------------------
 * Error paths
 * ------------------------------------------------------------------------ */

static void
error_invalid_utf8(void)
{
	tfp_options o = opts_default();
	tfp_featureset fs;
	char	   *out = NULL;
	size_t		olen = 0;
	uint64_t	h = 5;
	static const char *const bad[] = {"abc\xFF", "\xED\xA0\x80", "今天\xE5", "\xC0\xAF"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		CHECK_INT_EQ(tfp_normalize(&env, bad[i], strlen(bad[i]), false, &out, &olen), TFP_EUTF8);
		CHECK_INT_EQ(tfp_extract(&env, &o, bad[i], strlen(bad[i]), true, true, &fs), TFP_EUTF8);
		CHECK(fs.items == NULL && fs.n == 0 && fs.text == NULL);
		CHECK_INT_EQ(tfp_simhash_text(&env, &o, bad[i], strlen(bad[i]), &h, NULL), TFP_EUTF8);
	}
	CHECK(out == NULL);
	CHECK_U64_EQ(h, 5);
	CHECK_INT_EQ(ca.total, 0);	/* rejected before allocating */
}

static void
error_input_too_long(void)
{
	size_t		len = (size_t) TFP_MAX_INPUT_BYTES + 1;
	char	   *big = malloc(len);
	tfp_options o = opts_default();
	tfp_featureset fs;
	char	   *out = NULL;
	size_t		olen = 0;
	uint64_t	h = 5;

	REQUIRE(big != NULL);
	memset(big, 'a', len);
	CHECK_INT_EQ(tfp_normalize(&env, big, len, false, &out, &olen), TFP_ETOOLONG);
	CHECK_INT_EQ(tfp_extract(&env, &o, big, len, true, true, &fs), TFP_ETOOLONG);
	CHECK_INT_EQ(tfp_simhash_text(&env, &o, big, len, &h, NULL), TFP_ETOOLONG);
	o.tokenizer = TFP_TOKENIZER_ICU;
	CHECK_INT_EQ(tfp_simhash_text(&env, &o, big, len, &h, NULL), TFP_ETOOLONG);
	CHECK_U64_EQ(h, 5);
	CHECK_INT_EQ(ca.total, 0);	/* rejected before allocating */
	free(big);
}

/*
 * Run fn with the allocator failing after 0, 1, 2, ... allocations until it
 * succeeds: every failure must be TFP_ENOMEM and leave nothing allocated.
 * Returns how many allocations the successful run made, or -1.
 */
typedef tfp_status (*alloc_probe) (const void *arg);

static long
walk_alloc_failures(const char *what, alloc_probe fn, const void *arg)
{
	for (long n = 0; n < 100000; n++)
	{
		tfp_status	rc;

		ca.total = 0;
		ca.refused = 0;
		ca.fail_after = n;
		rc = fn(arg);
		ca.fail_after = -1;
		if (ca.live != 0)
		{
			UNIT_FAIL("%s: %ld allocation(s) leaked when allocation %ld failed", what, ca.live, n);
			return -1;
		}
		if (rc == TFP_OK)
		{
			if (ca.refused != 0)
				UNIT_FAIL("%s: succeeded although allocation %ld was refused", what, n);
			return n;
		}
		if (rc != TFP_ENOMEM)
		{
			UNIT_FAIL("%s: allocation %ld failed, got status %d, want TFP_ENOMEM", what, n, (int) rc);
			return -1;
		}
		if (ca.refused == 0)
		{
			UNIT_FAIL("%s: TFP_ENOMEM without a refused allocation", what);
			return -1;
		}
	}
	UNIT_FAIL("%s: never succeeded", what);
	return -1;
}

typedef struct pipeline_probe
{
	const char *text;
	tfp_options opts;
	bool		dedupe;
	bool		want_text;
} pipeline_probe;

static tfp_status
probe_extract(const void *arg)
{
	const pipeline_probe *p = arg;
	tfp_featureset fs;
	tfp_status	rc = tfp_extract(&env, &p->opts, p->text, strlen(p->text),
								 p->dedupe, p->want_text, &fs);

	if (rc == TFP_OK)
		tfp_featureset_free(&env, &fs);
	return rc;
}

static tfp_status
probe_simhash_text(const void *arg)
{
	const pipeline_probe *p = arg;
	uint64_t	h;

	return tfp_simhash_text(&env, &p->opts, p->text, strlen(p->text), &h, NULL);
}

static tfp_status
probe_normalize(const void *arg)
{
	const pipeline_probe *p = arg;
	char	   *out = NULL;
	size_t		olen;
	tfp_status	rc = tfp_normalize(&env, p->text, strlen(p->text), p->opts.simplify, &out, &olen);

	if (rc == TFP_OK)
		env.free(env.ctx, out);
	return rc;
}

static tfp_status
probe_stopset(const void *arg)
{
	const char *const words[] = {"a", "bb", "a", "", "ccc", "我们"};
	const size_t lens[] = {1, 2, 1, 0, 3, 6};
	tfp_stopset *set = NULL;
	tfp_status	rc = tfp_stopset_build(&env, words, lens, 6, &set);

	(void) arg;
	if (rc == TFP_OK)
		tfp_stopset_free(&env, set);
	return rc;
}

static void
error_allocation_failures(void)
{
	/* long enough that span and n-gram buffers grow past their first size */
	static char long_mixed[4096];
	static char long_cjk[3 * 600 + 1];
	static char distinct[4096];
	static char long_words[2048];
	pipeline_probe probes[12];
	const tfp_stopset *dummy;
	size_t		np = 0;
	long		allocs;

	/* the built-in sets come from malloc, once per process: build them first */
	REQUIRE_INT_EQ(tfp_builtin_stopset(&env, TFP_STOP_EN, &dummy), TFP_OK);
	REQUIRE_INT_EQ(tfp_builtin_stopset(&env, TFP_STOP_ZH, &dummy), TFP_OK);

	long_mixed[0] = '\0';
	while (strlen(long_mixed) + 64 < sizeof(long_mixed))
		strcat(long_mixed, "今天天气很好 The weather is nice 今天 ");

	for (int i = 0; i < 600; i++)
		memcpy(long_cjk + 3 * i, i % 2 ? "天" : "今", 3);
	long_cjk[3 * 600] = '\0';
	/* many distinct shingle texts: the text pool grows */
	for (size_t len = 0, i = 0; len + 16 < sizeof(distinct); i++)
		len += (size_t) sprintf(distinct + len, "w%zu ", i);
	/* shingles longer than the first scratch buffer */
	for (size_t len = 0, i = 0; len + 64 < sizeof(long_words); i++)
		len += (size_t) sprintf(long_words + len, "%zuabcdefghijklmnopqrstuvwxyzabcdefghij ", i);

	probes[np] = (pipeline_probe) {distinct, opts_default(), true, true};
	probes[np++].opts.shingle = 2;
	probes[np] = (pipeline_probe) {long_words, opts_default(), true, true};
	probes[np++].opts.shingle = TFP_MAX_SHINGLE;

	probes[np++] = (pipeline_probe) {long_cjk, opts_default(), true, true};
	probes[np++] = (pipeline_probe) {"The quick brown fox jumps over the lazy dog", opts_default(), true, true};
	probes[np++] = (pipeline_probe) {"今天天气很好，我们去公园散步吧。", opts_default(), false, false};
	probes[np] = (pipeline_probe) {"這個國家的經濟發展很快 ＡＢＣ", opts_default(), true, true};
	probes[np].opts.simplify = true;
	probes[np++].opts.shingle = 3;
	probes[np] = (pipeline_probe) {"今天天气很好 hello world", opts_default(), true, false};
	probes[np++].opts.tokenizer = TFP_TOKENIZER_ICU;
	probes[np] = (pipeline_probe) {long_mixed, opts_default(), true, true};
	probes[np++].opts.shingle = 2;
	probes[np++] = (pipeline_probe) {long_mixed, opts_default(), false, false};
	probes[np++] = (pipeline_probe) {"", opts_default(), true, true};
	probes[np] = (pipeline_probe) {"\xEF\xB7\xBA\xEF\xB7\xBA\xEF\xB7\xBA 繁體", opts_default(), true, true};
	probes[np++].opts.simplify = true;

	for (size_t i = 0; i < np; i++)
	{
		char		what[64];

		snprintf(what, sizeof(what), "extract probe %zu", i);
		allocs = walk_alloc_failures(what, probe_extract, &probes[i]);
		if (allocs == 0 && probes[i].text[0] != '\0')
			UNIT_FAIL("%s made no allocations", what);
		snprintf(what, sizeof(what), "simhash_text probe %zu", i);
		walk_alloc_failures(what, probe_simhash_text, &probes[i]);
		snprintf(what, sizeof(what), "normalize probe %zu", i);
		walk_alloc_failures(what, probe_normalize, &probes[i]);
	}
	allocs = walk_alloc_failures("stopset_build", probe_stopset, NULL);
	CHECK(allocs >= 5);
}

/* ------------------------------------------------------------------------ */

/* the pigeonhole and statistics cases, sharing unit.h's state */
#include "test_blocks.c"
#include "test_minhash.c"
#include "test_lsh.c"
#include "test_pieces.c"
#include "test_mih.c"
#include "test_mih_mem.c"
#include "test_lsh_mem.c"
#include "test_exact.c"
#include "test_cluster.c"
#include "test_weights.c"
#include "test_zh.c"
#include "test_signatures.c"
#include "test_presets.c"
/* winnow('The quick brown fox ...') with SQL defaults, as sql/excerpts.sql shows it */
#define WINNOW_GOLDEN_EN "3871334863867564548,4895666318593413016,5645340696667957622,6960761400110224010"
#include "test_winnow.c"

static const unit_case cases[] = {
	UNIT_CASE(hash_xxh3_known_vectors),
	UNIT_CASE(hash_seed_and_input_sensitivity),
	UNIT_CASE(utf8_valid_sequences),
	UNIT_CASE(utf8_invalid_sequences),
	UNIT_CASE(normalize_ascii_fast_path_matches_icu),
	UNIT_CASE(normalize_nfkc_casefold),
	UNIT_CASE(normalize_expansion_grows_buffer),
	UNIT_CASE(normalize_simplify),
	UNIT_CASE(normalize_versions),
	UNIT_CASE(tokenize_words_and_digits),
	UNIT_CASE(tokenize_mixed_script_splits_at_cjk),
	UNIT_CASE(tokenize_cjk_ngrams),
	UNIT_CASE(tokenize_hangul_and_kana_ngrams),
	UNIT_CASE(tokenize_combining_marks_stay_in_word),
	UNIT_CASE(tokenize_long_cjk_run),
	UNIT_CASE(tokenize_drops_punctuation_symbols_emoji),
	UNIT_CASE(tokenize_empty_input),
	UNIT_CASE(tokenize_is_cjk_ranges),
	UNIT_CASE(tokenize_icu_dictionary_words),
	UNIT_CASE(tokenize_icu_spans_are_substrings),
	UNIT_CASE(tokenize_calls_check_interrupts),
	UNIT_CASE(stopset_build_and_contains),
	UNIT_CASE(stopset_empty_and_duplicates_only),
	UNIT_CASE(stopset_large_and_limits),
	UNIT_CASE(stopset_builtin_lists),
	UNIT_CASE(options_default_values),
	UNIT_CASE(extract_shingles),
	UNIT_CASE(extract_dedupe_counts),
	UNIT_CASE(extract_dedupe_many_distinct),
	UNIT_CASE(extract_want_text),
	UNIT_CASE(extract_stopwords_removed),
	UNIT_CASE(extract_weighting),
	UNIT_CASE(extract_bad_options_rejected),
	UNIT_CASE(extract_calls_check_interrupts),
	UNIT_CASE(simhash_text_equals_manual_accumulation),
	UNIT_CASE(simhash_single_feature_and_ties),
	UNIT_CASE(simhash_order_independent_and_merge),
	UNIT_CASE(simhash_add_uniform),
	UNIT_CASE(simhash_weight_to_fixed),
	UNIT_CASE(simhash_overflow_detected),
	UNIT_CASE(simhash_empty_text_is_zero),
	UNIT_CASE(golden_simhash_default_options),
	UNIT_CASE(golden_simhash_other_options),
	UNIT_CASE(golden_simhash_icu_tokenizer),
	UNIT_CASE(hex_round_trip),
	UNIT_CASE(hex_rejects_bad_input),
	UNIT_CASE(popcount_matches_naive),
	UNIT_CASE(bound_distance_is_a_lower_bound),
	UNIT_CASE(error_invalid_utf8),
	UNIT_CASE(error_input_too_long),
	UNIT_CASE(error_allocation_failures),
	UNIT_CASE(blocks_layout_covers_all_bits),
	UNIT_CASE(blocks_binomial_exact),
	UNIT_CASE(blocks_plan_covers_radius),
	UNIT_CASE(blocks_ball_values_enumerates_ball),
	UNIT_CASE(blocks_pigeonhole_finds_every_answer),
	UNIT_CASE(stats_random_within),
	UNIT_CASE(stats_pair_distances),
	UNIT_CASE(minhash_jaccard_needed_is_exact),
	UNIT_CASE(minhash_set_jaccard_exact),
	UNIT_CASE(minhash_empty_and_singleton),
	UNIT_CASE(minhash_order_and_repeats_do_not_matter),
	UNIT_CASE(minhash_golden_values),
	UNIT_CASE(minhash_estimator_large_sets),
	UNIT_CASE(minhash_estimator_small_sets),
	UNIT_CASE(minhash_reference_estimator),
	UNIT_CASE(minhash_pipeline_id_tracks_options),
	UNIT_CASE(minhash_text_matches_items),
	UNIT_CASE(minhash_pair_matches_counts),
	UNIT_CASE(lsh_golden_band_keys),
	UNIT_CASE(lsh_band_key_layout),
	UNIT_CASE(lsh_band_key_mixes_header),
	UNIT_CASE(lsh_featureless_and_fit),
	UNIT_CASE(lsh_equal_bands_counts),
	UNIT_CASE(lsh_probability_values),
	UNIT_CASE(lsh_probability_matches_simulation),
	UNIT_CASE(lsh_choose_matches_datasketch),
	UNIT_CASE(lsh_choose_with_budget),
	UNIT_CASE(lsh_choose_matches_reference),
	UNIT_CASE(lsh_choose_extremes_bounded),
	UNIT_CASE(lsh_parse_params),
	UNIT_CASE(pieces_normalize_equals_whole),
	UNIT_CASE(pieces_simplify_phrases),
	UNIT_CASE(pieces_icu_tokens_equal_whole),
	UNIT_CASE(pieces_icu_long_run_is_cut),
	UNIT_CASE(pieces_normalize_limit),
	UNIT_CASE(pieces_feature_table_limit),
	UNIT_CASE(pieces_radix_sort),
	UNIT_CASE(mih_layout_covers_all_bits),
	UNIT_CASE(mih_ball_size_is_binomial_sum),
	UNIT_CASE(mih_plan_covers_radius),
	UNIT_CASE(mih_probes_find_every_answer_once),
	UNIT_CASE(mih_verify_kernels_agree),
	UNIT_CASE(mih_choose_m_shrinks_with_rows),
	UNIT_CASE(mih_mem_queries_match_brute_force),
	UNIT_CASE(lsh_mem_queries_match_brute_force),
	UNIT_CASE(lsh_mem_checks_interrupts),
	UNIT_CASE(lsh_mem_out_of_memory),
	UNIT_CASE(exact_uuid_golden),
	UNIT_CASE(exact_squeeze_spaces),
	UNIT_CASE(exact_normalises),
	UNIT_CASE(cluster_components_match_brute_force),
	UNIT_CASE(cluster_star_follows_its_rule),
	UNIT_CASE(cluster_chain_components_and_star),
	UNIT_CASE(cluster_large_and_interrupts),
	UNIT_CASE(cluster_out_of_memory_paths),
	UNIT_CASE(weights_log_fixed_values),
	UNIT_CASE(weights_sublinear_and_idf),
	UNIT_CASE(weights_idf_sketch_merges_and_checks),
	UNIT_CASE(weights_keywords_are_the_heaviest),
	UNIT_CASE(weights_simhash_text_equals_by_hand),
	UNIT_CASE(weights_numbers_option),
	UNIT_CASE(zh_table_is_well_formed),
	UNIT_CASE(zh_table_matches_tsv),
	UNIT_CASE(zh_table_is_normalised),
	UNIT_CASE(zh_values_are_fixed_points),
	UNIT_CASE(zh_convert_examples),
	UNIT_CASE(zh_convert_chunks_equal_whole),
	UNIT_CASE(zh_convert_equals_brute_force),
	UNIT_CASE(pieces_chinese_equals_whole),
	UNIT_CASE(zh_normalize_interrupts_and_memory),
	UNIT_CASE(zh_identity_frozen),
	UNIT_CASE(zh_builtin_stopwords_unchanged),
	UNIT_CASE(pinyin_letters_of_characters),
	UNIT_CASE(pinyin_reference_sums_to_one),
	UNIT_CASE(pinyin_signature_golden_and_homophones),
	UNIT_CASE(pinyin_signature_short_and_without_han),
	UNIT_CASE(pinyin_windows_move_with_insertions),
	UNIT_CASE(sentences_breaks_and_canonical_form),
	UNIT_CASE(sentence_signature_order_and_ties),
	UNIT_CASE(sentence_signature_golden),
	UNIT_CASE(sentences_pieces_equal_whole),
	UNIT_CASE(signatures_interrupts_and_allocations),
	UNIT_CASE(signatures_allocation_failures),
	UNIT_CASE(presets_are_frozen),
	UNIT_CASE(presets_table_is_consistent),
	UNIT_CASE(presets_golden_values),
	UNIT_CASE(winnow_matches_naive_window_minima),
	UNIT_CASE(winnow_shared_run_shares_a_fingerprint),
	UNIT_CASE(winnow_quoted_stream_is_contained),
	UNIT_CASE(winnow_limits_and_memory),
	UNIT_CASE(winnow_allocation_failures),
	UNIT_CASE(winnow_golden_values),
	UNIT_CASE(winnow_containment_needed_is_exact),
	UNIT_CASE(winnow_signed_sets),
};

int
main(int argc, char **argv)
{
	unit_state.setup = case_setup;
	unit_state.teardown = case_teardown;
	return unit_main(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
