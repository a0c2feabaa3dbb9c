-- mih: options, what the access method refuses, and the planner's choice
-- between the index and a sequential scan

SET jit = off;
SET max_parallel_workers_per_gather = 0;
-- objects of its own: other tests leave tables and functions of these names
CREATE SCHEMA mih_opt;
SET search_path = mih_opt, public;

CREATE TABLE o (id int, fp simhash64, n bigint, body text);
INSERT INTO o SELECT i, hashint8extended(i, 21)::simhash64, i, 'text ' || i
FROM generate_series(1, 20000) i;
ANALYZE o;

-- options: m is 0 (from the table's size) or 4 to 16, fillfactor 10 to 100
CREATE INDEX o_bad ON o USING mih (fp) WITH (m = 3);
CREATE INDEX o_bad ON o USING mih (fp) WITH (m = 1);
CREATE INDEX o_bad ON o USING mih (fp) WITH (m = 17);
CREATE INDEX o_bad ON o USING mih (fp) WITH (m = -1);
CREATE INDEX o_bad ON o USING mih (fp) WITH (m = 'five');
CREATE INDEX o_bad ON o USING mih (fp) WITH (fillfactor = 9);
CREATE INDEX o_bad ON o USING mih (fp) WITH (fillfactor = 101);
CREATE INDEX o_bad ON o USING mih (fp) WITH (blocks = 4);
CREATE INDEX o_mih ON o USING mih (fp) WITH (m = 0, fillfactor = 80);
SELECT reloptions FROM pg_class WHERE relname = 'o_mih';
ALTER INDEX o_mih SET (m = 2);
ALTER INDEX o_mih SET (m = 6);
REINDEX INDEX o_mih;
SELECT reloptions FROM pg_class WHERE relname = 'o_mih';
ALTER INDEX o_mih RESET (m, fillfactor);

-- what mih does not do
CREATE INDEX o_bad ON o USING mih (fp, id);
CREATE INDEX o_bad ON o USING mih (fp) INCLUDE (id);
CREATE UNIQUE INDEX o_bad ON o USING mih (fp);
CREATE INDEX o_bad ON o USING mih (n);
CREATE INDEX o_bad ON o USING mih (body);
CREATE INDEX o_bad ON o USING mih (fp mih_simhash64_ops (m = 5));
ALTER TABLE o ADD CONSTRAINT o_excl EXCLUDE USING mih (fp WITH =);
ALTER TABLE o ADD CONSTRAINT o_excl EXCLUDE USING mih (fp WITH %);
CLUSTER o USING o_mih;
SELECT pg_indexam_has_property(a.oid, p) AS has, p
FROM pg_am a, unnest('{can_order,can_unique,can_multi_col,can_exclude,can_include}'::text[]) p
WHERE a.amname = 'mih';
SELECT pg_index_column_has_property('o_mih'::regclass, 1, p) AS has, p
FROM unnest('{orderable,distance_orderable,returnable,search_array,search_nulls}'::text[]) p;
SELECT pg_index_has_property('o_mih'::regclass, p) AS has, p
FROM unnest('{clusterable,index_scan,bitmap_scan,backward_scan}'::text[]) p;

-- the planner: the index at the default threshold and small radii, a
-- sequential scan once the answer is a large share of the table
EXPLAIN (COSTS OFF) SELECT id FROM o WHERE fp % '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM o WHERE fp <@ hamming_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM o WHERE fp <@ hamming_ball('0123456789abcdef', 40);
SET textfp.hamming_threshold = 40;
EXPLAIN (COSTS OFF) SELECT id FROM o WHERE fp % '0123456789abcdef';
RESET textfp.hamming_threshold;
-- a radius not known at plan time is costed at the threshold
PREPARE near_r(simhash64, int) AS SELECT id FROM o WHERE fp <@ hamming_ball($1, $2);
EXPLAIN (COSTS OFF) EXECUTE near_r('0123456789abcdef', 3);
DEALLOCATE near_r;
-- a join of near duplicates: a nested loop probing the index
EXPLAIN (COSTS OFF)
SELECT count(*) FROM o a JOIN o b ON b.fp % a.fp AND a.id < b.id WHERE a.id <= 100;

RESET search_path;
DROP SCHEMA mih_opt CASCADE;
