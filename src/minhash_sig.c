/*
 * minhash_sig.c: the minhash_sig type: text and binary I/O, the k typmod,
 * equality and hashing, the Jaccard estimate, <%> and the % near operator.
 *
 * Text form (strict, no spaces, hex digits in either case on input):
 *     oph32:k=4:seed=0:pipe=3a1f00c2:<8 * k hex digits>
 * method and value width, k, the seed, the pipeline identity (00000000 for
 * signatures of caller-made shingles), then the values, 8 digits each.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "textfp.h"

MinhashSig *
minhash_sig_make(int k, tfp_minhash_method method, uint32 pipeline, int64 seed)
{
	MinhashSig *sig = palloc0(MINHASH_SIG_SIZE(k));

	SET_VARSIZE(sig, MINHASH_SIG_SIZE(k));
	sig->k = (uint16) k;
	sig->method = (uint8) method;
	sig->value_bits = MINHASH_VALUE_BITS;
	sig->pipeline = pipeline;
	sig->seed_hi = (uint32) ((uint64) seed >> 32);
	sig->seed_lo = (uint32) (uint64) seed;
	return sig;
}

/* A well-formed signature: a known method, k in range and the size it implies. */
bool
minhash_sig_is_valid(const MinhashSig *sig)
{
	return VARSIZE(sig) >= MINHASH_SIG_HEADER && sig->k >= 1 && sig->k <= TFP_MINHASH_K_MAX &&
		VARSIZE(sig) == MINHASH_SIG_SIZE(sig->k) && sig->value_bits == MINHASH_VALUE_BITS &&
		(sig->method == TFP_MINHASH_OPH || sig->method == TFP_MINHASH_KPERM);
}

static const char *
method_name(int method)
{
	switch (method)
	{
		case TFP_MINHASH_OPH:
			return "oph";
		case TFP_MINHASH_KPERM:
			return "kperm";
	}
	return "?";
}

/*
 * Signatures made differently estimate nothing when compared: say which
 * part differs instead of returning a meaningless number.
 */
void
minhash_sig_check_pair(const MinhashSig *a, const MinhashSig *b)
{
	if (a->k != b->k)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("cannot compare minhash signatures with different k: %d and %d",
						a->k, b->k),
				 errhint("Compute both signatures with the same k.")));
	if (a->method != b->method || a->value_bits != b->value_bits)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("cannot compare minhash signatures made by different methods: %s and %s",
						method_name(a->method), method_name(b->method)),
				 errhint("Compute both signatures with the same method.")));
	if (a->seed_hi != b->seed_hi || a->seed_lo != b->seed_lo)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("cannot compare minhash signatures with different seeds: " INT64_FORMAT " and " INT64_FORMAT,
						MinhashSigSeed(a), MinhashSigSeed(b)),
				 errhint("Compute both signatures with the same seed.")));
	if (a->pipeline != b->pipeline)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("cannot compare minhash signatures made with different pipeline options: %08x and %08x",
						a->pipeline, b->pipeline),
				 errdetail("The options that decide the shingles (ngram, shingle, tokenizer, simplify, chinese, stopwords, user_stopwords) differ, or one signature was made from caller-made shingles (pipeline 00000000)."),
				 errhint("Compute both signatures with the same options.")));
}

void
minhash_sig_check_threshold(double t)
{
	if (!(t >= 0.0 && t <= 1.0))	/* also NaN */
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Jaccard threshold must be between 0 and 1, got %g", t)));
}

/* --- text I/O: parsed in the core (src/core/formats.c) --- */

#define SIG_SYNTAX_DETAIL \
	"A minhash_sig is written method:k=K:seed=S:pipe=PPPPPPPP: followed by 8 hexadecimal digits for each of its K values, where method is oph32 or kperm32."

static void
check_typmod(int k, int32 typmod)
{
	if (typmod >= 0 && k != typmod)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("expected a minhash signature with k = %d, got k = %d", typmod, k)));
}

/* A signature made from a parsed or decoded header and values. */
static MinhashSig *
sig_from(const tfp_minhash_header *h, const uint32 *values)
{
	MinhashSig *sig = minhash_sig_make(h->k, h->method, h->pipeline, h->seed);

	memcpy(sig->values, values, sizeof(uint32) * h->k);
	return sig;
}

PG_FUNCTION_INFO_V1(minhash_sig_in);
Datum
minhash_sig_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	int32		typmod = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : -1;
	tfp_minhash_header h;
	uint32	   *values = palloc(sizeof(uint32) * TFP_MINHASH_K_MAX);
	int64		found;

	switch (tfp_minhash_sig_parse(str, strlen(str), &h, values, &found))
	{
		case TFP_FORM_OK:
			break;
		case TFP_FORM_K:
			TFP_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							 errmsg("minhash_sig k must be between 1 and %d, got " INT64_FORMAT,
									TFP_MINHASH_K_MAX, found)));
			PG_RETURN_NULL();
		case TFP_FORM_DIGITS:
			TFP_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("invalid input syntax for type %s: \"%s\"", "minhash_sig", textfp_input_excerpt(str)),
							 errdetail("Expected %d hexadecimal digits for k = %d values, found " INT64_FORMAT ".",
									   h.k * 8, h.k, found)));
			PG_RETURN_NULL();
		default:
			TFP_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("invalid input syntax for type %s: \"%s\"", "minhash_sig", textfp_input_excerpt(str)),
							 errdetail(SIG_SYNTAX_DETAIL)));
			PG_RETURN_NULL();	/* soft error (PostgreSQL 16 and later) */
	}
	if (typmod >= 0 && h.k != typmod)
		TFP_INPUT_ERROR(fcinfo,
						(errcode(ERRCODE_DATA_EXCEPTION),
						 errmsg("expected a minhash signature with k = %d, got k = %d",
								typmod, h.k)));
	PG_RETURN_POINTER(sig_from(&h, values));
}

static void
header_of(const MinhashSig *sig, tfp_minhash_header *h)
{
	h->k = sig->k;
	h->method = sig->method;
	h->value_bits = sig->value_bits;
	h->pipeline = sig->pipeline;
	h->seed = MinhashSigSeed(sig);
}

/* Appends the text form to buf. */
void
minhash_sig_write(StringInfo buf, const MinhashSig *sig)
{
	tfp_minhash_header h;
	size_t		need;

	header_of(sig, &h);
	need = tfp_minhash_sig_format(&h, sig->values, NULL, 0);
	enlargeStringInfo(buf, (int) need);
	buf->len += (int) tfp_minhash_sig_format(&h, sig->values, buf->data + buf->len, need + 1);
}

PG_FUNCTION_INFO_V1(minhash_sig_out);
Datum
minhash_sig_out(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);
	StringInfoData buf;

	initStringInfo(&buf);
	minhash_sig_write(&buf, sig);
	PG_RETURN_CSTRING(buf.data);
}

/* --- binary I/O: method, value bits, k, pipeline, seed, values --- */

PG_FUNCTION_INFO_V1(minhash_sig_recv);
Datum
minhash_sig_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int32		typmod = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : -1;
	tfp_minhash_header h;
	uint32	   *values = palloc(sizeof(uint32) * TFP_MINHASH_K_MAX);
	size_t		used;

	switch (tfp_minhash_sig_decode((const uint8 *) buf->data + buf->cursor,
								   buf->len - buf->cursor, &h, values, &used))
	{
		case TFP_FORM_OK:
			break;
		case TFP_FORM_METHOD:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("invalid minhash_sig method %d with %d-bit values", h.method, h.value_bits)));
			break;
		case TFP_FORM_K:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("invalid minhash_sig k %d", h.k),
					 errdetail("k must be between 1 and %d.", TFP_MINHASH_K_MAX)));
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("insufficient data left in message for a minhash_sig")));
	}
	buf->cursor += (int) used;
	check_typmod(h.k, typmod);
	PG_RETURN_POINTER(sig_from(&h, values));
}

PG_FUNCTION_INFO_V1(minhash_sig_send);
Datum
minhash_sig_send(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);
	tfp_minhash_header h;
	uint8	   *bytes = palloc(TFP_MINHASH_BINARY_HEADER + 4 * sig->k);
	StringInfoData buf;

	header_of(sig, &h);
	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (char *) bytes, (int) tfp_minhash_sig_encode(&h, sig->values, bytes));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* --- typmod: minhash_sig(k) --- */

PG_FUNCTION_INFO_V1(minhash_sig_typmod_in);
Datum
minhash_sig_typmod_in(PG_FUNCTION_ARGS)
{
	ArrayType  *ta = PG_GETARG_ARRAYTYPE_P(0);
	int32	   *tl;
	int			n;

	tl = ArrayGetIntegerTypmods(ta, &n);
	if (n != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid type modifier"),
				 errdetail("minhash_sig takes one modifier, k.")));
	if (tl[0] < 1 || tl[0] > TFP_MINHASH_K_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("k must be between 1 and %d, got %d", TFP_MINHASH_K_MAX, tl[0])));
	PG_RETURN_INT32(tl[0]);
}

PG_FUNCTION_INFO_V1(minhash_sig_typmod_out);
Datum
minhash_sig_typmod_out(PG_FUNCTION_ARGS)
{
	int32		typmod = PG_GETARG_INT32(0);

	PG_RETURN_CSTRING(typmod >= 0 ? psprintf("(%d)", typmod) : pstrdup(""));
}

/* The length-coercion cast: a signature into a minhash_sig(k) column. */
PG_FUNCTION_INFO_V1(minhash_sig_enforce_k);
Datum
minhash_sig_enforce_k(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);

	check_typmod(sig->k, PG_GETARG_INT32(1));
	PG_RETURN_POINTER(sig);
}

/* --- equality and hashing: the same header and values --- */

static bool
sig_equal(const MinhashSig *a, const MinhashSig *b)
{
	return VARSIZE(a) == VARSIZE(b) &&
		memcmp(VARDATA(a), VARDATA(b), VARSIZE(a) - VARHDRSZ) == 0;
}

PG_FUNCTION_INFO_V1(minhash_sig_eq);
Datum
minhash_sig_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(sig_equal(PG_GETARG_MINHASH_SIG_P(0), PG_GETARG_MINHASH_SIG_P(1)));
}

PG_FUNCTION_INFO_V1(minhash_sig_ne);
Datum
minhash_sig_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!sig_equal(PG_GETARG_MINHASH_SIG_P(0), PG_GETARG_MINHASH_SIG_P(1)));
}

/*
 * A total order for btree (sorting, DISTINCT, merge joins, unique indexes):
 * by k, method, value width, pipeline identity, seed, then the values as
 * unsigned numbers.  It means nothing for similarity.
 */
static int
sig_cmp(const MinhashSig *a, const MinhashSig *b)
{
#define CMP(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)
	CMP(a->k, b->k);
	CMP(a->method, b->method);
	CMP(a->value_bits, b->value_bits);
	CMP(a->pipeline, b->pipeline);
	CMP(MinhashSigSeed(a), MinhashSigSeed(b));
	for (int i = 0; i < a->k; i++)
		CMP(a->values[i], b->values[i]);
	return 0;
#undef CMP
}

PG_FUNCTION_INFO_V1(minhash_sig_cmp);
Datum
minhash_sig_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(sig_cmp(PG_GETARG_MINHASH_SIG_P(0), PG_GETARG_MINHASH_SIG_P(1)));
}

#define MINHASH_SIG_CMP_FUNC(name, op) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(sig_cmp(PG_GETARG_MINHASH_SIG_P(0), PG_GETARG_MINHASH_SIG_P(1)) op 0); \
}

MINHASH_SIG_CMP_FUNC(minhash_sig_lt, <)
MINHASH_SIG_CMP_FUNC(minhash_sig_le, <=)
MINHASH_SIG_CMP_FUNC(minhash_sig_gt, >)
MINHASH_SIG_CMP_FUNC(minhash_sig_ge, >=)

PG_FUNCTION_INFO_V1(minhash_sig_hash);
Datum
minhash_sig_hash(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);

	return hash_any((unsigned char *) VARDATA(sig), VARSIZE(sig) - VARHDRSZ);
}

PG_FUNCTION_INFO_V1(minhash_sig_hash_extended);
Datum
minhash_sig_hash_extended(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);

	return hash_any_extended((unsigned char *) VARDATA(sig), VARSIZE(sig) - VARHDRSZ,
							 PG_GETARG_INT64(1));
}

/* --- similarity --- */

static int
sig_matches(const MinhashSig *a, const MinhashSig *b)
{
	minhash_sig_check_pair(a, b);
	return tfp_minhash_matches(a->values, b->values, a->k);
}

PG_FUNCTION_INFO_V1(minhash_sig_jaccard);
Datum
minhash_sig_jaccard(PG_FUNCTION_ARGS)
{
	MinhashSig *a = PG_GETARG_MINHASH_SIG_P(0);
	MinhashSig *b = PG_GETARG_MINHASH_SIG_P(1);

	PG_RETURN_FLOAT8((double) sig_matches(a, b) / a->k);
}

PG_FUNCTION_INFO_V1(minhash_sig_distance);
Datum
minhash_sig_distance(PG_FUNCTION_ARGS)
{
	MinhashSig *a = PG_GETARG_MINHASH_SIG_P(0);
	MinhashSig *b = PG_GETARG_MINHASH_SIG_P(1);

	PG_RETURN_FLOAT8(1.0 - (double) sig_matches(a, b) / a->k);
}

/*
 * STABLE, not IMMUTABLE: the answer depends on textfp.jaccard_threshold.
 * Counting against tfp_jaccard_needed() is the same test as
 * jaccard(a, b) >= threshold, and the GIN index counts the same way.
 */
PG_FUNCTION_INFO_V1(minhash_sig_near);
Datum
minhash_sig_near(PG_FUNCTION_ARGS)
{
	MinhashSig *a = PG_GETARG_MINHASH_SIG_P(0);
	MinhashSig *b = PG_GETARG_MINHASH_SIG_P(1);

	PG_RETURN_BOOL(sig_matches(a, b) >= tfp_jaccard_needed(textfp_jaccard_threshold, a->k));
}

/* --- looking inside --- */

PG_FUNCTION_INFO_V1(minhash_sig_info);
Datum
minhash_sig_info(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = CStringGetTextDatum(method_name(sig->method));
	values[1] = Int32GetDatum(sig->k);
	values[2] = Int32GetDatum(sig->value_bits);
	values[3] = Int64GetDatum(MinhashSigSeed(sig));
	values[4] = CStringGetTextDatum(psprintf("%08x", sig->pipeline));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

PG_FUNCTION_INFO_V1(minhash_sig_values);
Datum
minhash_sig_values(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);
	Datum	   *d = palloc(sig->k * sizeof(Datum));

	for (int i = 0; i < sig->k; i++)
		d[i] = Int64GetDatum((int64) sig->values[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(d, sig->k, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
