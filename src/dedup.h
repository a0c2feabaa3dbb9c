/*
 * dedup.h: what the files of the textfp_dedup trigger share: its
 * configuration (dedup_config.c), its locks (dedup_locks.c) and the trigger
 * itself (dedup.c).
 */
#ifndef TEXTFP_DEDUP_H
#define TEXTFP_DEDUP_H

#include "postgres.h"

#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"

#include "fpcall.h"
#include "textfp.h"

/*
 * field4 of textfp's advisory lock tags (pg_locks.objsubid).  The
 * pg_advisory_* functions use 1 and 2, so these never meet an application's
 * keys.  field1 is the database, field2 the table, field3 a hash of the key.
 */
#define DEDUP_LOCK_KEY		29798	/* (table, scope, block or position, value) */
#define DEDUP_LOCK_SCOPE	29799	/* (table, scope) */

#define DEDUP_MAX_SCOPE		8		/* scope columns */
#define DEDUP_MAX_RADIUS	(TFP_BLOCKS_MAX - 1)	/* r + 1 blocks */
/*
 * Without an escalate argument, the owner's transaction takes the exclusive
 * (table, scope) lock once its rows would have taken this many keys: the
 * shared lock table holds about 64 x max_connections locks in all.
 */
#define DEDUP_LOCK_BUDGET	256
#define DEDUP_MAX_ESCALATE	1000000
#define DEDUP_DEFAULT_MAX_LOCKS 4096	/* textfp.dedup_max_locks */

/*
 * Parameters of both lookups: $1 fingerprint, $2 threshold, $3 the ctid of
 * the updated row (NULL on INSERT), $4 whether it is an UPDATE, $5 the
 * updated row's old key, $6.. the scope values.
 */
#define DEDUP_PARAM_SCOPE	5		/* index of $6 */
#define DEDUP_NPARAMS		(DEDUP_PARAM_SCOPE + DEDUP_MAX_SCOPE)

typedef enum DedupMode
{
	DEDUP_REJECT,
	DEDUP_MARK,
	DEDUP_SKIP
} DedupMode;

/*
 * The lock keys of a row and how a transaction escalates (dedup_locks.c),
 * for textfp_dedup and for tracked tables (src/track/).
 */
typedef struct DedupLockSpec
{
	Oid			relid;			/* the table the keys belong to */
	bool		minhash;
	int			radius;			/* SimHash: largest Hamming distance that is near */
	bool		pair_keys;		/* SimHash: keys on pairs of r + 2 blocks */
	double		jaccard;		/* MinHash: least Jaccard estimate that is near */
	/* MinHash with LSH bands (near means also at least min_bands equal bands): keys on bands */
	int			lsh_bands;
	int			lsh_rows;
	int			lsh_min_bands;
	int			escalate;		/* rows before the owner's transaction escalates */
	const char *who;			/* for messages: "textfp_dedup", "textfp_track" */
	/* rows this transaction guarded, for escalation */
	LocalTransactionId rows_lxid;
	int64		rows;
} DedupLockSpec;

/*
 * One trigger's configuration, kept per backend (dedup_config.c).  It lives
 * in its own memory context, which also holds this struct.
 */
typedef struct DedupConfig
{
	Oid			trigoid;
	Oid			relid;
	MemoryContext cxt;
	bool		valid;			/* false once the table's relcache entry is invalidated */
	int			refcount;		/* calls running with it (a trigger may fire inside its own lookup) */
	struct DedupConfig *next_retired;	/* replaced while in use, freed when unused */
	char	   *trigname;
	bool		minhash;		/* fingerprint column is minhash_sig */
	DedupMode	mode;
	int			radius;			/* SimHash: largest Hamming distance rejected */
	double		jaccard;		/* MinHash: least Jaccard estimate rejected */
	int			escalate;
	bool		pair_keys;		/* SimHash: keys on pairs of r + 2 blocks */
	AttrNumber	text_att;
	AttrNumber	fp_att;
	AttrNumber	key_att;
	AttrNumber	mark_att;		/* 0 unless mode mark */
	int			nscope;
	AttrNumber	scope_att[DEDUP_MAX_SCOPE];
	FmgrInfo	scope_hash[DEDUP_MAX_SCOPE];
	Oid			scope_coll[DEDUP_MAX_SCOPE];
	/* the call of textfp's simhash() or minhash() (fpcall.h) */
	FpCall		fp;
	/* domains of the columns the trigger writes (InvalidOid if none), for domain_check */
	Oid			fp_domain;
	void	   *fp_domain_extra;
	Oid			mark_domain;
	void	   *mark_domain_extra;
	/* the lookups: as the table's owner, and as the writer (DEDUP_PARAM_SCOPE) */
	SPIPlanPtr	owner_plan;
	SPIPlanPtr	writer_plan;
	int			nparams;
	Oid			key_type;
	int16		key_len;
	bool		key_byval;
	DedupLockSpec locks;		/* from the fields above */
} DedupConfig;

/* dedup_config.c */
extern DedupConfig *dedup_get_config(TriggerData *td);
extern void dedup_release_config(DedupConfig *c);
extern Datum dedup_fingerprint(DedupConfig *c, Datum doc, bool *isnull);
extern void dedup_error_context(void *arg);
extern int	dedup_lookup_settings(void);

/* dedup_locks.c */
extern void dedup_take_locks(DedupLockSpec *c, uint32 scope, Datum fp);
extern void dedup_lock_scope(DedupLockSpec *c, uint32 scope);
extern int	dedup_lock_keys(const DedupLockSpec *c, uint32 scope, Datum fp, uint32 *keys);

/* the lock's transaction: MyProc's local transaction id */
#if PG_VERSION_NUM >= 170000
#define DEDUP_LXID	(MyProc->vxid.lxid)
#else
#define DEDUP_LXID	(MyProc->lxid)
#endif

#endif							/* TEXTFP_DEDUP_H */
