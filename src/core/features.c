/*
 * features.c: the pipeline from text to weighted, hashed features.
 *
 * normalise -> tokenise -> drop stopwords -> k-token shingles -> hash.
 * A shingle's text is its tokens joined by single spaces (tokens never
 * contain spaces), and its hash is XXH3-64 of that text with the seed, so a
 * user can recompute any feature hash from textfp_features() output.
 */
#include <string.h>

#include "tfp_core.h"

void
tfp_options_default(tfp_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->ngram = 2;
	opts->shingle = 1;
	opts->tokenizer = TFP_TOKENIZER_NGRAM;
	opts->simplify = false;
	opts->builtin_stopwords = TFP_STOP_ZH | TFP_STOP_EN;
	opts->user_stopwords = NULL;
	opts->weighting = TFP_WEIGHT_TF;
	opts->seed = 0;
}

/* Growable byte buffer for shingle texts. */
typedef struct byte_buf
{
	char	   *data;
	size_t		len;
	size_t		cap;
} byte_buf;

static tfp_status
buf_append(tfp_env *env, byte_buf *b, const char *s, size_t n)
{
	if (b->len + n > b->cap)
	{
		size_t		ncap = b->cap ? b->cap : 256;
		char	   *nd;

		while (ncap < b->len + n)
			ncap *= 2;
		nd = env->alloc(env->ctx, ncap);
		if (nd == NULL)
			return TFP_ENOMEM;
		if (b->len)
			memcpy(nd, b->data, b->len);
		if (b->data)
			env->free(env->ctx, b->data);
		b->data = nd;
		b->cap = ncap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	return TFP_OK;
}

/* Remove stopword tokens in place; returns the new count. */
static size_t
drop_stopwords(const tfp_stopset *builtin, const tfp_stopset *user,
			   const char *text, tfp_span *tok, size_t n)
{
	size_t		kept = 0;

	if (builtin == NULL && user == NULL)
		return n;
	for (size_t i = 0; i < n; i++)
	{
		const char *w = text + tok[i].off;
		size_t		len = tok[i].len;

		if (tfp_stopset_contains(builtin, w, len) ||
			tfp_stopset_contains(user, w, len))
			continue;
		tok[kept++] = tok[i];
	}
	return kept;
}

/* Open-addressing index from feature hash to its slot in the output. */
typedef struct dedupe_table
{
	uint32_t   *slots;			/* item index + 1; 0 is empty */
	size_t		mask;
} dedupe_table;

static tfp_status
dedupe_init(tfp_env *env, dedupe_table *t, size_t n)
{
	size_t		size = 16;

	while (size < n * 2)
		size *= 2;
	t->slots = env->alloc(env->ctx, size * sizeof(uint32_t));
	if (t->slots == NULL)
		return TFP_ENOMEM;
	memset(t->slots, 0, size * sizeof(uint32_t));
	t->mask = size - 1;
	return TFP_OK;
}

/* The slot for hash h: holds an existing item, or is empty. */
static uint32_t *
dedupe_find(dedupe_table *t, const tfp_feature *items, uint64_t h)
{
	size_t		slot = (size_t) (h ^ (h >> 32)) & t->mask;

	while (t->slots[slot] != 0 && items[t->slots[slot] - 1].hash != h)
		slot = (slot + 1) & t->mask;
	return &t->slots[slot];
}

tfp_status
tfp_extract(tfp_env *env, const tfp_options *opts, const char *utf8,
			size_t len, bool dedupe, bool want_text, tfp_featureset *out)
{
	char	   *norm = NULL;
	size_t		nlen = 0;
	tfp_span   *tok = NULL;
	size_t		ntok = 0;
	const tfp_stopset *builtin = NULL;
	bool		fused_stopwords;
	size_t		k = (size_t) opts->shingle;
	size_t		nshingles;
	tfp_feature *items = NULL;
	size_t		nitems = 0;
	dedupe_table table = {NULL, 0};
	byte_buf	scratch = {NULL, 0, 0};
	byte_buf	texts = {NULL, 0, 0};
	tfp_status	rc;

	memset(out, 0, sizeof(*out));
	if (opts->ngram < 1 || opts->ngram > TFP_MAX_NGRAM ||
		opts->shingle < 1 || opts->shingle > TFP_MAX_SHINGLE)
		return TFP_ETOOLONG;
	want_text = want_text && dedupe;

	if (opts->builtin_stopwords &&
		(rc = tfp_builtin_stopset(env, opts->builtin_stopwords, &builtin)) != TFP_OK)
		return rc;

	rc = tfp_normalize(env, utf8, len, opts->simplify, &norm, &nlen);
	if (rc != TFP_OK)
		return rc;
	rc = tfp_tokenize(env, opts, norm, nlen, &tok, &ntok);
	if (rc != TFP_OK)
		goto done;
	/*
	 * Single tokens hashed with seed 0 are hashed exactly as stopwords are
	 * looked up: then the loop below drops stopwords with the feature hash
	 * instead of hashing every token twice.
	 */
	fused_stopwords = k == 1 && opts->seed == 0 &&
		(builtin != NULL || opts->user_stopwords != NULL);
	if (!fused_stopwords)
		ntok = drop_stopwords(builtin, opts->user_stopwords, norm, tok, ntok);

	/* Fewer tokens than k still make one shingle of all of them. */
	nshingles = ntok == 0 ? 0 : (ntok < k ? 1 : ntok - k + 1);
	if (nshingles > UINT32_MAX - 1)
	{
		rc = TFP_ETOOLONG;
		goto done;
	}
	if (nshingles > 0)
	{
		items = env->alloc(env->ctx, nshingles * sizeof(tfp_feature));
		if (items == NULL)
		{
			rc = TFP_ENOMEM;
			goto done;
		}
		if (dedupe && (rc = dedupe_init(env, &table, nshingles)) != TFP_OK)
			goto done;
	}

	for (size_t s = 0; s < nshingles; s++)
	{
		size_t		width = ntok < k ? ntok : k;
		const char *ftext;
		size_t		flen;
		uint64_t	h;

		if (width == 1)
		{
			ftext = norm + tok[s].off;
			flen = tok[s].len;
		}
		else
		{
			scratch.len = 0;
			for (size_t t = 0; t < width && rc == TFP_OK; t++)
			{
				if (t > 0)
					rc = buf_append(env, &scratch, " ", 1);
				if (rc == TFP_OK)
					rc = buf_append(env, &scratch, norm + tok[s + t].off, tok[s + t].len);
			}
			if (rc != TFP_OK)
				goto done;
			ftext = scratch.data;
			flen = scratch.len;
		}
		h = tfp_hash(ftext, flen, opts->seed);
		if (env->check_interrupts && (s & 0xFFFF) == 0xFFFF)
			env->check_interrupts(env->ctx);
		if (fused_stopwords &&
			(tfp_stopset_contains_hash(builtin, ftext, flen, h) ||
			 tfp_stopset_contains_hash(opts->user_stopwords, ftext, flen, h)))
			continue;

		if (dedupe)
		{
			uint32_t   *slot = dedupe_find(&table, items, h);

			if (*slot != 0)
			{
				items[*slot - 1].count++;
				continue;
			}
			*slot = (uint32_t) nitems + 1;
		}
		items[nitems].hash = h;
		items[nitems].count = 1;
		items[nitems].text_off = 0;
		items[nitems].text_len = 0;
		if (want_text)
		{
			if (texts.len + flen > UINT32_MAX)
			{
				rc = TFP_ETOOLONG;
				goto done;
			}
			items[nitems].text_off = (uint32_t) texts.len;
			items[nitems].text_len = (uint32_t) flen;
			if ((rc = buf_append(env, &texts, ftext, flen)) != TFP_OK)
				goto done;
		}
		nitems++;
	}

	out->items = items;
	out->n = nitems;
	out->text = texts.data;
	out->text_len = texts.len;
	items = NULL;
	texts.data = NULL;

done:
	if (items)
		env->free(env->ctx, items);
	if (texts.data)
		env->free(env->ctx, texts.data);
	if (scratch.data)
		env->free(env->ctx, scratch.data);
	if (table.slots)
		env->free(env->ctx, table.slots);
	if (tok)
		env->free(env->ctx, tok);
	if (norm)
		env->free(env->ctx, norm);
	return rc;
}

void
tfp_featureset_free(tfp_env *env, tfp_featureset *fs)
{
	if (fs->items)
		env->free(env->ctx, fs->items);
	if (fs->text)
		env->free(env->ctx, fs->text);
	memset(fs, 0, sizeof(*fs));
}

int64_t
tfp_feature_weight_fixed(const tfp_options *opts, const tfp_feature *f)
{
	int64_t		one = INT64_C(1) << TFP_WEIGHT_FRAC_BITS;

	return opts->weighting == TFP_WEIGHT_BINARY ? one : one * (int64_t) f->count;
}
