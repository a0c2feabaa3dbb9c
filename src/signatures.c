/*
 * signatures.c: SQL entry points of the set signatures (1.1):
 * pinyin_signature(), pinyin_letters(), sentence_signature() and
 * signature_overlap(), the count that makes them a matching rule
 * (`a && b AND signature_overlap(a, b) >= m`, with GIN's array_ops
 * serving &&).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "textfp.h"
#include "tfp_sig.h"

static ArrayType *
sorted_int8_array(const uint64 *v, size_t n)
{
	Datum	   *d = palloc((n ? n : 1) * sizeof(Datum));

	for (size_t i = 0; i < n; i++)
		d[i] = Int64GetDatum((int64) v[i]);
	return construct_array(d, (int) n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
}

/* pinyin_signature(doc, window_size): sorted, distinct; '{}' without enough Han */
PG_FUNCTION_INFO_V1(textfp_pinyin_signature);
Datum
textfp_pinyin_signature(PG_FUNCTION_ARGS)
{
	text	   *doc = PG_GETARG_TEXT_PP(0);
	int32		window = PG_GETARG_INT32(1);
	size_t		len;
	char	   *u8;
	uint64_t   *values;
	size_t		n;
	tfp_env		env;
	tfp_status	rc;

	textfp_check_range("window_size", window, TFP_PINYIN_WINDOW_MIN, TFP_PINYIN_WINDOW_MAX);
	u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	textfp_env_init(&env, CurrentMemoryContext);
	if ((rc = tfp_pinyin_signature(&env, u8, len, window, &values, &n)) != TFP_OK)
		textfp_report(rc, &env);
	PG_RETURN_ARRAYTYPE_P(sorted_int8_array(values, n));
}

/* pinyin_letters(doc): the letters pinyin_signature reads, as text */
PG_FUNCTION_INFO_V1(textfp_pinyin_letters);
Datum
textfp_pinyin_letters(PG_FUNCTION_ARGS)
{
	text	   *doc = PG_GETARG_TEXT_PP(0);
	size_t		len;
	char	   *u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	char	   *norm;
	size_t		normlen;
	char	   *letters;
	size_t		n;
	tfp_env		env;
	tfp_status	rc;

	textfp_env_init(&env, CurrentMemoryContext);
	if ((rc = tfp_normalize(&env, u8, len, false, &norm, &normlen)) != TFP_OK ||
		(rc = tfp_pinyin_letters(&env, norm, normlen, &letters, &n)) != TFP_OK)
		textfp_report(rc, &env);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(letters, (int) n));
}

/* sentence_signature(doc, k, min_length): sorted; fewer than k values for fewer sentences */
PG_FUNCTION_INFO_V1(textfp_sentence_signature);
Datum
textfp_sentence_signature(PG_FUNCTION_ARGS)
{
	text	   *doc = PG_GETARG_TEXT_PP(0);
	int32		k = PG_GETARG_INT32(1);
	int32		min_length = PG_GETARG_INT32(2);
	size_t		len;
	char	   *u8;
	uint64_t	values[TFP_SENTENCES_K_MAX];
	size_t		n;
	tfp_env		env;
	tfp_status	rc;

	textfp_check_range("k", k, 1, TFP_SENTENCES_K_MAX);
	textfp_check_range("min_length", min_length, 0, TFP_SENTENCE_MIN_LENGTH_MAX);
	u8 = textfp_to_utf8(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), &len);
	textfp_env_init(&env, CurrentMemoryContext);
	if ((rc = tfp_sentence_signature(&env, u8, len, k, min_length, values, &n)) != TFP_OK)
		textfp_report(rc, &env);
	PG_RETURN_ARRAYTYPE_P(sorted_int8_array(values, n));
}

/* A one-dimensional bigint[] without nulls, sorted as signed and distinct. */
static uint64 *
signature_items(ArrayType *arr, tfp_env *env, size_t *n)
{
	int			count;
	uint64	   *items;
	size_t		k = 0;
	tfp_status	rc;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("signature_overlap arguments must be one-dimensional arrays")));
	if (array_contains_nulls(arr))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("signature_overlap arguments must not contain nulls")));
	count = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	items = palloc((count > 0 ? count : 1) * sizeof(uint64));
	memcpy(items, ARR_DATA_PTR(arr), (size_t) count * sizeof(uint64));
	/* the signatures' own arrays are sorted already; others are sorted here */
	for (int i = 1; i < count; i++)
		if ((int64) items[i - 1] >= (int64) items[i])
		{
			if ((rc = tfp_sort_u64(env, items, (size_t) count, true)) != TFP_OK)
				textfp_report(rc, env);
			break;
		}
	for (int i = 0; i < count; i++)
		if (k == 0 || items[k - 1] != items[i])
			items[k++] = items[i];
	*n = k;
	return items;
}

/* signature_overlap(a, b): distinct values in both */
PG_FUNCTION_INFO_V1(textfp_signature_overlap);
Datum
textfp_signature_overlap(PG_FUNCTION_ARGS)
{
	tfp_env		env;
	size_t		na;
	size_t		nb;
	uint64	   *a;
	uint64	   *b;

	textfp_env_init(&env, CurrentMemoryContext);
	a = signature_items(PG_GETARG_ARRAYTYPE_P(0), &env, &na);
	b = signature_items(PG_GETARG_ARRAYTYPE_P(1), &env, &nb);
	PG_RETURN_INT32((int32) tfp_sorted_overlap(a, na, b, nb));
}
