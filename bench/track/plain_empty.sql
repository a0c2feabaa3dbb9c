-- plain_empty.sql: plain.sql's plain table :plain, but the earlier rows' bodies left empty (disk space; the
-- inserted rows carry theirs): the store's fingerprints of :tbl in a btree-indexed column, no trigger, and a
-- check that they are :fpcall's values for the first 200 rows (computed from :tbl's bodies).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
DROP TABLE IF EXISTS :plain;
CREATE TABLE :plain (id bigint PRIMARY KEY, site integer NOT NULL, published_at timestamptz NOT NULL, body text NOT NULL,
	fp minhash_sig);
INSERT INTO :plain SELECT t.id, t.site, t.published_at, '', s.fp FROM :tbl t JOIN :store s ON s.key = t.id ORDER BY t.id;
CREATE INDEX ON :plain (fp);
VACUUM ANALYZE :plain;
SELECT count(*) FILTER (WHERE s.fp IS DISTINCT FROM x.fp) AS differ, count(*) AS checked
FROM (SELECT * FROM :tbl ORDER BY id LIMIT 200) t JOIN :store s ON s.key = t.id,
	LATERAL (SELECT :fpcall AS fp FROM (SELECT t.body) b(body)) x;
SELECT pg_size_pretty(pg_total_relation_size(:'plain')) AS plain_total,
	(SELECT pg_size_pretty(pg_relation_size(i.indexrelid)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	 WHERE i.indrelid = :'plain'::regclass AND c.relname LIKE '%fp%') AS fp_btree;
