/*
 * cluster.c: union_find(), clustering the pairs a query returns, and the
 * setting that bounds its memory (textfp.cluster_memory).
 *
 * The query runs through an SPI cursor, fetched in batches, so the pairs
 * never sit in memory together (components mode); the keys do, in the
 * core's structure (src/core/cluster.c), every byte counted against the
 * setting.  Results go out through a tuplestore, which spills to disk past
 * work_mem.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/portal.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "textfp.h"
#include "tfp_cluster.h"

PG_FUNCTION_INFO_V1(textfp_union_find);

#define CLUSTER_FETCH 10000			/* rows per cursor fetch */
#define DEFAULT_CLUSTER_MEMORY (1024 * 1024)	/* kB: 1 GB */

int			textfp_cluster_memory = DEFAULT_CLUSTER_MEMORY;
int			textfp_cluster_max_pairs = 0;

void
cluster_init(void)
{
	DefineCustomIntVariable("textfp.cluster_memory",
							"Sets the most memory union_find() and cluster_table() may take for their keys and pairs.",
							"About 40 to 60 bytes a distinct key, plus 8 a pair in star mode.",
							&textfp_cluster_memory,
							DEFAULT_CLUSTER_MEMORY, 1024, INT_MAX,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	DefineCustomIntVariable("textfp.cluster_max_pairs",
							"Lowers the most pairs cluster_table() and story_refresh() may make.",
							"0: 1,000 a distinct fingerprint plus 10M; a positive value can only lower that bound.",
							&textfp_cluster_max_pairs,
							0, 0, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
}

/*
 * textfp_cluster_pair_limit(nreps): the most pairs a clustering call may
 * store for nreps distinct fingerprints: 1,000 each plus 10M (about 40 bytes
 * of temporary table a pair), or textfp.cluster_max_pairs when that is lower.
 * A setting can only tighten the bound, so it never lets a call take more
 * temporary storage than the table's size allows.
 */
PG_FUNCTION_INFO_V1(textfp_cluster_pair_limit);
Datum
textfp_cluster_pair_limit(PG_FUNCTION_ARGS)
{
	int64		nreps = Max(PG_GETARG_INT64(0), 0);
	int64		limit = Min(nreps, PG_INT64_MAX / 2000) * 1000 + 10000000;

	if (textfp_cluster_max_pairs > 0)
		limit = Min(limit, (int64) textfp_cluster_max_pairs);
	PG_RETURN_INT64(limit);
}

/* The core's allocator, counting against textfp.cluster_memory. */
typedef struct ClusterMemory
{
	MemoryContext cxt;
	Size		used;
	Size		limit;
	bool		over_limit;
} ClusterMemory;

static void *
cm_alloc(void *ctx, size_t size)
{
	ClusterMemory *m = ctx;
	void	   *p;

	if (size > m->limit || m->used > m->limit - size)
	{
		m->over_limit = true;
		return NULL;
	}
	p = MemoryContextAllocExtended(m->cxt, size, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	if (p != NULL)
		m->used += GetMemoryChunkSpace(p);
	return p;
}

static void
cm_free(void *ctx, void *ptr)
{
	ClusterMemory *m = ctx;

	m->used -= GetMemoryChunkSpace(ptr);
	pfree(ptr);
}

static void
cm_check_interrupts(void *ctx)
{
	CHECK_FOR_INTERRUPTS();
}

static void
report(tfp_status rc, ClusterMemory *m)
{
	if (rc == TFP_OK)
		return;
	if (rc == TFP_ENOMEM && m->over_limit)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("clustering needs more memory than textfp.cluster_memory allows"),
				 errdetail("textfp.cluster_memory is %d kB; the keys and pairs so far take %zu kB.",
						   textfp_cluster_memory, m->used / 1024),
				 errhint("Raise textfp.cluster_memory, or cluster fewer keys at a time.")));
	if (rc == TFP_ENOMEM)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	elog(ERROR, "unexpected textfp status %d", (int) rc);
}

static tfp_cluster_mode
parse_mode(text *t)
{
	char	   *s = text_to_cstring(t);

	if (strcmp(s, "components") == 0)
		return TFP_CLUSTER_COMPONENTS;
	if (strcmp(s, "star") == 0)
		return TFP_CLUSTER_STAR;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid clustering mode \"%s\"", s),
			 errhint("Valid modes are \"components\" and \"star\".")));
	return TFP_CLUSTER_COMPONENTS;	/* keep the compiler quiet */
}

static bool
is_integer_type(Oid t)
{
	return t == INT8OID || t == INT4OID || t == INT2OID;
}

static int64
integer_datum(Datum d, Oid t)
{
	if (t == INT8OID)
		return DatumGetInt64(d);
	if (t == INT4OID)
		return DatumGetInt32(d);
	return DatumGetInt16(d);
}

/* The query's result must be two integer columns. */
static void
check_columns(TupleDesc d)
{
	if (d->natts != 2)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("union_find() query must return two integer columns"),
				 errdetail("It returns %d column(s).", d->natts)));
	for (int i = 0; i < 2; i++)
		if (!is_integer_type(TupleDescAttr(d, i)->atttypid))
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("union_find() query must return two integer columns"),
					 errdetail("Column %d is of type %s.", i + 1,
							   format_type_be(TupleDescAttr(d, i)->atttypid)),
					 errhint("Cast the keys to bigint; smallint and integer are read as bigint.")));
}

/*
 * union_find(pairs text, mode text) returns (key, cluster_key, cluster_size).
 *
 * pairs is a query returning two integer columns; a row with one NULL adds
 * the other key alone (a singleton unless a pair joins it), a row of two
 * NULLs is skipped.  Every key seen comes out once.  The query runs as the
 * caller, under the caller's search_path.
 */
Datum
textfp_union_find(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *query;
	tfp_cluster_mode mode;
	MemoryContext cxt;
	ClusterMemory mem;
	tfp_env		env;
	tfp_cluster c;
	SPIPlanPtr	plan;
	Portal		portal;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("union_find() needs a query and a mode")));
	query = text_to_cstring(PG_GETARG_TEXT_PP(0));
	mode = parse_mode(PG_GETARG_TEXT_PP(1));

	InitMaterializedSRF(fcinfo, 0);

	cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp union_find",
								ALLOCSET_DEFAULT_SIZES);
	mem.cxt = cxt;
	mem.used = 0;
	mem.limit = (Size) textfp_cluster_memory * 1024;
	mem.over_limit = false;
	memset(&env, 0, sizeof(env));
	env.alloc = cm_alloc;
	env.free = cm_free;
	env.check_interrupts = cm_check_interrupts;
	env.ctx = &mem;
	tfp_cluster_init(&c, &env, mode);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	plan = SPI_prepare(query, 0, NULL);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	if (!SPI_is_cursor_plan(plan))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("union_find() needs a query that returns rows"),
				 errdetail("The query must be one SELECT (or VALUES, or a DML statement with RETURNING) of two integer columns.")));
	portal = SPI_cursor_open(NULL, plan, NULL, NULL, false);
	check_columns(portal->tupDesc);
	for (;;)
	{
		SPI_cursor_fetch(portal, true, CLUSTER_FETCH);
		if (SPI_processed == 0)
			break;
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			TupleDesc	d = SPI_tuptable->tupdesc;
			bool		na,
						nb;
			Datum		a = SPI_getbinval(tup, d, 1, &na);
			Datum		b = SPI_getbinval(tup, d, 2, &nb);
			tfp_status	rc = TFP_OK;

			if (!na && !nb)
				rc = tfp_cluster_add_pair(&c, integer_datum(a, SPI_gettypeid(d, 1)),
										  integer_datum(b, SPI_gettypeid(d, 2)));
			else if (!na)
				rc = tfp_cluster_add_key(&c, integer_datum(a, SPI_gettypeid(d, 1)));
			else if (!nb)
				rc = tfp_cluster_add_key(&c, integer_datum(b, SPI_gettypeid(d, 2)));
			report(rc, &mem);
			if ((i & 1023) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		SPI_freetuptable(SPI_tuptable);
	}
	SPI_cursor_close(portal);
	SPI_finish();

	report(tfp_cluster_finish(&c), &mem);

	for (size_t i = 0; i < tfp_cluster_count(&c); i++)
	{
		int64		k,
					ck,
					sz;
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		tfp_cluster_get(&c, i, &k, &ck, &sz);
		values[0] = Int64GetDatum(k);
		values[1] = Int64GetDatum(ck);
		values[2] = Int64GetDatum(sz);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		if ((i & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	tfp_cluster_free(&c);
	MemoryContextDelete(cxt);
	return (Datum) 0;
}
