/*
 * dedup.c: textfp_dedup(), a BEFORE INSERT OR UPDATE ... FOR EACH ROW trigger
 * that keeps near duplicates out of a table (mode reject), records the
 * nearest one (mode mark) or drops the new row (mode skip), race-free at
 * every isolation level.  docs/dedup.md explains the design; in short:
 *
 *   1. the fingerprint is computed by calling textfp's own simhash() or
 *      minhash() (featureless => 'null'), so it is the SQL function's value;
 *   2. advisory locks of textfp's own (LOCKTAG_ADVISORY with field4
 *      DEDUP_LOCK_KEY or DEDUP_LOCK_SCOPE) cover every pair that can be
 *      near: SimHash r + 1 pigeonhole blocks, MinHash k - c + 1 positions,
 *      under a shared (table, scope) lock that becomes exclusive after
 *      'escalate' rows of one transaction;
 *   3. with the locks held, an index lookup under a fresh snapshot finds the
 *      nearest match; at REPEATABLE READ and SERIALIZABLE a match the
 *      transaction's own snapshot cannot see raises 40001.
 *
 * The configuration (dedup_config.c) is parsed and checked at the first call
 * of each trigger and kept per backend; the locks are in dedup_locks.c.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"

#include "dedup.h"


typedef struct Match
{
	bool		found;
	Datum		key;			/* in the caller's context */
	bool		key_null;
	char	   *key_text;
	double		score;			/* distance or Jaccard estimate */
} Match;

static const char *const lookup_settings[][2] = {
	{"enable_seqscan", "off"},
	{"enable_indexscan", "off"},
	{"enable_indexonlyscan", "off"},
	{"enable_tidscan", "off"},
	{"enable_bitmapscan", "on"},
	{"plan_cache_mode", "force_generic_plan"},
};

/* The nearest match under snapshot (ties to the smallest key). */
static void
lookup(DedupConfig *c, Oid owner, Datum *values, char *nulls, Snapshot snap, MemoryContext caller, Match *m)
{
	int			rc;
	int			save_nestlevel;
	Oid			save_userid;
	int			save_sec;

	memset(m, 0, sizeof(*m));
	/*
	 * An index plan whatever the table's size, its statistics or the
	 * session's settings: every path but a bitmap scan is disabled while the
	 * lookup is planned, and a bitmap path needs an index condition, so the
	 * plan is the fingerprint index's bitmap scan.  Then a generic plan is as
	 * good as a custom one and saves planning each row (about 0.5 ms at 1M
	 * rows): the plan cache builds and rebuilds it only inside this block.
	 */
	save_nestlevel = NewGUCNestLevel();
	for (size_t i = 0; i < lengthof(lookup_settings); i++)
		(void) set_config_option(lookup_settings[i][0], lookup_settings[i][1], PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	/*
	 * As the table's owner and past row-level security, as PostgreSQL's
	 * foreign-key checks are: a writer with INSERT but no SELECT privilege
	 * can be guarded, and a policy that hides rows cannot hide duplicates.
	 */
	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS);
	rc = SPI_execute_snapshot(c->plan, values, nulls, snap, InvalidSnapshot, false, false, 1);
	SetUserIdAndSecContext(save_userid, save_sec);
	AtEOXact_GUC(true, save_nestlevel);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "textfp_dedup lookup failed: %s", SPI_result_code_string(rc));
	if (SPI_processed > 0)
	{
		HeapTuple	tup = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		Datum		d;
		MemoryContext old;
		int16		typlen;
		bool		typbyval;

		m->found = true;
		d = SPI_getbinval(tup, desc, 2, &isnull);
		m->score = c->minhash ? DatumGetFloat8(d) : (double) DatumGetInt32(d);
		d = SPI_getbinval(tup, desc, 1, &m->key_null);
		old = MemoryContextSwitchTo(caller);
		get_typlenbyval(c->key_type, &typlen, &typbyval);
		m->key = m->key_null ? (Datum) 0 : datumCopy(d, typbyval, typlen);
		m->key_text = m->key_null ? pstrdup("null") : SPI_getvalue(tup, desc, 1);
		MemoryContextSwitchTo(old);
	}
}

static uint32
scope_hash(DedupConfig *c, HeapTuple tup, TupleDesc desc, Datum *values, char *nulls)
{
	uint32		h = 0x15;

	for (int i = 0; i < c->nscope; i++)
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, c->scope_att[i], desc, &isnull);
		uint32		v = 0x6e756c6c;	/* NULL: a scope of its own */

		if (!isnull)
			v = DatumGetUInt32(FunctionCall1Coll(&c->scope_hash[i], c->scope_coll[i], d));
		h = hash_combine(h, v);
		values[3 + i] = d;
		nulls[3 + i] = isnull ? 'n' : ' ';
	}
	return h;
}

/*
 * The existing row's key as messages may show it: not to a user who may not
 * read the key column, nor under row-level security (as PostgreSQL leaves
 * the key out of a unique violation's DETAIL then).
 */
static const char *
key_for_message(DedupConfig *c, TupleDesc desc, const Match *m)
{
	if (check_enable_rls(c->relid, InvalidOid, true) == RLS_ENABLED ||
		(pg_class_aclcheck(c->relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
		 pg_attribute_aclcheck(c->relid, c->key_att, GetUserId(), ACL_SELECT) != ACLCHECK_OK))
		return "An existing row";
	return psprintf("Key (%s)=(%s)", SPI_fname(desc, c->key_att), m->key_text);
}

static bool
same_column(HeapTuple a, HeapTuple b, TupleDesc desc, AttrNumber att)
{
	bool		na,
				nb;
	Datum		da = heap_getattr(a, att, desc, &na);
	Datum		db = heap_getattr(b, att, desc, &nb);
	Form_pg_attribute attr = TupleDescAttr(desc, att - 1);

	if (na || nb)
		return na && nb;
	return datum_image_eq(da, db, attr->attbyval, attr->attlen);
}

PG_FUNCTION_INFO_V1(textfp_dedup);
Datum
textfp_dedup(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	DedupConfig *c;
	HeapTuple	newtup;
	HeapTuple	oldtup = NULL;
	TupleDesc	desc;
	Datum		doc;
	bool		isnull;
	bool		fp_null;
	Datum		fp = (Datum) 0;
	Datum		values[3 + DEDUP_MAX_SCOPE];
	char		nulls[3 + DEDUP_MAX_SCOPE];
	uint32		scope;
	Match		m;
	MemoryContext caller = CurrentMemoryContext;
	ErrorContextCallback errcb;
	int			cols[2];
	Datum		colvals[2];
	bool		colnulls[2];
	int			ncols = 0;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("textfp_dedup() was not called as a trigger")));
	c = dedup_get_config(td);
	desc = RelationGetDescr(td->tg_relation);
	if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
	{
		oldtup = td->tg_trigtuple;
		newtup = td->tg_newtuple;
	}
	else
		newtup = td->tg_trigtuple;

	errcb.callback = dedup_error_context;
	errcb.arg = c;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;

	/* an UPDATE that changes neither text, fingerprint nor scope stays as it was */
	if (oldtup != NULL && same_column(oldtup, newtup, desc, c->text_att) &&
		same_column(oldtup, newtup, desc, c->fp_att) &&
		(c->mode != DEDUP_MARK || same_column(oldtup, newtup, desc, c->mark_att)))
	{
		bool		same = true;

		for (int i = 0; i < c->nscope && same; i++)
			same = same_column(oldtup, newtup, desc, c->scope_att[i]);
		if (same)
		{
			error_context_stack = errcb.previous;
			return PointerGetDatum(newtup);
		}
	}

	doc = heap_getattr(newtup, c->text_att, desc, &isnull);
	fp_null = true;
	if (!isnull)
		fp = dedup_fingerprint(c, doc, &fp_null);
	cols[ncols] = c->fp_att;
	colvals[ncols] = fp;
	colnulls[ncols++] = fp_null;

	memset(&m, 0, sizeof(m));
	if (!fp_null)				/* NULL text or a featureless one never matches */
	{
		values[0] = fp;
		nulls[0] = ' ';
		values[1] = c->minhash ? Float8GetDatum(c->jaccard) : Int32GetDatum(c->radius);
		nulls[1] = ' ';
		values[2] = oldtup ? PointerGetDatum(&oldtup->t_self) : (Datum) 0;
		nulls[2] = oldtup ? ' ' : 'n';
		scope = scope_hash(c, newtup, desc, values, nulls);

		dedup_take_locks(c, scope, fp);

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		/* a fresh snapshot sees what committed before our locks were granted */
		lookup(c, td->tg_relation->rd_rel->relowner, values, nulls, GetLatestSnapshot(), caller, &m);
		if (m.found && IsolationUsesXactSnapshot())
		{
			Match		mine;

			lookup(c, td->tg_relation->rd_rel->relowner, values, nulls, GetTransactionSnapshot(), caller, &mine);
			if (!mine.found ||
				(c->mode == DEDUP_MARK && (mine.score != m.score || strcmp(mine.key_text, m.key_text) != 0)))
				ereport(ERROR,
						(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
						 errmsg("could not serialize access due to a concurrent near-duplicate insert"),
						 errdetail("%s, committed after this transaction's snapshot was taken, is a near duplicate of the new row.",
								   key_for_message(c, desc, &m)),
						 errhint("The transaction might succeed if retried."),
						 errtableconstraint(td->tg_relation, c->trigname)));
			m = mine;
		}
		SPI_finish();
	}

	if (m.found && c->mode == DEDUP_REJECT)
		ereport(ERROR,
				(errcode(ERRCODE_UNIQUE_VIOLATION),
				 errmsg("new row for relation \"%s\" is a near duplicate of an existing row, rejected by \"%s\"",
						RelationGetRelationName(td->tg_relation), c->trigname),
				 c->minhash
				 ? errdetail("%s has Jaccard estimate %g with the new row; the trigger rejects %g and above.",
							 key_for_message(c, desc, &m), m.score, c->jaccard)
				 : errdetail("%s is at Hamming distance %d from the new row; the trigger rejects distances up to %d.",
							 key_for_message(c, desc, &m), (int) m.score, c->radius),
				 errhint("Change the text, or use the trigger's mode=mark to keep near duplicates with a link to their match, or mode=skip to drop them (ON CONFLICT DO NOTHING cannot catch this error)."),
				 errtableconstraint(td->tg_relation, c->trigname)));
	error_context_stack = errcb.previous;
	if (m.found && c->mode == DEDUP_SKIP)
		return PointerGetDatum(NULL);
	if (c->mode == DEDUP_MARK)
	{
		cols[ncols] = c->mark_att;
		colvals[ncols] = m.found ? m.key : (Datum) 0;
		colnulls[ncols++] = !m.found || m.key_null;
	}
	return PointerGetDatum(heap_modify_tuple_by_cols(newtup, desc, ncols, cols, colvals, colnulls));
}
