-- Excerpts: winnow() fingerprints (golden values), containment(), the
-- excerpt_query type (text and binary forms, accessors), @@ in both
-- directions with and without ignored fingerprints, and gin_winnow_ops
-- answering exactly what a sequential scan answers, before and after
-- inserts (pending list), updates, deletes and VACUUM.  Bad input last.

SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- golden values: frozen, like every constructor's (the first is also in test/unit)
SELECT winnow('The quick brown fox jumps over the lazy dog while the cat sleeps on the warm windowsill.');
SELECT winnow('国务院新闻办公室今天举行新闻发布会，介绍前三季度国民经济运行情况。国家统计局新闻发言人表示，前三季度国民经济持续恢复向好。');
SELECT winnow('The quick brown fox jumps over the lazy dog', "window" => 2, shingle => 2, seed => 7);
-- fewer shingles than a window: one fingerprint; no shingles: none
SELECT winnow('one two three'), winnow(''), winnow('...!');
-- the same text, any spacing, case or width: the same fingerprints (the pipeline normalises)
SELECT winnow('The QUICK brown  fox jumps over the lazy dog') = winnow('the quick brown fox jumps over the lazy dog');

-- a passage quoted inside a longer text: most of the source's fingerprints are in it
WITH t(src, host) AS (VALUES (
  'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight, the council said in a statement on Monday morning after a night of heavy rain across the region.',
  'In other news today. Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight, the council said in a statement on Monday morning. Meanwhile the local bakery won a national prize for its sourdough bread and thanked its staff and many loyal customers for years of support.'))
SELECT round(containment(winnow(src), winnow(host))::numeric, 4) AS source_in_host,
       round(containment(winnow(host), winnow(src))::numeric, 4) AS host_in_source,
       winnow(src) @@ quoted_in(winnow(host)) AS host_quotes_source,
       winnow(host) @@ quoting(winnow(src)) AS host_is_quoting,
       quoting(winnow(src)) @@ winnow(host) AS commuted
FROM t;
-- a Taiwan reprint of a mainland text: nothing shared as written, all of it
-- with chinese => 'mainland' (the pipeline's regional conversion, last argument)
WITH t(cn, tw) AS (VALUES ('新闻稿：这个软件可以打开文件并保存到服务器上，用户不需要安装其他程序就能使用全部功能。',
                           '這個軟體可以開啟檔案並儲存到伺服器上，使用者不需要安裝其他程式就能使用全部功能。'))
SELECT containment(winnow(tw), winnow(cn)) AS as_written,
       containment(winnow(tw, chinese => 'mainland'), winnow(cn, chinese => 'mainland')) AS mainland
FROM t;
-- containment counts distinct values, in any order; an empty first argument gives 0
SELECT containment('{3,1,2,2}', '{2,3,9}'), containment('{}', '{1}'), containment('{1}', '{}');

-- excerpt_query: text form, accessors, defaults
SELECT quoted_in('{5,-3,5,1}');
SELECT quoting('{5,-3,1}', 0.5, 2, '{1,7}');
SELECT 'quoting:0.5:2:{-3,5}:{1,7}'::excerpt_query::text::excerpt_query::text AS round_trip,
       'quoting:0.50:2:{5,-3,5}'::excerpt_query AS repeats;
SELECT excerpt_query_direction(q), excerpt_query_min_containment(q), excerpt_query_min_shared(q),
       excerpt_query_fingerprints(q), excerpt_query_ignored(q)
FROM (VALUES ('quoted_in:0.3:4:{9,2,2}:{2}'::excerpt_query), (quoting('{}'))) v(q);
-- binary form: COPY out and back in
CREATE TEMP TABLE eq_bin (q excerpt_query);
INSERT INTO eq_bin VALUES (quoting('{5,-3,1}', 0.5, 2, '{1,7}')), (quoted_in('{}')), (quoted_in('{9223372036854775807,-9223372036854775808}', 1, 1000000));
SELECT current_setting('data_directory') || '/textfp_excerpt_query.bin' AS bin_path \gset
COPY eq_bin TO :'bin_path' (FORMAT binary);
CREATE TEMP TABLE eq_bin2 (q excerpt_query);
COPY eq_bin2 FROM :'bin_path' (FORMAT binary);
SELECT q::text FROM eq_bin2;
SELECT (SELECT array_agg(q::text) FROM eq_bin) = (SELECT array_agg(q::text) FROM eq_bin2) AS binary_round_trip;

-- the rule, by hand: a row of 4 fingerprints, 2 shared with the query
SELECT c, m, '{1,2,3,4}'::bigint[] @@ quoted_in('{2,4,10,11,12,13,14,15}', c, m) AS quoted_in,
       '{1,2,3,4}'::bigint[] @@ quoting('{2,4,10,11,12,13,14,15}', c, m) AS quoting
FROM (VALUES (0.5, 2), (0.5, 3), (0.51, 1), (0.25, 1), (0.26, 1), (0, 1), (1, 1)) v(c, m);
-- ignored fingerprints count on neither side: 2 of the row's 3 others are in the query
SELECT '{1,2,3,4}'::bigint[] @@ quoted_in('{2,3,4}', 0.7, 1) AS without_ignore,
       '{1,2,3,4}'::bigint[] @@ quoted_in('{2,3,4}', 0.7, 1, '{4}') AS ignoring_4,
       '{1,2,3,4}'::bigint[] @@ quoted_in('{2,3,4}', 0.6, 1, '{4}') AS ignoring_4_at_06;
-- an empty row never matches, nor a row when the query is empty
SELECT '{}'::bigint[] @@ quoted_in('{1}', 0, 1), '{1}'::bigint[] @@ quoting('{}', 0, 1);

-- a table of generated articles: 300 originals of 30 to 330 words, composites
-- that quote 25% to 60% of an original inside other text, standalone passages,
-- and 40 articles of 4 sites that share a header and a 60-word footer
CREATE FUNCTION pg_temp.words(tag text, n int) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg('w' || (('x' || substr(md5(tag || ':' || j), 1, 8))::bit(32)::int & 4095), ' ' ORDER BY j)
  FROM generate_series(1, n) j
$$;
CREATE FUNCTION pg_temp.passage(body text, frac float8, start_frac float8) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_to_string(w[s:s + len - 1], ' ')
  FROM (SELECT regexp_split_to_array(body, ' ') AS w) a,
       LATERAL (SELECT ceil(cardinality(w) * frac)::int AS len) l,
       LATERAL (SELECT 1 + floor((cardinality(w) - len) * start_frac)::int AS s) st
$$;
CREATE TABLE exb (id int PRIMARY KEY, kind text, src int, body text);
INSERT INTO exb (id, kind, body) SELECT i, 'original', pg_temp.words('o' || i, 30 + (i * 37) % 300) FROM generate_series(1, 300) i;
INSERT INTO exb (id, kind, src, body)
SELECT 1000 + id, 'composite', id,
       pg_temp.words('h' || id, 40 + id % 200) || ' ' || pg_temp.passage(body, 0.25 + (id % 8) * 0.05, (id % 5) / 4.0) || ' ' || pg_temp.words('t' || id, 50 + id % 100)
FROM exb WHERE id % 3 = 0 AND kind = 'original' ORDER BY id;
INSERT INTO exb (id, kind, src, body)
SELECT 2000 + id, 'standalone', id, 'By our reporter. ' || pg_temp.passage(body, 0.3 + (id % 5) * 0.1, (id % 7) / 6.0)
FROM exb WHERE id % 5 = 1 AND kind = 'original' ORDER BY id;
INSERT INTO exb (id, kind, src, body)
SELECT 3000 + s * 10 + a, 'site', NULL,
       'Site ' || s || ' home news sport ' || pg_temp.words('a' || s || ':' || a, 20 + a * 7) || ' ' || pg_temp.words('footer' || s, 60)
FROM generate_series(1, 4) s, generate_series(1, 10) a;
INSERT INTO exb VALUES (9001, 'empty', NULL, ''), (9002, 'null', NULL, NULL);
-- fingerprints made with the rows, not by an UPDATE: an index built over
-- updated rows waits for older snapshots (indcheckxmin) before a plan may use it
CREATE TABLE ex AS SELECT id, kind, src, body, winnow(body) AS fp FROM exb ORDER BY id;
ALTER TABLE ex ADD PRIMARY KEY (id);
SELECT kind, count(*), min(cardinality(fp)), max(cardinality(fp)) FROM ex GROUP BY kind ORDER BY kind;

-- the boilerplate: fingerprints in at least 8 rows
CREATE TABLE ex_common AS
SELECT array_agg(h ORDER BY h) AS common FROM (SELECT h FROM ex, unnest(fp) h GROUP BY h HAVING count(*) >= 8) s;
SELECT cardinality(common) > 0 AS has_common FROM ex_common;

-- the queries: half the composite, standalone and site rows, some originals,
-- the empty row, with each direction at several least containments and
-- shares, with and without the common fingerprints ignored
CREATE TABLE exq AS
SELECT id AS qid, fp AS q FROM ex
WHERE (kind IN ('composite', 'standalone', 'site') AND id % 2 = 0) OR kind = 'empty' OR id % 50 = 0;
CREATE TABLE exp (c float8, m int, ig bool);
INSERT INTO exp VALUES (0.2, 3, false), (0.2, 3, true), (0.5, 1, false), (0.05, 1, false), (0.9, 2, true), (0, 1, false), (1, 1, false), (0.2, 40, false);

CREATE FUNCTION ex_run_queries() RETURNS TABLE (dir text, qid int, c float8, m int, ig bool, id int)
LANGUAGE sql AS $$
  SELECT 'quoted_in', qid, c, m, ig, id FROM exq, exp, ex_common, ex
  WHERE ex.fp @@ quoted_in(q, c, m, CASE WHEN ig THEN common ELSE '{}' END)
  UNION ALL
  SELECT 'quoting', qid, c, m, ig, id FROM exq, exp, ex_common, ex
  WHERE ex.fp @@ quoting(q, c, m, CASE WHEN ig THEN common ELSE '{}' END)
  UNION ALL
  SELECT 'commuted', qid, c, m, ig, id FROM exq, exp, ex_common, ex
  WHERE quoted_in(q, c, m, CASE WHEN ig THEN common ELSE '{}' END) @@ ex.fp
$$;

SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE ex_seq AS SELECT * FROM ex_run_queries();
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT dir, c, m, ig, count(*) FROM ex_seq GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;

-- what the planted excerpts find at the defaults: the composites their source
-- (quoted_in: 97 of 100, the misses quote 25% of a short source), the
-- standalone passages their source (quoting); no row other than the source
-- and its other excerpts; and site articles find each other through their
-- footer, unless the common fingerprints are ignored
SELECT e.kind, count(*) AS queries,
       count(*) FILTER (WHERE EXISTS (SELECT FROM ex o WHERE o.id = e.src AND o.fp @@ quoted_in(e.fp))) AS source_quoted,
       count(*) FILTER (WHERE EXISTS (SELECT FROM ex o WHERE o.id = e.src AND o.fp @@ quoting(e.fp))) AS source_quoting,
       count(*) FILTER (WHERE EXISTS (SELECT FROM ex o WHERE o.id <> e.id AND o.id IS DISTINCT FROM e.src
                                      AND (e.src IS NULL OR o.src IS DISTINCT FROM e.src) AND o.fp @@ quoted_in(e.fp))) AS others_quoted,
       count(*) FILTER (WHERE EXISTS (SELECT FROM ex o, ex_common WHERE o.id <> e.id AND o.id IS DISTINCT FROM e.src
                                      AND (e.src IS NULL OR o.src IS DISTINCT FROM e.src) AND o.fp @@ quoted_in(e.fp, ignore => common))) AS others_quoted_ignoring
FROM ex e WHERE e.kind IN ('composite', 'standalone', 'site') GROUP BY e.kind ORDER BY e.kind;

-- the same queries through the index (every other plan off), against a
-- sequential scan of the table as it is now
CREATE FUNCTION ex_compare_with_seq() RETURNS TABLE (missing bigint, extra bigint, index_used boolean)
LANGUAGE plpgsql AS $$
DECLARE l text; used boolean := false;
BEGIN
  DROP TABLE IF EXISTS ex_s, ex_i;
  PERFORM set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
          set_config('enable_seqscan', 'on', true);
  CREATE TEMP TABLE ex_s AS SELECT * FROM ex_run_queries();
  PERFORM set_config('enable_indexscan', 'on', true), set_config('enable_bitmapscan', 'on', true),
          set_config('enable_seqscan', 'off', true);
  CREATE TEMP TABLE ex_i AS SELECT * FROM ex_run_queries();
  -- the index took the queries (else both sides were scans)
  FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) SELECT id FROM exq, exp, ex_common, ex
                    WHERE ex.fp @@ quoted_in(q, c, m, CASE WHEN ig THEN common ELSE ''{}'' END)' LOOP
    used := used OR l LIKE '%Bitmap Index Scan on ex_fp_gin%';
  END LOOP;
  PERFORM set_config('enable_seqscan', 'on', true);
  RETURN QUERY SELECT (SELECT count(*) FROM (SELECT * FROM ex_s EXCEPT ALL SELECT * FROM ex_i) s),
                      (SELECT count(*) FROM (SELECT * FROM ex_i EXCEPT ALL SELECT * FROM ex_s) s), used;
END
$$;

CREATE INDEX ex_fp_gin ON ex USING gin (fp gin_winnow_ops);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'gin_winnow_ops';
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ex WHERE fp @@ quoted_in('{1,2,3}');
EXPLAIN (COSTS OFF) SELECT id FROM ex WHERE quoting('{1,2,3}') @@ fp;
EXPLAIN (COSTS OFF) SELECT e.id FROM exq, ex e WHERE exq.qid = 1003 AND e.fp @@ quoted_in(exq.q);
-- the comparison's queries take the index too (the order in which the plan
-- joins the small tables is the planner's to choose)
CREATE FUNCTION pg_temp.plan_has(q text, node text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    IF l LIKE '%' || node || '%' THEN
      RETURN true;
    END IF;
  END LOOP;
  RETURN false;
END
$$;
SELECT pg_temp.plan_has($$SELECT qid, id FROM exq, exp, ex_common, ex
  WHERE ex.fp @@ quoting(q, c, m, CASE WHEN ig THEN common ELSE '{}' END)$$, 'Bitmap Index Scan on ex_fp_gin') AS quoting_takes_the_index;
RESET enable_seqscan;
SELECT * FROM ex_compare_with_seq();
SELECT count(*) AS matches FROM ex_s;
SET enable_seqscan = off;
-- a query that needs more shared fingerprints than it has reads no key and finds nothing
SELECT count(*) FROM ex WHERE fp @@ quoting('{1,2}', 0, 3);
SELECT count(*) FROM ex WHERE fp @@ quoted_in('{}');
RESET enable_seqscan;

-- inserts into the pending list, updates, deletes, VACUUM: still the same answers
ALTER INDEX ex_fp_gin SET (fastupdate = on);
CREATE TEMP TABLE ex_saved AS SELECT * FROM ex WHERE id % 7 = 0;
DELETE FROM ex WHERE id % 7 = 0;
SELECT * FROM ex_compare_with_seq();
INSERT INTO ex SELECT * FROM ex_saved;
-- a row whose text gains a copy of another: it now quotes it
UPDATE ex SET fp = winnow(body || ' ' || (SELECT body FROM ex WHERE id = 2)) WHERE id = 5;
SELECT id FROM ex WHERE fp @@ quoted_in((SELECT fp FROM ex WHERE id = 5)) ORDER BY id;
SELECT * FROM ex_compare_with_seq();
SELECT count(*) AS matches FROM ex_s;
UPDATE ex SET fp = winnow(body) WHERE id = 5;
VACUUM ex;
SELECT * FROM ex_compare_with_seq();
SELECT count(*) AS matches FROM ex_s;

-- keys of fewer bits: unrelated fingerprints share keys (8 bits: 256 keys for
-- every row), more candidates, the same answers
DROP INDEX ex_fp_gin;
CREATE INDEX ex_fp_gin8 ON ex USING gin (fp gin_winnow_ops (bits = 8));
CREATE INDEX ex_fp_gin20 ON ex USING gin (fp gin_winnow_ops (bits = 20));
SELECT pg_get_indexdef('ex_fp_gin20'::regclass);
DROP INDEX ex_fp_gin20;
SELECT * FROM ex_compare_with_seq();
SELECT count(*) AS matches FROM ex_s;
DROP INDEX ex_fp_gin8;
CREATE INDEX ex_fp_gin20 ON ex USING gin (fp gin_winnow_ops (bits = 20));
SELECT * FROM ex_compare_with_seq();
CREATE INDEX ON ex USING gin (fp gin_winnow_ops (bits = 7));
CREATE INDEX ON ex USING gin (fp gin_winnow_ops (bits = 65));

-- bad input
SELECT winnow('a b c', "window" => 0);
SELECT winnow('a b c', "window" => 257);
SELECT winnow('a b c', shingle => 0);
SELECT winnow('a b c', chinese => 'martian');
SELECT quoted_in('{1,NULL}');
SELECT quoted_in('{{1,2},{3,4}}');
SELECT quoted_in('{1}', 'NaN');
SELECT quoted_in('{1}', -0.1);
SELECT quoting('{1}', 1.5);
SELECT quoting('{1}', 0.2, 0);
SELECT quoting('{1}', 0.2, 1000001);
SELECT quoting('{1}', ignore => '{1,NULL}');
SELECT containment('{1,NULL}', '{1}');
SELECT '{1,NULL}'::bigint[] @@ quoted_in('{1}');
SELECT 'garbage'::excerpt_query;
SELECT 'quoted_in:abc:3:{1}'::excerpt_query;
SELECT 'quoted:0.2:3:{1}'::excerpt_query;
SELECT 'quoted_in:0.2:3'::excerpt_query;
SELECT 'quoted_in:0.2:3:{1,x}'::excerpt_query;
SELECT 'quoted_in:0.2:3:{1,NULL}'::excerpt_query;
SELECT 'quoted_in:2:3:{1}'::excerpt_query;
INSERT INTO ex (id, kind, fp) VALUES (9999, 'bad', '{1,NULL}');
