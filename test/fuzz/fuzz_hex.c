/*
 * fuzz_hex.c: libFuzzer target for the simhash64 text form and popcount.
 *
 * Any input is offered to tfp_hex64_parse: it must accept exactly 16 hex
 * digits, and what it accepts must format back to the same digits in lower
 * case.  The first 8 bytes, read as a number, must survive format -> parse,
 * and popcount/Hamming distance must match a bit-by-bit count.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "tfp_core.h"

static int
naive_popcount(uint64_t x)
{
	int			n = 0;

	for (int i = 0; i < 64; i++)
		n += (int) ((x >> i) & 1);
	return n;
}

static bool
is_hex_digit(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t	v = UINT64_C(0xdeadbeefdeadbeef);
	char		buf[17];
	bool		want = size == 16;

	for (size_t i = 0; want && i < size; i++)
		want = is_hex_digit(data[i]);

	if (tfp_hex64_parse((const char *) data, size, &v))
	{
		FUZZ_CHECK(want);
		tfp_hex64_format(v, buf);
		FUZZ_CHECK(buf[16] == '\0');
		for (int i = 0; i < 16; i++)
		{
			uint8_t		c = data[i];

			if (c >= 'A' && c <= 'F')
				c = (uint8_t) (c - 'A' + 'a');
			FUZZ_CHECK(buf[i] == (char) c);
		}
	}
	else
	{
		FUZZ_CHECK(!want);
		FUZZ_CHECK(v == UINT64_C(0xdeadbeefdeadbeef));
	}

	if (size >= 8)
	{
		uint64_t	x;
		uint64_t	y = 0;
		uint64_t	back = 0;

		memcpy(&x, data, 8);
		if (size >= 16)
			memcpy(&y, data + 8, 8);
		tfp_hex64_format(x, buf);
		FUZZ_CHECK(strlen(buf) == 16);
		FUZZ_CHECK(tfp_hex64_parse(buf, 16, &back) && back == x);
		FUZZ_CHECK(tfp_popcount64(x) == naive_popcount(x));
		FUZZ_CHECK(tfp_hamming64(x, y) == naive_popcount(x ^ y));
		FUZZ_CHECK(tfp_hamming64(x, y) == tfp_hamming64(y, x));
	}
	return 0;
}
