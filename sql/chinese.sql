-- chinese => 'mainland': Taiwan and Hong Kong words and characters to
-- mainland Simplified through a frozen table (src/core/zh_mainland_data.c).
-- The values below are golden: a change to the table or the matching
-- changes them, and must not happen (a new table comes as a new value).

-- the table and its identity
SELECT * FROM textfp_chinese_tables();

-- what the conversion does: regional words, characters, longest match,
-- after NFKC_Casefold; mainland text stays as it is
SELECT t, textfp_normalize(t, chinese => 'mainland') AS mainland, textfp_normalize(t, true) AS simplify
FROM (VALUES ('這套軟體的檔案是互動式的'), ('程式設計師用滑鼠點選視窗'), ('網路上的芳鄰'), ('記憶體與硬碟'),
             ('ＳＱＬ隱碼攻擊'), ('這個國家的經濟發展很快'), ('乾隆年間，頭髮乾了'),
             ('程序员把文件保存到软件里，什么都没有'), ('Plain ASCII text'), ('')) v(t);
SELECT textfp_normalize('這套軟體', 'none') = textfp_normalize('這套軟體') AS none_is_1_0;

-- the same content in Taiwan and mainland wording: one shingle set, one fingerprint
SELECT shingles('這套軟體的檔案是互動式的', chinese => 'mainland') = shingles('这套软件的文件是交互式的', chinese => 'mainland') AS same_shingles,
       shingles('這套軟體的檔案是互動式的', simplify => true) = shingles('这套软件的文件是交互式的') AS same_with_simplify,
       simhash('這套軟體的檔案是互動式的', 'null', chinese => 'mainland') = simhash('这套软件的文件是交互式的', 'null', chinese => 'mainland') AS same_simhash;

-- golden fingerprints (the pipeline id of a minhash_sig names the table)
SELECT simhash('這套軟體的檔案是互動式的，程式設計師用滑鼠點選視窗。', 'fingerprint', chinese => 'mainland') AS simhash_mainland,
       simhash('這套軟體的檔案是互動式的，程式設計師用滑鼠點選視窗。', 'fingerprint') AS simhash_none,
       minhash('這套軟體的檔案是互動式的，程式設計師用滑鼠點選視窗。', 'fingerprint', k => 8, chinese => 'mainland') AS minhash_mainland,
       minhash('這套軟體的檔案是互動式的，程式設計師用滑鼠點選視窗。', 'fingerprint', k => 8) AS minhash_none;
SELECT * FROM textfp_features('記憶體與硬碟', chinese => 'mainland', stopwords => 'none');
SELECT shingles('記憶體與硬碟', 'mainland', shingle => 1) AS shingles_mainland;

-- chinese => 'none' is 1.0's pipeline, value for value
SELECT bool_and(simhash(t) = simhash(t, 'fingerprint', chinese => 'none')
            AND minhash(t) = minhash(t, 'fingerprint', chinese => 'none')
            AND shingles(t) = shingles(t, 'none')
            AND (SELECT array_agg(f ORDER BY f) FROM textfp_features(t) f) =
                (SELECT array_agg(f ORDER BY f) FROM textfp_features(t, 'none') f)) AS none_is_1_0
FROM (VALUES ('這套軟體的檔案是互動式的'), ('这套软件'), ('Hello world'), ('')) v(t);

-- signatures of different tables do not compare
SELECT minhash('軟體', 'fingerprint', chinese => 'mainland') % minhash('軟體', 'fingerprint');

-- user stopwords are converted like the text: 軟體 is the token 软件
SELECT feature FROM textfp_features('軟體和檔案', 'mainland', tokenizer => 'icu', user_stopwords => '{軟體}', stopwords => 'none');

-- a long text in pieces: phrases across every piece boundary convert as in one piece
SELECT textfp_normalize(repeat('網路上的芳鄰程式設計師', 5000), 'mainland') = repeat('网上邻居程序员', 5000) AS long_text;

-- errors: unknown values, with ICU's conversion, positional quoted literals
SELECT textfp_normalize('x', chinese => 'taiwan');
SELECT simhash('x', 'null', chinese => 'Mainland');
SELECT minhash('x', 'null', chinese => 'mainland', simplify => true);
SELECT shingles('x', chinese => 'mainland', simplify => true);
SELECT textfp_normalize('x', 'true');
SELECT textfp_normalize('x', true) AS boolean_is_1_0, textfp_normalize('x', chinese => NULL) IS NULL AS strict;

-- the trigger passes chinese on
CREATE TABLE zh_posts (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX ON zh_posts USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON zh_posts FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'chinese=mainland');
INSERT INTO zh_posts (id, body) VALUES (1, '這套軟體的檔案是互動式的，程式設計師用滑鼠點選視窗，記憶體與硬碟都夠用。');
-- the mainland wording of the same text is a near duplicate (23505)
INSERT INTO zh_posts (id, body) VALUES (2, '这套软件的文件是交互式的，程序员用鼠标点击窗口，内存与硬盘都够用。');
INSERT INTO zh_posts (id, body) VALUES (3, '这台电脑的硬盘坏了，文件都打不开。');
SELECT id, fp = simhash(body, 'null', chinese => 'mainland') AS same FROM zh_posts ORDER BY id;
CREATE TABLE zh_bad (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX ON zh_bad USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON zh_bad FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'chinese=hk');
INSERT INTO zh_bad (id, body) VALUES (1, '軟體');
DROP TABLE zh_posts, zh_bad;
