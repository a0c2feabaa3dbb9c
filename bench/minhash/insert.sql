-- insert.sql: insert throughput into the table :tbl with its GIN index (bits = :bits), and
-- into a table with no index.
--
-- The same :insert_rows new rows (bench.new_rows, signed by load.sql, ids after the loaded
-- ones) go into mh_noidx (an empty table like mh, no index: the heap's share) and into :tbl,
-- each as one INSERT ... SELECT in a transaction of its own, timed with its commit.  The GIN
-- index keeps its default fastupdate = on: new entries go to the pending list, merged into
-- the index whenever it passes gin_pending_list_limit (4MB), so the insert pays for most
-- merges but not for what is still pending at its end; that rest is timed apart ('flush',
-- gin_clean_pending_list), as the next VACUUM or a long enough query would pay it.  Then the
-- index's size again.  Run last: the table keeps the new rows.
--
-- psql variables: bits, tbl.

\set ON_ERROR_STOP on

SET max_parallel_workers_per_gather = 0;
SET jit = off;

SELECT pg_prewarm('bench.new_rows');
CREATE TABLE mh_noidx (LIKE mh);

\echo inserting into mh_noidx and :tbl
CALL bench.timed('insert', NULL, 'mh_noidx', 'INSERT INTO mh_noidx SELECT id, sig FROM bench.new_rows');
CALL bench.timed('insert', :bits, :'tbl',
	format('INSERT INTO %I SELECT id, sig FROM bench.new_rows', :'tbl'));
CALL bench.timed('flush', :bits, :'tbl',
	format('SELECT gin_clean_pending_list(%L::regclass)', :'tbl' || '_sig'));
CALL bench.record_size('insert', :bits, :'tbl' || '_sig');
