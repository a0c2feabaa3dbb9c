/*
 * fuzz_pieces.c: libFuzzer target for the pipeline's pieces.  Normalisation
 * and the ICU word breaker work on pieces of a text so that a cancel is
 * answered; they must give exactly what whole-text processing gives.
 *
 * Input: [0] piece size (8 + b bytes), [1] flags (0x01 simplify, 0x02
 * compare the ICU tokenizer too, 0x04 chinese => 'mainland': the phrase
 * table must match across piece ends as in one piece), then the text.
 * Invalid UTF-8 is skipped.
 * The normalised pieces are compared unless the text has a run of half a
 * piece without a normalisation boundary (the documented cut).  The ICU
 * tokenizer's tokens are compared with one plain word-break pass over the
 * whole normalised text, as textfp 1.0 made them (inputs here are far
 * shorter than the runs it cuts).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/unorm2.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include "common.h"
#include "tfp_core.h"

/* The longest run of bytes without an NFKC_Casefold boundary before a code point. */
static size_t
longest_unbroken(const char *s, size_t len)
{
	UErrorCode	st = U_ZERO_ERROR;
	const UNormalizer2 *n = unorm2_getNFKCCasefoldInstance(&st);
	size_t		best = 0;
	size_t		run_start = 0;
	int32_t		i = 0;

	while ((size_t) i < len)
	{
		int32_t		at = i;
		UChar32		c;

		U8_NEXT((const uint8_t *) s, i, (int32_t) len, c);
		if (unorm2_hasBoundaryBefore(n, c))
			run_start = (size_t) at;
		else if ((size_t) i - run_start > best)
			best = (size_t) i - run_start;
	}
	return best;
}

typedef struct tokens
{
	size_t		n;
	size_t		cap;
	size_t	   *off;
	size_t	   *len;
} tokens;

static tfp_status
collect(void *arg, size_t off, size_t len)
{
	tokens	   *t = (tokens *) arg;

	if (t->n == t->cap)
	{
		t->cap = t->cap ? 2 * t->cap : 64;
		t->off = realloc(t->off, t->cap * sizeof(size_t));
		t->len = realloc(t->len, t->cap * sizeof(size_t));
	}
	t->off[t->n] = off;
	t->len[t->n] = len;
	t->n++;
	return TFP_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_alloc	a;
	tfp_env		env;
	tfp_options o;
	size_t		p;
	const char *text;
	size_t		len;
	char	   *whole = NULL;
	char	   *part = NULL;
	size_t		wlen = 0;
	size_t		plen = 0;

	if (size < 2)
		return 0;
	p = 8 + data[0];
	text = (const char *) data + 2;
	len = size - 2;
	if (!tfp_utf8_valid(text, len))
		return 0;
	fuzz_env_init(&env, &a);
	tfp_options_default(&o);
	o.simplify = (data[1] & 1) != 0;
	o.chinese = (data[1] & 4) ? TFP_CHINESE_MAINLAND : TFP_CHINESE_NONE;
	o.builtin_stopwords = 0;

	FUZZ_CHECK(tfp_normalize_chinese(&env, text, len, o.simplify, o.chinese, SIZE_MAX / 4,
									 &whole, &wlen) == TFP_OK);
	FUZZ_CHECK(tfp_normalize_chinese(&env, text, len, o.simplify, o.chinese, p,
									 &part, &plen) == TFP_OK);
	if (longest_unbroken(text, len) < p / 2)
		FUZZ_CHECK(plen == wlen && memcmp(part, whole, wlen) == 0);

	if (data[1] & 2)
	{
		tokens		ref = {0, 0, NULL, NULL};
		tokens		ours = {0, 0, NULL, NULL};
		UErrorCode	st = U_ZERO_ERROR;
		UBreakIterator *b = ubrk_open(UBRK_WORD, "zh", NULL, 0, &st);
		UText		ut = UTEXT_INITIALIZER;
		int32_t		prev;
		int32_t		pos;

		utext_openUTF8(&ut, whole, (int64_t) wlen, &st);
		ubrk_setUText(b, &ut, &st);
		prev = ubrk_first(b);
		while ((pos = ubrk_next(b)) != UBRK_DONE)
		{
			if (ubrk_getRuleStatus(b) >= UBRK_WORD_NONE_LIMIT)
				collect(&ref, (size_t) prev, (size_t) (pos - prev));
			prev = pos;
		}
		utext_close(&ut);
		ubrk_close(b);
		o.tokenizer = TFP_TOKENIZER_ICU;
		FUZZ_CHECK(tfp_tokenize_stream(&env, &o, whole, wlen, collect, &ours) == TFP_OK);
		FUZZ_CHECK(ref.n == ours.n);
		if (ref.n == ours.n && ref.n > 0)
		{
			FUZZ_CHECK(memcmp(ref.off, ours.off, ref.n * sizeof(size_t)) == 0);
			FUZZ_CHECK(memcmp(ref.len, ours.len, ref.n * sizeof(size_t)) == 0);
		}
		free(ref.off);
		free(ref.len);
		free(ours.off);
		free(ours.len);
	}
	env.free(env.ctx, whole);
	env.free(env.ctx, part);
	FUZZ_CHECK(a.live == 0);
	return 0;
}
