/*
 * test_exact.c: unit cases for textfp_exact's hash (exact.c).  Included by
 * test_core.c.  The golden values are XXH3-128's published output, so a
 * change of hash, byte order or version bits fails here.
 */

static void
exact_uuid_golden(void)
{
	static const uint8_t empty[16] = {0x99, 0xaa, 0x06, 0xd3, 0x01, 0x47, 0x88, 0xd8,
	0xa0, 0x01, 0xc3, 0x24, 0x46, 0x8d, 0x49, 0x7f};
	static const uint8_t hello[16] = {0xdf, 0x8d, 0x09, 0xe9, 0x3f, 0x87, 0x89, 0x00,
	0xa9, 0x9b, 0x87, 0x75, 0xcc, 0x15, 0xb6, 0xc7};
	uint8_t		out[16];

	/* XXH3-128("") = 99aa06d3014798d8 6001c324468d497f, version 8, variant 10 */
	tfp_exact_uuid("", 0, out);
	CHECK(memcmp(out, empty, 16) == 0);
	tfp_exact_uuid("hello world", 11, out);
	CHECK(memcmp(out, hello, 16) == 0);
}

static void
exact_squeeze_spaces(void)
{
	char		a[] = "  a \t\n b  c ";
	char		b[] = " \t ";
	size_t		n = tfp_exact_squeeze(a, strlen(a));

	CHECK_INT_EQ((int) n, 5);
	CHECK(memcmp(a, "a b c", 5) == 0);
	CHECK_INT_EQ((int) tfp_exact_squeeze(b, strlen(b)), 0);
}

static void
exact_normalises(void)
{
	uint8_t		x[16],
				y[16];
	bool		empty;

	CHECK_INT_EQ(tfp_exact(&env, "  Hello   World ", 16, false, x, &empty), TFP_OK);
	CHECK(!empty);
	CHECK_INT_EQ(tfp_exact(&env, "hello world", 11, false, y, &empty), TFP_OK);
	CHECK(memcmp(x, y, 16) == 0);
	CHECK_INT_EQ(tfp_exact(&env, " \n ", 3, false, x, &empty), TFP_OK);
	CHECK(empty);
	CHECK_INT_EQ(tfp_exact(&env, "\xc3", 1, false, x, &empty), TFP_EUTF8);
}
