-- track_batch: textfp_track() and textfp_rebuild() with a batch of many
-- rows.  textfp_track_link() relinks a batch under SPI and returns the
-- batch's last (time, key) as the cursor of the next: that cursor must not
-- live in SPI's memory, which SPI_finish() frees (a batch of this size read
-- it after the free and crashed the server), and what one row's relink
-- allocates is freed with the row, so a batch runs in bounded memory.
SET client_min_messages = warning;
CREATE SCHEMA track_batch;
SET search_path = track_batch, public;

-- texts of 12 words, each sharing 5 with the text before it: some near rows
CREATE TABLE many (id integer PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO many SELECT i, timestamptz '2025-01-01 00:00+00' + i * interval '1 minute',
	(SELECT string_agg(md5((i * 7 + j)::text), ' ') FROM generate_series(1, 12) j)
FROM generate_series(1, 14000) i;
CALL textfp_track('many', 'body', 'id', 'at', method => 'simhash', batch => 14000);
SELECT count(*) AS rows, count(DISTINCT story) AS stories, count(source) AS links FROM many_textfp;
CREATE TABLE first_links AS SELECT key, source, story, score FROM many_textfp;

-- one batch for all, and batches of 5000 (the cursor carried between them)
CALL textfp_rebuild('many', batch => 14000);
SELECT count(*) AS differ FROM many_textfp s JOIN first_links f USING (key)
WHERE (s.source, s.story, s.score) IS DISTINCT FROM (f.source, f.story, f.score);
CALL textfp_rebuild('many', batch => 5000);
SELECT count(*) AS differ FROM many_textfp s JOIN first_links f USING (key)
WHERE (s.source, s.story, s.score) IS DISTINCT FROM (f.source, f.story, f.score);
SELECT state, done, total FROM many_textfp_config;

-- textfp_rebuild() says which way it links: at once in memory (loaded, a
-- NOTICE each tenth of the rows linked, linked, written), the progress row
-- 'ready' with every row done; online => true, or a store larger than
-- maintenance_work_mem, in batches.
UPDATE many_textfp SET source = NULL, story = key, score = NULL WHERE source IS NOT NULL AND key % 2 = 0;
SET client_min_messages = notice;
CALL textfp_rebuild('many');
SELECT state, phase, done, total FROM many_textfp_config;
SELECT count(*) AS differ FROM many_textfp s JOIN first_links f USING (key)
WHERE (s.source, s.story, s.score) IS DISTINCT FROM (f.source, f.story, f.score);
CALL textfp_rebuild('many', online => true, batch => 7000);
SET maintenance_work_mem = '1MB';
CALL textfp_rebuild('many', batch => 7000);
RESET maintenance_work_mem;
CREATE TABLE few (id integer PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO few SELECT i, timestamptz '2025-01-01 00:00+00' + i * interval '1 minute', (SELECT body FROM many WHERE id = i) FROM generate_series(1, 30) i;
CALL textfp_track('few', 'body', 'id', 'at', method => 'minhash');
CALL textfp_rebuild('few');
-- MinHash at the registration's defaults (minhash_v3, 0.2890625, 44 bands of
-- one, at least 5 equal): links at the threshold's margin, and exact copies
-- at the same time as their originals (ties decided by the key).  The
-- in-memory pass gives the batches' links: each run from a store without
-- links.  A signature and its band tables take about 1 KB a row: 3,060 rows
-- do not fit 1 MB.  30 rows (few) are fewer than the 1,000 the progress
-- NOTICEs start at; 3,060 have them.
CREATE TABLE mh (id integer PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO mh SELECT id, at, body FROM many WHERE id <= 3000;
INSERT INTO mh SELECT id + 100000, at, body FROM many WHERE id <= 3000 AND id % 50 = 0;
SET client_min_messages = warning;
CALL textfp_track('mh', 'body', 'id', 'at');
SELECT preset, threshold, lsh_bands, lsh_rows, lsh_min_bands FROM mh_textfp_config;
CREATE TABLE mh_fast AS SELECT key, source, story, score FROM mh_textfp;
SELECT count(source) AS links, count(*) FILTER (WHERE score < 0.4) AS links_below_0_4,
	count(*) FILTER (WHERE key > 100000) AS copies, count(DISTINCT story) AS stories FROM mh_fast;
UPDATE mh_textfp SET source = NULL, story = key, score = NULL;
CALL textfp_rebuild('mh', online => true);
SELECT count(*) AS differ FROM mh_textfp s JOIN mh_fast f USING (key)
WHERE (s.source, s.story, s.score) IS DISTINCT FROM (f.source, f.story, f.score);
UPDATE mh_textfp SET source = NULL, story = key, score = NULL;
SET client_min_messages = notice;
CALL textfp_rebuild('mh');
SELECT count(*) AS differ FROM mh_textfp s JOIN mh_fast f USING (key)
WHERE (s.source, s.story, s.score) IS DISTINCT FROM (f.source, f.story, f.score);
SET maintenance_work_mem = '1MB';
CALL textfp_rebuild('mh');
RESET maintenance_work_mem;
-- a signature made otherwise (another seed) in the store: the operators
-- compare none such, and the pass leaves the store to the batches
UPDATE mh_textfp SET fp = replace(fp::text, ':seed=0:', ':seed=1:')::minhash_sig WHERE key = 7;
SELECT * FROM textfp_track_link_all('mh_textfp_config');
DO $$
BEGIN
	CALL textfp_rebuild('few', online => NULL);
EXCEPTION WHEN null_value_not_allowed THEN
	RAISE NOTICE 'online NULL: %', SQLERRM;
END
$$;
-- the internal procedures that commit as they go (textfp_track's and
-- textfp_rebuild's passes; their owner may CALL them): fast NULL ran
-- neither pass and marked the registration ready, unlinked; batch NULL
-- fingerprinted without end (the timeout ends it).  Each refuses (22004,
-- 22023) before it writes.
UPDATE few_textfp_config SET state = 'linking';
SET client_min_messages = warning;
SET statement_timeout = '10s';
\set VERBOSITY sqlstate
CALL textfp_track_relink('few_textfp_config', 1000, NULL);
CALL textfp_track_relink('few_textfp_config', NULL, false);
CALL textfp_track_relink('few_textfp_config', 0, true);
CALL textfp_track_fill_all('few_textfp_config', NULL);
CALL textfp_track_fill_all('few_textfp_config', 1000001);
\set VERBOSITY default
RESET statement_timeout;
SET client_min_messages = notice;
SELECT state FROM few_textfp_config;
UPDATE few_textfp_config SET state = 'ready';
SET client_min_messages = warning;

-- The WARNING of a large story (textfp_track_summary(), at the end of
-- textfp_track and textfp_rebuild): a story of more than 100 rows and more
-- than 1% of the rows, each bound checked at its edge with the other one
-- met.  Identical texts make one story; the others are far apart.
CREATE TABLE big (id integer PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO big SELECT i, timestamptz '2025-01-01 00:00+00' + i * interval '1 minute',
	CASE WHEN i <= 100 THEN 'one text repeated word for word'
	ELSE (SELECT string_agg(md5(i || '-' || j), ' ') FROM generate_series(1, 12) j) END
FROM generate_series(1, 200) i;
-- 100 rows of 200: 50%, but not more than 100 rows
CALL textfp_track('big', 'body', 'id', 'at', method => 'simhash');
-- 101 of 201: a warning
INSERT INTO big VALUES (201, '2025-02-01', 'one text repeated word for word');
CALL textfp_rebuild('big');
CREATE TABLE share (id integer PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO share SELECT i, timestamptz '2025-01-01 00:00+00' + i * interval '1 minute',
	CASE WHEN i <= 101 THEN 'one text repeated word for word'
	ELSE (SELECT string_agg(md5(i || '-' || j), ' ') FROM generate_series(1, 12) j) END
FROM generate_series(1, 10099) i;
-- 101 rows of 10,099: more than 1% (100.99 rows), a warning
CALL textfp_track('share', 'body', 'id', 'at', method => 'simhash', batch => 10099);
-- 101 of 10,100: exactly 1%, not more
INSERT INTO share VALUES (10100, '2025-02-01', 'another text');
CALL textfp_rebuild('share');
SELECT (SELECT count(*) FROM share_textfp WHERE story = 1) AS story_1, (SELECT count(*) FROM share_textfp) AS rows,
	(SELECT max(n) FROM (SELECT count(*) AS n FROM share_textfp GROUP BY story) q) AS largest;

RESET search_path;
DROP SCHEMA track_batch CASCADE;
