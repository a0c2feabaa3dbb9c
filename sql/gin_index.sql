-- GIN: gin_simhash64_ops answers =, % and <@ exactly as a sequential scan
-- does, for every radius (pigeonhole blocks below the block count, probes of
-- neighbouring block values above it, a whole-index scan beyond the probe
-- limit), for every blocks option, before and after writes

-- (plans forced with enable_* = off cost enough to trigger JIT: keep it off)
SET jit = off;
SET max_parallel_workers_per_gather = 0;
CREATE EXTENSION pageinspect;	-- to see the pending list

-- 2000 unrelated fingerprints plus 40 families of near duplicates
CREATE TABLE g AS
SELECT i AS id, ('x' || substr(md5(i::text), 1, 16))::bit(64)::simhash64 AS fp
FROM generate_series(1, 2000) i;
INSERT INTO g
SELECT 2000 + f * 10 + m,
       (root::bigint # ((1::bigint << (m * 7 % 64)) | (CASE WHEN m > 1 THEN 1::bigint << ((m * 13) % 64) ELSE 0 END)
                       | (CASE WHEN m > 3 THEN 1::bigint << ((m * 29 + 3) % 64) ELSE 0 END)))::simhash64
FROM (SELECT f, ('x' || substr(md5('family' || f), 1, 16))::bit(64)::simhash64 AS root
      FROM generate_series(1, 40) f) r, generate_series(0, 5) m;
INSERT INTO g VALUES (9001, NULL), (9002, 'ffffffffffffffff'), (9003, '0000000000000000');
CREATE TABLE queries AS
SELECT 'root' || f AS name, ('x' || substr(md5('family' || f), 1, 16))::bit(64)::simhash64 AS q
FROM generate_series(1, 40, 4) f
UNION ALL SELECT 'row' || id, fp FROM g WHERE id IN (1, 17, 1999, 2011, 2125)
UNION ALL SELECT 'far' || i, ('x' || substr(md5('q' || i), 1, 16))::bit(64)::simhash64 FROM generate_series(1, 3) i;

-- radii below, at and above the block counts tested (probing up to radius 11
-- with 4 blocks; beyond, the whole-index scan is checked once further down)
CREATE TABLE radii AS SELECT unnest('{0,1,2,3,4,5,6,7,8,11}'::int[]) AS r;

CREATE FUNCTION run_queries() RETURNS TABLE (kind text, name text, r int, id int)
LANGUAGE sql AS $$
  SELECT 'eq', name, 0, id FROM queries, g WHERE fp = q
  UNION ALL
  SELECT 'within', name, r, id FROM queries, radii, g WHERE fp <@ hamming_ball(q, r)
  UNION ALL
  SELECT 'contains', name, 4, id FROM queries, g WHERE hamming_ball(q, 4) @> fp
  UNION ALL
  SELECT 'near', name, current_setting('textfp.hamming_threshold')::int, id FROM queries, g WHERE fp % q
$$;

SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE seq_results AS SELECT * FROM run_queries();
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT kind, count(*) FROM seq_results GROUP BY kind ORDER BY kind;
SELECT r, count(*) FROM seq_results WHERE kind = 'within' GROUP BY r ORDER BY r;

CREATE FUNCTION compare_with_seq() RETURNS TABLE (missing bigint, extra bigint)
LANGUAGE sql AS $$
  WITH idx AS (SELECT * FROM run_queries())
  SELECT (SELECT count(*) FROM (SELECT * FROM seq_results EXCEPT ALL SELECT * FROM idx) s),
         (SELECT count(*) FROM (SELECT * FROM idx EXCEPT ALL SELECT * FROM seq_results) s)
$$;

-- the default class for GIN, default options
CREATE INDEX g_gin ON g USING gin (fp);
SELECT opcname, opcdefault FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE amname = 'gin' AND opcname = 'gin_simhash64_ops';
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE fp <@ hamming_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE fp % '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE fp = '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE hamming_ball('0123456789abcdef', 3) @> fp;
SELECT * FROM compare_with_seq();
-- % follows the threshold in force when the scan starts
SET textfp.hamming_threshold = 2;
SELECT count(*) AS near2_mismatches FROM (
  (SELECT name, id FROM queries, g WHERE fp % q
   EXCEPT SELECT name, id FROM queries, g WHERE fp <~> q <= 2)
  UNION ALL
  (SELECT name, id FROM queries, g WHERE fp <~> q <= 2 AND fp IS NOT NULL
   EXCEPT SELECT name, id FROM queries, g WHERE fp % q)) s;
RESET textfp.hamming_threshold;
-- too many probe keys: the scan reads the whole index and rechecks, exactly
SELECT r, (SELECT count(*) FROM g WHERE fp <@ hamming_ball('0123456789abcdef', r)) AS through_index
FROM unnest('{12,20,33,64}'::int[]) r;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT r, (SELECT count(*) FROM g WHERE fp <@ hamming_ball('0123456789abcdef', r)) AS seq_scan
FROM unnest('{12,20,33,64}'::int[]) r;
RESET enable_bitmapscan;
SET enable_seqscan = off;
RESET enable_seqscan;
DROP INDEX g_gin;

-- other blocks options, each through the index
CREATE FUNCTION compare_blocks(m int) RETURNS TABLE (blocks int, missing bigint, extra bigint)
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE INDEX g_gin_m ON g USING gin (fp gin_simhash64_ops (blocks = %s))', m);
  SET LOCAL enable_seqscan = off;
  RETURN QUERY SELECT m, c.missing, c.extra FROM compare_with_seq() c;
  DROP INDEX g_gin_m;
END $$;
SELECT c.* FROM unnest('{3,8,32}'::int[]) m, compare_blocks(m) c;

-- writes: inserts go through the pending list (fastupdate) or straight into
-- the tree; updates, deletes and VACUUM; then the same comparison.  (The
-- pending list is kept short: a search reads all of it for each probe key.)
CREATE INDEX g_gin ON g USING gin (fp) WITH (gin_pending_list_limit = 64);
CREATE TABLE g2 (LIKE g);
CREATE INDEX g2_gin ON g2 USING gin (fp gin_simhash64_ops (blocks = 8)) WITH (fastupdate = off);
INSERT INTO g2 SELECT * FROM g;
INSERT INTO g SELECT 10000 + i, (fp::bigint # (1::bigint << (i % 64)))::simhash64
FROM g, generate_series(1, 3) i WHERE id % 7 = 0;
UPDATE g SET fp = (fp::bigint # 5)::simhash64 WHERE id % 11 = 0;
DELETE FROM g WHERE id % 13 = 0;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
TRUNCATE seq_results;
INSERT INTO seq_results SELECT * FROM run_queries();
RESET enable_indexscan;
RESET enable_bitmapscan;
SET enable_seqscan = off;
-- with new rows still in the pending list
SELECT (gin_metapage_info(get_raw_page('g_gin', 0))).n_pending_tuples > 0 AS pending;
SELECT * FROM compare_with_seq();
RESET enable_seqscan;
VACUUM g;
SET enable_seqscan = off;
SELECT * FROM compare_with_seq();
RESET enable_seqscan;
-- g2: built by inserts straight into the tree (no pending list)
CREATE FUNCTION g2_within() RETURNS TABLE (name text, r int, id int)
LANGUAGE sql AS $$ SELECT name, r, id FROM queries, radii, g2 WHERE fp <@ hamming_ball(q, r) $$;
SET enable_bitmapscan = off;
CREATE TEMP TABLE g2_seq AS SELECT * FROM g2_within();
RESET enable_bitmapscan;
SET enable_seqscan = off;
SELECT count(*) AS g2_mismatches FROM (
  (SELECT * FROM g2_within() EXCEPT ALL SELECT * FROM g2_seq)
  UNION ALL
  (SELECT * FROM g2_seq EXCEPT ALL SELECT * FROM g2_within())) s;
RESET enable_seqscan;

-- many equal fingerprints: long posting lists (posting trees) stay exact
INSERT INTO g2 SELECT 20000 + i, CASE WHEN i % 3 = 0 THEN '0123456789abcdef'::simhash64
                                      ELSE ('0123456789abcde' || to_hex(i % 16))::simhash64 END
FROM generate_series(1, 6000) i;
SET enable_seqscan = off;
SELECT r, count(*) FROM g2, unnest('{0,1,2,4,9}'::int[]) r WHERE fp <@ hamming_ball('0123456789abcdef', r) GROUP BY r ORDER BY r;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT r, count(*) FROM g2, unnest('{0,1,2,4,9}'::int[]) r WHERE fp <@ hamming_ball('0123456789abcdef', r) GROUP BY r ORDER BY r;
RESET enable_bitmapscan;

-- opclass options: bad values are rejected
CREATE INDEX ON g USING gin (fp gin_simhash64_ops (blocks = 1));
CREATE INDEX ON g USING gin (fp gin_simhash64_ops (blocks = 33));
CREATE INDEX ON g USING gin (fp gin_simhash64_ops (blocks = 'x'));
CREATE INDEX ON g USING gin (fp gin_simhash64_ops (siglen = 4));
-- and the option is recorded with the index
CREATE INDEX g_gin7 ON g USING gin (fp gin_simhash64_ops (blocks = 7));
SELECT pg_get_indexdef('g_gin7'::regclass);

-- the operator class is well formed
SELECT opcname, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opcmethod
WHERE opcname = 'gin_simhash64_ops';

DROP TABLE g, g2, queries, radii;
DROP EXTENSION pageinspect;
