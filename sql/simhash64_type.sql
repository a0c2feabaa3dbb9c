-- simhash64: text and binary I/O, casts, bad input
CREATE EXTENSION textfp;

SELECT '0123456789abcdef'::simhash64, 'FFFFFFFFFFFFFFFF'::simhash64,
       '0000000000000000'::simhash64, 'DeadBeefCafeF00D'::simhash64;

-- bad input: wrong length, non-hex, empty, signs, spaces, 0x prefix
SELECT ''::simhash64;
SELECT '0123456789abcde'::simhash64;
SELECT '0123456789abcdef0'::simhash64;
SELECT '0123456789abcdeg'::simhash64;
SELECT '-123456789abcdef'::simhash64;
SELECT ' 0123456789abcdef'::simhash64;
SELECT '0x0123456789abcd'::simhash64;
SELECT NULL::simhash64 IS NULL AS null_in;

-- bigint casts keep all 64 bits (no sign surprises in the hex form)
SELECT 'ffffffffffffffff'::simhash64::bigint, '8000000000000000'::simhash64::bigint,
       '7fffffffffffffff'::simhash64::bigint;
SELECT (-1)::bigint::simhash64, (-9223372036854775808)::bigint::simhash64,
       1::bigint::simhash64;
SELECT 42::simhash64;  -- only bigint casts: int4 needs an explicit bigint

-- bit(64) and bytea casts, big-endian
SELECT '8000000000000001'::simhash64::bit(64);
SELECT B'1000000000000000000000000000000000000000000000000000000000000001'::simhash64;
SELECT B'101'::simhash64;
SELECT '0123456789abcdef'::simhash64::bytea;
SELECT '\x0123456789abcdef'::bytea::simhash64;
SELECT '\x0123'::bytea::simhash64;

-- casts are explicit only
CREATE TEMP TABLE implicit_t (fp simhash64);
INSERT INTO implicit_t VALUES (1::bigint);

-- binary send/recv round trip through COPY BINARY
CREATE TEMP TABLE io_t (id int, fp simhash64);
INSERT INTO io_t VALUES (1, '0123456789abcdef'), (2, 'ffffffffffffffff'), (3, NULL);
-- a file in the data directory: the server can write it whoever runs the tests
SELECT current_setting('data_directory') || '/textfp_io_t.bin' AS binfile \gset
COPY io_t TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE io_t2 (LIKE io_t);
COPY io_t2 FROM :'binfile' WITH (FORMAT binary);
SELECT * FROM io_t2 ORDER BY id;
SELECT simhash64_send('0123456789abcdef');

-- round trips over many values
SELECT count(*) AS roundtrip_failures
FROM (SELECT ('x' || substr(md5(g::text), 1, 16))::bit(64)::simhash64 AS fp
      FROM generate_series(1, 10000) g) s
WHERE fp::text::simhash64 <> fp OR fp::bytea::simhash64 <> fp
   OR fp::bit(64)::simhash64 <> fp OR fp::bigint::simhash64 <> fp;

-- storage layout follows int8
SELECT typlen, typbyval = (SELECT typbyval FROM pg_type WHERE oid = 'int8'::regtype) AS byval_like_int8,
       typalign
FROM pg_type WHERE oid = 'simhash64'::regtype;
