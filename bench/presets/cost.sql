-- cost.sql: what each preset costs next to to_tsvector('simple'), in one session, as
-- bench/perf/bench.sql and bench/regional/cost.sql measure it: EXPLAIN ANALYZE without
-- timing, the backend's CPU time from /proc/self/schedstat, planning left out.  Expects
-- cost_rows(lang, body) (run.sh loads bench/perf's English and Chinese rows, and the Chinese
-- ones in Taiwan wording, opencc s2twp) and psql variable rounds.  The IDF preset reads the
-- model of all the rows, passed as a query parameter would be (an init plan, read once).
-- Prints the median CPU ms per expression and language, and the ratio to to_tsvector.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
SET jit = off;
DROP TABLE IF EXISTS cost_model;
CREATE TABLE cost_model AS
	SELECT idf_model(simhash_features(body, preset => 'simhash_idf_v1')) AS m FROM cost_rows;
CREATE TEMP TABLE x (ord int, expr text);
INSERT INTO x VALUES
 (1, $$to_tsvector('simple', body)$$),
 (2, $$simhash(body, preset => 'simhash_idf_v1', idf => (SELECT m FROM cost_model))$$),
 (3, $$simhash(body, preset => 'simhash_v1')$$),
 (4, $$minhash(body, preset => 'minhash_v1')$$),
 (5, $$simhash(body)$$),
 (6, $$simhash(body, 'null', stopwords => 'zh+snowball')$$),
 (7, $$minhash(body)$$),
 -- candidates for a successor to minhash_v1
 (8, $$minhash(body, 'null', ngram => 2, shingle => 1, stopwords => 'zh+snowball', chinese => 'mainland')$$),
 (9, $$minhash(body, 'null', ngram => 1, shingle => 2, stopwords => 'zh+snowball', chinese => 'mainland')$$),
 (10, $$minhash(body, 'null', ngram => 2, shingle => 2, stopwords => 'zh+snowball', chinese => 'mainland')$$);
CREATE FUNCTION pg_temp.cpu_ns() RETURNS bigint LANGUAGE sql AS
 $$SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint$$;
CREATE FUNCTION pg_temp.cpu_ms(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE c0 bigint; plan json;
BEGIN
	c0 := pg_temp.cpu_ns();
	EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || q INTO plan;
	RETURN (pg_temp.cpu_ns() - c0) / 1e6 - (plan -> 0 ->> 'Planning Time')::float8;
END $$;
CREATE TEMP TABLE r (round int, lang text, ord int, ms float8);
DO $$
DECLARE k int; l text; e record; n int := (SELECT count(*) FROM x);
BEGIN
	-- round 0 warms up and is not counted; each round starts at another expression
	FOR k IN 0 .. current_setting('cost.rounds')::int LOOP
		FOR l IN SELECT DISTINCT lang FROM cost_rows ORDER BY 1 LOOP
			FOR e IN SELECT * FROM x ORDER BY (ord + k) % n LOOP
				INSERT INTO r VALUES (k, l, e.ord, pg_temp.cpu_ms(format(
					'SELECT count(*) FROM cost_rows WHERE lang = %L AND %s IS NOT NULL', l, e.expr)));
			END LOOP;
		END LOOP;
	END LOOP;
END $$;
WITH med AS (
	SELECT lang, ord, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM r WHERE round > 0 GROUP BY 1, 2)
SELECT x.expr, m.lang, (SELECT count(*) FROM cost_rows c WHERE c.lang = m.lang) AS rows,
	round(m.ms::numeric, 1) AS ms, round((m.ms / b.ms)::numeric, 2) AS x_tsvector
FROM med m JOIN x USING (ord) JOIN med b ON b.lang = m.lang AND b.ord = 1
ORDER BY x.ord, m.lang;
