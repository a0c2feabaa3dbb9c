/*
 * textfp.c: module set-up, settings, version information, and the bridge
 * between the core's allocator/status codes and PostgreSQL's.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#define XXH_INLINE_ALL
#include <xxhash.h>
#include <unicode/utypes.h>

#include "textfp.h"

PG_MODULE_MAGIC;

/* Defaults chosen on the labeled evaluation (docs/quality.md) */
#define DEFAULT_HAMMING_THRESHOLD 10
#define DEFAULT_JACCARD_THRESHOLD 0.28

int			textfp_hamming_threshold = DEFAULT_HAMMING_THRESHOLD;
double		textfp_jaccard_threshold = DEFAULT_JACCARD_THRESHOLD;

void		_PG_init(void);

void
_PG_init(void)
{
	DefineCustomIntVariable("textfp.hamming_threshold",
							"Sets the largest Hamming distance the simhash64 % operator accepts.",
							"Valid range is 0 .. 64.",
							&textfp_hamming_threshold,
							DEFAULT_HAMMING_THRESHOLD, 0, SIMHASH_BITS,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomRealVariable("textfp.jaccard_threshold",
							 "Sets the least Jaccard estimate the minhash_sig % operator accepts.",
							 "Valid range is 0.0 .. 1.0.",
							 &textfp_jaccard_threshold,
							 DEFAULT_JACCARD_THRESHOLD, 0.0, 1.0,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	mih_init();					/* the mih access method's options and hooks */
	simhash64_cost_init();		/* the cost of the tree and GIN classes' scans */
	cluster_init();				/* textfp.cluster_memory */
	dedup_init();				/* textfp.dedup_max_locks */
#if PG_VERSION_NUM >= 150000
	MarkGUCPrefixReserved("textfp");
#else
	EmitWarningsOnPlaceholders("textfp");
#endif
}

/*
 * --- the core's allocator: palloc in a given context, NULL on failure ---
 *
 * Every byte the core takes for one call is counted against
 * TEXTFP_MEMORY_LIMIT, so a text that would need more (a pathological
 * expansion, millions of distinct features) is refused with a clear error
 * instead of taking the server's memory.
 */
typedef struct EnvMemory
{
	MemoryContext cxt;
	Size		used;
	bool		over_limit;
} EnvMemory;

static void *
env_alloc(void *ctx, size_t size)
{
	EnvMemory  *m = (EnvMemory *) ctx;
	void	   *p;

	if (size > TEXTFP_MEMORY_LIMIT - m->used)
	{
		m->over_limit = true;
		return NULL;
	}
	p = MemoryContextAllocExtended(m->cxt, size, MCXT_ALLOC_NO_OOM);
	if (p != NULL)
		m->used += GetMemoryChunkSpace(p);
	return p;
}

/* repalloc moves a large block's pages (realloc, mremap) instead of copying them */
static void *
env_realloc(void *ctx, void *ptr, size_t size)
{
	EnvMemory  *m = (EnvMemory *) ctx;
	Size		old = GetMemoryChunkSpace(ptr);
	void	   *p;

	if (size > old && size - old > TEXTFP_MEMORY_LIMIT - m->used)
	{
		m->over_limit = true;
		return NULL;
	}
	p = repalloc(ptr, size);
	m->used = m->used - old + GetMemoryChunkSpace(p);
	return p;
}

static void
env_free(void *ctx, void *ptr)
{
	EnvMemory  *m = (EnvMemory *) ctx;

	m->used -= GetMemoryChunkSpace(ptr);
	pfree(ptr);
}

static void
env_check_interrupts(void *ctx)
{
	CHECK_FOR_INTERRUPTS();
}

void
textfp_env_init(tfp_env *env, MemoryContext cxt)
{
	EnvMemory  *m = MemoryContextAllocZero(cxt, sizeof(EnvMemory));

	m->cxt = cxt;
	env->alloc = env_alloc;
	env->free = env_free;
	env->check_interrupts = env_check_interrupts;
	env->ctx = m;
	env->icu_error = 0;
	env->realloc = env_realloc;
}

void
textfp_report(tfp_status rc, const tfp_env *env)
{
	switch (rc)
	{
		case TFP_ENOMEM:
			if (((EnvMemory *) env->ctx)->over_limit)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("text needs more memory to fingerprint than textfp allows"),
						 errdetail("textfp takes at most %d MB of working memory for one call.",
								   TEXTFP_MEMORY_LIMIT / (1024 * 1024))));
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory")));
			break;
		case TFP_EUTF8:
			ereport(ERROR,
					(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
					 errmsg("invalid byte sequence for encoding \"UTF8\""),
					 errdetail("textfp reads text as UTF-8."),
					 errhint("In a SQL_ASCII database, store only valid UTF-8 text, or use a database with a real encoding.")));
			break;
		case TFP_ETOOLONG:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("text is too long to fingerprint"),
					 errdetail("The limit is %d bytes of UTF-8.", TFP_MAX_INPUT_BYTES)));
			break;
		case TFP_ENORMLONG:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("text is too long after normalization"),
					 errdetail("Unicode normalization (NFKC) expands this text past %d bytes of UTF-8, the limit.",
							   TFP_MAX_NORMALIZED_BYTES)));
			break;
		case TFP_ETOOMANY:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("text has too many distinct features"),
					 errdetail("At most %d distinct features are kept for one text.",
							   TFP_MAX_FEATURES)));
			break;
		case TFP_EICU:
			ereport(ERROR,
					(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
					 errmsg("ICU failed: %s", u_errorName((UErrorCode) env->icu_error))));
			break;
		case TFP_EWEIGHT:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("weight must be a finite number between 0 and %.0f",
							TFP_MAX_WEIGHT)));
			break;
		case TFP_EOVERFLOW:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("sum of simhash weights is out of range")));
			break;
		case TFP_OK:
			break;
	}
	elog(ERROR, "unexpected textfp status %d", (int) rc);
}

/*
 * The core reads and writes UTF-8.  Other server encodings are converted
 * (LATIN1 and the like); SQL_ASCII bytes are taken as they are and must be
 * valid UTF-8, which the core checks.
 */
char *
textfp_to_utf8(const char *s, size_t len, size_t *outlen)
{
	int			enc = GetDatabaseEncoding();
	char	   *res;

	if (enc == PG_UTF8 || enc == PG_SQL_ASCII)
	{
		*outlen = len;
		return (char *) s;
	}
	res = (char *) pg_do_encoding_conversion((unsigned char *) s, (int) len,
											 enc, PG_UTF8);
	*outlen = (res == s) ? len : strlen(res);
	return res;
}

char *
textfp_from_utf8(const char *s, size_t len)
{
	int			enc = GetDatabaseEncoding();

	if (enc == PG_UTF8 || enc == PG_SQL_ASCII)
		return pnstrdup(s, len);
	return pg_any_to_server(pnstrdup(s, len), (int) len, PG_UTF8);
}

PG_FUNCTION_INFO_V1(textfp_versions);
Datum
textfp_versions(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	char		icu[32];
	char		uni[32];
	char		xxh[32];
	unsigned	xv = XXH_versionNumber();

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tfp_icu_version(icu, sizeof(icu));
	tfp_unicode_version(uni, sizeof(uni));
	snprintf(xxh, sizeof(xxh), "%u.%u.%u", xv / 10000, (xv / 100) % 100, xv % 100);
	values[0] = CStringGetTextDatum(TEXTFP_VERSION);
	values[1] = CStringGetTextDatum(icu);
	values[2] = CStringGetTextDatum(uni);
	values[3] = CStringGetTextDatum(xxh);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}

/*
 * textfp_default_threshold(kind text): the session's threshold of the %
 * operator for 'simhash64' or 'minhash_sig'.  The PL/pgSQL functions read it
 * here rather than with current_setting(), which fails in a session where
 * the library has not been loaded yet (the settings do not exist then).
 */
PG_FUNCTION_INFO_V1(textfp_default_threshold);
Datum
textfp_default_threshold(PG_FUNCTION_ARGS)
{
	char	   *kind = text_to_cstring(PG_GETARG_TEXT_PP(0));

	if (strcmp(kind, "simhash64") == 0)
		PG_RETURN_FLOAT8((double) textfp_hamming_threshold);
	if (strcmp(kind, "minhash_sig") == 0)
		PG_RETURN_FLOAT8(textfp_jaccard_threshold);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unknown fingerprint kind \"%s\"", kind),
			 errhint("Kinds are \"simhash64\" and \"minhash_sig\".")));
	PG_RETURN_NULL();
}

/*
 * An input string as error messages quote it: whole when short, else its
 * first characters and its length, so a malformed value of megabytes does
 * not come back whole in the message (and the server log).
 */
const char *
textfp_input_excerpt(const char *str)
{
	size_t		len = strlen(str);

	if (len <= TEXTFP_EXCERPT_MAX)
		return str;
	return psprintf("%s... (%zu bytes)",
					pnstrdup(str, pg_mbcliplen(str, (int) Min(len, (size_t) INT_MAX), TEXTFP_EXCERPT_MAX - 20)),
					len);
}
