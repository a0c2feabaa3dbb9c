/*
 * idf.c: document frequencies for TF-IDF weights, as a count-min sketch.
 *
 * A model is TFP_IDF_DEPTH rows of width counters and the number of
 * documents.  Each document adds 1, for each distinct feature, to one
 * counter per row; a feature's document frequency is read back from its
 * counters, less the share of the other features that fell into the same
 * buckets (count-mean-min, Deng and Rafiei 2007), never above the plain
 * count-min bound.  Adding is commutative, so a table's model does not
 * depend on row order or on how a parallel plan splits the rows, and the
 * size is fixed whatever the corpus.  Everything is integer arithmetic:
 * the same model gives the same weights on every platform.
 */
#include <string.h>

#include "tfp_core.h"

/* Frozen: stored fingerprints depend on where a feature's counters are. */
static const uint64_t row_salt[TFP_IDF_DEPTH] = {
	UINT64_C(0x9e3779b97f4a7c15), UINT64_C(0xc2b2ae3d27d4eb4f),
	UINT64_C(0x165667b19e3779f9), UINT64_C(0xd6e8feb86659fd93),
};

uint32_t
tfp_idf_bucket(uint64_t h, int row, uint32_t width)
{
	uint64_t	x = h ^ row_salt[row];

	/* splitmix64's finaliser: every bit of h moves the bucket */
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return (uint32_t) (x >> 32) & (width - 1);
}

tfp_status
tfp_idf_add_doc(uint32_t *counts, uint32_t width, const uint64_t *features, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int r = 0; r < TFP_IDF_DEPTH; r++)
		{
			uint32_t   *c = &counts[(size_t) r * width + tfp_idf_bucket(features[i], r, width)];

			if (*c == UINT32_MAX)
				return TFP_EOVERFLOW;
			(*c)++;
		}
	return TFP_OK;
}

tfp_status
tfp_idf_merge(uint32_t *into, const uint32_t *from, uint32_t width)
{
	size_t		n = (size_t) TFP_IDF_DEPTH * width;

	for (size_t i = 0; i < n; i++)
		if (from[i] > UINT32_MAX - into[i])
			return TFP_EOVERFLOW;
	for (size_t i = 0; i < n; i++)
		into[i] += from[i];
	return TFP_OK;
}

bool
tfp_idf_check(tfp_idf *model)
{
	uint32_t	w = model->width;
	uint64_t	total = 0;

	model->log2_docs = tfp_log2_fixed(model->docs + 1);
	if (model->docs == 0)
	{
		model->total = 0;
		return w == 0;
	}
	if (w < TFP_IDF_WIDTH_MIN || w > TFP_IDF_WIDTH_MAX || (w & (w - 1)) != 0)
		return false;
	for (int r = 0; r < TFP_IDF_DEPTH; r++)
	{
		uint64_t	sum = 0;

		for (uint32_t i = 0; i < w; i++)
			sum += model->counts[(size_t) r * w + i];
		if (r > 0 && sum != total)
			return false;
		total = sum;
	}
	model->total = total;
	return true;
}

uint64_t
tfp_idf_df(const tfp_idf *model, uint64_t h)
{
	uint64_t	e[TFP_IDF_DEPTH];
	uint64_t	cm = UINT64_MAX;
	uint64_t	est;

	if (model->docs == 0)
		return 0;
	for (int r = 0; r < TFP_IDF_DEPTH; r++)
	{
		uint64_t	c = model->counts[(size_t) r * model->width +
									  tfp_idf_bucket(h, r, model->width)];
		/* what the other features put in this bucket, on average */
		uint64_t	noise = (model->total - c) / (model->width - 1);

		if (c < cm)
			cm = c;
		e[r] = c > noise ? c - noise : 0;
	}
	/* the median of the corrected counts (insertion sort of four) */
	for (int i = 1; i < TFP_IDF_DEPTH; i++)
		for (int j = i; j > 0 && e[j - 1] > e[j]; j--)
		{
			uint64_t	t = e[j];

			e[j] = e[j - 1];
			e[j - 1] = t;
		}
	est = (e[TFP_IDF_DEPTH / 2 - 1] + e[TFP_IDF_DEPTH / 2]) / 2;
	if (est > cm)
		est = cm;
	return est > model->docs ? model->docs : est;
}

int64_t
tfp_idf_weight_fixed(const tfp_idf *model, uint64_t h)
{
	int64_t		one = INT64_C(1) << TFP_WEIGHT_FRAC_BITS;
	int64_t		l;

	if (model == NULL || model->docs == 0)
		return one;
	/* ln((N + 1) / (df + 1)) as ln 2 times a difference of log2s */
	l = model->log2_docs - tfp_log2_fixed(tfp_idf_df(model, h) + 1);
	if (l < 0)
		l = 0;
	return one + (int64_t) (((uint64_t) l * UINT64_C(2977044472) + (UINT64_C(1) << 31)) >> 32);
}
