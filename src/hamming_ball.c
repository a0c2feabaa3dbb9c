/*
 * hamming_ball.c: the hamming_ball type, a simhash64 centre with a radius,
 * written "centre/radius", and the <@ / @> containment operators.
 */
#include "postgres.h"

#include "libpq/pqformat.h"

#include "textfp.h"

static HammingBall *
make_ball(uint64 center, int32 radius)
{
	HammingBall *b = (HammingBall *) palloc0(sizeof(HammingBall));

	b->center = center;
	b->radius = radius;
	return b;
}

static void
check_radius(int64 radius)
{
	if (radius < 0 || radius > HAMMING_BALL_MAX_RADIUS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hamming_ball radius must be between 0 and %d, got %lld",
						HAMMING_BALL_MAX_RADIUS, (long long) radius)));
}

PG_FUNCTION_INFO_V1(hamming_ball_in);
Datum
hamming_ball_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	uint64		center;
	int64		radius;

	switch (tfp_hamming_ball_parse(str, strlen(str), &center, &radius))
	{
		case TFP_FORM_OK:
			PG_RETURN_POINTER(make_ball(center, (int32) radius));
		case TFP_FORM_RADIUS:
			TFP_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							 errmsg("hamming_ball radius must be between 0 and %d: \"%s\"",
									HAMMING_BALL_MAX_RADIUS, textfp_input_excerpt(str))));
			break;
		default:
			TFP_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("invalid input syntax for type %s: \"%s\"",
									"hamming_ball", textfp_input_excerpt(str)),
							 errdetail("A hamming_ball is 16 hexadecimal digits, \"/\" and a radius from 0 to %d.",
									   HAMMING_BALL_MAX_RADIUS)));
	}
	PG_RETURN_NULL();			/* soft error (PostgreSQL 16 and later) */
}

PG_FUNCTION_INFO_V1(hamming_ball_out);
Datum
hamming_ball_out(PG_FUNCTION_ARGS)
{
	HammingBall *b = PG_GETARG_HAMMING_BALL_P(0);
	char		hex[17];

	tfp_hex64_format(b->center, hex);
	PG_RETURN_CSTRING(psprintf("%s/%d", hex, b->radius));
}

PG_FUNCTION_INFO_V1(hamming_ball_recv);
Datum
hamming_ball_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	uint64		center = (uint64) pq_getmsgint64(buf);
	int32		radius = pq_getmsgint(buf, 4);

	if (radius < 0 || radius > HAMMING_BALL_MAX_RADIUS)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("hamming_ball radius must be between 0 and %d, got %d in binary input",
						HAMMING_BALL_MAX_RADIUS, radius)));
	PG_RETURN_POINTER(make_ball(center, radius));
}

PG_FUNCTION_INFO_V1(hamming_ball_send);
Datum
hamming_ball_send(PG_FUNCTION_ARGS)
{
	HammingBall *b = PG_GETARG_HAMMING_BALL_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) b->center);
	pq_sendint32(&buf, b->radius);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(hamming_ball_make);
Datum
hamming_ball_make(PG_FUNCTION_ARGS)
{
	int32		radius = PG_GETARG_INT32(1);

	check_radius(radius);
	PG_RETURN_POINTER(make_ball(PG_GETARG_SIMHASH64(0), radius));
}

PG_FUNCTION_INFO_V1(hamming_ball_center);
Datum
hamming_ball_center(PG_FUNCTION_ARGS)
{
	PG_RETURN_SIMHASH64(PG_GETARG_HAMMING_BALL_P(0)->center);
}

PG_FUNCTION_INFO_V1(hamming_ball_radius);
Datum
hamming_ball_radius(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(PG_GETARG_HAMMING_BALL_P(0)->radius);
}

PG_FUNCTION_INFO_V1(simhash64_within);
Datum
simhash64_within(PG_FUNCTION_ARGS)
{
	uint64		fp = PG_GETARG_SIMHASH64(0);
	HammingBall *b = PG_GETARG_HAMMING_BALL_P(1);

	PG_RETURN_BOOL(tfp_hamming64(fp, b->center) <= b->radius);
}

PG_FUNCTION_INFO_V1(hamming_ball_contains);
Datum
hamming_ball_contains(PG_FUNCTION_ARGS)
{
	HammingBall *b = PG_GETARG_HAMMING_BALL_P(0);
	uint64		fp = PG_GETARG_SIMHASH64(1);

	PG_RETURN_BOOL(tfp_hamming64(fp, b->center) <= b->radius);
}

/* Balls overlap when some fingerprint lies in both: centres <= r1 + r2 apart. */
PG_FUNCTION_INFO_V1(hamming_ball_overlaps);
Datum
hamming_ball_overlaps(PG_FUNCTION_ARGS)
{
	HammingBall *a = PG_GETARG_HAMMING_BALL_P(0);
	HammingBall *b = PG_GETARG_HAMMING_BALL_P(1);

	PG_RETURN_BOOL(tfp_hamming64(a->center, b->center) <= a->radius + b->radius);
}
