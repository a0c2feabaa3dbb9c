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
 *      under a shared (table, scope) lock that the table owner's large
 *      transactions take exclusive instead (dedup_locks.c);
 *   3. with the locks held, an index lookup under a fresh snapshot, as the
 *      table's owner past row-level security, finds whether the row has a
 *      near duplicate; at REPEATABLE READ and SERIALIZABLE a match the
 *      transaction's own snapshot cannot see raises 40001;
 *   4. what the trigger writes (the mark) or says (DETAIL) names only a row
 *      the writer could have found itself: a second lookup runs with the
 *      writer's privileges and policies.  The trigger's options are chosen
 *      by whoever holds TRIGGER on the table, so they cannot be trusted to
 *      keep hidden columns hidden.
 *
 * The configuration (dedup_config.c) is parsed and checked at the first call
 * of each trigger and kept per backend.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"

#include "dedup.h"

/* The nearest match of one lookup. */
typedef struct Match
{
	bool		found;
	Datum		key;			/* in the caller's context */
	bool		key_null;
	char	   *key_text;
	double		score;			/* distance or Jaccard estimate */
} Match;

/* One row's lookups: the trigger, the table, the parameters. */
typedef struct Lookup
{
	DedupConfig *c;
	Relation	rel;
	bool		update;
	Datum		values[DEDUP_NPARAMS];
	char		nulls[DEDUP_NPARAMS];
	MemoryContext caller;
} Lookup;

/*
 * Runs one of the prepared lookups under snap, as the table's owner past
 * row-level security (as PostgreSQL's foreign-key checks do: a policy that
 * hides rows from the writer does not hide duplicates) or, with
 * as_owner false, as the writer.
 */
static void
run_lookup(Lookup *l, bool as_owner, Snapshot snap, Match *m)
{
	DedupConfig *c = l->c;
	int			rc;
	int			level;
	Oid			save_userid;
	int			save_sec;

	memset(m, 0, sizeof(*m));
	level = dedup_lookup_settings();
	GetUserIdAndSecContext(&save_userid, &save_sec);
	if (as_owner)
		SetUserIdAndSecContext(l->rel->rd_rel->relowner,
							   save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS);
	rc = SPI_execute_snapshot(as_owner ? c->owner_plan : c->writer_plan, l->values, l->nulls,
							  snap, InvalidSnapshot, false, false, 1);
	SetUserIdAndSecContext(save_userid, save_sec);
	AtEOXact_GUC(true, level);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "textfp_dedup lookup failed: %s", SPI_result_code_string(rc));
	if (SPI_processed > 0)
	{
		HeapTuple	tup = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		Datum		d;
		MemoryContext old;

		m->found = true;
		d = SPI_getbinval(tup, desc, 2, &isnull);
		m->score = c->minhash ? DatumGetFloat8(d) : (double) DatumGetInt32(d);
		d = SPI_getbinval(tup, desc, 1, &m->key_null);
		old = MemoryContextSwitchTo(l->caller);
		m->key = m->key_null ? (Datum) 0 : datumCopy(d, c->key_byval, c->key_len);
		m->key_text = m->key_null ? pstrdup("null") : SPI_getvalue(tup, desc, 1);
		MemoryContextSwitchTo(old);
	}
}

/*
 * The writer may SELECT the columns the lookup reads (key, fingerprint,
 * scope) and the text column: the new row's text may hold a value the writer
 * did not supply (a default, another trigger's), which the trigger must not
 * compare on its behalf.
 */
static bool
writer_may_read(const DedupConfig *c)
{
	Oid			user = GetUserId();

	if (pg_class_aclcheck(c->relid, user, ACL_SELECT) == ACLCHECK_OK)
		return true;
	if (pg_attribute_aclcheck(c->relid, c->key_att, user, ACL_SELECT) != ACLCHECK_OK ||
		pg_attribute_aclcheck(c->relid, c->fp_att, user, ACL_SELECT) != ACLCHECK_OK ||
		pg_attribute_aclcheck(c->relid, c->text_att, user, ACL_SELECT) != ACLCHECK_OK)
		return false;
	for (int i = 0; i < c->nscope; i++)
		if (pg_attribute_aclcheck(c->relid, c->scope_att[i], user, ACL_SELECT) != ACLCHECK_OK)
			return false;
	return true;
}

/* Row-level security applies to the writer (with row_security on, as in the lookups). */
static bool
writer_under_rls(const Lookup *l)
{
	int			level;
	bool		rls;

	if (!l->rel->rd_rel->relrowsecurity)
		return false;
	level = dedup_lookup_settings();
	rls = check_enable_rls(l->c->relid, InvalidOid, true) == RLS_ENABLED;

	AtEOXact_GUC(true, level);
	return rls;
}

/*
 * The nearest match the writer may read under snap: the one its own SELECT
 * would find, with its column privileges and its row-level security
 * policies; none if it may not read the key, fingerprint, scope or text
 * columns (a row's key next to "near my text" would tell a hidden
 * fingerprint or scope).  On UPDATE the rows with the updated row's old key
 * are left out.  The owner's match under the same snapshot, when given, is
 * the answer without a second lookup when the writer reads every row.
 */
static void
writer_lookup(Lookup *l, Snapshot snap, const Match *owner_match, Match *w)
{
	memset(w, 0, sizeof(*w));
	if (!writer_may_read(l->c))
		return;
	if (owner_match != NULL && !l->update && !writer_under_rls(l))
	{
		*w = *owner_match;
		return;
	}
	run_lookup(l, false, snap, w);
}

static bool
same_match(const Match *a, const Match *b)
{
	if (!a->found || !b->found)
		return a->found == b->found;
	return a->score == b->score && a->key_null == b->key_null && strcmp(a->key_text, b->key_text) == 0;
}

/* "Key (id)=(42)" for a match, else the fallback. */
static char *
key_phrase(const DedupConfig *c, TupleDesc desc, const Match *w, const char *fallback)
{
	if (!w->found)
		return pstrdup(fallback);
	return psprintf("Key (%s)=(%s)", SPI_fname(desc, c->key_att), w->key_text);
}

static void pg_attribute_noreturn()
reject(Lookup *l, const Match *w)
{
	DedupConfig *c = l->c;
	TupleDesc	desc = RelationGetDescr(l->rel);

	ereport(ERROR,
			(errcode(ERRCODE_UNIQUE_VIOLATION),
			 errmsg("new row for relation \"%s\" is a near duplicate of an existing row, rejected by \"%s\"",
					RelationGetRelationName(l->rel), c->trigname),
	/* the score only with the key: alone, it would measure a hidden row */
			 !w->found
			 ? (c->minhash
				? errdetail("An existing row is a near duplicate of the new row; the trigger rejects Jaccard estimates of %.15g and above.",
							c->jaccard)
				: errdetail("An existing row is a near duplicate of the new row; the trigger rejects distances up to %d.",
							c->radius))
			 : c->minhash
			 ? errdetail("%s has Jaccard estimate %.15g with the new row; the trigger rejects %.15g and above.",
						 key_phrase(c, desc, w, NULL), w->score, c->jaccard)
			 : errdetail("%s is at Hamming distance %d from the new row; the trigger rejects distances up to %d.",
						 key_phrase(c, desc, w, NULL), (int) w->score, c->radius),
			 errhint("Change the text, or use the trigger's mode=mark to keep near duplicates with a link to their match, or mode=skip to drop them (ON CONFLICT DO NOTHING cannot catch this error)."),
			 errtableconstraint(l->rel, c->trigname)));
}

/* 40001: a near duplicate committed after the transaction's snapshot (w: the writer's view of it). */
static void pg_attribute_noreturn()
serialization_failure(Lookup *l, const Match *w)
{
	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("could not serialize access due to a concurrent near-duplicate insert"),
			 errdetail("%s, committed after this transaction's snapshot was taken, is a near duplicate of the new row.",
					   key_phrase(l->c, RelationGetDescr(l->rel), w, "An existing row")),
			 errhint("The transaction might succeed if retried."),
			 errtableconstraint(l->rel, l->c->trigname)));
}

/*
 * Mode mark at REPEATABLE READ and SERIALIZABLE: the match to write is the
 * writer's under the transaction's snapshot, and it must be the one under
 * the latest, else 40001.  A near duplicate the writer may not read changes
 * nothing it would write, so it raises nothing (which would tell it exists).
 */
static void
mark_under_snapshot(Lookup *l, Snapshot latest, const Match *owner_latest, Match *w)
{
	Match		now;

	writer_lookup(l, latest, owner_latest, &now);
	writer_lookup(l, GetTransactionSnapshot(), NULL, w);
	if (same_match(&now, w))
		return;
	if (!w->found)
		serialization_failure(l, &now);
	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("could not serialize access due to a concurrent change of the nearest near duplicate"),
			 errdetail("The nearest near duplicate of the new row is %s now, %s in this transaction's snapshot.",
					   key_phrase(l->c, RelationGetDescr(l->rel), &now, "none"),
					   key_phrase(l->c, RelationGetDescr(l->rel), w, "none")),
			 errhint("The transaction might succeed if retried."),
			 errtableconstraint(l->rel, l->c->trigname)));
}

static uint32
scope_hash(DedupConfig *c, HeapTuple tup, TupleDesc desc, Lookup *l)
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
		l->values[DEDUP_PARAM_SCOPE + i] = d;
		l->nulls[DEDUP_PARAM_SCOPE + i] = isnull ? 'n' : ' ';
	}
	return h;
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

/* A value the trigger writes passes the column's domain, as an INSERT's would. */
static void
check_domain(DedupConfig *c, Oid domain, void **extra, Datum value, bool isnull)
{
	if (OidIsValid(domain))
		domain_check(value, isnull, domain, extra, c->cxt);
}

/* What the trigger returns for one row: the row to store, or NULL to skip it. */
static HeapTuple
dedup_row(DedupConfig *c, TriggerData *td)
{
	TupleDesc	desc = RelationGetDescr(td->tg_relation);
	HeapTuple	newtup;
	HeapTuple	oldtup = NULL;
	Datum		doc;
	bool		isnull;
	bool		fp_null;
	Datum		fp = (Datum) 0;
	uint32		scope;
	Match		m;
	Match		w;
	Lookup		l;
	int			cols[2];
	Datum		colvals[2];
	bool		colnulls[2];
	int			ncols = 0;

	if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
	{
		oldtup = td->tg_trigtuple;
		newtup = td->tg_newtuple;
	}
	else
		newtup = td->tg_trigtuple;

	/* an UPDATE that changes neither text, fingerprint nor scope stays as it was */
	if (oldtup != NULL && same_column(oldtup, newtup, desc, c->text_att) &&
		same_column(oldtup, newtup, desc, c->fp_att) &&
		(c->mode != DEDUP_MARK || same_column(oldtup, newtup, desc, c->mark_att)))
	{
		bool		same = true;

		for (int i = 0; i < c->nscope && same; i++)
			same = same_column(oldtup, newtup, desc, c->scope_att[i]);
		if (same)
			return newtup;
	}

	doc = heap_getattr(newtup, c->text_att, desc, &isnull);
	fp_null = true;
	if (!isnull)
		fp = dedup_fingerprint(c, doc, &fp_null);
	check_domain(c, c->fp_domain, &c->fp_domain_extra, fp, fp_null);
	cols[ncols] = c->fp_att;
	colvals[ncols] = fp;
	colnulls[ncols++] = fp_null;

	memset(&m, 0, sizeof(m));
	memset(&w, 0, sizeof(w));
	if (!fp_null)				/* NULL text or a featureless one never matches */
	{
		Snapshot	latest;

		l.c = c;
		l.rel = td->tg_relation;
		l.update = oldtup != NULL;
		l.caller = CurrentMemoryContext;
		l.values[0] = fp;
		l.nulls[0] = ' ';
		l.values[1] = c->minhash ? Float8GetDatum(c->jaccard) : Int32GetDatum(c->radius);
		l.nulls[1] = ' ';
		l.values[2] = oldtup ? PointerGetDatum(&oldtup->t_self) : (Datum) 0;
		l.nulls[2] = oldtup ? ' ' : 'n';
		l.values[3] = BoolGetDatum(oldtup != NULL);
		l.nulls[3] = ' ';
		l.values[4] = oldtup ? heap_getattr(oldtup, c->key_att, desc, &isnull) : (Datum) 0;
		l.nulls[4] = oldtup && !isnull ? ' ' : 'n';
		scope = scope_hash(c, newtup, desc, &l);

		dedup_take_locks(&c->locks, scope, fp);

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		/* a fresh snapshot sees what committed before our locks were granted */
		latest = RegisterSnapshot(GetLatestSnapshot());
		run_lookup(&l, true, latest, &m);
		if (m.found && !IsolationUsesXactSnapshot())
		{
			if (c->mode != DEDUP_SKIP)
				writer_lookup(&l, latest, &m, &w);
		}
		else if (m.found && c->mode == DEDUP_MARK)
			mark_under_snapshot(&l, latest, &m, &w);
		else if (m.found)
		{
			Match		mine;

			/* acting on a row the transaction cannot see would break its snapshot */
			run_lookup(&l, true, GetTransactionSnapshot(), &mine);
			if (!mine.found)
			{
				writer_lookup(&l, latest, &m, &w);
				serialization_failure(&l, &w);
			}
			m = mine;
			if (c->mode == DEDUP_REJECT)
				writer_lookup(&l, GetTransactionSnapshot(), &m, &w);
		}
		UnregisterSnapshot(latest);
		SPI_finish();
	}

	if (m.found && c->mode == DEDUP_REJECT)
		reject(&l, &w);
	if (m.found && c->mode == DEDUP_SKIP)
		return NULL;
	if (c->mode == DEDUP_MARK)
	{
		/* the nearest match the writer may read, or none */
		check_domain(c, c->mark_domain, &c->mark_domain_extra, w.key, !w.found || w.key_null);
		cols[ncols] = c->mark_att;
		colvals[ncols] = w.found ? w.key : (Datum) 0;
		colnulls[ncols++] = !w.found || w.key_null;
	}
	return heap_modify_tuple_by_cols(newtup, desc, ncols, cols, colvals, colnulls);
}

PG_FUNCTION_INFO_V1(textfp_dedup);
Datum
textfp_dedup(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	DedupConfig *c;
	HeapTuple volatile result = NULL;	/* set in PG_TRY, read after it */
	ErrorContextCallback errcb;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("textfp_dedup() was not called as a trigger")));
	c = dedup_get_config(td);
	errcb.callback = dedup_error_context;
	errcb.arg = c;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;
	/* the configuration stays while in use, even if its table changes meanwhile */
	PG_TRY();
	{
		result = dedup_row(c, td);
	}
	PG_FINALLY();
	{
		dedup_release_config(c);
	}
	PG_END_TRY();
	error_context_stack = errcb.previous;
	return PointerGetDatum(result);
}
