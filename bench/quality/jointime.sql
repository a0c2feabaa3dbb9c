-- jointime.sql: self-join time of one language's reporting split (psql variable lang), per
-- method at its default threshold (pg_trgm: trgm_threshold, the tuned one), with the
-- method's GIN index (pg_trgm's stopped after 600 s: NaN) and without an index (pg_trgm's
-- scaled from 40 outer rows).  Appends to the table jointime.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET work_mem = '256MB';

CREATE TABLE IF NOT EXISTS jointime (lang text, method text, threshold text, texts integer,
	fp_ms float8, build_ms float8, index_size text, join_ms float8, pairs bigint, plan text,
	seq_ms float8);

-- Milliseconds a statement takes, and its result if it returns one bigint; NULLs when it
-- runs past statement_timeout.
CREATE OR REPLACE FUNCTION time_ms(q text, OUT ms float8, OUT result bigint) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
BEGIN
	IF q ~* '^\s*(SELECT|WITH)' THEN
		EXECUTE q INTO result;
	ELSE
		EXECUTE q;
	END IF;
	ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
EXCEPTION WHEN query_canceled THEN
	ms := NULL;
	result := NULL;
END
$$;

-- The plan's node names, outermost first.
CREATE OR REPLACE FUNCTION plan_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	nodes text[] := '{}';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line !~ '(Cond|Filter|Key):' THEN
			nodes := nodes || regexp_replace(line, '^\s*(->\s*)?([A-Za-z ]+?)( on .*| using .*)?$', '\2');
		END IF;
	END LOOP;
	RETURN array_to_string(nodes, ' > ');
END
$$;

DROP TABLE IF EXISTS rep;
CREATE TABLE rep AS SELECT id, txt FROM doc WHERE split = 'reporting' AND lang = :'lang';
ALTER TABLE rep ADD COLUMN sh simhash64, ADD COLUMN mh minhash_sig;
VACUUM ANALYZE rep;
SELECT count(*) AS texts FROM rep \gset

-- fingerprints
SELECT ms AS sh_fp_ms FROM time_ms('WITH u AS (UPDATE rep SET sh = simhash(txt) RETURNING 1) SELECT count(*) FROM u') \gset
SELECT ms AS mh_fp_ms FROM time_ms('WITH u AS (UPDATE rep SET mh = minhash(txt) RETURNING 1) SELECT count(*) FROM u') \gset
VACUUM FULL ANALYZE rep;
SET pg_trgm.similarity_threshold = :trgm_threshold;
SELECT current_setting('textfp.hamming_threshold') AS sh_t, current_setting('textfp.jaccard_threshold') AS mh_t \gset

-- without an index
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT ms AS sh_seq_ms FROM time_ms('SELECT count(*) FROM rep a JOIN rep b ON b.sh % a.sh AND a.id < b.id') \gset
SELECT ms AS mh_seq_ms FROM time_ms('SELECT count(*) FROM rep a JOIN rep b ON b.mh % a.mh AND a.id < b.id') \gset
-- pg_trgm without an index recomputes both texts' trigrams for every pair: minutes per
-- thousand texts, so it is timed on 40 outer rows against every row and scaled to n(n-1)/2
SELECT ms * (:texts - 1) / 2 / 40 AS tg_seq_ms FROM time_ms('SELECT count(*) FROM (SELECT * FROM rep ORDER BY id LIMIT 40) a
	JOIN rep b ON b.txt % a.txt AND a.id <> b.id') \gset
RESET enable_indexscan;
RESET enable_bitmapscan;

-- with each index (one at a time, so the planner cannot pick another)
SELECT ms AS sh_build_ms FROM time_ms('CREATE INDEX rep_sh ON rep USING gin (sh)') \gset
ANALYZE rep;
SELECT pg_size_pretty(pg_relation_size('rep_sh')) AS sh_size,
	plan_of('SELECT count(*) FROM rep a JOIN rep b ON b.sh % a.sh AND a.id < b.id') AS sh_plan \gset
SELECT ms AS sh_join_ms, result AS sh_pairs FROM time_ms('SELECT count(*) FROM rep a JOIN rep b ON b.sh % a.sh AND a.id < b.id') \gset
DROP INDEX rep_sh;

SELECT ms AS mh_build_ms FROM time_ms('CREATE INDEX rep_mh ON rep USING gin (mh)') \gset
ANALYZE rep;
SELECT pg_size_pretty(pg_relation_size('rep_mh')) AS mh_size,
	plan_of('SELECT count(*) FROM rep a JOIN rep b ON b.mh % a.mh AND a.id < b.id') AS mh_plan \gset
SELECT ms AS mh_join_ms, result AS mh_pairs FROM time_ms('SELECT count(*) FROM rep a JOIN rep b ON b.mh % a.mh AND a.id < b.id') \gset
DROP INDEX rep_mh;

SELECT ms AS tg_build_ms FROM time_ms('CREATE INDEX rep_tg ON rep USING gin (txt gin_trgm_ops)') \gset
ANALYZE rep;
SELECT pg_size_pretty(pg_relation_size('rep_tg')) AS tg_size,
	plan_of('SELECT count(*) FROM rep a JOIN rep b ON b.txt % a.txt AND a.id < b.id') AS tg_plan \gset
SET statement_timeout = '600s';
SELECT coalesce(ms, 'NaN') AS tg_join_ms, coalesce(result, -1) AS tg_pairs FROM time_ms('SELECT count(*) FROM rep a JOIN rep b ON b.txt % a.txt AND a.id < b.id') \gset
RESET statement_timeout;
DROP INDEX rep_tg;

INSERT INTO jointime VALUES
	(:'lang', 'simhash', 'd <= ' || :'sh_t', :texts, :sh_fp_ms, :sh_build_ms, :'sh_size', :sh_join_ms, :sh_pairs, :'sh_plan', :sh_seq_ms),
	(:'lang', 'minhash', 'J >= ' || :'mh_t', :texts, :mh_fp_ms, :mh_build_ms, :'mh_size', :mh_join_ms, :mh_pairs, :'mh_plan', :mh_seq_ms),
	(:'lang', 'trgm', 'sim >= ' || :'trgm_threshold', :texts, 0, :tg_build_ms, :'tg_size', :tg_join_ms, :tg_pairs, :'tg_plan', :tg_seq_ms);
