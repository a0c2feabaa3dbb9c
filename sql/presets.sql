-- Named presets (1.1): simhash(doc, preset => ...), minhash(doc, preset => ...),
-- simhash_features() and shingles() under a preset, textfp_presets(), the
-- textfp_preset type.  Golden values: a diff here changes users' stored
-- fingerprints, and a preset's definition is frozen forever.
SET extra_float_digits = 0;
CREATE TABLE pr_texts (id int PRIMARY KEY, kind text, body text);
INSERT INTO pr_texts VALUES
 (1, 'english', 'The quick brown fox jumps over the lazy dog while the cat sleeps on the warm windowsill.'),
 (2, 'chinese', '国务院新闻办公室今天举行新闻发布会，介绍前三季度国民经济运行情况。'),
 (3, 'taiwan', '這套軟體的檔案是互動式的，程式設計師可以從網路下載。'),
 (4, 'mainland', '这套软件的文件是交互式的，程序员可以从网上下载。'),
 (5, 'mixed', 'Apple 发布了新款 iPhone 16，售价 5999 元起，2024 年 9 月上市。'),
 (6, 'empty', ''),
 (7, 'punctuation', '。！？ ... !!!');

-- every preset, its method, threshold, options and what it is for
SELECT name, method, recommended, threshold, options FROM textfp_presets();
SELECT name, expression, description FROM textfp_presets();
-- one recommended preset per method
SELECT method, count(*) FILTER (WHERE recommended) AS recommended FROM textfp_presets() GROUP BY 1 ORDER BY 1;

-- the IDF preset's model, of the texts above (width 64; its digest pins the features counted)
CREATE TABLE pr_model AS
	SELECT idf_model(simhash_features(body, preset => 'simhash_idf_v1'), 64) AS m FROM pr_texts;
SELECT idf_model_docs(m), idf_model_width(m), idf_model_digest(m) FROM pr_model;

-- golden values; a text without features gives NULL under every preset
SELECT id, kind,
       simhash(body, preset => 'simhash_idf_v1', idf => (SELECT m FROM pr_model)) AS simhash_idf_v1,
       simhash(body, preset => 'simhash_v1') AS simhash_v1,
       simhash(body, preset => 'simhash_v2') AS simhash_v2
FROM pr_texts ORDER BY id;
SELECT id, kind, split_part(sig::text, ':', 4) AS pipe,
       left(split_part(sig::text, ':', 5), 32) AS first_values,
       right(sig::text, 8) AS last_value, length(split_part(sig::text, ':', 5)) / 8 AS k
FROM (SELECT id, kind, minhash(body, preset => 'minhash_v1') AS sig FROM pr_texts) s ORDER BY id;
SELECT id, kind, split_part(sig::text, ':', 4) AS pipe,
       left(split_part(sig::text, ':', 5), 32) AS first_values,
       right(sig::text, 8) AS last_value, length(split_part(sig::text, ':', 5)) / 8 AS k
FROM (SELECT id, kind, minhash(body, preset => 'minhash_v2') AS sig FROM pr_texts) s ORDER BY id;
SELECT id, kind, split_part(sig::text, ':', 4) AS pipe,
       left(split_part(sig::text, ':', 5), 32) AS first_values,
       right(sig::text, 8) AS last_value, length(split_part(sig::text, ':', 5)) / 8 AS k
FROM (SELECT id, kind, minhash(body, preset => 'minhash_v3') AS sig FROM pr_texts) s ORDER BY id;

-- each preset is the call textfp_presets() spells out (the table, its listing
-- and the option parser agree)
CREATE FUNCTION pg_temp.same_as_expression(p text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	e text;
	model text;
	ok boolean;
BEGIN
	SELECT expression, CASE WHEN options->>'idf' = 'model' THEN '(SELECT m FROM pr_model)' ELSE '''none''' END
	INTO STRICT e, model FROM textfp_presets() WHERE name = p;
	EXECUTE format('SELECT bool_and(%s IS NOT DISTINCT FROM %s) FROM pr_texts',
		replace(replace(e, '(doc,', '(body,'), 'idf => model', 'idf => ' || model),
		CASE WHEN e LIKE 'simhash%' THEN format('simhash(body, preset => %L, idf => %s)', p, model)
			ELSE format('minhash(body, preset => %L)', p) END)
	INTO ok;
	RETURN ok;
END $$;
SELECT name, pg_temp.same_as_expression(name) AS same FROM textfp_presets();
-- what an idf_model counts and what a MinHash preset signs, under the preset's options
SELECT bool_and(simhash_features(body, preset => 'simhash_idf_v1')
                = simhash_features(body, ngram => 1, chinese => 'mainland')) AS idf_features,
       bool_and(simhash_features(body, preset => 'simhash_v1')
                = simhash_features(body, ngram => 1, chinese => 'mainland')) AS v1_features,
       bool_and(shingles(body, preset => 'minhash_v1')
                = shingles(body, 'mainland', ngram => 1, shingle => 1, stopwords => 'zh+snowball')) AS minhash_shingles,
       bool_and(simhash_features(body, preset => 'simhash_v2')
                = simhash_features(body, ngram => 2, chinese => 'mainland')) AS v2_features,
       bool_and(shingles(body, preset => 'minhash_v2')
                = shingles(body, 'mainland', ngram => 1, shingle => 2, stopwords => 'zh+snowball')) AS minhash_v2_shingles,
       bool_and(shingles(body, preset => 'minhash_v3')
                = shingles(body, 'mainland', ngram => 1, shingle => 3, stopwords => 'zh+snowball')) AS minhash_v3_shingles
FROM pr_texts;
-- Taiwan wording meets its mainland counterpart under the presets, not without them
SELECT round(jaccard(minhash(t.body, preset => 'minhash_v1'), minhash(c.body, preset => 'minhash_v1'))::numeric, 3) AS preset_j,
       round(jaccard(minhash(t.body), minhash(c.body))::numeric, 3) AS defaults_j,
       simhash(t.body, preset => 'simhash_v1') <~> simhash(c.body, preset => 'simhash_v1') AS preset_d,
       simhash(t.body) <~> simhash(c.body) AS defaults_d,
       round(jaccard(minhash(t.body, preset => 'minhash_v2'), minhash(c.body, preset => 'minhash_v2'))::numeric, 3) AS v2_j,
       round(jaccard(minhash(t.body, preset => 'minhash_v3'), minhash(c.body, preset => 'minhash_v3'))::numeric, 3) AS v3_j,
       simhash(t.body, preset => 'simhash_v2') <~> simhash(c.body, preset => 'simhash_v2') AS v2_d
FROM pr_texts t, pr_texts c WHERE t.id = 3 AND c.id = 4;

-- how a call resolves: a quoted literal in second place is still featureless
-- (the text overload), a preset is named or cast
SELECT simhash(body, 'null') IS NOT DISTINCT FROM simhash(body, featureless => 'null') AS featureless_positional,
       minhash(body, 'null') IS NOT DISTINCT FROM minhash(body, featureless => 'null') AS minhash_positional,
       simhash(body, NULL) IS NULL AS null_positional,
       simhash(body, 'simhash_v1'::textfp_preset) IS NOT DISTINCT FROM simhash(body, preset => 'simhash_v1') AS cast_preset,
       shingles(body, 'mainland') = shingles(body, chinese => 'mainland') AS shingles_chinese
FROM pr_texts WHERE id = 3;
SELECT simhash('some text', 'simhash_v1');       -- featureless, with a hint
SELECT minhash('some text', 'minhash_v1');
SELECT simhash_features('some text', 'simhash_v1');
SELECT pg_typeof(simhash('x', preset => 'simhash_v1')), pg_typeof(minhash('x', preset => 'minhash_v1'));

-- errors
SELECT simhash('some text', preset => 'simhash_v0');
SELECT 'nope'::textfp_preset;
SELECT simhash('some text', preset => 'minhash_v1');
SELECT minhash('some text', preset => 'simhash_v1');
SELECT simhash('some text', preset => 'simhash_idf_v1');
SELECT simhash('some text', preset => 'simhash_idf_v1', idf => 'none');
SELECT simhash('some text', preset => 'simhash_v1', idf => (SELECT m FROM pr_model));
SELECT simhash_features('some text', preset => 'minhash_v1');
SELECT shingles('some text', preset => 'simhash_v1');
SELECT simhash('some text', preset => NULL) IS NULL AS strict;

-- the type: the name in text and binary form, the frozen number inside
SELECT p, p::text, pg_column_size(p)
FROM (VALUES ('simhash_idf_v1'::textfp_preset), ('simhash_v1'), ('minhash_v1'), ('simhash_v2'), ('minhash_v2'), ('minhash_v3')) v(p);
SELECT textfp_preset_send('minhash_v1') = convert_to('minhash_v1', 'UTF8') AS send_is_name;
CREATE TABLE pr_bin (p textfp_preset);
SELECT current_setting('data_directory') || '/textfp_preset.bin' AS bin_path \gset
COPY (SELECT name::textfp_preset FROM textfp_presets()) TO :'bin_path' (FORMAT binary);
COPY pr_bin FROM :'bin_path' (FORMAT binary);
SELECT p FROM pr_bin;

-- presets in an index expression and a generated column: immutable, shown by name
CREATE TABLE pr_docs (id int, body text,
	fp simhash64 GENERATED ALWAYS AS (simhash(body, preset => 'simhash_v1')) STORED);
INSERT INTO pr_docs (id, body) SELECT id, body FROM pr_texts;
CREATE INDEX pr_docs_sig ON pr_docs USING gin (minhash(body, preset => 'minhash_v1'));
SELECT pg_get_indexdef('pr_docs_sig'::regclass);
SET enable_seqscan = off;
SELECT id FROM pr_docs
WHERE minhash(body, preset => 'minhash_v1') <@ jaccard_ball(minhash('这套软件的文件是交互式的', preset => 'minhash_v1'), 0.46875)
ORDER BY id;
RESET enable_seqscan;
SELECT id, fp FROM pr_docs WHERE fp IS NULL ORDER BY id;
