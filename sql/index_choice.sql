-- index_choice: which simhash64 index the planner takes when a column has
-- several (docs/indexing.md, "Which index the planner takes"): mih for radius
-- queries, %, the trigger's generic lookup and joins, with SP-GiST, GiST or
-- GIN beside it; a tree alone where it pays and a sequential scan where a
-- query would visit most of it; and every plan's answer equal to a
-- sequential scan's.  No timing: the costs decide, from the table's size and
-- statistics, which are the same on every run.
SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- 20,000 text-like fingerprints: texts of 40 to 80 words drawn from 3,000
-- with a skewed frequency, as words of real text are, so unrelated texts
-- share words; every tenth text is an edited copy of the one five before
CREATE TABLE ic_docs AS
WITH base AS (
	SELECT i, (SELECT string_agg('w' || (3000 * ((hashint8(i * 1000 + j) & 2147483647) / 2147483648.0::float8) ^ 2)::int, ' ')
			   FROM generate_series(1, 40 + i % 41) j) AS body
	FROM generate_series(1, 20000) i)
SELECT b.i AS id, simhash(CASE WHEN b.i % 10 = 0 THEN 'an edited copy: ' || o.body ELSE b.body END) AS fp
FROM base b LEFT JOIN base o ON o.i = b.i - 5;
ALTER TABLE ic_docs ADD PRIMARY KEY (id);
-- the queries: rows of the table (near duplicates exist) and texts not in it
CREATE TABLE ic_queries AS
SELECT id AS q, fp FROM ic_docs WHERE id IN (7, 10, 4321)
UNION ALL
SELECT -1, simhash('w1 w2 w3 w5 w8 w13 w21 w34 w55 w89 w144 w233 w377 w610 w987 w1597 w2584 w17 w3 w4');

CREATE TABLE ic_spgist AS TABLE ic_docs;
CREATE INDEX ic_spgist_mih ON ic_spgist USING mih (fp);
CREATE INDEX ic_spgist_tree ON ic_spgist USING spgist (fp);
CREATE TABLE ic_gist AS TABLE ic_docs;
CREATE INDEX ic_gist_mih ON ic_gist USING mih (fp);
CREATE INDEX ic_gist_tree ON ic_gist USING gist (fp);
CREATE TABLE ic_gin AS TABLE ic_docs;
CREATE INDEX ic_gin_mih ON ic_gin USING mih (fp);
CREATE INDEX ic_gin_gin ON ic_gin USING gin (fp) WITH (fastupdate = off);
CREATE TABLE ic_tree AS TABLE ic_docs;
CREATE INDEX ic_tree_spgist ON ic_tree USING spgist (fp);
ANALYZE ic_docs, ic_spgist, ic_gist, ic_gin, ic_tree;

-- the index scan a query's plan uses, or 'Seq Scan'
CREATE FUNCTION pg_temp.scan_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	seq boolean := false;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		IF line ~ 'Index Scan|Index Only Scan' THEN
			RETURN substring(line FROM '(?:using|Bitmap Index Scan on) (\w+)');
		END IF;
		seq := seq OR line ~ 'Seq Scan';
	END LOOP;
	RETURN CASE WHEN seq THEN 'Seq Scan' END;
END $$;

-- radius queries with mih and a tree on the column: mih from radius 2 (at
-- 0 and 1 both answer at once, and either may win); with GIN, whose cost
-- is close to mih's up to radius 3, from 7
SELECT t, r, pg_temp.scan_of(format('SELECT id FROM %I WHERE fp <@ hamming_ball(%L, %s)', t, q.fp, r)) AS scan
FROM (VALUES ('ic_spgist', 2), ('ic_spgist', 3), ('ic_spgist', 7), ('ic_spgist', 11), ('ic_spgist', 16),
			 ('ic_gist', 2), ('ic_gist', 3), ('ic_gist', 7), ('ic_gist', 11), ('ic_gist', 16),
			 ('ic_gin', 7), ('ic_gin', 11), ('ic_gin', 16)) v(t, r),
	 ic_queries q WHERE q.q = 7 ORDER BY t, r;
-- % at the default threshold (a query known and one that is not), and at 7
SELECT pg_temp.scan_of($$SELECT id FROM ic_spgist WHERE fp % (SELECT fp FROM ic_queries WHERE q = -1)$$) AS scan;
SELECT pg_temp.scan_of(format('SELECT id FROM ic_spgist WHERE fp %% %L::simhash64', fp)) AS scan
FROM ic_queries WHERE q = -1;
SET textfp.hamming_threshold = 7;
SELECT pg_temp.scan_of(format('SELECT id FROM ic_spgist WHERE fp %% %L::simhash64', fp)) AS scan
FROM ic_queries WHERE q = -1;
RESET textfp.hamming_threshold;
EXPLAIN (COSTS OFF) SELECT id FROM ic_spgist WHERE fp <@ hamming_ball('0123456789abcdef', 7);

-- the textfp_dedup trigger's lookup: a generic plan, radius unknown, only
-- bitmap scans allowed (src/dedup.c); the setting stands in for the radius
SET enable_seqscan = off;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET plan_cache_mode = force_generic_plan;
PREPARE ic_lookup_spgist(simhash64, integer) AS
	SELECT id FROM ic_spgist WHERE fp <@ hamming_ball($1, $2) ORDER BY hamming_distance(fp, $1), id LIMIT 1;
PREPARE ic_lookup_gist(simhash64, integer) AS
	SELECT id FROM ic_gist WHERE fp <@ hamming_ball($1, $2) ORDER BY hamming_distance(fp, $1), id LIMIT 1;
PREPARE ic_lookup_gin(simhash64, integer) AS
	SELECT id FROM ic_gin WHERE fp <@ hamming_ball($1, $2) ORDER BY hamming_distance(fp, $1), id LIMIT 1;
EXPLAIN (COSTS OFF) EXECUTE ic_lookup_spgist('0123456789abcdef', 7);
EXPLAIN (COSTS OFF) EXECUTE ic_lookup_gist('0123456789abcdef', 11);
EXPLAIN (COSTS OFF) EXECUTE ic_lookup_gin('0123456789abcdef', 7);
SET textfp.hamming_threshold = 3;
EXPLAIN (COSTS OFF) EXECUTE ic_lookup_spgist('0123456789abcdef', 3);
RESET textfp.hamming_threshold;
DEALLOCATE ic_lookup_spgist;
DEALLOCATE ic_lookup_gist;
DEALLOCATE ic_lookup_gin;
RESET plan_cache_mode;
RESET enable_seqscan;
RESET enable_indexscan;
RESET enable_indexonlyscan;

-- and the trigger itself: its lookups go through mih (the scans each index
-- counted, flushed to the statistics when the session is next idle)
CREATE TABLE ic_guarded (id int PRIMARY KEY, body text, fp simhash64, duplicate_of int);
INSERT INTO ic_guarded (id, fp) SELECT id, fp FROM ic_docs;
CREATE INDEX ic_guarded_mih ON ic_guarded USING mih (fp);
CREATE INDEX ic_guarded_tree ON ic_guarded USING spgist (fp);
ANALYZE ic_guarded;
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON ic_guarded FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=7', 'mode=mark');
INSERT INTO ic_guarded (id, body)
SELECT 100000 + i, 'w' || i || ' w' || (i * 7) % 3000 || ' w17 w3 w101 w2000 w44 w5 w902 w1' FROM generate_series(1, 30) i;
SELECT pg_stat_force_next_flush();
SELECT indexrelname, idx_scan >= 30 AS every_row, idx_scan = 0 AS never FROM pg_stat_user_indexes
WHERE indexrelname LIKE 'ic_guarded_%' AND indexrelname <> 'ic_guarded_pkey' ORDER BY 1;

-- a join (some keys' near rows, as 1.1's removed story_add made): a nested loop over mih
EXPLAIN (COSTS OFF)
SELECT k.id, n.id FROM ic_spgist k JOIN ic_spgist n ON n.fp <@ hamming_ball(k.fp, 7)
WHERE k.id <= 100 AND n.id <> k.id;

-- a tree alone: taken while a query visits little of it, a sequential scan
-- beyond; and nearest neighbours keep the access method's own estimate
SELECT r, pg_temp.scan_of(format('SELECT id FROM ic_tree WHERE fp <@ hamming_ball(%L, %s)', q.fp, r)) AS scan
FROM (VALUES (1), (2), (16)) v(r), ic_queries q WHERE q.q = 7 ORDER BY r;
EXPLAIN (COSTS OFF) SELECT id FROM ic_tree ORDER BY fp <~> '0123456789abcdef' LIMIT 3;

-- the answers: every table and plan the same as a sequential scan
CREATE TABLE ic_answers (tbl text, how text, q int, r int, n bigint, ids bigint);
CREATE FUNCTION pg_temp.answer(tbl text, how text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('INSERT INTO ic_answers SELECT %L, %L, q.q, v.r, count(t.id), sum(t.id)
		FROM ic_queries q CROSS JOIN (VALUES (0), (1), (2), (3), (7), (11), (16)) v(r)
		LEFT JOIN %I t ON t.fp <@ hamming_ball(q.fp, v.r) GROUP BY q.q, v.r', tbl, how, tbl);
END $$;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT pg_temp.answer(t, 'planner') FROM unnest(ARRAY['ic_spgist', 'ic_gist', 'ic_gin', 'ic_tree']) t;
SET enable_seqscan = off;
SELECT pg_temp.answer(t, 'index') FROM unnest(ARRAY['ic_spgist', 'ic_gist', 'ic_gin', 'ic_tree']) t;
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.answer('ic_docs', 'seqscan');
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_hashjoin;
RESET enable_mergejoin;
SELECT a.tbl, a.how, count(*) AS queries, count(*) FILTER (WHERE a.n = s.n AND a.ids IS NOT DISTINCT FROM s.ids) AS same
FROM ic_answers a JOIN ic_answers s ON s.how = 'seqscan' AND s.q = a.q AND s.r = a.r
WHERE a.how <> 'seqscan' GROUP BY a.tbl, a.how ORDER BY 1, 2;
-- the queries find something: near duplicates at small radii
SELECT r, sum(n) AS rows FROM ic_answers WHERE how = 'seqscan' GROUP BY r ORDER BY r;

DROP TABLE ic_docs, ic_queries, ic_spgist, ic_gist, ic_gin, ic_tree, ic_guarded, ic_answers;
