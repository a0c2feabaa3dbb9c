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
	opts->numbers = TFP_NUMBERS_KEEP;
	opts->keywords = 0;
	opts->idf = NULL;
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
	struct
	{
		const char *p;
		size_t		len;
	}			ring[TFP_MAX_SHINGLE];	/* the last k kept tokens */
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
		ftext = sh->ring[last % sh->k].p;
		flen = sh->ring[last % sh->k].len;
	}
	else
	{
		sh->scratch.len = 0;
		for (size_t i = last + 1 - width; i <= last && rc == TFP_OK; i++)
		{
			if (i > last + 1 - width)
				rc = buf_append(sh->env, &sh->scratch, " ", 1);
			if (rc == TFP_OK)
				rc = buf_append(sh->env, &sh->scratch, sh->ring[i % sh->k].p,
								sh->ring[i % sh->k].len);
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

/* True for a token of ASCII digits only (NFKC made other digit forms ASCII). */
static bool
all_digits(const char *w, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (w[i] < '0' || w[i] > '9')
			return false;
	return len > 0;
}

static tfp_status
shingler_token(void *arg, size_t off, size_t len)
{
	shingler   *sh = (shingler *) arg;
	const char *w = sh->norm + off;

	/* before stopwords, so that both ways of looking them up see the same token */
	if (sh->opts->numbers != TFP_NUMBERS_KEEP && all_digits(w, len))
	{
		/* a number says little about the text, and edits change numbers */
		if (sh->opts->numbers == TFP_NUMBERS_DROP)
			return TFP_OK;
		w = "0000";
		len = len < 4 ? len : 4;
	}
	/*
	 * Single tokens hashed with seed 0 are hashed exactly as stopwords are
	 * looked up: then emit_shingle drops stopwords with the feature hash
	 * instead of hashing every token twice.
	 */
	if (!sh->fused_stopwords &&
		(tfp_stopset_contains(sh->builtin, w, len) ||
		 tfp_stopset_contains(sh->opts->user_stopwords, w, len)))
		return TFP_OK;
	sh->ring[sh->kept % sh->k].p = w;
	sh->ring[sh->kept % sh->k].len = len;
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

static int64_t
log2_fixed(uint64_t x)
{
	int			ip = 63;
	uint64_t	y;
	int64_t		frac = 0;

	if (x == 0)
		return 0;
	while (!(x >> ip))
		ip--;
	/* the mantissa in [1, 2) with 31 fraction bits */
	y = ip >= 31 ? x >> (ip - 31) : x << (31 - ip);
	/* a bit of the logarithm per squaring: y^2 >= 2 means that bit is 1 */
	for (int b = TFP_WEIGHT_FRAC_BITS - 1; b >= 0; b--)
	{
		y = (y * y) >> 31;
		if (y >= (UINT64_C(1) << 32))
		{
			y >>= 1;
			frac |= INT64_C(1) << b;
		}
	}
	return ((int64_t) ip << TFP_WEIGHT_FRAC_BITS) | frac;
}

/*
 * Small arguments (term and document frequencies, mostly) come from a table
 * of log2_fixed's own values, filled on first use: the same numbers, without
 * 24 squarings per feature.
 */
#define LOG2_MEMO 4096

int64_t
tfp_log2_fixed(uint64_t x)
{
	static int64_t memo[LOG2_MEMO];
	static bool memo_filled = false;

	if (x >= LOG2_MEMO)
		return log2_fixed(x);
	if (!memo_filled)
	{
		for (uint64_t i = 0; i < LOG2_MEMO; i++)
			memo[i] = log2_fixed(i);
		memo_filled = true;
	}
	return memo[x];
}

int64_t
tfp_ln_fixed(uint64_t x)
{
	/* ln 2 in 32 fraction bits, rounded; log2 x < 2^30 in fixed point */
	return (int64_t) (((uint64_t) tfp_log2_fixed(x) * UINT64_C(2977044472) +
					   (UINT64_C(1) << 31)) >> 32);
}

/* a * b in fixed point, rounded, without a 128-bit product: a < 2^55, b < 2^31 */
static int64_t
mul_fixed(int64_t a, int64_t b)
{
	int64_t		hi = a >> TFP_WEIGHT_FRAC_BITS;
	int64_t		lo = a & ((INT64_C(1) << TFP_WEIGHT_FRAC_BITS) - 1);

	return hi * b + ((lo * b + (INT64_C(1) << (TFP_WEIGHT_FRAC_BITS - 1))) >> TFP_WEIGHT_FRAC_BITS);
}

int64_t
tfp_feature_weight_fixed(const tfp_options *opts, const tfp_feature *f)
{
	int64_t		one = INT64_C(1) << TFP_WEIGHT_FRAC_BITS;
	int64_t		w;

	switch (opts->weighting)
	{
		case TFP_WEIGHT_BINARY:
			w = one;
			break;
		case TFP_WEIGHT_SUBLINEAR:
			w = one + tfp_ln_fixed(f->count);
			break;
		default:
			w = one * (int64_t) f->count;
			break;
	}
	if (opts->idf != NULL && opts->idf->docs > 0)
		w = mul_fixed(w, tfp_idf_weight_fixed(opts->idf, f->hash));
	return w;
}

bool
tfp_weights_per_feature(const tfp_options *opts)
{
	return opts->weighting == TFP_WEIGHT_SUBLINEAR || opts->keywords > 0 ||
		(opts->idf != NULL && opts->idf->docs > 0);
}

/* Heavier first; equal weights by hash, so the choice is the same everywhere. */
static bool
heavier(const tfp_feature *items, const int64_t *w, size_t a, size_t b)
{
	return w[a] != w[b] ? w[a] > w[b] : items[a].hash < items[b].hash;
}

static void
swap_item(tfp_feature *items, int64_t *w, size_t a, size_t b)
{
	tfp_feature t = items[a];
	int64_t		tw = w[a];

	items[a] = items[b];
	w[a] = w[b];
	items[b] = t;
	w[b] = tw;
}

/* Restores the min-heap (lightest on top) of items[0..n) below position i. */
static void
sift_down(tfp_feature *items, int64_t *w, size_t n, size_t i)
{
	for (;;)
	{
		size_t		l = 2 * i + 1;
		size_t		m = i;

		if (l < n && heavier(items, w, m, l))
			m = l;
		if (l + 1 < n && heavier(items, w, m, l + 1))
			m = l + 1;
		if (m == i)
			return;
		swap_item(items, w, i, m);
		i = m;
	}
}

void
tfp_select_keywords(tfp_feature *items, int64_t *weights, size_t n, size_t keep)
{
	if (keep >= n)
		return;
	/* a min-heap of the keep heaviest so far: O(n log keep) */
	for (size_t i = keep / 2; i-- > 0;)
		sift_down(items, weights, keep, i);
	for (size_t i = keep; i < n; i++)
		if (keep > 0 && heavier(items, weights, i, 0))
		{
			swap_item(items, weights, 0, i);
			sift_down(items, weights, keep, 0);
		}
}
