-- minhash(), shingles(), jaccard() and the operators: golden signatures,
-- the fast method against the reference, exact Jaccard, options and errors.

-- Golden values: stored signatures depend on them.  A change here is a
-- change of format and needs a new method tag (see docs/reference.md).
SELECT minhash('Syndicated newspaper articles reappear under rewritten headlines in partner publications.', k => 8);
SELECT minhash('转载的新闻保留了大部分字词，只换了标题。', k => 8);
SELECT minhash('轉載的新聞保留了大部分字詞，只換了標題。', k => 8, simplify => true);
SELECT minhash('Syndicated newspaper articles reappear under rewritten headlines in partner publications.', k => 8, method => 'kperm');
SELECT minhash('Shingles of two words each', k => 4, shingle => 2, stopwords => 'none', seed => 42);
SELECT md5(minhash(repeat('Long text with many distinct words number ', 3) ||
                   string_agg('w' || i, ' '))::text) AS k128_md5
FROM generate_series(1, 500) i;
SELECT minhash(ARRAY[1, 2, 3, 4, 5]::bigint[], k => 8);
SELECT minhash(ARRAY[1, 2, 3, 4, 5]::bigint[], k => 8, seed => -1, method => 'kperm');
SELECT shingles('Alpha beta gamma alpha', stopwords => 'none');

-- Full- and half-width forms and case fold to the same shingles
SELECT minhash('ＡＢＣ　Ｄｅｆ，ｇｈｉ') = minhash('abc def,ghi') AS width_and_case_folded;
SELECT minhash('轉載新聞', simplify => true) = minhash('转载新闻', simplify => true) AS simplified;

-- minhash(shingles(t)) has minhash(t)'s values (the header says who shingled);
-- seed seeds both the shingle hashes and the permutation
SELECT minhash_values(minhash(shingles(t, shingle => 2, seed => 9), k => 64, seed => 9)) =
       minhash_values(minhash(t, k => 64, shingle => 2, seed => 9)) AS oph_same,
       minhash_values(minhash(shingles(t), k => 64, method => 'kperm')) =
       minhash_values(minhash(t, k => 64, method => 'kperm')) AS kperm_same
FROM (VALUES ('新闻稿件被转载时，标题常常被改写，正文略有删改。 Stories are reprinted with small edits.')) v(t);

-- shingles(): sorted, distinct, as the pipeline features
SELECT s = (SELECT array_agg(DISTINCT h ORDER BY h) FROM textfp_features(t, shingle => 2, stopwords => 'none', weighting => 'binary') f(feature, h, w)) AS matches_features,
       cardinality(s) AS n
FROM (VALUES ('the cat sat on the mat and the cat slept')) v(t),
     LATERAL (SELECT shingles(t)) x(s);
SELECT shingles('') AS empty, shingles('the and of', stopwords => 'builtin') AS only_stopwords;

-- empty texts: every value 4294967295; two empty sets are equal
SELECT minhash('', k => 3);
SELECT jaccard(minhash(''), minhash('')), jaccard(minhash(''), minhash('newsroom archive reprint'));
SELECT jaccard('{}'::bigint[], '{}'::bigint[]), jaccard('{}'::bigint[], '{1}'::bigint[]);

-- exact Jaccard of arrays as sets
SELECT jaccard('{1,2,3,3}'::bigint[], '{3,2,4}'::bigint[]) AS half,
       jaccard('{-9223372036854775808,9223372036854775807}'::bigint[],
               '{9223372036854775807}'::bigint[]) AS extremes;
SELECT jaccard('{1,NULL}'::bigint[], '{1}'::bigint[]);
SELECT jaccard('{{1,2},{3,4}}'::bigint[], '{1}'::bigint[]);
SELECT minhash('{1,NULL}'::bigint[]);
SELECT minhash('{{1},{2}}'::bigint[]);

-- identical texts estimate 1; estimates are shares of k
SELECT jaccard(minhash(t), minhash(t)) AS same,
       jaccard(minhash(t, k => 1024), minhash(t || ' extra words appended', k => 1024)) * 1024
           = round(jaccard(minhash(t, k => 1024), minhash(t || ' extra words appended', k => 1024)) * 1024) AS share_of_k
FROM (VALUES ('a text compared with itself')) v(t);

-- the estimate follows the exact Jaccard (k = 1024: standard error <= 0.016)
SELECT round(exact::numeric, 3) AS exact,
       abs(oph - exact) < 0.07 AS oph_close, abs(kperm - exact) < 0.07 AS kperm_close
FROM (SELECT jaccard(shingles(a), shingles(b)) AS exact,
             jaccard(minhash(a, k => 1024), minhash(b, k => 1024)) AS oph,
             jaccard(minhash(a, k => 1024, method => 'kperm'), minhash(b, k => 1024, method => 'kperm')) AS kperm
      FROM (SELECT string_agg('word' || i, ' ') AS a FROM generate_series(1, 600) i) x
      CROSS JOIN (VALUES (1), (61), (201), (401), (561)) z(m)
      CROSS JOIN LATERAL (SELECT string_agg('word' || i, ' ') AS b
                          FROM generate_series(m, m + 599) i) y) p
ORDER BY exact;

-- operators: <%> is 1 - jaccard; % reads textfp.jaccard_threshold
SELECT jaccard(a, b) + (a <%> b) AS one
FROM (SELECT minhash('one two three four five six') a, minhash('one two three four seven eight') b) s;
SHOW textfp.jaccard_threshold;
CREATE TEMP TABLE near AS
SELECT minhash(string_agg('w' || i, ' '), shingle => 1) AS a,
       minhash(string_agg('w' || (i + 40), ' '), shingle => 1) AS b
FROM generate_series(1, 200) i;
SELECT jaccard(a, b), a % b AS near_default FROM near;
SET textfp.jaccard_threshold = 0.7;
SELECT a % b AS near_07, a <@ jaccard_ball(b, 0.5) AS within_05,
       jaccard_ball(b, 0.7) @> a AS contains_07 FROM near;
-- the threshold exactly at the estimate accepts it
SELECT set_config('textfp.jaccard_threshold', jaccard(a, b)::text, false) IS NOT NULL, a % b AS at_estimate,
       a <@ jaccard_ball(b, jaccard(a, b)) AS within_at_estimate FROM near;
SET textfp.jaccard_threshold = 1.5;
SET textfp.jaccard_threshold = -0.1;
RESET textfp.jaccard_threshold;

-- option errors
SELECT minhash('x', k => 0);
SELECT minhash('x', k => 1025);
SELECT minhash('x', method => 'minwise');
SELECT minhash('{1}'::bigint[], k => 2000);
SELECT minhash('{1}'::bigint[], method => '');
SELECT minhash('x', ngram => 0);
SELECT shingles('x', shingle => 17);
SELECT shingles('x', tokenizer => 'space');
SELECT shingles('x', user_stopwords => '{NULL}');

-- the functions that can feed indexes are IMMUTABLE; % is STABLE
SELECT p.oid::regprocedure, p.provolatile
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
WHERE p.proname IN ('minhash', 'shingles', 'jaccard', 'minhash_sig_near', 'minhash_sig_within',
                    'jaccard_ball', 'minhash_sig_distance')
ORDER BY 1::text;
