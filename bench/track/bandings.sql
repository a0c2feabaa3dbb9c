-- bandings.sql: what MinHash LSH bandings cost a registration's near-row lookup, side by side in one session,
-- on the fingerprints of a MinHash store (bandings.sh runs it).  Expects table bnd (name, bands, rows,
-- min_bands, bits: the bandings) and psql variables store (the store, e.g. tk_minhash_textfp), src (its
-- source table, with columns id, the store's key, and lang) and threshold.  The store's fingerprints are copied
-- (bnd_fp: key, lang, fp), then for each banding a copy of them with the GIN index a registration makes
-- (gin_minhash_lsh_ops (bands, rows, bits), fastupdate off), then for :samples rows of each language taken at
-- random (the same rows for every banding):
--   near   rows within the threshold by a scan of every row (jaccard >= threshold), the row itself left out
--   found  of them, the rows the lookup finds (fp @@ lsh_query(q, bands, rows, min_bands) AND fp <@ jaccard_ball)
--   cands  rows the LSH route yields before verification (@@ alone)
--   gin    rows GIN hands to the heap before its recheck (EXPLAIN ANALYZE of @@ alone: rows and rows
--          removed by the recheck): more than cands when truncated keys collide
--   ms     the lookup's time, warm, in a loop over the bandings per row so that load changes hit each alike
-- Results in bnd_result (one row a banding and sample row) and the summary on stdout.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SELECT set_config('bandings.threshold', :'threshold', false);

CREATE TABLE IF NOT EXISTS bnd_build (name text PRIMARY KEY, index_s float8, index_mb float8);
CREATE TABLE IF NOT EXISTS bnd_result (name text, lang text, id bigint, near bigint, found bigint, cands bigint,
	gin bigint, ms float8);
TRUNCATE bnd_build, bnd_result;
DROP TABLE IF EXISTS bnd_fp;
CREATE TABLE bnd_fp AS SELECT s.key AS id, d.lang, s.fp FROM :store s JOIN :src d ON d.id = s.key;
CREATE INDEX ON bnd_fp (id);
ANALYZE bnd_fp;

DO $$
DECLARE c record; t0 timestamptz;
BEGIN
	FOR c IN SELECT * FROM bnd ORDER BY name LOOP
		EXECUTE format('DROP TABLE IF EXISTS %I', 'bnd_fp_' || c.name);
		EXECUTE format('CREATE TABLE %I AS SELECT id, fp FROM bnd_fp', 'bnd_fp_' || c.name);
		t0 := clock_timestamp();
		EXECUTE format('CREATE INDEX %I ON %I USING gin (fp gin_minhash_lsh_ops (bands = %s, rows = %s, bits = %s)) WITH (fastupdate = off)',
			'bnd_fp_' || c.name || '_lsh', 'bnd_fp_' || c.name, c.bands, c.rows, c.bits);
		INSERT INTO bnd_build VALUES (c.name, extract(epoch FROM clock_timestamp() - t0),
			pg_relation_size(format('%I', 'bnd_fp_' || c.name || '_lsh')) / 1048576.0);
		EXECUTE format('ANALYZE %I', 'bnd_fp_' || c.name);
		COMMIT;
	END LOOP;
END $$;

DROP TABLE IF EXISTS bnd_sample;
CREATE TABLE bnd_sample AS
SELECT x.id, x.lang, (SELECT count(*) - 1 FROM bnd_fp f WHERE jaccard(f.fp, x.fp) >= :threshold) AS near
FROM (SELECT id, lang, fp, row_number() OVER (PARTITION BY lang ORDER BY hashint8(id * 2654435761)) AS r
	  FROM bnd_fp WHERE fp IS NOT NULL) x
WHERE x.r <= :samples;

DO $$
DECLARE s record; c record; sig minhash_sig; t0 timestamptz; ms float8; nf bigint; nc bigint; ng bigint;
	plan json; round int; thr float8 := current_setting('bandings.threshold')::float8;
BEGIN
	-- round 0 warms the indexes and is not kept
	FOR round IN 0 .. 1 LOOP
		FOR s IN SELECT * FROM bnd_sample ORDER BY CASE WHEN round = 0 THEN hashint8(id) ELSE id END
				LIMIT CASE WHEN round = 0 THEN 40 END LOOP
			SELECT fp INTO sig FROM bnd_fp WHERE id = s.id;
			FOR c IN SELECT * FROM bnd ORDER BY name LOOP
				t0 := clock_timestamp();
				EXECUTE format('SELECT count(*) FROM %I s WHERE s.fp @@ lsh_query($1, %s, %s, %s) AND s.fp <@ jaccard_ball($1, %s)',
					'bnd_fp_' || c.name, c.bands, c.rows, c.min_bands, thr) INTO nf USING sig;
				ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
				CONTINUE WHEN round = 0;
				EXECUTE format('SELECT count(*) FROM %I s WHERE s.fp @@ lsh_query($1, %s, %s, %s)',
					'bnd_fp_' || c.name, c.bands, c.rows, c.min_bands) INTO nc USING sig;
				EXECUTE format('EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) SELECT * FROM %I s WHERE s.fp @@ lsh_query(%L::minhash_sig, %s, %s, %s)',
					'bnd_fp_' || c.name, sig, c.bands, c.rows, c.min_bands) INTO plan;
				ng := coalesce((plan->0->'Plan'->>'Actual Rows')::bigint, 0)
					+ coalesce((plan->0->'Plan'->>'Rows Removed by Index Recheck')::bigint, 0);
				INSERT INTO bnd_result VALUES (c.name, s.lang, s.id, s.near, nf - 1, nc - 1, ng - 1, ms);
			END LOOP;
		END LOOP;
		COMMIT;
	END LOOP;
END $$;

SELECT b.name, b.bands || ' x ' || b.rows || ' >= ' || b.min_bands || ' (' || b.bits || ' bits)' AS banding,
	round(bb.index_mb::numeric, 1) AS index_mb, round(bb.index_s::numeric, 1) AS index_s, r.lang, count(*) AS samples,
	sum(near) AS near, sum(found) AS found, round(avg(cands), 1) AS cands_mean,
	percentile_disc(0.5) WITHIN GROUP (ORDER BY cands) AS cands_median, round(avg(gin), 1) AS gin_mean,
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS ms_median, round(avg(ms)::numeric, 2) AS ms_mean
FROM bnd_result r JOIN bnd b USING (name) JOIN bnd_build bb USING (name)
GROUP BY GROUPING SETS ((b.name, b.bands, b.rows, b.min_bands, b.bits, bb.index_mb, bb.index_s, r.lang),
	(b.name, b.bands, b.rows, b.min_bands, b.bits, bb.index_mb, bb.index_s))
ORDER BY r.lang NULLS LAST, b.name;
