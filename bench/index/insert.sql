-- insert.sql: insert throughput with no index and with each method's index.
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
-- psql variables: timings, sizes (output files).

\set ON_ERROR_STOP on

SET max_parallel_workers_per_gather = 0;
SET jit = off;

SELECT pg_prewarm('bench_new_uniform'), pg_prewarm('bench_new_clustered');

DO $$
DECLARE
	ds text;
	m record;
BEGIN
	FOREACH ds IN ARRAY ARRAY['uniform', 'clustered'] LOOP
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

SELECT format('ANALYZE %s', string_agg(format('%I', d || '_' || m), ', ' ORDER BY d, o))
FROM unnest(ARRAY['uniform', 'clustered']) d,
	(SELECT 0, 'seq' UNION ALL SELECT ord, method FROM bench.methods) x(o, m)
\gexec
CALL bench.record_sizes('insert');

\o :timings
COPY (SELECT * FROM bench.timings ORDER BY what, dataset, method) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
\o :sizes
COPY (SELECT * FROM bench.sizes ORDER BY stage, dataset, method, relation) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
