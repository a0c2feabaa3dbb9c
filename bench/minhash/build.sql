-- build.sql: one GIN index on the table :tbl with (bits = :bits), built and timed, its size,
-- and the cache warm-up.
--
-- When :tbl is not mh it is made first from mh's first :tbl_rows rows (a variant capped at
-- fewer rows, run.sh's BITS_ROWS).  CREATE INDEX runs in a transaction of its own and its
-- time includes the commit (bench.timed: wall clock and this backend's CPU time).  Then the
-- table and the index go into shared buffers (pg_prewarm), so no query reads from disk.
--
-- psql variables: bits, tbl, tbl_rows.

\set ON_ERROR_STOP on

SELECT :'tbl' <> 'mh' AND to_regclass(:'tbl') IS NULL AS make_table \gset
\if :make_table
SELECT format('CREATE TABLE %I AS SELECT * FROM mh WHERE id <= %s ORDER BY id', :'tbl', :tbl_rows) \gexec
SELECT format('VACUUM (FREEZE, ANALYZE) %I', :'tbl') \gexec
CALL bench.record_size('load', NULL, :'tbl');
\endif

\echo building the GIN index (bits = :bits) on :tbl
CALL bench.timed('build', :bits, :'tbl',
	format('CREATE INDEX %I ON %I USING gin (sig gin_minhash_ops (bits = %s))',
		:'tbl' || '_sig', :'tbl', :bits));
CALL bench.record_size('build', :bits, :'tbl' || '_sig');

SELECT pg_prewarm(:'tbl') AS table_blocks, pg_prewarm(:'tbl' || '_sig') AS index_blocks;
