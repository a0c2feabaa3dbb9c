-- table.sql: tracked table :tbl, a copy of tk_docs's columns that a real table would have
-- (key, site, time, text; the corpus's labels stay in tk_docs).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SELECT textfp_untrack(tgrelid::regclass) FROM pg_trigger WHERE tgrelid = to_regclass(:'tbl') AND tgname = 'textfp_track' \g /dev/null
DROP TABLE IF EXISTS :tbl;
CREATE TABLE :tbl (id bigint PRIMARY KEY, site integer NOT NULL, published_at timestamptz NOT NULL, body text NOT NULL);
INSERT INTO :tbl SELECT id, site, published_at, body FROM tk_docs ORDER BY id;
VACUUM ANALYZE :tbl;
