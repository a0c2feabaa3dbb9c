/*
 * tfp_core.h: the pure-C text fingerprint core shared by every fingerprint.
 *
 * Nothing here includes PostgreSQL headers: the core takes bytes and
 * parameters and returns numbers, so the same code runs in the server, in the
 * unit tests, under a fuzzer and under valgrind.  Memory comes from the
 * caller's allocator; errors come back as tfp_status codes that the glue turns
 * into ereport()s.
 */
#ifndef TFP_CORE_H
#define TFP_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits on sizes that users control (documented in docs/reference.md). */
#define TFP_MAX_INPUT_BYTES   (64 * 1024 * 1024)	/* UTF-8 bytes of one text */
/* The text after normalisation (NFKC can expand: U+FDFA becomes 18 characters) */
#define TFP_MAX_NORMALIZED_BYTES (2 * TFP_MAX_INPUT_BYTES)
/* Distinct features of one text, where a call keeps them (weighting 'binary',
 * method 'kperm', shingles(), textfp_features()) */
#define TFP_MAX_FEATURES      (1 << 23)
#define TFP_MAX_NGRAM         8		/* CJK character n-gram size */
#define TFP_MAX_SHINGLE       16	/* tokens per shingle */
#define TFP_MAX_STOPWORD_BYTES 256	/* one user stopword, UTF-8 bytes */

#define SIMHASH_BITS 64

/*
 * Weights are summed in fixed point so that a fingerprint does not depend on
 * the order features arrive in (aggregates, parallel plans) nor on the
 * platform's floating point: a weight w counts as round(w * 2^24).
 */
#define TFP_WEIGHT_FRAC_BITS  24
#define TFP_MAX_WEIGHT        1073741824.0	/* 2^30: keeps w * 2^24 < 2^54 */

typedef enum tfp_status
{
	TFP_OK = 0,
	TFP_ENOMEM,					/* the allocator returned NULL */
	TFP_EUTF8,					/* input is not valid UTF-8 */
	TFP_ETOOLONG,				/* input longer than TFP_MAX_INPUT_BYTES */
	TFP_EICU,					/* ICU failed; see tfp_env.icu_error */
	TFP_EWEIGHT,				/* weight negative, not finite or too large */
	TFP_EOVERFLOW,				/* sum of weights out of range */
	TFP_ENORMLONG,				/* normalised text longer than TFP_MAX_NORMALIZED_BYTES */
	TFP_ETOOMANY				/* more than TFP_MAX_FEATURES distinct features */
} tfp_status;

/* What the caller lends the core: memory and a way to be interrupted. */
typedef struct tfp_env
{
	void	   *(*alloc) (void *ctx, size_t size);	/* NULL on failure */
	void		(*free) (void *ctx, void *ptr);
	void		(*check_interrupts) (void *ctx);	/* may longjmp; may be NULL */
	void	   *ctx;
	int			icu_error;		/* UErrorCode of the last TFP_EICU */
	/* grow or shrink in place if it can; NULL on failure; may be NULL */
	void	   *(*realloc) (void *ctx, void *ptr, size_t size);
} tfp_env;

/* --- large buffers (mem.c) --- */

/* ptr (old_size bytes, or NULL) grown to new_size; NULL on failure, ptr kept. */
extern void *tfp_grow(tfp_env *env, void *ptr, size_t old_size, size_t new_size);
/* memset to 0 in slices, with interrupt checks between them. */
extern void tfp_clear(tfp_env *env, void *ptr, size_t size);

typedef enum tfp_tokenizer
{
	TFP_TOKENIZER_NGRAM = 0,	/* general category + CJK ranges (default) */
	TFP_TOKENIZER_ICU			/* ICU dictionary word break */
} tfp_tokenizer;

typedef enum tfp_weighting
{
	TFP_WEIGHT_TF = 0,			/* term frequency (default) */
	TFP_WEIGHT_BINARY,			/* 1 per distinct feature */
	TFP_WEIGHT_SUBLINEAR		/* 1 + ln tf ("sublinear tf scaling", 1.1) */
} tfp_weighting;

/* What the pipeline does with tokens made of ASCII digits only (1.1). */
typedef enum tfp_numbers
{
	TFP_NUMBERS_KEEP = 0,		/* as any other token (1.0) */
	TFP_NUMBERS_DROP,			/* left out, like stopwords */
	TFP_NUMBERS_SHAPE			/* each becomes "0", "00", "000" or "0000" by length */
} tfp_numbers;

typedef struct tfp_idf tfp_idf;

/*
 * Conversions between regional standards of Chinese (after NFKC_Casefold).
 * Each value names one frozen table forever (part of pipeline identities);
 * other data would come under a new value.
 */
typedef enum tfp_chinese
{
	TFP_CHINESE_NONE = 0,		/* left as it is (default) */
	TFP_CHINESE_MAINLAND = 1	/* Taiwan and Hong Kong words and characters to
								 * mainland Simplified (tfp_zh_mainland_table) */
} tfp_chinese;

/* Built-in stopword lists, as a bit mask (part of pipeline identities). */
#define TFP_STOP_ZH 0x1
#define TFP_STOP_EN 0x2
#define TFP_STOP_SNOWBALL 0x4	/* Snowball's English list (PostgreSQL's english.stop) */
#define TFP_STOP_ALL 0x7

typedef struct tfp_stopset tfp_stopset;

/* Every pipeline parameter; the SQL functions expose each as a named arg. */
typedef struct tfp_options
{
	int			ngram;			/* 1..TFP_MAX_NGRAM */
	int			shingle;		/* 1..TFP_MAX_SHINGLE */
	tfp_tokenizer tokenizer;
	bool		simplify;		/* Traditional -> Simplified Chinese (ICU) */
	tfp_chinese chinese;		/* regional words and characters (tables) */
	int			builtin_stopwords;	/* TFP_STOP_* mask, 0 for none */
	const tfp_stopset *user_stopwords;	/* NULL for none */
	tfp_weighting weighting;
	uint64_t	seed;			/* feature hash seed */
	tfp_numbers numbers;		/* digit-only tokens (1.1) */
	int			keywords;		/* SimHash over the top keywords features by weight; 0: all */
	const tfp_idf *idf;			/* document frequencies to weight by; NULL: none */
} tfp_options;

extern void tfp_options_default(tfp_options *opts);

/* --- hashing (hash.c) --- */
extern uint64_t tfp_hash(const void *data, size_t len, uint64_t seed);

/* --- UTF-8 and normalisation (normalize.c) --- */
extern bool tfp_utf8_valid(const char *s, size_t len);

/*
 * NFKC with case folding, optionally Traditional-to-Simplified.  On success
 * *out is allocated with env->alloc (NUL-terminated) and *outlen is its length.
 */
extern tfp_status tfp_normalize(tfp_env *env, const char *in, size_t len,
								bool simplify, char **out, size_t *outlen);
/* The same, in pieces of about piece_bytes (tests vary it; the result must not). */
extern tfp_status tfp_normalize_pieces(tfp_env *env, const char *in, size_t len,
									   bool simplify, size_t piece_bytes,
									   char **out, size_t *outlen);
/*
 * The same, then a conversion of regional Chinese (after simplify, when
 * both are asked for), in pieces of about piece_bytes (0: the default).
 */
extern tfp_status tfp_normalize_chinese(tfp_env *env, const char *in, size_t len,
										bool simplify, tfp_chinese chinese,
										size_t piece_bytes, char **out, size_t *outlen);
/* Name and SHA-256 of the table behind a conversion; false for TFP_CHINESE_NONE. */
extern bool tfp_chinese_table(tfp_chinese chinese, const char **name,
							  const char **sha256, uint64_t *digest);

/* --- tokenising (tokenize.c) --- */
typedef struct tfp_span
{
	uint32_t	off;			/* byte offset in the normalised text */
	uint32_t	len;			/* byte length */
} tfp_span;

/* True for code points that form CJK character n-grams (fixed ranges). */
extern bool tfp_is_cjk(uint32_t cp);

/* Tokens are handed to fn in text order, as byte offset and length. */
typedef tfp_status (*tfp_token_fn) (void *arg, size_t off, size_t len);

extern tfp_status tfp_tokenize_stream(tfp_env *env, const tfp_options *opts,
									  const char *text, size_t len,
									  tfp_token_fn fn, void *arg);
/* The same with the ICU tokenizer's runs cut at max_run code points (for tests). */
extern tfp_status tfp_tokenize_runs(tfp_env *env, const tfp_options *opts,
									const char *text, size_t len, size_t max_run,
									tfp_token_fn fn, void *arg);
/* All tokens in one array. */
extern tfp_status tfp_tokenize(tfp_env *env, const tfp_options *opts,
							   const char *text, size_t len,
							   tfp_span **tokens, size_t *ntokens);

/* --- stopwords (stopwords.c) --- */

/*
 * Build a set from words that are already normalised.  Empty entries are
 * skipped; one longer than TFP_MAX_STOPWORD_BYTES gives TFP_ETOOLONG.
 */
extern tfp_status tfp_stopset_build(tfp_env *env, const char *const *words,
									const size_t *lens, size_t n,
									tfp_stopset **out);
extern bool tfp_stopset_contains(const tfp_stopset *set, const char *word,
								 size_t len);
/* The same, given the word's hash: tfp_hash(word, len, 0). */
extern bool tfp_stopset_contains_hash(const tfp_stopset *set, const char *word,
									  size_t len, uint64_t h);
extern void tfp_stopset_free(tfp_env *env, tfp_stopset *set);
/* Order-independent hash of a set's words; 0 for NULL or an empty set. */
extern uint64_t tfp_stopset_fingerprint(const tfp_stopset *set);

/*
 * The built-in lists of a TFP_STOP_* mask, merged into one set (built on
 * first use, kept for the life of the process).
 */
extern tfp_status tfp_builtin_stopset(tfp_env *env, int mask,
									  const tfp_stopset **out);
extern size_t tfp_builtin_stopword_count(int which);

/* --- features (features.c) --- */
typedef struct tfp_feature
{
	uint64_t	hash;
	uint32_t	count;			/* occurrences (1 when not deduplicated) */
	uint32_t	text_off;		/* into tfp_featureset.text, if kept */
	uint32_t	text_len;
} tfp_feature;

typedef struct tfp_featureset
{
	tfp_feature *items;
	size_t		n;
	char	   *text;			/* shingle texts, when want_text */
	size_t		text_len;
} tfp_featureset;

/*
 * The whole pipeline over UTF-8 input, streamed: fn gets every feature (one
 * per occurrence, in text order) with its hash and text, which lives only
 * for the call.  ngram or shingle out of range gives TFP_ETOOLONG; the SQL
 * glue checks them first with its own messages.
 */
typedef tfp_status (*tfp_feature_fn) (void *arg, uint64_t hash,
									  const char *text, size_t len);

extern tfp_status tfp_pipeline(tfp_env *env, const tfp_options *opts,
							   const char *utf8, size_t len,
							   tfp_feature_fn fn, void *arg);

typedef struct tfp_bytes
{
	char	   *data;
	size_t		len;
	size_t		cap;
} tfp_bytes;

/*
 * A sink for tfp_pipeline that keeps features: with dedupe, each distinct
 * hash once, in order of first occurrence, with its count (and its text,
 * with want_text); without, every occurrence.  At most TFP_MAX_FEATURES
 * items (then TFP_ETOOMANY).
 */
typedef struct tfp_feature_table
{
	tfp_env    *env;
	bool		dedupe;
	bool		want_text;
	size_t		limit;			/* TFP_MAX_FEATURES (tests lower it) */
	tfp_feature *items;
	size_t		n;
	size_t		cap;
	uint32_t   *slots;			/* item index + 1; 0 is empty */
	size_t		mask;
	tfp_bytes	texts;
} tfp_feature_table;

extern void tfp_feature_table_init(tfp_env *env, tfp_feature_table *t,
								   bool dedupe, bool want_text);
extern tfp_status tfp_feature_table_add(void *arg, uint64_t hash,
										const char *text, size_t len);
extern void tfp_feature_table_free(tfp_feature_table *t);

/*
 * The pipeline into a tfp_feature_table, handed over as a featureset (the
 * caller frees it with tfp_featureset_free).
 */
extern tfp_status tfp_extract(tfp_env *env, const tfp_options *opts,
							  const char *utf8, size_t len,
							  bool dedupe, bool want_text,
							  tfp_featureset *out);
extern void tfp_featureset_free(tfp_env *env, tfp_featureset *fs);

/*
 * The weight the pipeline gives a feature, in fixed point: its term
 * frequency part (count, 1, or 1 + ln count) times, with opts->idf, the
 * feature's inverse document frequency 1 + ln((N + 1) / (df + 1)).  Integer
 * arithmetic only, so the same on every platform.
 */
extern int64_t tfp_feature_weight_fixed(const tfp_options *opts,
										const tfp_feature *f);

/* ln x in fixed point (TFP_WEIGHT_FRAC_BITS fraction bits), x >= 1, from integers only. */
extern int64_t tfp_ln_fixed(uint64_t x);
/* log2 x in the same fixed point, x >= 1, truncated. */
extern int64_t tfp_log2_fixed(uint64_t x);

/* True when a simhash under opts needs each distinct feature's count (not TF without extras). */
extern bool tfp_weights_per_feature(const tfp_options *opts);

/*
 * Keep the keep features of greatest weight (ties: smaller hash first);
 * weights[] is parallel to items[] and is reordered with it.
 */
extern void tfp_select_keywords(tfp_feature *items, int64_t *weights, size_t n,
								size_t keep);

/* --- document frequency models for TF-IDF (idf.c) --- */

/*
 * A count-min sketch of document frequencies: depth rows of width counters
 * (width a power of two); a document adds 1 to one counter of each row for
 * each distinct feature it has.  Sketches add counter by counter, so the
 * model of a table is the same whatever the order of its rows or how a
 * parallel plan splits them; its size is fixed by width, however large the
 * corpus.  Counters are stored row after row.  Bucket positions and the
 * estimate are frozen: stored fingerprints depend on them.
 */
#define TFP_IDF_DEPTH 4
#define TFP_IDF_WIDTH_MIN 64
#define TFP_IDF_WIDTH_MAX 65536
#define TFP_IDF_WIDTH_DEFAULT 4096
#define TFP_IDF_VERSION 1

struct tfp_idf
{
	uint64_t	docs;			/* documents counted; 0: the empty model */
	uint32_t	width;			/* counters per row, a power of two */
	uint64_t	total;			/* sum of every row (each row sums to it) */
	int64_t		log2_docs;		/* tfp_log2_fixed(docs + 1), set by tfp_idf_check */
	const uint32_t *counts;		/* TFP_IDF_DEPTH * width counters */
};

/* Bucket of feature h in row r. */
extern uint32_t tfp_idf_bucket(uint64_t h, int row, uint32_t width);
/* Adds one document's distinct features (repeats are the caller's to remove). */
extern tfp_status tfp_idf_add_doc(uint32_t *counts, uint32_t width,
								  const uint64_t *features, size_t n);
/* Adds sketch from into into (same width); TFP_EOVERFLOW if a counter would pass UINT32_MAX. */
extern tfp_status tfp_idf_merge(uint32_t *into, const uint32_t *from, uint32_t width);
/*
 * Checks a sketch read from outside: width a power of two in range, every
 * row the same sum (a document adds as much to each row); fills model->total
 * and model->log2_docs.
 */
extern bool tfp_idf_check(tfp_idf *model);
/* Estimated number of documents that have feature h (0..docs). */
extern uint64_t tfp_idf_df(const tfp_idf *model, uint64_t h);
/* 1 + ln((docs + 1) / (df + 1)) in fixed point; 1.0 for the empty model. */
extern int64_t tfp_idf_weight_fixed(const tfp_idf *model, uint64_t h);

/* --- SimHash (simhash.c) --- */
typedef struct tfp_simhash_acc
{
	int64_t		v[SIMHASH_BITS];
	uint64_t	total;			/* sum of |weights|, bounds every v[i] */
} tfp_simhash_acc;

extern void tfp_simhash_init(tfp_simhash_acc *acc);
extern tfp_status tfp_weight_to_fixed(double w, int64_t *out);
extern tfp_status tfp_simhash_add(tfp_simhash_acc *acc, uint64_t hash,
								  int64_t weight_fixed);
extern tfp_status tfp_simhash_merge(tfp_simhash_acc *into,
									const tfp_simhash_acc *from);
extern tfp_status tfp_simhash_add_uniform(tfp_simhash_acc *acc,
										  const uint64_t *hashes, size_t n,
										  int64_t weight_fixed, tfp_env *env);
extern uint64_t tfp_simhash_final(const tfp_simhash_acc *acc);

/* simhash of text in one call; *nfeatures (if not NULL) gets how many features it had. */
extern tfp_status tfp_simhash_text(tfp_env *env, const tfp_options *opts,
								   const char *utf8, size_t len,
								   uint64_t *out, size_t *nfeatures);

/* --- simhash64 values (bits.c) --- */
extern int	tfp_popcount64(uint64_t x);

static inline int
tfp_hamming64(uint64_t a, uint64_t b)
{
	return tfp_popcount64(a ^ b);
}

/*
 * A set of fingerprints bounded by the bits they share: and_bits has the bits
 * set in all of them, or_bits those set in any.  Every member differs from q
 * in at least the returned number of bits (exactly, for a one-member set).
 */
static inline int
tfp_bound_distance(uint64_t and_bits, uint64_t or_bits, uint64_t q)
{
	return tfp_popcount64((and_bits & ~q) | (~or_bits & q));
}

/* The value of a hex digit in either case, or -1. */
extern int	tfp_hex_digit(char c);
/* Parse exactly 16 hex digits; false on anything else. */
extern bool tfp_hex64_parse(const char *s, size_t len, uint64_t *out);
/* Write 16 lower-case hex digits and a NUL into buf[17]. */
extern void tfp_hex64_format(uint64_t v, char *buf);

/* --- exact-reprint hash (exact.c) --- */

/* Collapses runs of white space to one space and trims the ends, in place. */
extern size_t tfp_exact_squeeze(char *s, size_t len);
/* XXH3-128 (seed 0) of bytes, big-endian, with UUID version 8 and variant bits. */
extern void tfp_exact_uuid(const char *data, size_t len, uint8_t out[16]);
/* Normalise, squeeze, hash; *empty when nothing is left after squeezing. */
extern tfp_status tfp_exact(tfp_env *env, const char *in, size_t len, bool simplify,
							uint8_t out[16], bool *empty);

/* --- pigeonhole blocks for Hamming radius search (blocks.c) --- */

/*
 * The 64 bits split into m contiguous blocks, block 0 the most significant.
 * If two fingerprints differ in at most r bits and t[i] are per-block radii
 * with sum(t[i] + 1) > r, then some block i differs in at most t[i] bits:
 * probing every value within t[i] of the query's block i finds every answer.
 * With r < m all t[i] are 0 (plain pigeonhole: m - r blocks agree exactly).
 */
#define TFP_BLOCKS_MIN 2
#define TFP_BLOCKS_MAX 32
#define TFP_BLOCKS_DEFAULT 4
#define TFP_PROBES_MAX 1024	/* more probe values: scan the whole index */

typedef struct tfp_blocks
{
	int			m;
	uint8_t		shift[TFP_BLOCKS_MAX];
	uint8_t		width[TFP_BLOCKS_MAX];
} tfp_blocks;

/* m must lie in TFP_BLOCKS_MIN..TFP_BLOCKS_MAX; wider blocks come first. */
extern void tfp_blocks_init(tfp_blocks *b, int m);

static inline uint32_t
tfp_block_value(const tfp_blocks *b, int i, uint64_t v)
{
	return (uint32_t) ((v >> b->shift[i]) & ((UINT64_C(1) << b->width[i]) - 1));
}

/* Index key of block i: block number above the 32 value bits. */
static inline int64_t
tfp_block_key(int i, uint32_t value)
{
	return (int64_t) (((uint64_t) (unsigned) i << 32) | value);
}

/*
 * Per-block probe radii for radius r (0..64) minimising the number of probe
 * values; returns that number, saturated at UINT64_MAX.
 */
extern uint64_t tfp_blocks_plan(const tfp_blocks *b, int r, uint8_t *t);

/* C(n, k) for n <= 64, saturated at UINT64_MAX. */
extern uint64_t tfp_binomial(int n, int k);

/*
 * Writes the values within t bits of x among w-bit values, nearest first,
 * with their distances; returns how many (sum of C(w, j), j <= t).  The
 * caller sizes out[] and dist[] with tfp_binomial sums.
 */
extern size_t tfp_ball_values(uint32_t x, int w, int t,
							  uint32_t *out, uint8_t *dist);

/* --- Hamming distance statistics for the planner (hamming_stats.c) --- */

/* Share of uniformly random pairs of 64-bit values within r bits. */
extern double tfp_random_within(int r);

/*
 * Cumulative distance distribution of the pairs among v[0..n): cum[d] is
 * the share of pairs i < j at distance <= d, d = 0..64.  At most max_rows
 * rows take part, a fixed pseudo-random choice moved to the front of v (v is
 * reordered).  Returns the number of pairs counted.
 */
extern uint64_t tfp_pair_distances(uint64_t *v, size_t n,
								   size_t max_rows, double cum[SIMHASH_BITS + 1],
								   tfp_env *env);

/* --- MinHash signatures and Jaccard (minhash.c) --- */

#define TFP_MINHASH_K_MAX 1024
#define TFP_MINHASH_EMPTY UINT32_MAX	/* every value of the empty set's signature */

/* Algorithm tags, stored in signatures: never renumber. */
typedef enum tfp_minhash_method
{
	TFP_MINHASH_OPH = 1,		/* one permutation, optimal densification */
	TFP_MINHASH_KPERM = 2		/* k independent hashes: the reference */
} tfp_minhash_method;

/* OPH in steps: init, add every item (repeats are harmless), final. */
typedef struct tfp_minhash_acc
{
	int			k;				/* 1..TFP_MINHASH_K_MAX */
	int			filled;			/* bins some item fell into */
	uint64_t	seed;
	uint64_t	key;
	uint64_t	bins[TFP_MINHASH_K_MAX];	/* UINT64_MAX: empty */
} tfp_minhash_acc;

extern void tfp_minhash_init(tfp_minhash_acc *acc, int k, uint64_t seed);
extern void tfp_minhash_add(tfp_minhash_acc *acc, uint64_t item);
extern void tfp_minhash_final(const tfp_minhash_acc *acc, uint32_t *out);

/* The reference: out[i] = min over items of the i-th hash.  O(n * k). */
extern void tfp_minhash_kperm(const uint64_t *items, size_t n, int k,
							  uint64_t seed, uint32_t *out, tfp_env *env);

/*
 * Signature of a text's shingle set: the pipeline, then either method;
 * *nfeatures (if not NULL) gets how many shingles it had (0: the empty set).
 */
extern tfp_status tfp_minhash_text(tfp_env *env, const tfp_options *opts,
								   const char *utf8, size_t len, int k,
								   tfp_minhash_method method, uint32_t *out,
								   size_t *nfeatures);

/* Number of equal positions; the estimate of J is that over k. */
extern int	tfp_minhash_matches(const uint32_t *a, const uint32_t *b, int k);

/*
 * The fewest equal positions c with (double) c / k >= t: 0 for t <= 0,
 * k + 1 (never) for t > 1.  Index and operator share it, so they agree.
 */
extern int	tfp_jaccard_needed(double t, int k);

/*
 * Planner statistics: share[c] (c = 0..k) is the share of pairs among
 * sigs[0..n) with at least c equal positions.  At most max_rows rows take
 * part, a fixed pseudo-random choice moved to the front of sigs (sigs is
 * reordered).  Returns the number of pairs counted.
 */
extern uint64_t tfp_minhash_pair_matches(const uint32_t **sigs, size_t n, int k,
										 size_t max_rows, double *share, tfp_env *env);

/* Sorts v ascending, as unsigned or as signed values (radix, interruptible). */
extern tfp_status tfp_sort_u64(tfp_env *env, uint64_t *v, size_t n, bool as_signed);
/* Sorts v (unsigned) and drops repeats; *out_n gets the new length. */
extern tfp_status tfp_sort_unique_u64(tfp_env *env, uint64_t *v, size_t n, size_t *out_n);

/* Exact Jaccard of two sorted, distinct sets; 1 for two empty sets. */
extern double tfp_set_jaccard(const uint64_t *a, size_t na,
							  const uint64_t *b, size_t nb);

/*
 * A 32-bit identity of the options that decide a text's shingle set (not
 * the seed, kept apart, nor the weighting, which sets ignore); never 0.
 */
extern uint32_t tfp_pipeline_id(const tfp_options *opts);

/* --- LSH bands of MinHash signatures (lsh.c; the search for a banding: lsh_choose.c) --- */

/*
 * Band keys are stored: the bytes hashed (little-endian) are a version byte,
 * method, value bits, 0, k (2 bytes), rows (2), pipeline (4), seed (8), the
 * band's number (2), 0 (2), then the band's rows values (4 bytes each).
 */
#define TFP_LSH_KEY_VERSION 1
#define TFP_LSH_KEY_HEADER_BYTES 24

/* What a signature's header says: signatures compare only when all agree. */
typedef struct tfp_lsh_header
{
	int			k;
	int			method;			/* tfp_minhash_method */
	int			value_bits;
	uint32_t	pipeline;
	uint64_t	seed;
} tfp_lsh_header;

/*
 * The key of band `band` (positions band * rows .. band * rows + rows - 1 of
 * values): XXH3-64 of the bytes above.  rows * (band + 1) <= k.
 */
extern uint64_t tfp_lsh_band_key(const tfp_lsh_header *h, int rows, int band,
								 const uint32_t *values);

/* True when every value is TFP_MINHASH_EMPTY: the signature of no features. */
extern bool tfp_minhash_is_featureless(const uint32_t *values, int k);

/* Bands of `rows` that fit in k positions, at most `bands`. */
extern int	tfp_lsh_indexed_bands(int k, int bands, int rows);

/*
 * Equal bands among the first `bands` bands of two signatures' values; stops
 * counting at `enough` and as soon as `enough` cannot be reached.
 */
extern int	tfp_lsh_equal_bands(const uint32_t *a, const uint32_t *b,
								int bands, int rows, int enough);

/* P(X >= m) for X ~ Binomial(n, p), n <= TFP_MINHASH_K_MAX. */
extern double tfp_binomial_tail(int n, double p, int m);

/*
 * The S-curve: the probability that a pair of Jaccard similarity s has at
 * least min_bands of bands equal bands of rows positions (independent
 * positions, each equal with probability s).
 */
extern double tfp_lsh_probability(double s, int bands, int rows, int min_bands);

/*
 * The same given that c of the k positions are equal (an estimate of c / k),
 * the c positions anywhere: a band is equal with probability
 * C(c, rows) / C(k, rows), and bands are taken as independent (they are
 * slightly negatively correlated, so this errs a little high for m > 1).
 */
extern double tfp_lsh_band_given(int c, int k, int rows);
extern double tfp_lsh_probability_given(int c, int k, int bands, int rows,
										int min_bands);

/*
 * Expected candidates of a row among `others` rows whose pairs with it have
 * c equal positions with probability pmf[c], c = 0..k.
 */
extern double tfp_lsh_expected_candidates(const double *pmf, int k, double others,
										  int bands, int rows, int min_bands);

/* What tfp_lsh_choose optimises. */
typedef struct tfp_lsh_goal
{
	double		threshold;		/* 0..1 */
	int			k;				/* 1..TFP_MINHASH_K_MAX */
	double		fp_weight;		/* of the area under the S-curve below the threshold */
	double		fn_weight;		/* of the area above it under 1 - S-curve */
	int			max_min_bands;	/* m is searched in 1..this */
	const double *pmf;			/* NULL, or pairs' equal positions as above */
	double		others;			/* rows a row is compared with (with pmf) */
	double		max_candidates; /* budget per row (with pmf) */
} tfp_lsh_goal;

typedef struct tfp_lsh_choice
{
	int			bands;
	int			rows;
	int			min_bands;
	double		false_positive; /* area */
	double		false_negative; /* area */
	double		candidates;		/* expected per row; -1 without pmf */
	uint64_t	work;			/* binomial tails evaluated (each O(k)): for tests */
} tfp_lsh_choice;

/*
 * Of every banding with bands * rows <= k and min_bands <= max_min_bands,
 * the one with the least fp_weight * FP area + fn_weight * FN area (areas
 * by Simpson's rule on 128 intervals a side); costs closer than 1e-11 of
 * the larger weight are equal, and the first in (bands, rows, min_bands)
 * order wins.  With pmf, among those expected to give at most
 * max_candidates per row; when none does, the first with the fewest, and
 * false is returned.  lsh_choose.c says how it avoids evaluating them all;
 * best->work counts what it did evaluate.  Checks env for interrupts.
 */
extern bool tfp_lsh_choose(const tfp_lsh_goal *goal, tfp_lsh_choice *best,
						   tfp_env *env);

/*
 * The parameters of lsh_query's text form, exactly "bands=B,rows=R,min_bands=M"
 * (decimal, no sign, no leading zeros, at most 9 digits each); false on any
 * other input.  Ranges are the caller's to check.
 */
extern bool tfp_lsh_parse_params(const char *s, size_t len, int *bands, int *rows,
								 int *min_bands);

/* --- text and binary forms of hamming_ball and minhash_sig (formats.c) --- */

typedef enum tfp_form_error
{
	TFP_FORM_OK = 0,
	TFP_FORM_SYNTAX,			/* not the form at all */
	TFP_FORM_K,					/* minhash_sig: k outside 1..TFP_MINHASH_K_MAX */
	TFP_FORM_DIGITS,			/* minhash_sig: not 8 hex digits for each of k values */
	TFP_FORM_RADIUS,			/* hamming_ball: radius outside 0..64 */
	TFP_FORM_THRESHOLD,			/* jaccard_ball: threshold not a number in 0..1 */
	TFP_FORM_METHOD,			/* binary minhash_sig: unknown method or value width */
	TFP_FORM_SHORT				/* binary: fewer bytes than the form needs */
} tfp_form_error;

typedef struct tfp_minhash_header
{
	int			k;
	int			method;			/* tfp_minhash_method */
	int			value_bits;		/* 32 */
	uint32_t	pipeline;
	int64_t		seed;
} tfp_minhash_header;

/* Binary form: method, value bits (1 byte each), k (2), pipeline (4), seed (8). */
#define TFP_MINHASH_BINARY_HEADER 16

/* "centre/radius": 16 hex digits, "/", a radius from 0 to 64. */
extern tfp_form_error tfp_hamming_ball_parse(const char *s, size_t len,
											 uint64_t *center, int64_t *radius);

/*
 * "oph32:k=K:seed=S:pipe=PPPPPPPP:" and 8 hex digits for each of K values;
 * values has room for TFP_MINHASH_K_MAX.  *found gets the k given (for
 * TFP_FORM_K) or the number of digits after the header (TFP_FORM_DIGITS).
 */
extern tfp_form_error tfp_minhash_sig_parse(const char *s, size_t len,
											tfp_minhash_header *h, uint32_t *values,
											int64_t *found);
/* The text form into buf (size bytes); returns its length without the NUL. */
extern size_t tfp_minhash_sig_format(const tfp_minhash_header *h, const uint32_t *values,
									 char *buf, size_t size);
/* The binary form (big-endian); *used gets the bytes it took. */
extern tfp_form_error tfp_minhash_sig_decode(const uint8_t *buf, size_t len,
											 tfp_minhash_header *h, uint32_t *values,
											 size_t *used);
/* Writes TFP_MINHASH_BINARY_HEADER + 4k bytes; returns how many. */
extern size_t tfp_minhash_sig_encode(const tfp_minhash_header *h, const uint32_t *values,
									 uint8_t *buf);
/* A jaccard_ball threshold: a number (as strtod reads it) from 0 to 1. */
extern tfp_form_error tfp_threshold_parse(const char *s, size_t len, double *t);
extern tfp_form_error tfp_threshold_check(double t);

/* --- winnowed fingerprints and containment (winnow.c) --- */

#define TFP_WINNOW_MAX_WINDOW 256

/*
 * Winnowing in steps: init, tfp_winnow_add for every shingle hash in text
 * order (a tfp_feature_fn, so tfp_pipeline can feed it), finish.  Memory:
 * the window and the fingerprints chosen (at most one per shingle).
 */
typedef struct tfp_winnow
{
	tfp_env    *env;
	int			window;			/* 1..TFP_WINNOW_MAX_WINDOW */
	int			head;			/* deque of window-minimum candidates: a ring */
	int			count;
	uint64_t	seen;			/* shingles so far */
	uint64_t	last_pos;		/* position of the last fingerprint kept */
	uint64_t	hash[TFP_WINNOW_MAX_WINDOW];
	uint64_t	pos[TFP_WINNOW_MAX_WINDOW];
	uint64_t   *out;			/* fingerprints kept, in text order */
	size_t		n;
	size_t		cap;
	size_t		limit;			/* TFP_MAX_FEATURES (then TFP_ETOOMANY) */
} tfp_winnow;

extern void tfp_winnow_init(tfp_env *env, tfp_winnow *wn, int window);
extern tfp_status tfp_winnow_add(void *arg, uint64_t hash, const char *text, size_t len);
/* Hands over the fingerprints as a signed set (*out is the caller's to free). */
extern tfp_status tfp_winnow_finish(tfp_winnow *wn, uint64_t **out, size_t *n);
extern void tfp_winnow_free(tfp_winnow *wn);

/*
 * The winnowed fingerprints of a text's shingles, window shingles a window
 * (TFP_ETOOLONG outside 1..TFP_WINNOW_MAX_WINDOW), as a signed set; a text
 * without shingles has none, a text of fewer shingles than a window one.
 */
extern tfp_status tfp_winnow_text(tfp_env *env, const tfp_options *opts,
								  const char *utf8, size_t len, int window,
								  uint64_t **out, size_t *n);

/* Drops repeats from sorted v in place; returns the new length. */
extern size_t tfp_unique_u64(uint64_t *v, size_t n);
/* True when v is strictly increasing as signed values: a signed set. */
extern bool tfp_is_signed_set(const uint64_t *v, size_t n);
/* Values two signed sets share. */
extern size_t tfp_signed_set_shared(const uint64_t *a, size_t na,
									const uint64_t *b, size_t nb);

/*
 * Shared values a set of n needs for containment c: the smallest s with
 * (double) s / n >= c (0 for c <= 0, n + 1 for c > 1), and at least
 * min_shared.  Operator and index share it, so they agree.
 */
extern size_t tfp_containment_needed(double c, size_t n, size_t min_shared);

/* --- versions (normalize.c) --- */
extern void tfp_icu_version(char *buf, size_t buflen);
extern void tfp_unicode_version(char *buf, size_t buflen);

#endif							/* TFP_CORE_H */
