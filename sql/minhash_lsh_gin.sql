-- GIN: gin_minhash_lsh_ops answers @@ lsh_query exactly as a sequential scan
-- does, for bandings it keys (its rows, up to its bands, any min_bands) and
-- for others (read in full and rechecked), for several bands/rows/bits
-- options, before and after inserts, updates, deletes and VACUUM.

SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- 1,500 unrelated shingle sets and 60 families (a root and 8 copies with a
-- growing share of shingles replaced), k = 128; featureless, NULL, k = 64
-- and other-seed rows
CREATE FUNCTION pg_temp.set_of(tag text, n int) RETURNS bigint[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(('x' || substr(md5(tag || ':' || j), 1, 16))::bit(64)::bigint)
  FROM generate_series(1, n) j
$$;
CREATE TABLE lg AS
SELECT i AS id, minhash(pg_temp.set_of('doc' || i, 60 + i % 121)) AS sig
FROM generate_series(1, 1500) i;
INSERT INTO lg
SELECT 2000 + f * 10 + c,
       minhash(pg_temp.set_of('fam' || f, 150 - 12 * c) || pg_temp.set_of('edit' || f || ':' || c, 12 * c))
FROM generate_series(1, 60) f, generate_series(0, 8) c;
INSERT INTO lg VALUES (9001, NULL), (9002, minhash('{}'::bigint[])), (9003, minhash('')),
  (9004, minhash(pg_temp.set_of('fam1', 150), 64)), (9005, minhash(pg_temp.set_of('fam1', 138) || pg_temp.set_of('edit1:1', 12), 64)),
  (9006, minhash(pg_temp.set_of('fam1', 150), seed => 5));
CREATE TABLE lgq AS
SELECT 'root' || f AS name, minhash(pg_temp.set_of('fam' || f, 150)) AS q
FROM generate_series(1, 60, 6) f
UNION ALL SELECT 'row' || id, sig FROM lg WHERE id IN (1, 77, 1500, 2013, 2125, 9002, 9004, 9006)
UNION ALL SELECT 'far' || i, minhash(pg_temp.set_of('far' || i, 100)) FROM generate_series(1, 3) i;
-- bandings: keyed by the default index (44 x 1: prefixes and any min_bands)
-- and not (other rows, more bands); k = 64 queries take those of 64 positions
CREATE TABLE lgb (b int, r int, m int);
INSERT INTO lgb VALUES (44, 1, 10), (44, 1, 1), (44, 1, 30), (20, 1, 5), (1, 1, 1),
  (32, 4, 1), (32, 4, 2), (16, 8, 1), (25, 5, 2), (64, 2, 3), (16, 4, 1), (8, 8, 1), (64, 1, 20);

CREATE FUNCTION lsh_run_queries() RETURNS TABLE (name text, b int, r int, m int, id int)
LANGUAGE sql AS $$
  SELECT name, b, r, m, id FROM lgq, lgb, lg
  WHERE b * r <= (minhash_info(q)).k AND sig @@ lsh_query(q, b, r, m)
  UNION ALL
  SELECT 'commuted:' || name, 44, 1, 10, id FROM lgq, lg
  WHERE (minhash_info(q)).k = 128 AND lsh_query(q) @@ sig
$$;

SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE lsh_seq AS SELECT * FROM lsh_run_queries();
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT b, r, m, count(*) FROM lsh_seq GROUP BY b, r, m ORDER BY b, r, m;

CREATE FUNCTION lsh_compare_with_seq() RETURNS TABLE (missing bigint, extra bigint)
LANGUAGE sql AS $$
  WITH idx AS (SELECT * FROM lsh_run_queries())
  SELECT (SELECT count(*) FROM (SELECT * FROM lsh_seq EXCEPT ALL SELECT * FROM idx) s),
         (SELECT count(*) FROM (SELECT * FROM idx EXCEPT ALL SELECT * FROM lsh_seq) s)
$$;

-- the default options (44 bands of 1, 13-bit keys: what lsh_query(q) asks)
CREATE INDEX lg_lsh ON lg USING gin (sig gin_minhash_lsh_ops);
SELECT pg_get_indexdef('lg_lsh'::regclass);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM lg, lgq WHERE name = 'root1' AND sig @@ lsh_query(q, 44, 1, 12);
EXPLAIN (COSTS OFF) SELECT id FROM lg, lgq WHERE name = 'root1' AND lsh_query(q, 44, 1, 12) @@ sig;
-- the idiom: band candidates, verified with % (or <@ jaccard_ball)
EXPLAIN (COSTS OFF) SELECT id FROM lg, lgq WHERE name = 'root1'
  AND sig @@ lsh_query(q) AND sig % q;
SELECT * FROM lsh_compare_with_seq();
-- featureless rows are in no band: not even a featureless query finds them
SELECT count(*) FROM lg WHERE sig @@ lsh_query(minhash(''));
RESET enable_seqscan;
-- a banding the index does not key: still exact, but a full read of the
-- index, which the planner's cost estimate shows (so it takes a scan);
-- fewer bands than the index's are keyed, and cost far less
CREATE FUNCTION pg_temp.scans(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE l text; r text := '';
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    IF l ~ 'Scan' THEN r := r || regexp_replace(l, '^\s*(->\s*)?', '') || '; '; END IF;
  END LOOP;
  RETURN r;
END $$;
CREATE FUNCTION pg_temp.index_cost(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE p json;
BEGIN
  SET LOCAL enable_seqscan = off;
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO p;
  RETURN (regexp_match(p::text, '"Node Type": "Bitmap Index Scan",[^}]*"Total Cost": ([0-9.]+)'))[1]::float8;
END $$;
SELECT pg_temp.scans($$SELECT id FROM lg WHERE sig @@ lsh_query(minhash(pg_temp.set_of('fam1', 150)), 16, 8)$$) AS other_rows,
       pg_temp.scans($$SELECT id FROM lg WHERE sig @@ lsh_query(minhash(pg_temp.set_of('fam1', 150)))$$) AS keyed;
SELECT pg_temp.index_cost($$SELECT id FROM lg WHERE sig @@ lsh_query(minhash(pg_temp.set_of('fam1', 150)), 20, 1, 5)$$)
       < pg_temp.index_cost($$SELECT id FROM lg WHERE sig @@ lsh_query(minhash(pg_temp.set_of('fam1', 150)), 16, 8)$$) / 100
       AS fewer_bands_keyed;
DROP INDEX lg_lsh;

-- other options, each through the index (bits = 1: keys match half the
-- time, so the consistent check and the recheck decide)
CREATE FUNCTION lsh_compare_options(opts text) RETURNS TABLE (options text, missing bigint, extra bigint)
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE INDEX lg_lsh_o ON lg USING gin (sig gin_minhash_lsh_ops (%s))', opts);
  SET LOCAL enable_seqscan = off;
  RETURN QUERY SELECT opts, c.missing, c.extra FROM lsh_compare_with_seq() c;
  DROP INDEX lg_lsh_o;
END $$;
SELECT c.* FROM unnest(ARRAY['bands = 32, rows = 4, bits = 16', 'bands = 16, rows = 8, bits = 8',
                             'bands = 64, rows = 2, bits = 1', 'bands = 25, rows = 5, bits = 32',
                             'bands = 1, rows = 4, bits = 12', 'bands = 64, rows = 1, bits = 4']) o,
  lsh_compare_options(o) c;

-- writes: inserts through the pending list and straight into the tree,
-- updates, deletes and VACUUM; then the same comparison
CREATE INDEX lg_lsh ON lg USING gin (sig gin_minhash_lsh_ops) WITH (gin_pending_list_limit = 64);
CREATE TABLE lg2 (LIKE lg);
CREATE INDEX lg2_lsh ON lg2 USING gin (sig gin_minhash_lsh_ops (bands = 20, rows = 5, bits = 10)) WITH (fastupdate = off);
INSERT INTO lg2 SELECT * FROM lg;
INSERT INTO lg SELECT 10000 + id * 4 + c,
       minhash(pg_temp.set_of('fam' || (id / 10 - 200), 150 - 5 * c) || pg_temp.set_of('late' || id || c, 5 * c))
FROM lg, generate_series(1, 3) c WHERE id BETWEEN 2000 AND 2600 AND id % 10 = 0;
UPDATE lg SET sig = minhash(pg_temp.set_of('upd' || id, 90)) WHERE id % 11 = 0 AND id < 9000;
UPDATE lg SET sig = minhash('') WHERE id % 17 = 0 AND id < 9000;
DELETE FROM lg WHERE id % 13 = 0;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
TRUNCATE lsh_seq;
INSERT INTO lsh_seq SELECT * FROM lsh_run_queries();
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT count(*) AS seq_answers FROM lsh_seq;
SET enable_seqscan = off;
SELECT * FROM lsh_compare_with_seq();
RESET enable_seqscan;
VACUUM lg;
SET enable_seqscan = off;
SELECT * FROM lsh_compare_with_seq();
RESET enable_seqscan;
-- lg2: built by inserts straight into the tree, with 20 x 5 keys
CREATE FUNCTION lg2_answers() RETURNS TABLE (name text, m int, id int)
LANGUAGE sql AS $$
  SELECT name, m, id FROM lgq, lg2, unnest('{1,2,4}'::int[]) m
  WHERE (minhash_info(q)).k = 128 AND sig @@ lsh_query(q, 20, 5, m)
$$;
SET enable_bitmapscan = off;
CREATE TEMP TABLE lg2_seq AS SELECT * FROM lg2_answers();
RESET enable_bitmapscan;
SET enable_seqscan = off;
SELECT count(*) AS lg2_answers, (SELECT count(*) FROM (
  (SELECT * FROM lg2_answers() EXCEPT ALL SELECT * FROM lg2_seq)
  UNION ALL
  (SELECT * FROM lg2_seq EXCEPT ALL SELECT * FROM lg2_answers())) s) AS lg2_mismatches
FROM lg2_seq;
RESET enable_seqscan;

-- many equal signatures: long posting lists (posting trees) stay exact
CREATE TABLE lg3 AS
SELECT i AS id, minhash(pg_temp.set_of(CASE WHEN i <= 3000 THEN 'dup' ELSE 'other' || i END, 50)) AS sig
FROM generate_series(1, 3300) i;
CREATE INDEX lg3_lsh ON lg3 USING gin (sig gin_minhash_lsh_ops (bands = 8, rows = 16));
SET enable_seqscan = off;
SELECT m, count(*) FROM lg3, unnest('{1,8}'::int[]) m
WHERE sig @@ lsh_query(minhash(pg_temp.set_of('dup', 50)), 8, 16, m) GROUP BY m ORDER BY m;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT m, count(*) FROM lg3, unnest('{1,8}'::int[]) m
WHERE sig @@ lsh_query(minhash(pg_temp.set_of('dup', 50)), 8, 16, m) GROUP BY m ORDER BY m;
RESET enable_bitmapscan;

-- opclass options: bad values are rejected with their range; recorded
CREATE INDEX ON lg USING gin (sig gin_minhash_lsh_ops (bands = 0));
CREATE INDEX ON lg USING gin (sig gin_minhash_lsh_ops (rows = 1025));
CREATE INDEX ON lg USING gin (sig gin_minhash_lsh_ops (bits = 0));
CREATE INDEX ON lg USING gin (sig gin_minhash_lsh_ops (bits = 33));
CREATE INDEX ON lg USING gin (sig gin_minhash_lsh_ops (bands = 64, rows = 32));
CREATE INDEX ON lg USING gin (sig gin_minhash_lsh_ops (blocks = 4));
CREATE INDEX lg_lsh2 ON lg USING gin (sig gin_minhash_lsh_ops (bands = 42, rows = 3, bits = 20));
SELECT pg_get_indexdef('lg_lsh2'::regclass);

-- the operator class is well formed; it is not the default for GIN
SELECT opcname, opcdefault, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opcmethod
WHERE opcname LIKE 'gin_minhash%' ORDER BY 1;

-- a banding wider than the signatures: each is keyed on the bands it has
-- room for (here 64 of 200), and a query of those bands still uses the index
CREATE TABLE lgk (s minhash_sig);
INSERT INTO lgk SELECT minhash('a few words to sign ' || n) FROM generate_series(1, 20) n;
CREATE INDEX lgk_wide ON lgk USING gin (s gin_minhash_lsh_ops (bands = 200, rows = 2));
SET enable_seqscan = off;
CREATE FUNCTION pg_temp.plan_uses(q text, idx text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line LIKE '%Index Scan on ' || idx || '%' THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END $$;
SELECT pg_temp.plan_uses($$SELECT count(*) FROM lgk WHERE s @@ lsh_query(minhash('a few words to sign 7'), 64, 2, 1)$$, 'lgk_wide') AS index_used;
SELECT count(*) FROM lgk WHERE s @@ lsh_query(minhash('a few words to sign 7'), 64, 2, 1);
RESET enable_seqscan;
SELECT count(*) FROM lgk WHERE s @@ lsh_query(minhash('a few words to sign 7'), 64, 2, 1);
DROP TABLE lgk;

DROP TABLE lg, lg2, lg3, lgq, lgb;
DROP FUNCTION lsh_run_queries(), lsh_compare_with_seq(), lsh_compare_options(text), lg2_answers();
