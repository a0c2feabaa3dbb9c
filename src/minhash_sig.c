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
				 errdetail("The options that decide the shingles (ngram, shingle, tokenizer, simplify, stopwords, user_stopwords) differ, or one signature was made from caller-made shingles (pipeline 00000000)."),
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

/* --- text I/O --- */

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly 8 hex digits at *p; advances past them. */
static bool
parse_hex32(const char **p, uint32 *out)
{
	uint32		v = 0;

	for (int i = 0; i < 8; i++)
	{
		int			d = hex_digit((*p)[i]);

		if (d < 0)
			return false;
		v = (v << 4) | (uint32) d;
	}
	*p += 8;
	*out = v;
	return true;
}

/* A decimal integer without leading zeros or '+', in lo..hi. */
static bool
parse_int(const char **p, int64 lo, int64 hi, int64 *out)
{
	const char *s = *p;
	bool		neg = false;
	uint64		v = 0;
	int			digits = 0;

	if (*s == '-')
	{
		neg = true;
		s++;
	}
	if (*s == '0' && s[1] >= '0' && s[1] <= '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++, digits++)
	{
		if (v > (PG_UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64) (*s - '0');
	}
	if (digits == 0 || digits > 19 || (neg && v == 0))
		return false;
	if (neg ? v > (uint64) PG_INT64_MAX + 1 : v > (uint64) PG_INT64_MAX)
		return false;
	*out = neg ? (int64) (0 - v) : (int64) v;
	if (*out < lo || *out > hi)
		return false;
	*p = s;
	return true;
}

static bool
skip(const char **p, const char *lit)
{
	size_t		n = strlen(lit);

	if (strncmp(*p, lit, n) != 0)
		return false;
	*p += n;
	return true;
}

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

PG_FUNCTION_INFO_V1(minhash_sig_in);
Datum
minhash_sig_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	int32		typmod = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : -1;
	const char *p = str;
	int			method;
	int64		k;
	int64		seed;
	uint32		pipeline;
	MinhashSig *sig;

	if (skip(&p, "oph32:"))
		method = TFP_MINHASH_OPH;
	else if (skip(&p, "kperm32:"))
		method = TFP_MINHASH_KPERM;
	else
		goto syntax;
	if (!skip(&p, "k=") || !parse_int(&p, 1, TFP_MINHASH_K_MAX, &k) ||
		!skip(&p, ":seed=") || !parse_int(&p, PG_INT64_MIN, PG_INT64_MAX, &seed) ||
		!skip(&p, ":pipe=") || !parse_hex32(&p, &pipeline) || !skip(&p, ":"))
		goto syntax;
	if (strlen(p) != (size_t) k * 8)
		TFP_INPUT_ERROR(fcinfo,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s: \"%s\"", "minhash_sig", str),
						 errdetail("Expected %d hexadecimal digits for k = %d values, found %zu.",
								   (int) k * 8, (int) k, strlen(p))));
	sig = minhash_sig_make((int) k, method, pipeline, seed);
	for (int i = 0; i < k; i++)
		if (!parse_hex32(&p, &sig->values[i]))
			goto syntax;
	if (typmod >= 0 && k != typmod)
		TFP_INPUT_ERROR(fcinfo,
						(errcode(ERRCODE_DATA_EXCEPTION),
						 errmsg("expected a minhash signature with k = %d, got k = %d",
								typmod, (int) k)));
	PG_RETURN_POINTER(sig);

syntax:
	TFP_INPUT_ERROR(fcinfo,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", "minhash_sig", str),
					 errdetail(SIG_SYNTAX_DETAIL)));
	PG_RETURN_NULL();			/* soft error (PostgreSQL 16 and later) */
}

/* Appends the text form to buf. */
void
minhash_sig_write(StringInfo buf, const MinhashSig *sig)
{
	static const char hex[] = "0123456789abcdef";

	appendStringInfo(buf, "%s%d:k=%d:seed=" INT64_FORMAT ":pipe=%08x:",
					 method_name(sig->method), sig->value_bits, sig->k,
					 MinhashSigSeed(sig), sig->pipeline);
	enlargeStringInfo(buf, sig->k * 8);
	for (int i = 0; i < sig->k; i++)
		for (int sh = 28; sh >= 0; sh -= 4)
			buf->data[buf->len++] = hex[(sig->values[i] >> sh) & 0xf];
	buf->data[buf->len] = '\0';
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
	int			method = pq_getmsgbyte(buf);
	int			bits = pq_getmsgbyte(buf);
	int			k = pq_getmsgint(buf, 2);
	uint32		pipeline = (uint32) pq_getmsgint(buf, 4);
	int64		seed = pq_getmsgint64(buf);
	MinhashSig *sig;

	if ((method != TFP_MINHASH_OPH && method != TFP_MINHASH_KPERM) ||
		bits != MINHASH_VALUE_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid minhash_sig method %d with %d-bit values", method, bits)));
	if (k < 1 || k > TFP_MINHASH_K_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid minhash_sig k %d", k),
				 errdetail("k must be between 1 and %d.", TFP_MINHASH_K_MAX)));
	check_typmod(k, typmod);
	sig = minhash_sig_make(k, method, pipeline, seed);
	for (int i = 0; i < k; i++)
		sig->values[i] = (uint32) pq_getmsgint(buf, 4);
	PG_RETURN_POINTER(sig);
}

PG_FUNCTION_INFO_V1(minhash_sig_send);
Datum
minhash_sig_send(PG_FUNCTION_ARGS)
{
	MinhashSig *sig = PG_GETARG_MINHASH_SIG_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, sig->method);
	pq_sendbyte(&buf, sig->value_bits);
	pq_sendint16(&buf, sig->k);
	pq_sendint32(&buf, sig->pipeline);
	pq_sendint64(&buf, MinhashSigSeed(sig));
	for (int i = 0; i < sig->k; i++)
		pq_sendint32(&buf, sig->values[i]);
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
