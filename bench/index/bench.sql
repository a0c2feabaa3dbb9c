-- bench.sql: the timed queries of the index benchmark, in one server session, with the
-- exactness checks.
--
-- Query kinds:
--     r<N>      SELECT count(*) FROM t WHERE fp <@ hamming_ball(q, N), for each radius N of
--               :radii (run.sh's RADII; 3 is always among them)
--     knn1      SELECT array(SELECT fp <~> q FROM t ORDER BY fp <~> q LIMIT 1)
--     knn10     the same with LIMIT 10
-- Methods:
--     seq       on <set>_seq, which has no index: a sequential scan
--     <method>  each method of bench.methods (load.sql: gist, spgist, gin, gin<N>) on
--               <set>_<method>, which has that index only, enable_seqscan off
-- For each data set and query (near and far sets interleaved), every radius runs through
-- every index, the KNN kinds through the indexes that answer them (the trees; GIN has no
-- ordering), and the sequential scan runs r3 and knn10, the methods one after another in an
-- order rotated from query to query.  A sequential scan costs the same whatever the radius
-- (it tests every row) and whether it keeps 1 or 10 rows, so its r3 stands for every radius
-- and its knn10 for both KNN kinds (and is the reference for their answers); at 1M rows each
-- costs most of a second on a busy 2-core VM, which is what keeps the run short.  knn10, and
-- knn1 on the far set, take seconds through either tree at 1M rows (the search has to reach
-- distance 14 or more), so they run on the first :knn_queries queries of each set only (the
-- sequential knn10 still runs on every near query, for their knn1).
--
-- Each run is timed as wall clock (clock_timestamp() around a plpgsql EXECUTE, planning
-- included); its answer (the count, or the list of distances) is kept for the exactness
-- check, and the scan nodes of its plan (EXPLAIN, untimed, just before) are recorded.  Pass 0
-- (near query 1, r3 and knn1, every method that runs them) is a warm-up and is not reported.
--
-- The reference answers for exactness (pass -2): the counts for every radius of :radii and
-- for :threshold from one pass over each table computing fp <~> q for every (row, query)
-- pair, a different operator and no index; the KNN lists from the timed sequential knn10.
-- Then, untimed, fp % q (textfp.hamming_threshold = :threshold) and fp = q through each
-- index, to compare with the r<threshold> and r0 counts (% on the first :knn_queries
-- queries of each set, = on all).  Last, the plans the planner picks by itself (nothing
-- disabled) for query 1 of each set.
--
-- With :session_map = 1 (run.sh's SESSION_MAP), the timed pass of each data set begins by
-- reading every page of its tables and indexes in this session (get_raw_page), untimed: a
-- backend's first touch of a shared buffer is a page fault that maps it (40 to 70 us on a VM
-- such as ours), which the sequential scan's pages have behind them after its warm-up run
-- and an index's scattered pages do not, at 10M rows, for hundreds of queries.
--
-- psql variables: knn_queries, radii, threshold, session_map; results, plans (output files).

\set ON_ERROR_STOP on
\pset pager off

SET max_parallel_workers_per_gather = 0;
SET jit = off;
SET textfp.hamming_threshold = :threshold;
SET bench.knn_queries = :'knn_queries';
SET bench.session_map = :'session_map';
SELECT :'session_map' = '1' AS session_map \gset
\if :session_map
CREATE EXTENSION IF NOT EXISTS pageinspect;
-- Reads every page of a relation through shared buffers in this backend.
CREATE FUNCTION bench.map_pages(rel regclass) RETURNS bigint
LANGUAGE sql AS $$
	SELECT count(length(get_raw_page(rel::text, b::int)))
	FROM generate_series(0, pg_relation_size(rel) / current_setting('block_size')::int - 1) b
$$;
\endif

-- the radii timed (3 always: the sequential scan's), and those the reference counts
CREATE TABLE bench.radii AS
SELECT DISTINCT r::int AS r FROM unnest(regexp_split_to_array(btrim(:'radii') || ' 3', '\s+')) r;
CREATE TABLE bench.ref_radii AS
SELECT r FROM bench.radii UNION SELECT current_setting('textfp.hamming_threshold')::int UNION SELECT 0;

CREATE TABLE bench.results (
	pass int, seq int, dataset text, qset text, qno int, kind text, method text,
	ms float8, result text, plan text);

CREATE FUNCTION bench.query_sql(tbl text, kind text, q simhash64) RETURNS text
IMMUTABLE STRICT LANGUAGE sql AS $$
	SELECT CASE
		WHEN kind ~ '^r[0-9]+$' THEN format(
			'SELECT count(*)::text FROM %I WHERE fp <@ hamming_ball(%L::simhash64, %s)',
			tbl, q, substr(kind, 2))
		WHEN kind ~ '^knn[0-9]+$' THEN format(
			'SELECT array(SELECT fp <~> %2$L::simhash64 FROM %1$I ORDER BY fp <~> %2$L::simhash64 LIMIT %3$s)::text',
			tbl, q, substr(kind, 4))
		WHEN kind = 'pct' THEN format('SELECT count(*)::text FROM %I WHERE fp %% %L::simhash64', tbl, q)
		WHEN kind = 'eq' THEN format('SELECT count(*)::text FROM %I WHERE fp = %L::simhash64', tbl, q)
	END
$$;

-- A query's one-value answer.
CREATE FUNCTION bench.eval(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	r text;
BEGIN
	EXECUTE query INTO r;
	RETURN r;
END $$;

-- The scan nodes of a query's plan, joined by '+' (e.g. 'Bitmap Heap Scan+Bitmap Index Scan').
CREATE FUNCTION bench.scan_nodes(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (SELECT string_agg(m[1], '+')
			FROM regexp_matches(plan::text, '"Node Type": "([A-Za-z ]*Scan)"', 'g') m);
END $$;

-- The methods that run a kind on a query (see the top of the file), or null.  The
-- sequential knn10 also runs on every near query: it is the reference for their knn1.
CREATE FUNCTION bench.methods_for(kind text, qset text, qno int) RETURNS text[]
STABLE STRICT LANGUAGE sql AS $$
	SELECT CASE
		WHEN kind = 'r3' THEN ARRAY['seq'] || every
		WHEN kind ~ '^r[0-9]+$' THEN every
		WHEN kind = 'knn1' AND (qset = 'near' OR qno <= k) THEN knn
		WHEN kind = 'knn10' AND qno <= k THEN ARRAY['seq'] || knn
		WHEN kind = 'knn10' AND qset = 'near' THEN ARRAY['seq']
	END
	FROM (SELECT current_setting('bench.knn_queries')::int AS k,
			ARRAY(SELECT method FROM bench.methods ORDER BY ord) AS every,
			ARRAY(SELECT method FROM bench.methods WHERE knn ORDER BY ord) AS knn) s
$$;

-- Runs the queries of one data set; pass 0 is the warm-up.
CREATE PROCEDURE bench.run_dataset(ds text, pass int)
LANGUAGE plpgsql AS $$
DECLARE
	kinds text[] := CASE WHEN pass = 0 THEN ARRAY['r3', 'knn1']
		ELSE (SELECT array_agg('r' || r ORDER BY r) FROM bench.radii) || ARRAY['knn1', 'knn10'] END;
	methods text[];
	qr record;
	ki int;
	mi int;
	nm int;
	m text;
	query text;
	res text;
	plan text;
	t0 timestamptz;
	t1 timestamptz;
	n int := 0;
	seqno int := coalesce((SELECT max(seq) FROM bench.results), 0);
	rel regclass;
BEGIN
	IF pass > 0 AND current_setting('bench.session_map') = '1' THEN
		FOR rel IN SELECT c.oid::regclass FROM pg_class c
				WHERE c.relname = ds || '_seq'
				   OR c.relname IN (SELECT ds || '_' || method FROM bench.methods)
				   OR c.relname IN (SELECT ds || '_' || method || '_fp' FROM bench.methods)
				ORDER BY c.relname LOOP
			PERFORM bench.map_pages(rel);
		END LOOP;
		RAISE NOTICE '%: pages mapped into the timing session', ds;
	END IF;
	FOR qr IN SELECT * FROM bench.queries
			WHERE dataset = ds AND (pass > 0 OR (qno = 1 AND qset = 'near'))
			ORDER BY qno, qset LOOP
		FOR ki IN 1 .. array_length(kinds, 1) LOOP
			methods := bench.methods_for(kinds[ki], qr.qset, qr.qno);
			nm := coalesce(array_length(methods, 1), 0);
			FOR mi IN 0 .. nm - 1 LOOP
				m := methods[1 + (mi + qr.qno + ki) % nm];
				PERFORM set_config('enable_seqscan', CASE m WHEN 'seq' THEN 'on' ELSE 'off' END, false);
				query := bench.query_sql(ds || '_' || m, kinds[ki], qr.q);
				plan := bench.scan_nodes(query);
				t0 := clock_timestamp();
				EXECUTE query INTO res;
				t1 := clock_timestamp();
				seqno := seqno + 1;
				INSERT INTO bench.results VALUES (pass, seqno, ds, qr.qset, qr.qno, kinds[ki], m,
					1000 * extract(epoch FROM t1 - t0), res, plan);
			END LOOP;
		END LOOP;
		n := n + 1;
		IF pass > 0 AND n % 20 = 0 THEN
			RAISE NOTICE '%: % of % queries done', ds, n,
				(SELECT count(*) FROM bench.queries WHERE dataset = ds);
			COMMIT;
		END IF;
	END LOOP;
	PERFORM set_config('enable_seqscan', 'on', false);
	COMMIT;
END $$;

\echo warm-up pass
SELECT format('CALL bench.run_dataset(%L, 0)', d) FROM unnest(bench.dataset_list()) d
\gexec
\echo timed pass
SELECT format('CALL bench.run_dataset(%L, 1)', d) FROM unnest(bench.dataset_list()) d
\gexec

\echo reference counts
-- One pass over each table (the 2 * :queries queries held in memory, fp <~> q per pair),
-- a histogram of distances up to the largest radius per query, then cumulative: the count
-- within radius r.
CREATE TABLE bench.ref_hist (dataset text, qset text, qno int, d int, n bigint);
SELECT format($q$
	INSERT INTO bench.ref_hist
	SELECT %1$L, q.qset, q.qno, t.fp <~> q.q, count(*)
	FROM %2$I t, (SELECT * FROM bench.queries WHERE dataset = %1$L OFFSET 0) q
	WHERE t.fp <~> q.q <= (SELECT max(r) FROM bench.ref_radii)
	GROUP BY 1, 2, 3, 4$q$, d, d || '_seq')
FROM unnest(bench.dataset_list()) d
\gexec
INSERT INTO bench.results
SELECT -2, NULL, q.dataset, q.qset, q.qno, 'r' || r, 'ref', NULL,
	(SELECT coalesce(sum(n), 0) FROM bench.ref_hist h
	 WHERE (h.dataset, h.qset, h.qno) = (q.dataset, q.qset, q.qno) AND h.d <= r)::text,
	'Seq Scan'
FROM bench.queries q, bench.ref_radii;

\echo exactness-only checks
-- % and = through each index (compared with the r<threshold> and r0 counts)
SET enable_seqscan = off;
INSERT INTO bench.results
SELECT -1, NULL, q.dataset, q.qset, q.qno, k, m, NULL,
	bench.eval(bench.query_sql(q.dataset || '_' || m, k, q.q)),
	bench.scan_nodes(bench.query_sql(q.dataset || '_' || m, k, q.q))
FROM bench.queries q, unnest(ARRAY['pct', 'eq']) k, (SELECT method FROM bench.methods) x(m)
WHERE k = 'eq' OR q.qno <= current_setting('bench.knn_queries')::int;
RESET enable_seqscan;

-- the planner's own choice, nothing disabled, for query 1 of each set
CREATE TABLE bench.default_plans AS
SELECT q.dataset, q.qset, k AS kind, m AS method,
	bench.scan_nodes(bench.query_sql(q.dataset || '_' || m, k, q.q)) AS plan
FROM bench.queries q,
	unnest((SELECT array_agg('r' || r ORDER BY r) FROM bench.radii) || '{knn1,knn10}'::text[]) k,
	(SELECT method, knn FROM bench.methods) x(m, knn)
WHERE q.qno = 1 AND (k !~ '^knn' OR x.knn);

\o :results
COPY (SELECT * FROM bench.results ORDER BY pass, seq, dataset, qset, qno, kind, method) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
\o :plans
COPY (SELECT * FROM bench.default_plans ORDER BY 1, 2, 3, 4) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
