/*
 * stopwords.c: sets of stopwords, matched against whole tokens.
 *
 * A set is an open-addressing table of (hash, word) over one string pool.
 * The built-in lists are normalised exactly as tokens are, once per process,
 * so they match whatever form the input text used.
 */
#include <stdlib.h>
#include <string.h>

#include "tfp_core.h"

struct tfp_stopset
{
	size_t		mask;			/* table size - 1, a power of two */
	size_t		count;
	uint64_t   *hashes;
	uint32_t   *offs;			/* into pool; UINT32_MAX marks empty */
	uint32_t   *lens;
	char	   *pool;
};

#define EMPTY_SLOT UINT32_MAX

extern const char *const tfp_stopwords_zh_data[];
extern const size_t tfp_stopwords_zh_count;
extern const char *const tfp_stopwords_en_data[];
extern const size_t tfp_stopwords_en_count;
extern const char *const tfp_stopwords_snowball_en_data[];
extern const size_t tfp_stopwords_snowball_en_count;

static uint64_t
word_hash(const char *w, size_t len)
{
	return tfp_hash(w, len, 0);
}

tfp_status
tfp_stopset_build(tfp_env *env, const char *const *words, const size_t *lens,
				  size_t n, tfp_stopset **out)
{
	tfp_stopset *set;
	size_t		size = 16;
	size_t		pool_len = 0;
	size_t		used = 0;

	for (size_t i = 0; i < n; i++)
	{
		if (lens[i] > TFP_MAX_STOPWORD_BYTES)
			return TFP_ETOOLONG;
		pool_len += lens[i];
	}
	if (pool_len > UINT32_MAX - 1)
		return TFP_ETOOLONG;
	while (size < n * 2)
		size *= 2;

	set = env->alloc(env->ctx, sizeof(tfp_stopset));
	if (set == NULL)
		return TFP_ENOMEM;
	memset(set, 0, sizeof(tfp_stopset));
	set->mask = size - 1;
	set->hashes = env->alloc(env->ctx, size * sizeof(uint64_t));
	set->offs = env->alloc(env->ctx, size * sizeof(uint32_t));
	set->lens = env->alloc(env->ctx, size * sizeof(uint32_t));
	set->pool = env->alloc(env->ctx, pool_len + 1);
	if (!set->hashes || !set->offs || !set->lens || !set->pool)
	{
		tfp_stopset_free(env, set);
		return TFP_ENOMEM;
	}
	for (size_t i = 0; i < size; i++)
		set->offs[i] = EMPTY_SLOT;

	for (size_t i = 0; i < n; i++)
	{
		uint64_t	h;
		size_t		slot;

		if (lens[i] == 0 || tfp_stopset_contains(set, words[i], lens[i]))
			continue;
		h = word_hash(words[i], lens[i]);
		slot = (size_t) h & set->mask;
		while (set->offs[slot] != EMPTY_SLOT)
			slot = (slot + 1) & set->mask;
		memcpy(set->pool + used, words[i], lens[i]);
		set->hashes[slot] = h;
		set->offs[slot] = (uint32_t) used;
		set->lens[slot] = (uint32_t) lens[i];
		used += lens[i];
		set->count++;
	}
	*out = set;
	return TFP_OK;
}

bool
tfp_stopset_contains(const tfp_stopset *set, const char *word, size_t len)
{
	if (set == NULL || set->count == 0 || len > TFP_MAX_STOPWORD_BYTES)
		return false;
	return tfp_stopset_contains_hash(set, word, len, word_hash(word, len));
}

bool
tfp_stopset_contains_hash(const tfp_stopset *set, const char *word,
						  size_t len, uint64_t h)
{
	size_t		slot;

	if (set == NULL || set->count == 0 || len > TFP_MAX_STOPWORD_BYTES)
		return false;
	slot = (size_t) h & set->mask;
	while (set->offs[slot] != EMPTY_SLOT)
	{
		if (set->hashes[slot] == h && set->lens[slot] == len &&
			memcmp(set->pool + set->offs[slot], word, len) == 0)
			return true;
		slot = (slot + 1) & set->mask;
	}
	return false;
}

uint64_t
tfp_stopset_fingerprint(const tfp_stopset *set)
{
	uint64_t	sum = 0;

	if (set == NULL)
		return 0;
	/* a sum of mixed word hashes: independent of the order words came in */
	for (size_t slot = 0; slot <= set->mask; slot++)
		if (set->offs[slot] != EMPTY_SLOT)
		{
			uint64_t	z = set->hashes[slot] + UINT64_C(0x9e3779b97f4a7c15);

			z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
			z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
			sum += z ^ (z >> 31);
		}
	return sum;
}

void
tfp_stopset_free(tfp_env *env, tfp_stopset *set)
{
	if (set == NULL)
		return;
	if (set->hashes)
		env->free(env->ctx, set->hashes);
	if (set->offs)
		env->free(env->ctx, set->offs);
	if (set->lens)
		env->free(env->ctx, set->lens);
	if (set->pool)
		env->free(env->ctx, set->pool);
	env->free(env->ctx, set);
}

size_t
tfp_builtin_stopword_count(int which)
{
	return which == TFP_STOP_ZH ? tfp_stopwords_zh_count :
		which == TFP_STOP_EN ? tfp_stopwords_en_count :
		which == TFP_STOP_SNOWBALL ? tfp_stopwords_snowball_en_count : 0;
}

/* The built-in sets live as long as the process: plain malloc. */
static void *
process_alloc(void *ctx, size_t size)
{
	(void) ctx;
	return malloc(size ? size : 1);
}

static void
process_free(void *ctx, void *ptr)
{
	(void) ctx;
	free(ptr);
}

/* Normalise and add one built-in list's words to the arrays at *done. */
static tfp_status
normalise_list(tfp_env *penv, const char *const *data, size_t n,
			   char **norm, size_t *lens, size_t *done)
{
	tfp_status	rc = TFP_OK;

	for (size_t i = 0; rc == TFP_OK && i < n; i++, (*done)++)
		rc = tfp_normalize(penv, data[i], strlen(data[i]), false,
						   &norm[*done], &lens[*done]);
	return rc;
}

tfp_status
tfp_builtin_stopset(tfp_env *env, int mask, const tfp_stopset **out)
{
	/* one merged set per combination, so a token is looked up once */
	static tfp_stopset *sets[TFP_STOP_ALL + 1];
	tfp_stopset **slot = &sets[mask & TFP_STOP_ALL];
	size_t		nzh = (mask & TFP_STOP_ZH) ? tfp_stopwords_zh_count : 0;
	size_t		nen = (mask & TFP_STOP_EN) ? tfp_stopwords_en_count : 0;
	size_t		nsb = (mask & TFP_STOP_SNOWBALL) ? tfp_stopwords_snowball_en_count : 0;
	size_t		n = nzh + nen + nsb;
	tfp_env		penv = {process_alloc, process_free, NULL, NULL, 0, NULL};
	char	  **norm;
	size_t	   *lens;
	size_t		done = 0;
	tfp_status	rc = TFP_OK;

	if (*slot != NULL)
	{
		*out = *slot;
		return TFP_OK;
	}
	norm = calloc(n ? n : 1, sizeof(char *));
	lens = calloc(n ? n : 1, sizeof(size_t));
	if (norm == NULL || lens == NULL)
		rc = TFP_ENOMEM;
	if (rc == TFP_OK)
		rc = normalise_list(&penv, tfp_stopwords_zh_data, nzh, norm, lens, &done);
	if (rc == TFP_OK)
		rc = normalise_list(&penv, tfp_stopwords_en_data, nen, norm, lens, &done);
	if (rc == TFP_OK)
		rc = normalise_list(&penv, tfp_stopwords_snowball_en_data, nsb, norm, lens, &done);
	if (rc == TFP_OK)
		rc = tfp_stopset_build(&penv, (const char *const *) norm, lens, n, slot);
	for (size_t i = 0; norm && i < done; i++)
		free(norm[i]);
	free(norm);
	free(lens);
	if (rc != TFP_OK)
	{
		env->icu_error = penv.icu_error;
		*slot = NULL;
		return rc;
	}
	*out = *slot;
	return TFP_OK;
}
