/*
 * textfp.h: what the PostgreSQL glue files share.
 */
#ifndef TEXTFP_H
#define TEXTFP_H

#include "postgres.h"
#include "access/gist.h"
#include "access/stratnum.h"
#include "fmgr.h"

#include "tfp_core.h"

#define TEXTFP_VERSION "1.0"

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

/* Strategy numbers of the index operator classes. */
#define SIMHASH_EQ_STRATEGY			1	/* simhash64 = simhash64 */
#define SIMHASH_NEAR_STRATEGY		2	/* simhash64 % simhash64 */
#define SIMHASH_WITHIN_STRATEGY		3	/* simhash64 <@ hamming_ball */
#define SIMHASH_DISTANCE_STRATEGY	15	/* simhash64 <~> simhash64 (ordering) */
#define BALL_OVERLAP_STRATEGY		3	/* hamming_ball && hamming_ball */
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

/* simhash64.c: centre and radius of an index search */
extern int	simhash_query_radius(StrategyNumber strategy, Datum query, uint64 *center);

/* simhash64_gist.c: shared with the hamming_ball class */
extern void simhash_gist_assign(GistEntryVector *entryvec, GIST_SPLITVEC *v);
extern int	simhash_gist_penalty(const SimhashGistKey *o, const SimhashGistKey *a);

/* textfp.c */
extern int	textfp_hamming_threshold;
extern void textfp_env_init(tfp_env *env, MemoryContext cxt);
extern void textfp_report(tfp_status rc, const tfp_env *env) pg_attribute_noreturn();
extern char *textfp_to_utf8(const char *s, size_t len, size_t *outlen);
extern char *textfp_from_utf8(const char *s, size_t len);

#endif							/* TEXTFP_H */
