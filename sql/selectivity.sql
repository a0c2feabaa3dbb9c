-- planner estimates for % and <@: ANALYZE adds the distance distribution of
-- sampled row pairs to the standard statistics; the estimates follow the
-- data's near-duplicate families and the planner picks GIN, a tree index or a
-- sequential scan by them

SET jit = off;

-- 2,000 families of 8 near duplicates (1 to 4 bits from their root) and
-- 4,000 unrelated rows; in d, the same rows plus 2,000 copies of one value
CREATE TABLE s (id int, fp simhash64);
INSERT INTO s
SELECT f * 10 + m,
       (('x' || substr(md5('root' || f), 1, 16))::bit(64)::bigint
        # ((CASE WHEN m > 0 THEN 1::bigint << (m * 7 % 64) ELSE 0 END)
           | (CASE WHEN m > 2 THEN 1::bigint << ((m * 13 + f) % 64) ELSE 0 END)
           | (CASE WHEN m > 4 THEN 1::bigint << ((m * 29 + 3) % 64) ELSE 0 END)
           | (CASE WHEN m > 6 THEN 1::bigint << ((m * 31 + 5 + f) % 64) ELSE 0 END)))::simhash64
FROM generate_series(0, 7) m, generate_series(1, 2000) f;
INSERT INTO s SELECT 100000 + i, ('x' || substr(md5('other' || i), 1, 16))::bit(64)::simhash64
FROM generate_series(1, 4000) i;
CREATE TABLE d AS SELECT * FROM s;
INSERT INTO d SELECT 200000 + i, 'cafecafecafecafe' FROM generate_series(1, 2000) i;

-- estimated and actual rows of a query's top plan node
CREATE FUNCTION est(query text, OUT estimated float8, OUT actual float8)
LANGUAGE plpgsql AS $$
DECLARE
  p json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO p;
  estimated := (p -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
  actual := (p -> 0 -> 'Plan' ->> 'Actual Rows')::float8;
END $$;
-- within a factor of 3 (both counted as at least one row)
CREATE FUNCTION close(e float8, a float8) RETURNS text LANGUAGE sql AS $$
  SELECT CASE WHEN greatest(e, 1) / greatest(a, 1) BETWEEN 1.0 / 3 AND 3 THEN 'close'
              ELSE format('off: estimated %s, actual %s', e, a) END
$$;

-- before ANALYZE: the random-bits model alone, which sees no families
SELECT estimated < 2 AS tiny FROM est($$SELECT * FROM s WHERE fp <@ hamming_ball('0123456789abcdef', 6)$$);

ANALYZE s, d;
-- the standard statistics are kept, and the pair distances are added
SELECT stakind1, stakind2, stakind3, stakind4,
       stanumbers4[1] AS equal_pairs, stanumbers4[65] AS pairs_within_64,
       stanumbers4[66] AS pairs_counted
FROM pg_statistic WHERE starelid = 'd'::regclass AND staattnum = 2;

-- (the index only speeds the self-joins up; estimates come from statistics)
CREATE INDEX s_gin ON s USING gin (fp);
CREATE INDEX d_gin ON d USING gin (fp);
CREATE TABLE cases (name text, query text);
INSERT INTO cases VALUES
  ('family member, %',        $$SELECT * FROM s WHERE fp % (SELECT fp FROM s WHERE id = 1233 OFFSET 0)$$),
  ('family root, radius 3',   $$SELECT * FROM s WHERE fp <@ hamming_ball(('x' || substr(md5('root77'), 1, 16))::bit(64)::simhash64, 3)$$),
  ('family root, radius 6 @>',$$SELECT * FROM s WHERE hamming_ball(('x' || substr(md5('root78'), 1, 16))::bit(64)::simhash64, 6) @> fp$$),
  ('common value, %',         $$SELECT * FROM d WHERE fp % 'cafecafecafecafe'$$),
  ('near common value, r 2',  $$SELECT * FROM d WHERE fp <@ hamming_ball('cafecafecafecaff', 2)$$),
  ('family member, d',        $$SELECT * FROM d WHERE fp % (SELECT fp FROM s WHERE id = 1233 OFFSET 0)$$),
  ('radius 40',               $$SELECT * FROM s WHERE fp <@ hamming_ball('0123456789abcdef', 40)$$),
  ('self-join, %',            $$SELECT * FROM s a JOIN s b ON a.fp % b.fp$$),
  ('self-join, <@ radius 2',  $$SELECT * FROM s a JOIN s b ON a.fp <@ hamming_ball(b.fp, 2)$$),
  ('self-join with copies',   $$SELECT * FROM d a JOIN d b ON a.fp % b.fp$$);
SELECT name, close(e.estimated, e.actual) FROM cases, est(query) e ORDER BY name;
-- a point far from every row: no rows, and the estimate stays that of a
-- typical query (a family's worth), not the whole table
SELECT estimated < 20 AS small, actual FROM est($$SELECT * FROM s WHERE fp <@ hamming_ball('0123456789abcdef', 6)$$);


-- with an index, the planner picks it where few rows qualify and scans
-- the table where most do.  (For % at radius 6, 52 probe keys cost more in
-- GIN's cost model than reading these 20,000 rows; at 1M rows it takes GIN.)
EXPLAIN (COSTS OFF) SELECT * FROM s WHERE fp <@ hamming_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT * FROM s WHERE fp % '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT * FROM s WHERE fp <@ hamming_ball('0123456789abcdef', 40);
EXPLAIN (COSTS OFF) SELECT * FROM d WHERE fp % 'cafecafecafecafe';
-- a near-duplicate self-join runs as a nested loop over the index
EXPLAIN (COSTS OFF) SELECT count(*) FROM s a JOIN s b ON b.fp % a.fp AND a.id < b.id;
EXPLAIN (COSTS OFF) SELECT count(*) FROM s a JOIN s b ON b.fp <@ hamming_ball(a.fp, 3) AND a.id < b.id;
SELECT count(*) AS near_pairs FROM s a JOIN s b ON b.fp % a.fp AND a.id < b.id WHERE a.id < 3000;
SET enable_bitmapscan = off;
SELECT count(*) AS near_pairs_seq FROM s a JOIN s b ON b.fp % a.fp AND a.id < b.id WHERE a.id < 3000;
RESET enable_bitmapscan;
DROP INDEX s_gin;
CREATE INDEX s_spgist ON s USING spgist (fp);
EXPLAIN (COSTS OFF) SELECT * FROM s WHERE fp <@ hamming_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT count(*) FROM s a JOIN s b ON b.fp <@ hamming_ball(a.fp, 3) AND a.id < b.id;

-- the same estimates for an expression index's statistics
CREATE TABLE docs (id int, body text);
INSERT INTO docs SELECT i, 'article ' || (i % 50) || ' about ' || md5((i % 50)::text) FROM generate_series(1, 500) i;
CREATE INDEX docs_fp ON docs USING gin (simhash(body));
ANALYZE docs;
SELECT name, close(e.estimated, e.actual) FROM (VALUES
  ('expression, %', $$SELECT * FROM docs WHERE simhash(body) % simhash('article 7 about ' || md5('7'))$$)) c(name, query),
  est(query) e;

DROP TABLE s, d, cases, docs;
DROP FUNCTION est(text), close(float8, float8);
