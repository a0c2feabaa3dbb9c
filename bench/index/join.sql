-- join.sql: self-joins through an index, every pair of rows near each other.
--
-- For each data set and each method of :join_methods (run.sh's JOIN_METHODS, among the
-- loaded methods), two joins of <set>_<method> with itself:
--   pct  SELECT count(*) FROM t a JOIN t b ON b.fp % a.fp AND a.id < b.id WHERE a.id <= :join_outer
--        (textfp.hamming_threshold = :threshold)
--   r3   the same with b.fp <@ hamming_ball(a.fp, 3)
-- a.id < b.id counts each pair once and leaves out each row's match with itself; a.id <=
-- :join_outer takes the first rows as the outer side (run.sh: at most 100000 by default, as
-- the % join through GIN costs several ms per outer row at 1M rows).  The planner
-- picks the plan, nothing disabled; the plan wanted is a Nested Loop over the outer rows
-- whose inner side probes the index on b.fp once per outer row (a Bitmap Heap Scan over a
-- Bitmap Index Scan for GIN, an Index or Index Only Scan for the trees).  If the planner's
-- plan does not probe that index, enable_seqscan = off is tried and the run marked forced;
-- if the plan still does not, the join is not run (a nested loop of sequential scans at 1M
-- rows would take days), and the report says so.
--
-- Timed like bench.timed: the statement in a transaction of its own, wall time including the
-- commit, CPU time from /proc/self/schedstat; the count is kept.  Recorded with it, from an
-- EXPLAIN (FORMAT JSON) without ANALYZE just before, untimed: the plan (node types with their
-- tables and indexes) and the planner's estimate of the join node's rows ("Plan Rows"), to
-- set against the count, which is the join node's actual row count.
--
-- Exactness: each join also runs (stage 'check') on the first :join_check_outer outer rows
-- only, and is compared with a reference (stage 'ref') computed per data set on <set>_seq,
-- which has no index (bitmap and index scans disabled besides), with <~>, a different
-- operator from the two under test: a nested loop that scans the whole table once per outer
-- row, one pass for both joins (pairs within the threshold, and within 3).  At 1M rows that
-- is a sequential scan's time per outer row.  The checks run before the timed joins and so
-- also warm up the session and its plans.
--
-- psql variables: join_methods, join_outer, join_check_outer, threshold; joins (output file).

\set ON_ERROR_STOP on
\pset pager off

SET max_parallel_workers_per_gather = 0;
SET jit = off;
SET textfp.hamming_threshold = :threshold;
SET bench.join_methods = :'join_methods';
SET bench.join_outer = :'join_outer';
SET bench.join_check_outer = :'join_check_outer';

-- stage: 'check' (first join_check_outer outer rows), 'ref' (method 'seq', the reference
-- pass, both ops from one pass: ms is that pass's) or 'timed' (first join_outer outer rows).
-- ms, cpu_ms and pairs are null for a join not run.
CREATE TABLE bench.joins (
	seq serial, dataset text, method text, op text, stage text, outer_rows bigint,
	ms float8, cpu_ms float8, pairs bigint, est_rows float8, plan text, forced bool);

CREATE FUNCTION bench.join_sql(tbl text, op text, outer_max bigint) RETURNS text
IMMUTABLE STRICT LANGUAGE sql AS $$
	SELECT format('SELECT count(*) FROM %1$I a JOIN %1$I b ON %2$s AND a.id < b.id WHERE a.id <= %3$s',
		tbl, CASE op WHEN 'pct' THEN 'b.fp % a.fp' WHEN 'r3' THEN 'b.fp <@ hamming_ball(a.fp, 3)' END,
		outer_max)
$$;

-- A plan node and its children, worded as EXPLAIN words them, e.g. 'Nested Loop(Seq Scan on
-- t a, Bitmap Heap Scan on t b(Bitmap Index Scan on t_fp))', 'Index Scan using t_fp on t b'.
CREATE FUNCTION bench.plan_text(node jsonb) RETURNS text
IMMUTABLE STRICT LANGUAGE plpgsql AS $$
BEGIN
	RETURN concat_ws(' ', node->>'Node Type',
			CASE WHEN node ? 'Relation Name' THEN 'using ' END || (node->>'Index Name'),
			CASE WHEN NOT node ? 'Relation Name' THEN 'on ' END || (node->>'Index Name'),
			'on ' || (node->>'Relation Name'), node->>'Alias')
		|| coalesce('(' || (SELECT string_agg(bench.plan_text(c), ', ' ORDER BY i)
			FROM jsonb_array_elements(node->'Plans') WITH ORDINALITY x(c, i)) || ')', '');
END $$;

-- A join's plan (under its Aggregate), the estimated rows of the join node, and whether it is
-- a Nested Loop whose inner side probes the index idx.
CREATE FUNCTION bench.join_plan(query text, idx text, OUT plan text, OUT est_rows float8, OUT ok bool)
LANGUAGE plpgsql AS $$
DECLARE
	j jsonb;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO j;
	j := j->0->'Plan'->'Plans'->0;
	plan := bench.plan_text(j);
	est_rows := (j->>'Plan Rows')::float8;
	ok := j->>'Node Type' = 'Nested Loop'
		AND j->'Plans'->1->>'Node Type' IN ('Bitmap Heap Scan', 'Index Scan', 'Index Only Scan')
		AND jsonb_path_exists(j->'Plans'->1, '$.** ? (@."Index Name" == $i)', jsonb_build_object('i', idx));
END $$;

-- One join through the index of <ds>_<m>, timed and recorded.  CALL it at top level (or from
-- a top-level DO) so that it may commit.
CREATE PROCEDURE bench.join(ds text, m text, op text, stage text, outer_max bigint)
LANGUAGE plpgsql AS $$
DECLARE
	tbl text := ds || '_' || m;
	query text := bench.join_sql(tbl, op, outer_max);
	p record;
	forced bool := false;
	nouter bigint;
	t0 timestamptz;
	c0 bigint;
	n bigint;
	ms float8;
	cpu float8;
BEGIN
	EXECUTE format('SELECT count(*) FROM %I WHERE id <= %s', tbl, outer_max) INTO nouter;
	SELECT * INTO p FROM bench.join_plan(query, tbl || '_fp');
	IF NOT p.ok THEN
		PERFORM set_config('enable_seqscan', 'off', false);
		SELECT * INTO p FROM bench.join_plan(query, tbl || '_fp');
		forced := true;
	END IF;
	IF p.ok THEN
		COMMIT;
		c0 := bench.cpu_ns();
		t0 := clock_timestamp();
		EXECUTE query INTO n;
		COMMIT;
		ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
		cpu := (bench.cpu_ns() - c0) / 1e6;
		RAISE NOTICE 'join % % on %: % outer rows, % pairs, % s', op, stage, tbl, nouter, n,
			round((ms / 1000)::numeric, 1);
	ELSE
		RAISE WARNING 'join % % on %: the plan probes no index on its inner side; not run: %',
			op, stage, tbl, p.plan;
	END IF;
	PERFORM set_config('enable_seqscan', 'on', false);
	INSERT INTO bench.joins (dataset, method, op, stage, outer_rows, ms, cpu_ms, pairs, est_rows, plan, forced)
	VALUES (ds, m, op, stage, nouter, ms, cpu, n, p.est_rows, p.plan, forced);
	COMMIT;
END $$;

-- The reference for the first outer_max outer rows of <ds>_seq: pairs within the threshold
-- and within 3 (see the top of the file), one scan of the table per outer row.
CREATE PROCEDURE bench.join_ref(ds text, outer_max bigint)
LANGUAGE plpgsql AS $$
DECLARE
	tbl text := ds || '_seq';
	t int := current_setting('textfp.hamming_threshold')::int;
	query text;
	plan text;
	nouter bigint;
	t0 timestamptz;
	c0 bigint;
	nt bigint;
	n3 bigint;
	ms float8;
	cpu float8;
BEGIN
	query := format('SELECT count(*) FILTER (WHERE d <= %1$s), count(*) FILTER (WHERE d <= 3) '
		'FROM (SELECT a.fp <~> b.fp AS d FROM (SELECT id, fp FROM %2$I WHERE id <= %3$s) a '
		'JOIN %2$I b ON a.id < b.id WHERE a.fp <~> b.fp <= %4$s) p', t, tbl, outer_max, greatest(t, 3));
	EXECUTE format('SELECT count(*) FROM %I WHERE id <= %s', tbl, outer_max) INTO nouter;
	PERFORM set_config(g, 'off', false)
	FROM unnest('{enable_bitmapscan,enable_indexscan,enable_indexonlyscan}'::text[]) g;
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	-- the node types, to show it scans no index
	plan := (SELECT string_agg(n || ' x' || c, ', ' ORDER BY n)
		FROM (SELECT m[1] AS n, count(*) AS c
			  FROM regexp_matches(plan, '"Node Type": "([^"]*)"', 'g') m GROUP BY 1) x);
	COMMIT;
	c0 := bench.cpu_ns();
	t0 := clock_timestamp();
	EXECUTE query INTO nt, n3;
	COMMIT;
	ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
	cpu := (bench.cpu_ns() - c0) / 1e6;
	PERFORM set_config(g, 'on', false)
	FROM unnest('{enable_bitmapscan,enable_indexscan,enable_indexonlyscan}'::text[]) g;
	RAISE NOTICE 'join reference on %: % outer rows, % pairs within %, % within 3, % s',
		tbl, nouter, nt, t, n3, round((ms / 1000)::numeric, 1);
	INSERT INTO bench.joins (dataset, method, op, stage, outer_rows, ms, cpu_ms, pairs, plan, forced)
	VALUES (ds, 'seq', 'pct', 'ref', nouter, ms, cpu, nt, plan, false),
		(ds, 'seq', 'r3', 'ref', nouter, ms, cpu, n3, plan, false);
	COMMIT;
END $$;

DO $$
DECLARE
	ds text;
	m text;
	op text;
	methods text[] := array_remove(regexp_split_to_array(btrim(current_setting('bench.join_methods')), '\s+'), '');
	nouter bigint := current_setting('bench.join_outer')::bigint;
	ncheck bigint := current_setting('bench.join_check_outer')::bigint;
BEGIN
	IF EXISTS (SELECT FROM unnest(methods) u(jm) WHERE jm NOT IN (SELECT method FROM bench.methods)) THEN
		RAISE EXCEPTION 'JOIN_METHODS % names a method that was not loaded (METHODS: %)', methods,
			(SELECT string_agg(method, ' ' ORDER BY ord) FROM bench.methods);
	END IF;
	FOREACH ds IN ARRAY bench.dataset_list() LOOP
		FOREACH m IN ARRAY methods LOOP
			FOREACH op IN ARRAY ARRAY['pct', 'r3'] LOOP
				CALL bench.join(ds, m, op, 'check', ncheck);
			END LOOP;
		END LOOP;
		IF cardinality(methods) > 0 THEN
			CALL bench.join_ref(ds, ncheck);
		END IF;
		FOREACH m IN ARRAY methods LOOP
			FOREACH op IN ARRAY ARRAY['pct', 'r3'] LOOP
				CALL bench.join(ds, m, op, 'timed', nouter);
			END LOOP;
		END LOOP;
	END LOOP;
END $$;

\o :joins
COPY (SELECT dataset, method, op, stage, outer_rows, ms, cpu_ms, pairs, est_rows, plan, forced
	  FROM bench.joins ORDER BY seq) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t');
\o
