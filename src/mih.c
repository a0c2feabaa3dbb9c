/*
 * mih.c: the mih access method's handler, its options, the metapage cache
 * and the page helpers the other mih*.c files share.  The layout is in mih.h;
 * build, insert, scan, vacuum, WAL, cost estimate and validation each have a
 * file of their own.
 */
#include "postgres.h"

#include "access/reloptions.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"

#include "mih.h"
#include "textfp.h"

static relopt_kind mih_relopt_kind;

/* Registers the reloptions and the pending inserts' hooks; once, from _PG_init. */
void
mih_init(void)
{
	mih_init_pending();
	mih_relopt_kind = add_reloption_kind();
	add_int_reloption(mih_relopt_kind, "m",
					  "Number of substring tables (0: chosen from the table's size when the index is built)",
					  0, 0, TFP_MIH_M_MAX
#if PG_VERSION_NUM >= 130000
					  ,AccessExclusiveLock
#endif
		);
	add_int_reloption(mih_relopt_kind, "fillfactor",
					  "Packs range pages of a build to this percentage",
					  MIH_DEFAULT_FILLFACTOR, MIH_MIN_FILLFACTOR, 100
#if PG_VERSION_NUM >= 130000
					  ,ShareUpdateExclusiveLock
#endif
		);
}

bytea *
mih_options(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		{"m", RELOPT_TYPE_INT, offsetof(MihOptions, m)},
		{"fillfactor", RELOPT_TYPE_INT, offsetof(MihOptions, fillfactor)},
	};
	MihOptions *opts;

	opts = (MihOptions *) build_reloptions(reloptions, validate, mih_relopt_kind,
										   sizeof(MihOptions), tab, lengthof(tab));
	if (validate && opts != NULL && opts->m != 0 && opts->m < TFP_MIH_M_MIN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("value %d out of bounds for option \"m\"", opts->m),
				 errdetail("Valid values are 0 (chosen from the table's size when the index is built) and %d to %d.",
						   TFP_MIH_M_MIN, TFP_MIH_M_MAX)));
	return (bytea *) opts;
}

/* The m a build uses: the option, or the choice for a table of rows. */
int
mih_choose_m(Relation index, double rows)
{
	MihOptions *opts = (MihOptions *) index->rd_options;

	if (opts != NULL && opts->m != 0)
	{
		if (opts->m < TFP_MIH_M_MIN || opts->m > TFP_MIH_M_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("value %d out of bounds for option \"m\"", opts->m)));
		return opts->m;
	}
	return tfp_mih_choose_m(rows, &tfp_mih_default_costs);
}

int
mih_fillfactor(Relation index)
{
	MihOptions *opts = (MihOptions *) index->rd_options;

	return opts != NULL ? opts->fillfactor : MIH_DEFAULT_FILLFACTOR;
}

PG_FUNCTION_INFO_V1(mih_handler);
Datum
mih_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *am = makeNode(IndexAmRoutine);

	am->amstrategies = MIH_NSTRATEGIES;
	am->amsupport = 0;			/* the class has operators only */
#if PG_VERSION_NUM >= 130000
	am->amoptsprocnum = 0;
#endif
	am->amcanorder = false;
	am->amcanorderbyop = false;
	am->amcanbackward = false;
	am->amcanunique = false;
	am->amcanmulticol = false;
	am->amoptionalkey = false;	/* a scan needs a radius query */
	am->amsearcharray = false;
	am->amsearchnulls = false;
	am->amstorage = false;
	am->amclusterable = false;
	am->ampredlocks = true;
	am->amcanparallel = false;
	am->amcaninclude = false;
#if PG_VERSION_NUM >= 130000
	am->amusemaintenanceworkmem = false;	/* VACUUM's passes use no memory of size */
	am->amparallelvacuumoptions = VACUUM_OPTION_PARALLEL_BULKDEL;
#endif
#if PG_VERSION_NUM >= 160000
	am->amsummarizing = false;
#endif
#if PG_VERSION_NUM >= 170000
	am->amcanbuildparallel = false;
#endif
	am->amkeytype = InvalidOid;

	am->ambuild = mih_build;
	am->ambuildempty = mih_build_empty;
	am->aminsert = mih_insert;
#if PG_VERSION_NUM >= 170000
	am->aminsertcleanup = NULL;
#endif
	am->ambulkdelete = mih_bulk_delete;
	am->amvacuumcleanup = mih_vacuum_cleanup;
	am->amcanreturn = NULL;
	am->amcostestimate = mih_cost_estimate;
	am->amoptions = mih_options;
	am->amproperty = NULL;
	am->ambuildphasename = mih_build_phase_name;
	am->amvalidate = mih_validate;
#if PG_VERSION_NUM >= 130000
	am->amadjustmembers = NULL;
#endif
	am->ambeginscan = mih_begin_scan;
	am->amrescan = mih_rescan;
	am->amgettuple = NULL;		/* bitmap scans only: answers are exact */
	am->amgetbitmap = mih_get_bitmap;
	am->amendscan = mih_end_scan;
	am->ammarkpos = NULL;
	am->amrestrpos = NULL;
	am->amestimateparallelscan = NULL;
	am->aminitparallelscan = NULL;
	am->amparallelrescan = NULL;

	PG_RETURN_POINTER(am);
}

/* --- pages ---------------------------------------------------------------- */

void
mih_init_page(Page page, uint16 flags, int table, uint32 lo, uint32 hi)
{
	MihPageOpaque op;

	PageInit(page, BLCKSZ, MIH_SPECIAL_SIZE);
	op = MihPageGetOpaque(page);
	op->lo = lo;
	op->hi = hi;
	op->next = InvalidBlockNumber;
	op->hint = InvalidBlockNumber;
	op->primary = InvalidBlockNumber;
	op->nsorted = 0;
	op->flags = flags;
	op->table = (uint16) table;
	op->page_id = MIH_PAGE_ID;
}

void
mih_init_meta_page(Page page, const tfp_mih_layout *l, const BlockNumber *dir_start,
				   int fillfactor, uint64 build_rows)
{
	MihMetaPageData *meta;

	mih_init_page(page, MIH_META, 0, 0, 0);
	meta = MihPageGetMeta(page);
	memset(meta, 0, sizeof(*meta));
	meta->magic = MIH_MAGIC;
	meta->version = MIH_VERSION;
	meta->m = (uint32) l->m;
	meta->dir_entries = MIH_DIR_ENTRIES;
	for (int i = 0; i < l->m; i++)
	{
		meta->width[i] = l->width[i];
		meta->dir_start[i] = dir_start[i];
	}
	meta->fillfactor = (uint32) fillfactor;
	meta->build_rows = build_rows;
	((PageHeader) page)->pd_lower = MIH_CONTENTS + sizeof(MihMetaPageData);
}

void
mih_corrupted(Relation index, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" is corrupted: %s", RelationGetRelationName(index), what),
			 errhint("REINDEX the index.")));
}

/*
 * The metapage, read once per relcache entry: it never changes after the
 * build, and a new build (REINDEX, TRUNCATE) makes a new relcache entry.
 */
const MihMeta *
mih_get_meta(Relation index)
{
	if (index->rd_amcache == NULL)
	{
		Buffer		buf;
		Page		page;
		MihMetaPageData *mp;
		MihMeta		meta;

		if (RelationGetNumberOfBlocks(index) == 0)
			mih_corrupted(index, "it has no metapage");
		buf = ReadBuffer(index, MIH_METAPAGE_BLKNO);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		mp = MihPageGetMeta(page);
		if (PageIsNew(page) || PageGetSpecialSize(page) != MIH_SPECIAL_SIZE ||
			MihPageGetOpaque(page)->page_id != MIH_PAGE_ID ||
			!(MihPageGetOpaque(page)->flags & MIH_META) || mp->magic != MIH_MAGIC)
		{
			UnlockReleaseBuffer(buf);
			mih_corrupted(index, "its first page is not a mih metapage");
		}
		if (mp->version != MIH_VERSION)
		{
			uint32		v = mp->version;

			UnlockReleaseBuffer(buf);
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("index \"%s\" has mih version %u, this library reads version %d",
							RelationGetRelationName(index), v, MIH_VERSION),
					 errhint("REINDEX the index.")));
		}
		if (mp->m < TFP_MIH_M_MIN || mp->m > TFP_MIH_M_MAX ||
			mp->dir_entries != MIH_DIR_ENTRIES)
		{
			UnlockReleaseBuffer(buf);
			mih_corrupted(index, "its metapage has an impossible layout");
		}
		tfp_mih_layout_init(&meta.layout, (int) mp->m);
		for (int i = 0; i < (int) mp->m; i++)
		{
			if (mp->width[i] != meta.layout.width[i] ||
				mp->dir_start[i] == MIH_METAPAGE_BLKNO ||
				mp->dir_start[i] == InvalidBlockNumber)
			{
				UnlockReleaseBuffer(buf);
				mih_corrupted(index, "its metapage has an impossible layout");
			}
			meta.dir_start[i] = mp->dir_start[i];
		}
		meta.build_rows = (double) mp->build_rows;
		meta.fillfactor = (int) mp->fillfactor;
		UnlockReleaseBuffer(buf);

		index->rd_amcache = MemoryContextAlloc(index->rd_indexcxt, sizeof(MihMeta));
		memcpy(index->rd_amcache, &meta, sizeof(MihMeta));
	}
	return (const MihMeta *) index->rd_amcache;
}

/*
 * Errors out unless page is a well-formed bucket page, so that a damaged
 * page is reported instead of read past its end.
 */
void
mih_check_bucket_page(Relation index, Page page, BlockNumber blkno)
{
	PageHeader	ph = (PageHeader) page;
	MihPageOpaque op;
	int			n;

	if (PageIsNew(page) || PageGetSpecialSize(page) != MIH_SPECIAL_SIZE)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is corrupted: block %u is not a mih page",
						RelationGetRelationName(index), blkno),
				 errhint("REINDEX the index.")));
	op = MihPageGetOpaque(page);
	n = MihPageCount(page);
	if (op->page_id != MIH_PAGE_ID || !(op->flags & (MIH_BUCKET | MIH_OVERFLOW)) ||
		ph->pd_lower < MIH_CONTENTS || (ph->pd_lower - MIH_CONTENTS) % sizeof(uint64) != 0 ||
		ph->pd_upper > ph->pd_special ||
		(int) (ph->pd_special - ph->pd_upper) != n * (int) MIH_TID_SIZE ||
		n > (int) MIH_PAGE_CAPACITY || op->nsorted > n || op->lo > op->hi)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is corrupted: bucket page %u is malformed",
						RelationGetRelationName(index), blkno),
				 errhint("REINDEX the index.")));
}

/* Errors out unless page is a directory page of table. */
void
mih_check_dir_page(Relation index, Page page, BlockNumber blkno, int table)
{
	MihPageOpaque op;

	if (PageIsNew(page) || PageGetSpecialSize(page) != MIH_SPECIAL_SIZE)
		mih_corrupted(index, "a directory page is not a mih page");
	op = MihPageGetOpaque(page);
	if (op->page_id != MIH_PAGE_ID || !(op->flags & MIH_DIR) || op->table != table ||
		op->lo > op->hi ||
		((PageHeader) page)->pd_lower != MIH_CONTENTS + (op->hi - op->lo + 1) * sizeof(BlockNumber))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is corrupted: directory page %u is malformed",
						RelationGetRelationName(index), blkno),
				 errhint("REINDEX the index.")));
}

/*
 * The entry of bucket v in directory page dpage (block dblk, locked) of
 * table: the block of the bucket page that holds v.
 */
BlockNumber
mih_dir_entry(Relation index, Page dpage, BlockNumber dblk, int table, uint32 v)
{
	MihPageOpaque op;
	BlockNumber blk;

	mih_check_dir_page(index, dpage, dblk, table);
	op = MihPageGetOpaque(dpage);
	if (v < op->lo || v > op->hi)
		mih_corrupted(index, "a directory page holds other buckets than its place says");
	blk = MihDirEntries(dpage)[v - op->lo];
	if (blk == InvalidBlockNumber || blk == MIH_METAPAGE_BLKNO)
		mih_corrupted(index, "a directory entry is invalid");
	return blk;
}

/* The bucket page the directory gives for bucket v of table, read now. */
BlockNumber
mih_dir_lookup(Relation index, const MihMeta *meta, int table, uint32 v)
{
	BlockNumber dblk = MihDirBlock(meta, table, v);
	Buffer		buf = ReadBuffer(index, dblk);
	BlockNumber blk;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	blk = mih_dir_entry(index, BufferGetPage(buf), dblk, table, v);
	UnlockReleaseBuffer(buf);
	return blk;
}

/* Counts a page of a chain walk; true when the chain must be broken. */
bool
mih_chain_step(Relation index, MihChainWalk *walk)
{
	if (++walk->visited <= walk->limit)
		return false;
	if (!walk->exact)
	{
		walk->limit = RelationGetNumberOfBlocks(index);
		walk->exact = true;
	}
	return walk->visited > walk->limit;
}

/* Whether page is the bucket page (range or primary) of bucket v of table. */
bool
mih_page_covers(Page page, int table, uint32 v)
{
	MihPageOpaque op;

	if (PageIsNew(page) || PageGetSpecialSize(page) != MIH_SPECIAL_SIZE)
		return false;
	op = MihPageGetOpaque(page);
	return op->page_id == MIH_PAGE_ID && (op->flags & MIH_BUCKET) &&
		op->table == table && op->lo <= v && v <= op->hi;
}

/*
 * A new page at the end of the relation, pinned and locked exclusively.
 * Never a recycled one: see mih.h (VACUUM relies on it).
 */
Buffer
mih_new_buffer(Relation index)
{
	Buffer		buf;

	LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBuffer(index, P_NEW);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
}

/* The first of the n sorted entries whose bucket in table is >= v. */
int
mih_lower_bound(Page page, int n, const tfp_mih_layout *l, int table, uint32 v)
{
	const uint64 *codes = MihPageCodes(page);
	int			lo = 0,
				hi = n;

	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (tfp_mih_substring(l, table, codes[mid]) < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Puts every entry of a bucket page in bucket order, stably: the tail after
 * nsorted is insertion-sorted and merged with the sorted prefix.
 */
void
mih_page_sort(Page page, const tfp_mih_layout *l, int table)
{
	MihPageOpaque op = MihPageGetOpaque(page);
	int			n = MihPageCount(page);
	int			s = op->nsorted;
	uint64	   *codes = MihPageCodes(page);
	uint64		tc[MIH_PAGE_CAPACITY];
	ItemPointerData tt[MIH_PAGE_CAPACITY];
	uint64		mc[MIH_PAGE_CAPACITY];
	ItemPointerData mt[MIH_PAGE_CAPACITY];
	int			nt = 0,
				a,
				b,
				k;

	if (s >= n)
		return;
	/* the tail, insertion-sorted (at most MIH_TAIL_MAX + 1 entries normally) */
	for (int j = s; j < n; j++)
	{
		uint64		c = codes[j];
		ItemPointerData t = *MihPageTid(page, j);
		uint32		v = tfp_mih_substring(l, table, c);
		int			p = nt;

		while (p > 0 && tfp_mih_substring(l, table, tc[p - 1]) > v)
		{
			tc[p] = tc[p - 1];
			tt[p] = tt[p - 1];
			p--;
		}
		tc[p] = c;
		tt[p] = t;
		nt++;
	}
	/* merge: prefix entries first on equal buckets (stable) */
	a = 0;
	b = 0;
	k = 0;
	while (a < s || b < nt)
	{
		if (b >= nt || (a < s && tfp_mih_substring(l, table, codes[a]) <=
						tfp_mih_substring(l, table, tc[b])))
		{
			mc[k] = codes[a];
			mt[k] = *MihPageTid(page, a);
			a++;
		}
		else
		{
			mc[k] = tc[b];
			mt[k] = tt[b];
			b++;
		}
		k++;
	}
	for (int j = 0; j < n; j++)
	{
		codes[j] = mc[j];
		*MihPageTid(page, j) = mt[j];
	}
	op->nsorted = (uint16) n;
}
