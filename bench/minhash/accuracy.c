/*
 * accuracy.c: how good a MinHash estimate of the Jaccard similarity is for
 * small and large sets, for one-permutation hashing with optimal
 * densification (the default, TFP_MINHASH_OPH) and the k-hash reference
 * (TFP_MINHASH_KPERM), straight from the pure-C core (src/core).
 *
 * For each k (64, 128, 256), set size n (2 .. 5000) and target Jaccard J
 * (0.2, 0.5, 0.8): two sets A and B of n items each sharing c of them, c the
 * whole number nearest 2nJ / (1 + J) (at least 1, at most n - 1), so the exact
 * Jaccard is Jx = c / (2n - c) (small n cannot hit J exactly: the table shows
 * Jx).  Every trial draws fresh pseudo-random items and a fresh seed, signs
 * both sets with both methods and takes the estimate m / k, m = equal
 * positions.  Per cell and method it prints:
 *   bias        mean of (estimate - Jx) over the trials
 *   bias_se     its standard error, sqrt(variance / trials)
 *   var_ratio   variance of the estimate over the binomial J(1 - J) / k, the
 *               variance of k independent hashes (1 for kperm, in theory)
 *   outside     share of the trials whose m lies outside the central 99.7%
 *               interval of Binomial(k, Jx) (at most 0.3% for kperm)
 * Deterministic: the generator's seed is fixed per cell.  Tab-separated, one
 * line per cell and method, with a header line.
 *
 * Build (bench/minhash/run.sh does):
 *   cc -O2 -std=c99 -Isrc/core -o accuracy bench/minhash/accuracy.c src/core/[a-z]*.c \
 *      $(pkg-config --libs icu-i18n icu-uc) -lm
 * Usage: accuracy [trials]      (default 2000)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tfp_core.h"

static const int KS[] = {64, 128, 256};
static const int NS[] = {2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000};
static const double JS[] = {0.2, 0.5, 0.8};

#define N_MAX 5000

/* SplitMix64: the generator of items, salts and seeds. */
static uint64_t
next_rand(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void
sign(int method, const uint64_t *items, int n, int k, uint64_t seed, uint32_t *out)
{
	static tfp_minhash_acc acc;

	if (method == TFP_MINHASH_KPERM)
	{
		tfp_minhash_kperm(items, (size_t) n, k, seed, out, NULL);
		return;
	}
	tfp_minhash_init(&acc, k, seed);
	for (int i = 0; i < n; i++)
		tfp_minhash_add(&acc, items[i]);
	tfp_minhash_final(&acc, out);
}

/* log of the Binomial(k, p) probability of x */
static double
log_pmf(int k, double p, int x)
{
	return lgamma(k + 1.0) - lgamma(x + 1.0) - lgamma(k - x + 1.0)
		+ x * log(p) + (k - x) * log1p(-p);
}

/*
 * The central 99.7% interval [lo, hi] of Binomial(k, p): lo the least x with
 * P(X <= x) > 0.0015, hi the least x with P(X <= x) >= 0.9985.
 */
static void
binomial_interval(int k, double p, int *lo, int *hi)
{
	double		cdf = 0;

	*lo = -1;
	*hi = k;
	for (int x = 0; x <= k; x++)
	{
		cdf += exp(log_pmf(k, p, x));
		if (*lo < 0 && cdf > 0.0015)
			*lo = x;
		if (cdf >= 0.9985)
		{
			*hi = x;
			break;
		}
	}
	if (*lo < 0)
		*lo = 0;
}

int
main(int argc, char **argv)
{
	static uint64_t a[N_MAX];
	static uint64_t b[N_MAX];
	static uint32_t sa[TFP_MINHASH_K_MAX];
	static uint32_t sb[TFP_MINHASH_K_MAX];
	int			trials = argc > 1 ? atoi(argv[1]) : 2000;
	const int	methods[] = {TFP_MINHASH_OPH, TFP_MINHASH_KPERM};
	const char *method_name[] = {"", "oph", "kperm"};

	if (trials < 2)
	{
		fprintf(stderr, "usage: %s [trials >= 2]\n", argv[0]);
		return 1;
	}
	printf("k\tn\tj_target\tj_exact\tcommon\tmethod\ttrials\tbias\tbias_se\tvariance\tvar_binomial\tvar_ratio\toutside\tlo\thi\n");
	for (size_t ki = 0; ki < sizeof(KS) / sizeof(KS[0]); ki++)
	{
		int			k = KS[ki];

		for (size_t ni = 0; ni < sizeof(NS) / sizeof(NS[0]); ni++)
		{
			int			n = NS[ni];

			for (size_t ji = 0; ji < sizeof(JS) / sizeof(JS[0]); ji++)
			{
				int			c = (int) floor(2.0 * n * JS[ji] / (1.0 + JS[ji]) + 0.5);
				double		jx;
				double		binom;
				int			lo;
				int			hi;
				double		sum[3] = {0};
				double		sum2[3] = {0};
				long		outside[3] = {0};
				uint64_t	s;

				if (c < 1)
					c = 1;
				if (c > n - 1)
					c = n - 1;
				jx = (double) c / (2.0 * n - c);
				binom = jx * (1 - jx) / k;
				binomial_interval(k, jx, &lo, &hi);
				/* a fixed stream per cell */
				s = UINT64_C(0x5eed) ^ ((uint64_t) k << 40) ^ ((uint64_t) n << 8) ^ ji;
				for (int t = 0; t < trials; t++)
				{
					uint64_t	salt = next_rand(&s);
					uint64_t	seed = next_rand(&s);

					/* A = items 0 .. n-1, B = items n-c .. 2n-c-1 of this trial */
					for (int i = 0; i < n; i++)
					{
						uint64_t	x = salt + (uint64_t) i;

						a[i] = next_rand(&x);
						x = salt + (uint64_t) (n - c + i);
						b[i] = next_rand(&x);
					}
					for (int mi = 0; mi < 2; mi++)
					{
						int			m;
						double		err;

						sign(methods[mi], a, n, k, seed, sa);
						sign(methods[mi], b, n, k, seed, sb);
						m = tfp_minhash_matches(sa, sb, k);
						err = (double) m / k - jx;
						sum[methods[mi]] += err;
						sum2[methods[mi]] += err * err;
						outside[methods[mi]] += m < lo || m > hi;
					}
				}
				for (int mi = 0; mi < 2; mi++)
				{
					int			m = methods[mi];
					double		bias = sum[m] / trials;
					double		var = (sum2[m] - trials * bias * bias) / (trials - 1);

					printf("%d\t%d\t%.1f\t%.6f\t%d\t%s\t%d\t%.6f\t%.6f\t%.8f\t%.8f\t%.4f\t%.5f\t%d\t%d\n",
						   k, n, JS[ji], jx, c, method_name[m], trials, bias,
						   sqrt(var / trials), var, binom, var / binom,
						   (double) outside[m] / trials, lo, hi);
				}
				fflush(stdout);
			}
		}
	}
	return 0;
}
