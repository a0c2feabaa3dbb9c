-- methods.sql: the fingerprints scored, one per method; rec is the threshold each is proposed at
-- (11 for 1.1's recommended stopwords, 14 with an IDF model: bench/quality's rule, docs/quality.md).
-- A model is built from the whole set with the same pipeline options as its fingerprint.
DROP TABLE IF EXISTS rev_method, rev_model;
CREATE TABLE rev_method (method text PRIMARY KEY, rec float8, what text);
CREATE TABLE rev_model (name text PRIMARY KEY, model idf_model);
INSERT INTO rev_model
	SELECT 'zh+snowball', idf_model(simhash_features(body, stopwords => 'zh+snowball')) FROM rev
	UNION ALL SELECT 'builtin', idf_model(simhash_features(body)) FROM rev;

CREATE FUNCTION pg_temp.m(name text, rec float8, opts text, model text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO rev_method VALUES (name, rec, opts);
	EXECUTE format('INSERT INTO rev_fp SELECT %L, id, simhash(body%s%s) FROM rev', name,
		CASE WHEN opts = '' THEN '' ELSE ', ' || opts END,
		CASE WHEN model IS NULL THEN '' ELSE format(', idf => (SELECT model FROM rev_model WHERE name = %L)', model) END);
END $$;

SELECT pg_temp.m('simhash defaults', 10, '');
SELECT pg_temp.m('zh+snowball', 11, 'stopwords => ''zh+snowball''');
SELECT pg_temp.m('zh+snowball binary', 11, 'stopwords => ''zh+snowball'', weighting => ''binary''');
SELECT pg_temp.m('zh+snowball sublinear', 11, 'stopwords => ''zh+snowball'', weighting => ''sublinear''');
SELECT pg_temp.m('zh+snowball numbers drop', 11, '''fingerprint'', stopwords => ''zh+snowball'', numbers => ''drop''');
SELECT pg_temp.m('zh+snowball numbers shape', 11, '''fingerprint'', stopwords => ''zh+snowball'', numbers => ''shape''');
SELECT pg_temp.m('zh+snowball sublinear drop', 11, '''fingerprint'', stopwords => ''zh+snowball'', weighting => ''sublinear'', numbers => ''drop''');
SELECT pg_temp.m('zh+snowball sublinear kw128', 11, '''fingerprint'', stopwords => ''zh+snowball'', weighting => ''sublinear'', keywords => 128');
SELECT pg_temp.m('zh+snowball sublinear d14', 14, '''fingerprint'', stopwords => ''zh+snowball'', weighting => ''sublinear''');
SELECT pg_temp.m('builtin tf-idf', 14, '''fingerprint''', 'builtin');
SELECT pg_temp.m('zh+snowball tf-idf', 14, '''fingerprint'', stopwords => ''zh+snowball''', 'zh+snowball');
SELECT pg_temp.m('zh+snowball binary-idf', 14, '''fingerprint'', stopwords => ''zh+snowball'', weighting => ''binary''', 'zh+snowball');
SELECT pg_temp.m('zh+snowball sublinear-idf', 14, '''fingerprint'', stopwords => ''zh+snowball'', weighting => ''sublinear''', 'zh+snowball');
SELECT pg_temp.m('zh+snowball tf-idf drop', 14, '''fingerprint'', stopwords => ''zh+snowball'', numbers => ''drop''', 'zh+snowball');
SELECT pg_temp.m('zh+snowball sublinear-idf drop', 14, '''fingerprint'', stopwords => ''zh+snowball'', weighting => ''sublinear'', numbers => ''drop''', 'zh+snowball');
SELECT pg_temp.m('zh+snowball sublinear-idf kw128', 14, '''fingerprint'', stopwords => ''zh+snowball'', weighting => ''sublinear'', keywords => 128', 'zh+snowball');

INSERT INTO rev_method VALUES ('minhash defaults', 1 - 0.28, 'minhash(body), J >= 0.28');
INSERT INTO rev_sig SELECT 'minhash defaults', id, minhash(body) FROM rev;
