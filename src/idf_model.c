/*
 * idf_model.c: the idf_model type (document frequencies for TF-IDF-weighted
 * SimHash) and the parallel-safe aggregate idf_model(bigint[]) that builds
 * it from each row's features.
 *
 * A model is a count-min sketch (src/core/idf.c): a fixed number of
 * counters, whatever the corpus, and the number of documents.  It is a
 * value, passed to simhash() as an argument, so fingerprints stay
 * IMMUTABLE: an index expression or a trigger holds the model as a literal
 * or reads it from a configuration row.  idf_model_digest() names a model,
 * to be stored beside the fingerprints made with it.
 */
#include "postgres.h"

#include "common/base64.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "textfp.h"

/* The stored form; counters are in native byte order (send/recv convert). */
typedef struct IdfModel
{
	int32		vl_len_;
	uint8		version;		/* TFP_IDF_VERSION */
	uint8		depth;			/* TFP_IDF_DEPTH */
	uint16		reserved;
	uint64		docs;			/* 0: the empty model 'none' */
	uint32		width;			/* 0 for the empty model */
	uint32		counts[FLEXIBLE_ARRAY_MEMBER];
} IdfModel;

#define IDF_HEADER offsetof(IdfModel, counts)
#define IDF_COUNTERS(w) ((Size) TFP_IDF_DEPTH * (w))
#define PG_GETARG_IDF_MODEL_P(n) ((IdfModel *) PG_DETOAST_DATUM(PG_GETARG_DATUM(n)))

static IdfModel *
idf_make(uint64 docs, uint32 width)
{
	Size		size = IDF_HEADER + (docs ? IDF_COUNTERS(width) * sizeof(uint32) : 0);
	IdfModel   *m = palloc0(size);

	SET_VARSIZE(m, size);
	m->version = TFP_IDF_VERSION;
	m->depth = TFP_IDF_DEPTH;
	m->docs = docs;
	m->width = docs ? width : 0;
	return m;
}

/* The core's view of a stored model, checked. */
static bool
idf_view(const IdfModel *m, tfp_idf *view)
{
	view->docs = m->docs;
	view->width = m->width;
	view->counts = m->counts;
	view->total = 0;
	if (m->version != TFP_IDF_VERSION || m->depth != TFP_IDF_DEPTH ||
		VARSIZE(m) != IDF_HEADER + (m->docs ? IDF_COUNTERS(m->width) * sizeof(uint32) : 0))
		return false;
	return tfp_idf_check(view);
}

/*
 * The last model simhash() was given, checked and detoasted, kept for the
 * backend's life: a model is the same in every row of a query (a literal,
 * or a parameter), and detoasting and checking up to a megabyte per row
 * would cost more than the fingerprint.  The key is the argument's bytes as
 * passed (compressed, or a TOAST pointer, which names its value).
 */
typedef struct IdfCache
{
	struct varlena *raw;		/* the argument as passed */
	IdfModel   *model;			/* detoasted */
	tfp_idf		view;
} IdfCache;

static IdfCache idf_cache;

/* The model an argument holds, for the pipeline; NULL for 'none'. */
const tfp_idf *
textfp_idf_arg(FunctionCallInfo fcinfo, int argno, tfp_idf *view)
{
	struct varlena *raw = (struct varlena *) PG_GETARG_POINTER(argno);
	Size		rawlen = VARSIZE_ANY(raw);
	IdfModel   *m;
	MemoryContext old;

	if (idf_cache.raw == NULL || VARSIZE_ANY(idf_cache.raw) != rawlen ||
		memcmp(idf_cache.raw, raw, rawlen) != 0)
	{
		m = PG_GETARG_IDF_MODEL_P(argno);
		if (!idf_view(m, view))
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("idf_model is damaged")));
		if (idf_cache.raw)
		{
			pfree(idf_cache.raw);
			pfree(idf_cache.model);
			idf_cache.raw = NULL;
		}
		old = MemoryContextSwitchTo(TopMemoryContext);
		idf_cache.model = palloc(VARSIZE(m));
		memcpy(idf_cache.model, m, VARSIZE(m));
		idf_cache.raw = palloc(rawlen);
		memcpy(idf_cache.raw, raw, rawlen);
		MemoryContextSwitchTo(old);
		idf_cache.view = *view;
		idf_cache.view.counts = idf_cache.model->counts;
	}
	*view = idf_cache.view;
	return view->docs ? view : NULL;
}

static void
bad_model(const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type idf_model"),
			 errdetail("%s", detail),
			 errhint("An idf_model is \"none\" or \"idf%d:docs=N:width=W:\" followed by its counters in base64, as idf_model(features) makes it.",
					 TFP_IDF_VERSION)));
}

static void
check_model(IdfModel *m)
{
	tfp_idf		view;

	if (!idf_view(m, &view))
		bad_model("The counters do not form a document frequency sketch: every row must have the same sum.");
}

/* Big-endian counters, the form text and binary I/O and the digest share. */
static void
counts_to_be(const IdfModel *m, uint8 *out)
{
	Size		n = IDF_COUNTERS(m->width);

	for (Size i = 0; i < n; i++)
	{
		uint32		c = m->counts[i];

		out[4 * i] = (uint8) (c >> 24);
		out[4 * i + 1] = (uint8) (c >> 16);
		out[4 * i + 2] = (uint8) (c >> 8);
		out[4 * i + 3] = (uint8) c;
	}
}

static void
counts_from_be(IdfModel *m, const uint8 *in)
{
	Size		n = IDF_COUNTERS(m->width);

	for (Size i = 0; i < n; i++)
		m->counts[i] = ((uint32) in[4 * i] << 24) | ((uint32) in[4 * i + 1] << 16) |
			((uint32) in[4 * i + 2] << 8) | (uint32) in[4 * i + 3];
}

PG_FUNCTION_INFO_V1(idf_model_in);
Datum
idf_model_in(PG_FUNCTION_ARGS)
{
	char	   *s = PG_GETARG_CSTRING(0);
	unsigned long long docs;
	unsigned int width;
	int			version;
	int			used = 0;
	IdfModel   *m;
	Size		nbytes;
	uint8	   *raw;
	int			rawlen;
	size_t		b64len;

	if (strcmp(s, "none") == 0)
		PG_RETURN_POINTER(idf_make(0, 0));
	if (sscanf(s, "idf%d:docs=%llu:width=%u:%n", &version, &docs, &width, &used) != 3 || used == 0)
		bad_model("It does not start with \"idf1:docs=N:width=W:\".");
	if (version != TFP_IDF_VERSION)
		bad_model("Only version 1 is known.");
	if (docs == 0 || docs > UINT32_MAX)
		bad_model("docs must be between 1 and 4294967295.");
	if (width < TFP_IDF_WIDTH_MIN || width > TFP_IDF_WIDTH_MAX || (width & (width - 1)) != 0)
		bad_model("width must be a power of two from 64 to 65536.");
	nbytes = IDF_COUNTERS(width) * sizeof(uint32);
	b64len = strlen(s + used);
	if (b64len != (size_t) pg_b64_enc_len((int) nbytes))
		bad_model("The counters do not have the length width gives.");
	raw = palloc(pg_b64_dec_len((int) b64len));
	rawlen = pg_b64_decode(s + used, (int) b64len, (char *) raw, pg_b64_dec_len((int) b64len));
	if (rawlen != (int) nbytes)
		bad_model("The counters are not valid base64.");
	m = idf_make(docs, width);
	counts_from_be(m, raw);
	check_model(m);
	PG_RETURN_POINTER(m);
}

PG_FUNCTION_INFO_V1(idf_model_out);
Datum
idf_model_out(PG_FUNCTION_ARGS)
{
	IdfModel   *m = PG_GETARG_IDF_MODEL_P(0);
	StringInfoData buf;
	Size		nbytes;
	uint8	   *raw;
	int			enclen;

	if (m->docs == 0)
		PG_RETURN_CSTRING(pstrdup("none"));
	nbytes = IDF_COUNTERS(m->width) * sizeof(uint32);
	raw = palloc(nbytes);
	counts_to_be(m, raw);
	initStringInfo(&buf);
	appendStringInfo(&buf, "idf%d:docs=" UINT64_FORMAT ":width=%u:", TFP_IDF_VERSION,
					 m->docs, m->width);
	enlargeStringInfo(&buf, pg_b64_enc_len((int) nbytes) + 1);
	enclen = pg_b64_encode((const char *) raw, (int) nbytes, buf.data + buf.len,
						   pg_b64_enc_len((int) nbytes));
	if (enclen < 0)
		elog(ERROR, "could not encode idf_model counters");
	buf.len += enclen;
	buf.data[buf.len] = '\0';
	PG_RETURN_CSTRING(buf.data);
}

/* Binary form: version (1 byte), docs (8), width (4), counters (4 each), big-endian. */
PG_FUNCTION_INFO_V1(idf_model_send);
Datum
idf_model_send(PG_FUNCTION_ARGS)
{
	IdfModel   *m = PG_GETARG_IDF_MODEL_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, m->version);
	pq_sendint64(&buf, (int64) m->docs);
	pq_sendint32(&buf, m->width);
	for (Size i = 0; i < IDF_COUNTERS(m->width) && m->docs; i++)
		pq_sendint32(&buf, m->counts[i]);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(idf_model_recv);
Datum
idf_model_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			version;
	uint64		docs;
	uint32		width;
	IdfModel   *m;

	if (buf->len - buf->cursor < 13)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary idf_model: too short")));
	version = pq_getmsgbyte(buf);
	docs = (uint64) pq_getmsgint64(buf);
	width = (uint32) pq_getmsgint(buf, 4);
	if (version != TFP_IDF_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary idf_model: unknown version %d", version)));
	if (docs == 0 && width == 0)
	{
		pq_getmsgend(buf);
		PG_RETURN_POINTER(idf_make(0, 0));
	}
	if (docs == 0 || docs > UINT32_MAX || width < TFP_IDF_WIDTH_MIN || width > TFP_IDF_WIDTH_MAX ||
		(width & (width - 1)) != 0 ||
		(Size) (buf->len - buf->cursor) != IDF_COUNTERS(width) * sizeof(uint32))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary idf_model: docs " UINT64_FORMAT ", width %u, %d bytes of counters",
						docs, width, buf->len - buf->cursor)));
	m = idf_make(docs, width);
	for (Size i = 0; i < IDF_COUNTERS(width); i++)
		m->counts[i] = (uint32) pq_getmsgint(buf, 4);
	pq_getmsgend(buf);
	{
		tfp_idf		view;

		if (!idf_view(m, &view))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("invalid binary idf_model: the counters do not form a document frequency sketch")));
	}
	PG_RETURN_POINTER(m);
}

/* XXH3-64 of the binary form, as 16 hex digits: the same on every platform. */
PG_FUNCTION_INFO_V1(idf_model_digest);
Datum
idf_model_digest(PG_FUNCTION_ARGS)
{
	IdfModel   *m = PG_GETARG_IDF_MODEL_P(0);
	Size		n = 13 + (m->docs ? IDF_COUNTERS(m->width) * sizeof(uint32) : 0);
	uint8	   *bytes = palloc(n);
	char		hex[17];

	bytes[0] = m->version;
	for (int i = 0; i < 8; i++)
		bytes[1 + i] = (uint8) (m->docs >> (56 - 8 * i));
	for (int i = 0; i < 4; i++)
		bytes[9 + i] = (uint8) (m->width >> (24 - 8 * i));
	if (m->docs)
		counts_to_be(m, bytes + 13);
	tfp_hex64_format(tfp_hash(bytes, n, 0), hex);
	PG_RETURN_TEXT_P(cstring_to_text(hex));
}

PG_FUNCTION_INFO_V1(idf_model_docs);
Datum
idf_model_docs(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) PG_GETARG_IDF_MODEL_P(0)->docs);
}

PG_FUNCTION_INFO_V1(idf_model_width);
Datum
idf_model_width(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) PG_GETARG_IDF_MODEL_P(0)->width);
}

/* The document frequency the model estimates for one feature hash. */
PG_FUNCTION_INFO_V1(idf_model_df);
Datum
idf_model_df(PG_FUNCTION_ARGS)
{
	tfp_idf		view;
	const tfp_idf *model = textfp_idf_arg(fcinfo, 0, &view);

	PG_RETURN_INT64(model ? (int64) tfp_idf_df(model, (uint64) PG_GETARG_INT64(1)) : 0);
}

/* ---- the aggregate ---- */

typedef struct IdfState
{
	uint64		docs;
	uint32		width;
	uint32	   *counts;			/* TFP_IDF_DEPTH * width, in the aggregate context */
	uint64	   *scratch;		/* one row's features, sorted */
	Size		scratch_cap;
} IdfState;

static void
check_width(int32 width)
{
	if (width < TFP_IDF_WIDTH_MIN || width > TFP_IDF_WIDTH_MAX || (width & (width - 1)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("width must be a power of two from %d to %d, got %d",
						TFP_IDF_WIDTH_MIN, TFP_IDF_WIDTH_MAX, width)));
}

static IdfState *
state_new(MemoryContext cxt, uint32 width)
{
	IdfState   *st = MemoryContextAllocZero(cxt, sizeof(IdfState));

	st->width = width;
	st->counts = MemoryContextAllocZero(cxt, IDF_COUNTERS(width) * sizeof(uint32));
	return st;
}

static MemoryContext
agg_context(FunctionCallInfo fcinfo, const char *fn)
{
	MemoryContext cxt;

	if (!AggCheckCallContext(fcinfo, &cxt))
		elog(ERROR, "%s called in non-aggregate context", fn);
	return cxt;
}

static void
too_many_docs(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("idf_model counts at most 4294967295 documents")));
}

static Datum
idf_trans(FunctionCallInfo fcinfo, int32 width)
{
	MemoryContext cxt = agg_context(fcinfo, "idf_model_trans");
	IdfState   *st = PG_ARGISNULL(0) ? NULL : (IdfState *) PG_GETARG_POINTER(0);
	ArrayType  *arr;
	int			n;
	size_t		distinct;
	tfp_env		env;
	tfp_status	rc;

	check_width(width);
	if (st == NULL)
		st = state_new(cxt, (uint32) width);
	else if (st->width != (uint32) width)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("width must be the same in every row, got %d after %u", width, st->width)));
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(st);	/* a NULL array is no document */
	arr = PG_GETARG_ARRAYTYPE_P(1);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("features must be a one-dimensional array")));
	if (array_contains_nulls(arr))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("features must not contain nulls")));
	if (st->docs >= UINT32_MAX)
		too_many_docs();
	n = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	if ((Size) n > st->scratch_cap)
	{
		if (st->scratch)
			pfree(st->scratch);
		st->scratch = MemoryContextAlloc(cxt, Max(n, 64) * sizeof(uint64));
		st->scratch_cap = Max(n, 64);
	}
	memcpy(st->scratch, ARR_DATA_PTR(arr), (Size) n * sizeof(uint64));
	/* a document counts each feature once */
	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_sort_unique_u64(&env, st->scratch, (size_t) n, &distinct);
	if (rc == TFP_OK)
		rc = tfp_idf_add_doc(st->counts, st->width, st->scratch, distinct);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	st->docs++;
	/* the scratch array of a long row is not kept */
	if (st->scratch_cap > 65536)
	{
		pfree(st->scratch);
		st->scratch = NULL;
		st->scratch_cap = 0;
	}
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(idf_model_trans);
Datum
idf_model_trans(PG_FUNCTION_ARGS)
{
	return idf_trans(fcinfo, TFP_IDF_WIDTH_DEFAULT);
}

PG_FUNCTION_INFO_V1(idf_model_trans_width);
Datum
idf_model_trans_width(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(2))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("width must not be null")));
	return idf_trans(fcinfo, PG_GETARG_INT32(2));
}

PG_FUNCTION_INFO_V1(idf_model_combine);
Datum
idf_model_combine(PG_FUNCTION_ARGS)
{
	MemoryContext cxt = agg_context(fcinfo, "idf_model_combine");
	IdfState   *a = PG_ARGISNULL(0) ? NULL : (IdfState *) PG_GETARG_POINTER(0);
	IdfState   *b = PG_ARGISNULL(1) ? NULL : (IdfState *) PG_GETARG_POINTER(1);

	if (b == NULL)
		PG_RETURN_POINTER(a);
	if (a == NULL)
	{
		a = state_new(cxt, b->width);
		memcpy(a->counts, b->counts, IDF_COUNTERS(b->width) * sizeof(uint32));
		a->docs = b->docs;
		PG_RETURN_POINTER(a);
	}
	if (a->width != b->width)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("width must be the same in every row, got %u and %u", a->width, b->width)));
	if (b->docs > UINT32_MAX - a->docs)
		too_many_docs();
	CHECK_FOR_INTERRUPTS();
	if (tfp_idf_merge(a->counts, b->counts, a->width) != TFP_OK)
		too_many_docs();
	a->docs += b->docs;
	PG_RETURN_POINTER(a);
}

PG_FUNCTION_INFO_V1(idf_model_serialize);
Datum
idf_model_serialize(PG_FUNCTION_ARGS)
{
	IdfState   *st = (IdfState *) PG_GETARG_POINTER(0);
	Size		nbytes = IDF_COUNTERS(st->width) * sizeof(uint32);
	bytea	   *out = palloc(VARHDRSZ + 12 + nbytes);

	SET_VARSIZE(out, VARHDRSZ + 12 + nbytes);
	memcpy(VARDATA(out), &st->docs, 8);
	memcpy(VARDATA(out) + 8, &st->width, 4);
	memcpy(VARDATA(out) + 12, st->counts, nbytes);
	PG_RETURN_BYTEA_P(out);
}

PG_FUNCTION_INFO_V1(idf_model_deserialize);
Datum
idf_model_deserialize(PG_FUNCTION_ARGS)
{
	MemoryContext cxt = agg_context(fcinfo, "idf_model_deserialize");
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	uint64		docs;
	uint32		width;
	IdfState   *st;

	if (VARSIZE_ANY_EXHDR(in) < 12)
		elog(ERROR, "idf_model_deserialize: short state");
	memcpy(&docs, VARDATA_ANY(in), 8);
	memcpy(&width, VARDATA_ANY(in) + 8, 4);
	if (VARSIZE_ANY_EXHDR(in) != 12 + IDF_COUNTERS(width) * sizeof(uint32))
		elog(ERROR, "idf_model_deserialize: state of %zu bytes for width %u",
			 (size_t) VARSIZE_ANY_EXHDR(in), width);
	st = state_new(cxt, width);
	st->docs = docs;
	memcpy(st->counts, VARDATA_ANY(in) + 12, IDF_COUNTERS(width) * sizeof(uint32));
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(idf_model_final);
Datum
idf_model_final(PG_FUNCTION_ARGS)
{
	IdfState   *st = PG_ARGISNULL(0) ? NULL : (IdfState *) PG_GETARG_POINTER(0);
	IdfModel   *m;

	/* no documents: the empty model, which weighs nothing */
	if (st == NULL || st->docs == 0)
		PG_RETURN_POINTER(idf_make(0, 0));
	m = idf_make(st->docs, st->width);
	memcpy(m->counts, st->counts, IDF_COUNTERS(st->width) * sizeof(uint32));
	PG_RETURN_POINTER(m);
}
