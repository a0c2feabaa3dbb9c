/*
 * normalize.c: UTF-8 validation and Unicode normalisation through ICU.
 *
 * The pipeline sees every text as NFKC with case folding (full-width forms
 * become ASCII, compatibility characters their plain forms, case is folded),
 * optionally with Traditional Chinese converted to Simplified.  ASCII input
 * takes a fast path that gives the same bytes NFKC_Casefold would.
 */
#include <string.h>

#include <unicode/uclean.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>

#include "tfp_core.h"

/* Opening a transliterator costs milliseconds: keep one per process. */
static UTransliterator *simplifier = NULL;

bool
tfp_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;

	while (p < end)
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
				return false;
			p += 2;
		}
		else if (c >= 0xE0 && c <= 0xEF)
		{
			if (end - p < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
				return false;
			if (c == 0xE0 && p[1] < 0xA0)
				return false;	/* overlong */
			if (c == 0xED && p[1] >= 0xA0)
				return false;	/* surrogate */
			p += 3;
		}
		else if (c >= 0xF0 && c <= 0xF4)
		{
			if (end - p < 4 || (p[1] & 0xC0) != 0x80 ||
				(p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
				return false;
			if (c == 0xF0 && p[1] < 0x90)
				return false;	/* overlong */
			if (c == 0xF4 && p[1] >= 0x90)
				return false;	/* above U+10FFFF */
			p += 4;
		}
		else
			return false;
	}
	return true;
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

/* Run the Traditional-Simplified transliterator over buf in place. */
static tfp_status
simplify_uchars(tfp_env *env, UChar **buf, int32_t *len, int32_t *cap)
{
	UErrorCode	status = U_ZERO_ERROR;

	if (simplifier == NULL)
	{
		static const UChar id[] = {'T', 'r', 'a', 'd', 'i', 't', 'i', 'o', 'n', 'a', 'l', '-',
		'S', 'i', 'm', 'p', 'l', 'i', 'f', 'i', 'e', 'd', 0};

		simplifier = utrans_openU(id, -1, UTRANS_FORWARD, NULL, 0, NULL, &status);
		if (U_FAILURE(status))
		{
			simplifier = NULL;
			return icu_failed(env, status);
		}
	}

	for (;;)
	{
		UChar	   *work;
		int32_t		wlen = *len;
		int32_t		limit = *len;

		work = env->alloc(env->ctx, (size_t) *cap * sizeof(UChar));
		if (work == NULL)
			return TFP_ENOMEM;
		memcpy(work, *buf, (size_t) *len * sizeof(UChar));
		status = U_ZERO_ERROR;
		utrans_transUChars(simplifier, work, &wlen, *cap, 0, &limit, &status);
		if (status == U_BUFFER_OVERFLOW_ERROR)
		{
			env->free(env->ctx, work);
			if (*cap > INT32_MAX / 2)
				return TFP_ETOOLONG;
			*cap *= 2;
			continue;
		}
		if (U_FAILURE(status))
		{
			env->free(env->ctx, work);
			return icu_failed(env, status);
		}
		env->free(env->ctx, *buf);
		*buf = work;
		*len = wlen;
		return TFP_OK;
	}
}

tfp_status
tfp_normalize(tfp_env *env, const char *in, size_t len, bool simplify,
			  char **out, size_t *outlen)
{
	UErrorCode	status = U_ZERO_ERROR;
	const UNormalizer2 *nfkc_cf;
	UChar	   *u16 = NULL;
	UChar	   *norm = NULL;
	int32_t		u16len;
	int32_t		normlen;
	int32_t		normcap;
	int32_t		u8len;
	char	   *res;
	tfp_status	rc;

	if (len > TFP_MAX_INPUT_BYTES)
		return TFP_ETOOLONG;
	if (!tfp_utf8_valid(in, len))
		return TFP_EUTF8;

	/* NFKC_Casefold of ASCII is ASCII lower-casing; Han needs no simplifying. */
	if (is_ascii(in, len))
	{
		res = env->alloc(env->ctx, len + 1);
		if (res == NULL)
			return TFP_ENOMEM;
		for (size_t i = 0; i < len; i++)
		{
			char		c = in[i];

			res[i] = (c >= 'A' && c <= 'Z') ? (char) (c + ('a' - 'A')) : c;
		}
		res[len] = '\0';
		*out = res;
		*outlen = len;
		return TFP_OK;
	}

	nfkc_cf = unorm2_getNFKCCasefoldInstance(&status);
	if (U_FAILURE(status))
		return icu_failed(env, status);

	/* UTF-16 never needs more code units than UTF-8 has bytes. */
	u16 = env->alloc(env->ctx, (len + 1) * sizeof(UChar));
	if (u16 == NULL)
		return TFP_ENOMEM;
	u_strFromUTF8(u16, (int32_t) len + 1, &u16len, in, (int32_t) len, &status);
	if (U_FAILURE(status))
	{
		env->free(env->ctx, u16);
		return icu_failed(env, status);
	}

	/* Normalising rarely grows text; retry once with the exact size if so. */
	normcap = u16len + u16len / 8 + 16;
	for (;;)
	{
		norm = env->alloc(env->ctx, (size_t) normcap * sizeof(UChar));
		if (norm == NULL)
		{
			env->free(env->ctx, u16);
			return TFP_ENOMEM;
		}
		status = U_ZERO_ERROR;
		normlen = unorm2_normalize(nfkc_cf, u16, u16len, norm, normcap, &status);
		if (status == U_BUFFER_OVERFLOW_ERROR && normlen >= normcap)
		{
			env->free(env->ctx, norm);
			normcap = normlen + 1;
			continue;
		}
		break;
	}
	env->free(env->ctx, u16);
	if (U_FAILURE(status))
	{
		env->free(env->ctx, norm);
		return icu_failed(env, status);
	}

	/*
	 * ICU 72's Traditional-Simplified changes only characters from U+2E80 up
	 * (CJK, and the corner brackets U+300C/U+300D); text with none is left as
	 * it is without paying for the rule-based transliterator.
	 */
	if (simplify && has_unit_from(norm, normlen, 0x2E80))
	{
		if (normcap < normlen + 16)
			normcap = normlen + 16;
		rc = simplify_uchars(env, &norm, &normlen, &normcap);
		if (rc != TFP_OK)
		{
			env->free(env->ctx, norm);
			return rc;
		}
	}

	/* Each UTF-16 code unit becomes at most 3 UTF-8 bytes. */
	if ((size_t) normlen > (SIZE_MAX - 1) / 3)
	{
		env->free(env->ctx, norm);
		return TFP_ETOOLONG;
	}
	res = env->alloc(env->ctx, (size_t) normlen * 3 + 1);
	if (res == NULL)
	{
		env->free(env->ctx, norm);
		return TFP_ENOMEM;
	}
	status = U_ZERO_ERROR;
	u_strToUTF8(res, normlen * 3 + 1, &u8len, norm, normlen, &status);
	env->free(env->ctx, norm);
	if (U_FAILURE(status))
	{
		env->free(env->ctx, res);
		return icu_failed(env, status);
	}
	res[u8len] = '\0';
	*out = res;
	*outlen = (size_t) u8len;
	return TFP_OK;
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
