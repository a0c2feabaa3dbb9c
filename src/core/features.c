/*
 * features.c: the pipeline from text to weighted, hashed features.
 *
 * normalise -> tokenise -> drop stopwords -> k-token shingles -> hash,
 * streamed: each feature goes to a sink as it is made (a SimHash
 * accumulator, a MinHash sketch, or a table of distinct features), so only
 * the normalised text and the sink's own state take memory.  A shingle's text is its tokens joined by single spaces (tokens never
 * contain spaces), and its hash is XXH3-64 of that text with the seed, so a
 * user can recompute any feature hash from textfp_features() output.
 */
#include <string.h>

#include "tfp_core.h"

typedef tfp_bytes byte_buf;

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

static tfp_status
buf_append(tfp_env *env, byte_buf *b, const char *s, size_t n)
{
	if (b->len + n > b->cap)
	{
		size_t		ncap = b->cap ? b->cap : 256;
		char	   *nd;

		while (ncap < b->len + n)
			ncap *= 2;
		nd = tfp_grow(env, b->data, b->len, ncap);
		if (nd == NULL)
			return TFP_ENOMEM;
		b->data = nd;
		b->cap = ncap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	return TFP_OK;
}

/*
 * The pipeline after normalisation, one token at a time: drop stopwords,
 * keep the last k tokens, and hand each shingle's hash to the sink.  Memory
 * does not grow with the text.
 */
typedef struct shingler
{
	tfp_env    *env;
	const tfp_options *opts;
	const char *norm;
	const tfp_stopset *builtin;
	bool		fused_stopwords;
	size_t		k;
	tfp_span	ring[TFP_MAX_SHINGLE];	/* the last k kept tokens */
	size_t		kept;			/* tokens kept so far */
	byte_buf	scratch;		/* a shingle's text */
	uint64_t	features;
	tfp_feature_fn sink;
	void	   *arg;
} shingler;

/* The shingle of the width tokens that end with kept token number last. */
static tfp_status
emit_shingle(shingler *sh, size_t last, size_t width)
{
	const char *ftext;
	size_t		flen;
	uint64_t	h;
	tfp_status	rc = TFP_OK;

	if (width == 1)
	{
		const tfp_span *t = &sh->ring[last % sh->k];

		ftext = sh->norm + t->off;
		flen = t->len;
	}
	else
	{
		sh->scratch.len = 0;
		for (size_t i = last + 1 - width; i <= last && rc == TFP_OK; i++)
		{
			const tfp_span *t = &sh->ring[i % sh->k];

			if (i > last + 1 - width)
				rc = buf_append(sh->env, &sh->scratch, " ", 1);
			if (rc == TFP_OK)
				rc = buf_append(sh->env, &sh->scratch, sh->norm + t->off, t->len);
		}
		if (rc != TFP_OK)
			return rc;
		ftext = sh->scratch.data;
		flen = sh->scratch.len;
	}
	h = tfp_hash(ftext, flen, sh->opts->seed);
	if (sh->fused_stopwords &&
		(tfp_stopset_contains_hash(sh->builtin, ftext, flen, h) ||
		 tfp_stopset_contains_hash(sh->opts->user_stopwords, ftext, flen, h)))
		return TFP_OK;
	if (sh->env->check_interrupts && (++sh->features & 0xFFF) == 0)
		sh->env->check_interrupts(sh->env->ctx);
	return sh->sink(sh->arg, h, ftext, flen);
}

static tfp_status
shingler_token(void *arg, size_t off, size_t len)
{
	shingler   *sh = (shingler *) arg;
	const char *w = sh->norm + off;

	/*
	 * Single tokens hashed with seed 0 are hashed exactly as stopwords are
	 * looked up: then emit_shingle drops stopwords with the feature hash
	 * instead of hashing every token twice.
	 */
	if (!sh->fused_stopwords &&
		(tfp_stopset_contains(sh->builtin, w, len) ||
		 tfp_stopset_contains(sh->opts->user_stopwords, w, len)))
		return TFP_OK;
	sh->ring[sh->kept % sh->k].off = (uint32_t) off;
	sh->ring[sh->kept % sh->k].len = (uint32_t) len;
	sh->kept++;
	return sh->kept >= sh->k ? emit_shingle(sh, sh->kept - 1, sh->k) : TFP_OK;
}

tfp_status
tfp_pipeline(tfp_env *env, const tfp_options *opts, const char *utf8, size_t len,
			 tfp_feature_fn sink, void *arg)
{
	shingler	sh;
	char	   *norm = NULL;
	size_t		nlen = 0;
	tfp_status	rc;

	if (opts->ngram < 1 || opts->ngram > TFP_MAX_NGRAM ||
		opts->shingle < 1 || opts->shingle > TFP_MAX_SHINGLE)
		return TFP_ETOOLONG;
	memset(&sh, 0, sizeof(sh));
	sh.env = env;
	sh.opts = opts;
	sh.k = (size_t) opts->shingle;
	sh.sink = sink;
	sh.arg = arg;
	if (opts->builtin_stopwords &&
		(rc = tfp_builtin_stopset(env, opts->builtin_stopwords, &sh.builtin)) != TFP_OK)
		return rc;
	sh.fused_stopwords = sh.k == 1 && opts->seed == 0 &&
		(sh.builtin != NULL || opts->user_stopwords != NULL);

	rc = tfp_normalize_chinese(env, utf8, len, opts->simplify, opts->chinese, 0, &norm, &nlen);
	if (rc != TFP_OK)
		return rc;
	sh.norm = norm;
	rc = tfp_tokenize_stream(env, opts, norm, nlen, shingler_token, &sh);
	/* fewer tokens than k still make one shingle of all of them */
	if (rc == TFP_OK && sh.kept > 0 && sh.kept < sh.k)
		rc = emit_shingle(&sh, sh.kept - 1, sh.kept);
	if (sh.scratch.data)
		env->free(env->ctx, sh.scratch.data);
	env->free(env->ctx, norm);
	return rc;
}

/*
 * Distinct features in order of first occurrence, with counts (and texts,
 * when asked): an array of items and an open-addressing index from hash to
 * item, both grown by doubling.
 */
void
tfp_feature_table_init(tfp_env *env, tfp_feature_table *t, bool dedupe, bool want_text)
{
	memset(t, 0, sizeof(*t));
	t->env = env;
	t->dedupe = dedupe;
	t->want_text = want_text && dedupe;
	t->limit = TFP_MAX_FEATURES;
}

static tfp_status
table_rehash(tfp_feature_table *t, size_t size)
{
	tfp_env    *env = t->env;
	uint32_t   *slots = env->alloc(env->ctx, size * sizeof(uint32_t));

	if (slots == NULL)
		return TFP_ENOMEM;
	tfp_clear(env, slots, size * sizeof(uint32_t));
	if (t->slots)
		env->free(env->ctx, t->slots);
	t->slots = slots;
	t->mask = size - 1;
	for (size_t i = 0; i < t->n; i++)
	{
		uint64_t	h = t->items[i].hash;
		size_t		slot = (size_t) (h ^ (h >> 32)) & t->mask;

		while (t->slots[slot] != 0)
			slot = (slot + 1) & t->mask;
		t->slots[slot] = (uint32_t) i + 1;
		if (env->check_interrupts && (i & 0xFFFF) == 0xFFFF)
			env->check_interrupts(env->ctx);
	}
	return TFP_OK;
}

tfp_status
tfp_feature_table_add(void *arg, uint64_t h, const char *text, size_t len)
{
	tfp_feature_table *t = (tfp_feature_table *) arg;
	tfp_env    *env = t->env;
	uint32_t   *slot = NULL;
	tfp_feature *f;
	tfp_status	rc;

	if (t->dedupe)
	{
		if ((t->slots == NULL || t->n * 2 >= t->mask + 1) &&
			(rc = table_rehash(t, t->slots ? (t->mask + 1) * 2 : 128)) != TFP_OK)
			return rc;
		slot = &t->slots[(size_t) (h ^ (h >> 32)) & t->mask];
		while (*slot != 0 && t->items[*slot - 1].hash != h)
			slot = slot + 1 == t->slots + t->mask + 1 ? t->slots : slot + 1;
		if (*slot != 0)
		{
			t->items[*slot - 1].count++;
			return TFP_OK;
		}
	}
	if (t->n >= t->limit)
		return TFP_ETOOMANY;
	if (t->n == t->cap)
	{
		size_t		ncap = t->cap ? t->cap * 2 : 64;
		tfp_feature *ni = tfp_grow(env, t->items, t->n * sizeof(tfp_feature),
								   ncap * sizeof(tfp_feature));

		if (ni == NULL)
			return TFP_ENOMEM;
		t->items = ni;
		t->cap = ncap;
	}
	f = &t->items[t->n];
	f->hash = h;
	f->count = 1;
	f->text_off = 0;
	f->text_len = 0;
	if (t->want_text)
	{
		if (t->texts.len + len > UINT32_MAX)
			return TFP_ETOOLONG;
		f->text_off = (uint32_t) t->texts.len;
		f->text_len = (uint32_t) len;
		if ((rc = buf_append(env, &t->texts, text, len)) != TFP_OK)
			return rc;
	}
	if (slot)
		*slot = (uint32_t) t->n + 1;
	t->n++;
	return TFP_OK;
}

void
tfp_feature_table_free(tfp_feature_table *t)
{
	tfp_env    *env = t->env;

	if (t->items)
		env->free(env->ctx, t->items);
	if (t->slots)
		env->free(env->ctx, t->slots);
	if (t->texts.data)
		env->free(env->ctx, t->texts.data);
	memset(t, 0, sizeof(*t));
}

tfp_status
tfp_extract(tfp_env *env, const tfp_options *opts, const char *utf8,
			size_t len, bool dedupe, bool want_text, tfp_featureset *out)
{
	tfp_feature_table t;
	tfp_status	rc;

	memset(out, 0, sizeof(*out));
	tfp_feature_table_init(env, &t, dedupe, want_text);
	rc = tfp_pipeline(env, opts, utf8, len, tfp_feature_table_add, &t);
	if (rc != TFP_OK)
	{
		tfp_feature_table_free(&t);
		return rc;
	}
	out->items = t.items;
	out->n = t.n;
	out->text = t.texts.data;
	out->text_len = t.texts.len;
	if (t.slots)
		env->free(env->ctx, t.slots);
	return TFP_OK;
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
