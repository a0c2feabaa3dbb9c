-- quality.sql: how well each option set of bench/lsh finds reprints on bench/quality's labeled
-- corpus, at the set's threshold: precision, recall and F1 per language, on the reporting split
-- (what docs/quality.md reports) and on the tuning split.  Runs in a database that
-- bench/quality/load.sql has loaded (table doc, score, function score_split); each option set's
-- pairs are scored with score_split (minhash with shingle => the set's shingle, the other
-- options minhash's defaults) unless score already has them.
--
-- psql variables: sets (as run.sh's SETS).  Writes table lsh_quality and prints it.

\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET work_mem = '256MB';

DROP TABLE IF EXISTS lsh_sets;
CREATE TABLE lsh_sets AS
SELECT o::int AS ord, p[1] AS name, p[2]::int AS shingle, p[3]::float8 AS threshold
FROM regexp_split_to_table(btrim(:'sets'), '\s+') WITH ORDINALITY s(spec, o),
	LATERAL (SELECT string_to_array(spec, ',') AS p) x;

DO $$
DECLARE
	s record;
	sp text;
BEGIN
	FOR s IN SELECT DISTINCT shingle FROM lsh_sets LOOP
		FOREACH sp IN ARRAY ARRAY['tuning', 'reporting'] LOOP
			IF NOT EXISTS (SELECT 1 FROM score WHERE split = sp AND cfg = 'lsh shingle=' || s.shingle AND method = 'minhash') THEN
				PERFORM score_split(sp, 'lsh shingle=' || s.shingle, ARRAY['minhash'], p_shingle => s.shingle);
			END IF;
		END LOOP;
	END LOOP;
END $$;

DROP TABLE IF EXISTS lsh_quality;
CREATE TABLE lsh_quality AS
SELECT q.ord, q.name, q.shingle, q.threshold, c.split, c.lang,
	c.found_true::float8 / nullif(c.found, 0) AS precision,
	c.found_true::float8 / nullif(c.reprints, 0) AS recall,
	2 * c.found_true::float8 / nullif(c.found + c.reprints, 0) AS f1,
	c.found - c.found_true AS false_pairs, c.unrelated
FROM lsh_sets q
CROSS JOIN LATERAL (
	-- score is the number of equal positions: jaccard >= t is s >= needed(t, k)
	SELECT split, lang,
		sum(n) FILTER (WHERE s::float8 / scale >= q.threshold) AS found,
		sum(n) FILTER (WHERE s::float8 / scale >= q.threshold AND cls <> -1) AS found_true,
		sum(n) FILTER (WHERE cls <> -1) AS reprints,
		sum(n) FILTER (WHERE cls = -1) AS unrelated
	FROM score
	WHERE method = 'minhash' AND cfg = 'lsh shingle=' || q.shingle
	GROUP BY split, lang) c;

SELECT name, shingle, threshold, split, lang, round(precision::numeric, 3) AS precision,
	round(recall::numeric, 3) AS recall, round(f1::numeric, 3) AS f1, false_pairs, unrelated
FROM lsh_quality ORDER BY ord, split DESC, lang;
