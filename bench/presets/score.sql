-- score.sql: score_cfg(name) fingerprints the three sets under one configuration of the grid
-- (cfg, grid.sql) and adds the histogram of its pair scores to hist.
--
-- A score is an integer, higher for more alike, so every threshold is "score >= s": SimHash
-- 64 - Hamming distance, MinHash the number of equal positions (Jaccard estimate x k).  A
-- featureless text's fingerprint is NULL (as under a preset): its pairs score -1, below every
-- threshold.  With an IDF model (cfg.feat), each set's model is built as a table would build
-- its own: bench/quality per split and language (the texts scored together), the revisions
-- and the regional set over all their texts; from simhash_features() under the same options.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE TABLE IF NOT EXISTS cfg (
	name text PRIMARY KEY,
	method text NOT NULL,		-- simhash, minhash
	k integer NOT NULL,			-- the largest score: 64, or minhash's k
	expr text NOT NULL,			-- format(): %1$s the text, %2$s the IDF model
	feat text,					-- format(): simhash_features() for the model; NULL: no model
	opts jsonb NOT NULL);		-- the options, for the report
CREATE TABLE IF NOT EXISTS hist (
	cfg text NOT NULL, set text NOT NULL, split text NOT NULL, lang text NOT NULL,
	grp text NOT NULL,			-- quality: the pair's class; revisions: the manual; regional: ''
	related boolean NOT NULL, s integer NOT NULL, n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS cfg_time (cfg text PRIMARY KEY, seconds float8);

CREATE OR REPLACE FUNCTION score_cfg(p_name text) RETURNS void LANGUAGE plpgsql
	SET client_min_messages = warning AS $$
DECLARE
	c cfg;
	t0 timestamptz := clock_timestamp();
	score text;
BEGIN
	SELECT * INTO STRICT c FROM cfg WHERE name = p_name;
	DELETE FROM hist WHERE cfg = p_name;
	DROP TABLE IF EXISTS pg_temp.mdl, pg_temp.fq, pg_temp.fr, pg_temp.fg;
	CREATE TEMP TABLE mdl (set text, split text, lang text, m idf_model);
	IF c.feat IS NOT NULL THEN
		EXECUTE format('INSERT INTO mdl SELECT %L, split, lang, idf_model(%s) FROM q_doc GROUP BY split, lang',
			'quality', format(c.feat, 'txt'));
		EXECUTE format('INSERT INTO mdl SELECT %L, %L, %L, idf_model(%s) FROM r_doc', 'revisions', '', '', format(c.feat, 'body'));
		EXECUTE format('INSERT INTO mdl SELECT %L, %L, %L, idf_model(%s) FROM g_doc', 'regional', '', '', format(c.feat, 'body'));
	END IF;
	EXECUTE format('CREATE TEMP TABLE fq AS SELECT id, %s AS fp FROM q_doc d', format(c.expr, 'd.txt',
		'coalesce((SELECT m FROM mdl WHERE set = ''quality'' AND split = d.split AND lang = d.lang), ''none'')'));
	EXECUTE format('CREATE TEMP TABLE fr AS SELECT id, %s AS fp FROM r_doc d', format(c.expr, 'd.body',
		'coalesce((SELECT m FROM mdl WHERE set = ''revisions''), ''none'')'));
	EXECUTE format('CREATE TEMP TABLE fg AS SELECT side, id, %s AS fp FROM g_doc d', format(c.expr, 'd.body',
		'coalesce((SELECT m FROM mdl WHERE set = ''regional''), ''none'')'));
	ALTER TABLE fq ADD PRIMARY KEY (id);
	ALTER TABLE fr ADD PRIMARY KEY (id);
	ALTER TABLE fg ADD PRIMARY KEY (side, id);
	score := CASE c.method WHEN 'simhash' THEN 'coalesce(64 - hamming_distance(x.fp, y.fp), -1)'
		ELSE format('coalesce(round(jaccard(x.fp, y.fp) * %s)::integer, -1)', c.k) END;
	EXECUTE format($q$INSERT INTO hist SELECT %L, 'quality', p.split, p.lang, p.cls::text, p.cls <> -1, %s, count(*)
		FROM q_pair p JOIN fq x ON x.id = p.a JOIN fq y ON y.id = p.b GROUP BY 3, 4, 5, 6, 7$q$, p_name, score);
	EXECUTE format($q$INSERT INTO hist SELECT %L, 'revisions', p.split, p.lang, p.set, p.related, %s, count(*)
		FROM r_pair p JOIN fr x ON x.id = p.a JOIN fr y ON y.id = p.b GROUP BY 3, 4, 5, 6, 7$q$, p_name, score);
	EXECUTE format($q$INSERT INTO hist SELECT %L, 'regional', p.split, 'zh', '', p.related, %s, count(*)
		FROM g_pair p JOIN fg x ON x.side = 'tw' AND x.id = p.a JOIN fg y ON y.side = 'cn' AND y.id = p.b
		GROUP BY 3, 4, 5, 6, 7$q$, p_name, score);
	INSERT INTO cfg_time VALUES (p_name, extract(epoch FROM clock_timestamp() - t0))
		ON CONFLICT (cfg) DO UPDATE SET seconds = excluded.seconds;
END $$;
