-- tune.sql: the option grid, scored on the tuning split: n-gram size, shingle size and
-- stopwords together for both methods, then weights (SimHash), simplify, and k (MinHash,
-- at its defaults).  Options not named are each function's 1.0 defaults.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET work_mem = '256MB';

SELECT score_split('tuning', 'trgm', ARRAY['trgm']);
SELECT score_split('tuning', format('ngram=%s shingle=%s stopwords=%s', n, sh, st), ARRAY['simhash', 'minhash'],
		p_ngram => n, p_shingle => sh, p_stopwords => st)
	FROM (VALUES (2, 1, 'builtin'), (1, 1, 'builtin'), (3, 1, 'builtin'),
		(2, 2, 'builtin'), (2, 3, 'builtin'), (2, 4, 'builtin'),
		(2, 1, 'none'), (2, 2, 'none'), (2, 3, 'none'), (2, 4, 'none'),
		(1, 2, 'builtin'), (1, 3, 'builtin'), (3, 2, 'builtin'),
		-- 1.1's lists: Snowball's English function words instead of the npm list, or Chinese only
		(2, 1, 'zh+snowball'), (2, 2, 'zh+snowball'), (2, 1, 'zh'), (2, 1, 'snowball')) g(n, sh, st);
SELECT score_split('tuning', 'weighting=binary', ARRAY['simhash'], p_weighting => 'binary');
SELECT score_split('tuning', 'simplify=true', ARRAY['simhash', 'minhash'], p_simplify => true);
SELECT score_split('tuning', format('k=%s', k), ARRAY['minhash'], p_k => k)
	FROM unnest(ARRAY[32, 64, 256]) k;
-- 1.1's weights (issue 22): sublinear TF, numbers, keywords, and TF-IDF with a model of the split's own texts
SELECT score_split('tuning', format('stopwords=zh+snowball weighting=%s%s%s%s', w,
		CASE WHEN idf THEN ' idf' ELSE '' END, coalesce(' numbers=' || nu, ''), coalesce(' keywords=' || kw, '')),
		ARRAY['simhash'], p_stopwords => 'zh+snowball', p_weighting => w, p_idf => idf, p_numbers => nu, p_keywords => kw)
	FROM (VALUES ('sublinear', false, NULL, NULL), ('tf', true, NULL, NULL), ('sublinear', true, NULL, NULL),
		('binary', true, NULL, NULL), ('sublinear', true, 'drop', NULL), ('tf', false, 'drop', NULL),
		('tf', false, 'shape', NULL), ('sublinear', true, NULL, 128)) g(w, idf, nu, kw);
