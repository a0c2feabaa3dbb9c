-- textfp_dedup: every value it writes passes the column's domain; every
-- column it reads or writes in the new row is a plain column; it fires on
-- INSERT and UPDATE only; its pipeline defaults are those of simhash() and
-- minhash() as declared in SQL.
SET client_min_messages = warning;
CREATE TABLE texts (n int PRIMARY KEY, body text);
INSERT INTO texts VALUES
 (1, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight'),
 (2, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight!'),
 (3, 'Local bakery wins national prize for its sourdough, the owner thanks customers and staff for years of support');

-- 1. Domains on the columns the trigger writes: the fingerprint (NULL for a
-- featureless or NULL text) and the mark (a key, or NULL without a match).
-- The INSERTs give the columns values of their own, which the trigger
-- overwrites.
CREATE DOMAIN fp_required AS simhash64 NOT NULL;
CREATE DOMAIN fp_never AS simhash64 CHECK (VALUE IS NULL);
CREATE DOMAIN sig_required AS minhash_sig NOT NULL;
CREATE DOMAIN negative_id AS int CHECK (VALUE < 0);
CREATE DOMAIN id_required AS int NOT NULL;
CREATE TABLE d_fp (id int PRIMARY KEY, body text, fp fp_required);
CREATE INDEX ON d_fp USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON d_fp FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
INSERT INTO d_fp SELECT 1, body, '0000000000000000' FROM texts WHERE n = 1;
INSERT INTO d_fp VALUES (2, '!!!', '0000000000000000');
UPDATE d_fp SET body = NULL WHERE id = 1;
SELECT id, fp IS NULL AS fp_null FROM d_fp ORDER BY id;
CREATE TABLE d_check (id int PRIMARY KEY, body text, fp fp_never);
CREATE INDEX ON d_check USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON d_check FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
INSERT INTO d_check SELECT 1, body FROM texts WHERE n = 1;
INSERT INTO d_check VALUES (2, '...');
SELECT id, fp IS NULL AS fp_null FROM d_check ORDER BY id;
CREATE TABLE d_sig (id int PRIMARY KEY, body text, sig sig_required);
CREATE INDEX ON d_sig USING gin (sig gin_minhash_ops) WITH (fastupdate = off);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON d_sig FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=sig', 'key=id', 'threshold=0.7', 'k=16');
INSERT INTO d_sig SELECT 1, body, minhash('x', 16) FROM texts WHERE n = 1;
INSERT INTO d_sig VALUES (2, '', minhash('x', 16));
SELECT id, sig IS NULL AS sig_null FROM d_sig ORDER BY id;
CREATE TABLE d_mark (id int PRIMARY KEY, body text, fp simhash64, duplicate_of negative_id);
CREATE INDEX ON d_mark USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON d_mark FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'mode=mark');
INSERT INTO d_mark SELECT -1, body FROM texts WHERE n = 1;
INSERT INTO d_mark SELECT 2, body FROM texts WHERE n = 2;    -- marked -1
INSERT INTO d_mark SELECT 5, body FROM texts WHERE n = 3;
INSERT INTO d_mark SELECT 6, body FROM texts WHERE n = 3;    -- would be marked 5
SELECT id, duplicate_of FROM d_mark ORDER BY id;
CREATE TABLE d_mark_required (id int PRIMARY KEY, body text, fp simhash64, duplicate_of id_required);
CREATE INDEX ON d_mark_required USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON d_mark_required FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'mode=mark');
INSERT INTO d_mark_required VALUES (1, (SELECT body FROM texts WHERE n = 1), NULL, 1);
SELECT id, duplicate_of FROM d_mark_required ORDER BY id;
DROP TABLE d_fp, d_check, d_sig, d_mark, d_mark_required;
DROP DOMAIN fp_required, fp_never, sig_required, negative_id, id_required;

-- 2. Generated columns are computed after BEFORE triggers: the trigger would
-- read NULL (or the old value) in a generated text or scope column and let
-- every duplicate in, and what it wrote into a generated mark column would
-- be overwritten.  Refused at the first call, like a generated fingerprint.
CREATE TABLE gen (id int PRIMARY KEY, raw text, body text GENERATED ALWAYS AS (lower(raw)) STORED,
                  site int, site_parity int GENERATED ALWAYS AS (site % 2) STORED,
                  fp simhash64, duplicate_of int GENERATED ALWAYS AS (-id) STORED, link int);
CREATE INDEX ON gen USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON gen FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
-- two near duplicates: both stored before the fix
INSERT INTO gen (id, raw, site) SELECT n, body, 1 FROM texts WHERE n IN (1, 2);
SELECT count(*) AS rows_in FROM gen;
DROP TRIGGER dedup ON gen;
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON gen FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=raw', 'fingerprint=fp', 'key=id', 'threshold=3', 'scope=site, site_parity');
INSERT INTO gen (id, raw, site) SELECT 10 + n, body, 1 FROM texts WHERE n IN (1, 2);
SELECT count(*) AS rows_in FROM gen;
DROP TRIGGER dedup ON gen;
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON gen FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=raw', 'fingerprint=fp', 'key=id', 'threshold=3', 'mode=mark', 'scope=link');
INSERT INTO gen (id, raw, link) SELECT 20 + n, body, 1 FROM texts WHERE n IN (1, 2);
SELECT id, duplicate_of FROM gen WHERE link = 1 ORDER BY id;
DROP TRIGGER dedup ON gen;
-- a generated key is read only in stored rows, which hold its value: allowed
CREATE TABLE gen_key (n int, id int GENERATED ALWAYS AS (n * 10) STORED, body text, fp simhash64, duplicate_of int);
CREATE INDEX ON gen_key USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON gen_key FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'mode=mark');
INSERT INTO gen_key (n, body) SELECT n, body FROM texts WHERE n IN (1, 2);
SELECT id, duplicate_of FROM gen_key ORDER BY id;
DROP TABLE gen, gen_key;

-- 3. DELETE in the declaration: a deleted row would be checked as a new one
-- and found a near duplicate of itself.  Refused, whichever event comes first.
CREATE TABLE del (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX ON del USING mih (fp);
INSERT INTO del SELECT n, body, simhash(body, 'null') FROM texts;
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE OR DELETE ON del FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
DELETE FROM del WHERE id = 3;
INSERT INTO del VALUES (4, 'a text of its own, about the weather in the mountains this week');
SELECT id FROM del ORDER BY id;
DROP TABLE del;

-- 4. The pipeline defaults are read from the SQL functions' declarations:
-- with another default seed declared, the trigger's fingerprints follow it
-- (rolled back: the extension's functions stay as installed).
BEGIN;
CREATE OR REPLACE FUNCTION simhash(doc text, featureless text, ngram integer DEFAULT 2, shingle integer DEFAULT 1,
	tokenizer text DEFAULT 'ngram', simplify boolean DEFAULT false, stopwords text DEFAULT 'builtin',
	user_stopwords text[] DEFAULT '{}', weighting text DEFAULT 'tf', seed bigint DEFAULT 7,
	numbers text DEFAULT 'keep', keywords integer DEFAULT 0, idf idf_model DEFAULT 'none', chinese text DEFAULT 'none')
RETURNS simhash64 AS '$libdir/textfp', 'textfp_simhash_text_featureless' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION minhash(doc text, featureless text, k integer DEFAULT 32, method text DEFAULT 'oph',
	ngram integer DEFAULT 2, shingle integer DEFAULT 2, tokenizer text DEFAULT 'ngram', simplify boolean DEFAULT false,
	stopwords text DEFAULT 'none', user_stopwords text[] DEFAULT '{}', seed bigint DEFAULT 7, chinese text DEFAULT 'none')
RETURNS minhash_sig AS '$libdir/textfp', 'textfp_minhash_text_featureless' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TABLE sd (id int PRIMARY KEY, body text, fp simhash64, sig minhash_sig);
CREATE INDEX ON sd USING mih (fp);
CREATE INDEX ON sd USING gin (sig gin_minhash_ops) WITH (fastupdate = off);
CREATE TRIGGER a_fp BEFORE INSERT OR UPDATE ON sd FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
CREATE TRIGGER b_sig BEFORE INSERT OR UPDATE ON sd FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=sig', 'key=id', 'threshold=0.9', 'method=oph');
INSERT INTO sd (id, body) SELECT n, body FROM texts WHERE n IN (1, 3);
SELECT id, fp = simhash(body, 'null') AS fp_as_declared, fp = simhash(body, 'null', seed => 0) AS fp_seed_0,
       sig = minhash(body, 'null') AS sig_as_declared, minhash_info(sig)
FROM sd ORDER BY id;
ROLLBACK;
-- an option of the other method, an unknown one, a bad value: named at the first call
CREATE TABLE opt (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX ON opt USING mih (fp);
CREATE TRIGGER t1 BEFORE INSERT OR UPDATE ON opt FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'k=64');
INSERT INTO opt VALUES (1, 'x');
DROP TRIGGER t1 ON opt;
CREATE TRIGGER t2 BEFORE INSERT OR UPDATE ON opt FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'featureless=zero');
INSERT INTO opt VALUES (1, 'x');
DROP TRIGGER t2 ON opt;
CREATE TRIGGER t3 BEFORE INSERT OR UPDATE ON opt FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'seed=many');
INSERT INTO opt VALUES (1, 'x');
DROP TRIGGER t3 ON opt;
CREATE TRIGGER t4 BEFORE INSERT OR UPDATE ON opt FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'simplify=perhaps');
INSERT INTO opt VALUES (1, 'x');
DROP TRIGGER t4 ON opt;
CREATE TRIGGER t5 BEFORE INSERT OR UPDATE ON opt FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'seed=1', 'seed=2');
INSERT INTO opt VALUES (1, 'x');
DROP TRIGGER t5 ON opt;
-- every option given: the stored value is simhash()'s with the same options
CREATE TRIGGER t6 BEFORE INSERT OR UPDATE ON opt FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'ngram=3', 'shingle=2',
		'tokenizer=ngram', 'simplify=true', 'stopwords=none', 'user_stopwords={storm,bridge}', 'weighting=binary', 'seed=-5');
INSERT INTO opt SELECT n, body FROM texts WHERE n IN (1, 3);
SELECT id, fp = simhash(body, 'null', ngram => 3, shingle => 2, tokenizer => 'ngram', simplify => true, stopwords => 'none',
                        user_stopwords => '{storm,bridge}', weighting => 'binary', seed => -5) AS same
FROM opt ORDER BY id;
DROP TABLE opt, texts;

-- scope and key that guard nothing: an empty scope name, a column named
-- twice, the fingerprint or the text column as the key
CREATE TABLE sk (id int PRIMARY KEY, site int, body text, fp simhash64);
CREATE INDEX ON sk USING mih (fp);
CREATE TRIGGER d BEFORE INSERT OR UPDATE ON sk FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'scope=,');
INSERT INTO sk VALUES (1, 1, 'a text about the weather');
CREATE OR REPLACE TRIGGER d BEFORE INSERT OR UPDATE ON sk FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'scope=site, ');
INSERT INTO sk VALUES (1, 1, 'a text about the weather');
CREATE OR REPLACE TRIGGER d BEFORE INSERT OR UPDATE ON sk FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'scope=site,site');
INSERT INTO sk VALUES (1, 1, 'a text about the weather');
CREATE OR REPLACE TRIGGER d BEFORE INSERT OR UPDATE ON sk FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=fp', 'threshold=3');
INSERT INTO sk VALUES (1, 1, 'a text about the weather');
CREATE OR REPLACE TRIGGER d BEFORE INSERT OR UPDATE ON sk FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=body', 'threshold=3');
INSERT INTO sk VALUES (1, 1, 'a text about the weather');
-- a scope with spaces around its names is fine
CREATE OR REPLACE TRIGGER d BEFORE INSERT OR UPDATE ON sk FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'scope= site ');
INSERT INTO sk VALUES (1, 1, 'a text about the weather');
DROP TABLE sk;
