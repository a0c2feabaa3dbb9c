-- index.sql: the band index of each option set against a sequential scan (and, for the first
-- set, the exact GIN index at the same threshold), in one server session per set.
--
-- Per set (its banding b x r, min_bands m, bits, threshold t; column s_<name>):
--   build   CREATE INDEX ... USING gin (s gin_minhash_lsh_ops (bands = b, rows = r, bits = ...)),
--           timed with its commit; its size
--   queries :queries query rows (odd numbers: members of planted families, even: any row), each
--           run as, in an order rotated from query to query:
--             seq    SELECT id FROM t WHERE s <@ jaccard_ball(q, t)      (sequential scan)
--             lsh    SELECT id FROM t WHERE s @@ lsh_query(q, b, r, m)
--                                         AND s <@ jaccard_ball(q, t) (the idiom, band index)
--             exact  the first through gin_minhash_ops (first set only)
--           timed around EXECUTE from plpgsql (wall, planning included, and this backend's CPU);
--           the answers kept (ids with their estimates, from the sequential scan); untimed, the
--           band candidates (rows passing @@) and the heap rows the bitmap scan rechecked
--   probes  :probes rows drawn at random, the band candidates of each through the index: the
--           candidates per row of a self-join
-- For the first set also:
--   bits    the band index again with each bits of :'bits_trade': size, build, and for the first
--           :bits_queries queries the idiom's time, the heap rows rechecked and the candidates
--   keys    rows per key of the exact index (bits = 16) and of the band index, from the data
--
--   inserts :insert_rows rows (lb.new_rows: bodies of the table signed with another seed, so their
--           keys are new) into the table with no index but its primary key, with the exact
--           index (pending list on, as by default), and with the band index with its pending
--           list (each gin_pending_list_limit of :'pending_limits', kB) and without it; each
--           insert and the merge of what is left pending timed, then the rows deleted again
--
-- psql variables: set_name, queries, probes, bits_trade, bits_queries, pending_limits.

\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE IF NOT EXISTS lb.queries (qno int PRIMARY KEY, qset text, id bigint);
INSERT INTO lb.queries
SELECT qno, CASE WHEN qno % 2 = 1 THEN 'family' ELSE 'any' END,
	CASE WHEN qno % 2 = 1
		THEN (SELECT id FROM tl WHERE family IS NOT NULL AND role IN ('original', 'copy')
			  ORDER BY hashint8extended(id, 100 + qno) LIMIT 1)
		ELSE (SELECT id FROM tl ORDER BY hashint8extended(id, 100 + qno) LIMIT 1) END
FROM generate_series(1, :queries) qno
ON CONFLICT DO NOTHING;

CREATE TABLE IF NOT EXISTS lb.results (set_name text, variant text, pass int, qno int, method text,
	ms float8, cpu_ms float8, n int, answer text);
CREATE TABLE IF NOT EXISTS lb.answers (set_name text, qno int, id bigint, est float8);
CREATE TABLE IF NOT EXISTS lb.qstats (set_name text, variant text, qno int, candidates int,
	heap_rows int, plan text);
CREATE TABLE IF NOT EXISTS lb.probes (set_name text, id bigint, candidates int);
CREATE TABLE IF NOT EXISTS lb.keydist (set_name text, index_kind text, keys bigint, rows_total bigint,
	p50 float8, p90 float8, p99 float8, p999 float8, max bigint, singletons bigint, mean_query_rows float8);

CREATE OR REPLACE FUNCTION lb.scan_nodes(query text, q minhash_sig) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan USING q;
	RETURN (SELECT string_agg(m[1], '+')
			FROM regexp_matches(plan::text, '"Node Type": "([A-Za-z ]*Scan)"', 'g') m);
END $$;

-- The band candidates of q (rows passing @@) and the heap rows its bitmap scan rechecked
-- (through the band index: sequential scans off).
CREATE OR REPLACE FUNCTION lb.band_stats(tbl text, col text, q minhash_sig, b int, r int, m int,
	OUT candidates int, OUT heap_rows int)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	node json;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', false);
	PERFORM set_config('enable_bitmapscan', 'on', false);
	EXECUTE format('EXPLAIN (ANALYZE, FORMAT JSON) SELECT 1 FROM %I WHERE %I @@ lsh_query($1, %s, %s, %s)',
		tbl, col, b, r, m) INTO plan USING q;
	PERFORM set_config('enable_seqscan', 'on', false);
	IF (plan -> 0 -> 'Plan' ->> 'Node Type') <> 'Bitmap Heap Scan' THEN
		RAISE EXCEPTION 'band_stats: expected a bitmap scan of the band index, got %', plan -> 0 -> 'Plan' ->> 'Node Type';
	END IF;
	node := plan -> 0 -> 'Plan';
	candidates := (node ->> 'Actual Rows')::int;
	heap_rows := candidates + coalesce((node ->> 'Rows Removed by Index Recheck')::int, 0);
END $$;

CREATE OR REPLACE FUNCTION lb.cpu_overhead_ns() RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	d float8[] := '{}';
	c0 bigint;
BEGIN
	FOR i IN 1 .. 101 LOOP
		c0 := lb.cpu_ns();
		d := d || (lb.cpu_ns() - c0)::float8;
	END LOOP;
	RETURN (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(d) x);
END $$;

-- Times the methods on the queries (pass 0: the first two, untimed warm-up).
CREATE OR REPLACE PROCEDURE lb.run_queries(p_set text, p_variant text, p_methods text[], p_max_qno int)
LANGUAGE plpgsql AS $$
DECLARE
	s lb.sets;
	col text;
	overhead float8 := coalesce(lb.cpu_overhead_ns(), 0);
	qr record;
	q minhash_sig;
	m text;
	query text;
	res text;
	cnt int;
	t0 timestamptz;
	t1 timestamptz;
	c0 bigint;
	c1 bigint;
	nm int := array_length(p_methods, 1);
BEGIN
	SELECT * INTO s FROM lb.sets WHERE name = p_set;
	col := 'sig';
	FOR pass IN 0 .. 1 LOOP
		FOR qr IN SELECT * FROM lb.queries WHERE qno <= p_max_qno AND (pass = 1 OR qno <= 2) ORDER BY qno LOOP
			EXECUTE format('SELECT %s FROM t WHERE id = $1', col) INTO q USING qr.id;
			FOR mi IN 0 .. nm - 1 LOOP
				m := p_methods[1 + (mi + qr.qno) % nm];
				PERFORM set_config('enable_seqscan', CASE m WHEN 'seq' THEN 'on' ELSE 'off' END, false);
				PERFORM set_config('enable_bitmapscan', CASE m WHEN 'seq' THEN 'off' ELSE 'on' END, false);
				PERFORM set_config('enable_indexscan', CASE m WHEN 'seq' THEN 'off' ELSE 'on' END, false);
				query := format('SELECT count(*)::int, coalesce(array_agg(id ORDER BY id)::text, ''{}'') FROM (SELECT id FROM t WHERE %s%s <@ jaccard_ball($1, %s)) x',
					CASE m WHEN 'lsh' THEN format('%s @@ lsh_query($1, %s, %s, %s) AND ', col, s.bands, s.rows, s.min_bands) ELSE '' END,
					col, s.threshold);
				c0 := lb.cpu_ns();
				t0 := clock_timestamp();
				EXECUTE query INTO cnt, res USING q;
				t1 := clock_timestamp();
				c1 := lb.cpu_ns();
				INSERT INTO lb.results VALUES (s.name, p_variant, pass, qr.qno, m,
					1000 * extract(epoch FROM t1 - t0), (c1 - c0 - overhead) / 1e6, cnt, res);
				IF pass = 1 AND m = 'seq' AND p_variant = 'main' THEN
					EXECUTE format('INSERT INTO lb.answers SELECT %L, %s, id, jaccard(%s, $1) FROM t WHERE id = ANY ($2::bigint[])',
						s.name, qr.qno, col) USING q, res;
				END IF;
			END LOOP;
			IF pass = 1 AND p_variant <> 'exact' THEN
				-- the planner's own choice: nothing disabled
				RESET enable_seqscan;
				RESET enable_bitmapscan;
				RESET enable_indexscan;
				INSERT INTO lb.qstats SELECT s.name, p_variant, qr.qno, b.candidates, b.heap_rows,
					lb.scan_nodes(format('SELECT id FROM t WHERE %s @@ lsh_query($1, %s, %s, %s) AND %s <@ jaccard_ball($1, %s)',
						col, s.bands, s.rows, s.min_bands, col, s.threshold), q)
				FROM lb.band_stats('t', 'sig', q, s.bands, s.rows, s.min_bands) b;
			END IF;
			IF pass = 1 AND qr.qno % 10 = 0 THEN
				RAISE NOTICE 'set % (%): % queries done', s.name, p_variant, qr.qno;
				COMMIT;
			END IF;
		END LOOP;
	END LOOP;
	RESET enable_seqscan;
	RESET enable_bitmapscan;
	RESET enable_indexscan;
	COMMIT;
END $$;

CREATE OR REPLACE PROCEDURE lb.run_probes(p_set text, p_n int)
LANGUAGE plpgsql AS $$
DECLARE
	s lb.sets;
	col text;
	rec record;
	n int;
BEGIN
	SELECT * INTO s FROM lb.sets WHERE name = p_set;
	col := 'sig';
	SET enable_seqscan = off;
	FOR rec IN EXECUTE format('SELECT id, %s AS q FROM t ORDER BY hashint8extended(id, 9) LIMIT %s', col, p_n) LOOP
		EXECUTE format('SELECT count(*) FROM t WHERE %s @@ lsh_query($1, %s, %s, %s)', col, s.bands, s.rows, s.min_bands)
			INTO n USING rec.q;
		INSERT INTO lb.probes VALUES (s.name, rec.id, n);
	END LOOP;
	RESET enable_seqscan;
	COMMIT;
END $$;

-- Rows per key, from the data: of the exact class (k keys a row, bits = 16) or the band class.
CREATE OR REPLACE PROCEDURE lb.key_distribution(p_set text, p_kind text)
LANGUAGE plpgsql AS $$
DECLARE
	s lb.sets;
	col text;
	keys text;
BEGIN
	SELECT * INTO s FROM lb.sets WHERE name = p_set;
	col := 'sig';
	keys := CASE p_kind
		WHEN 'exact' THEN format('SELECT (o - 1) * 65536 + (v >> 16) AS key FROM t, unnest(minhash_values(%s)) WITH ORDINALITY u(v, o) WHERE NOT minhash_values(%s) <@ ''{4294967295}''', col, col)
		ELSE format('SELECT (o - 1) * 4294967296 + ((k >> (64 - %s)) & ((1::bigint << %s) - 1)) AS key FROM t, unnest(minhash_bands(%s, %s, %s)) WITH ORDINALITY u(k, o)',
			s.bits, s.bits, col, s.bands, s.rows) END;
	SET LOCAL work_mem = '2GB';
	EXECUTE format('INSERT INTO lb.keydist
		SELECT %L, %L, count(*), sum(n),
			percentile_cont(0.5) WITHIN GROUP (ORDER BY n), percentile_cont(0.9) WITHIN GROUP (ORDER BY n),
			percentile_cont(0.99) WITHIN GROUP (ORDER BY n), percentile_cont(0.999) WITHIN GROUP (ORDER BY n),
			max(n), count(*) FILTER (WHERE n = 1),
			sum(n::float8 * n) / sum(n)
		FROM (SELECT key, count(*) AS n FROM (%s) k GROUP BY key) c', s.name, p_kind, keys);
	COMMIT;
END $$;

-- Inserts :insert_rows new rows (lb.new_rows) into tl with one index, timed with the commit;
-- with a pending list, its merge (gin_clean_pending_list) timed apart; the index's size after;
-- then the rows are deleted again and the table vacuumed.
CREATE OR REPLACE PROCEDURE lb.insert_test(p_set text, p_variant text, p_index text)
LANGUAGE plpgsql AS $$
DECLARE
BEGIN
	CALL lb.timed('insert', p_set, p_variant,
		'INSERT INTO t (id, lang, site, family, role, strength, bytes, sig) SELECT id, lang, site, family, role, strength, bytes, sig FROM lb.new_rows');
	IF p_index IS NOT NULL THEN
		CALL lb.timed('flush', p_set, p_variant, format('SELECT gin_clean_pending_list(%L::regclass)', p_index));
		CALL lb.record_size('insert', p_set, p_variant, p_index);
	END IF;
	DELETE FROM t WHERE id >= 100000000;
	COMMIT;
END $$;

-- ----------------------------------------------------------------------------
SELECT name AS sname, bands, rows, min_bands, bits, threshold, ord = 1 AS first_set FROM lb.sets WHERE name = :'set_name' \gset
SELECT format('CREATE INDEX tl_lsh ON t USING gin (sig gin_minhash_lsh_ops (bands = %s, rows = %s, bits = %s))',
	:bands, :rows, :bits) AS build_lsh,
	'CREATE INDEX tl_exact ON t USING gin (sig)' AS build_exact \gset

-- the set's signatures alone in a table of their own (what a sequential scan reads: the
-- row's few attributes and one signature, no text)
DROP TABLE IF EXISTS t;
SELECT format('CREATE TABLE t AS SELECT id, lang, site, family, role, strength, bytes, %I AS sig FROM tl ORDER BY id', 's_' || :'sname') \gexec
ALTER TABLE t ADD PRIMARY KEY (id);
VACUUM (FREEZE, ANALYZE) t;
CALL lb.record_size('load', :'sname', 'table', 't');

-- what ANALYZE's pair statistics predict: candidates per row for the set's banding (as
-- lsh_params_for computes them), and lsh_params_for's own choice within 100 per row
CREATE TABLE IF NOT EXISTS lb.predicted (set_name text, what text, bands int, rows int, min_bands int,
	candidates_per_row float8, false_negative float8);
INSERT INTO lb.predicted
SELECT :'sname', 'the set''s banding', :bands, :rows, :min_bands,
	(c.reltuples - 1) * (1 - s.stanullfrac) * sum((n[i] - CASE WHEN i <= k THEN n[i + 1] ELSE 0 END) * lsh_probability((i - 1)::float8 / k, :bands, :rows, :min_bands, k)),
	NULL
FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
	CROSS JOIN LATERAL (SELECT CASE 10465 WHEN stakind1 THEN stanumbers1 WHEN stakind2 THEN stanumbers2
		WHEN stakind3 THEN stanumbers3 WHEN stakind4 THEN stanumbers4 WHEN stakind5 THEN stanumbers5 END AS n) x
	CROSS JOIN LATERAL (SELECT array_length(x.n, 1) - 2 AS k) kk
	CROSS JOIN LATERAL generate_series(1, kk.k + 1) i
WHERE s.starelid = 't'::regclass AND s.staattnum = (SELECT attnum FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'sig')
GROUP BY c.reltuples, s.stanullfrac;
INSERT INTO lb.predicted
SELECT :'sname', 'lsh_params_for(max_candidates => 100)', bands, rows, min_bands, candidates_per_row, false_negative
FROM lsh_params_for('t', 'sig', :threshold, 100);

\if :first_set
\echo :sname: inserts with no index
CALL lb.insert_test(:'sname', 'none', NULL);
VACUUM t;
\echo :sname: the exact index (gin_minhash_ops, bits = 16)
CALL lb.timed('build', :'sname', 'exact', :'build_exact');
CALL lb.record_size('build', :'sname', 'exact', 'tl_exact');
SELECT pg_prewarm('t') AS table_blocks, pg_prewarm('tl_exact') AS index_blocks;
\echo :sname: queries, sequential scan and exact index
CALL lb.run_queries(:'sname', 'exact', ARRAY['seq', 'exact'], :queries);
\echo :sname: inserts into the exact index
CALL lb.insert_test(:'sname', 'exact, fastupdate=on', 'tl_exact');
DROP INDEX tl_exact;
VACUUM t;
\endif

\echo :sname: the band index
CALL lb.timed('build', :'sname', 'lsh', :'build_lsh');
CALL lb.record_size('build', :'sname', 'lsh', 'tl_lsh');
SELECT pg_prewarm('t') AS table_blocks, pg_prewarm('tl_lsh') AS index_blocks;
\echo :sname: queries, sequential scan and band index
CALL lb.run_queries(:'sname', 'main', ARRAY['seq', 'lsh'], :queries);
\echo :sname: probes for candidates per row
CALL lb.run_probes(:'sname', :probes);

\echo :sname: inserts into the band index
SELECT format('ALTER INDEX tl_lsh SET (gin_pending_list_limit = %s)', l), 'VACUUM t',
	format('CALL lb.insert_test(%L, %L, ''tl_lsh'')', :'sname', 'lsh, fastupdate=on, gin_pending_list_limit=' || l || 'kB')
FROM unnest(string_to_array(btrim(:'pending_limits'), ' ')::int[]) l \gexec
ALTER INDEX tl_lsh SET (fastupdate = off);
VACUUM t;
CALL lb.insert_test(:'sname', 'lsh, fastupdate=off', 'tl_lsh');
VACUUM t;
\if :first_set
\echo :sname: rows per key
CALL lb.key_distribution(:'sname', 'exact');
CALL lb.key_distribution(:'sname', 'lsh');
DROP INDEX tl_lsh;
\echo :sname: the key-bits trade
SELECT format('CALL lb.timed(''build'', %L, %L, %L)', :'sname', 'bits=' || b,
		format('CREATE INDEX tl_lsh ON t USING gin (sig gin_minhash_lsh_ops (bands = %s, rows = %s, bits = %s))', :bands, :rows, b)),
	format('CALL lb.record_size(''build'', %L, %L, ''tl_lsh'')', :'sname', 'bits=' || b),
	'SELECT pg_prewarm(''tl_lsh'')',
	format('CALL lb.run_queries(%L, %L, ARRAY[''lsh''], %s)', :'sname', 'bits=' || b, :bits_queries),
	'DROP INDEX tl_lsh'
FROM unnest(string_to_array(btrim(:'bits_trade'), ' ')::int[]) b \gexec
\else
DROP INDEX tl_lsh;
\endif
DROP TABLE t;
