-- bits.sql: gin_winnow_ops's bits option on perf.sql's table xl (run perf.sql first): build time,
-- size and lookups (the same held-out probes, ignoring the common fingerprints and not) for each
-- value in :'bits_list' (a comma-separated list).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
SET jit = off;
SET maintenance_work_mem = '512MB';
DROP TABLE IF EXISTS xl_bits;
CREATE TABLE xl_bits (bits int, build_s float8, index_mb float8, what text, median_ms float8, p95_ms float8,
					  mean_matches float8);
CREATE TEMP TABLE xl_common AS
SELECT coalesce(array_agg(h ORDER BY h), '{}') AS common
FROM (SELECT h FROM (SELECT fp FROM xl TABLESAMPLE SYSTEM (5) REPEATABLE (22)) s, unnest(fp) h
	  GROUP BY h HAVING count(*) >= greatest(5, (SELECT count(*) FROM xl) * 0.05 / 2000)) c;
DO $$
DECLARE b int; t0 timestamptz; build float8; mb float8; r record; n bigint; ms float8[]; m bigint[];
		q text; common bigint[];
BEGIN
  SELECT c.common INTO common FROM xl_common c;
  FOREACH b IN ARRAY string_to_array(current_setting('xl.bits_list'), ',')::int[] LOOP
	DROP INDEX IF EXISTS xl_fp_bits;
	t0 := clock_timestamp();
	EXECUTE format('CREATE INDEX xl_fp_bits ON xl USING gin (fp gin_winnow_ops (bits = %s))', b);
	build := extract(epoch FROM clock_timestamp() - t0);
	mb := pg_relation_size('xl_fp_bits') / 1048576.0;
	FOREACH q IN ARRAY ARRAY['quoted_in($1)', 'quoting($1)', 'quoted_in($1, ignore => $2)', 'quoting($1, ignore => $2)'] LOOP
	  ms := '{}'; m := '{}';
	  FOR r IN SELECT winnow(body) AS fp FROM xl_raw WHERE id > (SELECT max(id) FROM xl_raw) - 200 LOOP
		t0 := clock_timestamp();
		EXECUTE 'SELECT count(*) FROM xl WHERE fp @@ ' || q INTO n USING r.fp, common;
		ms := ms || extract(epoch FROM clock_timestamp() - t0) * 1000;
		m := m || n;
	  END LOOP;
	  INSERT INTO xl_bits SELECT b, build, mb, q,
		(SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(ms) x),
		(SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY x) FROM unnest(ms) x),
		(SELECT avg(x) FROM unnest(m) x);
	END LOOP;
  END LOOP;
  DROP INDEX IF EXISTS xl_fp_bits;
END $$;
SELECT bits, round(build_s::numeric, 1) AS build_s, round(index_mb::numeric) AS index_mb, what,
	   round(median_ms::numeric, 2) AS median_ms, round(p95_ms::numeric, 2) AS p95_ms,
	   round(mean_matches::numeric, 2) AS mean_matches
FROM xl_bits ORDER BY bits, what;
