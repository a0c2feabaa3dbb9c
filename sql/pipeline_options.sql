-- pipeline options: named arguments, defaults, and bad values

-- the defaults are what simhash uses when an option is left out
SELECT simhash('some text here') = simhash('some text here', ngram => 2, shingle => 1,
         tokenizer => 'ngram', simplify => false, stopwords => 'builtin',
         user_stopwords => '{}', weighting => 'tf', seed => 0) AS defaults_match;

-- bounds on sizes users control
SELECT simhash('x', ngram => 0);
SELECT simhash('x', ngram => 9);
SELECT simhash('x', shingle => 0);
SELECT simhash('x', shingle => 17);
SELECT simhash('x', ngram => 8, shingle => 16) IS NOT NULL AS max_ok;

-- unknown choices name the valid ones
SELECT simhash('x', tokenizer => 'jieba');
SELECT simhash('x', tokenizer => 'NGRAM');
SELECT simhash('x', stopwords => 'fr');
SELECT simhash('x', weighting => 'tfidf');
SELECT * FROM textfp_features('x', weighting => 'bm25');
SELECT * FROM textfp_stopwords('de');

-- user_stopwords: no nulls, one dimension, bounded sizes
SELECT simhash('x', user_stopwords => '{a,NULL}');
SELECT simhash('x', user_stopwords => '{{a,b},{c,d}}');
SELECT simhash('x', user_stopwords => ARRAY[repeat('a', 257)]);
SELECT simhash('x', user_stopwords => ARRAY(SELECT 'w' || g FROM generate_series(1, 100001) g));
SELECT simhash('alpha beta', user_stopwords => ARRAY(SELECT 'w' || g FROM generate_series(1, 100000) g))
     = simhash('alpha beta') AS large_list_ok;
SELECT simhash('alpha beta', user_stopwords => '{"", beta}') = simhash('alpha', stopwords => 'builtin') AS empty_entry_ignored;

-- NULL in any argument gives NULL (STRICT)
SELECT simhash(NULL::text) IS NULL, simhash('x', ngram => NULL) IS NULL,
       simhash('x', user_stopwords => NULL) IS NULL;

-- options vary per row: each row gets its own options
SELECT n, simhash('今天天气很好', ngram => n, stopwords => 'none') <> simhash('今天天气很好', stopwords => 'none') OR n = 2 AS ok
FROM generate_series(1, 4) n;
SELECT s, count(*) FROM (
  SELECT s, simhash('one two three four five six', shingle => s, stopwords => 'none') fp
  FROM generate_series(1, 3) s, generate_series(1, 3) r) x GROUP BY s ORDER BY s;

-- very long text is refused, not truncated
SELECT simhash(repeat('a', 64 * 1024 * 1024 + 1));
SELECT simhash(repeat('lorem ipsum ', 100000)) IS NOT NULL AS long_ok;

-- every pipeline function is IMMUTABLE, STRICT and PARALLEL SAFE
SELECT p.oid::regprocedure, provolatile, proisstrict, proparallel
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
WHERE proname IN ('simhash', 'textfp_features', 'textfp_normalize', 'textfp_stopwords', 'simhash64_near')
ORDER BY p.oid::regprocedure::text;
