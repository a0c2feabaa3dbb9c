/*
 * simhash.c: SimHash over weighted feature hashes.
 *
 * Bit i of the fingerprint is set when the features whose hash has bit i set
 * outweigh those whose hash has it clear (ties give 0).  Weights are fixed
 * point integers (see tfp_core.h), so sums are exact and order-independent.
 */
#include <math.h>
#include <string.h>

#include "tfp_core.h"

void
tfp_simhash_init(tfp_simhash_acc *acc)
{
	memset(acc, 0, sizeof(*acc));
}

tfp_status
tfp_weight_to_fixed(double w, int64_t *out)
{
	if (!(w >= 0.0 && w <= TFP_MAX_WEIGHT))	/* also rejects NaN */
		return TFP_EWEIGHT;
	/* scaling by a power of two is exact; rint rounds half to even */
	*out = (int64_t) rint(ldexp(w, TFP_WEIGHT_FRAC_BITS));
	return TFP_OK;
}

tfp_status
tfp_simhash_add(tfp_simhash_acc *acc, uint64_t hash, int64_t w)
{
	if (w < 0 || (uint64_t) w > (uint64_t) INT64_MAX - acc->total)
		return TFP_EOVERFLOW;
	acc->total += (uint64_t) w;
	for (int i = 0; i < SIMHASH_BITS; i++)
		acc->v[i] += ((hash >> i) & 1) ? w : -w;
	return TFP_OK;
}

tfp_status
tfp_simhash_merge(tfp_simhash_acc *into, const tfp_simhash_acc *from)
{
	if (from->total > (uint64_t) INT64_MAX - into->total)
		return TFP_EOVERFLOW;
	into->total += from->total;
	for (int i = 0; i < SIMHASH_BITS; i++)
		into->v[i] += from->v[i];
	return TFP_OK;
}

uint64_t
tfp_simhash_final(const tfp_simhash_acc *acc)
{
	uint64_t	fp = 0;

	for (int i = 0; i < SIMHASH_BITS; i++)
		if (acc->v[i] > 0)
			fp |= UINT64_C(1) << i;
	return fp;
}

/*
 * Add n features of the same weight w.  Each bit is counted over the batch
 * with eight byte-lane counters (8 additions a feature instead of 64), then
 * the counts become +w/-w sums: the result equals n tfp_simhash_add calls.
 */
tfp_status
tfp_simhash_add_uniform(tfp_simhash_acc *acc, const uint64_t *hashes,
						size_t n, int64_t w, tfp_env *env)
{
	const uint64_t lane_bits = UINT64_C(0x0101010101010101);
	int64_t		ones[SIMHASH_BITS] = {0};
	size_t		batches = 0;

	if (w < 0 || (w > 0 && n > ((uint64_t) INT64_MAX - acc->total) / (uint64_t) w))
		return TFP_EOVERFLOW;
	for (size_t start = 0; start < n; start += 255)
	{
		/* a byte lane counts at most 255 features before it is folded */
		size_t		end = n - start > 255 ? start + 255 : n;
		uint64_t	lanes[8] = {0};

		for (size_t i = start; i < end; i++)
		{
			uint64_t	h = hashes[i];

			for (int k = 0; k < 8; k++)
				lanes[k] += (h >> k) & lane_bits;
		}
		/* lane j of lanes[k] counted bit 8j + k */
		for (int k = 0; k < 8; k++)
			for (int j = 0; j < 8; j++)
				ones[8 * j + k] += (int64_t) ((lanes[k] >> (8 * j)) & 0xFF);
		if (env && env->check_interrupts && ++batches % 256 == 0)
			env->check_interrupts(env->ctx);
	}
	for (int i = 0; i < SIMHASH_BITS; i++)
		acc->v[i] += (2 * ones[i] - (int64_t) n) * w;
	acc->total += (uint64_t) n * (uint64_t) w;
	return TFP_OK;
}

/* TF weights: every occurrence counts once, added in batches. */
#define SIMHASH_BATCH 1024

typedef struct simhash_sink
{
	tfp_simhash_acc *acc;
	tfp_env    *env;
	size_t		n;
	size_t		total;
	uint64_t	batch[SIMHASH_BATCH];
} simhash_sink;

static tfp_status
simhash_flush(simhash_sink *s)
{
	tfp_status	rc = tfp_simhash_add_uniform(s->acc, s->batch, s->n,
											 INT64_C(1) << TFP_WEIGHT_FRAC_BITS, s->env);

	s->n = 0;
	return rc;
}

static tfp_status
simhash_sink_add(void *arg, uint64_t hash, const char *text, size_t len)
{
	simhash_sink *s = (simhash_sink *) arg;

	(void) text;
	(void) len;
	s->batch[s->n++] = hash;
	s->total++;
	return s->n == SIMHASH_BATCH ? simhash_flush(s) : TFP_OK;
}

tfp_status
tfp_simhash_text(tfp_env *env, const tfp_options *opts, const char *utf8,
				 size_t len, uint64_t *out, size_t *nfeatures)
{
	tfp_simhash_acc acc;
	tfp_status	rc;

	tfp_simhash_init(&acc);
	/*
	 * All weights are equal: TF counts every occurrence once (the sum is the
	 * same as count times weight per distinct feature), binary every
	 * distinct feature once.
	 */
	if (opts->weighting == TFP_WEIGHT_TF && !tfp_weights_per_feature(opts))
	{
		simhash_sink s;			/* 8 kB on the stack */

		s.acc = &acc;
		s.env = env;
		s.n = 0;
		s.total = 0;
		rc = tfp_pipeline(env, opts, utf8, len, simhash_sink_add, &s);
		if (rc == TFP_OK)
			rc = simhash_flush(&s);
		if (nfeatures)
			*nfeatures = s.total;
	}
	else if (tfp_weights_per_feature(opts))
	{
		/* weights differ: count each distinct feature, weigh it, add it */
		tfp_feature_table t;
		int64_t    *w = NULL;
		size_t		n;

		tfp_feature_table_init(env, &t, true, false);
		rc = tfp_pipeline(env, opts, utf8, len, tfp_feature_table_add, &t);
		if (rc == TFP_OK && t.n > 0 &&
			(w = env->alloc(env->ctx, t.n * sizeof(int64_t))) == NULL)
			rc = TFP_ENOMEM;
		for (size_t i = 0; rc == TFP_OK && i < t.n; i++)
		{
			w[i] = tfp_feature_weight_fixed(opts, &t.items[i]);
			if (env->check_interrupts && (i & 0xFFFF) == 0xFFFF)
				env->check_interrupts(env->ctx);
		}
		n = t.n;
		if (rc == TFP_OK && opts->keywords > 0 && (size_t) opts->keywords < n)
		{
			tfp_select_keywords(t.items, w, n, (size_t) opts->keywords);
			n = (size_t) opts->keywords;
		}
		for (size_t i = 0; rc == TFP_OK && i < n; i++)
		{
			rc = tfp_simhash_add(&acc, t.items[i].hash, w[i]);
			if (env->check_interrupts && (i & 0xFFFF) == 0xFFFF)
				env->check_interrupts(env->ctx);
		}
		if (nfeatures)
			*nfeatures = t.n;
		if (w)
			env->free(env->ctx, w);
		tfp_feature_table_free(&t);
	}
	else
	{
		tfp_feature_table t;

		tfp_feature_table_init(env, &t, true, false);
		rc = tfp_pipeline(env, opts, utf8, len, tfp_feature_table_add, &t);
		for (size_t start = 0; rc == TFP_OK && start < t.n; start += SIMHASH_BATCH)
		{
			uint64_t	batch[SIMHASH_BATCH];
			size_t		n = t.n - start < SIMHASH_BATCH ? t.n - start : SIMHASH_BATCH;

			for (size_t i = 0; i < n; i++)
				batch[i] = t.items[start + i].hash;
			rc = tfp_simhash_add_uniform(&acc, batch, n, INT64_C(1) << TFP_WEIGHT_FRAC_BITS, env);
		}
		if (nfeatures)
			*nfeatures = t.n;
		tfp_feature_table_free(&t);
	}
	if (rc != TFP_OK)
		return rc;
	*out = tfp_simhash_final(&acc);
	return TFP_OK;
}
