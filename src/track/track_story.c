/*
 * track_story.c: the summaries of a registration, what the story report and
 * the reprints report read instead of counting a million rows.
 *
 *   T_textfp_stories  one row per story of two rows or more, as of the last
 *                     fold: size, sites, the original's site and time, the
 *                     last member's time;
 *   T_textfp_changes  the stories a write changed since, appended by the
 *                     write's own statement (track_store.c), never updated;
 *   T_textfp_reprints, T_textfp_reprint_changes  the same for the links by
 *                     site pair (the source's site, kept in the store as
 *                     source_site, and the copy's): their count, stories and
 *                     median delay.
 *
 * A story not in T_textfp_changes has its summary row (or has fewer than two
 * rows); the report recounts the changed ones from the store, so it is exact
 * whenever it runs.  A fold moves the changed stories into the summary: one
 * statement, one snapshot, deleting the changes it sees and recounting their
 * stories as of that snapshot (a write it does not see keeps its change for
 * a later fold).  Writers fold now and then (every TRACK_FOLD_EVERY rows a
 * backend writes, at READ COMMITTED only: at REPEATABLE READ an update of a
 * summary row another fold committed would raise 40001 in the writer), each
 * holding the summary's ExclusiveLock (readers go on; a second folder skips
 * its turn rather than wait); textfp_track() and textfp_rebuild() fold the
 * whole store when they finish.  Site pairs go the same way, under the same
 * lock, in a statement of their own.
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"

#include "track.h"

/* rows a backend writes between its attempts to fold */
#define TRACK_FOLD_EVERY 256

/*
 * A site pair of this many links or more is heavy: a writer's fold leaves its
 * changes (the report recounts them, exact) but for every
 * TRACK_FOLD_HEAVY_EVERY-th fold of the backend.  A pair's counts do not fold
 * by difference, so each fold recounted it whole: at 1.78M text-like rows 25
 * same-site pairs of 1,024 links or more held 70% of the links a fold read.
 */
#define TRACK_FOLD_HEAVY 1024
#define TRACK_FOLD_HEAVY_EVERY 16

/* A registration's table named after its store (store || suffix), in the store's schema. */
Oid
track_side_table(Oid store_relid, const char *suffix)
{
	char	   *store = get_rel_name(store_relid);
	char	   *name;
	Oid			relid;

	if (store == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", store_relid)));
	name = psprintf("%s%s", store, suffix);
	relid = get_relname_relid(name, get_rel_namespace(store_relid));
	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("the textfp table %s of store %s does not exist", name, store),
				 errhint("textfp_untrack() ends the registration; textfp_track() makes a new one.")));
	return relid;
}

/*
 * The fold: the changed stories recounted from the store, written to the
 * summary (two rows or more, with their original) or removed from it.
 */
char *
track_fold_sql(TrackConfig *c, const char *keq)
{
	return psprintf(
		"WITH d AS (DELETE FROM ONLY %2$s c RETURNING c.story), "
		"k AS (SELECT DISTINCT d.story FROM d), "
		"g AS (SELECT k.story, a.size, a.sites, a.last_at FROM k CROSS JOIN LATERAL "
		"(SELECT " TRACK_STORY_COUNTS " "
		"FROM ONLY %1$s s WHERE s.story %4$s k.story) a), "
		"x AS (DELETE FROM ONLY %3$s m USING g WHERE m.story %4$s g.story "
		"AND (g.size < 2 OR NOT EXISTS (SELECT FROM ONLY %1$s o WHERE o.key %4$s g.story))) "
		"INSERT INTO %3$s AS m (story, size, sites, site, first_at, last_at) "
		"SELECT g.story, g.size, g.sites, o.site, o.at, g.last_at FROM g JOIN ONLY %1$s o ON o.key %4$s g.story "
		"WHERE g.size >= 2 "
		"ON CONFLICT (story) DO UPDATE SET size = excluded.size, sites = excluded.sites, site = excluded.site, "
		"first_at = excluded.first_at, last_at = excluded.last_at",
		c->store_name, c->changes_name, c->stories_name, keq);
}

/*
 * SQL: the links of the site pair k.source_site, k.site (a lateral
 * reference), NULL equal to NULL, as rows c (story, at, source_at) of store; a
 * branch for each way the pair may hold a NULL (the value NULL, as the
 * unique index sees it: track_null_sql()), so that each is a scan of the
 * store's index on (source_site, site, source), which covers the columns
 * read (index-only), and a link matches one branch.
 * site_type is the store's site type, compared by its equality
 * (track_eq_sql()).
 */
char *
track_pair_rows(const char *store, Oid site_type)
{
	char	   *src = track_eq_sql(site_type, "c.source_site", "k.source_site");
	char	   *site = track_eq_sql(site_type, "c.site", "k.site");
	char	   *src_null = psprintf("%s AND %s", track_null_sql(site_type, "k.source_site", true),
									track_null_sql(site_type, "c.source_site", true));
	char	   *site_null = psprintf("%s AND %s", track_null_sql(site_type, "k.site", true),
									 track_null_sql(site_type, "c.site", true));

	return psprintf(
		"(SELECT c.story, c.at, c.source_at FROM ONLY %1$s c WHERE c.source IS NOT NULL "
		"AND %2$s AND %3$s "
		"UNION ALL SELECT c.story, c.at, c.source_at FROM ONLY %1$s c WHERE c.source IS NOT NULL "
		"AND %4$s AND %3$s "
		"UNION ALL SELECT c.story, c.at, c.source_at FROM ONLY %1$s c WHERE c.source IS NOT NULL "
		"AND %2$s AND %5$s "
		"UNION ALL SELECT c.story, c.at, c.source_at FROM ONLY %1$s c WHERE c.source IS NOT NULL "
		"AND %4$s AND %5$s)",
		store, src, site, src_null, site_null);
}

/*
 * The fold of the site pairs: the changed pairs recounted from the store's
 * links (each with its source's site and time: no join), written to the reprint summary (the unique index finds a pair's
 * row, NULL sites included).  A pair left without links keeps a row of
 * zero, which the report skips and a whole fold drops: no scan of the
 * summary for it.  Unless $1 (all), the heavy pairs' changes stay (h: the
 * summary's pairs of TRACK_FOLD_HEAVY links or more, through its index on
 * reprints), NULL sites equal.
 */
char *
track_fold_pairs_sql(TrackConfig *c)
{
	Oid			st = c->site_store_type;

	return psprintf(
		"WITH h AS MATERIALIZED (SELECT m.source_site, m.site FROM ONLY %2$s m "
		"WHERE NOT $1::boolean AND m.reprints >= " CppAsString2(TRACK_FOLD_HEAVY) "), "
		"d AS (DELETE FROM ONLY %1$s p WHERE NOT EXISTS (SELECT FROM h WHERE %4$s) "
		"RETURNING p.source_site, p.site), "
		"k AS (SELECT DISTINCT d.source_site, d.site FROM d) "
		"INSERT INTO %2$s AS m (source_site, site, reprints, stories, median_delay) "
		"SELECT k.source_site, k.site, a.reprints, a.stories, a.median_delay FROM k CROSS JOIN LATERAL "
		"(SELECT " TRACK_PAIR_COUNTS("c.source_at") " FROM %3$s c) a "
		"ON CONFLICT (source_site, site) DO UPDATE SET reprints = excluded.reprints, stories = excluded.stories, "
		"median_delay = excluded.median_delay",
		c->reprint_changes_name, c->reprints_name, track_pair_rows(c->store_name, st),
		track_same_pair_sql(st, "p", "h"));
}

/*
 * After a trigger's writes: every TRACK_FOLD_EVERY rows this backend wrote,
 * fold if no one else is folding.  The changes a fold leaves are folded by
 * a later one; the report is exact either way.
 */
void
track_maybe_fold(TrackConfig *c)
{
	static int	written = 0;
	static int	folds = 0;

	if (++written < TRACK_FOLD_EVERY || XactIsoLevel != XACT_READ_COMMITTED)
		return;
	written = 0;
	if (!ConditionalLockRelationOid(c->stories_relid, ExclusiveLock))
		return;
	(void) track_run_fold(c, ++folds % TRACK_FOLD_HEAVY_EVERY == 0);
}
