-- unrelated.sql: how near unrelated texts of a labeled set sit to each other under a candidate fingerprint,
-- what a registration's lookups pay for (bench/stories/README.md, "Candidates"): run on a candidate's
-- database after candidates.sh (pairs.sql's st_text, st_fp), per corpus.
--
--   psql -X -v corpus=lineages -v out=DIR -f bench/stories/unrelated.sql
--
-- Writes :out/<corpus>.jhist.tsv (m, related, lang, pairs): every pair of the set (all of them, not only
-- those pairs.sql exports at J >= 0.1) by m = floor(J * 128) (J >= M/128 is m >= M), related when the two
-- texts are of one lineage (a family, for bench/quality), lang the texts' language ('mixed' when they
-- differ); pairs with J < 1/128 left out.  And :out/<corpus>.bhist.tsv (rows, shared, related, lang, pairs):
-- every pair sharing at least one band of the registration's bandings (44 bands of one position, 64 of two,
-- as pairs.sql's band counts), by the number of bands shared: the pairs an LSH lookup at min_bands m reads
-- are those with shared >= m.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;

CREATE TEMP TABLE u_fp AS
SELECT f.key, t.lineage, t.lang, f.mh, f.mhb, f.mhb2
FROM st_fp f JOIN st_text t USING (corpus, key)
WHERE f.corpus = :'corpus' AND f.mh IS NOT NULL;

\set jhist_file :out '/' :corpus '.jhist.tsv'
\set bhist_file :out '/' :corpus '.bhist.tsv'
\o :jhist_file
COPY (SELECT m, related, lang, count(*)
	  FROM (SELECT floor(jaccard(x.mh, y.mh) * 128 + 1e-9)::int AS m, x.lineage = y.lineage AS related,
				CASE WHEN x.lang = y.lang THEN x.lang ELSE 'mixed' END AS lang
			FROM u_fp x JOIN u_fp y ON x.key < y.key) p
	  WHERE m > 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) TO STDOUT;
\o :bhist_file
COPY (WITH b AS (
		SELECT f.key, f.lineage, f.lang, 1 AS rows, i, v FROM u_fp f, unnest(f.mhb) WITH ORDINALITY u(v, i)
		UNION ALL
		SELECT f.key, f.lineage, f.lang, 2, i, v FROM u_fp f, unnest(f.mhb2) WITH ORDINALITY u(v, i)),
	  p AS (
		SELECT x.rows, x.key AS a, y.key AS b, x.lineage = y.lineage AS related,
			CASE WHEN x.lang = y.lang THEN x.lang ELSE 'mixed' END AS lang, count(*) AS shared
		FROM b x JOIN b y ON x.rows = y.rows AND x.i = y.i AND x.v = y.v AND x.key < y.key
		GROUP BY 1, 2, 3, 4, 5)
	  SELECT rows, shared, related, lang, count(*) FROM p GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4) TO STDOUT;
\o
