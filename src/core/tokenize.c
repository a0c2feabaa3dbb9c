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
#include <unicode/uscript.h>
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
 * The ICU tokenizer hands the whole text to ICU's word breaker, which works
 * through it incrementally: every call of ubrk_next() yields one segment,
 * and a cancel is answered between calls.  One call is long only when a
 * segment is: ICU's dictionary engine segments a whole run of Han (or Kana,
 * Thai, ...) at once, and the rules join some runs without spaces into one
 * word ("a@b.c.d...").  So a run of more than ICU_MAX_RUN code points is
 * cut: dictionary characters, or other characters without white space
 * (combining and format characters join their run).  A cut forces a word
 * boundary there, and only there; no text that has no such run (about
 * 200 kB of Chinese without punctuation) is tokenized differently from the
 * whole text at once.
 */
#define ICU_MAX_RUN 65536

enum run_kind
{
	RUN_SPACE,
	RUN_DICTIONARY,
	RUN_OTHER,
	RUN_JOINS					/* joins whatever run it follows */
};

static enum run_kind
run_kind(uint32_t c)
{
	UErrorCode	status = U_ZERO_ERROR;
	int			wb;
	UScriptCode sc;

	if (c < 0x80)
		return (c == ' ' || (c >= '\t' && c <= '\r')) ? RUN_SPACE : RUN_OTHER;
	wb = u_getIntPropertyValue((UChar32) c, UCHAR_WORD_BREAK);
	if (wb == U_WB_EXTEND || wb == U_WB_FORMAT || wb == U_WB_ZWJ)
		return RUN_JOINS;
	if (u_isUWhiteSpace((UChar32) c))
		return RUN_SPACE;
	sc = uscript_getScript((UChar32) c, &status);
	if (sc == USCRIPT_HAN || sc == USCRIPT_HIRAGANA || sc == USCRIPT_KATAKANA ||
		u_getIntPropertyValue((UChar32) c, UCHAR_LINE_BREAK) == U_LB_COMPLEX_CONTEXT)
		return RUN_DICTIONARY;
	return RUN_OTHER;
}

/* Where the piece that starts at from ends: len, or inside a run of max_run. */
static size_t
icu_piece_end(tfp_env *env, const char *text, size_t len, size_t from, size_t max_run)
{
	const unsigned char *s = (const unsigned char *) text;
	enum run_kind kind = RUN_SPACE;
	size_t		run = 0;
	size_t		i = from;
	size_t		steps = 0;

	while (i < len)
	{
		size_t		at = i;
		enum run_kind k = run_kind(next_cp(s, &i));

		if (k == RUN_JOINS)
			k = kind;
		if (k != kind || k == RUN_SPACE)
			run = 0;
		kind = k;
		if (k != RUN_SPACE && ++run > max_run)
			return at;
		if (env->check_interrupts && ++steps % INTERRUPT_EVERY == 0)
			env->check_interrupts(env->ctx);
	}
	return len;
}

static tfp_status
tokenize_icu(tfp_env *env, const char *text, size_t len, size_t max_run,
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
		size_t		to = icu_piece_end(env, text, len, from, max_run);
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
tfp_tokenize_runs(tfp_env *env, const tfp_options *opts, const char *text,
				  size_t len, size_t max_run, tfp_token_fn fn, void *arg)
{
	if (len > UINT32_MAX)
		return TFP_ETOOLONG;
	if (max_run < 1)
		max_run = 1;
	if (opts->tokenizer == TFP_TOKENIZER_ICU)
		return tokenize_icu(env, text, len, max_run, fn, arg);
	return tokenize_ngram(env, opts, text, len, fn, arg);
}

tfp_status
tfp_tokenize_stream(tfp_env *env, const tfp_options *opts, const char *text,
					size_t len, tfp_token_fn fn, void *arg)
{
	return tfp_tokenize_runs(env, opts, text, len, ICU_MAX_RUN, fn, arg);
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
