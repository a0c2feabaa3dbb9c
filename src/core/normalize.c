/*
 * normalize.c: UTF-8 validation and Unicode normalisation through ICU.
 *
 * The pipeline sees every text as NFKC with case folding (full-width forms
 * become ASCII, compatibility characters their plain forms, case is folded),
 * optionally with Traditional Chinese converted to Simplified (ICU's
 * transliterator) and regional Chinese words to mainland ones (a frozen
 * table, zh_convert.c).  ASCII input takes a fast path that gives the same
 * bytes NFKC_Casefold would (no key of a table is all ASCII).
 */
#include <string.h>

#include <unicode/uclean.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>

#include "tfp_core.h"
#include "tfp_zh.h"

/* Opening a transliterator costs milliseconds: keep one per process. */
static UTransliterator *simplifier = NULL;

/* Validate from p up to at least stop (a sequence may run past it); NULL if invalid. */
static const unsigned char *
utf8_valid_upto(const unsigned char *p, const unsigned char *stop, const unsigned char *end)
{
	while (p < stop)
	{
		unsigned char c = *p;

		if (c < 0x80)
		{
			p++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
		{
			if (end - p < 2 || (p[1] & 0xC0) != 0x80)
				return NULL;
			p += 2;
		}
		else if (c >= 0xE0 && c <= 0xEF)
		{
			if (end - p < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
				return NULL;
			if (c == 0xE0 && p[1] < 0xA0)
				return NULL;	/* overlong */
			if (c == 0xED && p[1] >= 0xA0)
				return NULL;	/* surrogate */
			p += 3;
		}
		else if (c >= 0xF0 && c <= 0xF4)
		{
			if (end - p < 4 || (p[1] & 0xC0) != 0x80 ||
				(p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
				return NULL;
			if (c == 0xF0 && p[1] < 0x90)
				return NULL;	/* overlong */
			if (c == 0xF4 && p[1] >= 0x90)
				return NULL;	/* above U+10FFFF */
			p += 4;
		}
		else
			return NULL;
	}
	return p;
}

bool
tfp_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *) s;

	return utf8_valid_upto(p, p + len, p + len) != NULL;
}

/* The same, checking for interrupts every megabyte. */
static bool
utf8_valid_interruptible(tfp_env *env, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;

	while (p != NULL && p < end)
	{
		const unsigned char *stop = end - p > (1 << 20) ? p + (1 << 20) : end;

		p = utf8_valid_upto(p, stop, end);
		if (env->check_interrupts)
			env->check_interrupts(env->ctx);
	}
	return p != NULL;
}

static bool
is_ascii(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char) s[i] >= 0x80)
			return false;
	return true;
}

/* True if some UTF-16 unit is >= from (surrogates count as >= U+D800). */
static bool
has_unit_from(const UChar *s, int32_t len, UChar from)
{
	for (int32_t i = 0; i < len; i++)
		if (s[i] >= from)
			return true;
	return false;
}

static tfp_status
icu_failed(tfp_env *env, UErrorCode status)
{
	env->icu_error = (int) status;
	return TFP_EICU;
}

/* The process's Traditional-Simplified transliterator, opened on first use. */
static tfp_status
open_simplifier(tfp_env *env)
{
	static const UChar id[] = {'T', 'r', 'a', 'd', 'i', 't', 'i', 'o', 'n', 'a', 'l', '-',
	'S', 'i', 'm', 'p', 'l', 'i', 'f', 'i', 'e', 'd', 0};
	UErrorCode	status = U_ZERO_ERROR;

	if (simplifier != NULL)
		return TFP_OK;
	simplifier = utrans_openU(id, -1, UTRANS_FORWARD, NULL, 0, NULL, &status);
	if (U_FAILURE(status))
	{
		simplifier = NULL;
		return icu_failed(env, status);
	}
	return TFP_OK;
}

/*
 * Normalisation works in pieces of about this many UTF-8 bytes, so that no
 * ICU call takes long (a cancel is answered between pieces) and the UTF-16
 * buffers stay small.  A piece ends where NFKC_Casefold has a boundary
 * before the next character, so the pieces normalise to exactly what the
 * whole text would.  Only a run of more than half a piece without any
 * boundary (combining marks with no base character; no text in any language
 * has one: UAX #15 calls runs of over 30 degenerate) is cut without one.
 */
#define PIECE_BYTES		32768

/*
 * Before-context kept for the transliterator across pieces.  ICU 72's
 * Traditional-Simplified rules use none (phrases of up to 5 characters, no
 * context), so this only guards against a future version that does.
 */
#define SIMPLIFY_CONTEXT 16

typedef struct uchar_buf
{
	UChar	   *data;
	int32_t		len;
	int32_t		cap;
} uchar_buf;

typedef struct norm_state
{
	tfp_env    *env;
	const UNormalizer2 *nfkc_cf;
	bool		simplify;
	uchar_buf	piece;			/* one piece of input, UTF-16 */
	uchar_buf	norm;			/* the piece normalised */
	uchar_buf	trans;			/* context + text waiting for the transliterator */
	int32_t		trans_ctx;		/* units of trans that are context only */
	const tfp_zh_table *zh;		/* regional conversion, or NULL */
	char	   *zbuf;			/* normalised UTF-8 waiting for it */
	size_t		zlen;
	size_t		zcap;
	char	   *out;			/* normalised UTF-8 so far */
	size_t		outlen;
	size_t		outcap;
} norm_state;

static void
uchar_buf_free(tfp_env *env, uchar_buf *b)
{
	if (b->data)
		env->free(env->ctx, b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* Room for cap units in b, keeping its first b->len. */
static tfp_status
uchar_buf_reserve(tfp_env *env, uchar_buf *b, int64_t cap)
{
	UChar	   *nd;

	if (cap <= b->cap)
		return TFP_OK;
	if (cap > INT32_MAX / 2)
		return TFP_ENORMLONG;
	nd = tfp_grow(env, b->data, (size_t) b->len * sizeof(UChar), (size_t) cap * sizeof(UChar));
	if (nd == NULL)
		return TFP_ENOMEM;
	b->data = nd;
	b->cap = (int32_t) cap;
	return TFP_OK;
}

/* Room for extra more bytes and a NUL in the output (outlen is within its limit). */
static tfp_status
out_reserve(norm_state *st, size_t extra)
{
	size_t		need = st->outlen + extra + 1;

	if (need > st->outcap)
	{
		/* grow by half, but never much past the limit: that is an error */
		size_t		ncap = st->outcap + st->outcap / 2;
		size_t		most = TFP_MAX_NORMALIZED_BYTES + 1 + extra;
		char	   *nd;

		if (ncap < need)
			ncap = need;
		if (ncap > most)
			ncap = most;		/* still >= need: outlen <= the limit */
		nd = tfp_grow(st->env, st->out, st->outlen, ncap);
		if (nd == NULL)
			return TFP_ENOMEM;
		st->out = nd;
		st->outcap = ncap;
	}
	return TFP_OK;
}

/*
 * Convert what waits in zbuf as far as the text so far decides it (all of
 * it with final) into the output, and keep the rest (less than the longest
 * key) for the next piece.
 */
static tfp_status
zh_step(norm_state *st, bool final)
{
	size_t		done;
	size_t		written;
	tfp_status	rc;

	if (st->zlen == 0)
		return TFP_OK;
	if ((rc = out_reserve(st, st->zlen * st->zh->max_growth)) != TFP_OK)
		return rc;
	done = tfp_zh_convert(st->zh, st->zbuf, st->zlen, final, st->out + st->outlen, &written);
	st->outlen += written;
	memmove(st->zbuf, st->zbuf + done, st->zlen - done);
	st->zlen -= done;
	if (st->outlen > TFP_MAX_NORMALIZED_BYTES)
		return TFP_ENORMLONG;
	return TFP_OK;
}

/*
 * Append UTF-16 text to the UTF-8 output, which may not pass its limit;
 * through the regional conversion, when there is one.
 */
static tfp_status
emit_uchars(norm_state *st, const UChar *s, int32_t n)
{
	tfp_env    *env = st->env;
	UErrorCode	status = U_ZERO_ERROR;
	int32_t		written;
	tfp_status	rc;

	if (n == 0)
		return TFP_OK;
	if (st->zh != NULL)
	{
		size_t		need = st->zlen + (size_t) n * 3;	/* at most 3 bytes a unit */

		if (need > st->zcap)
		{
			char	   *nd = tfp_grow(env, st->zbuf, st->zlen, need);

			if (nd == NULL)
				return TFP_ENOMEM;
			st->zbuf = nd;
			st->zcap = need;
		}
		u_strToUTF8(st->zbuf + st->zlen, (int32_t) (st->zcap - st->zlen), &written,
					s, n, &status);
		if (U_FAILURE(status))
			return icu_failed(env, status);
		st->zlen += (size_t) written;
		return zh_step(st, false);
	}
	if ((rc = out_reserve(st, (size_t) n * 3)) != TFP_OK)
		return rc;
	u_strToUTF8(st->out + st->outlen, (int32_t) (st->outcap - st->outlen), &written,
				s, n, &status);
	if (U_FAILURE(status))
		return icu_failed(env, status);
	st->outlen += (size_t) written;
	if (st->outlen > TFP_MAX_NORMALIZED_BYTES)
		return TFP_ENORMLONG;
	return TFP_OK;
}

/*
 * Transliterate what is waiting in st->trans as far as it can be done
 * without seeing more text (ICU's incremental mode: a phrase rule may still
 * match across the end), emit that, and keep the rest with a little context.
 * With finish, everything is done and emitted.
 */
static tfp_status
simplify_step(norm_state *st, bool finish)
{
	tfp_env    *env = st->env;
	uchar_buf  *t = &st->trans;
	UTransPosition pos;
	UChar	   *saved;
	int32_t		len;
	int32_t		done;
	int32_t		keep;
	tfp_status	rc;

	if (t->len == st->trans_ctx)
		return TFP_OK;
	/* a copy to retry from, should ICU need more room than we gave it */
	saved = env->alloc(env->ctx, (size_t) t->len * sizeof(UChar));
	if (saved == NULL)
		return TFP_ENOMEM;
	memcpy(saved, t->data, (size_t) t->len * sizeof(UChar));
	for (;;)
	{
		UErrorCode	status = U_ZERO_ERROR;

		len = t->len;
		pos.contextStart = 0;
		pos.contextLimit = len;
		pos.start = st->trans_ctx;
		pos.limit = len;
		if (finish)
		{
			int32_t		limit = len;

			utrans_transUChars(simplifier, t->data, &len, t->cap, st->trans_ctx, &limit, &status);
			pos.start = len;
		}
		else
			utrans_transIncrementalUChars(simplifier, t->data, &len, t->cap, &pos, &status);
		if (status == U_BUFFER_OVERFLOW_ERROR)
		{
			memcpy(t->data, saved, (size_t) t->len * sizeof(UChar));
			if ((rc = uchar_buf_reserve(env, t, (int64_t) t->cap * 2)) != TFP_OK)
			{
				env->free(env->ctx, saved);
				return rc;
			}
			continue;
		}
		env->free(env->ctx, saved);
		if (U_FAILURE(status))
			return icu_failed(env, status);
		break;
	}
	t->len = len;
	done = pos.start;
	if ((rc = emit_uchars(st, t->data + st->trans_ctx, done - st->trans_ctx)) != TFP_OK)
		return rc;
	/* keep the pending text and a little of what came before it */
	keep = done > SIMPLIFY_CONTEXT ? done - SIMPLIFY_CONTEXT : 0;
	memmove(t->data, t->data + keep, (size_t) (t->len - keep) * sizeof(UChar));
	t->len -= keep;
	st->trans_ctx = done - keep;
	return TFP_OK;
}

/* The normalised piece, through the transliterator when asked. */
static tfp_status
emit_piece(norm_state *st)
{
	tfp_status	rc;

	/*
	 * ICU 72's Traditional-Simplified changes only characters from U+2E80 up
	 * (CJK, and the corner brackets U+300C/U+300D): a piece with none, and no
	 * text still waiting, goes out as it is, without the transliterator.
	 */
	if (!st->simplify ||
		(st->trans.len == st->trans_ctx && !has_unit_from(st->norm.data, st->norm.len, 0x2E80)))
	{
		if (st->simplify && st->norm.len > 0)
		{
			/* its end is the context of what comes next */
			int32_t		ctx = st->norm.len < SIMPLIFY_CONTEXT ? st->norm.len : SIMPLIFY_CONTEXT;

			memcpy(st->trans.data, st->norm.data + st->norm.len - ctx, (size_t) ctx * sizeof(UChar));
			st->trans.len = st->trans_ctx = ctx;
		}
		return emit_uchars(st, st->norm.data, st->norm.len);
	}
	rc = uchar_buf_reserve(st->env, &st->trans, (int64_t) (st->trans.len + st->norm.len) * 2 + 16);
	if (rc != TFP_OK)
		return rc;
	memcpy(st->trans.data + st->trans.len, st->norm.data, (size_t) st->norm.len * sizeof(UChar));
	st->trans.len += st->norm.len;
	return simplify_step(st, false);
}

/* Decode the code point at s[i] of valid UTF-8; *n gets its length. */
static uint32_t
utf8_at(const unsigned char *s, size_t i, int *n)
{
	unsigned char c = s[i];

	if (c < 0x80)
	{
		*n = 1;
		return c;
	}
	if (c < 0xE0)
	{
		*n = 2;
		return ((uint32_t) (c & 0x1F) << 6) | (s[i + 1] & 0x3F);
	}
	if (c < 0xF0)
	{
		*n = 3;
		return ((uint32_t) (c & 0x0F) << 12) | ((uint32_t) (s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
	}
	*n = 4;
	return ((uint32_t) (c & 0x07) << 18) | ((uint32_t) (s[i + 1] & 0x3F) << 12) |
		((uint32_t) (s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
}

/* Where the piece that starts at from ends (see PIECE_BYTES). */
static size_t
piece_end(const UNormalizer2 *nfkc_cf, const char *in, size_t len, size_t from,
		  size_t piece_bytes)
{
	const unsigned char *s = (const unsigned char *) in;
	size_t		i = from + piece_bytes;
	size_t		hard = from + piece_bytes + piece_bytes / 2;

	if (i >= len)
		return len;
	while (i < len && (s[i] & 0xC0) == 0x80)
		i++;					/* to the start of a code point */
	while (i < len && i < hard)
	{
		int			n;
		uint32_t	cp = utf8_at(s, i, &n);

		if (unorm2_hasBoundaryBefore(nfkc_cf, (UChar32) cp))
			return i;
		i += (size_t) n;
	}
	while (i < len && (s[i] & 0xC0) == 0x80)
		i++;
	return i;
}

bool
tfp_chinese_table(tfp_chinese chinese, const char **name, const char **sha256,
				  uint64_t *digest)
{
	const tfp_zh_table *t;

	switch (chinese)
	{
		case TFP_CHINESE_MAINLAND:
			t = &tfp_zh_mainland_table;
			break;
		default:
			return false;
	}
	*name = t->name;
	*sha256 = t->sha256;
	*digest = t->digest;
	return true;
}

tfp_status
tfp_normalize_chinese(tfp_env *env, const char *in, size_t len, bool simplify,
					  tfp_chinese chinese, size_t piece_bytes, char **out, size_t *outlen)
{
	UErrorCode	status = U_ZERO_ERROR;
	norm_state	st;
	size_t		from = 0;
	tfp_status	rc = TFP_OK;

	if (len > TFP_MAX_INPUT_BYTES)
		return TFP_ETOOLONG;
	if (!utf8_valid_interruptible(env, in, len))
		return TFP_EUTF8;

	/* NFKC_Casefold of ASCII is ASCII lower-casing; Han needs no simplifying. */
	if (is_ascii(in, len))
	{
		char	   *res = env->alloc(env->ctx, len + 1);

		if (res == NULL)
			return TFP_ENOMEM;
		for (size_t i = 0; i < len; i++)
		{
			char		c = in[i];

			res[i] = (c >= 'A' && c <= 'Z') ? (char) (c + ('a' - 'A')) : c;
			if (env->check_interrupts && (i & 0xFFFFF) == 0xFFFFF)
				env->check_interrupts(env->ctx);
		}
		res[len] = '\0';
		*out = res;
		*outlen = len;
		return TFP_OK;
	}

	memset(&st, 0, sizeof(st));
	st.env = env;
	st.simplify = simplify;
	st.zh = chinese == TFP_CHINESE_MAINLAND ? &tfp_zh_mainland_table : NULL;
	st.nfkc_cf = unorm2_getNFKCCasefoldInstance(&status);
	if (U_FAILURE(status))
		return icu_failed(env, status);
	if (simplify && (rc = open_simplifier(env)) != TFP_OK)
		return rc;
	if (piece_bytes == 0)
		piece_bytes = PIECE_BYTES;
	if (piece_bytes > len)
		piece_bytes = len;

	/* normalising rarely grows text: start from its length */
	st.outcap = len + len / 8 + 64;
	if (st.outcap > TFP_MAX_NORMALIZED_BYTES + 1)
		st.outcap = TFP_MAX_NORMALIZED_BYTES + 1;
	st.out = env->alloc(env->ctx, st.outcap);
	if (st.out == NULL)
		return TFP_ENOMEM;
	/* UTF-16 never needs more code units than UTF-8 has bytes */
	rc = uchar_buf_reserve(env, &st.piece, (int64_t) (piece_bytes + piece_bytes / 2 + 8));
	if (rc == TFP_OK)
		rc = uchar_buf_reserve(env, &st.norm, (int64_t) st.piece.cap * 2);
	if (rc == TFP_OK && simplify)
		rc = uchar_buf_reserve(env, &st.trans, (int64_t) st.piece.cap * 2 + SIMPLIFY_CONTEXT);

	while (rc == TFP_OK && from < len)
	{
		size_t		to = piece_end(st.nfkc_cf, in, len, from, piece_bytes);
		int32_t		nlen;

		status = U_ZERO_ERROR;
		u_strFromUTF8(st.piece.data, st.piece.cap, &st.piece.len, in + from,
					  (int32_t) (to - from), &status);
		if (U_FAILURE(status))
		{
			rc = icu_failed(env, status);
			break;
		}
		for (;;)
		{
			status = U_ZERO_ERROR;
			nlen = unorm2_normalize(st.nfkc_cf, st.piece.data, st.piece.len,
									st.norm.data, st.norm.cap, &status);
			if (status != U_BUFFER_OVERFLOW_ERROR)
				break;
			/* an expansion (U+FDFA gives 18 characters): room, and again */
			st.norm.len = 0;
			if ((rc = uchar_buf_reserve(env, &st.norm, (int64_t) nlen + 1)) != TFP_OK)
				break;
		}
		if (rc != TFP_OK)
			break;
		if (U_FAILURE(status))
		{
			rc = icu_failed(env, status);
			break;
		}
		st.norm.len = nlen;
		rc = emit_piece(&st);
		from = to;
		if (env->check_interrupts)
			env->check_interrupts(env->ctx);
	}
	if (rc == TFP_OK && simplify)
		rc = simplify_step(&st, true);
	if (rc == TFP_OK && st.zh != NULL)
		rc = zh_step(&st, true);

	uchar_buf_free(env, &st.piece);
	uchar_buf_free(env, &st.norm);
	uchar_buf_free(env, &st.trans);
	if (st.zbuf)
		env->free(env->ctx, st.zbuf);
	if (rc != TFP_OK)
	{
		env->free(env->ctx, st.out);
		return rc;
	}
	st.out[st.outlen] = '\0';
	*out = st.out;
	*outlen = st.outlen;
	return TFP_OK;
}

tfp_status
tfp_normalize_pieces(tfp_env *env, const char *in, size_t len, bool simplify,
					 size_t piece_bytes, char **out, size_t *outlen)
{
	return tfp_normalize_chinese(env, in, len, simplify, TFP_CHINESE_NONE,
								 piece_bytes ? piece_bytes : 1, out, outlen);
}

tfp_status
tfp_normalize(tfp_env *env, const char *in, size_t len, bool simplify,
			  char **out, size_t *outlen)
{
	return tfp_normalize_chinese(env, in, len, simplify, TFP_CHINESE_NONE, 0, out, outlen);
}

void
tfp_icu_version(char *buf, size_t buflen)
{
	UVersionInfo v;
	char		s[U_MAX_VERSION_STRING_LENGTH];

	u_getVersion(v);
	u_versionToString(v, s);
	strncpy(buf, s, buflen - 1);
	buf[buflen - 1] = '\0';
}

void
tfp_unicode_version(char *buf, size_t buflen)
{
	UVersionInfo v;
	char		s[U_MAX_VERSION_STRING_LENGTH];

	u_getUnicodeVersion(v);
	u_versionToString(v, s);
	strncpy(buf, s, buflen - 1);
	buf[buflen - 1] = '\0';
}
