-- call.sql: one timed statement (:call) in a fresh session: wall clock, the backend's CPU time
-- (/proc/self/schedstat) and its peak resident memory (VmHWM of /proc/self/status: the
-- backend's own memory plus the shared buffers it touched), recorded in tk_result as
-- :method, ':step wall_s' and so on, with ':step completed' (false: it failed or was
-- cancelled, and its error is in the log).  Superuser (pg_read_file).
\set ON_ERROR_STOP on
SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1) AS cpu0, clock_timestamp() AS t0,
	   pg_backend_pid() AS pid \gset
\set ON_ERROR_STOP off
:call ;
\set ON_ERROR_STOP on
SELECT NOT :ERROR AS completed \gset
INSERT INTO tk_result (method, item, value)
SELECT :'method', :'step' || ' ' || k, v FROM (VALUES
	('completed', :'completed'),
	('wall_s', round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 1)::text),
	('cpu_s', round(((split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint - :cpu0::bigint) / 1e9)::numeric, 1)::text),
	('VmHWM_MB', round((regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+)'))[1]::numeric / 1024)::text)) x(k, v);
