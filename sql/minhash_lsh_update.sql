-- The LSH objects under the compatibility rule: a database still at 1.0 SQL, running this
-- library, has none of them and its 1.0 objects answer as in 1.0 (golden minhash values, the
-- exact GIN class); ALTER EXTENSION ... UPDATE gives exactly the objects of a fresh 1.1, and
-- they answer with their golden band keys.  Leaves the extension at 1.1.

SET client_min_messages = warning;
SET jit = off;

-- what a fresh 1.1 has
CREATE TEMP TABLE fresh_objects AS
SELECT pg_describe_object(classid, objid, objsubid) AS object
FROM pg_depend WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'textfp');
SELECT count(*) > 0 AS has_objects,
       count(*) FILTER (WHERE object ~ 'lsh|minhash_bands') AS lsh_objects
FROM fresh_objects;

DROP EXTENSION textfp CASCADE;
CREATE EXTENSION textfp VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'textfp';
-- none of the 1.1 LSH objects
SELECT count(*) AS lsh_objects_at_1_0
FROM pg_depend d WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND pg_describe_object(d.classid, d.objid, d.objsubid) ~ 'lsh|minhash_bands';
-- the 1.0 objects, with the new library: golden minhash values and the exact GIN class
-- (the golden values of sql/minhash.sql)
SELECT minhash('Syndicated newspaper articles reappear under rewritten headlines in partner publications.', k => 8);
SELECT minhash('转载的新闻保留了大部分字词，只换了标题。', k => 8);
CREATE TABLE upd_m AS
SELECT i AS id, minhash((SELECT string_agg('f' || (i / 10) || 'w' || j, ' ') FROM generate_series(1, 30) j) || ' u' || i) AS sig
FROM generate_series(1, 500) i;
CREATE INDEX ON upd_m USING gin (sig);
SET enable_seqscan = off;
SELECT count(*) AS via_gin FROM upd_m WHERE sig <@ jaccard_ball((SELECT sig FROM upd_m WHERE id = 55), 0.5);
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*) AS via_scan FROM upd_m WHERE sig <@ jaccard_ball((SELECT sig FROM upd_m WHERE id = 55), 0.5);
RESET enable_bitmapscan;

-- the update: the same objects as a fresh 1.1
ALTER EXTENSION textfp UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'textfp';
CREATE TEMP TABLE updated_objects AS
SELECT pg_describe_object(classid, objid, objsubid) AS object
FROM pg_depend WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'textfp');
SELECT (SELECT count(*) FROM (SELECT * FROM fresh_objects EXCEPT SELECT * FROM updated_objects) a) AS only_in_fresh,
       (SELECT count(*) FROM (SELECT * FROM updated_objects EXCEPT SELECT * FROM fresh_objects) b) AS only_in_updated;
-- golden band keys, and a band index on the table made under 1.0
SELECT minhash_bands(minhash('The quick brown fox jumps over the lazy dog'), 4, 8);
CREATE INDEX upd_lsh ON upd_m USING gin (sig gin_minhash_lsh_ops);
SET enable_seqscan = off;
SELECT count(*) AS via_lsh FROM upd_m WHERE sig @@ lsh_query((SELECT sig FROM upd_m WHERE id = 55), 32, 4);
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*) AS via_scan FROM upd_m WHERE sig @@ lsh_query((SELECT sig FROM upd_m WHERE id = 55), 32, 4);
RESET enable_bitmapscan;
DROP TABLE upd_m;
