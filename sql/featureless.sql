-- Texts without features, and the stopword lists that decide what a feature is.
--
-- 1.0's simhash() and minhash() give every featureless text the same value
-- (kept: stored fingerprints depend on it); the 1.1 overloads with a second
-- argument featureless => 'null' give NULL instead, which matches nothing.
SELECT t, simhash(t) AS fp_1_0, simhash(t, featureless => 'null') AS fp_null,
       minhash(t, featureless => 'null') IS NULL AS sig_null
FROM (VALUES (''), ('   '), ('!!! ??? ...'), ('🎉🎉 ★'), ('the and of'), ('的 了 是'),
             ('Hello world!'), ('Thank you very much!'), ('news')) v(t);
-- 'fingerprint' is 1.0's answer, for every option set
SELECT bool_and(simhash(t) = simhash(t, 'fingerprint')
            AND simhash(t, shingle => 2, stopwords => 'none') = simhash(t, 'fingerprint', shingle => 2, stopwords => 'none')
            AND minhash(t) = minhash(t, 'fingerprint')
            AND minhash(t, k => 16, method => 'kperm') = minhash(t, 'fingerprint', k => 16, method => 'kperm')) AS same_as_1_0
FROM (VALUES ('Reprinted stories keep most words'), ('国务院新闻办公室今天举行新闻发布会'), ('')) v(t);
-- positional second argument: text means featureless, a number is 1.0's ngram or k
SELECT simhash('!!!', 'null') IS NULL AS positional_null, simhash('新闻发布会', 3) = simhash('新闻发布会', ngram => 3) AS positional_ngram,
       minhash('a b c', 8) = minhash('a b c', k => 8) AS positional_k;
SELECT minhash('{}'::bigint[], 'null') IS NULL AS empty_set_null, minhash('{1,2}'::bigint[], 'null', k => 4) = minhash('{1,2}'::bigint[], k => 4) AS set_same;
-- NULL fingerprints never meet: in a join, a % or an exclusion constraint
CREATE TEMP TABLE posts (id int, body text, fp simhash64);
INSERT INTO posts SELECT i, b, simhash(b, featureless => 'null')
FROM (VALUES (1, 'Hello world!'), (2, 'Thank you very much!'), (3, '!!!'), (4, '🎉')) v(i, b);
SELECT a.id, b.id FROM posts a JOIN posts b ON a.id < b.id AND a.fp % b.fp;
CREATE TEMP TABLE guarded (body text, fp simhash64, EXCLUDE USING gist (hamming_ball(fp, 3) WITH &&));
INSERT INTO guarded SELECT body, fp FROM posts;
SELECT count(*) AS all_four_inserted FROM guarded;

-- The built-in lists: 'builtin' (zh + npm stopwords-en, 1.0), 'snowball'
-- (PostgreSQL's english.stop, 1.1) and combinations with '+'.
SELECT list, count(*) FROM (VALUES ('zh'), ('en'), ('snowball'), ('builtin'), ('zh+snowball'), ('zh+en+snowball'), ('none')) l(list),
       LATERAL textfp_stopwords(list) GROUP BY list ORDER BY list;
-- the npm list drops content words; Snowball's keeps them
SELECT w, w IN (SELECT textfp_stopwords('en')) AS in_en, w IN (SELECT textfp_stopwords('snowball')) AS in_snowball
FROM unnest('{the,very,hello,world,thank,computer,research,system,problem,information,home,test,year}'::text[]) w;
SELECT simhash('Thank you very much!', stopwords => 'zh+snowball') <~> simhash('Hello world!', stopwords => 'zh+snowball')
       AS snowball_distance;
-- a list's value never moves a 1.0 fingerprint: 'zh+en' is 'builtin'
SELECT simhash(t, stopwords => 'zh+en') = simhash(t) AND minhash(t, stopwords => 'en+zh') = minhash(t, stopwords => 'builtin')
       AS zh_en_is_builtin
FROM (VALUES ('The quick brown fox jumps over the lazy dog')) v(t);
-- new lists are new pipelines: their signatures never compare with 1.0's
SELECT (minhash_info(minhash('x', stopwords => 'snowball'))).pipeline AS snowball_pipeline,
       (minhash_info(minhash('x', stopwords => 'zh+snowball'))).pipeline AS zh_snowball_pipeline,
       (minhash_info(minhash('x', stopwords => 'builtin'))).pipeline AS builtin_pipeline;
-- 1.1 removed four entries of the 'en' list (herse”, himse”, itse”, myse”):
-- the closing quote splits every token (both tokenizers), so no token could
-- ever have matched them, and no fingerprint moves
SELECT count(*) AS quote_entries FROM textfp_stopwords('en') w WHERE w LIKE '%”%';
SELECT feature FROM textfp_features('herse” himse”', stopwords => 'none');
SELECT feature FROM textfp_features('herse” himse”', stopwords => 'none', tokenizer => 'icu');
