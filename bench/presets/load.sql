-- load.sql: the three evaluation sets in one database, with every pair each of them scores.
--
-- psql variables name the builders' output files: :'quality' (bench/quality/make_corpus.pl),
-- :'revisions' (bench/revisions/make_revisions.pl), :'regional' (bench/regional/make_set.pl).
-- Each set keeps its own labels and halves, exactly as its own bench scores it:
--   q_doc, q_pair  labeled reprints: every pair of one language within one split (tuning,
--                  reporting); cls -1 unrelated, else the copy's kind code (as
--                  bench/quality/load.sql), 2 two copies of one original
--   r_doc, r_pair  natural revisions: every cross-version pair of one manual; related when
--                  the section names agree; split tune/report (both sides in one half)
--   g_doc, g_pair  regional Chinese: every Taiwan document against every mainland document
--                  of its half of the catalogs (md5 parity, as bench/regional/eval.sql);
--                  related for the counterpart
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;
DROP TABLE IF EXISTS q_doc, q_pair, r_doc, r_pair, g_doc, g_pair CASCADE;

CREATE TABLE q_doc (
	id integer PRIMARY KEY, lang text NOT NULL, split text NOT NULL, family integer NOT NULL,
	source text NOT NULL, kind text NOT NULL, strength integer NOT NULL, edits text NOT NULL,
	title text NOT NULL, body text NOT NULL,
	txt text GENERATED ALWAYS AS (title || E'\n' || body) STORED,
	kcode integer);
\set copy '\\copy q_doc (id, lang, split, family, source, kind, strength, edits, title, body) FROM ' :'quality'
:copy
UPDATE q_doc SET kcode = CASE kind WHEN 'original' THEN 0 WHEN 'combo' THEN 1 ELSE 10 * (array_position(
	ARRAY['headline', 'boilerplate', 'drop', 'reorder', 'typos', 'width', 'script', 'truncate'], kind)) + strength END;
CREATE TABLE q_pair AS
	SELECT a.split, a.lang, a.id AS a, b.id AS b,
		CASE WHEN a.family <> b.family THEN -1 WHEN a.kcode = 0 THEN b.kcode ELSE 2 END AS cls
	FROM q_doc a JOIN q_doc b ON b.lang = a.lang AND b.split = a.split AND b.id > a.id;

CREATE TABLE r_doc (id integer PRIMARY KEY, set text, lang text, version integer, name text, split text, body text);
\set copy '\\copy r_doc FROM ' :'revisions'
:copy
CREATE TABLE r_pair AS
	SELECT a.split, a.lang, a.set, a.id AS a, b.id AS b, a.name = b.name AS related
	FROM r_doc a JOIN r_doc b ON a.set = b.set AND a.version = 0 AND b.version = 1 AND a.split = b.split;

CREATE TABLE g_doc (id integer, catalog text, side text, body text, half text);
\set copy '\\copy g_doc (id, catalog, side, body) FROM ' :'regional'
:copy
UPDATE g_doc SET half = CASE WHEN ('x' || substr(md5(catalog), 1, 8))::bit(32)::int % 2 = 0 THEN 'tune' ELSE 'report' END;
ALTER TABLE g_doc ADD PRIMARY KEY (side, id);
CREATE TABLE g_pair AS
	SELECT t.half AS split, t.id AS a, c.id AS b, t.id = c.id AS related
	FROM g_doc t JOIN g_doc c ON c.half = t.half AND c.side = 'cn' WHERE t.side = 'tw';
ANALYZE;

SELECT 'quality' AS set, split, lang, count(*) AS pairs, count(*) FILTER (WHERE cls <> -1) AS related FROM q_pair GROUP BY 1, 2, 3
UNION ALL SELECT 'revisions', split, lang, count(*), count(*) FILTER (WHERE related) FROM r_pair GROUP BY 1, 2, 3
UNION ALL SELECT 'regional', split, 'zh', count(*), count(*) FILTER (WHERE related) FROM g_pair GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
