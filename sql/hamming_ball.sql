-- hamming_ball: per-query radius with <@ and @>
SELECT hamming_ball('0123456789abcdef', 3);
SELECT '0123456789abcdef/3'::hamming_ball, 'FFFFFFFFFFFFFFFF/64'::hamming_ball,
       '0000000000000000/0'::hamming_ball;
SELECT hamming_ball_center('0123456789abcdef/5'), hamming_ball_radius('0123456789abcdef/5');

-- bad input and bad radii
SELECT '0123456789abcdef'::hamming_ball;
SELECT '0123456789abcdef/'::hamming_ball;
SELECT '0123456789abcdef/65'::hamming_ball;
SELECT '0123456789abcdef/-1'::hamming_ball;
SELECT '0123456789abcdef/3x'::hamming_ball;
SELECT '0123456789abcde/3'::hamming_ball;
SELECT '0123456789abcdef/99999999999999999999'::hamming_ball;
SELECT hamming_ball('0123456789abcdef', -1);
SELECT hamming_ball('0123456789abcdef', 65);
SELECT hamming_ball('0123456789abcdef', NULL) IS NULL AS strict;

-- containment is distance <= radius, both ways round
SELECT '0000000000000007'::simhash64 <@ hamming_ball('0000000000000000', 3) AS at_3,
       '000000000000000f'::simhash64 <@ hamming_ball('0000000000000000', 3) AS at_4,
       hamming_ball('0000000000000000', 4) @> '000000000000000f'::simhash64 AS contains_4,
       'ffffffffffffffff'::simhash64 <@ hamming_ball('0000000000000000', 64) AS everything,
       '0000000000000001'::simhash64 <@ hamming_ball('0000000000000000', 0) AS only_center;

-- <@ agrees with hamming_distance for every radius
CREATE TABLE ball_t AS
SELECT g AS id, ('x' || substr(md5(g::text), 1, 16))::bit(64)::simhash64 AS fp
FROM generate_series(1, 3000) g;
SELECT r, count(*) FILTER (WHERE fp <@ hamming_ball(q, r)) AS inside,
       count(*) FILTER (WHERE hamming_distance(fp, q) <= r) AS by_distance
FROM ball_t, (SELECT fp AS q FROM ball_t WHERE id = 7) q, generate_series(0, 64, 8) r
GROUP BY r ORDER BY r;

-- binary round trip
SELECT hamming_ball_recv_ok FROM (
  SELECT hamming_ball_send('0123456789abcdef/7') = '\x0123456789abcdef00000007'::bytea
         AS hamming_ball_recv_ok) s;
CREATE TEMP TABLE ball_io (b hamming_ball);
INSERT INTO ball_io VALUES ('0123456789abcdef/7'), (NULL);
-- a file in the data directory: the server can write it whoever runs the tests
SELECT current_setting('data_directory') || '/textfp_ball_io.bin' AS binfile \gset
COPY ball_io TO :'binfile' WITH (FORMAT binary);
TRUNCATE ball_io;
COPY ball_io FROM :'binfile' WITH (FORMAT binary);
SELECT * FROM ball_io;

DROP TABLE ball_t;
