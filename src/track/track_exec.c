/*
 * track_exec.c: the statements textfp runs on a tracked table's tables for
 * a role that is not their owner, run as the owner.
 *
 * The procedures textfp_track() and textfp_rebuild() are PL/pgSQL and run as
 * their caller, who has the owner's privileges but may have more (a
 * superuser); the reports run as their caller, who needs SELECT on the store
 * only.  The tables are the owner's: between a check and a statement the
 * owner may add a trigger or a rule to them, or swap their names for a
 * view's (a schema rename takes no lock; the owner can make the caller wait
 * on a lock of its own meanwhile), and the statement would run the owner's
 * code as the caller.  Run as the owner, in a security-restricted operation
 * (no SET ROLE, no session state) and a GUC nest level rolled back at its end
 * (a SET of search_path would otherwise outlive the call, and the caller's
 * next unqualified name would be the owner's function), whatever the owner
 * put there runs as the owner, as PostgreSQL runs a table owner's index
 * expressions in VACUUM or ANALYZE.
 *
 *   textfp_track_exec()    any statement, for a caller with the owner's
 *                          privileges (it could SET ROLE to the owner);
 *   textfp_track_report()  one of the reports' fixed queries, for a caller
 *                          with SELECT on the store (or the registration):
 *                          it reads what the caller may read anyway.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"

#include "track.h"

#define TRACK_EXEC_MAX_ARGS 8

/*
 * A store's site as text, through its type's output function (format's %s),
 * not a cast: a cast from a type of the owner's own would be the owner's
 * function.  NULL stays NULL (format would give ''); ROW(site) tests the
 * value itself, not a composite's fields (one NULL field made the site NULL).
 */
#define SITE_TEXT(alias) "CASE WHEN ROW(" alias ".site) IS NOT NULL THEN format('%%s', " alias ".site) END"

/*
 * A site pair the reprints report shows: any with same_site ($2), else one of
 * two sites not equal (eq, the sites' equality as SQL), nor both NULL.
 */
#define SAME_SITE_OK(eq, a, b) "($2::boolean OR NOT coalesce(" eq ", ROW(" a ") IS NULL AND ROW(" b ") IS NULL))"

/* The owner of a relation, or 42P01. */
static Oid
relation_owner(Oid relid)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tup))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	return owner;
}

/* Checks SPI's rows against the expected columns, and keeps them in store. */
static void
keep_rows(TupleDesc expected, Tuplestorestate *store, MemoryContext cxt)
{
	TupleDesc	got = SPI_tuptable->tupdesc;
	MemoryContext old;

	if (got->natts != expected->natts)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("the query returns %d columns, not %d", got->natts, expected->natts)));
	for (int i = 0; i < got->natts; i++)
		if (TupleDescAttr(got, i)->atttypid != TupleDescAttr(expected, i)->atttypid)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("column %d of the query is %s, not %s", i + 1,
							format_type_be(TupleDescAttr(got, i)->atttypid),
							format_type_be(TupleDescAttr(expected, i)->atttypid))));
	old = MemoryContextSwitchTo(cxt);
	for (uint64 r = 0; r < SPI_processed; r++)
		tuplestore_puttuple(store, SPI_tuptable->vals[r]);
	MemoryContextSwitchTo(old);
	SPI_freetuptable(SPI_tuptable);
}

/*
 * Runs query ($1, $2, ... the elements of args, as text) as owner, under
 * search_path pg_catalog, pg_temp, and returns its rows as the function's
 * result set (the column definition list says their types); read_only: it
 * must be a query that writes nothing.
 */
static Datum
run_as_owner(FunctionCallInfo fcinfo, Oid owner, const char *query, ArrayType *args, bool read_only)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			nargs = 0;
	Datum	   *elems = NULL;
	bool	   *elem_nulls = NULL;
	Oid			types[TRACK_EXEC_MAX_ARGS];
	Datum		values[TRACK_EXEC_MAX_ARGS];
	char		nulls[TRACK_EXEC_MAX_ARGS];
	Oid			save_userid;
	int			save_sec;
	volatile int level = 0;
	volatile int rc = 0;
	TupleDesc	expected;
	Tuplestorestate *store;
	MemoryContext per_query;
	MemoryContext old;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) || !(rsinfo->allowedModes & SFRM_Materialize) ||
		rsinfo->expectedDesc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s() must be called in FROM with a column definition list",
						get_func_name(fcinfo->flinfo->fn_oid))));
	if (args != NULL)
		deconstruct_array(args, TEXTOID, -1, false, TYPALIGN_INT, &elems, &elem_nulls, &nargs);
	if (nargs > TRACK_EXEC_MAX_ARGS)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_ARGUMENTS),
				 errmsg("%s() takes at most %d query arguments", get_func_name(fcinfo->flinfo->fn_oid),
						TRACK_EXEC_MAX_ARGS)));
	for (int i = 0; i < nargs; i++)
	{
		types[i] = TEXTOID;
		values[i] = elems[i];
		nulls[i] = elem_nulls[i] ? 'n' : ' ';
	}

	per_query = rsinfo->econtext->ecxt_per_query_memory;
	old = MemoryContextSwitchTo(per_query);
	expected = CreateTupleDescCopy(rsinfo->expectedDesc);
	store = tuplestore_begin_heap(true, false, work_mem);
	MemoryContextSwitchTo(old);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION |
						   SECURITY_NOFORCE_RLS);
	PG_TRY();
	{
		level = NewGUCNestLevel();
		(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, 0, false);
		if (read_only)
		{
			/* a report may be the whole store: a cursor, a chunk at a time */
			Portal		portal = SPI_cursor_open_with_args(NULL, query, nargs, types, values, nulls, true, 0);

			for (;;)
			{
				SPI_cursor_fetch(portal, true, 10000);
				if (SPI_processed == 0)
					break;
				keep_rows(expected, store, per_query);
			}
			SPI_cursor_close(portal);
		}
		else
		{
			rc = SPI_execute_with_args(query, nargs, types, values, nulls, false, 0);
			if (rc < 0)
				elog(ERROR, "%s: %s", get_func_name(fcinfo->flinfo->fn_oid), SPI_result_code_string(rc));
			if (SPI_tuptable != NULL)
				keep_rows(expected, store, per_query);
		}
		/* rolled back: no setting of the owner's code outlives the call */
		AtEOXact_GUC(false, level);
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec);
	}
	PG_END_TRY();
	SPI_finish();
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = store;
	rsinfo->setDesc = expected;
	return (Datum) 0;
}

/*
 * textfp_track_exec(rel regclass, query text, args text[]) returns setof
 * record: runs query ($1, $2, ... the args, as text: the query casts them)
 * as rel's owner, for a caller with the privileges of rel's owner.  The
 * arguments are text, not "any": an overload planted in textfp's schema
 * with concrete types would win every call of a VARIADIC "any" function.
 */
PG_FUNCTION_INFO_V1(textfp_track_exec);
Datum
textfp_track_exec(PG_FUNCTION_ARGS)
{
	Oid			relid;
	Oid			owner;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("textfp_track_exec() needs a relation and a query")));
	relid = PG_GETARG_OID(0);
	owner = relation_owner(relid);
	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", get_rel_name(relid))));
	return run_as_owner(fcinfo, owner, text_to_cstring(PG_GETARG_TEXT_PP(1)),
						PG_ARGISNULL(2) ? NULL : PG_GETARG_ARRAYTYPE_P(2), false);
}

/* Does a relation have row-level security enabled? */
static bool
rel_has_row_security(Oid relid)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	bool		rls;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	rls = ((Form_pg_class) GETSTRUCT(tup))->relrowsecurity;
	ReleaseSysCache(tup);
	return rls;
}

/* The type of a relation's column, qualified for SQL text. */
static const char *
column_type(Oid relid, const char *name)
{
	AttrNumber	att = get_attnum(relid, name);

	if (att == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation %s does not exist", name, get_rel_name(relid))));
	return format_type_be_qualified(get_atttype(relid, att));
}

/*
 * Refuses (42804) a column of rel that a report passes to one of textfp's
 * functions unless it is of exactly the type that function takes.  The
 * report runs as rel's owner on any plain table the caller may read; a call
 * is resolved by its arguments' types, so a column of another type (the
 * owner's own table, not textfp's) would let an overload of that type,
 * planted in textfp's schema by any role that may create there, take the
 * call and run as the owner.
 */
static void
require_column_type(Oid relid, const char *name, Oid type)
{
	AttrNumber	att = get_attnum(relid, name);
	Oid			got = att == InvalidAttrNumber ? InvalidOid : get_atttype(relid, att);

	if (got != type)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("textfp reports read only textfp's tables: column \"%s\" of relation %s is %s, not %s",
						name, get_rel_name(relid), OidIsValid(got) ? format_type_be(got) : "missing",
						format_type_be(type))));
}

/* The type of a store's site column. */
static Oid
site_type(Oid relid)
{
	Oid			type = get_atttype(relid, get_attnum(relid, "site"));

	if (!OidIsValid(type))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"site\" of relation %s does not exist", get_rel_name(relid))));
	return type;
}

/*
 * A registration's table beside its store rel (track_story.c), quoted: a
 * plain table of rel's owner without row-level security, as the store.
 */
static const char *
side_name(Oid relid, Oid owner, const char *suffix)
{
	Oid			side = track_side_table(relid, suffix);

	/* locked before it is checked: its name must stay its own (as the store's) */
	LockRelationOid(side, AccessShareLock);
	if (get_rel_relkind(side) != RELKIND_RELATION || rel_has_row_security(side) || relation_owner(side) != owner)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("textfp reports read only plain tables without row-level security of the store's owner, not %s",
						get_rel_name(side))));
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(side)), get_rel_name(side));
}

/*
 * The story report reads the summary for min_size 2 or more (its second
 * argument): the summary keeps no story of one row.
 */
static bool
story_summary_usable(FunctionCallInfo fcinfo)
{
	ArrayType  *args = PG_ARGISNULL(2) ? NULL : PG_GETARG_ARRAYTYPE_P(2);
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	if (args == NULL)
		return false;
	deconstruct_array(args, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	return n >= 2 && !nulls[1] && pg_strtoint32(TextDatumGetCString(elems[1])) >= 2;
}

/*
 * textfp_track_report(rel regclass, report text, args text[]) returns setof
 * record: one of the reports' queries on rel (a store, or a registration for
 * 'registration'), run as rel's owner for a caller with SELECT on rel; the
 * caller checked rel (textfp_registration()).  The queries are fixed here:
 * a caller that may only read rel can make the owner run nothing else.
 */
PG_FUNCTION_INFO_V1(textfp_track_report);
Datum
textfp_track_report(PG_FUNCTION_ARGS)
{
	Oid			relid;
	Oid			owner;
	char	   *report;
	char	   *name;
	const char *sql;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("textfp_track_report() needs a relation and a report")));
	relid = PG_GETARG_OID(0);
	/*
	 * Locked (ACCESS SHARE) before it is checked and named: renamed between
	 * the two, its name could be another's table by the time the query runs
	 * as the owner (whose policies would then run as the owner).
	 */
	LockRelationOid(relid, AccessShareLock);
	owner = relation_owner(relid);
	/*
	 * A plain table without row-level security, as textfp's tables are: read
	 * as its owner, a table's policies or a security_invoker view would show
	 * the caller what they hide from it.
	 */
	if (get_rel_relkind(relid) != RELKIND_RELATION || rel_has_row_security(relid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("textfp reports read only plain tables without row-level security, not %s", get_rel_name(relid))));
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", get_rel_name(relid))));
	report = text_to_cstring(PG_GETARG_TEXT_PP(1));
	name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid));
	if (strcmp(report, "stories") == 0)
		sql = psprintf("SELECT s.key::text, s.story::text FROM ONLY %s s", name);
	else if (strcmp(report, "stories_typed") == 0)
		sql = psprintf("SELECT s.key, s.story FROM ONLY %s s", name);
	else if (strcmp(report, "story_report") == 0 && story_summary_usable(fcinfo))
	{
		/*
		 * The summary's stories, but those changed since its last fold,
		 * which are recounted from the store (track_story.c): exact, and
		 * reading the store only for the changed stories.  It holds the
		 * stories of two rows or more: min_size 2 or more.  Each branch
		 * sorted and limited to max_rows ($3) on its own, so that the
		 * summary's are read from its index in the report's order and the
		 * two merged: the first rows cost the changed stories, not every
		 * story.  Made text after the limit (narrow rows sort faster).
		 */
		sql = psprintf("WITH k AS (SELECT DISTINCT c.story FROM ONLY %2$s c)"
					   " SELECT g.story::text, g.size, g.sites, " SITE_TEXT("g") ", g.first_at::timestamptz, g.last_at::timestamptz"
					   " FROM ((SELECT m.story, m.size, m.sites, m.site, m.first_at, m.last_at FROM ONLY %3$s m"
					   " WHERE m.size >= $2::integer AND ($1::timestamptz IS NULL OR m.first_at::timestamptz >= $1::timestamptz)"
					   " AND NOT EXISTS (SELECT FROM k WHERE k.story = m.story)"
					   " ORDER BY m.size DESC, m.first_at, m.story LIMIT $3::bigint)"
					   " UNION ALL"
					   " (SELECT k.story, a.size, a.sites, o.site, o.at, a.last_at FROM k"
					   " CROSS JOIN LATERAL (SELECT " TRACK_STORY_COUNTS
					   " FROM ONLY %1$s s WHERE s.story = k.story) a"
					   " JOIN ONLY %1$s o ON o.key = k.story"
					   " WHERE a.size >= $2::integer AND ($1::timestamptz IS NULL OR o.at::timestamptz >= $1::timestamptz)"
					   " ORDER BY a.size DESC, o.at, k.story LIMIT $3::bigint)) g"
					   " ORDER BY g.size DESC, g.first_at, g.story LIMIT $3::bigint",
					   name, side_name(relid, owner, "_changes"), side_name(relid, owner, "_stories"));
	}
	else if (strcmp(report, "story_report") == 0)
		sql = psprintf("SELECT g.story::text, g.size, g.sites,"
					   " " SITE_TEXT("o") ", o.at::timestamptz, g.last_at::timestamptz"
					   " FROM (SELECT s.story, " TRACK_STORY_COUNTS
					   " FROM ONLY %1$s s GROUP BY s.story HAVING count(*) >= $2::integer) g"
					   " JOIN ONLY %1$s o ON o.key = g.story"
					   " WHERE $1::timestamptz IS NULL OR o.at::timestamptz >= $1::timestamptz"
					   " ORDER BY g.size DESC, o.at, g.story LIMIT $3::bigint", name);
	else if (strcmp(report, "new_stories") == 0)
		sql = psprintf("SELECT o.key::text, o.at::timestamptz, " SITE_TEXT("o") ","
					   " m.size, m.sites FROM ONLY %1$s o"
					   " CROSS JOIN LATERAL (SELECT count(*) AS size, count(DISTINCT s.site) AS sites"
					   " FROM ONLY %1$s s WHERE s.story = o.key) m"
					   " WHERE o.source IS NULL AND o.at::timestamptz >= $1::timestamptz"
					   " ORDER BY o.at, o.key LIMIT $2::bigint", name);
	else if (strcmp(report, "reprints") == 0)
	{
		/*
		 * The reprint summary's site pairs, but those changed since its last
		 * fold, which are recounted from the store through its index on
		 * (source_site, site, source); counted from the whole store with since, or
		 * for a registration without a site column (which keeps no pairs).
		 * Its configuration table is named after the store, as the
		 * summaries are.  Sorted by the sites' own order, and made text
		 * after the sort (narrow rows sort faster: 1.0 s against 1.9 s for
		 * 274,607 pairs); each branch limited to max_rows ($3) on its own,
		 * the summary's read from its index in that order, as the story
		 * report.  A changed pair is left out of the summary's rows by
		 * equality (a hash anti-join), and those with a NULL site by a
		 * second test over them alone (kn): a NULL-aware test over every
		 * pair cost summary x changes comparisons, 3 s at 374,725 pairs.
		 */
		Oid			st = site_type(relid);

		sql = psprintf("WITH f AS (SELECT $1::timestamptz IS NULL AND (SELECT r.site_column IS NOT NULL FROM ONLY %2$s r) AS summed), "
					   "k AS (SELECT DISTINCT p.source_site, p.site FROM ONLY %3$s p WHERE (SELECT f.summed FROM f)), "
					   "kn AS MATERIALIZED (SELECT k.source_site, k.site FROM k WHERE ROW(k.source_site) IS NULL OR ROW(k.site) IS NULL) "
					   "SELECT CASE WHEN ROW(g.source_site) IS NOT NULL THEN format('%%s', g.source_site) END,"
					   " " SITE_TEXT("g") ", g.reprints, g.stories, g.median_delay"
					   " FROM ((SELECT m.source_site, m.site, m.reprints, m.stories, m.median_delay FROM ONLY %4$s m"
					   " WHERE (SELECT f.summed FROM f) AND m.reprints > 0 AND " SAME_SITE_OK("%8$s", "m.source_site", "m.site") " AND NOT EXISTS (SELECT FROM k WHERE %6$s AND %7$s)"
					   " AND NOT EXISTS (SELECT FROM kn k WHERE %11$s)"
					   " ORDER BY m.reprints DESC, m.source_site, m.site LIMIT $3::bigint)"
					   " UNION ALL"
					   " (SELECT k.source_site, k.site, a.reprints, a.stories, a.median_delay FROM k CROSS JOIN LATERAL"
					   " (SELECT " TRACK_PAIR_COUNTS("c.source_at") " FROM %5$s c) a"
					   " WHERE a.reprints > 0 AND " SAME_SITE_OK("%9$s", "k.source_site", "k.site")
					   " ORDER BY a.reprints DESC, k.source_site, k.site LIMIT $3::bigint)"
					   " UNION ALL"
					   " (SELECT o.site, c.site, " TRACK_PAIR_COUNTS("o.at") " FROM ONLY %1$s c JOIN ONLY %1$s o ON o.key = c.source"
					   " WHERE NOT (SELECT f.summed FROM f)"
					   " AND ($1::timestamptz IS NULL OR c.at::timestamptz >= $1::timestamptz)"
					   " AND " SAME_SITE_OK("%10$s", "o.site", "c.site") " GROUP BY o.site, c.site"
					   " ORDER BY 3 DESC, 1, 2 LIMIT $3::bigint)) g"
					   " ORDER BY g.reprints DESC, g.source_site, g.site LIMIT $3::bigint",
					   name, side_name(relid, owner, "_config"), side_name(relid, owner, "_reprint_changes"),
					   side_name(relid, owner, "_reprints"), track_pair_rows(name, st),
					   track_eq_sql(st, "m.source_site", "k.source_site"), track_eq_sql(st, "m.site", "k.site"),
					   track_eq_sql(st, "m.source_site", "m.site"), track_eq_sql(st, "k.source_site", "k.site"),
					   track_eq_sql(st, "o.site", "c.site"), track_same_pair_sql(st, "m", "k"));
	}
	else if (strcmp(report, "timeline") == 0)
		sql = psprintf("SELECT s.key::text, s.at::timestamptz, " SITE_TEXT("s") ","
					   " s.source::text, s.score, s.at::timestamptz - o.at::timestamptz"
					   " FROM ONLY %1$s s JOIN ONLY %1$s o ON o.key = s.story"
					   " WHERE s.story = $1::%2$s ORDER BY s.at, s.key", name, column_type(relid, "key"));
	else if (strcmp(report, "excerpts") == 0)
	{
		/* the rows one row contains a share of, and the rows holding a share of it */
		const char *nsp = quote_identifier(get_namespace_name(get_func_namespace(fcinfo->flinfo->fn_oid)));
		const char *ktype = column_type(relid, "key");

		/* containment(bigint[], bigint[]), quoted_in and quoting take it */
		require_column_type(relid, "wf", INT8ARRAYOID);
		sql = psprintf("WITH r AS (SELECT s.wf FROM ONLY %1$s s WHERE s.key = $1::%2$s AND s.wf IS NOT NULL)"
					   " SELECT s.key::text, s.at::timestamptz, " SITE_TEXT("s") ","
					   " 'contains'::text, %3$s.containment(s.wf, r.wf) FROM r, ONLY %1$s s"
					   " WHERE s.wf OPERATOR(%3$s.@@) %3$s.quoted_in(r.wf, $2::float8, 3, $3::bigint[]) AND s.key <> $1::%2$s"
					   " UNION ALL"
					   " SELECT s.key::text, s.at::timestamptz, " SITE_TEXT("s") ","
					   " 'contained_in'::text, %3$s.containment(r.wf, s.wf) FROM r, ONLY %1$s s"
					   " WHERE s.wf OPERATOR(%3$s.@@) %3$s.quoting(r.wf, $2::float8, 3, $3::bigint[]) AND s.key <> $1::%2$s"
					   " ORDER BY 5 DESC, 2, 1", name, ktype, nsp);
	}
	else if (strcmp(report, "registration") == 0)
	{
		/* every setting (the model by its digest), the state and progress; textfp_tracked() */
		Oid			fnsp = get_func_namespace(fcinfo->flinfo->fn_oid);
		const char *nsp = quote_identifier(get_namespace_name(fnsp));
		Oid			idf_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("idf_model"),
											   ObjectIdGetDatum(fnsp));

		/* idf_model_digest(idf_model) takes it */
		if (!OidIsValid(idf_type))
			elog(ERROR, "type idf_model of textfp does not exist");
		require_column_type(relid, "idf", idf_type);

		sql = psprintf("SELECT c.text_column, c.key_column, c.time_column, c.site_column, c.method, c.preset, c.options,"
					   " %2$s.idf_model_digest(c.idf), c.threshold, c.cohesion, c.lsh_bands, c.lsh_rows, c.lsh_min_bands,"
					   " c.excerpts, c.dedup, c.dedup_scope, c.locks, c.state, c.phase, c.done, c.total, c.registered_at,"
					   " c.updated_at, c.source_table FROM ONLY %1$s c", name, nsp);
	}
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown textfp report \"%s\"", report)));
	return run_as_owner(fcinfo, owner, sql, PG_ARGISNULL(2) ? NULL : PG_GETARG_ARRAYTYPE_P(2), true);
}
