-- report.sql: the Markdown tables of the presets' evaluation, from m and choice
-- (measure.sql).  psql -At prints them; run.sh writes them to report.md.
--
-- Thresholds print as SimHash "d <= r" and MinHash "J >= c/k"; "score" is the rule's
-- objective (mean of bench/quality's mean F1, the revisions' F1 and the regional recall).
\set ON_ERROR_STOP on
SET client_min_messages = warning;

CREATE TEMP VIEW thr AS
SELECT c.name AS cfg, c.method, c.k, t.t,
	CASE WHEN c.method = 'simhash' THEN 'd <= ' || (64 - t.t) ELSE 'J >= ' || round(t.t::numeric / c.k, 3) END AS label
FROM cfg c CROSS JOIN LATERAL generate_series(0, c.k) t(t);

-- a row's measures on the reporting halves, as table cells
CREATE TEMP VIEW cells AS
SELECT m.cfg, m.t, m.half,
	format('%s (%s / %s)', round(m.q_f1, 3), round(m.q_f1_en, 3), round(m.q_f1_zh, 3)) AS quality,
	format('%s / %s', m.q_fp_en, m.q_fp_zh) AS quality_fp,
	format('%s (%s / %s)', round(m.r_f1, 3), m.r_fp, m.r_fn) AS revisions,
	format('%s (%s)', round(m.g_rec, 3), round(m.g_fpk, 2)) AS regional,
	round(m.objective, 3) AS score
FROM m;

-- The thresholds a preset is used at: its own, and the baselines'.
CREATE TEMP TABLE fixed (ord int, label text, cfg text, t int);
INSERT INTO fixed
SELECT 1, 'SimHash, 1.0 defaults (`simhash(body)`)', 'simhash ngram=2 stopwords=builtin weighting=tf chinese=none', 64 - 10
UNION ALL SELECT 2, 'SimHash, 1.1''s recommended options until now (`stopwords => ''zh+snowball''`)',
	'simhash ngram=2 stopwords=zh+snowball weighting=tf chinese=none', 64 - 11
UNION ALL SELECT 3, 'SimHash, 1.1''s proposed weights (`''zh+snowball''`, `''sublinear''`, `idf`)',
	'simhash ngram=2 stopwords=zh+snowball weighting=sublinear chinese=none idf', 64 - 14
UNION ALL SELECT 4, 'MinHash, 1.0 defaults (`minhash(body)`)', 'minhash k=128 ngram=2 shingle=2 stopwords=none chinese=none', 36
UNION ALL SELECT 5, 'MinHash, `chinese => ''mainland''`', 'minhash k=128 ngram=2 shingle=2 stopwords=none chinese=mainland', 36
UNION ALL
SELECT 10 + row_number() OVER (ORDER BY method DESC, recommended DESC, name),
	format('**`%s`**%s', name, CASE WHEN recommended THEN ' (recommended)' ELSE '' END), 'preset ' || name,
	CASE WHEN method = 'simhash' THEN 64 - threshold::int
		ELSE ceil(threshold * (options->>'k')::int - 1e-9)::int END
FROM textfp_presets();

\echo '#### The presets and the baselines, on the reporting halves'
\echo
SELECT format('bench/quality: mean F1 (English / Chinese) and false pairs (English / Chinese) of %s and %s pairs; revisions (report half, %s pairs, %s revisions): F1 (false pairs / missed revisions); regional (report half, %s Taiwan documents, %s other pairs): recall of the counterpart (false matches per 1,000 pairs).',
	to_char(sum(pos + neg) FILTER (WHERE set = 'quality' AND lang = 'en'), 'FM999,999,999'),
	to_char(sum(pos + neg) FILTER (WHERE set = 'quality' AND lang = 'zh'), 'FM999,999,999'),
	to_char(sum(pos + neg) FILTER (WHERE set = 'revisions'), 'FM999,999,999'),
	to_char(sum(pos) FILTER (WHERE set = 'revisions'), 'FM999,999,999'),
	to_char(sum(pos) FILTER (WHERE set = 'regional'), 'FM999,999,999'),
	to_char(sum(neg) FILTER (WHERE set = 'regional'), 'FM999,999,999'))
FROM cum WHERE half = 'report' AND t = 0 AND cfg = (SELECT min(name) FROM cfg);
\echo
\echo '| method, threshold | bench/quality F1 | false pairs | revisions F1 (fp / fn) | regional recall (false / 1,000) | score |'
\echo '|---|---|---|---|---|---:|'
SELECT format('| %s, %s | %s | %s | %s | %s | %s |', f.label, x.label, c.quality, c.quality_fp, c.revisions, c.regional, c.score)
FROM fixed f JOIN thr x ON x.cfg = f.cfg AND x.t = f.t JOIN cells c ON c.cfg = f.cfg AND c.t = f.t AND c.half = 'report'
ORDER BY f.ord;
\echo

\echo '#### The revisions, whole set, by language (as the 1.1 weights section reports them)'
\echo
\echo '| method, threshold | English F1 (fp / fn) | Chinese F1 (fp / fn) |'
\echo '|---|---|---|'
WITH w AS (
	SELECT a.cfg, a.t, a.lang,
		sum(a.tp) AS tp, sum(a.fp) AS fp, sum(a.pos) AS pos
	FROM cum a JOIN fixed f ON f.cfg = a.cfg AND f.t = a.t WHERE a.set = 'revisions' GROUP BY 1, 2, 3)
SELECT format('| %s, %s | %s (%s / %s) | %s (%s / %s) |', f.label, x.label,
	round(2.0 * en.tp / (en.tp + en.fp + en.pos), 3), en.fp, en.pos - en.tp,
	round(2.0 * zh.tp / (zh.tp + zh.fp + zh.pos), 3), zh.fp, zh.pos - zh.tp)
FROM fixed f JOIN thr x ON x.cfg = f.cfg AND x.t = f.t
JOIN w en ON en.cfg = f.cfg AND en.t = f.t AND en.lang = 'en'
JOIN w zh ON zh.cfg = f.cfg AND zh.t = f.t AND zh.lang = 'zh'
ORDER BY f.ord;
\echo

\echo '#### Each preset around its threshold, reporting halves'
\echo
SELECT format(E'**`%s`**\n\n| threshold | bench/quality F1 | false pairs | revisions F1 (fp / fn) | regional recall (false / 1,000) | score | within the rule on the tuning halves |\n|---|---|---|---|---|---:|---|\n%s\n',
	p.name,
	string_agg(format('| %s%s | %s | %s | %s | %s | %s | %s |',
		x.label, CASE WHEN x.t = f.t THEN ' (preset)' ELSE '' END,
		c.quality, c.quality_fp, c.revisions, c.regional, c.score,
		CASE WHEN tm.within THEN 'yes' ELSE 'no' END), E'\n' ORDER BY x.t DESC))
FROM textfp_presets() p JOIN fixed f ON f.cfg = 'preset ' || p.name
JOIN thr x ON x.cfg = f.cfg AND x.t BETWEEN f.t - CASE WHEN p.method = 'simhash' THEN 3 ELSE 6 END
	AND f.t + CASE WHEN p.method = 'simhash' THEN 3 ELSE 6 END
JOIN cells c ON c.cfg = f.cfg AND c.t = x.t AND c.half = 'report'
JOIN m tm ON tm.cfg = f.cfg AND tm.t = x.t AND tm.half = 'tune'
GROUP BY p.name, p.method, p.recommended ORDER BY p.method DESC, p.recommended DESC;

\echo '#### Regional Chinese at its own threshold'
\echo
\echo 'The same fingerprints with the threshold chosen on the regional set alone (tuning catalogs, at most 1 false match in 1,000), as its own section does: the best that option set reaches there, which the one threshold of a preset gives up to keep the other sets clean.'
\echo
\echo '| option set | threshold | recall (false / 1,000) | at the preset threshold |'
\echo '|---|---|---|---|'
WITH own AS (
	SELECT DISTINCT ON (cfg) cfg, t FROM m WHERE half = 'tune' AND g_fpk <= 1 ORDER BY cfg, g_rec DESC, t DESC)
SELECT format('| `%s` | %s | %s (%s) | %s (%s) |', p.name, x.label, round(r.g_rec, 3), round(r.g_fpk, 2),
	round(pr.g_rec, 3), round(pr.g_fpk, 2))
FROM textfp_presets() p JOIN fixed f ON f.cfg = 'preset ' || p.name
JOIN own o ON o.cfg = f.cfg JOIN thr x ON x.cfg = o.cfg AND x.t = o.t
JOIN m r ON r.cfg = o.cfg AND r.t = o.t AND r.half = 'report'
JOIN m pr ON pr.cfg = f.cfg AND pr.t = f.t AND pr.half = 'report'
ORDER BY p.method DESC, p.recommended DESC;
\echo

\echo '#### Every option set, at the threshold the rule chooses for it'
\echo
\echo 'Tuning score first (what chooses), then the reporting halves. Options not named: shingle 1 (SimHash), k 128, no simplify; `idf`: a model of the collection (bench/quality: each split and language; the other sets: all their texts).'
\echo
SELECT format(E'**%s**\n\n| options | threshold | tuning score | bench/quality F1 | false pairs | revisions F1 (fp / fn) | regional recall (false / 1,000) | score |\n|---|---|---:|---|---|---|---|---:|\n%s\n',
	CASE c.method WHEN 'simhash' THEN 'SimHash' ELSE 'MinHash' END,
	string_agg(format('| %s | %s | %s | %s | %s | %s | %s | %s |',
		regexp_replace(ch.cfg, '^(simhash|minhash) ', ''), x.label, round(ch.tune_objective, 3),
		r.quality, r.quality_fp, r.revisions, r.regional, r.score), E'\n' ORDER BY ch.tune_objective DESC, ch.cfg))
FROM choice ch JOIN cfg c ON c.name = ch.cfg JOIN thr x ON x.cfg = ch.cfg AND x.t = ch.t
JOIN cells r ON r.cfg = ch.cfg AND r.t = ch.t AND r.half = 'report'
WHERE ch.cfg NOT LIKE 'preset %'
GROUP BY c.method ORDER BY c.method DESC;
