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
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

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

/* The owner of relid, whose privileges the caller must have (42P01, 42501). */
static Oid
owner_checked(Oid relid)
{
	Oid			owner = get_rel_relowner_safe(relid);

	if (!OidIsValid(owner))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", get_rel_name(relid))));
	return owner;
}

/*
 * The table a configuration table registers (its source_table column), read
 * as the configuration table's owner, for a caller with its privileges: the
 * caller may have more (a superuser's textfp_rebuild()), and the owner may
 * have made the name a view's of its own since it was checked (a schema
 * rename takes no lock): its functions run as the owner.
 */
static Oid
registered_table(Oid config_relid)
{
	Oid			owner = owner_checked(config_relid);
	Oid			save_userid;
	int			save_sec;
	bool		isnull;
	int			rc;
	int			level;
	Oid			relid;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION |
						   SECURITY_NOFORCE_RLS);
	level = NewGUCNestLevel();
	rc = SPI_execute(psprintf("SELECT source_table FROM ONLY %s",
							  quote_qualified_identifier(get_namespace_name(get_rel_namespace(config_relid)),
														 get_rel_name(config_relid))),
					 true, 2);
	AtEOXact_GUC(false, level);	/* nothing the owner's code set outlives it */
	SetUserIdAndSecContext(save_userid, save_sec);
	if (rc != SPI_OK_SELECT || SPI_processed != 1 ||
		SPI_tuptable->tupdesc->natts != 1 || TupleDescAttr(SPI_tuptable->tupdesc, 0)->atttypid != REGCLASSOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("textfp registration table %s has no single row", get_rel_name(config_relid))));
	relid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	return relid;
}

/*
 * The registration of a configuration table, for a caller with the
 * privileges of its table's owner (42501 otherwise); the table opened into
 * *rel (AccessShareLock).
 */
static TrackConfig *
owned_registration(Oid config_relid, Relation *rel)
{
	*rel = table_open(registered_table(config_relid), AccessShareLock);
	if (!has_privs_of_role(GetUserId(), (*rel)->rd_rel->relowner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", RelationGetRelationName(*rel))));
	return track_get_config(config_relid, *rel);
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

	if (batch < 1 || batch > 1000000)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("batch must be between 1 and 1000000, not %d", batch)));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	c = owned_registration(config_relid, &rel);
	PG_TRY();
	{
		/* the cursor and the result outlive SPI's memory */
		MemoryContext caller = CurrentMemoryContext;
		MemoryContext row_cxt;
		Datum		at = (Datum) 0,
					key = (Datum) 0;
		int			visited = 0;
		bool		from_first = first;

		if (!from_first)
		{
			at = from_text(c->time_type, PG_GETARG_TEXT_PP(1));
			key = from_text(c->key_type, PG_GETARG_TEXT_PP(2));
		}
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		row_cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp_track_link row", ALLOCSET_DEFAULT_SIZES);

		/*
		 * The whole table's lock, exclusive, before any row's: writers wait
		 * for the batch to commit.  Row by row the batch would hold the keys
		 * of every row it relinked (it escalates only when no writer holds
		 * the table's lock), and deadlock with writers taking the same keys
		 * in another order, or waiting for one while it waits past
		 * textfp.dedup_max_locks.
		 */
		track_lock_table(c);

		/*
		 * One row at a time, the next after the cursor at a fresh snapshot:
		 * a row that a writer committed while the batch waited for the lock
		 * (after the statement's snapshot) linked to rows this batch has not
		 * relinked yet, so it must be reached after them, not skipped as a
		 * list read under the statement's snapshot would skip it.
		 */
		while (visited < batch)
		{
			Datum	   *keys;
			Datum	   *ats;
			bool		ch;
			MemoryContext old;

			CHECK_FOR_INTERRUPTS();
			old = MemoryContextSwitchTo(row_cxt);
			if (track_next_rows(c, from_first, at, key, 1, &keys, &ats, GetLatestSnapshot()) == 0)
			{
				MemoryContextSwitchTo(old);
				break;
			}
			if (track_relink_row(c, keys[0], &ch))
			{
				rows++;
				changed += ch;
			}
			if (!from_first && !c->time_byval)
				pfree(DatumGetPointer(at));
			if (!from_first && !c->key_byval)
				pfree(DatumGetPointer(key));
			MemoryContextSwitchTo(caller);
			at = datumCopy(ats[0], c->time_byval, c->time_len);
			key = datumCopy(keys[0], c->key_byval, c->key_len);
			MemoryContextSwitchTo(old);
			MemoryContextReset(row_cxt);
			from_first = false;
			visited++;
		}
		SPI_finish();
		if (visited > 0)
		{
			values[0] = PointerGetDatum(to_text(c->time_type, at));
			values[1] = PointerGetDatum(to_text(c->key_type, key));
			nulls[0] = nulls[1] = false;
			/* a row that went meanwhile still moves the cursor */
			rows = Max(rows, 1);
		}
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
 * textfp_track_fold(config regclass, whole boolean) returns bigint: folds the
 * changed stories and site pairs into the summaries (track_story.c); whole:
 * recounts every story and site pair from the store (textfp_track() and
 * textfp_rebuild() when they finish).  Waits for a fold under way.  The rows
 * written.
 */
PG_FUNCTION_INFO_V1(textfp_track_fold);
Datum
textfp_track_fold(PG_FUNCTION_ARGS)
{
	Oid			config_relid = PG_GETARG_OID(0);
	bool		whole = PG_GETARG_BOOL(1);
	Relation	rel;
	TrackConfig *c;
	volatile uint64 n = 0;

	c = owned_registration(config_relid, &rel);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		LockRelationOid(c->stories_relid, ExclusiveLock);
		if (!whole)
			n = track_run_fold(c, true);
		else
		{
			TypeCacheEntry *ktc = lookup_type_cache(c->key_type, TYPECACHE_EQ_OPR);
			const char *keq = track_operator_sql(ktc->eq_opr);

			/*
			 * The changes first: a write that commits after this statement
			 * keeps its change, whether or not the recount below sees it.
			 */
			(void) track_run_sql(c, psprintf("DELETE FROM ONLY %s", c->changes_name));
			(void) track_run_sql(c, psprintf("DELETE FROM ONLY %s", c->stories_name));
			n = track_run_sql(c, psprintf(
				"INSERT INTO %2$s (story, size, sites, site, first_at, last_at) "
				"SELECT g.story, g.size, g.sites, o.site, o.at, g.last_at FROM "
				"(SELECT s.story, " TRACK_STORY_COUNTS " "
				"FROM ONLY %1$s s GROUP BY s.story HAVING count(*) >= 2) g JOIN ONLY %1$s o ON o.key %3$s g.story",
				c->store_name, c->stories_name, keq));
			/*
			 * Each link's source_site and source_at set from its source (the
			 * in-memory pass writes links without them), then every site
			 * pair counted (a registration without a site column keeps none).
			 */
			(void) track_run_sql(c, psprintf(
				"UPDATE ONLY %1$s c SET source_site = o.site, source_at = o.at FROM ONLY %1$s o WHERE o.key %2$s c.source "
				"AND NOT (coalesce(%3$s, %5$s AND %6$s) "
				"AND coalesce(c.source_at %4$s o.at, false))",
				c->store_name, keq, track_eq_sql(c->site_store_type, "c.source_site", "o.site"),
				track_operator_sql(lookup_type_cache(c->time_type, TYPECACHE_EQ_OPR)->eq_opr),
				track_null_sql(c->site_store_type, "c.source_site", true),
				track_null_sql(c->site_store_type, "o.site", true)));
			(void) track_run_sql(c, psprintf(
				"UPDATE ONLY %s c SET source_site = NULL, source_at = NULL WHERE c.source IS NULL "
				"AND (%s OR c.source_at IS NOT NULL)",
				c->store_name, track_null_sql(c->site_store_type, "c.source_site", false)));
			(void) track_run_sql(c, psprintf("DELETE FROM ONLY %s", c->reprint_changes_name));
			(void) track_run_sql(c, psprintf("DELETE FROM ONLY %s", c->reprints_name));
			if (c->site_att)
				n += track_run_sql(c, psprintf(
					"INSERT INTO %2$s (source_site, site, reprints, stories, median_delay) "
					"SELECT c.source_site, c.site, " TRACK_PAIR_COUNTS("c.source_at") " "
					"FROM ONLY %1$s c WHERE c.source IS NOT NULL GROUP BY c.source_site, c.site",
					c->store_name, c->reprints_name));
		}
		SPI_finish();
	}
	PG_FINALLY();
	{
		track_release_config(c);
	}
	PG_END_TRY();
	table_close(rel, AccessShareLock);
	PG_RETURN_INT64((int64) n);
}

/*
 * textfp_track_link_all(config regclass) returns (rows bigint, changed
 * bigint): relinks every row of the store at once, in memory, in the
 * calling transaction (track_fast.c), holding SHARE on the table (writers
 * wait; readers go on) and SHARE ROW EXCLUSIVE on the store (the batches of
 * another rebuild wait) until it ends.  NULLs, with a NOTICE saying why,
 * when it does not apply (a store larger than maintenance_work_mem, or
 * MinHash signatures the pass cannot compare: track_fast_minhash.c); the
 * caller then links in batches.
 */
PG_FUNCTION_INFO_V1(textfp_track_link_all);
Datum
textfp_track_link_all(PG_FUNCTION_ARGS)
{
	Oid			config_relid = PG_GETARG_OID(0);
	Relation	rel;
	TrackConfig *c;
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {true, true};
	int64		rows = 0;
	int64		changed = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	c = owned_registration(config_relid, &rel);
	PG_TRY();
	{
		LockRelationOid(RelationGetRelid(rel), ShareLock);
		LockRelationOid(c->store_relid, ShareRowExclusiveLock);
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (track_link_all_in_memory(c, &rows, &changed))
		{
			values[0] = Int64GetDatum(rows);
			values[1] = Int64GetDatum(changed);
			nulls[0] = nulls[1] = false;
		}
		SPI_finish();
	}
	PG_FINALLY();
	{
		track_release_config(c);
	}
	PG_END_TRY();
	table_close(rel, AccessShareLock);
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

	(void) owner_checked(relid);
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

/*
 * textfp_track_lock(tbl regclass, mode text): locks a table of the caller's
 * (or of a role whose privileges it has) by OID, as LOCK TABLE ONLY would.
 * LOCK TABLE names it: having waited for a rename's lock, it looks the name
 * up again and locks whatever table took it meanwhile (a tenant's, with
 * CREATE on the schema), not the one the caller checked.  42P01 when the
 * table was dropped while this waited.
 */
PG_FUNCTION_INFO_V1(textfp_track_lock);
Datum
textfp_track_lock(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *mode = text_to_cstring(PG_GETARG_TEXT_PP(1));
	LOCKMODE	lockmode;
	const char *name;

	if (strcmp(mode, "ACCESS SHARE") == 0)
		lockmode = AccessShareLock;
	else if (strcmp(mode, "SHARE") == 0)
		lockmode = ShareLock;
	else if (strcmp(mode, "SHARE ROW EXCLUSIVE") == 0)
		lockmode = ShareRowExclusiveLock;
	else if (strcmp(mode, "ACCESS EXCLUSIVE") == 0)
		lockmode = AccessExclusiveLock;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("textfp_track_lock() takes ACCESS SHARE, SHARE, SHARE ROW EXCLUSIVE or ACCESS EXCLUSIVE, not \"%s\"",
						mode)));
	/* checked before it waits, as LOCK TABLE checks: no one queues for another's table */
	(void) owner_checked(relid);
	name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid));
	LockRelationOid(relid, lockmode);
	if (!OidIsValid(get_rel_relowner_safe(relid)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table %s does not exist any more", name),
				 errdetail("It was dropped while this waited for its lock.")));
	PG_RETURN_VOID();
}
