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

/*
 * LSD radix sort, a byte a pass, with the sign bit flipped for signed order:
 * O(n), no recursion, and interruptible, where qsort of a large array could
 * not answer a cancel.  Passes whose byte is the same in every value are
 * skipped.
 */
tfp_status
tfp_sort_u64(tfp_env *env, uint64_t *v, size_t n, bool as_signed)
{
	uint64_t	flip = as_signed ? UINT64_C(1) << 63 : 0;
	uint64_t   *tmp;
	uint64_t   *src = v;
	uint64_t   *dst;

	if (n < 2)
		return TFP_OK;
	tmp = env->alloc(env->ctx, n * sizeof(uint64_t));
	if (tmp == NULL)
		return TFP_ENOMEM;
	dst = tmp;
	for (int shift = 0; shift < 64; shift += 8)
	{
		size_t		count[256] = {0};
		size_t		sum = 0;

		for (size_t i = 0; i < n; i++)
		{
			count[((src[i] ^ flip) >> shift) & 0xFF]++;
			if (env->check_interrupts && (i & 0xFFFFF) == 0xFFFFF)
				env->check_interrupts(env->ctx);
		}
		if (count[((src[0] ^ flip) >> shift) & 0xFF] == n)
			continue;
		for (int b = 0; b < 256; b++)
		{
			size_t		c = count[b];

			count[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
		{
			dst[count[((src[i] ^ flip) >> shift) & 0xFF]++] = src[i];
			if (env->check_interrupts && (i & 0xFFFFF) == 0xFFFFF)
				env->check_interrupts(env->ctx);
		}
		{
			uint64_t   *t = src;

			src = dst;
			dst = t;
		}
	}
	if (src != v)
		memcpy(v, src, n * sizeof(uint64_t));
	env->free(env->ctx, tmp);
	return TFP_OK;
}

tfp_status
tfp_sort_unique_u64(tfp_env *env, uint64_t *v, size_t n, size_t *out_n)
{
	size_t		m = 0;
	size_t		k = 1;
	tfp_status	rc;

	*out_n = n;
	if (n == 0)
		return TFP_OK;
	/* already strictly ascending: nothing to do */
	while (k < n && v[k - 1] < v[k])
		k++;
	if (k == n)
		return TFP_OK;
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
		return TFP_OK;
	}
	if ((rc = tfp_sort_u64(env, v, n, false)) != TFP_OK)
		return rc;
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[m])
			v[++m] = v[i];
	*out_n = m + 1;
	return TFP_OK;
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

/* One-permutation hashing takes every occurrence (repeats change no minimum). */
typedef struct oph_sink
{
	tfp_minhash_acc acc;
	size_t		n;
} oph_sink;

static tfp_status
oph_sink_add(void *arg, uint64_t hash, const char *text, size_t len)
{
	oph_sink   *s = (oph_sink *) arg;

	(void) text;
	(void) len;
	tfp_minhash_add(&s->acc, hash);
	s->n++;
	return TFP_OK;
}

tfp_status
tfp_minhash_text(tfp_env *env, const tfp_options *opts, const char *utf8,
				 size_t len, int k, tfp_minhash_method method, uint32_t *out,
				 size_t *nfeatures)
{
	tfp_status	rc;

	if (method == TFP_MINHASH_KPERM)
	{
		tfp_feature_table t;
		uint64_t   *items = NULL;

		/* k hashes of every distinct shingle */
		tfp_feature_table_init(env, &t, true, false);
		rc = tfp_pipeline(env, opts, utf8, len, tfp_feature_table_add, &t);
		if (rc == TFP_OK)
		{
			items = env->alloc(env->ctx, (t.n ? t.n : 1) * sizeof(uint64_t));
			if (items == NULL)
				rc = TFP_ENOMEM;
		}
		if (rc == TFP_OK)
		{
			for (size_t i = 0; i < t.n; i++)
				items[i] = t.items[i].hash;
			tfp_minhash_kperm(items, t.n, k, opts->seed, out, env);
			if (nfeatures)
				*nfeatures = t.n;
		}
		if (items)
			env->free(env->ctx, items);
		tfp_feature_table_free(&t);
	}
	else
	{
		oph_sink   *s = env->alloc(env->ctx, sizeof(oph_sink));

		if (s == NULL)
			return TFP_ENOMEM;
		tfp_minhash_init(&s->acc, k, opts->seed);
		s->n = 0;
		rc = tfp_pipeline(env, opts, utf8, len, oph_sink_add, s);
		if (rc == TFP_OK)
		{
			tfp_minhash_final(&s->acc, out);
			if (nfeatures)
				*nfeatures = s->n;
		}
		env->free(env->ctx, s);
	}
	return rc;
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
	unsigned char buf[8 * 10];
	size_t		n = 0;
	uint64_t	h;
	const char *name;
	const char *sha256;
	uint64_t	digest;

	n += put_u64(buf + n, 1);	/* version of this encoding */
	n += put_u64(buf + n, (uint64_t) opts->ngram);
	n += put_u64(buf + n, (uint64_t) opts->shingle);
	n += put_u64(buf + n, (uint64_t) opts->tokenizer);
	n += put_u64(buf + n, (uint64_t) opts->simplify);
	n += put_u64(buf + n, (uint64_t) opts->builtin_stopwords);
	n += put_u64(buf + n, tfp_stopset_fingerprint(opts->user_stopwords));
	/* 1.1's numbers option, only when it changes the set (1.0's ids stay) */
	if (opts->numbers != TFP_NUMBERS_KEEP)
		n += put_u64(buf + n, (uint64_t) opts->numbers);
	/* a conversion adds its value and its table's digest (1.0's ids stay) */
	if (tfp_chinese_table(opts->chinese, &name, &sha256, &digest))
	{
		n += put_u64(buf + n, (uint64_t) opts->chinese);
		n += put_u64(buf + n, digest);
	}
	h = tfp_hash(buf, n, 0);
	/* 0 is reserved for signatures of caller-made shingles */
	return (uint32_t) (h >> 32) ? (uint32_t) (h >> 32) : 1;
}

uint64_t
tfp_minhash_pair_matches(const uint32_t **sigs, size_t n, int k,
						 size_t max_rows, double *share, tfp_env *env)
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
		if (env && env->check_interrupts)
			env->check_interrupts(env->ctx);
	}
	for (int c = k; c >= 0; c--)
	{
		run += counts[c];
		share[c] = pairs > 0 ? (double) run / (double) pairs : 0;
	}
	return pairs;
}
