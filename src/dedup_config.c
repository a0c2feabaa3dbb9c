/*
 * dedup_config.c: the textfp_dedup trigger's configuration, parsed from its
 * arguments and checked against the table at its first call, and kept per
 * backend (hash key: trigger OID) until the table's relcache entry is
 * invalidated.
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
#include "commands/extension.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "dedup.h"

static HTAB *config_cache = NULL;

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
		Oid			args[10] = {TEXTOID, TEXTOID, INT4OID, INT4OID, TEXTOID, BOOLOID,
		TEXTOID, text_array, TEXTOID, INT8OID};

		if (p->k || p->method)
			bad_trigger(c, "k and method are options of minhash_sig fingerprints.", NULL);
		fmgr_info_cxt(own_function(nsp, "simhash", 10, args), &c->fp_fn, c->cxt);
		c->fp_nargs = 10;
		a[1] = text_datum("null");
		a[2] = Int32GetDatum(p->ngram ? int_arg(c, "ngram", p->ngram) : 2);
		a[3] = Int32GetDatum(p->shingle ? int_arg(c, "shingle", p->shingle) : 1);
		a[4] = text_datum(p->tokenizer ? p->tokenizer : "ngram");
		a[5] = BoolGetDatum(b);
		a[6] = text_datum(p->stopwords ? p->stopwords : "builtin");
		a[7] = user;
		a[8] = text_datum(p->weighting ? p->weighting : "tf");
		a[9] = DirectFunctionCall1(int8in, CStringGetDatum(p->seed ? p->seed : "0"));
	}
	else
	{
		Oid			args[11] = {TEXTOID, TEXTOID, INT4OID, TEXTOID, INT4OID, INT4OID,
		TEXTOID, BOOLOID, TEXTOID, text_array, INT8OID};

		if (p->weighting)
			bad_trigger(c, "weighting is an option of simhash64 fingerprints.", NULL);
		fmgr_info_cxt(own_function(nsp, "minhash", 11, args), &c->fp_fn, c->cxt);
		c->fp_nargs = 11;
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
	}
	memset(c->fp_nulls, 0, sizeof(c->fp_nulls));
}

/* The fingerprint of doc as the SQL function gives it; NULL when featureless. */
Datum
dedup_fingerprint(DedupConfig *c, Datum doc, bool *isnull)
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

		errcb.callback = dedup_error_context;
		errcb.arg = c;
		errcb.previous = error_context_stack;
		error_context_stack = &errcb;
		(void) dedup_fingerprint(c, text_datum("textfp"), &isnull);
		error_context_stack = errcb.previous;
	}
}

DedupConfig *
dedup_get_config(TriggerData *td)
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



/* Names the trigger in the CONTEXT of errors it raises or passes on. */
void
dedup_error_context(void *arg)
{
	DedupConfig *c = (DedupConfig *) arg;

	errcontext("textfp_dedup trigger \"%s\" on table \"%s\"", c->trigname, get_rel_name(c->relid));
}
