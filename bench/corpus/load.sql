-- load.sql: the generated corpus (make_textlike.pl's output on stdin) as table textlike, with
-- textfp's default fingerprints as stored generated columns, so a benchmark gets a ready
-- table from one command:
--
--   perl bench/corpus/make_textlike.pl | psql -X -f bench/corpus/load.sql
--   psql -X -f bench/corpus/load.sql < corpus.tsv
--
-- The table is dropped and made again.  Fingerprints are computed while loading, once per
-- row (ALTER TABLE textlike ALTER COLUMN fp DROP EXPRESSION makes one a plain column).

\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;

DROP TABLE IF EXISTS textlike;
CREATE TABLE textlike (
	id           bigint NOT NULL,
	lang         text NOT NULL,
	site         integer NOT NULL,
	family       bigint,
	role         text NOT NULL,
	edit         text,
	strength     integer,
	published_at timestamptz NOT NULL,
	body         text NOT NULL,
	fp           simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
	sig          minhash_sig GENERATED ALWAYS AS (minhash(body)) STORED
);
\copy textlike (id, lang, site, family, role, edit, strength, published_at, body) FROM pstdin
ALTER TABLE textlike ADD PRIMARY KEY (id);
ANALYZE textlike;

COMMENT ON TABLE textlike IS 'bench/corpus/make_textlike.pl: generated text-like documents with planted near-duplicate families';
COMMENT ON COLUMN textlike.lang IS 'en or zh';
COMMENT ON COLUMN textlike.site IS 'the site that published it: its header, footer, byline and dateline styles';
COMMENT ON COLUMN textlike.family IS 'original/copy: the original''s id; template: the template group''s first id; NULL for singletons';
COMMENT ON COLUMN textlike.role IS 'singleton, original, copy (of family''s original), template (one frame, slots filled anew)';
COMMENT ON COLUMN textlike.edit IS 'copy: the edits, "kind strength (detail)" joined by "; ", or verbatim; template: slots filled';
COMMENT ON COLUMN textlike.strength IS 'copy: the strongest edit''s strength, 1 (light) to 3 (heavy), 0 for verbatim';
COMMENT ON COLUMN textlike.published_at IS 'publication time; ids follow it, and copies come after their original';
COMMENT ON COLUMN textlike.body IS 'the stored text: site header, title, byline and dateline, paragraphs, footer, one a line';
COMMENT ON COLUMN textlike.fp IS 'simhash(body), textfp''s defaults';
COMMENT ON COLUMN textlike.sig IS 'minhash(body), textfp''s defaults';
