-- stories: the match store and the story table kept by story_refresh
-- (batch), story_add (new rows: joins and merges) and story_forget
-- (deletes: splits), and the reports on a fixture

CREATE SCHEMA st_test;
SET search_path = st_test, public;

-- story A: 1, 2, 3 (a chain: 1-2 and 2-3 within 3 bits, 1-3 not);
-- story B: 10, 11; story C: 12 and 14, an exact copy; 15 has no fingerprint
SET timezone = 'UTC';
CREATE TABLE news (id bigint PRIMARY KEY, site text, published timestamptz, fp simhash64);
INSERT INTO news VALUES
	(1, 'ledger', '2025-01-01 10:00+00', '0000000000000000'),
	(2, 'herald', '2025-01-01 11:00+00', '0000000000000003'),
	(3, 'post',   '2025-01-02 09:00+00', '000000000000001f'),
	(10, 'herald', '2025-01-03 10:00+00', 'ffff000000000000'),
	(11, 'ledger', '2025-01-03 12:00+00', 'ffff000000000001'),
	(12, 'post',   '2025-01-04 12:00+00', '00ff00ff00ff00ff'),
	(14, 'ledger', '2025-01-06 08:00+00', '00ff00ff00ff00ff'),
	(15, 'post',   '2025-01-06 09:00+00', NULL);

SELECT * FROM story_refresh('news', 'id', 'fp', 'published', 3);
SELECT a, b, method, score FROM news_matches ORDER BY a, b;
SELECT key, story_id FROM news_stories ORDER BY key;
-- a second refresh changes nothing
SELECT * FROM story_refresh('news', 'id', 'fp', 'published', 3);
SELECT count(*) FROM news_stories WHERE updated_at <> (SELECT min(updated_at) FROM news_stories);

-- a new article between A and B joins both: the stories merge under the
-- earlier original (1); B's members move
-- (8 bits from 1 and from 10; new matches are found within 8 bits)
INSERT INTO news VALUES (20, 'post', '2025-01-05 00:00+00', 'ff00000000000000');
SELECT story_add('news', 'id', 'fp', 'published', '{20}', 8);
SELECT key, story_id FROM news_stories ORDER BY key;
-- an article published before B's original joins B only: B takes its key
INSERT INTO news VALUES (9, 'wire', '2025-01-02 00:00+00', 'ffff000000000002');
-- (first undo the merge: 20 is deleted)
DELETE FROM news WHERE id = 20;
SELECT story_forget('news', 'id', 'published', '{20}');
SELECT key, story_id FROM news_stories ORDER BY key;
SELECT story_add('news', 'id', 'fp', 'published', '{9}', 3);
SELECT key, story_id FROM news_stories ORDER BY key;

-- deleting the middle of the chain splits story A: 1 and 3 are alone now
DELETE FROM news WHERE id = 2;
SELECT story_forget('news', 'id', 'published', '{2}');
SELECT key, story_id FROM news_stories ORDER BY key;
SELECT count(*) AS matches_with_deleted_keys FROM news_matches WHERE 2 IN (a, b);

-- a batch refresh after changes agrees with the incremental state
CREATE TABLE before AS SELECT key, story_id FROM news_stories;
SELECT * FROM story_refresh('news', 'id', 'fp', 'published', 3);
SELECT count(*) AS differ FROM ((SELECT key, story_id FROM news_stories EXCEPT SELECT * FROM before)
								UNION ALL (SELECT * FROM before EXCEPT SELECT key, story_id FROM news_stories)) x;

-- reports
INSERT INTO news VALUES
	(30, 'ledger', '2025-02-01 10:00+00', 'abcdabcdabcdabcd'),
	(31, 'herald', '2025-02-01 13:00+00', 'abcdabcdabcdabce'),
	(32, 'post',   '2025-02-02 10:00+00', 'abcdabcdabcdabcf'),
	(33, 'herald', '2025-02-03 10:00+00', 'abcdabcdabcdabcd');
SELECT story_add('news', 'id', 'fp', 'published', '{30,31,32,33}', 3);
SELECT * FROM story_report('news', 'id', 'published', 'site');
SELECT * FROM story_report('news', 'id', 'published');
SELECT * FROM stories_since('news', 'id', 'published', '2025-01-04');
SELECT * FROM stories_since('news', 'id', 'published', '2025-03-01');
SELECT * FROM story_reprints('news', 'id', 'published', 'site');
SELECT * FROM match_scores('news');

-- minhash_sig stories next to simhash64 ones in one match store
ALTER TABLE news ADD COLUMN sig minhash_sig;
UPDATE news SET sig = minhash(ARRAY(SELECT (id / 10) * 100 + j FROM generate_series(1, 40) j WHERE j % (1 + id % 10) <> 0 OR id % 10 = 0));
SELECT * FROM story_refresh('news', 'id', 'sig', 'published', 0.6);
SELECT method, count(*) FROM news_matches GROUP BY 1 ORDER BY 1;
SELECT * FROM match_scores('news', 4);

-- names: a quoted table in a quoted schema
CREATE SCHEMA "My ""News""";
CREATE TABLE "My ""News"""."Wire Copy" ("ID" int PRIMARY KEY, "When" timestamp, "Sim" simhash64);
INSERT INTO "My ""News"""."Wire Copy" SELECT id, published AT TIME ZONE 'UTC', fp FROM news;
SELECT * FROM story_refresh('"My ""News"""."Wire Copy"', 'ID', 'Sim', 'When', 3);
SELECT * FROM story_table_names('"My ""News"""."Wire Copy"');
SELECT story_id, size, first_at FROM story_report('"My ""News"""."Wire Copy"', 'ID', 'When');

-- the first textfp call of a session, at the default threshold: the
-- settings exist once the library is loaded, which that call does
\c
SET search_path = st_test, public;
SELECT stories > 0 AS stories_made FROM story_refresh('news', 'id', 'fp', 'published');
\c
SET search_path = st_test, public;
SELECT story_add('news', 'id', 'fp', 'published', '{33}') >= 0 AS added;
\c
SET search_path = st_test, public;
SELECT count(*) > 0 AS clustered FROM cluster_table('news', 'id', 'sig');

-- bad input
\set VERBOSITY terse
SELECT * FROM story_refresh('news', 'id', 'fp', 'nope', 3);
-- a relation that does not exist is named by its OID (not as "-")
SELECT * FROM story_refresh(0, 'id', 'fp', 'published', 3);
SELECT story_add(0, 'id', 'fp', 'published', '{1}', 3);
SELECT story_forget(0, 'id', 'published', '{1}');
SELECT * FROM story_report(0, 'id', 'published');
SELECT * FROM stories_since(0, 'id', 'published', '2025-01-01');
SELECT * FROM match_scores(0);
-- the time column must be a timestamp or date (stories are named by their
-- earliest member), not text that only looks like one
SELECT * FROM story_refresh('news', 'id', 'fp', 'site', 3);
SELECT story_add('news', 'id', 'fp', 'site', '{1}', 3);
SELECT * FROM story_report('news', 'id', 'site');
SELECT story_add('news', 'id', 'fp', 'published', NULL, 3);
SELECT story_forget('news', 'id', 'published', NULL);
-- the key must be unique by an index on it alone: what is not
CREATE TABLE dup_keys (id bigint, published timestamptz, fp simhash64);
INSERT INTO dup_keys VALUES (1, '2025-01-01', '0000000000000000'), (1, '2025-01-02', '0000000000000001');
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT * FROM story_refresh('dup_keys', 'id', 'fp', 'published', 3);
\set SHOW_CONTEXT errors
\set VERBOSITY terse
SELECT story_add('dup_keys', 'id', 'fp', 'published', '{1}', 3);
SELECT story_forget('dup_keys', 'id', 'published', '{1}');
DELETE FROM dup_keys WHERE published = '2025-01-02';
CREATE UNIQUE INDEX dup_keys_pair ON dup_keys (id, published);
SELECT * FROM story_refresh('dup_keys', 'id', 'fp', 'published', 3);
DROP INDEX dup_keys_pair;
CREATE UNIQUE INDEX dup_keys_partial ON dup_keys (id) WHERE id > 0;
SELECT * FROM story_refresh('dup_keys', 'id', 'fp', 'published', 3);
DROP INDEX dup_keys_partial;
CREATE UNIQUE INDEX dup_keys_expr ON dup_keys ((id + 0));
SELECT * FROM story_refresh('dup_keys', 'id', 'fp', 'published', 3);
DROP INDEX dup_keys_expr;
-- and what is: a unique index on the key alone
CREATE UNIQUE INDEX dup_keys_id ON dup_keys (id);
SELECT * FROM story_refresh('dup_keys', 'id', 'fp', 'published', 3);
-- the reports check it too
DROP INDEX dup_keys_id;
SELECT * FROM story_report('dup_keys', 'id', 'published');
SELECT * FROM stories_since('dup_keys', 'id', 'published', '2025-01-01');
SELECT * FROM story_reprints('dup_keys', 'id', 'published', 'id');
SELECT * FROM story_reprints('news', 'id', 'published', NULL);
SELECT * FROM match_scores('news', 0);
CREATE TABLE "a_table_name_that_is_long_enough_to_leave_no_room_for_a_suffix" (id int);
SELECT * FROM story_tables('"a_table_name_that_is_long_enough_to_leave_no_room_for_a_suffix"');
\set VERBOSITY default

DROP SCHEMA "My ""News""" CASCADE;
DROP SCHEMA st_test CASCADE;
