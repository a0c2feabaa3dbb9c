-- load.sql: the generated corpus (bench/corpus) as table tl with one minhash column per option
-- set, the benchmark's helpers, and the rows the insert test will add.
--
-- Option sets come from run.sh as :'sets', "name,shingle,threshold,bands,rows,min_bands,bits"
-- separated by spaces; column s_<name> holds minhash(body, shingle => <shingle>) (k = 128, the
-- other options their defaults).  The first set is the one the index comparison, the key-bits
-- trade and the insert test run on.
--
-- The corpus file comes on standard input.  psql variables: sets, insert_rows, workers.

\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
DROP SCHEMA IF EXISTS lb CASCADE;
CREATE SCHEMA lb;

CREATE TABLE lb.sets (ord int PRIMARY KEY, name text UNIQUE NOT NULL, shingle int NOT NULL,
	threshold float8 NOT NULL, bands int NOT NULL, rows int NOT NULL, min_bands int NOT NULL,
	bits int NOT NULL);
INSERT INTO lb.sets
SELECT o, p[1], p[2]::int, p[3]::float8, p[4]::int, p[5]::int, p[6]::int, p[7]::int
FROM regexp_split_to_table(btrim(:'sets'), '\s+') WITH ORDINALITY s(spec, o),
	LATERAL (SELECT string_to_array(spec, ',') AS p) x;

CREATE FUNCTION lb.cpu_ns() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
	RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint;
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END $$;

CREATE TABLE lb.timings (what text, set_name text, variant text, ms float8, cpu_ms float8, rows bigint);
CREATE TABLE lb.sizes (what text, set_name text, variant text, relation text, bytes bigint);

-- One statement in a transaction of its own, timed with its commit.
CREATE PROCEDURE lb.timed(what text, set_name text, variant text, stmt text)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	c0 bigint;
	n bigint;
BEGIN
	COMMIT;
	c0 := lb.cpu_ns();
	t0 := clock_timestamp();
	EXECUTE stmt;
	GET DIAGNOSTICS n = ROW_COUNT;
	COMMIT;
	INSERT INTO lb.timings VALUES (what, set_name, variant,
		1000 * extract(epoch FROM clock_timestamp() - t0), (lb.cpu_ns() - c0) / 1e6, n);
	COMMIT;
END $$;

CREATE PROCEDURE lb.record_size(what text, set_name text, variant text, rel text)
LANGUAGE sql AS $$
	INSERT INTO lb.sizes SELECT what, set_name, variant, rel, pg_relation_size(rel::regclass)
$$;

-- the corpus as it comes
CREATE TABLE lb.raw (id bigint, lang text, site int, family bigint, role text, edit text,
	strength int, published_at timestamptz, body text);
\copy lb.raw FROM pstdin
ALTER TABLE lb.raw ADD PRIMARY KEY (id);
ANALYZE lb.raw;

-- tl: one signature column per option set, all in one pass over the bodies
SET max_parallel_workers_per_gather = :workers;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SELECT format('CREATE TABLE tl AS SELECT id, lang, site, family, role, strength, octet_length(body) AS bytes, %s FROM lb.raw',
	string_agg(format('minhash(body, shingle => %s) AS %I', shingle, 's_' || name), ', ' ORDER BY ord)) AS sign_sql,
	string_agg(name, '+' ORDER BY ord) AS set_names
FROM lb.sets \gset
CALL lb.timed('sign', NULL, :'set_names', :'sign_sql');
RESET max_parallel_workers_per_gather;
ALTER TABLE tl ADD PRIMARY KEY (id);
VACUUM (FREEZE, ANALYZE) tl;
CALL lb.record_size('load', NULL, 'table', 'tl');
INSERT INTO lb.sizes SELECT 'load', NULL, 'toast', 'tl (toast)', pg_relation_size(reltoastrelid)
FROM pg_class WHERE oid = 'tl'::regclass AND reltoastrelid <> 0;

-- the rows the insert test adds: bodies of the table signed anew with another seed (so
-- their keys are new), for the first set
SELECT format('CREATE TABLE lb.new_rows AS SELECT 100000000 + id AS id, lang, site, family, role, strength, octet_length(body) AS bytes, minhash(body, shingle => %s, seed => 1) AS sig FROM lb.raw r JOIN (SELECT id FROM tl ORDER BY hashint8extended(id, 7) LIMIT %s) s USING (id)',
	shingle, :insert_rows) FROM lb.sets WHERE ord = 1 \gset
:format;
VACUUM ANALYZE lb.new_rows;
