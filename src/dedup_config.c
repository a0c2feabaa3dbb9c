/*
 * dedup_config.c: the textfp_dedup trigger's configuration, parsed from its
 * arguments and checked against the table at its first call, and kept per
 * backend (hash key: trigger OID) until the table's relcache entry is
 * invalidated; then it is freed at the next call of any textfp_dedup
 * trigger, or rebuilt.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_index.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "dedup.h"
#include "fpcall.h"

/* --- the cache --- */

typedef struct ConfigEntry
{
	Oid			trigoid;
	DedupConfig *config;
} ConfigEntry;

static HTAB *config_cache = NULL;
static DedupConfig *retired = NULL; /* replaced while a call used them */
static bool sweep_needed = false;

static void
free_config(DedupConfig *c)
{
	if (c->owner_plan)
		SPI_freeplan(c->owner_plan);
	if (c->writer_plan)
		SPI_freeplan(c->writer_plan);
	MemoryContextDelete(c->cxt);	/* c itself lives there */
}

/*
 * A relcache invalidation (the table altered or dropped, its triggers or
 * indexes changed) marks the table's configurations invalid; they are freed
 * at the next call, not here: the callback can run in the middle of a call
 * that uses them.
 */
static void
invalidate_configs(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS seq;
	ConfigEntry *e;

	if (config_cache == NULL)
		return;
	hash_seq_init(&seq, config_cache);
	while ((e = hash_seq_search(&seq)) != NULL)
		if (!OidIsValid(relid) || e->config->relid == relid)
		{
			e->config->valid = false;
			sweep_needed = true;
		}
}

/* Frees the invalid configurations no call is using. */
static void
sweep_configs(void)
{
	HASH_SEQ_STATUS seq;
	ConfigEntry *e;
	DedupConfig **p = &retired;

	sweep_needed = false;
	while (*p != NULL)
	{
		DedupConfig *c = *p;

		if (c->refcount > 0)
			p = &c->next_retired;
		else
		{
			*p = c->next_retired;
			free_config(c);
		}
	}
	hash_seq_init(&seq, config_cache);
	while ((e = hash_seq_search(&seq)) != NULL)
		if (!e->config->valid && e->config->refcount == 0)
		{
			free_config(e->config);
			hash_search(config_cache, &e->trigoid, HASH_REMOVE, NULL);
		}
}

static void
init_caches(void)
{
	HASHCTL		ctl;

	if (config_cache != NULL)
		return;
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(ConfigEntry);
	config_cache = hash_create("textfp_dedup configurations", 16, &ctl, HASH_ELEM | HASH_BLOBS);
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

/*
 * A column the trigger reads in the new row (text, scope) or writes (mark):
 * a stored generated column is computed after BEFORE triggers, so the
 * trigger would read NULL or the old value, or see its write overwritten.
 */
static AttrNumber
plain_column(const DedupConfig *c, TupleDesc desc, const char *what, const char *name, bool written)
{
	AttrNumber	att = column(c, desc, what, name);

	if (TupleDescAttr(desc, att - 1)->attgenerated)
		bad_trigger(c, written
					? psprintf("%s column \"%s\" is a generated column, which a BEFORE trigger cannot write.", what, name)
					: psprintf("%s column \"%s\" is a generated column, computed only after BEFORE triggers: the trigger would not see its value.", what, name),
					written ? "Make it a plain column: the trigger fills it."
					: "Make it a plain column, or name the columns it is generated from.");
	return att;
}

static Oid
column_type(TupleDesc desc, AttrNumber att)
{
	return getBaseType(TupleDescAttr(desc, att - 1)->atttypid);
}

/* The column's domain, whose constraints every value written must pass; InvalidOid if none. */
static Oid
column_domain(TupleDesc desc, AttrNumber att)
{
	Oid			type = TupleDescAttr(desc, att - 1)->atttypid;

	return get_typtype(type) == TYPTYPE_DOMAIN ? type : InvalidOid;
}

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

static void pg_attribute_noreturn()
bad_option(void *arg, const char *detail, const char *hint)
{
	bad_trigger((const DedupConfig *) arg, detail, hint);
}

/*
 * Prepares the call of textfp's simhash() or minhash() with featureless =>
 * 'null' (fpcall.c): an option given to the trigger takes the trigger's
 * value, every other the default the SQL function declares.
 */
static void
setup_fingerprint(DedupConfig *c, const char *nsp, int nopts, char **names, char **values)
{
	fpcall_setup(&c->fp, nsp, c->minhash, nopts, names, values, c->cxt, bad_option, c,
				 "Arguments are text, fingerprint, key, threshold, mode, mark, scope, escalate, locks and the pipeline options of simhash() or minhash().");
}

/* The fingerprint of doc as the SQL function gives it; NULL when featureless. */
Datum
dedup_fingerprint(DedupConfig *c, Datum doc, bool *isnull)
{
	return fpcall_fingerprint(&c->fp, doc, isnull);
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
 * SQL: expr read as type's base type when type is a domain (a relabeling: no
 * function runs, and the fingerprint index still matches the column).
 * Called by name with a domain's value, textfp's functions and operators
 * (and a key's or scope's, outside pg_catalog) would lose to an overload of
 * exactly the domain's types that whoever may create in their schema
 * planted: it ran as the owner in the owner's lookup.
 */
static char *
base_sql(const char *expr, Oid type)
{
	Oid			base = getBaseType(type);

	return base == type ? pstrdup(expr) : psprintf("%s::%s", expr, format_type_be_qualified(base));
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

/* --- the lookups --- */

static const char *const lookup_settings[][2] = {
	{"enable_seqscan", "off"},
	{"enable_indexscan", "off"},
	{"enable_indexonlyscan", "off"},
	{"enable_tidscan", "off"},
	{"enable_bitmapscan", "on"},
	{"plan_cache_mode", "force_generic_plan"},
	{"row_security", "on"},
};

/*
 * The settings under which the lookups are prepared, planned and run, until
 * AtEOXact_GUC(true, level) with the level returned.  An index plan whatever
 * the table's size, its statistics or the session's settings: every path
 * but a bitmap scan is disabled, and a bitmap path needs an index condition,
 * so the plan is the fingerprint index's bitmap scan.  Then a generic plan
 * is as good as a custom one and saves planning each row (about 0.5 ms at 1M
 * rows).  row_security is on so that the writer's lookup sees through its
 * policies (off, it would fail for a role subject to them), and so that the
 * plan cache, which replans when row_security changes, keeps the plans.
 */
int
dedup_lookup_settings(void)
{
	int			level = NewGUCNestLevel();

	for (size_t i = 0; i < lengthof(lookup_settings); i++)
		(void) set_config_option(lookup_settings[i][0], lookup_settings[i][1], PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	return level;
}

/*
 * Prepares the two lookups (parameters: DEDUP_PARAM_SCOPE in dedup.h): the
 * nearest row within the threshold and in the same scope, ordered by
 * distance (similarity descending), then key, through the fingerprint index.
 * The owner's leaves out the updated row by its ctid; the writer's, run with
 * the writer's privileges, cannot name ctid (a system column its column
 * privileges do not cover) and leaves out the rows with the updated row's
 * old key instead.
 */
static void
prepare_lookups(DedupConfig *c, Relation rel, const char *nsp, Oid fptype, Oid within_op)
{
	TupleDesc	desc = RelationGetDescr(rel);
	Oid			dargs[2] = {fptype, fptype};
	Oid			dist_fn = own_function(nsp, c->minhash ? "jaccard" : "hamming_distance", 2, dargs);
	TypeCacheEntry *keytc = lookup_type_cache(c->key_type, TYPECACHE_LT_OPR | TYPECACHE_EQ_OPR);
	const char *key_col = quote_identifier(NameStr(TupleDescAttr(desc, c->key_att - 1)->attname));
	const char *key = base_sql(psprintf("t.%s", key_col), c->key_type);
	const char *fp = base_sql(psprintf("t.%s", quote_identifier(NameStr(TupleDescAttr(desc, c->fp_att - 1)->attname))),
							  TupleDescAttr(desc, c->fp_att - 1)->atttypid);
	Oid			argtypes[DEDUP_NPARAMS];
	StringInfoData head;
	StringInfoData tail;
	char	   *owner_sql;
	char	   *writer_sql;
	int			level;
	Oid			save_userid;
	int			save_sec;

	initStringInfo(&head);
	appendStringInfo(&head, "SELECT t.%s, %s.%s(%s, $1) FROM ONLY %s.%s t WHERE %s %s %s.%s($1, $2)",
					 key_col, quote_identifier(nsp), quote_identifier(get_func_name(dist_fn)), fp,
					 quote_identifier(get_namespace_name(RelationGetNamespace(rel))),
					 quote_identifier(RelationGetRelationName(rel)),
					 fp, operator_sql(within_op), quote_identifier(nsp),
					 c->minhash ? "jaccard_ball" : "hamming_ball");
	initStringInfo(&tail);
	argtypes[0] = fptype;
	argtypes[1] = c->minhash ? FLOAT8OID : INT4OID;
	argtypes[2] = TIDOID;
	argtypes[3] = BOOLOID;
	argtypes[4] = c->key_type;
	for (int i = 0; i < c->nscope; i++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, c->scope_att[i] - 1);
		const char *col = quote_identifier(NameStr(a->attname));
		TypeCacheEntry *tc = lookup_type_cache(a->atttypid, TYPECACHE_EQ_OPR);
		int			p = DEDUP_PARAM_SCOPE + 1 + i;

		/* NULL is a scope of its own: a guard is not bypassed by leaving a column empty */
		appendStringInfo(&tail, " AND (%s %s %s OR (t.%s IS NULL AND $%d IS NULL))",
						 base_sql(psprintf("t.%s", col), a->atttypid), operator_sql(tc->eq_opr),
						 base_sql(psprintf("$%d", p), a->atttypid), col, p);
		argtypes[DEDUP_PARAM_SCOPE + i] = a->atttypid;
	}
	appendStringInfo(&tail, " ORDER BY 2 %s, %s USING %s LIMIT 1",
					 c->minhash ? "DESC" : "ASC", key, operator_sql(keytc->lt_opr));
	c->nparams = DEDUP_PARAM_SCOPE + c->nscope;

	owner_sql = psprintf("%s AND ($3 IS NULL OR t.ctid OPERATOR(pg_catalog.<>) $3)%s", head.data, tail.data);
	writer_sql = psprintf("%s AND NOT ($4 AND COALESCE(%s %s %s, t.%s IS NULL AND $5 IS NULL))%s",
						  head.data, key, operator_sql(keytc->eq_opr), base_sql("$5", c->key_type), key_col, tail.data);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* a generic plan, planned at the first run under the same settings */
	level = dedup_lookup_settings();

	/*
	 * The owner's as the owner past FORCE ROW LEVEL SECURITY, as it runs: the
	 * plan cache replans when the role changes, not when only the
	 * SECURITY_NOFORCE_RLS flag does, so a plan rewritten as the owner
	 * without it would keep the owner's policies.
	 */
	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(rel->rd_rel->relowner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS);
	c->owner_plan = SPI_prepare_cursor(owner_sql, c->nparams, argtypes, CURSOR_OPT_GENERIC_PLAN);
	SetUserIdAndSecContext(save_userid, save_sec);
	if (c->owner_plan == NULL)
		elog(ERROR, "SPI_prepare for textfp_dedup failed: %s (%s)", SPI_result_code_string(SPI_result), owner_sql);
	SPI_keepplan(c->owner_plan);
	c->writer_plan = SPI_prepare_cursor(writer_sql, c->nparams, argtypes, CURSOR_OPT_GENERIC_PLAN);
	if (c->writer_plan == NULL)
		elog(ERROR, "SPI_prepare for textfp_dedup failed: %s (%s)", SPI_result_code_string(SPI_result), writer_sql);
	SPI_keepplan(c->writer_plan);
	AtEOXact_GUC(true, level);
	SPI_finish();
}

/* --- the configuration --- */

#define DEDUP_MAX_TRIGGER_ARGS 64

/* Reads the trigger's arguments and the table; every check says which trigger. */
static void
build_config(DedupConfig *c, TriggerData *td)
{
	Trigger    *tg = td->tg_trigger;
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	const TextfpObjects *objs = textfp_objects();
	const char *text_col = NULL,
			   *fp_col = NULL,
			   *key_col = NULL,
			   *mark_col = NULL,
			   *scope = NULL,
			   *mode = NULL,
			   *threshold = NULL,
			   *escalate = NULL,
			   *locks = NULL;
	char	   *opt_names[DEDUP_MAX_TRIGGER_ARGS];
	char	   *opt_values[DEDUP_MAX_TRIGGER_ARGS];
	int			nopts = 0;
	char	   *nsp;
	Oid			fptype;
	Oid			balltype;
	Oid			within_op;
	TypeCacheEntry *keytc;
	MemoryContext old;

	c->relid = RelationGetRelid(rel);
	c->trigname = MemoryContextStrdup(c->cxt, tg->tgname);
	old = MemoryContextSwitchTo(c->cxt);

	if (objs == NULL)
		bad_trigger(c, "The textfp extension is not installed in this database.", NULL);
	if (!TRIGGER_FIRED_BEFORE(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		!TRIGGER_FOR_INSERT(tg->tgtype) || !TRIGGER_FOR_UPDATE(tg->tgtype))
		bad_trigger(c, "textfp_dedup must fire BEFORE INSERT OR UPDATE ... FOR EACH ROW.",
					"An UPDATE that the trigger does not see could make a near duplicate.");
	if (TRIGGER_FOR_DELETE(tg->tgtype) || TRIGGER_FOR_TRUNCATE(tg->tgtype))
		bad_trigger(c, "textfp_dedup must fire on INSERT and UPDATE only, not on DELETE.",
					"A deleted row would be checked as a new one, and be a near duplicate of itself.");
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
#undef ARG
		if (slot != NULL && *slot != NULL)
			bad_trigger(c, psprintf("argument \"%s\" is given twice.", name), NULL);
		if (slot != NULL)
		{
			*slot = value;
			continue;
		}
		/* a pipeline option: checked against the fingerprint function's parameters */
		for (int o = 0; o < nopts; o++)
			if (strcmp(opt_names[o], name) == 0)
				bad_trigger(c, psprintf("argument \"%s\" is given twice.", name), NULL);
		if (nopts == DEDUP_MAX_TRIGGER_ARGS)
			bad_trigger(c, psprintf("more than %d arguments.", DEDUP_MAX_TRIGGER_ARGS), NULL);
		opt_names[nopts] = name;
		opt_values[nopts++] = pstrdup(value);
	}
	if (!text_col || !fp_col || !key_col || !threshold)
		bad_trigger(c, "text, fingerprint, key and threshold are required.",
					"For example: EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10').");

	/* columns */
	c->text_att = plain_column(c, desc, "text", text_col, false);
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
	c->fp_domain = column_domain(desc, c->fp_att);
	/* the key is read only in stored rows: it may be a generated column */
	c->key_att = column(c, desc, "key", key_col);
	if (c->key_att == c->fp_att || c->key_att == c->text_att)
		bad_trigger(c, psprintf("key column \"%s\" is the %s column.", key_col,
								c->key_att == c->fp_att ? "fingerprint" : "text"),
					"The key names the existing row a new one is near: a column that identifies rows, such as the primary key.");
	c->key_type = TupleDescAttr(desc, c->key_att - 1)->atttypid;
	get_typlenbyval(c->key_type, &c->key_len, &c->key_byval);
	keytc = lookup_type_cache(c->key_type, TYPECACHE_LT_OPR | TYPECACHE_EQ_OPR);
	if (!OidIsValid(keytc->lt_opr) || !OidIsValid(keytc->eq_opr))
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

		c->mark_att = plain_column(c, desc, "mark", m, true);
		if (column_type(desc, c->mark_att) != getBaseType(c->key_type))
			bad_trigger(c, psprintf("mark column \"%s\" must have the key column's type, %s.", m,
									format_type_be(c->key_type)), NULL);
		if (c->mark_att == c->text_att || c->mark_att == c->fp_att || c->mark_att == c->key_att)
			bad_trigger(c, "the mark column must be a column of its own.", NULL);
		c->mark_domain = column_domain(desc, c->mark_att);
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

	/* scope columns, comma-separated */
	c->nscope = 0;
	if (scope != NULL)
	{
		char	   *s = pstrdup(scope);
		char	   *tok = s;

		/* every name between commas, none empty: "scope=," guards nothing */
		for (;;)
		{
			AttrNumber	att;
			Form_pg_attribute a;
			TypeCacheEntry *tc;
			char	   *comma = strchr(tok, ',');
			char	   *end;

			if (comma)
				*comma = '\0';
			while (*tok == ' ')
				tok++;
			for (end = tok + strlen(tok); end > tok && end[-1] == ' '; end--)
				end[-1] = '\0';
			if (*tok == '\0')
				bad_trigger(c, psprintf("scope \"%s\" has an empty column name.", scope),
							"scope is a comma-separated list of columns; leave it out for one scope over the whole table.");
			if (c->nscope == DEDUP_MAX_SCOPE)
				bad_trigger(c, psprintf("at most %d scope columns.", DEDUP_MAX_SCOPE), NULL);
			att = plain_column(c, desc, "scope", tok, false);
			for (int i = 0; i < c->nscope; i++)
				if (c->scope_att[i] == att)
					bad_trigger(c, psprintf("scope column \"%s\" is named twice.", tok), NULL);
			a = TupleDescAttr(desc, att - 1);
			tc = lookup_type_cache(a->atttypid, TYPECACHE_EQ_OPR | TYPECACHE_HASH_PROC_FINFO);
			if (!OidIsValid(tc->eq_opr) || !OidIsValid(tc->hash_proc))
				bad_trigger(c, psprintf("scope column \"%s\" has no hashable equality.", tok), NULL);
			c->scope_att[c->nscope] = att;
			fmgr_info_cxt(tc->hash_proc, &c->scope_hash[c->nscope], c->cxt);
			c->scope_coll[c->nscope] = a->attcollation;
			c->nscope++;
			if (comma == NULL)
				break;
			tok = comma + 1;
		}
	}

	/* the fingerprint function, found through the extension's schema */
	nsp = get_namespace_name(get_func_namespace(objs->hamming_ball_fn));
	setup_fingerprint(c, nsp, nopts, opt_names, opt_values);

	/* escalation (of the owner's transactions): after about DEDUP_LOCK_BUDGET keys */
	if (escalate)
		c->escalate = int_arg(c, "escalate", escalate);
	else
	{
		int			keys = c->pair_keys ? (c->radius + 2) * (c->radius + 1) / 2 : c->radius + 1;

		if (c->minhash)
		{
			int			k = Max(1, Min(c->fp.k, TFP_MINHASH_K_MAX));

			keys = k - tfp_jaccard_needed(c->jaccard, k) + 1;
		}
		c->escalate = Max(1, DEDUP_LOCK_BUDGET / Max(keys, 1));
	}
	if (c->escalate < 0 || c->escalate > DEDUP_MAX_ESCALATE)
		bad_trigger(c, psprintf("escalate must be between 0 and %d rows, got %d.", DEDUP_MAX_ESCALATE, c->escalate), NULL);
	c->locks.relid = c->relid;
	c->locks.minhash = c->minhash;
	c->locks.radius = c->radius;
	c->locks.pair_keys = c->pair_keys;
	c->locks.jaccard = c->jaccard;
	c->locks.escalate = c->escalate;
	c->locks.who = "textfp_dedup";

	/* the lookups */
	balltype = c->minhash ? objs->jaccard_ball : objs->hamming_ball;
	within_op = OpernameGetOprid(list_make2(makeString(nsp), makeString("<@")), fptype, balltype);
	if (!OidIsValid(within_op))
		elog(ERROR, "textfp's <@ operator is missing");
	if (!has_lookup_index(rel, c->fp_att, within_op))
		bad_trigger(c, psprintf("no index answers \"%s\" <@ %s on table \"%s\".", fp_col,
								c->minhash ? "jaccard_ball" : "hamming_ball", RelationGetRelationName(rel)),
					c->minhash ? "Create one: CREATE INDEX ON table USING gin (fingerprint gin_minhash_ops) WITH (fastupdate = off)."
					: "Create one: CREATE INDEX ON table USING mih (fingerprint).");
	prepare_lookups(c, rel, nsp, fptype, within_op);

	MemoryContextSwitchTo(old);

	/* options are checked now, not at the first text that has features */
	{
		bool		isnull;
		ErrorContextCallback errcb;

		errcb.callback = dedup_error_context;
		errcb.arg = c;
		errcb.previous = error_context_stack;
		error_context_stack = &errcb;
		(void) dedup_fingerprint(c, text_datum("textfp"), &isnull);
		error_context_stack = errcb.previous;
	}
}

/*
 * The trigger's configuration, built at its first call in the session and
 * after any change to its table; release it with dedup_release_config.
 */
DedupConfig *
dedup_get_config(TriggerData *td)
{
	Oid			trigoid = td->tg_trigger->tgoid;
	ConfigEntry *e;
	DedupConfig *c;
	MemoryContext cxt;
	bool		found;

	init_caches();
	if (sweep_needed)
		sweep_configs();
	e = hash_search(config_cache, &trigoid, HASH_FIND, NULL);
	if (e != NULL && e->config->valid && e->config->relid == RelationGetRelid(td->tg_relation))
	{
		e->config->refcount++;
		return e->config;
	}

	cxt = AllocSetContextCreate(CacheMemoryContext, "textfp_dedup trigger", ALLOCSET_SMALL_SIZES);
	c = MemoryContextAllocZero(cxt, sizeof(DedupConfig));
	c->cxt = cxt;
	c->trigoid = trigoid;
	PG_TRY();
	{
		build_config(c, td);
	}
	PG_CATCH();
	{
		free_config(c);
		PG_RE_THROW();
	}
	PG_END_TRY();

	/* the configuration it replaces goes now, or once the calls using it are done */
	e = hash_search(config_cache, &trigoid, HASH_ENTER, &found);
	if (found)
	{
		e->config->valid = false;
		if (e->config->refcount > 0)
		{
			e->config->next_retired = retired;
			retired = e->config;
		}
		else
			free_config(e->config);
	}
	e->config = c;
	c->valid = true;
	c->refcount = 1;
	return c;
}

void
dedup_release_config(DedupConfig *c)
{
	Assert(c->refcount > 0);
	if (--c->refcount == 0 && !c->valid)
		sweep_needed = true;
}

/* Names the trigger in the CONTEXT of errors it raises or passes on. */
void
dedup_error_context(void *arg)
{
	DedupConfig *c = (DedupConfig *) arg;

	errcontext("textfp_dedup trigger \"%s\" on table \"%s\"", c->trigname, get_rel_name(c->relid));
}
