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

/* splitmix64: a fixed sequence, so ANALYZE's choice repeats on every platform */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t
tfp_pair_distances(uint64_t *v, size_t n, size_t max_rows,
				   double cum[SIMHASH_BITS + 1], tfp_env *env)
{
	uint64_t	hist[SIMHASH_BITS + 1] = {0};
	uint64_t	pairs = 0;
	uint64_t	run = 0;
	uint64_t	state = 0;
	size_t		k = n < max_rows ? n : max_rows;

	/*
	 * A pseudo-random k of the rows to the front (partial Fisher-Yates).  Not
	 * a stride: rows in table order often repeat with a period (copies made
	 * in rounds), and a stride in step with it would pick whole families.
	 * The modulo bias is below n / 2^64.
	 */
	for (size_t i = 0; i < k && k < n; i++)
	{
		size_t		j = i + (size_t) (next_random(&state) % (uint64_t) (n - i));
		uint64_t	tmp = v[i];

		v[i] = v[j];
		v[j] = tmp;
	}
	for (size_t i = 0; i < k; i++)
	{
		for (size_t j = 0; j < i; j++)
			hist[tfp_hamming64(v[i], v[j])]++;
		pairs += i;
		if (env && env->check_interrupts && (i & 0xFF) == 0xFF)
			env->check_interrupts(env->ctx);
	}
	for (int d = 0; d <= SIMHASH_BITS; d++)
	{
		run += hist[d];
		cum[d] = pairs > 0 ? (double) run / (double) pairs : 0;
	}
	return pairs;
}
