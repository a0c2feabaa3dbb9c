-- 1.1's weights for simhash: weighting => 'sublinear', numbers, keywords and
-- TF-IDF from an idf_model; the idf_model type and its aggregate.
-- Golden values: a diff here changes users' stored fingerprints.
SET extra_float_digits = 0;
CREATE TABLE wt_texts (id int PRIMARY KEY, body text);
INSERT INTO wt_texts VALUES
 (1, 'The quick brown fox jumps over the lazy dog. The dog sleeps, the fox runs.'),
 (2, 'Release 12 ships 3,400 packages; release 11 shipped 3,150. See table 4 for 2023 and 2024.'),
 (3, 'x = x + 1; x = x + 1; x = x + 1; y = 2; return x + y;'),
 (4, '今天天气很好，我们去公园散步吧。今天天气很好。'),
 (5, 'Apple 发布了新款 iPhone 16，售价 5999 元起，2024 年 9 月上市。'),
 (6, ''),
 (7, '1 2 3 4 5 6 7 8 9 10');

-- a model of fixed texts, width 64; its digest pins the aggregate's bucket layout
CREATE TABLE wt_model AS
	SELECT idf_model(simhash_features(body, stopwords => 'zh+snowball'), 64) AS m FROM wt_texts;
SELECT idf_model_docs(m), idf_model_width(m), idf_model_digest(m), pg_column_size(m) FROM wt_model;

SELECT id,
       simhash(body, weighting => 'sublinear') AS sublinear_10,
       simhash(body, 'fingerprint', stopwords => 'zh+snowball', weighting => 'sublinear') AS sublinear,
       simhash(body, 'fingerprint', stopwords => 'zh+snowball', numbers => 'drop') AS numbers_drop,
       simhash(body, 'fingerprint', stopwords => 'zh+snowball', numbers => 'shape') AS numbers_shape,
       simhash(body, 'fingerprint', stopwords => 'zh+snowball', keywords => 3) AS keywords3,
       simhash(body, 'fingerprint', stopwords => 'zh+snowball', idf => (SELECT m FROM wt_model)) AS tf_idf,
       simhash(body, 'null', stopwords => 'zh+snowball', weighting => 'sublinear', idf => (SELECT m FROM wt_model)) AS sublinear_idf,
       simhash(body, 'null', stopwords => 'zh+snowball', weighting => 'binary', numbers => 'drop',
               keywords => 4, idf => (SELECT m FROM wt_model)) AS binary_idf_drop_kw4
FROM wt_texts ORDER BY id;

-- the weights themselves: 1 + ln tf, times 1 + ln((N + 1) / (df + 1))
SELECT feature, weight FROM textfp_features('fox fox fox fox dog', stopwords => 'none', weighting => 'sublinear')
ORDER BY feature;
SELECT f.feature, idf_model_df(m, f.hash) AS df
FROM wt_model, textfp_features('the fox x 今天', stopwords => 'zh+snowball') f ORDER BY f.feature;

-- simhash_features: what simhash weighs (shingle 1, built-in stopwords by default)
SELECT simhash_features('fox fox dog 12', stopwords => 'none')
       = ARRAY(SELECT hash FROM textfp_features('fox fox dog 12', stopwords => 'none') ORDER BY hash) AS same_features,
       cardinality(simhash_features('fox fox dog 12', stopwords => 'none', numbers => 'drop')) AS without_numbers,
       simhash_features('') AS empty;
SELECT simhash_features('x', numbers => 'none');

-- the 1.1 overload's new arguments at their defaults give the 1.0 value
SELECT bool_and(simhash(body, 'fingerprint') = simhash(body)) AS defaults,
       bool_and(simhash(body, 'fingerprint', numbers => 'keep', keywords => 0, idf => 'none')
                = simhash(body)) AS spelled_out,
       bool_and(simhash(body, 'fingerprint', weighting => 'binary', idf => 'none')
                = simhash(body, weighting => 'binary')) AS binary_spelled_out,
       -- keywords above the number of features keeps them all
       bool_and(simhash(body, 'fingerprint', weighting => 'sublinear', keywords => 100000)
                = simhash(body, weighting => 'sublinear')) AS keywords_all
FROM wt_texts;

-- featureless: numbers => 'drop' leaves nothing of a text of numbers
SELECT simhash('1 2 3 4', 'null', stopwords => 'none', numbers => 'drop') IS NULL AS dropped,
       simhash('1 2 3 4', 'null', stopwords => 'none', numbers => 'shape') IS NULL AS shaped;

-- text and binary forms round-trip; 'none' is the empty model
SELECT m::text::idf_model::text = m::text AS text_round_trip,
       idf_model_digest(m::text::idf_model) = idf_model_digest(m) AS same_digest
FROM wt_model;
SELECT 'none'::idf_model, idf_model_docs('none'), idf_model_width('none'), idf_model_digest('none');
SELECT left(m::text, 26) FROM wt_model;
CREATE TABLE wt_bin (m idf_model);
SELECT current_setting('data_directory') || '/textfp_idf_model.bin' AS bin_path \gset
COPY (SELECT m FROM wt_model UNION ALL SELECT 'none') TO :'bin_path' (FORMAT binary);
COPY wt_bin FROM :'bin_path' (FORMAT binary);
SELECT idf_model_digest(b.m) = idf_model_digest(w.m) OR idf_model_docs(b.m) = 0 AS binary_round_trip
FROM wt_bin b, wt_model w;

-- no rows: the empty model; NULL rows are no documents
SELECT idf_model(x)::text FROM (SELECT '{1}'::bigint[] x WHERE false) s;
SELECT idf_model_docs(idf_model(x)) FROM (VALUES (NULL::bigint[]), ('{1,2}'), ('{}')) v(x);
-- repeats in a row count once
SELECT idf_model_df(idf_model(x, 64), 5) FROM (VALUES ('{5,5,5}'::bigint[]), ('{5}'), ('{6}')) v(x);

-- bounded: the size depends on width only, never on the rows
SELECT pg_column_size(idf_model(ARRAY[i, i + 1], 64)) AS few,
       (SELECT pg_column_size(idf_model(ARRAY[j, j * 7, j * 13], 64)) FROM generate_series(1, 20000) j) AS many
FROM generate_series(1, 3) i;
SELECT idf_model_width(idf_model(ARRAY[i], 65536)) FROM generate_series(1, 2) i;

-- two models alternating row by row: each row gets its own model's value (the cache keeps one)
CREATE TABLE wt_model2 AS
	SELECT idf_model(simhash_features(body, stopwords => 'zh+snowball'), 128) AS m FROM wt_texts WHERE id <= 3;
CREATE TABLE wt_mixed AS
	SELECT i, 'fox dog jumps 今天天气很好 apple iphone ' || repeat('fox ', i % 3) AS body FROM generate_series(1, 6) i;
SELECT (SELECT simhash(body, 'fingerprint', stopwords => 'zh+snowball', idf => m) FROM wt_model) AS model1,
       (SELECT simhash(body, 'fingerprint', stopwords => 'zh+snowball', idf => m) FROM wt_model2) AS model2
FROM wt_mixed WHERE i = 3;
SELECT bool_and(simhash(t.body, 'fingerprint', stopwords => 'zh+snowball',
                        idf => CASE WHEN t.i % 2 = 0 THEN a.m ELSE b.m END)
                = CASE WHEN t.i % 2 = 0 THEN x.fp_a ELSE x.fp_b END) AS alternating
FROM wt_mixed t, wt_model a, wt_model2 b,
	LATERAL (SELECT simhash(t.body, 'fingerprint', stopwords => 'zh+snowball', idf => a.m) AS fp_a,
	                simhash(t.body, 'fingerprint', stopwords => 'zh+snowball', idf => b.m) AS fp_b) x;

-- the same model for any row order and any plan (states add counter by counter)
CREATE TABLE wt_rows AS
	SELECT i AS id, ARRAY[hashint4(i % 97)::bigint, hashint4(i % 13)::bigint, i::bigint] AS f
	FROM generate_series(1, 60000) i;
ANALYZE wt_rows;
SELECT idf_model_digest(idf_model(f ORDER BY id)) = idf_model_digest(idf_model(f ORDER BY id DESC))
       AS order_independent FROM wt_rows;
SET max_parallel_workers_per_gather = 0;
SELECT idf_model_digest(idf_model(f)) AS serial FROM wt_rows \gset
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT idf_model(f) FROM wt_rows;
SELECT idf_model_digest(idf_model(f)) = :'serial' AS parallel_equals_serial FROM wt_rows;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- IMMUTABLE: an expression index holds the model as a literal
CREATE TABLE wt_docs (id int, body text);
INSERT INTO wt_docs SELECT id, body FROM wt_texts;
SELECT format('CREATE INDEX wt_docs_fp ON wt_docs USING mih (simhash(body, %L, stopwords => %L, weighting => %L, idf => %L::idf_model))',
	'null', 'zh+snowball', 'sublinear', m) FROM wt_model \gexec
SET enable_seqscan = off;
SELECT id FROM wt_docs, wt_model
WHERE simhash(body, 'null', stopwords => 'zh+snowball', weighting => 'sublinear', idf => m)
      <@ hamming_ball(simhash((SELECT body FROM wt_texts WHERE id = 4), 'null', stopwords => 'zh+snowball',
                              weighting => 'sublinear', idf => m), 0);
RESET enable_seqscan;

-- bad input
SELECT simhash('x', 'null', numbers => 'digits');
SELECT simhash('x', 'null', keywords => -1);
SELECT simhash('x', weighting => 'log');
SELECT 'idf2:docs=1:width=64:'::idf_model;
SELECT 'nonsense'::idf_model;
SELECT 'idf1:docs=0:width=64:'::idf_model;
SELECT 'idf1:docs=1:width=100:'::idf_model;
SELECT 'idf1:docs=1:width=64:AAAA'::idf_model;
-- a counter changed: the rows no longer have equal sums
SELECT overlay(m::text placing (CASE WHEN substr(m::text, 30, 1) = 'A' THEN 'B' ELSE 'A' END) from 30 for 1)::idf_model
FROM wt_model;
SELECT idf_model(x, 100) FROM (VALUES ('{1}'::bigint[])) v(x);
SELECT idf_model(x, 32) FROM (VALUES ('{1}'::bigint[])) v(x);
SELECT idf_model(x, w) FROM (VALUES ('{1}'::bigint[], 64), ('{2}', 128)) v(x, w);
SELECT idf_model(x, NULL) FROM (VALUES ('{1}'::bigint[])) v(x);
SELECT idf_model(x) FROM (VALUES ('{1,NULL}'::bigint[])) v(x);
SELECT idf_model(x) FROM (VALUES ('{{1},{2}}'::bigint[])) v(x);
