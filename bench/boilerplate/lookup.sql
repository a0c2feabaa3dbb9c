-- lookup.sql: what a tracked SimHash insert's near-row lookup costs through a mih index, per fingerprint
-- option set: a corpus's fingerprints (candidates.sh's fp_NAME.tsv, read by the server: COPY FROM a file) in a table with the store's
-- index (USING mih, mih_simhash64_ops), then for every 250th id (400 rows at 100k, 4,000 at 1M; the same
-- rows for every option set) the query the store runs, fp <@ hamming_ball(q, r), timed one by one (clock_timestamp, after one
-- warm pass).  Prints, per language, the median / p90 / mean ms and the mean rows found.
--   psql -v name=v1 -v fps=/tmp/shv2/fp_v1.tsv -v labels=/tmp/shv2/labels.tsv -v r=11 -f lookup.sql
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
DROP TABLE IF EXISTS lk_fp, lk_lab;
CREATE TEMP TABLE lk_raw (id bigint, fp bigint);
COPY lk_raw FROM :'fps' (NULL '\N');
CREATE TABLE lk_fp AS SELECT id, fp::simhash64 AS fp FROM lk_raw WHERE fp IS NOT NULL;
CREATE TEMP TABLE lk_lab (id bigint, lang text, site int, fam bigint, role text, strength int);
COPY lk_lab FROM :'labels';
CREATE INDEX ON lk_fp USING mih (fp mih_simhash64_ops);
VACUUM ANALYZE lk_fp;
SET enable_seqscan = off;
SET lk.r = :'r';
CREATE TEMP TABLE lk_t (id bigint, ms float8, n bigint, pass int);
DO $$
DECLARE q record; t0 timestamptz; c bigint; p int; r int := current_setting('lk.r')::int;
BEGIN
	FOR p IN 0 .. 1 LOOP
		FOR q IN SELECT id, fp FROM lk_fp WHERE id % 250 = 0 ORDER BY id LOOP
			t0 := clock_timestamp();
			SELECT count(*) INTO c FROM lk_fp WHERE fp <@ hamming_ball(q.fp, r);
			INSERT INTO lk_t VALUES (q.id, 1000 * extract(epoch FROM clock_timestamp() - t0), c, p);
		END LOOP;
	END LOOP;
END $$;
SELECT :'name' AS fp, current_setting('lk.r') AS r, l.lang, count(*) AS queries,
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 3) AS median_ms,
	round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ms)::numeric, 3) AS p90_ms,
	round(avg(ms)::numeric, 3) AS mean_ms, round(avg(n - 1), 1) AS mean_near
FROM lk_t t JOIN lk_lab l USING (id) WHERE pass = 1 GROUP BY ROLLUP (l.lang) ORDER BY l.lang;
DROP TABLE lk_fp;
