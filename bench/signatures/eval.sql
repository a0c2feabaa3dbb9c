-- eval.sql: recall and false matches of pinyin_signature and sentence_signature next to simhash and minhash
-- at their defaults, on the set of make_set.pl (table docs).  Run by run.sh.
--
-- A pair is an edited copy and its document (positive), or any row and a document of another base in the same
-- language and split, other than the donor of its added sentences (unrelated).  simhash matches at textfp.hamming_threshold's default (10 bits), minhash
-- at textfp.jaccard_threshold's (0.28); a set signature at `a && b AND signature_overlap(a, b) >= m`.
-- Results: table grid (every configuration on both splits) and table report (the defaults, reporting split).

-- every configuration's values, one row a document and configuration
CREATE TABLE configs (method text, param text, ord int);
INSERT INTO configs VALUES
	('simhash', 'default', 1), ('minhash', 'default', 2),
	('pinyin', 'window=16', 10), ('pinyin', 'window=24', 11), ('pinyin', 'window=32', 12),
	('pinyin', 'window=48', 13), ('pinyin', 'window=64', 14),
	('sentence', 'k=3,min_length=10', 20), ('sentence', 'k=4,min_length=10', 21),
	('sentence', 'k=6,min_length=10', 22), ('sentence', 'k=8,min_length=10', 23),
	('sentence', 'k=4,min_length=20', 24), ('sentence', 'k=8,min_length=20', 25);

CREATE TABLE sigs AS
SELECT d.id, c.method, c.param,
	CASE c.method WHEN 'simhash' THEN simhash(d.body) END AS sh,
	CASE c.method WHEN 'minhash' THEN minhash(d.body) END AS mh,
	CASE c.method
		WHEN 'pinyin' THEN pinyin_signature(d.body, substring(c.param FROM 'window=(\d+)')::int)
		WHEN 'sentence' THEN sentence_signature(d.body, substring(c.param FROM 'k=(\d+)')::int,
			substring(c.param FROM 'min_length=(\d+)')::int)
	END AS v
FROM docs d CROSS JOIN configs c;
CREATE INDEX ON sigs (id, method, param);
ANALYZE sigs;

CREATE TABLE pairs AS
SELECT e.id AS a, o.id AS b, e.lang, e.split, e.kind, e.level, true AS positive
FROM docs e JOIN docs o ON o.id = e.base AND o.kind = 'original'
WHERE e.kind <> 'original'
UNION ALL
SELECT r.id, o.id, r.lang, r.split, 'unrelated', '', false
FROM docs r JOIN docs o ON o.kind = 'original' AND o.lang = r.lang AND o.split = r.split AND o.base <> r.base
	AND o.id IS DISTINCT FROM r.donor;

-- the score of every pair under every configuration: bits, Jaccard, or shared values
CREATE TABLE scores AS
SELECT p.*, c.method, c.param,
	CASE c.method
		WHEN 'simhash' THEN hamming_distance(sa.sh, sb.sh)::float8
		WHEN 'minhash' THEN jaccard(sa.mh, sb.mh)
		ELSE CASE WHEN sa.v && sb.v THEN signature_overlap(sa.v, sb.v) ELSE 0 END
	END AS score
FROM pairs p CROSS JOIN configs c
JOIN sigs sa ON sa.id = p.a AND sa.method = c.method AND sa.param = c.param
JOIN sigs sb ON sb.id = p.b AND sb.method = c.method AND sb.param = c.param;

-- match rules: the defaults of simhash and minhash, and m = 1, 2, 3 shared values
CREATE TABLE rules AS
SELECT method, param, ord, m, name FROM (
	SELECT method, param, ord, 0 AS m, method AS name FROM configs WHERE method IN ('simhash', 'minhash')
	UNION ALL
	SELECT method, param, ord, m, format('%s(%s), shared >= %s', method, param, m)
	FROM configs, generate_series(1, 3) m WHERE method IN ('pinyin', 'sentence')) r;

CREATE TABLE grid AS
SELECT r.name, r.method, r.param, r.m, r.ord, s.split, s.lang, s.kind, s.level,
	count(*) AS pairs,
	count(*) FILTER (WHERE CASE r.method
		WHEN 'simhash' THEN s.score <= 10
		WHEN 'minhash' THEN s.score >= 0.28
		ELSE s.score >= r.m END) AS matched
FROM rules r JOIN scores s USING (method, param)
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;

-- the defaults on the reporting split: pinyin_signature(body) and sentence_signature(body), one and two
-- values shared
CREATE TABLE report AS
SELECT g.lang, g.name, g.ord, g.m, g.kind, g.level, sum(g.pairs) AS pairs, sum(g.matched) AS matched
FROM grid g
WHERE g.split = 'report'
	AND (g.method IN ('simhash', 'minhash')
		OR (g.method = 'pinyin' AND g.param = 'window=16' AND g.m <= 2 AND g.lang = 'zh')
		OR (g.method = 'sentence' AND g.param = 'k=8,min_length=10' AND g.m <= 2))
GROUP BY 1, 2, 3, 4, 5, 6;

-- values a signature has, mean over the originals
CREATE TABLE sizes AS
SELECT d.lang, s.method, s.param, round(avg(cardinality(s.v)), 1) AS mean_values,
	count(*) FILTER (WHERE cardinality(s.v) = 0) AS empty
FROM sigs s JOIN docs d USING (id)
WHERE d.kind = 'original' AND (s.method = 'sentence' OR (s.method = 'pinyin' AND d.lang = 'zh'))
GROUP BY 1, 2, 3;
