-- track: tracked tables.  CALL textfp_track() registers a table (its
-- registration T_textfp_config, its store T_textfp, its triggers), then the
-- triggers keep the store's links and stories on every write: a row links
-- to its nearest match among the rows before it in (time, key) order within
-- the threshold, ties to the earliest; else it is an original, a story of
-- its own (track_link.c).  The fixture's distances are printed first, so
-- that every link, story and report below can be checked by hand.
SET client_min_messages = warning;
SET timezone = 'UTC';
CREATE SCHEMA track_test;
SET search_path = track_test, public;

-- SQLSTATE and message (and DETAIL) of a statement that fails
CREATE FUNCTION pg_temp.failure(q text, with_detail boolean DEFAULT false) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	st text;
	msg text;
	det text;
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
	RETURN st || ': ' || msg || CASE WHEN with_detail THEN ' | ' || coalesce(det, '') ELSE '' END;
END
$$;

CREATE TABLE texts (n int PRIMARY KEY, body text);
INSERT INTO texts VALUES
 (1, 'The council approved the new cycling lanes along the river on Monday, and construction will begin in spring.'),
 (2, 'The council approved new cycling lanes along the river on Monday; construction will begin in the spring, officials said.'),
 (3, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight.'),
 (4, 'Storm closes harbour bridge for two days as engineers inspect cables damaged by high winds overnight.'),
 (5, 'Local bakery wins national prize for its sourdough; the owner thanks customers and staff for years of support.'),
 (6, 'New cycling lanes along the river: construction will begin in the spring, officials said, after the council vote on Monday.'),
 (7, 'Local bakery wins a national prize for its sourdough, and the owner thanks customers and staff for years of support.'),
 (8, 'Officials said construction of the river cycling lanes will begin in spring after Monday''s council vote, despite objections.'),
 (9, 'A text about something else entirely: the chess club meets on Thursdays in the library basement.');
-- Hamming distances of their simhash and Jaccard estimates of their minhash,
-- under simhash_v2 (a SimHash registration's default; English is the same
-- under simhash_v1) and minhash_v1 (named by the uuid registration below)
SELECT a.n, string_agg(lpad(hamming_distance(simhash(a.body, preset => 'simhash_v2'), simhash(b.body, preset => 'simhash_v2'))::text, 3), '' ORDER BY b.n) AS "1  2  3  4  5  6  7  8  9"
FROM texts a, texts b GROUP BY 1 ORDER BY 1;
SELECT a.n, string_agg(lpad(to_char(jaccard(minhash(a.body, preset => 'minhash_v1'), minhash(b.body, preset => 'minhash_v1')), '0.00'), 5), '' ORDER BY b.n) AS "1     2     3     4     5     6     7     8     9"
FROM texts a, texts b GROUP BY 1 ORDER BY 1;

-- ===== registration on rows already there (simhash, threshold 10) =====
-- At threshold 10: 2 links to 1 (10), 6 to 2 (10; 12 from 1), 4 to 3 (0),
-- 7 to 5 (0); row 10 has no text (an original without a fingerprint).
CREATE TABLE news (id bigint PRIMARY KEY, site text, published timestamptz NOT NULL, body text);
INSERT INTO news (id, site, published, body) VALUES
 (1, 'ledger', '2025-01-01 10:00', (SELECT body FROM texts WHERE n = 1)),
 (2, 'herald', '2025-01-01 12:00', (SELECT body FROM texts WHERE n = 2)),
 (3, 'post',   '2025-01-02 09:00', (SELECT body FROM texts WHERE n = 3)),
 (4, 'wire',   '2025-01-02 11:00', (SELECT body FROM texts WHERE n = 4)),
 (5, 'post',   '2025-01-03 09:00', (SELECT body FROM texts WHERE n = 5)),
 (6, 'wire',   '2025-01-03 12:00', (SELECT body FROM texts WHERE n = 6)),
 (7, 'herald', '2025-01-04 09:00', (SELECT body FROM texts WHERE n = 7)),
 (10, 'ledger', '2025-01-05 09:00', NULL);
SET client_min_messages = notice;
-- no cohesion bound (64 bits), so that the links below chain: the
-- cohesion section shows the default, the threshold
CALL textfp_track('news', 'body', 'id', 'published', site_column => 'site', method => 'simhash', threshold => 10, cohesion => 64, batch => 3);
SET client_min_messages = warning;
-- its NOTICEs: one each time the rows done pass another tenth of the rows
-- expected (above: 3 of 8 and 6 of 8); past the estimate, one each time the
-- rows done double (8, 16, 32, ...), not one a batch
SELECT d, textfp_track_tenth(d, 8) FROM unnest('{0,1,3,6,7,8,11,14,15,16,31,32,100}'::bigint[]) d;
SELECT textfp_track_tenth(999, 1000000), textfp_track_tenth(100000, 1000000), textfp_track_tenth(9999999999, 0);
-- any pair of bigints: no overflow, at most 73
SELECT textfp_track_tenth(9000000000000000000, 9223372036854775807) AS near_max,
	textfp_track_tenth(9223372036854775807, 0) AS max_of_none,
	textfp_track_tenth(9223372036854775807, -9223372036854775808) AS max_of_min,
	textfp_track_tenth(-9223372036854775808, 9223372036854775807) AS min_of_max;
-- an estimate far too low (the table analyzed at 2 rows, then loaded: its
-- reltuples says 2 of 200, no autovacuum to correct it): past it, a NOTICE
-- each time the rows double, 7 for 100 batches (it was one a batch, 100)
CREATE TABLE grown (id int PRIMARY KEY, at timestamptz NOT NULL, body text) WITH (autovacuum_enabled = false);
INSERT INTO grown SELECT i, timestamptz '2025-01-01 00:00+00', 'row ' || i FROM generate_series(1, 2) i;
ANALYZE grown;
INSERT INTO grown SELECT i, timestamptz '2025-01-01 00:00+00', 'row ' || i FROM generate_series(3, 200) i;
SELECT reltuples FROM pg_class WHERE oid = 'grown'::regclass;
SET client_min_messages = notice;
CALL textfp_track('grown', 'body', 'id', 'at', batch => 2);
SET client_min_messages = warning;
SELECT textfp_untrack('grown');
DROP TABLE grown;
-- what it made: two tables of the table's owner, three triggers
SELECT c.relname, c.relkind, pg_get_userbyid(c.relowner) = current_user AS owners
FROM pg_class c WHERE c.relnamespace = 'track_test'::regnamespace AND c.relname LIKE 'news%' AND c.relkind = 'r' ORDER BY 1;
SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = 'news'::regclass ORDER BY 1;
-- the store's indexes: the pair index covers what a fold or the reprints
-- report reads of a site pair's links (index-only scans)
SELECT regexp_replace(pg_get_indexdef(indexrelid), 'INDEX \S+ ON', 'INDEX ON') FROM pg_index
WHERE indrelid = 'news_textfp'::regclass ORDER BY 1;
SELECT format, source_table, store_table, text_column, key_column, time_column, site_column, method, preset, options,
	threshold, cohesion, lsh_bands, lsh_rows, lsh_min_bands, dedup, dedup_scope, state, phase, done, total,
	started_at IS NOT NULL AS started, updated_at >= started_at AS updated, registered_at <= updated_at AS registered
FROM news_textfp_config;
SELECT * FROM textfp_registration('news');
-- the store: the fingerprints the registration's options give, the links
SELECT s.key, s.at, s.site, s.fp IS NOT DISTINCT FROM simhash(n.body, preset => 'simhash_v2') AS fp_ok, s.source, s.story, s.score
FROM news_textfp s JOIN news n ON n.id = s.key ORDER BY s.at, s.key;
SELECT * FROM textfp_stories('news') ORDER BY key::bigint;
SELECT * FROM textfp_stories('news', NULL::bigint) ORDER BY key;
SELECT pg_typeof(key), pg_typeof(story_id) FROM textfp_stories('news', NULL::bigint) LIMIT 1;
SELECT pg_temp.failure($$SELECT * FROM textfp_stories('news', NULL::integer)$$);
SELECT tbl, store, method, threshold, state, phase, done, total, updated_at IS NOT NULL AS updated FROM textfp_tracked();

-- ===== writes =====
-- an insert that comes last: 8 is 8 from 6, 12 from 1 and 2: links to 6
INSERT INTO news VALUES (8, 'post', '2025-01-04 10:00', (SELECT body FROM texts WHERE n = 8));
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
-- a late arrival: 0, the text of 1 a day before it, becomes the original;
-- 1 links to it (0), 2 is 10 from both 0 and 1 and takes the earlier, 0;
-- 6 and 8 keep their sources and join story 0
INSERT INTO news VALUES (0, 'agency', '2024-12-31 23:00', (SELECT body FROM texts WHERE n = 1));
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
-- deleting the original: all as before it came
DELETE FROM news WHERE id = 0;
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
-- deleting a middle link (2): 6 has no earlier row within 10 (1 is 12
-- away) and becomes an original, 8 follows it into story 6
DELETE FROM news WHERE id = 2;
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
-- 2 again, late: back as before
INSERT INTO news VALUES (2, 'herald', '2025-01-01 12:00', (SELECT body FROM texts WHERE n = 2));
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
-- deleting a leaf (7): nothing else changes
DELETE FROM news WHERE id = 7;
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
INSERT INTO news VALUES (7, 'herald', '2025-01-04 09:00', (SELECT body FROM texts WHERE n = 7));
-- an edit of the text: 2 about chess, 6 and 8 become story 6; and back
UPDATE news SET body = (SELECT body FROM texts WHERE n = 9) WHERE id = 2;
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
UPDATE news SET body = (SELECT body FROM texts WHERE n = 2) WHERE id = 2;
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
-- an edit of the time: 6 moves before 2 (1 is 12 away: an original); 2 is
-- 10 from 1 and from 6 and takes the earlier, 1; 8 stays with 6; and back
UPDATE news SET published = '2025-01-01 11:00' WHERE id = 6;
SELECT key, at, source, story, score FROM news_textfp ORDER BY at, key;
UPDATE news SET published = '2025-01-03 12:00' WHERE id = 6;
SELECT key, at, source, story, score FROM news_textfp ORDER BY at, key;
-- an edit of the site: the store's site, nothing else
UPDATE news SET site = 'post' WHERE id = 7;
SELECT key, site, source, story, score FROM news_textfp WHERE key IN (5, 7) ORDER BY key;
-- an edit of the key: 1 becomes 100, which names its story
UPDATE news SET id = 100 WHERE id = 1;
SELECT key, source, story, score FROM news_textfp ORDER BY at, key;
UPDATE news SET id = 1 WHERE id = 100;
-- an update that changes none of the tracked columns changes nothing
CREATE TABLE before_noop AS SELECT key, at, site, fp, source, story, score, linked_at FROM news_textfp;
UPDATE news SET body = body WHERE id IN (1, 2, 6);
SELECT count(*) AS changed FROM (SELECT key, at, site, fp, source, story, score, linked_at FROM news_textfp EXCEPT SELECT * FROM before_noop) d;
-- the store follows T's rows exactly
SELECT count(*) AS store_rows_not_in_table FROM news_textfp s WHERE NOT EXISTS (SELECT FROM news n WHERE n.id = s.key AND n.published = s.at AND n.site IS NOT DISTINCT FROM s.site);
SELECT count(*) AS table_rows_not_in_store FROM news n WHERE NOT EXISTS (SELECT FROM news_textfp s WHERE s.key = n.id);

-- TRUNCATE empties the store; a multi-row INSERT (rows out of time order)
-- and a COPY give the same links as one row at a time
CREATE TABLE saved AS SELECT * FROM news;
CREATE TABLE links_before AS SELECT key, at, site, fp, source, story, score FROM news_textfp;
TRUNCATE news;
SELECT count(*) AS store_rows_after_truncate FROM news_textfp;
INSERT INTO news SELECT * FROM saved WHERE id % 2 = 0 ORDER BY published DESC;
COPY news (id, site, published, body) FROM stdin;
7	post	2025-01-04 09:00:00+00	Local bakery wins a national prize for its sourdough, and the owner thanks customers and staff for years of support.
5	post	2025-01-03 09:00:00+00	Local bakery wins national prize for its sourdough; the owner thanks customers and staff for years of support.
3	post	2025-01-02 09:00:00+00	Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight.
1	ledger	2025-01-01 10:00:00+00	The council approved the new cycling lanes along the river on Monday, and construction will begin in spring.
\.
SELECT count(*) AS rows_that_differ FROM (
	(SELECT key, at, site, fp, source, story, score FROM news_textfp EXCEPT SELECT * FROM links_before)
	UNION ALL (SELECT * FROM links_before EXCEPT SELECT key, at, site, fp, source, story, score FROM news_textfp)) d;

-- textfp_rebuild relinks every row in time order: nothing to change here;
-- links spoiled by hand are put right, at once in memory (SimHash, the
-- default) and in batches (online)
SET client_min_messages = notice;
CALL textfp_rebuild('news');
UPDATE news_textfp SET source = NULL, story = key, score = NULL WHERE key IN (2, 8);
UPDATE news_textfp SET source = 3, story = 3, score = 0 WHERE key = 5;
CALL textfp_rebuild('news');
UPDATE news_textfp SET source = NULL, story = key, score = NULL WHERE key IN (2, 8);
UPDATE news_textfp SET source = 3, story = 3, score = 0 WHERE key = 5;
CALL textfp_rebuild('news', online => true, batch => 2);
SET client_min_messages = warning;
SELECT count(*) AS rows_that_differ FROM (
	(SELECT key, at, site, fp, source, story, score FROM news_textfp EXCEPT SELECT * FROM links_before)
	UNION ALL (SELECT * FROM links_before EXCEPT SELECT key, at, site, fp, source, story, score FROM news_textfp)) d;
SELECT state, phase, done, total FROM news_textfp_config;

-- ===== reports =====
-- The stories now: 1 (ledger, 1 Jan 10:00) with 2 (herald), 6 (wire) and
-- 8 (post); 3 (post, 2 Jan 09:00) with 4 (wire); 5 (post, 3 Jan 09:00)
-- with 7 (post since its site was changed); 10 alone (no text).
SELECT key, at, site, source, story, score FROM news_textfp ORDER BY at, key;
-- stories of at least 2 rows, largest first: story 1 has 4 rows on 4
-- sites, first and last seen 1 Jan 10:00 and 4 Jan 10:00
SELECT * FROM textfp_story_report('news');
-- the first rows only: max_rows reads them in the report's order (a LIMIT
-- would come after every row was made); negative is refused, as by LIMIT
SELECT * FROM textfp_story_report('news', max_rows => 1);
SELECT pg_temp.failure($$SELECT * FROM textfp_story_report('news', max_rows => -1)$$);
-- all sizes, and only the stories whose original is at or after 2 Jan
SELECT * FROM textfp_story_report('news', min_size => 1);
SELECT * FROM textfp_story_report('news', '2025-01-02', 1);
SELECT * FROM textfp_story_report('news', '2025-01-02 09:00:01');
-- stories that began at or after 2 Jan: 3, 5 and 10, earliest first
SELECT * FROM textfp_new_stories('news', '2025-01-02');
SELECT * FROM textfp_new_stories('news', '2030-01-01');
SELECT pg_temp.failure($$SELECT * FROM textfp_new_stories('news', NULL)$$);
-- who reprints whom: links across sites; 7 copies 5 within post, counted
-- only with same_site; median delay of the two ledger -> herald... links
SELECT * FROM textfp_reprints('news');
SELECT * FROM textfp_reprints('news', same_site => true);
SELECT * FROM textfp_reprints('news', same_site => true, max_rows => 2);
SELECT * FROM textfp_reprints('news', '2025-01-03');
-- a story's members in time order with their sources and delays
SELECT * FROM textfp_story_timeline('news', '1');
SELECT * FROM textfp_story_timeline('news', '5');
SELECT * FROM textfp_story_timeline('news', '2');
SELECT pg_temp.failure($$SELECT * FROM textfp_story_timeline('news', 'x')$$);
-- the reports against the store, computed here independently
SELECT count(*) AS report_rows_that_differ FROM (
	(SELECT story_id, size, sites FROM textfp_story_report('news', min_size => 1)
	 EXCEPT SELECT story::text, count(*), count(DISTINCT site) FROM news_textfp GROUP BY story)
	UNION ALL
	(SELECT story::text, count(*), count(DISTINCT site) FROM news_textfp GROUP BY story
	 EXCEPT SELECT story_id, size, sites FROM textfp_story_report('news', min_size => 1))) d;

-- ===== cohesion =====
-- By default the cohesion bound is the threshold: a row must also be
-- within 10 of its candidate's story's original.  6 is 12 from 1, so it
-- does not join story 1 through 2 and is an original; 8 links to 6 (8).
CREATE TABLE news_coh AS SELECT * FROM news;
ALTER TABLE news_coh ADD PRIMARY KEY (id), ALTER COLUMN published SET NOT NULL;
CALL textfp_track('news_coh', 'body', 'id', 'published', site_column => 'site', method => 'simhash', threshold => 10);
SELECT cohesion FROM news_coh_textfp_config;
SELECT key, source, story, score FROM news_coh_textfp ORDER BY at, key;
-- a cohesion tighter than the threshold bounds direct links too: at
-- cohesion 8, 2 (10 from the original 1) is an original, and so is 6 (10
-- from 2, 12 from 1); 8 is 8 from 6 and links to it
CREATE TABLE news_tight AS SELECT * FROM news;
ALTER TABLE news_tight ADD PRIMARY KEY (id), ALTER COLUMN published SET NOT NULL;
CALL textfp_track('news_tight', 'body', 'id', 'published', site_column => 'site', method => 'simhash', threshold => 10, cohesion => 8);
SELECT key, source, story, score FROM news_tight_textfp ORDER BY at, key;
SELECT textfp_untrack('news_coh'), textfp_untrack('news_tight');

-- ===== minhash, and other key and time types =====
-- minhash_v1 at 0.5: 2 links to 1 (0.82), 6 to 2 (0.82; 0.66 from 1), 4 to 3
-- (1.00: minhash_v1 leaves out stop words), 7 to 5 (1.00); 8 is 0.72 from
-- 6 but 0.45 from 6's original 1, below the default cohesion (the
-- threshold): an original.  Keys: uuid; times: timestamp.
CREATE TABLE news_u (id uuid PRIMARY KEY, site text, published timestamp NOT NULL, body varchar);
INSERT INTO news_u SELECT ('00000000-0000-0000-0000-00000000000' || id)::uuid, site, published AT TIME ZONE 'UTC', body FROM news WHERE id < 10;
CALL textfp_track('news_u', 'body', 'id', 'published', site_column => 'site', preset => 'minhash_v1', threshold => 0.5);
SELECT method, threshold, lsh_bands, lsh_rows, lsh_min_bands FROM news_u_textfp_config;
SELECT right(key::text, 1) AS key, at, right(source::text, 1) AS source, right(story::text, 1) AS story, round(score::numeric, 2) AS score
FROM news_u_textfp ORDER BY at, key;
SELECT pg_typeof(key) FROM textfp_stories('news_u', NULL::uuid) LIMIT 1;
SELECT story_id, size, sites, original_site, first_at, last_at FROM textfp_story_report('news_u');
-- text keys of a non-C collation, times of type date: rows of one day
-- are ordered by key in "C" order (A2, B1, a1, b2; the column's ICU root
-- order is a1, A2, B1, b2): the copies of one text on one day all link to
-- 'A2', the earliest in "C" order
CREATE TABLE notes (k text COLLATE "und-x-icu" PRIMARY KEY, day date NOT NULL, body text);
INSERT INTO notes SELECT x.k, '2025-02-01', (SELECT body FROM texts WHERE n = 3)
FROM (VALUES ('a1'), ('B1'), ('b2'), ('A2')) x(k);
INSERT INTO notes VALUES ('a0', '2025-01-31', (SELECT body FROM texts WHERE n = 5));
SELECT k FROM notes ORDER BY k;
CALL textfp_track('notes', 'body', 'k', 'day', method => 'simhash', threshold => 3);
SELECT key, at, source, story, score FROM notes_textfp ORDER BY at, key COLLATE "C";
SELECT pg_typeof(key) FROM textfp_stories('notes', NULL::text) LIMIT 1;
SELECT * FROM textfp_story_timeline('notes', 'A2');
-- a late arrival on that day before them all in "C" order: 'A0' < 'A2'
INSERT INTO notes VALUES ('A0', '2025-02-01', (SELECT body FROM texts WHERE n = 3));
SELECT key, at, source, story, score FROM notes_textfp ORDER BY at, key COLLATE "C";
SELECT textfp_untrack('notes'), textfp_untrack('news_u');

-- ===== options =====
-- options pass to the fingerprint function by name: ngram => 3 makes
-- other fingerprints than the default's
CREATE TABLE news_o AS SELECT * FROM news;
ALTER TABLE news_o ADD PRIMARY KEY (id), ALTER COLUMN published SET NOT NULL;
CALL textfp_track('news_o', 'body', 'id', 'published', method => 'simhash', options => '{ngram=3,seed=7}');
SELECT options FROM news_o_textfp_config;
SELECT count(*) FILTER (WHERE s.fp = simhash(n.body, 'null', ngram => 3, seed => 7)) AS as_the_options_give, count(s.fp) AS fingerprints
FROM news_o_textfp s JOIN news_o n ON n.id = s.key;
-- the trigger computes the same as the registration's batches
INSERT INTO news_o VALUES (11, 'post', '2025-01-06', (SELECT body FROM texts WHERE n = 4));
SELECT s.fp = simhash(n.body, 'null', ngram => 3, seed => 7) AS trigger_fp_ok FROM news_o_textfp s JOIN news_o n ON n.id = s.key WHERE s.key = 11;
SELECT textfp_untrack('news_o');

-- ===== presets =====
-- no method, preset or options: minhash_v3 (runs of three words or
-- characters) at its threshold, 0.2890625, with the banding textfp_track_banding
-- gives it
CREATE TABLE pre (id int PRIMARY KEY, at date NOT NULL, body text);
INSERT INTO pre SELECT n, date '2025-01-01' + n, body FROM texts;
CALL textfp_track('pre', 'body', 'id', 'at');
SELECT method, preset, options, threshold, lsh_bands, lsh_rows, lsh_min_bands, idf IS NULL AS no_model FROM pre_textfp_config;
SELECT count(*) FILTER (WHERE s.fp = minhash(p.body, preset => 'minhash_v3')) AS as_the_preset_gives, count(*) AS fingerprints
FROM pre_textfp s JOIN pre p ON p.id = s.key;
SELECT textfp_untrack('pre');
-- method => 'simhash' alone: simhash_v2 at its threshold (11), Chinese by
-- pairs of characters.  2 is 1 in Taiwan wording (8 bits), 4 reworded 3 (10
-- bits; 13 under simhash_v1, which would leave it an original); 5 and 6 are
-- other press conferences (18 and 21 bits from 3): originals
CREATE TABLE pre_zh (id int PRIMARY KEY, at date NOT NULL, body text);
INSERT INTO pre_zh VALUES
 (1, '2025-01-01', '这套软件的文件是交互式的，程序员可以从网上下载。'),
 (2, '2025-01-02', '這套軟體的檔案是互動式的，程式設計師可以從網路下載。'),
 (3, '2025-01-03', '国务院新闻办公室今天举行新闻发布会，国家统计局负责人介绍前三季度国民经济运行情况，并回答记者提问。'),
 (4, '2025-01-04', '国家统计局今天发布数据，前三季度国民经济运行总体平稳，国务院新闻办公室举行发布会介绍有关情况。'),
 (5, '2025-01-05', '教育部今天举行新闻发布会，有关负责人介绍今年高校毕业生就业情况，并回答记者提问。'),
 (6, '2025-01-06', '市政府今天举行新闻发布会，市交通局负责人介绍地铁新线建设情况，并回答记者关于票价的提问。');
CALL textfp_track('pre_zh', 'body', 'id', 'at', method => 'simhash');
SELECT method, preset, options, threshold, cohesion FROM pre_zh_textfp_config;
SELECT s.key, s.source, s.score, s.fp = simhash(p.body, preset => 'simhash_v2') AS as_the_preset_gives
FROM pre_zh_textfp s JOIN pre_zh p ON p.id = s.key ORDER BY s.key;
SELECT textfp_untrack('pre_zh');
-- the banding (textfp_track_banding): of 64 bands of two values (as many
-- as k holds) and 44 of one, each at the most min_bands that finds 99.5%
-- of the pairs at the threshold, the one with the smaller S-curve area
-- below the threshold: 64 x 2 at the preset's 0.46875 and at 0.9, 44 x 1
-- at 0.3 and below and with k = 64; recall_ok: the rule's 99.5% holds; the
-- store's index has the registration's banding
CREATE FUNCTION pg_temp.banding() RETURNS TABLE (threshold float8, options text[], lsh_bands integer, lsh_rows integer,
	lsh_min_bands integer, recall_ok boolean, index_banding text)
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY SELECT c.threshold, c.options, c.lsh_bands, c.lsh_rows, c.lsh_min_bands,
		lsh_probability(c.threshold, c.lsh_bands, c.lsh_rows, c.lsh_min_bands, (minhash_info(s.fp)).k) >= 0.995,
		(SELECT substring(pg_get_indexdef(i.indexrelid) FROM 'gin_minhash_lsh_ops \(([^)]*)\)') FROM pg_index i
		 WHERE i.indrelid = 'pre_textfp'::regclass AND pg_get_indexdef(i.indexrelid) LIKE '%gin_minhash_lsh_ops%')
	FROM pre_textfp_config c, (SELECT fp FROM pre_textfp WHERE fp IS NOT NULL LIMIT 1) s;
END $$;
SELECT format('CALL textfp_track(''pre'', ''body'', ''id'', ''at'', method => ''minhash'', threshold => %s, options => %L)', t, o),
	'SELECT * FROM pg_temp.banding()', 'SELECT textfp_untrack(''pre'') IS NULL AS untracked'
FROM (VALUES (0.46875, '{}'::text[]), (0.3, '{}'), (0.25, '{}'), (0.2, '{}'), (0.9, '{}'),
	(0.46875, '{k=64}'), (0.46875, '{k=256}'), (0.25, '{k=44}')) v(t, o) \gexec
-- simhash_idf_v1 without a model: the registration builds one from the
-- table's rows, keeps it, and weighs every fingerprint by it
CALL textfp_track('pre', 'body', 'id', 'at', preset => 'simhash_idf_v1');
SELECT method, preset, threshold, idf_model_docs(idf) AS model_docs,
	idf::text = (SELECT idf_model(simhash_features(body, preset => 'simhash_idf_v1'))::text FROM pre) AS model_of_the_rows
FROM pre_textfp_config;
INSERT INTO pre VALUES (20, '2025-03-01', 'The chess club meets on Thursdays in the library basement, and newcomers are welcome.');
SELECT count(*) FILTER (WHERE s.fp = simhash(p.body, preset => 'simhash_idf_v1', idf => c.idf)) AS as_the_model_gives, count(*) AS fingerprints
FROM pre_textfp s JOIN pre p ON p.id = s.key, pre_textfp_config c;
SELECT textfp_untrack('pre');
-- a model given is kept as given: here one of other texts
SELECT idf_model(simhash_features(body, preset => 'simhash_idf_v1')) AS other_model FROM texts WHERE n < 5 \gset
CALL textfp_track('pre', 'body', 'id', 'at', preset => 'simhash_idf_v1', idf => :'other_model');
SELECT idf_model_docs(idf) AS model_docs, idf::text = :'other_model' AS as_given FROM pre_textfp_config;
SELECT count(*) FILTER (WHERE s.fp = simhash(p.body, preset => 'simhash_idf_v1', idf => :'other_model')) AS as_the_model_gives, count(*) AS fingerprints
FROM pre_textfp s JOIN pre p ON p.id = s.key;
SELECT textfp_untrack('pre');

-- ===== excerpts =====
-- With excerpts => true the store keeps each row's winnowed fingerprints
-- (wf, winnow(text)) under a gin_winnow_ops index, and textfp_excerpts()
-- lists the rows a row contains a share of and the rows that contain a
-- share of it.  Texts are runs of words: 2 quotes 26 words of 1's 80 inside
-- 150 of its own, 4 is 31 words of 1, 3 is unrelated.
CREATE FUNCTION pg_temp.words(a int, b int) RETURNS text LANGUAGE sql IMMUTABLE
	AS $$ SELECT string_agg(left(md5(g::text), 6), ' ' ORDER BY g) FROM generate_series(a, b) g $$;
CREATE TABLE quotes (id int PRIMARY KEY, at date NOT NULL, body text);
INSERT INTO quotes VALUES
 (1, '2025-01-01', pg_temp.words(1, 80)),
 (2, '2025-01-02', pg_temp.words(1000, 1099) || ' ' || pg_temp.words(20, 45) || ' ' || pg_temp.words(1100, 1149)),
 (3, '2025-01-03', pg_temp.words(5000, 5100));
CALL textfp_track('quotes', 'body', 'id', 'at', excerpts => true);
SELECT excerpts FROM quotes_textfp_config;
SELECT count(*) FILTER (WHERE s.wf = winnow(q.body)) AS as_winnow_gives, count(*) AS rows
FROM quotes_textfp s JOIN quotes q ON q.id = s.key;
SELECT other_key, at, direction, round(containment::numeric, 3) AS containment FROM textfp_excerpts('quotes', '2');
SELECT other_key, at, direction, round(containment::numeric, 3) AS containment FROM textfp_excerpts('quotes', '1');
SELECT count(*) AS none FROM textfp_excerpts('quotes', '3');
-- the triggers keep wf: a row written later (4, words 30 to 60 of 1), an
-- edit of a text (3 now ends with 1's last 21 words)
INSERT INTO quotes VALUES (4, '2025-01-04', pg_temp.words(30, 60));
UPDATE quotes SET body = pg_temp.words(5000, 5050) || ' ' || pg_temp.words(60, 80) WHERE id = 3;
SELECT count(*) FILTER (WHERE s.wf = winnow(q.body)) AS as_winnow_gives, count(*) AS rows
FROM quotes_textfp s JOIN quotes q ON q.id = s.key;
SELECT other_key, at, direction, round(containment::numeric, 3) AS containment FROM textfp_excerpts('quotes', '1');
-- the report is the rule over every pair, with and without the index
CREATE FUNCTION pg_temp.excerpt_rule() RETURNS TABLE (k text, o text, direction text, containment float8) LANGUAGE sql AS $$
	SELECT a.key::text, b.key::text, 'contains', containment(b.wf, a.wf) FROM quotes_textfp a, quotes_textfp b
	WHERE a.key <> b.key AND containment(b.wf, a.wf) >= 0.2 AND cardinality(ARRAY(SELECT unnest(b.wf) INTERSECT SELECT unnest(a.wf))) >= 3
	UNION ALL
	SELECT a.key::text, b.key::text, 'contained_in', containment(a.wf, b.wf) FROM quotes_textfp a, quotes_textfp b
	WHERE a.key <> b.key AND containment(a.wf, b.wf) >= 0.2 AND cardinality(ARRAY(SELECT unnest(b.wf) INTERSECT SELECT unnest(a.wf))) >= 3
$$;
SELECT count(*) AS differ FROM (
	(SELECT * FROM pg_temp.excerpt_rule()
	 EXCEPT SELECT q.id::text, e.other_key, e.direction, e.containment FROM quotes q, textfp_excerpts('quotes', q.id::text) e)
	UNION ALL
	(SELECT q.id::text, e.other_key, e.direction, e.containment FROM quotes q, textfp_excerpts('quotes', q.id::text) e
	 EXCEPT SELECT * FROM pg_temp.excerpt_rule())) d;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT key FROM quotes_textfp s WHERE s.wf @@ quoted_in('{1,2,3}');
SELECT count(*) AS with_the_index FROM quotes q, textfp_excerpts('quotes', q.id::text) e;
RESET enable_seqscan;
SELECT count(*) AS with_a_scan FROM quotes q, textfp_excerpts('quotes', q.id::text) e;
-- fingerprints left out: 1's words 30 to 60 in every row that has them
SELECT count(*) AS ignoring FROM textfp_excerpts('quotes', '1', ignore => (SELECT wf FROM quotes_textfp WHERE key = 4));
SELECT count(*) AS half FROM textfp_excerpts('quotes', '1', min_containment => 0.5);
-- a reader needs SELECT on the store only, as for the other reports
CREATE ROLE regress_track_reader;
GRANT USAGE ON SCHEMA track_test TO regress_track_reader;
SET ROLE regress_track_reader;
SELECT pg_temp.failure($$SELECT * FROM textfp_excerpts('quotes', '1')$$);
RESET ROLE;
GRANT SELECT ON quotes_textfp TO regress_track_reader;
SET ROLE regress_track_reader;
SELECT count(*) AS read FROM textfp_excerpts('quotes', '1');
RESET ROLE;
REVOKE ALL ON quotes_textfp FROM regress_track_reader;
REVOKE ALL ON SCHEMA track_test FROM regress_track_reader;
DROP ROLE regress_track_reader;
-- a table tracked without excerpts, an unknown key
SELECT pg_temp.failure($$SELECT * FROM textfp_excerpts('news', '1')$$);
SELECT count(*) AS unknown_key FROM textfp_excerpts('quotes', '99');
SELECT textfp_untrack('quotes');

-- ===== dedup =====
-- reject and skip, over the whole table or within a site
CREATE TABLE posts (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text);
CALL textfp_track('posts', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 3, dedup => 'reject');
SELECT tgname FROM pg_trigger WHERE tgrelid = 'posts'::regclass ORDER BY 1;
INSERT INTO posts VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 3));
SELECT pg_temp.failure($$INSERT INTO posts VALUES (2, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 4))$$, true);
INSERT INTO posts VALUES (2, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 5));
-- an update that makes a near duplicate is rejected too; one that keeps
-- the text (or the row's own) is not
SELECT pg_temp.failure($$UPDATE posts SET body = (SELECT body FROM texts WHERE n = 4) WHERE id = 2$$, true);
UPDATE posts SET at = '2025-01-03' WHERE id = 2;
UPDATE posts SET body = (SELECT body FROM texts WHERE n = 4) WHERE id = 1;
SELECT key, site, source, story FROM posts_textfp ORDER BY key;
SELECT textfp_untrack('posts');
-- skip: the near duplicate is left out, the statement goes on
DELETE FROM posts;
CALL textfp_track('posts', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 3, dedup => 'skip');
INSERT INTO posts VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 3));
INSERT INTO posts VALUES (2, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 4)), (3, 'a', '2025-01-02', (SELECT body FROM texts WHERE n = 5));
SELECT id, site FROM posts ORDER BY id;
-- an update that would make a near duplicate is left out as well
UPDATE posts SET body = (SELECT body FROM texts WHERE n = 3) WHERE id = 3;
SELECT id, body = (SELECT body FROM texts WHERE n = 5) AS unchanged FROM posts WHERE id = 3;
SELECT textfp_untrack('posts');
-- scope site: a near duplicate on another site is a reprint, kept and
-- linked; on the same site it is rejected; NULL sites are a site of their own
DELETE FROM posts;
CALL textfp_track('posts', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 3, dedup => 'reject', dedup_scope => 'site');
INSERT INTO posts VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 3));
INSERT INTO posts VALUES (2, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 4));
SELECT pg_temp.failure($$INSERT INTO posts VALUES (3, 'a', '2025-01-03', (SELECT body FROM texts WHERE n = 4))$$, true);
INSERT INTO posts VALUES (4, NULL, '2025-01-04', (SELECT body FROM texts WHERE n = 4));
SELECT pg_temp.failure($$INSERT INTO posts VALUES (5, NULL, '2025-01-05', (SELECT body FROM texts WHERE n = 3))$$);
-- moving a row to a site that has its near duplicate is rejected as well
SELECT pg_temp.failure($$UPDATE posts SET site = 'a' WHERE id = 2$$);
SELECT key, site, source, story FROM posts_textfp ORDER BY key;
-- a writer that may not read the store learns no key from the DETAIL
CREATE ROLE regress_track_writer;
GRANT USAGE ON SCHEMA track_test TO regress_track_writer;
GRANT INSERT, SELECT ON posts TO regress_track_writer;
GRANT SELECT ON texts TO regress_track_writer;
SET ROLE regress_track_writer;
SELECT pg_temp.failure($$INSERT INTO posts VALUES (6, 'b', '2025-01-06', (SELECT body FROM texts WHERE n = 3))$$, true);
SELECT pg_temp.failure($$INSERT INTO posts VALUES (6, 'b', '2025-01-06', 'Storm closes harbour bridge for two days as engineers inspect cables damaged by high winds overnight.')$$, true);
INSERT INTO posts VALUES (7, 'c', '2025-01-07', 'Storm closes harbour bridge for two days as engineers inspect cables damaged by high winds overnight.');
SELECT pg_temp.failure($$SELECT * FROM posts_textfp$$);
RESET ROLE;
SELECT key, site, source, story FROM posts_textfp ORDER BY key;
SELECT textfp_untrack('posts');
-- skip within a site (minhash: 3 and 4 are 1.00 apart)
DELETE FROM posts;
CALL textfp_track('posts', 'body', 'id', 'at', site_column => 'site', method => 'minhash', threshold => 0.5, dedup => 'skip', dedup_scope => 'site');
INSERT INTO posts VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 3));
INSERT INTO posts VALUES (2, 'a', '2025-01-02', (SELECT body FROM texts WHERE n = 4));
INSERT INTO posts VALUES (3, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 4));
SELECT id, site FROM posts ORDER BY id;
SELECT key, source, story FROM posts_textfp ORDER BY key;
SELECT textfp_untrack('posts');
-- rows of one statement count as well, though the store has them only once
-- the statement is done: a multi-row INSERT, INSERT ... SELECT and COPY
-- keep their own near duplicates out (3 and 4 are 0 apart)
DELETE FROM posts;
CALL textfp_track('posts', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 3, dedup => 'skip');
INSERT INTO posts VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 3)),
	(2, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 4)), (3, 'a', '2025-01-02', (SELECT body FROM texts WHERE n = 5));
INSERT INTO posts SELECT 10 + n, 'c', '2025-01-03', body FROM texts WHERE n IN (7, 6, 5, 8);
COPY posts (id, site, at, body) FROM stdin;
20	d	2025-01-04 00:00:00+00	A chess club meets on Thursdays in the library basement, newcomers welcome.
21	d	2025-01-04 00:00:00+00	A chess club meets on Thursdays in the library basement, newcomers welcome!
\.
SELECT id, site FROM posts ORDER BY id;
SELECT key, source, story FROM posts_textfp ORDER BY key;
-- a row let in but not inserted (ON CONFLICT DO NOTHING), or rolled back
-- to a savepoint, keeps nothing out afterwards
INSERT INTO posts VALUES (1, 'a', '2025-01-05', 'The council approved the new cycling lanes along the river on Monday.') ON CONFLICT DO NOTHING;
INSERT INTO posts VALUES (30, 'a', '2025-01-05', 'The council approved the new cycling lanes along the river on Monday.');
BEGIN;
SAVEPOINT s;
INSERT INTO posts VALUES (31, 'e', '2025-01-06', 'A text that comes back after its savepoint is rolled back, unchanged.');
ROLLBACK TO s;
INSERT INTO posts VALUES (32, 'e', '2025-01-06', 'A text that comes back after its savepoint is rolled back, unchanged.');
COMMIT;
SELECT id, site FROM posts WHERE id >= 30 ORDER BY id;
SELECT textfp_untrack('posts');
DELETE FROM posts;
CALL textfp_track('posts', 'body', 'id', 'at', site_column => 'site', method => 'minhash', threshold => 0.5, dedup => 'reject', dedup_scope => 'site');
SELECT pg_temp.failure($$INSERT INTO posts VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 3)),
	(2, 'a', '2025-01-02', (SELECT body FROM texts WHERE n = 4))$$, true);
INSERT INTO posts VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 3)), (2, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 4));
SELECT key, site, source, story FROM posts_textfp ORDER BY key;
SELECT textfp_untrack('posts');

-- ===== lock keys =====
-- A SimHash row locks the keys a near row would share (docs/dedup.md, "Lock
-- keys"): one per block of threshold + 1 (locks => 'blocks'), or one per pair
-- of blocks of threshold + 2 (locks => 'pairs', the default up to 30 bits),
-- kept in the registration; a MinHash row locks its bands' keys.
CREATE TABLE lk_pairs (id int PRIMARY KEY, at timestamptz NOT NULL, body text);
CREATE TABLE lk_blocks (id int PRIMARY KEY, at timestamptz NOT NULL, body text);
CREATE TABLE lk_default (id int PRIMARY KEY, at timestamptz NOT NULL, body text);
CREATE TABLE lk_wide (id int PRIMARY KEY, at timestamptz NOT NULL, body text);
CREATE TABLE lk_minhash (id int PRIMARY KEY, at timestamptz NOT NULL, body text);
CALL textfp_track('lk_pairs', 'body', 'id', 'at', method => 'simhash', threshold => 10, locks => 'pairs');
CALL textfp_track('lk_blocks', 'body', 'id', 'at', method => 'simhash', threshold => 10, locks => 'blocks');
CALL textfp_track('lk_default', 'body', 'id', 'at', method => 'simhash');
CALL textfp_track('lk_wide', 'body', 'id', 'at', method => 'simhash', threshold => 31);
CALL textfp_track('lk_minhash', 'body', 'id', 'at', method => 'minhash');
SELECT 'lk_pairs' AS tbl, threshold, locks FROM lk_pairs_textfp_config
UNION ALL SELECT 'lk_blocks', threshold, locks FROM lk_blocks_textfp_config
UNION ALL SELECT 'lk_default', threshold, locks FROM lk_default_textfp_config
UNION ALL SELECT 'lk_wide', threshold, locks FROM lk_wide_textfp_config
UNION ALL SELECT 'lk_minhash', threshold, locks FROM lk_minhash_textfp_config;
-- the keys one insert holds till its transaction ends: 66 pairs of 12
-- blocks, 11 blocks, 78 pairs of 13 at 11 bits, 32 blocks at 31, 40 bands
-- (44 less the 5 - 1 a near row need not share)
CREATE FUNCTION pg_temp.keys_of(tbl text) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('INSERT INTO %I VALUES (1, now(), %L)', tbl, (SELECT body FROM texts WHERE n = 1));
	RETURN (SELECT count(*) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.pid = pg_backend_pid() AND l.objsubid = 29798);
END
$$;
BEGIN; SELECT pg_temp.keys_of('lk_pairs'); ROLLBACK;
BEGIN; SELECT pg_temp.keys_of('lk_blocks'); ROLLBACK;
BEGIN; SELECT pg_temp.keys_of('lk_default'); ROLLBACK;
BEGIN; SELECT pg_temp.keys_of('lk_wide'); ROLLBACK;
BEGIN; SELECT pg_temp.keys_of('lk_minhash'); ROLLBACK;
-- more keys a row: a writer that is not the owner reaches
-- textfp.dedup_max_locks in fewer rows a transaction (here 200 keys: three
-- rows with pairs at 10 bits, eighteen with blocks)
CREATE ROLE regress_track_locker;
GRANT USAGE ON SCHEMA track_test TO regress_track_locker;
GRANT INSERT ON lk_pairs, lk_blocks TO regress_track_locker;
GRANT SELECT ON texts TO regress_track_locker;
SET textfp.dedup_max_locks = 200;
SET ROLE regress_track_locker;
INSERT INTO lk_pairs SELECT n, now(), body FROM texts WHERE n <= 3;
SELECT pg_temp.failure($$INSERT INTO lk_pairs SELECT n, now(), body FROM texts WHERE n BETWEEN 4 AND 7$$);
INSERT INTO lk_blocks SELECT n, now(), body FROM texts WHERE n <= 7;
RESET ROLE;
RESET textfp.dedup_max_locks;
SELECT (SELECT count(*) FROM lk_pairs_textfp) AS pairs_rows, (SELECT count(*) FROM lk_blocks_textfp) AS blocks_rows;
SELECT textfp_untrack(t) FROM unnest(ARRAY['lk_pairs', 'lk_blocks', 'lk_default', 'lk_wide', 'lk_minhash']) t;
DROP TABLE lk_pairs, lk_blocks, lk_default, lk_wide, lk_minhash;
DROP OWNED BY regress_track_locker;
DROP ROLE regress_track_locker;

-- ===== errors =====
CREATE TABLE bad (id bigint PRIMARY KEY, k2 int NOT NULL, k3 int, k4 int NOT NULL, at timestamptz NOT NULL, at2 timestamptz,
	at3 int NOT NULL, body text, n int, v varchar);
CREATE UNIQUE INDEX ON bad (k3);
CREATE UNIQUE INDEX ON bad (k4) WHERE k4 > 0;
SELECT pg_temp.failure($$CALL textfp_track('bad', 'nobody', 'id', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'n', 'id', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'nokey', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'k2', 'at')$$, true);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'k3', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'k4', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'notime')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at2')$$, true);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at3')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', site_column => 'nosite')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', NULL, 'id', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', NULL)$$);
SELECT pg_temp.failure($$CALL textfp_track(NULL, 'body', 'id', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('nosuchtable', 'body', 'id', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'lsh')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', preset => 'minhash_v1')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', preset => 'simhash_v1', options => '{ngram=3}')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', preset => 'simhash_v1', idf => 'none')$$, true);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', options => '{ngram=3}', idf => 'none')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', preset => 'news')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', threshold => 32)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', threshold => 2.5)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', threshold => -1)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', threshold => 'NaN')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'minhash', threshold => 0)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'minhash', threshold => 1.5)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'minhash', threshold => 'NaN')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', cohesion => 65)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', cohesion => 1.5)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'minhash', cohesion => -0.1)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'minhash', cohesion => 1.01)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', locks => 'triples')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'simhash', threshold => 31, locks => 'pairs')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'minhash', locks => 'blocks')$$, true);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', preset => 'minhash_v2', locks => 'pairs')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', dedup => 'mark')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', dedup => NULL)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', dedup => 'reject', dedup_scope => 'table')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', dedup => 'reject', dedup_scope => 'site')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', options => '{ngram}')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', options => '{=3}')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', options => '{ngrams=3}')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', options => '{ngram=0}')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', options => NULL)$$);
-- minhash signatures shorter than the registration's 44 bands
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', method => 'minhash', options => '{k=32}')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', batch => 0)$$);
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', batch => NULL)$$);
-- simhash_idf_v1 without a model reads one from the table's rows: none here
SELECT pg_temp.failure($$CALL textfp_track('bad', 'body', 'id', 'at', preset => 'simhash_idf_v1')$$, true);
-- nothing was left behind by the calls that failed
SELECT count(*) AS left_behind FROM pg_class WHERE relname LIKE 'bad_textfp%';
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgrelid = 'bad'::regclass;
-- not a plain table
CREATE VIEW bad_view AS SELECT * FROM bad;
CREATE TABLE bad_parted (id bigint, at timestamptz NOT NULL, body text, PRIMARY KEY (id)) PARTITION BY RANGE (id);
SELECT pg_temp.failure($$CALL textfp_track('bad_view', 'body', 'id', 'at')$$);
SELECT pg_temp.failure($$CALL textfp_track('bad_parted', 'body', 'id', 'at')$$);
-- a key whose uniqueness is checked only at commit: within a statement two
-- rows may share a key, which the store cannot follow
CREATE TABLE bad_deferred (id bigint NOT NULL, at timestamptz NOT NULL, body text, CONSTRAINT bad_deferred_pkey PRIMARY KEY (id) DEFERRABLE);
SELECT pg_temp.failure($$CALL textfp_track('bad_deferred', 'body', 'id', 'at')$$, true);
-- a table name too long for its registration's names (63 bytes at most)
CREATE TABLE a_table_name_of_fifty_bytes_exactly_xxxxxxxxxxxxxx (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
SELECT pg_temp.failure($$CALL textfp_track('a_table_name_of_fifty_bytes_exactly_xxxxxxxxxxxxxx', 'body', 'id', 'at')$$, true);
-- 40 bytes is the most: with "_textfp_reprint_changes" that is 63
CREATE TABLE a_name_of_forty_one_bytes_xxxxxxxxxxxxxxx (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
SELECT pg_temp.failure($$CALL textfp_track('a_name_of_forty_one_bytes_xxxxxxxxxxxxxxx', 'body', 'id', 'at')$$);
CREATE TABLE a_name_of_forty_bytes_xxxxxxxxxxxxxxxxxx (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
CALL textfp_track('a_name_of_forty_bytes_xxxxxxxxxxxxxxxxxx', 'body', 'id', 'at', method => 'simhash');
SELECT relname FROM pg_class WHERE relname LIKE 'a\_name\_of\_forty\_bytes%' AND relkind = 'r' ORDER BY 1;
SELECT textfp_untrack('a_name_of_forty_bytes_xxxxxxxxxxxxxxxxxx');
DROP TABLE a_name_of_forty_one_bytes_xxxxxxxxxxxxxxx, a_name_of_forty_bytes_xxxxxxxxxxxxxxxxxx;
-- already tracked
SELECT pg_temp.failure($$CALL textfp_track('news', 'body', 'id', 'published')$$);
-- reports, rebuild and untrack of a table that is not tracked
SELECT pg_temp.failure($$SELECT * FROM textfp_stories('bad')$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_story_report('bad')$$);
SELECT pg_temp.failure($$CALL textfp_rebuild('bad')$$);
SELECT pg_temp.failure($$SELECT textfp_untrack('bad')$$);
SELECT pg_temp.failure($$CALL textfp_rebuild('news', batch => 0)$$);
-- textfp_track and textfp_rebuild commit as they go: not in a transaction
-- block, where nothing stays behind
\set VERBOSITY terse
BEGIN;
CALL textfp_track('bad', 'body', 'id', 'at');
ROLLBACK;
SELECT count(*) AS left_behind FROM pg_class WHERE relname LIKE 'bad_textfp%';
BEGIN;
CALL textfp_rebuild('news');
ROLLBACK;
\set VERBOSITY default
-- a NULL key or time, once the column allows it, stops the write
CREATE TABLE loose (id bigint NOT NULL, at timestamptz NOT NULL, body text);
CREATE UNIQUE INDEX ON loose (id);
CALL textfp_track('loose', 'body', 'id', 'at', method => 'simhash');
ALTER TABLE loose ALTER COLUMN id DROP NOT NULL, ALTER COLUMN at DROP NOT NULL;
SELECT pg_temp.failure($$INSERT INTO loose VALUES (NULL, now(), 'x')$$);
SELECT pg_temp.failure($$INSERT INTO loose VALUES (1, NULL, 'x')$$, true);
-- renaming a tracked column breaks the registration, which says so
ALTER TABLE loose RENAME COLUMN body TO text;
SELECT pg_temp.failure($$INSERT INTO loose VALUES (1, now(), 'x')$$);
SELECT textfp_untrack('loose');

-- ===== untrack =====
SELECT textfp_untrack('news');
SELECT count(*) AS tables_left FROM pg_class WHERE relname LIKE 'news_textfp%';
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgrelid = 'news'::regclass;
SELECT count(*) AS tracked FROM textfp_tracked() WHERE tbl::text LIKE '%news%';
-- writes go on without it; it can be registered anew
INSERT INTO news VALUES (20, 'post', '2025-02-01', 'a row after the registration ended');
CALL textfp_track('news', 'body', 'id', 'published', method => 'simhash', threshold => 10);
SELECT count(*) AS rows, count(DISTINCT story) AS stories FROM news_textfp;
SELECT textfp_untrack('news');

-- ===== heavy site pairs =====
-- A writer folds every 256 rows it writes; a site pair of 1,024 links or
-- more is recounted whole by such a fold only every 16th time (its changes
-- stay, and the report recounts them): here one pair, wire -> wire, passes
-- 1,024 links at the fold after 1,280 rows, so the folds after 1,536 leave
-- it.  A new session, so that the fold counts start at 0.
\c
SET client_min_messages = warning;
SET search_path = track_test, public;
CREATE TABLE heavy (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text);
CALL textfp_track('heavy', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 31, cohesion => 64);
INSERT INTO heavy SELECT i, CASE WHEN i % 50 = 0 THEN 'post' ELSE 'wire' END, '2025-01-01'::timestamptz + i * interval '1 minute',
	'the same wire report, revision ' || i FROM generate_series(1, 1800) i;
SELECT r.source_site, r.site, r.reprints >= 1024 AS heavy,
	(SELECT count(*) FROM heavy_textfp_reprint_changes c WHERE c.source_site = r.source_site AND c.site = r.site) AS changes_kept
FROM heavy_textfp_reprints r ORDER BY 1, 2;
-- the report is the store's count all the same
SELECT count(*) AS report_rows_that_differ FROM (
	(SELECT * FROM textfp_reprints('heavy', same_site => true) EXCEPT ALL SELECT * FROM textfp_reprints('heavy', '-infinity', true))
	UNION ALL
	(SELECT * FROM textfp_reprints('heavy', '-infinity', true) EXCEPT ALL SELECT * FROM textfp_reprints('heavy', same_site => true))) d;
SELECT textfp_track_fold('heavy_textfp_config'::regclass, false) > 0 AS folded;
SELECT count(*) AS changes_left FROM heavy_textfp_reprint_changes;
SELECT textfp_untrack('heavy');

RESET search_path;
DROP SCHEMA track_test CASCADE;
DROP ROLE regress_track_writer;
