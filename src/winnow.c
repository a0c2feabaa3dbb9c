/*
 * winnow.c: winnowed fingerprints of a text as a bigint[] (winnow(text,
 * ...)), the exact containment of two of them (containment(bigint[],
 * bigint[])), and the reading of a bigint[] as a set that excerpt_query.c
 * and winnow_gin.c share.
 *
 * winnow() returns its fingerprints sorted as bigint without repeats, so
 * reading its arrays costs one pass; any other array is sorted on the fly.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "textfp.h"

/*
 * The distinct elements of a one-dimensional bigint[] without nulls,
 * sorted as signed values: the array's own data when it is already such a
 * set, else a sorted copy.  what names the array in messages.
 */
const uint64 *
textfp_int8_set(ArrayType *arr, const char *what, size_t *n)
{
	uint64	   *items;
	size_t		len;
	tfp_env		env;
	tfp_status	rc;

	if (ARR_ELEMTYPE(arr) != INT8OID)
		elog(ERROR, "%s: expected a bigint array", what);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("%s must be a one-dimensional array", what)));
	if (array_contains_nulls(arr))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not contain nulls", what)));
	len = (size_t) ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	if (tfp_is_signed_set((const uint64 *) ARR_DATA_PTR(arr), len))
	{
		*n = len;
		return (const uint64 *) ARR_DATA_PTR(arr);
	}
	items = palloc(len * sizeof(uint64));
	memcpy(items, ARR_DATA_PTR(arr), len * sizeof(uint64));
	textfp_env_init(&env, CurrentMemoryContext);
	if ((rc = tfp_sort_u64(&env, items, len, true)) != TFP_OK)
		textfp_report(rc, &env);
	*n = tfp_unique_u64(items, len);
	return items;
}

ArrayType *
textfp_int8_array(const uint64 *v, size_t n)
{
	ArrayType  *arr;
	Size		nbytes;
	int			dims;
	int			lbs = 1;

	if (n == 0)
		return construct_empty_array(INT8OID);
	if (n > MaxArraySize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many fingerprints: %zu", n)));
	/* the values are int8 already: copy them in, no Datum per element */
	dims = (int) n;
	nbytes = ARR_OVERHEAD_NONULLS(1) + n * sizeof(int64);
	arr = palloc0(nbytes);
	SET_VARSIZE(arr, nbytes);
	arr->ndim = 1;
	arr->dataoffset = 0;
	arr->elemtype = INT8OID;
	memcpy(ARR_DIMS(arr), &dims, sizeof(int));
	memcpy(ARR_LBOUND(arr), &lbs, sizeof(int));
	memcpy(ARR_DATA_PTR(arr), v, n * sizeof(int64));
	return arr;
}

/*
 * winnow(doc, window, <pipeline options without weighting>, chinese): the
 * window is in shingles, the options start after it, chinese is last.
 */
#define WINNOW_FIRST_OPTION 2
#define WINNOW_CHINESE_ARG	9
PG_FUNCTION_INFO_V1(textfp_winnow);
Datum
textfp_winnow(PG_FUNCTION_ARGS)
{
	text	   *doc = PG_GETARG_TEXT_PP(0);
	int32		window = PG_GETARG_INT32(1);
	const TextfpOptions *o;
	uint64	   *fp;
	size_t		n;
	size_t		len;
	char	   *u8;
	tfp_env		env;
	tfp_status	rc;

	textfp_check_range("window", window, 1, TFP_WINNOW_MAX_WINDOW);
	o = textfp_get_options(fcinfo, WINNOW_FIRST_OPTION, false, WINNOW_CHINESE_ARG);
	u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	textfp_env_init(&env, CurrentMemoryContext);
	rc = tfp_winnow_text(&env, &o->opts, u8, len, window, &fp, &n);
	if (rc != TFP_OK)
		textfp_report(rc, &env);
	PG_RETURN_ARRAYTYPE_P(textfp_int8_array(fp, n));
}

/* containment(a, b): the share of a's distinct values found in b; 0 for an empty a */
PG_FUNCTION_INFO_V1(textfp_containment);
Datum
textfp_containment(PG_FUNCTION_ARGS)
{
	size_t		na;
	size_t		nb;
	const uint64 *a = textfp_int8_set(PG_GETARG_ARRAYTYPE_P(0), "containment arguments", &na);
	const uint64 *b = textfp_int8_set(PG_GETARG_ARRAYTYPE_P(1), "containment arguments", &nb);

	if (na == 0)
		PG_RETURN_FLOAT8(0.0);
	PG_RETURN_FLOAT8((double) tfp_signed_set_shared(a, na, b, nb) / (double) na);
}
