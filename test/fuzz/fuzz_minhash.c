/*
 * fuzz_minhash.c: libFuzzer target for MinHash signatures and exact
 * Jaccard (minhash.c).
 *
 * Input layout: 4 header bytes, then the body.
 *   [0..1] k = 1 + (little-endian 16 bits) % TFP_MINHASH_K_MAX
 *   [2]    flags: 0x01 kperm (else OPH), 0x02 read the body as text
 *          (pipeline with default options), 0x04 refuse allocations after [3]
 *   [3]    seed, or the allocation count before refusals
 * Without 0x02 the body is 64-bit items, 8 bytes each, little-endian.
 *
 * Invariants: a signature does not depend on the order of the items nor on
 * repeats; the empty set gives all TFP_MINHASH_EMPTY; a signature matches
 * itself in all k positions; the text form equals the signature of the
 * deduplicated features; exact Jaccard of sorted distinct sets is symmetric,
 * in [0, 1], 1 against itself; tfp_jaccard_needed is the least count that
 * reaches the threshold; with refused allocations the only new status is
 * TFP_ENOMEM; nothing allocated through tfp_env is left live.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "tfp_core.h"

#define HEADER_BYTES 4
#define MAX_ITEMS 4096

static tfp_minhash_acc acc;
static uint32_t sig_a[TFP_MINHASH_K_MAX];
static uint32_t sig_b[TFP_MINHASH_K_MAX];
static uint64_t items[2 * MAX_ITEMS];
static uint64_t other[2 * MAX_ITEMS];

static void
sign(const uint64_t *v, size_t n, int k, bool kperm, uint64_t seed, uint32_t *out)
{
	if (kperm)
	{
		tfp_minhash_kperm(v, n, k, seed, out, NULL);
		return;
	}
	tfp_minhash_init(&acc, k, seed);
	for (size_t i = 0; i < n; i++)
		tfp_minhash_add(&acc, v[i]);
	tfp_minhash_final(&acc, out);
}

static void
check_items(const uint8_t *body, size_t size, int k, bool kperm, uint64_t seed)
{
	size_t		n = size / 8;
	size_t		u;
	fuzz_alloc	a;
	tfp_env		env;

	if (n > MAX_ITEMS)
		n = MAX_ITEMS;
	for (size_t i = 0; i < n; i++)
	{
		uint64_t	v = 0;

		for (int b = 7; b >= 0; b--)
			v = (v << 8) | body[i * 8 + (size_t) b];
		items[i] = v;
	}
	sign(items, n, k, kperm, seed, sig_a);
	if (n == 0)
		for (int i = 0; i < k; i++)
			FUZZ_CHECK(sig_a[i] == TFP_MINHASH_EMPTY);
	FUZZ_CHECK(tfp_minhash_matches(sig_a, sig_a, k) == k);

	/* reversed, with every item twice: the same set */
	for (size_t i = 0; i < n; i++)
	{
		other[i] = items[n - 1 - i];
		other[n + i] = items[i];
	}
	sign(other, 2 * n, k, kperm, seed, sig_b);
	FUZZ_CHECK(tfp_minhash_matches(sig_a, sig_b, k) == k);

	/* exact Jaccard of the set and its first half */
	memcpy(other, items, n * sizeof(uint64_t));
	fuzz_env_init(&env, &a);
	FUZZ_CHECK(tfp_sort_unique_u64(&env, other, n, &u) == TFP_OK);
	FUZZ_CHECK(a.live == 0);
	for (size_t i = 1; i < u; i++)
		FUZZ_CHECK(other[i - 1] < other[i]);
	{
		size_t		half = n / 2;
		size_t		uh;
		double		j1;
		double		j2;

		memcpy(other + MAX_ITEMS, items, half * sizeof(uint64_t));
		FUZZ_CHECK(tfp_sort_unique_u64(&env, other + MAX_ITEMS, half, &uh) == TFP_OK);
		j1 = tfp_set_jaccard(other, u, other + MAX_ITEMS, uh);
		j2 = tfp_set_jaccard(other + MAX_ITEMS, uh, other, u);
		FUZZ_CHECK(j1 == j2);
		FUZZ_CHECK(j1 >= 0.0 && j1 <= 1.0);
		FUZZ_CHECK(tfp_set_jaccard(other, u, other, u) == 1.0);
		/* the half is a subset: J = |half| / |set| */
		FUZZ_CHECK(u == 0 || j1 == (double) uh / (double) u);
	}
}

static void
check_text(const uint8_t *body, size_t size, int k, bool kperm, uint64_t seed,
		   bool refuse, long fail_after)
{
	fuzz_alloc	a;
	tfp_env		env;
	tfp_options opts;
	tfp_featureset fs;
	tfp_status	rc;
	tfp_status	rc_ref;

	tfp_options_default(&opts);
	opts.seed = seed;
	fuzz_env_init(&env, &a);
	rc_ref = tfp_extract(&env, &opts, (const char *) body, size, true, false, &fs);
	if (rc_ref == TFP_OK)
	{
		size_t		n = fs.n < MAX_ITEMS ? fs.n : MAX_ITEMS;

		for (size_t i = 0; i < n; i++)
			items[i] = fs.items[i].hash;
		if (n == fs.n)
			sign(items, n, k, kperm, seed, sig_b);
		tfp_featureset_free(&env, &fs);
		if (n != fs.n)
			rc_ref = TFP_ETOOLONG;	/* too many to compare: skip below */
	}
	FUZZ_CHECK(a.live == 0);

	fuzz_env_init(&env, &a);
	if (refuse)
		a.fail_after = fail_after;
	rc = tfp_minhash_text(&env, &opts, (const char *) body, size, k,
						  kperm ? TFP_MINHASH_KPERM : TFP_MINHASH_OPH, sig_a, NULL);
	FUZZ_CHECK(a.live == 0);
	if (refuse && a.refused > 0)
		FUZZ_CHECK(rc == TFP_ENOMEM || rc == rc_ref);
	else if (rc_ref != TFP_ETOOLONG)
	{
		FUZZ_CHECK(rc == rc_ref);
		if (rc == TFP_OK)
			FUZZ_CHECK(tfp_minhash_matches(sig_a, sig_b, k) == k);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int			k;
	uint8_t		flags;

	if (size < HEADER_BYTES)
		return 0;
	k = 1 + (int) ((data[0] | (data[1] << 8)) % TFP_MINHASH_K_MAX);
	flags = data[2];

	/* thresholds from the header: the least count reaching them */
	{
		double		t = (double) (data[0] | (data[1] << 8)) / 65535.0;
		int			c = tfp_jaccard_needed(t, k);

		FUZZ_CHECK(c >= 0 && c <= k);
		FUZZ_CHECK((double) c / k >= t);
		FUZZ_CHECK(c == 0 || (double) (c - 1) / k < t);
	}

	if (flags & 0x02)
		check_text(data + HEADER_BYTES, size - HEADER_BYTES, k, flags & 0x01,
				   (flags & 0x04) ? 0 : data[3], flags & 0x04, data[3]);
	else
		check_items(data + HEADER_BYTES, size - HEADER_BYTES, k, flags & 0x01, data[3]);
	return 0;
}
