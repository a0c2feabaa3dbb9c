/*
 * sentences.c: the signature of a text's longest sentences (1.1).
 *
 * A reprint that reorders sentences or paragraphs, or edits only some of
 * them, keeps most of its sentences word for word, and the longest ones are
 * the most specific: two unrelated texts rarely share a long sentence.  The
 * signature is the set of hashes of the k longest distinct sentences, so it
 * does not depend on their order at all, and an edit outside them changes
 * nothing.
 *
 * Sentences are ICU's sentence breaks (UAX #29 through ICU's root rules) of
 * the text as written: case folding first would hide the capital letter
 * that tells a full stop from an abbreviation.  Hard-wrapped text has line
 * breaks inside its sentences, which UAX #29 takes as paragraph ends, so
 * white space is folded first: a run with two or more line breaks (a blank
 * line) ends a paragraph, any other run becomes one space.  Each sentence is
 * then normalised (NFKC_Casefold) and reduced to its tokens (words, and CJK
 * characters one by one), joined by one space: punctuation, spacing, width
 * and case do not change its hash.
 *
 * Memory does not grow with the text beyond the caller's copy of it:
 * paragraphs go to ICU in pieces of at most TFP_SENTENCE_PIECE_BYTES; the
 * last sentence of a full piece waits for the next one, so a piece ends
 * inside a sentence only where one sentence fills a whole piece.
 */
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/utext.h>

#include "tfp_sig.h"

/* Bytes copied at most between interrupt checks while folding white space. */
#define RUN_BYTES 4096
/* Bytes validated between interrupt checks. */
#define VALIDATE_SLICE (1024 * 1024)

static UBreakIterator *sentence_breaker = NULL;

typedef struct sentence_state
{
	tfp_env    *env;
	tfp_sentence_fn fn;
	void	   *arg;
	size_t		piece_bytes;
	char	   *piece;			/* folded text of the current paragraph */
	size_t		len;
	size_t		cap;
	char	   *canon;			/* one sentence's tokens, joined */
	size_t		canon_len;
	size_t		canon_cap;
	size_t		canon_cps;		/* code points of its tokens */
	const char *norm;			/* the normalised sentence being tokenised */
} sentence_state;

static tfp_status
canon_add(void *arg, size_t off, size_t len)
{
	sentence_state *st = arg;
	size_t		need = st->canon_len + len + 2;

	if (need > st->canon_cap)
	{
		size_t		ncap = need * 2;
		char	   *nd = tfp_grow(st->env, st->canon, st->canon_len, ncap);

		if (nd == NULL)
			return TFP_ENOMEM;
		st->canon = nd;
		st->canon_cap = ncap;
	}
	if (st->canon_len > 0)
		st->canon[st->canon_len++] = ' ';
	memcpy(st->canon + st->canon_len, st->norm + off, len);
	st->canon_len += len;
	for (size_t i = 0; i < len; i++)
		if (((unsigned char) st->norm[off + i] & 0xC0) != 0x80)
			st->canon_cps++;
	return TFP_OK;
}

/* One sentence of the folded text: normalised, tokenised, handed on. */
static tfp_status
emit_sentence(sentence_state *st, const char *s, size_t len)
{
	static const tfp_options tokens = {.ngram = 1, .shingle = 1};
	char	   *norm;
	size_t		normlen;
	tfp_status	rc;

	while (len > 0 && s[0] == ' ')
		s++, len--;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\n'))
		len--;
	if (len == 0)
		return TFP_OK;
	if ((rc = tfp_normalize(st->env, s, len, false, &norm, &normlen)) != TFP_OK)
		return rc;
	st->norm = norm;
	st->canon_len = 0;
	st->canon_cps = 0;
	rc = tfp_tokenize_stream(st->env, &tokens, norm, normlen, canon_add, st);
	st->env->free(st->env->ctx, norm);
	if (rc == TFP_OK && st->canon_len > 0)
		rc = st->fn(st->arg, st->canon, st->canon_len, st->canon_cps);
	return rc;
}

static tfp_status
open_breaker(tfp_env *env)
{
	UErrorCode	status = U_ZERO_ERROR;

	if (sentence_breaker != NULL)
		return TFP_OK;
	sentence_breaker = ubrk_open(UBRK_SENTENCE, "", NULL, 0, &status);
	if (U_FAILURE(status))
	{
		sentence_breaker = NULL;
		env->icu_error = (int) status;
		return TFP_EICU;
	}
	return TFP_OK;
}

/*
 * The sentences of the piece.  Unless the paragraph ends here, the last one
 * may go on in the next piece: it stays in the buffer, unless it is the
 * whole piece.
 */
static tfp_status
flush_piece(sentence_state *st, bool paragraph_end)
{
	tfp_env    *env = st->env;
	UErrorCode	status = U_ZERO_ERROR;
	UText		ut = UTEXT_INITIALIZER;
	int32_t		prev;
	int32_t		pos;
	size_t		steps = 0;
	tfp_status	rc = TFP_OK;

	if (st->len == 0)
		return TFP_OK;
	utext_openUTF8(&ut, st->piece, (int64_t) st->len, &status);
	ubrk_setUText(sentence_breaker, &ut, &status);
	if (U_FAILURE(status))
	{
		utext_close(&ut);
		env->icu_error = (int) status;
		return TFP_EICU;
	}
	prev = ubrk_first(sentence_breaker);
	while (rc == TFP_OK && (pos = ubrk_next(sentence_breaker)) != UBRK_DONE)
	{
		if (!paragraph_end && (size_t) pos == st->len && prev > 0)
			break;				/* the last sentence waits for the rest */
		rc = emit_sentence(st, st->piece + prev, (size_t) (pos - prev));
		prev = pos;
		if (env->check_interrupts && ++steps % 64 == 0)
			env->check_interrupts(env->ctx);
	}
	utext_close(&ut);
	if (rc != TFP_OK)
		return rc;
	if ((size_t) prev < st->len && !paragraph_end && prev > 0)
	{
		memmove(st->piece, st->piece + prev, st->len - (size_t) prev);
		st->len -= (size_t) prev;
	}
	else
		st->len = 0;
	return TFP_OK;
}

/* Append whole code points to the piece; a full piece goes to the breaker. */
static tfp_status
piece_add(sentence_state *st, const char *s, size_t n)
{
	tfp_status	rc;

	if (st->len + n > st->cap)
	{
		size_t		ncap = st->len + n + st->piece_bytes / 2 + 16;
		char	   *nd = tfp_grow(st->env, st->piece, st->len, ncap);

		if (nd == NULL)
			return TFP_ENOMEM;
		st->piece = nd;
		st->cap = ncap;
	}
	memcpy(st->piece + st->len, s, n);
	st->len += n;
	if (st->len >= st->piece_bytes && (rc = flush_piece(st, false)) != TFP_OK)
		return rc;
	return TFP_OK;
}

/* Valid UTF-8, checked a slice at a time with interrupt checks between. */
static bool
utf8_valid_sliced(tfp_env *env, const char *s, size_t len)
{
	size_t		from = 0;

	while (from < len)
	{
		size_t		to = len - from > VALIDATE_SLICE ? from + VALIDATE_SLICE : len;

		/* end the slice before a code point, backing off its continuation bytes */
		while (to < len && to > from && ((unsigned char) s[to] & 0xC0) == 0x80)
			to--;
		if (to == from)
			return false;
		if (!tfp_utf8_valid(s + from, to - from))
			return false;
		from = to;
		if (env->check_interrupts)
			env->check_interrupts(env->ctx);
	}
	return true;
}

static bool
is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

tfp_status
tfp_sentences(tfp_env *env, const char *utf8, size_t len, size_t piece_bytes,
			  tfp_sentence_fn fn, void *arg)
{
	sentence_state st;
	size_t		i = 0;
	size_t		steps = 0;
	tfp_status	rc = TFP_OK;

	if (len > TFP_MAX_INPUT_BYTES)
		return TFP_ETOOLONG;
	if (!utf8_valid_sliced(env, utf8, len))
		return TFP_EUTF8;
	if ((rc = open_breaker(env)) != TFP_OK)
		return rc;
	memset(&st, 0, sizeof(st));
	st.env = env;
	st.fn = fn;
	st.arg = arg;
	st.piece_bytes = piece_bytes ? piece_bytes : TFP_SENTENCE_PIECE_BYTES;

	while (rc == TFP_OK && i < len)
	{
		/* a step copies at most RUN_BYTES (or skips one run of white space) */
		if (env->check_interrupts && ++steps % 256 == 0)
			env->check_interrupts(env->ctx);
		if (is_space((unsigned char) utf8[i]))
		{
			int			breaks = 0;

			for (; i < len && is_space((unsigned char) utf8[i]); i++)
				if (utf8[i] == '\n' || (utf8[i] == '\r' && (i + 1 == len || utf8[i + 1] != '\n')))
					breaks++;
			if (breaks >= 2)
				rc = flush_piece(&st, true);
			else if (st.len > 0)
				rc = piece_add(&st, " ", 1);
		}
		else
		{
			/* a run of other bytes, at most RUN_BYTES, ending with a whole code point */
			size_t		j = i;

			while (j < len && j - i < RUN_BYTES && j - i < st.piece_bytes && !is_space((unsigned char) utf8[j]))
				j++;
			while (j < len && ((unsigned char) utf8[j] & 0xC0) == 0x80)
				j++;
			rc = piece_add(&st, utf8 + i, j - i);
			i = j;
		}
	}
	if (rc == TFP_OK)
		rc = flush_piece(&st, true);
	if (st.piece)
		env->free(env->ctx, st.piece);
	if (st.canon)
		env->free(env->ctx, st.canon);
	return rc;
}

/* The k best sentences so far: longer first, then the smaller hash. */
typedef struct top_sentences
{
	int			k;
	int			n;
	int			min_length;
	uint64_t	hash[TFP_SENTENCES_K_MAX];
	size_t		length[TFP_SENTENCES_K_MAX];
} top_sentences;

static bool
better(size_t len_a, uint64_t h_a, size_t len_b, uint64_t h_b)
{
	return len_a > len_b || (len_a == len_b && h_a < h_b);
}

static tfp_status
top_add(void *arg, const char *canon, size_t len, size_t length)
{
	top_sentences *t = arg;
	uint64_t	h;
	int			at;

	if (length < (size_t) t->min_length)
		return TFP_OK;
	h = tfp_hash(canon, len, 0);
	if (t->n == t->k && !better(length, h, t->length[t->n - 1], t->hash[t->n - 1]))
		return TFP_OK;
	for (int i = 0; i < t->n; i++)
		if (t->hash[i] == h && t->length[i] == length)
			return TFP_OK;		/* the same sentence again */
	at = t->n < t->k ? t->n : t->k - 1;
	while (at > 0 && better(length, h, t->length[at - 1], t->hash[at - 1]))
	{
		t->hash[at] = t->hash[at - 1];
		t->length[at] = t->length[at - 1];
		at--;
	}
	t->hash[at] = h;
	t->length[at] = length;
	if (t->n < t->k)
		t->n++;
	return TFP_OK;
}

tfp_status
tfp_sentence_signature_pieces(tfp_env *env, const char *utf8, size_t len, int k,
							  int min_length, size_t piece_bytes, uint64_t *out, size_t *n)
{
	top_sentences t;
	tfp_status	rc;

	if (k < 1 || k > TFP_SENTENCES_K_MAX || min_length < 0 ||
		min_length > TFP_SENTENCE_MIN_LENGTH_MAX)
		return TFP_ETOOLONG;
	t.k = k;
	t.n = 0;
	t.min_length = min_length;
	if ((rc = tfp_sentences(env, utf8, len, piece_bytes, top_add, &t)) != TFP_OK)
		return rc;
	memcpy(out, t.hash, (size_t) t.n * sizeof(uint64_t));
	*n = (size_t) t.n;
	return tfp_sort_u64(env, out, *n, true);
}

tfp_status
tfp_sentence_signature(tfp_env *env, const char *utf8, size_t len, int k,
					   int min_length, uint64_t *out, size_t *n)
{
	return tfp_sentence_signature_pieces(env, utf8, len, k, min_length, 0, out, n);
}
