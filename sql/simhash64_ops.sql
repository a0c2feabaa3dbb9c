-- simhash64: comparison, btree/hash opclasses, Hamming distance
SELECT hamming_distance('0000000000000000', 'ffffffffffffffff'),
       hamming_distance('0123456789abcdef', '0123456789abcdef'),
       '0000000000000000'::simhash64 <~> '0000000000000007',
       '8000000000000000'::simhash64 <~> '0000000000000001';

-- = and <> and unsigned order (8000... sorts after 7fff...)
SELECT '8000000000000000'::simhash64 > '7fffffffffffffff'::simhash64 AS unsigned_order,
       'ffffffffffffffff'::simhash64 = 'FFFFFFFFFFFFFFFF' AS eq,
       'ffffffffffffffff'::simhash64 <> '0000000000000000' AS ne,
       '0000000000000001'::simhash64 <= '0000000000000001' AS le,
       '0000000000000002'::simhash64 >= '0000000000000001' AS ge,
       '0000000000000001'::simhash64 < '0000000000000002' AS lt;

CREATE TABLE fps (id int PRIMARY KEY, fp simhash64);
INSERT INTO fps
SELECT g, ('x' || substr(md5((g % 500)::text), 1, 16))::bit(64)::simhash64
FROM generate_series(1, 2000) g;

-- ORDER BY, GROUP BY, DISTINCT, hash join work on the type
SELECT fp FROM fps ORDER BY fp LIMIT 3;
SELECT fp FROM fps ORDER BY fp DESC LIMIT 3;
SELECT count(DISTINCT fp) FROM fps;
SELECT count(*) FROM (SELECT fp FROM fps GROUP BY fp) s;

SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM fps a JOIN fps b ON a.fp = b.fp;
SELECT count(*) FROM fps a JOIN fps b ON a.fp = b.fp;
RESET enable_mergejoin;
RESET enable_nestloop;

-- btree index and unique constraint on exact fingerprints
CREATE INDEX fps_fp_btree ON fps (fp);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM fps WHERE fp = '0000000000000000';
SELECT count(*) FROM fps WHERE fp = ('x' || substr(md5('1'), 1, 16))::bit(64)::simhash64;
RESET enable_seqscan;
CREATE TABLE uniq (fp simhash64 UNIQUE);
INSERT INTO uniq VALUES ('0123456789abcdef');
INSERT INTO uniq VALUES ('0123456789ABCDEF');

-- hash index
CREATE INDEX fps_fp_hash ON fps USING hash (fp);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
DROP INDEX fps_fp_btree;
EXPLAIN (COSTS OFF) SELECT id FROM fps WHERE fp = '0000000000000000';
SELECT count(*) FROM fps WHERE fp = ('x' || substr(md5('1'), 1, 16))::bit(64)::simhash64;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- the operator classes are well formed
SELECT amname, opcname, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opcmethod
WHERE opcname LIKE 'simhash64%' ORDER BY 1, 2;

-- the % operator uses textfp.hamming_threshold (default 10)
SHOW textfp.hamming_threshold;
SELECT '0000000000000000'::simhash64 % '00000000000003ff' AS d10,
       '0000000000000000'::simhash64 % '00000000000007ff' AS d11;

-- the distance between each row and its neighbour, checked against bit(64)
SELECT count(*) AS mismatches
FROM fps a JOIN fps b ON b.id = a.id + 1
WHERE (a.fp <~> b.fp) <>
      length(replace((a.fp::bit(64) # b.fp::bit(64))::text, '0', ''));

DROP TABLE fps, uniq;
