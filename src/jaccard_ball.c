/*
 * jaccard_ball.c: the jaccard_ball type, a minhash signature with the least
 * Jaccard estimate accepted, written "signature/threshold", and its <@ / @>
 * operators: a per-query threshold, where % reads the setting.
 */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "utils/float.h"

#include "textfp.h"

extern Datum minhash_sig_in(PG_FUNCTION_ARGS);
extern Datum minhash_sig_recv(PG_FUNCTION_ARGS);
extern Datum minhash_sig_send(PG_FUNCTION_ARGS);

static JaccardBall *
make_ball(const MinhashSig *sig, double threshold)
{
	Size		size = offsetof(JaccardBall, sig) + VARSIZE(sig);
	JaccardBall *b = palloc0(size);

	minhash_sig_check_threshold(threshold);
	SET_VARSIZE(b, size);
	b->threshold = threshold;
	memcpy(&b->sig, sig, VARSIZE(sig));
	return b;
}

PG_FUNCTION_INFO_V1(jaccard_ball_in);
Datum
jaccard_ball_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	char	   *slash = strrchr(str, '/');
	double		t = 0;
	MinhashSig *sig;

	switch (slash ? tfp_threshold_parse(slash + 1, strlen(slash + 1), &t) : TFP_FORM_SYNTAX)
	{
		case TFP_FORM_OK:
			break;
		case TFP_FORM_THRESHOLD:
			TFP_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							 errmsg("jaccard_ball threshold must be between 0 and 1, got %s", textfp_input_excerpt(slash + 1))));
			PG_RETURN_NULL();
		default:
			TFP_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("invalid input syntax for type %s: \"%s\"", "jaccard_ball", textfp_input_excerpt(str)),
							 errdetail("A jaccard_ball is written signature/threshold, the threshold a number from 0 to 1.")));
			PG_RETURN_NULL();	/* soft error (PostgreSQL 16 and later) */
	}
	sig = DatumGetMinhashSigP(DirectFunctionCall3(minhash_sig_in,
												  CStringGetDatum(pnstrdup(str, slash - str)),
												  ObjectIdGetDatum(InvalidOid),
												  Int32GetDatum(-1)));
	PG_RETURN_POINTER(make_ball(sig, t));
}

PG_FUNCTION_INFO_V1(jaccard_ball_out);
Datum
jaccard_ball_out(PG_FUNCTION_ARGS)
{
	JaccardBall *b = PG_GETARG_JACCARD_BALL_P(0);
	StringInfoData buf;

	initStringInfo(&buf);
	minhash_sig_write(&buf, &b->sig);
	appendStringInfo(&buf, "/%s", float8out_internal(b->threshold));
	PG_RETURN_CSTRING(buf.data);
}

PG_FUNCTION_INFO_V1(jaccard_ball_recv);
Datum
jaccard_ball_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	double		t = pq_getmsgfloat8(buf);
	MinhashSig *sig;

	if (tfp_threshold_check(t) != TFP_FORM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("jaccard_ball threshold must be between 0 and 1, got %s in binary input",
						float8out_internal(t))));

	/* the rest of the message is a minhash_sig in its own binary form */
	sig = DatumGetMinhashSigP(DirectFunctionCall3(minhash_sig_recv,
												  PointerGetDatum(buf),
												  ObjectIdGetDatum(InvalidOid),
												  Int32GetDatum(-1)));
	PG_RETURN_POINTER(make_ball(sig, t));
}

PG_FUNCTION_INFO_V1(jaccard_ball_send);
Datum
jaccard_ball_send(PG_FUNCTION_ARGS)
{
	JaccardBall *b = PG_GETARG_JACCARD_BALL_P(0);
	bytea	   *sig = DatumGetByteaPP(DirectFunctionCall1(minhash_sig_send,
														  PointerGetDatum(&b->sig)));
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendfloat8(&buf, b->threshold);
	pq_sendbytes(&buf, VARDATA_ANY(sig), VARSIZE_ANY_EXHDR(sig));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* Two arguments, so never read as a cast. */
PG_FUNCTION_INFO_V1(jaccard_ball_make);
Datum
jaccard_ball_make(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(make_ball(PG_GETARG_MINHASH_SIG_P(0), PG_GETARG_FLOAT8(1)));
}

PG_FUNCTION_INFO_V1(jaccard_ball_signature);
Datum
jaccard_ball_signature(PG_FUNCTION_ARGS)
{
	JaccardBall *b = PG_GETARG_JACCARD_BALL_P(0);
	MinhashSig *sig = palloc(VARSIZE(&b->sig));

	memcpy(sig, &b->sig, VARSIZE(&b->sig));
	PG_RETURN_POINTER(sig);
}

PG_FUNCTION_INFO_V1(jaccard_ball_threshold);
Datum
jaccard_ball_threshold(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(PG_GETARG_JACCARD_BALL_P(0)->threshold);
}

static bool
within(const MinhashSig *sig, const JaccardBall *b)
{
	minhash_sig_check_pair(sig, &b->sig);
	return tfp_minhash_matches(sig->values, b->sig.values, sig->k) >=
		tfp_jaccard_needed(b->threshold, sig->k);
}

PG_FUNCTION_INFO_V1(minhash_sig_within);
Datum
minhash_sig_within(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(within(PG_GETARG_MINHASH_SIG_P(0), PG_GETARG_JACCARD_BALL_P(1)));
}

PG_FUNCTION_INFO_V1(jaccard_ball_contains);
Datum
jaccard_ball_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(within(PG_GETARG_MINHASH_SIG_P(1), PG_GETARG_JACCARD_BALL_P(0)));
}
