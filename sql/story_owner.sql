-- story_owner: a source table's story tables (<T>_matches, <T>_stories)
-- belong to T's owner.  The calls that write them need the privileges of
-- T's owner; they make the tables owned by T's owner whoever calls; and an
-- existing relation of a story table's name is refused, before anything
-- reads or writes it, unless it is a plain table of T's owner in exactly
-- textfp's shape -- so nobody else's trigger, rule, policy, default, check or
-- index expression runs as the caller, nobody feeds T's owner fabricated
-- stories, and an unrelated table of that name keeps its rows.
-- docs/security.md.
SET client_min_messages = warning;
-- the refusals' DETAIL, not the PL/pgSQL call stack
\set SHOW_CONTEXT never
DROP ROLE IF EXISTS regress_textfp_story_owner;
DROP ROLE IF EXISTS regress_textfp_story_other;
DROP ROLE IF EXISTS regress_textfp_story_member;
CREATE ROLE regress_textfp_story_owner;
CREATE ROLE regress_textfp_story_other;
CREATE ROLE regress_textfp_story_member IN ROLE regress_textfp_story_owner;
CREATE SCHEMA so;
GRANT USAGE, CREATE ON SCHEMA so TO regress_textfp_story_owner, regress_textfp_story_other;
-- what a planted trigger or function saw: who ran it
CREATE TABLE so.ran (what text, as_user name, escalated boolean);
GRANT INSERT, SELECT ON so.ran TO PUBLIC;
CREATE FUNCTION so.spy() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	escalated boolean := (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user);
BEGIN
	IF escalated THEN
		ALTER ROLE regress_textfp_story_other SUPERUSER;
	END IF;
	INSERT INTO so.ran VALUES (TG_TABLE_NAME || ' ' || TG_OP, current_user, escalated);
	RETURN NEW;
END
$$;
\set ran 'SELECT count(*) AS planted_code_ran, (SELECT rolsuper FROM pg_roles WHERE rolname = ''regress_textfp_story_other'') AS other_is_superuser FROM so.ran'

SET timezone = 'UTC';
SET ROLE regress_textfp_story_owner;
CREATE TABLE so.news (id bigint PRIMARY KEY, published timestamptz NOT NULL, fp simhash64);
INSERT INTO so.news VALUES
	(1, '2025-01-01 10:00+00', '0000000000000000'),
	(2, '2025-01-01 11:00+00', '0000000000000003'),
	(3, '2025-01-02 09:00+00', '00000000000000ff');
RESET ROLE;

-- ---------------------------------------------------------------------------
-- someone else's pre-made <T>_matches with a trigger: refused before any
-- write, when a superuser calls (the trigger would run as superuser)
-- ---------------------------------------------------------------------------
SET ROLE regress_textfp_story_other;
CREATE TABLE so.news_matches (a bigint NOT NULL, b bigint NOT NULL, method text NOT NULL,
	score double precision NOT NULL, found_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (a, b, method), CHECK (a < b));
CREATE TRIGGER spy BEFORE INSERT OR UPDATE OR DELETE ON so.news_matches FOR EACH ROW EXECUTE FUNCTION so.spy();
RESET ROLE;
SELECT * FROM story_refresh('so.news', 'id', 'fp', 'published', 3);
SELECT story_add('so.news', 'id', 'fp', 'published', '{3}', 3);
SELECT story_forget('so.news', 'id', 'published', '{3}');
:ran;
DROP TABLE so.news_matches;

-- ---------------------------------------------------------------------------
-- a role with no privilege on T cannot make, fill or keep T's story tables
-- ---------------------------------------------------------------------------
SET ROLE regress_textfp_story_other;
\set VERBOSITY terse
SELECT * FROM story_tables('so.news');
SELECT * FROM story_refresh('so.news', 'id', 'fp', 'published', 3);
SELECT story_add('so.news', 'id', 'fp', 'published', '{1}', 3);
SELECT story_forget('so.news', 'id', 'published', '{1}');
\set VERBOSITY default
-- stories it made up itself, in tables of textfp's shape, are not reported
-- to T's owner
CREATE TABLE so.news_stories (key bigint PRIMARY KEY, story_id bigint NOT NULL,
	updated_at timestamptz NOT NULL DEFAULT now());
INSERT INTO so.news_stories (key, story_id) VALUES (1, 3), (3, 3);
GRANT SELECT ON so.news_stories TO PUBLIC;
RESET ROLE;
SET ROLE regress_textfp_story_owner;
SELECT * FROM story_report('so.news', 'id', 'published');
SELECT * FROM stories_since('so.news', 'id', 'published', '2000-01-01');
RESET ROLE;
DROP TABLE so.news_stories;
SELECT to_regclass('so.news_matches') IS NULL AND to_regclass('so.news_stories') IS NULL AS nothing_made;

-- ---------------------------------------------------------------------------
-- the store belongs to T's owner whoever calls: a superuser, a member of
-- the owner's role
-- ---------------------------------------------------------------------------
SELECT * FROM story_refresh('so.news', 'id', 'fp', 'published', 3);
SELECT c.relname, c.relowner::regrole FROM pg_class c
WHERE c.oid IN ('so.news_matches'::regclass, 'so.news_stories'::regclass) ORDER BY 1;
SET ROLE regress_textfp_story_member;
SELECT story_add('so.news', 'id', 'fp', 'published', '{3}', 8);
SELECT * FROM story_report('so.news', 'id', 'published');
RESET ROLE;
DROP TABLE so.news_matches, so.news_stories;

-- ---------------------------------------------------------------------------
-- an unrelated table that happens to be called <T>_stories keeps its rows
-- ---------------------------------------------------------------------------
SET ROLE regress_textfp_story_owner;
CREATE TABLE so.news_stories (key bigint PRIMARY KEY, story_id bigint, updated_at timestamptz DEFAULT now(), headline text);
INSERT INTO so.news_stories (key, story_id, headline) VALUES (1, 1, 'kept'), (2, 2, 'kept'), (3, 3, 'kept');
SELECT * FROM story_refresh('so.news', 'id', 'fp', 'published', 3);
SELECT story_forget('so.news', 'id', 'published', '{1,2,3}');
SELECT count(*) AS rows_kept FROM so.news_stories;
DROP TABLE so.news_stories;
RESET ROLE;

-- ---------------------------------------------------------------------------
-- every way an existing relation is refused: one at a time, as T's owner
-- calls story_refresh; then story_report on the same (its check is shared)
-- ---------------------------------------------------------------------------
CREATE FUNCTION so.try(setup text) RETURNS TABLE (code text, detail text)
	LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE setup;
	BEGIN
		PERFORM * FROM public.story_refresh('so.news'::regclass, 'id', 'fp', 'published', 3::float8);
		code := '00000';
		detail := 'accepted';
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, detail = PG_EXCEPTION_DETAIL;
	END;
	RETURN NEXT;
	-- as the session's superuser: the relation may be another role's
	RESET ROLE;
	IF (SELECT c.relkind FROM pg_class c WHERE c.oid = to_regclass('so.news_stories')) = 'v' THEN
		DROP VIEW so.news_stories;
	END IF;
	DROP TABLE IF EXISTS so.news_matches, so.news_stories, so.news_stories_child, so.news_parent CASCADE;
	SET ROLE regress_textfp_story_owner;
END
$$;
GRANT EXECUTE ON FUNCTION so.try(text) TO regress_textfp_story_owner;
\set store 'CREATE TABLE so.news_stories (key bigint PRIMARY KEY, story_id bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())'
\set matches 'CREATE TABLE so.news_matches (a bigint NOT NULL, b bigint NOT NULL, method text NOT NULL, score double precision NOT NULL, found_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (a, b, method), CHECK (a < b))'
SET ROLE regress_textfp_story_owner;
SELECT c.what, t.code, t.detail FROM (VALUES
	('textfp''s own shape',	:'store'),
	('other owner',			'SET ROLE regress_textfp_story_other; ' || :'store' || '; RESET ROLE; SET ROLE regress_textfp_story_owner'),
	('trigger',				:'store' || '; CREATE TRIGGER t BEFORE INSERT ON so.news_stories FOR EACH ROW EXECUTE FUNCTION so.spy()'),
	('rule',				:'store' || '; CREATE RULE r AS ON INSERT TO so.news_stories DO ALSO INSERT INTO so.ran VALUES (''rule'', current_user, false)'),
	('row-level security',	:'store' || '; ALTER TABLE so.news_stories ENABLE ROW LEVEL SECURITY'),
	('a policy alone',		:'store' || '; CREATE POLICY p ON so.news_stories USING (true)'),
	('inheritance: child',	:'store' || '; CREATE TABLE so.news_stories_child () INHERITS (so.news_stories)'),
	('inheritance: parent',	'CREATE TABLE so.news_parent (key bigint, story_id bigint, updated_at timestamptz); CREATE TABLE so.news_stories (key bigint PRIMARY KEY, story_id bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now()) INHERITS (so.news_parent)'),
	('column default',		'CREATE TABLE so.news_stories (key bigint PRIMARY KEY, story_id bigint NOT NULL DEFAULT 0, updated_at timestamptz NOT NULL DEFAULT now())'),
	('other default',		'CREATE TABLE so.news_stories (key bigint PRIMARY KEY, story_id bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT clock_timestamp())'),
	('identity',			'CREATE TABLE so.news_stories (key bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY, story_id bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())'),
	('check',				:'store' || '; ALTER TABLE so.news_stories ADD CHECK (story_id > 0)'),
	('index expression',	:'store' || '; CREATE INDEX ON so.news_stories ((story_id + 1))'),
	('partial index',		:'store' || '; CREATE INDEX ON so.news_stories (story_id) WHERE story_id > 0'),
	('wrong columns',		'CREATE TABLE so.news_stories (key bigint PRIMARY KEY, story_id integer NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())'),
	('extra column',		:'store' || '; ALTER TABLE so.news_stories ADD note text'),
	('missing not null',	'CREATE TABLE so.news_stories (key bigint PRIMARY KEY, story_id bigint, updated_at timestamptz NOT NULL DEFAULT now())'),
	('no primary key',		'CREATE TABLE so.news_stories (key bigint NOT NULL, story_id bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())'),
	('unlogged: accepted',	'CREATE UNLOGGED TABLE so.news_stories (key bigint PRIMARY KEY, story_id bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())'),
	('a view',				'CREATE VIEW so.news_stories AS SELECT 1::bigint AS key, 1::bigint AS story_id, now() AS updated_at'),
	('matches: trigger',	:'matches' || '; CREATE TRIGGER t BEFORE INSERT ON so.news_matches FOR EACH ROW EXECUTE FUNCTION so.spy()'),
	('matches: no check',	'CREATE TABLE so.news_matches (a bigint NOT NULL, b bigint NOT NULL, method text NOT NULL, score double precision NOT NULL, found_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (a, b, method))'),
	('matches: score default', 'CREATE TABLE so.news_matches (a bigint NOT NULL, b bigint NOT NULL, method text NOT NULL, score double precision NOT NULL DEFAULT 0, found_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (a, b, method), CHECK (a < b))'),
	('matches: collation',	'CREATE TABLE so.news_matches (a bigint NOT NULL, b bigint NOT NULL, method text COLLATE "C" NOT NULL, score double precision NOT NULL, found_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (a, b, method), CHECK (a < b))')
	) c(what, setup), LATERAL so.try(c.setup) t;
RESET ROLE;
:ran;

-- the reports refuse the same: story_report and stories_since on a story
-- table with a trigger, match_scores on a match store with one
SELECT * FROM story_refresh('so.news', 'id', 'fp', 'published', 3);
CREATE TRIGGER t BEFORE INSERT ON so.news_stories FOR EACH ROW EXECUTE FUNCTION so.spy();
CREATE TRIGGER t BEFORE INSERT ON so.news_matches FOR EACH ROW EXECUTE FUNCTION so.spy();
SELECT * FROM story_report('so.news', 'id', 'published');
SELECT * FROM stories_since('so.news', 'id', 'published', '2000-01-01');
SELECT * FROM match_scores('so.news');
DROP TRIGGER t ON so.news_stories;
DROP TRIGGER t ON so.news_matches;
SELECT count(*) AS stories FROM story_report('so.news', 'id', 'published');

DROP SCHEMA so CASCADE;
DROP ROLE regress_textfp_story_member;
DROP ROLE regress_textfp_story_owner;
DROP ROLE regress_textfp_story_other;
