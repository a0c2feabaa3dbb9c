/*
 * mihscan.c: bitmap scans of a mih index.  Exact: every code found is
 * verified against the whole query inside the index, so only true answers
 * reach the bitmap, without recheck.
 *
 * A scan takes the query's smallest radius (keys: =, % at
 * textfp.hamming_threshold, <@ hamming_ball) and asks tfp_mih_plan_query
 * how to read the index:
 *   probes     for each table with a probe radius t, every bucket within t
 *              bits of the query's substring: their directory entries are
 *              read one directory page at a time, then each bucket page once
 *              (sorted by block), where binary search finds each probed
 *              bucket's run in the sorted part and the unsorted tail is read
 *              whole; chains are read whole.  A code is reported by one
 *              table only (tfp_mih_emit), so each answer once.
 *   full pass  at radii where probing would cost more, table 0 read whole,
 *              page by page along its directory.
 * A page's range can move (a split) between reading the directory and
 * locking the page: the page's own range says so, and the probe asks the
 * directory again.
 *
 * Predicate locks: each probed bucket (mih.h, MihLockTarget), or the whole
 * index for a full pass.
 *
 * Memory per scan: the probes, 12 bytes each, at most the 2^16 buckets of
 * each of 4 tables (3 MB; 130 kB at radius 10 with the default m), and two
 * arrays of MIH_PAGE_CAPACITY entries.
 */
#include "postgres.h"

#include "access/relscan.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "pgstat.h"
#include "storage/predicate.h"
#include "utils/memutils.h"

#include "mih.h"
#include "textfp.h"

typedef struct MihProbe
{
	uint32		v;				/* bucket */
	uint16		table;
	uint16		retry;			/* its page no longer held it: ask again */
	BlockNumber blk;			/* its page, from the directory */
} MihProbe;

typedef struct MihScanOpaqueData
{
	/* the query, set by each getbitmap call from scan->keyData */
	int			nkeys;
	int			maxkeys;		/* room in center[] and radius[] */
	uint64	   *center;
	int		   *radius;
	int			drive;			/* the key with the smallest radius */
	tfp_mih_plan plan;
	const MihMeta *meta;
	/* per page */
	uint16		hits[MIH_PAGE_CAPACITY];
	ItemPointerData tids[MIH_PAGE_CAPACITY];
	int			ntids;
	int64		total;
} MihScanOpaqueData;

typedef MihScanOpaqueData *MihScanOpaque;

IndexScanDesc
mih_begin_scan(Relation index, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(index, nkeys, norderbys);

	scan->opaque = palloc0(sizeof(MihScanOpaqueData));
	return scan;
}

void
mih_rescan(IndexScanDesc scan, ScanKey keys, int nkeys,
		   ScanKey orderbys, int norderbys)
{
	if (keys && scan->numberOfKeys > 0)
		memmove(scan->keyData, keys, scan->numberOfKeys * sizeof(ScanKeyData));
}

void
mih_end_scan(IndexScanDesc scan)
{
	MihScanOpaque so = (MihScanOpaque) scan->opaque;

	if (so->center)
		pfree(so->center);
	if (so->radius)
		pfree(so->radius);
	pfree(scan->opaque);
	scan->opaque = NULL;
}

/*
 * Reads the scan keys into so; false when no row can match (a NULL
 * argument, a negative radius).
 */
static bool
read_keys(IndexScanDesc scan, MihScanOpaque so)
{
	so->nkeys = 0;
	so->drive = 0;
	if (so->maxkeys < Max(scan->numberOfKeys, 1))
	{
		/* in the scan's context, with the opaque struct */
		MemoryContext cxt = GetMemoryChunkContext(so);

		so->maxkeys = Max(scan->numberOfKeys, 1);
		so->center = (uint64 *) MemoryContextAlloc(cxt, sizeof(uint64) * so->maxkeys);
		so->radius = (int *) MemoryContextAlloc(cxt, sizeof(int) * so->maxkeys);
	}
	for (int k = 0; k < scan->numberOfKeys; k++)
	{
		ScanKey		key = &scan->keyData[k];
		int			r;

		if (key->sk_flags & SK_ISNULL)
			return false;
		if (key->sk_strategy < 1 || key->sk_strategy > MIH_NSTRATEGIES)
			elog(ERROR, "mih: unrecognized strategy number %d", key->sk_strategy);
		r = simhash_query_radius(key->sk_strategy, key->sk_argument, &so->center[k]);
		if (r < 0)
			return false;
		so->radius[k] = Min(r, SIMHASH_BITS);
		if (so->radius[k] < so->radius[so->drive])
			so->drive = k;
		so->nkeys++;
	}
	if (so->nkeys == 0)
	{
		/* cannot happen (amoptionalkey is false): read everything */
		so->nkeys = 1;
		so->center[0] = 0;
		so->radius[0] = SIMHASH_BITS;
	}
	return true;
}

/* Verifies entries [a, b) of a page of table; keeps what table reports. */
static void
verify(MihScanOpaque so, Page page, int table, int a, int b)
{
	const uint64 *codes = MihPageCodes(page);
	uint64		q = so->center[so->drive];
	size_t		n;

	if (a >= b)
		return;
	n = tfp_mih_verify(codes + a, (size_t) (b - a), q, so->radius[so->drive], so->hits);
	for (size_t h = 0; h < n; h++)
	{
		int			j = a + so->hits[h];
		uint64		code = codes[j];
		bool		ok = tfp_mih_emit(&so->meta->layout, &so->plan, table, code, q);

		for (int k = 0; ok && k < so->nkeys; k++)
			ok = tfp_hamming64(code, so->center[k]) <= so->radius[k];
		if (ok)
			so->tids[so->ntids++] = *MihPageTid(page, j);
	}
}

static void
flush_tids(MihScanOpaque so, TIDBitmap *tbm)
{
	if (so->ntids > 0)
	{
		tbm_add_tuples(tbm, so->tids, so->ntids, false);
		so->total += so->ntids;
		so->ntids = 0;
	}
}

/*
 * Reads the overflow pages of the chain after primary pblk (whose entries
 * were read), every entry.
 */
static void
read_chain(IndexScanDesc scan, MihScanOpaque so, TIDBitmap *tbm, int table,
		   BlockNumber pblk, BlockNumber next)
{
	Relation	index = scan->indexRelation;
	MihChainWalk walk = MIH_CHAIN_WALK_INIT;

	while (next != InvalidBlockNumber)
	{
		Buffer		buf;
		Page		page;
		MihPageOpaque op;

		CHECK_FOR_INTERRUPTS();
		buf = ReadBuffer(index, next);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		mih_check_bucket_page(index, page, next);
		op = MihPageGetOpaque(page);
		if (!(op->flags & MIH_OVERFLOW) || op->primary != pblk || op->table != table ||
			mih_chain_step(index, &walk))
			mih_corrupted(index, "an overflow chain is broken");
		verify(so, page, table, 0, MihPageCount(page));
		next = op->next;
		UnlockReleaseBuffer(buf);
		flush_tids(so, tbm);
	}
}

/*
 * Visits bucket page blk (buf, pinned) for the probes [p, p + np) that the
 * directory sent there; releases buf.  Probes whose bucket the page no
 * longer holds get retry set.
 */
static void
visit_page(IndexScanDesc scan, MihScanOpaque so, TIDBitmap *tbm, Buffer buf,
		   MihProbe *p, int np)
{
	Relation	index = scan->indexRelation;
	BlockNumber blk = BufferGetBlockNumber(buf);
	Page		page;
	MihPageOpaque op;
	bool		any = false;
	int			table = p[0].table;
	BlockNumber next = InvalidBlockNumber;
	bool		chain = false;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	for (int k = 0; k < np; k++)
	{
		p[k].retry = !mih_page_covers(page, p[k].table, p[k].v);
		any |= !p[k].retry;
	}
	if (!any)
	{
		UnlockReleaseBuffer(buf);
		return;
	}
	mih_check_bucket_page(index, page, blk);
	op = MihPageGetOpaque(page);
	if (op->lo == op->hi)
	{
		/* a chain: one bucket, every entry */
		verify(so, page, table, 0, MihPageCount(page));
		chain = true;
		next = op->next;
	}
	else
	{
		int			n = MihPageCount(page);
		int			sorted = op->nsorted;

		for (int k = 0; k < np; k++)
		{
			int			a,
						b;

			if (p[k].retry)
				continue;
			a = mih_lower_bound(page, sorted, &so->meta->layout, table, p[k].v);
			b = a;
			while (b < sorted &&
				   tfp_mih_substring(&so->meta->layout, table, MihPageCodes(page)[b]) == p[k].v)
				b++;
			verify(so, page, table, a, b);
		}
		/* the unsorted tail: every entry (tfp_mih_emit drops unprobed buckets) */
		verify(so, page, table, sorted, n);
	}
	UnlockReleaseBuffer(buf);
	flush_tids(so, tbm);
	if (chain)
		read_chain(scan, so, tbm, table, blk, next);
}

static int
cmp_probe_bucket(const void *a, const void *b)
{
	const MihProbe *x = a,
			   *y = b;

	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

static int
cmp_probe_block(const void *a, const void *b)
{
	const MihProbe *x = a,
			   *y = b;

	if (x->blk != y->blk)
		return x->blk < y->blk ? -1 : 1;
	return cmp_probe_bucket(a, b);
}

/*
 * The pages of the probes (sorted by table and bucket), from the directory:
 * each directory page once, for every probe it describes.
 */
static void
resolve_probes(IndexScanDesc scan, MihScanOpaque so, MihProbe *probes, int n)
{
	Relation	index = scan->indexRelation;
	int			k = 0;

	while (k < n)
	{
		BlockNumber dblk = MihDirBlock(so->meta, probes[k].table, probes[k].v);
		Buffer		buf = ReadBuffer(index, dblk);
		int			table = probes[k].table;

		CHECK_FOR_INTERRUPTS();
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		for (; k < n && probes[k].table == table &&
			 MihDirBlock(so->meta, table, probes[k].v) == dblk; k++)
			probes[k].blk = mih_dir_entry(index, BufferGetPage(buf), dblk, table, probes[k].v);
		UnlockReleaseBuffer(buf);
	}
}

static void
probe_scan(IndexScanDesc scan, MihScanOpaque so, TIDBitmap *tbm)
{
	Relation	index = scan->indexRelation;
	const tfp_mih_layout *l = &so->meta->layout;
	uint64		q = so->center[so->drive];
	MihProbe   *probes;
	uint32	   *values;
	uint8	   *dist;
	int			n = 0;
	int			k;
	uint64		ball = 0;

	for (int i = 0; i < l->m; i++)
		if (so->plan.t[i] >= 0)
			ball = Max(ball, tfp_mih_ball_size(l->width[i], so->plan.t[i]));
	probes = (MihProbe *) palloc(sizeof(MihProbe) * so->plan.probes);
	values = (uint32 *) palloc(sizeof(uint32) * ball);
	dist = (uint8 *) palloc(sizeof(uint8) * ball);
	for (int i = 0; i < l->m; i++)
	{
		size_t		nv;

		if (so->plan.t[i] < 0)
			continue;
		nv = tfp_ball_values(tfp_mih_substring(l, i, q), l->width[i], so->plan.t[i],
							 values, dist);
		if (n + nv > so->plan.probes)
			elog(ERROR, "mih: more probes than planned");
		for (size_t j = 0; j < nv; j++)
		{
			probes[n].v = values[j];
			probes[n].table = (uint16) i;
			probes[n].retry = 0;
			probes[n].blk = InvalidBlockNumber;
			PredicateLockPage(index, MihLockTarget(so->meta, i, values[j]), scan->xs_snapshot);
			n++;
		}
	}
	pfree(values);
	pfree(dist);

	qsort(probes, n, sizeof(MihProbe), cmp_probe_bucket);
	resolve_probes(scan, so, probes, n);
	qsort(probes, n, sizeof(MihProbe), cmp_probe_block);

	for (;;)
	{
		int			nretry = 0;

		Buffer		buf = n > 0 ? ReadBuffer(index, probes[0].blk) : InvalidBuffer;

		for (k = 0; k < n;)
		{
			int			e = k + 1;
			Buffer		next = InvalidBuffer;

			CHECK_FOR_INTERRUPTS();
			while (e < n && probes[e].blk == probes[k].blk)
				e++;
			/*
			 * Pin the next page first and ask the CPU for its header and
			 * special space: its cache misses overlap this page's work.
			 */
			if (e < n)
			{
				char	   *np;

				next = ReadBuffer(index, probes[e].blk);
				np = (char *) BufferGetPage(next);
				MIH_PREFETCH(np);
				MIH_PREFETCH(np + BLCKSZ - MIH_SPECIAL_SIZE);
				MIH_PREFETCH(np + MIH_CONTENTS + 64);
			}
			visit_page(scan, so, tbm, buf, probes + k, e - k);
			buf = next;
			k = e;
		}
		/* the probes whose page split meanwhile, again from the directory */
		for (k = 0; k < n; k++)
			if (probes[k].retry)
			{
				BlockNumber old = probes[k].blk;

				probes[nretry] = probes[k];
				probes[nretry].retry = 0;
				probes[nretry].blk = mih_dir_lookup(index, so->meta, probes[k].table, probes[k].v);
				if (probes[nretry].blk == old)
					mih_corrupted(index, "a directory entry points to a page of other buckets");
				nretry++;
			}
		if (nretry == 0)
			break;
		n = nretry;
		qsort(probes, n, sizeof(MihProbe), cmp_probe_block);
	}
	pfree(probes);
}

/* Table 0 whole, along its directory: every code once. */
static void
full_pass(IndexScanDesc scan, MihScanOpaque so, TIDBitmap *tbm)
{
	Relation	index = scan->indexRelation;
	uint32		nb = UINT32_C(1) << so->meta->layout.width[0];
	uint32		v = 0;
	BlockNumber last = InvalidBlockNumber;

	PredicateLockRelation(index, scan->xs_snapshot);
	while (v < nb)
	{
		BlockNumber blk = mih_dir_lookup(index, so->meta, 0, v);
		Buffer		buf;
		Page		page;
		MihPageOpaque op;
		BlockNumber next;
		bool		chain;

		CHECK_FOR_INTERRUPTS();
		buf = ReadBuffer(index, blk);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!mih_page_covers(page, 0, v))
		{
			UnlockReleaseBuffer(buf);
			if (blk == last)
				mih_corrupted(index, "a directory entry points to a page of other buckets");
			last = blk;
			continue;			/* split meanwhile: look again */
		}
		last = InvalidBlockNumber;
		mih_check_bucket_page(index, page, blk);
		op = MihPageGetOpaque(page);
		verify(so, page, 0, 0, MihPageCount(page));
		chain = op->lo == op->hi;
		next = op->next;
		v = op->hi + 1;
		UnlockReleaseBuffer(buf);
		flush_tids(so, tbm);
		if (chain)
			read_chain(scan, so, tbm, 0, blk, next);
	}
}

int64
mih_get_bitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	MihScanOpaque so = (MihScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	double		rows;

	pgstat_count_index_scan(index);
	/* this backend's own pending rows first (mihpending.c) */
	mih_flush_pending(RelationGetRelid(index));
	so->total = 0;
	so->ntids = 0;
	if (!read_keys(scan, so))
		return 0;
	so->meta = mih_get_meta(index);
	rows = index->rd_rel->reltuples;
	if (rows < 0)
		rows = so->meta->build_rows;
	tfp_mih_plan_query(&so->meta->layout, so->radius[so->drive], rows,
					   &tfp_mih_default_costs, &so->plan);
	if (so->plan.full_pass)
		full_pass(scan, so, tbm);
	else
		probe_scan(scan, so, tbm);
	return so->total;
}
