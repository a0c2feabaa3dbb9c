/*
 * test_blocks.c: unit cases for the pigeonhole blocks (blocks.c) and the
 * planner's distance statistics (hamming_stats.c).  Included by test_core.c,
 * which holds the case table: unit.h keeps its state in one file.
 */

/* small deterministic generator (splitmix64) */
static uint64_t
blocks_rand(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void
blocks_layout_covers_all_bits(void)
{
	for (int m = TFP_BLOCKS_MIN; m <= TFP_BLOCKS_MAX; m++)
	{
		tfp_blocks	b;
		uint64_t	seen = 0;
		int			sum = 0;

		tfp_blocks_init(&b, m);
		CHECK_INT_EQ(b.m, m);
		for (int i = 0; i < m; i++)
		{
			uint64_t	mask = ((UINT64_C(1) << b.width[i]) - 1) << b.shift[i];

			CHECK(b.width[i] == 64 / m || b.width[i] == 64 / m + 1);
			CHECK(i == 0 || b.width[i] <= b.width[i - 1]);
			CHECK((seen & mask) == 0);
			seen |= mask;
			sum += b.width[i];
		}
		CHECK_U64_EQ(seen, UINT64_MAX);
		CHECK_INT_EQ(sum, 64);
	}
	{
		tfp_blocks	b;

		tfp_blocks_init(&b, 4);
		CHECK_INT_EQ(tfp_block_value(&b, 0, UINT64_C(0x0123456789abcdef)), 0x0123);
		CHECK_INT_EQ(tfp_block_value(&b, 3, UINT64_C(0x0123456789abcdef)), 0xcdef);
		CHECK(tfp_block_key(3, 0xcdef) == (INT64_C(3) << 32 | 0xcdef));
	}
}

static void
blocks_binomial_exact(void)
{
	CHECK_U64_EQ(tfp_binomial(16, 2), 120);
	CHECK_U64_EQ(tfp_binomial(64, 0), 1);
	CHECK_U64_EQ(tfp_binomial(64, 64), 1);
	CHECK_U64_EQ(tfp_binomial(64, 6), UINT64_C(74974368));
	CHECK_U64_EQ(tfp_binomial(64, 32), UINT64_C(1832624140942590534));
	CHECK_U64_EQ(tfp_binomial(5, 7), 0);
	CHECK_U64_EQ(tfp_binomial(5, -1), 0);
	/* Pascal's rule over the whole triangle up to 64 */
	for (int n = 1; n <= 64; n++)
		for (int k = 1; k < n; k++)
			CHECK_U64_EQ(tfp_binomial(n, k),
						 tfp_binomial(n - 1, k - 1) + tfp_binomial(n - 1, k));
}

static void
blocks_plan_covers_radius(void)
{
	for (int m = TFP_BLOCKS_MIN; m <= TFP_BLOCKS_MAX; m++)
	{
		tfp_blocks	b;

		tfp_blocks_init(&b, m);
		for (int r = 0; r <= 64; r++)
		{
			uint8_t		t[TFP_BLOCKS_MAX];
			uint64_t	n = tfp_blocks_plan(&b, r, t);
			uint64_t	want = 0;
			int			slack = 0;

			for (int i = 0; i < m; i++)
			{
				CHECK(t[i] <= b.width[i]);
				slack += t[i] + 1;
				for (int j = 0; j <= t[i]; j++)
					want += tfp_binomial(b.width[i], j);
			}
			/* the pigeonhole condition, and no more than needed */
			CHECK(slack > r);
			CHECK(r < m ? slack == m : slack == r + 1);
			CHECK_U64_EQ(n, want);
		}
	}
	{
		tfp_blocks	b;
		uint8_t		t[TFP_BLOCKS_MAX];

		tfp_blocks_init(&b, 4);
		CHECK_U64_EQ(tfp_blocks_plan(&b, 3, t), 4);
		CHECK_U64_EQ(tfp_blocks_plan(&b, 6, t), 3 * 17 + 1);
		tfp_blocks_init(&b, 8);
		CHECK_U64_EQ(tfp_blocks_plan(&b, 6, t), 8);
	}
}

static void
blocks_ball_values_enumerates_ball(void)
{
	enum
	{
		W = 10
	};
	static uint32_t out[1 << W];
	static uint8_t dist[1 << W];

	for (int t = 0; t <= W; t++)
	{
		uint32_t	x = 0x2b5 & ((1u << W) - 1);
		size_t		n = tfp_ball_values(x, W, t, out, dist);
		size_t		want = 0;
		static bool seen[1 << W];

		memset(seen, 0, sizeof(seen));
		for (int j = 0; j <= t; j++)
			want += (size_t) tfp_binomial(W, j);
		CHECK_INT_EQ(n, want);
		for (size_t i = 0; i < n; i++)
		{
			CHECK(out[i] < (1u << W));
			CHECK(!seen[out[i]]);
			seen[out[i]] = true;
			CHECK_INT_EQ(dist[i], tfp_popcount64(out[i] ^ x));
			CHECK(dist[i] <= t);
			CHECK(i == 0 || dist[i] >= dist[i - 1]);
		}
		/* every value within t is there */
		for (uint32_t v = 0; v < (1u << W); v++)
			CHECK(seen[v] == (tfp_popcount64(v ^ x) <= t));
	}
	/* a 32-bit block, radius 1: 33 values */
	CHECK_INT_EQ(tfp_ball_values(0xffffffffu, 32, 1, out, dist), 33);
	CHECK_U64_EQ(out[32], 0x7fffffffu);
}

/*
 * The property the GIN class rests on: a value within r of the query
 * matches a probe in some block, and the consistent function's lower bound
 * (probe distance where matched, t + 1 where not) never exceeds the distance.
 */
static void
blocks_pigeonhole_finds_every_answer(void)
{
	uint64_t	s = 42;

	for (int m = TFP_BLOCKS_MIN; m <= TFP_BLOCKS_MAX; m++)
	{
		tfp_blocks	b;

		tfp_blocks_init(&b, m);
		for (int r = 0; r <= 64; r++)
		{
			uint8_t		t[TFP_BLOCKS_MAX];

			tfp_blocks_plan(&b, r, t);
			for (int k = 0; k < 40; k++)
			{
				uint64_t	q = blocks_rand(&s);
				uint64_t	v = q;
				int			d = (int) (blocks_rand(&s) % (uint64_t) (r + 1));
				int			bound = 0;
				bool		matched = false;

				/* flip d distinct bits */
				for (int f = 0; f < d;)
				{
					uint64_t	bit = UINT64_C(1) << (blocks_rand(&s) % 64);

					if ((v ^ q) & bit)
						continue;
					v ^= bit;
					f++;
				}
				for (int i = 0; i < m; i++)
				{
					int			bd = tfp_popcount64(tfp_block_value(&b, i, q) ^
													tfp_block_value(&b, i, v));

					matched |= bd <= t[i];
					bound += bd <= t[i] ? bd : t[i] + 1;
				}
				CHECK(matched);
				CHECK(bound <= tfp_hamming64(q, v));
			}
		}
	}
}

static void
stats_random_within(void)
{
	double		prev = 0;

	CHECK(tfp_random_within(-1) == 0);
	CHECK(tfp_random_within(0) == ldexp(1, -64));
	CHECK(tfp_random_within(64) == 1);
	CHECK(fabs(tfp_random_within(6) - 83278001.0 / 18446744073709551616.0) < 1e-25);
	/* symmetric: P(d <= 31) + P(d <= 32) = 1 */
	CHECK(fabs(tfp_random_within(31) + tfp_random_within(32) - 1) < 1e-12);
	for (int r = 0; r <= 64; r++)
	{
		/* strictly increasing until doubles round to 1 */
		CHECK(r > 48 ? tfp_random_within(r) >= prev : tfp_random_within(r) > prev);
		prev = tfp_random_within(r);
	}
}

static void
stats_pair_distances(void)
{
	uint64_t	v[] = {0, 1, 3, UINT64_MAX};
	double		cum[65];

	CHECK_U64_EQ(tfp_pair_distances(v, 4, 100, cum, NULL), 6);
	/* distances 1, 2, 64, 1, 63, 62 */
	CHECK(cum[0] == 0);
	CHECK(fabs(cum[1] - 2.0 / 6) < 1e-12);
	CHECK(fabs(cum[2] - 3.0 / 6) < 1e-12);
	CHECK(fabs(cum[61] - 3.0 / 6) < 1e-12);
	CHECK(fabs(cum[62] - 4.0 / 6) < 1e-12);
	CHECK(fabs(cum[63] - 5.0 / 6) < 1e-12);
	CHECK(cum[64] == 1);
	/* no pairs */
	CHECK_U64_EQ(tfp_pair_distances(v, 1, 100, cum, NULL), 0);
	CHECK(cum[64] == 0);
	/* max_rows picks rows from all of v, not a periodic subset */
	{
		static uint64_t many[1000];
		size_t		picked_late = 0;

		for (int i = 0; i < 1000; i++)
			many[i] = (uint64_t) i;
		CHECK_U64_EQ(tfp_pair_distances(many, 1000, 100, cum, NULL), 4950);
		for (int i = 0; i < 100; i++)
			picked_late += many[i] >= 500;
		CHECK(picked_late > 30 && picked_late < 70);
		/* a period of 10 in the input does not align with the choice */
		for (int i = 0; i < 1000; i++)
			many[i] = (i % 10 == 0) ? 7 : UINT64_C(1) << (i % 64);
		tfp_pair_distances(many, 1000, 100, cum, NULL);
		CHECK(cum[0] < 0.1);
	}
}
