-- demo.sql: the README's main job, finding reprinted articles among real ones.
--
-- Reads make_articles.pl's output on psql's standard input (\copy ... FROM pstdin):
--   perl demo/make_articles.pl > articles.tsv
--   psql -X -v ON_ERROR_STOP=1 -f demo/demo.sql < articles.tsv
-- Everything it makes lives in schema textfp_demo, dropped and remade on each run.
-- Needs a UTF8 database.

\set ON_ERROR_STOP on
\encoding UTF8
\pset footer off
\pset null ''
-- the thresholds the report uses: near duplicates at most :near bits apart (the
-- default of textfp.hamming_threshold),
-- a looser look at :loose bits
\set near 6
\set loose 10

SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;
DROP SCHEMA IF EXISTS textfp_demo CASCADE;
CREATE SCHEMA textfp_demo;
SET search_path = textfp_demo, public;
RESET client_min_messages;

\echo
\echo '=== textfp demo: finding reprinted articles ==='
\echo
SELECT textfp, icu, unicode, xxhash FROM textfp_versions();

-- -------------------------------------------------------------------------
-- what the pipeline sees
-- -------------------------------------------------------------------------

\echo
\echo '--- features of two short sentences (textfp_features, default options) ---'
SELECT feature, weight, to_hex(hash) AS hash
FROM textfp_features('本报讯 记者王小明报道：数据库今天发布了新版本。')
LIMIT 20;
SELECT feature, weight, to_hex(hash) AS hash
FROM textfp_features('The database released a new version today, our reporter says.')
LIMIT 20;

-- -------------------------------------------------------------------------
-- load
-- -------------------------------------------------------------------------

CREATE TABLE articles (
	id          integer PRIMARY KEY,
	lang        text NOT NULL,
	source      text NOT NULL,
	original_id integer REFERENCES articles,   -- set for planted reprints
	edits       text NOT NULL,                 -- what make_articles.pl changed
	title       text NOT NULL,
	body        text NOT NULL
);
\copy articles FROM pstdin

-- an article's family: the original it is, or the one it reprints
CREATE FUNCTION family(a articles) RETURNS integer
	LANGUAGE sql IMMUTABLE AS 'SELECT coalesce(a.original_id, a.id)';

\echo
\echo '--- the corpus ---'
SELECT lang,
	count(*) FILTER (WHERE original_id IS NULL) AS originals,
	count(*) FILTER (WHERE original_id IS NOT NULL) AS reprints,
	count(DISTINCT split_part(source, '#', 1)) FILTER (WHERE original_id IS NULL) AS source_files,
	round(avg(length(body))) AS avg_chars,
	max(length(body)) AS max_chars
FROM articles GROUP BY lang ORDER BY lang;

-- -------------------------------------------------------------------------
-- fingerprint: one simhash64 per article
-- -------------------------------------------------------------------------

\echo
\echo '--- fingerprinting (UPDATE ... SET fp = simhash(body)) ---'
ALTER TABLE articles ADD COLUMN fp simhash64;
\timing on
UPDATE articles SET fp = simhash(body);
\timing off
-- statistics, so the pair query below is planned for 800 rows and not thousands (which
-- would also bring in JIT compilation, slower than the query itself)
VACUUM ANALYZE articles;
SELECT id, lang, fp, left(title, 40) AS title FROM articles ORDER BY id LIMIT 3;

-- -------------------------------------------------------------------------
-- every pair of articles, with its Hamming distance
-- -------------------------------------------------------------------------

\echo
\echo '--- comparing every pair: a.fp <~> b.fp, the Hamming distance (hamming_distance()) ---'
\timing on
-- all 300,000-odd pairs, for the statistics below; unlogged: nothing here needs WAL
CREATE UNLOGGED TABLE pairs AS
SELECT a.id AS a_id, b.id AS b_id,
	CASE WHEN a.lang = b.lang THEN a.lang ELSE a.lang || '/' || b.lang END AS lang,
	a.fp <~> b.fp AS distance,
	a.family = b.family AS planted
FROM articles a JOIN articles b ON a.id < b.id;
\timing off

-- How much text two articles share, independently of textfp's pipeline: the Jaccard
-- similarity of their sets of 4-character shingles (NFKC, lower case, whitespace
-- removed).  It tells real overlap in the source texts from fingerprint collisions.
CREATE FUNCTION char_shingles(t text) RETURNS SETOF text
	LANGUAGE sql IMMUTABLE STRICT AS $$
	SELECT DISTINCT g FROM (
		SELECT c || lead(c, 1, '') OVER w || lead(c, 2, '') OVER w || lead(c, 3, '') OVER w AS g
		FROM unnest(string_to_array(regexp_replace(normalize(lower(t), NFKC), '\s+', '', 'g'), NULL))
			WITH ORDINALITY AS u(c, i)
		WINDOW w AS (ORDER BY i)) s
$$;
CREATE FUNCTION overlap(a text, b text) RETURNS numeric
	LANGUAGE sql IMMUTABLE STRICT AS $$
	SELECT round(count(*) FILTER (WHERE n = 2)::numeric / nullif(count(*), 0), 2)
	FROM (SELECT g, count(*) AS n
		FROM (SELECT char_shingles(a) AS g UNION ALL SELECT char_shingles(b)) u
		GROUP BY g) c
$$;

ALTER TABLE pairs ADD COLUMN overlap numeric;
UPDATE pairs p SET overlap = overlap(a.body, b.body)
FROM articles a, articles b
WHERE p.distance <= :loose AND a.id = p.a_id AND b.id = p.b_id;

\echo
\echo '--- near duplicates found at distance <=' :near '(planted reprints; first 20) ---'
SELECT p.distance AS dist, p.lang, p.a_id, p.b_id,
	left(a.title, 26) AS title_a, left(b.title, 26) AS title_b,
	p.overlap, concat_ws(' | ', nullif(a.edits, ''), b.edits) AS edits
FROM pairs p JOIN articles a ON a.id = p.a_id JOIN articles b ON b.id = p.b_id
WHERE p.planted AND p.distance <= :near
ORDER BY p.distance, p.lang, p.a_id, p.b_id
LIMIT 20;

\echo
\echo '--- pairs within' :loose 'bits that were NOT planted (overlap: shared 4-character shingles) ---'
SELECT p.distance AS dist, p.lang, p.a_id, p.b_id,
	left(a.title, 24) AS title_a, left(b.title, 24) AS title_b,
	left(split_part(a.source, '/', 1), 16) AS source_a, left(split_part(b.source, '/', 1), 16) AS source_b,
	p.overlap,
	CASE WHEN p.overlap >= 0.3 THEN 'same text in sources' ELSE 'false positive' END AS verdict
FROM pairs p JOIN articles a ON a.id = p.a_id JOIN articles b ON b.id = p.b_id
WHERE NOT p.planted AND p.distance <= :loose
ORDER BY p.distance, p.lang, p.a_id, p.b_id
LIMIT 30;

\echo
\echo '--- planted reprints missed at distance <=' :near '(worst 15) ---'
SELECT a.fp <~> b.fp AS dist, b.lang, a.id AS orig, b.id AS reprint,
	left(a.title, 26) AS title, length(a.body) AS orig_chars, b.edits
FROM articles a JOIN articles b ON b.original_id = a.id
WHERE a.fp <~> b.fp > :near
ORDER BY a.fp <~> b.fp DESC, b.id
LIMIT 15;

\echo
\echo '--- original -> reprint distance by kind of edit (most reprints have several; found_near: <=' :near 'bits, found_loose: <=' :loose 'bits) ---'
SELECT b.lang, regexp_replace(e, '_[0-9]+$', '') AS edit, count(*) AS reprints,
	count(*) FILTER (WHERE a.fp <~> b.fp <= :near) AS found_near,
	count(*) FILTER (WHERE a.fp <~> b.fp <= :loose) AS found_loose,
	percentile_disc(0.5) WITHIN GROUP (ORDER BY a.fp <~> b.fp) AS median_dist,
	max(a.fp <~> b.fp) AS max_dist
FROM articles a JOIN articles b ON b.original_id = a.id,
	unnest(string_to_array(b.edits, ',')) AS e
GROUP BY 1, 2 ORDER BY 1, 2;

\echo
\echo '--- distance between unrelated articles of one language (different families) ---'
SELECT lang, count(*) AS pairs, min(distance) AS min_dist,
	percentile_disc(0.0001) WITHIN GROUP (ORDER BY distance) AS "0.01%",
	percentile_disc(0.001) WITHIN GROUP (ORDER BY distance) AS "0.1%",
	percentile_disc(0.01) WITHIN GROUP (ORDER BY distance) AS "1%",
	percentile_disc(0.5) WITHIN GROUP (ORDER BY distance) AS median
FROM pairs WHERE NOT planted AND lang NOT LIKE '%/%'
GROUP BY lang ORDER BY lang;

\echo
\echo '--- choosing a threshold: planted pairs found, and unplanted pairs let in ---'
SELECT t AS "distance <=",
	count(*) FILTER (WHERE lang = 'en' AND planted AND distance <= t) AS en_found,
	round(100.0 * count(*) FILTER (WHERE lang = 'en' AND planted AND distance <= t)
		/ nullif(count(*) FILTER (WHERE lang = 'en' AND planted), 0)) AS "en_%",
	count(*) FILTER (WHERE lang = 'en' AND NOT planted AND distance <= t) AS en_unplanted,
	count(*) FILTER (WHERE lang = 'zh' AND planted AND distance <= t) AS zh_found,
	round(100.0 * count(*) FILTER (WHERE lang = 'zh' AND planted AND distance <= t)
		/ nullif(count(*) FILTER (WHERE lang = 'zh' AND planted), 0)) AS "zh_%",
	count(*) FILTER (WHERE lang = 'zh' AND NOT planted AND distance <= t) AS zh_unplanted,
	count(*) FILTER (WHERE lang LIKE '%/%' AND distance <= t) AS cross_lang
FROM pairs, (VALUES (0), (3), (6), (8), (10), (12), (14)) AS v(t)
WHERE distance <= 14 OR planted
GROUP BY t ORDER BY t;

-- -------------------------------------------------------------------------
-- the operators: % with textfp.hamming_threshold, and hamming_ball
-- -------------------------------------------------------------------------

\echo
\echo '--- the same search with the % operator, textfp.hamming_threshold set to' :near '---'
SET textfp.hamming_threshold = :near;
SELECT count(*) AS "pairs a.fp % b.fp",
	(SELECT count(*) FROM pairs WHERE distance <= :near) AS "pairs a.fp <~> b.fp <= threshold"
FROM articles a JOIN articles b ON a.id < b.id AND a.fp % b.fp;
RESET textfp.hamming_threshold;

-- the first original with a reprint found within :loose bits
SELECT min(a_id) AS lookup_id FROM pairs WHERE planted AND distance <= :loose \gset
\echo
\echo '--- one lookup: the articles within' :loose 'bits of article' :lookup_id '(fp <@ hamming_ball) ---'
SELECT n.id, n.original_id AS reprint_of, n.fp <~> q.fp AS dist, left(n.title, 40) AS title, n.edits
FROM articles q JOIN articles n ON n.fp <@ hamming_ball(q.fp, :loose)
WHERE q.id = :lookup_id
ORDER BY dist, n.id;

-- -------------------------------------------------------------------------
-- MinHash: Jaccard similarity of shingle sets, for heavier edits
-- -------------------------------------------------------------------------

\echo
\echo '--- MinHash signatures (UPDATE ... SET mh = minhash(body): k = 128, default options) ---'
ALTER TABLE articles ADD COLUMN mh minhash_sig(128);
\timing on
UPDATE articles SET mh = minhash(body);
\timing off
VACUUM ANALYZE articles;
ALTER TABLE pairs ADD COLUMN jaccard float8;
UPDATE pairs p SET jaccard = jaccard(a.mh, b.mh)
FROM articles a, articles b WHERE a.id = p.a_id AND b.id = p.b_id;
-- overlap for the pairs MinHash would call near that the SimHash part did not measure
UPDATE pairs p SET overlap = overlap(a.body, b.body)
FROM articles a, articles b
WHERE p.overlap IS NULL AND p.jaccard >= 0.2 AND a.id = p.a_id AND b.id = p.b_id;

\echo
\echo '--- choosing a Jaccard threshold: planted pairs found, and unrelated pairs (overlap < 0.3) let in ---'
SELECT t AS "jaccard >=",
	count(*) FILTER (WHERE lang = 'en' AND planted AND jaccard >= t) AS en_found,
	round(100.0 * count(*) FILTER (WHERE lang = 'en' AND planted AND jaccard >= t)
		/ nullif(count(*) FILTER (WHERE lang = 'en' AND planted), 0)) AS "en_%",
	count(*) FILTER (WHERE lang = 'en' AND NOT planted AND jaccard >= t AND overlap < 0.3) AS en_false,
	count(*) FILTER (WHERE lang = 'zh' AND planted AND jaccard >= t) AS zh_found,
	round(100.0 * count(*) FILTER (WHERE lang = 'zh' AND planted AND jaccard >= t)
		/ nullif(count(*) FILTER (WHERE lang = 'zh' AND planted), 0)) AS "zh_%",
	count(*) FILTER (WHERE lang = 'zh' AND NOT planted AND jaccard >= t AND overlap < 0.3) AS zh_false,
	count(*) FILTER (WHERE NOT planted AND jaccard >= t AND overlap >= 0.3) AS same_text_in_sources
FROM pairs, (VALUES (0.2), (0.3), (0.4), (0.5), (0.6), (0.7), (0.8), (0.9)) AS v(t)
WHERE jaccard >= 0.2 OR planted
GROUP BY t ORDER BY t;

\echo
\echo '--- the reprints SimHash misses at' :near 'bits, by their Jaccard estimate ---'
SELECT p.lang, count(*) AS missed_by_simhash,
	count(*) FILTER (WHERE p.jaccard >= current_setting('textfp.jaccard_threshold')::float8) AS found_by_minhash_at_default
FROM pairs p WHERE p.planted AND p.distance > :near
GROUP BY p.lang ORDER BY p.lang;

\echo
\echo '--- one lookup through a GIN index: the articles near article' :lookup_id '(n.mh % q.mh, at textfp.jaccard_threshold) ---'
CREATE INDEX articles_mh ON articles USING gin (mh);
SHOW textfp.jaccard_threshold;
EXPLAIN (COSTS OFF)
SELECT n.id FROM articles q JOIN articles n ON n.mh % q.mh WHERE q.id = :lookup_id;
SELECT n.id, n.original_id AS reprint_of, round(jaccard(n.mh, q.mh)::numeric, 3) AS jaccard,
	left(n.title, 40) AS title, n.edits
FROM articles q JOIN articles n ON n.mh % q.mh
WHERE q.id = :lookup_id
ORDER BY jaccard DESC, n.id;

-- -------------------------------------------------------------------------
-- write-time deduplication: the textfp_dedup trigger (docs/dedup.md)
-- -------------------------------------------------------------------------

-- a reprint of the lookup article that is within :loose bits of it
SELECT set_config('demo.reprint', min(b_id)::text, false) AS reprint_id
FROM pairs WHERE planted AND distance <= :loose AND a_id = :lookup_id;

\echo
\echo '--- a guarded table rejects a reprint (mode reject, threshold 10 bits) ---'
CREATE TABLE feed (id integer PRIMARY KEY, body text, fp simhash64, duplicate_of integer);
CREATE INDEX ON feed USING mih (fp);
CREATE TRIGGER feed_dedup BEFORE INSERT OR UPDATE ON feed FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10');
INSERT INTO feed (id, body) SELECT id, body FROM articles WHERE id = :lookup_id;
DO $$
BEGIN
	INSERT INTO feed (id, body) SELECT id, body FROM articles WHERE id = current_setting('demo.reprint')::integer;
EXCEPTION WHEN unique_violation THEN
	RAISE NOTICE 'rejected (SQLSTATE %): %', SQLSTATE, SQLERRM;
	DECLARE d text; BEGIN GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL; RAISE NOTICE '%', d; END;
END $$;

\echo
\echo '--- the same articles into a table that marks near duplicates (mode mark: duplicate_of) ---'
CREATE TABLE feed_marked (id integer PRIMARY KEY, body text, fp simhash64, duplicate_of integer);
CREATE INDEX ON feed_marked USING mih (fp);
CREATE TRIGGER feed_dedup BEFORE INSERT OR UPDATE ON feed_marked FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=mark');
\timing on
INSERT INTO feed_marked (id, body) SELECT id, body FROM articles ORDER BY id;
\timing off
SELECT count(*) AS rows, count(duplicate_of) AS marked,
	count(*) FILTER (WHERE a.original_id IS NOT NULL AND family(a) = (SELECT family(o) FROM articles o WHERE o.id = m.duplicate_of)) AS marked_as_its_family,
	count(*) FILTER (WHERE a.original_id IS NOT NULL) AS planted_reprints
FROM feed_marked m JOIN articles a USING (id);
SELECT m.id, m.duplicate_of, a.original_id AS planted_from, left(a.title, 40) AS title
FROM feed_marked m JOIN articles a USING (id) WHERE m.duplicate_of IS NOT NULL ORDER BY m.id LIMIT 8;

-- -------------------------------------------------------------------------
-- summary
-- -------------------------------------------------------------------------

\echo
\echo '=== summary ==='
\pset tuples_only on
\pset format unaligned
WITH per_lang AS (
	SELECT lang,
		count(*) FILTER (WHERE planted) AS planted,
		count(*) FILTER (WHERE planted AND distance <= :near) AS planted_near,
		count(*) FILTER (WHERE planted AND distance <= :loose) AS planted_loose,
		count(*) FILTER (WHERE NOT planted) AS unrelated,
		count(*) FILTER (WHERE NOT planted AND distance <= :near) AS other_near,
		count(*) FILTER (WHERE NOT planted AND distance <= :loose) AS other_loose,
		count(*) FILTER (WHERE NOT planted AND distance <= :near AND overlap < 0.3) AS false_near,
		count(*) FILTER (WHERE NOT planted AND distance <= :loose AND overlap < 0.3) AS false_loose
	FROM pairs WHERE lang NOT LIKE '%/%' GROUP BY lang
)
SELECT format('%s: %s planted reprint pairs; found %s (%s%%) at <= %s bits, %s (%s%%) at <= %s bits.',
		CASE lang WHEN 'en' THEN 'English' WHEN 'zh' THEN 'Chinese' ELSE lang END,
		planted, planted_near, round(100.0 * planted_near / nullif(planted, 0)), :near,
		planted_loose, round(100.0 * planted_loose / nullif(planted, 0)), :loose)
	|| E'\n' ||
	format('    Unplanted pairs (of %s): %s at <= %s bits, %s at <= %s bits; false positives among them (overlap < 0.3): %s and %s.',
		unrelated, other_near, :near, other_loose, :loose, false_near, false_loose)
FROM per_lang ORDER BY lang;
SELECT format('Cross-language pairs within %s bits: %s.', :loose, count(*))
FROM pairs WHERE lang LIKE '%/%' AND distance <= :loose;
SELECT format('MinHash, jaccard >= %s (textfp.jaccard_threshold): %s: found %s of %s planted reprint pairs (%s%%); false positives (overlap < 0.3): %s of %s unplanted pairs.',
		current_setting('textfp.jaccard_threshold'),
		CASE lang WHEN 'en' THEN 'English' WHEN 'zh' THEN 'Chinese' ELSE lang END,
		count(*) FILTER (WHERE planted AND jaccard >= current_setting('textfp.jaccard_threshold')::float8),
		count(*) FILTER (WHERE planted),
		round(100.0 * count(*) FILTER (WHERE planted AND jaccard >= current_setting('textfp.jaccard_threshold')::float8)
			/ nullif(count(*) FILTER (WHERE planted), 0)),
		count(*) FILTER (WHERE NOT planted AND jaccard >= current_setting('textfp.jaccard_threshold')::float8 AND overlap < 0.3),
		count(*) FILTER (WHERE NOT planted))
FROM pairs WHERE lang NOT LIKE '%/%' GROUP BY lang ORDER BY lang;
\pset format aligned
\pset tuples_only off

-- -------------------------------------------------------------------------
-- stories: a tracked table links each article to its likely source as it is
-- written, and the reports read the links
-- -------------------------------------------------------------------------

\echo
\echo '=== stories: a tracked table (docs/stories.md) ==='
-- a newsroom's table: each article with a publication time and a site; originals
-- come first and from their source package, each reprint an hour or more later,
-- from one of three reprinters
CREATE TABLE news (
	id        integer PRIMARY KEY,
	site      text NOT NULL,
	published timestamptz NOT NULL,
	title     text NOT NULL,
	body      text NOT NULL
);
INSERT INTO news
SELECT id, CASE WHEN original_id IS NULL THEN split_part(source, '/', 1) ELSE 'reprinter-' || (id % 3 + 1) END,
	   timestamptz '2026-01-05 06:00+00' + id * interval '1 hour', title, body
FROM articles WHERE id % 10 <> 7;
-- one registration: fingerprints, links and stories from now on kept in news_textfp
SET client_min_messages = warning;
CALL textfp_track('news', text_column => 'body', key_column => 'id', time_column => 'published',
				  site_column => 'site');
RESET client_min_messages;
-- the articles held back arrive now, late: each is linked, and the later
-- articles it is the likely source of are relinked in the same transaction
INSERT INTO news
SELECT id, CASE WHEN original_id IS NULL THEN split_part(source, '/', 1) ELSE 'reprinter-' || (id % 3 + 1) END,
	   timestamptz '2026-01-05 06:00+00' + id * interval '1 hour', title, body
FROM articles WHERE id % 10 = 7;
\echo '--- the stories against the planted families (a story is an original and what descends from it) ---'
SELECT count(*) AS stories,
	count(*) FILTER (WHERE families = 1 AND size = family_size) AS exactly_a_planted_family,
	count(*) FILTER (WHERE families = 1 AND size < family_size) AS part_of_one,
	count(*) FILTER (WHERE families > 1) AS joining_families
FROM (SELECT s.story_id, count(*) AS size, count(DISTINCT family(a)) AS families,
			 max((SELECT count(*) FROM articles f WHERE family(f) = family(a))) AS family_size
	  FROM textfp_stories('news', NULL::integer) s JOIN articles a ON a.id = s.key GROUP BY s.story_id) x;
-- the same as a rebuild in time order would give
CREATE TEMP TABLE before_rebuild AS SELECT key, story_id FROM textfp_stories('news');
SET client_min_messages = warning;
CALL textfp_rebuild('news');
RESET client_min_messages;
SELECT count(*) AS stories_that_changed_in_a_rebuild
FROM ((SELECT * FROM before_rebuild EXCEPT SELECT * FROM textfp_stories('news'))
	  UNION ALL (SELECT * FROM textfp_stories('news') EXCEPT SELECT * FROM before_rebuild)) d;

\echo
\echo '--- the largest stories: textfp_story_report(news) ---'
SELECT r.story_id, r.size, left(n.title, 40) AS original_title, r.original_site, r.sites, r.last_at - r.first_at AS spread
FROM textfp_story_report('news', max_rows => 10) r JOIN news n ON n.id = r.story_id::integer
ORDER BY r.size DESC, r.first_at, r.story_id::integer;

\echo
\echo '--- one story in time order: textfp_story_timeline(news, story) ---'
SELECT t.key, t.site, t.source, round(t.score::numeric, 3) AS jaccard, t.delay, left(n.title, 40) AS title
FROM textfp_story_timeline('news', (SELECT story_id FROM textfp_story_report('news', max_rows => 1))) t
JOIN news n ON n.id = t.key::integer;

\echo
\echo '--- who reprints whom: textfp_reprints(news) ---'
SELECT * FROM textfp_reprints('news');
