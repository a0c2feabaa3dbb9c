/*
 * dedup.c: textfp_dedup(), a BEFORE INSERT OR UPDATE ... FOR EACH ROW trigger
 * that keeps near duplicates out of a table (mode reject), records the
 * nearest one (mode mark) or drops the new row (mode skip), race-free at
 * every isolation level.  docs/dedup.md explains the design; in short:
 *
 *   1. the fingerprint is computed by calling textfp's own simhash() or
 *      minhash() (featureless => 'null'), so it is the SQL function's value;
 *   2. advisory locks of textfp's own (LOCKTAG_ADVISORY with field4
 *      DEDUP_LOCK_KEY or DEDUP_LOCK_SCOPE) cover every pair that can be
 *      near: SimHash r + 1 pigeonhole blocks, MinHash k - c + 1 positions,
 *      under a shared (table, scope) lock that becomes exclusive after
 *      'escalate' rows of one transaction;
 *   3. with the locks held, an index lookup under a fresh snapshot finds the
 *      nearest match; at REPEATABLE READ and SERIALIZABLE a match the
 *      transaction's own snapshot cannot see raises 40001.
 *
 * The configuration is parsed and checked at the first call of each trigger
 * and kept per backend until the table's relcache entry is invalidated.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/index.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_index.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "catalog/pg_trigger.h"
#include "commands/trigger.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "parser/parse_oper.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/acl.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

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
#define DEDUP_MAX_ARGS		12		/* minhash(text, featureless, k, ..., chinese): 12 */

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
typedef struct DedupCount
{
	Oid			relid;
	LocalTransactionId lxid;
	int64		rows;
} DedupCount;

static HTAB *config_cache = NULL;
static HTAB *row_counts = NULL;

static void
invalidate_configs(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS seq;
	DedupConfig *c;

	if (config_cache == NULL)
		return;
	hash_seq_init(&seq, config_cache);
	while ((c = hash_seq_search(&seq)) != NULL)
		if (!OidIsValid(relid) || c->relid == relid)
			c->valid = false;
}

static void
init_caches(void)
{
	HASHCTL		ctl;

	if (config_cache != NULL)
		return;
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(DedupConfig);
	config_cache = hash_create("textfp_dedup configurations", 16, &ctl, HASH_ELEM | HASH_BLOBS);
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(DedupCount);
	row_counts = hash_create("textfp_dedup row counts", 16, &ctl, HASH_ELEM | HASH_BLOBS);
	CacheRegisterRelcacheCallback(invalidate_configs, (Datum) 0);
}

/* --- argument parsing --- */

static void pg_attribute_noreturn()
bad_trigger(const DedupConfig *c, const char *detail, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("textfp_dedup trigger \"%s\" on table \"%s\" is misconfigured",
					c->trigname, get_rel_name(c->relid)),
			 errdetail_internal("%s", detail),
			 hint ? errhint("%s", hint) : 0));
}

static AttrNumber
column(const DedupConfig *c, TupleDesc desc, const char *what, const char *name)
{
	int			att = SPI_fnumber(desc, name);

	if (att <= 0)
		bad_trigger(c, psprintf("%s column \"%s\" does not exist (or is a system column).", what, name),
					"Column names are taken as written, without quotes and without case folding.");
	return (AttrNumber) att;
}

static Oid
column_type(TupleDesc desc, AttrNumber att)
{
	return getBaseType(TupleDescAttr(desc, att - 1)->atttypid);
}

/* The pipeline options the trigger passes on, with the SQL functions' defaults. */
typedef struct PipelineArgs
{
	const char *ngram;
	const char *shingle;
	const char *tokenizer;
	const char *simplify;
	const char *stopwords;
	const char *user_stopwords;
	const char *weighting;		/* simhash only */
	const char *seed;
	const char *k;				/* minhash only */
	const char *method;			/* minhash only */
	const char *chinese;
} PipelineArgs;

static int32
int_arg(const DedupConfig *c, const char *name, const char *value)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v < PG_INT32_MIN || v > PG_INT32_MAX)
		bad_trigger(c, psprintf("%s must be an integer, got \"%s\".", name, value), NULL);
	return (int32) v;
}

/* Looks up textfp's own function nsp.name(args) (the extension's, not a namesake). */
static Oid
own_function(const char *nsp, const char *name, int nargs, const Oid *args)
{
	Oid			fn = LookupFuncName(list_make2(makeString(pstrdup(nsp)), makeString(pstrdup(name))),
									nargs, args, false);

	if (getExtensionOfObject(ProcedureRelationId, fn) != get_extension_oid("textfp", false))
		elog(ERROR, "function %s.%s is not textfp's", nsp, name);
	return fn;
}

static Datum
text_datum(const char *s)
{
	return PointerGetDatum(cstring_to_text(s));
}

/* Prepares the call of simhash() or minhash() with featureless => 'null'. */
static void
setup_fingerprint(DedupConfig *c, const char *nsp, const PipelineArgs *p)
{
	Oid			text_array = TEXTARRAYOID;
	Datum	   *a = c->fp_args;
	Datum		user;
	bool		b;

	user = OidInputFunctionCall(F_ARRAY_IN, (char *) (p->user_stopwords ? p->user_stopwords : "{}"),
								TEXTOID, -1);
	if (p->simplify && !parse_bool(p->simplify, &b))
		bad_trigger(c, psprintf("simplify must be a boolean, got \"%s\".", p->simplify), NULL);
	b = p->simplify ? b : false;
	if (!c->minhash)
	{
		Oid			args[11] = {TEXTOID, TEXTOID, INT4OID, INT4OID, TEXTOID, BOOLOID,
		TEXTOID, text_array, TEXTOID, INT8OID, TEXTOID};

		if (p->k || p->method)
			bad_trigger(c, "k and method are options of minhash_sig fingerprints.", NULL);
		fmgr_info_cxt(own_function(nsp, "simhash", 11, args), &c->fp_fn, c->cxt);
		c->fp_nargs = 11;
		a[1] = text_datum("null");
		a[2] = Int32GetDatum(p->ngram ? int_arg(c, "ngram", p->ngram) : 2);
		a[3] = Int32GetDatum(p->shingle ? int_arg(c, "shingle", p->shingle) : 1);
		a[4] = text_datum(p->tokenizer ? p->tokenizer : "ngram");
		a[5] = BoolGetDatum(b);
		a[6] = text_datum(p->stopwords ? p->stopwords : "builtin");
		a[7] = user;
		a[8] = text_datum(p->weighting ? p->weighting : "tf");
		a[9] = DirectFunctionCall1(int8in, CStringGetDatum(p->seed ? p->seed : "0"));
		a[10] = text_datum(p->chinese ? p->chinese : "none");
	}
	else
	{
		Oid			args[12] = {TEXTOID, TEXTOID, INT4OID, TEXTOID, INT4OID, INT4OID,
		TEXTOID, BOOLOID, TEXTOID, text_array, INT8OID, TEXTOID};

		if (p->weighting)
			bad_trigger(c, "weighting is an option of simhash64 fingerprints.", NULL);
		fmgr_info_cxt(own_function(nsp, "minhash", 12, args), &c->fp_fn, c->cxt);
		c->fp_nargs = 12;
		a[1] = text_datum("null");
		a[2] = Int32GetDatum(p->k ? int_arg(c, "k", p->k) : 128);
		a[3] = text_datum(p->method ? p->method : "oph");
		a[4] = Int32GetDatum(p->ngram ? int_arg(c, "ngram", p->ngram) : 2);
		a[5] = Int32GetDatum(p->shingle ? int_arg(c, "shingle", p->shingle) : 2);
		a[6] = text_datum(p->tokenizer ? p->tokenizer : "ngram");
		a[7] = BoolGetDatum(b);
		a[8] = text_datum(p->stopwords ? p->stopwords : "none");
		a[9] = user;
		a[10] = DirectFunctionCall1(int8in, CStringGetDatum(p->seed ? p->seed : "0"));
		a[11] = text_datum(p->chinese ? p->chinese : "none");
	}
	memset(c->fp_nulls, 0, sizeof(c->fp_nulls));
}

/* The fingerprint of doc as the SQL function gives it; NULL when featureless. */
static Datum
fingerprint(DedupConfig *c, Datum doc, bool *isnull)
{
	LOCAL_FCINFO(fcinfo, DEDUP_MAX_ARGS);
	Datum		result;

	InitFunctionCallInfoData(*fcinfo, &c->fp_fn, c->fp_nargs, InvalidOid, NULL, NULL);
	for (int i = 0; i < c->fp_nargs; i++)
	{
		fcinfo->args[i].value = i == 0 ? doc : c->fp_args[i];
		fcinfo->args[i].isnull = false;
	}
	result = FunctionCallInvoke(fcinfo);
	*isnull = fcinfo->isnull;
	return result;
}

/* A qualified operator for SQL text: OPERATOR(schema.name). */
static char *
operator_sql(Oid opr)
{
	HeapTuple	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opr));
	Form_pg_operator form;
	char	   *s;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", opr);
	form = (Form_pg_operator) GETSTRUCT(tup);
	s = psprintf("OPERATOR(%s.%s)", quote_identifier(get_namespace_name(form->oprnamespace)),
				 NameStr(form->oprname));
	ReleaseSysCache(tup);
	return s;
}

/*
 * An index whose first column is the fingerprint column, plain (no
 * expression, no predicate), valid, and whose operator class answers
 * fp <@ ball: the lookup's candidates come through it.
 */
static bool
has_lookup_index(Relation rel, AttrNumber fp_att, Oid within_op)
{
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;
	bool		found = false;

	foreach(lc, indexes)
	{
		Relation	ind = index_open(lfirst_oid(lc), AccessShareLock);
		Form_pg_index form = ind->rd_index;

		if (form->indisvalid && form->indisready && form->indkey.values[0] == fp_att &&
			heap_attisnull(ind->rd_indextuple, Anum_pg_index_indexprs, NULL) &&
			heap_attisnull(ind->rd_indextuple, Anum_pg_index_indpred, NULL) &&
			op_in_opfamily(within_op, ind->rd_opfamily[0]))
			found = true;
		index_close(ind, AccessShareLock);
		if (found)
			break;
	}
	list_free(indexes);
	return found;
}

static void error_context(void *arg);

/* Reads the trigger's arguments and the table; every check says which trigger. */
static void
build_config(DedupConfig *c, TriggerData *td)
{
	Trigger    *tg = td->tg_trigger;
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	const TextfpObjects *objs = textfp_objects();
	PipelineArgs pipe;
	const char *text_col = NULL,
			   *fp_col = NULL,
			   *key_col = NULL,
			   *mark_col = NULL,
			   *scope = NULL,
			   *mode = NULL,
			   *threshold = NULL,
			   *escalate = NULL,
			   *locks = NULL;
	char	   *nsp;
	Oid			fptype;
	Oid			balltype;
	Oid			within_op;
	Oid			dist_fn;
	Oid			argtypes[3 + DEDUP_MAX_SCOPE];
	StringInfoData q;
	TypeCacheEntry *keytc;
	MemoryContext old;

	memset(&pipe, 0, sizeof(pipe));
	c->relid = RelationGetRelid(rel);
	c->trigname = MemoryContextStrdup(c->cxt, tg->tgname);
	old = MemoryContextSwitchTo(c->cxt);

	if (objs == NULL)
		bad_trigger(c, "The textfp extension is not installed in this database.", NULL);
	if (!TRIGGER_FIRED_BEFORE(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		!TRIGGER_FOR_INSERT(tg->tgtype) || !TRIGGER_FOR_UPDATE(tg->tgtype))
		bad_trigger(c, "textfp_dedup must fire BEFORE INSERT OR UPDATE ... FOR EACH ROW.",
					"An UPDATE that the trigger does not see could make a near duplicate.");
	if (tg->tgnattr > 0 || tg->tgqual != NULL)
		bad_trigger(c, "textfp_dedup must fire on every UPDATE and every row: no UPDATE OF column list, no WHEN condition.",
					"Any row the trigger does not see could be a near duplicate.");

	for (int i = 0; i < tg->tgnargs; i++)
	{
		const char *arg = tg->tgargs[i];
		const char *eq = strchr(arg, '=');
		char	   *name;
		const char *value;
		const char **slot = NULL;

		if (eq == NULL || eq == arg)
			bad_trigger(c, psprintf("argument \"%s\" is not of the form name=value.", arg),
						"See docs/dedup.md for the arguments.");
		name = pnstrdup(arg, eq - arg);
		value = eq + 1;
#define ARG(n, var) else if (strcmp(name, n) == 0) slot = &(var)
		if (false)
			;
		ARG("text", text_col);
		ARG("fingerprint", fp_col);
		ARG("key", key_col);
		ARG("mark", mark_col);
		ARG("scope", scope);
		ARG("mode", mode);
		ARG("threshold", threshold);
		ARG("escalate", escalate);
		ARG("locks", locks);
		ARG("ngram", pipe.ngram);
		ARG("shingle", pipe.shingle);
		ARG("tokenizer", pipe.tokenizer);
		ARG("simplify", pipe.simplify);
		ARG("stopwords", pipe.stopwords);
		ARG("user_stopwords", pipe.user_stopwords);
		ARG("weighting", pipe.weighting);
		ARG("seed", pipe.seed);
		ARG("k", pipe.k);
		ARG("method", pipe.method);
		ARG("chinese", pipe.chinese);
#undef ARG
		if (slot == NULL)
			bad_trigger(c, psprintf("unknown argument \"%s\".", name),
						"Arguments are text, fingerprint, key, threshold, mode, mark, scope, escalate and the pipeline options of simhash() or minhash().");
		if (*slot != NULL)
			bad_trigger(c, psprintf("argument \"%s\" is given twice.", name), NULL);
		*slot = value;
	}
	if (!text_col || !fp_col || !key_col || !threshold)
		bad_trigger(c, "text, fingerprint, key and threshold are required.",
					"For example: EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10').");

	/* columns */
	c->text_att = column(c, desc, "text", text_col);
	if (column_type(desc, c->text_att) != TEXTOID && column_type(desc, c->text_att) != VARCHAROID)
		bad_trigger(c, psprintf("text column \"%s\" must be of type text or varchar.", text_col), NULL);
	c->fp_att = column(c, desc, "fingerprint", fp_col);
	fptype = column_type(desc, c->fp_att);
	if (fptype == objs->simhash64)
		c->minhash = false;
	else if (fptype == objs->minhash_sig)
		c->minhash = true;
	else
		bad_trigger(c, psprintf("fingerprint column \"%s\" must be of type simhash64 or minhash_sig.", fp_col),
					"The column's type chooses the method: simhash() for simhash64, minhash() for minhash_sig.");
	if (TupleDescAttr(desc, c->fp_att - 1)->attgenerated)
		bad_trigger(c, psprintf("fingerprint column \"%s\" is a generated column, which a BEFORE trigger cannot write.", fp_col),
					"Make it a plain column: the trigger fills it.");
	c->key_att = column(c, desc, "key", key_col);
	c->key_type = TupleDescAttr(desc, c->key_att - 1)->atttypid;
	keytc = lookup_type_cache(c->key_type, TYPECACHE_LT_OPR);
	if (!OidIsValid(keytc->lt_opr))
		bad_trigger(c, psprintf("key column \"%s\" has no ordering (a default btree operator class).", key_col),
					"Ties between equally near rows go to the smallest key.");

	/* mode */
	if (mode == NULL || strcmp(mode, "reject") == 0)
		c->mode = DEDUP_REJECT;
	else if (strcmp(mode, "mark") == 0)
		c->mode = DEDUP_MARK;
	else if (strcmp(mode, "skip") == 0)
		c->mode = DEDUP_SKIP;
	else
		bad_trigger(c, psprintf("invalid mode \"%s\".", mode), "Valid modes are reject, mark and skip.");
	if (c->mode == DEDUP_MARK)
	{
		const char *m = mark_col ? mark_col : "duplicate_of";

		c->mark_att = column(c, desc, "mark", m);
		if (column_type(desc, c->mark_att) != getBaseType(c->key_type))
			bad_trigger(c, psprintf("mark column \"%s\" must have the key column's type, %s.", m,
									format_type_be(c->key_type)), NULL);
		if (c->mark_att == c->text_att || c->mark_att == c->fp_att || c->mark_att == c->key_att)
			bad_trigger(c, "the mark column must be a column of its own.", NULL);
	}
	else if (mark_col)
		bad_trigger(c, "mark is an argument of mode mark only.", NULL);

	/* threshold: always the trigger's, never a session setting */
	if (!c->minhash)
	{
		c->radius = int_arg(c, "threshold", threshold);
		if (c->radius < 0 || c->radius > DEDUP_MAX_RADIUS)
			bad_trigger(c, psprintf("threshold of a simhash64 fingerprint is a Hamming distance between 0 and %d, got %d.",
									DEDUP_MAX_RADIUS, c->radius), NULL);
	}
	else
	{
		char	   *end;

		c->jaccard = strtod(threshold, &end);
		if (end == threshold || *end != '\0' || !(c->jaccard > 0.0 && c->jaccard <= 1.0))
			bad_trigger(c, psprintf("threshold of a minhash_sig fingerprint is a Jaccard estimate above 0 and at most 1, got \"%s\".",
									threshold), NULL);
	}
	if (locks == NULL || strcmp(locks, "blocks") == 0)
		c->pair_keys = false;
	else if (strcmp(locks, "pairs") == 0)
	{
		if (c->minhash)
			bad_trigger(c, "locks=pairs is for simhash64 fingerprints.", NULL);
		if (c->radius + 2 > TFP_BLOCKS_MAX)
			bad_trigger(c, psprintf("locks=pairs takes a threshold up to %d.", TFP_BLOCKS_MAX - 2), NULL);
		c->pair_keys = true;
	}
	else
		bad_trigger(c, psprintf("invalid locks \"%s\".", locks), "Valid values are blocks and pairs.");
	if (escalate)
		c->escalate = int_arg(c, "escalate", escalate);
	else
	{
		int			keys = c->pair_keys ? (c->radius + 2) * (c->radius + 1) / 2 : c->radius + 1;

		if (c->minhash)
		{
			int			k = pipe.k ? int_arg(c, "k", pipe.k) : 128;

			k = Max(1, Min(k, TFP_MINHASH_K_MAX));
			keys = k - tfp_jaccard_needed(c->jaccard, k) + 1;
		}
		c->escalate = Max(1, DEDUP_LOCK_BUDGET / Max(keys, 1));
	}
	if (c->escalate < 0 || c->escalate > DEDUP_MAX_ESCALATE)
		bad_trigger(c, psprintf("escalate must be between 0 and %d rows, got %d.", DEDUP_MAX_ESCALATE, c->escalate), NULL);

	/* scope columns, comma-separated */
	c->nscope = 0;
	if (scope != NULL && scope[0] != '\0')
	{
		char	   *s = pstrdup(scope);
		char	   *tok;
		char	   *save;

		for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		{
			AttrNumber att;
			Form_pg_attribute a;
			TypeCacheEntry *tc;

			while (*tok == ' ')
				tok++;
			if (c->nscope == DEDUP_MAX_SCOPE)
				bad_trigger(c, psprintf("at most %d scope columns.", DEDUP_MAX_SCOPE), NULL);
			att = column(c, desc, "scope", tok);
			a = TupleDescAttr(desc, att - 1);
			tc = lookup_type_cache(a->atttypid, TYPECACHE_EQ_OPR | TYPECACHE_HASH_PROC_FINFO);
			if (!OidIsValid(tc->eq_opr) || !OidIsValid(tc->hash_proc))
				bad_trigger(c, psprintf("scope column \"%s\" has no hashable equality.", tok), NULL);
			c->scope_att[c->nscope] = att;
			fmgr_info_cxt(tc->hash_proc, &c->scope_hash[c->nscope], c->cxt);
			c->scope_coll[c->nscope] = a->attcollation;
			c->nscope++;
		}
	}

	/* the fingerprint function, found through the extension's schema */
	nsp = get_namespace_name(get_func_namespace(objs->hamming_ball_fn));
	setup_fingerprint(c, nsp, &pipe);

	/* the lookup */
	balltype = c->minhash ? objs->jaccard_ball : objs->hamming_ball;
	within_op = OpernameGetOprid(list_make2(makeString(nsp), makeString("<@")), fptype, balltype);
	if (!OidIsValid(within_op))
		elog(ERROR, "textfp's <@ operator is missing");
	if (!has_lookup_index(rel, c->fp_att, within_op))
		bad_trigger(c, psprintf("no index answers \"%s\" <@ %s on table \"%s\".", fp_col,
								c->minhash ? "jaccard_ball" : "hamming_ball", RelationGetRelationName(rel)),
					c->minhash ? "Create one: CREATE INDEX ON table USING gin (fingerprint gin_minhash_ops) WITH (fastupdate = off)."
					: "Create one: CREATE INDEX ON table USING mih (fingerprint).");
	{
		Oid			dargs[2] = {fptype, fptype};

		dist_fn = own_function(nsp, c->minhash ? "jaccard" : "hamming_distance", 2, dargs);
	}
	initStringInfo(&q);
	appendStringInfo(&q, "SELECT t.%s, %s.%s(t.%s, $1) FROM ONLY %s.%s t WHERE t.%s %s %s.%s($1, $2)"
					 " AND ($3 IS NULL OR t.ctid OPERATOR(pg_catalog.<>) $3)",
					 quote_identifier(key_col), quote_identifier(nsp), quote_identifier(get_func_name(dist_fn)),
					 quote_identifier(fp_col),
					 quote_identifier(get_namespace_name(RelationGetNamespace(rel))),
					 quote_identifier(RelationGetRelationName(rel)),
					 quote_identifier(fp_col), operator_sql(within_op), quote_identifier(nsp),
					 c->minhash ? "jaccard_ball" : "hamming_ball");
	argtypes[0] = fptype;
	argtypes[1] = c->minhash ? FLOAT8OID : INT4OID;
	argtypes[2] = TIDOID;
	for (int i = 0; i < c->nscope; i++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, c->scope_att[i] - 1);
		const char *col = quote_identifier(NameStr(a->attname));
		TypeCacheEntry *tc = lookup_type_cache(a->atttypid, TYPECACHE_EQ_OPR);

		/* NULL is a scope of its own: a guard is not bypassed by leaving a column empty */
		appendStringInfo(&q, " AND (t.%s %s $%d OR (t.%s IS NULL AND $%d IS NULL))",
						 col, operator_sql(tc->eq_opr), 4 + i, col, 4 + i);
		argtypes[3 + i] = a->atttypid;
	}
	appendStringInfo(&q, " ORDER BY 2 %s, t.%s USING %s LIMIT 1",
					 c->minhash ? "DESC" : "ASC", quote_identifier(key_col), operator_sql(keytc->lt_opr));
	c->nparams = 3 + c->nscope;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* a generic plan, made under lookup_settings: the index's bitmap scan */
	c->plan = SPI_prepare_cursor(q.data, c->nparams, argtypes, CURSOR_OPT_GENERIC_PLAN);
	if (c->plan == NULL)
		elog(ERROR, "SPI_prepare for textfp_dedup failed: %s (%s)", SPI_result_code_string(SPI_result), q.data);
	SPI_keepplan(c->plan);
	SPI_finish();

	MemoryContextSwitchTo(old);

	/* options are checked now, not at the first text that has features */
	{
		bool		isnull;
		ErrorContextCallback errcb;

		errcb.callback = error_context;
		errcb.arg = c;
		errcb.previous = error_context_stack;
		error_context_stack = &errcb;
		(void) fingerprint(c, text_datum("textfp"), &isnull);
		error_context_stack = errcb.previous;
	}
}

static DedupConfig *
get_config(TriggerData *td)
{
	Oid			trigoid = td->tg_trigger->tgoid;
	DedupConfig *c;
	bool		found;

	init_caches();
	c = hash_search(config_cache, &trigoid, HASH_ENTER, &found);
	if (found && c->valid && c->relid == RelationGetRelid(td->tg_relation))
		return c;
	if (found && c->cxt)
	{
		if (c->plan)
			SPI_freeplan(c->plan);
		MemoryContextDelete(c->cxt);
	}
	memset(c, 0, sizeof(*c));
	c->trigoid = trigoid;
	c->cxt = AllocSetContextCreate(CacheMemoryContext, "textfp_dedup trigger", ALLOCSET_SMALL_SIZES);
	PG_TRY();
	{
		build_config(c, td);
	}
	PG_CATCH();
	{
		if (c->plan)
			SPI_freeplan(c->plan);
		MemoryContextDelete(c->cxt);
		hash_search(config_cache, &trigoid, HASH_REMOVE, NULL);
		PG_RE_THROW();
	}
	PG_END_TRY();
	c->valid = true;
	return c;
}

/* --- locks --- */

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
static void
take_locks(const DedupConfig *c, uint32 scope, Datum fp)
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

/* --- the trigger --- */

typedef struct Match
{
	bool		found;
	Datum		key;			/* in the caller's context */
	bool		key_null;
	char	   *key_text;
	double		score;			/* distance or Jaccard estimate */
} Match;

static const char *const lookup_settings[][2] = {
	{"enable_seqscan", "off"},
	{"enable_indexscan", "off"},
	{"enable_indexonlyscan", "off"},
	{"enable_tidscan", "off"},
	{"enable_bitmapscan", "on"},
	{"plan_cache_mode", "force_generic_plan"},
};

/* The nearest match under snapshot (ties to the smallest key). */
static void
lookup(DedupConfig *c, Oid owner, Datum *values, char *nulls, Snapshot snap, MemoryContext caller, Match *m)
{
	int			rc;
	int			save_nestlevel;
	Oid			save_userid;
	int			save_sec;

	memset(m, 0, sizeof(*m));
	/*
	 * An index plan whatever the table's size, its statistics or the
	 * session's settings: every path but a bitmap scan is disabled while the
	 * lookup is planned, and a bitmap path needs an index condition, so the
	 * plan is the fingerprint index's bitmap scan.  Then a generic plan is as
	 * good as a custom one and saves planning each row (about 0.5 ms at 1M
	 * rows): the plan cache builds and rebuilds it only inside this block.
	 */
	save_nestlevel = NewGUCNestLevel();
	for (size_t i = 0; i < lengthof(lookup_settings); i++)
		(void) set_config_option(lookup_settings[i][0], lookup_settings[i][1], PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	/*
	 * As the table's owner and past row-level security, as PostgreSQL's
	 * foreign-key checks are: a writer with INSERT but no SELECT privilege
	 * can be guarded, and a policy that hides rows cannot hide duplicates.
	 */
	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS);
	rc = SPI_execute_snapshot(c->plan, values, nulls, snap, InvalidSnapshot, false, false, 1);
	SetUserIdAndSecContext(save_userid, save_sec);
	AtEOXact_GUC(true, save_nestlevel);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "textfp_dedup lookup failed: %s", SPI_result_code_string(rc));
	if (SPI_processed > 0)
	{
		HeapTuple	tup = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		Datum		d;
		MemoryContext old;
		int16		typlen;
		bool		typbyval;

		m->found = true;
		d = SPI_getbinval(tup, desc, 2, &isnull);
		m->score = c->minhash ? DatumGetFloat8(d) : (double) DatumGetInt32(d);
		d = SPI_getbinval(tup, desc, 1, &m->key_null);
		old = MemoryContextSwitchTo(caller);
		get_typlenbyval(c->key_type, &typlen, &typbyval);
		m->key = m->key_null ? (Datum) 0 : datumCopy(d, typbyval, typlen);
		m->key_text = m->key_null ? pstrdup("null") : SPI_getvalue(tup, desc, 1);
		MemoryContextSwitchTo(old);
	}
}

static uint32
scope_hash(DedupConfig *c, HeapTuple tup, TupleDesc desc, Datum *values, char *nulls)
{
	uint32		h = 0x15;

	for (int i = 0; i < c->nscope; i++)
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, c->scope_att[i], desc, &isnull);
		uint32		v = 0x6e756c6c;	/* NULL: a scope of its own */

		if (!isnull)
			v = DatumGetUInt32(FunctionCall1Coll(&c->scope_hash[i], c->scope_coll[i], d));
		h = hash_combine(h, v);
		values[3 + i] = d;
		nulls[3 + i] = isnull ? 'n' : ' ';
	}
	return h;
}

/*
 * The existing row's key as messages may show it: not to a user who may not
 * read the key column, nor under row-level security (as PostgreSQL leaves
 * the key out of a unique violation's DETAIL then).
 */
static const char *
key_for_message(DedupConfig *c, TupleDesc desc, const Match *m)
{
	if (check_enable_rls(c->relid, InvalidOid, true) == RLS_ENABLED ||
		(pg_class_aclcheck(c->relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
		 pg_attribute_aclcheck(c->relid, c->key_att, GetUserId(), ACL_SELECT) != ACLCHECK_OK))
		return "An existing row";
	return psprintf("Key (%s)=(%s)", SPI_fname(desc, c->key_att), m->key_text);
}

static bool
same_column(HeapTuple a, HeapTuple b, TupleDesc desc, AttrNumber att)
{
	bool		na,
				nb;
	Datum		da = heap_getattr(a, att, desc, &na);
	Datum		db = heap_getattr(b, att, desc, &nb);
	Form_pg_attribute attr = TupleDescAttr(desc, att - 1);

	if (na || nb)
		return na && nb;
	return datum_image_eq(da, db, attr->attbyval, attr->attlen);
}

static void
error_context(void *arg)
{
	DedupConfig *c = (DedupConfig *) arg;

	errcontext("textfp_dedup trigger \"%s\" on table \"%s\"", c->trigname, get_rel_name(c->relid));
}

PG_FUNCTION_INFO_V1(textfp_dedup);
Datum
textfp_dedup(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	DedupConfig *c;
	HeapTuple	newtup;
	HeapTuple	oldtup = NULL;
	TupleDesc	desc;
	Datum		doc;
	bool		isnull;
	bool		fp_null;
	Datum		fp = (Datum) 0;
	Datum		values[3 + DEDUP_MAX_SCOPE];
	char		nulls[3 + DEDUP_MAX_SCOPE];
	uint32		scope;
	Match		m;
	MemoryContext caller = CurrentMemoryContext;
	ErrorContextCallback errcb;
	int			cols[2];
	Datum		colvals[2];
	bool		colnulls[2];
	int			ncols = 0;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("textfp_dedup() was not called as a trigger")));
	c = get_config(td);
	desc = RelationGetDescr(td->tg_relation);
	if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
	{
		oldtup = td->tg_trigtuple;
		newtup = td->tg_newtuple;
	}
	else
		newtup = td->tg_trigtuple;

	errcb.callback = error_context;
	errcb.arg = c;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;

	/* an UPDATE that changes neither text, fingerprint nor scope stays as it was */
	if (oldtup != NULL && same_column(oldtup, newtup, desc, c->text_att) &&
		same_column(oldtup, newtup, desc, c->fp_att) &&
		(c->mode != DEDUP_MARK || same_column(oldtup, newtup, desc, c->mark_att)))
	{
		bool		same = true;

		for (int i = 0; i < c->nscope && same; i++)
			same = same_column(oldtup, newtup, desc, c->scope_att[i]);
		if (same)
		{
			error_context_stack = errcb.previous;
			return PointerGetDatum(newtup);
		}
	}

	doc = heap_getattr(newtup, c->text_att, desc, &isnull);
	fp_null = true;
	if (!isnull)
		fp = fingerprint(c, doc, &fp_null);
	cols[ncols] = c->fp_att;
	colvals[ncols] = fp;
	colnulls[ncols++] = fp_null;

	memset(&m, 0, sizeof(m));
	if (!fp_null)				/* NULL text or a featureless one never matches */
	{
		values[0] = fp;
		nulls[0] = ' ';
		values[1] = c->minhash ? Float8GetDatum(c->jaccard) : Int32GetDatum(c->radius);
		nulls[1] = ' ';
		values[2] = oldtup ? PointerGetDatum(&oldtup->t_self) : (Datum) 0;
		nulls[2] = oldtup ? ' ' : 'n';
		scope = scope_hash(c, newtup, desc, values, nulls);

		take_locks(c, scope, fp);

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		/* a fresh snapshot sees what committed before our locks were granted */
		lookup(c, td->tg_relation->rd_rel->relowner, values, nulls, GetLatestSnapshot(), caller, &m);
		if (m.found && IsolationUsesXactSnapshot())
		{
			Match		mine;

			lookup(c, td->tg_relation->rd_rel->relowner, values, nulls, GetTransactionSnapshot(), caller, &mine);
			if (!mine.found ||
				(c->mode == DEDUP_MARK && (mine.score != m.score || strcmp(mine.key_text, m.key_text) != 0)))
				ereport(ERROR,
						(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
						 errmsg("could not serialize access due to a concurrent near-duplicate insert"),
						 errdetail("%s, committed after this transaction's snapshot was taken, is a near duplicate of the new row.",
								   key_for_message(c, desc, &m)),
						 errhint("The transaction might succeed if retried."),
						 errtableconstraint(td->tg_relation, c->trigname)));
			m = mine;
		}
		SPI_finish();
	}

	if (m.found && c->mode == DEDUP_REJECT)
		ereport(ERROR,
				(errcode(ERRCODE_UNIQUE_VIOLATION),
				 errmsg("new row for relation \"%s\" is a near duplicate of an existing row, rejected by \"%s\"",
						RelationGetRelationName(td->tg_relation), c->trigname),
				 c->minhash
				 ? errdetail("%s has Jaccard estimate %g with the new row; the trigger rejects %g and above.",
							 key_for_message(c, desc, &m), m.score, c->jaccard)
				 : errdetail("%s is at Hamming distance %d from the new row; the trigger rejects distances up to %d.",
							 key_for_message(c, desc, &m), (int) m.score, c->radius),
				 errhint("Change the text, or use the trigger's mode=mark to keep near duplicates with a link to their match, or mode=skip to drop them (ON CONFLICT DO NOTHING cannot catch this error)."),
				 errtableconstraint(td->tg_relation, c->trigname)));
	error_context_stack = errcb.previous;
	if (m.found && c->mode == DEDUP_SKIP)
		return PointerGetDatum(NULL);
	if (c->mode == DEDUP_MARK)
	{
		cols[ncols] = c->mark_att;
		colvals[ncols] = m.found ? m.key : (Datum) 0;
		colnulls[ncols++] = !m.found || m.key_null;
	}
	return PointerGetDatum(heap_modify_tuple_by_cols(newtup, desc, ncols, cols, colvals, colnulls));
}
