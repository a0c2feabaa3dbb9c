/*
 * track_near_mih.c: the near rows of a SimHash store read through its mih
 * index directly: the index's entries within the threshold with their codes
 * (mih_near_hits(), so each row's distance without a function call), then
 * each row version from the heap under the caller's snapshot.  The same
 * rows and values as the store's near-row query (track_near()'s SPI plan, a
 * bitmap heap scan of the same index), without the executor, the TID bitmap,
 * SPI's copies of every row, the distance function's calls and the lookup's
 * settings, for every write and relink that asks for near rows.
 * track_near() takes this path at READ COMMITTED and REPEATABLE READ, the
 * plan at SERIALIZABLE (its predicate locks stay the executor's).
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_collation.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/datum.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "../mih.h"
#include "track.h"

/* The number of the store's column name (by name: a store made by an older release has other numbers). */
static AttrNumber
store_att(Relation store, const char *name)
{
	TupleDesc	d = RelationGetDescr(store);

	for (int i = 0; i < d->natts; i++)
	{
		Form_pg_attribute a = TupleDescAttr(d, i);

		if (!a->attisdropped && strcmp(NameStr(a->attname), name) == 0)
			return a->attnum;
	}
	elog(ERROR, "the textfp store \"%s\" has no column \"%s\"", RelationGetRelationName(store), name);
	return InvalidAttrNumber;	/* keep the compiler quiet */
}

/* The store's mih index on fp, opened; NULL if there is none. */
static Relation
open_near_index(Relation store, AttrNumber fp_att)
{
	List	   *ids = RelationGetIndexList(store);
	ListCell   *lc;
	Relation	found = NULL;

	foreach(lc, ids)
	{
		Relation	ix = index_open(lfirst_oid(lc), AccessShareLock);

		if (found == NULL && ix->rd_indam->amgetbitmap == mih_get_bitmap &&
			ix->rd_index->indnatts == 1 && ix->rd_index->indkey.values[0] == fp_att &&
			ix->rd_indpred == NIL && ix->rd_index->indisvalid && ix->rd_index->indisready)
			found = ix;
		else
			index_close(ix, AccessShareLock);
	}
	list_free(ids);
	return found;
}

static int
hit_cmp(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) &((const MihHit *) a)->tid, (ItemPointer) &((const MihHit *) b)->tid);
}

/*
 * The rows of the store within the threshold of fp as snap shows them (the
 * row of key itself left out), into *out (caller's memory) unsorted, score
 * the Hamming distance and earlier set against (at, key); -1 if the store
 * has no usable mih index on fp.
 */
int
track_near_mih(TrackConfig *c, Datum fp, Datum at, Datum key, TrackNear **out, Snapshot snap)
{
	int			radius = (int) c->threshold;
	uint64		q = DatumGetSimhash64(fp);
	Relation	store;
	Relation	index;
	AttrNumber	att_key,
				att_at,
				att_site,
				att_story;
	MihHit	   *hits;
	int			nhits;
	TrackNear  *r;
	int			n = 0;
	IndexFetchTableData *fetch;
	TupleTableSlot *slot;

	if (c->minhash || radius < 0 || radius > SIMHASH_BITS)
		return -1;
	store = table_open(c->store_relid, AccessShareLock);
	index = open_near_index(store, store_att(store, "fp"));
	if (index == NULL)
	{
		table_close(store, AccessShareLock);
		return -1;
	}
	att_key = store_att(store, "key");
	att_at = store_att(store, "at");
	att_site = store_att(store, "site");
	att_story = store_att(store, "story");
	nhits = mih_near_hits(index, q, radius, snap, &hits);
	index_close(index, AccessShareLock);
	/* by heap page; an entry a flush wrote twice (mihpending.c) read once */
	qsort(hits, nhits, sizeof(MihHit), hit_cmp);
	r = palloc(sizeof(TrackNear) * Max(nhits, 1));
	fetch = table_index_fetch_begin(store);
	slot = table_slot_create(store, NULL);
	for (int i = 0; i < nhits; i++)
	{
		bool		call_again = false;
		bool		all_dead = false;
		ItemPointerData tid = hits[i].tid;
		bool		isnull;
		Datum		k;
		TrackNear  *y;

		CHECK_FOR_INTERRUPTS();
		if (i > 0 && ItemPointerCompare(&hits[i].tid, &hits[i - 1].tid) == 0)
			continue;
		if (!table_index_fetch_tuple(fetch, &tid, snap, slot, &call_again, &all_dead))
			continue;
		k = slot_getattr(slot, att_key, &isnull);
		if (DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, k, key)))
		{
			ExecClearTuple(slot);
			continue;
		}
		y = &r[n++];
		y->key = datumCopy(k, c->key_byval, c->key_len);
		y->at = datumCopy(slot_getattr(slot, att_at, &isnull), c->time_byval, c->time_len);
		y->story = datumCopy(slot_getattr(slot, att_story, &isnull), c->key_byval, c->key_len);
		y->site = slot_getattr(slot, att_site, &y->site_null);
		y->site = c->site_att && !y->site_null ? datumCopy(y->site, c->site_byval, c->site_len) : (Datum) 0;
		y->score = (double) __builtin_popcountll(hits[i].code ^ q);
		y->earlier = track_compare(c, y->at, y->key, at, key) < 0;
		y->idx = -1;
		ExecClearTuple(slot);
	}
	ExecDropSingleTupleTableSlot(slot);
	table_index_fetch_end(fetch);
	table_close(store, AccessShareLock);
	if (hits)
		pfree(hits);
	*out = r;
	return n;
}
