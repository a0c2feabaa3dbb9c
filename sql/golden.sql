-- golden fingerprints: stored fingerprints must never change for the same
-- input and options.  A diff here means a change that breaks users' data.
CREATE TABLE golden_texts (id int PRIMARY KEY, lang text, body text);
INSERT INTO golden_texts VALUES
 (1, 'en', 'The quick brown fox jumps over the lazy dog'),
 (2, 'en', 'PostgreSQL is a powerful, open source object-relational database system with over 35 years of active development.'),
 (3, 'en', 'Breaking: Markets rallied on Tuesday after the central bank held interest rates steady, surprising analysts.'),
 (4, 'zh', '今天天气很好，我们去公园散步吧。'),
 (5, 'zh', '中华人民共和国国务院新闻办公室今天举行新闻发布会，介绍经济运行情况。'),
 (6, 'zh-hant', '這個國家的經濟發展很快，人民生活水平不斷提高。'),
 (7, 'mixed', 'Apple 发布了新款 iPhone 16，售价 5999 元起。'),
 (8, 'mixed', 'ＰｏｓｔｇｒｅＳＱＬ　数据库　２０２６年　版本１５'),
 (9, 'ja', '東京は日本の首都です。カタカナとひらがな。'),
 (10, 'ko', '서울은 대한민국의 수도입니다.'),
 (11, 'empty', ''),
 (12, 'symbols', '!!! ??? ... ★☆ 🎉');

SELECT id, lang,
       simhash(body) AS default_fp,
       simhash(body, shingle => 2) AS shingle2,
       simhash(body, ngram => 3, stopwords => 'none') AS ngram3_nostop,
       simhash(body, simplify => true) AS simplified,
       simhash(body, tokenizer => 'icu') AS icu_words,
       simhash(body, weighting => 'binary', seed => 42) AS binary_seed42
FROM golden_texts ORDER BY id;

-- feature hashes: XXH3-64 of the UTF-8 feature text
SELECT feature, hash FROM textfp_features('hello 世界', stopwords => 'none');
SELECT feature, hash FROM textfp_features('hello 世界', stopwords => 'none', seed => 1);
SELECT feature, hash FROM textfp_features('hello big world', stopwords => 'none', shingle => 2);

-- simhash(tsvector) and simhash_agg
SELECT simhash(to_tsvector('simple', body)) FROM golden_texts WHERE id IN (1, 2, 4) ORDER BY id;
SELECT simhash('fox:1,5 dog:3 cat'::tsvector);
SELECT simhash_agg(h, w) FROM (VALUES (1::bigint, 1.0::float8), (2, 2.5), (-1, 0.25)) v(h, w);

-- minhash signatures (md5 of the text form: the values and the header), with
-- the 1.0 defaults (k 128, oph, shingle 2, no stopwords) and with options
SELECT id, lang,
       md5(minhash(body)::text) AS default_sig,
       (minhash_info(minhash(body))).pipeline AS default_pipe,
       md5(minhash(body, k => 64, shingle => 1, stopwords => 'builtin', seed => 7)::text) AS words_seed7,
       md5(minhash(body, k => 32, method => 'kperm', simplify => true)::text) AS kperm_simplified
FROM golden_texts ORDER BY id;

-- the 1.0 defaults, spelled out, give the same fingerprints
SELECT bool_and(simhash(body) = simhash(body, ngram => 2, shingle => 1, tokenizer => 'ngram',
           simplify => false, stopwords => 'builtin', user_stopwords => '{}', weighting => 'tf',
           seed => 0)) AS simhash_defaults,
       bool_and(minhash(body) = minhash(body, k => 128, method => 'oph', ngram => 2, shingle => 2,
           tokenizer => 'ngram', simplify => false, stopwords => 'none', user_stopwords => '{}',
           seed => 0)) AS minhash_defaults,
       bool_and(shingles(body) = shingles(body, ngram => 2, shingle => 2, tokenizer => 'ngram',
           simplify => false, stopwords => 'none', user_stopwords => '{}', seed => 0)) AS shingles_defaults
FROM golden_texts;

DROP TABLE golden_texts;
