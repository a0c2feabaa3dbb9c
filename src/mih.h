/*
 * mih.h: the mih index access method (multi-index hashing over simhash64):
 * its on-disk layout and what its files share.
 *
 * An index of m tables (tfp_mih.h: table i keeps every code in the bucket of
 * its substring i).  Pages, all with the same special space (MihPageOpaque):
 *
 *   block 0        the metapage: m, the substring widths, where each table's
 *                  directory starts; fixed when the index is built.
 *   directory      per table, one entry (a block number) per bucket, in
 *                  bucket order, MIH_DIR_ENTRIES a page; the pages of all
 *                  tables follow the metapage, contiguous.  Every entry points
 *                  to a bucket page (never invalid).
 *   bucket pages   a range page holds the buckets lo..hi of one table (every
 *                  entry of those buckets: the directory points all of them
 *                  to it); a range never crosses a directory page, so one
 *                  directory page describes it.  A bucket too big for a page
 *                  has a range of its own (lo = hi) and a chain of overflow
 *                  pages behind its primary page.
 *
 * A bucket page holds entries (code, TID): the 64-bit codes from the page
 * header up (contiguous, so that verifying them is a popcount loop over an
 * array), the 6-byte TIDs from the special space down, so the free space is
 * the hole between pd_lower and pd_upper that generic WAL leaves out.  The
 * first nsorted entries are in bucket order (binary search finds a bucket's
 * run); later inserts are appended and the page is sorted again when
 * MIH_TAIL_MAX of them have piled up.
 *
 * Pages are never freed or reused: a split moves entries only into a page
 * newly added at the end of the relation, which is what lets VACUUM's one
 * pass over the blocks see every entry (see mihvacuum.c).
 */
#ifndef MIH_H
#define MIH_H

#include "postgres.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "access/generic_xlog.h"
#include "nodes/execnodes.h"
#include "nodes/pathnodes.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/itemptr.h"
#include "utils/rel.h"

#include "tfp_mih.h"

#define MIH_MAGIC		0x4D494831	/* "MIH1" */
#define MIH_VERSION		1
#define MIH_METAPAGE_BLKNO 0
#define MIH_PAGE_ID		0xFF8D		/* last 2 bytes of every page, as other AMs do */

/* page flags */
#define MIH_META		0x0001
#define MIH_DIR			0x0002
#define MIH_BUCKET		0x0004		/* a range page or a chain's primary */
#define MIH_OVERFLOW	0x0008		/* an overflow page of a chain */
#define MIH_HAS_FREE	0x0010		/* primary: VACUUM freed room in the chain */

/* strategy numbers: as the other simhash64 classes (textfp.h) */
#define MIH_NSTRATEGIES 3

/* reloptions */
#define MIH_DEFAULT_FILLFACTOR 90
#define MIH_MIN_FILLFACTOR 10

typedef struct MihOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			m;				/* 0: chosen from the table's size at build */
	int			fillfactor;		/* percent of a range page a build fills */
} MihOptions;

typedef struct MihPageOpaqueData
{
	uint32		lo;				/* bucket and directory pages: first bucket */
	uint32		hi;				/* last bucket */
	BlockNumber next;			/* next page of a chain */
	BlockNumber hint;			/* primary: a page of its chain that had room */
	BlockNumber primary;		/* overflow page: its chain's primary */
	uint16		nsorted;		/* entries [0, nsorted) in bucket order */
	uint16		flags;
	uint16		table;
	uint16		page_id;		/* MIH_PAGE_ID */
} MihPageOpaqueData;

typedef MihPageOpaqueData *MihPageOpaque;

#define MihPageGetOpaque(page) ((MihPageOpaque) PageGetSpecialPointer(page))

#define MIH_CONTENTS	MAXALIGN(SizeOfPageHeaderData)
#define MIH_SPECIAL_SIZE MAXALIGN(sizeof(MihPageOpaqueData))
#define MIH_TID_SIZE	sizeof(ItemPointerData)
#define MIH_ENTRY_SIZE	(sizeof(uint64) + MIH_TID_SIZE)
/* entries a bucket page holds: 581 with 8 kB pages */
#define MIH_PAGE_CAPACITY ((BLCKSZ - MIH_CONTENTS - MIH_SPECIAL_SIZE) / MIH_ENTRY_SIZE)
/* directory entries a page holds: 2034 with 8 kB pages */
#define MIH_DIR_ENTRIES ((BLCKSZ - MIH_CONTENTS - MIH_SPECIAL_SIZE) / sizeof(BlockNumber))
/* appended entries a page takes before it is sorted again */
#define MIH_TAIL_MAX	32
/* directory pages: at most 2^16 buckets a table, TFP_MIH_M_MAX tables */
#define MIH_MAX_DIR_PAGES (TFP_MIH_M_MAX * ((1 << TFP_MIH_WIDTH_MAX) / MIH_DIR_ENTRIES + 1))

typedef struct MihMetaPageData
{
	uint32		magic;
	uint32		version;
	uint32		m;
	uint32		dir_entries;	/* MIH_DIR_ENTRIES of the build */
	uint8		width[TFP_MIH_M_MAX];
	BlockNumber dir_start[TFP_MIH_M_MAX];	/* table i's first directory page */
	uint32		fillfactor;
	uint32		pad;
	uint64		build_rows;		/* rows indexed by the build */
} MihMetaPageData;

#define MihPageGetMeta(page) ((MihMetaPageData *) PageGetContents(page))

/*
 * What every operation needs from the metapage; cached in rd_amcache (which
 * the relcache frees on invalidation, so it holds nothing else: no pointer to
 * memory of its own).  The directory is read from its pages in shared
 * buffers: a scan reads each directory page its probes need once.
 */
typedef struct MihMeta
{
	tfp_mih_layout layout;
	BlockNumber dir_start[TFP_MIH_M_MAX];
	double		build_rows;
	int			fillfactor;
} MihMeta;

/* One entry: a row's code and its heap TID. */
typedef struct MihEntry
{
	uint64		code;
	ItemPointerData tid;
} MihEntry;

/* Asks the CPU to fetch a cache line ahead of use. */
#if defined(__GNUC__) || defined(__clang__)
#define MIH_PREFETCH(p) __builtin_prefetch(p)
#else
#define MIH_PREFETCH(p) ((void) (p))
#endif

/* --- entries of a bucket page --- */

static inline int
MihPageCount(Page page)
{
	return (int) ((((PageHeader) page)->pd_lower - MIH_CONTENTS) / sizeof(uint64));
}

static inline uint64 *
MihPageCodes(Page page)
{
	return (uint64 *) (page + MIH_CONTENTS);
}

static inline ItemPointer
MihPageTid(Page page, int j)
{
	return (ItemPointer) (page + ((PageHeader) page)->pd_special - MIH_TID_SIZE * (j + 1));
}

static inline bool
MihPageHasRoom(Page page)
{
	return ((PageHeader) page)->pd_upper - ((PageHeader) page)->pd_lower >= (int) MIH_ENTRY_SIZE;
}

static inline BlockNumber *
MihDirEntries(Page page)
{
	return (BlockNumber *) PageGetContents(page);
}

/* The directory page and slot of bucket v of table i. */
static inline BlockNumber
MihDirBlock(const MihMeta *meta, int i, uint32 v)
{
	return meta->dir_start[i] + v / MIH_DIR_ENTRIES;
}

/*
 * Predicate locks are taken on buckets, not pages: lock target "block" n is
 * the n-th bucket of all tables (tfp_mih_layout.offset).  A lookup locks the
 * buckets it probes and an insert checks the m buckets of its code, so a
 * lookup conflicts only with inserts into a bucket it looked in.
 */
static inline BlockNumber
MihLockTarget(const MihMeta *meta, int i, uint32 v)
{
	return meta->layout.offset[i] + v;
}

/*
 * A walk along an overflow chain counts its pages: a chain longer than the
 * index is broken (a cycle).  The index's size is asked only of long chains.
 */
typedef struct MihChainWalk
{
	BlockNumber visited;
	BlockNumber limit;
	bool		exact;			/* limit is the index's size */
} MihChainWalk;

#define MIH_CHAIN_WALK_INIT {0, 1024, false}

/* mih.c */
extern bool mih_chain_step(Relation index, MihChainWalk *walk);
extern const MihMeta *mih_get_meta(Relation index);
extern void mih_init_page(Page page, uint16 flags, int table, uint32 lo, uint32 hi);
extern void mih_init_meta_page(Page page, const tfp_mih_layout *l,
							   const BlockNumber *dir_start, int fillfactor,
							   uint64 build_rows);
extern void mih_check_bucket_page(Relation index, Page page, BlockNumber blkno);
extern bool mih_page_covers(Page page, int table, uint32 v);
extern void mih_check_dir_page(Relation index, Page page, BlockNumber blkno, int table);
extern BlockNumber mih_dir_entry(Relation index, Page dpage, BlockNumber dblk,
								 int table, uint32 v);
extern BlockNumber mih_dir_lookup(Relation index, const MihMeta *meta, int table, uint32 v);
extern void mih_corrupted(Relation index, const char *what) pg_attribute_noreturn();
extern Buffer mih_new_buffer(Relation index);
extern int	mih_lower_bound(Page page, int n, const tfp_mih_layout *l, int table, uint32 v);
extern void mih_page_sort(Page page, const tfp_mih_layout *l, int table);
extern int	mih_choose_m(Relation index, double rows);
extern int	mih_fillfactor(Relation index);
extern bytea *mih_options(Datum reloptions, bool validate);

/* mihbuild.c */
extern IndexBuildResult *mih_build(Relation heap, Relation index, IndexInfo *indexInfo);
extern void mih_build_empty(Relation index);
extern char *mih_build_phase_name(int64 phasenum);

/* mihinsert.c */
extern void mih_insert_entries(Relation index, MihEntry *e, int n);
extern bool mih_insert(Relation index, Datum *values, bool *isnull,
					   ItemPointer ht_ctid, Relation heapRel,
					   IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
					   bool indexUnchanged,
#endif
					   IndexInfo *indexInfo);

/* mihpending.c */
extern void mih_init_pending(void);
extern void mih_flush_pending(Oid indexoid);
extern void mih_pend(Relation index, const MihEntry *e, bool own);
extern bool mih_upsert_running(void);

/* mihscan.c */
extern IndexScanDesc mih_begin_scan(Relation index, int nkeys, int norderbys);
extern void mih_rescan(IndexScanDesc scan, ScanKey keys, int nkeys,
					   ScanKey orderbys, int norderbys);
extern int64 mih_get_bitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void mih_end_scan(IndexScanDesc scan);

/* mihvacuum.c */
extern IndexBulkDeleteResult *mih_bulk_delete(IndexVacuumInfo *info,
											  IndexBulkDeleteResult *stats,
											  IndexBulkDeleteCallback callback,
											  void *callback_state);
extern IndexBulkDeleteResult *mih_vacuum_cleanup(IndexVacuumInfo *info,
												 IndexBulkDeleteResult *stats);

/* mihcost.c */
extern void mih_cost_estimate(PlannerInfo *root, IndexPath *path, double loop_count,
							  Cost *indexStartupCost, Cost *indexTotalCost,
							  Selectivity *indexSelectivity, double *indexCorrelation,
							  double *indexPages);

/* mihvalidate.c */
extern bool mih_validate(Oid opclassoid);

/*
 * mihwal.c: every change to an index page after the build, each one generic
 * WAL record of at most 3 pages, so the index is consistent after any prefix
 * of them.
 */
extern void mih_wal_append(Relation index, const MihMeta *meta, Buffer buf,
						   const MihEntry *e, int n);
extern void mih_wal_append_hint(Relation index, const MihMeta *meta, Buffer primary,
								Buffer target, const MihEntry *e, int n);
extern void mih_wal_new_overflow(Relation index, const MihMeta *meta, Buffer primary,
								 Buffer newbuf, const MihEntry *e, int n);
extern void mih_wal_split(Relation index, const MihMeta *meta, Buffer dirbuf,
						  Buffer left, Buffer right);
extern void mih_wal_delete(Relation index, Buffer buf, const bool *dead);
extern void mih_wal_chain_has_free(Relation index, Buffer primary);

#endif							/* MIH_H */
