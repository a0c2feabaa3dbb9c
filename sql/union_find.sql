-- union_find: connected components and stars over the pairs a query
-- returns, checked against a brute-force labelling (a recursive CTE) on
-- random graphs; NULLs, key types, the memory setting and bad input

CREATE SCHEMA uf_test;
SET search_path = uf_test, public;

SELECT * FROM union_find('VALUES (1, 2), (2, 3), (5, 6), (7, NULL::int), (NULL::int, 8), (NULL, NULL)')
ORDER BY key;
-- star: 3 is within reach of 2 only, and 2 is a member of 1's star
SELECT * FROM union_find('VALUES (1, 2), (2, 3), (5, 6), (7, NULL::int)', 'star') ORDER BY key;
-- pairs in either order, repeats and self-pairs; smallint, integer, bigint;
-- negative keys and the extremes: the cluster key is the smallest key
SELECT * FROM union_find($$SELECT a::smallint, b::bigint FROM (VALUES (3, 3), (4, 3), (3, 4), (-5, 4)) v(a, b)$$)
ORDER BY key;
SELECT * FROM union_find($$VALUES (9223372036854775807, -9223372036854775808), (0, 9223372036854775807)$$)
ORDER BY key;
-- no rows
SELECT count(*) FROM union_find('SELECT 1::bigint, 2::bigint WHERE false');

-- random graphs: components against a recursive labelling
CREATE TABLE g (graph int, a bigint, b bigint);
INSERT INTO g
SELECT graph, (hashint8extended(graph * 1000 + i, 1) % (n))::bigint * 7 - 50,
			  (hashint8extended(graph * 1000 + i, 2) % (n))::bigint * 7 - 50
FROM (SELECT graph, 10 + graph * 3 AS n FROM generate_series(1, 30) graph) x,
	 generate_series(1, 12 + (hashint4(graph) & 15)) i;
UPDATE g SET a = abs(a), b = abs(b);

CREATE FUNCTION brute(gr int) RETURNS TABLE (key bigint, cluster_key bigint) LANGUAGE sql AS $$
	WITH RECURSIVE e AS (SELECT a, b FROM g WHERE graph = gr UNION SELECT b, a FROM g WHERE graph = gr),
	reach(k, r) AS (SELECT a, a FROM e UNION SELECT reach.k, e.b FROM reach JOIN e ON e.a = reach.r)
	SELECT k, min(r) FROM reach GROUP BY k
$$;

SELECT count(*) AS graphs_that_differ FROM generate_series(1, 30) gr
WHERE EXISTS (
	(SELECT key, cluster_key FROM union_find(format('SELECT a, b FROM uf_test.g WHERE graph = %s', gr))
	 EXCEPT SELECT * FROM brute(gr))
	UNION ALL
	(SELECT * FROM brute(gr)
	 EXCEPT SELECT key, cluster_key FROM union_find(format('SELECT a, b FROM uf_test.g WHERE graph = %s', gr))));
-- (the graphs are not trivial: pairs, keys and components per graph)
SELECT sum(p) AS pairs, sum(k) AS keys, sum(c) AS components, max(big) AS largest FROM generate_series(1, 30) gr,
	LATERAL (SELECT count(*) AS p FROM g WHERE graph = gr) x,
	LATERAL (SELECT count(*) AS k, count(DISTINCT cluster_key) AS c, max(cluster_size) AS big
			 FROM union_find(format('SELECT a, b FROM uf_test.g WHERE graph = %s', gr))) y;
-- sizes agree with the labels
SELECT count(*) AS wrong_sizes FROM (
	SELECT key, cluster_size, count(*) OVER (PARTITION BY cluster_key) AS n
	FROM union_find('SELECT a, b FROM uf_test.g')) x
WHERE cluster_size <> n;

-- star: every member has a pair with its original, and no two originals
-- have one (otherwise the larger would have been claimed)
CREATE TABLE star AS SELECT * FROM union_find('SELECT a, b FROM uf_test.g WHERE graph <= 10', 'star');
SELECT count(*) AS members_without_pair FROM star s
WHERE s.key <> s.cluster_key
  AND NOT EXISTS (SELECT 1 FROM g WHERE graph <= 10 AND ((a = s.key AND b = s.cluster_key) OR (b = s.key AND a = s.cluster_key)));
SELECT count(*) AS adjacent_originals FROM g
JOIN star x ON x.key = g.a AND x.key = x.cluster_key
JOIN star y ON y.key = g.b AND y.key = y.cluster_key
WHERE graph <= 10 AND g.a <> g.b;
SELECT count(*) AS originals_not_smallest FROM star WHERE cluster_key > key;

-- 200,000 keys in a chain and in pairs: one component and 100,000
SELECT count(DISTINCT cluster_key), max(cluster_size)
FROM union_find('SELECT i, i + 1 FROM generate_series(1, 199999) i');
SELECT count(DISTINCT cluster_key), max(cluster_size)
FROM union_find('SELECT 2 * i, 2 * i + 1 FROM generate_series(1, 100000) i');

-- the memory setting
SHOW textfp.cluster_memory;
SET textfp.cluster_memory = '1MB';
SELECT count(*) FROM union_find('SELECT i, i + 1 FROM generate_series(1, 200000) i');
RESET textfp.cluster_memory;
SET textfp.cluster_memory = '100kB';

-- bad input
SELECT * FROM union_find('VALUES (1, 2)', 'chains');
SELECT * FROM union_find('VALUES (1, 2, 3)');
SELECT * FROM union_find($$VALUES ('a', 'b')$$);
SELECT * FROM union_find('VALUES (1.5, 2)');
SELECT * FROM union_find('SELECT 1::bigint, 2::numeric WHERE false');
SELECT * FROM union_find('CREATE TABLE x (a int)');
SELECT * FROM union_find('SELECT FROM');
SELECT * FROM union_find(NULL);
SELECT * FROM union_find('VALUES (1, 2)', NULL);

DROP SCHEMA uf_test CASCADE;
