/*
 * hamming_stats.c: distance distributions the planner's estimates use.
 *
 * Unrelated fingerprints differ like random bits, so the binomial tail is the
 * floor of every estimate.  Real columns hold near-duplicate families, which
 * the binomial model cannot see; ANALYZE measures them as the distance
 * distribution of pairs of sampled rows.
 */
#include <math.h>

#include "tfp_core.h"

double
tfp_random_within(int r)
{
	double		sum = 0;

	if (r < 0)
		return 0;
	if (r >= SIMHASH_BITS)
		return 1;
	for (int i = 0; i <= r; i++)
		sum += (double) tfp_binomial(SIMHASH_BITS, i);
	return ldexp(sum, -SIMHASH_BITS);
}

uint64_t
tfp_pair_distances(const uint64_t *v, size_t n, size_t max_rows,
				   double cum[SIMHASH_BITS + 1])
{
	uint64_t	hist[SIMHASH_BITS + 1] = {0};
	uint64_t	pairs = 0;
	uint64_t	run = 0;
	size_t		k = n < max_rows ? n : max_rows;

	/*
	 * Rows i * n / k for i < k: an even spread, so that when the sample is in
	 * table order (as ANALYZE's is) and copies sit next to each other, the
	 * chosen rows still pair up as often as rows of the whole sample do.
	 */
	for (size_t i = 0; i < k; i++)
	{
		uint64_t	a = v[(size_t) ((uint64_t) i * n / k)];

		for (size_t j = 0; j < i; j++)
			hist[tfp_hamming64(a, v[(size_t) ((uint64_t) j * n / k)])]++;
		pairs += i;
	}
	for (int d = 0; d <= SIMHASH_BITS; d++)
	{
		run += hist[d];
		cum[d] = pairs > 0 ? (double) run / (double) pairs : 0;
	}
	return pairs;
}
