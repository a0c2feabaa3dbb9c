/*
 * bits.c: 64-bit fingerprint helpers: popcount and the hex text form.
 */
#include "tfp_core.h"

int
tfp_popcount64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_popcountll(x);
#else
	/* SWAR fallback for compilers without the builtin. */
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int) ((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

int
tfp_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool
tfp_hex64_parse(const char *s, size_t len, uint64_t *out)
{
	uint64_t	v = 0;

	if (len != 16)
		return false;
	for (size_t i = 0; i < 16; i++)
	{
		int			d = tfp_hex_digit(s[i]);

		if (d < 0)
			return false;
		v = (v << 4) | (uint64_t) d;
	}
	*out = v;
	return true;
}

void
tfp_hex64_format(uint64_t v, char *buf)
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 15; i >= 0; i--)
	{
		buf[i] = digits[v & 0xf];
		v >>= 4;
	}
	buf[16] = '\0';
}
