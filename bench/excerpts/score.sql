-- score.sql: recall of the labeled excerpts and false matches of unrelated and same-site pairs, for
-- every winnow() configuration, least containment c and least shared fingerprints m; then the same
-- with the collection's common fingerprints (in at least :common_df texts) ignored; then option (a),
-- MinHash with set sizes.  A pair is a false match when either text matches the other (x in y or
-- y in x); a positive when x is found in y.  Run after load.sql.
\set ON_ERROR_STOP on
\if :{?common_df}
\else
\set common_df 10
\endif

-- shared fingerprints of every pair, and both sizes
DROP TABLE IF EXISTS ex_scored;
CREATE TABLE ex_scored AS
	SELECT p.kind, p.lang, c.cfg, p.x, p.y,
		   cardinality(fx.f) AS sx, cardinality(fy.f) AS sy,
		   round(containment(fx.f, fy.f) * cardinality(fx.f))::int AS sh
	FROM ex_pairs p CROSS JOIN ex_cfg c
	JOIN ex_fp fx ON fx.cfg = c.cfg AND fx.id = p.x
	JOIN ex_fp fy ON fy.cfg = c.cfg AND fy.id = p.y;

-- the common fingerprints of the collection, and each text's fingerprints without them
DROP TABLE IF EXISTS ex_common, ex_fpc;
CREATE TABLE ex_common AS
	SELECT cfg, array_agg(h ORDER BY h) AS common
	FROM (SELECT cfg, h FROM ex_fp, unnest(f) h GROUP BY cfg, h HAVING count(*) >= :common_df) s GROUP BY cfg;
CREATE TABLE ex_fpc AS
	SELECT f.cfg, f.id, coalesce(array(SELECT unnest(f.f) EXCEPT SELECT unnest(c.common) ORDER BY 1), '{}') AS f
	FROM ex_fp f LEFT JOIN ex_common c USING (cfg);
DROP TABLE IF EXISTS ex_scored_c;
CREATE TABLE ex_scored_c AS
	SELECT p.kind, p.lang, c.cfg, p.x, p.y,
		   cardinality(fx.f) AS sx, cardinality(fy.f) AS sy,
		   round(containment(fx.f, fy.f) * cardinality(fx.f))::int AS sh
	FROM ex_pairs p CROSS JOIN ex_cfg c
	JOIN ex_fpc fx ON fx.cfg = c.cfg AND fx.id = p.x
	JOIN ex_fpc fy ON fy.cfg = c.cfg AND fy.id = p.y;

CREATE OR REPLACE FUNCTION pg_temp.hit(sh int, s int, c float8, m int) RETURNS boolean
	LANGUAGE sql IMMUTABLE AS $$ SELECT s > 0 AND sh >= m AND sh::float8 / s >= c $$;

\echo '## fingerprints per text (median, by kind)'
SELECT f.cfg, e.lang, e.kind, percentile_disc(0.5) WITHIN GROUP (ORDER BY cardinality(f.f)) AS median_fp,
	   round(avg(cardinality(f.f)), 1) AS mean_fp
FROM ex_fp f JOIN ex e USING (id) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;

\echo '## recall and false matches per 1,000 pairs, by configuration, c and m (common fingerprints kept | ignored)'
WITH grid AS (SELECT c, m FROM unnest(ARRAY[0.2, 0.25]::float8[]) c, unnest(ARRAY[1, 2, 3, 4, 6, 8]) m),
r AS (
	SELECT 'kept' AS common, s.cfg, s.lang, g.c, g.m,
		   avg(pg_temp.hit(s.sh, s.sx, g.c, g.m)::int) FILTER (WHERE s.kind = 'pos') AS recall,
		   1000 * avg((pg_temp.hit(s.sh, s.sx, g.c, g.m) OR pg_temp.hit(s.sh, s.sy, g.c, g.m))::int)
			   FILTER (WHERE s.kind = 'unrel') AS unrel_per_1000,
		   1000 * avg((pg_temp.hit(s.sh, s.sx, g.c, g.m) OR pg_temp.hit(s.sh, s.sy, g.c, g.m))::int)
			   FILTER (WHERE s.kind = 'site') AS site_per_1000
	FROM ex_scored s CROSS JOIN grid g GROUP BY 1, 2, 3, 4, 5
	UNION ALL
	SELECT 'ignored', s.cfg, s.lang, g.c, g.m,
		   avg(pg_temp.hit(s.sh, s.sx, g.c, g.m)::int) FILTER (WHERE s.kind = 'pos'),
		   1000 * avg((pg_temp.hit(s.sh, s.sx, g.c, g.m) OR pg_temp.hit(s.sh, s.sy, g.c, g.m))::int)
			   FILTER (WHERE s.kind = 'unrel'),
		   1000 * avg((pg_temp.hit(s.sh, s.sx, g.c, g.m) OR pg_temp.hit(s.sh, s.sy, g.c, g.m))::int)
			   FILTER (WHERE s.kind = 'site')
	FROM ex_scored_c s CROSS JOIN grid g GROUP BY 1, 2, 3, 4, 5)
SELECT common, cfg, lang, c, m, round(recall, 4) AS recall, round(unrel_per_1000, 3) AS unrel_per_1000,
	   round(site_per_1000, 1) AS site_per_1000
FROM r ORDER BY 1 DESC, 2, 3, 4, 5 \g (format=unaligned fieldsep='|')

\echo '## option (a): containment estimated from MinHash (k = 128) and set sizes, |X & Y| / |X| = J (|X| + |Y|) / ((1 + J) |X|)'
DROP TABLE IF EXISTS ex_mh_scored;
CREATE TABLE ex_mh_scored AS
	SELECT p.kind, p.lang, a.shingle, p.x, p.y, a.n AS nx, b.n AS ny, jaccard(a.sig, b.sig) AS j,
		   jaccard(shingles(ex.body, shingle => a.shingle), shingles(ey.body, shingle => a.shingle)) AS j_exact
	FROM ex_pairs p JOIN ex_mh a ON a.id = p.x JOIN ex_mh b ON b.id = p.y AND b.shingle = a.shingle
	JOIN ex ex ON ex.id = p.x JOIN ex ey ON ey.id = p.y
	WHERE p.kind <> 'unrel' OR (p.x + p.y) % 4 = 0;
CREATE OR REPLACE FUNCTION pg_temp.cest(j float8, nx int, ny int) RETURNS float8
	LANGUAGE sql IMMUTABLE AS $$ SELECT CASE WHEN nx = 0 THEN 0 ELSE j * (nx + ny) / ((1 + j) * nx) END $$;
-- the threshold on the estimate that lets in at most 1 unrelated pair in 1,000, and its recall
WITH s AS (
	SELECT kind, lang, shingle, greatest(pg_temp.cest(j, nx, ny), pg_temp.cest(j, ny, nx)) AS either,
		   pg_temp.cest(j, nx, ny) AS est,
		   pg_temp.cest(j_exact, nx, ny) AS exact
	FROM ex_mh_scored),
t AS (SELECT lang, shingle, percentile_cont(0.999) WITHIN GROUP (ORDER BY either) AS t999
	  FROM s WHERE kind = 'unrel' GROUP BY 1, 2)
SELECT s.lang, s.shingle, round(t.t999::numeric, 3) AS threshold_fp_1e3,
	   round(avg((s.est >= t.t999)::int) FILTER (WHERE s.kind = 'pos'), 4) AS recall_at_it,
	   round(avg((s.est >= 0.25)::int) FILTER (WHERE s.kind = 'pos'), 4) AS recall_at_025,
	   round(1000 * avg((s.either >= 0.25)::int) FILTER (WHERE s.kind = 'unrel'), 2) AS unrel_per_1000_at_025,
	   round(1000 * avg((s.either >= 0.25)::int) FILTER (WHERE s.kind = 'site'), 1) AS site_per_1000_at_025,
	   round(avg((s.exact >= 0.25)::int) FILTER (WHERE s.kind = 'pos'), 4) AS exact_sets_recall_at_025
FROM s JOIN t USING (lang, shingle) GROUP BY 1, 2, 3 ORDER BY 1, 2;
