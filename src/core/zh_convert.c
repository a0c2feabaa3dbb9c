/*
 * zh_convert.c: phrase tables applied to UTF-8 by maximum forward matching,
 * in pieces that give the same result as the whole text (tfp_zh.h).
 *
 * Pure C over a constant table: the same bytes on every platform, no ICU,
 * no allocation.  A code point that starts no key costs a bit test; one
 * that does, a binary search among the keys' first code points and a byte
 * comparison per candidate key.
 */
#include <string.h>

#include "tfp_zh.h"

/* Decode the code point at s of valid UTF-8; *n gets its length. */
static uint32_t
utf8_decode(const unsigned char *s, size_t *n)
{
	unsigned char c = s[0];

	if (c < 0x80)
	{
		*n = 1;
		return c;
	}
	if (c < 0xE0)
	{
		*n = 2;
		return ((uint32_t) (c & 0x1F) << 6) | (s[1] & 0x3F);
	}
	if (c < 0xF0)
	{
		*n = 3;
		return ((uint32_t) (c & 0x0F) << 12) | ((uint32_t) (s[1] & 0x3F) << 6) | (s[2] & 0x3F);
	}
	*n = 4;
	return ((uint32_t) (c & 0x07) << 18) | ((uint32_t) (s[1] & 0x3F) << 12) |
		((uint32_t) (s[2] & 0x3F) << 6) | (s[3] & 0x3F);
}

static const tfp_zh_first *
find_first(const tfp_zh_table *t, uint32_t cp)
{
	size_t		lo = 0;
	size_t		hi = t->nfirsts;

	if (cp < 0x10000 && !(t->bmp_starts[cp >> 6] & (UINT64_C(1) << (cp & 63))))
		return NULL;
	/* the few ASCII firsts come first: a look at them, not a search (English text) */
	if (cp < 0x80)
	{
		for (lo = 0; lo < t->nfirsts && t->firsts[lo].cp < cp; lo++)
			;
		return lo < t->nfirsts && t->firsts[lo].cp == cp ? &t->firsts[lo] : NULL;
	}
	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (t->firsts[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nfirsts && t->firsts[lo].cp == cp ? &t->firsts[lo] : NULL;
}

/* The longest key at in (len bytes there, cp its first code point), or NULL. */
static const tfp_zh_entry *
match_at(const tfp_zh_table *t, const unsigned char *in, size_t len, uint32_t cp)
{
	const tfp_zh_first *f = find_first(t, cp);
	/* every key here starts with cp: compare the byte after it first */
	size_t		n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;

	if (f == NULL)
		return NULL;
	for (uint32_t i = f->begin; i < f->begin + f->count; i++)
	{
		const tfp_zh_entry *e = &t->entries[i];

		if (e->key_len <= len &&
			(e->key_len == n || (unsigned char) t->pool[e->key + n] == in[n]) &&
			memcmp(t->pool + e->key, in, e->key_len) == 0)
			return e;
	}
	return NULL;
}

const tfp_zh_entry *
tfp_zh_match(const tfp_zh_table *table, const char *in, size_t len)
{
	size_t		n;

	if (len == 0)
		return NULL;
	return match_at(table, (const unsigned char *) in, len,
					utf8_decode((const unsigned char *) in, &n));
}

size_t
tfp_zh_convert(const tfp_zh_table *table, const char *in, size_t len,
			   bool final, char *out, size_t *outlen)
{
	const unsigned char *s = (const unsigned char *) in;
	size_t		i = 0;
	size_t		o = 0;
	size_t		plain = 0;		/* characters from here to i are copied as they are */
	/*
	 * The match at i depends on in[i .. i + max_key_bytes) only; without
	 * final, stop before a position whose window is not all there yet.
	 */
	size_t		stop = final ? len :
		len >= table->max_key_bytes ? len - table->max_key_bytes + 1 : 0;

	while (i < stop)
	{
		size_t		n;
		uint32_t	cp;
		const tfp_zh_entry *e;

		/* ASCII that starts no key (all but two letters): a bit test, copied in runs */
		if (s[i] < 0x80 && !(table->bmp_starts[s[i] >> 6] & (UINT64_C(1) << (s[i] & 63))))
		{
			i++;
			continue;
		}
		cp = utf8_decode(s + i, &n);
		e = match_at(table, s + i, len - i, cp);
		if (e == NULL)
		{
			i += n;
			continue;
		}
		memcpy(out + o, s + plain, i - plain);
		o += i - plain;
		memcpy(out + o, table->pool + e->value, e->value_len);
		o += e->value_len;
		i += e->key_len;
		plain = i;
	}
	memcpy(out + o, s + plain, i - plain);
	o += i - plain;
	*outlen = o;
	return i;
}
