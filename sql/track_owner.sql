-- track_owner: a tracked table's registration (T_textfp_config) and store
-- (T_textfp) belong to the table's owner and are trusted only as tables
-- textfp made: plain, the owner's, in textfp's shape, with nothing a read or
-- a write could run (triggers, rules, row-level security, inheritance,
-- index expressions or predicates), and registering that very table.  Each
-- case below says which check catches it:
--   textfp_track_register  refuses names that exist already (42P07)
--   textfp_check_owner     refuses a caller without the owner's privileges (42501)
--   textfp_track_check     what a trigger (track_config.c) reads: the
--                          configuration table and the store through
--                          textfp_check_owned_table (42P07, shapes included),
--                          and the registered source_table (22023)
--   textfp_registration    what the reports, textfp_rebuild and textfp_untrack
--                          read: the two tables the table's textfp_track
--                          trigger names, through textfp_check_owned_table
--                          (42P07; the store's shape from its own types, which
--                          must be types textfp_track takes)
SET client_min_messages = warning;
SET timezone = 'UTC';
CREATE ROLE regress_track_owner;
CREATE ROLE regress_track_intruder;
CREATE ROLE regress_track_scribe;
CREATE SCHEMA track_owner AUTHORIZATION regress_track_owner;
GRANT USAGE, CREATE ON SCHEMA track_owner TO regress_track_intruder;
GRANT USAGE ON SCHEMA track_owner TO regress_track_scribe;
SET search_path = track_owner, public;

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

SET ROLE regress_track_owner;
CREATE TABLE texts (n int PRIMARY KEY, body text);
INSERT INTO texts VALUES
 (1, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight.'),
 (2, 'Storm closes harbour bridge for two days as engineers inspect cables damaged by high winds overnight.'),
 (3, 'Local bakery wins national prize for its sourdough; the owner thanks customers and staff for years of support.');
GRANT SELECT ON texts TO PUBLIC;
CREATE TABLE victim (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text);
CREATE TABLE victim2 (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text);
INSERT INTO victim VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 1)), (2, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 3));
RESET ROLE;

-- ===== 1. squatting: a table under the registration's names =====
-- textfp_track_register: any relation named T_textfp_config, T_textfp,
-- T_textfp_stories or T_textfp_changes, of any owner and shape, makes
-- textfp_track refuse (42P07); nothing is made
SET ROLE regress_track_intruder;
CREATE TABLE victim_textfp_config (singleton boolean);
RESET ROLE;
SET ROLE regress_track_owner;
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$, true);
RESET ROLE;
DROP TABLE victim_textfp_config;
-- the store's name, made in textfp's own shape, by the intruder
SET ROLE regress_track_intruder;
CREATE TABLE victim_textfp (key bigint NOT NULL PRIMARY KEY, at timestamptz NOT NULL, site text, fp simhash64, source bigint,
	story bigint NOT NULL, score double precision, linked_at timestamptz NOT NULL DEFAULT now());
RESET ROLE;
SET ROLE regress_track_owner;
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$);
RESET ROLE;
DROP TABLE victim_textfp;
-- a view, a sequence, an index under either name; and the owner's own table
SET ROLE regress_track_intruder;
CREATE VIEW victim_textfp AS SELECT 1 AS x;
RESET ROLE;
SET ROLE regress_track_owner;
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$);
RESET ROLE;
DROP VIEW victim_textfp;
SET ROLE regress_track_intruder;
CREATE SEQUENCE victim_textfp_config;
RESET ROLE;
SET ROLE regress_track_owner;
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$);
RESET ROLE;
DROP SEQUENCE victim_textfp_config;
SET ROLE regress_track_owner;
CREATE INDEX victim_textfp ON victim (at);
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$);
DROP INDEX victim_textfp;
CREATE TABLE victim_textfp_config (x int);
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$);
DROP TABLE victim_textfp_config;
-- the story summary's and its changes' names too
SET ROLE regress_track_intruder;
CREATE TABLE victim_textfp_stories (story bigint);
CREATE VIEW victim_textfp_changes AS SELECT 1::bigint AS story;
RESET ROLE;
SET ROLE regress_track_owner;
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$);
RESET ROLE;
DROP TABLE victim_textfp_stories;
SET ROLE regress_track_owner;
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$);
RESET ROLE;
DROP VIEW victim_textfp_changes;
SET ROLE regress_track_owner;
SELECT count(*) AS made FROM pg_class WHERE relname LIKE 'victim_textfp%';
SELECT count(*) AS triggers FROM pg_trigger WHERE tgrelid = 'victim'::regclass;

-- ===== 2. who may register, rebuild, end a registration =====
-- textfp_check_owner: only the owner (or a member of its role), 42501
RESET ROLE;
SET ROLE regress_track_intruder;
SELECT pg_temp.failure($$CALL textfp_track('victim', 'body', 'id', 'at', method => 'simhash')$$, true);
RESET ROLE;
SET ROLE regress_track_owner;
CALL textfp_track('victim', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 3, dedup => 'reject');
SELECT c.relname, pg_get_userbyid(c.relowner) AS owner, c.relacl FROM pg_class c
WHERE c.relname IN ('victim_textfp', 'victim_textfp_config') ORDER BY 1;
RESET ROLE;
SET ROLE regress_track_intruder;
SELECT pg_temp.failure($$CALL textfp_rebuild('victim')$$);
SELECT pg_temp.failure($$SELECT textfp_untrack('victim')$$);
-- the internal steps refuse as well: textfp_track_register
-- (textfp_check_owner), textfp_track_link, textfp_track_link_all (which
-- would lock the table) and textfp_track_invalidate (the owner's
-- privileges, checked in C), and textfp_track_fill and
-- textfp_track_progress (textfp_track_exec, which runs their statements as
-- the owner for a caller with the owner's privileges)
SELECT pg_temp.failure($$SELECT textfp_track_register('victim', 'body', 'id', 'at', NULL, 'simhash', NULL, 3, 'off', 'all', '{}', NULL, NULL, false, NULL)$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_fill('victim_textfp_config', NULL, 10)$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_link('victim_textfp_config', NULL, NULL, 10)$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_link_all('victim_textfp_config')$$);
SELECT pg_temp.failure($$SELECT textfp_track_invalidate('victim_textfp_config')$$);
SELECT pg_temp.failure($$SELECT textfp_track_progress('victim_textfp_config', 'ready', NULL, 0, 0)$$);
-- nor read what it may not: the store and the registration are the owner's
SELECT pg_temp.failure($$SELECT * FROM textfp_stories('victim')$$);
SELECT pg_temp.failure($$SELECT * FROM victim_textfp_config$$);
SELECT count(*) AS tracked_tables_seen FROM textfp_tracked();
RESET ROLE;
-- a member of the owner's role may
GRANT regress_track_owner TO regress_track_scribe;
SET ROLE regress_track_scribe;
CALL textfp_rebuild('victim');
RESET ROLE;
REVOKE regress_track_owner FROM regress_track_scribe;

-- ===== 3. a writer without privileges on the store =====
-- The triggers write the store as the owner: a writer with INSERT, UPDATE,
-- DELETE and TRUNCATE on the table alone keeps it current, and reads nothing
-- of it: the DETAIL of a rejection names no key for a writer that may not
-- read the store (it does for the owner)
SET ROLE regress_track_owner;
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON victim TO regress_track_scribe;
RESET ROLE;
SET ROLE regress_track_scribe;
INSERT INTO victim VALUES (3, 'c', '2025-01-03', 'A chess club meets on Thursdays in the library basement, newcomers welcome.');
UPDATE victim SET site = 'cc' WHERE id = 3;
SELECT pg_temp.failure($$INSERT INTO victim VALUES (4, 'd', '2025-01-04', (SELECT body FROM texts WHERE n = 2))$$, true);
SELECT pg_temp.failure($$UPDATE victim SET body = (SELECT body FROM texts WHERE n = 2) WHERE id = 3$$, true);
SELECT pg_temp.failure($$SELECT * FROM victim_textfp$$);
DELETE FROM victim WHERE id = 2;
RESET ROLE;
SET ROLE regress_track_owner;
SELECT pg_temp.failure($$INSERT INTO victim VALUES (4, 'd', '2025-01-04', (SELECT body FROM texts WHERE n = 2))$$, true);
SELECT key, site, source, story FROM victim_textfp ORDER BY key;
RESET ROLE;
SET ROLE regress_track_scribe;
TRUNCATE victim;
RESET ROLE;
SET ROLE regress_track_owner;
SELECT count(*) AS store_rows FROM victim_textfp;
-- a reader the owner grants SELECT on the store reads the reports, and
-- only that: no SELECT on the registration is needed
INSERT INTO victim VALUES (1, 'a', '2025-01-01', (SELECT body FROM texts WHERE n = 1)), (2, 'b', '2025-01-02', (SELECT body FROM texts WHERE n = 3));
GRANT SELECT ON victim_textfp TO regress_track_scribe;
RESET ROLE;
SET ROLE regress_track_scribe;
SELECT * FROM textfp_stories('victim') ORDER BY key;
SELECT story_id, size FROM textfp_story_report('victim', min_size => 1) ORDER BY story_id;
SELECT tbl, store, method, threshold, state FROM textfp_tracked();
RESET ROLE;
SET ROLE regress_track_owner;
REVOKE SELECT ON victim_textfp FROM regress_track_scribe;
RESET ROLE;

-- ===== 4. the registration's tables changed after it =====
-- The owner (or a superuser) changes the store or the registration; each
-- change makes the triggers (textfp_track_check, when the registration is
-- read again: the change invalidates it in every session) and the reports
-- (textfp_registration) refuse with 42P07, until it is undone.  The session
-- has the registration cached from the writes above.
-- (each refusal's reason, from its DETAIL)
CREATE FUNCTION pg_temp.probe(what text) RETURNS TABLE (change text, writes text, reports text) LANGUAGE plpgsql AS $$
BEGIN
	change := what;
	writes := regexp_replace(pg_temp.failure($q$UPDATE track_owner.victim SET at = at + interval '1 second' WHERE id = 1$q$, true),
		'^(\w+): relation (\S+) is .*(it is|its) (.*)\.$', '\1: \2: \3 \4');
	reports := regexp_replace(pg_temp.failure($q$SELECT count(*) FROM textfp_stories('track_owner.victim')$q$, true),
		'^(\w+): relation (\S+) is .*(it is|its) (.*)\.$', '\1: \2: \3 \4');
	RETURN NEXT;
END
$$;
SELECT * FROM pg_temp.probe('none');
-- the owner: a store or registration of another role
ALTER TABLE victim_textfp OWNER TO regress_track_intruder;
SELECT * FROM pg_temp.probe('store owner');
ALTER TABLE victim_textfp OWNER TO regress_track_owner;
ALTER TABLE victim_textfp_config OWNER TO regress_track_intruder;
SELECT * FROM pg_temp.probe('registration owner');
ALTER TABLE victim_textfp_config OWNER TO regress_track_owner;
-- a trigger, a rule
CREATE FUNCTION track_owner.noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER spy AFTER INSERT ON victim_textfp FOR EACH ROW EXECUTE FUNCTION track_owner.noop();
SELECT * FROM pg_temp.probe('store trigger');
DROP TRIGGER spy ON victim_textfp;
CREATE TRIGGER spy BEFORE UPDATE ON victim_textfp_config FOR EACH ROW EXECUTE FUNCTION track_owner.noop();
SELECT * FROM pg_temp.probe('registration trigger');
DROP TRIGGER spy ON victim_textfp_config;
CREATE RULE spy AS ON UPDATE TO victim_textfp DO ALSO NOTIFY spy;
SELECT * FROM pg_temp.probe('store rule');
DROP RULE spy ON victim_textfp;
-- (a rule or a child that went leaves relhasrules or relhassubclass set
-- until the table is vacuumed: the check reads pg_rewrite and pg_inherits)
SELECT * FROM pg_temp.probe('none');
-- row-level security, enabled or with a policy alone
ALTER TABLE victim_textfp ENABLE ROW LEVEL SECURITY;
SELECT * FROM pg_temp.probe('store row-level security');
ALTER TABLE victim_textfp DISABLE ROW LEVEL SECURITY;
CREATE POLICY spy ON victim_textfp_config USING (true);
SELECT * FROM pg_temp.probe('registration policy');
DROP POLICY spy ON victim_textfp_config;
-- an index on an expression or with a predicate
CREATE INDEX spy ON victim_textfp ((score + 1));
SELECT * FROM pg_temp.probe('store index expression');
DROP INDEX spy;
CREATE INDEX spy ON victim_textfp (at) WHERE score > 0;
SELECT * FROM pg_temp.probe('store index predicate');
DROP INDEX spy;
-- the shape: a column, a type, a default, a constraint (the triggers and
-- the reports compare it)
ALTER TABLE victim_textfp ADD COLUMN spy text;
SELECT * FROM pg_temp.probe('store column added');
ALTER TABLE victim_textfp DROP COLUMN spy;
ALTER TABLE victim_textfp ALTER COLUMN score TYPE real;
SELECT * FROM pg_temp.probe('store column type');
ALTER TABLE victim_textfp ALTER COLUMN score TYPE double precision;
ALTER TABLE victim_textfp ALTER COLUMN score SET DEFAULT 0;
SELECT * FROM pg_temp.probe('store default');
ALTER TABLE victim_textfp ALTER COLUMN score DROP DEFAULT;
ALTER TABLE victim_textfp_config ADD CONSTRAINT spy CHECK (threshold < 100);
SELECT * FROM pg_temp.probe('registration constraint');
ALTER TABLE victim_textfp_config DROP CONSTRAINT spy;
ALTER TABLE victim_textfp_config ALTER COLUMN dedup DROP NOT NULL;
SELECT * FROM pg_temp.probe('registration not null');
ALTER TABLE victim_textfp_config ALTER COLUMN dedup SET NOT NULL;
-- a registration that registers another table
UPDATE victim_textfp_config SET source_table = 'victim2';
SELECT textfp_track_invalidate('victim_textfp_config');
SELECT * FROM pg_temp.probe('registration of another table');
UPDATE victim_textfp_config SET source_table = 'victim';
SELECT textfp_track_invalidate('victim_textfp_config');
SELECT * FROM pg_temp.probe('none');
-- inheritance, as a parent or a child
CREATE TABLE spy_child () INHERITS (victim_textfp);
SELECT * FROM pg_temp.probe('store with a child');
DROP TABLE spy_child;
SELECT * FROM pg_temp.probe('none');
-- (a new parent sends the child no invalidation: the triggers keep the
-- registration they read, harmless as they read every table ONLY; the
-- reports, which check at every call, refuse)
CREATE TABLE spy_parent ();
ALTER TABLE victim_textfp_config INHERIT spy_parent;
SELECT * FROM pg_temp.probe('registration with a parent');
ALTER TABLE victim_textfp_config NO INHERIT spy_parent;
DROP TABLE spy_parent;
SELECT * FROM pg_temp.probe('none');

-- ===== 5. a role with TRIGGER on another table =====
-- The intruder may create triggers on victim2 (the same owner as victim)
-- and on a table of its own.  A trigger names a registration by its
-- arguments; textfp_track_check refuses one that is not the trigger's
-- table's own: on victim2 the registration registers victim (22023), on
-- the intruder's table it belongs to another owner (42P07).  Nothing is
-- read from or written to victim's store.
SET ROLE regress_track_owner;
GRANT TRIGGER, INSERT, UPDATE, SELECT ON victim2 TO regress_track_intruder;
CREATE TABLE before_store AS SELECT * FROM victim_textfp;
RESET ROLE;
SET ROLE regress_track_intruder;
CREATE TABLE own (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text);
CREATE TRIGGER hijack AFTER INSERT OR UPDATE OR DELETE ON victim2 FOR EACH ROW
	EXECUTE FUNCTION textfp_track_trigger('track_owner.victim_textfp_config', 'track_owner.victim_textfp');
SELECT pg_temp.failure($$INSERT INTO victim2 VALUES (1, 'x', '2024-01-01', (SELECT body FROM texts WHERE n = 1))$$, true);
RESET ROLE;
DROP TRIGGER hijack ON victim2;
SET ROLE regress_track_intruder;
CREATE TRIGGER hijack BEFORE INSERT OR UPDATE ON victim2 FOR EACH ROW
	EXECUTE FUNCTION textfp_track_dedup('track_owner.victim_textfp_config', 'track_owner.victim_textfp');
SELECT pg_temp.failure($$INSERT INTO victim2 VALUES (1, 'x', '2024-01-01', (SELECT body FROM texts WHERE n = 2))$$, true);
RESET ROLE;
DROP TRIGGER hijack ON victim2;
SET ROLE regress_track_intruder;
CREATE TRIGGER hijack AFTER INSERT OR UPDATE OR DELETE ON own FOR EACH ROW
	EXECUTE FUNCTION textfp_track_trigger('track_owner.victim_textfp_config', 'track_owner.victim_textfp');
SELECT pg_temp.failure($$INSERT INTO own VALUES (1, 'x', '2024-01-01', (SELECT body FROM texts WHERE n = 1))$$, true);
DROP TRIGGER hijack ON own;
CREATE TRIGGER hijack BEFORE INSERT OR UPDATE ON own FOR EACH ROW
	EXECUTE FUNCTION textfp_track_dedup('track_owner.victim_textfp_config', 'track_owner.victim_textfp');
SELECT pg_temp.failure($$INSERT INTO own VALUES (1, 'x', '2024-01-01', (SELECT body FROM texts WHERE n = 2))$$, true);
DROP TRIGGER hijack ON own;
-- the triggers check how they are fired, and their arguments (39P01)
CREATE TRIGGER hijack BEFORE INSERT ON own FOR EACH ROW
	EXECUTE FUNCTION textfp_track_trigger('track_owner.victim_textfp_config', 'track_owner.victim_textfp');
SELECT pg_temp.failure($$INSERT INTO own VALUES (2, 'x', '2024-01-01', 'x')$$);
DROP TRIGGER hijack ON own;
CREATE TRIGGER hijack AFTER INSERT ON own FOR EACH ROW EXECUTE FUNCTION textfp_track_trigger('track_owner.victim_textfp_config');
SELECT pg_temp.failure($$INSERT INTO own VALUES (2, 'x', '2024-01-01', 'x')$$);
DROP TRIGGER hijack ON own;
CREATE TRIGGER hijack AFTER INSERT ON own FOR EACH ROW
	EXECUTE FUNCTION textfp_track_dedup('track_owner.victim_textfp_config', 'track_owner.victim_textfp');
SELECT pg_temp.failure($$INSERT INTO own VALUES (2, 'x', '2024-01-01', 'x')$$);
DROP TRIGGER hijack ON own;
CREATE TRIGGER hijack AFTER INSERT ON own FOR EACH ROW EXECUTE FUNCTION textfp_track_trigger('no_such_config', 'no_such_store');
SELECT pg_temp.failure($$INSERT INTO own VALUES (2, 'x', '2024-01-01', 'x')$$);
DROP TRIGGER hijack ON own;
RESET ROLE;
-- victim's store is as it was
SELECT count(*) AS store_rows_changed FROM (
	(SELECT * FROM victim_textfp EXCEPT SELECT * FROM before_store) UNION ALL (SELECT * FROM before_store EXCEPT SELECT * FROM victim_textfp)) d;
-- A trigger named textfp_track on victim2 naming victim's registration
-- makes victim2 look tracked to textfp_registration, which the reports
-- read (they read the store as their caller: nothing they would not show
-- anyway), but textfp_rebuild and textfp_untrack of victim2 by its owner
-- must not relink or drop victim's registration: they compare the
-- registration's source_table with the table (22023).
SET ROLE regress_track_intruder;
CREATE TRIGGER textfp_track AFTER INSERT OR UPDATE OR DELETE ON victim2 FOR EACH ROW
	EXECUTE FUNCTION textfp_track_trigger('track_owner.victim_textfp_config', 'track_owner.victim_textfp');
RESET ROLE;
SET ROLE regress_track_owner;
SELECT tbl, store FROM textfp_tracked() ORDER BY 1;
SELECT pg_temp.failure($$SELECT textfp_untrack('victim2')$$, true);
SELECT pg_temp.failure($$CALL textfp_rebuild('victim2')$$, true);
SELECT count(*) AS victim_registration_kept FROM pg_class WHERE relname IN ('victim_textfp', 'victim_textfp_config');
SELECT count(*) AS victim_triggers_kept FROM pg_trigger WHERE tgrelid = 'victim'::regclass;
RESET ROLE;
DROP TRIGGER textfp_track ON victim2;
-- and textfp_untrack ends a registration whose tables were dropped by hand
-- (its triggers would fail on every write)
SET ROLE regress_track_owner;
CREATE TABLE victim3 (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
CALL textfp_track('victim3', 'body', 'id', 'at', method => 'simhash');
DROP TABLE victim3_textfp;
SELECT regexp_replace(pg_temp.failure($$INSERT INTO victim3 VALUES (1, '2025-01-01', 'x')$$), '[0-9]{4,}', 'N') AS failure;
SELECT pg_temp.failure($$SELECT * FROM textfp_stories('victim3')$$);
SELECT textfp_untrack('victim3');
INSERT INTO victim3 VALUES (1, '2025-01-01', 'x');
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgrelid = 'victim3'::regclass;
-- the registration's other tables are left, unchecked: a new registration says so
SELECT pg_temp.failure($$CALL textfp_track('victim3', 'body', 'id', 'at', method => 'simhash')$$);
DROP TABLE victim3_textfp_config, victim3_textfp_stories, victim3_textfp_changes;
CALL textfp_track('victim3', 'body', 'id', 'at', method => 'simhash');
SELECT count(*) AS store_rows FROM victim3_textfp;
RESET ROLE;

-- ===== 6. row-level security on the tracked table =====
-- The store has a row per row of T whatever T's policies show: the triggers
-- write it as the owner, and textfp_track's batches read T as the owner,
-- who passes its policies, unless it forces them on itself: then
-- textfp_track refuses (55000) rather than leave rows out.  A writer whose
-- policy hides rows of T still gets links to them (who may read the store
-- is the owner's grant alone).
SET ROLE regress_track_owner;
CREATE TABLE guarded (id bigint PRIMARY KEY, author name NOT NULL DEFAULT current_user, at timestamptz NOT NULL, body text);
INSERT INTO guarded VALUES (1, 'someone_else', '2025-01-01', (SELECT body FROM texts WHERE n = 1)),
	(2, 'regress_track_scribe', '2025-01-02', (SELECT body FROM texts WHERE n = 3));
ALTER TABLE guarded ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY own ON guarded USING (author = current_user) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON guarded TO regress_track_scribe;
SELECT count(*) AS rows_the_owner_sees FROM guarded;
SELECT pg_temp.failure($$CALL textfp_track('guarded', 'body', 'id', 'at', method => 'simhash', threshold => 3)$$, true);
ALTER TABLE guarded NO FORCE ROW LEVEL SECURITY;
CALL textfp_track('guarded', 'body', 'id', 'at', method => 'simhash', threshold => 3);
ALTER TABLE guarded FORCE ROW LEVEL SECURITY;
RESET ROLE;
SET ROLE regress_track_scribe;
SELECT id FROM guarded ORDER BY id;
INSERT INTO guarded (id, at, body) VALUES (3, '2025-01-03', (SELECT body FROM texts WHERE n = 2));
-- a hidden row is neither updated nor deleted by the writer
DELETE FROM guarded WHERE id = 1;
UPDATE guarded SET body = NULL WHERE id = 1;
RESET ROLE;
SELECT key, source, story FROM track_owner.guarded_textfp ORDER BY key;
SET ROLE regress_track_owner;
SELECT textfp_untrack('guarded'), textfp_untrack('victim');
RESET ROLE;

-- ===== 7. the story summary and its changes changed after registration =====
-- The triggers check them as they check the store (textfp_track_check,
-- 42P07); the story report, which reads them as the owner, wants plain
-- tables of the store's owner without row-level security (42809).
SET ROLE regress_track_owner;
CREATE TABLE summed (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO summed VALUES (1, '2025-01-01', (SELECT body FROM texts WHERE n = 1)), (2, '2025-01-02', (SELECT body FROM texts WHERE n = 2));
CALL textfp_track('summed', 'body', 'id', 'at', method => 'simhash', threshold => 12);
RESET ROLE;
CREATE FUNCTION pg_temp.side_probe(what text) RETURNS TABLE (change text, writes text, story_report text) LANGUAGE plpgsql AS $$
BEGIN
	change := what;
	writes := regexp_replace(pg_temp.failure($q$UPDATE track_owner.summed SET at = at + interval '1 second' WHERE id = 1$q$, true),
		'^(\w+): relation (\S+) is .*(it is|its|it) (.*)\.$', '\1: \2: \3 \4');
	story_report := pg_temp.failure($q$SELECT count(*) FROM textfp_story_report('track_owner.summed')$q$)
		|| ' / ' || pg_temp.failure($q$SELECT count(*) FROM textfp_reprints('track_owner.summed')$q$);
	RETURN NEXT;
END
$$;
SELECT * FROM pg_temp.side_probe('none');
CREATE TRIGGER spy AFTER INSERT ON summed_textfp_changes FOR EACH ROW EXECUTE FUNCTION track_owner.noop();
SELECT * FROM pg_temp.side_probe('changes trigger');
DROP TRIGGER spy ON summed_textfp_changes;
CREATE RULE spy AS ON INSERT TO summed_textfp_changes DO ALSO NOTIFY spy;
SELECT * FROM pg_temp.side_probe('changes rule');
DROP RULE spy ON summed_textfp_changes;
ALTER TABLE summed_textfp_stories ENABLE ROW LEVEL SECURITY;
SELECT * FROM pg_temp.side_probe('summary row-level security');
ALTER TABLE summed_textfp_stories DISABLE ROW LEVEL SECURITY;
ALTER TABLE summed_textfp_changes OWNER TO regress_track_intruder;
SELECT * FROM pg_temp.side_probe('changes owner');
ALTER TABLE summed_textfp_changes OWNER TO regress_track_owner;
ALTER TABLE summed_textfp_changes ALTER COLUMN story TYPE numeric;
SELECT * FROM pg_temp.side_probe('changes column type');
ALTER TABLE summed_textfp_changes ALTER COLUMN story TYPE bigint;
CREATE TRIGGER spy AFTER INSERT ON summed_textfp_reprint_changes FOR EACH ROW EXECUTE FUNCTION track_owner.noop();
SELECT * FROM pg_temp.side_probe('reprint changes trigger');
DROP TRIGGER spy ON summed_textfp_reprint_changes;
ALTER TABLE summed_textfp_reprints ENABLE ROW LEVEL SECURITY;
SELECT * FROM pg_temp.side_probe('reprint summary row-level security');
ALTER TABLE summed_textfp_reprints DISABLE ROW LEVEL SECURITY;
ALTER TABLE summed_textfp_reprints OWNER TO regress_track_intruder;
SELECT * FROM pg_temp.side_probe('reprint summary owner');
ALTER TABLE summed_textfp_reprints OWNER TO regress_track_owner;
ALTER TABLE summed_textfp_reprint_changes ADD COLUMN extra int;
SELECT * FROM pg_temp.side_probe('reprint changes column');
ALTER TABLE summed_textfp_reprint_changes DROP COLUMN extra;
ALTER TABLE summed_textfp_stories RENAME TO summed_textfp_old;
CREATE VIEW summed_textfp_stories AS SELECT * FROM summed_textfp_old;
SELECT * FROM pg_temp.side_probe('summary a view');
DROP VIEW summed_textfp_stories;
ALTER TABLE summed_textfp_old RENAME TO summed_textfp_stories;
SELECT * FROM pg_temp.side_probe('none');

-- ===== 8. textfp_untrack drops only the owner's summary =====
-- The summary and its changes are found by name beside the store, whose
-- name the owner chooses (the trigger textfp_track names the store): with
-- its store renamed to ledger, a superuser's textfp_untrack dropped the
-- intruder's table ledger_stories.  textfp_untrack refuses a table there
-- that is not the owner's now (42P07), and one already gone is no error.
SET ROLE regress_track_intruder;
CREATE TABLE track_owner.ledger_stories (entry text);
INSERT INTO track_owner.ledger_stories VALUES ('kept');
RESET ROLE;
SET ROLE regress_track_owner;
ALTER TABLE summed_textfp RENAME TO ledger;
DROP TRIGGER textfp_track ON summed;
CREATE TRIGGER textfp_track AFTER INSERT OR UPDATE OR DELETE ON summed FOR EACH ROW
	EXECUTE FUNCTION textfp_track_trigger('track_owner.summed_textfp_config', 'track_owner.ledger');
RESET ROLE;
SELECT store FROM textfp_registration('track_owner.summed');
SELECT pg_temp.failure($$SELECT textfp_untrack('track_owner.summed')$$, true);
SELECT entry FROM track_owner.ledger_stories;
SET ROLE regress_track_owner;
ALTER TABLE ledger RENAME TO summed_textfp;
DROP TRIGGER textfp_track ON summed;
CREATE TRIGGER textfp_track AFTER INSERT OR UPDATE OR DELETE ON summed FOR EACH ROW
	EXECUTE FUNCTION textfp_track_trigger('track_owner.summed_textfp_config', 'track_owner.summed_textfp');
DROP TABLE summed_textfp_stories;
SELECT textfp_untrack('summed');
SELECT count(*) AS tables_left FROM pg_class WHERE relname LIKE 'summed\_textfp%' AND relnamespace = 'track_owner'::regnamespace;
RESET ROLE;

RESET search_path;
DROP SCHEMA track_owner CASCADE;
DROP ROLE regress_track_owner;
DROP ROLE regress_track_intruder;
DROP ROLE regress_track_scribe;
