/*
 * track_link.c: the link rule of tracked tables, and keeping links right when
 * a row arrives late, changes or goes.
 *
 * The rule (docs/stories.md): a row links to its nearest match among the
 * rows before it in (time, key) order that are within the threshold, ties
 * to the earliest; with a cohesion bound, a candidate is taken only if the
 * row is also within that bound of the candidate's story's original, else
 * the next one is tried.  No candidate: the row is an original, a story of
 * its own.  A story is an original with everything that descends from it,
 * named by the original's key.
 *
 * A row's link depends only on the rows before it (their fingerprints,
 * times, keys and stories), so a new row that comes last changes nothing
 * else.  A row that comes in before others, changes or goes can change the
 * link or story of rows after it that are near it, and those of rows near
 * them in turn: relink() visits those rows in (time, key) order, each at
 * most once, and goes on past a row only when its link or story changed.
 * That gives exactly the links a rebuild in time order gives
 * (sql/track_order.sql checks it over random arrival orders).
 *
 * Concurrency: a row's link is read and written only under the lock keys
 * every near pair shares (dedup_take_locks()), and read under a fresh
 * snapshot, so two transactions that touch near rows take turns, and the
 * later sees what the earlier committed.  At REPEATABLE READ and
 * SERIALIZABLE a near row whose state the transaction's own snapshot does not
 * show raises 40001.
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_collation.h"
#include "lib/binaryheap.h"
#include "lib/rbtree.h"
#include "miscadmin.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "track.h"

static bool
same_key(TrackConfig *c, Datum a, Datum b)
{
	return DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, a, b));
}

void
track_lock_row(TrackConfig *c, Datum fp)
{
	dedup_take_locks(&c->locks, 0, fp);
}

void
track_lock_table(TrackConfig *c)
{
	dedup_lock_scope(&c->locks, 0);
}

/*
 * The near rows of fp at a fresh snapshot; at REPEATABLE READ and
 * SERIALIZABLE also at the transaction's, and 40001 where they differ (a
 * near row committed, changed or gone after the transaction's snapshot).
 */
static int
near_checked(TrackConfig *c, Datum fp, Datum at, Datum key, TrackNear **out)
{
	int			n = track_near(c, fp, at, key, out, GetLatestSnapshot());

	if (IsolationUsesXactSnapshot())
	{
		TrackNear  *mine;
		int			m = track_near(c, fp, at, key, &mine, GetTransactionSnapshot());
		bool		same = m == n;

		/* the site and time too: a link keeps its source's (source_site, source_at) */
		for (int i = 0; same && i < n; i++)
			same = same_key(c, mine[i].key, (*out)[i].key) && same_key(c, mine[i].story, (*out)[i].story) &&
				datum_image_eq(mine[i].at, (*out)[i].at, c->time_byval, c->time_len) &&
				mine[i].site_null == (*out)[i].site_null &&
				(mine[i].site_null || !c->site_att ||
				 datum_image_eq(mine[i].site, (*out)[i].site, c->site_byval, c->site_len));
		if (!same)
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("could not serialize access due to a concurrent change of near rows in table \"%s\"",
							get_rel_name(c->relid)),
					 errdetail("A row near the one written was added, changed or removed by a transaction that committed after this transaction's snapshot was taken."),
					 errhint("The transaction might succeed if retried.")));
	}
	return n;
}

/*
 * Stories by key for the rule's lookups: the originals among a row's near
 * rows (a sorted array, made at once), and the stories already found too far
 * (a red-black tree, grown one story at a time: a sorted array's inserts
 * would cost n^2 moves over the thousands of near rows boilerplate gives).
 * A story's verdict depends only on the row and the story's original, so one
 * is enough for all its near rows: without these, n near rows cost n x
 * originals key comparisons and a lookup of the original each.
 */
typedef struct StoryEntry
{
	Datum		story;
	int			idx;			/* in near[] */
} StoryEntry;

typedef struct StorySet
{
	StoryEntry *e;
	int			n;
} StorySet;

static int
story_cmp(const void *a, const void *b, void *arg)
{
	TrackConfig *c = arg;

	return DatumGetInt32(FunctionCall2Coll(&c->key_cmp, C_COLLATION_OID,
										   ((const StoryEntry *) a)->story, ((const StoryEntry *) b)->story));
}

/* The stories found too far: tree nodes from an array of one a near row. */
typedef struct FarNode
{
	RBTNode		rb;
	Datum		story;
} FarNode;

typedef struct FarSet
{
	TrackConfig *c;
	RBTree	   *tree;
	FarNode    *nodes;
	int			used;
} FarSet;

static int
far_cmp(const RBTNode *a, const RBTNode *b, void *arg)
{
	TrackConfig *c = ((FarSet *) arg)->c;

	return DatumGetInt32(FunctionCall2Coll(&c->key_cmp, C_COLLATION_OID,
										   ((const FarNode *) a)->story, ((const FarNode *) b)->story));
}

static void
far_combine(RBTNode *existing, const RBTNode *newdata, void *arg)
{
}

static RBTNode *
far_alloc(void *arg)
{
	FarSet	   *far = arg;

	return &far->nodes[far->used++].rb;
}

static bool
far_contains(FarSet *far, Datum story)
{
	FarNode		key;

	if (far->tree == NULL)
		return false;
	key.story = story;
	return rbt_find(far->tree, &key.rb) != NULL;
}

/* Adds story (not in far yet); far holds at most n, the near rows. */
static void
far_add(FarSet *far, Datum story, int n)
{
	FarNode		key;
	bool		isnew;

	if (far->tree == NULL)
	{
		far->nodes = palloc(sizeof(FarNode) * n);
		far->tree = rbt_create(sizeof(FarNode), far_cmp, far_combine, far_alloc, NULL, far);
	}
	key.story = story;
	(void) rbt_insert(far->tree, &key.rb, &isnew);
}

/* The index in set of story, or where it would go (*found false). */
static int
story_find(TrackConfig *c, const StorySet *set, Datum story, bool *found)
{
	int			lo = 0,
				hi = set->n;
	StoryEntry	key = {story, -1};

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			r = story_cmp(&set->e[mid], &key, c);

		if (r == 0)
		{
			*found = true;
			return mid;
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/*
 * Whether a row (fp) is within the cohesion bound of the original of y's
 * story.  The original is often among the row's near rows, whose scores are
 * at hand (origs: the earlier near rows that are originals, made at the
 * first call); and SimHash's near rows are every row within the threshold,
 * so an original not among them is further than a bound no looser than the
 * threshold.  Else root_fp gives the original's fingerprint.
 */
static bool
near_original(TrackConfig *c, Datum fp, const TrackNear *y, TrackNear *near, int n, StorySet *origs,
			  TrackRootFp root_fp, void *arg)
{
	Datum		fp_root;
	bool		found;
	int			at;

	if (origs->e == NULL)
	{
		origs->e = palloc(sizeof(StoryEntry) * Max(n, 1));
		for (int i = 0; i < n; i++)
			if (near[i].earlier && same_key(c, near[i].story, near[i].key))
				origs->e[origs->n++] = (StoryEntry) {near[i].key, i};
		qsort_arg(origs->e, origs->n, sizeof(StoryEntry), story_cmp, c);
	}
	at = story_find(c, origs, y->story, &found);
	if (found)
		return track_within(c, near[origs->e[at].idx].score, c->cohesion);
	if (!c->minhash && c->cohesion <= c->threshold)
		return false;
	return root_fp(c, y, &fp_root, arg) && track_within(c, track_score(c, fp, fp_root), c->cohesion);
}

/* The original of y's story as the store has it now. */
static bool
store_root_fp(TrackConfig *c, const TrackNear *y, Datum *fp, void *arg)
{
	return track_root_fp(c, y->story, fp, GetLatestSnapshot());
}

/*
 * The rule: the link of a row (key, fp) given its near rows (nearest first,
 * then by (at, key): track_near()'s order) into link (source, story, score);
 * returns the index in near[] of the source, -1 for none.  root_fp gives the
 * fingerprint of a candidate's story's original when the cohesion test needs
 * it and it is not among near[]: read from the store (the batched path) or
 * from memory (track_fast.c), the one rule for both.
 */
int
track_choose_link(TrackConfig *c, Datum key, Datum fp, bool fp_null, TrackNear *near, int n,
				  TrackRootFp root_fp, void *arg, TrackRow *link)
{
	StorySet	origs = {NULL, 0};
	FarSet		far = {c, NULL, NULL, 0};
	int			chosen = -1;

	link->source_null = true;
	link->source = (Datum) 0;
	link->story = key;
	link->score_null = true;
	link->score = 0;
	if (fp_null)
		return -1;
	for (int i = 0; i < n; i++)
	{
		TrackNear  *y = &near[i];

		if (!y->earlier)
			continue;
		CHECK_FOR_INTERRUPTS();

		/*
		 * the story's original must also be near enough; when the candidate
		 * is the original, its score says how near (a cohesion tighter than
		 * the threshold bounds direct links too)
		 */
		if (!isnan(c->cohesion))
		{
			if (far_contains(&far, y->story))
				continue;
			if (!(same_key(c, y->story, y->key)
				  ? track_within(c, y->score, c->cohesion)
				  : near_original(c, fp, y, near, n, &origs, root_fp, arg)))
			{
				far_add(&far, y->story, n);
				continue;
			}
		}
		link->source_null = false;
		link->source = y->key;
		link->story = y->story;
		link->score_null = false;
		link->score = y->score;
		chosen = i;
		break;
	}
	if (origs.e != NULL)
		pfree(origs.e);
	if (far.tree != NULL)
	{
		pfree(far.tree);
		pfree(far.nodes);
	}
	return chosen;
}

static void
choose_link(TrackConfig *c, Datum key, Datum fp, bool fp_null, TrackNear *near, int n, TrackRow *link)
{
	(void) track_choose_link(c, key, fp, fp_null, near, n, store_root_fp, NULL, link);
}

static bool
link_differs(TrackConfig *c, const TrackRow *old, const TrackRow *new)
{
	if (old->source_null != new->source_null || old->score_null != new->score_null)
		return true;
	if (!old->source_null && !same_key(c, old->source, new->source))
		return true;
	if (!same_key(c, old->story, new->story))
		return true;
	return !old->score_null && old->score != new->score;
}

/* --- the rows a change reaches, in (at, key) order --- */

typedef struct WorkItem
{
	Datum		key;
	Datum		at;
} WorkItem;

/* binaryheap is a max-heap: the earliest (at, key) on top */
static int
work_cmp(Datum a, Datum b, void *arg)
{
	WorkItem   *x = (WorkItem *) DatumGetPointer(a);
	WorkItem   *y = (WorkItem *) DatumGetPointer(b);

	return -track_compare((TrackConfig *) arg, x->at, x->key, y->at, y->key);
}

typedef struct WorkQueue
{
	binaryheap *heap;
	MemoryContext cxt;
	int			capacity;
	HTAB	   *queued;			/* the keys in the heap: each once */
} WorkQueue;

/* The registration whose keys the queued sets hash (one relink runs at a time). */
static TrackConfig *queued_config;

static uint32
queued_hash(const void *key, Size keysize)
{
	return datum_image_hash(*(const Datum *) key, queued_config->key_byval, queued_config->key_len);
}

static int
queued_match(const void *a, const void *b, Size keysize)
{
	return datum_image_eq(*(const Datum *) a, *(const Datum *) b,
						  queued_config->key_byval, queued_config->key_len) ? 0 : 1;
}

static void
queue_push(TrackConfig *c, WorkQueue *q, Datum key, Datum at)
{
	MemoryContext old;
	WorkItem   *w;
	bool		found;

	/*
	 * A row is queued once: every row of a story relinked by a late arrival
	 * would otherwise queue every later row again (n * n items).
	 */
	queued_config = c;
	if (hash_search(q->queued, &key, HASH_FIND, NULL) != NULL)
		return;
	old = MemoryContextSwitchTo(q->cxt);
	w = palloc(sizeof(WorkItem));
	w->key = datumCopy(key, c->key_byval, c->key_len);
	(void) hash_search(q->queued, &w->key, HASH_ENTER, &found);
	w->at = datumCopy(at, c->time_byval, c->time_len);
	if (q->heap->bh_size >= q->capacity)
	{
		/* grow: a new heap of twice the room */
		binaryheap *h = binaryheap_allocate(q->capacity * 2, work_cmp, c);

		while (!binaryheap_empty(q->heap))
			binaryheap_add_unordered(h, binaryheap_remove_first(q->heap));
		binaryheap_build(h);
		binaryheap_free(q->heap);
		q->heap = h;
		q->capacity *= 2;
	}
	binaryheap_add(q->heap, PointerGetDatum(w));
	MemoryContextSwitchTo(old);
}

static void
queue_later(TrackConfig *c, WorkQueue *q, TrackNear *near, int n)
{
	for (int i = 0; i < n; i++)
		if (!near[i].earlier)
			queue_push(c, q, near[i].key, near[i].at);
}

/*
 * Relinks the row of key (if it is still there): under its lock keys, from
 * a fresh look at its near rows.  Queues the rows after it that are near it
 * when its link changed.  Returns false if the row is gone.
 */
static bool
relink_one(TrackConfig *c, WorkQueue *q, Datum key, bool *changed, bool check_width)
{
	TrackRow	row;
	TrackRow	link;
	TrackNear  *near = NULL;
	int			n = 0;

	*changed = false;
	if (!track_read_row(c, key, &row, GetLatestSnapshot()))
		return false;
	if (check_width)
		track_check_row_width(c, row.key, row.site, row.site_null);
	if (!row.fp_null)
	{
		track_lock_row(c, row.fp);
		/* it may have changed while we waited */
		if (!track_read_row(c, key, &row, GetLatestSnapshot()))
			return false;
	}
	if (!row.fp_null)
		n = near_checked(c, row.fp, row.at, row.key, &near);
	choose_link(c, row.key, row.fp, row.fp_null, near, n, &link);
	if (link_differs(c, &row, &link))
	{
		track_write_link(c, row.key, &link);
		*changed = true;
		if (q != NULL)
			queue_later(c, q, near, n);
	}
	return true;
}

static void
relink_queue(TrackConfig *c, WorkQueue *q)
{
	WorkItem   *last = NULL;

	while (!binaryheap_empty(q->heap))
	{
		WorkItem   *w = (WorkItem *) DatumGetPointer(binaryheap_remove_first(q->heap));
		bool		changed;

		CHECK_FOR_INTERRUPTS();
		queued_config = c;
		(void) hash_search(q->queued, &w->key, HASH_REMOVE, NULL);
		/* a row queued again after it came out (its time changed meanwhile): once */
		if (last != NULL && same_key(c, last->key, w->key))
			continue;
		last = w;
		(void) relink_one(c, q, w->key, &changed, false);
	}
}

static WorkQueue *
queue_create(TrackConfig *c)
{
	WorkQueue  *q = palloc(sizeof(WorkQueue));
	HASHCTL		ctl;

	q->cxt = AllocSetContextCreate(CurrentMemoryContext, "textfp_track relink", ALLOCSET_DEFAULT_SIZES);
	q->capacity = 64;
	q->heap = binaryheap_allocate(q->capacity, work_cmp, c);
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(Datum);
	ctl.entrysize = sizeof(Datum);
	ctl.hash = queued_hash;
	ctl.match = queued_match;
	ctl.hcxt = q->cxt;
	q->queued = hash_create("textfp_track queued rows", 64, &ctl,
							HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
	return q;
}

static void
queue_free(WorkQueue *q)
{
	binaryheap_free(q->heap);
	MemoryContextDelete(q->cxt);
}

/*
 * A new row (key, at, site, fp in row): locks, links, writes it, and relinks
 * the later rows it reaches.
 */
void
track_link_new(TrackConfig *c, TrackRow *row, Snapshot snap)
{
	TrackNear  *near = NULL;
	int			n = 0;
	TrackRow	link;

	if (!row->fp_null)
	{
		track_lock_row(c, row->fp);
		n = near_checked(c, row->fp, row->at, row->key, &near);
	}
	choose_link(c, row->key, row->fp, row->fp_null, near, n, &link);
	row->source = link.source;
	row->source_null = link.source_null;
	row->story = link.story;
	row->score = link.score;
	row->score_null = link.score_null;
	track_write_row(c, row);
	for (int i = 0; i < n; i++)
		if (!near[i].earlier)
		{
			WorkQueue  *q = queue_create(c);

			queue_later(c, q, near, n);
			relink_queue(c, q);
			queue_free(q);
			break;
		}
}

/*
 * The rows after (at, key) near fp may have linked to a row that changed or
 * went: relinks them and what they reach.  The row itself too when
 * include_self (it changed and stays).
 */
void
track_relink_from(TrackConfig *c, Datum fp, bool fp_null, Datum at, Datum key, bool include_self)
{
	WorkQueue  *q = queue_create(c);

	if (include_self)
		queue_push(c, q, key, at);
	if (!fp_null)
	{
		TrackNear  *near;
		int			n;

		track_lock_row(c, fp);
		n = near_checked(c, fp, at, key, &near);
		queue_later(c, q, near, n);
	}
	relink_queue(c, q);
	queue_free(q);
}

/* Relinks one row from its near rows, as a rebuild does (track_batch.c). */
bool
track_relink_row(TrackConfig *c, Datum key, bool *changed)
{
	/* a batch's row may have come before the registration: not checked yet */
	return relink_one(c, NULL, key, changed, true);
}
