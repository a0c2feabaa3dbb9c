-- compare.sql: the bloom GiST prototype (gist_minhash_bloom_ops, objects.sql) against the exact
-- GIN index and a sequential scan, on one minhash column of the LSH benchmark's table.
--
-- Table g: the ids and signatures of tl's column :col (in the lsh_bench database a run of
-- bench/lsh/run.sh left).  For each siglen of :siglens, a GiST index is built (timed) and
-- :queries query rows (the first of lb.queries) run `sig <@ jaccard_ball(q, t)` for each t of
-- :thresholds and `ORDER BY sig <%> q LIMIT 10` (KNN by estimated Jaccard); the same through the
-- exact GIN index (threshold queries only: GIN has no ordering) and by a sequential scan, side
-- by side.  Answers are compared with the scan's.  Prints a Markdown table.
--
-- psql variables: col, siglens, thresholds, queries.

\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
DROP SCHEMA IF EXISTS gp CASCADE;
CREATE SCHEMA gp;
SET search_path = gp, public;
\i :objects

SELECT format('CREATE TABLE gp.g AS SELECT id, %I AS sig FROM public.tl ORDER BY id', :'col') \gexec
ALTER TABLE gp.g ADD PRIMARY KEY (id);
VACUUM ANALYZE gp.g;
CREATE TABLE gp.qs AS SELECT q.qno, g.sig AS q FROM lb.queries q JOIN gp.g g USING (id) WHERE q.qno <= :queries;
CREATE TABLE gp.res (idx text, siglen int, what text, t float8, qno int, ms float8, answer text);
CREATE TABLE gp.build (idx text, siglen int, ms float8, bytes bigint);

CREATE FUNCTION gp.run(q text, OUT ms float8, OUT answer text) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE q INTO answer;
	ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
END $$;

CREATE PROCEDURE gp.queries(p_idx text, p_siglen int, p_knn boolean)
LANGUAGE plpgsql AS $$
DECLARE
	r record;
	t float8;
	x record;
BEGIN
	PERFORM set_config('enable_seqscan', CASE p_idx WHEN 'seq' THEN 'on' ELSE 'off' END, false);
	PERFORM set_config('enable_bitmapscan', CASE p_idx WHEN 'seq' THEN 'off' ELSE 'on' END, false);
	PERFORM set_config('enable_indexscan', CASE p_idx WHEN 'seq' THEN 'off' ELSE 'on' END, false);
	FOR r IN SELECT * FROM gp.qs ORDER BY qno LOOP
		FOREACH t IN ARRAY string_to_array(current_setting('gp.thresholds'), ' ')::float8[] LOOP
			SELECT * INTO x FROM gp.run(format('SELECT coalesce(array_agg(id ORDER BY id)::text, ''{}'') FROM gp.g WHERE sig <@ jaccard_ball(%L::minhash_sig, %s)', r.q, t));
			INSERT INTO gp.res VALUES (p_idx, p_siglen, 'threshold', t, r.qno, x.ms, x.answer);
		END LOOP;
		IF p_knn THEN
			SELECT * INTO x FROM gp.run(format('SELECT array_agg(round((1 - d)::numeric, 4) ORDER BY d)::text FROM (SELECT sig <%%> %L::minhash_sig AS d FROM gp.g ORDER BY sig <%%> %L::minhash_sig LIMIT 10) s', r.q, r.q));
			INSERT INTO gp.res VALUES (p_idx, p_siglen, 'knn10', NULL, r.qno, x.ms, x.answer);
		END IF;
		COMMIT;
	END LOOP;
	RESET enable_seqscan;
	RESET enable_bitmapscan;
	RESET enable_indexscan;
END $$;

CREATE PROCEDURE gp.timed_build(p_idx text, p_siglen int, stmt text, rel text)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	COMMIT;
	t0 := clock_timestamp();
	EXECUTE stmt;
	COMMIT;
	INSERT INTO gp.build VALUES (p_idx, p_siglen, 1000 * extract(epoch FROM clock_timestamp() - t0), pg_relation_size(rel));
	COMMIT;
END $$;

SET gp.thresholds = :'thresholds';
CALL gp.queries('seq', NULL, true);
SELECT format('CALL gp.timed_build(''gist'', %s, %L, ''gp.g_gist'')', s,
		format('CREATE INDEX g_gist ON gp.g USING gist (sig gp.gist_minhash_bloom_ops (siglen = %s))', s)),
	format('CALL gp.queries(''gist'', %s, true)', s),
	'DROP INDEX gp.g_gist'
FROM unnest(string_to_array(:'siglens', ' ')::int[]) s \gexec
CALL gp.timed_build('gin', NULL, 'CREATE INDEX g_gin ON gp.g USING gin (sig)', 'gp.g_gin');
CALL gp.queries('gin', NULL, false);
DROP INDEX gp.g_gin;

\pset format unaligned
\pset tuples_only on
\pset fieldsep ' | '
SELECT '| index | siglen | build s | size MB | query | median ms | p90 ms | answers equal to the scan''s |';
SELECT '|---|---:|---:|---:|---|---:|---:|---|';
SELECT '| ' || r.idx, coalesce(r.siglen::text, ''), coalesce(round((b.ms / 1000)::numeric)::text, '-'),
	coalesce(round((b.bytes / 1048576.0)::numeric, 1)::text, '-'),
	r.what || coalesce(' t = ' || r.t, ''),
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms)::numeric, 2),
	round(percentile_cont(0.9) WITHIN GROUP (ORDER BY r.ms)::numeric, 2),
	count(*) FILTER (WHERE r.answer = s.answer) || ' of ' || count(*) || ' |'
FROM gp.res r JOIN gp.res s ON s.idx = 'seq' AND s.what = r.what AND s.t IS NOT DISTINCT FROM r.t AND s.qno = r.qno
	LEFT JOIN gp.build b ON b.idx = r.idx AND b.siglen IS NOT DISTINCT FROM r.siglen
GROUP BY r.idx, r.siglen, b.ms, b.bytes, r.what, r.t
ORDER BY r.what, r.t, r.idx, r.siglen;
