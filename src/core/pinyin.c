/*
 * pinyin.c: the pinyin first-letter signature (1.1).
 *
 * A homophone substitution (同音字: a character replaced by another of the
 * same reading, a common typo and a common way to dodge filters in Chinese
 * reprints) changes a text's characters, and so its n-grams, SimHash and
 * MinHash, but not its sound.  This signature reads only the first letter
 * of each Han character's pinyin, from ICU's "Han-Latin; Latin-ASCII"
 * transliteration of the character alone (no phrase context, so the letter
 * is a property of the character), and so does not see such a substitution
 * at all.  The letters are cut into windows where the letters themselves
 * decide (an inserted or dropped character moves only the cuts near it);
 * each window becomes a 26-bit code, bit a set where letter a is more
 * frequent in the window than the frozen reference distribution says (so one
 * changed letter rarely changes a code); a value packs two consecutive codes,
 * specific enough that unrelated texts rarely share one.
 */
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>
#include <unicode/utrans.h>

#include "tfp_sig.h"

/* Code points between interrupt checks. */
#define INTERRUPT_EVERY 4096

/* Opening the transliterator compiles its rules: once per process. */
static UTransliterator *han_latin = NULL;

/*
 * Letters already looked up, per code point of the two big Han ranges: 0 not
 * yet, 1 none, else 'a'..'z'.  Readings are a property of the character, so
 * a process keeps them; about 100 kB, touched only where text has Han.
 */
#define BMP_FIRST 0x3400
#define BMP_LAST 0x9FFF
#define SUP_FIRST 0x20000
#define SUP_LAST 0x323AF
static char bmp_cache[BMP_LAST - BMP_FIRST + 1];
static char sup_cache[SUP_LAST - SUP_FIRST + 1];

static char *
cache_slot(uint32_t cp)
{
	if (cp >= BMP_FIRST && cp <= BMP_LAST)
		return &bmp_cache[cp - BMP_FIRST];
	if (cp >= SUP_FIRST && cp <= SUP_LAST)
		return &sup_cache[cp - SUP_FIRST];
	return NULL;
}

static tfp_status
open_han_latin(tfp_env *env)
{
	static const char id[] = "Han-Latin; Latin-ASCII";
	UChar		uid[sizeof(id)];
	UErrorCode	status = U_ZERO_ERROR;

	if (han_latin != NULL)
		return TFP_OK;
	for (size_t i = 0; i < sizeof(id); i++)
		uid[i] = (UChar) id[i];
	han_latin = utrans_openU(uid, -1, UTRANS_FORWARD, NULL, 0, NULL, &status);
	if (U_FAILURE(status))
	{
		han_latin = NULL;
		env->icu_error = (int) status;
		return TFP_EICU;
	}
	return TFP_OK;
}

tfp_status
tfp_pinyin_letter(tfp_env *env, uint32_t cp, char *letter)
{
	UErrorCode	status = U_ZERO_ERROR;
	char	   *slot = cache_slot(cp);
	UChar		buf[32];
	int32_t		len = 0;
	int32_t		limit;
	tfp_status	rc;

	*letter = 0;
	if (slot != NULL && *slot != 0)
	{
		*letter = *slot == 1 ? 0 : *slot;
		return TFP_OK;
	}
	if (!tfp_is_cjk(cp) || uscript_getScript((UChar32) cp, &status) != USCRIPT_HAN)
		return TFP_OK;
	if ((rc = open_han_latin(env)) != TFP_OK)
		return rc;
	U16_APPEND_UNSAFE(buf, len, (UChar32) cp);
	limit = len;
	status = U_ZERO_ERROR;
	utrans_transUChars(han_latin, buf, &len, (int32_t) (sizeof(buf) / sizeof(buf[0])),
					   0, &limit, &status);
	if (U_FAILURE(status))
	{
		env->icu_error = (int) status;
		return TFP_EICU;
	}
	/* a reading is Latin letters; a character without one comes back as it was */
	if (len > 0 && buf[0] >= 'a' && buf[0] <= 'z')
		*letter = (char) buf[0];
	else if (len > 0 && buf[0] >= 'A' && buf[0] <= 'Z')
		*letter = (char) (buf[0] - 'A' + 'a');
	if (slot != NULL)
		*slot = *letter ? *letter : 1;
	return TFP_OK;
}

tfp_status
tfp_pinyin_letters(tfp_env *env, const char *text, size_t len, char **letters, size_t *n)
{
	const unsigned char *s = (const unsigned char *) text;
	char	   *out;
	size_t		i = 0;
	size_t		k = 0;
	size_t		steps = 0;

	/* a Han character takes 3 or 4 bytes: a third of the text is room enough */
	out = env->alloc(env->ctx, len / 3 + 1);
	if (out == NULL)
		return TFP_ENOMEM;
	while (i < len)
	{
		unsigned char c = s[i];
		uint32_t	cp;
		char		letter;
		tfp_status	rc;

		if (env->check_interrupts && ++steps % INTERRUPT_EVERY == 0)
			env->check_interrupts(env->ctx);
		if (c < 0xE0)
		{
			/* ASCII and two-byte sequences hold no Han */
			i += c < 0x80 ? 1 : 2;
			continue;
		}
		if (c < 0xF0)
		{
			cp = ((uint32_t) (c & 0x0F) << 12) | ((uint32_t) (s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
			i += 3;
		}
		else
		{
			cp = ((uint32_t) (c & 0x07) << 18) | ((uint32_t) (s[i + 1] & 0x3F) << 12) |
				((uint32_t) (s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
			i += 4;
		}
		if ((rc = tfp_pinyin_letter(env, cp, &letter)) != TFP_OK)
		{
			env->free(env->ctx, out);
			return rc;
		}
		if (letter)
			out[k++] = letter;
	}
	out[k] = '\0';
	*letters = out;
	*n = k;
	return TFP_OK;
}

/* True when a window may end after letters[i]: a hash of it and the two before. */
static bool
cut_after(const char *letters, size_t i, uint32_t every)
{
	char		tri[3];

	if (i < 2)
		return false;
	memcpy(tri, letters + i - 2, 3);
	return (tfp_hash(tri, 3, 0) >> 32) % every == 0;
}

/* Bit a set where letter a's count in the window exceeds its expected count. */
static uint32_t
window_code(const uint32_t *counts, size_t len)
{
	uint32_t	code = 0;

	for (int a = 0; a < TFP_PINYIN_LETTERS; a++)
		if ((uint64_t) counts[a] * 65536 > (uint64_t) len * tfp_pinyin_reference[a])
			code |= UINT32_C(1) << a;
	return code;
}

tfp_status
tfp_pinyin_windows(tfp_env *env, const char *letters, size_t n, int window,
				   uint64_t *out, size_t *nvalues)
{
	size_t		least = (size_t) window / 2;	/* shortest window */
	size_t		most = (size_t) window * 4;	/* longest: cut there whatever the letters */
	uint32_t	every = (uint32_t) (window - window / 2);	/* mean gap past the shortest */
	uint32_t	counts[TFP_PINYIN_LETTERS];
	uint32_t	prev = 0;
	size_t		nwin = 0;
	size_t		nout = 0;
	size_t		start = 0;
	tfp_status	rc;

	*nvalues = 0;
	if (n < least || n == 0)
		return TFP_OK;
	memset(counts, 0, sizeof(counts));
	for (size_t i = 0; i < n; i++)
	{
		size_t		wlen = i - start + 1;

		if (env->check_interrupts && (i + 1) % INTERRUPT_EVERY == 0)
			env->check_interrupts(env->ctx);

		counts[letters[i] - 'a']++;
		/* a window ends at a cut, unless what would be left is too short for one */
		if (wlen >= least && n - i - 1 >= least &&
			(wlen >= most || cut_after(letters, i, every)))
		{
			uint32_t	code = window_code(counts, wlen);

			if (nwin > 0)
				out[nout++] = ((uint64_t) prev << 32) | code;
			prev = code;
			nwin++;
			memset(counts, 0, sizeof(counts));
			start = i + 1;
		}
	}
	/* the last window takes what is left (at least `least` letters) */
	{
		uint32_t	code = window_code(counts, n - start);

		out[nout++] = nwin > 0 ? ((uint64_t) prev << 32) | code :
			((uint64_t) code << 32) | code;
	}
	if ((rc = tfp_sort_u64(env, out, nout, true)) != TFP_OK)
		return rc;
	{
		size_t		k = 0;

		for (size_t i = 0; i < nout; i++)
			if (k == 0 || out[k - 1] != out[i])
				out[k++] = out[i];
		*nvalues = k;
	}
	return TFP_OK;
}

tfp_status
tfp_pinyin_signature(tfp_env *env, const char *utf8, size_t len, int window,
					 uint64_t **out, size_t *n)
{
	char	   *norm;
	size_t		normlen;
	char	   *letters;
	size_t		nletters;
	uint64_t   *values;
	tfp_status	rc;

	if (window < TFP_PINYIN_WINDOW_MIN || window > TFP_PINYIN_WINDOW_MAX)
		return TFP_ETOOLONG;
	if ((rc = tfp_normalize(env, utf8, len, false, &norm, &normlen)) != TFP_OK)
		return rc;
	rc = tfp_pinyin_letters(env, norm, normlen, &letters, &nletters);
	env->free(env->ctx, norm);
	if (rc != TFP_OK)
		return rc;
	values = env->alloc(env->ctx, (nletters / ((size_t) window / 2) + 1) * sizeof(uint64_t));
	if (values == NULL)
	{
		env->free(env->ctx, letters);
		return TFP_ENOMEM;
	}
	rc = tfp_pinyin_windows(env, letters, nletters, window, values, n);
	env->free(env->ctx, letters);
	if (rc != TFP_OK)
	{
		env->free(env->ctx, values);
		return rc;
	}
	*out = values;
	return TFP_OK;
}

size_t
tfp_sorted_overlap(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t		i = 0;
	size_t		j = 0;
	size_t		common = 0;

	while (i < na && j < nb)
	{
		int64_t		x = (int64_t) a[i];
		int64_t		y = (int64_t) b[j];

		if (x == y)
		{
			common++;
			i++;
			j++;
		}
		else if (x < y)
			i++;
		else
			j++;
	}
	return common;
}
