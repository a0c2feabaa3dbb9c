/*
 * dedup_locks.c: the advisory locks of the textfp_dedup trigger (docs/dedup.md,
 * "Concurrency"): lock keys that every near pair shares, under a shared
 * (table, scope) lock; the escalation of the table owner's transactions to
 * that lock, exclusive; and the bound on the locks a transaction holds,
 * textfp.dedup_max_locks.
 */
#include "postgres.h"

#include <limits.h>

#include "access/xact.h"
#include "catalog/pg_class.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "dedup.h"

static int	dedup_max_locks = DEDUP_DEFAULT_MAX_LOCKS;

/*
 * textfp's locks this transaction holds (new LOCALLOCKs it acquired), and
 * how many each open subtransaction that took some acquired: a rolled-back
 * subtransaction (savepoint, PL/pgSQL exception block) releases its locks,
 * so they count no more.  Innermost last.
 */
typedef struct LockLevel
{
	SubTransactionId subid;
	int64		n;
} LockLevel;

static LocalTransactionId locks_lxid = InvalidLocalTransactionId;
static int64 locks_held = 0;
static LockLevel *levels = NULL;
static int	nlevels = 0;
static int	maxlevels = 0;

/* A new transaction holds none. */
static void
sync_transaction(void)
{
	if (locks_lxid != DEDUP_LXID)
	{
		locks_lxid = DEDUP_LXID;
		locks_held = 0;
		nlevels = 0;
	}
}

static void
count_lock(void)
{
	SubTransactionId sub = GetCurrentSubTransactionId();

	sync_transaction();
	if (nlevels == 0 || levels[nlevels - 1].subid != sub)
	{
		if (nlevels == maxlevels)
		{
			maxlevels = Max(8, maxlevels * 2);
			levels = levels == NULL
				? MemoryContextAlloc(TopMemoryContext, maxlevels * sizeof(LockLevel))
				: repalloc(levels, maxlevels * sizeof(LockLevel));
		}
		levels[nlevels].subid = sub;
		levels[nlevels++].n = 0;
	}
	levels[nlevels - 1].n++;
	locks_held++;
}

/* A subtransaction's locks go with it at rollback, to its parent at commit. */
static void
subxact_callback(SubXactEvent event, SubTransactionId mySubid, SubTransactionId parentSubid, void *arg)
{
	LockLevel  *top;

	if (locks_lxid != DEDUP_LXID || nlevels == 0 || levels[nlevels - 1].subid != mySubid)
		return;
	top = &levels[nlevels - 1];
	if (event == SUBXACT_EVENT_ABORT_SUB)
	{
		locks_held -= top->n;
		nlevels--;
	}
	else if (event == SUBXACT_EVENT_COMMIT_SUB)
	{
		if (nlevels >= 2 && levels[nlevels - 2].subid == parentSubid)
		{
			levels[nlevels - 2].n += top->n;
			nlevels--;
		}
		else
			top->subid = parentSubid;
	}
}

void
dedup_init(void)
{
	DefineCustomIntVariable("textfp.dedup_max_locks",
							"Sets the most locks the textfp_dedup trigger takes for one transaction.",
							"Past it, the statement of a role without the table owner's privileges fails, "
							"and the owner's transaction takes one exclusive lock per scope instead.",
							&dedup_max_locks,
							DEDUP_DEFAULT_MAX_LOCKS, 1, INT_MAX,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	RegisterSubXactCallback(subxact_callback, NULL);
}

/* Takes one of textfp's locks; false if nowait and another transaction holds it. */
static bool
lock_key(const DedupLockSpec *c, uint16 kind, uint32 key, LOCKMODE mode, bool nowait)
{
	LOCKTAG		tag;
	LockAcquireResult r;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, c->relid, key, kind);
	r = LockAcquire(&tag, mode, false, nowait);
	if (r == LOCKACQUIRE_NOT_AVAIL)
		return false;
	if (r == LOCKACQUIRE_OK)
		count_lock();
	return true;
}

static int
cmp_uint32(const void *a, const void *b)
{
	uint32		x = *(const uint32 *) a;
	uint32		y = *(const uint32 *) b;

	return x < y ? -1 : x > y;
}

/* A 32-bit key of (scope, block or position, value); collisions only add waits. */
static uint32
block_key(uint32 scope, int i, uint32 value)
{
	uint32		buf[3] = {scope, (uint32) i, value};

	return (uint32) tfp_hash(buf, sizeof(buf), UINT64CONST(0x7465787466700015));
}

/* Rows this transaction guarded with this trigger, this one included. */
static int64
count_row(DedupLockSpec *c)
{
	if (c->rows_lxid != DEDUP_LXID)
	{
		c->rows_lxid = DEDUP_LXID;
		c->rows = 0;
	}
	return ++c->rows;
}

static bool
writer_owns_table(const DedupLockSpec *c)
{
#if PG_VERSION_NUM >= 160000
	return object_ownercheck(RelationRelationId, c->relid, GetUserId());
#else
	return pg_class_ownercheck(c->relid, GetUserId());
#endif
}

/*
 * The keys a near duplicate of fp would share, sorted (one order for
 * everyone), without repeats.  Two fingerprints within r bits agree exactly
 * on one of r + 1 blocks (or on two of r + 2, with locks=pairs: finer keys,
 * more of them); two signatures with at least c equal positions of k agree
 * on one of the first k - c + 1.
 */
int
dedup_lock_keys(const DedupLockSpec *c, uint32 scope, Datum fp, uint32 *keys)
{
	int			n = 0;
	int			m = 0;

	/* the callers bound these (keys has TFP_MINHASH_K_MAX + 1 places) */
	if (!c->minhash ? c->radius < 0 || c->radius + (c->pair_keys ? 2 : 1) > TFP_BLOCKS_MAX
		: c->lsh_bands > 0 && (c->lsh_rows < 1 || c->lsh_min_bands < 1 || c->lsh_bands > TFP_MINHASH_K_MAX))
		elog(ERROR, "%s lock keys asked for radius %d, %d bands of %d", c->who, c->radius, c->lsh_bands, c->lsh_rows);
	if (!c->minhash)
	{
		uint64		v = DatumGetSimhash64(fp);

		if (c->radius == 0)
			keys[n++] = block_key(scope, 64, (uint32) (v >> 32)) ^ (uint32) v;
		else if (c->pair_keys)
		{
			/* r + 2 blocks: a near pair agrees on two, so on some pair of them */
			tfp_blocks	b;
			int			nb = c->radius + 2;

			tfp_blocks_init(&b, nb);
			for (int i = 0; i < nb; i++)
				for (int j = i + 1; j < nb; j++)
					keys[n++] = block_key(scope, 100 + i * TFP_BLOCKS_MAX + j,
										  (tfp_block_value(&b, i, v) << b.width[j]) | tfp_block_value(&b, j, v));
		}
		else
		{
			tfp_blocks	b;

			tfp_blocks_init(&b, c->radius + 1);
			for (int i = 0; i <= c->radius; i++)
				keys[n++] = block_key(scope, i, tfp_block_value(&b, i, v));
		}
	}
	else if (c->lsh_bands > 0)
	{
		/*
		 * Near rows share at least min_bands of the bands: so one of any
		 * bands - min_bands + 1 of them.  A band's key mixes its rows values.
		 */
		MinhashSig *sig = DatumGetMinhashSigP(fp);

		for (int i = 0; i <= c->lsh_bands - c->lsh_min_bands; i++)
		{
			uint32		v = (uint32) tfp_hash(&sig->values[i * c->lsh_rows],
											  c->lsh_rows * sizeof(uint32), UINT64CONST(0x6c7368));

			if ((i + 1) * c->lsh_rows > sig->k)
				break;
			keys[n++] = block_key(scope, 200 + i, v);
		}
	}
	else
	{
		MinhashSig *sig = DatumGetMinhashSigP(fp);
		int			need = tfp_jaccard_needed(c->jaccard, sig->k);

		for (int i = 0; i <= sig->k - need && i < sig->k; i++)
			keys[n++] = block_key(scope, i, sig->values[i]);
	}
	qsort(keys, n, sizeof(uint32), cmp_uint32);
	for (int i = 0; i < n; i++)
		if (m == 0 || keys[i] != keys[m - 1])
			keys[m++] = keys[i];
	return m;
}

/*
 * Locks every key a near duplicate of fp would share, under the shared
 * (table, scope) lock: two near rows always want one same exclusive key, or
 * one of them the exclusive scope lock, and the later waits for the
 * earlier's transaction to end.
 *
 * Only a role with the privileges of the table's owner takes the exclusive
 * scope lock, which makes every writer of the scope wait: past 'escalate'
 * rows when it is free at once (else it goes on with keys), and when its
 * keys would pass textfp.dedup_max_locks (then it waits for it).  Any other
 * role takes keys for every row, and its statement fails past the bound: it
 * can make wait only the writers of near texts, or of texts that share a
 * key by chance, never the whole scope.
 */
void
dedup_take_locks(DedupLockSpec *c, uint32 scope, Datum fp)
{
	uint32		keys[TFP_MINHASH_K_MAX + 1];
	int			n;
	bool		escalating = count_row(c) > c->escalate;
	bool		over;

	n = dedup_lock_keys(c, scope, fp, keys);
	(void) lock_key(c, DEDUP_LOCK_SCOPE, scope, ShareLock, false);
	sync_transaction();
	over = locks_held + n > dedup_max_locks;
	if (escalating || over)
	{
		if (writer_owns_table(c))
		{
			if (escalating && lock_key(c, DEDUP_LOCK_SCOPE, scope, ExclusiveLock, true))
				return;
			if (over)
			{
				(void) lock_key(c, DEDUP_LOCK_SCOPE, scope, ExclusiveLock, false);
				return;
			}
		}
		else if (over)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("transaction would hold more than textfp.dedup_max_locks (%d) locks of %s",
							dedup_max_locks, c->who),
					 errdetail("It holds %lld; this row takes %d more.  Only a role with the privileges of the table's owner takes one exclusive lock per scope instead.",
							   (long long) locks_held, n),
					 errhint("Commit in smaller transactions, or write as the table's owner.")));
	}
	for (int i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		(void) lock_key(c, DEDUP_LOCK_KEY, keys[i], ExclusiveLock, false);
	}
}

/*
 * Takes the (table, scope) lock exclusive, waiting for it: a transaction that
 * will write the links of many rows (a batch of textfp_rebuild()) takes it
 * before any key, so that it never waits for writers while holding keys they
 * wait for.
 */
void
dedup_lock_scope(DedupLockSpec *c, uint32 scope)
{
	(void) lock_key(c, DEDUP_LOCK_SCOPE, scope, ExclusiveLock, false);
}
