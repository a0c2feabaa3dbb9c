-- load.sql: a generated corpus (bench/corpus/make_textlike.pl's output on stdin) as table
-- :tbl, without fingerprints (textfp_track computes its own), for bench/track/run.sh.
--   psql -X -v tbl=tk_docs -f bench/track/load.sql < corpus.tsv
\set ON_ERROR_STOP on
SET client_min_messages = warning;
DROP TABLE IF EXISTS :tbl, tk_load;
CREATE TABLE tk_load (
	id           bigint NOT NULL,
	lang         text NOT NULL,
	site         integer NOT NULL,
	family       bigint,
	role         text NOT NULL,
	edit         text,
	strength     integer,
	published_at timestamptz NOT NULL,
	body         text NOT NULL
);
-- (\copy takes no variables: loaded under a fixed name, then renamed)
\copy tk_load FROM pstdin
ALTER TABLE tk_load RENAME TO :tbl;
ALTER TABLE :tbl ADD PRIMARY KEY (id);
VACUUM ANALYZE :tbl;
