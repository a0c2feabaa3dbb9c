/*
 * mihbuild.c: building a mih index: a sorted bulk load.
 *
 * The heap scan collects (code, TID) of every row with a fingerprint (NULLs
 * are not indexed), in memory up to half of maintenance_work_mem, beyond
 * that in a temporary file.  m is then chosen from the number of rows (the
 * option m, or tfp_mih_choose_m).  For each table the entries are put in
 * bucket order by a counting sort (the counts of all tables come from one
 * pass first), a group of buckets at a time so that a group fits in the
 * other half of maintenance_work_mem, and written out page by page:
 * consecutive buckets share a range page filled to fillfactor percent (90 by
 * default, room for inserts before the first splits), and a bucket larger
 * than that gets a chain of full pages of its own.  A bucket larger than the
 * group array is not gathered: its chain is written as a scan of the spool
 * finds its entries.  The directory and the metapage are written last; then,
 * when the relation is WAL-logged, every page is logged whole
 * (log_newpage_range).
 *
 * Memory: maintenance_work_mem, at least 2 MB, whatever the rows, plus the
 * directory (4 bytes a bucket: at most 1 MB) and the counts (8 bytes a
 * bucket).  The temporary file holds 16 bytes a row and is read once per
 * group and once per bucket larger than the group array (a large build reads
 * it about m x rows x 16 / (maintenance_work_mem / 2) times over: a one-pass
 * bucket sort per table would do better).
 *
 * Progress (pg_stat_progress_create_index): subphase "scanning table" with
 * the heap blocks, then "writing tables" with tuples_total = rows x m and
 * tuples_done the entries written.
 */
#include "postgres.h"

#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/buffile.h"
#include "utils/memutils.h"

#include "mih.h"
#include "textfp.h"

#define MIH_PHASE_SCAN 2
#define MIH_PHASE_WRITE 3

/* One row's entry on its way to the pages. */
typedef struct MihItem
{
	uint64		code;
	ItemPointerData tid;
} MihItem;

/* The collected entries: in memory, or (past the limit) all in a file. */
typedef struct MihSpool
{
	MihItem    *items;
	int64		n;				/* in items */
	int64		cap;
	int64		limit;			/* items kept in memory at most */
	BufFile    *file;
	int64		total;			/* rows collected */
} MihSpool;

/* Writes the pages of one fork in block order. */
typedef struct MihWriter
{
	Relation	index;
	ForkNumber	fork;
	const tfp_mih_layout *l;
	BlockNumber nblocks;		/* the next block */
	int			fill;			/* entries a range page gets */
	int64		written;		/* entries, for the progress report */
	bool		progress;
	/* the range page being filled */
	PGAlignedBlock page;
	bool		open;
	int			table;
	BlockNumber *dir;			/* the table's directory, a block per bucket */
} MihWriter;

static void
spool_add(MihSpool *sp, uint64 code, ItemPointer tid)
{
	if (sp->n == sp->cap)
	{
		if (sp->cap < sp->limit)
		{
			int64		cap = Min(Max(sp->cap * 2, 1024), sp->limit);

			sp->items = sp->items == NULL ?
				(MihItem *) MemoryContextAllocHuge(CurrentMemoryContext, sizeof(MihItem) * cap) :
				(MihItem *) repalloc_huge(sp->items, sizeof(MihItem) * cap);
			sp->cap = cap;
		}
		else
		{
			/* memory full: everything goes to the file from now on */
			if (sp->file == NULL)
				sp->file = BufFileCreateTemp(false);
			BufFileWrite(sp->file, sp->items, sizeof(MihItem) * sp->n);
			sp->n = 0;
		}
	}
	sp->items[sp->n].code = code;
	sp->items[sp->n].tid = *tid;
	sp->n++;
	sp->total++;
}

/* After the last row: the file, if any, gets the rest. */
static void
spool_finish(MihSpool *sp)
{
	if (sp->file != NULL && sp->n > 0)
	{
		BufFileWrite(sp->file, sp->items, sizeof(MihItem) * sp->n);
		sp->n = 0;
	}
}

/*
 * Calls fn for every entry collected, in collection order: from memory, or
 * read back from the file through the memory array.
 */
typedef void (*item_fn) (const MihItem *it, void *arg);

static void
spool_scan(MihSpool *sp, item_fn fn, void *arg)
{
	if (sp->file == NULL)
	{
		for (int64 j = 0; j < sp->n; j++)
		{
			if ((j & 0xffff) == 0)
				CHECK_FOR_INTERRUPTS();
			fn(&sp->items[j], arg);
		}
		return;
	}
	if (BufFileSeek(sp->file, 0, 0, SEEK_SET) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rewind temporary file of mih index build")));
	for (int64 done = 0; done < sp->total;)
	{
		int64		want = Min(sp->cap, sp->total - done);
		size_t		got;

		CHECK_FOR_INTERRUPTS();
		got = BufFileRead(sp->file, sp->items, sizeof(MihItem) * want);
		if (got != sizeof(MihItem) * want)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read temporary file of mih index build: read %zu of %zu bytes",
							got, (size_t) (sizeof(MihItem) * want))));
		for (int64 j = 0; j < want; j++)
			fn(&sp->items[j], arg);
		done += want;
	}
}

static void
build_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
			   bool tupleIsAlive, void *state)
{
	if (isnull[0])
		return;
	spool_add((MihSpool *) state, DatumGetSimhash64(values[0]), tid);
}

/* --- pages ------------------------------------------------------------------ */

static BlockNumber
write_page(MihWriter *w, Page img)
{
	Buffer		buf = ReadBufferExtended(w->index, w->fork, P_NEW, RBM_NORMAL, NULL);

	if (BufferGetBlockNumber(buf) != w->nblocks)
		elog(ERROR, "mih: index \"%s\" grew during its build", RelationGetRelationName(w->index));
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	memcpy(BufferGetPage(buf), img, BLCKSZ);
	MarkBufferDirty(buf);
	UnlockReleaseBuffer(buf);
	return w->nblocks++;
}

static void
page_put(Page page, int j, const MihItem *it)
{
	MihPageCodes(page)[j] = it->code;
	*MihPageTid(page, j) = it->tid;
}

/* Sets the count of a page filled with n entries by page_put. */
static void
page_set_count(Page page, int n)
{
	((PageHeader) page)->pd_lower = MIH_CONTENTS + n * sizeof(uint64);
	((PageHeader) page)->pd_upper = ((PageHeader) page)->pd_special - n * MIH_TID_SIZE;
	MihPageGetOpaque(page)->nsorted = (uint16) n;
}

static void
open_range(MihWriter *w, uint32 lo)
{
	mih_init_page(w->page.data, MIH_BUCKET, w->table, lo, lo);
	w->open = true;
}

/* Writes the open range page as buckets lo .. hi. */
static void
flush_range(MihWriter *w, uint32 hi)
{
	MihPageOpaque op = MihPageGetOpaque(w->page.data);
	BlockNumber blk;

	op->hi = hi;
	op->nsorted = (uint16) MihPageCount(w->page.data);
	blk = write_page(w, w->page.data);
	for (uint32 v = op->lo; v <= hi; v++)
		w->dir[v] = blk;
	w->written += MihPageCount(w->page.data);
	w->open = false;
	if (w->progress)
		pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, w->written);
	CHECK_FOR_INTERRUPTS();
}

/*
 * A bucket of its own: a primary page and overflow pages, all full but the
 * last, written as its entries come (their number is known, so each page's
 * successor is): from memory, or from a scan of the spool when the bucket is
 * larger than the memory (a chain's entries need no order).
 */
typedef struct MihChainWriter
{
	MihWriter  *w;
	uint32		v;
	int64		c;				/* entries of the bucket */
	int64		npages;
	int64		p;				/* the page being filled */
	int			k;				/* its entries */
	BlockNumber base;			/* the primary page */
	PGAlignedBlock buf;
} MihChainWriter;

static void
chain_begin(MihChainWriter *cw, MihWriter *w, uint32 v, int64 c)
{
	cw->w = w;
	cw->v = v;
	cw->c = c;
	cw->npages = (c + MIH_PAGE_CAPACITY - 1) / MIH_PAGE_CAPACITY;
	cw->p = 0;
	cw->k = 0;
	cw->base = w->nblocks;
	mih_init_page(cw->buf.data, MIH_BUCKET, w->table, v, v);
}

static void
chain_add(MihChainWriter *cw, const MihItem *it)
{
	Page		page = cw->buf.data;
	MihPageOpaque op = MihPageGetOpaque(page);

	if (cw->p >= cw->npages)
		elog(ERROR, "mih: bucket %u of the build has more entries than counted", cw->v);
	page_put(page, cw->k++, it);
	if (cw->k < (int) MIH_PAGE_CAPACITY && cw->p * (int64) MIH_PAGE_CAPACITY + cw->k < cw->c)
		return;
	page_set_count(page, cw->k);
	op->next = cw->p + 1 < cw->npages ? cw->base + (BlockNumber) (cw->p + 1) : InvalidBlockNumber;
	if (cw->p == 0)
		op->hint = cw->base + (BlockNumber) (cw->npages - 1);
	else
		op->primary = cw->base;
	write_page(cw->w, page);
	cw->w->written += cw->k;
	cw->p++;
	cw->k = 0;
	if (cw->p < cw->npages)
		mih_init_page(page, MIH_OVERFLOW, cw->w->table, cw->v, cw->v);
	CHECK_FOR_INTERRUPTS();
}

static void
chain_end(MihChainWriter *cw)
{
	if (cw->p != cw->npages)
		elog(ERROR, "mih: bucket %u of the build has fewer entries than counted", cw->v);
	cw->w->dir[cw->v] = cw->base;
	if (cw->w->progress)
		pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, cw->w->written);
}

/* The spool's entries of one bucket, for a chain streamed from the spool. */
typedef struct MihStreamState
{
	const tfp_mih_layout *l;
	MihChainWriter *cw;
} MihStreamState;

static void
stream_item(const MihItem *it, void *arg)
{
	MihStreamState *ss = (MihStreamState *) arg;

	if (tfp_mih_substring(ss->l, ss->cw->w->table, it->code) == ss->cw->v)
		chain_add(ss->cw, it);
}

/*
 * Bucket v with its c entries (in order), in the table's pass over all its
 * buckets in order.  A directory page's first bucket opens a range page.
 * it NULL: a bucket larger than the memory, read from the spool sp.
 */
static void
put_bucket(MihWriter *w, uint32 v, const MihItem *it, int64 c, MihSpool *sp)
{
	Page		page = w->page.data;

	if (v % MIH_DIR_ENTRIES == 0)
	{
		if (w->open)
			flush_range(w, v - 1);
		open_range(w, v);
	}
	if (c == 0)
		return;
	if (c > w->fill || it == NULL)
	{
		MihChainWriter cw;

		if (w->open && MihPageGetOpaque(page)->lo < v)
			flush_range(w, v - 1);
		w->open = false;
		chain_begin(&cw, w, v, c);
		if (it != NULL)
		{
			for (int64 j = 0; j < c; j++)
				chain_add(&cw, &it[j]);
		}
		else
		{
			MihStreamState ss = {w->l, &cw};

			spool_scan(sp, stream_item, &ss);
		}
		chain_end(&cw);
		if ((v + 1) % MIH_DIR_ENTRIES != 0 && v + 1 < (UINT32_C(1) << w->l->width[w->table]))
			open_range(w, v + 1);
		return;
	}
	if (MihPageCount(page) + c > w->fill)
	{
		flush_range(w, v - 1);	/* the page holds buckets before v: c fits an empty one */
		open_range(w, v);
	}
	for (int64 j = 0; j < c; j++)
	{
		int			k = MihPageCount(page);

		page_put(page, k, &it[j]);
		page_set_count(page, k + 1);
	}
}

/* --- the build -------------------------------------------------------------- */

typedef struct MihCountState
{
	const tfp_mih_layout *l;
	int64	   *counts[TFP_MIH_M_MAX];	/* entries per bucket (2^32 and more) */
} MihCountState;

static void
count_item(const MihItem *it, void *arg)
{
	MihCountState *cs = (MihCountState *) arg;

	for (int i = 0; i < cs->l->m; i++)
		cs->counts[i][tfp_mih_substring(cs->l, i, it->code)]++;
}

/* Places the entries of buckets [lo, hi] of one table at pos[bucket - lo]++. */
typedef struct MihGroupState
{
	const tfp_mih_layout *l;
	int			table;
	uint32		lo,
				hi;
	int64	   *pos;
	MihItem    *out;
} MihGroupState;

static void
place_item(const MihItem *it, void *arg)
{
	MihGroupState *gs = (MihGroupState *) arg;
	uint32		v = tfp_mih_substring(gs->l, gs->table, it->code);

	if (v >= gs->lo && v <= gs->hi)
		gs->out[gs->pos[v - gs->lo]++] = *it;
}

/*
 * Writes a whole index of the spool's entries into fork: metapage,
 * directory, bucket pages.  Returns the number of blocks.
 */
static BlockNumber
write_index(Relation index, ForkNumber fork, const tfp_mih_layout *l, MihSpool *sp,
			int fillfactor, bool progress)
{
	MihWriter	w;
	MihCountState	cs;
	BlockNumber dir_start[TFP_MIH_M_MAX];
	BlockNumber *dirs[TFP_MIH_M_MAX];
	PGAlignedBlock blank;
	int64		group_cap = Max(sp->limit, 1024);
	MihItem    *group = NULL;
	int64	   *pos;

	memset(&w, 0, sizeof(w));
	w.index = index;
	w.fork = fork;
	w.l = l;
	w.progress = progress;
	w.fill = Max(1, (int) (MIH_PAGE_CAPACITY * fillfactor / 100));

	/* placeholders for the metapage and the directory, written last */
	memset(blank.data, 0, BLCKSZ);
	write_page(&w, blank.data);
	for (int i = 0; i < l->m; i++)
	{
		uint32		nb = UINT32_C(1) << l->width[i];

		dir_start[i] = w.nblocks;
		for (uint32 d = 0; d < (nb + MIH_DIR_ENTRIES - 1) / MIH_DIR_ENTRIES; d++)
			write_page(&w, blank.data);
		dirs[i] = (BlockNumber *) palloc(sizeof(BlockNumber) * nb);
		cs.counts[i] = (int64 *) palloc0(sizeof(int64) * nb);
	}
	cs.l = l;
	if (sp->total > 0)
		spool_scan(sp, count_item, &cs);

	if (progress)
	{
		pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, MIH_PHASE_WRITE);
		pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_TOTAL, sp->total * l->m);
	}
	pos = (int64 *) palloc(sizeof(int64) << TFP_MIH_WIDTH_MAX);
	if (sp->total > 0)
		group = (MihItem *) MemoryContextAllocHuge(CurrentMemoryContext,
												   sizeof(MihItem) * Min(group_cap, sp->total));

	for (int i = 0; i < l->m; i++)
	{
		uint32		nb = UINT32_C(1) << l->width[i];
		uint32		lo = 0;

		w.table = i;
		w.dir = dirs[i];
		w.open = false;
		while (lo < nb)
		{
			/* a group of buckets whose entries fit the group array */
			uint32		hi = lo;
			int64		n = cs.counts[i][lo];
			MihGroupState	gs;
			int64		at = 0;

			while (hi + 1 < nb && n + cs.counts[i][hi + 1] <= group_cap)
				n += cs.counts[i][++hi];
			if (n > group_cap)
			{
				/* one bucket larger than the memory: streamed from the spool */
				put_bucket(&w, lo, NULL, n, sp);
				lo = hi + 1;
				continue;
			}
			for (uint32 v = lo; v <= hi; v++)
			{
				pos[v - lo] = at;
				at += cs.counts[i][v];
			}
			if (n > 0)
			{
				gs.l = l;
				gs.table = i;
				gs.lo = lo;
				gs.hi = hi;
				gs.pos = pos;
				gs.out = group;
				spool_scan(sp, place_item, &gs);
			}
			at = 0;
			for (uint32 v = lo; v <= hi; v++)
			{
				put_bucket(&w, v, group + at, cs.counts[i][v], sp);
				at += cs.counts[i][v];
			}
			lo = hi + 1;
		}
		if (w.open)
			flush_range(&w, nb - 1);
	}

	/* the directory pages */
	for (int i = 0; i < l->m; i++)
	{
		uint32		nb = UINT32_C(1) << l->width[i];

		for (uint32 first = 0; first < nb; first += MIH_DIR_ENTRIES)
		{
			uint32		last = Min(first + MIH_DIR_ENTRIES, nb) - 1;
			Buffer		buf = ReadBufferExtended(index, fork, dir_start[i] + first / MIH_DIR_ENTRIES,
												 RBM_NORMAL, NULL);
			Page		page;

			LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
			page = BufferGetPage(buf);
			mih_init_page(page, MIH_DIR, i, first, last);
			memcpy(MihDirEntries(page), dirs[i] + first, sizeof(BlockNumber) * (last - first + 1));
			((PageHeader) page)->pd_lower = MIH_CONTENTS + sizeof(BlockNumber) * (last - first + 1);
			MarkBufferDirty(buf);
			UnlockReleaseBuffer(buf);
		}
		pfree(dirs[i]);
		pfree(cs.counts[i]);
	}

	/* the metapage */
	{
		Buffer		buf = ReadBufferExtended(index, fork, MIH_METAPAGE_BLKNO, RBM_NORMAL, NULL);

		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		mih_init_meta_page(BufferGetPage(buf), l, dir_start, fillfactor, (uint64) sp->total);
		MarkBufferDirty(buf);
		UnlockReleaseBuffer(buf);
	}
	pfree(pos);
	if (group)
		pfree(group);
	return w.nblocks;
}

static void
check_column(Relation index)
{
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(index), 0);

	if (RelationGetDescr(index)->natts != 1 || att->attlen != sizeof(int64) || !att->attbyval)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("mih indexes one simhash64 column")));
}

IndexBuildResult *
mih_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	MihSpool	sp;
	double		reltuples;
	tfp_mih_layout l;
	BlockNumber nblocks;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data", RelationGetRelationName(index));
	check_column(index);

	memset(&sp, 0, sizeof(sp));
	/* half of maintenance_work_mem for the rows, half for sorting a group */
	sp.limit = Max((int64) maintenance_work_mem * 1024 / 2 / (int64) sizeof(MihItem), 65536);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, MIH_PHASE_SCAN);
	reltuples = table_index_build_scan(heap, index, indexInfo, true, true,
									   build_callback, &sp, NULL);
	spool_finish(&sp);

	tfp_mih_layout_init(&l, mih_choose_m(index, (double) sp.total));
	nblocks = write_index(index, MAIN_FORKNUM, &l, &sp, mih_fillfactor(index), true);
	if (RelationNeedsWAL(index))
		log_newpage_range(index, MAIN_FORKNUM, 0, nblocks, true);

	if (sp.file)
		BufFileClose(sp.file);
	if (sp.items)
		pfree(sp.items);

	result = (IndexBuildResult *) palloc(sizeof(IndexBuildResult));
	result->heap_tuples = reltuples;
	result->index_tuples = (double) sp.total;
	return result;
}

/* The init fork of an unlogged index: an empty index, always WAL-logged. */
void
mih_build_empty(Relation index)
{
	MihSpool	sp;
	tfp_mih_layout l;
	BlockNumber nblocks;

	memset(&sp, 0, sizeof(sp));
	sp.limit = 1024;
	tfp_mih_layout_init(&l, mih_choose_m(index, 0));
	nblocks = write_index(index, INIT_FORKNUM, &l, &sp, mih_fillfactor(index), false);
	log_newpage_range(index, INIT_FORKNUM, 0, nblocks, true);
}

char *
mih_build_phase_name(int64 phasenum)
{
	switch (phasenum)
	{
		case PROGRESS_CREATEIDX_SUBPHASE_INITIALIZE:
			return "initializing";
		case MIH_PHASE_SCAN:
			return "scanning table";
		case MIH_PHASE_WRITE:
			return "writing tables";
	}
	return NULL;
}
