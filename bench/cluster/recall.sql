-- recall.sql: planted pairs (each copy with its family's original) found by the clustering
-- route next to the pairwise operator.  Variables: fp (fingerprint column), op (the exact
-- test of a pair o, c: "hamming_distance(o.fp, c.fp) <= 10"), pairs (table of the route's
-- verified pairs a < b between representatives), keys (key, rep: each row's value's
-- representative, its smallest key), clusters
-- (cluster_table's output).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET work_mem = '256MB';
CREATE TABLE IF NOT EXISTS bench_recall (fp text, clusters text, planted bigint, operator_recall float8,
	route_recall float8, route_missing bigint, route_extra bigint, cluster_recall float8,
	PRIMARY KEY (fp, clusters));
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
		JOIN :clusters x ON x.key = f.a JOIN :clusters y ON y.key = f.b)
FROM found
ON CONFLICT (fp, clusters) DO UPDATE SET planted = excluded.planted, operator_recall = excluded.operator_recall,
	route_recall = excluded.route_recall, route_missing = excluded.route_missing,
	route_extra = excluded.route_extra, cluster_recall = excluded.cluster_recall;
SELECT * FROM bench_recall WHERE fp = :'fp' AND clusters = :'clusters';
