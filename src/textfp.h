/*
 * textfp.h: what the PostgreSQL glue files share.
 */
#ifndef TEXTFP_H
#define TEXTFP_H

#include "postgres.h"
#include "access/gist.h"
#include "access/stratnum.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/array.h"

#include "tfp_core.h"

#define TEXTFP_VERSION "1.1"

/*
 * The working memory the core may take for one call (beyond the text
 * itself): 8 times the input limit, under palloc's 1 GB for any one piece.
 */
#define TEXTFP_MEMORY_LIMIT (8 * TFP_MAX_INPUT_BYTES)

/* simhash64 is laid out LIKE int8: by value exactly where int8 is. */
#define DatumGetSimhash64(d)	((uint64) DatumGetInt64(d))
#define Simhash64GetDatum(v)	Int64GetDatum((int64) (v))
#define PG_GETARG_SIMHASH64(n)	DatumGetSimhash64(PG_GETARG_DATUM(n))
#define PG_RETURN_SIMHASH64(v)	return Simhash64GetDatum(v)

/* Fixed-length, 16 bytes, passed by reference. */
typedef struct HammingBall
{
	uint64		center;
	int32		radius;
	int32		pad;			/* always 0, so equal balls are equal bytes */
} HammingBall;

#define HAMMING_BALL_MAX_RADIUS SIMHASH_BITS

/* GiST key of simhash64: the bits all fingerprints below share (AND, OR). */
typedef struct SimhashGistKey
{
	uint64		and_bits;
	uint64		or_bits;
} SimhashGistKey;

/* GiST key of hamming_ball: a SimhashGistKey of the centres, largest radius. */
typedef struct BallGistKey
{
	uint64		and_bits;
	uint64		or_bits;
	int32		max_radius;
	int32		pad;
} BallGistKey;

/*
 * minhash_sig: a varlena of k 32-bit values after a header that says how
 * they were made.  Signatures compare only when every header field agrees.
 * The layout is stored on disk: fields only ever get added behind a new
 * method tag.  Int-aligned; the seed is split so no field needs 8 bytes.
 */
typedef struct MinhashSig
{
	int32		vl_len_;
	uint16		k;				/* 1..TFP_MINHASH_K_MAX */
	uint8		method;			/* tfp_minhash_method */
	uint8		value_bits;		/* 32 */
	uint32		pipeline;		/* tfp_pipeline_id, 0 for caller-made shingles */
	uint32		seed_hi;
	uint32		seed_lo;
	uint32		values[FLEXIBLE_ARRAY_MEMBER];
} MinhashSig;

#define MINHASH_SIG_HEADER		offsetof(MinhashSig, values)
#define MINHASH_SIG_SIZE(k)		(MINHASH_SIG_HEADER + sizeof(uint32) * (k))
#define MINHASH_VALUE_BITS		32
#define MinhashSigSeed(s)		((int64) (((uint64) (s)->seed_hi << 32) | (s)->seed_lo))
#define DatumGetMinhashSigP(d)	((MinhashSig *) PG_DETOAST_DATUM(d))
#define PG_GETARG_MINHASH_SIG_P(n) DatumGetMinhashSigP(PG_GETARG_DATUM(n))

/* jaccard_ball: a signature and the least Jaccard estimate accepted. */
typedef struct JaccardBall
{
	int32		vl_len_;
	int32		pad;			/* always 0 */
	float8		threshold;		/* 0..1 */
	MinhashSig	sig;			/* a whole minhash_sig varlena */
} JaccardBall;

#define DatumGetJaccardBallP(d)	((JaccardBall *) PG_DETOAST_DATUM(d))
#define PG_GETARG_JACCARD_BALL_P(n) DatumGetJaccardBallP(PG_GETARG_DATUM(n))

/*
 * lsh_query: a signature and a banding, for minhash_sig @@ lsh_query ("at
 * least min_bands of the first bands bands of rows positions are equal").
 * Checked on construction: 1 <= min_bands <= bands, bands * rows <= k.
 */
typedef struct LshQuery
{
	int32		vl_len_;
	int32		bands;
	int32		rows;
	int32		min_bands;
	MinhashSig	sig;			/* a whole minhash_sig varlena */
} LshQuery;

#define DatumGetLshQueryP(d)	((LshQuery *) PG_DETOAST_DATUM(d))
#define PG_GETARG_LSH_QUERY_P(n) DatumGetLshQueryP(PG_GETARG_DATUM(n))

/*
 * What every key of one GIN query of minhash_sig shares through extra_data
 * (gin_minhash_ops and gin_minhash_lsh_ops, whose consistent functions are
 * the same): at least `needed` keys must match.
 */
typedef struct GinMinhashQuery
{
	int			needed;
} GinMinhashQuery;

/*
 * excerpt_query: winnowed fingerprints (a signed set), a direction, the
 * least containment and shared fingerprints, and fingerprints to ignore
 * (boilerplate), for bigint[] <@ excerpt_query.  The query's fingerprints
 * exclude the ignored ones, which follow them in hashes[].
 */
#define EXCERPT_QUOTED_IN	1	/* rows with a share of themselves in the query */
#define EXCERPT_QUOTING		2	/* rows holding a share of the query */
#define EXCERPT_MAX_SHARED	1000000

typedef struct ExcerptQuery
{
	int32		vl_len_;
	int32		kind;			/* EXCERPT_QUOTED_IN or EXCERPT_QUOTING */
	float8		min_containment;	/* 0..1 */
	int32		min_shared;		/* 1..EXCERPT_MAX_SHARED */
	int32		n;				/* fingerprints, sorted, distinct */
	int32		nignore;		/* then the ignored ones, sorted, distinct */
	int32		pad;			/* always 0 */
	int64		hashes[FLEXIBLE_ARRAY_MEMBER];
} ExcerptQuery;

#define ExcerptQueryIgnored(q)	((const uint64 *) (q)->hashes + (q)->n)

#define DatumGetExcerptQueryP(d)	((ExcerptQuery *) PG_DETOAST_DATUM(d))
#define PG_GETARG_EXCERPT_QUERY_P(n) DatumGetExcerptQueryP(PG_GETARG_DATUM(n))

/* Strategy numbers of the index operator classes. */
#define SIMHASH_EQ_STRATEGY			1	/* simhash64 = simhash64 */
#define SIMHASH_NEAR_STRATEGY		2	/* simhash64 % simhash64 */
#define SIMHASH_WITHIN_STRATEGY		3	/* simhash64 <@ hamming_ball */
#define SIMHASH_DISTANCE_STRATEGY	15	/* simhash64 <~> simhash64 (ordering) */
#define BALL_OVERLAP_STRATEGY		3	/* hamming_ball && hamming_ball */
#define MINHASH_EQ_STRATEGY			1	/* minhash_sig = minhash_sig */
#define MINHASH_NEAR_STRATEGY		2	/* minhash_sig % minhash_sig */
#define MINHASH_WITHIN_STRATEGY		3	/* minhash_sig <@ jaccard_ball */
#define MINHASH_LSH_STRATEGY		1	/* minhash_sig @@ lsh_query (gin_minhash_lsh_ops) */
#define EXCERPT_STRATEGY			1	/* bigint[] <@ excerpt_query (gin_winnow_ops) */
#define PG_GETARG_HAMMING_BALL_P(n) ((HammingBall *) PG_GETARG_POINTER(n))

/*
 * Input functions report bad input softly where the server supports it
 * (PostgreSQL 16 and later), so pg_input_is_valid() works.
 */
#if PG_VERSION_NUM >= 160000
#define TFP_INPUT_ERROR(fcinfo, ...) ereturn((fcinfo)->context, (Datum) 0, __VA_ARGS__)
#else
#define TFP_INPUT_ERROR(fcinfo, ...) ereport(ERROR, __VA_ARGS__)
#endif

/* catalog.c: textfp's own types and functions, found through the extension */
typedef struct TextfpObjects
{
	bool		valid;
	Oid			simhash64;
	Oid			hamming_ball;
	Oid			minhash_sig;
	Oid			jaccard_ball;
	Oid			hamming_ball_fn;	/* hamming_ball(simhash64, integer) */
	Oid			jaccard_ball_fn;	/* jaccard_ball(minhash_sig, float8) */
	/* 1.1 objects: InvalidOid in a database still at 1.0 */
	Oid			lsh_query;
	Oid			lsh_query_fn;	/* lsh_query(minhash_sig, integer, integer, integer) */
	/* operator families of the simhash64 classes whose cost is ours (simhash64_cost.c) */
	Oid			gist_simhash64_family;
	Oid			spgist_simhash64_family;
	Oid			gin_simhash64_family;
} TextfpObjects;

extern const TextfpObjects *textfp_objects(void);
extern bool textfp_is_type(Oid typid, Oid want);

/* simhash64.c: centre and radius of an index search */
extern int	simhash_query_radius(StrategyNumber strategy, Datum query, uint64 *center);

/* simhash64_gist.c: shared with the hamming_ball class */
extern void simhash_gist_assign(GistEntryVector *entryvec, GIST_SPLITVEC *v);
extern int	simhash_gist_penalty(const SimhashGistKey *o, const SimhashGistKey *a);

/* minhash_sig.c */
extern MinhashSig *minhash_sig_make(int k, tfp_minhash_method method,
									uint32 pipeline, int64 seed);
extern bool minhash_sig_is_valid(const MinhashSig *sig);
extern void minhash_sig_check_pair(const MinhashSig *a, const MinhashSig *b);
extern void minhash_sig_check_threshold(double t);
extern void minhash_sig_write(StringInfo buf, const MinhashSig *sig);

/* lsh_query.c */
extern void minhash_lsh_header(const MinhashSig *sig, tfp_lsh_header *h);
extern bool minhash_lsh_match(const MinhashSig *sig, const LshQuery *q);
extern void minhash_lsh_check_banding(int k, int32 bands, int32 rows, int32 min_bands);

/* winnow.c and excerpt_query.c */
extern const uint64 *textfp_int8_set(ArrayType *arr, const char *what, size_t *n);
extern ArrayType *textfp_int8_array(const uint64 *v, size_t n);
extern size_t excerpt_query_needed(const ExcerptQuery *q, size_t nrow);
/* minhash_text.c */
extern MinhashSig *textfp_minhash_doc(text *doc, const tfp_options *opts, uint32 pipeline_id, int k,
									  tfp_minhash_method method, size_t *nfeatures);

/* minhash_lsh_selfuncs.c: a column's sampled pair statistics */
typedef struct LshColumnStats
{
	int			k;				/* of the column's ordinary rows; 0 without statistics */
	double	   *pmf;			/* pmf[c]: share of sampled pairs with c equal positions */
	double		ordinary;		/* share of rows neither null nor a common value */
	int			nmcv;
	MinhashSig **mcv;
	double	   *mcv_freq;
} LshColumnStats;

extern void minhash_lsh_column_stats(Oid relid, const char *column,
									 LshColumnStats *st, double *reltuples);

/* options.c: the pipeline's named arguments */
typedef struct TextfpOptions
{
	tfp_options opts;
	uint32		pipeline_id;	/* tfp_pipeline_id(&opts) */
} TextfpOptions;

/* chinese_arg: the argument number of chinese, -1 for the forms without it */
extern const TextfpOptions *textfp_get_options(FunctionCallInfo fcinfo, int first,
											   bool has_weighting, int chinese_arg);
extern const TextfpOptions *textfp_get_ranked_options(FunctionCallInfo fcinfo, int first,
													  bool has_weighting, bool has_ranking,
													  int chinese_arg);
/* idf_model.c: the model argument argno as the core's view; NULL for 'none' */
extern const tfp_idf *textfp_idf_arg(FunctionCallInfo fcinfo, int argno, tfp_idf *view);
extern const TextfpOptions *textfp_parse_options(FunctionCallInfo fcinfo, int first,
												 bool has_weighting, int chinese_arg,
												 MemoryContext cxt);
extern tfp_chinese textfp_chinese_option(text *value, bool simplify);
extern bool textfp_text_is(text *t, const char *s);
extern int	textfp_stopword_lists(const char *what, text *value);
extern bool textfp_null_if_featureless(text *value);
extern void textfp_check_range(const char *name, int32 value, int32 lo, int32 hi);
extern void textfp_bad_choice(const char *name, text *value, const char *valid) pg_attribute_noreturn();

/* mih.c: the mih access method's reloptions and hooks, registered by _PG_init */
extern void mih_init(void);

/*
 * simhash64_cost.c: the cost of GiST, SP-GiST and GIN scans of simhash64
 * (installed by _PG_init), and the radius a path's clauses on its first
 * column ask for (the setting when none is known; *any: there is such a
 * clause).
 */
struct PlannerInfo;
struct IndexPath;
extern void simhash64_cost_init(void);
extern int	simhash64_path_radius(struct PlannerInfo *root, struct IndexPath *path, bool *any);
extern void cluster_init(void);
extern void dedup_init(void);
extern int	textfp_cluster_memory;

/* textfp.c */
extern int	textfp_hamming_threshold;
extern double textfp_jaccard_threshold;
extern void textfp_env_init(tfp_env *env, MemoryContext cxt);
extern void textfp_report(tfp_status rc, const tfp_env *env) pg_attribute_noreturn();
extern char *textfp_to_utf8(const char *s, size_t len, size_t *outlen);
extern char *textfp_from_utf8(const char *s, size_t len);
/* an input string as error messages quote it: at most about this many bytes */
#define TEXTFP_EXCERPT_MAX 100
extern const char *textfp_input_excerpt(const char *str);

#endif							/* TEXTFP_H */
