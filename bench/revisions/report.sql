-- report.sql: per method and language, best F1 over thresholds (whole set), the threshold chosen on the
-- tune split applied to the report split, and F1 at the method's recommended threshold (whole set).
WITH s AS (
	SELECT method, lang, t, sum(tp) tp, sum(fp) fp, sum(fn) fn FROM rev_score GROUP BY 1, 2, 3
), f AS (
	SELECT *, CASE WHEN tp = 0 THEN 0 ELSE 2.0 * tp / (2 * tp + fp + fn) END AS f1 FROM s
), best AS (
	SELECT DISTINCT ON (method, lang) * FROM f ORDER BY method, lang, f1 DESC, t
), tuned AS (
	SELECT DISTINCT ON (method, lang) method, lang, t FROM rev_score WHERE split = 'tune'
	ORDER BY method, lang, f1 DESC, t
), held AS (
	SELECT r.method, r.lang, r.t, r.f1, r.fp, r.fn FROM rev_score r JOIN tuned u USING (method, lang)
	WHERE r.split = 'report' AND r.t = (SELECT max(t) FROM rev_score x WHERE x.method = r.method
		AND x.lang = r.lang AND x.split = 'report' AND x.t <= u.t)
), rec AS (
	SELECT DISTINCT ON (f.method, f.lang) f.* FROM f JOIN rev_method m USING (method)
	WHERE f.t <= m.rec + 1e-9 ORDER BY f.method, f.lang, f.t DESC
)
SELECT b.method, b.lang,
	round(b.f1::numeric, 3) AS best_f1, CASE WHEN b.method LIKE 'minhash%' THEN 'J>=' || round(1 - b.t::numeric, 3) ELSE 'd<=' || b.t END AS at,
	b.fp AS fp, b.fn AS fn,
	round(h.f1::numeric, 3) AS heldout_f1, h.fp AS heldout_fp,
	round(r.f1::numeric, 3) AS rec_f1, r.fp AS rec_fp, r.fn AS rec_fn
FROM best b LEFT JOIN held h USING (method, lang) LEFT JOIN rec r USING (method, lang)
ORDER BY b.lang, b.f1 DESC;
