/*
 * track_pending.c: the rows textfp_track_dedup() let in whose store rows
 * are not written yet.  The store is written by the AFTER trigger, which
 * runs once the statement is done, so the rows before a row in the same
 * statement (a multi-row INSERT, INSERT ... SELECT, COPY, an UPDATE of many
 * rows) are not in the store when its BEFORE trigger looks: the dedup
 * trigger checks a new row against these too, as it does against the
 * store, so that a statement cannot bring in near duplicates of its own.
 *
 * The rows are kept per registration under the lock keys a near pair
 * shares (dedup_lock_keys()), so a lookup reads only the rows that may be
 * near.  They are forgotten all at once when the table has no AFTER event
 * pending any more (the statement is done: their store rows are written,
 * or they never came, left out by ON CONFLICT DO NOTHING or another BEFORE
 * trigger), and with the transaction; those of a subtransaction that
 * rolls back no longer count.
 */
#include "postgres.h"

#include "access/xact.h"
#include "commands/trigger.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "track.h"

typedef struct PendingRow
{
	SubTransactionId subxid;
	uint64		seq;			/* order of arrival, for rollbacks */
	Datum		key;
	Datum		fp;
	Datum		site;
	bool		site_null;
} PendingRow;

typedef struct PendingBucket
{
	uint32		lock_key;
	List	   *rows;
} PendingBucket;

typedef struct PendingAbort
{
	SubTransactionId subxid;	/* rows of it or of subtransactions after it ... */
	uint64		seq;			/* ... that came before this no longer count */
} PendingAbort;

/* the rows of one registration, in a memory context of their own */
typedef struct PendingSet
{
	Oid			config_relid;
	MemoryContext cxt;
	HTAB	   *buckets;
	List	   *aborts;
	uint64		seq;
} PendingSet;

/* in TopTransactionContext: NIL at every transaction's start */
static List *sets = NIL;
static bool callbacks_registered = false;

static void
xact_callback(XactEvent event, void *arg)
{
	/* the memory goes with TopTransactionContext */
	sets = NIL;
}

/*
 * A subtransaction that rolls back: the rows it and its children brought
 * no longer count (subtransaction ids grow, and subtransactions nest, so
 * those are the rows of ids from its on that came before now).
 */
static void
subxact_callback(SubXactEvent event, SubTransactionId mySubid, SubTransactionId parentSubid, void *arg)
{
	ListCell   *lc;

	if (event != SUBXACT_EVENT_ABORT_SUB)
		return;
	foreach(lc, sets)
	{
		PendingSet *s = (PendingSet *) lfirst(lc);
		MemoryContext old;
		PendingAbort *a;

		if (s->buckets == NULL)
			continue;
		old = MemoryContextSwitchTo(s->cxt);
		a = palloc(sizeof(PendingAbort));
		a->subxid = mySubid;
		a->seq = s->seq;
		s->aborts = lappend(s->aborts, a);
		MemoryContextSwitchTo(old);
	}
}

static bool
rolled_back(PendingSet *s, PendingRow *p)
{
	ListCell   *lc;

	foreach(lc, s->aborts)
	{
		PendingAbort *a = (PendingAbort *) lfirst(lc);

		if (p->subxid >= a->subxid && p->seq < a->seq)
			return true;
	}
	return false;
}

/* The rows of a registration: none once the table has no AFTER event pending. */
static PendingSet *
pending_set(TrackConfig *c, bool create)
{
	ListCell   *lc;
	PendingSet *s = NULL;

	foreach(lc, sets)
		if (((PendingSet *) lfirst(lc))->config_relid == c->config_relid)
			s = (PendingSet *) lfirst(lc);
	if (s != NULL && s->buckets != NULL && !AfterTriggerPendingOnRel(c->relid))
	{
		MemoryContextReset(s->cxt);
		s->buckets = NULL;
		s->aborts = NIL;
	}
	if (!create || (s != NULL && s->buckets != NULL))
		return s;
	if (!callbacks_registered)
	{
		RegisterXactCallback(xact_callback, NULL);
		RegisterSubXactCallback(subxact_callback, NULL);
		callbacks_registered = true;
	}
	if (s == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopTransactionContext);

		s = palloc0(sizeof(PendingSet));
		s->config_relid = c->config_relid;
		s->cxt = AllocSetContextCreate(TopTransactionContext, "textfp_track pending rows", ALLOCSET_DEFAULT_SIZES);
		sets = lappend(sets, s);
		MemoryContextSwitchTo(old);
	}
	{
		HASHCTL		ctl;

		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(uint32);
		ctl.entrysize = sizeof(PendingBucket);
		ctl.hcxt = s->cxt;
		s->buckets = hash_create("textfp_track pending rows", 256, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	return s;
}

/* A row the dedup trigger let in (key, fp, site of row): it counts until the statement is done. */
void
track_pending_add(TrackConfig *c, const TrackRow *row)
{
	PendingSet *s;
	MemoryContext old;
	PendingRow *p;
	int16		fplen;
	bool		fpbyval;
	uint32		keys[TFP_MINHASH_K_MAX + 1];
	int			n;

	if (row->fp_null)
		return;
	s = pending_set(c, true);
	get_typlenbyval(c->minhash ? textfp_objects()->minhash_sig : textfp_objects()->simhash64, &fplen, &fpbyval);
	old = MemoryContextSwitchTo(s->cxt);
	p = palloc0(sizeof(PendingRow));
	p->subxid = GetCurrentSubTransactionId();
	p->seq = s->seq++;
	p->key = datumCopy(row->key, c->key_byval, c->key_len);
	p->fp = datumCopy(row->fp, fpbyval, fplen);
	p->site_null = row->site_null || !c->site_att;
	if (!p->site_null)
		p->site = datumCopy(row->site, c->site_byval, c->site_len);
	n = dedup_lock_keys(&c->locks, 0, p->fp, keys);
	for (int i = 0; i < n; i++)
	{
		bool		found;
		PendingBucket *b = hash_search(s->buckets, &keys[i], HASH_ENTER, &found);

		if (!found)
			b->rows = NIL;
		b->rows = lappend(b->rows, p);
	}
	MemoryContextSwitchTo(old);
}

/*
 * A row let in before row in the statement and near it (within the
 * threshold, a candidate of the store's banding for minhash, in the dedup
 * scope), as track_near_in_scope() finds rows in the store: true, and its
 * key and score.
 */
bool
track_pending_near(TrackConfig *c, const TrackRow *row, Datum *key, double *score)
{
	PendingSet *s = pending_set(c, false);
	uint32		keys[TFP_MINHASH_K_MAX + 1];
	int			n;

	if (s == NULL || s->buckets == NULL || row->fp_null)
		return false;
	n = dedup_lock_keys(&c->locks, 0, row->fp, keys);
	for (int i = 0; i < n; i++)
	{
		PendingBucket *b = hash_search(s->buckets, &keys[i], HASH_FIND, NULL);
		ListCell   *lc;

		if (b == NULL)
			continue;
		foreach(lc, b->rows)
		{
			PendingRow *p = (PendingRow *) lfirst(lc);
			double		sc;

			CHECK_FOR_INTERRUPTS();
			if (rolled_back(s, p))
				continue;
			if (c->dedup_site &&
				(p->site_null || row->site_null
				 ? !(p->site_null && row->site_null)
				 : !datum_image_eq(p->site, row->site, c->site_byval, c->site_len)))
				continue;
			if (c->minhash && c->lsh_bands > 0)
			{
				/* the store's lookup takes only candidates of its banding (lsh_query.c) */
				MinhashSig *x = DatumGetMinhashSigP(p->fp);
				MinhashSig *y = DatumGetMinhashSigP(row->fp);

				if (tfp_minhash_is_featureless(x->values, x->k) || tfp_minhash_is_featureless(y->values, y->k) ||
					tfp_lsh_equal_bands(x->values, y->values, c->lsh_bands, c->lsh_rows,
										c->lsh_min_bands) < c->lsh_min_bands)
					continue;
			}
			sc = track_score(c, p->fp, row->fp);
			if (track_within(c, sc, c->threshold))
			{
				*key = p->key;
				*score = sc;
				return true;
			}
		}
	}
	return false;
}
