-- pairs.sql: what unrelated pairs look like to each option set, and how many of them each
-- banding makes candidates; and whether bands hit pairs as lsh_probability() says.
--
-- Unrelated pairs: :sample documents per language drawn by a hash of the id, every pair of
-- them that is not two members of one reprint family (two instances of one template do
-- count, as do two articles of one site, as in bench/corpus/stats.sql).  Per option set:
-- the histogram of the estimate (equal positions of 128) and of the exact Jaccard of the
-- shingle sets (to 0.001), by kind of pair (two instances of one template, two articles of
-- one site, other); and for each banding of
-- :'bandings' ("b,r,m" separated by spaces) and the set's own, the share of the pairs that
-- are candidates, so candidates per row at N rows is that share times N - 1 (the planted
-- families add their own members, measured through the index in index.sql).
--
-- The S-curve check: planted pairs (a copy and its original, up to :scurve_pairs) and as
-- many unrelated pairs of one site (for low similarities), each with its exact Jaccard J,
-- the smaller of its two set sizes, whether the set's banding makes it a candidate (the
-- one-permutation signatures of tl, and k independent hashes, method 'kperm', made here),
-- and lsh_probability(J); binned by J (0.05 wide) and set size.
--
-- psql variables: sample, bandings, scurve_pairs.

\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET work_mem = '512MB';

CREATE TABLE lb.psample AS
SELECT id, lang, site, family, role FROM (
	SELECT id, lang, site, family, role,
		row_number() OVER (PARTITION BY lang ORDER BY hashint8extended(id, 3)) AS k
	FROM tl) s
WHERE k <= :sample;
CREATE TABLE lb.upairs AS
SELECT a.id AS a, b.id AS b, a.lang,
	CASE WHEN a.role = 'template' AND b.role = 'template' AND a.family = b.family THEN 'template'
		WHEN a.site = b.site THEN 'same site' ELSE 'other' END AS kind
FROM lb.psample a JOIN lb.psample b ON b.lang = a.lang AND b.id > a.id
WHERE a.family IS NULL OR b.family IS NULL OR a.family <> b.family OR a.role = 'template';
ANALYZE lb.upairs;

CREATE TABLE lb.bandings (b int, r int, m int);
INSERT INTO lb.bandings
SELECT DISTINCT p[1]::int, p[2]::int, p[3]::int
FROM regexp_split_to_table(btrim(:'bandings'), '\s+') s, LATERAL (SELECT string_to_array(s, ',') AS p) x
UNION SELECT bands, rows, min_bands FROM lb.sets;

CREATE TABLE lb.uhist (set_name text, lang text, kind text, c int, n bigint);
CREATE TABLE lb.ujhist (set_name text, lang text, kind text, j1000 int, n bigint);
CREATE TABLE lb.ucand (set_name text, lang text, kind text, b int, r int, m int, pairs bigint, candidates bigint);
CREATE TABLE lb.scurve (set_name text, method text, size_bin int, j_bin int, n bigint, hits bigint,
	sum_p float8, sum_pq float8, sum_j float8);

CREATE PROCEDURE lb.pair_stats(p_set text)
LANGUAGE plpgsql AS $$
DECLARE
	s lb.sets;
	col text;
BEGIN
	SELECT * INTO s FROM lb.sets WHERE name = p_set;
	col := quote_ident('s_' || s.name);
	DROP TABLE IF EXISTS pg_temp.sh;
	EXECUTE format('CREATE TEMP TABLE sh AS SELECT p.id, t.%s AS sig, shingles(r.body, shingle => %s) AS s
		FROM lb.psample p JOIN tl t USING (id) JOIN lb.raw r USING (id)', col, s.shingle);
	ALTER TABLE pg_temp.sh ADD PRIMARY KEY (id);
	ALTER TABLE pg_temp.sh ALTER COLUMN s SET STORAGE EXTERNAL;
	ANALYZE pg_temp.sh;
	DROP TABLE IF EXISTS pg_temp.pj;
	CREATE TEMP TABLE pj AS
	SELECT u.lang, u.kind, x.sig AS sa, y.sig AS sb,
		round(jaccard(x.sig, y.sig) * 128)::int AS c, jaccard(x.s, y.s) AS j
	FROM lb.upairs u JOIN pg_temp.sh x ON x.id = u.a JOIN pg_temp.sh y ON y.id = u.b;
	INSERT INTO lb.uhist SELECT s.name, lang, kind, c, count(*) FROM pg_temp.pj GROUP BY 2, 3, 4;
	INSERT INTO lb.ujhist SELECT s.name, lang, kind, round(j * 1000)::int, count(*) FROM pg_temp.pj GROUP BY 2, 3, 4;
	INSERT INTO lb.ucand
	SELECT s.name, p.lang, p.kind, g.b, g.r, g.m, count(*),
		count(*) FILTER (WHERE p.sa @@ lsh_query(p.sb, g.b, g.r, g.m))
	FROM pg_temp.pj p, lb.bandings g GROUP BY 2, 3, 4, 5, 6;
	COMMIT;
	RAISE NOTICE 'set %: unrelated pairs done', s.name;
END $$;

CREATE PROCEDURE lb.scurve(p_set text)
LANGUAGE plpgsql AS $$
DECLARE
	s lb.sets;
	col text;
	np int := current_setting('lb.scurve_pairs')::int;
BEGIN
	SELECT * INTO s FROM lb.sets WHERE name = p_set;
	col := quote_ident('s_' || s.name);
	DROP TABLE IF EXISTS pg_temp.sp;
	CREATE TEMP TABLE sp AS
	(SELECT c.id AS a, c.family AS b FROM tl c JOIN tl o ON o.id = c.family AND o.role = 'original'
	 WHERE c.role = 'copy' ORDER BY hashint8extended(c.id, 5) LIMIT np)
	UNION ALL
	(SELECT a, b FROM lb.upairs WHERE kind = 'same site' ORDER BY hashint8extended(a * 7919 + b, 6) LIMIT np);
	DROP TABLE IF EXISTS pg_temp.sd;
	EXECUTE format('CREATE TEMP TABLE sd AS SELECT t.id, t.%s AS oph, minhash(r.body, shingle => %s, method => ''kperm'') AS kperm,
			shingles(r.body, shingle => %s) AS s
		FROM tl t JOIN lb.raw r USING (id) WHERE t.id IN (SELECT a FROM pg_temp.sp UNION SELECT b FROM pg_temp.sp)',
		col, s.shingle, s.shingle);
	ALTER TABLE pg_temp.sd ADD PRIMARY KEY (id);
	ANALYZE pg_temp.sd;
	INSERT INTO lb.scurve
	SELECT s.name, m.method, z.size_bin, least(floor(z.j * 20)::int, 19), count(*),
		count(*) FILTER (WHERE CASE m.method WHEN 'oph' THEN z.hit_oph ELSE z.hit_kperm END),
		sum(z.p), sum(z.p * (1 - z.p)), sum(z.j)
	FROM (SELECT jaccard(x.s, y.s) AS j,
			width_bucket(least(cardinality(x.s), cardinality(y.s)), ARRAY[32, 64, 128, 512]) AS size_bin,
			x.oph @@ lsh_query(y.oph, s.bands, s.rows, s.min_bands) AS hit_oph,
			x.kperm @@ lsh_query(y.kperm, s.bands, s.rows, s.min_bands) AS hit_kperm,
			lsh_probability(jaccard(x.s, y.s), s.bands, s.rows, s.min_bands) AS p
		  FROM pg_temp.sp JOIN pg_temp.sd x ON x.id = sp.a JOIN pg_temp.sd y ON y.id = sp.b) z,
		(VALUES ('oph'), ('kperm')) m(method)
	GROUP BY 2, 3, 4;
	COMMIT;
	RAISE NOTICE 'set %: S-curve pairs done', s.name;
END $$;

SET lb.scurve_pairs = :scurve_pairs;
DO $$
DECLARE
	n text;
BEGIN
	FOR n IN SELECT name FROM lb.sets ORDER BY ord LOOP
		CALL lb.pair_stats(n);
		CALL lb.scurve(n);
	END LOOP;
END $$;
