-- the text pipeline: normalisation, tokenising, stopwords, shingles, weights
-- (textfp_features shows what simhash sees)

-- NFKC with case folding: full width, compatibility forms, case
SELECT textfp_normalize('ＡＢＣ１２３ Straße ﬁnance Ⅻ ㈱ HELLO');
SELECT textfp_normalize('這個國家的經濟發展', simplify => true) AS simplified,
       textfp_normalize('這個國家的經濟發展') AS unchanged;

-- words for Latin scripts, punctuation and symbols dropped, digits kept
SELECT feature, weight FROM textfp_features('Hello, WORLD! 3.14 e-mail don''t ☃ 🎉', stopwords => 'none');
-- CJK runs become character bigrams; a run shorter than n is one token
SELECT feature FROM textfp_features('今天天气，很好。我', stopwords => 'none');
SELECT feature FROM textfp_features('今天天气', ngram => 1, stopwords => 'none');
SELECT feature FROM textfp_features('今天天气', ngram => 3, stopwords => 'none');
-- Kana and Hangul are n-grammed too; mixed scripts split at the boundary
SELECT feature FROM textfp_features('カタカナ ひらがな 한국어 iPhone手机2026年', stopwords => 'none');
-- full-width letters are folded before tokenising
SELECT feature FROM textfp_features('ＳＱＬ データベース', stopwords => 'none');

-- term frequency weights, features in order of first occurrence
SELECT feature, weight FROM textfp_features('apple banana apple cherry apple banana', stopwords => 'none');
SELECT feature, weight FROM textfp_features('apple banana apple cherry apple banana', stopwords => 'none', weighting => 'binary');

-- word shingles: consecutive tokens joined by one space
SELECT feature, weight FROM textfp_features('a b c a b', shingle => 2, stopwords => 'none');
SELECT feature FROM textfp_features('only two', shingle => 3, stopwords => 'none');
SELECT feature FROM textfp_features('今天天气', shingle => 2, stopwords => 'none');

-- a feature's hash is XXH3-64 of its text with the seed: same text, same hash
SELECT count(DISTINCT hash) FROM textfp_features('same same same', stopwords => 'none');
SELECT a.hash = b.hash AS same_hash_across_texts
FROM textfp_features('alpha beta', stopwords => 'none') a,
     textfp_features('beta gamma', stopwords => 'none') b
WHERE a.feature = 'beta' AND b.feature = 'beta';
SELECT (SELECT hash FROM textfp_features('alpha', stopwords => 'none', seed => 1)) <>
       (SELECT hash FROM textfp_features('alpha', stopwords => 'none')) AS seed_changes_hash;

-- built-in stopwords: English and Chinese lists (matched against whole tokens)
SELECT feature FROM textfp_features('The fox and the dog are in the house');
SELECT feature FROM textfp_features('The fox and the dog are in the house', stopwords => 'zh');
SELECT feature FROM textfp_features('我们的国家', stopwords => 'builtin');
SELECT feature FROM textfp_features('我们的国家', stopwords => 'en');
SELECT count(*) FROM textfp_stopwords('zh');
SELECT count(*) FROM textfp_stopwords('en');
SELECT count(*) FROM textfp_stopwords();
SELECT count(*) FROM textfp_stopwords('none');
SELECT w FROM textfp_stopwords('en') w LIMIT 5;

-- user stopwords are normalised like the text (case, width, script)
SELECT feature FROM textfp_features('Fox DOG Cat', stopwords => 'none', user_stopwords => '{ＦＯＸ,dog}');
SELECT feature FROM textfp_features('國家 经济', stopwords => 'none', simplify => true, user_stopwords => '{國家}');

-- the ICU word-break tokenizer finds Chinese words with ICU's dictionary
SELECT feature FROM textfp_features('中华人民共和国成立了', tokenizer => 'icu', stopwords => 'none');
SELECT feature FROM textfp_features('Don''t stop, 3.14!', tokenizer => 'icu', stopwords => 'none');

-- simhash: empty or all-stopword text has no features and gives zero
SELECT simhash(''), simhash('!!! ...'), simhash('the and of');
-- simplify makes traditional and simplified text fingerprint the same
SELECT simhash('這個國家的經濟發展很快', simplify => true) = simhash('这个国家的经济发展很快', simplify => true) AS same,
       simhash('這個國家的經濟發展很快') = simhash('这个国家的经济发展很快') AS same_without;
-- width and case folding make these identical
SELECT simhash('ＴＥＸＴＦＰ　ｆｉｎｇｅｒｐｒｉｎｔｓ，２０２６') = simhash('textfp fingerprints, 2026') AS folded;

-- near-duplicates are close, unrelated texts are not
WITH t(name, body) AS (VALUES
  ('orig', 'PostgreSQL is a powerful, open source object-relational database system with over 35 years of active development that has earned it a strong reputation for reliability, feature robustness, and performance.'),
  ('edit', 'PostgreSQL is a powerful open-source object relational database system with more than 35 years of active development that has earned it a strong reputation for reliability, robustness and performance.'),
  ('other', 'The quick brown fox jumps over the lazy dog while the cat sleeps on the warm windowsill in the afternoon sun.'))
SELECT a.name, b.name, simhash(a.body) <~> simhash(b.body) AS distance
FROM t a, t b WHERE a.name < b.name ORDER BY 1, 2;

-- textfp_features reproduces simhash exactly through simhash_agg
SELECT simhash_agg(hash, weight) = simhash('今天天气很好，我们去公园散步吧。The weather is nice today.') AS agrees
FROM textfp_features('今天天气很好，我们去公园散步吧。The weather is nice today.');
SELECT simhash_agg(hash, weight) = simhash('a b a c', shingle => 2, weighting => 'binary', seed => 7, stopwords => 'none') AS agrees
FROM textfp_features('a b a c', shingle => 2, weighting => 'binary', seed => 7, stopwords => 'none');

-- versions of the libraries the pipeline depends on
SELECT textfp, icu ~ '^[0-9.]+$' AS has_icu, unicode ~ '^[0-9.]+$' AS has_unicode, xxhash ~ '^0\.8\.' AS xxh3_stable FROM textfp_versions();

-- functions are IMMUTABLE (usable in indexes and generated columns)
CREATE TABLE articles (id int, body text,
                       fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED);
CREATE INDEX articles_fp_expr ON articles (simhash(body, shingle => 2));
INSERT INTO articles VALUES (1, 'hello world'), (2, '你好世界');
SELECT id, fp = simhash(body) AS stored_ok FROM articles ORDER BY id;
DROP TABLE articles;
