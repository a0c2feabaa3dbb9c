-- perf.sql: winnowed fingerprints and gin_winnow_ops at scale, on bench/corpus's text-like
-- documents (make_textlike.pl's output in :'tsv', read by the server): what winnow() costs per
-- row next to minhash() and simhash(), the index's build time and size, lookups in both
-- directions (median and p95 over :'probes' held-out rows) next to a sequential scan, and
-- single-row inserts (one transaction each) without the index, with it and a pending list
-- (fastupdate on, the default) and without one.
--   psql -X -v tsv=/path/corpus.tsv -v probes=200 -v inserts=2000 [-v bits=24] -f perf.sql
-- (bits: gin_winnow_ops's option, 64 when not given)
\set ON_ERROR_STOP on
\if :{?probes}
\else
\set probes 200
\endif
\if :{?inserts}
\else
\set inserts 2000
\endif
\if :{?bits}
\else
\set bits 64
\endif
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
SET jit = off;

DROP TABLE IF EXISTS xl_raw, xl, xl_probe_ms;
CREATE TABLE xl_raw (id bigint, lang text, site int, family bigint, role text, edit text, strength int,
					 published_at timestamptz, body text);
COPY xl_raw FROM :'tsv';
ALTER TABLE xl_raw ADD PRIMARY KEY (id);
SELECT count(*) AS rows_total FROM xl_raw \gset
-- the last rows are held out: probes and inserts
SELECT :rows_total - :inserts - :probes AS base_rows \gset

\echo '## cost per row (20,000 rows, ms per row)'
CREATE TEMP TABLE xl_sample AS SELECT body FROM xl_raw WHERE id <= 20000;
CREATE FUNCTION pg_temp.per_row(expr text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; n bigint;
BEGIN
  t0 := clock_timestamp();
  EXECUTE 'SELECT count(' || expr || ') FROM xl_sample' INTO n;
  RETURN round((extract(epoch FROM clock_timestamp() - t0) * 1000 / n)::numeric, 4);
END $$;
SELECT pg_temp.per_row('winnow(body)') AS winnow_ms, pg_temp.per_row('minhash(body)') AS minhash_ms,
	   pg_temp.per_row('simhash(body)') AS simhash_ms, pg_temp.per_row('length(body)') AS length_ms;

\echo '## the table and the index'
\timing on
CREATE TABLE xl AS SELECT id, lang, site, body, winnow(body) AS fp FROM xl_raw WHERE id <= :base_rows;
ALTER TABLE xl ADD PRIMARY KEY (id);
SET maintenance_work_mem = '512MB';
CREATE INDEX xl_fp ON xl USING gin (fp gin_winnow_ops (bits = :bits));
\timing off
VACUUM ANALYZE xl;
SELECT count(*) AS rows, round(avg(cardinality(fp)), 1) AS fingerprints_per_row,
	   pg_size_pretty(pg_table_size('xl')) AS table_size, pg_size_pretty(pg_relation_size('xl_fp')) AS index_size,
	   round(pg_relation_size('xl_fp')::numeric / count(*), 1) AS index_bytes_per_row
FROM xl;

-- the common fingerprints (boilerplate): in at least 1 of 2,000 rows of a 5% sample, and 5
CREATE TEMP TABLE xl_common AS
SELECT coalesce(array_agg(h ORDER BY h), '{}') AS common
FROM (SELECT h FROM (SELECT fp FROM xl TABLESAMPLE SYSTEM (5) REPEATABLE (22)) s, unnest(fp) h
	  GROUP BY h HAVING count(*) >= greatest(5, (SELECT count(*) FROM xl) * 0.05 / 2000)) c;
SELECT cardinality(common) AS common_fingerprints FROM xl_common;

\echo '## lookups: ms per query over the probes (index), and matches per probe'
CREATE TABLE xl_probe_ms (what text, ms float8, matches bigint);
CREATE FUNCTION pg_temp.probe(what text, q text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record; t0 timestamptz; n bigint; common bigint[];
BEGIN
  SELECT c.common INTO common FROM xl_common c;
  FOR r IN SELECT winnow(body) AS fp FROM xl_raw WHERE id > (SELECT max(id) FROM xl_raw) - (SELECT current_setting('xl.probes')::int) LOOP
	t0 := clock_timestamp();
	EXECUTE 'SELECT count(*) FROM xl WHERE fp @@ ' || q INTO n USING r.fp, common;
	INSERT INTO xl_probe_ms VALUES (what, extract(epoch FROM clock_timestamp() - t0) * 1000, n);
  END LOOP;
END $$;
SELECT set_config('xl.probes', :'probes', false);
SELECT pg_temp.probe('quoted_in', 'quoted_in($1)'), pg_temp.probe('quoting', 'quoting($1)'),
	   pg_temp.probe('quoted_in, common ignored', 'quoted_in($1, ignore => $2)'),
	   pg_temp.probe('quoting, common ignored', 'quoting($1, ignore => $2)');
SELECT what, count(*) AS probes, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS median_ms,
	   round(percentile_cont(0.95) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS p95_ms,
	   round(avg(matches), 2) AS mean_matches, max(matches) AS max_matches
FROM xl_probe_ms GROUP BY 1 ORDER BY 1;

\echo '## a sequential scan of the same queries (5 probes)'
SET enable_bitmapscan = off;
SET enable_indexscan = off;
SELECT set_config('xl.probes', '5', false);
DELETE FROM xl_probe_ms;
SELECT pg_temp.probe('quoted_in, seqscan', 'quoted_in($1)'), pg_temp.probe('quoting, seqscan', 'quoting($1)');
SELECT what, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS median_ms
FROM xl_probe_ms GROUP BY 1 ORDER BY 1;
RESET enable_bitmapscan;
RESET enable_indexscan;

\echo '## single-row inserts, one transaction each, winnow() computed in the INSERT (rows per second)'
SELECT :base_rows AS lo, :base_rows + :inserts AS hi \gset
CREATE FUNCTION pg_temp.insert_sql() RETURNS SETOF text LANGUAGE sql AS $$
  SELECT format('INSERT INTO xl SELECT id, lang, site, body, winnow(body) FROM xl_raw WHERE id = %s', id)
  FROM xl_raw WHERE id > current_setting('xl.lo')::bigint AND id <= current_setting('xl.hi')::bigint ORDER BY id
$$;
SELECT set_config('xl.lo', :'lo', false), set_config('xl.hi', :'hi', false);
CREATE TEMP TABLE xl_ins (what text, t timestamptz);
-- with the index, pending list on (the default, gin_pending_list_limit 4MB)
INSERT INTO xl_ins VALUES ('gin, fastupdate on', clock_timestamp());
SELECT * FROM pg_temp.insert_sql() \gexec
INSERT INTO xl_ins VALUES ('gin, fastupdate on', clock_timestamp());
DELETE FROM xl WHERE id > :lo;
VACUUM xl;
ALTER INDEX xl_fp SET (fastupdate = off);
INSERT INTO xl_ins VALUES ('gin, fastupdate off', clock_timestamp());
SELECT * FROM pg_temp.insert_sql() \gexec
INSERT INTO xl_ins VALUES ('gin, fastupdate off', clock_timestamp());
DELETE FROM xl WHERE id > :lo;
DROP INDEX xl_fp;
VACUUM xl;
INSERT INTO xl_ins VALUES ('no index', clock_timestamp());
SELECT * FROM pg_temp.insert_sql() \gexec
INSERT INTO xl_ins VALUES ('no index', clock_timestamp());
SELECT what, round(:inserts / extract(epoch FROM max(t) - min(t))::numeric, 0) AS rows_per_s,
	   round((extract(epoch FROM max(t) - min(t)) * 1000 / :inserts)::numeric, 2) AS ms_per_row
FROM xl_ins GROUP BY 1 ORDER BY 2 DESC;
