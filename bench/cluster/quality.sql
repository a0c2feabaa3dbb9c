-- quality.sql: cluster_table on bench/quality's labeled set (doc, loaded by
-- bench/quality/load.sql), scored against the families: the Adjusted Rand Index and
-- pairwise precision, recall and F1, per fingerprint and clustering mode, for both languages
-- together and each apart; and the distribution of cluster sizes, found and true.
-- Only the reporting split (thresholds were chosen on the tuning split).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;

DROP TABLE IF EXISTS q, qc, qscore, qsizes;
CREATE TABLE q AS
	SELECT id, lang, family, kind,
		   simhash(txt, featureless => 'null', stopwords => 'zh+snowball') AS fp_rec,
		   simhash(txt) AS fp_def,
		   minhash(txt) AS sig
	FROM doc WHERE split = 'reporting';
ALTER TABLE q ADD PRIMARY KEY (id);
ANALYZE q;

CREATE TABLE qc (method text, mode text, key bigint, cluster_key bigint, cluster_size bigint);
INSERT INTO qc SELECT 'SimHash zh+snowball, d <= 11 (recommended)', m, c.*
	FROM unnest(ARRAY['components', 'star']) m, cluster_table('q', 'id', 'fp_rec', 11, m) c;
INSERT INTO qc SELECT 'SimHash defaults, d <= 10', m, c.*
	FROM unnest(ARRAY['components', 'star']) m, cluster_table('q', 'id', 'fp_def', 10, m) c;
INSERT INTO qc SELECT 'MinHash defaults, J >= 0.28 (recommended)', m, c.*
	FROM unnest(ARRAY['components', 'star']) m, cluster_table('q', 'id', 'sig', 0.28, m) c;
-- the truth: each family (an original and its copies) is a cluster
INSERT INTO qc SELECT 'true families', 'labels', id, family, count(*) OVER (PARTITION BY family) FROM q;

-- pair counts from the contingency table of true family against found cluster
CREATE TABLE qscore AS
WITH c AS (
	SELECT x.method, x.mode, l.lang, q.family AS t, x.cluster_key AS f
	FROM qc x JOIN q ON q.id = x.key, LATERAL (VALUES ('all'), (q.lang)) l(lang)
), nij AS (SELECT method, mode, lang, sum(n * (n - 1) / 2) AS s FROM (SELECT method, mode, lang, t, f, count(*)::numeric AS n FROM c GROUP BY 1, 2, 3, 4, 5) x GROUP BY 1, 2, 3),
   ai AS (SELECT method, mode, lang, sum(n * (n - 1) / 2) AS s, sum(n) AS n FROM (SELECT method, mode, lang, t, count(*)::numeric AS n FROM c GROUP BY 1, 2, 3, 4) x GROUP BY 1, 2, 3),
   bj AS (SELECT method, mode, lang, sum(n * (n - 1) / 2) AS s, count(*) AS clusters, max(n) AS largest FROM (SELECT method, mode, lang, f, count(*)::numeric AS n FROM c GROUP BY 1, 2, 3, 4) x GROUP BY 1, 2, 3)
SELECT nij.method, nij.mode, nij.lang, ai.n AS docs, bj.clusters, bj.largest,
	   round((nij.s - ai.s * bj.s / (ai.n * (ai.n - 1) / 2))
			 / (0.5 * (ai.s + bj.s) - ai.s * bj.s / (ai.n * (ai.n - 1) / 2)), 4) AS ari,
	   round(nij.s / nullif(bj.s, 0), 4) AS pair_precision,
	   round(nij.s / nullif(ai.s, 0), 4) AS pair_recall,
	   round(2 * nij.s / nullif(ai.s + bj.s, 0), 4) AS pair_f1
FROM nij JOIN ai USING (method, mode, lang) JOIN bj USING (method, mode, lang);

CREATE TABLE qsizes AS
	SELECT method, mode, cluster_size AS size, count(DISTINCT cluster_key) AS clusters
	FROM qc GROUP BY 1, 2, 3;

SELECT * FROM qscore ORDER BY lang, method, mode;
