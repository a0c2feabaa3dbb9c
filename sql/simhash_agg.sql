-- simhash_agg: SimHash of (feature hash, weight) rows, e.g. TF-IDF from tables

-- order of rows does not matter (weights are summed exactly)
CREATE TABLE feats AS
SELECT g AS id, ('x' || substr(md5(g::text), 1, 16))::bit(64)::bigint AS h,
       (g % 7) * 0.3 + 0.1 AS w
FROM generate_series(1, 5000) g;
SELECT (SELECT simhash_agg(h, w ORDER BY id) FROM feats) =
       (SELECT simhash_agg(h, w ORDER BY id DESC) FROM feats) AS order_independent,
       (SELECT simhash_agg(h, w ORDER BY md5(id::text)) FROM feats) =
       (SELECT simhash_agg(h, w) FROM feats) AS shuffled_same;

-- parallel aggregation combines partial states to the same answer
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
ALTER TABLE feats SET (parallel_workers = 2);
EXPLAIN (COSTS OFF) SELECT simhash_agg(h, w) FROM feats;
SELECT simhash_agg(h, w) = (SELECT simhash_agg(h, w ORDER BY id) FROM feats) AS parallel_same FROM feats;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- per-group fingerprints, null rows skipped, no rows gives NULL
SELECT id % 3 AS g, simhash_agg(h, w) FROM feats GROUP BY 1 ORDER BY 1;
SELECT simhash_agg(h, w) IS NULL AS empty_is_null FROM feats WHERE false;
SELECT simhash_agg(h, NULL) AS all_null_weights FROM feats;
SELECT simhash_agg(h, w) = simhash_agg(CASE WHEN id > 0 THEN h END, w) AS nulls_skipped FROM feats;

-- a single feature's fingerprint is the feature hash itself
SELECT simhash_agg(h, 1) = h::simhash64 AS single FROM feats WHERE id = 42 GROUP BY h;
-- zero weight contributes nothing: every bit ties, so zero
SELECT simhash_agg(h, 0) FROM feats;

-- bad weights
SELECT simhash_agg(1, -1);
SELECT simhash_agg(1, 'NaN');
SELECT simhash_agg(1, 'Infinity');
SELECT simhash_agg(1, 2e9);
SELECT simhash_agg(h, 1e9) FROM (SELECT 1::bigint h FROM generate_series(1, 20000)) s;

-- TF-IDF from the user's own tables, composed in SQL
CREATE TABLE docs (id int, body text);
INSERT INTO docs VALUES (1, 'red apple green apple'), (2, 'green pear red pear'), (3, 'red apple green pear');
WITH tf AS (
  SELECT d.id, f.feature, f.hash, f.weight AS tf
  FROM docs d, textfp_features(d.body, stopwords => 'none') f),
df AS (SELECT feature, count(*) AS df FROM tf GROUP BY feature)
SELECT tf.id, simhash_agg(tf.hash, tf.tf * ln(1 + 3.0 / df.df)) AS tfidf_fp,
       simhash(min(d.body), stopwords => 'none') AS tf_fp
FROM tf JOIN df USING (feature) JOIN docs d ON d.id = tf.id
GROUP BY tf.id ORDER BY tf.id;

-- simhash(tsvector): lexemes weighted by their number of positions
SELECT simhash('a:1,2,3 b:4'::tsvector) = simhash_agg(h, w) AS tsvector_matches_agg
FROM (SELECT hash AS h, weight AS w FROM textfp_features('a a a b', stopwords => 'none')) s;
SELECT simhash(strip(to_tsvector('simple', 'a a a b'))) = simhash('a b', stopwords => 'none') AS stripped_counts_once;
SELECT simhash(''::tsvector);

DROP TABLE feats, docs;
