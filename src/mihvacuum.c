/*
 * mihvacuum.c: VACUUM of a mih index.
 *
 * Bulk delete reads every bucket page once, in block order, and removes the
 * entries whose TIDs the callback names (each row has m entries, one per
 * table: all of them go).  Pages stay where they are; a range page keeps its
 * room for later inserts, and an overflow page that got room marks its
 * chain's primary (MIH_HAS_FREE) so inserts look for it.
 *
 * One pass sees every entry although inserts run meanwhile: entries move
 * only when a range page splits, and only into a page newly added at the end
 * of the relation (mih.h), so the pass, which goes on while the relation
 * grows, reaches them there.  Plain exclusive buffer locks suffice: scans
 * are bitmap scans, which collect all TIDs before visiting the heap, and an
 * MVCC snapshot never sees a reused TID's new tuple (the index AM docs,
 * "Index Locking Considerations").
 *
 * The number of index tuples a bulk delete reports is the number of rows
 * indexed (the entries of table 0).  Cleanup without a bulk delete before it
 * (a VACUUM that removed nothing, as on insert-only tables) reads no page:
 * it reports the heap's row count, as GIN does (and as ANALYZE sets it), so
 * rows with a NULL fingerprint count too.
 */
#include "postgres.h"

#include "commands/vacuum.h"
#include "miscadmin.h"

#include "mih.h"

/*
 * One pass over the blocks; with a callback, removes the entries it names.
 * Counts the rows (table 0's entries) and the removed rows into stats.
 */
static void
vacuum_pass(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			IndexBulkDeleteCallback callback, void *callback_state)
{
	Relation	index = info->index;
	BlockNumber blkno = MIH_METAPAGE_BLKNO + 1;
	BlockNumber flagged = InvalidBlockNumber;	/* last primary marked */
	bool		dead[MIH_PAGE_CAPACITY];
	double		rows = 0,
				removed = 0;
	BlockNumber npages;

	(void) mih_get_meta(index);	/* checks the metapage */
	for (;;)
	{
		/* the relation may grow while we go: take its size each round */
		npages = RelationGetNumberOfBlocks(index);
		if (blkno >= npages)
			break;
		for (; blkno < npages; blkno++)
		{
			Buffer		buf;
			Page		page;
			MihPageOpaque op;
			int			n,
						ndead = 0;
			BlockNumber primary = InvalidBlockNumber;

			vacuum_delay_point();
			buf = ReadBufferExtended(index, MAIN_FORKNUM, blkno, RBM_NORMAL,
									 info->strategy);
			LockBuffer(buf, callback ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
			page = BufferGetPage(buf);
			/* a page added by an insert that never reached WAL: empty */
			if (PageIsNew(page) ||
				!(MihPageGetOpaque(page)->flags & (MIH_BUCKET | MIH_OVERFLOW)))
			{
				if (PageIsNew(page))
					stats->pages_free++;
				UnlockReleaseBuffer(buf);
				continue;
			}
			mih_check_bucket_page(index, page, blkno);
			op = MihPageGetOpaque(page);
			n = MihPageCount(page);
			if (callback)
			{
				for (int j = 0; j < n; j++)
				{
					dead[j] = callback(MihPageTid(page, j), callback_state);
					ndead += dead[j];
				}
				if (ndead > 0)
				{
					mih_wal_delete(index, buf, dead);
					if ((op->flags & MIH_OVERFLOW) && op->primary != flagged)
						primary = op->primary;
				}
			}
			if (op->table == 0)
			{
				rows += n - ndead;
				removed += ndead;
			}
			UnlockReleaseBuffer(buf);

			if (primary != InvalidBlockNumber)
			{
				Buffer		pbuf = ReadBufferExtended(index, MAIN_FORKNUM, primary,
													  RBM_NORMAL, info->strategy);

				LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
				mih_check_bucket_page(index, BufferGetPage(pbuf), primary);
				if (!(MihPageGetOpaque(BufferGetPage(pbuf))->flags & MIH_HAS_FREE))
					mih_wal_chain_has_free(index, pbuf);
				UnlockReleaseBuffer(pbuf);
				flagged = primary;
			}
		}
	}
	stats->num_pages = npages;
	stats->num_index_tuples = rows;
	stats->tuples_removed += removed;
	stats->estimated_count = false;
}

IndexBulkDeleteResult *
mih_bulk_delete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
				IndexBulkDeleteCallback callback, void *callback_state)
{
	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	stats->pages_free = 0;
	vacuum_pass(info, stats, callback, callback_state);
	return stats;
}

IndexBulkDeleteResult *
mih_vacuum_cleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
	{
		/* no bulk delete ran: estimates, not a pass over the whole index */
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
		stats->num_pages = RelationGetNumberOfBlocks(info->index);
		stats->num_index_tuples = Max(info->num_heap_tuples, 0);
		stats->estimated_count = info->estimated_count;
	}
	return stats;
}
