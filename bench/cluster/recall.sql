-- recall.sql: planted pairs (each copy with its family's original) found by the clustering
-- route next to the pairwise operator.  Variables: fp (fingerprint column), op (the exact
-- test of a pair o, c: "hamming_distance(o.fp, c.fp) <= 10"), pairs (table of the route's
-- verified pairs a < b between representatives), keys (key, rep: each row's value's
-- representative, its smallest key), clusters
-- (cluster_table's output); lsh (true for an LSH route) with its bands and rows.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET work_mem = '256MB';
CREATE TABLE IF NOT EXISTS bench_recall (fp text, clusters text, planted bigint, operator_recall float8,
	route_recall float8, route_missing bigint, route_extra bigint, cluster_recall float8,
	PRIMARY KEY (fp, clusters));
-- LSH routes: of the planted pairs the operator accepts, the share the route found, and the
-- share lsh_probability(J, bands, rows) predicts (its mean over those pairs, J their
-- estimate) with the standard error of that prediction, sqrt(sum p(1 - p)) / n
ALTER TABLE bench_recall ADD COLUMN IF NOT EXISTS found_of_accepted float8,
	ADD COLUMN IF NOT EXISTS lsh_expected float8, ADD COLUMN IF NOT EXISTS lsh_se float8;
CREATE TEMP TABLE planted AS
	SELECT o.id AS a, c.id AS b,
		   :op AS op,
		   o.:fp = c.:fp AS same
	FROM textlike c JOIN textlike o ON o.id = c.family
	WHERE c.role = 'copy' AND o.role = 'original' AND o.:fp IS NOT NULL AND c.:fp IS NOT NULL;
-- the route found a planted pair if it verified the pair of their values' representatives
-- (the smallest key of each value: rows of one value are collapsed before pairs are made),
-- or if both rows have one value
CREATE TEMP TABLE found AS
	SELECT p.*, p.same OR EXISTS (SELECT 1 FROM :pairs x
								  WHERE x.a = least(ka.rep, kb.rep) AND x.b = greatest(ka.rep, kb.rep)) AS route
	FROM planted p JOIN :keys ka ON ka.key = p.a JOIN :keys kb ON kb.key = p.b;
INSERT INTO bench_recall
SELECT :'fp', :'clusters', count(*),
	   avg(op::int), avg(route::int),
	   count(*) FILTER (WHERE op AND NOT route), count(*) FILTER (WHERE route AND NOT op),
	   (SELECT avg((x.cluster_key = y.cluster_key)::int) FROM found f
		JOIN :clusters x ON x.key = f.a JOIN :clusters y ON y.key = f.b),
	   avg(route::int) FILTER (WHERE op), NULL, NULL
FROM found
ON CONFLICT (fp, clusters) DO UPDATE SET planted = excluded.planted, operator_recall = excluded.operator_recall,
	route_recall = excluded.route_recall, route_missing = excluded.route_missing,
	route_extra = excluded.route_extra, cluster_recall = excluded.cluster_recall,
	found_of_accepted = excluded.found_of_accepted, lsh_expected = excluded.lsh_expected, lsh_se = excluded.lsh_se;
\if :lsh
UPDATE bench_recall r SET lsh_expected = x.e, lsh_se = x.se
FROM (SELECT avg(p) AS e, sqrt(sum(p * (1 - p))) / count(*) AS se
	  FROM (SELECT lsh_probability(jaccard(o.:fp, c.:fp), :bands, :rows) AS p
			FROM found f JOIN textlike o ON o.id = f.a JOIN textlike c ON c.id = f.b
			WHERE f.op) y) x
WHERE r.fp = :'fp' AND r.clusters = :'clusters';
\endif
SELECT * FROM bench_recall WHERE fp = :'fp' AND clusters = :'clusters';
