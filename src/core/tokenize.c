/*
 * tokenize.c: split normalised text into tokens.
 *
 * The default tokenizer needs from ICU only each code point's general
 * category: letters, marks and digits form words, runs of Han, Kana and
 * Hangul (fixed code point ranges, so a new ICU does not move them) become
 * character n-grams, everything else separates.  The "icu" tokenizer uses
 * ICU's dictionary word break instead, whose results follow the ICU version.
 */
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>

#include "tfp_core.h"

#define INTERRUPT_EVERY 65536

static UBreakIterator *word_breaker = NULL;

typedef struct span_vec
{
	tfp_span   *items;
	size_t		n;
	size_t		cap;
} span_vec;

static tfp_status
span_push(tfp_env *env, span_vec *v, size_t off, size_t len)
{
	if (v->n == v->cap)
	{
		size_t		ncap = v->cap ? v->cap * 2 : 64;
		tfp_span   *nitems = env->alloc(env->ctx, ncap * sizeof(tfp_span));

		if (nitems == NULL)
			return TFP_ENOMEM;
		if (v->n)
			memcpy(nitems, v->items, v->n * sizeof(tfp_span));
		if (v->items)
			env->free(env->ctx, v->items);
		v->items = nitems;
		v->cap = ncap;
	}
	v->items[v->n].off = (uint32_t) off;
	v->items[v->n].len = (uint32_t) len;
	v->n++;
	return TFP_OK;
}

bool
tfp_is_cjk(uint32_t c)
{
	return (c >= 0x1100 && c <= 0x11FF) ||	/* Hangul Jamo */
		(c >= 0x2E80 && c <= 0x2FDF) ||	/* CJK and Kangxi radicals */
		c == 0x3005 || c == 0x3007 ||	/* iteration mark, ideographic zero */
		(c >= 0x3021 && c <= 0x3029) ||	/* Hangzhou numerals */
		(c >= 0x3038 && c <= 0x303B) ||
		(c >= 0x3041 && c <= 0x309F) ||	/* Hiragana */
		(c >= 0x30A1 && c <= 0x30FA) ||	/* Katakana, without its punctuation */
		(c >= 0x30FC && c <= 0x30FF) ||
		(c >= 0x3105 && c <= 0x312F) ||	/* Bopomofo */
		(c >= 0x3131 && c <= 0x318F) ||	/* Hangul compatibility Jamo */
		(c >= 0x31A0 && c <= 0x31BF) ||	/* Bopomofo extended */
		(c >= 0x31F0 && c <= 0x31FF) ||	/* Katakana phonetic extensions */
		(c >= 0x3400 && c <= 0x4DBF) ||	/* CJK extension A */
		(c >= 0x4E00 && c <= 0x9FFF) ||	/* CJK unified ideographs */
		(c >= 0xA960 && c <= 0xA97F) ||	/* Hangul Jamo extended A */
		(c >= 0xAC00 && c <= 0xD7FF) ||	/* Hangul syllables, Jamo ext. B */
		(c >= 0xF900 && c <= 0xFAFF) ||	/* CJK compatibility ideographs */
		(c >= 0x20000 && c <= 0x323AF);	/* CJK extensions B-H, supplement */
}

/* Decode one code point of valid UTF-8 at s[*i], advancing *i. */
static uint32_t
next_cp(const unsigned char *s, size_t *i)
{
	unsigned char c = s[*i];

	if (c < 0x80)
	{
		*i += 1;
		return c;
	}
	if (c < 0xE0)
	{
		uint32_t	cp = ((uint32_t) (c & 0x1F) << 6) | (s[*i + 1] & 0x3F);

		*i += 2;
		return cp;
	}
	if (c < 0xF0)
	{
		uint32_t	cp = ((uint32_t) (c & 0x0F) << 12) |
			((uint32_t) (s[*i + 1] & 0x3F) << 6) | (s[*i + 2] & 0x3F);

		*i += 3;
		return cp;
	}
	{
		uint32_t	cp = ((uint32_t) (c & 0x07) << 18) |
			((uint32_t) (s[*i + 1] & 0x3F) << 12) |
			((uint32_t) (s[*i + 2] & 0x3F) << 6) | (s[*i + 3] & 0x3F);

		*i += 4;
		return cp;
	}
}

enum cp_class
{
	CP_SEP,
	CP_WORD,
	CP_CJK,
	CP_MARK						/* combining mark: continues the current run */
};

static enum cp_class
classify(uint32_t c)
{
	uint32_t	gc;

	/* ASCII fast path, same answer as the general category. */
	if (c < 0x80)
		return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				(c >= '0' && c <= '9')) ? CP_WORD : CP_SEP;

	gc = U_GET_GC_MASK((UChar32) c);
	if (tfp_is_cjk(c))
		return (gc & (U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK | U_GC_CN_MASK)) ?
			CP_CJK : CP_SEP;
	if (gc & U_GC_M_MASK)
		return CP_MARK;
	if (gc & (U_GC_L_MASK | U_GC_N_MASK))
		return CP_WORD;
	return CP_SEP;
}

/* Emit the character n-grams of one CJK run, given its char offsets. */
static tfp_status
emit_ngrams(tfp_env *env, span_vec *out, const uint32_t *starts, size_t nchars,
			size_t run_end, int n)
{
	tfp_status	rc;

	/* A run shorter than n is one token, so lone characters still count. */
	if (nchars <= (size_t) n)
		return span_push(env, out, starts[0], run_end - starts[0]);

	for (size_t i = 0; i + (size_t) n <= nchars; i++)
	{
		size_t		end = (i + (size_t) n < nchars) ? starts[i + n] : run_end;

		rc = span_push(env, out, starts[i], end - starts[i]);
		if (rc != TFP_OK)
			return rc;
	}
	return TFP_OK;
}

/* Append a char offset to the current CJK run, growing the buffer. */
static tfp_status
starts_push(tfp_env *env, uint32_t **starts, size_t *n, size_t *cap, size_t off)
{
	if (*n == *cap)
	{
		size_t		ncap = *cap ? *cap * 2 : 256;
		uint32_t   *nbuf = env->alloc(env->ctx, ncap * sizeof(uint32_t));

		if (nbuf == NULL)
			return TFP_ENOMEM;
		if (*n)
			memcpy(nbuf, *starts, *n * sizeof(uint32_t));
		if (*starts)
			env->free(env->ctx, *starts);
		*starts = nbuf;
		*cap = ncap;
	}
	(*starts)[(*n)++] = (uint32_t) off;
	return TFP_OK;
}

static tfp_status
tokenize_ngram(tfp_env *env, const tfp_options *opts, const char *text,
			   size_t len, span_vec *out)
{
	const unsigned char *s = (const unsigned char *) text;
	uint32_t   *starts = NULL;	/* char offsets of the current CJK run */
	size_t		nstarts = 0;
	size_t		cap = 0;
	size_t		i = 0;
	size_t		steps = 0;
	tfp_status	rc = TFP_OK;

	while (i < len && rc == TFP_OK)
	{
		size_t		at = i;
		enum cp_class cls = classify(next_cp(s, &i));
		size_t		end = i;

		if (env->check_interrupts && ++steps % INTERRUPT_EVERY == 0)
			env->check_interrupts(env->ctx);

		if (cls == CP_WORD || cls == CP_MARK)
		{
			/* letters, digits and marks up to the next other character */
			while (end < len)
			{
				size_t		j = end;
				enum cp_class k = classify(next_cp(s, &j));

				if (k != CP_WORD && k != CP_MARK)
					break;
				end = j;
			}
			rc = span_push(env, out, at, end - at);
		}
		else if (cls == CP_CJK)
		{
			nstarts = 0;
			rc = starts_push(env, &starts, &nstarts, &cap, at);
			while (end < len && rc == TFP_OK)
			{
				size_t		j = end;
				enum cp_class k = classify(next_cp(s, &j));

				if (k == CP_CJK)
					rc = starts_push(env, &starts, &nstarts, &cap, end);
				else if (k != CP_MARK)
					break;
				end = j;
			}
			if (rc == TFP_OK)
				rc = emit_ngrams(env, out, starts, nstarts, end, opts->ngram);
		}
		i = end;
	}
	if (starts)
		env->free(env->ctx, starts);
	return rc;
}

static tfp_status
tokenize_icu(tfp_env *env, const char *text, size_t len, span_vec *out)
{
	UErrorCode	status = U_ZERO_ERROR;
	UText		ut = UTEXT_INITIALIZER;	/* on the stack: nothing to free */
	int32_t		prev;
	int32_t		pos;
	size_t		steps = 0;
	tfp_status	rc = TFP_OK;

	if (word_breaker == NULL)
	{
		word_breaker = ubrk_open(UBRK_WORD, "zh", NULL, 0, &status);
		if (U_FAILURE(status))
		{
			word_breaker = NULL;
			env->icu_error = (int) status;
			return TFP_EICU;
		}
	}
	utext_openUTF8(&ut, text, (int64_t) len, &status);
	ubrk_setUText(word_breaker, &ut, &status);
	if (U_FAILURE(status))
	{
		env->icu_error = (int) status;
		return TFP_EICU;
	}

	/* UTF-8 UText: boundaries are byte offsets.  Keep words, not spaces. */
	prev = ubrk_first(word_breaker);
	while (rc == TFP_OK && (pos = ubrk_next(word_breaker)) != UBRK_DONE)
	{
		if (ubrk_getRuleStatus(word_breaker) >= UBRK_WORD_NONE_LIMIT)
			rc = span_push(env, out, (size_t) prev, (size_t) (pos - prev));
		prev = pos;
		if (env->check_interrupts && ++steps % INTERRUPT_EVERY == 0)
			env->check_interrupts(env->ctx);
	}
	utext_close(&ut);
	return rc;
}

tfp_status
tfp_tokenize(tfp_env *env, const tfp_options *opts, const char *text,
			 size_t len, tfp_span **tokens, size_t *ntokens)
{
	span_vec	out = {NULL, 0, 0};
	tfp_status	rc;

	if (len > UINT32_MAX)
		return TFP_ETOOLONG;
	if (opts->tokenizer == TFP_TOKENIZER_ICU)
		rc = tokenize_icu(env, text, len, &out);
	else
		rc = tokenize_ngram(env, opts, text, len, &out);
	if (rc != TFP_OK)
	{
		if (out.items)
			env->free(env->ctx, out.items);
		return rc;
	}
	*tokens = out.items;
	*ntokens = out.n;
	return TFP_OK;
}
