-- build.sql: the timing helpers, the index builds (timed), the sizes, and the cache warm-up.
--
-- One index per method of bench.methods, on <set>_<method>, with the method's USING clause.
-- Each CREATE INDEX runs in its own transaction and its time includes the commit; wall time
-- from clock_timestamp(), CPU time from this backend's /proc/self/schedstat.  Then every
-- table and index goes into shared buffers (pg_prewarm), so no query reads from disk.

\set ON_ERROR_STOP on

-- This backend's time on a CPU so far, in ns, or null where the kernel does not give it.
CREATE FUNCTION bench.cpu_ns() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
	RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint;
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END $$;

CREATE TABLE bench.timings (
	what text, dataset text, method text, ms float8, cpu_ms float8, rows bigint);
CREATE TABLE bench.sizes (
	stage text, dataset text, method text, relation text, bytes bigint, tuples bigint);

-- One statement in a transaction of its own, committed, timed and recorded.  CALL it at top
-- level (or from a top-level DO) so that it may commit.
CREATE PROCEDURE bench.timed(what text, dataset text, method text, stmt text)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	c0 bigint;
	n bigint;
BEGIN
	COMMIT;
	c0 := bench.cpu_ns();
	t0 := clock_timestamp();
	EXECUTE stmt;
	GET DIAGNOSTICS n = ROW_COUNT;
	COMMIT;
	INSERT INTO bench.timings VALUES (what, dataset, method,
		1000 * extract(epoch FROM clock_timestamp() - t0), (bench.cpu_ns() - c0) / 1e6, n);
	COMMIT;
END $$;

-- Sizes of the tables of each data set and their indexes.
CREATE PROCEDURE bench.record_sizes(stage text)
LANGUAGE sql AS $$
	INSERT INTO bench.sizes
	SELECT stage, d, m, c.relname, pg_relation_size(c.oid), c.reltuples::bigint
	FROM unnest(bench.dataset_list()) d,
		(SELECT 'seq' UNION ALL SELECT method FROM bench.methods) x(m),
		pg_class c
	WHERE c.relname IN (d || '_' || m, d || '_' || m || '_fp')
$$;

DO $$
DECLARE
	ds text;
	m record;
BEGIN
	FOREACH ds IN ARRAY bench.dataset_list() LOOP
		FOR m IN SELECT method, using_clause FROM bench.methods ORDER BY ord LOOP
			RAISE NOTICE 'building the % index on %', m.method, ds;
			CALL bench.timed('build', ds, m.method, format('CREATE INDEX %I ON %I USING %s',
				ds || '_' || m.method || '_fp', ds || '_' || m.method, m.using_clause));
		END LOOP;
	END LOOP;
END $$;

SELECT format('VACUUM (ANALYZE) %s', string_agg(format('%I', d || '_' || method), ', ' ORDER BY d, ord))
FROM unnest(bench.dataset_list()) d, bench.methods
\gexec
CALL bench.record_sizes('build');

-- everything into shared buffers
SELECT c.relname, pg_prewarm(c.oid) AS blocks
FROM bench.sizes s JOIN pg_class c ON c.relname = s.relation
WHERE s.stage = 'build'
ORDER BY 1;
