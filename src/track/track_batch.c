/*
 * track_batch.c: what the procedures textfp_track() and textfp_rebuild() do
 * batch by batch, each batch in a transaction of its own: link the rows of
 * the store in (time, key) order, from a cursor the procedure carries.
 *
 * Relinking every row in time order gives each row the link the rule gives
 * it from the rows before it; writers may go on meanwhile: a row written
 * behind the cursor is linked by its trigger among rows already relinked,
 * and the cursor reaches every row written ahead of it (track_link.c).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/syscache.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "track.h"

/* The owner of a relation; InvalidOid if there is none. */
static Oid
get_rel_relowner_safe(Oid relid)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tup))
		return InvalidOid;
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	return owner;
}

/* The table a configuration table registers (its source_table column). */
static Oid
registered_table(Oid config_relid)
{
	Oid			argtypes[1] = {REGCLASSOID};
	Datum		args[1] = {ObjectIdGetDatum(config_relid)};
	bool		isnull;
	Oid			relid;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args(psprintf("SELECT source_table FROM ONLY %s",
									   quote_qualified_identifier(get_namespace_name(get_rel_namespace(config_relid)),
																  get_rel_name(config_relid))),
							  0, argtypes, args, NULL, true, 2) != SPI_OK_SELECT || SPI_processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("textfp registration table %s has no single row", get_rel_name(config_relid))));
	relid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	return relid;
}

static Datum
from_text(Oid type, text *t)
{
	Oid			in;
	Oid			ioparam;

	getTypeInputInfo(type, &in, &ioparam);
	return OidInputFunctionCall(in, text_to_cstring(t), ioparam, -1);
}

static text *
to_text(Oid type, Datum d)
{
	Oid			out;
	bool		varlena;

	getTypeOutputInfo(type, &out, &varlena);
	return cstring_to_text(OidOutputFunctionCall(out, d));
}

/*
 * textfp_track_link(config regclass, after_at text, after_key text, batch
 * integer) returns (last_at text, last_key text, rows integer, changed
 * integer): relinks the next batch rows of the store after (after_at,
 * after_key), or the first ones when both are NULL.  rows 0: done.
 */
PG_FUNCTION_INFO_V1(textfp_track_link);
Datum
textfp_track_link(PG_FUNCTION_ARGS)
{
	Oid			config_relid = PG_GETARG_OID(0);
	bool		first = PG_ARGISNULL(1) || PG_ARGISNULL(2);
	int32		batch = PG_ARGISNULL(3) ? 1000 : PG_GETARG_INT32(3);
	Relation	rel;
	TrackConfig *c;
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {true, true, false, false};
	volatile int rows = 0;
	volatile int changed = 0;
	MemoryContext fn_cxt = CurrentMemoryContext;

	if (batch < 1 || batch > 1000000)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("batch must be between 1 and 1000000, not %d", batch)));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	rel = table_open(registered_table(config_relid), AccessShareLock);
	if (!has_privs_of_role(GetUserId(), rel->rd_rel->relowner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", RelationGetRelationName(rel))));
	c = track_get_config(config_relid, rel);
	PG_TRY();
	{
		Datum	   *keys;
		Datum	   *ats;
		Datum		at = (Datum) 0,
					key = (Datum) 0;
		int			n;
		MemoryContext row_cxt;

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (!first)
		{
			at = from_text(c->time_type, PG_GETARG_TEXT_PP(1));
			key = from_text(c->key_type, PG_GETARG_TEXT_PP(2));
		}
		n = track_next_rows(c, first, at, key, batch, &keys, &ats);
		/* what one row's relink allocates goes with it: a batch runs in bounded memory */
		row_cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp_track_link row", ALLOCSET_DEFAULT_SIZES);
		for (int i = 0; i < n; i++)
		{
			bool		ch;
			MemoryContext old;

			CHECK_FOR_INTERRUPTS();
			old = MemoryContextSwitchTo(row_cxt);
			if (track_relink_row(c, keys[i], &ch))
			{
				rows++;
				changed += ch;
			}
			MemoryContextSwitchTo(old);
			MemoryContextReset(row_cxt);
		}
		if (n > 0)
		{
			/* the cursor outlives SPI_finish(), which frees SPI's memory */
			MemoryContext old = MemoryContextSwitchTo(fn_cxt);

			values[0] = PointerGetDatum(to_text(c->time_type, ats[n - 1]));
			values[1] = PointerGetDatum(to_text(c->key_type, keys[n - 1]));
			MemoryContextSwitchTo(old);
			nulls[0] = nulls[1] = false;
			/* a row that went meanwhile still moves the cursor */
			rows = Max(rows, 1);
		}
		SPI_finish();
	}
	PG_FINALLY();
	{
		track_release_config(c);
	}
	PG_END_TRY();
	table_close(rel, AccessShareLock);
	values[2] = Int32GetDatum(rows);
	values[3] = Int32GetDatum(changed);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * textfp_track_invalidate(config regclass): every backend reads the
 * registration again at its next use (after the calling transaction
 * commits): the procedures call it when they change its state.
 */
PG_FUNCTION_INFO_V1(textfp_track_invalidate);
Datum
textfp_track_invalidate(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	Oid			owner;

	if (!OidIsValid(owner = get_rel_relowner_safe(relid)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", get_rel_name(relid))));
	CacheInvalidateRelcacheByRelid(relid);
	PG_RETURN_VOID();
}

/*
 * textfp_track_outside_block(what text): the procedures that commit as they
 * go (textfp_track, textfp_rebuild) call it first, so that inside a
 * transaction block they fail at once with 25001, not at their first COMMIT
 * with "invalid transaction termination".
 */
PG_FUNCTION_INFO_V1(textfp_track_outside_block);
Datum
textfp_track_outside_block(PG_FUNCTION_ARGS)
{
	if (IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("%s cannot run inside a transaction block", text_to_cstring(PG_GETARG_TEXT_PP(0))),
				 errdetail("It commits each batch as it goes."),
				 errhint("CALL it on its own, with autocommit on.")));
	PG_RETURN_VOID();
}
