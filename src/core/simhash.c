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
	/* branch-free, so the compiler can vectorise it */
	for (int i = 0; i < SIMHASH_BITS; i++)
		acc->v[i] += (int64_t) (2 * ((hash >> i) & 1)) * w - w;
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

tfp_status
tfp_simhash_text(tfp_env *env, const tfp_options *opts, const char *utf8,
				 size_t len, uint64_t *out)
{
	tfp_featureset fs;
	tfp_simhash_acc acc;
	tfp_status	rc;

	/* TF weights sum the same per occurrence as per distinct feature. */
	rc = tfp_extract(env, opts, utf8, len,
					 opts->weighting != TFP_WEIGHT_TF, false, &fs);
	if (rc != TFP_OK)
		return rc;
	tfp_simhash_init(&acc);
	for (size_t i = 0; i < fs.n && rc == TFP_OK; i++)
	{
		rc = tfp_simhash_add(&acc, fs.items[i].hash,
							 tfp_feature_weight_fixed(opts, &fs.items[i]));
		if (env->check_interrupts && (i & 0xFFFF) == 0xFFFF)
			env->check_interrupts(env->ctx);
	}
	tfp_featureset_free(env, &fs);
	if (rc != TFP_OK)
		return rc;
	*out = tfp_simhash_final(&acc);
	return TFP_OK;
}
