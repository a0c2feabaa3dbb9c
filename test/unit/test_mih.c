/*
 * test_mih.c: unit cases for multi-index hashing (mih.c): the substring
 * layout, the probe plans, the emission rule (every answer reported exactly
 * once), the verification kernel and the choice of m.  Included by
 * test_core.c, which holds the case table, after test_blocks.c (its
 * generator, blocks_rand).
 */
#include "tfp_mih.h"

static void
mih_layout_covers_all_bits(void)
{
	for (int m = TFP_MIH_M_MIN; m <= TFP_MIH_M_MAX; m++)
	{
		tfp_mih_layout l;
		uint64_t	seen = 0;
		uint32_t	buckets = 0;

		tfp_mih_layout_init(&l, m);
		CHECK_INT_EQ(l.m, m);
		for (int i = 0; i < m; i++)
		{
			uint64_t	mask = ((UINT64_C(1) << l.width[i]) - 1) << l.shift[i];

			CHECK(l.width[i] <= TFP_MIH_WIDTH_MAX);
			CHECK(l.width[i] == 64 / m || l.width[i] == 64 / m + 1);
			CHECK((seen & mask) == 0);
			seen |= mask;
			CHECK(l.offset[i] == buckets);
			buckets += UINT32_C(1) << l.width[i];
		}
		CHECK_U64_EQ(seen, UINT64_MAX);
		CHECK(l.offset[TFP_MIH_M_MAX] == buckets);
	}
	{
		tfp_mih_layout l;

		tfp_mih_layout_init(&l, 4);
		CHECK_INT_EQ(tfp_mih_substring(&l, 0, UINT64_C(0x0123456789abcdef)), 0x0123);
		CHECK_INT_EQ(tfp_mih_substring(&l, 3, UINT64_C(0x0123456789abcdef)), 0xcdef);
		tfp_mih_layout_init(&l, 5);		/* 13, 13, 13, 13, 12 bits */
		CHECK_INT_EQ(l.width[0], 13);
		CHECK_INT_EQ(l.width[4], 12);
		CHECK_INT_EQ(tfp_mih_substring(&l, 4, UINT64_C(0xfff)), 0xfff);
	}
}

static void
mih_ball_size_is_binomial_sum(void)
{
	CHECK_U64_EQ(tfp_mih_ball_size(13, 0), 1);
	CHECK_U64_EQ(tfp_mih_ball_size(13, 2), 1 + 13 + 78);
	CHECK_U64_EQ(tfp_mih_ball_size(16, 16), UINT64_C(65536));
	CHECK_U64_EQ(tfp_mih_ball_size(4, 9), 16);
}

/* Every plan covers its radius: probed tables' t + 1 sum past r. */
static void
mih_plan_covers_radius(void)
{
	static const double rows[] = {0, 100, 5000, 1e6, 1e7, 1e9};

	for (int m = TFP_MIH_M_MIN; m <= TFP_MIH_M_MAX; m++)
	{
		tfp_mih_layout l;

		tfp_mih_layout_init(&l, m);
		for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
			for (int r = -1; r <= 65; r++)
			{
				tfp_mih_plan p;
				int			sum = 0;
				uint64_t	probes = 0;

				tfp_mih_plan_query(&l, r, rows[k], &tfp_mih_default_costs, &p);
				CHECK(p.radius == (r < 0 ? 0 : r > 64 ? 64 : r));
				if (p.full_pass)
				{
					CHECK(p.probes == 0);
					continue;
				}
				for (int i = 0; i < m; i++)
				{
					CHECK(p.t[i] >= -1 && p.t[i] <= l.width[i]);
					if (p.t[i] >= 0)
					{
						sum += p.t[i] + 1;
						probes += tfp_mih_ball_size(l.width[i], p.t[i]);
					}
				}
				for (int i = m; i < TFP_MIH_M_MAX; i++)
					CHECK(p.t[i] == -1);
				CHECK(sum > p.radius);
				CHECK_U64_EQ(p.probes, probes);
			}
	}
	/* small radii probe exact buckets only; the default threshold probes */
	{
		tfp_mih_layout l;
		tfp_mih_plan p;

		tfp_mih_layout_init(&l, 5);
		tfp_mih_plan_query(&l, 3, 1e6, &tfp_mih_default_costs, &p);
		CHECK(!p.full_pass);
		CHECK(p.probes == 4);
		tfp_mih_plan_query(&l, 10, 1e6, &tfp_mih_default_costs, &p);
		CHECK(!p.full_pass);
		CHECK(p.probes < 200);
		tfp_mih_plan_query(&l, 64, 1e6, &tfp_mih_default_costs, &p);
		CHECK(p.full_pass);
	}
}

/*
 * The in-memory index of bench/mih/micro.c in miniature: every code in
 * every table's bucket list; a query probes per the plan and reports what
 * tfp_mih_emit allows.  Each code within the radius must come out once, no
 * other code at all, for every m and radius.
 */
static void
mih_probes_find_every_answer_once(void)
{
	enum
	{
		N = 1500
	};
	static uint64_t codes[N];
	static uint32_t vals[1 << 16];
	static uint8_t dist[1 << 16];
	static uint8_t seen[N];
	static uint8_t probed[1 << 16];
	int			plans[2] = {0, 0};
	uint64_t	s = 12345;

	for (int j = 0; j < N; j++)
	{
		if (j % 5 == 0 || j < 5)
			codes[j] = blocks_rand(&s);
		else
		{
			/* near the previous root: 1 to 12 bits flipped */
			uint64_t	c = codes[j - j % 5];
			int			d = 1 + (int) (blocks_rand(&s) % 12);

			for (int k = 0; k < d; k++)
				c ^= UINT64_C(1) << (blocks_rand(&s) % 64);
			codes[j] = c;
		}
	}
	for (int m = TFP_MIH_M_MIN; m <= TFP_MIH_M_MAX; m += (m < 8 ? 1 : 4))
	{
		tfp_mih_layout l;

		tfp_mih_layout_init(&l, m);
		for (int qi = 0; qi < 6; qi++)
		{
			uint64_t	q = qi < 3 ? codes[qi * 250] ^ (UINT64_C(1) << qi) : blocks_rand(&s);

			for (int r = 0; r <= 64; r += (r < 16 ? 1 : 8))
			{
				tfp_mih_plan p;
				int			twice = 0,
							missed = 0,
							wrong = 0;

				/* planned for 1e7 rows: probes up to radius 20 or so, then a full pass */
				tfp_mih_plan_query(&l, r, 1e7, &tfp_mih_default_costs, &p);
				plans[p.full_pass]++;
				memset(seen, 0, sizeof(seen));
				for (int i = 0; i < m; i++)
				{
					size_t		nv;

					if (p.full_pass && i > 0)
						break;
					if (!p.full_pass && p.t[i] < 0)
						continue;
					nv = p.full_pass ? (size_t) 1 << l.width[0] :
						tfp_ball_values(tfp_mih_substring(&l, i, q), l.width[i], p.t[i], vals, dist);
					/* the buckets probed, as the scan enumerates them */
					memset(probed, 0, sizeof(probed));
					for (size_t v = 0; v < nv; v++)
						probed[p.full_pass ? v : vals[v]] = 1;
					for (int j = 0; j < N; j++)
						if (probed[tfp_mih_substring(&l, i, codes[j])] &&
							tfp_hamming64(codes[j], q) <= r &&
							tfp_mih_emit(&l, &p, i, codes[j], q))
							seen[j]++;
				}
				for (int j = 0; j < N; j++)
				{
					bool		within = tfp_hamming64(codes[j], q) <= r;

					twice += seen[j] > 1;
					missed += within && seen[j] == 0;
					wrong += !within && seen[j] > 0;
				}
				if (twice || missed || wrong)
					unit_fail(__FILE__, __LINE__, "m %d r %d q %d: %d twice, %d missed, %d wrong",
							  m, r, qi, twice, missed, wrong);
			}
		}
	}
	/* both kinds of plan were tried */
	CHECK(plans[0] > 100);
	CHECK(plans[1] > 20);
}

static void
mih_verify_kernels_agree(void)
{
	static uint64_t codes[600];
	static uint16_t a[600],
				b[600];
	uint64_t	s = 99;

	for (int j = 0; j < 600; j++)
		codes[j] = blocks_rand(&s) & (j % 3 == 0 ? UINT64_MAX : blocks_rand(&s));
	for (int r = 0; r <= 64; r++)
	{
		uint64_t	q = blocks_rand(&s) & blocks_rand(&s);
		size_t		na = tfp_mih_verify(codes, 600, q, r, a);
		size_t		nb = tfp_mih_verify_portable(codes, 600, q, r, b);
		size_t		want = 0;

		for (int j = 0; j < 600; j++)
			want += tfp_hamming64(codes[j], q) <= r;
		CHECK(na == want);
		CHECK(nb == want);
		CHECK(memcmp(a, b, sizeof(uint16_t) * na) == 0);
		for (size_t h = 1; h < na; h++)
			CHECK(a[h - 1] < a[h]);
	}
	CHECK(tfp_mih_verify(codes, 0, 0, 64, a) == 0);
}

/* m is within its range and never grows with the table. */
static void
mih_choose_m_shrinks_with_rows(void)
{
	int			prev = TFP_MIH_DEFAULT_M_MAX;

	for (double rows = 0; rows <= 1e10; rows = rows * 2 + 1000)
	{
		int			m = tfp_mih_choose_m(rows, &tfp_mih_default_costs);

		CHECK(m >= TFP_MIH_M_MIN && m <= TFP_MIH_DEFAULT_M_MAX);
		if (m > prev)
			unit_fail(__FILE__, __LINE__, "m grows from %d to %d at %.0f rows", prev, m, rows);
		prev = m;
	}
	CHECK_INT_EQ(tfp_mih_choose_m(1e9, &tfp_mih_default_costs), TFP_MIH_M_MIN);
	CHECK(tfp_mih_pages(&(tfp_mih_layout) {.m = 0}, 0, &tfp_mih_default_costs) == 1);
}
