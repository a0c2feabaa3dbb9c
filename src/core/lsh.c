/*
 * lsh.c: locality-sensitive hashing of MinHash signatures by bands.
 *
 * A banding (b, r, m) cuts the first b * r positions of a signature into b
 * bands of r consecutive positions; two signatures are candidates when at
 * least m bands are equal in all r positions.  Here: the band keys (a fixed
 * 64-bit hash of the signature's header, the band's place and its values),
 * band comparison, the probability that a pair becomes a candidate (the
 * S-curve) and the candidates a banding is expected to give, and the parser
 * of the parameters in lsh_query's text form.  The search for the banding
 * that minimises weighted false positive and false negative areas is in
 * lsh_choose.c.
 *
 * Band keys are stored (in index entries and in users' tables), so their
 * byte layout below is frozen: change it only under a new version byte.
 */
#include <math.h>
#include <string.h>

#include "tfp_core.h"

/* Little-endian stores, so the hashed bytes are the same on every platform. */
static void
put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char) (v >> (8 * i));
}

uint64_t
tfp_lsh_band_key(const tfp_lsh_header *h, int rows, int band, const uint32_t *values)
{
	unsigned char buf[TFP_LSH_KEY_HEADER_BYTES + 4 * TFP_MINHASH_K_MAX];
	size_t		n = 0;

	put_le(buf + n, TFP_LSH_KEY_VERSION, 1), n += 1;
	put_le(buf + n, h->method, 1), n += 1;
	put_le(buf + n, h->value_bits, 1), n += 1;
	put_le(buf + n, 0, 1), n += 1;	/* reserved */
	put_le(buf + n, (uint64_t) h->k, 2), n += 2;
	put_le(buf + n, (uint64_t) rows, 2), n += 2;
	put_le(buf + n, h->pipeline, 4), n += 4;
	put_le(buf + n, h->seed, 8), n += 8;
	put_le(buf + n, (uint64_t) band, 2), n += 2;
	put_le(buf + n, 0, 2), n += 2;	/* reserved */
	for (int i = 0; i < rows; i++)
		put_le(buf + n, values[(size_t) band * rows + i], 4), n += 4;
	return tfp_hash(buf, n, 0);
}

bool
tfp_minhash_is_featureless(const uint32_t *values, int k)
{
	for (int i = 0; i < k; i++)
		if (values[i] != TFP_MINHASH_EMPTY)
			return false;
	return true;
}

int
tfp_lsh_indexed_bands(int k, int bands, int rows)
{
	int			fit = rows > 0 ? k / rows : 0;

	return bands < fit ? bands : fit;
}

int
tfp_lsh_equal_bands(const uint32_t *a, const uint32_t *b, int bands, int rows, int enough)
{
	int			equal = 0;

	for (int i = 0; i < bands && equal < enough; i++)
	{
		const uint32_t *x = a + (size_t) i * rows;
		const uint32_t *y = b + (size_t) i * rows;
		int			j = 0;

		while (j < rows && x[j] == y[j])
			j++;
		if (j == rows)
			equal++;
		/* not enough bands left to reach it: stop early */
		else if (equal + (bands - i - 1) < enough)
			break;
	}
	return equal;
}

/* --- probabilities --- */

double
tfp_binomial_tail(int n, double p, int m)
{
	double		lt[TFP_MINHASH_K_MAX + 1];
	double		lp,
				lq,
				top,
				sum = 0;

	if (m <= 0)
		return 1.0;
	if (m > n || !(p > 0.0))
		return 0.0;
	if (p >= 1.0)
		return 1.0;
	if (m == 1)
		return -expm1((double) n * log1p(-p));
	if (n > TFP_MINHASH_K_MAX)
		return NAN;
	/* the log of each term C(n, j) p^j (1-p)^(n-j), j = m..n, then their sum */
	lp = log(p);
	lq = log1p(-p);
	lt[m] = lgamma(n + 1.0) - lgamma(m + 1.0) - lgamma(n - m + 1.0) + m * lp + (n - m) * lq;
	top = lt[m];
	for (int j = m; j < n; j++)
	{
		lt[j + 1] = lt[j] + log((double) (n - j) / (j + 1)) + lp - lq;
		if (lt[j + 1] > top)
			top = lt[j + 1];
	}
	for (int j = m; j <= n; j++)
		sum += exp(lt[j] - top);
	sum *= exp(top);
	return sum > 1.0 ? 1.0 : sum;
}

double
tfp_lsh_probability(double s, int bands, int rows, int min_bands)
{
	if (!(s > 0.0))
		return min_bands <= 0 ? 1.0 : 0.0;
	if (s >= 1.0)
		return min_bands <= bands ? 1.0 : 0.0;
	return tfp_binomial_tail(bands, pow(s, rows), min_bands);
}

double
tfp_lsh_band_given(int c, int k, int rows)
{
	double		q = 1.0;

	if (c < rows)
		return 0.0;
	for (int i = 0; i < rows; i++)
		q *= (double) (c - i) / (double) (k - i);
	return q;
}

double
tfp_lsh_probability_given(int c, int k, int bands, int rows, int min_bands)
{
	return tfp_binomial_tail(bands, tfp_lsh_band_given(c, k, rows), min_bands);
}

/* --- expected candidates (the search for a banding is in lsh_choose.c) --- */

double
tfp_lsh_expected_candidates(const double *pmf, int k, double others,
							int bands, int rows, int min_bands)
{
	double		share = 0;

	for (int c = 0; c <= k; c++)
		if (pmf[c] > 0)
			share += pmf[c] * tfp_lsh_probability_given(c, k, bands, rows, min_bands);
	return share * others;
}

/* --- lsh_query text form: "bands=B,rows=R,min_bands=M" --- */

/* A decimal without sign or leading zeros, at most 9 digits. */
static bool
parse_small_int(const char **p, const char *end, int *out)
{
	const char *s = *p;
	int			v = 0;
	int			digits = 0;

	if (s < end && *s == '0' && s + 1 < end && s[1] >= '0' && s[1] <= '9')
		return false;
	while (s < end && *s >= '0' && *s <= '9' && digits < 9)
	{
		v = v * 10 + (*s - '0');
		s++;
		digits++;
	}
	if (digits == 0 || (s < end && *s >= '0' && *s <= '9'))
		return false;
	*p = s;
	*out = v;
	return true;
}

static bool
skip_lit(const char **p, const char *end, const char *lit)
{
	size_t		n = strlen(lit);

	if ((size_t) (end - *p) < n || memcmp(*p, lit, n) != 0)
		return false;
	*p += n;
	return true;
}

bool
tfp_lsh_parse_params(const char *s, size_t len, int *bands, int *rows, int *min_bands)
{
	const char *p = s;
	const char *end = s + len;
	int			b,
				r,
				m;

	if (!skip_lit(&p, end, "bands=") || !parse_small_int(&p, end, &b) ||
		!skip_lit(&p, end, ",rows=") || !parse_small_int(&p, end, &r) ||
		!skip_lit(&p, end, ",min_bands=") || !parse_small_int(&p, end, &m) ||
		p != end)
		return false;
	*bands = b;
	*rows = r;
	*min_bands = m;
	return true;
}
