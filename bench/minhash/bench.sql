-- bench.sql: the timed queries of the MinHash GIN benchmark on the table :tbl with its GIN
-- index (bits = :bits), in one server session, every answer kept for the exactness check.
--
-- Methods, for each query q of bench.queries and each threshold t of :thresholds:
--     seq   SELECT id FROM tbl WHERE sig % q, textfp.jaccard_threshold = t, a sequential scan
--           (enable_bitmapscan and enable_indexscan off)
--     gin   the same through the GIN index (enable_seqscan off: a bitmap scan)
--     ball  SELECT id FROM tbl WHERE sig <@ jaccard_ball(q, t), through the index
-- For each query (in order) and threshold (in order) the three run one after another, in an
-- order rotated from one (query, threshold) to the next, so the machine's load falls on all
-- alike.  Each run is the query wrapped to keep its answer, as
--     SELECT count(*), array_agg(id ORDER BY id) FROM (SELECT id FROM tbl WHERE ...) s
-- (a few ids at most: no cost to speak of), EXECUTEd from plpgsql with q (and t) as
-- parameters, timed by clock_timestamp() around the EXECUTE (wall, planning included) and by
-- this backend's CPU time (/proc/self/schedstat, less the cost of reading it, measured at the
-- start).  The scan nodes of its plan come from an untimed EXPLAIN just before.  Pass 0 (the
-- first two queries, every threshold and method) is a warm-up and is not reported.
--
-- Then, untimed, the plan the planner picks by itself (nothing disabled) for
-- SELECT id FROM tbl WHERE sig % q, for the first two queries (one of a family, one unrelated)
-- at every threshold, with its row estimate, and the actual rows.
--
-- psql variables: bits, tbl, thresholds (space-separated).

\set ON_ERROR_STOP on
\pset pager off

SET max_parallel_workers_per_gather = 0;
SET jit = off;
SET bench.thresholds = :'thresholds';
SET bench.bits = :'bits';
SET bench.tbl = :'tbl';

-- The scan nodes of a query's plan, joined by '+' (e.g. 'Bitmap Heap Scan+Bitmap Index Scan').
CREATE OR REPLACE FUNCTION bench.scan_nodes(query text, q minhash_sig, t float8) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan USING q, t;
	RETURN (SELECT string_agg(m[1], '+')
			FROM regexp_matches(plan::text, '"Node Type": "([A-Za-z ]*Scan)"', 'g') m);
END $$;

-- The query of a method on a table; $1 the query signature, $2 the threshold.
CREATE OR REPLACE FUNCTION bench.query_sql(tbl text, method text) RETURNS text
IMMUTABLE STRICT LANGUAGE sql AS $$
	SELECT format('SELECT count(*)::int, coalesce(array_agg(id ORDER BY id)::text, ''{}'') FROM (SELECT id FROM %I WHERE %s) s',
		tbl, CASE method WHEN 'ball' THEN 'sig <@ jaccard_ball($1, $2)'
			ELSE 'sig % $1' END)
$$;

-- The cost of one pair of bench.cpu_ns() calls, in ns: the median of 201.
CREATE OR REPLACE FUNCTION bench.cpu_overhead_ns() RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	d float8[] := '{}';
	c0 bigint;
BEGIN
	FOR i IN 1 .. 201 LOOP
		c0 := bench.cpu_ns();
		d := d || (bench.cpu_ns() - c0)::float8;
	END LOOP;
	RETURN (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(d) x);
END $$;

CREATE OR REPLACE PROCEDURE bench.run(pass int)
LANGUAGE plpgsql AS $$
DECLARE
	bits int := current_setting('bench.bits')::int;
	tbl text := current_setting('bench.tbl');
	ntuples bigint := (SELECT reltuples::bigint FROM pg_class WHERE relname = tbl);
	ts float8[] := regexp_split_to_array(btrim(current_setting('bench.thresholds')), '\s+')::float8[];
	methods text[] := ARRAY['seq', 'gin', 'ball'];
	overhead float8 := coalesce(bench.cpu_overhead_ns(), 0);
	qr record;
	ti int;
	mi int;
	m text;
	query text;
	plan text;
	res text;
	cnt int;
	t0 timestamptz;
	t1 timestamptz;
	c0 bigint;
	c1 bigint;
	n int := 0;
	seqno int := coalesce((SELECT max(seq) FROM bench.results WHERE results.bits = current_setting('bench.bits')::int), 0);
BEGIN
	FOR qr IN SELECT * FROM bench.queries WHERE pass > 0 OR qno <= 2 ORDER BY qno LOOP
		FOR ti IN 1 .. array_length(ts, 1) LOOP
			PERFORM set_config('textfp.jaccard_threshold', ts[ti]::text, false);
			FOR mi IN 0 .. 2 LOOP
				m := methods[1 + (mi + qr.qno + ti) % 3];
				PERFORM set_config('enable_seqscan', CASE m WHEN 'seq' THEN 'on' ELSE 'off' END, false);
				PERFORM set_config('enable_bitmapscan', CASE m WHEN 'seq' THEN 'off' ELSE 'on' END, false);
				PERFORM set_config('enable_indexscan', CASE m WHEN 'seq' THEN 'off' ELSE 'on' END, false);
				query := bench.query_sql(tbl, m);
				plan := bench.scan_nodes(query, qr.q, ts[ti]);
				c0 := bench.cpu_ns();
				t0 := clock_timestamp();
				EXECUTE query INTO cnt, res USING qr.q, ts[ti];
				t1 := clock_timestamp();
				c1 := bench.cpu_ns();
				seqno := seqno + 1;
				INSERT INTO bench.results VALUES (bits, ntuples, pass, seqno, qr.qno, qr.qset, ts[ti], m,
					1000 * extract(epoch FROM t1 - t0), (c1 - c0 - overhead) / 1e6, cnt, res, plan);
			END LOOP;
		END LOOP;
		n := n + 1;
		IF pass > 0 AND n % 10 = 0 THEN
			RAISE NOTICE 'bits %: % of % queries done', bits, n, (SELECT count(*) FROM bench.queries);
			COMMIT;
		END IF;
	END LOOP;
	RESET enable_seqscan;
	RESET enable_bitmapscan;
	RESET enable_indexscan;
	RESET textfp.jaccard_threshold;
	COMMIT;
END $$;

\echo warm-up pass (bits = :bits)
CALL bench.run(0);
\echo timed pass (bits = :bits)
CALL bench.run(1);

-- the planner's own choice, nothing disabled, for the first two queries at every threshold
CREATE OR REPLACE PROCEDURE bench.default_plans()
LANGUAGE plpgsql AS $$
DECLARE
	bits int := current_setting('bench.bits')::int;
	tbl text := current_setting('bench.tbl');
	ntuples bigint := (SELECT reltuples::bigint FROM pg_class WHERE relname = tbl);
	ts float8[] := regexp_split_to_array(btrim(current_setting('bench.thresholds')), '\s+')::float8[];
	query text := format('SELECT id FROM %I WHERE sig %% $1', tbl);
	qr record;
	t float8;
	plan json;
	nodes text;
	actual int;
BEGIN
	FOR qr IN SELECT * FROM bench.queries WHERE qno <= 2 ORDER BY qno LOOP
		FOREACH t IN ARRAY ts LOOP
			PERFORM set_config('textfp.jaccard_threshold', t::text, false);
			EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan USING qr.q;
			nodes := (SELECT string_agg(m[1], '+')
					  FROM regexp_matches(plan::text, '"Node Type": "([A-Za-z ]*Scan)"', 'g') m);
			EXECUTE format('SELECT count(*) FROM (%s) s', query) INTO actual USING qr.q;
			INSERT INTO bench.default_plans VALUES (bits, ntuples, t, qr.qno, qr.qset, nodes,
				(plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8,
				(plan -> 0 -> 'Plan' ->> 'Total Cost')::float8, actual);
		END LOOP;
	END LOOP;
	RESET textfp.jaccard_threshold;
END $$;
CALL bench.default_plans();
