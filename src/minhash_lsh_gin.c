/*
 * minhash_lsh_gin.c: GIN operator class for minhash_sig by LSH bands
 * (gin_minhash_lsh_ops), exact for sig @@ lsh_query(q, bands, rows, min_bands).
 *
 * A signature is indexed under one key per band: the band's number above 32
 * bits, below them the top "bits" bits of its band key (tfp_lsh_band_key,
 * which mixes in the signature's header), for the index's "bands" bands of
 * "rows" positions (fewer when k has room for fewer).  A featureless
 * signature has no keys.  Equal bands have equal keys, so a row with fewer
 * than min_bands of the query's keys cannot match; the rest are rechecked
 * with the operator (truncated keys collide; headers may differ).  With
 * min_bands > 1 GIN's consistent check drops rows that share one key by
 * chance before the heap is read, which is what lets keys keep few bits.
 *
 * A query answers from the keys when it uses the index's rows and at most its
 * bands (the first bands of a banding are the same keys whatever the band
 * count).  Any other banding is still answered exactly, by reading every
 * entry and rechecking each row: slower than a sequential scan, and the
 * planner's cost estimate (GIN asks this class for the query's keys) says
 * so, which is why it prefers a scan there.
 *
 * Deciding from the keys is the same as gin_minhash_ops's (at least
 * `needed` keys; recheck), so the class shares its consistent functions.
 */
#include "postgres.h"

#include "access/gin.h"
#include "access/reloptions.h"
#include "access/stratnum.h"

#include "textfp.h"

/*
 * Defaults: the recommended banding of textfp 1.1 (docs/minhash.md, "Settings
 * that scale"): 44 bands of one position each, which lsh_query(sig) queries
 * with min_bands 10, and 13-bit keys.  Part of the SQL interface: never
 * change.
 */
#define LSH_BANDS_DEFAULT 44
#define LSH_ROWS_DEFAULT 1
#define LSH_BITS_DEFAULT 13

typedef struct GinLshOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			bands;
	int			rows;
	int			bits;
} GinLshOptions;

static void
get_options(FunctionCallInfo fcinfo, GinLshOptions *o)
{
	if (PG_HAS_OPCLASS_OPTIONS())
		*o = *(GinLshOptions *) PG_GET_OPCLASS_OPTIONS();
	else
	{
		o->bands = LSH_BANDS_DEFAULT;
		o->rows = LSH_ROWS_DEFAULT;
		o->bits = LSH_BITS_DEFAULT;
	}
}

static void
validate_options(void *parsed, relopt_value *vals, int nvals)
{
	GinLshOptions *o = (GinLshOptions *) parsed;

	if (o->bands * o->rows > TFP_MINHASH_K_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bands * rows must be at most %d, got %d * %d",
						TFP_MINHASH_K_MAX, o->bands, o->rows),
				 errhint("Signatures have at most %d positions; choose bands and rows with lsh_params().",
						 TFP_MINHASH_K_MAX)));
}

PG_FUNCTION_INFO_V1(gin_minhash_lsh_options);
Datum
gin_minhash_lsh_options(PG_FUNCTION_ARGS)
{
	local_relopts *relopts = (local_relopts *) PG_GETARG_POINTER(0);

	init_local_reloptions(relopts, sizeof(GinLshOptions));
	add_local_int_reloption(relopts, "bands", "number of bands indexed",
							LSH_BANDS_DEFAULT, 1, TFP_MINHASH_K_MAX,
							offsetof(GinLshOptions, bands));
	add_local_int_reloption(relopts, "rows", "signature positions per band",
							LSH_ROWS_DEFAULT, 1, TFP_MINHASH_K_MAX,
							offsetof(GinLshOptions, rows));
	add_local_int_reloption(relopts, "bits", "band key bits kept in each index key",
							LSH_BITS_DEFAULT, 1, 32,
							offsetof(GinLshOptions, bits));
	register_reloptions_validator(relopts, validate_options);
	PG_RETURN_VOID();
}

/* Keys of the first nbands bands of sig, rows positions each. */
static Datum *
band_keys(const MinhashSig *sig, int nbands, int rows, int bits)
{
	Datum	   *keys = palloc(sizeof(Datum) * Max(nbands, 1));
	tfp_lsh_header h;

	minhash_lsh_header(sig, &h);
	for (int i = 0; i < nbands; i++)
	{
		uint64		key = tfp_lsh_band_key(&h, rows, i, sig->values);

		keys[i] = Int64GetDatum((int64) (((uint64) i << 32) | (key >> (64 - bits))));
	}
	return keys;
}

PG_FUNCTION_INFO_V1(gin_minhash_lsh_extract_value);
Datum
gin_minhash_lsh_extract_value(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	GinLshOptions o;

	get_options(fcinfo, &o);
	if (tfp_minhash_is_featureless(sig->values, sig->k))
	{
		*nentries = 0;
		PG_RETURN_POINTER(NULL);
	}
	*nentries = tfp_lsh_indexed_bands(sig->k, o.bands, o.rows);
	PG_RETURN_POINTER(band_keys(sig, *nentries, o.rows, o.bits));
}

PG_FUNCTION_INFO_V1(gin_minhash_lsh_extract_query);
Datum
gin_minhash_lsh_extract_query(PG_FUNCTION_ARGS)
{
	int32	   *nentries = (int32 *) PG_GETARG_POINTER(1);
	StrategyNumber strategy = PG_GETARG_UINT16(2);
	Pointer   **extra_data = (Pointer **) PG_GETARG_POINTER(4);
	int32	   *searchMode = (int32 *) PG_GETARG_POINTER(6);
	LshQuery   *q;
	GinMinhashQuery *gq;
	GinLshOptions o;

	if (strategy != MINHASH_LSH_STRATEGY)
		elog(ERROR, "unrecognized strategy number: %d", strategy);
	q = PG_GETARG_LSH_QUERY_P(0);
	get_options(fcinfo, &o);

	if (tfp_minhash_is_featureless(q->sig.values, q->sig.k))
	{
		/* matches nothing: no keys in the default mode finds no row */
		*nentries = 0;
		*searchMode = GIN_SEARCH_MODE_DEFAULT;
		PG_RETURN_POINTER(NULL);
	}
	if (q->rows != o.rows || q->bands > o.bands)
	{
		/* another banding than the index's: every row, rechecked (exact, slow) */
		*nentries = 0;
		*searchMode = GIN_SEARCH_MODE_ALL;
		PG_RETURN_POINTER(NULL);
	}
	gq = palloc(sizeof(GinMinhashQuery));
	gq->needed = q->min_bands;
	*nentries = q->bands;
	*extra_data = palloc(sizeof(Pointer) * q->bands);
	for (int i = 0; i < q->bands; i++)
		(*extra_data)[i] = (Pointer) gq;
	PG_RETURN_POINTER(band_keys(&q->sig, q->bands, q->rows, o.bits));
}
