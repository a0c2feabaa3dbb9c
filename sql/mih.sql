-- mih: the multi-index hashing access method answers =, % and <@ exactly as a
-- sequential scan does, for every radius 0 to 64 (probes and the full pass
-- of large radii), for several m, on an index built over rows and on one
-- built empty and filled by inserts (range page splits, overflow chains),
-- and again after updates, deletes and VACUUM

SET jit = off;
SET max_parallel_workers_per_gather = 0;
-- objects of its own: other tests leave tables and functions of these names
CREATE SCHEMA mih_test;
SET search_path = mih_test, public;

SELECT amvalidate(c.oid) FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE a.amname = 'mih' AND c.opcname = 'mih_simhash64_ops';
SELECT opcname, opcdefault FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE amname = 'mih';

-- 3000 unrelated fingerprints, 60 families of near duplicates, 700 copies of
-- one value and 300 values one or two bits from it (buckets larger than a
-- page: overflow chains), NULLs and the extremes
CREATE FUNCTION mih_rows(lo int, hi int) RETURNS TABLE (id int, fp simhash64)
LANGUAGE sql IMMUTABLE AS $$
  SELECT i, CASE
    WHEN i % 50 = 7 THEN NULL
    WHEN i <= 3000 THEN hashint8extended(i, 11)::simhash64
    WHEN i <= 3360 THEN (hashint8extended((i - 3001) / 6, 12)
                         # (CASE WHEN (i - 3001) % 6 = 0 THEN 0
                                 ELSE (1::bigint << ((i * 7) % 64)) | (1::bigint << ((i * 13) % 64)) END))::simhash64
    WHEN i <= 4060 THEN 'cafecafecafecafe'::simhash64
    WHEN i <= 4360 THEN ('cafecafecafecafe'::simhash64::bigint # (1::bigint << (i % 64))
                         # (CASE WHEN i % 2 = 0 THEN 1::bigint << ((i / 2) % 64) ELSE 0 END))::simhash64
    WHEN i = 4361 THEN 'ffffffffffffffff'::simhash64
    ELSE '0000000000000000'::simhash64
  END
  FROM generate_series(lo, hi) i
$$;
CREATE TABLE m (id int, fp simhash64);
INSERT INTO m SELECT * FROM mih_rows(1, 4362);

CREATE TABLE queries AS
SELECT 'row' || id AS name, fp AS q FROM m WHERE id IN (1, 17, 2999, 3001, 3100, 3359, 4000, 4100, 4361)
UNION ALL SELECT 'far' || i, hashint8extended(i, 13)::simhash64 FROM generate_series(1, 4) i
UNION ALL SELECT 'zero', '0000000000000000';

CREATE FUNCTION run_queries() RETURNS TABLE (kind text, name text, r int, n bigint)
LANGUAGE sql AS $$
  SELECT 'within', name, r, (SELECT count(*) FROM m WHERE fp <@ hamming_ball(q, r))
  FROM queries, generate_series(0, 64) r
  UNION ALL
  SELECT 'contains', name, 5, (SELECT count(*) FROM m WHERE hamming_ball(q, 5) @> fp) FROM queries
  UNION ALL
  SELECT 'eq', name, 0, (SELECT count(*) FROM m WHERE fp = q) FROM queries
  UNION ALL
  SELECT 'near', name, current_setting('textfp.hamming_threshold')::int,
         (SELECT count(*) FROM m WHERE fp % q) FROM queries
  UNION ALL
  SELECT 'near_commuted', name, current_setting('textfp.hamming_threshold')::int,
         (SELECT count(*) FROM m WHERE q % fp) FROM queries
  UNION ALL
  SELECT 'both', name, 7, (SELECT count(*) FROM m WHERE fp % q AND fp <@ hamming_ball((q::bigint # 3)::simhash64, 7))
  FROM queries
$$;

-- the answers of a sequential scan with <~>, a different operator
CREATE FUNCTION reference() RETURNS TABLE (kind text, name text, r int, n bigint)
LANGUAGE sql AS $$
  SELECT 'within', name, r, (SELECT count(*) FROM m WHERE fp <~> q <= r)
  FROM queries, generate_series(0, 64) r
  UNION ALL
  SELECT 'contains', name, 5, (SELECT count(*) FROM m WHERE fp <~> q <= 5) FROM queries
  UNION ALL
  SELECT 'eq', name, 0, (SELECT count(*) FROM m WHERE fp <~> q = 0) FROM queries
  UNION ALL
  SELECT k, name, current_setting('textfp.hamming_threshold')::int,
         (SELECT count(*) FROM m WHERE fp <~> q <= current_setting('textfp.hamming_threshold')::int)
  FROM queries, unnest('{near,near_commuted}'::text[]) k
  UNION ALL
  SELECT 'both', name, 7, (SELECT count(*) FROM m WHERE fp <~> q <= current_setting('textfp.hamming_threshold')::int
                                                  AND fp <~> (q::bigint # 3)::simhash64 <= 7)
  FROM queries
$$;

-- rows where the index and the reference disagree, and how much was compared
CREATE FUNCTION compare(what text) RETURNS TABLE (label text, compared bigint, rows_found numeric, mismatches bigint)
LANGUAGE plpgsql AS $$
BEGIN
  SET LOCAL enable_seqscan = off;
  CREATE TEMP TABLE idx_results ON COMMIT DROP AS SELECT * FROM run_queries();
  SET LOCAL enable_seqscan = on;
  SET LOCAL enable_indexscan = off;
  SET LOCAL enable_bitmapscan = off;
  CREATE TEMP TABLE ref_results ON COMMIT DROP AS SELECT * FROM reference();
  RETURN QUERY
  SELECT $1, count(*), sum(r.n),
         count(*) FILTER (WHERE i.n IS DISTINCT FROM r.n)
  FROM ref_results r LEFT JOIN idx_results i USING (kind, name, r);
  DROP TABLE idx_results, ref_results;
END $$;

-- built over the rows: default m, then every m from 4 to 16 in steps
CREATE INDEX m_mih ON m USING mih (fp);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM m WHERE fp <@ hamming_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM m WHERE fp % '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM m WHERE '0123456789abcdef' % fp;
EXPLAIN (COSTS OFF) SELECT id FROM m WHERE fp = '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM m WHERE hamming_ball('0123456789abcdef', 3) @> fp;
RESET enable_seqscan;
SELECT * FROM compare('default m');
SET textfp.hamming_threshold = 0;
SELECT * FROM compare('threshold 0');
SET textfp.hamming_threshold = 40;
SELECT * FROM compare('threshold 40');
RESET textfp.hamming_threshold;

DROP INDEX m_mih;
CREATE INDEX m_mih ON m USING mih (fp) WITH (m = 4);
SELECT * FROM compare('m = 4');
DROP INDEX m_mih;
CREATE INDEX m_mih ON m USING mih (fp) WITH (m = 7, fillfactor = 100);
SELECT * FROM compare('m = 7, fillfactor 100');
DROP INDEX m_mih;
CREATE INDEX m_mih ON m USING mih (fp) WITH (m = 16, fillfactor = 10);
SELECT * FROM compare('m = 16, fillfactor 10');
DROP INDEX m_mih;

-- built empty, filled by inserts (splits and chains), then changed
CREATE TABLE m_all AS SELECT * FROM m;
TRUNCATE m;
CREATE INDEX m_mih ON m USING mih (fp) WITH (m = 5);
INSERT INTO m SELECT * FROM m_all ORDER BY id;
SELECT * FROM compare('m = 5, inserts');
UPDATE m SET fp = hashint8extended(id, 14)::simhash64 WHERE id % 3 = 0;
DELETE FROM m WHERE id % 5 = 0;
SELECT * FROM compare('after update and delete');
VACUUM m;
SELECT * FROM compare('after vacuum');
INSERT INTO m SELECT id + 10000, fp FROM mih_rows(1, 4362) WHERE id % 5 = 0;
SELECT * FROM compare('inserts into vacuumed pages');
DELETE FROM m;
VACUUM m;
SELECT count(*) FROM m WHERE fp % '0000000000000000';
INSERT INTO m SELECT * FROM m_all;
SELECT * FROM compare('after emptying');

-- the index's own numbers: a VACUUM that removes rows counts the rows
-- indexed (each once); one that removes none reads no index page and takes
-- the table's count (NULLs too, as ANALYZE does)
DELETE FROM m WHERE id = 2;
INSERT INTO m SELECT * FROM m_all WHERE id = 2;
VACUUM (INDEX_CLEANUP ON) m;
SELECT reltuples = (SELECT count(*) FROM m WHERE fp IS NOT NULL) AS reltuples_rows
FROM pg_class WHERE relname = 'm_mih';
VACUUM m;
SELECT reltuples = (SELECT count(*) FROM m) AS reltuples_table_rows
FROM pg_class WHERE relname = 'm_mih';

-- REINDEX, TRUNCATE, CREATE INDEX CONCURRENTLY, expression and partial indexes
REINDEX INDEX m_mih;
SELECT * FROM compare('reindexed');
DROP INDEX m_mih;
CREATE INDEX CONCURRENTLY m_mih ON m USING mih (fp);
SELECT * FROM compare('built concurrently');
TRUNCATE m;
SELECT count(*) FROM m WHERE fp <@ hamming_ball('0000000000000000', 64);
INSERT INTO m SELECT * FROM m_all;
SELECT * FROM compare('after truncate');
DROP TABLE m_all;

CREATE TABLE docs (id int, body text);
INSERT INTO docs SELECT i, 'article number ' || (i / 3) || ' about topic ' || (i % 7) FROM generate_series(1, 300) i;
CREATE INDEX docs_fp ON docs USING mih (simhash(body));
CREATE INDEX docs_fp_part ON docs USING mih (simhash(body)) WHERE id > 150;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE simhash(body) % simhash('article number 7 about topic 1');
SELECT count(*) FROM docs WHERE simhash(body) % simhash('article number 7 about topic 1');
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE id > 150 AND simhash(body) % simhash('article number 70 about topic 1');
SELECT count(*) FROM docs WHERE id > 150 AND simhash(body) % simhash('article number 70 about topic 1');
RESET enable_seqscan;
SELECT count(*) FROM docs WHERE simhash(body) <~> simhash('article number 7 about topic 1') <= 10;
SELECT count(*) FROM docs WHERE id > 150 AND simhash(body) <~> simhash('article number 70 about topic 1') <= 10;

-- a backend's own inserts wait in memory until its statement ends, a scan of
-- the index, or commit; a rolled-back savepoint drops its rows; a rebuild in
-- the same transaction has them already
CREATE TABLE p (id int, fp simhash64);
CREATE INDEX p_mih ON p USING mih (fp);
CREATE FUNCTION p_counts() RETURNS TABLE (through_index bigint, by_scan bigint)
LANGUAGE plpgsql AS $$
BEGIN
  SET LOCAL enable_seqscan = off;
  through_index := (SELECT count(*) FROM p WHERE fp <@ hamming_ball('cafecafecafecafe', 3));
  SET LOCAL enable_seqscan = on;
  SET LOCAL enable_bitmapscan = off;
  by_scan := (SELECT count(*) FROM p WHERE fp <~> 'cafecafecafecafe' <= 3);
  RETURN NEXT;
END $$;
BEGIN;
INSERT INTO p SELECT * FROM mih_rows(3001, 4362);
SELECT * FROM p_counts();
SAVEPOINT s;
INSERT INTO p SELECT id + 10000, fp FROM mih_rows(4001, 4200);
ROLLBACK TO SAVEPOINT s;
INSERT INTO p SELECT id + 20000, fp FROM mih_rows(4001, 4100);
SELECT * FROM p_counts();
REINDEX INDEX p_mih;
INSERT INTO p SELECT id + 30000, fp FROM mih_rows(4001, 4050);
COPY p FROM STDIN;
90001	cafecafecafecafe
90002	cafecafecafecaff
\.
SELECT * FROM p_counts();
COMMIT;
SELECT * FROM p_counts();
-- inserts and lookups inside one statement see each other
DO $$
BEGIN
  FOR i IN 1 .. 50 LOOP
    INSERT INTO p VALUES (100000 + i, ('cafecafecafecafe'::simhash64::bigint # i)::simhash64);
    IF (SELECT count(*) FROM p WHERE fp = ('cafecafecafecafe'::simhash64::bigint # i)::simhash64) = 0 THEN
      RAISE EXCEPTION 'row % not found through the index', i;
    END IF;
  END LOOP;
END $$;
BEGIN;
INSERT INTO p SELECT * FROM mih_rows(1, 100);
TRUNCATE p;
INSERT INTO p SELECT * FROM mih_rows(4001, 4010);
COMMIT;
SELECT * FROM p_counts();

-- an unlogged table: the empty index of its init fork
CREATE UNLOGGED TABLE um (id int, fp simhash64);
CREATE INDEX um_mih ON um USING mih (fp);
INSERT INTO um SELECT * FROM mih_rows(1, 500);
SET enable_seqscan = off;
SELECT count(*) FROM um WHERE fp <@ hamming_ball('cafecafecafecafe', 2);
RESET enable_seqscan;
SELECT count(*) FROM um WHERE fp <~> 'cafecafecafecafe' <= 2;

-- many conditions on the column: the smallest radius drives the scan, the
-- others are checked on each candidate
CREATE VIEW many_conditions AS
  SELECT id FROM m
  WHERE fp % 'cafecafecafecafe' AND fp <@ hamming_ball('cafecafecafecafe', 2)
    AND fp <@ hamming_ball('cafecafecafecaff', 2) AND fp <@ hamming_ball('cafecafecafecafc', 3)
    AND fp <@ hamming_ball('cafecafecafecafe', 40) AND fp <@ hamming_ball('cafecafecafecafe', 64)
    AND hamming_ball('cafecafecafecafa', 4) @> fp AND fp <@ hamming_ball('cafecafecafecaf0', 6)
    AND fp <@ hamming_ball('cafecafecafecbfe', 3) AND fp % 'cafecafecafecaee';
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM many_conditions;
SELECT count(*) AS through_index FROM many_conditions;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*) AS by_scan FROM many_conditions;
RESET enable_bitmapscan;

-- NULL arguments match nothing
SET enable_seqscan = off;
SELECT count(*) FROM m WHERE fp % NULL;
SELECT count(*) FROM m WHERE fp <@ NULL::hamming_ball;
SELECT count(*) FROM m WHERE fp <@ hamming_ball('cafecafecafecafe', NULL);
SELECT count(*) FROM m WHERE fp = NULL::simhash64;
RESET enable_seqscan;

RESET search_path;
DROP SCHEMA mih_test CASCADE;
