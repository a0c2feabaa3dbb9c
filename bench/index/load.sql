-- load.sql: the index methods, the rows and the queries of the index benchmark,
-- deterministic from :rows and :queries (psql variables).
--
-- Methods (:methods, space-separated, run.sh's METHODS) go into bench.methods with their
-- USING clause, from bench.index_using, the one place that knows them:
--   gist      USING gist (fp)
--   spgist    USING spgist (fp)
--   gin       USING gin (fp)                                  (default blocks = 4)
--   gin<N>    USING gin (fp gin_simhash64_ops (blocks = N))   (N = 2..32)
--   mih       USING mih (fp)                                  (m from the table's size)
--   mih<N>    USING mih (fp) WITH (m = N)                     (N = 4..16)
-- and whether they answer KNN (ORDER BY fp <~> q): the trees do, GIN and mih have no ordering.
--
-- Data sets (:datasets, run.sh's DATASETS, into bench.datasets) of :rows fingerprints each:
--   uniform    every fingerprint 64 pseudo-random bits
--   clustered  planted families of near duplicates: ids come in blocks of ten, one block a
--              family; the first row is the family root (64 pseudo-random bits), the next 7
--              to 9 (mean 8) its members, each the root with 1 to 6 distinct bits flipped
--              (uniformly), and the rest of the block (0 to 2 rows, mean 1) pseudo-random
--              fingerprints unrelated to anything.  At 1M rows: 100k families (roots),
--              800k members, 100k unrelated rows.
--   textlike   the default simhash of bench/corpus's generated documents, in their order
--              (table bench_textlike_src, made by run.sh: ids 1 .. :rows for the table, then
--              the rows to insert, then the documents of the far queries)
-- Each data set goes into one table per method plus one, with the same rows in the same
-- order: <set>_seq (no index) and <set>_<method> (one index each, built by build.sql).
--
-- Queries, :queries of each kind per data set:
--   near  a row's fingerprint (row chosen pseudo-randomly) with 1 or 2 bits flipped
--         (alternately), so some row lies within 2 bits
--   far   64 pseudo-random bits; at 1M rows the nearest row is typically 11 to 14 bits away
--         (textlike: the fingerprints of :queries documents not in the table)
-- And :insert_rows new rows per data set for insert.sql's INSERT ... SELECT (bench_new_<set>),
-- then :single_rows for its single-row commits (bench_single_<set>), ids after the loaded
-- ones.
--
-- psql variables: datasets, methods, rows, queries, insert_rows, single_rows.

\set ON_ERROR_STOP on

CREATE EXTENSION IF NOT EXISTS textfp;
CREATE EXTENSION pg_prewarm;
CREATE SCHEMA bench;

CREATE TABLE bench.datasets (
	ord int PRIMARY KEY,
	dataset text UNIQUE NOT NULL CHECK (dataset IN ('uniform', 'clustered', 'textlike')));
INSERT INTO bench.datasets
SELECT ord, d FROM unnest(regexp_split_to_array(btrim(:'datasets'), '\s+')) WITH ORDINALITY u(d, ord);

-- The data sets in the order given.
CREATE FUNCTION bench.dataset_list() RETURNS text[]
STABLE LANGUAGE sql AS $$ SELECT array_agg(dataset ORDER BY ord) FROM bench.datasets $$;

-- A mask with exactly d (0..6) distinct bits set, chosen by seed: bit positions a, a + b,
-- a + 2b, ... (mod 64) with a = seed bits 0..5 and b = seed bits 6..11 made odd, so distinct.
CREATE FUNCTION bench.flip_mask(seed bigint, d int) RETURNS bigint
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql
AS $$
	SELECT (CASE WHEN d > 0 THEN 1::bigint << (seed & 63)::int ELSE 0 END)
		| (CASE WHEN d > 1 THEN 1::bigint << (((seed & 63) + 1 * (((seed >> 6) & 63) | 1)) % 64)::int ELSE 0 END)
		| (CASE WHEN d > 2 THEN 1::bigint << (((seed & 63) + 2 * (((seed >> 6) & 63) | 1)) % 64)::int ELSE 0 END)
		| (CASE WHEN d > 3 THEN 1::bigint << (((seed & 63) + 3 * (((seed >> 6) & 63) | 1)) % 64)::int ELSE 0 END)
		| (CASE WHEN d > 4 THEN 1::bigint << (((seed & 63) + 4 * (((seed >> 6) & 63) | 1)) % 64)::int ELSE 0 END)
		| (CASE WHEN d > 5 THEN 1::bigint << (((seed & 63) + 5 * (((seed >> 6) & 63) | 1)) % 64)::int ELSE 0 END)
$$;

-- Rows lo..hi of a data set.  Pseudo-random bits come from hashint8extended(value, seed),
-- PostgreSQL's 64-bit integer hash (stable across platforms and releases, as hash
-- partitioning needs), with a different seed for each purpose.
CREATE FUNCTION bench.gen(dataset text, lo bigint, hi bigint) RETURNS TABLE (id int, fp simhash64)
IMMUTABLE LANGUAGE sql AS $$
	SELECT i::int, (CASE
			WHEN dataset = 'uniform' THEN hashint8extended(i, 1)
			WHEN slot = 0 THEN root
			WHEN slot <= members THEN root # bench.flip_mask(seed, 1 + ((seed >> 12) & 65535)::int % 6)
			ELSE hashint8extended(i, 4)
		END)::simhash64
	FROM generate_series(lo, hi) i,
		LATERAL (SELECT (i - 1) % 10 AS slot,                             -- place in the family
				hashint8extended((i - 1) / 10, 2) AS root,                    -- the family root
				7 + (hashint8extended((i - 1) / 10, 3) & 65535)::int % 3 AS members,  -- 7..9
				hashint8extended(i, 5) AS seed) f                            -- this member's flips
$$;

-- Rows lo..hi of any data set: textlike's from bench_textlike_src (run.sh loads it), the
-- others from bench.gen.
CREATE FUNCTION bench.rows_of(dataset text, lo bigint, hi bigint) RETURNS TABLE (id int, fp simhash64)
STABLE LANGUAGE plpgsql AS $$
BEGIN
	IF dataset = 'textlike' THEN
		RETURN QUERY EXECUTE 'SELECT id::int, fp FROM bench_textlike_src WHERE id BETWEEN $1 AND $2 ORDER BY id'
			USING lo, hi;
	ELSE
		RETURN QUERY SELECT * FROM bench.gen(dataset, lo, hi);
	END IF;
END $$;

-- A method's name -> what follows USING; an error for any other name.
CREATE FUNCTION bench.index_using(method text) RETURNS text
IMMUTABLE STRICT LANGUAGE plpgsql AS $$
BEGIN
	IF method IN ('gist', 'spgist', 'gin') THEN
		RETURN method || ' (fp)';
	ELSIF method ~ '^gin[1-9][0-9]?$' AND substr(method, 4)::int BETWEEN 2 AND 32 THEN
		RETURN format('gin (fp gin_simhash64_ops (blocks = %s))', substr(method, 4));
	ELSIF method = 'mih' THEN
		RETURN 'mih (fp)';
	ELSIF method ~ '^mih[1-9][0-9]?$' AND substr(method, 4)::int BETWEEN 4 AND 16 THEN
		RETURN format('mih (fp) WITH (m = %s)', substr(method, 4));
	END IF;
	RAISE EXCEPTION 'unknown index method "%"', method
		USING HINT = 'METHODS takes gist, spgist, gin, gin2 .. gin32, mih and mih4 .. mih16';
END $$;

-- The methods in the order given; ord also sets the order of the tables and the report.
CREATE TABLE bench.methods (
	ord int PRIMARY KEY, method text UNIQUE NOT NULL, using_clause text NOT NULL, knn bool NOT NULL);
INSERT INTO bench.methods
SELECT ord, m, bench.index_using(m), m !~ '^(gin|mih)'
FROM unnest(regexp_split_to_array(btrim(:'methods'), '\s+')) WITH ORDINALITY u(m, ord);

SET bench.rows = :'rows';
SET bench.queries = :'queries';
SET bench.insert_rows = :'insert_rows';
SET bench.single_rows = :'single_rows';

DO $$
DECLARE
	n bigint := current_setting('bench.rows')::bigint;
	got bigint;
	ds text;
	m text;
BEGIN
	FOREACH ds IN ARRAY bench.dataset_list() LOOP
		EXECUTE format('CREATE TABLE %I (id int NOT NULL, fp simhash64 NOT NULL)', ds || '_seq');
		EXECUTE format('INSERT INTO %I SELECT * FROM bench.rows_of(%L, 1, %s)', ds || '_seq', ds, n);
		EXECUTE format('SELECT count(*) FROM %I', ds || '_seq') INTO got;
		IF got <> n THEN
			RAISE EXCEPTION 'data set % has % rows, not %', ds, got, n;
		END IF;
		FOR m IN SELECT method FROM bench.methods ORDER BY ord LOOP
			EXECUTE format('CREATE TABLE %I (LIKE %I)', ds || '_' || m, ds || '_seq');
			EXECUTE format('INSERT INTO %I SELECT * FROM %I', ds || '_' || m, ds || '_seq');
		END LOOP;
		RAISE NOTICE '% rows of % loaded', n, ds;
	END LOOP;
END $$;

CREATE TABLE bench.queries (
	dataset text, qset text, qno int, q simhash64, src_id int, flipped int,
	PRIMARY KEY (dataset, qset, qno));

DO $$
DECLARE
	n bigint := current_setting('bench.rows')::bigint;
	nq int := current_setting('bench.queries')::int;
	held_out bigint := n + current_setting('bench.insert_rows')::bigint
		+ current_setting('bench.single_rows')::bigint;
	ds text;
BEGIN
	FOREACH ds IN ARRAY bench.dataset_list() LOOP
		EXECUTE format($q$
			INSERT INTO bench.queries
			SELECT %1$L, 'near', p.k,
				(t.fp::bigint # bench.flip_mask(hashint8extended(p.k, 7), 1 + p.k %% 2))::simhash64,
				t.id, 1 + p.k %% 2
			FROM (SELECT k, 1 + abs(hashint8extended(k, 6) %% %4$s) AS id
				  FROM generate_series(1, %2$s) k) p
			JOIN %3$I t USING (id)$q$,
			ds, nq, ds || '_seq', n);
		IF ds = 'textlike' THEN
			INSERT INTO bench.queries
			SELECT ds, 'far', row_number() OVER (ORDER BY id), fp, NULL, NULL
			FROM bench.rows_of(ds, held_out + 1, held_out + nq);
		ELSE
			INSERT INTO bench.queries
			SELECT ds, 'far', k, hashint8extended(k, CASE ds WHEN 'uniform' THEN 8 ELSE 9 END)::simhash64,
				NULL, NULL
			FROM generate_series(1, nq) k;
		END IF;
	END LOOP;
END $$;

-- the table list depends on the methods: VACUUM cannot run in a DO block, so \gexec
SELECT format('VACUUM (ANALYZE) %s, bench.queries',
	string_agg(format('%I', d || '_' || m), ', ' ORDER BY d, o))
FROM unnest(bench.dataset_list()) d,
	(SELECT 0, 'seq' UNION ALL SELECT ord, method FROM bench.methods) x(o, m)
\gexec

-- new rows for the insert test: the same generators, ids after the loaded ones
DO $$
DECLARE
	n bigint := current_setting('bench.rows')::bigint;
	ni bigint := current_setting('bench.insert_rows')::bigint;
	ns bigint := current_setting('bench.single_rows')::bigint;
	ds text;
BEGIN
	FOREACH ds IN ARRAY bench.dataset_list() LOOP
		EXECUTE format('CREATE TABLE %I AS SELECT * FROM bench.rows_of(%L, %s, %s)',
			'bench_new_' || ds, ds, n + 1, n + ni);
		EXECUTE format('CREATE TABLE %I AS SELECT * FROM bench.rows_of(%L, %s, %s)',
			'bench_single_' || ds, ds, n + ni + 1, n + ni + ns);
	END LOOP;
END $$;
