-- cluster_table: a whole table clustered in one call gives exactly the
-- clusters of a self-join plus union_find (components and star, simhash64
-- and minhash_sig, identical fingerprints and NULLs), whatever the names of
-- the table and its columns and whatever the caller's search_path

CREATE SCHEMA "Odd ""Schema""";
SET search_path = "Odd ""Schema""", public;

-- 40 families of 1 to 12 near-duplicate fingerprints (a few bits apart),
-- 30 rows that copy a family's value exactly, 10 NULLs; integer keys
CREATE TABLE "News Items" ("Article ID" integer PRIMARY KEY, "Finger Print" simhash64, sig minhash_sig);
INSERT INTO "News Items"
SELECT i,
	CASE WHEN i % 37 = 0 THEN NULL
		 ELSE (hashint8extended(i % 40, 5) # (CASE WHEN i % 3 = 0 THEN 0 ELSE (1::bigint << (i % 64)) | (1::bigint << ((i * 7) % 64)) END)
			   # (CASE WHEN i % 11 = 0 THEN 7::bigint << ((i * 3) % 60) ELSE 0 END))::simhash64 END,
	CASE WHEN i % 37 = 0 THEN NULL
		 ELSE minhash(ARRAY(SELECT (i % 40) * 1000 + j FROM generate_series(1, 60) j
							WHERE (hashint4(i * 100 + j) & 7) <> 0 OR i % 3 = 0)) END
FROM generate_series(1, 400) i;
INSERT INTO "News Items" SELECT 1000 + i, "Finger Print", sig FROM "News Items" WHERE i <= 30;
SELECT count(*), count(DISTINCT "Finger Print"), count(DISTINCT sig) FROM "News Items";

-- a schema of decoys first in the search path: cluster_table must not use them
CREATE SCHEMA decoy;
CREATE FUNCTION decoy.hamming_distance(simhash64, simhash64) RETURNS integer LANGUAGE sql AS 'SELECT 0';
CREATE FUNCTION decoy.union_find(text, text DEFAULT 'components')
	RETURNS TABLE (key bigint, cluster_key bigint, cluster_size bigint) LANGUAGE sql AS 'SELECT 1::bigint, 1::bigint, 1::bigint';
SET search_path = decoy, "Odd ""Schema""", public;

-- the reference: every pair by a self-join, then union_find
CREATE FUNCTION public.reference(radius int, jacc float8, use_sig boolean, mode text)
RETURNS TABLE (key bigint, cluster_key bigint, cluster_size bigint) LANGUAGE sql AS $$
	SELECT * FROM public.union_find(format($q$
		SELECT a."Article ID", b."Article ID" FROM "Odd ""Schema"""."News Items" a JOIN "Odd ""Schema"""."News Items" b
		  ON a."Article ID" < b."Article ID"
		 AND CASE WHEN %L::boolean THEN public.jaccard(a.sig, b.sig) >= %s
				  ELSE public.hamming_distance(a."Finger Print", b."Finger Print") <= %s END
		UNION ALL SELECT "Article ID", NULL FROM "Odd ""Schema"""."News Items"$q$, use_sig, jacc, radius), mode)
$$;

SELECT r, m,
	(SELECT count(*) FROM (SELECT * FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'Finger Print', r, m)
						   EXCEPT SELECT * FROM public.reference(r, 0, false, m)) x) AS only_cluster_table,
	(SELECT count(*) FROM (SELECT * FROM public.reference(r, 0, false, m)
						   EXCEPT SELECT * FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'Finger Print', r, m)) x) AS only_reference,
	(SELECT count(DISTINCT cluster_key) FROM public.reference(r, 0, false, m)) AS clusters,
	(SELECT max(cluster_size) FROM public.reference(r, 0, false, m)) AS largest
FROM unnest(ARRAY[0, 2, 4, 8, 16]) r, unnest(ARRAY['components', 'star']) m
ORDER BY m, r;

SELECT t, m,
	(SELECT count(*) FROM (SELECT * FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'sig', t, m)
						   EXCEPT SELECT * FROM public.reference(0, t, true, m)) x) AS only_cluster_table,
	(SELECT count(*) FROM (SELECT * FROM public.reference(0, t, true, m)
						   EXCEPT SELECT * FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'sig', t, m)) x) AS only_reference,
	(SELECT count(DISTINCT cluster_key) FROM public.reference(0, t, true, m)) AS clusters,
	(SELECT max(cluster_size) FROM public.reference(0, t, true, m)) AS largest
FROM unnest(ARRAY[0.5, 0.7, 0.9, 1.0]) t, unnest(ARRAY['components', 'star']) m
ORDER BY m, t;

-- LSH candidates (minhash_sig): every cluster is made of verified pairs, so
-- with 128 bands of one position (a pair of Jaccard 0.5 shares none with
-- probability 2^-128) the clusters are the exact ones; with 8 bands of 8
-- the route may miss pairs, never add one: each LSH cluster lies inside one
-- exact cluster (components)
SELECT b, r, m,
	(SELECT count(*) FROM (SELECT * FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'sig', 0.5, m, b, r)
						   EXCEPT SELECT * FROM public.reference(0, 0.5, true, m)) x) AS only_lsh,
	(SELECT count(*) FROM (SELECT * FROM public.reference(0, 0.5, true, m)
						   EXCEPT SELECT * FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'sig', 0.5, m, b, r)) x) AS only_reference
FROM (VALUES (128, 1), (8, 8)) v(b, r), unnest(ARRAY['components', 'star']) m
ORDER BY b DESC, m;
SELECT count(*) AS lsh_clusters_across_exact_clusters
FROM (SELECT l.cluster_key FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'sig', 0.5, 'components', 8, 8) l
	  JOIN public.reference(0, 0.5, true, 'components') e USING (key)
	  GROUP BY l.cluster_key HAVING count(DISTINCT e.cluster_key) > 1) x;

-- the default threshold is the % operator's setting
SET textfp.hamming_threshold = 4;
SELECT count(*) FROM (SELECT * FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'Finger Print')
					  EXCEPT SELECT * FROM public.reference(4, 0, false, 'components')) x;
RESET textfp.hamming_threshold;

-- star keeps every member within the threshold of its original; components
-- at a loose threshold chain families together, and say so
SELECT count(*) AS members_too_far
FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'Finger Print', 16, 'star') c
JOIN "News Items" a ON a."Article ID" = c.key JOIN "News Items" o ON o."Article ID" = c.cluster_key
WHERE public.hamming_distance(a."Finger Print", o."Finger Print") > 16;
SELECT max(cluster_size) FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'Finger Print', 30);

-- no temporary tables are left behind
SELECT count(*) FROM pg_class WHERE relname LIKE 'textfp_cluster%' AND relpersistence = 't';

-- an empty table
CREATE TABLE empty (id bigint, fp simhash64);
SELECT count(*) FROM public.cluster_table('empty', 'id', 'fp', 3);

-- bad input
\set VERBOSITY terse
SELECT * FROM public.cluster_table('"News Items"', 'id', 'Finger Print', 3);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'fp', 3);
SELECT * FROM public.cluster_table('"News Items"', 'Finger Print', 'Article ID', 3);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'Article ID', 3);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'Finger Print', 65);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'Finger Print', 2.5);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'sig', 0);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'sig', 1.5);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'sig', 0.5, 'chains');
SELECT * FROM public.cluster_table(NULL, 'Article ID', 'sig', 0.5);
-- a relation that does not exist is named by its OID (not as "-")
SELECT * FROM public.cluster_table(0, 'Article ID', 'sig', 0.5);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'sig', 0.5, bands => 8);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'Finger Print', 3, bands => 8, rows => 8);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'sig', 0.5, bands => 0, rows => 8);
SELECT * FROM public.cluster_table('"News Items"', 'Article ID', 'sig', 0.5, bands => 200, rows => 8);
-- a banding whose buckets make too many candidates is refused before the join
-- (sets sharing 200 of their 203 elements: most signatures distinct, and in one bucket)
CREATE TABLE same_band AS SELECT i AS id, minhash(ARRAY(SELECT generate_series(1, 200)::bigint) || ARRAY[i + 1000, i + 100000, i + 200000]::bigint[]) AS sig
	FROM generate_series(1, 8000) i;
SELECT count(DISTINCT sig) FROM same_band;
SELECT count(*) FROM public.cluster_table('same_band', 'id', 'sig', 0.9, bands => 1, rows => 1);

\set VERBOSITY default

-- the first textfp call of a session, at the default threshold: the
-- settings exist once the library is loaded, which that call does
\c
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'Finger Print');
\c
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('"Odd ""Schema"""."News Items"', 'Article ID', 'sig', mode => 'star');

RESET search_path;
DROP SCHEMA decoy CASCADE;
DROP SCHEMA "Odd ""Schema""" CASCADE;
DROP FUNCTION reference(int, float8, boolean, text);
