/*
 * mihinsert.c: inserting a row into a mih index: one entry into each of the
 * m tables, each a WAL record of its own (mihwal.c).
 *
 * The directory says which page holds the entry's bucket.  A range page with
 * room takes it; a full range page splits (under the directory page's
 * exclusive lock) and the insert looks again; a chain's primary that is full
 * passes the entry to the page its hint names, to a page VACUUM freed room
 * in, or to a new overflow page.  Locks are taken in one order, directory
 * page, then bucket page, then (chains) pages after the primary, and a
 * bucket page is never held while waiting for a directory page, so inserts,
 * scans and VACUUM cannot deadlock.
 *
 * Under SERIALIZABLE each entry first checks for a conflict with the
 * predicate locks that scans took on its bucket (mih.h, MihLockTarget).
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/predicate.h"

#include "mih.h"
#include "textfp.h"

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

/*
 * The chain whose primary pbuf (locked, full) holds bucket v takes the
 * entry: the hint page, then (after VACUUM freed room) the first page with
 * room, else a new overflow page.  Releases pbuf.
 */
static void
insert_into_chain(Relation index, const MihMeta *meta, Buffer pbuf,
				  uint64 code, ItemPointer tid)
{
	Page		ppage = BufferGetPage(pbuf);
	MihPageOpaque pop = MihPageGetOpaque(ppage);
	BlockNumber pblk = BufferGetBlockNumber(pbuf);
	Buffer		newbuf;

	if (pop->hint != InvalidBlockNumber && pop->hint != pblk)
	{
		Buffer		hbuf = ReadBuffer(index, pop->hint);
		Page		hpage;

		LockBuffer(hbuf, BUFFER_LOCK_EXCLUSIVE);
		hpage = BufferGetPage(hbuf);
		mih_check_bucket_page(index, hpage, pop->hint);
		if ((MihPageGetOpaque(hpage)->flags & MIH_OVERFLOW) &&
			MihPageGetOpaque(hpage)->primary == pblk && MihPageHasRoom(hpage))
		{
			mih_wal_append(index, meta, hbuf, code, tid);
			UnlockReleaseBuffer(hbuf);
			UnlockReleaseBuffer(pbuf);
			return;
		}
		UnlockReleaseBuffer(hbuf);
	}

	if (pop->flags & MIH_HAS_FREE)
	{
		BlockNumber x = pop->next;
		BlockNumber visited = 0;

		while (x != InvalidBlockNumber)
		{
			Buffer		xbuf = ReadBuffer(index, x);
			Page		xpage;
			BlockNumber next;

			LockBuffer(xbuf, BUFFER_LOCK_EXCLUSIVE);
			xpage = BufferGetPage(xbuf);
			mih_check_bucket_page(index, xpage, x);
			if (!(MihPageGetOpaque(xpage)->flags & MIH_OVERFLOW) ||
				MihPageGetOpaque(xpage)->primary != pblk ||
				++visited > RelationGetNumberOfBlocks(index))
				mih_corrupted(index, "an overflow chain is broken");
			if (MihPageHasRoom(xpage))
			{
				mih_wal_append_hint(index, meta, pbuf, xbuf, code, tid);
				UnlockReleaseBuffer(xbuf);
				UnlockReleaseBuffer(pbuf);
				return;
			}
			next = MihPageGetOpaque(xpage)->next;
			UnlockReleaseBuffer(xbuf);
			x = next;
		}
	}

	newbuf = mih_new_buffer(index);
	mih_wal_new_overflow(index, meta, pbuf, newbuf, code, tid);
	UnlockReleaseBuffer(newbuf);
	UnlockReleaseBuffer(pbuf);
}

/* One entry into table. */
static void
insert_entry(Relation index, const MihMeta *meta, int table, uint64 code,
			 ItemPointer tid)
{
	uint32		v = tfp_mih_substring(&meta->layout, table, code);
	BlockNumber blk = mih_dir_lookup(index, meta, table, v);

	for (;;)
	{
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		MihPageOpaque op;

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
		if (MihPageHasRoom(page))
		{
			mih_wal_append(index, meta, buf, code, tid);
			UnlockReleaseBuffer(buf);
			return;
		}
		if (op->lo == op->hi)
		{
			insert_into_chain(index, meta, buf, code, tid);
			return;
		}
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
		split_range(index, meta, table, v);
		blk = mih_dir_lookup(index, meta, table, v);
	}
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

	/* NULL fingerprints are not indexed: no radius query matches them */
	if (isnull[0])
		return false;
	meta = mih_get_meta(index);
	code = DatumGetSimhash64(values[0]);
	for (int i = 0; i < meta->layout.m; i++)
	{
		CheckForSerializableConflictIn(index, NULL,
									   MihLockTarget(meta, i, tfp_mih_substring(&meta->layout, i, code)));
		insert_entry(index, meta, i, code, ht_ctid);
	}
	return false;
}
