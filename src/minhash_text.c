/*
 * minhash_text.c: SQL constructors of minhash signatures and the exact set
 * functions beside them: minhash(text, ...), minhash(bigint[], ...),
 * shingles(text, ...) and jaccard(bigint[], bigint[]).
 *
 * minhash(shingles(t, opts), k, seed) has the same values as
 * minhash(t, k, opts) (the pipeline identity in the header differs): the
 * text form hashes the same shingle hashes the array form is given.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "presets.h"
#include "textfp.h"

static tfp_minhash_method
parse_method(text *t)
{
	if (textfp_text_is(t, "oph"))
		return TFP_MINHASH_OPH;
	if (textfp_text_is(t, "kperm"))
		return TFP_MINHASH_KPERM;
	textfp_bad_choice("method", t, "\"oph\" and \"kperm\"");
}

static void
check_k(int32 k)
{
	textfp_check_range("k", k, 1, TFP_MINHASH_K_MAX);
}

/*
 * The signature of doc under opts (whose pipeline id is pipeline_id), header
 * included; *nfeatures is the number of shingles seen, 0 for a featureless
 * text.  minhash(text) and minhash_lsh(text) both sign through here.
 */
MinhashSig *
textfp_minhash_doc(text *doc, const tfp_options *opts, uint32 pipeline_id, int k,
				   tfp_minhash_method method, size_t *nfeatures)
{
	MinhashSig *sig = minhash_sig_make(k, method, pipeline_id, (int64) opts->seed);
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	tfp_env		env;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_minhash_text(&env, opts, u8, len, k, method, sig->values, nfeatures);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	return sig;
}

/*
 * minhash(doc, k, method, <pipeline options>) and, from 1.1, minhash(doc,
 * featureless, k, method, <options>, chinese): with featureless => 'null' a
 * text without shingles gives NULL instead of the empty set's signature
 * (every value ffffffff), which 1.0's function gives for all of them.  k is
 * at argument k_arg, the options follow method; chinese_arg is -1 in 1.0's
 * form.
 */
static Datum
minhash_text(FunctionCallInfo fcinfo, int k_arg, int chinese_arg, bool null_if_featureless)
{
	int32		k = PG_GETARG_INT32(k_arg);
	tfp_minhash_method method = parse_method(PG_GETARG_TEXT_PP(k_arg + 1));
	const TextfpOptions *o = textfp_get_options(fcinfo, k_arg + 2, false, chinese_arg);
	MinhashSig *sig;
	size_t		nfeatures;

	check_k(k);
	sig = textfp_minhash_doc(PG_GETARG_TEXT_PP(0), &o->opts, o->pipeline_id, k, method, &nfeatures);
	if (nfeatures == 0 && null_if_featureless)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(sig);
}

PG_FUNCTION_INFO_V1(textfp_minhash_text);
Datum
textfp_minhash_text(PG_FUNCTION_ARGS)
{
	return minhash_text(fcinfo, 1, -1, false);
}

PG_FUNCTION_INFO_V1(textfp_minhash_text_featureless);
Datum
textfp_minhash_text_featureless(PG_FUNCTION_ARGS)
{
	/* doc, featureless, k, method, 7 options, chinese */
	return minhash_text(fcinfo, 2, 11, textfp_null_if_featureless(PG_GETARG_TEXT_PP(1)));
}

/* The elements of a one-dimensional bigint[] without nulls, as uint64. */
static uint64 *
array_items(ArrayType *arr, const char *what, int *n)
{
	uint64	   *items;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("%s must be a one-dimensional array", what)));
	if (array_contains_nulls(arr))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not contain nulls", what)));
	*n = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	items = palloc((*n > 0 ? *n : 1) * sizeof(uint64));
	memcpy(items, ARR_DATA_PTR(arr), (size_t) *n * sizeof(uint64));
	return items;
}

/*
 * minhash(shingles bigint[], k, seed, method) and, from 1.1, minhash(shingles,
 * featureless, k, seed, method), where featureless => 'null' makes an empty
 * array NULL.  k is at argument k_arg.
 */
static Datum
minhash_array(FunctionCallInfo fcinfo, int k_arg, bool null_if_featureless)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	int32		k = PG_GETARG_INT32(k_arg);
	int64		seed = PG_GETARG_INT64(k_arg + 1);
	tfp_minhash_method method = parse_method(PG_GETARG_TEXT_PP(k_arg + 2));
	MinhashSig *sig;
	uint64	   *items;
	int			n;

	check_k(k);
	items = array_items(arr, "shingles", &n);
	if (n == 0 && null_if_featureless)
		PG_RETURN_NULL();
	sig = minhash_sig_make(k, method, 0, seed);
	if (method == TFP_MINHASH_KPERM)
	{
		tfp_env		env;

		textfp_env_init(&env, CurrentMemoryContext);
		tfp_minhash_kperm(items, n, k, (uint64) seed, sig->values, &env);
	}
	else
	{
		tfp_minhash_acc *acc = palloc(sizeof(tfp_minhash_acc));

		tfp_minhash_init(acc, k, (uint64) seed);
		for (int i = 0; i < n; i++)
		{
			if ((i & 0xfff) == 0)
				CHECK_FOR_INTERRUPTS();
			tfp_minhash_add(acc, items[i]);
		}
		tfp_minhash_final(acc, sig->values);
	}
	PG_RETURN_POINTER(sig);
}

PG_FUNCTION_INFO_V1(textfp_minhash_array);
Datum
textfp_minhash_array(PG_FUNCTION_ARGS)
{
	return minhash_array(fcinfo, 1, false);
}

PG_FUNCTION_INFO_V1(textfp_minhash_array_featureless);
Datum
textfp_minhash_array_featureless(PG_FUNCTION_ARGS)
{
	return minhash_array(fcinfo, 2, textfp_null_if_featureless(PG_GETARG_TEXT_PP(1)));
}

static ArrayType *
int8_array(const uint64 *v, size_t n)
{
	Datum	   *d = palloc((n ? n : 1) * sizeof(Datum));

	for (size_t i = 0; i < n; i++)
		d[i] = Int64GetDatum((int64) v[i]);
	return construct_array(d, (int) n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
}

/* The shingle hashes of doc under opts: sorted as bigint, distinct. */
ArrayType *
textfp_shingle_array(text *doc, const tfp_options *opts)
{
	tfp_featureset fs;
	uint64	   *h;
	size_t		n;
	size_t		len;
	char	   *u8;
	tfp_env		env;
	tfp_status	rc;

	u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_extract(&env, opts, u8, len, true, false, &fs);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	n = fs.n;
	if (n > MaxArraySize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many shingles: %zu", n)));
	/* distinct hashes (the table dedupes by hash), in bigint order */
	h = palloc((n ? n : 1) * sizeof(uint64));
	for (size_t i = 0; i < n; i++)
		h[i] = fs.items[i].hash;
	tfp_featureset_free(&env, &fs);
	if ((rc = tfp_sort_u64(&env, h, n, true)) != TFP_OK)
		textfp_report(rc, &env);
	return int8_array(h, n);
}

/*
 * shingles(doc, <pipeline options>) and, from 1.1, shingles(doc, chinese,
 * <options>)
 */
static Datum
shingles_text(FunctionCallInfo fcinfo, int first_option, int chinese_arg)
{
	const TextfpOptions *o = textfp_get_options(fcinfo, first_option, false, chinese_arg);

	PG_RETURN_ARRAYTYPE_P(textfp_shingle_array(PG_GETARG_TEXT_PP(0), &o->opts));
}

PG_FUNCTION_INFO_V1(textfp_shingles);
Datum
textfp_shingles(PG_FUNCTION_ARGS)
{
	return shingles_text(fcinfo, 1, -1);
}

PG_FUNCTION_INFO_V1(textfp_shingles_chinese);
Datum
textfp_shingles_chinese(PG_FUNCTION_ARGS)
{
	return shingles_text(fcinfo, 2, 1);
}

/* jaccard(bigint[], bigint[]): exact, the arguments taken as sets */
PG_FUNCTION_INFO_V1(textfp_set_jaccard);
Datum
textfp_set_jaccard(PG_FUNCTION_ARGS)
{
	int			na;
	int			nb;
	uint64	   *a = array_items(PG_GETARG_ARRAYTYPE_P(0), "jaccard arguments", &na);
	uint64	   *b = array_items(PG_GETARG_ARRAYTYPE_P(1), "jaccard arguments", &nb);
	size_t		ua;
	size_t		ub;
	tfp_env		env;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	if ((rc = tfp_sort_unique_u64(&env, a, na, &ua)) != TFP_OK ||
		(rc = tfp_sort_unique_u64(&env, b, nb, &ub)) != TFP_OK)
		textfp_report(rc, &env);
	PG_RETURN_FLOAT8(tfp_set_jaccard(a, ua, b, ub));
}
