-- Planner estimates and ANALYZE never trust what they are given.
--
-- Any user can name textfp's selectivity functions as the estimators of an
-- operator of their own, or write a function that returns hamming_ball or
-- jaccard_ball from other arguments; the estimators once read such arguments
-- and statistics as fingerprints and crashed the server.  This file runs in a
-- pg_regress pass of its own (make installcheck-probe), so that a regression
-- takes down only it.  Each query must plan and run; the counts show it did.
CREATE EXTENSION IF NOT EXISTS textfp;
SET client_min_messages = warning;

-- tables with statistics: signatures, fingerprints, and plain columns whose
-- MCVs an estimator must never read as ours
CREATE TABLE probe_sig (id int, sig minhash_sig, x int, s text);
INSERT INTO probe_sig
SELECT g, minhash('probe text ' || (g % 50), k => 16), g % 7, 'w' || (g % 5)
FROM generate_series(1, 2000) g;
CREATE TABLE probe_fp (id int, fp simhash64, x int, s text, b hamming_ball);
INSERT INTO probe_fp
SELECT g, simhash('probe text ' || (g % 50)), g % 7, 'w' || (g % 5),
       hamming_ball(simhash('probe text ' || (g % 50)), 3)
FROM generate_series(1, 2000) g;
CREATE TABLE probe_int (x int, s text, big bigint);
INSERT INTO probe_int SELECT g % 7, 'w' || (g % 5), g % 3 FROM generate_series(1, 1000) g;
ANALYZE probe_sig, probe_fp, probe_int;

-- 1. functions returning our ball types from other arguments
CREATE FUNCTION pg_temp.evil_jb(int, float8) RETURNS jaccard_ball
	LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$;
CREATE FUNCTION pg_temp.evil_jb_text(text, text) RETURNS jaccard_ball
	LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$;
CREATE FUNCTION pg_temp.evil_hb(int, int) RETURNS hamming_ball
	LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$;
CREATE FUNCTION pg_temp.evil_hb_text(text, text) RETURNS hamming_ball
	LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$;
SELECT count(*) FROM probe_sig WHERE sig <@ pg_temp.evil_jb(42, 0.5);
SELECT count(*) FROM probe_sig WHERE pg_temp.evil_jb(42, 0.5) @> sig;
SELECT count(*) FROM probe_sig WHERE sig <@ pg_temp.evil_jb_text('abc', 'def');
SELECT count(*) FROM probe_sig m JOIN probe_int j ON m.sig <@ pg_temp.evil_jb(j.x, 0.5);
SELECT count(*) FROM probe_sig m JOIN probe_int j ON m.sig <@ pg_temp.evil_jb_text(j.s, j.s);
SELECT count(*) FROM probe_fp WHERE fp <@ pg_temp.evil_hb(42, 3);
SELECT count(*) FROM probe_fp WHERE pg_temp.evil_hb(42, 3) @> fp;
SELECT count(*) FROM probe_fp WHERE fp <@ pg_temp.evil_hb_text('abc', 'def');
SELECT count(*) FROM probe_fp m JOIN probe_int j ON m.fp <@ pg_temp.evil_hb(j.x, 3);
SELECT count(*) FROM probe_fp m JOIN probe_int j ON m.fp <@ pg_temp.evil_hb_text(j.s, j.s);

-- 2. same name and signature as our constructors, in another schema: not ours
CREATE FUNCTION pg_temp.hamming_ball(simhash64, integer) RETURNS hamming_ball
	LANGUAGE sql AS $$SELECT NULL::hamming_ball$$;
CREATE FUNCTION pg_temp.jaccard_ball(minhash_sig, float8) RETURNS jaccard_ball
	LANGUAGE sql AS $$SELECT NULL::jaccard_ball$$;
SELECT count(*) FROM probe_fp WHERE fp <@ pg_temp.hamming_ball('0000000000000000', 3);
SELECT count(*) FROM probe_sig WHERE sig <@ pg_temp.jaccard_ball(minhash('probe text 1', k => 16), 0.5);

-- 3. operators of someone else's on other types that name our estimators
CREATE FUNCTION pg_temp.int_text(int, text) RETURNS boolean
	LANGUAGE sql AS $$SELECT $1::text = $2$$;
CREATE FUNCTION pg_temp.text_text(text, text) RETURNS boolean
	LANGUAGE sql AS $$SELECT $1 = $2$$;
CREATE FUNCTION pg_temp.sig_text(minhash_sig, text) RETURNS boolean
	LANGUAGE sql AS $$SELECT true$$;
CREATE FUNCTION pg_temp.fp_int(simhash64, int) RETURNS boolean
	LANGUAGE sql AS $$SELECT true$$;
CREATE OPERATOR pg_temp.### (LEFTARG = int, RIGHTARG = text, FUNCTION = pg_temp.int_text,
	RESTRICT = simhash64_hamming_sel, JOIN = simhash64_hamming_joinsel);
CREATE OPERATOR pg_temp.#@# (LEFTARG = text, RIGHTARG = text, FUNCTION = pg_temp.text_text,
	RESTRICT = minhash_sig_jaccard_sel, JOIN = minhash_sig_jaccard_joinsel);
CREATE OPERATOR pg_temp.#%# (LEFTARG = minhash_sig, RIGHTARG = text, FUNCTION = pg_temp.sig_text,
	RESTRICT = minhash_sig_jaccard_sel, JOIN = minhash_sig_jaccard_joinsel);
CREATE OPERATOR pg_temp.#~# (LEFTARG = simhash64, RIGHTARG = int, FUNCTION = pg_temp.fp_int,
	RESTRICT = simhash64_hamming_sel, JOIN = simhash64_hamming_joinsel);
SELECT count(*) FROM probe_int WHERE x OPERATOR(pg_temp.###) '3';
SELECT count(*) FROM probe_int WHERE s OPERATOR(pg_temp.#@#) 'w1';
SELECT count(*) FROM probe_int a JOIN probe_int b ON a.x OPERATOR(pg_temp.###) b.s;
SELECT count(*) FROM probe_int a JOIN probe_int b ON a.s OPERATOR(pg_temp.#@#) b.s;
SELECT count(*) FROM probe_sig WHERE sig OPERATOR(pg_temp.#%#) 'w1';
SELECT count(*) FROM probe_sig a JOIN probe_int b ON a.sig OPERATOR(pg_temp.#%#) b.s;
SELECT count(*) FROM probe_fp WHERE fp OPERATOR(pg_temp.#~#) 3;
SELECT count(*) FROM probe_fp a JOIN probe_int b ON a.fp OPERATOR(pg_temp.#~#) b.x;

-- 4. domains over our types: their statistics are ours, read as such
CREATE DOMAIN fp_dom AS simhash64;
CREATE DOMAIN sig_dom AS minhash_sig;
CREATE TABLE probe_dom (fp fp_dom, sig sig_dom);
INSERT INTO probe_dom SELECT fp, sig FROM probe_fp JOIN probe_sig USING (id);
ANALYZE probe_dom;
SELECT count(*) FROM pg_stats WHERE tablename = 'probe_dom' AND most_common_vals IS NOT NULL;
SELECT count(*) FROM probe_dom WHERE fp % simhash('probe text 3');
SELECT count(*) FROM probe_dom WHERE simhash('probe text 3') % fp;
SELECT count(*) FROM probe_dom WHERE fp <@ hamming_ball(simhash('probe text 3'), 5);
SELECT count(*) FROM probe_dom WHERE sig % minhash('probe text 3', k => 16);
SELECT count(*) FROM probe_dom WHERE sig <@ jaccard_ball(minhash('probe text 3', k => 16), 0.6);
SELECT count(*) FROM probe_dom a JOIN probe_dom b ON a.fp % b.fp WHERE a.fp = simhash('probe text 4');
SELECT count(*) FROM probe_dom a JOIN probe_dom b ON a.sig % b.sig WHERE a.sig = minhash('probe text 4', k => 16);

-- 5. casts and expressions: a bigint column's statistics are not fingerprints
CREATE INDEX probe_int_fp ON probe_int ((big::simhash64));
ANALYZE probe_int;
SELECT count(*) FROM probe_int WHERE big::simhash64 % '0000000000000001';
SELECT count(*) FROM probe_int WHERE big::simhash64 <@ hamming_ball('0000000000000001', 1);
SELECT count(*) FROM probe_fp f JOIN probe_int i ON f.fp % i.big::simhash64;

-- 6. NULL constants, on either side and inside the constructors
SELECT count(*) FROM probe_fp WHERE fp % NULL::simhash64;
SELECT count(*) FROM probe_fp WHERE NULL::simhash64 % fp;
SELECT count(*) FROM probe_fp WHERE fp <@ NULL::hamming_ball;
SELECT count(*) FROM probe_fp WHERE NULL::hamming_ball @> fp;
SELECT count(*) FROM probe_fp WHERE fp <@ hamming_ball(NULL, 3);
SELECT count(*) FROM probe_fp WHERE fp <@ hamming_ball('0000000000000000', NULL);
SELECT count(*) FROM probe_sig WHERE sig % NULL::minhash_sig;
SELECT count(*) FROM probe_sig WHERE sig <@ NULL::jaccard_ball;
SELECT count(*) FROM probe_sig WHERE sig <@ jaccard_ball(NULL, 0.5);
SELECT count(*) FROM probe_sig WHERE sig <@ jaccard_ball(minhash('x', k => 16), NULL);

-- 7. arguments the constructors would refuse at run time still plan
EXPLAIN (COSTS OFF) SELECT * FROM probe_fp a JOIN probe_fp b ON a.fp <@ hamming_ball(b.fp, 1000);
EXPLAIN (COSTS OFF) SELECT * FROM probe_fp a JOIN probe_fp b ON a.fp <@ hamming_ball(b.fp, -1);
EXPLAIN (COSTS OFF) SELECT * FROM probe_sig a JOIN probe_sig b ON a.sig <@ jaccard_ball(b.sig, 'NaN');
EXPLAIN (COSTS OFF) SELECT * FROM probe_sig a JOIN probe_sig b ON a.sig <@ jaccard_ball(b.sig, 7);
EXPLAIN (COSTS OFF) SELECT * FROM probe_sig a JOIN probe_sig b ON a.sig <@ jaccard_ball(b.sig, '-Infinity');

-- 8. parameters and generic plans
SET plan_cache_mode = force_generic_plan;
PREPARE p_fp(simhash64, int) AS SELECT count(*) FROM probe_fp WHERE fp <@ hamming_ball($1, $2);
EXECUTE p_fp(simhash('probe text 3'), 5);
PREPARE p_near(simhash64) AS SELECT count(*) FROM probe_fp WHERE fp % $1;
EXECUTE p_near(simhash('probe text 3'));
PREPARE p_sig(minhash_sig, float8) AS SELECT count(*) FROM probe_sig WHERE sig <@ jaccard_ball($1, $2);
EXECUTE p_sig(minhash('probe text 3', k => 16), 0.5);
RESET plan_cache_mode;

-- 9. join columns: fingerprints, balls, signatures
SELECT count(*) FROM probe_fp a JOIN probe_fp b ON a.fp % b.fp WHERE a.id < 30;
SELECT count(*) FROM probe_fp a JOIN probe_fp b ON a.fp <@ b.b WHERE a.id < 30;
SELECT count(*) FROM probe_fp a JOIN probe_fp b ON b.b @> a.fp WHERE a.id < 30;
SELECT count(*) FROM probe_fp a JOIN probe_fp b ON a.fp <@ hamming_ball(b.fp, 2) WHERE a.id < 30;
SELECT count(*) FROM probe_sig a JOIN probe_sig b ON a.sig <@ jaccard_ball(b.sig, 0.9) WHERE a.id < 30;

-- 10. a column whose type changed keeps no statistics of the old type
CREATE TABLE probe_alter (v bigint);
INSERT INTO probe_alter SELECT g % 3 FROM generate_series(1, 500) g;
ANALYZE probe_alter;
ALTER TABLE probe_alter ALTER COLUMN v TYPE simhash64 USING v::simhash64;
SELECT count(*) FROM probe_alter WHERE v % '0000000000000001';
ANALYZE probe_alter;
SELECT count(*) FROM probe_alter WHERE v % '0000000000000001';

DROP TABLE probe_sig, probe_fp, probe_int, probe_dom, probe_alter;
DROP DOMAIN fp_dom, sig_dom;
