-- plain.sql: the plain table :plain next to tracked table :tbl: the same rows with the same
-- fingerprint (taken from the store, which holds :fpcall's value) in a btree-indexed column,
-- no trigger.  The insert runs compute :fpcall per row into it.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
DROP TABLE IF EXISTS :plain;
CREATE TABLE :plain (id bigint PRIMARY KEY, site integer NOT NULL, published_at timestamptz NOT NULL, body text NOT NULL,
	fp :fptype);
INSERT INTO :plain SELECT t.id, t.site, t.published_at, t.body, s.fp FROM :tbl t JOIN :store s ON s.key = t.id ORDER BY t.id;
CREATE INDEX ON :plain (fp);
VACUUM ANALYZE :plain;
-- check: the store's fingerprint is the one the plain inserts compute
SELECT count(*) FILTER (WHERE p.fp IS DISTINCT FROM x.fp) = 0 AS same_fp
FROM (SELECT * FROM :plain ORDER BY id LIMIT 200) p, LATERAL (SELECT :fpcall AS fp FROM (SELECT p.body) b(body)) x \gset
\if :same_fp
\else
\echo 'the store''s fingerprints are not those of' :'fpcall'
SELECT 1/0;
\endif
