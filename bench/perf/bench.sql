-- bench.sql: the simhash(text) cost benchmark, in one server session.
--
-- Expects tables bench_en and bench_zh (copy int, source text, body text) and, for the
-- MinHash signing step alone, bench_en_sh and bench_zh_sh (id, sh bigint[]: the rows'
-- shingles(body), made once, stored), loaded by run.sh, and psql variables rounds
-- (measured rounds), results (file for the raw timings) and corpus (file for the corpus
-- statistics).
--
-- Every method is timed as EXPLAIN (ANALYZE, TIMING OFF) of
--     SELECT count(*) FROM bench_<lang><suffix> WHERE <expr> IS NOT NULL
-- (suffix '' for the expressions of body, '_sh' for those of the stored shingle arrays)
-- so the function runs once per row and nothing but one count goes back to the client.
-- Two measurements: "Execution Time" (wall clock, planning excluded), and the backend's
-- own time on a CPU over the query, from /proc/self/schedstat, which other processes on a
-- busy machine do not inflate.  Round 0 is a warm-up (all methods, both languages,
-- recorded but not reported) that brings the heap and TOAST pages into shared buffers and
-- lets ICU and textfp build their caches.  Then come :rounds rounds, each timing every
-- method on both languages, in an order rotated by one each round so no method always
-- follows the same neighbour.

\set ON_ERROR_STOP on
\pset pager off

-- per core, no JIT, no parallel workers
SET max_parallel_workers_per_gather = 0;
SET jit = off;

-- input: 'body' (table bench_<lang>) or 'sh' (table bench_<lang>_sh)
CREATE TEMP TABLE bench_methods (ord int, method text, expr text, input text NOT NULL DEFAULT 'body');
INSERT INTO bench_methods (ord, method, expr) VALUES
	(1, 'textcat(body, '''')', 'textcat(body, '''')'),	-- detoast and copy only
	(2, 'md5(body)', 'md5(body)'),
	(3, 'to_tsvector(''simple'', body)', 'to_tsvector(''simple'', body)'),
	(4, 'simhash(body)', 'simhash(body)'),
	(5, 'simhash(body, simplify => true)', 'simhash(body, simplify => true)'),
	(6, 'simhash(body, tokenizer => ''icu'')', 'simhash(body, tokenizer => ''icu'')'),
	-- where simhash's time goes: its first stage alone, and the pipeline without stopwords
	(7, 'textfp_normalize(body)', 'textfp_normalize(body)'),
	(8, 'simhash(body, stopwords => ''none'')', 'simhash(body, stopwords => ''none'')'),
	-- MinHash from text, same pipeline and default options as simhash(body): one-permutation
	-- hashing (the default), the k-hash reference, a longer signature, and the pipeline alone
	-- making the sorted distinct shingle set
	(9, 'minhash(body)', 'minhash(body)'),
	(10, 'minhash(body, method => ''kperm'')', 'minhash(body, method => ''kperm'')'),
	(11, 'minhash(body, k => 256)', 'minhash(body, k => 256)'),
	(12, 'shingles(body)', 'shingles(body)');
-- 1.1's weights (issue 22): sublinear TF, and TF-IDF with a model of both tables (built once
-- below, read by an InitPlan once per query), with the recommended stopwords
INSERT INTO bench_methods (ord, method, expr) VALUES
	(16, 'simhash(body, ''null'', stopwords => ''zh+snowball'')', 'simhash(body, ''null'', stopwords => ''zh+snowball'')'),
	(17, 'simhash(body, ''null'', stopwords => ''zh+snowball'', weighting => ''sublinear'')',
		'simhash(body, ''null'', stopwords => ''zh+snowball'', weighting => ''sublinear'')'),
	(18, 'simhash(body, ''null'', stopwords => ''zh+snowball'', weighting => ''sublinear'', idf => m)',
		'simhash(body, ''null'', stopwords => ''zh+snowball'', weighting => ''sublinear'', idf => (SELECT m FROM bench_idf))'),
	(19, 'simhash(body, ''null'', stopwords => ''zh+snowball'', idf => m, numbers => ''drop'', keywords => 128)',
		'simhash(body, ''null'', stopwords => ''zh+snowball'', idf => (SELECT m FROM bench_idf), numbers => ''drop'', keywords => 128)');
CREATE TEMP TABLE bench_idf AS
	SELECT idf_model(simhash_features(body, stopwords => 'zh+snowball')) AS m
	FROM (SELECT body FROM bench_en UNION ALL SELECT body FROM bench_zh) b;
-- the signing step alone, from the same rows' stored shingle arrays (sh = shingles(body)):
-- the floor (detoast the array), then both methods at k = 128
INSERT INTO bench_methods (ord, method, expr, input) VALUES
	(13, 'cardinality(sh)', 'cardinality(sh)', 'sh'),
	(14, 'minhash(sh)', 'minhash(sh)', 'sh'),
	(15, 'minhash(sh, method => ''kperm'')', 'minhash(sh, method => ''kperm'')', 'sh');

CREATE TEMP TABLE bench_results (
	round int, seq int, lang text, method text, ms float8, cpu_ms float8, rows_evaluated bigint);

-- This backend's time on a CPU so far, in ns (/proc/self/schedstat, first field), or null
-- where the kernel does not give it.  Unlike the wall clock it does not grow while other
-- processes on a busy machine hold the CPU.
CREATE FUNCTION pg_temp.bench_cpu_ns() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
	RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint;
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END $$;

-- One timed query: execution time (wall) and this backend's CPU time less planning, in
-- ms, and the rows the scan evaluated the expression on.
CREATE FUNCTION pg_temp.bench_time(query text, OUT ms float8, OUT cpu_ms float8,
	OUT rows_evaluated bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	cpu0 bigint;
BEGIN
	cpu0 := pg_temp.bench_cpu_ns();
	EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	ms := (plan -> 0 ->> 'Execution Time')::float8;
	-- planning is CPU work too, and not part of the execution being compared
	cpu_ms := (pg_temp.bench_cpu_ns() - cpu0) / 1e6 - (plan -> 0 ->> 'Planning Time')::float8;
	rows_evaluated := (plan -> 0 -> 'Plan' -> 'Plans' -> 0 ->> 'Actual Rows')::bigint;
END $$;

-- Corpus statistics, once.
\o :corpus
SELECT lang, count(*) AS rows_total, count(*) FILTER (WHERE copy = 1) AS rows_unique,
	max(copy) AS copies, sum(octet_length(body)) AS bytes_total,
	round(avg(length(body)), 1) AS mean_chars, round(avg(octet_length(body)), 1) AS mean_bytes,
	min(length(body)) AS min_chars, max(length(body)) AS max_chars,
	round(avg(shingles), 1) AS mean_shingles, min(shingles) AS min_shingles,
	max(shingles) AS max_shingles
FROM (SELECT 'en' AS lang, copy, body, cardinality(sh) AS shingles
	  FROM bench_en JOIN bench_en_sh USING (id)
	  UNION ALL SELECT 'zh', copy, body, cardinality(sh)
	  FROM bench_zh JOIN bench_zh_sh USING (id)) s
GROUP BY lang ORDER BY lang
\g (format=unaligned fieldsep='\t' tuples_only=off footer=off)
\o

SET bench.rounds = :'rounds';

DO $$
DECLARE
	nrounds int := current_setting('bench.rounds')::int;
	nmethods int := (SELECT count(*) FROM bench_methods);
	r int;
	i int;
	seq int := 0;
	m record;
	lang text;
	t record;
BEGIN
	FOR r IN 0 .. nrounds LOOP
		FOR i IN 0 .. nmethods - 1 LOOP
			SELECT * INTO m FROM bench_methods
				WHERE ord = 1 + (i + r) % nmethods;
			FOREACH lang IN ARRAY ARRAY['en', 'zh'] LOOP
				SELECT * INTO t FROM pg_temp.bench_time(format(
					'SELECT count(*) FROM bench_%s%s WHERE %s IS NOT NULL', lang,
					CASE m.input WHEN 'sh' THEN '_sh' ELSE '' END, m.expr));
				seq := seq + 1;
				INSERT INTO bench_results VALUES (r, seq, lang, m.method, t.ms, t.cpu_ms, t.rows_evaluated);
			END LOOP;
		END LOOP;
		RAISE NOTICE 'round % of % done', r, nrounds;
	END LOOP;
END $$;

\o :results
SELECT r.round, r.seq, r.lang, m.ord, r.method, round(r.ms::numeric, 3) AS ms,
	round(r.cpu_ms::numeric, 3) AS cpu_ms, r.rows_evaluated, m.input
FROM bench_results r JOIN bench_methods m USING (method)
ORDER BY r.seq
\g (format=unaligned fieldsep='\t' tuples_only=off footer=off)
\o
