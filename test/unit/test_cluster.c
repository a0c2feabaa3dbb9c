/*
 * test_cluster.c: unit cases for cluster.c: union-find against a brute-force
 * connected-components labelling on random graphs, the star (non-transitive)
 * mode against a direct reading of its rule, out-of-memory paths and
 * interrupt checks.  Included by test_core.c after test_blocks.c (its
 * generator, blocks_rand).
 */
#include "tfp_cluster.h"

#define CL_MAXN 300

/* Brute force: labels by repeated relaxation until nothing changes. */
static void
brute_components(int n, const int64_t *keys, int m, const int *ea, const int *eb, int64_t *label)
{
	bool		changed = true;

	for (int i = 0; i < n; i++)
		label[i] = keys[i];
	while (changed)
	{
		changed = false;
		for (int e = 0; e < m; e++)
		{
			int64_t		lo = label[ea[e]] < label[eb[e]] ? label[ea[e]] : label[eb[e]];

			if (label[ea[e]] != lo || label[eb[e]] != lo)
			{
				label[ea[e]] = label[eb[e]] = lo;
				changed = true;
			}
		}
	}
}

/* Random distinct keys, some negative, some near the extremes. */
static void
cluster_rand_keys(uint64_t *s, int n, int64_t *keys)
{
	for (int i = 0; i < n; i++)
	{
		bool		dup;

		do
		{
			uint64_t	r = blocks_rand(s);

			switch (r % 4)
			{
				case 0:
					keys[i] = (int64_t) (r >> 2) % 1000;
					break;
				case 1:
					keys[i] = -(int64_t) ((r >> 2) % 1000) - 1;
					break;
				case 2:
					keys[i] = INT64_MAX - (int64_t) ((r >> 2) % 8);
					break;
				default:
					keys[i] = (int64_t) blocks_rand(s);
			}
			dup = false;
			for (int j = 0; j < i; j++)
				dup |= keys[j] == keys[i];
		} while (dup);
	}
}

static int
cluster_index_of(int n, const int64_t *keys, int64_t k)
{
	for (int i = 0; i < n; i++)
		if (keys[i] == k)
			return i;
	return -1;
}

static void
cluster_components_match_brute_force(void)
{
	uint64_t	s = 16;
	int64_t		keys[CL_MAXN],
				label[CL_MAXN];
	static int	ea[4 * CL_MAXN],
				eb[4 * CL_MAXN];

	for (int round = 0; round < 300; round++)
	{
		int			n = 1 + (int) (blocks_rand(&s) % CL_MAXN);
		int			m = (int) (blocks_rand(&s) % (4 * (uint64_t) n));
		tfp_cluster c;
		int			seen = 0;

		cluster_rand_keys(&s, n, keys);
		for (int e = 0; e < m; e++)
		{
			ea[e] = (int) (blocks_rand(&s) % (uint64_t) n);
			eb[e] = (int) (blocks_rand(&s) % (uint64_t) n);
		}
		brute_components(n, keys, m, ea, eb, label);

		tfp_cluster_init(&c, &env, TFP_CLUSTER_COMPONENTS);
		/* every key as a singleton first, half of them; the rest via pairs */
		for (int i = 0; i < n; i += 2)
			REQUIRE(tfp_cluster_add_key(&c, keys[i]) == TFP_OK);
		for (int e = 0; e < m; e++)
			REQUIRE(tfp_cluster_add_pair(&c, keys[ea[e]], keys[eb[e]]) == TFP_OK);
		for (int i = 1; i < n; i += 2)
			REQUIRE(tfp_cluster_add_key(&c, keys[i]) == TFP_OK);
		REQUIRE(tfp_cluster_finish(&c) == TFP_OK);
		CHECK_INT_EQ((int) tfp_cluster_count(&c), n);
		for (size_t i = 0; i < tfp_cluster_count(&c); i++)
		{
			int64_t		k,
						ck,
						sz;
			int			j;

			tfp_cluster_get(&c, i, &k, &ck, &sz);
			j = cluster_index_of(n, keys, k);
			REQUIRE(j >= 0);
			{
				int			want_size = 0;

				for (int x = 0; x < n; x++)
					want_size += label[x] == label[j];
				CHECK(sz == want_size);
			}
			if (ck != label[j])
				UNIT_FAIL("round %d: key %" PRId64 " in cluster %" PRId64 ", brute force says %" PRId64,
						  round, k, ck, label[j]);
			seen++;
		}
		CHECK_INT_EQ(seen, n);
		tfp_cluster_free(&c);
	}
}

/*
 * The star rule read directly: in ascending key order, a key not claimed by
 * a smaller original becomes an original; a key's original is the smallest
 * original adjacent to it and smaller than it.
 */
static void
cluster_star_follows_its_rule(void)
{
	uint64_t	s = 1616;
	int64_t		keys[CL_MAXN];
	static bool adj[CL_MAXN][CL_MAXN];
	int			order[CL_MAXN];
	int64_t		want[CL_MAXN];

	for (int round = 0; round < 200; round++)
	{
		int			n = 1 + (int) (blocks_rand(&s) % CL_MAXN);
		int			m = (int) (blocks_rand(&s) % (3 * (uint64_t) n));
		tfp_cluster c;
		int64_t		prev = INT64_MIN;

		cluster_rand_keys(&s, n, keys);
		memset(adj, 0, sizeof(adj));
		tfp_cluster_init(&c, &env, TFP_CLUSTER_STAR);
		for (int i = 0; i < n; i++)
			REQUIRE(tfp_cluster_add_key(&c, keys[i]) == TFP_OK);
		for (int e = 0; e < m; e++)
		{
			int			a = (int) (blocks_rand(&s) % (uint64_t) n);
			int			b = (int) (blocks_rand(&s) % (uint64_t) n);

			adj[a][b] = adj[b][a] = true;
			/* both orders, and repeats: the store keeps them all */
			REQUIRE(tfp_cluster_add_pair(&c, keys[a], keys[b]) == TFP_OK);
			if (e % 3 == 0)
				REQUIRE(tfp_cluster_add_pair(&c, keys[b], keys[a]) == TFP_OK);
		}
		/* brute force: selection order over keys */
		for (int i = 0; i < n; i++)
			order[i] = i;
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && keys[order[j]] < keys[order[j - 1]]; j--)
			{
				int			t = order[j];

				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		for (int x = 0; x < n; x++)
		{
			int			i = order[x];

			want[i] = keys[i];
			for (int y = 0; y < x; y++)
			{
				int			o = order[y];

				if (want[o] == keys[o] && adj[i][o])
				{
					want[i] = keys[o];
					break;
				}
			}
		}
		REQUIRE(tfp_cluster_finish(&c) == TFP_OK);
		CHECK_INT_EQ((int) tfp_cluster_count(&c), n);
		for (size_t i = 0; i < tfp_cluster_count(&c); i++)
		{
			int64_t		k,
						ck,
						sz;
			int			j;

			tfp_cluster_get(&c, i, &k, &ck, &sz);
			CHECK(k > prev || i == 0);	/* ascending keys */
			prev = k;
			j = cluster_index_of(n, keys, k);
			REQUIRE(j >= 0);
			{
				int			want_size = 0;

				for (int x = 0; x < n; x++)
					want_size += want[x] == want[j];
				CHECK(sz == want_size);
			}
			if (ck != want[j])
				UNIT_FAIL("round %d: key %" PRId64 " claimed by %" PRId64 ", rule says %" PRId64,
						  round, k, ck, want[j]);
			/* every member is adjacent to its original */
			if (ck != k)
				CHECK(adj[j][cluster_index_of(n, keys, ck)]);
		}
		tfp_cluster_free(&c);
	}
}

/* A chain a-b-c-d: one component, but star splits it into {a,b} {c,d}. */
static void
cluster_chain_components_and_star(void)
{
	tfp_cluster c;
	int64_t		k,
				ck,
				sz;
	const int64_t want_star[4] = {1, 1, 3, 3};

	tfp_cluster_init(&c, &env, TFP_CLUSTER_COMPONENTS);
	REQUIRE(tfp_cluster_add_pair(&c, 3, 4) == TFP_OK);
	REQUIRE(tfp_cluster_add_pair(&c, 2, 3) == TFP_OK);
	REQUIRE(tfp_cluster_add_pair(&c, 1, 2) == TFP_OK);
	REQUIRE(tfp_cluster_finish(&c) == TFP_OK);
	for (size_t i = 0; i < 4; i++)
	{
		tfp_cluster_get(&c, i, &k, &ck, &sz);
		CHECK(ck == 1);
	}
	CHECK(c.nunions == 3);
	tfp_cluster_free(&c);

	tfp_cluster_init(&c, &env, TFP_CLUSTER_STAR);
	REQUIRE(tfp_cluster_add_pair(&c, 3, 4) == TFP_OK);
	REQUIRE(tfp_cluster_add_pair(&c, 2, 3) == TFP_OK);
	REQUIRE(tfp_cluster_add_pair(&c, 1, 2) == TFP_OK);
	REQUIRE(tfp_cluster_finish(&c) == TFP_OK);
	for (size_t i = 0; i < 4; i++)
	{
		tfp_cluster_get(&c, i, &k, &ck, &sz);
		CHECK(k == (int64_t) i + 1);
		CHECK(ck == want_star[i]);
		CHECK(sz == 2);
	}
	tfp_cluster_free(&c);
}

/* Many keys: the table rehashes, interrupts are checked, one big component. */
static void
cluster_large_and_interrupts(void)
{
	tfp_cluster c;
	const int64_t n = 300000;

	env.check_interrupts = counting_interrupts_fn;
	tfp_cluster_init(&c, &env, TFP_CLUSTER_COMPONENTS);
	for (int64_t i = 1; i < n; i++)
		REQUIRE(tfp_cluster_add_pair(&c, i * 7919, (i - 1) * 7919) == TFP_OK);
	REQUIRE(tfp_cluster_finish(&c) == TFP_OK);
	CHECK((int64_t) tfp_cluster_count(&c) == n);
	for (size_t i = 0; i < tfp_cluster_count(&c); i += 997)
	{
		int64_t		k,
					ck,
					sz;

		tfp_cluster_get(&c, i, &k, &ck, &sz);
		CHECK(ck == 0);
		CHECK(sz == n);
	}
	CHECK(ca.interrupts >= (long) (2 * n / TFP_CLUSTER_CHECK_EVERY));
	tfp_cluster_free(&c);
}

/* Every allocation failure comes back as TFP_ENOMEM and leaks nothing. */
static void
cluster_out_of_memory_paths(void)
{
	for (int mode = 0; mode < 2; mode++)
		for (long fail = 0; fail < 40; fail++)
		{
			tfp_cluster c;
			tfp_status	rc = TFP_OK;
			uint64_t	s = 7;

			env_reset();
			ca.fail_after = fail;
			tfp_cluster_init(&c, &env, mode ? TFP_CLUSTER_STAR : TFP_CLUSTER_COMPONENTS);
			for (int i = 0; i < 5000 && rc == TFP_OK; i++)
				rc = tfp_cluster_add_pair(&c, (int64_t) (blocks_rand(&s) % 3000),
										  (int64_t) (blocks_rand(&s) % 3000));
			if (rc == TFP_OK)
				rc = tfp_cluster_finish(&c);
			CHECK(rc == TFP_OK || rc == TFP_ENOMEM);
			if (ca.refused == 0)
				CHECK(rc == TFP_OK);
			tfp_cluster_free(&c);
			CHECK(ca.live == 0);
		}
}
