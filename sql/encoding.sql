-- non-UTF8 databases: LATIN1 text is converted, SQL_ASCII bytes must be UTF-8
\set orig_db :DBNAME
SELECT current_setting('server_encoding') AS utf8_db;
SELECT simhash('Café crème brûlée') AS utf8_fp;
SELECT textfp_normalize('ÀÉÎ Straße') AS utf8_norm;
SELECT simhash('Café crème'::tsvector) AS utf8_tsvector_fp;

CREATE DATABASE textfp_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
CREATE DATABASE textfp_sqlascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;

\c textfp_latin1
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
-- the same text gives the same fingerprint as in a UTF-8 database
SELECT simhash('Café crème brûlée') AS latin1_fp;
SELECT textfp_normalize('ÀÉÎ Straße') AS latin1_norm;
SELECT feature FROM textfp_features('Café crème', stopwords => 'none');
-- normalising can produce characters LATIN1 cannot hold: a clear error
SELECT textfp_normalize('µ');
SELECT simhash('µ') IS NOT NULL AS fingerprint_still_ok;
-- the English lists are ASCII and print here; Chinese words cannot
SELECT count(*) AS en_words FROM textfp_stopwords('en');
SELECT count(*) AS snowball_words FROM textfp_stopwords('snowball');
SELECT count(*) FROM textfp_stopwords('zh');
-- a tracked table whose name LATIN1 holds but ASCII does not: the
-- registration is found through its trigger's arguments, which are in the
-- database's encoding (they were decoded as UTF-8, and every call failed)
SET client_min_messages = warning;
CREATE TABLE "artículos" (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
CALL textfp_track('"artículos"', 'body', 'id', 'at', method => 'simhash');
SELECT textfp_track_set('"artículos"', dedup => 'reject');
INSERT INTO "artículos" VALUES (1, '2025-01-01', 'the storm closed the harbour bridge for two days while engineers inspect the cables');
INSERT INTO "artículos" VALUES (2, '2025-01-02', 'the storm closed the harbour bridge for two days while engineers inspect the cables!');
SELECT tbl, store, dedup, locks FROM textfp_tracked();
SELECT key, story_id FROM textfp_stories('"artículos"') ORDER BY 1;
RESET client_min_messages;

\c textfp_sqlascii
SET client_encoding = 'SQL_ASCII';
CREATE EXTENSION textfp;
-- valid UTF-8 bytes give the same fingerprint as in a UTF-8 database
SELECT simhash(convert_from('\x436166c3a9206372c3a86d65206272c3bb6cc3a965'::bytea, 'SQL_ASCII')) AS sqlascii_fp;
-- bytes that are not UTF-8 (here LATIN1 and a stray continuation byte) are
-- refused, not fingerprinted as garbage
SELECT simhash(convert_from('\x436166e9'::bytea, 'SQL_ASCII'));
SELECT simhash(convert_from('\x4361668a'::bytea, 'SQL_ASCII'));
SELECT textfp_normalize(convert_from('\x436166e9'::bytea, 'SQL_ASCII'));
-- and so does simhash(tsvector)
SELECT simhash(convert_from('\x436166c3a9206372c3a86d65'::bytea, 'SQL_ASCII')::tsvector) AS tsvector_fp;
SELECT simhash(convert_from('\x436166e9206372c3a86d65'::bytea, 'SQL_ASCII')::tsvector);

\c :orig_db
DROP DATABASE textfp_latin1;
DROP DATABASE textfp_sqlascii;
