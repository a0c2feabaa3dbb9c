-- candidates.sql: what candidate MinHash fingerprints (a successor to minhash_v1) cost a registration's
-- lookups on bench/corpus's text-like rows, side by side in one session.  Expects table cl (id, lang, body:
-- the corpus) and table cand (name, expr: a minhash() expression of body, threshold: its Jaccard threshold),
-- as candidates.sh makes them.  For each candidate: the fingerprints of every row (cl_<name>, the seconds
-- it took), the GIN index a registration makes (gin_minhash_lsh_ops with textfp_track_banding(threshold,
-- k)), then for :samples rows of each language taken at random (the same rows for every candidate):
--   near      rows within the threshold, by a scan of every row (jaccard >= t), the row itself left out
--   found     of them, the rows the registration's lookup finds (fp @@ lsh_query(...) AND fp <@ jaccard_ball)
--   cands     rows the LSH route yields before verification (fp @@ lsh_query(bands, rows, min_bands))
--   ms        the lookup's time (the triggers' near-row query, lookup.sql's), warm, in a loop over
--             the candidates per row so that load changes hit every candidate alike
-- Results in cand_result (one row per candidate, language and sample) and cand_summary.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE IF NOT EXISTS cand_build (name text PRIMARY KEY, bands int, rows int, min_bands int,
	fingerprint_s float8, index_s float8, fp_mb float8, index_mb float8, null_fps bigint);
CREATE TABLE IF NOT EXISTS cand_result (name text, lang text, id bigint, near bigint, found bigint, cands bigint,
	ms float8);
TRUNCATE cand_build, cand_result;

DO $$
DECLARE c record; b record; t0 timestamptz; t1 timestamptz;
BEGIN
	FOR c IN SELECT * FROM cand ORDER BY name LOOP
		SELECT * INTO b FROM textfp_track_banding(c.threshold, 128);
		EXECUTE format('DROP TABLE IF EXISTS %I', 'cl_' || c.name);
		t0 := clock_timestamp();
		EXECUTE format('CREATE TABLE %I AS SELECT id, lang, %s AS fp FROM cl', 'cl_' || c.name,
			replace(c.expr, '$1', 'body'));
		t1 := clock_timestamp();
		EXECUTE format('CREATE INDEX %I ON %I USING gin (fp gin_minhash_lsh_ops (bands = %s, rows = %s)) WITH (fastupdate = off)',
			'cl_' || c.name || '_lsh', 'cl_' || c.name, b.bands, b.rows);
		EXECUTE format('CREATE INDEX ON %I (id)', 'cl_' || c.name);
		EXECUTE format('ANALYZE %I', 'cl_' || c.name);
		EXECUTE format('INSERT INTO cand_build SELECT %L, %s, %s, %s, %s, %s, pg_table_size(%L) / 1048576.0,
				pg_relation_size(%L) / 1048576.0, (SELECT count(*) FROM %I WHERE fp IS NULL)',
			c.name, b.bands, b.rows, b.min_bands, extract(epoch FROM t1 - t0),
			extract(epoch FROM clock_timestamp() - t1), 'cl_' || c.name, 'cl_' || c.name || '_lsh', 'cl_' || c.name);
		COMMIT;
	END LOOP;
END $$;

CREATE TEMP TABLE sample AS
SELECT id, lang FROM (
	SELECT id, lang, row_number() OVER (PARTITION BY lang ORDER BY hashint8(id * 2654435761)) AS r FROM cl) x
WHERE r <= :samples;

DO $$
DECLARE s record; c record; b record; sig minhash_sig; t0 timestamptz; ms float8; nf bigint; nc bigint; nn bigint;
	round int;
BEGIN
	-- round 0 warms the indexes and is not kept
	FOR round IN 0 .. 1 LOOP
		FOR s IN SELECT * FROM sample ORDER BY CASE WHEN round = 0 THEN hashint8(id) ELSE id END LIMIT CASE WHEN round = 0 THEN 40 END LOOP
			FOR c IN SELECT cand.*, cb.bands, cb.rows, cb.min_bands FROM cand JOIN cand_build cb USING (name) ORDER BY name LOOP
				EXECUTE format('SELECT fp FROM %I WHERE id = $1', 'cl_' || c.name) INTO sig USING s.id;
				CONTINUE WHEN sig IS NULL;
				t0 := clock_timestamp();
				EXECUTE format('SELECT count(*) FROM %I s WHERE s.fp @@ lsh_query($1, %s, %s, %s) AND s.fp <@ jaccard_ball($1, %s)',
					'cl_' || c.name, c.bands, c.rows, c.min_bands, c.threshold) INTO nf USING sig;
				ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
				CONTINUE WHEN round = 0;
				EXECUTE format('SELECT count(*) FROM %I s WHERE s.fp @@ lsh_query($1, %s, %s, %s)',
					'cl_' || c.name, c.bands, c.rows, c.min_bands) INTO nc USING sig;
				EXECUTE format('SELECT count(*) FROM %I s WHERE jaccard(s.fp, $1) >= %s', 'cl_' || c.name, c.threshold)
					INTO nn USING sig;
				INSERT INTO cand_result VALUES (c.name, s.lang, s.id, nn - 1, nf - 1, nc - 1, ms);
			END LOOP;
		END LOOP;
	END LOOP;
END $$;

DROP TABLE IF EXISTS cand_summary;
CREATE TABLE cand_summary AS
SELECT r.name, c.threshold, b.bands || ' x ' || b.rows || ' >= ' || b.min_bands AS banding, r.lang, count(*) AS samples,
	round(avg(near), 2) AS near_mean, percentile_disc(0.5) WITHIN GROUP (ORDER BY near) AS near_median, max(near) AS near_max,
	round(avg(found), 2) AS found_mean,
	round(avg(cands), 1) AS cands_mean, percentile_disc(0.5) WITHIN GROUP (ORDER BY cands) AS cands_median,
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS ms_median, round(avg(ms)::numeric, 2) AS ms_mean,
	round(max(ms)::numeric, 1) AS ms_max
FROM cand_result r JOIN cand c USING (name) JOIN cand_build b USING (name)
GROUP BY r.name, c.threshold, b.bands, b.rows, b.min_bands, r.lang;
SELECT * FROM cand_build ORDER BY name;
SELECT * FROM cand_summary ORDER BY lang, name;
