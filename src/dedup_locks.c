/*
 * dedup_locks.c: the advisory locks of the textfp_dedup trigger (docs/dedup.md,
 * "Concurrency"): lock keys that every near pair shares, and the escalation
 * to one (table, scope) lock.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "utils/hsearch.h"

#include "dedup.h"

/* Rows one transaction guarded per table, for escalation. */
typedef struct DedupCount
{
	Oid			relid;
	LocalTransactionId lxid;
	int64		rows;
} DedupCount;

static HTAB *row_counts = NULL;

static void
lock_key(const DedupConfig *c, uint16 kind, uint32 key, LOCKMODE mode)
{
	LOCKTAG		tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, c->relid, key, kind);
	(void) LockAcquire(&tag, mode, false, false);
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

/* Rows this transaction guarded in this table, this one included. */
static int64
count_row(Oid relid)
{
	DedupCount *e;
	bool		found;

	if (row_counts == NULL)
	{
		HASHCTL		ctl;

		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(DedupCount);
		row_counts = hash_create("textfp_dedup row counts", 16, &ctl, HASH_ELEM | HASH_BLOBS);
	}
	e = hash_search(row_counts, &relid, HASH_ENTER, &found);
	if (!found || e->lxid != MyProc->lxid)
	{
		e->lxid = MyProc->lxid;
		e->rows = 0;
	}
	return ++e->rows;
}

/*
 * Locks every key a near duplicate of fp would share.  Two fingerprints
 * within r bits agree exactly on one of r + 1 blocks (or on two of r + 2,
 * with locks=pairs: finer keys, more of them); two signatures with at
 * least c equal positions of k agree on one of the first k - c + 1.  So two
 * near rows always want one same exclusive key, and the later waits for the
 * earlier's transaction to end.
 */
void
dedup_take_locks(const DedupConfig *c, uint32 scope, Datum fp)
{
	uint32		keys[TFP_MINHASH_K_MAX + 1];
	int			n = 0;

	if (count_row(c->relid) > c->escalate)
	{
		lock_key(c, DEDUP_LOCK_SCOPE, scope, ExclusiveLock);
		return;
	}
	lock_key(c, DEDUP_LOCK_SCOPE, scope, ShareLock);
	if (!c->minhash)
	{
		uint64		v = DatumGetSimhash64(fp);

		if (c->radius == 0)
			keys[n++] = block_key(scope, 64, (uint32) (v >> 32)) ^ (uint32) v;
		else if (c->pair_keys)
		{
			/* r + 2 blocks: a near pair agrees on two, so on some pair of them */
			tfp_blocks	b;
			int			m = c->radius + 2;

			tfp_blocks_init(&b, m);
			for (int i = 0; i < m; i++)
				for (int j = i + 1; j < m; j++)
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
	else
	{
		MinhashSig *sig = DatumGetMinhashSigP(fp);
		int			need = tfp_jaccard_needed(c->jaccard, sig->k);

		for (int i = 0; i <= sig->k - need && i < sig->k; i++)
			keys[n++] = block_key(scope, i, sig->values[i]);
	}
	qsort(keys, n, sizeof(uint32), cmp_uint32);	/* one order for everyone */
	for (int i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (i == 0 || keys[i] != keys[i - 1])
			lock_key(c, DEDUP_LOCK_KEY, keys[i], ExclusiveLock);
	}
}

