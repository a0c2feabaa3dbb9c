-- score.sql: precision, recall and F1 of "is a revision of" per method, language and threshold.
-- A pair is called a revision when its SimHash distance is <= d (or MinHash Jaccard >= j).
DROP TABLE IF EXISTS rev_score;
CREATE TABLE rev_score AS
WITH dist AS (
	SELECT f.method, p.lang, p.split, p.revision, p.same_text,
		(fa.fp <~> fb.fp)::float8 AS score
	FROM rev_pair p JOIN rev_fp fa ON fa.id = p.a JOIN rev_fp fb ON fb.id = p.b AND fb.method = fa.method
	JOIN (SELECT DISTINCT method FROM rev_fp) f ON f.method = fa.method
	WHERE p.split IS NOT NULL
	UNION ALL
	SELECT sa.method, p.lang, p.split, p.revision, p.same_text,
		-- as a "distance": 1 - J on a grid of 1/128
		1 - jaccard(sa.sig, sb.sig)
	FROM rev_pair p JOIN rev_sig sa ON sa.id = p.a JOIN rev_sig sb ON sb.id = p.b AND sb.method = sa.method
	WHERE p.split IS NOT NULL
), thr AS (
	SELECT DISTINCT method, score AS t FROM dist WHERE revision
)
SELECT d.method, d.lang, d.split, t.t,
	count(*) FILTER (WHERE d.revision AND d.score <= t.t) AS tp,
	count(*) FILTER (WHERE NOT d.revision AND d.score <= t.t) AS fp,
	count(*) FILTER (WHERE d.revision AND d.score > t.t) AS fn
FROM dist d JOIN thr t ON t.method = d.method
GROUP BY 1, 2, 3, 4;
ALTER TABLE rev_score ADD f1 float8;
UPDATE rev_score SET f1 = CASE WHEN tp = 0 THEN 0 ELSE 2.0 * tp / (2 * tp + fp + fn) END;
