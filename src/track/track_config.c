/*
 * track_config.c: a registration (textfp_track) as the backend keeps it:
 * read from its configuration table, checked against the table it tracks,
 * cached until one of its three relations changes.
 *
 * The configuration table is the only place a registration's settings live,
 * and it belongs to the tracked table's owner: a trigger names it, but a
 * role that may create triggers may name any table, so every use checks that
 * it is a configuration table of textfp's shape owned by the owner of the
 * table the trigger fires on, and that it registers that very table
 * (textfp_track_check() in SQL).
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/regproc.h"
#include "utils/snapmgr.h"
#include "utils/typcache.h"
#include "utils/varlena.h"

#include "track.h"

typedef struct ConfigEntry
{
	Oid			config_relid;
	TrackConfig *config;
} ConfigEntry;

static HTAB *cache = NULL;
static TrackConfig *retired = NULL;

static void
free_config(TrackConfig *c)
{
	for (int i = 0; i < PLAN_COUNT; i++)
		if (c->plans[i])
			SPI_freeplan(c->plans[i]);
	MemoryContextDelete(c->cxt);	/* c lives there */
}

/*
 * Any change to the tracked table, its store or its configuration table
 * (ALTER, DROP, a new index, textfp_track_invalidate() after a state change
 * or textfp_track_set()) marks the registration stale; it is read again at
 * its next use and freed when no call holds it (never inside this callback).
 * A writer takes the invalidations in with its lock on the table, at the
 * start of its statement, so a change made under a lock that conflicts with
 * writers (textfp_track_set: SHARE ROW EXCLUSIVE) is seen by every writer
 * that comes after it and by none that came before.
 */
static void
invalidate(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS seq;
	ConfigEntry *e;

	hash_seq_init(&seq, cache);
	while ((e = hash_seq_search(&seq)) != NULL)
	{
		TrackConfig *c = e->config;

		if (!OidIsValid(relid) || relid == c->relid || relid == c->config_relid || relid == c->store_relid ||
			relid == c->stories_relid || relid == c->changes_relid || relid == c->reprints_relid ||
			relid == c->reprint_changes_relid)
			c->valid = false;
	}
}

static void
sweep(void)
{
	HASH_SEQ_STATUS seq;
	ConfigEntry *e;
	TrackConfig **p = &retired;

	while (*p != NULL)
	{
		TrackConfig *c = *p;

		if (c->refcount > 0)
			p = &c->next_retired;
		else
		{
			*p = c->next_retired;
			free_config(c);
		}
	}
	hash_seq_init(&seq, cache);
	while ((e = hash_seq_search(&seq)) != NULL)
		if (!e->config->valid && e->config->refcount == 0)
		{
			free_config(e->config);
			hash_search(cache, &e->config_relid, HASH_REMOVE, NULL);
		}
}

static void
init_cache(void)
{
	HASHCTL		ctl;

	if (cache != NULL)
		return;
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(ConfigEntry);
	cache = hash_create("textfp_track registrations", 16, &ctl, HASH_ELEM | HASH_BLOBS);
	CacheRegisterRelcacheCallback(invalidate, (Datum) 0);
}

static AttrNumber
column_of(TupleDesc desc, const char *name, const char *what, Relation rel)
{
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, i);

		if (!a->attisdropped && strcmp(NameStr(a->attname), name) == 0)
			return a->attnum;
	}
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_COLUMN),
			 errmsg("%s column \"%s\" of the textfp registration of table \"%s\" does not exist",
					what, name, RelationGetRelationName(rel)),
			 errhint("Renaming or dropping a tracked column breaks the registration: textfp_untrack() and textfp_track() again.")));
	return InvalidAttrNumber;
}

/* The btree comparison of a type (collation "C" for collatable ones), into f. */
static void
comparison(Oid type, FmgrInfo *f, MemoryContext cxt)
{
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_CMP_PROC_FINFO);

	if (!OidIsValid(tc->cmp_proc))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("type %s has no default btree operator class", format_type_be(type))));
	fmgr_info_cxt(tc->cmp_proc, f, cxt);
	f->fn_expr = NULL;
}

/*
 * A value of the registration that textfp_track() would not have written:
 * its owner may UPDATE it, and the triggers size lock keys and queries by
 * these values (a Hamming threshold of 5000 or 100000 LSH bands wrote past
 * an array on the stack).
 */
static void pg_attribute_noreturn()
bad_value(TrackConfig *c, const char *column, const char *value, const char *allowed)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the textfp registration in %s has a bad %s: %s", get_rel_name(c->config_relid), column, value),
			 errdetail("It must be %s.", allowed),
			 errhint("textfp_track() writes the registration and textfp_track_set() changes its locks, dedup and dedup_scope; "
					 "to change the rest, textfp_untrack() and textfp_track() again.")));
}

static bool
whole_in(double v, double lo, double hi)
{
	return v >= lo && v <= hi && v == floor(v);
}

/* Checks the values read from the registration (see bad_value). */
static void
check_values(TrackConfig *c, const char *method, const char *dedup, const char *scope, const char *state,
			 const char *locks, bool has_site)
{
	if (strcmp(method, "minhash") != 0 && strcmp(method, "simhash") != 0)
		bad_value(c, "method", method, "minhash or simhash");
	if (strcmp(dedup, "off") != 0 && strcmp(dedup, "reject") != 0 && strcmp(dedup, "skip") != 0)
		bad_value(c, "dedup", dedup, "off, reject or skip");
	if (strcmp(scope, "all") != 0 && !(strcmp(scope, "site") == 0 && has_site))
		bad_value(c, "dedup_scope", scope, "all, or site with a site column");
	if (strcmp(state, "building") != 0 && strcmp(state, "linking") != 0 && strcmp(state, "ready") != 0)
		bad_value(c, "state", state, "building, linking or ready");
	if (strcmp(method, "simhash") == 0)
	{
		if (!whole_in(c->threshold, 0, 31))
			bad_value(c, "threshold", psprintf("%g", c->threshold), "a whole number of bits from 0 to 31 for simhash");
		if (!isnan(c->cohesion) && !whole_in(c->cohesion, 0, 64))
			bad_value(c, "cohesion", psprintf("%g", c->cohesion), "NULL or a whole number of bits from 0 to 64 for simhash");
		if (c->lsh_bands != 0 || c->lsh_rows != 0 || c->lsh_min_bands != 0)
			bad_value(c, "banding", psprintf("%d bands of %d, at least %d", c->lsh_bands, c->lsh_rows, c->lsh_min_bands),
					  "NULL for simhash");
		/* pairs of threshold + 2 blocks: at most TFP_BLOCKS_MAX blocks */
		if (locks == NULL || (strcmp(locks, "blocks") != 0 &&
							  !(strcmp(locks, "pairs") == 0 && c->threshold + 2 <= TFP_BLOCKS_MAX)))
			bad_value(c, "locks", locks ? locks : "NULL",
					  psprintf("blocks, or pairs with a threshold up to %d, for simhash", TFP_BLOCKS_MAX - 2));
	}
	else
	{
		if (!(c->threshold > 0 && c->threshold <= 1))
			bad_value(c, "threshold", psprintf("%g", c->threshold), "a Jaccard estimate above 0 and at most 1 for minhash");
		if (!isnan(c->cohesion) && !(c->cohesion >= 0 && c->cohesion <= 1))
			bad_value(c, "cohesion", psprintf("%g", c->cohesion), "NULL or a Jaccard estimate from 0 to 1 for minhash");
		if (locks != NULL)
			bad_value(c, "locks", locks, "NULL for minhash");
		if (c->lsh_bands < 1 || c->lsh_rows < 1 || (int64) c->lsh_bands * c->lsh_rows > TFP_MINHASH_K_MAX ||
			c->lsh_min_bands < 1 || c->lsh_min_bands > c->lsh_bands)
			bad_value(c, "banding", psprintf("%d bands of %d, at least %d", c->lsh_bands, c->lsh_rows, c->lsh_min_bands),
					  psprintf("at least 1 band of at least 1 value, at most %d values in all, and from 1 to all bands at least",
							   TFP_MINHASH_K_MAX));
	}
}

static void pg_attribute_noreturn()
bad_option(void *arg, const char *detail, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the textfp registration in %s has a bad pipeline option", (const char *) arg),
			 errdetail_internal("%s", detail),
			 hint ? errhint("%s", hint) : 0));
}

/*
 * The store's side tables (stories, changes, reprints, reprint changes) by
 * name, locked (ACCESS SHARE) by OID; none may be missing.
 */
void
track_lock_side_tables(Oid store_relid)
{
	static const char *const suffixes[] = {"_stories", "_changes", "_reprints", "_reprint_changes"};

	for (int i = 0; i < (int) lengthof(suffixes); i++)
		LockRelationOid(track_side_table(store_relid, suffixes[i]), AccessShareLock);
}

/* A registration's table named store || suffix: its OID into *relid, its quoted name returned. */
static char *
side_table(TrackConfig *c, const char *suffix, Oid *relid)
{
	*relid = track_side_table(c->store_relid, suffix);
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(*relid)), get_rel_name(*relid));
}

/* Reads and checks the registration; c->cxt exists, the rest is filled. */
static void
build_config(TrackConfig *c, Relation rel)
{
	const TextfpObjects *objs = textfp_objects();
	MemoryContext old;
	TupleDesc	desc = RelationGetDescr(rel);
	HeapTuple	tup;
	TupleDesc	cdesc;
	bool		isnull;
	char	   *text_col,
			   *key_col,
			   *time_col,
			   *site_col,
			   *method,
			   *dedup,
			   *state,
			   *locks,
			   *preset;
	Datum		idf;
	bool		idf_null;
	ArrayType  *options;
	Datum	   *opts;
	int			nopts;
	char	  **names;
	char	  **values;
	Datum		d;
	Oid			argtypes[2] = {REGCLASSOID, REGCLASSOID};
	Datum		args[2];
	int			rc;
	Oid			save_userid;
	int			save_sec;
	int			level;

	if (objs == NULL)
		elog(ERROR, "the textfp extension is not installed in this database");
	/* the registration's own table by OID first: its name is read below */
	LockRelationOid(c->config_relid, AccessShareLock);
	c->relid = RelationGetRelid(rel);
	c->owner = rel->rd_rel->relowner;
	c->nsp = MemoryContextStrdup(c->cxt, get_namespace_name(get_func_namespace(objs->hamming_ball_fn)));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/*
	 * Read as T's owner, who owns the configuration (a writer may not read
	 * it), and at a fresh snapshot, as the catalogs are read: the trigger
	 * that fires is the committed registration's, though the writer's
	 * snapshot (REPEATABLE READ, or a statement that waited for the
	 * registration's lock) may be older than the registration.
	 */
	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(c->owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS |
						   SECURITY_RESTRICTED_OPERATION);
	level = NewGUCNestLevel();	/* rolled back below: nothing the owner's code set outlives it */
	if (IsolationUsesXactSnapshot())
	{
		/*
		 * A registration the transaction's snapshot does not show is a
		 * change it cannot see (its checks would not find the tables'
		 * constraints either): retry.
		 */
		SPIPlanPtr	plan = SPI_prepare(psprintf("SELECT FROM ONLY %s",
												quote_qualified_identifier(get_namespace_name(get_rel_namespace(c->config_relid)),
																		   get_rel_name(c->config_relid))),
									   0, NULL);

		if (plan == NULL || SPI_execute_snapshot(plan, NULL, NULL, GetTransactionSnapshot(), InvalidSnapshot,
												 true, false, 1) != SPI_OK_SELECT)
			elog(ERROR, "reading the textfp registration of table \"%s\" failed", RelationGetRelationName(rel));
		if (SPI_processed == 0)
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("could not serialize access due to the registration of table \"%s\" by textfp_track",
							RelationGetRelationName(rel)),
					 errdetail("The table was registered after this transaction's snapshot was taken."),
					 errhint("The transaction might succeed if retried.")));
		SPI_freeplan(plan);
	}
	PushActiveSnapshot(GetLatestSnapshot());
	/* the configuration table must be textfp's, for this table, of its owner */
	args[0] = ObjectIdGetDatum(c->config_relid);
	args[1] = ObjectIdGetDatum(c->relid);
	for (int pass = 0; pass < 2; pass++)
	{
		Oid			store;

		rc = SPI_execute_with_args(psprintf("SELECT %s.textfp_track_check($1, $2)", quote_identifier(c->nsp)),
								   2, argtypes, args, NULL, true, 1);
		if (rc != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "textfp_track_check failed");
		store = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		if (pass == 1)
		{
			if (store != c->store_relid)
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("the textfp registration of table \"%s\" changed while it was read",
								RelationGetRelationName(rel)),
						 errhint("Try again.")));
			break;
		}
		/*
		 * The store and its side tables locked by OID, then checked again:
		 * textfp's statements name them, and a table renamed between a check
		 * and a statement would leave its name to whoever creates one of it
		 * (with CREATE on the schema) for textfp to write into as the owner.
		 * Locked, none is renamed or dropped till the transaction ends.
		 */
		c->store_relid = store;
		LockRelationOid(store, AccessShareLock);
		track_lock_side_tables(store);
	}

	rc = SPI_execute(psprintf("SELECT text_column, key_column, time_column, site_column, method, options, threshold, "
							  "cohesion, lsh_bands, lsh_rows, lsh_min_bands, dedup, dedup_scope, state, preset, idf, excerpts, locks FROM ONLY %s",
							  quote_qualified_identifier(get_namespace_name(get_rel_namespace(c->config_relid)),
														 get_rel_name(c->config_relid))),
					 true, 2);
	if (rc != SPI_OK_SELECT || SPI_processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("textfp registration table %s has %lld rows, not one",
						get_rel_name(c->config_relid), (long long) SPI_processed)));
	tup = SPI_tuptable->vals[0];
	cdesc = SPI_tuptable->tupdesc;

	old = MemoryContextSwitchTo(c->cxt);
	text_col = SPI_getvalue(tup, cdesc, 1);
	key_col = SPI_getvalue(tup, cdesc, 2);
	time_col = SPI_getvalue(tup, cdesc, 3);
	site_col = SPI_getvalue(tup, cdesc, 4);
	method = SPI_getvalue(tup, cdesc, 5);
	options = DatumGetArrayTypePCopy(SPI_getbinval(tup, cdesc, 6, &isnull));
	c->threshold = DatumGetFloat8(SPI_getbinval(tup, cdesc, 7, &isnull));
	d = SPI_getbinval(tup, cdesc, 8, &isnull);
	c->cohesion = isnull ? NAN : DatumGetFloat8(d);
	d = SPI_getbinval(tup, cdesc, 9, &isnull);
	c->lsh_bands = isnull ? 0 : DatumGetInt32(d);
	d = SPI_getbinval(tup, cdesc, 10, &isnull);
	c->lsh_rows = isnull ? 0 : DatumGetInt32(d);
	d = SPI_getbinval(tup, cdesc, 11, &isnull);
	c->lsh_min_bands = isnull ? 0 : DatumGetInt32(d);
	dedup = SPI_getvalue(tup, cdesc, 12);
	c->dedup_site = strcmp(SPI_getvalue(tup, cdesc, 13), "site") == 0;
	state = SPI_getvalue(tup, cdesc, 14);
	preset = SPI_getvalue(tup, cdesc, 15);
	idf = SPI_getbinval(tup, cdesc, 16, &idf_null);
	/* detoasted while the snapshot that found it is active */
	if (!idf_null)
		idf = PointerGetDatum(PG_DETOAST_DATUM_COPY(idf));
	c->excerpts = DatumGetBool(SPI_getbinval(tup, cdesc, 17, &isnull)) && !isnull;
	locks = SPI_getvalue(tup, cdesc, 18);
	PopActiveSnapshot();
	AtEOXact_GUC(false, level);
	SetUserIdAndSecContext(save_userid, save_sec);
	c->store_name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(c->store_relid)),
											   get_rel_name(c->store_relid));
	/* its summaries and their changes, which textfp_track_check() checked */
	c->stories_name = side_table(c, "_stories", &c->stories_relid);
	c->changes_name = side_table(c, "_changes", &c->changes_relid);
	c->reprints_name = side_table(c, "_reprints", &c->reprints_relid);
	c->reprint_changes_name = side_table(c, "_reprint_changes", &c->reprint_changes_relid);

	/* T's columns */
	c->text_att = column_of(desc, text_col, "text", rel);
	c->key_att = column_of(desc, key_col, "key", rel);
	c->time_att = column_of(desc, time_col, "time", rel);
	c->site_att = site_col ? column_of(desc, site_col, "site", rel) : 0;
	c->key_type = TupleDescAttr(desc, c->key_att - 1)->atttypid;
	get_typlenbyval(c->key_type, &c->key_len, &c->key_byval);
	c->time_type = TupleDescAttr(desc, c->time_att - 1)->atttypid;
	get_typlenbyval(c->time_type, &c->time_len, &c->time_byval);
	if (c->site_att)
	{
		c->site_type = TupleDescAttr(desc, c->site_att - 1)->atttypid;
		get_typlenbyval(c->site_type, &c->site_len, &c->site_byval);
	}
	comparison(c->key_type, &c->key_cmp, c->cxt);
	comparison(c->time_type, &c->time_cmp, c->cxt);
	/* the store's site column: the site's type, or text without one (track_eq_sql() refuses a type it cannot name) */
	c->site_store_type = c->site_att ? c->site_type : TEXTOID;
	(void) track_eq_sql(c->site_store_type, "a", "b");
	{
		TypeCacheEntry *tc = lookup_type_cache(c->key_type, TYPECACHE_EQ_OPR_FINFO);

		if (!OidIsValid(tc->eq_opr_finfo.fn_oid))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_FUNCTION),
					 errmsg("type %s has no default equality operator", format_type_be(c->key_type))));
		fmgr_info_copy(&c->key_eq, &tc->eq_opr_finfo, c->cxt);
	}

	check_values(c, method, dedup, SPI_getvalue(tup, cdesc, 13), state, locks, site_col != NULL);
	/* textfp_track_check() checked it: the triggers pass it as text to the fingerprint */
	if (TupleDescAttr(desc, c->text_att - 1)->atttypid != TEXTOID &&
		TupleDescAttr(desc, c->text_att - 1)->atttypid != VARCHAROID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("text column \"%s\" of the textfp registration of table \"%s\" is not text or varchar",
						text_col, RelationGetRelationName(rel))));
	c->minhash = strcmp(method, "minhash") == 0;
	c->dedup = strcmp(dedup, "reject") == 0 ? TRACK_DEDUP_REJECT
		: strcmp(dedup, "skip") == 0 ? TRACK_DEDUP_SKIP : TRACK_DEDUP_OFF;
	c->state = strcmp(state, "ready") == 0 ? TRACK_READY
		: strcmp(state, "linking") == 0 ? TRACK_LINKING : TRACK_BUILDING;

	/* the pipeline options, name=value */
	deconstruct_array(options, TEXTOID, -1, false, TYPALIGN_INT, &opts, NULL, &nopts);
	names = palloc(sizeof(char *) * Max(nopts, 1));
	values = palloc(sizeof(char *) * Max(nopts, 1));
	for (int i = 0; i < nopts; i++)
	{
		char	   *o = TextDatumGetCString(opts[i]);
		char	   *eq = strchr(o, '=');

		if (eq == NULL)
			bad_option(get_rel_name(c->config_relid), psprintf("option \"%s\" is not of the form name=value.", o), NULL);
		*eq = '\0';
		names[i] = o;
		values[i] = eq + 1;
	}
	MemoryContextSwitchTo(old);
	if (preset != NULL)
		fpcall_setup_preset(&c->fp, c->nsp, c->minhash, preset, idf, idf_null, c->cxt);
	else
		fpcall_setup(&c->fp, c->nsp, c->minhash, nopts, names, values, c->cxt, bad_option,
					 get_rel_name(c->config_relid), NULL);

	/* the locks: near rows share a key, over the whole table (stories cross sites) */
	c->locks.relid = c->relid;
	c->locks.minhash = c->minhash;
	c->locks.radius = c->minhash ? 0 : (int) c->threshold;
	c->locks.pair_keys = !c->minhash && strcmp(locks, "pairs") == 0;
	c->locks.jaccard = c->threshold;
	c->locks.lsh_bands = c->lsh_bands;
	c->locks.lsh_rows = c->lsh_rows;
	c->locks.lsh_min_bands = c->lsh_min_bands;
	{
		int			keys = c->minhash
			? (c->lsh_bands > 0 ? c->lsh_bands - c->lsh_min_bands + 1
			   : c->fp.k - tfp_jaccard_needed(c->threshold, Max(c->fp.k, 1)) + 1)
			: c->locks.pair_keys ? (c->locks.radius + 2) * (c->locks.radius + 1) / 2
			: c->locks.radius + 1;

		c->locks.escalate = Max(1, DEDUP_LOCK_BUDGET / Max(keys, 1));
	}
	c->locks.who = "textfp_track";

	track_prepare_plans(c);
	SPI_finish();
}

/*
 * The registration of config_relid for the table rel (its trigger's table):
 * cached, rebuilt when stale.  The caller releases it.
 */
TrackConfig *
track_get_config(Oid config_relid, Relation rel)
{
	ConfigEntry *e;
	bool		found;
	TrackConfig *c;
	MemoryContext cxt;

	init_cache();
	sweep();
	e = hash_search(cache, &config_relid, HASH_FIND, NULL);
	if (e != NULL && e->config->valid && e->config->relid == RelationGetRelid(rel))
	{
		TrackConfig *hit = e->config;
		Oid			rels[5] = {hit->store_relid, hit->stories_relid, hit->changes_relid,
		hit->reprints_relid, hit->reprint_changes_relid};

		/*
		 * Its tables locked as build_config() locks them (a rename or drop
		 * committed meanwhile comes in with the locks and marks it stale),
		 * so that the names its plans hold stay theirs while it is used.
		 */
		hit->refcount++;
		for (int i = 0; i < (int) lengthof(rels); i++)
			LockRelationOid(rels[i], AccessShareLock);
		if (hit->valid)
			return hit;
		hit->refcount--;
		sweep();
		e = hash_search(cache, &config_relid, HASH_FIND, NULL);
	}
	cxt = AllocSetContextCreate(CacheMemoryContext, "textfp_track registration", ALLOCSET_SMALL_SIZES);
	c = MemoryContextAllocZero(cxt, sizeof(TrackConfig));
	c->cxt = cxt;
	c->config_relid = config_relid;

	/*
	 * In the cache while it is read: reading it takes locks, which take in
	 * other transactions' invalidations, and one of its relations may be
	 * among them (then it is used for this call and read again at the next).
	 * Held meanwhile, so that no sweep frees it.
	 */
	c->valid = true;
	c->refcount = 1;
	e = hash_search(cache, &config_relid, HASH_ENTER, &found);
	if (found)
	{
		/* stale: a call may still hold it */
		TrackConfig *stale = e->config;

		if (stale->refcount > 0)
		{
			stale->next_retired = retired;
			retired = stale;
		}
		else
			free_config(stale);
	}
	e->config = c;
	PG_TRY();
	{
		build_config(c, rel);
	}
	PG_CATCH();
	{
		hash_search(cache, &config_relid, HASH_REMOVE, NULL);
		free_config(c);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return c;
}

/* The same, by the configuration table's name (a trigger's argument). */
TrackConfig *
track_get_config_by_name(const char *name, Relation rel)
{
	List	   *names = stringToQualifiedNameList(name);
	Oid			relid = RangeVarGetRelid(makeRangeVarFromNameList(names), NoLock, true);

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("textfp registration table %s of table \"%s\" does not exist", name,
						RelationGetRelationName(rel)),
				 errhint("textfp_untrack() removes a registration's triggers; textfp_track() makes a new one.")));
	return track_get_config(relid, rel);
}

void
track_release_config(TrackConfig *c)
{
	Assert(c->refcount > 0);
	c->refcount--;
}

/* (at1, key1) against (at2, key2): time order, then key order. */
int
track_compare(TrackConfig *c, Datum at1, Datum key1, Datum at2, Datum key2)
{
	int			r = DatumGetInt32(FunctionCall2Coll(&c->time_cmp, InvalidOid, at1, at2));

	if (r != 0)
		return r;
	return DatumGetInt32(FunctionCall2Coll(&c->key_cmp, C_COLLATION_OID, key1, key2));
}

/* Is a score within a bound (a distance at most, an estimate at least)? */
bool
track_within(TrackConfig *c, double score, double bound)
{
	return c->minhash ? score >= bound : score <= bound;
}

/* Is score1 nearer than score2 (a smaller distance, a larger estimate)? */
bool
track_better(TrackConfig *c, double score1, double score2)
{
	return c->minhash ? score1 > score2 : score1 < score2;
}

const char *
track_key_text(TrackConfig *c, Datum key)
{
	Oid			out;
	bool		varlena;

	getTypeOutputInfo(c->key_type, &out, &varlena);
	return OidOutputFunctionCall(out, key);
}
