-- defaults.sql: the recommended configuration's band index (gin_minhash_lsh_ops with its defaults,
-- queried with lsh_query(sig) and verified at 0.3) on the signatures of the first set of a run of
-- bench/lsh/run.sh, in the database lsh_bench that run left (its table tl, its queries lb.queries and the
-- sequential scan's answers lb.answers, with their estimates).
--
--   psql -X -d lsh_bench -v col=s_s3 -v set_name=s3 -v seq_queries=20 -f bench/lsh/defaults.sql
--
-- col, set_name: the column of tl and the set whose answers are the reference (a pipeline of shingle 3
-- at t = 0.3, what minhash_lsh computes).  Builds the index on a copy of the column (table lbd.t),
-- timed, and reports its size; runs every query of lb.queries through the idiom, and the first
-- :seq_queries also as a sequential scan, alternating, side by side; recall of the idiom against the
-- run's scan answers (estimates >= 0.4 and >= 0.3), the band candidates per lookup (EXPLAIN ANALYZE),
-- medians.  Drops its schema lbd at the end.  The banding is spelled out, lsh_query(sig, 44, 1, 10), which is
-- what lsh_query(sig) returns: a database made by an early 1.1 script may lack the one-argument function.

\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
DROP SCHEMA IF EXISTS lbd CASCADE;
CREATE SCHEMA lbd;
SELECT format('CREATE TABLE lbd.t AS SELECT id, %I AS sig FROM tl ORDER BY id', :'col') \gexec
ALTER TABLE lbd.t ADD PRIMARY KEY (id);
VACUUM (FREEZE, ANALYZE) lbd.t;

CREATE TABLE lbd.build (ms float8, bytes bigint);
CREATE TABLE lbd.res (qno int, method text, ms float8, answer bigint[], candidates int);

CREATE PROCEDURE lbd.build_index() LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	COMMIT;
	t0 := clock_timestamp();
	CREATE INDEX t_lsh ON lbd.t USING gin (sig gin_minhash_lsh_ops);
	COMMIT;
	INSERT INTO lbd.build VALUES (1000 * extract(epoch FROM clock_timestamp() - t0), pg_relation_size('lbd.t_lsh'));
	COMMIT;
END $$;
CALL lbd.build_index();

CREATE PROCEDURE lbd.run(p_seq int) LANGUAGE plpgsql AS $$
DECLARE
	r record;
	m text;
	t0 timestamptz;
	ans bigint[];
	p json;
BEGIN
	FOR r IN SELECT q.qno, t.sig FROM lb.queries q JOIN lbd.t t USING (id) ORDER BY q.qno LOOP
		FOREACH m IN ARRAY CASE WHEN r.qno <= p_seq THEN
				CASE WHEN r.qno % 2 = 0 THEN ARRAY['seq', 'lsh'] ELSE ARRAY['lsh', 'seq'] END
			ELSE ARRAY['lsh'] END LOOP
			PERFORM set_config('enable_seqscan', CASE m WHEN 'seq' THEN 'on' ELSE 'off' END, true);
			PERFORM set_config('enable_bitmapscan', CASE m WHEN 'seq' THEN 'off' ELSE 'on' END, true);
			PERFORM set_config('enable_indexscan', CASE m WHEN 'seq' THEN 'off' ELSE 'on' END, true);
			t0 := clock_timestamp();
			IF m = 'seq' THEN
				SELECT array_agg(id ORDER BY id) INTO ans FROM lbd.t WHERE sig <@ jaccard_ball(r.sig, 0.3);
			ELSE
				SELECT array_agg(id ORDER BY id) INTO ans FROM lbd.t
				WHERE sig @@ lsh_query(r.sig, 44, 1, 10) AND sig <@ jaccard_ball(r.sig, 0.3);
			END IF;
			INSERT INTO lbd.res VALUES (r.qno, m, 1000 * extract(epoch FROM clock_timestamp() - t0), ans, NULL);
		END LOOP;
		-- the band candidates (rows passing @@), untimed
		PERFORM set_config('enable_seqscan', 'off', true);
		EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) SELECT id FROM lbd.t WHERE sig @@ lsh_query($1, 44, 1, 10)' INTO p USING r.sig;
		UPDATE lbd.res SET candidates = (p -> 0 -> 'Plan' ->> 'Actual Rows')::int
		WHERE qno = r.qno AND method = 'lsh';
		COMMIT;
	END LOOP;
END $$;
-- a warm-up pass (the idiom for every query, untimed), then the timed one
CALL lbd.run(0);
TRUNCATE lbd.res;
CALL lbd.run(:seq_queries);

\pset format aligned
SELECT 'gin_minhash_lsh_ops (44 x 1, 13 bits)' AS index, round((ms / 1000)::numeric, 1) AS build_s,
	round((bytes / 1048576.0)::numeric, 1) AS size_mb FROM lbd.build;
SELECT method, count(*) AS queries, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS median_ms,
	round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS p90_ms
FROM lbd.res GROUP BY method ORDER BY method;
-- side by side: the queries run both ways
SELECT round((percentile_cont(0.5) WITHIN GROUP (ORDER BY s.ms) / percentile_cont(0.5) WITHIN GROUP (ORDER BY l.ms))::numeric, 1)
	AS speedup_of_medians, count(*) FILTER (WHERE s.answer IS NOT DISTINCT FROM l.answer) || ' of ' || count(*) AS answers_equal
FROM lbd.res s JOIN lbd.res l ON l.qno = s.qno AND l.method = 'lsh' WHERE s.method = 'seq';
SELECT round(avg(candidates), 1) AS candidates_mean,
	percentile_disc(0.99) WITHIN GROUP (ORDER BY candidates) AS candidates_p99
FROM lbd.res WHERE method = 'lsh';
-- recall against the run's sequential-scan answers
SELECT b.lo AS estimate_at_least, count(*) AS pairs,
	count(*) FILTER (WHERE a.id = ANY (l.answer)) AS found,
	round(count(*) FILTER (WHERE a.id = ANY (l.answer))::numeric / count(*), 4) AS recall
FROM lb.answers a JOIN lbd.res l ON l.qno = a.qno AND l.method = 'lsh'
	CROSS JOIN (VALUES (0.3), (0.4)) b(lo)
WHERE a.set_name = :'set_name' AND a.est >= b.lo
	AND a.id <> (SELECT q.id FROM lb.queries q WHERE q.qno = a.qno)  -- not the query itself
GROUP BY b.lo ORDER BY b.lo;
DROP SCHEMA lbd CASCADE;
