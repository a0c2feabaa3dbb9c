/*
 * track_trigger.c: the triggers textfp_track() puts on a table.
 *
 *   textfp_track_trigger()  AFTER INSERT OR UPDATE OR DELETE FOR EACH ROW,
 *                           and AFTER TRUNCATE FOR EACH STATEMENT: keeps the
 *                           store (fingerprint, link, story) of every row
 *                           current, in the writer's transaction;
 *   textfp_track_dedup()    BEFORE INSERT OR UPDATE FOR EACH ROW, when the
 *                           registration rejects or skips near duplicates.
 *
 * Both take two arguments, the registration's configuration table and its
 * store, and check them against the table they fire on (track_config.c).  The store is written
 * as the table's owner; the writer needs no privilege on it.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "miscadmin.h"
#include "catalog/pg_collation.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "track.h"

typedef struct TrackCall
{
	TrackConfig *c;
	Relation	rel;
} TrackCall;

static void
track_context(void *arg)
{
	TrackCall  *t = (TrackCall *) arg;

	errcontext("textfp_track on table \"%s\"", RelationGetRelationName(t->rel));
}

static const char *
config_argument(TriggerData *td, const char *fname)
{
	if (td->tg_trigger->tgnargs != 2)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("%s() takes two arguments, the registration's configuration table and store", fname),
				 errhint("textfp_track() makes its triggers; do not create them by hand.")));
	return td->tg_trigger->tgargs[0];
}

/* The store row of a row of T (key, time, site, fingerprint), into row. */
static void
row_of(TrackConfig *c, HeapTuple tup, TupleDesc desc, TrackRow *row, bool with_fp)
{
	bool		isnull;
	Datum		doc;

	memset(row, 0, sizeof(*row));
	row->key = heap_getattr(tup, c->key_att, desc, &isnull);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NOT_NULL_VIOLATION),
				 errmsg("a tracked row needs a key: column \"%s\" is NULL",
						NameStr(TupleDescAttr(desc, c->key_att - 1)->attname))));
	row->at = heap_getattr(tup, c->time_att, desc, &isnull);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NOT_NULL_VIOLATION),
				 errmsg("a tracked row needs a time: column \"%s\" is NULL",
						NameStr(TupleDescAttr(desc, c->time_att - 1)->attname)),
				 errdetail("Stories are made in time order.")));
	row->site_null = true;
	if (c->site_att)
		row->site = heap_getattr(tup, c->site_att, desc, &row->site_null);
	row->fp_null = true;
	doc = heap_getattr(tup, c->text_att, desc, &isnull);
	row->doc = doc;
	row->doc_null = isnull;
	if (with_fp && !isnull)
		row->fp = fpcall_fingerprint(&c->fp, doc, &row->fp_null);
	row->story = row->key;
	row->source_null = true;
	row->score_null = true;
}

static bool
same_column(HeapTuple a, HeapTuple b, TupleDesc desc, AttrNumber att)
{
	bool		na,
				nb;
	Datum		da,
				db;
	Form_pg_attribute attr;

	if (att == 0)
		return true;
	da = heap_getattr(a, att, desc, &na);
	db = heap_getattr(b, att, desc, &nb);
	attr = TupleDescAttr(desc, att - 1);
	if (na || nb)
		return na && nb;
	return datum_image_eq(da, db, attr->attbyval, attr->attlen);
}

/* A row gone (or gone from where it was): its store row, and what linked to it. */
static void
forget_row(TrackConfig *c, Datum key)
{
	TrackRow	old;

	if (c->state == TRACK_BUILDING)
	{
		(void) track_delete_row(c, key, NULL);
		return;
	}
	if (!track_read_row(c, key, &old, GetLatestSnapshot()))
		return;
	if (!old.fp_null)
		track_lock_row(c, old.fp);
	if (track_delete_row(c, key, &old))
		track_relink_from(c, old.fp, old.fp_null, old.at, old.key, false);
}

static void
add_row(TrackConfig *c, TrackRow *row)
{
	if (c->state == TRACK_BUILDING)
		track_write_row(c, row);	/* fingerprint only: textfp_track() links later */
	else
		track_link_new(c, row, GetLatestSnapshot());
}

PG_FUNCTION_INFO_V1(textfp_track_trigger);
Datum
textfp_track_trigger(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	const char *config;
	TrackCall	t;
	ErrorContextCallback errcb;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("textfp_track_trigger() was not called as a trigger")));
	if (!TRIGGER_FIRED_AFTER(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("textfp_track_trigger() must fire AFTER"),
				 errhint("textfp_track() makes its triggers; do not create them by hand.")));
	config = config_argument(td, "textfp_track_trigger");
	t.rel = td->tg_relation;
	t.c = track_get_config_by_name(config, t.rel);
	errcb.callback = track_context;
	errcb.arg = &t;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;
	PG_TRY();
	{
		TrackConfig *c = t.c;
		TupleDesc	desc = RelationGetDescr(t.rel);

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
		{
			Oid			save_userid;
			int			save_sec;
			int			level;

			GetUserIdAndSecContext(&save_userid, &save_sec);
			SetUserIdAndSecContext(c->owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
			level = NewGUCNestLevel();
			if (SPI_execute(psprintf("TRUNCATE ONLY %s, %s, %s, %s, %s", c->store_name, c->stories_name, c->changes_name,
									 c->reprints_name, c->reprint_changes_name),
							false, 0) != SPI_OK_UTILITY)
				elog(ERROR, "TRUNCATE of the store failed");
			AtEOXact_GUC(false, level);	/* nothing the owner's code set outlives it */
			SetUserIdAndSecContext(save_userid, save_sec);
		}
		else if (!TRIGGER_FIRED_FOR_ROW(td->tg_event))
			ereport(ERROR,
					(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
					 errmsg("textfp_track_trigger() fires for each row, and for TRUNCATE"),
					 errhint("textfp_track() makes its triggers; do not create them by hand.")));
		else if (TRIGGER_FIRED_BY_INSERT(td->tg_event))
		{
			TrackRow	row;

			row_of(c, td->tg_trigtuple, desc, &row, true);
			track_check_row_width(c, row.key, row.site, row.site_null);
			add_row(c, &row);
		}
		else if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
		{
			TrackRow	row;

			row_of(c, td->tg_trigtuple, desc, &row, false);
			forget_row(c, row.key);
		}
		else
		{
			HeapTuple	oldtup = td->tg_trigtuple;
			HeapTuple	newtup = td->tg_newtuple;
			bool		same_key = same_column(oldtup, newtup, desc, c->key_att);
			bool		same_text = same_column(oldtup, newtup, desc, c->text_att);
			bool		same_time = same_column(oldtup, newtup, desc, c->time_att);
			bool		same_site = same_column(oldtup, newtup, desc, c->site_att);

			if (!same_key || !same_text || !same_time)
			{
				TrackRow	old,
							row;

				/* as if the old row went and the new one came */
				row_of(c, oldtup, desc, &old, false);
				row_of(c, newtup, desc, &row, same_key && same_text ? false : true);
				if (same_key && same_text)
				{
					TrackRow	stored;

					if (track_read_row(c, row.key, &stored, GetLatestSnapshot()))
					{
						row.fp = stored.fp;
						row.fp_null = stored.fp_null;
					}
					else
						row_of(c, newtup, desc, &row, true);
				}
				track_check_row_width(c, row.key, row.site, row.site_null);
				forget_row(c, old.key);
				add_row(c, &row);
			}
			else if (!same_site)
			{
				TrackRow	row;

				row_of(c, newtup, desc, &row, false);
				track_check_row_width(c, row.key, row.site, row.site_null);
				track_write_site(c, row.key, row.at, row.site, row.site_null);
			}
		}
		if (TRIGGER_FIRED_FOR_ROW(td->tg_event) && c->state == TRACK_READY)
			track_maybe_fold(c);
		SPI_finish();
	}
	PG_FINALLY();
	{
		track_release_config(t.c);
		error_context_stack = errcb.previous;
	}
	PG_END_TRY();
	return PointerGetDatum(NULL);
}

/*
 * textfp_track_dedup(): BEFORE INSERT OR UPDATE FOR EACH ROW of a
 * registration with dedup => 'reject' or 'skip': a row near an existing one
 * (within the threshold, and of the same site with dedup_scope => 'site') is
 * rejected (23505) or left out; rows let in earlier in the same statement,
 * whose store rows the AFTER trigger writes only after it, count as well
 * (track_pending.c).  Race-free as textfp_dedup is: the row's
 * lock keys, then a fresh look; at REPEATABLE READ and SERIALIZABLE a match
 * only a fresh snapshot shows raises 40001.  The DETAIL names the existing
 * row only to a writer that may read the store, which names it anyway.
 */
PG_FUNCTION_INFO_V1(textfp_track_dedup);
Datum
textfp_track_dedup(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	const char *config;
	TrackCall	t;
	ErrorContextCallback errcb;
	HeapTuple	newtup;
	HeapTuple	result;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("textfp_track_dedup() was not called as a trigger")));
	if (!TRIGGER_FIRED_BEFORE(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		TRIGGER_FIRED_BY_DELETE(td->tg_event) || TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("textfp_track_dedup() must fire BEFORE INSERT OR UPDATE FOR EACH ROW"),
				 errhint("textfp_track() makes its triggers; do not create them by hand.")));
	config = config_argument(td, "textfp_track_dedup");
	newtup = TRIGGER_FIRED_BY_UPDATE(td->tg_event) ? td->tg_newtuple : td->tg_trigtuple;
	result = newtup;
	t.rel = td->tg_relation;
	t.c = track_get_config_by_name(config, t.rel);
	errcb.callback = track_context;
	errcb.arg = &t;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;
	PG_TRY();
	{
		TrackConfig *c = t.c;
		TupleDesc	desc = RelationGetDescr(t.rel);
		TrackRow	row;
		bool		unchanged = false;

		if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
			unchanged = same_column(td->tg_trigtuple, newtup, desc, c->text_att) &&
				same_column(td->tg_trigtuple, newtup, desc, c->site_att);
		if (!unchanged && c->dedup != TRACK_DEDUP_OFF && c->state != TRACK_BUILDING)
		{
			row_of(c, newtup, desc, &row, true);
			if (!row.fp_null)
			{
				TrackNear  *near;
				int			n;
				int			hit = -1;
				Datum		old_key = (Datum) 0;
				bool		is_update = TRIGGER_FIRED_BY_UPDATE(td->tg_event);
				Datum		pending_key = (Datum) 0;
				double		pending_score = 0;
				bool		pending_hit;

				if (is_update)
				{
					bool		isnull;

					old_key = heap_getattr(td->tg_trigtuple, c->key_att, desc, &isnull);
				}
				if (SPI_connect() != SPI_OK_CONNECT)
					elog(ERROR, "SPI_connect failed");
				track_lock_row(c, row.fp);
				n = track_near_in_scope(c, &row, &near, GetLatestSnapshot());
				for (int i = 0; i < n && hit < 0; i++)
					if (!is_update || !DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, near[i].key, old_key)))
						hit = i;
				/* rows let in before this one in the same statement: not in the store yet */
				pending_hit = hit < 0 && track_pending_near(c, &row, &pending_key, &pending_score);
				if (hit >= 0 && IsolationUsesXactSnapshot())
				{
					TrackNear  *mine;
					int			m = track_near_in_scope(c, &row, &mine, GetTransactionSnapshot());
					bool		seen = false;

					for (int i = 0; i < m && !seen; i++)
						seen = !is_update || !DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, mine[i].key, old_key));
					if (!seen)
						ereport(ERROR,
								(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
								 errmsg("could not serialize access due to a concurrent near-duplicate insert"),
								 errdetail("A near duplicate of the new row committed after this transaction's snapshot was taken."),
								 errhint("The transaction might succeed if retried.")));
				}
				if ((hit >= 0 || pending_hit) && c->dedup == TRACK_DEDUP_REJECT)
				{
					bool		may_read = pg_class_aclcheck(c->store_relid, GetUserId(), ACL_SELECT) == ACLCHECK_OK;
					Datum		hit_key = hit >= 0 ? near[hit].key : pending_key;
					double		hit_score = hit >= 0 ? near[hit].score : pending_score;

					ereport(ERROR,
							(errcode(ERRCODE_UNIQUE_VIOLATION),
							 errmsg("new row for relation \"%s\" is a near duplicate of an existing row, rejected by textfp_track",
									RelationGetRelationName(t.rel)),
							 may_read
							 ? (c->minhash
								? errdetail("Key %s has Jaccard estimate %.15g with the new row; the registration rejects %.15g and above.",
											track_key_text(c, hit_key), hit_score, c->threshold)
								: errdetail("Key %s is at Hamming distance %d from the new row; the registration rejects distances up to %d.",
											track_key_text(c, hit_key), (int) hit_score, (int) c->threshold))
							 : errdetail("An existing row is a near duplicate of the new row."),
							 errhint("Change the text, or set the registration's dedup to 'off' (textfp_track_set) to keep near duplicates as links in their story."),
							 errtableconstraint(t.rel, "textfp_track_dedup")));
				}
				if (hit >= 0 || pending_hit)
					result = NULL;	/* skip */
				else
					track_pending_add(c, &row);
				SPI_finish();
			}
		}
	}
	PG_FINALLY();
	{
		track_release_config(t.c);
		error_context_stack = errcb.previous;
	}
	PG_END_TRY();
	return PointerGetDatum(result);
}
