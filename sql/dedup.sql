-- textfp_dedup(): the near-duplicate trigger, single session (concurrency is
-- in specs/ and test/t/020_dedup_stress.pl).
SET client_min_messages = warning;

-- errors as one line: SQLSTATE, constraint, detail
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; det text; con text;
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, det = PG_EXCEPTION_DETAIL, con = CONSTRAINT_NAME;
	RETURN st || ' ' || coalesce(nullif(con, ''), '-') || ': ' || det;
END $$;

-- texts: a base article and edits of it
CREATE TABLE src (n int, body text);
INSERT INTO src VALUES
 (1, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight'),
 (2, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight!'),
 (3, 'Local bakery wins national prize for its sourdough, the owner thanks customers and staff for years of support'),
 (4, 'Council approves new cycling lanes along the river, construction to begin in spring and finish by the autumn'),
 (5, '  STORM closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight.  '),
 (6, 'Storm closes the harbour bridge for three days while engineers inspect cables damaged by strong winds overnight');
SELECT a.n, b.n, hamming_distance(simhash(a.body), simhash(b.body)) FROM src a, src b WHERE a.n < b.n ORDER BY 1, 2;

CREATE TABLE posts (id int PRIMARY KEY, site int, body text, fp simhash64, duplicate_of int);

-- no index yet: the trigger says which one to make
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON posts FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'scope=site');
INSERT INTO posts (id, site, body) SELECT n, 1, body FROM src WHERE n = 1;
CREATE INDEX posts_fp ON posts USING mih (fp);

-- reject: 23505 with the trigger as the constraint, DETAIL and HINT
INSERT INTO posts (id, site, body) SELECT n, 1, body FROM src WHERE n = 1;
INSERT INTO posts (id, site, body) SELECT 2, 1, body FROM src WHERE n = 2;
SELECT try($$INSERT INTO posts (id, site, body) SELECT 2, 1, body FROM src WHERE n = 2$$);
-- other texts and other sites pass
INSERT INTO posts (id, site, body) SELECT n, 1, body FROM src WHERE n IN (3, 4);
INSERT INTO posts (id, site, body) SELECT 12, 2, body FROM src WHERE n = 2;
-- the stored fingerprint is simhash(body, 'null')
SELECT id, site, fp, fp = simhash(body, 'null') AS same FROM posts ORDER BY id;

-- the session's threshold does not weaken the guard
SET textfp.hamming_threshold = 0;
SELECT try($$INSERT INTO posts (id, site, body) SELECT 5, 1, body FROM src WHERE n = 5$$);
RESET textfp.hamming_threshold;

-- NULL scope is a scope of its own: near duplicates within it are rejected
INSERT INTO posts (id, site, body) SELECT 20, NULL, body FROM src WHERE n = 1;
SELECT try($$INSERT INTO posts (id, site, body) SELECT 21, NULL, body FROM src WHERE n = 2$$);

-- featureless texts and NULL texts never match
INSERT INTO posts (id, site, body) VALUES (30, 1, '!!!'), (31, 1, '...'), (32, 1, ''), (33, 1, NULL);
SELECT id, fp IS NULL AS no_fp FROM posts WHERE id >= 30 ORDER BY id;

-- near duplicates inside one statement: multi-row INSERT, INSERT ... SELECT
SELECT try($$INSERT INTO posts (id, site, body) VALUES (40, 3, (SELECT body FROM src WHERE n = 1)), (41, 3, (SELECT body FROM src WHERE n = 2))$$);
SELECT try($$INSERT INTO posts (id, site, body) SELECT 50 + n, 4, body FROM src WHERE n IN (1, 6)$$);
SELECT count(*) FROM posts WHERE site IN (3, 4);

-- COPY goes row by row through the trigger
COPY posts (id, site, body) FROM STDIN;
60	5	Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight
61	5	Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight!
\.
SELECT count(*) FROM posts WHERE site = 5;

-- UPDATE: a row never matches itself; changing text or scope is checked again
UPDATE posts SET body = body || ' ' WHERE id = 1;
UPDATE posts SET body = (SELECT body FROM src WHERE n = 2) WHERE id = 1;
SELECT try($$UPDATE posts SET body = (SELECT body FROM src WHERE n = 1) WHERE id = 3$$);
SELECT try($$UPDATE posts SET site = 2 WHERE id = 1$$);
UPDATE posts SET site = 6 WHERE id = 1;
-- an UPDATE that writes the fingerprint gets it recomputed
UPDATE posts SET fp = '0000000000000000' WHERE id = 3;
SELECT id, fp = simhash(body, 'null') AS same FROM posts WHERE id IN (1, 3) ORDER BY id;
UPDATE posts SET site = 1 WHERE id = 1;

-- the plan of the lookup is an index plan at the 1,000th row of a session
CREATE TABLE many (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX many_fp ON many USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON many FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
SELECT pg_stat_force_next_flush();
SELECT idx_scan AS before FROM pg_stat_user_indexes WHERE indexrelname = 'many_fp' \gset
DO $$
BEGIN
	FOR i IN 1..1000 LOOP
		INSERT INTO many VALUES (i, 'row ' || md5(i::text) || ' ' || md5((i * 7)::text), NULL);
	END LOOP;
END $$;
ANALYZE many;
INSERT INTO many VALUES (1001, 'the thousand-and-first row ' || md5('x'), NULL);
SELECT pg_stat_force_next_flush();
SELECT idx_scan - :before AS index_lookups FROM pg_stat_user_indexes WHERE indexrelname = 'many_fp';
-- even with every index path but the one it needs disabled by the session
SET enable_indexscan = off; SET enable_bitmapscan = off;
SELECT try($$INSERT INTO many SELECT 2000, body, NULL FROM many WHERE id = 500$$);
RESET enable_indexscan; RESET enable_bitmapscan;

-- mark: the nearest match's key, ties to the smallest key
CREATE TABLE marked (id int PRIMARY KEY, body text, fp simhash64, duplicate_of int);
CREATE INDEX ON marked USING gist (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON marked FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=mark');
INSERT INTO marked (id, body) SELECT 10 - n, body FROM src WHERE n IN (1, 3);
INSERT INTO marked (id, body) SELECT 100, body FROM src WHERE n = 1;  -- exact: 9 at distance 0
INSERT INTO marked (id, body) SELECT 101, body FROM src WHERE n = 2;  -- 9 and 100 tie at distance 0: 9
INSERT INTO marked (id, body) SELECT 102, body FROM src WHERE n = 4;
INSERT INTO marked (id, body) SELECT 5, body FROM src WHERE n = 6;    -- near 9, farther
INSERT INTO marked (id, body) SELECT 103, body FROM src WHERE n = 5;  -- 9 at 0 beats 5 (a smaller key, farther)
SELECT id, duplicate_of FROM marked ORDER BY id;
UPDATE marked SET body = 'something else entirely, about the weather in the mountains this week' WHERE id = 101;
SELECT id, duplicate_of FROM marked WHERE id = 101;

-- skip: the answer to ON CONFLICT DO NOTHING
CREATE TABLE skipped (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX ON skipped USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON skipped FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=skip');
INSERT INTO skipped SELECT n, body FROM src RETURNING id;
INSERT INTO skipped SELECT 6, body FROM src WHERE n = 6 ON CONFLICT DO NOTHING RETURNING id;
UPDATE skipped SET body = (SELECT body FROM src WHERE n = 1) WHERE id = 3 RETURNING id;
SELECT id FROM skipped ORDER BY id;

-- MinHash: exact check through gin_minhash_ops; non-default pipeline options
CREATE TABLE mh (id bigint PRIMARY KEY, body text, sig minhash_sig);
CREATE INDEX ON mh USING gin (sig gin_minhash_ops) WITH (fastupdate = off);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON mh FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=sig', 'key=id', 'threshold=0.6', 'k=64', 'ngram=3', 'seed=7');
INSERT INTO mh SELECT n, body FROM src WHERE n IN (1, 3, 4);
SELECT try($$INSERT INTO mh SELECT 2, body FROM src WHERE n = 2$$);
SELECT id, sig = minhash(body, 'null', k => 64, ngram => 3, seed => 7) AS same FROM mh ORDER BY id;
SET textfp.jaccard_threshold = 1;
SELECT try($$INSERT INTO mh SELECT 5, body FROM src WHERE n = 5$$);
RESET textfp.jaccard_threshold;

-- locks=pairs: finer lock keys, the same answers
CREATE TABLE paired (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX ON paired USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON paired FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'locks=pairs');
INSERT INTO paired SELECT n, body FROM src WHERE n IN (1, 3, 4);
SELECT try($$INSERT INTO paired SELECT 6, body FROM src WHERE n = 6$$);

-- identifiers quoted, values as parameters, whatever the search_path
CREATE SCHEMA "Odd Schema";
CREATE TABLE "Odd Schema"."My Posts" ("Post Id" text PRIMARY KEY, "Body; DROP TABLE src" text, "F P" simhash64, "Site""s" text);
CREATE INDEX ON "Odd Schema"."My Posts" USING mih ("F P");
CREATE TRIGGER "Guard ""it""" BEFORE INSERT OR UPDATE ON "Odd Schema"."My Posts" FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=Body; DROP TABLE src', 'fingerprint=F P', 'key=Post Id', 'threshold=10', 'scope=Site"s');
SET search_path = "Odd Schema";
INSERT INTO "My Posts" VALUES ('a''); DROP TABLE src; --', 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight', NULL, 'x''y');
SELECT public.try($$INSERT INTO "My Posts" VALUES ('b', 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight!', NULL, 'x''y')$$);
RESET search_path;
SELECT count(*) FROM src;

-- a writer with INSERT privilege only is guarded, and row-level security does not hide duplicates
CREATE ROLE regress_dedup_writer;
CREATE TABLE secret (id serial PRIMARY KEY, owner text DEFAULT current_user, body text, fp simhash64);
CREATE INDEX ON secret USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON secret FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10');
INSERT INTO secret (body) SELECT body FROM src WHERE n = 1;
ALTER TABLE secret ENABLE ROW LEVEL SECURITY;
CREATE POLICY mine ON secret USING (owner = current_user) WITH CHECK (true);
GRANT INSERT ON secret TO regress_dedup_writer;
GRANT USAGE ON SEQUENCE secret_id_seq TO regress_dedup_writer;
SET ROLE regress_dedup_writer;
INSERT INTO secret (body) SELECT 'a text of its own about the harbour museum and its new wing, opening in May';
INSERT INTO secret (body) VALUES ('Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight!');
RESET ROLE;
GRANT SELECT ON secret TO regress_dedup_writer;
SET ROLE regress_dedup_writer;
SELECT count(*) AS rows_the_writer_sees FROM secret;
INSERT INTO secret (body) VALUES ('Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight!');
RESET ROLE;
SELECT id, owner = 'regress_dedup_writer' AS by_writer FROM secret ORDER BY id;
DROP TABLE secret;
DROP ROLE regress_dedup_writer;

-- misconfigurations, named at the first call
CREATE TABLE bad (id int, body text, fp simhash64, sig minhash_sig, n int, g simhash64 GENERATED ALWAYS AS (simhash(body)) STORED);
CREATE INDEX ON bad USING mih (fp);
CREATE TRIGGER t1 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t1 ON bad;
CREATE TRIGGER t2 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=40');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t2 ON bad;
CREATE TRIGGER t3 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=n', 'key=id', 'threshold=3');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t3 ON bad;
CREATE TRIGGER t4 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=g', 'key=id', 'threshold=3');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t4 ON bad;
CREATE TRIGGER t5 BEFORE INSERT ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t5 ON bad;
CREATE TRIGGER t6 BEFORE INSERT OR UPDATE OF body ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t6 ON bad;
CREATE TRIGGER t7 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'ngram=99');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t7 ON bad;
CREATE TRIGGER t8 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'colour=red');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t8 ON bad;
CREATE TRIGGER t9 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=sig', 'key=id', 'threshold=0.5');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t9 ON bad;
CREATE TRIGGER t10 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'mode=mark');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t10 ON bad;
CREATE TRIGGER t11 AFTER INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t11 ON bad;
CREATE TRIGGER t13 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=31', 'locks=pairs');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP TRIGGER t13 ON bad;
SELECT textfp_dedup();
-- dropping the index is noticed at the next call
CREATE TRIGGER t12 BEFORE INSERT OR UPDATE ON bad FOR EACH ROW EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
INSERT INTO bad (id, body) VALUES (1, 'x');
DROP INDEX bad_fp_idx;
INSERT INTO bad (id, body) VALUES (2, 'y');
