-- score.sql: true and false pairs of "is a revision of" per method, set, language, split and threshold.
-- A pair is called a revision when its SimHash distance is <= t (MinHash: 1 - Jaccard <= t).
DROP TABLE IF EXISTS rev_score;
CREATE TABLE rev_score AS
WITH dist AS (
	SELECT fa.method, p.set, p.lang, p.split, p.revision, (fa.fp <~> fb.fp)::float8 AS score
	FROM rev_pair p JOIN rev_fp fa ON fa.id = p.a JOIN rev_fp fb ON fb.id = p.b AND fb.method = fa.method
	WHERE p.split IS NOT NULL
	UNION ALL
	SELECT sa.method, p.set, p.lang, p.split, p.revision, 1 - jaccard(sa.sig, sb.sig)
	FROM rev_pair p JOIN rev_sig sa ON sa.id = p.a JOIN rev_sig sb ON sb.id = p.b AND sb.method = sa.method
	WHERE p.split IS NOT NULL
), thr AS (
	-- every score a revision pair has is a threshold worth trying
	SELECT DISTINCT method, score AS t FROM dist WHERE revision
)
SELECT d.method, d.set, d.lang, d.split, t.t,
	count(*) FILTER (WHERE d.revision AND d.score <= t.t) AS tp,
	count(*) FILTER (WHERE NOT d.revision AND d.score <= t.t) AS fp,
	count(*) FILTER (WHERE d.revision AND d.score > t.t) AS fn
FROM dist d JOIN thr t ON t.method = d.method
GROUP BY 1, 2, 3, 4, 5;
