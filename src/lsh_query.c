/*
 * lsh_query.c: the lsh_query type, a minhash signature with a banding
 * (bands, rows, min_bands), written "signature/bands=B,rows=R,min_bands=M",
 * and its @@ operators: band semantics with every parameter in the value,
 * so they are IMMUTABLE and an index answers them exactly.
 *
 * sig @@ lsh_query(q, b, r, m) is true when sig and q were made alike (k,
 * method, seed, pipeline) and at least m of the first b bands of r
 * consecutive positions are equal in all r positions.  Signatures made
 * differently share no band (false, not an error: band keys mix the header
 * in, so an index could not raise it either).  A featureless signature (every
 * value ffffffff, the signature of a text without features) has no bands and
 * matches nothing, itself included, so the empty texts of a table never form
 * one hot band that everything shares.
 */
#include "postgres.h"

#include "libpq/pqformat.h"

#include "textfp.h"

extern Datum minhash_sig_in(PG_FUNCTION_ARGS);
extern Datum minhash_sig_recv(PG_FUNCTION_ARGS);
extern Datum minhash_sig_send(PG_FUNCTION_ARGS);

void
minhash_lsh_header(const MinhashSig *sig, tfp_lsh_header *h)
{
	h->k = sig->k;
	h->method = sig->method;
	h->value_bits = sig->value_bits;
	h->pipeline = sig->pipeline;
	h->seed = (uint64) MinhashSigSeed(sig);
}

/*
 * The banding's ranges, as invalid_parameter_value errors naming the valid
 * range (k is the signature's).
 */
void
minhash_lsh_check_banding(int k, int32 bands, int32 rows, int32 min_bands)
{
	textfp_check_range("rows", rows, 1, k);
	textfp_check_range("bands", bands, 1, k / rows);
	textfp_check_range("min_bands", min_bands, 1, bands);
}

static bool
same_header(const MinhashSig *a, const MinhashSig *b)
{
	return a->k == b->k && a->method == b->method && a->value_bits == b->value_bits &&
		a->pipeline == b->pipeline && a->seed_hi == b->seed_hi && a->seed_lo == b->seed_lo;
}

bool
minhash_lsh_match(const MinhashSig *sig, const LshQuery *q)
{
	if (!same_header(sig, &q->sig) ||
		tfp_minhash_is_featureless(sig->values, sig->k) ||
		tfp_minhash_is_featureless(q->sig.values, q->sig.k))
		return false;
	return tfp_lsh_equal_bands(sig->values, q->sig.values, q->bands, q->rows,
							   q->min_bands) >= q->min_bands;
}

static LshQuery *
make_query(const MinhashSig *sig, int32 bands, int32 rows, int32 min_bands)
{
	Size		size = offsetof(LshQuery, sig) + VARSIZE(sig);
	LshQuery   *q;

	minhash_lsh_check_banding(sig->k, bands, rows, min_bands);
	q = palloc0(size);
	SET_VARSIZE(q, size);
	q->bands = bands;
	q->rows = rows;
	q->min_bands = min_bands;
	memcpy(&q->sig, sig, VARSIZE(sig));
	return q;
}

/* In the input functions: a banding out of range is 22003, as core's inputs do. */
static bool
banding_in_range(int k, int bands, int rows, int min_bands)
{
	return rows >= 1 && rows <= k && bands >= 1 && bands <= k / rows &&
		min_bands >= 1 && min_bands <= bands;
}

#define LSH_RANGE_DETAIL \
	"rows must be between 1 and k, bands between 1 and k / rows, min_bands between 1 and bands (k = %d)."

PG_FUNCTION_INFO_V1(lsh_query_in);
Datum
lsh_query_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	char	   *slash = strrchr(str, '/');
	int			bands,
				rows,
				min_bands;
	MinhashSig *sig;

	if (slash == NULL ||
		!tfp_lsh_parse_params(slash + 1, strlen(slash + 1), &bands, &rows, &min_bands))
		TFP_INPUT_ERROR(fcinfo,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s: \"%s\"", "lsh_query", textfp_input_excerpt(str)),
						 errdetail("An lsh_query is written signature/bands=B,rows=R,min_bands=M.")));
	sig = DatumGetMinhashSigP(DirectFunctionCall3(minhash_sig_in,
												  CStringGetDatum(pnstrdup(str, slash - str)),
												  ObjectIdGetDatum(InvalidOid),
												  Int32GetDatum(-1)));
	if (!banding_in_range(sig->k, bands, rows, min_bands))
		TFP_INPUT_ERROR(fcinfo,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("lsh_query banding out of range: bands=%d, rows=%d, min_bands=%d",
								bands, rows, min_bands),
						 errdetail(LSH_RANGE_DETAIL, sig->k)));
	PG_RETURN_POINTER(make_query(sig, bands, rows, min_bands));
}

PG_FUNCTION_INFO_V1(lsh_query_out);
Datum
lsh_query_out(PG_FUNCTION_ARGS)
{
	LshQuery   *q = PG_GETARG_LSH_QUERY_P(0);
	StringInfoData buf;

	initStringInfo(&buf);
	minhash_sig_write(&buf, &q->sig);
	appendStringInfo(&buf, "/bands=%d,rows=%d,min_bands=%d", q->bands, q->rows, q->min_bands);
	PG_RETURN_CSTRING(buf.data);
}

/* Binary form: bands, rows, min_bands (int32 each), then a minhash_sig's. */
PG_FUNCTION_INFO_V1(lsh_query_recv);
Datum
lsh_query_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int32		bands = pq_getmsgint(buf, 4);
	int32		rows = pq_getmsgint(buf, 4);
	int32		min_bands = pq_getmsgint(buf, 4);
	MinhashSig *sig;

	sig = DatumGetMinhashSigP(DirectFunctionCall3(minhash_sig_recv,
												  PointerGetDatum(buf),
												  ObjectIdGetDatum(InvalidOid),
												  Int32GetDatum(-1)));
	if (!banding_in_range(sig->k, bands, rows, min_bands))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid lsh_query banding: bands=%d, rows=%d, min_bands=%d",
						bands, rows, min_bands),
				 errdetail(LSH_RANGE_DETAIL, sig->k)));
	PG_RETURN_POINTER(make_query(sig, bands, rows, min_bands));
}

PG_FUNCTION_INFO_V1(lsh_query_send);
Datum
lsh_query_send(PG_FUNCTION_ARGS)
{
	LshQuery   *q = PG_GETARG_LSH_QUERY_P(0);
	bytea	   *sig = DatumGetByteaPP(DirectFunctionCall1(minhash_sig_send,
														  PointerGetDatum(&q->sig)));
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint32(&buf, q->bands);
	pq_sendint32(&buf, q->rows);
	pq_sendint32(&buf, q->min_bands);
	pq_sendbytes(&buf, VARDATA_ANY(sig), VARSIZE_ANY_EXHDR(sig));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* lsh_query(sig, bands, rows, min_bands) */
PG_FUNCTION_INFO_V1(lsh_query_make);
Datum
lsh_query_make(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(make_query(PG_GETARG_MINHASH_SIG_P(0), PG_GETARG_INT32(1),
								 PG_GETARG_INT32(2), PG_GETARG_INT32(3)));
}

PG_FUNCTION_INFO_V1(lsh_query_signature);
Datum
lsh_query_signature(PG_FUNCTION_ARGS)
{
	LshQuery   *q = PG_GETARG_LSH_QUERY_P(0);
	MinhashSig *sig = palloc(VARSIZE(&q->sig));

	memcpy(sig, &q->sig, VARSIZE(&q->sig));
	PG_RETURN_POINTER(sig);
}

PG_FUNCTION_INFO_V1(lsh_query_bands);
Datum
lsh_query_bands(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(PG_GETARG_LSH_QUERY_P(0)->bands);
}

PG_FUNCTION_INFO_V1(lsh_query_rows);
Datum
lsh_query_rows(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(PG_GETARG_LSH_QUERY_P(0)->rows);
}

PG_FUNCTION_INFO_V1(lsh_query_min_bands);
Datum
lsh_query_min_bands(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(PG_GETARG_LSH_QUERY_P(0)->min_bands);
}

PG_FUNCTION_INFO_V1(minhash_sig_lsh_match);
Datum
minhash_sig_lsh_match(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(minhash_lsh_match(PG_GETARG_MINHASH_SIG_P(0), PG_GETARG_LSH_QUERY_P(1)));
}

PG_FUNCTION_INFO_V1(lsh_query_lsh_match);
Datum
lsh_query_lsh_match(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(minhash_lsh_match(PG_GETARG_MINHASH_SIG_P(1), PG_GETARG_LSH_QUERY_P(0)));
}
