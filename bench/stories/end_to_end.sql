-- end_to_end.sql: a labeled set (make_lineages.pl's or quality_lineages.pl's output on stdin) tracked by
-- textfp_track() with the v1 presets (its defaults until the v2 presets), and the ARI of textfp_stories()
-- against the labels.
--
--   psql -X -v corpus=lineages -v out=/tmp/st -f bench/stories/end_to_end.sql < lineages.tsv
--
-- One table per registration, e2e_<corpus>_<name> (key bigint primary key, released timestamptz: the
-- text's time, its release's date; txt text: title, newline, body, as pairs.sql fingerprints it), each
-- registered as a user would:
--
--   name    call
--   mh      CALL textfp_track(t, 'txt', 'key', 'released', preset => 'minhash_v1')
--   sh      CALL textfp_track(t, 'txt', 'key', 'released', preset => 'simhash_v1')
--   shi     CALL textfp_track(t, 'txt', 'key', 'released', preset => 'simhash_idf_v1')
--           (its idf model built by the registration from the table's rows)
--
-- A candidate MinHash fingerprint instead of the preset (bench/stories/README.md, "Candidates"): psql variables
-- mh_options (textfp_track's options, a text[] literal such as '{ngram=2,shingle=1,stopwords=zh+snowball,
-- chinese=mainland}') and mh_threshold (its Jaccard threshold) register mh with options => :mh_options,
-- threshold => :mh_threshold, and leave sh and shi out; mh_cohesion, if set, adds cohesion => :mh_cohesion.
--
-- Also cluster_table(store, 'key', 'fp', threshold, mode) on each store's fingerprints, components and star
-- (names mh/components, mh/star, ...), scored the same way.
--
-- Prints each registration's settings and the ARI, pairwise precision and recall, stories and largest
-- story of textfp_stories() against the labels (all texts, each language, English and Chinese, each set); writes
-- :out/<corpus>.e2e.tsv (name, key, story_id) for simulate.py --check, and
-- :out/<corpus>.e2e.scores.tsv (the score rows).  The tables stay, registered, for a look.

\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;
SET jit = off;
SET max_parallel_workers_per_gather = 0;

CREATE TEMP TABLE e2e_in (key bigint, lang text, set text, lineage text, version text, time timestamptz,
						  source text, title text, body text);
\copy e2e_in FROM pstdin
CREATE TABLE IF NOT EXISTS e2e_label (corpus text, key bigint, lang text, set text, lineage text,
									   PRIMARY KEY (corpus, key));
DELETE FROM e2e_label WHERE corpus = :'corpus';
INSERT INTO e2e_label SELECT :'corpus', key, lang, set, lineage FROM e2e_in;

CREATE TABLE IF NOT EXISTS e2e_story (corpus text, name text, key bigint, story_id bigint,
									   PRIMARY KEY (corpus, name, key));
DELETE FROM e2e_story WHERE corpus = :'corpus';

-- a fresh table per registration, with the set's rows, then the registration
CREATE FUNCTION pg_temp.e2e_table(rel text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF to_regclass(rel) IS NOT NULL THEN
		IF EXISTS (SELECT FROM textfp_tracked() t WHERE t.tbl = to_regclass(rel)) THEN
			PERFORM textfp_untrack(rel::regclass);
		END IF;
		EXECUTE format('DROP TABLE %I', rel);
	END IF;
	EXECUTE format('CREATE TABLE %I (key bigint PRIMARY KEY, released timestamptz NOT NULL, txt text NOT NULL)', rel);
	EXECUTE format('INSERT INTO %I SELECT key, time, title || E''\n'' || body FROM e2e_in', rel);
END
$$;

\set t_mh 'e2e_' :corpus '_mh'
\set t_sh 'e2e_' :corpus '_sh'
\set t_shi 'e2e_' :corpus '_shi'
\if :{?mh_options}
\set candidate true
\else
\set candidate false
\set mh_threshold 0.46875
\endif
SELECT pg_temp.e2e_table(:'t_mh');
\if :candidate
\timing on
\if :{?mh_cohesion}
CALL textfp_track(:'t_mh', text_column => 'txt', key_column => 'key', time_column => 'released',
	options => :'mh_options', threshold => :mh_threshold, cohesion => :mh_cohesion);
\else
CALL textfp_track(:'t_mh', text_column => 'txt', key_column => 'key', time_column => 'released',
	options => :'mh_options', threshold => :mh_threshold);
\endif
\timing off
INSERT INTO e2e_story SELECT :'corpus', 'mh', s.key::bigint, s.story_id::bigint FROM textfp_stories(:'t_mh') s;
\else
SELECT pg_temp.e2e_table(:'t_sh'), pg_temp.e2e_table(:'t_shi');
\timing on
CALL textfp_track(:'t_mh', text_column => 'txt', key_column => 'key', time_column => 'released', preset => 'minhash_v1');
CALL textfp_track(:'t_sh', text_column => 'txt', key_column => 'key', time_column => 'released', preset => 'simhash_v1');
CALL textfp_track(:'t_shi', text_column => 'txt', key_column => 'key', time_column => 'released', preset => 'simhash_idf_v1');
\timing off

INSERT INTO e2e_story SELECT :'corpus', 'mh', s.key::bigint, s.story_id::bigint FROM textfp_stories(:'t_mh') s;
INSERT INTO e2e_story SELECT :'corpus', 'sh', s.key::bigint, s.story_id::bigint FROM textfp_stories(:'t_sh') s;
INSERT INTO e2e_story SELECT :'corpus', 'shi', s.key::bigint, s.story_id::bigint FROM textfp_stories(:'t_shi') s;
\endif

-- cluster_table's modes on the same fingerprints (the store's fp column) at the same thresholds, to score
-- beside the stories: names mh/components, mh/star, ...
\set s_mh :t_mh '_textfp'
\set s_sh :t_sh '_textfp'
\set s_shi :t_shi '_textfp'
\timing on
INSERT INTO e2e_story SELECT :'corpus', 'mh/' || m, c.key, c.cluster_key
FROM unnest(ARRAY['components', 'star']) m, cluster_table(:'s_mh', 'key', 'fp', :mh_threshold, m) c;
\if :candidate
\else
INSERT INTO e2e_story SELECT :'corpus', 'sh/' || m, c.key, c.cluster_key
FROM unnest(ARRAY['components', 'star']) m, cluster_table(:'s_sh', 'key', 'fp', 11, m) c;
INSERT INTO e2e_story SELECT :'corpus', 'shi/' || m, c.key, c.cluster_key
FROM unnest(ARRAY['components', 'star']) m, cluster_table(:'s_shi', 'key', 'fp', 13, m) c;
\endif
\timing off

-- the registrations as made (method, preset, threshold, cohesion, LSH rule)
\set c_mh :t_mh '_textfp_config'
\set c_sh :t_sh '_textfp_config'
\set c_shi :t_shi '_textfp_config'
SELECT 'mh' AS name, method, preset, threshold, cohesion, lsh_bands, lsh_rows, lsh_min_bands, state, idf IS NOT NULL AS idf
FROM :c_mh
\if :candidate
;
\else
UNION ALL SELECT 'sh', method, preset, threshold, cohesion, lsh_bands, lsh_rows, lsh_min_bands, state, idf IS NOT NULL FROM :c_sh
UNION ALL SELECT 'shi', method, preset, threshold, cohesion, lsh_bands, lsh_rows, lsh_min_bands, state, idf IS NOT NULL FROM :c_shi;
SELECT 'shi' AS name, idf_model_docs(idf) AS idf_model_docs, idf_model_digest(idf) AS idf_model_digest FROM :c_shi;
\endif

-- every row has its story, and nothing else
SELECT s.name, count(*) AS rows, count(l.key) AS labeled, count(DISTINCT s.story_id) AS stories
FROM e2e_story s LEFT JOIN e2e_label l ON l.corpus = s.corpus AND l.key = s.key
WHERE s.corpus = :'corpus' GROUP BY s.name ORDER BY s.name;

-- ARI (singletons included), pairwise precision and recall per group
DROP TABLE IF EXISTS e2e_score_tmp;
CREATE TEMP TABLE e2e_score_tmp AS
WITH prefix AS (
	SELECT set, prefix FROM (
		SELECT set, regexp_replace(set, '-[^-]*$', '') AS prefix,
			count(*) OVER (PARTITION BY regexp_replace(set, '-[^-]*$', '')) AS sets
		FROM (SELECT DISTINCT set FROM e2e_label WHERE corpus = :'corpus' AND set ~ '-') d) x
	WHERE sets > 1
), j AS (
	SELECT s.name, l.lang, l.set, l.lineage, s.story_id
	FROM e2e_story s JOIN e2e_label l ON l.corpus = s.corpus AND l.key = s.key
	WHERE s.corpus = :'corpus'
), g AS (
	SELECT name, 'all' AS grp, lineage, story_id FROM j
	UNION ALL SELECT name, 'lang:' || lang, lineage, story_id FROM j
	UNION ALL SELECT name, 'en+zh', lineage, story_id FROM j WHERE lang IN ('en', 'zh')
	UNION ALL SELECT name, 'set:' || set, lineage, story_id FROM j
	-- the prefixes simulate.py scores (edu-en, edu-zh, edu-ja -> edu)
	UNION ALL SELECT j.name, 'sets:' || p.prefix, j.lineage, j.story_id FROM j JOIN prefix p ON p.set = j.set
), cont AS (
	SELECT name, grp, sum(c * (c - 1) / 2)::numeric AS sij FROM (
		SELECT name, grp, count(*) AS c FROM g GROUP BY name, grp, lineage, story_id) x GROUP BY name, grp
), a AS (
	SELECT name, grp, sum(c * (c - 1) / 2)::numeric AS sa, count(*) AS stories, max(c) AS largest FROM (
		SELECT name, grp, count(*) AS c FROM g GROUP BY name, grp, story_id) x GROUP BY name, grp
), b AS (
	SELECT name, grp, sum(c * (c - 1) / 2)::numeric AS sb, count(*) AS lineages FROM (
		SELECT name, grp, count(*) AS c FROM g GROUP BY name, grp, lineage) x GROUP BY name, grp
), n AS (
	SELECT name, grp, count(*) AS texts FROM g GROUP BY name, grp
)
SELECT n.name, n.grp, n.texts, b.lineages, a.stories, a.largest,
	CASE WHEN (a.sa + b.sb) / 2 = a.sa * b.sb / (n.texts * (n.texts - 1) / 2) THEN 1
		 ELSE (cont.sij - a.sa * b.sb / (n.texts * (n.texts - 1) / 2))
			  / ((a.sa + b.sb) / 2 - a.sa * b.sb / (n.texts * (n.texts - 1) / 2)) END AS ari,
	CASE WHEN a.sa = 0 THEN 1 ELSE cont.sij / a.sa END AS precision,
	CASE WHEN b.sb = 0 THEN 1 ELSE cont.sij / b.sb END AS recall
FROM n JOIN a USING (name, grp) JOIN b USING (name, grp) JOIN cont USING (name, grp)
WHERE n.texts >= 2;

SELECT name, grp AS "group", texts, lineages, stories, largest, round(ari, 4) AS ari,
	round(precision, 4) AS precision, round(recall, 4) AS recall
FROM e2e_score_tmp ORDER BY name, grp = 'all' DESC, grp;

\set stories_file :out '/' :corpus '.e2e.tsv'
\set scores_file :out '/' :corpus '.e2e.scores.tsv'
\o :stories_file
COPY (SELECT name, key, story_id FROM e2e_story WHERE corpus = :'corpus' ORDER BY name, key) TO STDOUT;
\o :scores_file
COPY (SELECT name, grp, texts, lineages, stories, largest, round(ari, 6) AS ari, round(precision, 6) AS precision,
		round(recall, 6) AS recall
	  FROM e2e_score_tmp ORDER BY name, grp) TO STDOUT WITH (FORMAT csv, DELIMITER E'\t', HEADER);
\o
