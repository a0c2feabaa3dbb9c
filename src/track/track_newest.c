/*
 * track_newest.c: the link of a new SimHash row that no near row comes
 * after (the usual insert: rows come in time order), without reading every
 * near row.
 *
 * The rule (track_link.c) takes the nearest earlier row whose story passes
 * the cohesion test, ties to the earliest (at, key).  The store's mih index
 * knows each near row's fingerprint, so its distance, before the row is
 * read (mih_near_hits(): the index's entries, no executor, no TID bitmap):
 * the near rows are read from the heap one distance at a time, nearest
 * first, and reading stops at the distance where a candidate passes, where
 * the query path (track_near()) reads every near row through SPI, copies it
 * out and sorts them all by fmgr comparisons.
 *
 * It answers only when the rows after the new one in (at, key) order are few
 * and none is near it (one look at the (at, key) index): then no row's link
 * but the new row's can change, and the near rows it needs are the earlier
 * ones.  Else, and at REPEATABLE READ and SERIALIZABLE (whose checks compare
 * the whole near lists of two snapshots), and in a registration not ready,
 * the caller takes the query path.  Same links: the same rows under the same
 * snapshot, in the same order, with the same cohesion test
 * (sql/track_newest.sql compares them).
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_collation.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "../mih.h"
#include "track.h"

/* At most this many rows after the new one are looked at; more: the query path. */
#define TRACK_NEWEST_LATER 64

typedef struct NearHit
{
	ItemPointerData tid;
	int			dist;
} NearHit;

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
tid_cmp(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) &((const NearHit *) a)->tid, (ItemPointer) &((const NearHit *) b)->tid);
}

static TrackConfig *sort_config;

/*
 * The stories found too far (a candidate of one is not taken): a set by the
 * key's bytes.  Two images of one key only cost a second look.
 */
static TrackConfig *far_config;

static uint32
far_hash(const void *key, Size keysize)
{
	return datum_image_hash(*(const Datum *) key, far_config->key_byval, far_config->key_len);
}

static int
far_match(const void *a, const void *b, Size keysize)
{
	return datum_image_eq(*(const Datum *) a, *(const Datum *) b, far_config->key_byval, far_config->key_len) ? 0 : 1;
}

static int
at_key_cmp(const void *a, const void *b)
{
	const TrackNear *x = a;
	const TrackNear *y = b;

	return track_compare(sort_config, x->at, x->key, y->at, y->key);
}

/*
 * Whether a row (fp) passes the cohesion test with candidate y: as
 * near_original() in track_link.c decides it from the whole near list, here
 * from the store row of y's story's original: within the threshold, an
 * original and before the new row, it is one of the near rows that
 * function would find.
 */
static bool
cohesive(TrackConfig *c, const TrackRow *row, const TrackNear *y, Snapshot snap)
{
	TrackRow	orig;
	double		d;
	bool		in_near;

	if (isnan(c->cohesion))
		return true;
	if (DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, y->story, y->key)))
		return track_within(c, y->score, c->cohesion);
	if (!track_read_row(c, y->story, &orig, snap) || orig.fp_null)
		return false;
	d = track_score(c, row->fp, orig.fp);
	in_near = track_within(c, d, c->threshold) &&
		!DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, orig.key, row->key)) &&
		DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, orig.story, orig.key)) &&
		track_compare(c, orig.at, orig.key, row->at, row->key) < 0;
	if (!in_near && c->cohesion <= c->threshold)
		return false;
	return track_within(c, d, c->cohesion);
}

/*
 * The entries of the store's mih index within radius of fp, by distance:
 * those at distance d are (*out)[start[d] .. start[d + 1]), each distance's
 * by heap TID.
 */
static int
hits_by_distance(Relation index, Datum fp, int radius, Snapshot snap, NearHit **out,
				 int start[SIMHASH_BITS + 2])
{
	uint64		q = DatumGetSimhash64(fp);
	MihHit	   *hits;
	int			n = mih_near_hits(index, q, radius, snap, &hits);
	int			next[SIMHASH_BITS + 1];
	NearHit    *byd = palloc(sizeof(NearHit) * Max(n, 1));

	memset(start, 0, sizeof(int) * (SIMHASH_BITS + 2));
	for (int i = 0; i < n; i++)
		start[__builtin_popcountll(hits[i].code ^ q) + 1]++;
	for (int d = 0; d <= SIMHASH_BITS; d++)
		start[d + 1] += start[d];
	memcpy(next, start, sizeof(next));
	for (int i = 0; i < n; i++)
	{
		int			d = __builtin_popcountll(hits[i].code ^ q);

		byd[next[d]].tid = hits[i].tid;
		byd[next[d]++].dist = d;
	}
	if (hits)
		pfree(hits);
	for (int d = 0; d <= SIMHASH_BITS; d++)
		qsort(byd + start[d], start[d + 1] - start[d], sizeof(NearHit), tid_cmp);
	*out = byd;
	return n;
}

/* The store's columns read, by number. */
typedef struct StoreAtts
{
	AttrNumber	key;
	AttrNumber	at;
	AttrNumber	site;
	AttrNumber	story;
} StoreAtts;

/*
 * The rows of entries hits[0 .. n) (all at distance d) that snap shows,
 * but the new row's own, into group in (at, key) order; their number, or -1
 * if one of them comes after the new row (the look at the (at, key) index
 * missed it: the query path).
 */
static int
read_distance(TrackConfig *c, const TrackRow *row, IndexFetchTableData *fetch, TupleTableSlot *slot,
			  const StoreAtts *atts, const NearHit *hits, int n, int d, Snapshot snap, TrackNear *group)
{
	int			m = 0;

	for (int i = 0; i < n; i++)
	{
		bool		call_again = false;
		bool		all_dead = false;
		ItemPointerData tid = hits[i].tid;
		bool		isnull;
		Datum		k;
		TrackNear  *y;

		CHECK_FOR_INTERRUPTS();
		/* an entry written twice (mihpending.c): read once */
		if (i > 0 && ItemPointerCompare((ItemPointer) &hits[i].tid, (ItemPointer) &hits[i - 1].tid) == 0)
			continue;
		if (!table_index_fetch_tuple(fetch, &tid, snap, slot, &call_again, &all_dead))
			continue;
		k = slot_getattr(slot, atts->key, &isnull);
		if (DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, k, row->key)))
		{
			ExecClearTuple(slot);
			continue;
		}
		y = &group[m++];
		y->key = datumCopy(k, c->key_byval, c->key_len);
		y->at = datumCopy(slot_getattr(slot, atts->at, &isnull), c->time_byval, c->time_len);
		y->story = datumCopy(slot_getattr(slot, atts->story, &isnull), c->key_byval, c->key_len);
		y->site = slot_getattr(slot, atts->site, &y->site_null);
		y->site = c->site_att && !y->site_null ? datumCopy(y->site, c->site_byval, c->site_len) : (Datum) 0;
		y->score = d;
		y->earlier = track_compare(c, y->at, y->key, row->at, row->key) < 0;
		y->idx = -1;
		ExecClearTuple(slot);
		if (!y->earlier)
			return -1;
	}
	sort_config = c;
	qsort(group, m, sizeof(TrackNear), at_key_cmp);
	return m;
}

/*
 * The first of group[0 .. n) whose story passes the cohesion test, into
 * link (true); the stories that fail go into *far.
 */
static bool
take_first(TrackConfig *c, const TrackRow *row, TrackNear *group, int n, HTAB **far, Snapshot snap,
		   TrackRow *link)
{
	for (int i = 0; i < n; i++)
	{
		TrackNear  *y = &group[i];

		CHECK_FOR_INTERRUPTS();
		far_config = c;
		if (*far != NULL && hash_search(*far, &y->story, HASH_FIND, NULL) != NULL)
			continue;
		if (!cohesive(c, row, y, snap))
		{
			if (*far == NULL)
			{
				HASHCTL		ctl;

				memset(&ctl, 0, sizeof(ctl));
				ctl.keysize = sizeof(Datum);
				ctl.entrysize = sizeof(Datum);
				ctl.hash = far_hash;
				ctl.match = far_match;
				ctl.hcxt = CurrentMemoryContext;
				*far = hash_create("textfp_track far stories", 64, &ctl,
								   HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
			}
			far_config = c;
			(void) hash_search(*far, &y->story, HASH_ENTER, NULL);
			continue;
		}
		link->source_null = false;
		link->source = y->key;
		link->story = y->story;
		link->score_null = false;
		link->score = y->score;
		return true;
	}
	return false;
}

/* Whether the rows after the new one (as snap shows them) are few and none is near it. */
static bool
none_near_after(TrackConfig *c, const TrackRow *row, Snapshot snap)
{
	Datum	   *keys;
	double	   *scores;
	int			n = track_later_rows(c, row->at, row->key, row->fp, TRACK_NEWEST_LATER + 1, &keys, &scores, snap);

	if (n > TRACK_NEWEST_LATER)
		return false;
	for (int i = 0; i < n; i++)
		if (track_within(c, scores[i], c->threshold) &&
			!DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, keys[i], row->key)))
			return false;
	return true;
}

/*
 * The link of new row (fp not NULL, its lock keys held) into link, if this
 * path applies (true); false: the caller takes the query path.
 */
bool
track_link_newest(TrackConfig *c, const TrackRow *row, TrackRow *link)
{
	int			radius = (int) c->threshold;
	Snapshot	snap;
	Relation	store;
	Relation	index;
	StoreAtts	atts;
	NearHit    *hits;
	int			start[SIMHASH_BITS + 2];
	TrackNear  *group;
	HTAB	   *far = NULL;
	IndexFetchTableData *fetch;
	TupleTableSlot *slot;
	bool		applies = true;
	bool		chosen = false;

	if (c->minhash || row->fp_null || c->state != TRACK_READY || IsolationUsesXactSnapshot() ||
		radius < 0 || radius > SIMHASH_BITS)
		return false;
	snap = RegisterSnapshot(GetLatestSnapshot());
	if (!none_near_after(c, row, snap))
	{
		UnregisterSnapshot(snap);
		return false;
	}
	store = table_open(c->store_relid, AccessShareLock);
	index = open_near_index(store, store_att(store, "fp"));
	if (index == NULL)
	{
		table_close(store, AccessShareLock);
		UnregisterSnapshot(snap);
		return false;
	}
	atts.key = store_att(store, "key");
	atts.at = store_att(store, "at");
	atts.site = store_att(store, "site");
	atts.story = store_att(store, "story");

	link->source_null = true;
	link->source = (Datum) 0;
	link->story = row->key;
	link->score_null = true;
	link->score = 0;
	(void) hits_by_distance(index, row->fp, radius, snap, &hits, start);
	index_close(index, AccessShareLock);
	group = palloc(sizeof(TrackNear) * Max(start[radius + 1], 1));
	fetch = table_index_fetch_begin(store);
	slot = table_slot_create(store, NULL);
	for (int d = 0; d <= radius && applies && !chosen; d++)
	{
		int			n = read_distance(c, row, fetch, slot, &atts, hits + start[d], start[d + 1] - start[d], d, snap,
									  group);

		if (n < 0)
			applies = false;
		else
			chosen = take_first(c, row, group, n, &far, snap, link);
	}
	ExecDropSingleTupleTableSlot(slot);
	table_index_fetch_end(fetch);
	table_close(store, AccessShareLock);
	UnregisterSnapshot(snap);
	pfree(hits);
	pfree(group);
	if (far != NULL)
		hash_destroy(far);
	return applies;
}
