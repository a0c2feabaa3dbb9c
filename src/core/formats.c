/*
 * formats.c: the text and binary forms of hamming_ball and minhash_sig,
 * parsed and checked without PostgreSQL, so that the input and receive
 * functions' logic runs under the fuzzer too.  The glue turns each
 * tfp_form_error into an ereport with the SQLSTATE core's input functions
 * use: syntax 22P02, out of range 22003, binary 22P03.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"

/* Exactly 8 hex digits at *p (before end); advances past them. */
static bool
hex32(const char **p, const char *end, uint32_t *out)
{
	uint32_t	v = 0;

	if (end - *p < 8)
		return false;
	for (int i = 0; i < 8; i++)
	{
		int			d = tfp_hex_digit((*p)[i]);

		if (d < 0)
			return false;
		v = (v << 4) | (uint32_t) d;
	}
	*p += 8;
	*out = v;
	return true;
}

/*
 * A decimal integer at *p: an optional "-", then digits without a leading
 * zero (unless it is "0"); no "+", no spaces.  *out is clamped to the
 * int64 range, and *overflow says whether it was.
 */
static bool
decimal(const char **p, const char *end, int64_t *out, bool *overflow)
{
	const char *s = *p;
	bool		neg = false;
	uint64_t	v = 0;
	int			digits = 0;

	*overflow = false;
	if (s < end && *s == '-')
	{
		neg = true;
		s++;
	}
	if (end - s >= 2 && s[0] == '0' && s[1] >= '0' && s[1] <= '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++, digits++)
	{
		if (v > (UINT64_MAX - 9) / 10)
			*overflow = true;
		else
			v = v * 10 + (uint64_t) (*s - '0');
	}
	if (digits == 0 || (neg && v == 0 && !*overflow))
		return false;
	if (neg ? v > (uint64_t) INT64_MAX + 1 : v > (uint64_t) INT64_MAX)
		*overflow = true;
	if (*overflow)
		*out = neg ? INT64_MIN : INT64_MAX;
	else
		*out = neg ? (int64_t) (0 - v) : (int64_t) v;
	*p = s;
	return true;
}

static bool
literal(const char **p, const char *end, const char *lit)
{
	size_t		n = strlen(lit);

	if ((size_t) (end - *p) < n || memcmp(*p, lit, n) != 0)
		return false;
	*p += n;
	return true;
}

tfp_form_error
tfp_hamming_ball_parse(const char *s, size_t len, uint64_t *center, int64_t *radius)
{
	const char *end = s + len;
	const char *slash = memchr(s, '/', len);
	const char *p;
	bool		overflow;

	if (slash == NULL || !tfp_hex64_parse(s, (size_t) (slash - s), center))
		return TFP_FORM_SYNTAX;
	p = slash + 1;
	if (!decimal(&p, end, radius, &overflow) || p != end)
		return TFP_FORM_SYNTAX;
	if (overflow || *radius < 0 || *radius > SIMHASH_BITS)
		return TFP_FORM_RADIUS;
	return TFP_FORM_OK;
}

tfp_form_error
tfp_minhash_sig_parse(const char *s, size_t len, tfp_minhash_header *h,
					  uint32_t *values, int64_t *found)
{
	const char *p = s;
	const char *end = s + len;
	int64_t		k;
	bool		k_overflow;
	bool		seed_overflow;

	*found = 0;
	if (literal(&p, end, "oph32:"))
		h->method = TFP_MINHASH_OPH;
	else if (literal(&p, end, "kperm32:"))
		h->method = TFP_MINHASH_KPERM;
	else
		return TFP_FORM_SYNTAX;
	h->value_bits = 32;
	if (!literal(&p, end, "k=") || !decimal(&p, end, &k, &k_overflow) ||
		!literal(&p, end, ":seed=") || !decimal(&p, end, &h->seed, &seed_overflow) ||
		!literal(&p, end, ":pipe=") || !hex32(&p, end, &h->pipeline) ||
		!literal(&p, end, ":"))
		return TFP_FORM_SYNTAX;
	if (seed_overflow)
		return TFP_FORM_SYNTAX;	/* the seed is any bigint: more is not a seed */
	if (k_overflow || k < 1 || k > TFP_MINHASH_K_MAX)
	{
		*found = k;
		return TFP_FORM_K;
	}
	h->k = (int) k;
	if ((size_t) (end - p) != (size_t) k * 8)
	{
		*found = (int64_t) (end - p);
		return TFP_FORM_DIGITS;
	}
	for (int i = 0; i < k; i++)
		if (!hex32(&p, end, &values[i]))
			return TFP_FORM_SYNTAX;
	return TFP_FORM_OK;
}

size_t
tfp_minhash_sig_format(const tfp_minhash_header *h, const uint32_t *values, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	int			n = snprintf(buf, size, "%s%d:k=%d:seed=%lld:pipe=%08x:",
							 h->method == TFP_MINHASH_OPH ? "oph" :
							 h->method == TFP_MINHASH_KPERM ? "kperm" : "?",
							 h->value_bits, h->k, (long long) h->seed, (unsigned) h->pipeline);
	size_t		used;

	if (n < 0)
		return 0;
	used = (size_t) n;
	for (int i = 0; i < h->k; i++)
		for (int sh = 28; sh >= 0; sh -= 4)
		{
			if (used + 1 < size)
				buf[used] = hex[(values[i] >> sh) & 0xf];
			used++;
		}
	if (size > 0)
		buf[used < size ? used : size - 1] = '\0';
	return used;
}

/* Big-endian integers, as PostgreSQL's binary protocol writes them. */
static uint64_t
get_be(const uint8_t *p, int bytes)
{
	uint64_t	v = 0;

	for (int i = 0; i < bytes; i++)
		v = (v << 8) | p[i];
	return v;
}

static void
put_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t) v;
}

tfp_form_error
tfp_minhash_sig_decode(const uint8_t *buf, size_t len, tfp_minhash_header *h,
					   uint32_t *values, size_t *used)
{
	*used = 0;
	if (len < TFP_MINHASH_BINARY_HEADER)
		return TFP_FORM_SHORT;
	h->method = buf[0];
	h->value_bits = buf[1];
	h->k = (int) get_be(buf + 2, 2);
	h->pipeline = (uint32_t) get_be(buf + 4, 4);
	h->seed = (int64_t) get_be(buf + 8, 8);
	if ((h->method != TFP_MINHASH_OPH && h->method != TFP_MINHASH_KPERM) || h->value_bits != 32)
		return TFP_FORM_METHOD;
	if (h->k < 1 || h->k > TFP_MINHASH_K_MAX)
		return TFP_FORM_K;
	if (len - TFP_MINHASH_BINARY_HEADER < (size_t) h->k * 4)
		return TFP_FORM_SHORT;
	for (int i = 0; i < h->k; i++)
		values[i] = (uint32_t) get_be(buf + TFP_MINHASH_BINARY_HEADER + 4 * i, 4);
	*used = TFP_MINHASH_BINARY_HEADER + (size_t) h->k * 4;
	return TFP_FORM_OK;
}

size_t
tfp_minhash_sig_encode(const tfp_minhash_header *h, const uint32_t *values, uint8_t *buf)
{
	buf[0] = (uint8_t) h->method;
	buf[1] = (uint8_t) h->value_bits;
	put_be(buf + 2, (uint64_t) h->k, 2);
	put_be(buf + 4, h->pipeline, 4);
	put_be(buf + 8, (uint64_t) h->seed, 8);
	for (int i = 0; i < h->k; i++)
		put_be(buf + TFP_MINHASH_BINARY_HEADER + 4 * i, values[i], 4);
	return TFP_MINHASH_BINARY_HEADER + (size_t) h->k * 4;
}

tfp_form_error
tfp_threshold_check(double t)
{
	return t >= 0.0 && t <= 1.0 ? TFP_FORM_OK : TFP_FORM_THRESHOLD;	/* NaN too */
}

tfp_form_error
tfp_threshold_parse(const char *s, size_t len, double *t)
{
	char		buf[64];
	char	   *endp;

	/* a number as strtod reads it, nothing before or after */
	if (len == 0 || len >= sizeof(buf) || s[0] == ' ' || s[0] == '\t' ||
		s[0] == '\n' || s[0] == '\r' || s[0] == '\f' || s[0] == '\v' ||
		memchr(s, '\0', len) != NULL)
		return TFP_FORM_SYNTAX;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*t = strtod(buf, &endp);
	if (endp != buf + len)
		return TFP_FORM_SYNTAX;
	/* overflow, NaN, infinities and numbers outside 0..1: out of range */
	if (errno == ERANGE && fabs(*t) > 1.0)
		return TFP_FORM_THRESHOLD;
	return tfp_threshold_check(*t);
}
