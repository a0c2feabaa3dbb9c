-- fp_lookups.sql: the registration's near-row lookup for candidate MinHash fingerprints side by side in one
-- session (bandings.sql's method, but one banding per fingerprint and threshold instead of one fingerprint
-- under several bandings).  Expects:
--   lk_fp   (id bigint, lang text, <one minhash_sig column per fingerprint>) : the rows' fingerprints
--   lk_cand (name text, col text, threshold float8, bands int, rows int, min_bands int, bits int) : the
--           candidates, each a fingerprint column of lk_fp, a threshold and its banding (textfp_track_banding)
-- and psql variables samples (rows a language) and fpcols (the fingerprint columns, comma-separated: a sample
-- row has all of them non-NULL).  For each fingerprint column and banding (bands, rows, bits) a
-- table lk_fp_<col> (id, fp) with the GIN index a registration makes (gin_minhash_lsh_ops (bands, rows, bits),
-- fastupdate off), built once and shared by the candidates of that column; then for :samples rows of each
-- language taken at random (the same rows for every candidate):
--   near   rows within the candidate's threshold by a scan of every row (jaccard >= threshold), the row left out
--   found  of them, the rows the lookup finds (fp @@ lsh_query(q, bands, rows, min_bands) AND fp <@ jaccard_ball)
--   cands  rows the LSH route yields before verification (@@ alone)
--   gin    rows GIN hands to the heap before its recheck (EXPLAIN ANALYZE of @@ alone)
--   ms     the lookup's time, warm, in a loop over the candidates per row so that load changes hit each alike
-- Results in lk_build, lk_result and the summary on stdout.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE IF NOT EXISTS lk_build (col text PRIMARY KEY, bands int, rows int, bits int, index_s float8,
	index_mb float8, table_mb float8);
CREATE TABLE IF NOT EXISTS lk_result (name text, lang text, id bigint, near bigint, found bigint, cands bigint,
	gin bigint, ms float8);
TRUNCATE lk_build, lk_result;

DROP TABLE IF EXISTS lk_sample;
CREATE TABLE lk_sample AS
SELECT id, lang FROM (SELECT id, lang, row_number() OVER (PARTITION BY lang ORDER BY hashint8(id * 2654435761)) AS r
	  FROM lk_fp WHERE ROW(:fpcols) IS NOT NULL) x
WHERE x.r <= :samples;

DO $$
DECLARE c record; t0 timestamptz;
BEGIN
	FOR c IN SELECT DISTINCT col, bands, rows, bits FROM lk_cand ORDER BY col LOOP
		IF (SELECT count(DISTINCT (bands, rows, bits)) FROM lk_cand WHERE col = c.col) > 1 THEN
			RAISE EXCEPTION 'fp_lookups.sql: column % has more than one index banding', c.col;
		END IF;
		EXECUTE format('DROP TABLE IF EXISTS %I', 'lk_fp_' || c.col);
		EXECUTE format('CREATE TABLE %I AS SELECT id, %I AS fp FROM lk_fp', 'lk_fp_' || c.col, c.col);
		COMMIT;
		t0 := clock_timestamp();
		EXECUTE format('CREATE INDEX %I ON %I USING gin (fp gin_minhash_lsh_ops (bands = %s, rows = %s, bits = %s)) WITH (fastupdate = off)',
			'lk_fp_' || c.col || '_lsh', 'lk_fp_' || c.col, c.bands, c.rows, c.bits);
		INSERT INTO lk_build VALUES (c.col, c.bands, c.rows, c.bits, extract(epoch FROM clock_timestamp() - t0),
			pg_relation_size(format('%I', 'lk_fp_' || c.col || '_lsh')) / 1048576.0,
			pg_relation_size(format('%I', 'lk_fp_' || c.col)) / 1048576.0);
		EXECUTE format('ANALYZE %I', 'lk_fp_' || c.col);
		COMMIT;
	END LOOP;
END $$;

-- DROP_FP=1: lk_fp dropped once copied (disk space); the samples are chosen before
\if :{?drop_fp}
DROP TABLE lk_fp;
\endif

-- near rows by a scan: one scan a fingerprint column and sample row, counted for each of its candidates
DROP TABLE IF EXISTS lk_near;
CREATE TABLE lk_near (name text, id bigint, near bigint);
DO $$
DECLARE c record; s record;
BEGIN
	FOR c IN SELECT col, min(threshold) AS t FROM lk_cand GROUP BY col ORDER BY col LOOP
		FOR s IN SELECT * FROM lk_sample ORDER BY id LOOP
			EXECUTE format('INSERT INTO lk_near SELECT k.name, $1, count(j.j) FILTER (WHERE j.j >= k.threshold) - 1
				FROM lk_cand k, (SELECT jaccard(f.fp, q.fp) AS j FROM %I f, (SELECT fp FROM %I WHERE id = $1) q
					WHERE jaccard(f.fp, q.fp) >= %s) j
				WHERE k.col = %L GROUP BY k.name', 'lk_fp_' || c.col, 'lk_fp_' || c.col, c.t, c.col) USING s.id;
		END LOOP;
		COMMIT;
	END LOOP;
END $$;

DO $$
DECLARE s record; c record; sig minhash_sig; t0 timestamptz; ms float8; nf bigint; nc bigint; ng bigint;
	plan json; round int;
BEGIN
	-- round 0 warms the indexes and is not kept
	FOR round IN 0 .. 1 LOOP
		FOR s IN SELECT * FROM lk_sample ORDER BY CASE WHEN round = 0 THEN hashint8(id) ELSE id END
				LIMIT CASE WHEN round = 0 THEN 40 END LOOP
			FOR c IN SELECT * FROM lk_cand ORDER BY name LOOP
				EXECUTE format('SELECT fp FROM %I WHERE id = $1', 'lk_fp_' || c.col) INTO sig USING s.id;
				t0 := clock_timestamp();
				EXECUTE format('SELECT count(*) FROM %I s WHERE s.fp @@ lsh_query($1, %s, %s, %s) AND s.fp <@ jaccard_ball($1, %s)',
					'lk_fp_' || c.col, c.bands, c.rows, c.min_bands, c.threshold) INTO nf USING sig;
				ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
				CONTINUE WHEN round = 0;
				EXECUTE format('SELECT count(*) FROM %I s WHERE s.fp @@ lsh_query($1, %s, %s, %s)',
					'lk_fp_' || c.col, c.bands, c.rows, c.min_bands) INTO nc USING sig;
				EXECUTE format('EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) SELECT * FROM %I s WHERE s.fp @@ lsh_query(%L::minhash_sig, %s, %s, %s)',
					'lk_fp_' || c.col, sig, c.bands, c.rows, c.min_bands) INTO plan;
				ng := coalesce((plan->0->'Plan'->>'Actual Rows')::bigint, 0)
					+ coalesce((plan->0->'Plan'->>'Rows Removed by Index Recheck')::bigint, 0);
				INSERT INTO lk_result SELECT c.name, s.lang, s.id, n.near, nf - 1, nc - 1, ng - 1, ms
					FROM lk_near n WHERE n.name = c.name AND n.id = s.id;
			END LOOP;
		END LOOP;
		COMMIT;
	END LOOP;
END $$;

SELECT c.name, c.col, c.threshold, c.bands || ' x ' || c.rows || ' >= ' || c.min_bands || ' (' || c.bits || ' bits)' AS banding,
	round(b.index_mb::numeric, 1) AS index_mb, round(b.index_s::numeric, 1) AS index_s, r.lang, count(*) AS samples,
	sum(near) AS near, sum(found) AS found, round(avg(cands), 1) AS cands_mean,
	percentile_disc(0.5) WITHIN GROUP (ORDER BY cands) AS cands_median, max(cands) AS cands_max,
	round(avg(gin), 1) AS gin_mean,
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS ms_median, round(avg(ms)::numeric, 2) AS ms_mean,
	round(max(ms)::numeric, 1) AS ms_max
FROM lk_result r JOIN lk_cand c USING (name) JOIN lk_build b USING (col)
GROUP BY GROUPING SETS ((c.name, c.col, c.threshold, c.bands, c.rows, c.min_bands, c.bits, b.index_mb, b.index_s, r.lang),
	(c.name, c.col, c.threshold, c.bands, c.rows, c.min_bands, c.bits, b.index_mb, b.index_s))
ORDER BY r.lang NULLS LAST, c.name;
