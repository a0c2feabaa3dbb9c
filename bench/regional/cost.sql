-- cost.sql: what chinese => 'mainland' costs next to to_tsvector('simple'),
-- in one session, as bench/perf/bench.sql measures (EXPLAIN ANALYZE without
-- timing, the backend's CPU time from /proc/self/schedstat, planning left
-- out).  Expects cost_rows(lang, body): 'zh' bench/perf's Chinese rows,
-- 'zh_tw' the same rows in Taiwan wording (opencc s2twp), and psql variable
-- rounds.  Prints the median CPU ms per method and language, and the ratio
-- to to_tsvector('simple', body).
\set ON_ERROR_STOP on
SET max_parallel_workers_per_gather = 0;
SET jit = off;
CREATE TEMP TABLE m (ord int, expr text);
INSERT INTO m VALUES
 (1, $$to_tsvector('simple', body)$$),
 (2, $$simhash(body)$$),
 (3, $$simhash(body, simplify => true)$$),
 (4, $$simhash(body, 'fingerprint', chinese => 'mainland')$$),
 (5, $$minhash(body)$$),
 (6, $$minhash(body, simplify => true)$$),
 (7, $$minhash(body, 'fingerprint', chinese => 'mainland')$$),
 (8, $$textfp_normalize(body)$$),
 (9, $$textfp_normalize(body, 'mainland')$$);
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
DECLARE k int; l text; e record;
BEGIN
	FOR k IN 0 .. current_setting('cost.rounds')::int LOOP
		FOR l IN SELECT unnest(ARRAY['zh', 'zh_tw']) LOOP
			FOR e IN SELECT * FROM m ORDER BY (ord + k) % 9 LOOP
				INSERT INTO r VALUES (k, l, e.ord, pg_temp.cpu_ms(format(
					'SELECT count(*) FROM cost_rows WHERE lang = %L AND %s IS NOT NULL', l, e.expr)));
			END LOOP;
		END LOOP;
	END LOOP;
END $$;
SELECT m.expr AS method,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE lang = 'zh'))::numeric, 1) AS zh_ms,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE lang = 'zh'))::numeric
             / (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM r WHERE ord = 1 AND lang = 'zh' AND round > 0)::numeric, 2) AS zh_x,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE lang = 'zh_tw'))::numeric, 1) AS zh_tw_ms,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE lang = 'zh_tw'))::numeric
             / (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM r WHERE ord = 1 AND lang = 'zh_tw' AND round > 0)::numeric, 2) AS zh_tw_x
FROM r JOIN m USING (ord) WHERE r.round > 0 GROUP BY m.ord, m.expr ORDER BY m.ord;
