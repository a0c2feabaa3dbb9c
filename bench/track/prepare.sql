-- prepare.sql: the tables of bench/track/run.sh, from the loaded corpus tk_docs (N rows) and
-- a second corpus tk_pool_raw (another seed: the rows the insert runs write).
--
--   tk_result        every number the run records: (method, item, value)
--   tk_pool          the rows inserted by the pgbench runs, numbered n = 1, 2, ... in time
--                    order, all later than every row of tk_docs (the usual case: new rows come
--                    last): the second corpus's rows with ids moved past N and times moved two
--                    years on, and every :near_every-th of them replaced by an edited copy of
--                    a random row of tk_docs (a reprint of an existing article: one paragraph
--                    line dropped, one line added), kind 'edited copy of an existing row'
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE TABLE IF NOT EXISTS tk_result (method text, item text, value text, at timestamptz DEFAULT clock_timestamp());

DROP TABLE IF EXISTS tk_pool;
CREATE TABLE tk_pool AS
SELECT row_number() OVER (ORDER BY r.published_at, r.id) AS n,
	   r.id + 100000000 AS id, r.site, r.published_at + interval '2 years' AS published_at,
	   r.body, r.role AS kind, r.family + 100000000 AS family, NULL::bigint AS copy_of
FROM tk_pool_raw r;
SELECT setseed(0.21) \g /dev/null
UPDATE tk_pool p SET kind = 'edited copy of an existing row', copy_of = d.id, family = NULL,
	body = (SELECT string_agg(l.line, E'\n' ORDER BY l.i)
			FROM unnest(string_to_array(d.body, E'\n')) WITH ORDINALITY l(line, i)
			WHERE l.i <> 5 + p.n % greatest(cardinality(string_to_array(d.body, E'\n')) - 6, 1))
		   || E'\nUpdated ' || to_char(p.published_at, 'YYYY-MM-DD HH24:MI') || '.'
FROM (SELECT q.n, 1 + floor(random() * (SELECT max(id) FROM tk_docs WHERE id < 100000000))::bigint AS src
	  FROM tk_pool q WHERE q.n % :near_every = 0) pick
JOIN tk_docs d ON d.id = pick.src
WHERE p.n = pick.n;
ALTER TABLE tk_pool ADD PRIMARY KEY (n);
VACUUM ANALYZE tk_pool;
INSERT INTO tk_result (method, item, value)
SELECT '', 'pool ' || kind, count(*)::text FROM tk_pool GROUP BY kind;
