/*
 * lsh.c: locality-sensitive hashing of MinHash signatures by bands.
 *
 * A banding (b, r, m) cuts the first b * r positions of a signature into b
 * bands of r consecutive positions; two signatures are candidates when at
 * least m bands are equal in all r positions.  Here: the band keys (a fixed
 * 64-bit hash of the signature's header, the band's place and its values),
 * band comparison, the probability that a pair becomes a candidate (the
 * S-curve), the search for the banding that minimises weighted false
 * positive and false negative areas (as datasketch does, extended to m > 1
 * and to a prediction from sampled pair statistics), and the parser of the
 * parameters in lsh_query's text form.
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

/* --- choosing a banding --- */

/* Intervals of Simpson's rule on each side of the threshold (even). */
#define LSH_SIMPSON_STEPS 128

/*
 * Integral of P(s) over [lo, hi] (above = false), or of 1 - P(s) (above =
 * true), by Simpson's rule.
 */
static double
area(double lo, double hi, int b, int r, int m, bool above)
{
	double		h = (hi - lo) / LSH_SIMPSON_STEPS;
	double		sum = 0;

	if (!(hi > lo))
		return 0.0;
	for (int i = 0; i <= LSH_SIMPSON_STEPS; i++)
	{
		double		p = tfp_lsh_probability(lo + i * h, b, r, m);
		double		f = above ? 1.0 - p : p;
		int			w = (i == 0 || i == LSH_SIMPSON_STEPS) ? 1 : (i % 2 ? 4 : 2);

		sum += w * f;
	}
	return sum * h / 3.0;
}

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

bool
tfp_lsh_choose(const tfp_lsh_goal *g, tfp_lsh_choice *best, tfp_env *env)
{
	bool		found = false;
	bool		best_fits = false;
	double		best_cost = 0;

	memset(best, 0, sizeof(*best));
	for (int b = 1; b <= g->k; b++)
	{
		if (env && env->check_interrupts)
			env->check_interrupts(env->ctx);
		for (int r = 1; b * r <= g->k; r++)
		{
			int			max_m = g->max_min_bands < b ? g->max_min_bands : b;

			for (int m = 1; m <= max_m; m++)
			{
				tfp_lsh_choice c;
				double		cost;
				bool		fits = true;

				c.bands = b;
				c.rows = r;
				c.min_bands = m;
				c.candidates = -1;
				c.false_positive = area(0.0, g->threshold, b, r, m, false);
				c.false_negative = area(g->threshold, 1.0, b, r, m, true);
				cost = g->fp_weight * c.false_positive + g->fn_weight * c.false_negative;
				if (g->pmf)
				{
					c.candidates = tfp_lsh_expected_candidates(g->pmf, g->k, g->others, b, r, m);
					fits = c.candidates <= g->max_candidates;
				}

				/*
				 * Within the candidate budget (or, when nothing is, the
				 * fewest candidates): the least weighted error, then fewer
				 * bands (a smaller index).
				 */
				if (!found ||
					(fits && !best_fits) ||
					(fits && best_fits && cost < best_cost) ||
					(!fits && !best_fits && c.candidates < best->candidates))
				{
					*best = c;
					best_cost = cost;
					best_fits = fits;
					found = true;
				}
			}
		}
	}
	return best_fits;
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
