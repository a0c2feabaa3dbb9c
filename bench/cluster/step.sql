-- step.sql: one timed clustering call in a fresh session (run.sh starts one psql per step,
-- so the backend's peak resident memory, VmHWM, is this step's).  Variables: step (a name),
-- call (the SQL that clusters, making table :out), out (the result table).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
-- cluster_table keeps its working tables in temporary tables: local buffers, not shared ones
SET temp_buffers = '1GB';
SET work_mem = '256MB';
SET maintenance_work_mem = '512MB';
CREATE TABLE IF NOT EXISTS bench_step (step text PRIMARY KEY, seconds float8, peak_rss_kb bigint,
	temp_mb float8, rows bigint, clusters bigint, largest bigint, note text);
-- the backend's own CPU time (user + system, /proc/self/stat, in clock ticks of 1/100 s):
-- on a shared machine the wall clock also counts other people's work
ALTER TABLE bench_step ADD COLUMN IF NOT EXISTS cpu_seconds float8;
SELECT split_part(pg_read_file('/proc/self/stat'), ' ', 14)::bigint
	   + split_part(pg_read_file('/proc/self/stat'), ' ', 15)::bigint AS cpu0 \gset
DROP TABLE IF EXISTS :out;
SELECT clock_timestamp() AS t0, (SELECT temp_bytes FROM pg_stat_database WHERE datname = current_database()) AS tb0 \gset
:call;
SELECT extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) AS secs,
	   (split_part(pg_read_file('/proc/self/stat'), ' ', 14)::bigint
		+ split_part(pg_read_file('/proc/self/stat'), ' ', 15)::bigint - :cpu0) / 100.0 AS cpu \gset
-- VmHWM of this backend: the most resident memory it had at any time
SELECT (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+) kB'))[1]::bigint AS hwm \gset
SELECT pg_stat_force_next_flush();
SELECT pg_sleep(0.6);
INSERT INTO bench_step
SELECT :'step', :secs, :hwm,
	   greatest((SELECT temp_bytes FROM pg_stat_database WHERE datname = current_database()) - :tb0, 0) / 1048576.0,
	   (SELECT count(*) FROM :out), (SELECT count(DISTINCT cluster_key) FROM :out), (SELECT max(cluster_size) FROM :out), NULL,
	   :cpu
ON CONFLICT (step) DO UPDATE SET seconds = excluded.seconds, peak_rss_kb = excluded.peak_rss_kb, cpu_seconds = excluded.cpu_seconds,
	temp_mb = excluded.temp_mb, rows = excluded.rows, clusters = excluded.clusters, largest = excluded.largest;
SELECT * FROM bench_step WHERE step = :'step';
