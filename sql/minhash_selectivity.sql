-- planner estimates for the minhash_sig % and <@ / @>: ANALYZE adds the
-- Jaccard estimates of sampled row pairs to the standard statistics; the
-- estimates follow the column's families of near duplicates, and the planner
-- picks the GIN index or a sequential scan by them

SET jit = off;

CREATE FUNCTION pg_temp.set_of(tag text, n int) RETURNS bigint[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(('x' || substr(md5(tag || ':' || j), 1, 16))::bit(64)::bigint)
  FROM generate_series(1, n) j
$$;
-- 500 families: a root of 60 shingles and 7 members with 3 to 21 of them
-- replaced (J 0.90 down to 0.48), and 1,000 unrelated rows; in md, the same
-- rows plus 500 copies of one signature
CREATE TABLE ms AS
SELECT f * 10 + m AS id,
       minhash(pg_temp.set_of('root' || f, 60 - 3 * m) || pg_temp.set_of('edit' || f || ':' || m, 3 * m), 64) AS sig
FROM generate_series(1, 500) f, generate_series(0, 7) m;
INSERT INTO ms SELECT 100000 + i, minhash(pg_temp.set_of('other' || i, 60), 64) FROM generate_series(1, 1000) i;
CREATE TABLE md AS SELECT * FROM ms;
INSERT INTO md SELECT 200000 + i, minhash(pg_temp.set_of('common', 60), 64) FROM generate_series(1, 500) i;

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

-- before ANALYZE: a fixed small share
SELECT estimated AS default_estimate FROM est($$SELECT * FROM ms WHERE sig % minhash(pg_temp.set_of('root5', 60), 64)$$);

ANALYZE ms, md;
-- the standard statistics are kept (MCVs in md), and the pair shares added:
-- share of pairs with at least 0 equal positions (all), 64 (equal), and the
-- number of pairs
-- (1.1's btree order adds a histogram (2) and a correlation (3) before it)
CREATE FUNCTION pg_temp.our_slot(rel regclass)
RETURNS TABLE (kinds int2[], all_pairs real, slot_length int, pairs_counted real)
LANGUAGE sql AS $$
	SELECT ARRAY[stakind1, stakind2, stakind3, stakind4, stakind5], n[1], array_length(n, 1), n[66]
	FROM (SELECT s.*, CASE 10465 WHEN stakind1 THEN stanumbers1 WHEN stakind2 THEN stanumbers2
	                  WHEN stakind3 THEN stanumbers3 WHEN stakind4 THEN stanumbers4
	                  WHEN stakind5 THEN stanumbers5 END AS n
	      FROM pg_statistic s WHERE starelid = rel AND staattnum = 2) s
$$;
SELECT * FROM pg_temp.our_slot('ms');
SELECT kinds FROM pg_temp.our_slot('md');

CREATE INDEX ms_gin ON ms USING gin (sig);
CREATE INDEX md_gin ON md USING gin (sig);
CREATE TABLE cases (name text, query text);
INSERT INTO cases VALUES
  ('family root, %',             $$SELECT * FROM ms WHERE sig % minhash(pg_temp.set_of('root77', 60), 64)$$),
  ('family root, 0.8',           $$SELECT * FROM ms WHERE sig <@ jaccard_ball(minhash(pg_temp.set_of('root78', 60), 64), 0.8)$$),
  ('family root, 0.4 @>',        $$SELECT * FROM ms WHERE jaccard_ball(minhash(pg_temp.set_of('root79', 60), 64), 0.4) @> sig$$),
  ('family member, unknown',     $$SELECT * FROM ms WHERE sig % (SELECT sig FROM ms WHERE id = 1233 OFFSET 0)$$),
  ('common value, %',            $$SELECT * FROM md WHERE sig % minhash(pg_temp.set_of('common', 60), 64)$$),
  ('self-join, %',               $$SELECT * FROM ms a JOIN ms b ON a.sig % b.sig$$),
  ('self-join, <@ 0.8',          $$SELECT * FROM ms a JOIN ms b ON a.sig <@ jaccard_ball(b.sig, 0.8)$$),
  ('self-join with copies, %',   $$SELECT * FROM md a JOIN md b ON a.sig % b.sig$$);
SELECT name, close(e.estimated, e.actual) FROM cases, est(query) e ORDER BY name;
-- a query far from every row: no rows, and the estimate stays small
SELECT estimated < 20 AS small, actual FROM est($$SELECT * FROM ms WHERE sig % minhash(pg_temp.set_of('nowhere', 60), 64)$$);

-- the planner picks the index where few rows qualify and scans the table
-- where most do
EXPLAIN (COSTS OFF) SELECT id FROM ms WHERE sig % minhash(pg_temp.set_of('root5', 60), 64);
EXPLAIN (COSTS OFF) SELECT id FROM ms WHERE sig <@ jaccard_ball(minhash(pg_temp.set_of('root5', 60), 64), 0.9);
EXPLAIN (COSTS OFF) SELECT id FROM ms WHERE sig <@ jaccard_ball(minhash(pg_temp.set_of('root5', 60), 64), 0);
-- a near-duplicate self-join runs as a nested loop over the index
EXPLAIN (COSTS OFF) SELECT count(*) FROM ms a JOIN ms b ON b.sig % a.sig AND a.id < b.id;
SELECT count(*) AS near_pairs FROM ms a JOIN ms b ON b.sig % a.sig AND a.id < b.id WHERE a.id < 1000;
SET enable_bitmapscan = off;
SELECT count(*) AS near_pairs_seq FROM ms a JOIN ms b ON b.sig % a.sig AND a.id < b.id WHERE a.id < 1000;
RESET enable_bitmapscan;

DROP TABLE ms, md, cases;
DROP FUNCTION est(text), close(float8, float8);
