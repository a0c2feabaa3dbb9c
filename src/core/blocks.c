/*
 * blocks.c: pigeonhole blocks for exact Hamming radius search.
 *
 * Manku, Jain and Das Sarma (2007): split 64 bits into m blocks; two values
 * within r < m bits agree exactly on at least m - r blocks.  Generalised to
 * any r by per-block radii t[i] with sum(t[i] + 1) > r: some block differs in
 * at most t[i] bits, so probing the values within t[i] of each query block
 * (multi-probe) still finds every answer.  The GIN operator class indexes
 * (block, value) keys and uses these probes as its query keys.
 */
#include "tfp_core.h"

void
tfp_blocks_init(tfp_blocks *b, int m)
{
	int			base = SIMHASH_BITS / m;
	int			wide = SIMHASH_BITS % m;	/* blocks one bit wider */
	int			shift = SIMHASH_BITS;

	b->m = m;
	for (int i = 0; i < m; i++)
	{
		int			w = base + (i < wide ? 1 : 0);

		shift -= w;
		b->width[i] = (uint8_t) w;
		b->shift[i] = (uint8_t) shift;
	}
}

static uint64_t
gcd64(uint64_t a, uint64_t b)
{
	while (b != 0)
	{
		uint64_t	r = a % b;

		a = b;
		b = r;
	}
	return a;
}

uint64_t
tfp_binomial(int n, int k)
{
	uint64_t	c = 1;

	if (k < 0 || k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (int j = 0; j < k; j++)
	{
		/*
		 * C(n, j + 1) = C(n, j) * f / d, exactly.  Divide the common factor
		 * out first; d / g then divides f, so no step rounds.
		 */
		uint64_t	f = (uint64_t) (n - j);
		uint64_t	d = (uint64_t) (j + 1);
		uint64_t	g = gcd64(c, d);
		uint64_t	a = c / g;
		uint64_t	b = f / (d / g);

		if (a > UINT64_MAX / b)
			return UINT64_MAX;
		c = a * b;
	}
	return c;
}

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t
tfp_blocks_plan(const tfp_blocks *b, int r, uint8_t *t)
{
	int			extra = r + 1 - b->m;	/* sum(t) must reach this */
	uint64_t	total = 0;

	for (int i = 0; i < b->m; i++)
		t[i] = 0;
	/*
	 * Greedy: each step widens the block whose next shell C(w, t + 1) is
	 * smallest.  The shell sizes grow with t up to w / 2, so this minimises
	 * the total; radii never pass the block width because sum(w) = 64 >= r.
	 */
	for (; extra > 0; extra--)
	{
		int			best = -1;
		uint64_t	best_cost = UINT64_MAX;

		for (int i = 0; i < b->m; i++)
		{
			uint64_t	c;

			if (t[i] >= b->width[i])
				continue;
			c = tfp_binomial(b->width[i], t[i] + 1);
			if (best < 0 || c < best_cost)
			{
				best = i;
				best_cost = c;
			}
		}
		if (best < 0)
			break;
		t[best]++;
	}
	for (int i = 0; i < b->m; i++)
		for (int j = 0; j <= t[i]; j++)
			total = sat_add(total, tfp_binomial(b->width[i], j));
	return total;
}

size_t
tfp_ball_values(uint32_t x, int w, int t, uint32_t *out, uint8_t *dist)
{
	size_t		n = 0;
	uint64_t	limit = UINT64_C(1) << w;

	for (int d = 0; d <= t && d <= w; d++)
	{
		/* every w-bit mask with d bits set, in increasing order (Gosper) */
		uint64_t	mask = (UINT64_C(1) << d) - 1;

		while (mask < limit)
		{
			out[n] = x ^ (uint32_t) mask;
			dist[n] = (uint8_t) d;
			n++;
			if (mask == 0)
				break;
			{
				uint64_t	c = mask & -mask;
				uint64_t	r = mask + c;

				mask = (((r ^ mask) >> 2) / c) | r;
			}
		}
	}
	return n;
}
