/*
 * exact.c: textfp_exact's 128-bit hash of a normalised text.
 *
 * The text is normalised as the pipeline does it (NFKC, case folding,
 * optionally Traditional-to-Simplified), runs of white space become one
 * space and the ends are trimmed, so that reprints differing only in case,
 * width or spacing hash alike.  The hash is XXH3-128 with seed 0 (frozen
 * since xxHash 0.8.0), written big-endian (XXH128_canonicalFromHash: the
 * high 64 bits first), then stamped as an RFC 9562 version 8 UUID: byte 6's
 * high nibble is 8 and byte 8's two high bits are 10, leaving 122 hash bits.
 */
#define XXH_INLINE_ALL
#include <xxhash.h>
#include <string.h>

#include "tfp_core.h"

static bool
is_space(unsigned char ch)
{
	/* after NFKC, U+00A0, U+3000 and the other Zs spaces are U+0020 */
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* Collapses white space in place; returns the new length. */
size_t
tfp_exact_squeeze(char *s, size_t len)
{
	size_t		out = 0;
	bool		pending = false;

	for (size_t i = 0; i < len; i++)
	{
		if (is_space((unsigned char) s[i]))
		{
			pending = out > 0;
			continue;
		}
		if (pending)
			s[out++] = ' ';
		pending = false;
		s[out++] = s[i];
	}
	return out;
}

void
tfp_exact_uuid(const char *norm, size_t len, uint8_t out[16])
{
	XXH128_hash_t h = XXH3_128bits_withSeed(norm, len, 0);
	XXH128_canonical_t canon;

	XXH128_canonicalFromHash(&canon, h);
	memcpy(out, canon.digest, 16);
	out[6] = (uint8_t) ((out[6] & 0x0f) | 0x80);	/* version 8 */
	out[8] = (uint8_t) ((out[8] & 0x3f) | 0x80);	/* variant 10 */
}

tfp_status
tfp_exact(tfp_env *env, const char *in, size_t len, bool simplify, uint8_t out[16], bool *empty)
{
	char	   *norm;
	size_t		nlen;
	tfp_status	rc = tfp_normalize(env, in, len, simplify, &norm, &nlen);

	if (rc != TFP_OK)
		return rc;
	nlen = tfp_exact_squeeze(norm, nlen);
	*empty = nlen == 0;
	tfp_exact_uuid(norm, nlen, out);
	if (env->free)
		env->free(env->ctx, norm);
	return TFP_OK;
}
