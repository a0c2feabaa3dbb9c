-- minhash_sig and jaccard_ball: text and binary I/O, the k typmod,
-- equality and hashing, and the errors for bad input and mixed signatures.

-- round trip, both methods, upper-case hex accepted, lower-case written
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001DEADBEEF00000002ffffffff'::minhash_sig;
SELECT 'kperm32:k=1:seed=-9223372036854775808:pipe=1234abcd:00000000'::minhash_sig;
SELECT 'oph32:k=2:seed=9223372036854775807:pipe=ffffffff:0000000100000002'::minhash_sig;
SELECT minhash('round trip', k => 8)::text::minhash_sig = minhash('round trip', k => 8);

-- bad input
SELECT ''::minhash_sig;
SELECT 'oph:k=1:seed=0:pipe=00000000:00000000'::minhash_sig;
SELECT 'oph32:k=0:seed=0:pipe=00000000:'::minhash_sig;
SELECT 'oph32:k=1025:seed=0:pipe=00000000:00000000'::minhash_sig;
SELECT 'oph32:k=01:seed=0:pipe=00000000:00000000'::minhash_sig;
SELECT 'oph32:k=+1:seed=0:pipe=00000000:00000000'::minhash_sig;
SELECT 'oph32:k=1:seed=-0:pipe=00000000:00000000'::minhash_sig;
SELECT 'oph32:k=1:seed=9223372036854775808:pipe=00000000:00000000'::minhash_sig;
SELECT 'oph32:k=1:seed=0:pipe=0000000:000000000'::minhash_sig;
SELECT 'oph32:k=1:seed=0:pipe=00000000:0000000g'::minhash_sig;
SELECT 'oph32:k=2:seed=0:pipe=00000000:00000000'::minhash_sig;
SELECT 'oph32:k=1:seed=0:pipe=00000000:000000000'::minhash_sig;
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000000 '::minhash_sig;
SELECT ' oph32:k=1:seed=0:pipe=00000000:00000000'::minhash_sig;
SELECT 'oph32:k=1:seed=0:pipe=00000000:-0000000'::minhash_sig;

-- typmod: minhash_sig(k)
CREATE TABLE sig_k (s minhash_sig(8));
INSERT INTO sig_k VALUES (minhash('eight values', k => 8));
INSERT INTO sig_k VALUES (minhash('sixteen values', k => 16));
INSERT INTO sig_k VALUES ('oph32:k=1:seed=0:pipe=00000000:00000000');
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000000'::minhash_sig(1);
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000000'::minhash_sig(2);
SELECT minhash('x', k => 2)::minhash_sig(2) IS NOT NULL AS cast_ok;
SELECT minhash('x', k => 2)::minhash_sig(3);
CREATE TABLE sig_bad (s minhash_sig(0));
CREATE TABLE sig_bad (s minhash_sig(1025));
CREATE TABLE sig_bad (s minhash_sig(1, 2));
SELECT format_type(atttypid, atttypmod) FROM pg_attribute
WHERE attrelid = 'sig_k'::regclass AND attname = 's';
DROP TABLE sig_k;

-- what a signature says about itself
SELECT * FROM minhash_info('kperm32:k=3:seed=-5:pipe=0badf00d:000000010000000200000003');
SELECT minhash_values('oph32:k=3:seed=0:pipe=00000000:00000001ffffffff80000000');

-- binary I/O through COPY, with a typmod column and a jaccard_ball
-- (a file the server may write: in its data directory)
SELECT current_setting('data_directory') || '/textfp_minhash_type.bin' AS binfile \gset
CREATE TABLE sig_io (id int, s minhash_sig(4), b jaccard_ball);
INSERT INTO sig_io
SELECT i, minhash('binary copy ' || i, k => 4, seed => i - 3),
       jaccard_ball(minhash('ball ' || i, k => 2, method => 'kperm'), i / 10.0)
FROM generate_series(1, 5) i;
COPY sig_io TO :'binfile' (FORMAT binary);
CREATE TABLE sig_io2 (LIKE sig_io);
COPY sig_io2 FROM :'binfile' (FORMAT binary);
SELECT count(*) AS same FROM sig_io JOIN sig_io2 USING (id)
WHERE sig_io.s = sig_io2.s AND sig_io.b::text = sig_io2.b::text;
CREATE TABLE sig_io3 (id int, s minhash_sig(8), b jaccard_ball);
COPY sig_io3 FROM :'binfile' (FORMAT binary);
DROP TABLE sig_io, sig_io2, sig_io3;

-- equality, hashing, GROUP BY and DISTINCT
SELECT minhash('newsroom archive') = minhash('newsroom archive') AS eq,
       minhash('newsroom archive') <> minhash('newsroom reprint') AS ne,
       minhash('newsroom archive') = minhash('newsroom archive', seed => 1) AS other_seed_eq;
-- (no ordering: DISTINCT and GROUP BY hash)
SELECT count(*) FROM (SELECT DISTINCT s FROM (VALUES (minhash('apple banana', shingle => 1)), (minhash('banana apple', shingle => 1)),
                                                     (minhash('cherry durian', shingle => 1))) v(s)) d;
SELECT count(*) FROM (SELECT s FROM (VALUES (minhash('apple banana', shingle => 1)), (minhash('banana apple', shingle => 1)),
                                            (minhash('cherry durian', shingle => 1))) v(s) GROUP BY s) g;
SELECT minhash_sig_hash('oph32:k=1:seed=0:pipe=00000000:00000000') =
       minhash_sig_hash('oph32:k=1:seed=0:pipe=00000000:00000000') AS hash_stable,
       minhash_sig_hash_extended('oph32:k=1:seed=0:pipe=00000000:00000000', 0) <>
       minhash_sig_hash_extended('oph32:k=1:seed=0:pipe=00000000:00000000', 1) AS seeded;

-- mixed signatures never compare silently
SELECT jaccard(minhash('mixing', k => 64), minhash('mixing', k => 128));
SELECT jaccard(minhash('mixing'), minhash('mixing', method => 'kperm'));
SELECT jaccard(minhash('mixing'), minhash('mixing', seed => 7));
SELECT jaccard(minhash('mixing'), minhash('mixing', ngram => 3));
SELECT jaccard(minhash('mixing'), minhash('mixing', stopwords => 'builtin'));
SELECT jaccard(minhash('mixing'), minhash(shingles('mixing')));
SELECT minhash('mixing') <%> minhash('mixing', k => 64);
SELECT minhash('mixing') % minhash('mixing', k => 64);
SELECT minhash('mixing') <@ jaccard_ball(minhash('mixing', k => 64), 0.5);
-- options that do not change the shingle set keep the pipeline identity
SELECT (minhash_info(minhash('x'))).pipeline = (minhash_info(minhash('x', user_stopwords => '{}'))).pipeline AS same,
       (minhash_info(minhash('x', user_stopwords => '{b,a}'))).pipeline =
       (minhash_info(minhash('x', user_stopwords => '{a,b,a}'))).pipeline AS same_set;

-- jaccard_ball I/O
SELECT jaccard_ball('oph32:k=2:seed=0:pipe=00000000:0000000100000002', 0.75);
SELECT 'oph32:k=2:seed=0:pipe=00000000:0000000100000002/0.8'::jaccard_ball;
SELECT jaccard_ball_threshold('oph32:k=1:seed=0:pipe=00000000:00000001/1'),
       jaccard_ball_signature('oph32:k=1:seed=0:pipe=00000000:00000001/0');
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001'::jaccard_ball;
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/'::jaccard_ball;
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/ 0.5'::jaccard_ball;
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/0.5x'::jaccard_ball;
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/1.5'::jaccard_ball;
SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/nan'::jaccard_ball;
SELECT 'oph32:k=1:seed=0:pipe=00000000:0000001/0.5'::jaccard_ball;
SELECT jaccard_ball(minhash('x'), -0.1);
SELECT jaccard_ball(minhash('x'), 'NaN');
