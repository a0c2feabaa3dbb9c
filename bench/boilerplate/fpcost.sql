-- fpcost.sql: backend CPU time of fingerprinting candidates.sh's texts (shv_text, the first 20,000 ids) under
-- simhash_v1 and the candidate options, as bench/presets/cost.sql measures it (/proc/self/schedstat around an
-- EXPLAIN ANALYZE without timing); rounds 1-3 after a warm-up round 0, median per expression.
\set ON_ERROR_STOP on
SET jit = off;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE x (ord int, name text, expr text);
INSERT INTO x VALUES
 (1, 'to_tsvector', $$to_tsvector('simple', body)$$),
 (2, 'v1', $$simhash(body, preset => 'simhash_v1')$$),
 (3, 'n2s1sub', $$simhash(body, 'null', ngram => 2, shingle => 1, stopwords => 'builtin', weighting => 'sublinear', chinese => 'mainland')$$),
 (4, 'n2s1bin', $$simhash(body, 'null', ngram => 2, shingle => 1, stopwords => 'builtin', weighting => 'binary', chinese => 'mainland')$$),
 (5, 'n1s2sub', $$simhash(body, 'null', ngram => 1, shingle => 2, stopwords => 'builtin', weighting => 'sublinear', chinese => 'mainland')$$);
CREATE FUNCTION pg_temp.cpu_ns() RETURNS bigint LANGUAGE sql AS
 $$SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint$$;
CREATE TEMP TABLE r (round int, ord int, ms float8);
DO $$
DECLARE k int; e record; c0 bigint; plan json;
BEGIN
	FOR k IN 0 .. 3 LOOP
		FOR e IN SELECT * FROM x ORDER BY (ord + k) % 5 LOOP
			c0 := pg_temp.cpu_ns();
			EXECUTE format('EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) SELECT count(*) FROM shv_text WHERE id <= 20000 AND %s IS NOT NULL', e.expr) INTO plan;
			INSERT INTO r VALUES (k, e.ord, (pg_temp.cpu_ns() - c0) / 1e6 - (plan -> 0 ->> 'Planning Time')::float8);
		END LOOP;
	END LOOP;
END $$;
WITH med AS (SELECT ord, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM r WHERE round > 0 GROUP BY ord)
SELECT x.name, round(m.ms::numeric) AS cpu_ms, round((m.ms / (SELECT ms FROM med WHERE ord = 1))::numeric, 2) AS x_tsvector,
	round((m.ms / (SELECT ms FROM med WHERE ord = 2))::numeric, 2) AS x_v1
FROM med m JOIN x USING (ord) ORDER BY ord;
