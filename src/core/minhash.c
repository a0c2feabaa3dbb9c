/*
 * minhash.c: MinHash signatures of sets of 64-bit shingle hashes, their
 * Jaccard estimates, and exact Jaccard of sorted hash sets.
 *
 * The default method is one-permutation hashing (OPH) with optimal
 * densification (Shrivastava, ICML 2017): each item is hashed once, the
 * high bits pick one of k bins and the low 32 bits compete for the bin's
 * minimum; empty bins then borrow from a non-empty bin along a probe
 * sequence that depends only on (bin, seed), so two sets borrow alike and
 * the share of equal positions stays an unbiased estimate of the Jaccard
 * similarity.  The cost is O(n + k), not the O(n * k) of k independent
 * hashes, which is kept as TFP_MINHASH_KPERM: the textbook reference.
 *
 * Everything is integer arithmetic on fixed-width values, so a signature is
 * the same on every platform.  The constants below are part of the stored
 * format (algorithm tag 1): never change them; add a new tag instead.
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"

/* SplitMix64's finaliser: a bijection of 64-bit values, fast and well mixed. */
static inline uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Key that makes the user's seed a different permutation of the items. */
static inline uint64_t
seed_key(uint64_t seed, uint64_t salt)
{
	return mix64(seed + salt * UINT64_C(0x9e3779b97f4a7c15));
}

#define SALT_ITEMS	 1
#define SALT_PROBES	 2
#define SALT_KPERM	 3

/* Lemire's multiply-shift: a 32-bit hash onto 0..k-1 without division. */
static inline uint32_t
fast_range(uint32_t h, uint32_t k)
{
	return (uint32_t) (((uint64_t) h * k) >> 32);
}

void
tfp_minhash_init(tfp_minhash_acc *acc, int k, uint64_t seed)
{
	acc->k = k;
	acc->seed = seed;
	acc->key = seed_key(seed, SALT_ITEMS);
	acc->filled = 0;
	/* above any 32-bit value: marks a bin no item fell into */
	for (int i = 0; i < k; i++)
		acc->bins[i] = UINT64_MAX;
}

void
tfp_minhash_add(tfp_minhash_acc *acc, uint64_t item)
{
	uint64_t	g = mix64(item ^ acc->key);
	uint32_t	bin = fast_range((uint32_t) (g >> 32), (uint32_t) acc->k);
	uint64_t	v = g & UINT32_MAX;

	if (acc->bins[bin] == UINT64_MAX)
		acc->filled++;
	if (v < acc->bins[bin])
		acc->bins[bin] = v;
}

void
tfp_minhash_final(const tfp_minhash_acc *acc, uint32_t *out)
{
	uint64_t	pkey;
	uint32_t	k = (uint32_t) acc->k;

	if (acc->filled == 0)
	{
		for (uint32_t i = 0; i < k; i++)
			out[i] = TFP_MINHASH_EMPTY;
		return;
	}
	pkey = seed_key(acc->seed, SALT_PROBES);
	for (uint32_t i = 0; i < k; i++)
	{
		uint32_t	src = i;

		/*
		 * Optimal densification: probe bins h(i, 1), h(i, 2), ... until a
		 * filled one.  Expected k / filled probes; ends since one is filled.
		 */
		for (uint64_t attempt = 1; acc->bins[src] == UINT64_MAX; attempt++)
			src = fast_range((uint32_t) (mix64(((uint64_t) i << 32 | attempt) ^ pkey) >> 32), k);
		out[i] = (uint32_t) acc->bins[src];
	}
}

void
tfp_minhash_kperm(const uint64_t *items, size_t n, int k, uint64_t seed,
				  uint32_t *out, tfp_env *env)
{
	uint64_t	base = seed_key(seed, SALT_KPERM);

	for (int i = 0; i < k; i++)
	{
		uint64_t	key = mix64(base + (uint64_t) i);
		uint32_t	m = TFP_MINHASH_EMPTY;

		if (env && env->check_interrupts)
			env->check_interrupts(env->ctx);
		for (size_t j = 0; j < n; j++)
		{
			uint32_t	v = (uint32_t) (mix64(items[j] ^ key) >> 32);

			if (v < m)
				m = v;
		}
		out[i] = m;
	}
}

int
tfp_minhash_matches(const uint32_t *a, const uint32_t *b, int k)
{
	int			c = 0;

	for (int i = 0; i < k; i++)
		c += a[i] == b[i];
	return c;
}

int
tfp_jaccard_needed(double t, int k)
{
	int			c;

	if (!(t > 0.0))				/* also NaN: the glue rejects it first */
		return 0;
	if (t > 1.0)
		return k + 1;
	/* the smallest c with (double) c / k >= t, exactly as jaccard() divides */
	c = (int) (t * k);
	while (c > 0 && (double) (c - 1) / k >= t)
		c--;
	while (c <= k && (double) c / k < t)
		c++;
	return c;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* Reverse v[from .. to - 1] in place. */
static void
reverse_u64(uint64_t *v, size_t from, size_t to)
{
	while (from + 1 < to)
	{
		uint64_t	t = v[from];

		v[from++] = v[--to];
		v[to] = t;
	}
}

size_t
tfp_sort_unique_u64(uint64_t *v, size_t n)
{
	size_t		m = 0;
	size_t		k = 1;

	if (n == 0)
		return 0;
	/* already strictly ascending: nothing to do */
	while (k < n && v[k - 1] < v[k])
		k++;
	if (k == n)
		return n;
	/*
	 * Strictly ascending as signed values (shingles() returns bigint order):
	 * the negatives come first, so rotate them behind the rest.
	 */
	for (k = 1; k < n && (int64_t) v[k - 1] < (int64_t) v[k]; k++)
		;
	if (k == n)
	{
		size_t		neg = 0;

		while (neg < n && (v[neg] >> 63))
			neg++;
		reverse_u64(v, 0, neg);
		reverse_u64(v, neg, n);
		reverse_u64(v, 0, n);
		return n;
	}
	qsort(v, n, sizeof(uint64_t), cmp_u64);
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[m])
			v[++m] = v[i];
	return m + 1;
}

double
tfp_set_jaccard(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t		i = 0;
	size_t		j = 0;
	size_t		common = 0;

	if (na == 0 && nb == 0)
		return 1.0;				/* two empty sets are equal */
	while (i < na && j < nb)
	{
		if (a[i] < b[j])
			i++;
		else if (a[i] > b[j])
			j++;
		else
		{
			common++;
			i++;
			j++;
		}
	}
	return (double) common / (double) (na + nb - common);
}

tfp_status
tfp_minhash_text(tfp_env *env, const tfp_options *opts, const char *utf8,
				 size_t len, int k, tfp_minhash_method method, uint32_t *out)
{
	tfp_featureset fs;
	tfp_status	rc;

	/* repeats cannot change a minimum: OPH skips the dedupe table */
	rc = tfp_extract(env, opts, utf8, len, method == TFP_MINHASH_KPERM, false, &fs);
	if (rc != TFP_OK)
		return rc;
	if (method == TFP_MINHASH_KPERM)
	{
		uint64_t   *items = env->alloc(env->ctx, (fs.n ? fs.n : 1) * sizeof(uint64_t));

		if (items == NULL)
		{
			tfp_featureset_free(env, &fs);
			return TFP_ENOMEM;
		}
		for (size_t i = 0; i < fs.n; i++)
			items[i] = fs.items[i].hash;
		tfp_minhash_kperm(items, fs.n, k, opts->seed, out, env);
		env->free(env->ctx, items);
	}
	else
	{
		tfp_minhash_acc *acc = env->alloc(env->ctx, sizeof(tfp_minhash_acc));

		if (acc == NULL)
		{
			tfp_featureset_free(env, &fs);
			return TFP_ENOMEM;
		}
		tfp_minhash_init(acc, k, opts->seed);
		for (size_t i = 0; i < fs.n; i++)
			tfp_minhash_add(acc, fs.items[i].hash);
		tfp_minhash_final(acc, out);
		env->free(env->ctx, acc);
	}
	tfp_featureset_free(env, &fs);
	return TFP_OK;
}

/* Little-endian bytes, so the identity is the same on every platform. */
static size_t
put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char) (v >> (8 * i));
	return 8;
}

uint32_t
tfp_pipeline_id(const tfp_options *opts)
{
	unsigned char buf[8 * 7];
	size_t		n = 0;
	uint64_t	h;

	n += put_u64(buf + n, 1);	/* version of this encoding */
	n += put_u64(buf + n, (uint64_t) opts->ngram);
	n += put_u64(buf + n, (uint64_t) opts->shingle);
	n += put_u64(buf + n, (uint64_t) opts->tokenizer);
	n += put_u64(buf + n, (uint64_t) opts->simplify);
	n += put_u64(buf + n, (uint64_t) opts->builtin_stopwords);
	n += put_u64(buf + n, tfp_stopset_fingerprint(opts->user_stopwords));
	h = tfp_hash(buf, n, 0);
	/* 0 is reserved for signatures of caller-made shingles */
	return (uint32_t) (h >> 32) ? (uint32_t) (h >> 32) : 1;
}

uint64_t
tfp_minhash_pair_matches(const uint32_t **sigs, size_t n, int k,
						 size_t max_rows, double *share)
{
	uint64_t	counts[TFP_MINHASH_K_MAX + 1] = {0};
	uint64_t	pairs = 0;
	uint64_t	run = 0;
	uint64_t	state = 0;
	size_t		m = n < max_rows ? n : max_rows;

	/* a fixed pseudo-random m of the rows to the front (partial Fisher-Yates) */
	for (size_t i = 0; i < m && m < n; i++)
	{
		size_t		j;
		const uint32_t *tmp = sigs[i];

		state += UINT64_C(0x9e3779b97f4a7c15);
		j = i + (size_t) (mix64(state) % (uint64_t) (n - i));
		sigs[i] = sigs[j];
		sigs[j] = tmp;
	}
	for (size_t i = 0; i < m; i++)
	{
		for (size_t j = 0; j < i; j++)
			counts[tfp_minhash_matches(sigs[i], sigs[j], k)]++;
		pairs += i;
	}
	for (int c = k; c >= 0; c--)
	{
		run += counts[c];
		share[c] = pairs > 0 ? (double) run / (double) pairs : 0;
	}
	return pairs;
}
