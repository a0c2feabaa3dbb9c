/*
 * mihinsert.c: inserting rows into a mih index: an entry into each of the
 * m tables.
 *
 * Pending rows.  Every WAL record of a page change costs generic WAL a
 * comparison of the page's used bytes (about 7 kB), which makes one record
 * per entry the dominant cost of an insert.  So a backend keeps the rows it
 * inserts in memory (per index, at most MIH_PENDING_MAX) and writes them
 * sorted by bucket, many entries per page and per record:
 *   - when its statement ends (ExecutorEnd), before a scan of that index by
 *     the same backend (mih_flush_pending from the scan), when the buffer is
 *     full, and before the transaction commits or prepares (so other
 *     sessions, a standby and crash recovery see every committed row, as
 *     with any index: the entries' WAL precedes the commit record);
 *   - never after their heap tuple may be gone: a transaction's abort drops
 *     its pending rows, a subtransaction's abort the rows it inserted (their
 *     tuples are dead at once and VACUUM may free their TIDs; an entry
 *     written later would name a reused TID).  Rows of the surrounding
 *     transaction stay pending.
 * A flush that fails leaves its rows pending (the transaction or
 * subtransaction is failing anyway); entries it wrote twice are harmless,
 * as scans fill TID bitmaps.  Predicate-lock checks (SERIALIZABLE) are made
 * when the row arrives, not at the flush.  If the index got a new
 * relfilenode meanwhile (REINDEX, TRUNCATE in the same transaction), the
 * rebuild already holds the rows and they are dropped.
 *
 * Writing entries of one table, sorted by bucket: the directory gives the
 * page of the first entry's bucket; a page with room takes every following
 * entry of its range that fits, in one record; a full range page splits
 * (under the directory page's exclusive lock) and the writer looks again; a
 * chain's full primary passes the entries of its bucket to the page its hint
 * names, to a page VACUUM freed room in, or to a new overflow page.  Locks
 * are taken in one order, directory page, then bucket page, then (chains)
 * pages after the primary, and no bucket page is held while waiting for a
 * directory page, so inserts, scans and VACUUM cannot deadlock.
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "storage/predicate.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "mih.h"
#include "textfp.h"

/* rows a backend keeps pending per index: 24 bytes each, 1.5 MB */
#define MIH_PENDING_MAX 65536

typedef struct MihPendingRow
{
	uint64		code;
	ItemPointerData tid;
	SubTransactionId subid;		/* the subtransaction that inserted it */
} MihPendingRow;

typedef struct MihPendingIndex
{
	Oid			indexoid;
	RelFileNode node;			/* the relfilenode the rows were for */
	int			n;
	int			cap;
	MihPendingRow *rows;
} MihPendingIndex;

static MemoryContext pending_cxt = NULL;
static MihPendingIndex *pending = NULL;
static int	npending = 0;
static ExecutorEnd_hook_type prev_ExecutorEnd = NULL;

/* --- writing sorted entries ------------------------------------------------ */

/* Splits the full range page of bucket v, unless someone else already did. */
static void
split_range(Relation index, const MihMeta *meta, int table, uint32 v)
{
	BlockNumber dblk = MihDirBlock(meta, table, v);
	Buffer		dirbuf = ReadBuffer(index, dblk);
	BlockNumber blk;
	Buffer		buf;
	Page		page;
	Buffer		newbuf;

	LockBuffer(dirbuf, BUFFER_LOCK_EXCLUSIVE);
	blk = mih_dir_entry(index, BufferGetPage(dirbuf), dblk, table, v);
	buf = ReadBuffer(index, blk);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	if (!mih_page_covers(page, table, v))
		mih_corrupted(index, "a directory entry points to a page of other buckets");
	mih_check_bucket_page(index, page, blk);
	if (MihPageGetOpaque(page)->lo == MihPageGetOpaque(page)->hi || MihPageHasRoom(page))
	{
		/* split by someone else meanwhile, or a chain now */
		UnlockReleaseBuffer(buf);
		UnlockReleaseBuffer(dirbuf);
		return;
	}
	newbuf = mih_new_buffer(index);
	mih_wal_split(index, meta, dirbuf, buf, newbuf);
	UnlockReleaseBuffer(newbuf);
	UnlockReleaseBuffer(buf);
	UnlockReleaseBuffer(dirbuf);
}

static int
room(Page page)
{
	return (((PageHeader) page)->pd_upper - ((PageHeader) page)->pd_lower) / (int) MIH_ENTRY_SIZE;
}

/*
 * The chain whose primary pbuf (locked, full) holds bucket v takes entries
 * e[0..n) of that bucket, as many as its page with room takes: the hint
 * page, then (after VACUUM freed room) the first page with room, else a new
 * overflow page.  Releases pbuf; returns how many it took (at least one).
 */
static int
insert_into_chain(Relation index, const MihMeta *meta, Buffer pbuf,
				  const MihEntry *e, int n)
{
	Page		ppage = BufferGetPage(pbuf);
	MihPageOpaque pop = MihPageGetOpaque(ppage);
	BlockNumber pblk = BufferGetBlockNumber(pbuf);
	Buffer		newbuf;
	int			k;

	if (pop->hint != InvalidBlockNumber && pop->hint != pblk)
	{
		Buffer		hbuf = ReadBuffer(index, pop->hint);
		Page		hpage;

		LockBuffer(hbuf, BUFFER_LOCK_EXCLUSIVE);
		hpage = BufferGetPage(hbuf);
		mih_check_bucket_page(index, hpage, pop->hint);
		if ((MihPageGetOpaque(hpage)->flags & MIH_OVERFLOW) &&
			MihPageGetOpaque(hpage)->primary == pblk && room(hpage) > 0)
		{
			k = Min(n, room(hpage));
			mih_wal_append(index, meta, hbuf, e, k);
			UnlockReleaseBuffer(hbuf);
			UnlockReleaseBuffer(pbuf);
			return k;
		}
		UnlockReleaseBuffer(hbuf);
	}

	if (pop->flags & MIH_HAS_FREE)
	{
		BlockNumber x = pop->next;
		MihChainWalk walk = MIH_CHAIN_WALK_INIT;

		while (x != InvalidBlockNumber)
		{
			Buffer		xbuf = ReadBuffer(index, x);
			Page		xpage;
			BlockNumber next;

			LockBuffer(xbuf, BUFFER_LOCK_EXCLUSIVE);
			xpage = BufferGetPage(xbuf);
			mih_check_bucket_page(index, xpage, x);
			if (!(MihPageGetOpaque(xpage)->flags & MIH_OVERFLOW) ||
				MihPageGetOpaque(xpage)->primary != pblk || mih_chain_step(index, &walk))
				mih_corrupted(index, "an overflow chain is broken");
			if (room(xpage) > 0)
			{
				k = Min(n, room(xpage));
				mih_wal_append_hint(index, meta, pbuf, xbuf, e, k);
				UnlockReleaseBuffer(xbuf);
				UnlockReleaseBuffer(pbuf);
				return k;
			}
			next = MihPageGetOpaque(xpage)->next;
			UnlockReleaseBuffer(xbuf);
			x = next;
		}
	}

	newbuf = mih_new_buffer(index);
	k = Min(n, (int) MIH_PAGE_CAPACITY);
	mih_wal_new_overflow(index, meta, pbuf, newbuf, e, k);
	UnlockReleaseBuffer(newbuf);
	UnlockReleaseBuffer(pbuf);
	return k;
}

/*
 * Writes a first part of e[0..n) (sorted by bucket in table): the entries
 * that the page of e[0]'s bucket holds and takes.  Returns how many.
 */
static int
insert_some(Relation index, const MihMeta *meta, int table, const MihEntry *e, int n)
{
	const tfp_mih_layout *l = &meta->layout;
	uint32		v = tfp_mih_substring(l, table, e[0].code);
	BlockNumber blk = mih_dir_lookup(index, meta, table, v);

	for (;;)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		MihPageOpaque op;
		int			k;

		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		page = BufferGetPage(buf);
		if (!mih_page_covers(page, table, v))
		{
			/* split meanwhile: the directory has the new page */
			BlockNumber again;

			UnlockReleaseBuffer(buf);
			again = mih_dir_lookup(index, meta, table, v);
			if (again == blk)
				mih_corrupted(index, "a directory entry points to a page of other buckets");
			blk = again;
			continue;
		}
		mih_check_bucket_page(index, page, blk);
		op = MihPageGetOpaque(page);
		/* the following entries the page's range holds, as many as fit */
		k = 0;
		while (k < n && k < room(page) && tfp_mih_substring(l, table, e[k].code) <= op->hi)
			k++;
		if (k > 0)
		{
			mih_wal_append(index, meta, buf, e, k);
			UnlockReleaseBuffer(buf);
			return k;
		}
		if (op->lo == op->hi)
		{
			while (k < n && tfp_mih_substring(l, table, e[k].code) == v)
				k++;
			return insert_into_chain(index, meta, buf, e, k);
		}
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
		split_range(index, meta, table, v);
		blk = mih_dir_lookup(index, meta, table, v);
	}
}

static void
insert_sorted(Relation index, const MihMeta *meta, int table, const MihEntry *e, int n)
{
	for (int i = 0; i < n;)
	{
		CHECK_FOR_INTERRUPTS();
		i += insert_some(index, meta, table, e + i, n - i);
	}
}

/* --- pending rows --------------------------------------------------------- */

typedef struct MihSortKey
{
	const tfp_mih_layout *l;
	int			table;
} MihSortKey;

static int
cmp_entry_bucket(const void *a, const void *b, void *arg)
{
	const MihSortKey *key = (const MihSortKey *) arg;
	uint32		x = tfp_mih_substring(key->l, key->table, ((const MihEntry *) a)->code);
	uint32		y = tfp_mih_substring(key->l, key->table, ((const MihEntry *) b)->code);

	return (x > y) - (x < y);
}

/*
 * Writes the pending rows of one index into each of its tables.  The rows
 * stay pending until every table has them.
 */
static void
flush_one(MihPendingIndex *pi)
{
	Relation	index;
	const MihMeta *meta;
	MihEntry	few[16];
	MihEntry   *e;
	MemoryContext cxt = NULL;

	if (pi->n == 0)
		return;
	index = try_index_open(pi->indexoid, RowExclusiveLock);
	if (index == NULL)
	{
		pi->n = 0;				/* dropped */
		return;
	}
	if (!RelFileNodeEquals(index->rd_node, pi->node))
	{
		pi->n = 0;				/* rebuilt from the heap, with these rows */
		index_close(index, NoLock);
		return;
	}
	meta = mih_get_meta(index);
	/* a statement's few rows (the usual single-row insert) need no context */
	if ((size_t) pi->n <= lengthof(few))
		e = few;
	else
	{
		cxt = AllocSetContextCreate(CurrentMemoryContext, "mih flush", ALLOCSET_DEFAULT_SIZES);
		e = (MihEntry *) MemoryContextAlloc(cxt, sizeof(MihEntry) * pi->n);
	}
	for (int i = 0; i < meta->layout.m; i++)
	{
		MihSortKey	key = {&meta->layout, i};

		for (int j = 0; j < pi->n; j++)
		{
			e[j].code = pi->rows[j].code;
			e[j].tid = pi->rows[j].tid;
		}
		if (pi->n > 1)
			qsort_arg(e, pi->n, sizeof(MihEntry), cmp_entry_bucket, &key);
		insert_sorted(index, meta, i, e, pi->n);
	}
	if (cxt != NULL)
		MemoryContextDelete(cxt);
	index_close(index, NoLock);
	pi->n = 0;
}

/* Writes the pending rows of indexoid (every index for InvalidOid). */
void
mih_flush_pending(Oid indexoid)
{
	for (int k = 0; k < npending; k++)
		if (!OidIsValid(indexoid) || pending[k].indexoid == indexoid)
			flush_one(&pending[k]);
}

static void
forget_pending(void)
{
	if (pending_cxt != NULL)
		MemoryContextReset(pending_cxt);
	pending = NULL;
	npending = 0;
}

static void
mih_executor_end(QueryDesc *queryDesc)
{
	if (prev_ExecutorEnd)
		prev_ExecutorEnd(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
	if (npending > 0)
		mih_flush_pending(InvalidOid);
}

static void
mih_xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			mih_flush_pending(InvalidOid);
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PREPARE:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
			forget_pending();
			break;
		default:
			break;
	}
}

static void
mih_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
					 SubTransactionId parentSubid, void *arg)
{
	if (event != SUBXACT_EVENT_ABORT_SUB)
		return;
	/* rows of the aborted subtransaction and of those it started */
	for (int k = 0; k < npending; k++)
	{
		MihPendingIndex *pi = &pending[k];
		int			kept = 0;

		for (int j = 0; j < pi->n; j++)
			if (pi->rows[j].subid < mySubid)
				pi->rows[kept++] = pi->rows[j];
		pi->n = kept;
	}
}

void
mih_init_pending(void)
{
	prev_ExecutorEnd = ExecutorEnd_hook;
	ExecutorEnd_hook = mih_executor_end;
	RegisterXactCallback(mih_xact_callback, NULL);
	RegisterSubXactCallback(mih_subxact_callback, NULL);
}

static MihPendingIndex *
pending_for(Relation index)
{
	MihPendingIndex *pi;

	for (int k = 0; k < npending; k++)
		if (pending[k].indexoid == RelationGetRelid(index))
		{
			pi = &pending[k];
			if (!RelFileNodeEquals(pi->node, index->rd_node))
			{
				/* rebuilt meanwhile (REINDEX, TRUNCATE): the rebuild has them */
				pi->n = 0;
				pi->node = index->rd_node;
			}
			return pi;
		}
	if (pending_cxt == NULL)
		pending_cxt = AllocSetContextCreate(TopMemoryContext, "mih pending inserts",
											ALLOCSET_DEFAULT_SIZES);
	pending = pending == NULL ?
		(MihPendingIndex *) MemoryContextAlloc(pending_cxt, sizeof(MihPendingIndex)) :
		(MihPendingIndex *) repalloc(pending, sizeof(MihPendingIndex) * (npending + 1));
	pi = &pending[npending++];
	pi->indexoid = RelationGetRelid(index);
	pi->node = index->rd_node;
	pi->n = 0;
	pi->cap = 0;
	pi->rows = NULL;
	return pi;
}

bool
mih_insert(Relation index, Datum *values, bool *isnull,
		   ItemPointer ht_ctid, Relation heapRel,
		   IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
		   bool indexUnchanged,
#endif
		   IndexInfo *indexInfo)
{
	const MihMeta *meta;
	uint64		code;
	MihPendingIndex *pi;

	/* NULL fingerprints are not indexed: no radius query matches them */
	if (isnull[0])
		return false;
	meta = mih_get_meta(index);
	code = DatumGetSimhash64(values[0]);
	for (int i = 0; i < meta->layout.m; i++)
		CheckForSerializableConflictIn(index, NULL,
									   MihLockTarget(meta, i, tfp_mih_substring(&meta->layout, i, code)));

	pi = pending_for(index);
	if (pi->n == pi->cap)
	{
		if (pi->cap == MIH_PENDING_MAX)
			flush_one(pi);
		else
		{
			int			cap = Min(Max(pi->cap * 2, 64), MIH_PENDING_MAX);

			pi->rows = pi->rows == NULL ?
				(MihPendingRow *) MemoryContextAlloc(pending_cxt, sizeof(MihPendingRow) * cap) :
				(MihPendingRow *) repalloc(pi->rows, sizeof(MihPendingRow) * cap);
			pi->cap = cap;
		}
	}
	pi->rows[pi->n].code = code;
	pi->rows[pi->n].tid = *ht_ctid;
	pi->rows[pi->n].subid = GetCurrentSubTransactionId();
	pi->n++;
	return false;
}
