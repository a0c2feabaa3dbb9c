-- insert.sql: insert throughput with no index, the GiST index and the SP-GiST index.
--
-- For each data set, the same :insert_rows new rows (bench_new_<set>, made by load.sql from
-- the same generator, ids after the loaded ones) go into <set>_seq (no index), <set>_gist and
-- <set>_spgist, each as one INSERT ... SELECT in a transaction of its own, timed with its
-- commit (bench.timed).  Then the sizes again.
--
-- psql variables: timings, sizes (output files).

\set ON_ERROR_STOP on

SET max_parallel_workers_per_gather = 0;
SET jit = off;

SELECT pg_prewarm('bench_new_uniform'), pg_prewarm('bench_new_clustered');

DO $$
DECLARE
	ds text;
	m text;
BEGIN
	FOREACH ds IN ARRAY ARRAY['uniform', 'clustered'] LOOP
		FOREACH m IN ARRAY ARRAY['seq', 'gist', 'spgist'] LOOP
			RAISE NOTICE 'inserting into %_%', ds, m;
			CALL bench.timed('insert', ds, m,
				format('INSERT INTO %I SELECT id, fp FROM %I', ds || '_' || m, 'bench_new_' || ds));
		END LOOP;
	END LOOP;
END $$;

ANALYZE uniform_seq, uniform_gist, uniform_spgist, clustered_seq, clustered_gist, clustered_spgist;
CALL bench.record_sizes('insert');

\o :timings
COPY (SELECT * FROM bench.timings ORDER BY what, dataset, method) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
\o :sizes
COPY (SELECT * FROM bench.sizes ORDER BY stage, dataset, method, relation) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
