/*
 * track_exec.c: the statements the procedures textfp_track() and
 * textfp_rebuild() run on a registration's tables, run as the tracked
 * table's owner.
 *
 * The procedures are PL/pgSQL and run as their caller, who has the owner's
 * privileges but may have more (a superuser).  The tables are the owner's:
 * between a check and a statement the owner may add a trigger, a rule or a
 * column default to them, or swap their names for a view's (a schema rename
 * takes no lock), and the statement would run the owner's code as the
 * caller.  Run as the owner, in a security-restricted operation (no SET
 * ROLE, no session state), whatever the owner put there runs as the owner,
 * as PostgreSQL runs a table owner's index expressions in VACUUM or ANALYZE.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "track.h"

#define TRACK_EXEC_MAX_ARGS 8

/*
 * textfp_track_exec(rel regclass, query text, args text[]) returns setof
 * record: runs query ($1, $2, ... the args, as text: the query casts them)
 * as rel's owner, under search_path pg_catalog, pg_temp, and returns its
 * rows (a column definition list says their types).  The caller must have
 * the privileges of rel's owner: it could SET ROLE to it anyway.  The
 * arguments are text, not "any": an overload planted in textfp's schema
 * with concrete types would win every call of a VARIADIC "any" function.
 */
PG_FUNCTION_INFO_V1(textfp_track_exec);
Datum
textfp_track_exec(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			relid;
	HeapTuple	tup;
	Oid			owner;
	char	   *query;
	int			nargs = 0;
	Datum	   *elems = NULL;
	bool	   *elem_nulls = NULL;
	Oid			types[TRACK_EXEC_MAX_ARGS];
	Datum		values[TRACK_EXEC_MAX_ARGS];
	char		nulls[TRACK_EXEC_MAX_ARGS];
	Oid			save_userid;
	int			save_sec;
	volatile int level = 0;
	volatile int rc = 0;
	TupleDesc	expected;
	Tuplestorestate *store;
	MemoryContext per_query;
	MemoryContext old;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("textfp_track_exec() needs a relation and a query")));
	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) || !(rsinfo->allowedModes & SFRM_Materialize) ||
		rsinfo->expectedDesc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("textfp_track_exec() must be called in FROM with a column definition list")));
	if (!PG_ARGISNULL(2))
		deconstruct_array(PG_GETARG_ARRAYTYPE_P(2), TEXTOID, -1, false, TYPALIGN_INT, &elems, &elem_nulls, &nargs);
	if (nargs > TRACK_EXEC_MAX_ARGS)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_ARGUMENTS),
				 errmsg("textfp_track_exec() takes at most %d query arguments", TRACK_EXEC_MAX_ARGS)));
	relid = PG_GETARG_OID(0);
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tup))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", get_rel_name(relid))));
	query = text_to_cstring(PG_GETARG_TEXT_PP(1));
	for (int i = 0; i < nargs; i++)
	{
		types[i] = TEXTOID;
		values[i] = elems[i];
		nulls[i] = elem_nulls[i] ? 'n' : ' ';
	}

	per_query = rsinfo->econtext->ecxt_per_query_memory;
	old = MemoryContextSwitchTo(per_query);
	expected = CreateTupleDescCopy(rsinfo->expectedDesc);
	store = tuplestore_begin_heap(true, false, work_mem);
	MemoryContextSwitchTo(old);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION |
						   SECURITY_NOFORCE_RLS);
	PG_TRY();
	{
		level = NewGUCNestLevel();
		(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
		rc = SPI_execute_with_args(query, nargs, types, values, nulls, false, 0);
		AtEOXact_GUC(true, level);
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec);
	}
	PG_END_TRY();
	if (rc < 0)
		elog(ERROR, "textfp_track_exec: %s", SPI_result_code_string(rc));
	if (SPI_tuptable != NULL)
	{
		TupleDesc	got = SPI_tuptable->tupdesc;

		if (got->natts != expected->natts)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("textfp_track_exec(): the query returns %d columns, not %d", got->natts, expected->natts)));
		for (int i = 0; i < got->natts; i++)
			if (TupleDescAttr(got, i)->atttypid != TupleDescAttr(expected, i)->atttypid)
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("textfp_track_exec(): column %d of the query is %s, not %s", i + 1,
								format_type_be(TupleDescAttr(got, i)->atttypid),
								format_type_be(TupleDescAttr(expected, i)->atttypid))));
		old = MemoryContextSwitchTo(per_query);
		for (uint64 r = 0; r < SPI_processed; r++)
			tuplestore_puttuple(store, SPI_tuptable->vals[r]);
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = store;
	rsinfo->setDesc = expected;
	return (Datum) 0;
}
