-- grid.sql: the candidate configurations (cfg rows) scored by score.sql.
--
-- SimHash: chinese none / mainland, stopwords builtin / zh+snowball / none, weighting tf /
-- sublinear, ngram 1 / 2, with and without an IDF model of the collection (shingle 1: pairs of
-- tokens scored lower for SimHash in bench/quality).  MinHash: chinese none / mainland,
-- stopwords builtin / zh+snowball / none, ngram 1 / 2, shingle 1 / 2 / 3, k 128 (and shingle 4 and 5
-- with minhash_v2's other options, issue 21).  A second part, written after a first pass over those, tries k 256 on the seven best MinHash sets (and on
-- two candidates for a successor to minhash_v1, bench/stories/RESULTS.md) and
-- binary weights, numbers and keywords around the best SimHash set; a third adds the presets
-- themselves; a fourth, candidates for a model-free registration preset (bench/boilerplate/
-- README.md).  simplify => true (ICU's Traditional-Simplified) as reference rows only: it
-- costs 9 to 12 times to_tsvector (docs/quality.md), four times a preset's budget.
\set ON_ERROR_STOP on
INSERT INTO cfg
SELECT format('simhash ngram=%s stopwords=%s weighting=%s chinese=%s%s%s', n, st, w, zh,
		CASE WHEN sim THEN ' simplify' ELSE '' END, CASE WHEN idf THEN ' idf' ELSE '' END),
	'simhash', 64,
	format('simhash(%%1$s, %L, ngram => %s, shingle => 1, stopwords => %L, weighting => %L, simplify => %L, chinese => %L, idf => %s)',
		'null', n, st, w, sim, zh, CASE WHEN idf THEN '%2$s' ELSE '''none''::idf_model' END),
	CASE WHEN idf THEN format('simhash_features(%%1$s, ngram => %s, shingle => 1, stopwords => %L, simplify => %L, chinese => %L)',
		n, st, sim, zh) END,
	jsonb_build_object('ngram', n, 'shingle', 1, 'stopwords', st, 'weighting', w, 'simplify', sim, 'chinese', zh, 'idf', idf)
FROM unnest(ARRAY['none', 'mainland']) zh, unnest(ARRAY[false]) sim,
	unnest(ARRAY['builtin', 'zh+snowball', 'none']) st, unnest(ARRAY['tf', 'sublinear']) w,
	unnest(ARRAY[2, 1]) n, unnest(ARRAY[false, true]) idf
UNION ALL
SELECT format('simhash ngram=2 stopwords=zh+snowball weighting=%s chinese=none simplify%s', w, CASE WHEN idf THEN ' idf' ELSE '' END),
	'simhash', 64,
	format('simhash(%%1$s, %L, stopwords => %L, weighting => %L, simplify => true, idf => %s)',
		'null', 'zh+snowball', w, CASE WHEN idf THEN '%2$s' ELSE '''none''::idf_model' END),
	CASE WHEN idf THEN format('simhash_features(%%1$s, stopwords => %L, simplify => true)', 'zh+snowball') END,
	jsonb_build_object('ngram', 2, 'shingle', 1, 'stopwords', 'zh+snowball', 'weighting', w, 'simplify', true, 'chinese', 'none', 'idf', idf)
FROM unnest(ARRAY['tf', 'sublinear']) w, unnest(ARRAY[false, true]) idf
UNION ALL
SELECT format('minhash k=%s ngram=%s shingle=%s stopwords=%s chinese=%s%s', k, n, sh, st, zh, CASE WHEN sim THEN ' simplify' ELSE '' END),
	'minhash', k,
	format('minhash(%%1$s, %L, k => %s, ngram => %s, shingle => %s, stopwords => %L, simplify => %L, chinese => %L)',
		'null', k, n, sh, st, sim, zh),
	NULL,
	jsonb_build_object('k', k, 'ngram', n, 'shingle', sh, 'stopwords', st, 'simplify', sim, 'chinese', zh)
FROM unnest(ARRAY['none', 'mainland']) zh, unnest(ARRAY[false]) sim,
	unnest(ARRAY['builtin', 'zh+snowball', 'none']) st, unnest(ARRAY[2, 1]) n, unnest(ARRAY[1, 2, 3]) sh,
	unnest(ARRAY[128]) k
UNION ALL
SELECT format('minhash k=128 ngram=2 shingle=%s stopwords=none chinese=none simplify', sh), 'minhash', 128,
	format('minhash(%%1$s, %L, shingle => %s, simplify => true)', 'null', sh), NULL,
	jsonb_build_object('k', 128, 'ngram', 2, 'shingle', sh, 'stopwords', 'none', 'simplify', true, 'chinese', 'none')
FROM unnest(ARRAY[1, 2]) sh
ON CONFLICT (name) DO NOTHING;

-- Shingles of four and five tokens with minhash_v2's other options (issue 21: rarer features, fewer
-- unrelated pairs near the threshold; bench/stories/RESULTS.md, "Rarer features").
INSERT INTO cfg
SELECT format('minhash k=128 ngram=%s shingle=%s stopwords=%s chinese=mainland', n, sh, st), 'minhash', 128,
	format('minhash(%%1$s, %L, k => 128, ngram => %s, shingle => %s, stopwords => %L, simplify => false, chinese => %L)',
		'null', n, sh, st, 'mainland'),
	NULL, jsonb_build_object('k', 128, 'ngram', n, 'shingle', sh, 'stopwords', st, 'simplify', false, 'chinese', 'mainland')
FROM (VALUES (1, 4, 'zh+snowball'), (1, 5, 'zh+snowball')) g(n, sh, st)
ON CONFLICT (name) DO NOTHING;

-- Second pass, around the best of the first (docs/quality.md, "1.1: presets"): k 256 for
-- the best MinHash sets; binary weights, numbers and keywords with the best SimHash set.
INSERT INTO cfg
SELECT format('minhash k=256 ngram=%s shingle=%s stopwords=%s chinese=mainland', n, sh, st), 'minhash', 256,
	format('minhash(%%1$s, %L, k => 256, ngram => %s, shingle => %s, stopwords => %L, chinese => %L)',
		'null', n, sh, st, 'mainland'),
	NULL, jsonb_build_object('k', 256, 'ngram', n, 'shingle', sh, 'stopwords', st, 'simplify', false, 'chinese', 'mainland')
FROM (VALUES (1, 1, 'zh+snowball'), (1, 1, 'builtin'), (1, 1, 'none'), (1, 2, 'zh+snowball'),
	(1, 2, 'none'), (1, 2, 'builtin'), (2, 2, 'none'),
	-- a successor to minhash_v1 (fewer near rows per Chinese row: Chinese bigrams, pairs of tokens)
	(2, 1, 'zh+snowball'), (2, 2, 'zh+snowball')) g(n, sh, st)
UNION ALL
SELECT format('simhash ngram=1 stopwords=%s weighting=%s chinese=mainland idf%s', st, w, coalesce(' ' || extra, '')),
	'simhash', 64,
	format('simhash(%%1$s, %L, ngram => 1, stopwords => %L, weighting => %L, chinese => %L, idf => %%2$s%s)',
		'null', st, w, 'mainland', coalesce(', ' || arg, '')),
	format('simhash_features(%%1$s, ngram => 1, stopwords => %L, chinese => %L%s)', st, 'mainland',
		CASE WHEN arg LIKE 'numbers%' THEN ', ' || arg ELSE '' END),
	jsonb_build_object('ngram', 1, 'shingle', 1, 'stopwords', st, 'weighting', w, 'simplify', false, 'chinese', 'mainland',
		'idf', true, 'extra', extra)
FROM (VALUES ('builtin', 'binary', NULL, NULL), ('builtin', 'tf', 'numbers=drop', 'numbers => ''drop'''),
	('builtin', 'tf', 'numbers=shape', 'numbers => ''shape'''), ('builtin', 'tf', 'keywords=128', 'keywords => 128'),
	('builtin', 'sublinear', 'numbers=drop', 'numbers => ''drop'''), ('zh+snowball', 'binary', NULL, NULL)) g(st, w, extra, arg)
ON CONFLICT (name) DO NOTHING;

-- The presets themselves, through simhash(doc, preset => ...) and minhash(doc, preset => ...):
-- what report.sql reports, at the threshold textfp_presets() gives.
INSERT INTO cfg
SELECT 'preset ' || name, method, CASE method WHEN 'simhash' THEN 64 ELSE (options->>'k')::int END,
	CASE WHEN method = 'minhash' THEN format('minhash(%%1$s, preset => %L)', name)
		ELSE format('simhash(%%1$s, preset => %L, idf => %s)', name,
			CASE WHEN options->>'idf' = 'model' THEN '%2$s' ELSE '''none''::idf_model' END) END,
	CASE WHEN options->>'idf' = 'model' THEN format('simhash_features(%%1$s, preset => %L)', name) END,
	options || jsonb_build_object('preset', name)
FROM textfp_presets()
ON CONFLICT (name) DO NOTHING;

-- Candidates for a SimHash registration default without a model (simhash_v2): Chinese (and
-- kana) as bigrams or pairs of tokens, sublinear or binary weights, with simhash_v1's other
-- options (builtin stopwords, mainland wording, no IDF).
INSERT INTO cfg
SELECT format('simhash v2cand ngram=%s shingle=%s weighting=%s', n, sh, w), 'simhash', 64,
	format('simhash(%%1$s, %L, ngram => %s, shingle => %s, stopwords => %L, weighting => %L, chinese => %L, idf => %s)',
		'null', n, sh, 'builtin', w, 'mainland', '''none''::idf_model'),
	NULL,
	jsonb_build_object('ngram', n, 'shingle', sh, 'stopwords', 'builtin', 'weighting', w, 'simplify', false,
		'chinese', 'mainland', 'idf', false)
FROM (VALUES (2, 1, 'sublinear'), (2, 1, 'binary'), (2, 1, 'tf'), (2, 2, 'sublinear'), (2, 2, 'binary'),
	(1, 2, 'sublinear'), (1, 2, 'binary')) g(n, sh, w)
ON CONFLICT (name) DO NOTHING;
