-- Bad input of every kind gets a clear error with the right SQLSTATE, and
-- the session goes on.  The cases of the 1.1 bad-input probe worth keeping.
-- Runs in the probe pass (make installcheck-probe).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;
RESET client_min_messages;
\set VERBOSITY default
-- every error below shows its SQLSTATE
\set SHOW_CONTEXT never
\set ON_ERROR_STOP 0

CREATE FUNCTION pg_temp.state(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END$$;

-- 1. text input: syntax is 22P02, a number out of range 22003
SELECT q, pg_temp.state(q) FROM (VALUES
	($$SELECT ''::simhash64$$),
	($$SELECT '0x0123456789abcdef'::simhash64$$),
	($$SELECT ' 0123456789abcdef'::simhash64$$),
	($$SELECT '0123456789abcdeg'::simhash64$$),
	($$SELECT '0123456789abcdef'::hamming_ball$$),
	($$SELECT '0123456789abcdef/'::hamming_ball$$),
	($$SELECT '0123456789abcdef/+3'::hamming_ball$$),
	($$SELECT '0123456789abcdef/65'::hamming_ball$$),
	($$SELECT '0123456789abcdef/-1'::hamming_ball$$),
	($$SELECT '0123456789abcdef/99999999999999999999999'::hamming_ball$$),
	($$SELECT 'oph32:k=4:seed=0:pipe=820db166:'::minhash_sig$$),
	($$SELECT 'oph32:k=0:seed=0:pipe=00000000:'::minhash_sig$$),
	($$SELECT 'oph32:k=1025:seed=0:pipe=00000000:'::minhash_sig$$),
	($$SELECT 'oph32:k=99999999999999999999:seed=0:pipe=00000000:'::minhash_sig$$),
	($$SELECT 'oph16:k=1:seed=0:pipe=00000000:00000001'::minhash_sig$$),
	($$SELECT 'oph32:k=1:seed=99999999999999999999:pipe=00000000:00000001'::minhash_sig$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=0000000:000000001'::minhash_sig$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:0000000g'::minhash_sig$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001'::minhash_sig(2)$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/1.1'::jaccard_ball$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/-0.1'::jaccard_ball$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/NaN'::jaccard_ball$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/Infinity'::jaccard_ball$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/1e400'::jaccard_ball$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001/'::jaccard_ball$$),
	($$SELECT 'oph32:k=1:seed=0:pipe=00000000:00000001'::jaccard_ball$$)
) v(q);

-- 2. constructors, casts and options: 22023 for a bad argument, 54000 for a limit
SELECT q, pg_temp.state(q) FROM (VALUES
	($$SELECT hamming_ball('0123456789abcdef', 65)$$),
	($$SELECT jaccard_ball(minhash('x', k => 4), 'NaN')$$),
	($$SELECT B'101'::simhash64$$),
	($$SELECT '\x0102'::bytea::simhash64$$),
	($$SELECT simhash('x', ngram => 0)$$),
	($$SELECT simhash('x', ngram => 9)$$),
	($$SELECT simhash('x', shingle => 17)$$),
	($$SELECT simhash('x', tokenizer => 'jieba')$$),
	($$SELECT simhash('x', stopwords => 'fr')$$),
	($$SELECT simhash('x', stopwords => 'zh+zh')$$),
	($$SELECT simhash('x', stopwords => 'zh+')$$),
	($$SELECT simhash('x', stopwords => '')$$),
	($$SELECT simhash('x', weighting => 'idf')$$),
	($$SELECT simhash('x', user_stopwords => '{a,NULL}')$$),
	($$SELECT simhash('x', user_stopwords => '{{a},{b}}')$$),
	($$SELECT simhash('x', user_stopwords => ARRAY[repeat('a', 257)])$$),
	($$SELECT simhash('x', user_stopwords => ARRAY[repeat(U&'\0149', 128)])$$),
	($$SELECT simhash('x', featureless => 'zero')$$),
	($$SELECT minhash('x', k => 0)$$),
	($$SELECT minhash('x', k => 1025)$$),
	($$SELECT minhash('x', method => 'bbit')$$),
	($$SELECT minhash('{1,NULL}'::bigint[])$$),
	($$SELECT minhash('{{1},{2}}'::bigint[])$$),
	($$SELECT jaccard('{1,NULL}'::bigint[], '{1}'::bigint[])$$),
	($$SELECT * FROM textfp_stopwords('de')$$),
	($$SELECT * FROM textfp_features('x', ngram => 0)$$),
	($$SELECT simhash_agg(1, -1)$$),
	($$SELECT simhash_agg(1, 'NaN')$$),
	($$SELECT simhash_agg(1, 1073741825)$$),
	($$SELECT jaccard(minhash('x', k => 4), minhash('x', k => 8))$$),
	($$SELECT jaccard(minhash('x', k => 4), minhash('x', k => 4, seed => 1))$$),
	($$SELECT jaccard(minhash('x', k => 4), minhash('x', k => 4, shingle => 1))$$),
	($$SELECT jaccard(minhash('x', k => 4), minhash('x', k => 4, method => 'kperm'))$$)
) v(q);

-- 3. settings: out of range, not a number, a prefix of ours
SELECT q, pg_temp.state(q) FROM (VALUES
	($$SET textfp.hamming_threshold = 65$$),
	($$SET textfp.hamming_threshold = -1$$),
	($$SET textfp.hamming_threshold = 'ten'$$),
	($$SET textfp.jaccard_threshold = 1.5$$),
	($$SET textfp.jaccard_threshold = 'NaN'$$),
	($$SET textfp.no_such_setting = 1$$)
) v(q);

-- 4. sizes users control are bounded: text, normalised text
SELECT pg_temp.state($$SELECT simhash(repeat('a', 64 * 1024 * 1024 + 1))$$);
SELECT pg_temp.state($$SELECT simhash(repeat(U&'\FDFA', 5000000))$$);
SELECT pg_temp.state($$SELECT textfp_normalize(repeat(U&'\FDFA', 5000000))$$);

-- 5. % follows a session setting: not accepted in an exclusion constraint
SELECT pg_temp.state($$CREATE TEMP TABLE excl1 (fp simhash64, EXCLUDE USING gist (fp WITH %))$$);
SELECT pg_temp.state($$CREATE TEMP TABLE excl2 (fp simhash64, EXCLUDE USING spgist (fp WITH %))$$);
SELECT pg_temp.state($$CREATE TEMP TABLE excl3 (fp simhash64, EXCLUDE USING gist (hamming_ball(fp, 3) WITH &&))$$);

-- 6. binary input (COPY FROM ... FORMAT binary) of hand-made bytes: 22P03, or
-- 22003 for a value out of range, never a crash or a silent value
CREATE TEMP TABLE bin_sig (s minhash_sig);
CREATE TEMP TABLE bin_ball (b hamming_ball);
CREATE TEMP TABLE bin_jball (j jaccard_ball);
SELECT current_setting('data_directory') || '/textfp_bad_input.bin' AS binfile \gset
-- a COPY BINARY file of one row and one field holding the given bytes
CREATE FUNCTION pg_temp.copy_bin(tbl text, field bytea, path text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	lo oid;
BEGIN
	lo := lo_from_bytea(0, '\x5047434f50590aff0d0a00'::bytea || '\x0000000000000000'::bytea ||
		'\x0001'::bytea || int4send(length(field)) || field || '\xffff'::bytea);
	PERFORM lo_export(lo, path);
	PERFORM lo_unlink(lo);
	RETURN pg_temp.state(format('COPY %I FROM %L (FORMAT binary)', tbl, path));
END$$;
SELECT name, pg_temp.copy_bin(tbl, field, :'binfile') FROM (VALUES
	('sig ok',            'bin_sig', '\x01200002820db166000000000000000700000001ffffffff'::bytea),
	('sig k 0',           'bin_sig', '\x01200000820db1660000000000000007'::bytea),
	('sig k 2000',        'bin_sig', '\x012007d0820db1660000000000000007'::bytea),
	('sig method 9',      'bin_sig', '\x09200001820db166000000000000000700000001'::bytea),
	('sig 16-bit values', 'bin_sig', '\x01100001820db166000000000000000700000001'::bytea),
	('sig short values',  'bin_sig', '\x01200002820db166000000000000000700000001'::bytea),
	('sig short header',  'bin_sig', '\x0120'::bytea),
	('sig trailing',      'bin_sig', '\x01200001820db16600000000000000070000000100'::bytea),
	('ball ok',           'bin_ball', '\x0123456789abcdef00000007'::bytea),
	('ball radius 99',    'bin_ball', '\x0123456789abcdef00000063'::bytea),
	('ball radius -1',    'bin_ball', '\x0123456789abcdefffffffff'::bytea),
	('jball ok',          'bin_jball', '\x3fe0000000000000' || '\x01200001820db166000000000000000700000001'::bytea),
	('jball NaN',         'bin_jball', '\x7ff8000000000000' || '\x01200001820db166000000000000000700000001'::bytea),
	('jball infinity',    'bin_jball', '\x7ff0000000000000' || '\x01200001820db166000000000000000700000001'::bytea),
	('jball 2',           'bin_jball', '\x4000000000000000' || '\x01200001820db166000000000000000700000001'::bytea)
) v(name, tbl, field);
SELECT * FROM bin_sig;
SELECT * FROM bin_ball;
SELECT * FROM bin_jball;

CREATE FUNCTION pg_temp.input_error(ty text, val text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT %L::%s', val, ty);
	RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLERRM;
END $$;

-- 7. featureless texts: NULL on request, never an error
SELECT simhash(t, featureless => 'null') IS NULL AS null_fp, minhash(t, featureless => 'null') IS NULL AS null_sig
FROM (VALUES (''), ('!!! ??? ...'), ('🎉🎉'), ('the and of')) v(t);
SELECT simhash_agg(h, w) IS NULL AS agg_of_nothing FROM (VALUES (NULL::bigint, 1.0)) v(h, w);

-- a malformed value of megabytes is quoted in the message by its start and length
SELECT length(m) < 300 AS short_message, m ~ '\(10000001 bytes\)' AS says_length
FROM (VALUES ('simhash64'), ('hamming_ball'), ('minhash_sig'), ('jaccard_ball'), ('lsh_query')) t(ty),
	LATERAL (SELECT pg_temp.input_error(ty, 'x' || repeat('z', 10000000)) AS m) e;

-- the session is still fine
SELECT simhash('still here') IS NOT NULL AS alive;
