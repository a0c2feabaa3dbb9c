-- methods.sql: the 1.1 methods on the reporting split, into score beside the 1.0 defaults,
-- for report.pl's per-edit tables.  Run after load.sql (doc, score); psql variable split.
--
-- The presets (textfp_presets()) are scored by bench/presets' own code: its load.sql, given
-- this corpus and no revisions or regional set, its score.sql and its grid.sql (whose last
-- part makes one configuration per preset, the IDF model of simhash_idf_v1 built per split
-- and language from simhash_features()); score_cfg() fills bench/presets' hist, copied here.
-- A preset's featureless text (NULL fingerprint, score -1) counts as score 0: below every
-- threshold, and still a pair.
--
-- The set methods are scored here, every pair of one language of the split, as bench/quality
-- scores its pairs:
--   excerpt   winnow() with its defaults; the pair matches when one text is an excerpt of
--             the other (docs/excerpts.md: at least m = 3 shared fingerprints and
--             containment >= c, in either direction, which is the containment of the smaller
--             set in the larger); score floor(100 * that containment), 0 below m
--             (cfg 'winnow'); cfg 'winnow ignore': the same with an ignore list (docs/
--             excerpts.md, "Boilerplate"), the fingerprints in 20 or more texts of the split's
--             language counting on neither side.  A family is 9 or 10 texts sharing most of
--             their fingerprints, so the bound is twice that (bench/excerpts' 10 would drop the
--             families' own); report.pl names the 20.
--   sentence  sentence_signature(), score signature_overlap() (at most 8); the documented rule
--             is >= 2
--   pinyin    pinyin_signature(), Chinese only (it gives '{}' for English), score
--             signature_overlap() capped at 64; the documented rule is >= 2
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- (run.sh runs bench/presets' load.sql, score.sql and grid.sql first, in the same database)
SELECT score_cfg(name) FROM cfg WHERE name LIKE 'preset %' ORDER BY name;
INSERT INTO score
SELECT h.split, h.cfg, c.method, c.k, h.lang, h.grp::integer, greatest(h.s, 0), sum(h.n)
FROM hist h JOIN cfg c ON c.name = h.cfg
WHERE h.set = 'quality' AND h.split = :'split'
GROUP BY 1, 2, 3, 4, 5, 6, 7;

DROP TABLE IF EXISTS fs, fs_common;
CREATE TEMP TABLE fs AS
SELECT d.id, d.lang, d.family, d.kcode, winnow(d.txt) AS wf, sentence_signature(d.txt) AS ss,
	CASE WHEN d.lang = 'zh' THEN pinyin_signature(d.txt) END AS ps
FROM doc d WHERE d.split = :'split';
-- each text's fingerprints without the common ones of its language (the ignore list)
CREATE TEMP TABLE fs_common AS SELECT lang, h FROM fs, unnest(wf) h GROUP BY 1, 2 HAVING count(*) >= 20;
CREATE INDEX ON fs_common (lang, h);
ALTER TABLE fs ADD COLUMN wfi bigint[];
UPDATE fs SET wfi = coalesce(array(SELECT unnest(fs.wf) EXCEPT SELECT c.h FROM fs_common c WHERE c.lang = fs.lang
	ORDER BY 1), '{}');
CREATE INDEX ON fs (lang, id);
ANALYZE fs;
DROP TABLE IF EXISTS fs_pair;
CREATE TEMP TABLE fs_pair AS
SELECT a.lang, CASE WHEN a.family <> b.family THEN -1 WHEN a.kcode = 0 THEN b.kcode ELSE 2 END AS cls,
	round(containment(a.wf, b.wf) * cardinality(a.wf))::integer AS shared,
	greatest(containment(a.wf, b.wf), containment(b.wf, a.wf)) AS contained,
	round(containment(a.wfi, b.wfi) * cardinality(a.wfi))::integer AS shared_i,
	greatest(containment(a.wfi, b.wfi), containment(b.wfi, a.wfi)) AS contained_i,
	signature_overlap(a.ss, b.ss) AS ss, signature_overlap(a.ps, b.ps) AS ps
FROM fs a JOIN fs b ON b.lang = a.lang AND b.id > a.id;
INSERT INTO score
SELECT :'split', 'winnow', 'excerpt', 100, lang, cls,
	CASE WHEN shared >= 3 THEN floor(contained * 100 + 1e-9)::integer ELSE 0 END, count(*)
FROM fs_pair GROUP BY 5, 6, 7;
INSERT INTO score
SELECT :'split', 'winnow ignore', 'excerpt', 100, lang, cls,
	CASE WHEN shared_i >= 3 THEN floor(contained_i * 100 + 1e-9)::integer ELSE 0 END, count(*)
FROM fs_pair GROUP BY 5, 6, 7;
INSERT INTO score
SELECT :'split', 'sentence_signature', 'sentence', 8, lang, cls, least(ss, 8), count(*)
FROM fs_pair GROUP BY 5, 6, 7;
INSERT INTO score
SELECT :'split', 'pinyin_signature', 'pinyin', 64, lang, cls, least(ps, 64), count(*)
FROM fs_pair WHERE lang = 'zh' GROUP BY 5, 6, 7;
