/*
 * mihwal.c: every change to a mih index page after the build, each one
 * generic WAL record (PostgreSQL's generic_xlog: page images diffed, replayed
 * by the server itself, on a standby too) of at most 3 pages.
 *
 * Each record takes the index from one consistent state to the next, so
 * crash recovery (or a standby) that replays any prefix of them has an index
 * that answers exactly:
 *   append          1 page   entries into a page with room
 *   append_hint     2 pages  the same into an overflow page, and the chain's
 *                            primary remembers that page
 *   new_overflow    2 pages  a chain grows by a new page after its primary,
 *                            which takes the entries
 *   split           3 pages  a full range page gives its upper buckets to a
 *                            new page, and the directory page points them
 *                            there: entries and directory move together
 *   delete          1 page   VACUUM removes dead entries from a page
 *   chain_has_free  1 page   VACUUM tells a primary its chain has room again
 * An insert is m records, one per table; a crash between them leaves a row
 * in some tables only, which happens only to a transaction that never
 * committed (its commit record follows them), so its row is dead to every
 * scan and VACUUM removes what it left.
 *
 * The callers hold the buffers pinned and exclusively locked.
 */
#include "postgres.h"

#include "mih.h"

/*
 * Appends (code, tid) to a bucket page image with room: extends the sorted
 * prefix when the entry comes in order, else leaves it in the tail, sorting
 * the page when the tail has grown past MIH_TAIL_MAX.
 */
static void
page_append(Page page, const tfp_mih_layout *l, uint64 code, const ItemPointerData *tid)
{
	PageHeader	ph = (PageHeader) page;
	MihPageOpaque op = MihPageGetOpaque(page);
	int			n = MihPageCount(page);
	uint64	   *codes = MihPageCodes(page);

	if (!MihPageHasRoom(page))
		elog(ERROR, "mih: no room for an entry in a bucket page");
	codes[n] = code;
	*MihPageTid(page, n) = *tid;
	ph->pd_lower += sizeof(uint64);
	ph->pd_upper -= MIH_TID_SIZE;
	if (op->nsorted == n &&
		(n == 0 || tfp_mih_substring(l, op->table, codes[n - 1]) <=
		 tfp_mih_substring(l, op->table, code)))
		op->nsorted = (uint16) (n + 1);
	else if (n + 1 - op->nsorted > MIH_TAIL_MAX)
		mih_page_sort(page, l, op->table);
}

void
mih_wal_append(Relation index, const MihMeta *meta, Buffer buf,
			   const MihEntry *e, int n)
{
	GenericXLogState *state = GenericXLogStart(index);
	Page		page = GenericXLogRegisterBuffer(state, buf, 0);

	for (int j = 0; j < n; j++)
		page_append(page, &meta->layout, e[j].code, &e[j].tid);
	GenericXLogFinish(state);
}

void
mih_wal_append_hint(Relation index, const MihMeta *meta, Buffer primary,
					Buffer target, const MihEntry *e, int n)
{
	GenericXLogState *state = GenericXLogStart(index);
	Page		ppage = GenericXLogRegisterBuffer(state, primary, 0);
	Page		tpage = GenericXLogRegisterBuffer(state, target, 0);

	for (int j = 0; j < n; j++)
		page_append(tpage, &meta->layout, e[j].code, &e[j].tid);
	MihPageGetOpaque(ppage)->hint = BufferGetBlockNumber(target);
	GenericXLogFinish(state);
}

void
mih_wal_new_overflow(Relation index, const MihMeta *meta, Buffer primary,
					 Buffer newbuf, const MihEntry *e, int n)
{
	GenericXLogState *state = GenericXLogStart(index);
	Page		ppage = GenericXLogRegisterBuffer(state, primary, 0);
	Page		npage = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
	MihPageOpaque pop = MihPageGetOpaque(ppage);
	MihPageOpaque nop;
	BlockNumber nblk = BufferGetBlockNumber(newbuf);

	mih_init_page(npage, MIH_OVERFLOW, pop->table, pop->lo, pop->hi);
	nop = MihPageGetOpaque(npage);
	nop->primary = BufferGetBlockNumber(primary);
	nop->next = pop->next;
	for (int j = 0; j < n; j++)
		page_append(npage, &meta->layout, e[j].code, &e[j].tid);
	/* the new page goes first after the primary: inserts find room there */
	pop->next = nblk;
	pop->hint = nblk;
	pop->flags &= ~MIH_HAS_FREE;
	GenericXLogFinish(state);
}

void
mih_wal_split(Relation index, const MihMeta *meta, Buffer dirbuf,
			  Buffer left, Buffer right)
{
	GenericXLogState *state = GenericXLogStart(index);
	Page		lpage = GenericXLogRegisterBuffer(state, left, 0);
	Page		rpage = GenericXLogRegisterBuffer(state, right, GENERIC_XLOG_FULL_IMAGE);
	Page		dpage = GenericXLogRegisterBuffer(state, dirbuf, 0);
	MihPageOpaque lop = MihPageGetOpaque(lpage);
	MihPageOpaque dop = MihPageGetOpaque(dpage);
	const tfp_mih_layout *l = &meta->layout;
	int			table = lop->table;
	uint32		lo = lop->lo,
				hi = lop->hi;
	int			n;
	uint64	   *codes;
	int			best_k = -1;
	uint32		best_s = 0;
	int			best_imbalance = INT_MAX;
	BlockNumber rblk = BufferGetBlockNumber(right);
	BlockNumber *dir = MihDirEntries(dpage);

	Assert(lo < hi);
	if (dop->lo > lo || dop->hi < hi)
		elog(ERROR, "mih: directory page does not describe the range it splits");
	mih_page_sort(lpage, l, table);
	n = MihPageCount(lpage);
	codes = MihPageCodes(lpage);

	/*
	 * Split points: s in (lo, hi]; entries [0, k) with buckets < s stay.  The
	 * candidates are the bucket boundaries, and the range's ends when they
	 * leave one side empty; take the most even.
	 */
	for (int k = 0; k <= n; k++)
	{
		uint32		s;
		int			imbalance;

		if (k == 0)
		{
			uint32		first = n > 0 ? tfp_mih_substring(l, table, codes[0]) : hi;

			if (first <= lo)
				continue;
			s = first;
		}
		else if (k == n)
		{
			uint32		last = tfp_mih_substring(l, table, codes[n - 1]);

			if (last >= hi)
				continue;
			s = last + 1;
		}
		else
		{
			uint32		a = tfp_mih_substring(l, table, codes[k - 1]);
			uint32		b = tfp_mih_substring(l, table, codes[k]);

			if (a == b)
				continue;
			s = b;
		}
		imbalance = abs(2 * k - n);
		if (imbalance < best_imbalance)
		{
			best_imbalance = imbalance;
			best_k = k;
			best_s = s;
		}
	}
	if (best_k < 0)
		elog(ERROR, "mih: a range page of one bucket cannot split");

	/* the upper part goes to the new page, in order */
	mih_init_page(rpage, MIH_BUCKET, table, best_s, hi);
	for (int j = best_k; j < n; j++)
	{
		int			r = j - best_k;

		MihPageCodes(rpage)[r] = codes[j];
		*MihPageTid(rpage, r) = *MihPageTid(lpage, j);
	}
	((PageHeader) rpage)->pd_lower = MIH_CONTENTS + (n - best_k) * sizeof(uint64);
	((PageHeader) rpage)->pd_upper = ((PageHeader) rpage)->pd_special - (n - best_k) * MIH_TID_SIZE;
	MihPageGetOpaque(rpage)->nsorted = (uint16) (n - best_k);

	/* the lower part stays: its TIDs are already in place */
	((PageHeader) lpage)->pd_lower = MIH_CONTENTS + best_k * sizeof(uint64);
	((PageHeader) lpage)->pd_upper = ((PageHeader) lpage)->pd_special - best_k * MIH_TID_SIZE;
	lop->nsorted = (uint16) best_k;
	lop->hi = best_s - 1;

	for (uint32 v = best_s; v <= hi; v++)
		dir[v - dop->lo] = rblk;
	GenericXLogFinish(state);
}

void
mih_wal_delete(Relation index, Buffer buf, const bool *dead)
{
	GenericXLogState *state = GenericXLogStart(index);
	Page		page = GenericXLogRegisterBuffer(state, buf, 0);
	MihPageOpaque op = MihPageGetOpaque(page);
	int			n = MihPageCount(page);
	uint64	   *codes = MihPageCodes(page);
	int			k = 0,
				sorted = 0;

	/* keep the order: the kept part of the sorted prefix stays sorted */
	for (int j = 0; j < n; j++)
	{
		if (dead[j])
			continue;
		if (j < op->nsorted)
			sorted++;
		if (k != j)
		{
			codes[k] = codes[j];
			*MihPageTid(page, k) = *MihPageTid(page, j);
		}
		k++;
	}
	((PageHeader) page)->pd_lower = MIH_CONTENTS + k * sizeof(uint64);
	((PageHeader) page)->pd_upper = ((PageHeader) page)->pd_special - k * MIH_TID_SIZE;
	op->nsorted = (uint16) sorted;
	GenericXLogFinish(state);
}

void
mih_wal_chain_has_free(Relation index, Buffer primary)
{
	GenericXLogState *state = GenericXLogStart(index);
	Page		page = GenericXLogRegisterBuffer(state, primary, 0);

	MihPageGetOpaque(page)->flags |= MIH_HAS_FREE;
	GenericXLogFinish(state);
}
