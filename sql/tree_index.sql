-- tree indexes: gist_simhash64_ops and spgist_simhash64_ops answer =, %, <@
-- and ORDER BY <~> exactly as a sequential scan does; gist_hamming_ball_ops
-- serves && (exclusion constraints)

-- (plans forced with enable_* = off cost enough to trigger JIT: keep it off)
SET jit = off;

-- 2000 unrelated fingerprints plus 40 families of near duplicates: each
-- family member is its root with 1 to 5 bits flipped
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
-- queries: family roots (with near neighbours), rows, and random points
CREATE TABLE queries AS
SELECT 'root' || f AS name, ('x' || substr(md5('family' || f), 1, 16))::bit(64)::simhash64 AS q
FROM generate_series(1, 40, 4) f
UNION ALL SELECT 'row' || id, fp FROM g WHERE id IN (1, 17, 1999, 2011, 2125)
UNION ALL SELECT 'far' || i, ('x' || substr(md5('q' || i), 1, 16))::bit(64)::simhash64 FROM generate_series(1, 3) i;

-- results of every query under one plan, as a table
CREATE FUNCTION run_queries() RETURNS TABLE (kind text, name text, r int, id int)
LANGUAGE sql AS $$
  SELECT 'eq', name, 0, id FROM queries, g WHERE fp = q
  UNION ALL
  SELECT 'within', name, r, id FROM queries, unnest('{0,1,2,3,5,8}'::int[]) r, g WHERE fp <@ hamming_ball(q, r)
  UNION ALL
  SELECT 'contains', name, 4, id FROM queries, g WHERE hamming_ball(q, 4) @> fp
  UNION ALL
  SELECT 'near', name, current_setting('textfp.hamming_threshold')::int, id FROM queries, g WHERE fp % q
$$;
-- nearest neighbours as distance lists (integer distances tie, so compare multisets)
CREATE FUNCTION run_knn(k int) RETURNS TABLE (name text, distances int[])
LANGUAGE sql AS $$
  SELECT name, ARRAY(SELECT fp <~> q FROM g ORDER BY fp <~> q LIMIT k) FROM queries
$$;

SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
CREATE TEMP TABLE seq_results AS SELECT * FROM run_queries();
CREATE TEMP TABLE seq_knn AS SELECT 1 AS k, * FROM run_knn(1) UNION ALL SELECT 10, * FROM run_knn(10) UNION ALL SELECT 50, * FROM run_knn(50);
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
SELECT kind, count(*) FROM seq_results GROUP BY kind ORDER BY kind;

CREATE INDEX g_gist ON g USING gist (fp);
SET enable_seqscan = off;

EXPLAIN (COSTS OFF) SELECT id FROM g WHERE fp <@ hamming_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE fp % '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE fp = '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE hamming_ball('0123456789abcdef', 3) @> fp;
EXPLAIN (COSTS OFF) SELECT fp FROM g ORDER BY fp <~> '0123456789abcdef' LIMIT 5;

-- the same answers through the index: nothing missing, nothing extra
CREATE FUNCTION compare_with_seq() RETURNS TABLE (missing bigint, extra bigint, knn_mismatches bigint)
LANGUAGE sql AS $$
  WITH idx AS (SELECT * FROM run_queries()),
  idx_knn AS (SELECT 1 AS k, * FROM run_knn(1) UNION ALL SELECT 10, * FROM run_knn(10) UNION ALL SELECT 50, * FROM run_knn(50))
  SELECT (SELECT count(*) FROM (SELECT * FROM seq_results EXCEPT ALL SELECT * FROM idx) s),
         (SELECT count(*) FROM (SELECT * FROM idx EXCEPT ALL SELECT * FROM seq_results) s),
         (SELECT count(*) FROM seq_knn s JOIN idx_knn i USING (k, name) WHERE s.distances <> i.distances)
$$;
SELECT * FROM compare_with_seq();
-- and under other thresholds of %
SET textfp.hamming_threshold = 2;
SELECT count(*) AS near2_mismatches FROM (
  (SELECT name, id FROM queries, g WHERE fp % q
   EXCEPT SELECT name, id FROM queries, g WHERE fp <~> q <= 2)
  UNION ALL
  (SELECT name, id FROM queries, g WHERE fp <~> q <= 2 AND fp IS NOT NULL
   EXCEPT SELECT name, id FROM queries, g WHERE fp % q)) s;
RESET textfp.hamming_threshold;

-- KNN returns exact distances, in order, with the index
SELECT fp <~> '0000000000000003' AS d FROM g ORDER BY fp <~> '0000000000000003' LIMIT 3;
-- index-only scans return the fingerprints themselves
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT fp FROM g WHERE fp <@ hamming_ball('ffffffffffffffff', 0);
SELECT fp FROM g WHERE fp <@ hamming_ball('ffffffffffffffff', 0);
RESET enable_bitmapscan;

-- writes with the index present: inserts (including many near duplicates that
-- force page splits), updates, deletes, VACUUM, then the same comparison
RESET enable_seqscan;
INSERT INTO g SELECT 10000 + i, (fp::bigint # (1::bigint << (i % 64)))::simhash64
FROM g, generate_series(1, 3) i WHERE id % 7 = 0;
UPDATE g SET fp = (fp::bigint # 5)::simhash64 WHERE id % 11 = 0;
DELETE FROM g WHERE id % 13 = 0;
VACUUM g;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
TRUNCATE seq_results, seq_knn;
INSERT INTO seq_results SELECT * FROM run_queries();
INSERT INTO seq_knn SELECT 1 AS k, * FROM run_knn(1) UNION ALL SELECT 10, * FROM run_knn(10) UNION ALL SELECT 50, * FROM run_knn(50);
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
SET enable_seqscan = off;
SELECT * FROM compare_with_seq();
RESET enable_seqscan;

-- a second build path: an index made by inserts (no sorted build) agrees too
DROP INDEX g_gist;
CREATE TABLE g2 (LIKE g);
CREATE INDEX g2_gist ON g2 USING gist (fp);
INSERT INTO g2 SELECT * FROM g;
SET enable_seqscan = off;
CREATE FUNCTION compare_g2_with_seq() RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM (
    (SELECT name, r, id FROM queries, unnest('{0,1,2,3,5}'::int[]) r, g2 WHERE fp <@ hamming_ball(q, r)
     EXCEPT ALL SELECT name, r, id FROM seq_results WHERE kind = 'within' AND r <= 5)
    UNION ALL
    (SELECT name, r, id FROM seq_results WHERE kind = 'within' AND r <= 5
     EXCEPT ALL SELECT name, r, id FROM queries, unnest('{0,1,2,3,5}'::int[]) r, g2 WHERE fp <@ hamming_ball(q, r))) s
$$;
SELECT compare_g2_with_seq() AS mismatches;
RESET enable_seqscan;
DROP INDEX g2_gist;

-- SP-GiST: the same queries, the same answers
CREATE INDEX g_spgist ON g USING spgist (fp);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE fp <@ hamming_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM g WHERE fp % '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT fp FROM g ORDER BY fp <~> '0123456789abcdef' LIMIT 5;
SELECT * FROM compare_with_seq();
SELECT fp <~> '0000000000000003' AS d FROM g ORDER BY fp <~> '0000000000000003' LIMIT 3;
-- many equal and near-equal values force "all the same" inner tuples and
-- their splits; the answers stay exact
RESET enable_seqscan;
INSERT INTO g2 SELECT 20000 + i, CASE WHEN i % 3 = 0 THEN '0123456789abcdef'::simhash64
                                      ELSE ('0123456789abcde' || to_hex(i % 16))::simhash64 END
FROM generate_series(1, 600) i;
CREATE INDEX g2_spgist ON g2 USING spgist (fp);
INSERT INTO g2 SELECT 30000 + i, ('0123456789ab' || lpad(to_hex(i % 4096), 3, '0') || 'f')::simhash64
FROM generate_series(1, 600) i;
SET enable_seqscan = off;
SELECT count(*) AS equal_rows FROM g2 WHERE fp = '0123456789abcdef';
SELECT r, count(*) FROM g2, unnest('{0,1,2,4}'::int[]) r WHERE fp <@ hamming_ball('0123456789abcdef', r) GROUP BY r ORDER BY r;
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT r, count(*) FROM g2, unnest('{0,1,2,4}'::int[]) r WHERE fp <@ hamming_ball('0123456789abcdef', r) GROUP BY r ORDER BY r;
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
DELETE FROM g2 WHERE id >= 20000;
VACUUM g2;
SET enable_seqscan = off;
SELECT compare_g2_with_seq() AS mismatches;
RESET enable_seqscan;

-- the operator classes are well formed
SELECT opcname, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opcmethod
WHERE opcname IN ('gist_simhash64_ops', 'gist_hamming_ball_ops', 'spgist_simhash64_ops') ORDER BY 1;

-- && on balls: overlap when the centres are at most r1 + r2 apart
SELECT hamming_ball('0000000000000000', 1) && hamming_ball('0000000000000003', 1) AS d2_r1_r1,
       hamming_ball('0000000000000000', 1) && hamming_ball('0000000000000007', 1) AS d3_r1_r1,
       hamming_ball('0000000000000000', 0) && hamming_ball('0000000000000007', 3) AS d3_r0_r3;

-- an exclusion constraint rejects near duplicates without races: with radius
-- 3, no two rows may be 6 bits or fewer apart
CREATE TABLE articles (id int, fp simhash64,
  EXCLUDE USING gist (hamming_ball(fp, 3) WITH &&));
INSERT INTO articles VALUES (1, '0000000000000000');
INSERT INTO articles VALUES (2, 'ffffffffffffffff');          -- far: accepted
INSERT INTO articles VALUES (3, '000000000000003f');          -- 6 bits from 1: rejected
INSERT INTO articles VALUES (4, '000000000000007f');          -- 7 bits from 1: accepted
INSERT INTO articles VALUES (5, NULL);                        -- NULLs never conflict
INSERT INTO articles SELECT id, fp FROM g WHERE id <= 200 AND fp IS NOT NULL;
SELECT count(*) FROM articles;
-- the constraint agrees with a pairwise check
SELECT count(*) AS violating_pairs FROM articles a JOIN articles b ON a.id < b.id WHERE a.fp <~> b.fp <= 6;
-- gist on hamming_ball serves && queries too, exactly
CREATE TABLE balls AS SELECT id, hamming_ball(fp, id % 4) AS b FROM g WHERE fp IS NOT NULL;
CREATE TEMP TABLE seq_overlaps AS
  SELECT q.name, b.id FROM queries q, balls b WHERE b.b && hamming_ball(q.q, 2);
CREATE INDEX balls_gist ON balls USING gist (b);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM balls WHERE b && hamming_ball('0123456789abcdef', 2);
SELECT count(*) AS mismatches FROM (
  (SELECT q.name, b.id FROM queries q, balls b WHERE b.b && hamming_ball(q.q, 2) EXCEPT ALL SELECT * FROM seq_overlaps)
  UNION ALL
  (SELECT * FROM seq_overlaps EXCEPT ALL SELECT q.name, b.id FROM queries q, balls b WHERE b.b && hamming_ball(q.q, 2))) s;
RESET enable_seqscan;

DROP TABLE g, g2, queries, articles, balls;
DROP FUNCTION run_queries(), run_knn(int), compare_with_seq(), compare_g2_with_seq();
