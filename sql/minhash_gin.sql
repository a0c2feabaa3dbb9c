-- GIN: gin_minhash_ops answers =, % and <@ jaccard_ball exactly as a
-- sequential scan does, for thresholds from 0 to 1 and for every bits
-- option, before and after writes

-- (plans forced with enable_* = off cost enough to trigger JIT: keep it off)
SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- 1,500 unrelated shingle sets of 60 to 180 shingles, and 60 families:
-- a root and 8 copies with a growing share of shingles replaced
CREATE FUNCTION pg_temp.set_of(tag text, n int) RETURNS bigint[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(('x' || substr(md5(tag || ':' || j), 1, 16))::bit(64)::bigint)
  FROM generate_series(1, n) j
$$;
CREATE TABLE m AS
SELECT i AS id, minhash(pg_temp.set_of('doc' || i, 60 + i % 121), 64) AS sig
FROM generate_series(1, 1500) i;
INSERT INTO m
SELECT 2000 + f * 10 + c,
       minhash(pg_temp.set_of('fam' || f, 150 - 12 * c) || pg_temp.set_of('edit' || f || ':' || c, 12 * c), 64)
FROM generate_series(1, 60) f, generate_series(0, 8) c;
INSERT INTO m VALUES (9001, NULL), (9002, minhash('{}'::bigint[], 64));
CREATE TABLE queries AS
SELECT 'root' || f AS name, minhash(pg_temp.set_of('fam' || f, 150), 64) AS q
FROM generate_series(1, 60, 6) f
UNION ALL SELECT 'row' || id, sig FROM m WHERE id IN (1, 77, 1500, 2013, 2125, 9002)
UNION ALL SELECT 'far' || i, minhash(pg_temp.set_of('far' || i, 100), 64) FROM generate_series(1, 3) i;
CREATE TABLE thresholds AS
SELECT unnest('{0,0.05,0.3,0.5,0.6,0.7,0.75,0.8,0.9,0.95,1}'::float8[]) AS t;

CREATE FUNCTION mh_run_queries() RETURNS TABLE (kind text, name text, t float8, id int)
LANGUAGE sql AS $$
  SELECT 'eq', name, 1, id FROM queries, m WHERE sig = q
  UNION ALL
  SELECT 'within', name, t, id FROM queries, thresholds, m WHERE sig <@ jaccard_ball(q, t)
  UNION ALL
  SELECT 'contains', name, 0.6, id FROM queries, m WHERE jaccard_ball(q, 0.6) @> sig
  UNION ALL
  SELECT 'near', name, current_setting('textfp.jaccard_threshold')::float8, id FROM queries, m WHERE sig % q
$$;

SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE seq_results AS SELECT * FROM mh_run_queries();
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT kind, count(*) FROM seq_results GROUP BY kind ORDER BY kind;
SELECT t, count(*) FROM seq_results WHERE kind = 'within' GROUP BY t ORDER BY t;

CREATE FUNCTION mh_compare_with_seq() RETURNS TABLE (missing bigint, extra bigint)
LANGUAGE sql AS $$
  WITH idx AS (SELECT * FROM mh_run_queries())
  SELECT (SELECT count(*) FROM (SELECT * FROM seq_results EXCEPT ALL SELECT * FROM idx) s),
         (SELECT count(*) FROM (SELECT * FROM idx EXCEPT ALL SELECT * FROM seq_results) s)
$$;

-- the default class for GIN, default options
CREATE INDEX m_gin ON m USING gin (sig);
SELECT opcname, opcdefault FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE amname = 'gin' AND opcname = 'gin_minhash_ops';
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM m, queries WHERE name = 'root1' AND sig % q;
EXPLAIN (COSTS OFF) SELECT id FROM m, queries WHERE name = 'root1' AND sig <@ jaccard_ball(q, 0.8);
EXPLAIN (COSTS OFF) SELECT id FROM m, queries WHERE name = 'root1' AND jaccard_ball(q, 0.8) @> sig;
EXPLAIN (COSTS OFF) SELECT id FROM m, queries WHERE name = 'root1' AND sig = q;
SELECT * FROM mh_compare_with_seq();
-- % follows the threshold in force when the scan starts
SET textfp.jaccard_threshold = 0.85;
SELECT count(*) AS near085_mismatches FROM (
  (SELECT name, id FROM queries, m WHERE sig % q
   EXCEPT SELECT name, id FROM queries, m WHERE jaccard(sig, q) >= 0.85)
  UNION ALL
  (SELECT name, id FROM queries, m WHERE jaccard(sig, q) >= 0.85
   EXCEPT SELECT name, id FROM queries, m WHERE sig % q)) s;
RESET textfp.jaccard_threshold;
RESET enable_seqscan;
DROP INDEX m_gin;

-- other bits options, each through the index (1 bit: keys match half the
-- time, so nearly every row is a candidate and the recheck decides)
CREATE FUNCTION compare_bits(b int) RETURNS TABLE (bits int, missing bigint, extra bigint)
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE INDEX m_gin_b ON m USING gin (sig gin_minhash_ops (bits = %s))', b);
  SET LOCAL enable_seqscan = off;
  RETURN QUERY SELECT b, c.missing, c.extra FROM mh_compare_with_seq() c;
  DROP INDEX m_gin_b;
END $$;
SELECT c.* FROM unnest('{1,8,32}'::int[]) b, compare_bits(b) c;

-- writes: inserts through the pending list and straight into the tree,
-- updates, deletes and VACUUM; then the same comparison
CREATE INDEX m_gin ON m USING gin (sig) WITH (gin_pending_list_limit = 64);
CREATE TABLE m2 (LIKE m);
CREATE INDEX m2_gin ON m2 USING gin (sig gin_minhash_ops (bits = 32)) WITH (fastupdate = off);
INSERT INTO m2 SELECT * FROM m;
INSERT INTO m SELECT 10000 + id * 4 + c,
       minhash(pg_temp.set_of('fam' || (id / 10 - 200), 150 - 5 * c) || pg_temp.set_of('late' || id || c, 5 * c), 64)
FROM m, generate_series(1, 3) c WHERE id BETWEEN 2000 AND 2600 AND id % 10 = 0;
UPDATE m SET sig = minhash(pg_temp.set_of('upd' || id, 90), 64) WHERE id % 11 = 0;
DELETE FROM m WHERE id % 13 = 0;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
TRUNCATE seq_results;
INSERT INTO seq_results SELECT * FROM mh_run_queries();
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT kind, count(*) FROM seq_results GROUP BY kind ORDER BY kind;
SET enable_seqscan = off;
SELECT * FROM mh_compare_with_seq();
RESET enable_seqscan;
VACUUM m;
SET enable_seqscan = off;
SELECT * FROM mh_compare_with_seq();
RESET enable_seqscan;
-- m2: built by inserts straight into the tree
CREATE FUNCTION m2_within() RETURNS TABLE (name text, t float8, id int)
LANGUAGE sql AS $$ SELECT name, t, id FROM queries, thresholds, m2 WHERE sig <@ jaccard_ball(q, t) $$;
SET enable_bitmapscan = off;
CREATE TEMP TABLE m2_seq AS SELECT * FROM m2_within();
RESET enable_bitmapscan;
SET enable_seqscan = off;
SELECT count(*) AS m2_mismatches FROM (
  (SELECT * FROM m2_within() EXCEPT ALL SELECT * FROM m2_seq)
  UNION ALL
  (SELECT * FROM m2_seq EXCEPT ALL SELECT * FROM m2_within())) s;
RESET enable_seqscan;

-- many equal signatures: long posting lists (posting trees) stay exact
CREATE TABLE m3 AS
SELECT i AS id, minhash(pg_temp.set_of(CASE WHEN i <= 3000 THEN 'dup' ELSE 'other' || i END, 50), 64) AS sig
FROM generate_series(1, 3300) i;
CREATE INDEX m3_gin ON m3 USING gin (sig);
CREATE EXTENSION pageinspect;
SELECT count(*) > 0 AS has_posting_tree_pages
FROM generate_series(1, pg_relation_size('m3_gin') / current_setting('block_size')::int - 1) b
WHERE 'data' = ANY ((gin_page_opaque_info(get_raw_page('m3_gin', b::int))).flags);
DROP EXTENSION pageinspect;
SET enable_seqscan = off;
SELECT t, count(*) FROM m3, unnest('{0.5,0.9,1}'::float8[]) t
WHERE sig <@ jaccard_ball(minhash(pg_temp.set_of('dup', 50), 64), t) GROUP BY t ORDER BY t;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT t, count(*) FROM m3, unnest('{0.5,0.9,1}'::float8[]) t
WHERE sig <@ jaccard_ball(minhash(pg_temp.set_of('dup', 50), 64), t) GROUP BY t ORDER BY t;
RESET enable_bitmapscan;

-- a column that mixes signatures made differently: a sequential scan raises
-- the mismatch error at the first such row; the index skips rows whose keys
-- rule them out (a k = 32 row cannot match 58 of 64 keys) and raises the
-- error only for the candidates it rechecks (same values, another seed)
INSERT INTO m VALUES (30000, minhash(pg_temp.set_of('fam1', 150), 32));
SET enable_seqscan = off;
SELECT count(*) FROM m WHERE sig <@ jaccard_ball(minhash(pg_temp.set_of('fam1', 150), 64), 0.9);
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*) FROM m WHERE sig <@ jaccard_ball(minhash(pg_temp.set_of('fam1', 150), 64), 0.9);
RESET enable_bitmapscan;
INSERT INTO m VALUES (30001, replace(minhash(pg_temp.set_of('fam1', 150), 64)::text, 'seed=0', 'seed=1')::minhash_sig);
SET enable_seqscan = off;
SELECT count(*) FROM m WHERE sig <@ jaccard_ball(minhash(pg_temp.set_of('fam1', 150), 64), 0.9);
RESET enable_seqscan;
DELETE FROM m WHERE id IN (30000, 30001);

-- opclass options: bad values are rejected; the option is recorded
CREATE INDEX ON m USING gin (sig gin_minhash_ops (bits = 0));
CREATE INDEX ON m USING gin (sig gin_minhash_ops (bits = 33));
CREATE INDEX ON m USING gin (sig gin_minhash_ops (blocks = 4));
CREATE INDEX m_gin12 ON m USING gin (sig gin_minhash_ops (bits = 12));
SELECT pg_get_indexdef('m_gin12'::regclass);

-- the operator class is well formed
SELECT opcname, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opcmethod
WHERE opcname IN ('gin_minhash_ops', 'minhash_sig_hash_ops') ORDER BY 1;

DROP TABLE m, m2, m3, queries, thresholds;
DROP FUNCTION mh_run_queries(), mh_compare_with_seq(), compare_bits(int), m2_within();
