-- measure.sql: from hist, every configuration's measures at every threshold, per half
-- (table m), and the threshold the rule chooses on the tuning halves (table choice).
--
-- A threshold t is "score >= t" (SimHash: distance <= 64 - t; MinHash: at least t of k
-- positions equal, Jaccard >= t / k).  Halves: bench/quality's tuning/reporting split, the
-- revisions' tune/report split, the regional set's tune/report catalogs; "tune" and
-- "report" below.
--
-- The rule (one threshold serves all three sets, as a preset's does): among thresholds
-- that on the tuning halves let in at most 1 unrelated pair in 100,000 in each language of
-- bench/quality (its 1.0 rule: a self-join of a large table must not flood) and at most 1
-- in 1,000 non-counterpart pairs of the regional set (its target), the one with the best
-- mean of bench/quality's mean F1 (English, Chinese), the revisions' F1 (all pairs) and the
-- regional recall of the counterpart; on a tie the stricter.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
DROP TABLE IF EXISTS agg, cum, m, choice;
CREATE TABLE agg AS
	SELECT cfg, set, CASE WHEN split IN ('tuning', 'tune') THEN 'tune' ELSE 'report' END AS half,
		lang, related, s, sum(n) AS n
	FROM hist GROUP BY 1, 2, 3, 4, 5, 6;
CREATE INDEX ON agg (cfg);
CREATE TABLE cum AS
	SELECT a.cfg, a.set, a.half, a.lang, t.t,
		coalesce(sum(a.n) FILTER (WHERE a.related AND a.s >= t.t), 0) AS tp,
		coalesce(sum(a.n) FILTER (WHERE NOT a.related AND a.s >= t.t), 0) AS fp,
		coalesce(sum(a.n) FILTER (WHERE a.related), 0) AS pos,
		coalesce(sum(a.n) FILTER (WHERE NOT a.related), 0) AS neg
	FROM cfg c CROSS JOIN LATERAL generate_series(0, c.k) t(t) JOIN agg a ON a.cfg = c.name
	GROUP BY 1, 2, 3, 4, 5;

CREATE FUNCTION pg_temp.f1(tp numeric, fp numeric, pos numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS
	$$SELECT CASE WHEN tp = 0 THEN 0 ELSE 2 * tp / (tp + fp + pos) END$$;

CREATE TABLE m AS
WITH q AS (
	SELECT cfg, half, t,
		pg_temp.f1(sum(tp) FILTER (WHERE lang = 'en'), sum(fp) FILTER (WHERE lang = 'en'), sum(pos) FILTER (WHERE lang = 'en')) AS q_f1_en,
		pg_temp.f1(sum(tp) FILTER (WHERE lang = 'zh'), sum(fp) FILTER (WHERE lang = 'zh'), sum(pos) FILTER (WHERE lang = 'zh')) AS q_f1_zh,
		sum(tp) FILTER (WHERE lang = 'en') / sum(pos) FILTER (WHERE lang = 'en') AS q_rec_en,
		sum(tp) FILTER (WHERE lang = 'zh') / sum(pos) FILTER (WHERE lang = 'zh') AS q_rec_zh,
		sum(fp) FILTER (WHERE lang = 'en') AS q_fp_en, sum(fp) FILTER (WHERE lang = 'zh') AS q_fp_zh,
		sum(neg) FILTER (WHERE lang = 'en') AS q_neg_en, sum(neg) FILTER (WHERE lang = 'zh') AS q_neg_zh
	FROM cum WHERE set = 'quality' GROUP BY 1, 2, 3
), r AS (
	SELECT cfg, half, t,
		pg_temp.f1(sum(tp), sum(fp), sum(pos)) AS r_f1,
		pg_temp.f1(sum(tp) FILTER (WHERE lang = 'en'), sum(fp) FILTER (WHERE lang = 'en'), sum(pos) FILTER (WHERE lang = 'en')) AS r_f1_en,
		pg_temp.f1(sum(tp) FILTER (WHERE lang = 'zh'), sum(fp) FILTER (WHERE lang = 'zh'), sum(pos) FILTER (WHERE lang = 'zh')) AS r_f1_zh,
		sum(fp) AS r_fp, sum(pos) - sum(tp) AS r_fn,
		sum(fp) FILTER (WHERE lang = 'en') AS r_fp_en, sum(pos - tp) FILTER (WHERE lang = 'en') AS r_fn_en,
		sum(fp) FILTER (WHERE lang = 'zh') AS r_fp_zh, sum(pos - tp) FILTER (WHERE lang = 'zh') AS r_fn_zh
	FROM cum WHERE set = 'revisions' GROUP BY 1, 2, 3
), g AS (
	SELECT cfg, half, t, sum(tp) / sum(pos) AS g_rec, 1000 * sum(fp) / sum(neg) AS g_fpk
	FROM cum WHERE set = 'regional' GROUP BY 1, 2, 3
)
SELECT q.*, (q.q_f1_en + q.q_f1_zh) / 2 AS q_f1,
	r.r_f1, r.r_f1_en, r.r_f1_zh, r.r_fp, r.r_fn, r.r_fp_en, r.r_fn_en, r.r_fp_zh, r.r_fn_zh,
	g.g_rec, g.g_fpk,
	((q.q_f1_en + q.q_f1_zh) / 2 + r.r_f1 + g.g_rec) / 3 AS objective,
	q.q_fp_en <= 1e-5 * q.q_neg_en AND q.q_fp_zh <= 1e-5 * q.q_neg_zh AND g.g_fpk <= 1 AS within
FROM q JOIN r USING (cfg, half, t) JOIN g USING (cfg, half, t);
CREATE INDEX ON m (cfg, half, t);

CREATE TABLE choice AS
SELECT DISTINCT ON (cfg) cfg, t, objective AS tune_objective
FROM m WHERE half = 'tune' AND within
ORDER BY cfg, objective DESC, t DESC;
