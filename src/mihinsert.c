/*
 * mihinsert.c: inserting rows into a mih index: an entry into each of the
 * m tables.  mih_insert (aminsert) hands a row to the backend's pending rows
 * (mihpending.c), which come back here to be written many at a time; a row
 * of INSERT ... ON CONFLICT is written at once (see mih_insert).
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

#include "access/htup_details.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/rel.h"

#include "mih.h"
#include "textfp.h"

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
 * Writes entries e[0..n) into each table of index (e is sorted in place, by
 * each table's buckets in turn).
 */
void
mih_insert_entries(Relation index, MihEntry *e, int n)
{
	const MihMeta *meta = mih_get_meta(index);

	for (int i = 0; i < meta->layout.m; i++)
	{
		MihSortKey	key = {&meta->layout, i};

		if (n > 1)
			qsort_arg(e, n, sizeof(MihEntry), cmp_entry_bucket, &key);
		insert_sorted(index, meta, i, e, n);
	}
}

/*
 * Whether the heap tuple at tid is a speculative insertion (INSERT ... ON
 * CONFLICT) not yet confirmed.
 */
static bool
heap_tuple_is_speculative(Relation heap, ItemPointer tid)
{
	Buffer		buf = ReadBuffer(heap, ItemPointerGetBlockNumber(tid));
	Page		page;
	ItemId		lp;
	bool		spec = false;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (ItemPointerGetOffsetNumber(tid) <= PageGetMaxOffsetNumber(page))
	{
		lp = PageGetItemId(page, ItemPointerGetOffsetNumber(tid));
		spec = ItemIdIsNormal(lp) &&
			HeapTupleHeaderIsSpeculative((HeapTupleHeader) PageGetItem(page, lp));
	}
	UnlockReleaseBuffer(buf);
	return spec;
}

/*
 * aminsert.  The row is kept pending (mihpending.c), except a speculative
 * insertion: if it loses the race on the arbiter index the executor kills
 * its tuple at once, with no (sub)transaction abort, and VACUUM may give the
 * TID to another row before the statement ends; an entry written then would
 * name that row.  Written now, the entry is there for VACUUM to remove with
 * the tuple.  The heap is looked at only while an upsert runs.
 */
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
	MihEntry	e;

	/* NULL fingerprints are not indexed: no radius query matches them */
	if (isnull[0])
		return false;
	meta = mih_get_meta(index);
	e.code = DatumGetSimhash64(values[0]);
	e.tid = *ht_ctid;
	for (int i = 0; i < meta->layout.m; i++)
		CheckForSerializableConflictIn(index, NULL,
									   MihLockTarget(meta, i, tfp_mih_substring(&meta->layout, i, e.code)));

	if (mih_upsert_running() && !indexInfo->ii_Concurrent &&
		heap_tuple_is_speculative(heapRel, ht_ctid))
		mih_insert_entries(index, &e, 1);
	else
		mih_pend(index, &e, !indexInfo->ii_Concurrent);
	return false;
}
