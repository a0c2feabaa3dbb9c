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
 * Without an escalate argument, a transaction takes the exclusive (table,
 * scope) lock once its rows would have taken this many keys: the shared lock
 * table holds about 64 x max_connections locks in all.
 */
#define DEDUP_LOCK_BUDGET	256
#define DEDUP_MAX_ESCALATE	1000000
#define DEDUP_MAX_ARGS		11		/* minhash(text, featureless, k, ...): 11 */

typedef enum DedupMode
{
	DEDUP_REJECT,
	DEDUP_MARK,
	DEDUP_SKIP
} DedupMode;

/* One trigger's configuration, kept per backend (hash key: trigger OID). */
typedef struct DedupConfig
{
	Oid			trigoid;
	bool		valid;
	Oid			relid;
	MemoryContext cxt;			/* everything below lives here */
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
	/* the fingerprint function and its constant arguments (0 and 1 per row) */
	FmgrInfo	fp_fn;
	int			fp_nargs;
	Datum		fp_args[DEDUP_MAX_ARGS];
	bool		fp_nulls[DEDUP_MAX_ARGS];
	/* the lookup: $1 fingerprint, $2 threshold, $3 ctid to leave out, $4.. scope */
	SPIPlanPtr	plan;
	int			nparams;
	Oid			key_type;
} DedupConfig;

/* Rows one transaction guarded per table, for escalation. */

extern DedupConfig *dedup_get_config(TriggerData *td);
extern Datum dedup_fingerprint(DedupConfig *c, Datum doc, bool *isnull);
extern void dedup_error_context(void *arg);
extern void dedup_take_locks(const DedupConfig *c, uint32 scope, Datum fp);

#endif							/* TEXTFP_DEDUP_H */
