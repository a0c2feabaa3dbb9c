/*
 * track_store.c: the queries on a tracked table's store (T_textfp), prepared
 * once per registration and run as T's owner, who owns the store: a writer
 * of T needs no privilege on it, and nothing the store holds reaches the
 * writer except through T's own triggers' decisions.
 *
 * Every name is qualified and every operator is written OPERATOR(schema.op)
 * with the schema of the operator the type cache gives, and the plans are
 * made and run under search_path = pg_catalog, pg_temp (the plan cache
 * parses a plan again under the search_path it runs under: pg_catalog's
 * count() or >= by name would be a writer's or a co-tenant's decoy, run as
 * T's owner), so nothing in the caller's search_path takes a call.  The
 * lookup of near rows is a generic plan whose only path is the fingerprint
 * index's bitmap scan (dedup_lookup_settings()).
 */
#include "postgres.h"

#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "access/detoast.h"
#include "access/toast_compression.h"
#include "access/toast_internals.h"
#include "access/xact.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "track.h"

/* OPERATOR(schema.name) of an operator, for SQL text. */
char *
track_operator_sql(Oid opr)
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
 * SQL: a = b by the default equality of type (the type cache's), written
 * OPERATOR(schema.name), which PostgreSQL resolves against the operands'
 * types.  A domain's operands are cast to its base type (a relabeling: no
 * function runs, the index stays usable): pg_catalog's operators of
 * polymorphic types (an enum's, an array's, a composite's) match no domain
 * over them, and outside pg_catalog an operator of exactly the domain's types
 * that someone who may create in the operator's schema planted (textfp's
 * schema for a domain over simhash64, an extension's) would win, and run as
 * T's owner.  Outside pg_catalog the equality must then take the type
 * itself, which only it matches exactly.
 */
char *
track_eq_sql(Oid type, const char *a, const char *b)
{
	Oid			base = getBaseType(type);
	TypeCacheEntry *tc = lookup_type_cache(base, TYPECACHE_EQ_OPR);
	HeapTuple	tup;
	Form_pg_operator form;
	Oid			nsp;
	Oid			left;
	Oid			right;
	char	   *op;

	if (!OidIsValid(tc->eq_opr))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("type %s has no equality operator", format_type_be(type))));
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(tc->eq_opr));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", tc->eq_opr);
	form = (Form_pg_operator) GETSTRUCT(tup);
	nsp = form->oprnamespace;
	left = form->oprleft;
	right = form->oprright;
	ReleaseSysCache(tup);
	op = track_operator_sql(tc->eq_opr);
	if (nsp != PG_CATALOG_NAMESPACE && (left != base || right != base))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("type %s compares by operator %s of other types", format_type_be(type), op),
				 errdetail("textfp takes a site type whose equality is in pg_catalog or takes the type (or a domain's base type) itself.")));
	if (base != type)
	{
		char	   *t = format_type_be_qualified(base);

		return psprintf("%s::%s %s %s::%s", a, t, op, b, t);
	}
	return psprintf("%s %s %s", a, op, b);
}

/*
 * SQL: the site pairs a.source_site, a.site and b.source_site, b.site are
 * one pair, a NULL site equal to a NULL site (as the summary's unique index
 * sees them); type is the sites' type.
 */
char *
track_same_pair_sql(Oid type, const char *a, const char *b)
{
	return psprintf("(%s OR ROW(%s.source_site) IS NULL AND ROW(%s.source_site) IS NULL) "
					"AND (%s OR ROW(%s.site) IS NULL AND ROW(%s.site) IS NULL)",
					track_eq_sql(type, psprintf("%s.source_site", a), psprintf("%s.source_site", b)), a, b,
					track_eq_sql(type, psprintf("%s.site", a), psprintf("%s.site", b)), a, b);
}

/*
 * SQL: expr IS NULL (null) or IS NOT NULL, of the value itself: for a
 * composite type those test its fields (a composite of NULL fields IS NULL,
 * and one with a NULL field is neither), where the store's index, its
 * unique index and GROUP BY see one value that is not NULL.  ROW(expr)
 * tests its one field, the value.
 */
char *
track_null_sql(Oid type, const char *expr, bool null)
{
	return type_is_rowtype(type)
		? psprintf("ROW(%s) IS %sNULL", expr, null ? "" : "NOT ")
		: psprintf("%s IS %sNULL", expr, null ? "" : "NOT ");
}

/*
 * The bytes a value of a key or site takes in an index row of the store, at
 * most: a varlena wider than TOAST_INDEX_TARGET is compressed in the row if
 * its type allows and that saves space, by the session's
 * default_toast_compression, so the widest of pglz's, lz4's and its own size.
 */
static Size
index_width(Datum value, int16 typlen, Oid type)
{
	struct varlena *v;
	Size		raw;
	Size		widest;
	char		storage;

	if (typlen > 0)
		return typlen;
	if (typlen == -2)
		return strlen(DatumGetCString(value)) + 1;
	/*
	 * Neither method compresses 256 to 1 (lz4's longest match costs a byte
	 * per 255, pglz's 3 bytes per 273): past that it stays too wide, and a
	 * huge value is neither read nor compressed (no cancel in either).
	 */
	raw = toast_raw_datum_size(value);
	if (raw > (Size) TRACK_VALUE_WIDTH_MAX * 256)
		return raw;
	v = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value));
	raw = VARSIZE_ANY(v);
	storage = get_typstorage(type);
	widest = raw;
	if (!VARATT_IS_EXTENDED(v) && raw > TOAST_INDEX_TARGET &&
		(storage == TYPSTORAGE_EXTENDED || storage == TYPSTORAGE_MAIN))
	{
		widest = 0;
		for (int i = 0; i < 2 && widest < raw; i++)
		{
			char		method = i == 0 ? TOAST_PGLZ_COMPRESSION : TOAST_LZ4_COMPRESSION;
			Datum		packed;

#ifndef USE_LZ4
			if (method == TOAST_LZ4_COMPRESSION)
				continue;
#endif
			packed = toast_compress_datum(PointerGetDatum(v), method);
			if (DatumGetPointer(packed) == NULL)
				widest = raw;
			else
			{
				widest = Max(widest, Min(VARSIZE(DatumGetPointer(packed)), raw));
				pfree(DatumGetPointer(packed));
			}
		}
	}
	/* a copy made by the detoasting: the fast relink checks every row */
	if ((Pointer) v != DatumGetPointer(value))
		pfree(v);
	return widest;
}

/* Refuses one value (track_check_row_width); att is its column of T. */
static void
check_width(TrackConfig *c, Datum value, int16 typlen, Oid type, const char *what, AttrNumber att)
{
	Size		width = index_width(value, typlen, type);

	if (width > TRACK_VALUE_WIDTH_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the %s of a tracked row is %zu bytes wide, more than %d", what, width, TRACK_VALUE_WIDTH_MAX),
				 errdetail("Column \"%s\" of table \"%s\": the store's index rows of a link hold the keys and sites of two rows (compressed where that saves space).",
						   get_attname(c->relid, att, false), get_rel_name(c->relid)),
				 errhint("Track a narrower %s: a hash of this column, in a column of its own.", what)));
}

/*
 * Refuses a row of T whose key or site is wider than TRACK_VALUE_WIDTH_MAX in
 * the store's indexes (54000): a link's row of the store's pair index holds
 * its source's key and site, its own site and its story's key, so a wider
 * value of one writer's row made every near copy of it another writer
 * inserted fail (its index row past btree's 2704 bytes).  The triggers
 * refuse it at the write that brings it, the batches (textfp_track,
 * textfp_rebuild) at a row that was there before the registration.
 */
void
track_check_row_width(TrackConfig *c, Datum key, Datum site, bool site_null)
{
	check_width(c, key, c->key_len, c->key_type, "key", c->key_att);
	if (c->site_att && !site_null)
		check_width(c, site, c->site_len, c->site_type, "site", c->site_att);
}

static SPIPlanPtr
prepare(TrackConfig *c, const char *sql, int nargs, Oid *types, bool generic)
{
	SPIPlanPtr	plan;
	Oid			save_userid;
	int			save_sec;

	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(c->owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS |
						   SECURITY_RESTRICTED_OPERATION);
	plan = SPI_prepare_cursor(sql, nargs, types, generic ? CURSOR_OPT_GENERIC_PLAN : 0);
	SetUserIdAndSecContext(save_userid, save_sec);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare for textfp_track failed: %s (%s)", SPI_result_code_string(SPI_result), sql);
	SPI_keepplan(plan);
	return plan;
}

void
track_prepare_plans(TrackConfig *c)
{
	const char *s = c->store_name;
	const char *nsp = quote_identifier(c->nsp);
	Oid			fptype = c->minhash ? textfp_objects()->minhash_sig : textfp_objects()->simhash64;
	TypeCacheEntry *ktc = lookup_type_cache(c->key_type, TYPECACHE_EQ_OPR);
	const char *keq = track_operator_sql(ktc->eq_opr);
	const char *near_where;
	const char *pairs;
	Oid			t_near[1] = {fptype};
	Oid			t_key[1] = {c->key_type};
	Oid			t_row[8] = {c->key_type, c->time_type, c->site_att ? c->site_type : TEXTOID,
	fptype, c->key_type, c->key_type, FLOAT8OID, TEXTOID};
	Oid			t_link[4] = {c->key_type, c->key_type, c->key_type, FLOAT8OID};
	Oid			t_site[3] = {c->key_type, c->time_type, c->site_att ? c->site_type : TEXTOID};
	Oid			t_next[3] = {c->time_type, c->key_type, INT4OID};
	Oid			t_first[1] = {INT4OID};
	int			level;

	if (c->minhash)
		near_where = c->lsh_bands > 0
			? psprintf("s.fp OPERATOR(%s.@@) %s.lsh_query($1, %d, %d, %d) AND s.fp OPERATOR(%s.<@) %s.jaccard_ball($1, %.17g::float8)",
					   nsp, nsp, c->lsh_bands, c->lsh_rows, c->lsh_min_bands, nsp, nsp, c->threshold)
			: psprintf("s.fp OPERATOR(%s.<@) %s.jaccard_ball($1, %.17g::float8)", nsp, nsp, c->threshold);
	else
		near_where = psprintf("s.fp OPERATOR(%s.<@) %s.hamming_ball($1, %d)", nsp, nsp, (int) c->threshold);

	/* a generic plan through the fingerprint index, under a fixed search_path */
	level = dedup_lookup_settings();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	c->plans[PLAN_NEAR] = prepare(c, psprintf(
		"SELECT s.key, s.at, s.story, %s.%s(s.fp, $1)::float8 AS score, s.site FROM ONLY %s s WHERE %s",
		nsp, c->minhash ? "jaccard" : "hamming_distance", s, near_where), 1, t_near, true);
	AtEOXact_GUC(false, level);

	level = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	c->plans[PLAN_ROW] = prepare(c, psprintf(
		"SELECT s.at, s.site, s.fp, s.source, s.story, s.score FROM ONLY %s s WHERE s.key %s $1", s, keq),
								 1, t_key, false);
	c->plans[PLAN_ROOT_FP] = prepare(c, psprintf(
		"SELECT s.fp FROM ONLY %s s WHERE s.key %s $1", s, keq), 1, t_key, false);
	/*
	 * Every write that changes a story's rows appends the stories it changes
	 * to T_textfp_changes, and the site pairs of the links it changes to
	 * T_textfp_reprint_changes, in the same statement (one snapshot: o is the
	 * row before the write), for the summaries (track_story.c).  A new row
	 * that is its own story changes no story of two rows.  A link keeps its
	 * source's site and time (source_site, source_at), which the reprint
	 * summary groups by and measures delays from.
	 * Without a site column there are no site pairs to keep.
	 */
	pairs = c->site_att
		? psprintf(", p AS (INSERT INTO %s (source_site, site) SELECT o.source_site, o.site FROM o WHERE o.source IS NOT NULL "
				   "UNION SELECT w.source_site, w.site FROM w WHERE w.source IS NOT NULL) ", c->reprint_changes_name)
		: " ";
	c->plans[PLAN_INSERT] = prepare(c, psprintf(
		"WITH o AS (SELECT s.story, s.source, s.source_site, s.site FROM ONLY %1$s s WHERE s.key %3$s $1), "
		"w AS (INSERT INTO %1$s AS s (key, at, site, fp, source, source_site, source_at, story, score%4$s) "
		"SELECT $1, $2, $3, $4, $5, x.site, x.at, $6, $7%5$s "
		"FROM (VALUES (1)) one (n) LEFT JOIN ONLY %1$s x ON x.key %3$s $5 "
		"ON CONFLICT (key) DO UPDATE SET at = excluded.at, site = excluded.site, fp = excluded.fp, "
		"source = excluded.source, source_site = excluded.source_site, source_at = excluded.source_at, "
		"story = excluded.story, "
		"score = excluded.score, linked_at = pg_catalog.now()%6$s "
		"RETURNING s.key, s.story, s.source, s.source_site, s.site), "
		"l AS (INSERT INTO %2$s (story) SELECT o.story FROM o UNION ALL SELECT w.story FROM w WHERE NOT (w.story %3$s w.key))"
		"%7$s"
		"SELECT 1 FROM w",
		s, c->changes_name, keq, c->excerpts ? ", wf" : "", c->excerpts ? psprintf(", %s.winnow($8)", nsp) : "",
		c->excerpts ? ", wf = excluded.wf" : "", pairs), c->excerpts ? 8 : 7, t_row, false);
	c->plans[PLAN_LINK] = prepare(c, psprintf(
		"WITH o AS (SELECT s.story, s.source, s.source_site, s.site FROM ONLY %1$s s WHERE s.key %3$s $1), "
		"w AS (UPDATE ONLY %1$s s SET source = $2, "
		"(source_site, source_at) = (SELECT x.site, x.at FROM ONLY %1$s x WHERE x.key %3$s $2), "
		"story = $3, score = $4, linked_at = pg_catalog.now() "
		"WHERE s.key %3$s $1 RETURNING s.story, s.source, s.source_site, s.site), "
		"l AS (INSERT INTO %2$s (story) SELECT x.story FROM o, w, LATERAL (VALUES (o.story), (w.story)) x(story) "
		"WHERE NOT (o.story %3$s w.story))"
		"%4$s"
		"SELECT 1 FROM w",
		s, c->changes_name, keq, pairs), 4, t_link, false);
	c->plans[PLAN_DELETE] = prepare(c, psprintf(
		"WITH w AS (DELETE FROM ONLY %1$s s WHERE s.key %3$s $1 "
		"RETURNING s.at, s.site, s.fp, s.source, s.story, s.score, s.source_site), "
		"l AS (INSERT INTO %2$s (story) SELECT w.story FROM w)"
		"%4$s"
		"SELECT w.at, w.site, w.fp, w.source, w.story, w.score FROM w",
		s, c->changes_name, keq,
		c->site_att
		? psprintf(", p AS (INSERT INTO %s (source_site, site) SELECT w.source_site, w.site FROM w WHERE w.source IS NOT NULL) ",
				   c->reprint_changes_name)
		: " "), 1, t_key, false);
	/*
	 * A site changed: the row's own link's pair, and its copies' (whose
	 * source_site it is), each pair once (UNION: a row of a thousand copies
	 * appended two thousand rows, and at REPEATABLE READ no fold takes them);
	 * the caller holds the row's locks, which a write linking a copy to it
	 * takes too.
	 */
	c->plans[PLAN_SITE] = prepare(c, psprintf(
		"WITH o AS (SELECT s.source, s.source_site, s.site FROM ONLY %1$s s WHERE s.key %3$s $1), "
		"oc AS (SELECT s.source_site, s.site FROM ONLY %1$s s WHERE s.source %3$s $1), "
		"w AS (UPDATE ONLY %1$s s SET at = $2, site = $3 WHERE s.key %3$s $1 RETURNING s.story, s.source, s.source_site, s.site), "
		"wc AS (UPDATE ONLY %1$s s SET source_site = $3 WHERE s.source %3$s $1 RETURNING s.source_site, s.site), "
		"l AS (INSERT INTO %2$s (story) SELECT w.story FROM w), "
		"p AS (INSERT INTO %4$s (source_site, site) SELECT o.source_site, o.site FROM o WHERE o.source IS NOT NULL "
		"UNION SELECT w.source_site, w.site FROM w WHERE w.source IS NOT NULL "
		"UNION SELECT oc.source_site, oc.site FROM oc UNION SELECT wc.source_site, wc.site FROM wc) "
		"SELECT 1 FROM w",
		s, c->changes_name, keq, c->reprint_changes_name), 3, t_site, false);
	c->plans[PLAN_CHILDREN] = prepare(c, psprintf(
		"SELECT s.key FROM ONLY %s s WHERE s.source %s $1 ORDER BY s.key", s, keq), 1, t_key, false);
	/* PLAN_FOLD on first use: preparing it locks the summary till commit */
	c->plans[PLAN_NEXT] = prepare(c, psprintf(
		"SELECT s.key, s.at FROM ONLY %s s WHERE (s.at, s.key) > ($1, $2) ORDER BY s.at, s.key LIMIT $3", s),
								  3, t_next, false);
	c->plans[PLAN_FIRST] = prepare(c, psprintf(
		"SELECT s.key, s.at FROM ONLY %s s ORDER BY s.at, s.key LIMIT $1", s), 1, t_first, false);
	AtEOXact_GUC(false, level);
}

void
track_as_owner_enter(TrackConfig *c, TrackAsOwner *s, bool lookup)
{
	GetUserIdAndSecContext(&s->save_userid, &s->save_sec);
	SetUserIdAndSecContext(c->owner, s->save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS |
						   SECURITY_RESTRICTED_OPERATION);
	s->level = lookup ? dedup_lookup_settings() : NewGUCNestLevel();
	/* the plan cache parses a plan again under the search_path it runs under */
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
}

void
track_as_owner_leave(TrackAsOwner *s)
{
	AtEOXact_GUC(false, s->level);
	SetUserIdAndSecContext(s->save_userid, s->save_sec);
}

/* Runs a plan as T's owner (past row-level security: the store is textfp's). */
static int
run(TrackConfig *c, TrackPlan p, Datum *values, const char *nulls, Snapshot snap, bool read_only, long count)
{
	TrackAsOwner as;
	volatile int rc = 0;

	/* a replan of the near-row lookup keeps the index path */
	track_as_owner_enter(c, &as, p == PLAN_NEAR);
	PG_TRY();
	{
		rc = snap != InvalidSnapshot
			? SPI_execute_snapshot(c->plans[p], values, nulls, snap, InvalidSnapshot, read_only, false, count)
			: SPI_execute_plan(c->plans[p], values, nulls, read_only, count);
	}
	PG_FINALLY();
	{
		track_as_owner_leave(&as);
	}
	PG_END_TRY();
	if (rc < 0)
		elog(ERROR, "textfp_track query failed: %s", SPI_result_code_string(rc));
	return rc;
}

static Datum
copy_datum(Datum d, bool isnull, int16 len, bool byval)
{
	return isnull ? (Datum) 0 : datumCopy(d, byval, len);
}

static TrackConfig *sort_config;

static int
near_cmp(const void *a, const void *b)
{
	const TrackNear *x = a;
	const TrackNear *y = b;

	if (x->score != y->score)
		return track_better(sort_config, x->score, y->score) ? -1 : 1;
	return track_compare(sort_config, x->at, x->key, y->at, y->key);
}

/*
 * The rows of the store near fp (the row of key itself left out), in the
 * caller's memory, nearest first, then by (at, key); earlier says which come
 * before (at, key).
 */
int
track_near(TrackConfig *c, Datum fp, Datum at, Datum key, TrackNear **out, Snapshot snap)
{
	Datum		values[1] = {fp};
	MemoryContext caller = CurrentMemoryContext;
	int			n = 0;
	TrackNear  *r;

	run(c, PLAN_NEAR, values, NULL, snap, true, 0);
	r = MemoryContextAlloc(caller, sizeof(TrackNear) * Max(SPI_processed, 1));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	d = SPI_tuptable->tupdesc;
		bool		isnull;
		Datum		k = SPI_getbinval(tup, d, 1, &isnull);
		Datum		a = SPI_getbinval(tup, d, 2, &isnull);
		Datum		st = SPI_getbinval(tup, d, 3, &isnull);
		MemoryContext old;

		if (DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, k, key)))
			continue;
		old = MemoryContextSwitchTo(caller);
		r[n].key = copy_datum(k, false, c->key_len, c->key_byval);
		r[n].at = copy_datum(a, false, c->time_len, c->time_byval);
		r[n].story = copy_datum(st, false, c->key_len, c->key_byval);
		r[n].site = SPI_getbinval(tup, d, 5, &r[n].site_null);
		r[n].site = c->site_att ? copy_datum(r[n].site, r[n].site_null, c->site_len, c->site_byval) : (Datum) 0;
		MemoryContextSwitchTo(old);
		r[n].score = DatumGetFloat8(SPI_getbinval(tup, d, 4, &isnull));
		r[n].earlier = track_compare(c, r[n].at, r[n].key, at, key) < 0;
		r[n].idx = -1;
		n++;
	}
	SPI_freetuptable(SPI_tuptable);
	/* nearest first, then earliest (at, key): one order for everyone */
	sort_config = c;
	qsort(r, n, sizeof(TrackNear), near_cmp);
	*out = r;
	return n;
}

/* The near rows of a new row in its dedup scope (the same site, NULL its own, with dedup_scope 'site'). */
int
track_near_in_scope(TrackConfig *c, const TrackRow *row, TrackNear **out, Snapshot snap)
{
	int			n = track_near(c, row->fp, row->at, row->key, out, snap);
	int			m = 0;

	if (!c->dedup_site)
		return n;
	for (int i = 0; i < n; i++)
	{
		TrackNear  *x = &(*out)[i];
		bool		same = x->site_null || row->site_null
			? x->site_null && row->site_null
			: datum_image_eq(x->site, row->site, c->site_byval, c->site_len);

		if (same)
			(*out)[m++] = *x;
	}
	return m;
}

/* The store row of key, into row (caller's memory); false if there is none. */
bool
track_read_row(TrackConfig *c, Datum key, TrackRow *row, Snapshot snap)
{
	Datum		values[1] = {key};
	MemoryContext caller = CurrentMemoryContext;
	HeapTuple	tup;
	TupleDesc	d;
	bool		isnull;
	MemoryContext old;
	int16		fplen;
	bool		fpbyval;

	run(c, PLAN_ROW, values, NULL, snap, true, 1);
	if (SPI_processed == 0)
	{
		SPI_freetuptable(SPI_tuptable);
		return false;
	}
	get_typlenbyval(c->minhash ? textfp_objects()->minhash_sig : textfp_objects()->simhash64, &fplen, &fpbyval);
	tup = SPI_tuptable->vals[0];
	d = SPI_tuptable->tupdesc;
	old = MemoryContextSwitchTo(caller);
	memset(row, 0, sizeof(*row));
	row->key = datumCopy(key, c->key_byval, c->key_len);
	row->at = copy_datum(SPI_getbinval(tup, d, 1, &isnull), false, c->time_len, c->time_byval);
	row->site = SPI_getbinval(tup, d, 2, &row->site_null);
	row->site = c->site_att ? copy_datum(row->site, row->site_null, c->site_len, c->site_byval) : (Datum) 0;
	row->fp = SPI_getbinval(tup, d, 3, &row->fp_null);
	row->fp = copy_datum(row->fp, row->fp_null, fplen, fpbyval);
	row->source = SPI_getbinval(tup, d, 4, &row->source_null);
	row->source = copy_datum(row->source, row->source_null, c->key_len, c->key_byval);
	row->story = copy_datum(SPI_getbinval(tup, d, 5, &isnull), false, c->key_len, c->key_byval);
	{
		Datum		s = SPI_getbinval(tup, d, 6, &row->score_null);

		row->score = row->score_null ? 0 : DatumGetFloat8(s);
	}
	MemoryContextSwitchTo(old);
	SPI_freetuptable(SPI_tuptable);
	return true;
}

/* The fingerprint of the row of key (caller's memory); false if none or NULL. */
bool
track_root_fp(TrackConfig *c, Datum key, Datum *fp, Snapshot snap)
{
	Datum		values[1] = {key};
	bool		isnull = true;
	int16		fplen;
	bool		fpbyval;

	run(c, PLAN_ROOT_FP, values, NULL, snap, true, 1);
	if (SPI_processed > 0)
	{
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		get_typlenbyval(c->minhash ? textfp_objects()->minhash_sig : textfp_objects()->simhash64, &fplen, &fpbyval);
		if (!isnull)
			*fp = SPI_datumTransfer(d, fpbyval, fplen);
	}
	SPI_freetuptable(SPI_tuptable);
	return !isnull;
}

void
track_write_row(TrackConfig *c, const TrackRow *row)
{
	Datum		values[8] = {row->key, row->at, row->site, row->fp, row->source, row->story,
	Float8GetDatum(row->score), row->doc};
	char		nulls[8] = {' ', ' ', row->site_null || !c->site_att ? 'n' : ' ', row->fp_null ? 'n' : ' ',
	row->source_null ? 'n' : ' ', ' ', row->score_null ? 'n' : ' ', row->doc_null ? 'n' : ' '};

	run(c, PLAN_INSERT, values, nulls, InvalidSnapshot, false, 0);
}

/*
 * A write that found no store row of key: at REPEATABLE READ and
 * SERIALIZABLE, if a fresh snapshot shows one (it was added after the
 * transaction's snapshot: by textfp_track()'s fill, or another writer),
 * 40001, rather than a write that silently missed it.
 */
static void
missed_row(TrackConfig *c, Datum key)
{
	TrackRow	row;

	if (IsolationUsesXactSnapshot() && track_read_row(c, key, &row, GetLatestSnapshot()))
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("could not serialize access due to a concurrent change of the textfp store of table \"%s\"",
						get_rel_name(c->relid)),
				 errdetail("The row's fingerprint was stored after this transaction's snapshot was taken."),
				 errhint("The transaction might succeed if retried.")));
}

void
track_write_link(TrackConfig *c, Datum key, const TrackRow *link)
{
	Datum		values[4] = {key, link->source, link->story, Float8GetDatum(link->score)};
	char		nulls[4] = {' ', link->source_null ? 'n' : ' ', ' ', link->score_null ? 'n' : ' '};

	run(c, PLAN_LINK, values, nulls, InvalidSnapshot, false, 0);
	if (SPI_processed == 0)
		missed_row(c, key);
}

/* Deletes the store row of key; its old values into old (caller's memory) if any. */
bool
track_delete_row(TrackConfig *c, Datum key, TrackRow *old)
{
	Datum		values[1] = {key};
	MemoryContext caller = CurrentMemoryContext;
	bool		found;

	run(c, PLAN_DELETE, values, NULL, InvalidSnapshot, false, 0);
	found = SPI_processed > 0;
	if (!found)
	{
		SPI_freetuptable(SPI_tuptable);
		missed_row(c, key);
		return false;
	}
	if (found && old != NULL)
	{
		HeapTuple	tup = SPI_tuptable->vals[0];
		TupleDesc	d = SPI_tuptable->tupdesc;
		bool		isnull;
		int16		fplen;
		bool		fpbyval;
		MemoryContext o;

		get_typlenbyval(c->minhash ? textfp_objects()->minhash_sig : textfp_objects()->simhash64, &fplen, &fpbyval);
		o = MemoryContextSwitchTo(caller);
		memset(old, 0, sizeof(*old));
		old->key = datumCopy(key, c->key_byval, c->key_len);
		old->at = copy_datum(SPI_getbinval(tup, d, 1, &isnull), false, c->time_len, c->time_byval);
		old->fp = SPI_getbinval(tup, d, 3, &old->fp_null);
		old->fp = copy_datum(old->fp, old->fp_null, fplen, fpbyval);
		MemoryContextSwitchTo(o);
	}
	SPI_freetuptable(SPI_tuptable);
	return found;
}

/* Column col of SPI's rows, copied into cxt (by value or length len). */
static Datum *
spi_column(int col, bool byval, int16 len, MemoryContext cxt)
{
	Datum	   *out = MemoryContextAlloc(cxt, sizeof(Datum) * Max(SPI_processed, 1));
	MemoryContext old = MemoryContextSwitchTo(cxt);

	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		out[i] = datumCopy(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, col, &isnull), byval, len);
	}
	MemoryContextSwitchTo(old);
	return out;
}

/* The keys of the rows whose source is key, as snap shows them, in key order (caller's memory). */
static int
children(TrackConfig *c, Datum key, Datum **out, Snapshot snap)
{
	Datum		values[1] = {key};
	MemoryContext caller = CurrentMemoryContext;
	int			n;

	run(c, PLAN_CHILDREN, values, NULL, snap, true, 0);
	n = (int) SPI_processed;
	*out = spi_column(1, c->key_byval, c->key_len, caller);
	SPI_freetuptable(SPI_tuptable);
	return n;
}

/*
 * A row's site changed (same key, text and time): its copies keep its site
 * as their source_site.  Under the row's locks, which a write linking a new
 * copy to it takes too; at REPEATABLE READ and SERIALIZABLE, 40001 if its
 * copies changed after the transaction's snapshot (the update would miss
 * one).
 */
void
track_write_site(TrackConfig *c, Datum key, Datum at, Datum site, bool site_null)
{
	Datum		values[3] = {key, at, site};
	char		nulls[3] = {' ', ' ', site_null || !c->site_att ? 'n' : ' '};
	TrackRow	row;

	if (track_read_row(c, key, &row, GetLatestSnapshot()) && !row.fp_null)
		track_lock_row(c, row.fp);
	if (IsolationUsesXactSnapshot())
	{
		Datum	   *now;
		Datum	   *then;
		int			n = children(c, key, &now, GetLatestSnapshot());
		bool		same = children(c, key, &then, GetTransactionSnapshot()) == n;

		for (int i = 0; same && i < n; i++)
			same = DatumGetBool(FunctionCall2Coll(&c->key_eq, C_COLLATION_OID, now[i], then[i]));
		if (!same)
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("could not serialize access due to a concurrent change of near rows in table \"%s\"",
							get_rel_name(c->relid)),
					 errdetail("A row was linked to the one written, or unlinked from it, by a transaction that committed after this transaction's snapshot was taken."),
					 errhint("The transaction might succeed if retried.")));
	}
	run(c, PLAN_SITE, values, nulls, InvalidSnapshot, false, 0);
	if (SPI_processed == 0)
		missed_row(c, key);
}

/*
 * The next rows of the store in (at, key) order, as snap shows them: the
 * first limit, or those after (at, key).  Keys and times in the caller's
 * memory.
 */
int
track_next_rows(TrackConfig *c, bool first, Datum at, Datum key, int limit, Datum **keys, Datum **ats,
				Snapshot snap)
{
	Datum		values[3] = {at, key, Int32GetDatum(limit)};
	Datum		lim[1] = {Int32GetDatum(limit)};
	MemoryContext caller = CurrentMemoryContext;
	int			n;

	if (first)
		run(c, PLAN_FIRST, lim, NULL, snap, true, 0);
	else
		run(c, PLAN_NEXT, values, NULL, snap, true, 0);
	n = (int) SPI_processed;
	*keys = spi_column(1, c->key_byval, c->key_len, caller);
	*ats = spi_column(2, c->time_byval, c->time_len, caller);
	SPI_freetuptable(SPI_tuptable);
	return n;
}

/*
 * Runs sql as T's owner under search_path = pg_catalog, pg_temp (a whole
 * fold of textfp_track_fold(), called with the caller's search_path); the
 * rows it processed.
 */
uint64
track_run_sql(TrackConfig *c, const char *sql)
{
	TrackAsOwner as;
	volatile int rc = 0;

	track_as_owner_enter(c, &as, false);
	PG_TRY();
	{
		rc = SPI_execute(sql, false, 0);
	}
	PG_FINALLY();
	{
		track_as_owner_leave(&as);
	}
	PG_END_TRY();
	if (rc < 0)
		elog(ERROR, "textfp_track query failed: %s", SPI_result_code_string(rc));
	return SPI_processed;
}

/*
 * Folds the changed stories and site pairs into the summaries (the caller
 * holds the story summary's lock, which stands for both), all of them or all
 * but the heavy pairs' (track_fold_pairs_sql()); the rows written.
 */
uint64
track_run_fold(TrackConfig *c, bool all)
{
	Datum		all_value[1] = {BoolGetDatum(all)};

	uint64		n;

	if (c->plans[PLAN_FOLD] == NULL)
	{
		TypeCacheEntry *ktc = lookup_type_cache(c->key_type, TYPECACHE_EQ_OPR);
		const char *keq = track_operator_sql(ktc->eq_opr);
		int			level = NewGUCNestLevel();

		(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
		c->plans[PLAN_FOLD] = prepare(c, track_fold_sql(c, keq), 0, NULL, false);
		if (c->site_att)
		{
			Oid			all_type[1] = {BOOLOID};

			c->plans[PLAN_FOLD_PAIRS] = prepare(c, track_fold_pairs_sql(c), 1, all_type, false);
		}
		AtEOXact_GUC(false, level);
	}
	run(c, PLAN_FOLD, NULL, NULL, InvalidSnapshot, false, 0);
	n = SPI_processed;
	SPI_freetuptable(SPI_tuptable);
	if (c->site_att)
	{
		run(c, PLAN_FOLD_PAIRS, all_value, NULL, InvalidSnapshot, false, 0);
		n += SPI_processed;
		SPI_freetuptable(SPI_tuptable);
	}
	return n;
}

/* How near two fingerprints are: Hamming distance, or Jaccard estimate. */
double
track_score(TrackConfig *c, Datum fp1, Datum fp2)
{
	if (!c->minhash)
		return (double) __builtin_popcountll(DatumGetSimhash64(fp1) ^ DatumGetSimhash64(fp2));
	else
	{
		MinhashSig *a = DatumGetMinhashSigP(fp1);
		MinhashSig *b = DatumGetMinhashSigP(fp2);

		minhash_sig_check_pair(a, b);
		return (double) tfp_minhash_matches(a->values, b->values, a->k) / a->k;
	}
}
