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

/* Code points between interrupt checks. */
#define INTERRUPT_EVERY 4096

static UBreakIterator *word_breaker = NULL;

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

/*
 * The default tokenizer, streaming: words as they end, and the character
 * n-grams of a CJK run as soon as their last character is known.  A run of
 * at most n characters is one token, so lone characters still count.  An
 * n-gram runs from the start of its first character to the start of the
 * character after its last (marks between them belong to it) or to the end
 * of the run.  Memory does not grow with the text: the last n + 1 character
 * offsets of the run are all it keeps.
 */
typedef struct ngram_run
{
	size_t		starts[TFP_MAX_NGRAM + 1];	/* ring of character offsets */
	size_t		nchars;
} ngram_run;

static tfp_status
tokenize_ngram(tfp_env *env, const tfp_options *opts, const char *text,
			   size_t len, tfp_token_fn fn, void *arg)
{
	const unsigned char *s = (const unsigned char *) text;
	size_t		n = (size_t) opts->ngram;
	size_t		ring = n + 1;
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
				if (env->check_interrupts && ++steps % INTERRUPT_EVERY == 0)
					env->check_interrupts(env->ctx);
			}
			rc = fn(arg, at, end - at);
		}
		else if (cls == CP_CJK)
		{
			ngram_run run;

			run.starts[0] = at;
			run.nchars = 1;
			while (end < len && rc == TFP_OK)
			{
				size_t		j = end;
				enum cp_class k = classify(next_cp(s, &j));

				if (k == CP_CJK)
				{
					/* character nchars starts here: the n-gram before it is complete */
					if (run.nchars >= n)
					{
						size_t		first = run.starts[(run.nchars - n) % ring];

						rc = fn(arg, first, end - first);
					}
					run.starts[run.nchars % ring] = end;
					run.nchars++;
				}
				else if (k != CP_MARK)
					break;
				end = j;
				if (env->check_interrupts && ++steps % INTERRUPT_EVERY == 0)
					env->check_interrupts(env->ctx);
			}
			/* the last n-gram ends with the run; a short run is one token */
			if (rc == TFP_OK)
			{
				size_t		first = run.nchars <= n ? at :
					run.starts[(run.nchars - n) % ring];

				rc = fn(arg, first, end - first);
			}
		}
		i = end;
	}
	return rc;
}

/*
 * The ICU tokenizer works in pieces: ICU's dictionary break engine segments
 * a whole run of Han (or Thai, ...) in one call, and would not answer a
 * cancel for seconds on a long run.  A piece of about ICU_PIECE_BYTES ends
 * where Unicode's word-break rules always break whatever follows (after a
 * character of Word_Break class Other, such as Chinese punctuation, or after
 * a space or line break, when no combining or format character follows), so
 * the pieces give the tokens the whole text would.  Only a run of more than
 * 4 pieces, 256 KiB, without such a place (about 87,000 Chinese characters
 * without punctuation, or a "word" of a quarter megabyte) is cut without one.
 */
#define ICU_PIECE_BYTES		65536

/*
 * True when ICU's word-break rules put a boundary between prev and next
 * whatever surrounds them.  Word_Break class Other alone is not enough: Han,
 * Kana and Thai are Other too, and ICU's dictionary joins them into words;
 * punctuation, symbols, spaces and controls of class Other never join.
 */
static bool
always_breaks(uint32_t prev, uint32_t next)
{
	int			wp = u_getIntPropertyValue((UChar32) prev, UCHAR_WORD_BREAK);
	int			wn = u_getIntPropertyValue((UChar32) next, UCHAR_WORD_BREAK);
	uint32_t	gp = U_GET_GC_MASK((UChar32) prev);

	/* next attaches to prev (WB4), or spaces stay together (WB3d) */
	if (wn == U_WB_EXTEND || wn == U_WB_FORMAT || wn == U_WB_ZWJ)
		return false;
	if (wp == U_WB_NEWLINE || wp == U_WB_LF)
		return true;
	if (wp == U_WB_WSEGSPACE)
		return wn != U_WB_WSEGSPACE;
	return wp == U_WB_OTHER &&
		(gp & (U_GC_P_MASK | U_GC_S_MASK | U_GC_Z_MASK | U_GC_CC_MASK)) != 0;
}

/* The end of the piece that starts at from. */
static size_t
icu_piece_end(const char *text, size_t len, size_t from, size_t piece_bytes)
{
	const unsigned char *s = (const unsigned char *) text;
	size_t		i = from + piece_bytes;
	size_t		hard = from + 4 * piece_bytes;
	uint32_t	prev;

	if (i >= len)
		return len;
	while ((s[i] & 0xC0) == 0x80)
		i--;					/* to the start of a code point (i > from) */
	{
		size_t		j = i - 1;

		while ((s[j] & 0xC0) == 0x80)
			j--;
		prev = next_cp(s, &j);
	}
	while (i < len && i < hard)
	{
		size_t		j = i;
		uint32_t	cp = next_cp(s, &j);

		if (always_breaks(prev, cp))
			return i;
		prev = cp;
		i = j;
	}
	while (i < len && (s[i] & 0xC0) == 0x80)
		i++;
	return i;
}

static tfp_status
tokenize_icu(tfp_env *env, const char *text, size_t len, size_t piece_bytes,
			 tfp_token_fn fn, void *arg)
{
	UErrorCode	status = U_ZERO_ERROR;
	size_t		from = 0;
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
	while (rc == TFP_OK && from < len)
	{
		size_t		to = icu_piece_end(text, len, from, piece_bytes);
		UText		ut = UTEXT_INITIALIZER;	/* on the stack: nothing to free */
		int32_t		prev;
		int32_t		pos;

		status = U_ZERO_ERROR;
		utext_openUTF8(&ut, text + from, (int64_t) (to - from), &status);
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
				rc = fn(arg, from + (size_t) prev, (size_t) (pos - prev));
			prev = pos;
			if (env->check_interrupts && ++steps % INTERRUPT_EVERY == 0)
				env->check_interrupts(env->ctx);
		}
		utext_close(&ut);
		from = to;
		if (env->check_interrupts)
			env->check_interrupts(env->ctx);
	}
	return rc;
}

tfp_status
tfp_tokenize_pieces(tfp_env *env, const tfp_options *opts, const char *text,
					size_t len, size_t piece_bytes, tfp_token_fn fn, void *arg)
{
	if (len > UINT32_MAX)
		return TFP_ETOOLONG;
	if (piece_bytes < 4)
		piece_bytes = 4;
	if (opts->tokenizer == TFP_TOKENIZER_ICU)
		return tokenize_icu(env, text, len, piece_bytes, fn, arg);
	return tokenize_ngram(env, opts, text, len, fn, arg);
}

tfp_status
tfp_tokenize_stream(tfp_env *env, const tfp_options *opts, const char *text,
					size_t len, tfp_token_fn fn, void *arg)
{
	return tfp_tokenize_pieces(env, opts, text, len, ICU_PIECE_BYTES, fn, arg);
}

/* tfp_tokenize collects the stream into an array. */
typedef struct span_vec
{
	tfp_env    *env;
	tfp_span   *items;
	size_t		n;
	size_t		cap;
} span_vec;

static tfp_status
span_push(void *arg, size_t off, size_t len)
{
	span_vec   *v = (span_vec *) arg;

	if (v->n == v->cap)
	{
		size_t		ncap = v->cap ? v->cap * 2 : 64;
		tfp_span   *nitems = tfp_grow(v->env, v->items, v->n * sizeof(tfp_span),
									  ncap * sizeof(tfp_span));

		if (nitems == NULL)
			return TFP_ENOMEM;
		v->items = nitems;
		v->cap = ncap;
	}
	v->items[v->n].off = (uint32_t) off;
	v->items[v->n].len = (uint32_t) len;
	v->n++;
	return TFP_OK;
}

tfp_status
tfp_tokenize(tfp_env *env, const tfp_options *opts, const char *text,
			 size_t len, tfp_span **tokens, size_t *ntokens)
{
	span_vec	out = {env, NULL, 0, 0};
	tfp_status	rc = tfp_tokenize_stream(env, opts, text, len, span_push, &out);

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
