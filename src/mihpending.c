/*
 * mihpending.c: the rows a backend inserted into mih indexes and has not
 * written yet, and the hooks that write them in time.
 *
 * Every WAL record of a page change costs generic WAL a comparison of the
 * page's used bytes (about 7 kB), which makes one record per entry the
 * dominant cost of an insert.  So a backend keeps the rows it inserts in
 * memory (per index, at most MIH_PENDING_MAX) and writes them sorted by
 * bucket, many entries per page and per record (mih_insert_entries).
 *
 * Written before anything could miss them:
 *   - before every query starts (ExecutorStart: its scans, in this backend
 *     or in parallel workers that have no pending rows of their own, and the
 *     queries of triggers and functions in the middle of a statement) and
 *     when a statement's executor ends;
 *   - before and after every utility command but transaction control (a
 *     command that copies or rebuilds the index, as ALTER INDEX ... SET
 *     TABLESPACE, REINDEX, TRUNCATE, sees every row; COPY FROM, which has no
 *     executor, leaves none pending);
 *   - before a scan of the index (mihscan.c), when the buffer is full, and
 *     before the transaction commits or prepares (so other sessions, a
 *     standby and crash recovery see every committed row: the entries' WAL
 *     precedes the commit record).
 * Never after their heap tuple may be gone: a transaction's abort drops its
 * pending rows, a subtransaction's abort the rows it inserted (their tuples
 * are dead at once and VACUUM may free their TIDs; an entry written later
 * would name a reused TID); speculative insertions are not kept (mih_insert).
 * As a last guard, a row is written only if its TID still holds a tuple this
 * transaction inserted (rows of CREATE INDEX CONCURRENTLY's validation,
 * other transactions' tuples, are not checked).
 *
 * A flush that fails leaves its rows pending (the transaction or
 * subtransaction is failing anyway); entries it wrote twice are harmless,
 * as scans fill TID bitmaps.  Predicate-lock checks (SERIALIZABLE) are made
 * when the row arrives, not at the flush.  If the index got a new
 * relfilenode meanwhile although rows were written before each utility
 * command, the rebuild holds the rows and they are dropped.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/plannodes.h"
#include "storage/bufmgr.h"
#include "tcop/utility.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "mih.h"

/* rows a backend keeps pending per index: 24 bytes each, 1.5 MB */
#define MIH_PENDING_MAX 65536

typedef struct MihPendingRow
{
	uint64		code;
	ItemPointerData tid;
	bool		own;			/* a tuple this transaction inserted */
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
/* executors of INSERT ... ON CONFLICT started and not ended (or failed) */
static int	upserts_running = 0;
/* the library was loaded in this transaction, maybe by a running executor */
static bool loaded_in_xact = false;

static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ExecutorEnd_hook_type prev_ExecutorEnd = NULL;
static ProcessUtility_hook_type prev_ProcessUtility = NULL;

/*
 * Whether the tuple at tid (on the heap page in *buf, read and share-locked
 * here when it is another page) was inserted by this transaction and is
 * still there: not killed by a lost speculative insertion, not pruned.
 */
static bool
heap_tuple_is_ours(Relation heap, BlockNumber nblocks, Buffer *buf, ItemPointer tid)
{
	BlockNumber blk = ItemPointerGetBlockNumber(tid);
	OffsetNumber off = ItemPointerGetOffsetNumber(tid);
	Page		page;
	ItemId		lp;

	if (blk >= nblocks)
		return false;			/* truncated away by VACUUM */
	if (!BufferIsValid(*buf) || BufferGetBlockNumber(*buf) != blk)
	{
		if (BufferIsValid(*buf))
			UnlockReleaseBuffer(*buf);
		*buf = ReadBuffer(heap, blk);
		LockBuffer(*buf, BUFFER_LOCK_SHARE);
	}
	page = BufferGetPage(*buf);
	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page))
		return false;
	lp = PageGetItemId(page, off);
	return ItemIdIsNormal(lp) &&
		TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin((HeapTupleHeader) PageGetItem(page, lp)));
}

/*
 * Writes the pending rows of one index into each of its tables.  The rows
 * stay pending until every table has them.
 */
static void
flush_one(MihPendingIndex *pi)
{
	Relation	index;
	Relation	heap;
	BlockNumber nblocks;
	Buffer		hbuf = InvalidBuffer;
	MihEntry	few[16];
	MihEntry   *e;
	MemoryContext cxt = NULL;
	int			n = 0;

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
	/* a statement's few rows (the usual single-row insert) need no context */
	if ((size_t) pi->n <= lengthof(few))
		e = few;
	else
	{
		cxt = AllocSetContextCreate(CurrentMemoryContext, "mih flush", ALLOCSET_DEFAULT_SIZES);
		e = (MihEntry *) MemoryContextAlloc(cxt, sizeof(MihEntry) * pi->n);
	}
	/* the rows whose tuples are still there (one heap page read per run of rows) */
	heap = table_open(index->rd_index->indrelid, RowExclusiveLock);
	nblocks = RelationGetNumberOfBlocks(heap);
	for (int j = 0; j < pi->n; j++)
	{
		if (pi->rows[j].own &&
			!heap_tuple_is_ours(heap, nblocks, &hbuf, &pi->rows[j].tid))
			continue;
		e[n].code = pi->rows[j].code;
		e[n].tid = pi->rows[j].tid;
		n++;
	}
	if (BufferIsValid(hbuf))
		UnlockReleaseBuffer(hbuf);
	table_close(heap, NoLock);
	if (n > 0)
		mih_insert_entries(index, e, n);
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
flush_all(void)
{
	if (npending > 0 && IsTransactionState())
		mih_flush_pending(InvalidOid);
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

/*
 * Keeps entry e of index pending.  own: its tuple was inserted by this
 * transaction (checked again when written).
 */
void
mih_pend(Relation index, const MihEntry *e, bool own)
{
	MihPendingIndex *pi = pending_for(index);

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
	pi->rows[pi->n].code = e->code;
	pi->rows[pi->n].tid = e->tid;
	pi->rows[pi->n].own = own;
	pi->rows[pi->n].subid = GetCurrentSubTransactionId();
	pi->n++;
}

/* Whether an INSERT ... ON CONFLICT may be running in this backend. */
bool
mih_upsert_running(void)
{
	return upserts_running > 0 || loaded_in_xact;
}

/*
 * Whether stmt has an INSERT ... ON CONFLICT: a ModifyTable is the top of
 * the plan or of a data-modifying CTE's subplan.  An INSERT whose plan has
 * another top counts, to be safe.
 */
static bool
plan_has_upsert(PlannedStmt *stmt)
{
	ListCell   *lc;

	if (stmt->commandType == CMD_SELECT && !stmt->hasModifyingCTE)
		return false;
	if (stmt->planTree != NULL && IsA(stmt->planTree, ModifyTable))
	{
		if (((ModifyTable *) stmt->planTree)->onConflictAction != ONCONFLICT_NONE)
			return true;
	}
	else if (stmt->commandType == CMD_INSERT)
		return true;
	foreach(lc, stmt->subplans)
	{
		Plan	   *p = (Plan *) lfirst(lc);

		if (p != NULL && IsA(p, ModifyTable) &&
			((ModifyTable *) p)->onConflictAction != ONCONFLICT_NONE)
			return true;
	}
	return false;
}

static void
mih_executor_start(QueryDesc *queryDesc, int eflags)
{
	flush_all();
	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
	/* counted once started (an executor that fails to start never ends) */
	if (plan_has_upsert(queryDesc->plannedstmt))
		upserts_running++;
}

static void
mih_executor_end(QueryDesc *queryDesc)
{
	if (prev_ExecutorEnd)
		prev_ExecutorEnd(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
	if (upserts_running > 0 && plan_has_upsert(queryDesc->plannedstmt))
		upserts_running--;
	flush_all();
}

static void
mih_process_utility(PlannedStmt *pstmt, const char *queryString,
#if PG_VERSION_NUM >= 140000
					bool readOnlyTree,
#endif
					ProcessUtilityContext context, ParamListInfo params,
					QueryEnvironment *queryEnv, DestReceiver *dest,
					QueryCompletion *qc)
{
	/* COMMIT and PREPARE write them anyway, ROLLBACK drops them */
	bool		flush = !IsA(pstmt->utilityStmt, TransactionStmt);

	if (flush)
		flush_all();
	if (prev_ProcessUtility)
		prev_ProcessUtility(pstmt, queryString,
#if PG_VERSION_NUM >= 140000
							readOnlyTree,
#endif
							context, params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString,
#if PG_VERSION_NUM >= 140000
								readOnlyTree,
#endif
								context, params, queryEnv, dest, qc);
	if (flush)
		flush_all();
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
			upserts_running = 0;
			loaded_in_xact = false;
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

/* Installs the hooks and callbacks; once, from _PG_init (via mih_init). */
void
mih_init_pending(void)
{
	/*
	 * Loaded while an executor starts (the first use of textfp in a session
	 * can be the opening of an INSERT ... ON CONFLICT's indexes), that
	 * executor passed the hook: count an upsert as running until the
	 * transaction ends.
	 */
	loaded_in_xact = IsTransactionState();
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = mih_executor_start;
	prev_ExecutorEnd = ExecutorEnd_hook;
	ExecutorEnd_hook = mih_executor_end;
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = mih_process_utility;
	RegisterXactCallback(mih_xact_callback, NULL);
	RegisterSubXactCallback(mih_subxact_callback, NULL);
}
