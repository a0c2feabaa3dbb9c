/*
 * simhash64.c: the simhash64 type: text and binary I/O, casts, comparison,
 * hashing, Hamming distance and the % near operator.
 */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/varbit.h"

#include "textfp.h"

#define SIMHASH64_BYTES 8

PG_FUNCTION_INFO_V1(simhash64_in);
Datum
simhash64_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	uint64		v;

	if (!tfp_hex64_parse(str, strlen(str), &v))
		TFP_INPUT_ERROR(fcinfo,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s: \"%s\"",
								"simhash64", textfp_input_excerpt(str)),
						 errdetail("A simhash64 value is exactly 16 hexadecimal digits.")));
	PG_RETURN_SIMHASH64(v);
}

PG_FUNCTION_INFO_V1(simhash64_out);
Datum
simhash64_out(PG_FUNCTION_ARGS)
{
	char	   *buf = palloc(17);

	tfp_hex64_format(PG_GETARG_SIMHASH64(0), buf);
	PG_RETURN_CSTRING(buf);
}

PG_FUNCTION_INFO_V1(simhash64_recv);
Datum
simhash64_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);

	PG_RETURN_SIMHASH64((uint64) pq_getmsgint64(buf));
}

PG_FUNCTION_INFO_V1(simhash64_send);
Datum
simhash64_send(PG_FUNCTION_ARGS)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) PG_GETARG_SIMHASH64(0));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* --- casts --- */

PG_FUNCTION_INFO_V1(simhash64_to_bigint);
Datum
simhash64_to_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) PG_GETARG_SIMHASH64(0));
}

PG_FUNCTION_INFO_V1(simhash64_from_bigint);
Datum
simhash64_from_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_SIMHASH64((uint64) PG_GETARG_INT64(0));
}

PG_FUNCTION_INFO_V1(simhash64_to_bit);
Datum
simhash64_to_bit(PG_FUNCTION_ARGS)
{
	uint64		v = PG_GETARG_SIMHASH64(0);
	int			len = VARBITTOTALLEN(SIMHASH_BITS);
	VarBit	   *res = (VarBit *) palloc0(len);

	SET_VARSIZE(res, len);
	VARBITLEN(res) = SIMHASH_BITS;
	for (int i = 0; i < SIMHASH64_BYTES; i++)
		VARBITS(res)[i] = (bits8) (v >> (56 - 8 * i));
	PG_RETURN_VARBIT_P(res);
}

PG_FUNCTION_INFO_V1(simhash64_from_bit);
Datum
simhash64_from_bit(PG_FUNCTION_ARGS)
{
	VarBit	   *bits = PG_GETARG_VARBIT_P(0);
	uint64		v = 0;

	if (VARBITLEN(bits) != SIMHASH_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("cannot cast a bit string of length %d to simhash64",
						VARBITLEN(bits)),
				 errdetail("A simhash64 value has exactly 64 bits.")));
	for (int i = 0; i < SIMHASH64_BYTES; i++)
		v = (v << 8) | VARBITS(bits)[i];
	PG_RETURN_SIMHASH64(v);
}

PG_FUNCTION_INFO_V1(simhash64_to_bytea);
Datum
simhash64_to_bytea(PG_FUNCTION_ARGS)
{
	uint64		v = PG_GETARG_SIMHASH64(0);
	bytea	   *res = (bytea *) palloc(VARHDRSZ + SIMHASH64_BYTES);

	SET_VARSIZE(res, VARHDRSZ + SIMHASH64_BYTES);
	for (int i = 0; i < SIMHASH64_BYTES; i++)
		((unsigned char *) VARDATA(res))[i] = (unsigned char) (v >> (56 - 8 * i));
	PG_RETURN_BYTEA_P(res);
}

PG_FUNCTION_INFO_V1(simhash64_from_bytea);
Datum
simhash64_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	const unsigned char *p = (const unsigned char *) VARDATA_ANY(b);
	uint64		v = 0;

	if (VARSIZE_ANY_EXHDR(b) != SIMHASH64_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("cannot cast a bytea of length %d to simhash64",
						(int) VARSIZE_ANY_EXHDR(b)),
				 errdetail("A simhash64 value has exactly 8 bytes.")));
	for (int i = 0; i < SIMHASH64_BYTES; i++)
		v = (v << 8) | p[i];
	PG_RETURN_SIMHASH64(v);
}

/* --- comparison: unsigned order, for btree; hashing, for hash --- */

#define SIMHASH64_CMP_FUNC(name, op) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(PG_GETARG_SIMHASH64(0) op PG_GETARG_SIMHASH64(1)); \
}

SIMHASH64_CMP_FUNC(simhash64_eq, ==)
SIMHASH64_CMP_FUNC(simhash64_ne, !=)
SIMHASH64_CMP_FUNC(simhash64_lt, <)
SIMHASH64_CMP_FUNC(simhash64_le, <=)
SIMHASH64_CMP_FUNC(simhash64_gt, >)
SIMHASH64_CMP_FUNC(simhash64_ge, >=)

PG_FUNCTION_INFO_V1(simhash64_cmp);
Datum
simhash64_cmp(PG_FUNCTION_ARGS)
{
	uint64		a = PG_GETARG_SIMHASH64(0);
	uint64		b = PG_GETARG_SIMHASH64(1);

	PG_RETURN_INT32(a < b ? -1 : (a > b ? 1 : 0));
}

PG_FUNCTION_INFO_V1(simhash64_hash);
Datum
simhash64_hash(PG_FUNCTION_ARGS)
{
	return DirectFunctionCall1(hashint8, PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(simhash64_hash_extended);
Datum
simhash64_hash_extended(PG_FUNCTION_ARGS)
{
	return DirectFunctionCall2(hashint8extended, PG_GETARG_DATUM(0),
							   PG_GETARG_DATUM(1));
}

/* --- Hamming distance --- */

PG_FUNCTION_INFO_V1(simhash64_hamming);
Datum
simhash64_hamming(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(tfp_hamming64(PG_GETARG_SIMHASH64(0), PG_GETARG_SIMHASH64(1)));
}

PG_FUNCTION_INFO_V1(simhash64_near);
Datum
simhash64_near(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(tfp_hamming64(PG_GETARG_SIMHASH64(0), PG_GETARG_SIMHASH64(1))
				   <= textfp_hamming_threshold);
}

/*
 * Centre and radius of an index search: strategy and query as the index
 * operator classes receive them (simhash64 for = and %, hamming_ball for <@).
 */
int
simhash_query_radius(StrategyNumber strategy, Datum query, uint64 *center)
{
	switch (strategy)
	{
		case SIMHASH_EQ_STRATEGY:
			*center = DatumGetSimhash64(query);
			return 0;
		case SIMHASH_NEAR_STRATEGY:
			*center = DatumGetSimhash64(query);
			return textfp_hamming_threshold;
		case SIMHASH_WITHIN_STRATEGY:
			{
				HammingBall *b = (HammingBall *) DatumGetPointer(query);

				*center = b->center;
				return b->radius;
			}
	}
	elog(ERROR, "unrecognized strategy number: %d", strategy);
	return 0;
}
