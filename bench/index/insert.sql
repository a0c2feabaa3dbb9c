-- insert.sql: insert throughput with no index and with each method's index.
--
-- Two ways, one after the other on the same tables:
--   insert   one INSERT ... SELECT of the :insert_rows rows of bench_new_<set> (below)
--   single   bench_single_<set>'s rows, one INSERT and one COMMIT each, from a procedure (no
--            client round trip in the time): the first :single_rows with synchronous_commit
--            off ('single'), the next :single_rows_sync with it on ('single_sync': each
--            commit waits for its WAL to reach the disk, which bounds every table alike)
--
-- For each data set, the same :insert_rows new rows (bench_new_<set>, made by load.sql from
-- the same generator, ids after the loaded ones) go into <set>_seq (no index) and each
-- <set>_<method>, each as one INSERT ... SELECT in a transaction of its own, timed with its
-- commit (bench.timed).  GIN indexes keep their default fastupdate = on: new entries go to the
-- pending list, merged into the index whenever it passes gin_pending_list_limit (4MB), so the
-- insert pays for most merges but not for what is still pending at its end; that rest is timed
-- apart ('flush', gin_clean_pending_list), as the next VACUUM or a long enough query would pay
-- it.  Then the sizes again.
--
-- psql variables: timings, sizes (output files), single_rows, single_rows_sync.

\set ON_ERROR_STOP on

SET max_parallel_workers_per_gather = 0;
SET jit = off;

SET bench.single_rows = :'single_rows';
SET bench.single_rows_sync = :'single_rows_sync';
SELECT pg_prewarm(format('%I', 'bench_new_' || d)::regclass), pg_prewarm(format('%I', 'bench_single_' || d)::regclass)
FROM unnest(bench.dataset_list()) d;

-- Rows lo..hi (by order of id) of bench_single_<ds> into tbl, one INSERT and COMMIT each;
-- records the time as what.  CALL at top level so that it may commit.
CREATE PROCEDURE bench.single_inserts(what text, ds text, m text, lo bigint, hi bigint, sync bool)
LANGUAGE plpgsql AS $$
DECLARE
	tbl text := ds || '_' || m;
	r record;
	t0 timestamptz;
	c0 bigint;
	n bigint := 0;
BEGIN
	IF hi < lo THEN
		RETURN;
	END IF;
	PERFORM set_config('synchronous_commit', CASE WHEN sync THEN 'on' ELSE 'off' END, false);
	COMMIT;
	c0 := bench.cpu_ns();
	t0 := clock_timestamp();
	FOR r IN EXECUTE format('SELECT id, fp FROM %I ORDER BY id OFFSET %s LIMIT %s', 'bench_single_' || ds, lo - 1, hi - lo + 1) LOOP
		EXECUTE format('INSERT INTO %I VALUES ($1, $2)', tbl) USING r.id, r.fp;
		COMMIT;
		n := n + 1;
	END LOOP;
	INSERT INTO bench.timings VALUES (what, ds, m,
		1000 * extract(epoch FROM clock_timestamp() - t0), (bench.cpu_ns() - c0) / 1e6, n);
	PERFORM set_config('synchronous_commit', 'on', false);
	COMMIT;
END $$;

DO $$
DECLARE
	ds text;
	m record;
BEGIN
	FOREACH ds IN ARRAY bench.dataset_list() LOOP
		FOR m IN SELECT 'seq' AS method, 0 AS ord, '' AS using_clause
				UNION ALL SELECT method, ord, using_clause FROM bench.methods ORDER BY ord LOOP
			RAISE NOTICE 'inserting into %_%', ds, m.method;
			CALL bench.timed('insert', ds, m.method,
				format('INSERT INTO %I SELECT id, fp FROM %I', ds || '_' || m.method, 'bench_new_' || ds));
			IF m.using_clause LIKE 'gin %' THEN
				CALL bench.timed('flush', ds, m.method,
					format('SELECT gin_clean_pending_list(%L::regclass)', ds || '_' || m.method || '_fp'));
			END IF;
		END LOOP;
	END LOOP;
END $$;

DO $$
DECLARE
	ns bigint := current_setting('bench.single_rows')::bigint;
	nsync bigint := current_setting('bench.single_rows_sync')::bigint;
	ds text;
	m record;
BEGIN
	FOREACH ds IN ARRAY bench.dataset_list() LOOP
		FOR m IN SELECT 'seq' AS method, 0 AS ord UNION ALL SELECT method, ord FROM bench.methods ORDER BY ord LOOP
			RAISE NOTICE 'single-row commits into %_%', ds, m.method;
			CALL bench.single_inserts('single', ds, m.method, 1, ns, false);
			CALL bench.single_inserts('single_sync', ds, m.method, ns + 1, ns + nsync, true);
		END LOOP;
	END LOOP;
END $$;

SELECT format('ANALYZE %s', string_agg(format('%I', d || '_' || m), ', ' ORDER BY d, o))
FROM unnest(bench.dataset_list()) d,
	(SELECT 0, 'seq' UNION ALL SELECT ord, method FROM bench.methods) x(o, m)
\gexec
CALL bench.record_sizes('insert');

\o :timings
COPY (SELECT * FROM bench.timings ORDER BY what, dataset, method) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
\o :sizes
COPY (SELECT * FROM bench.sizes ORDER BY stage, dataset, method, relation) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
