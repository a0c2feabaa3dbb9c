-- quality.sql: chaining and recall of a tracked table (:tbl, store :store, registration :cfg)
-- against tk_docs's planted families, recorded in tk_result under :method.
--   largest stories next to the largest planted family (original and copies) and template
--   group; recall of planted pairs (copy, its original): the copy in its original's story,
--   its source the original itself, and the pairs within the threshold (the fingerprints'
--   own distance, which no linking can beat), and the recall among those.
--   MinHash with LSH bands: of the pairs within the threshold, those the registration's
--   lookups reach (at least lsh_min_bands equal bands, counted from the two signatures;
--   the GIN class is exact for @@) against the mean of lsh_probability over the same pairs,
--   with its standard error (issue 21's recall target for LSH routes).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SELECT method = 'simhash' AS is_simhash, threshold AS thr, state, coalesce(done, 0) AS done,
	coalesce(lsh_bands, 0) AS bands, coalesce(lsh_rows, 0) AS brows, coalesce(lsh_min_bands, 0) AS minb FROM :cfg \gset
-- a registration whose linking was stopped ('linking'): only the rows linked so far, the
-- first :done in (time, key) order, count (the rest are stories of their own)
SELECT CASE WHEN :'state' = 'ready' THEN 'infinity'
	ELSE coalesce((SELECT at::text FROM :store ORDER BY at, key OFFSET greatest(:done - 1, 0) LIMIT 1), '-infinity') END AS upto \gset
INSERT INTO tk_result (method, item, value) SELECT :'method', 'quality over rows up to', :'upto' || ' (registration ' || :'state' || ')';
\if :is_simhash
\set within 'hamming_distance(sc.fp, so.fp) <= ' :thr
\else
\set within 'jaccard(sc.fp, so.fp) >= ' :thr
\endif
CREATE TEMP TABLE st AS SELECT story, count(*) AS size FROM :store WHERE at <= :'upto' GROUP BY story;
INSERT INTO tk_result (method, item, value)
SELECT :'method', 'stories', count(*)::text FROM st
UNION ALL SELECT :'method', 'stories of 2 or more rows', count(*) FILTER (WHERE size >= 2)::text FROM st
UNION ALL SELECT :'method', 'rows in stories of 2 or more', coalesce(sum(size) FILTER (WHERE size >= 2), 0)::text FROM st
UNION ALL SELECT :'method', 'largest stories', (SELECT string_agg(size::text, ', ' ORDER BY size DESC) FROM (SELECT size FROM st ORDER BY size DESC LIMIT 5) x)
UNION ALL SELECT :'method', 'largest planted family', (SELECT max(c) FROM (SELECT count(*) c FROM tk_docs WHERE role IN ('original', 'copy') GROUP BY family) x)::text
UNION ALL SELECT :'method', 'largest template group', (SELECT max(c) FROM (SELECT count(*) c FROM tk_docs WHERE role = 'template' GROUP BY family) x)::text
-- what the largest story is made of
UNION ALL SELECT :'method', 'largest story by role', (
	SELECT string_agg(format('%s %s', r.role, r.c), ', ' ORDER BY r.c DESC) FROM (
		SELECT d.role, count(*) AS c FROM :store s JOIN tk_docs d ON d.id = s.key
		WHERE s.story = (SELECT story FROM st ORDER BY size DESC, story LIMIT 1) GROUP BY d.role) r)
UNION ALL SELECT :'method', 'largest story: planted families in it', (
	SELECT count(DISTINCT d.family)::text FROM :store s JOIN tk_docs d ON d.id = s.key
	WHERE s.story = (SELECT story FROM st ORDER BY size DESC, story LIMIT 1) AND d.role IN ('original', 'copy'));

CREATE TEMP TABLE pairs AS
SELECT c.id, c.strength, c.lang, sc.story = so.story AS same_story, sc.source = o.id AS source_is_original,
	   :within AS within, sc.fp AS cfp, so.fp AS ofp
FROM tk_docs c JOIN tk_docs o ON o.id = c.family
JOIN :store sc ON sc.key = c.id JOIN :store so ON so.key = o.id
WHERE c.role = 'copy' AND sc.at <= :'upto';
INSERT INTO tk_result (method, item, value)
SELECT :'method', 'planted pairs', count(*)::text FROM pairs
UNION ALL SELECT :'method', 'recall: copy in its original''s story', round(avg(same_story::int), 4)::text FROM pairs
UNION ALL SELECT :'method', 'copy linked to its original directly', round(avg(source_is_original::int), 4)::text FROM pairs
UNION ALL SELECT :'method', 'pairs within the threshold', round(avg(within::int), 4)::text FROM pairs
UNION ALL SELECT :'method', 'recall among pairs within the threshold', round(avg(same_story::int) FILTER (WHERE within), 4)::text FROM pairs
UNION ALL SELECT :'method', 'recall by strength 0/1/2/3', (SELECT string_agg(format('%s', round(r, 3)), ' / ' ORDER BY s)
	FROM (SELECT strength s, avg(same_story::int) r FROM pairs GROUP BY 1) x)
UNION ALL SELECT :'method', 'recall en / zh', (SELECT string_agg(format('%s', round(r, 3)), ' / ' ORDER BY l)
	FROM (SELECT lang l, avg(same_story::int) r FROM pairs GROUP BY 1) x);
\if :is_simhash
\else
SELECT :bands > 0 AS banded \gset
\if :banded
CREATE TEMP TABLE lsh AS
SELECT (SELECT count(*) FROM unnest(minhash_bands(p.cfp, :bands, :brows), minhash_bands(p.ofp, :bands, :brows)) b(x, y)
		WHERE x = y) >= :minb AS reached,
	   lsh_probability(jaccard(p.cfp, p.ofp), :bands, :brows, :minb, cardinality(minhash_values(p.cfp)))::numeric AS p
FROM pairs p WHERE p.within;
INSERT INTO tk_result (method, item, value)
SELECT :'method', 'LSH: pairs within the threshold reached by the bands / lsh_probability''s prediction (standard error)',
	format('%s of %s = %s / %s (%s)', count(*) FILTER (WHERE reached), count(*), round(avg(reached::int), 5), round(avg(p), 5),
		   round(sqrt(sum(p * (1 - p))) / greatest(count(*), 1), 6))
FROM lsh;
\endif
\endif
