/*
 * excerpt_query.c: the excerpt_query type, a set of winnowed fingerprints
 * with a direction and a least containment, and its <@ / @> operators with
 * bigint[] (a row's fingerprints).
 *
 *   quoted_in(q, c, m)  matches a row r when at least a share c of r's
 *                       fingerprints, and at least m, are in q: q quotes r
 *                       (r is the source of an excerpt in q);
 *   quoting(q, c, m)    matches a row r that holds at least a share c of
 *                       q's fingerprints, and at least m: r quotes q.
 *
 * Fingerprints given as `ignore` (a site's header and footer, or those
 * common in the table) count on neither side: they are left out of q and
 * of the row's size, so boilerplate never makes an excerpt.
 *
 * Every parameter is in the value, so the operators are IMMUTABLE and an
 * index (winnow_gin.c) answers exactly what they answer.  The text form is
 * "quoted_in:0.25:3:{h,...}" (direction, least containment, least shared
 * fingerprints, the fingerprints as a bigint array), then ":{h,...}", the
 * ignored fingerprints, when there are any.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "libpq/pqformat.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/float.h"
#include "utils/fmgroids.h"

#include "textfp.h"

static const char *const kind_names[] = {NULL, "quoted_in", "quoting"};

static void
check_params(double c, int64 m)
{
	if (isnan(c) || c < 0.0 || c > 1.0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_containment must be between 0 and 1, got %s", float8out_internal(c))));
	if (m < 1 || m > EXCERPT_MAX_SHARED)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_shared must be between 1 and %d, got " INT64_FORMAT,
						EXCERPT_MAX_SHARED, m)));
}

/*
 * The query of fingerprints v (n) without those of ignore (ni), both signed
 * sets.
 */
static ExcerptQuery *
make_query(int kind, const uint64 *v, size_t n, const uint64 *ignore, size_t ni,
		   double c, int64 m)
{
	Size		size;
	ExcerptQuery *q;
	size_t		kept = 0;
	size_t		j = 0;

	check_params(c, m);
	if (n + ni > MaxArraySize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many fingerprints: %zu", n + ni)));
	size = offsetof(ExcerptQuery, hashes) + (n + ni) * sizeof(int64);
	q = palloc0(size);
	SET_VARSIZE(q, size);
	q->kind = kind;
	q->min_containment = c;
	q->min_shared = (int32) m;
	for (size_t i = 0; i < n; i++)
	{
		while (j < ni && (int64) ignore[j] < (int64) v[i])
			j++;
		if (j < ni && ignore[j] == v[i])
			continue;
		q->hashes[kept++] = (int64) v[i];
	}
	q->n = (int32) kept;
	q->nignore = (int32) ni;
	if (ni > 0)
		memcpy(q->hashes + kept, ignore, ni * sizeof(int64));
	/* the room of dropped fingerprints stays zero at the end: trim it */
	SET_VARSIZE(q, offsetof(ExcerptQuery, hashes) + (kept + ni) * sizeof(int64));
	return q;
}

static Datum
make_from_array(FunctionCallInfo fcinfo, int kind)
{
	size_t		n;
	size_t		ni;
	const uint64 *v = textfp_int8_set(PG_GETARG_ARRAYTYPE_P(0), "fingerprints", &n);
	const uint64 *ig = textfp_int8_set(PG_GETARG_ARRAYTYPE_P(3), "ignore", &ni);

	PG_RETURN_POINTER(make_query(kind, v, n, ig, ni, PG_GETARG_FLOAT8(1), PG_GETARG_INT32(2)));
}

PG_FUNCTION_INFO_V1(excerpt_query_quoted_in);
Datum
excerpt_query_quoted_in(PG_FUNCTION_ARGS)
{
	return make_from_array(fcinfo, EXCERPT_QUOTED_IN);
}

PG_FUNCTION_INFO_V1(excerpt_query_quoting);
Datum
excerpt_query_quoting(PG_FUNCTION_ARGS)
{
	return make_from_array(fcinfo, EXCERPT_QUOTING);
}

static int
parse_kind(const char *s, size_t len)
{
	for (int k = EXCERPT_QUOTED_IN; k <= EXCERPT_QUOTING; k++)
		if (strlen(kind_names[k]) == len && memcmp(s, kind_names[k], len) == 0)
			return k;
	return 0;
}

PG_FUNCTION_INFO_V1(excerpt_query_in);
Datum
excerpt_query_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	char	   *p1 = strchr(str, ':');
	char	   *p2 = p1 ? strchr(p1 + 1, ':') : NULL;
	char	   *p3 = p2 ? strchr(p2 + 1, ':') : NULL;
	int			kind = p1 ? parse_kind(str, p1 - str) : 0;
	double		c = 0;
	int64		m = 0;
	char	   *p4 = p3 ? strchr(p3 + 1, ':') : NULL;
	char	   *end;
	ArrayType  *arr;
	size_t		n;
	size_t		ni = 0;
	const uint64 *v;
	const uint64 *ig = NULL;

	if (kind != 0 && p3 != NULL)
	{
		char	   *cs = pnstrdup(p1 + 1, p2 - p1 - 1);
		char	   *ms = pnstrdup(p2 + 1, p3 - p2 - 1);

		errno = 0;
		c = strtod(cs, &end);
		if (*cs == '\0' || *end != '\0' || errno != 0)
			kind = 0;
		errno = 0;
		m = strtoll(ms, &end, 10);
		if (*ms == '\0' || *end != '\0' || errno != 0)
			kind = 0;
	}
	if (kind == 0 || p3 == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s: \"%s\"", "excerpt_query", str),
				 errdetail("An excerpt_query is written quoted_in:C:M:{...} or quoting:C:M:{...}, "
						   "C the least containment, M the least shared fingerprints, then a bigint array "
						   "and, optionally, :{...} the fingerprints to ignore.")));
	/* array_in caches in flinfo: call it through fmgr, not directly */
	arr = DatumGetArrayTypeP(OidInputFunctionCall(F_ARRAY_IN, p4 ? pnstrdup(p3 + 1, p4 - p3 - 1) : p3 + 1,
												  INT8OID, -1));
	v = textfp_int8_set(arr, "fingerprints", &n);
	if (p4)
	{
		arr = DatumGetArrayTypeP(OidInputFunctionCall(F_ARRAY_IN, p4 + 1, INT8OID, -1));
		ig = textfp_int8_set(arr, "ignore", &ni);
	}
	PG_RETURN_POINTER(make_query(kind, v, n, ig, ni, c, m));
}

PG_FUNCTION_INFO_V1(excerpt_query_out);
Datum
excerpt_query_out(PG_FUNCTION_ARGS)
{
	ExcerptQuery *q = PG_GETARG_EXCERPT_QUERY_P(0);
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "%s:%s:%d:{", kind_names[q->kind],
					 float8out_internal(q->min_containment), q->min_shared);
	for (int i = 0; i < q->n; i++)
		appendStringInfo(&buf, i ? "," INT64_FORMAT : INT64_FORMAT, q->hashes[i]);
	appendStringInfoChar(&buf, '}');
	if (q->nignore > 0)
	{
		appendStringInfoString(&buf, ":{");
		for (int i = 0; i < q->nignore; i++)
			appendStringInfo(&buf, i ? "," INT64_FORMAT : INT64_FORMAT, q->hashes[q->n + i]);
		appendStringInfoChar(&buf, '}');
	}
	PG_RETURN_CSTRING(buf.data);
}

/* n values from the message as a signed set */
static uint64 *
recv_set(StringInfo buf, size_t *out_n)
{
	int32		n = pq_getmsgint(buf, 4);
	uint64	   *v;
	tfp_env		env;
	tfp_status	rc;

	if (n < 0 || (Size) n > (Size) (buf->len - buf->cursor) / sizeof(int64))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid excerpt_query length %d in binary input", n)));
	v = palloc(((Size) n + 1) * sizeof(uint64));
	for (int32 i = 0; i < n; i++)
		v[i] = (uint64) pq_getmsgint64(buf);
	textfp_env_init(&env, CurrentMemoryContext);
	if ((rc = tfp_sort_u64(&env, v, (size_t) n, true)) != TFP_OK)
		textfp_report(rc, &env);
	*out_n = tfp_unique_u64(v, (size_t) n);
	return v;
}

/*
 * Binary form: direction (1 byte), least containment, least shared, then
 * the count and values of the fingerprints and of the ignored ones.
 */
PG_FUNCTION_INFO_V1(excerpt_query_recv);
Datum
excerpt_query_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			kind = pq_getmsgbyte(buf);
	double		c = pq_getmsgfloat8(buf);
	int32		m = pq_getmsgint(buf, 4);
	size_t		n;
	size_t		ni;
	uint64	   *v;
	uint64	   *ig;

	if (kind != EXCERPT_QUOTED_IN && kind != EXCERPT_QUOTING)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid excerpt_query direction %d in binary input", kind)));
	v = recv_set(buf, &n);
	ig = recv_set(buf, &ni);
	PG_RETURN_POINTER(make_query(kind, v, n, ig, ni, c, m));
}

PG_FUNCTION_INFO_V1(excerpt_query_send);
Datum
excerpt_query_send(PG_FUNCTION_ARGS)
{
	ExcerptQuery *q = PG_GETARG_EXCERPT_QUERY_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, q->kind);
	pq_sendfloat8(&buf, q->min_containment);
	pq_sendint32(&buf, q->min_shared);
	pq_sendint32(&buf, q->n);
	for (int i = 0; i < q->n; i++)
		pq_sendint64(&buf, q->hashes[i]);
	pq_sendint32(&buf, q->nignore);
	for (int i = 0; i < q->nignore; i++)
		pq_sendint64(&buf, q->hashes[q->n + i]);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(excerpt_query_fingerprints);
Datum
excerpt_query_fingerprints(PG_FUNCTION_ARGS)
{
	ExcerptQuery *q = PG_GETARG_EXCERPT_QUERY_P(0);

	PG_RETURN_ARRAYTYPE_P(textfp_int8_array((const uint64 *) q->hashes, q->n));
}

PG_FUNCTION_INFO_V1(excerpt_query_ignored);
Datum
excerpt_query_ignored(PG_FUNCTION_ARGS)
{
	ExcerptQuery *q = PG_GETARG_EXCERPT_QUERY_P(0);

	PG_RETURN_ARRAYTYPE_P(textfp_int8_array(ExcerptQueryIgnored(q), q->nignore));
}

PG_FUNCTION_INFO_V1(excerpt_query_direction);
Datum
excerpt_query_direction(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(kind_names[PG_GETARG_EXCERPT_QUERY_P(0)->kind]));
}

PG_FUNCTION_INFO_V1(excerpt_query_min_containment);
Datum
excerpt_query_min_containment(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(PG_GETARG_EXCERPT_QUERY_P(0)->min_containment);
}

PG_FUNCTION_INFO_V1(excerpt_query_min_shared);
Datum
excerpt_query_min_shared(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(PG_GETARG_EXCERPT_QUERY_P(0)->min_shared);
}

/* Shared fingerprints that a row of nrow needs to match q. */
size_t
excerpt_query_needed(const ExcerptQuery *q, size_t nrow)
{
	return tfp_containment_needed(q->min_containment,
								  q->kind == EXCERPT_QUOTED_IN ? nrow : (size_t) q->n,
								  (size_t) q->min_shared);
}

static bool
excerpt_match(ArrayType *row, const ExcerptQuery *q)
{
	size_t		len;
	const uint64 *v = textfp_int8_set(row, "fingerprints", &len);
	size_t		size = len;
	size_t		needed;

	/* the row's size without the fingerprints the query ignores */
	if (q->nignore > 0 && q->kind == EXCERPT_QUOTED_IN)
		size -= tfp_signed_set_shared(v, len, ExcerptQueryIgnored(q), q->nignore);
	needed = excerpt_query_needed(q, size);
	if (needed > size || needed > (size_t) q->n)
		return false;
	return tfp_signed_set_shared(v, len, (const uint64 *) q->hashes, q->n) >= needed;
}

PG_FUNCTION_INFO_V1(excerpt_query_row_match);
Datum
excerpt_query_row_match(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(excerpt_match(PG_GETARG_ARRAYTYPE_P(0), PG_GETARG_EXCERPT_QUERY_P(1)));
}

PG_FUNCTION_INFO_V1(excerpt_query_match_row);
Datum
excerpt_query_match_row(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(excerpt_match(PG_GETARG_ARRAYTYPE_P(1), PG_GETARG_EXCERPT_QUERY_P(0)));
}
