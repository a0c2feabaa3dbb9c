-- report.sql: per method and :grp (lang or set): the best F1 over thresholds on the whole set, the threshold
-- chosen on the tune split applied to the report split (held out), and F1 at the method's proposed threshold
-- (rev_method.rec) on the whole set, with false pairs (fp) and missed revisions (fn).
WITH g AS (
	SELECT method, :grp AS grp, split, t, sum(tp) tp, sum(fp) fp, sum(fn) fn FROM rev_score GROUP BY 1, 2, 3, 4
), f AS (
	SELECT method, grp, t, sum(tp) tp, sum(fp) fp, sum(fn) fn FROM g GROUP BY 1, 2, 3
), f1 AS (
	SELECT *, CASE WHEN tp = 0 THEN 0 ELSE 2.0 * tp / (2 * tp + fp + fn) END AS f1 FROM f
), g1 AS (
	SELECT *, CASE WHEN tp = 0 THEN 0 ELSE 2.0 * tp / (2 * tp + fp + fn) END AS f1 FROM g
), best AS (
	SELECT DISTINCT ON (method, grp) * FROM f1 ORDER BY method, grp, f1 DESC, t
), tuned AS (
	SELECT DISTINCT ON (method, grp) method, grp, t FROM g1 WHERE split = 'tune' ORDER BY method, grp, f1 DESC, t
), held AS (
	SELECT DISTINCT ON (r.method, r.grp) r.method, r.grp, r.f1, r.fp
	FROM g1 r JOIN tuned u USING (method, grp) WHERE r.split = 'report' AND r.t <= u.t
	ORDER BY r.method, r.grp, r.t DESC
), rec AS (
	SELECT DISTINCT ON (f1.method, f1.grp) f1.* FROM f1 JOIN rev_method m USING (method)
	WHERE f1.t <= m.rec + 1e-9 ORDER BY f1.method, f1.grp, f1.t DESC
)
SELECT b.method, b.grp AS :grp,
	round(b.f1, 3) AS best_f1,
	CASE WHEN b.method LIKE 'minhash%' THEN 'J >= ' || round(1 - b.t::numeric, 3) ELSE 'd <= ' || b.t END AS at,
	b.fp, b.fn,
	round(h.f1, 3) AS held_out_f1, h.fp AS held_out_fp,
	CASE WHEN b.method LIKE 'minhash%' THEN 'J >= ' || round(1 - m.rec::numeric, 3) ELSE 'd <= ' || m.rec END AS proposed,
	round(r.f1, 3) AS proposed_f1, r.fp AS proposed_fp, r.fn AS proposed_fn
FROM best b JOIN rev_method m USING (method) LEFT JOIN held h USING (method, grp) LEFT JOIN rec r USING (method, grp)
ORDER BY b.grp, r.f1 DESC NULLS LAST;
