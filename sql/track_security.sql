-- track_security: a tracked table's owner against textfp.  The owner owns
-- the table, its registration (T_textfp_config, which it may UPDATE) and its
-- store, and may change all three after textfp_track(); textfp must neither
-- run the owner's code as another role (a superuser calling the reports,
-- textfp_rebuild() or the procedures' steps) nor crash on what the owner
-- wrote.  Each case says what it did before it was fixed.
SET client_min_messages = warning;
SET timezone = 'UTC';
CREATE ROLE regress_tsec_owner;
CREATE SCHEMA tsec AUTHORIZATION regress_tsec_owner;
SET search_path = tsec, public;

-- SQLSTATE and message of a statement that fails
CREATE FUNCTION pg_temp.failure(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	st text;
	msg text;
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
	RETURN st || ': ' || msg;
END
$$;

-- sets values of tbl's registration, then inserts a row into tbl
CREATE FUNCTION pg_temp.try_value(tbl text, assignment text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('UPDATE tsec.%I SET %s', tbl || '_textfp_config', assignment);
	PERFORM textfp_track_invalidate(format('tsec.%I', tbl || '_textfp_config')::regclass);
	RETURN assignment || ' -> ' || pg_temp.failure(format('INSERT INTO tsec.%I VALUES (1, ''2025-01-01'', %L)',
		tbl, (SELECT body FROM tsec.texts WHERE n = 1)));
END
$$;

-- the owner's spy: records who runs it, and whether that role is a superuser
SET ROLE regress_tsec_owner;
CREATE TABLE tsec.calls (what text, who name, superuser boolean);
GRANT INSERT ON tsec.calls TO PUBLIC;
CREATE FUNCTION tsec.spy(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO tsec.calls SELECT what, current_user, (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = current_user);
	RETURN true;
END
$$;
CREATE TABLE texts (n int PRIMARY KEY, body text);
INSERT INTO texts VALUES
 (1, 'The council approved the new cycling lanes along the river on Monday, and construction will begin in spring.'),
 (2, 'The council approved new cycling lanes along the river on Monday; construction will begin in the spring, officials said.'),
 (3, 'Local bakery wins national prize for its sourdough; the owner thanks customers and staff for years of support.');
RESET ROLE;

-- ===== 1. a site of the owner's own type, with a cast to text of its own =====
-- The reports showed the site as site::text, which ran the owner's cast as
-- their caller: a superuser's textfp_story_report ran it as superuser.  They
-- show it with the type's output function now.
SET ROLE regress_tsec_owner;
CREATE TYPE tsec.outlet AS (name text);
CREATE FUNCTION tsec.outlet_text(o tsec.outlet) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM tsec.spy('outlet cast');
	RETURN o.name;
END
$$;
CREATE CAST (tsec.outlet AS text) WITH FUNCTION tsec.outlet_text(tsec.outlet);
CREATE TABLE sites (id bigint PRIMARY KEY, site tsec.outlet, at timestamptz NOT NULL, body text);
INSERT INTO sites VALUES (1, ROW('ledger'), '2025-01-01', (SELECT body FROM texts WHERE n = 1)),
	(2, ROW('herald'), '2025-01-02', (SELECT body FROM texts WHERE n = 2)),
	(3, NULL, '2025-01-03', (SELECT body FROM texts WHERE n = 3));
CALL textfp_track('sites', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12, excerpts => true);
RESET ROLE;
SELECT story_id, size, sites, original_site FROM textfp_story_report('tsec.sites', min_size => 1) ORDER BY story_id;
SELECT story_id, original_site FROM textfp_new_stories('tsec.sites', '2025-01-01') ORDER BY story_id;
SELECT source_site, reprint_site, reprints FROM textfp_reprints('tsec.sites');
SELECT key, site, source FROM textfp_story_timeline('tsec.sites', '1') ORDER BY key;
INSERT INTO sites VALUES (4, ROW('wire'), '2025-01-04', (SELECT body FROM texts WHERE n = 1) || ' Residents were asked for their views at a meeting in the town hall.');
SELECT other_key, site, direction FROM textfp_excerpts('tsec.sites', '1') ORDER BY other_key, direction;
SELECT count(*) AS casts_run FROM tsec.calls;

-- ===== 2. a key or time column changed to a domain after textfp_track =====
-- textfp_track takes keys of a type with a default btree order of its own
-- and times of timestamptz, timestamp or date; the owner may ALTER the
-- columns (of the table and the store alike) afterwards.  A domain's CHECK
-- ran as the caller where textfp casts a key ($1::key type: the timeline,
-- textfp_rebuild's batches): as a superuser.  textfp_track_check (triggers,
-- procedures) and textfp_registration (reports) refuse such types now.
SET ROLE regress_tsec_owner;
CREATE DOMAIN tsec.watched AS bigint CHECK (tsec.spy('domain check'));
CREATE DOMAIN tsec.watched_time AS timestamptz CHECK (tsec.spy('domain check'));
CREATE TABLE keyed (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO keyed VALUES (1, '2025-01-01', (SELECT body FROM texts WHERE n = 1)), (2, '2025-01-02', (SELECT body FROM texts WHERE n = 2));
CALL textfp_track('keyed', 'body', 'id', 'at', method => 'simhash', threshold => 12);
ALTER TABLE keyed ALTER COLUMN id TYPE tsec.watched;
ALTER TABLE keyed_textfp ALTER COLUMN key TYPE tsec.watched, ALTER COLUMN source TYPE tsec.watched,
	ALTER COLUMN story TYPE tsec.watched;
TRUNCATE tsec.calls;
RESET ROLE;
SELECT pg_temp.failure($$SELECT * FROM textfp_story_timeline('tsec.keyed', '1')$$);
SELECT pg_temp.failure($$CALL textfp_rebuild('tsec.keyed')$$);
SELECT who, superuser FROM tsec.calls WHERE superuser GROUP BY 1, 2;
SET ROLE regress_tsec_owner;
SELECT pg_temp.failure($$INSERT INTO tsec.keyed VALUES (3, '2025-01-03', 'x')$$);
ALTER TABLE keyed_textfp ALTER COLUMN key TYPE bigint, ALTER COLUMN source TYPE bigint, ALTER COLUMN story TYPE bigint;
ALTER TABLE keyed ALTER COLUMN id TYPE bigint;
ALTER TABLE keyed ALTER COLUMN at TYPE tsec.watched_time;
ALTER TABLE keyed_textfp ALTER COLUMN at TYPE tsec.watched_time;
RESET ROLE;
SELECT pg_temp.failure($$SELECT * FROM textfp_stories('tsec.keyed')$$);
SELECT pg_temp.failure($$CALL textfp_rebuild('tsec.keyed')$$);
SELECT who, superuser FROM tsec.calls WHERE superuser GROUP BY 1, 2;
SET ROLE regress_tsec_owner;
ALTER TABLE keyed ALTER COLUMN at TYPE timestamptz;
ALTER TABLE keyed_textfp ALTER COLUMN at TYPE timestamptz;
RESET ROLE;
SELECT count(*) AS rows FROM textfp_stories('tsec.keyed');

-- ===== 3. the text column changed to another type =====
-- The triggers pass the text column to the fingerprint as text: a bigint
-- there crashed the server (SIGSEGV).  It is refused now (42804).
SET ROLE regress_tsec_owner;
ALTER TABLE keyed ALTER COLUMN body TYPE bigint USING length(body);
SELECT pg_temp.failure($$INSERT INTO tsec.keyed VALUES (4, '2025-01-04', 12345)$$);
ALTER TABLE keyed ALTER COLUMN body TYPE text;
INSERT INTO keyed VALUES (4, '2025-01-04', 'a text of its own');
SELECT count(*) AS rows FROM keyed_textfp;
RESET ROLE;

-- ===== 4. values of the registration textfp_track would not write =====
-- The owner may UPDATE its registration; the triggers sized lock keys and
-- queries by its values: a Hamming threshold of 5000 (an array of 32 blocks)
-- or 100000 LSH bands of 0 values (an array of 1025 keys) wrote past the end
-- of an array on the stack (SIGSEGV).  Each is refused now (22023).
SET ROLE regress_tsec_owner;
CREATE TABLE tuned (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
CALL textfp_track('tuned', 'body', 'id', 'at', method => 'simhash', threshold => 3);
CREATE TABLE tuned_mh (id bigint PRIMARY KEY, at timestamptz NOT NULL, body text);
CALL textfp_track('tuned_mh', 'body', 'id', 'at');
SELECT pg_temp.try_value('tuned', 'threshold = 5000');
SELECT pg_temp.try_value('tuned', 'threshold = 40');
SELECT pg_temp.try_value('tuned', 'threshold = 2.5');
SELECT pg_temp.try_value('tuned', 'threshold = ''NaN''');
SELECT pg_temp.try_value('tuned', 'threshold = 3, cohesion = 65');
SELECT pg_temp.try_value('tuned', 'cohesion = 3, lsh_bands = 4');
SELECT pg_temp.try_value('tuned', 'lsh_bands = NULL, method = ''bogus''');
SELECT pg_temp.try_value('tuned', 'method = ''simhash'', state = ''bogus''');
SELECT pg_temp.try_value('tuned', 'state = ''ready'', dedup = ''bogus''');
SELECT pg_temp.try_value('tuned', 'dedup = ''off'', dedup_scope = ''site''');
-- locks: blocks or pairs for simhash, NULL for minhash; pairs at threshold
-- 31 would ask for 33 blocks of 64 bits
SELECT pg_temp.try_value('tuned', 'dedup_scope = ''all'', locks = ''triples''');
SELECT pg_temp.try_value('tuned', 'locks = NULL');
SELECT pg_temp.try_value('tuned', 'locks = ''pairs'', threshold = 31');
SELECT pg_temp.try_value('tuned_mh', 'lsh_bands = 100000, lsh_rows = 0, lsh_min_bands = 0');
SELECT pg_temp.try_value('tuned_mh', 'lsh_bands = 44, lsh_rows = 1, lsh_min_bands = 45');
SELECT pg_temp.try_value('tuned_mh', 'lsh_min_bands = 10, threshold = 0');
SELECT pg_temp.try_value('tuned_mh', 'threshold = 0.3, locks = ''blocks''');
SELECT pg_temp.try_value('tuned_mh', 'threshold = 0.3, locks = NULL');
SELECT count(*) AS rows FROM tuned_mh_textfp;
RESET ROLE;

-- ===== 5. the procedures' writes run as the owner =====
-- textfp_track_progress updated the registration as its caller, with no
-- check: a trigger the owner put on it between two batches of a superuser's
-- textfp_rebuild() ran as the superuser (the owner can wait for that batch
-- by holding a lock on its registration).  It writes as the owner now, and
-- so do textfp_track_fill and the reads of the procedures' other steps.
SET ROLE regress_tsec_owner;
CREATE FUNCTION tsec.spy_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM tsec.spy('registration trigger');
	RETURN NEW;
END
$$;
CREATE TRIGGER spy BEFORE UPDATE ON keyed_textfp_config FOR EACH ROW EXECUTE FUNCTION tsec.spy_trigger();
TRUNCATE tsec.calls;
RESET ROLE;
SELECT textfp_track_progress('tsec.keyed_textfp_config', NULL, 'links', 0, 0);
SELECT what, who, superuser FROM tsec.calls;
SET ROLE regress_tsec_owner;
DROP TRIGGER spy ON keyed_textfp_config;
RESET ROLE;

-- ===== 6. a statement-level trigger of textfp_track_trigger =====
-- It raised an internal error (XX000); it is a trigger protocol violation.
SET ROLE regress_tsec_owner;
CREATE TRIGGER odd AFTER INSERT ON keyed FOR EACH STATEMENT
	EXECUTE FUNCTION textfp_track_trigger('tsec.keyed_textfp_config', 'tsec.keyed_textfp');
SELECT pg_temp.failure($$INSERT INTO tsec.keyed VALUES (5, '2025-01-05', 'x')$$);
DROP TRIGGER odd ON keyed;
RESET ROLE;

-- ===== 7. the executors run only what they must =====
-- textfp_track_exec runs any statement as a relation's owner, for a caller
-- with the owner's privileges only; textfp_track_report runs only the
-- reports' fixed queries, for a caller with SELECT on the relation.
CREATE ROLE regress_tsec_reader;
SET ROLE regress_tsec_owner;
GRANT USAGE ON SCHEMA tsec TO regress_tsec_reader;
GRANT SELECT ON keyed_textfp TO regress_tsec_reader;
RESET ROLE;
SET ROLE regress_tsec_reader;
SELECT count(*) AS rows FROM textfp_stories('tsec.keyed');
SELECT pg_temp.failure($$SELECT * FROM textfp_track_exec('tsec.keyed_textfp', 'SELECT 1', '{}') AS q(x integer)$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_report('tsec.keyed_textfp', 'bogus', '{}') AS q(x integer)$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_report('tsec.keyed_textfp_config', 'registration', '{}') AS q(x integer)$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_report('tsec.keyed_textfp', 'stories', '{}') AS q(x integer)$$);
RESET ROLE;
-- nor a table whose policies hide rows from the caller (read as the owner,
-- they would not), nor a view
SET ROLE regress_tsec_owner;
CREATE TABLE secrets (key text, story text, owner_only boolean);
INSERT INTO secrets VALUES ('public', 'p', false), ('hidden', 'h', true);
ALTER TABLE secrets ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON secrets USING (NOT owner_only);
GRANT SELECT ON secrets TO regress_tsec_reader;
CREATE VIEW secrets_view WITH (security_invoker = true) AS SELECT key, story FROM secrets;
GRANT SELECT ON secrets_view TO regress_tsec_reader;
RESET ROLE;
SET ROLE regress_tsec_reader;
SELECT key FROM tsec.secrets;
SELECT pg_temp.failure($$SELECT * FROM textfp_track_report('tsec.secrets', 'stories', '{}') AS q(k text, s text)$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_report('tsec.secrets_view', 'stories', '{}') AS q(k text, s text)$$);
RESET ROLE;

-- ===== 8. pg_catalog's functions and operators by name, in the caller's search_path =====
-- The story summary's folds named count(), max(), < and >= unqualified: a
-- whole fold (textfp_track, textfp_rebuild) ran under its caller's
-- search_path, and a writer's fold every 256 rows ran a plan the plan cache
-- parsed again under the writer's (it re-parses when search_path changes).
-- A decoy of exactly their argument types in a schema of the writer's (or a
-- co-tenant's, before pg_catalog or not: count(text) beats count("any"))
-- ran as the table's owner.  Every statement textfp runs on the owner's
-- tables runs under search_path = pg_catalog, pg_temp now.
CREATE ROLE regress_tsec_writer;
CREATE SCHEMA tsec_dec AUTHORIZATION regress_tsec_writer;
SET ROLE regress_tsec_owner;
GRANT USAGE ON SCHEMA tsec TO regress_tsec_writer;
CREATE TABLE wired (id bigint PRIMARY KEY, at timestamptz NOT NULL, site text, body text);
INSERT INTO wired SELECT i, '2025-01-01'::timestamptz + i * interval '1 minute', 'site' || i % 3, b.body
FROM generate_series(1, 6) i, texts b WHERE b.n = 1 + i % 3;
CALL textfp_track('wired', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
GRANT INSERT, UPDATE, DELETE, SELECT ON wired TO regress_tsec_writer;
GRANT SELECT ON texts TO regress_tsec_writer;
RESET ROLE;
SET ROLE regress_tsec_writer;
GRANT USAGE ON SCHEMA tsec_dec TO PUBLIC;
CREATE FUNCTION tsec_dec.hit(what text) RETURNS void LANGUAGE sql AS $$
	INSERT INTO tsec.calls SELECT what, current_user, (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = current_user)
$$;
CREATE FUNCTION tsec_dec.count_step(bigint, text) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN PERFORM tsec_dec.hit('count(text)'); RETURN $1 OPERATOR(pg_catalog.+) 1; END $$;
CREATE AGGREGATE tsec_dec.count(text) (sfunc = tsec_dec.count_step, stype = bigint, initcond = '0');
CREATE FUNCTION tsec_dec.max_step(timestamptz, timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN PERFORM tsec_dec.hit('max(timestamptz)'); RETURN CASE WHEN $1 IS NULL OR $2 OPERATOR(pg_catalog.>) $1 THEN $2 ELSE $1 END; END $$;
CREATE AGGREGATE tsec_dec.max(timestamptz) (sfunc = tsec_dec.max_step, stype = timestamptz);
CREATE FUNCTION tsec_dec.lt(bigint, integer) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM tsec_dec.hit('<(bigint, integer)'); RETURN $1 OPERATOR(pg_catalog.<) $2; END $$;
CREATE OPERATOR tsec_dec.< (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = tsec_dec.lt);
CREATE FUNCTION tsec_dec.ge(bigint, integer) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM tsec_dec.hit('>=(bigint, integer)'); RETURN $1 OPERATOR(pg_catalog.>=) $2; END $$;
CREATE OPERATOR tsec_dec.>= (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = tsec_dec.ge);
RESET ROLE;
TRUNCATE tsec.calls;
SET ROLE regress_tsec_writer;
-- a writer's rows, enough for its folds
SET search_path = tsec_dec, pg_catalog;
INSERT INTO tsec.wired SELECT i, '2025-01-02'::timestamptz OPERATOR(pg_catalog.+) (i OPERATOR(pg_catalog.*) interval '1 minute'),
	'site' OPERATOR(pg_catalog.||) (i OPERATOR(pg_catalog.%) 5), b.body
FROM pg_catalog.generate_series(100, 399) i, tsec.texts b WHERE b.n OPERATOR(pg_catalog.=) (1 OPERATOR(pg_catalog.+) (i OPERATOR(pg_catalog.%) 3));
UPDATE tsec.wired SET site = 'moved' WHERE id OPERATOR(pg_catalog.<=) 300::bigint;
DELETE FROM tsec.wired WHERE id OPERATOR(pg_catalog.>) 300::bigint;
RESET search_path;
RESET ROLE;
SELECT what, who, superuser FROM tsec.calls GROUP BY 1, 2, 3 ORDER BY 1;
TRUNCATE tsec.calls;
-- a superuser's rebuild and report with the writer's schema in its path
SET search_path = tsec_dec, pg_catalog;
CALL public.textfp_rebuild('tsec.wired'::pg_catalog.regclass);
SELECT pg_catalog.count(*) AS stories, pg_catalog.sum(size) AS rows
FROM public.textfp_story_report('tsec.wired'::pg_catalog.regclass, NULL::pg_catalog.timestamptz, 2);
SET search_path = tsec, public;
SELECT what, who, superuser FROM tsec.calls GROUP BY 1, 2, 3 ORDER BY 1;

-- A site of a domain over a type whose equality is outside pg_catalog
-- (simhash64's, in textfp's schema): the reprint summary's statements named
-- that equality OPERATOR(public.=), which PostgreSQL resolves against the
-- operands' types, and an operator of exactly the domain's types that a
-- co-tenant planted in textfp's schema ran as the table's owner (in the
-- writers' folds, textfp_rebuild() and the reprints report).  A domain's
-- operands are cast to its base type now, which only the real = matches.
GRANT CREATE ON SCHEMA public TO regress_tsec_writer;
SET ROLE regress_tsec_owner;
CREATE DOMAIN fp_site AS public.simhash64;
RESET ROLE;
SET ROLE regress_tsec_writer;
CREATE FUNCTION tsec_dec.site_eq(tsec.fp_site, tsec.fp_site) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM tsec_dec.hit('=(fp_site, fp_site)'); RETURN $1::public.simhash64 OPERATOR(public.=) $2::public.simhash64; END $$;
CREATE OPERATOR public.= (LEFTARG = tsec.fp_site, RIGHTARG = tsec.fp_site, FUNCTION = tsec_dec.site_eq);
-- and the orders: the reports' max_rows branches sort and limit by site
CREATE FUNCTION tsec_dec.site_lt(tsec.fp_site, tsec.fp_site) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM tsec_dec.hit('<(fp_site, fp_site)'); RETURN $1::public.simhash64 OPERATOR(public.<) $2::public.simhash64; END $$;
CREATE OPERATOR public.< (LEFTARG = tsec.fp_site, RIGHTARG = tsec.fp_site, FUNCTION = tsec_dec.site_lt);
CREATE FUNCTION tsec_dec.site_gt(tsec.fp_site, tsec.fp_site) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM tsec_dec.hit('>(fp_site, fp_site)'); RETURN $1::public.simhash64 OPERATOR(public.>) $2::public.simhash64; END $$;
CREATE OPERATOR public.> (LEFTARG = tsec.fp_site, RIGHTARG = tsec.fp_site, FUNCTION = tsec_dec.site_gt);
RESET ROLE;
SET ROLE regress_tsec_owner;
CREATE TABLE fp_sited (id bigint PRIMARY KEY, at timestamptz NOT NULL, site fp_site, body text);
INSERT INTO fp_sited SELECT i, '2025-01-01'::timestamptz + i * interval '1 minute', simhash64_from_bigint(i % 3), b.body
FROM generate_series(1, 6) i, texts b WHERE b.n = 1 + i % 3;
CALL textfp_track('fp_sited', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
GRANT INSERT, UPDATE, DELETE, SELECT ON fp_sited TO regress_tsec_writer;
RESET ROLE;
TRUNCATE tsec.calls;
SET ROLE regress_tsec_writer;
INSERT INTO tsec.fp_sited SELECT i, '2025-01-02'::timestamptz + i * interval '1 minute', public.simhash64_from_bigint(i % 5), b.body
FROM generate_series(100, 399) i, tsec.texts b WHERE b.n = 1 + i % 3;
UPDATE tsec.fp_sited SET site = public.simhash64_from_bigint(7) WHERE id <= 300;
RESET ROLE;
CALL textfp_rebuild('tsec.fp_sited');
-- the summary's answer is the store's links counted
SELECT (SELECT count(*) FROM (
		(SELECT * FROM textfp_reprints('tsec.fp_sited', same_site => true) EXCEPT ALL
		 SELECT * FROM textfp_reprints('tsec.fp_sited', '-infinity', true))
		UNION ALL
		(SELECT * FROM textfp_reprints('tsec.fp_sited', '-infinity', true) EXCEPT ALL
		 SELECT * FROM textfp_reprints('tsec.fp_sited', same_site => true))) d) AS reprints_differ,
	(SELECT count(*) > 1 FROM textfp_reprints('tsec.fp_sited', same_site => true)) AS pairs;
-- the first rows, with changes not folded yet (both branches of each report)
SET ROLE regress_tsec_writer;
UPDATE tsec.fp_sited SET site = public.simhash64_from_bigint(8) WHERE id BETWEEN 200 AND 210;
RESET ROLE;
SELECT (SELECT count(*) FROM textfp_reprints('tsec.fp_sited', same_site => true, max_rows => 3)) AS first_pairs,
	(SELECT count(*) FROM textfp_reprints('tsec.fp_sited', max_rows => 3)) AS first_pairs_apart,
	(SELECT count(*) FROM textfp_story_report('tsec.fp_sited', max_rows => 2)) AS first_stories,
	(SELECT count(*) FROM textfp_new_stories('tsec.fp_sited', '-infinity', max_rows => 2)) AS first_new;
SELECT what, who, superuser FROM tsec.calls GROUP BY 1, 2, 3 ORDER BY 1;
DROP OPERATOR public.< (tsec.fp_site, tsec.fp_site);
DROP OPERATOR public.> (tsec.fp_site, tsec.fp_site);
DROP OPERATOR public.= (tsec.fp_site, tsec.fp_site);
REVOKE CREATE ON SCHEMA public FROM regress_tsec_writer;

-- A site of a composite type whose fields are NULL: ROW(NULL) IS NULL is
-- true though the value is not NULL (GROUP BY, the unique index and the
-- type's = see one value), so a changed pair's recount matched its links in
-- two branches and counted them twice, and the reports showed such a site,
-- or one with a NULL field, as NULL.  The NULL tests test the value now.
SET ROLE regress_tsec_owner;
CREATE TABLE outlets (id bigint PRIMARY KEY, site tsec.outlet, at timestamptz NOT NULL, body text);
INSERT INTO outlets SELECT i, CASE i % 3 WHEN 0 THEN NULL WHEN 1 THEN ROW(NULL)::tsec.outlet ELSE ROW('ledger')::tsec.outlet END,
	'2025-01-01'::timestamptz + i * interval '1 day', (SELECT body FROM texts WHERE n = 1 + i % 2)
FROM generate_series(1, 6) i;
CALL textfp_track('outlets', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
INSERT INTO outlets SELECT i, CASE i % 3 WHEN 0 THEN NULL WHEN 1 THEN ROW(NULL)::tsec.outlet ELSE ROW('ledger')::tsec.outlet END,
	'2025-01-01'::timestamptz + i * interval '1 day', (SELECT body FROM texts WHERE n = 1 + i % 2)
FROM generate_series(7, 12) i;
RESET ROLE;
CREATE FUNCTION pg_temp.reprints_differ(tbl regclass) RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*) FROM (
		(SELECT * FROM textfp_reprints(tbl, same_site => true) EXCEPT ALL SELECT * FROM textfp_reprints(tbl, '-infinity', true))
		UNION ALL
		(SELECT * FROM textfp_reprints(tbl, '-infinity', true) EXCEPT ALL SELECT * FROM textfp_reprints(tbl, same_site => true))) d
$$;
SELECT pg_temp.reprints_differ('tsec.outlets') AS changed_pairs_differ;
SELECT textfp_track_fold('tsec.outlets_textfp_config', false) > 0 AS folded;
SELECT pg_temp.reprints_differ('tsec.outlets') AS summary_differs;
SELECT source_site, reprint_site, reprints FROM textfp_reprints('tsec.outlets', same_site => true)
ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;

-- A site of a domain over the owner's enum, or over an array: the site
-- pairs' statements wrote OPERATOR(pg_catalog.=) between two values of the
-- domain, which matches no operator of a polymorphic type (anyenum,
-- anyarray), and textfp_track failed (42883).  A domain is compared as its
-- base type now.
SET ROLE regress_tsec_owner;
CREATE TYPE tsec.tone AS ENUM ('calm', 'loud');
CREATE DOMAIN tsec.tone_site AS tsec.tone;
CREATE DOMAIN tsec.tag_site AS text[];
CREATE TABLE toned (id bigint PRIMARY KEY, at timestamptz NOT NULL, site tsec.tone_site, body text);
CREATE TABLE tagged (id bigint PRIMARY KEY, at timestamptz NOT NULL, site tsec.tag_site, body text);
INSERT INTO toned SELECT i, '2025-01-01'::timestamptz + i * interval '1 day', (ARRAY['calm', 'loud', NULL])[1 + i % 3]::tsec.tone,
	(SELECT body FROM texts WHERE n = 1 + i % 2)
FROM generate_series(1, 6) i;
INSERT INTO tagged SELECT i, '2025-01-01'::timestamptz + i * interval '1 day', CASE i % 3 WHEN 0 THEN '{a}'::text[] WHEN 1 THEN '{b,c}' END,
	(SELECT body FROM texts WHERE n = 1 + i % 2)
FROM generate_series(1, 6) i;
CALL textfp_track('toned', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
CALL textfp_track('tagged', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
INSERT INTO toned SELECT i, '2025-01-01'::timestamptz + i * interval '1 day', (ARRAY['calm', 'loud', NULL])[1 + i % 3]::tsec.tone,
	(SELECT body FROM texts WHERE n = 1 + i % 2)
FROM generate_series(7, 9) i;
UPDATE toned SET site = 'loud' WHERE id = 1;
UPDATE tagged SET site = '{d}' WHERE id = 1;
RESET ROLE;
SELECT pg_temp.reprints_differ('tsec.toned') AS toned_differ, pg_temp.reprints_differ('tsec.tagged') AS tagged_differ;
SELECT source_site, reprint_site, reprints FROM textfp_reprints('tsec.toned', same_site => true)
ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;

-- Times without a time zone: a link's delay was the difference of its
-- times cast to timestamptz, in the TimeZone of the session that folded
-- (2 hours in UTC, 1 in New York across the change to summer time), and the
-- summary kept the folder's answer.  A delay is the difference of the times
-- themselves now, whoever folds or reads.
SET ROLE regress_tsec_owner;
CREATE TABLE local_times (id bigint PRIMARY KEY, at timestamp NOT NULL, site text, body text);
INSERT INTO local_times VALUES (1, '2025-03-09 01:30', 'ledger', (SELECT body FROM texts WHERE n = 1)),
	(2, '2025-03-09 03:30', 'herald', (SELECT body FROM texts WHERE n = 2));
SET timezone = 'UTC';
CALL textfp_track('local_times', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
RESET ROLE;
SET timezone = 'America/New_York';
SELECT * FROM textfp_reprints('tsec.local_times');
SELECT * FROM textfp_reprints('tsec.local_times', '-infinity');
SET timezone = 'UTC';

-- A writer's site change of a row with many copies: each copy's link keeps
-- the row's site, and the change appended two change rows per copy (80 for
-- 40 copies), which no fold takes at REPEATABLE READ.  Each pair once now.
SET ROLE regress_tsec_owner;
CREATE TABLE copied (id bigint PRIMARY KEY, at timestamptz NOT NULL, site text, body text);
INSERT INTO copied SELECT i, '2025-01-01'::timestamptz + i * interval '1 hour', CASE WHEN i = 1 THEN 'origin' ELSE 'copier' END,
	(SELECT body FROM texts WHERE n = 1)
FROM generate_series(1, 41) i;
CALL textfp_track('copied', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
GRANT UPDATE, SELECT ON copied TO regress_tsec_writer;
RESET ROLE;
SELECT count(*) AS copies_of_1 FROM copied_textfp WHERE source = 1;
SET ROLE regress_tsec_writer;
BEGIN ISOLATION LEVEL REPEATABLE READ;
UPDATE tsec.copied SET site = 'moved' WHERE id = 1;
COMMIT;
RESET ROLE;
SELECT count(*) AS change_rows FROM copied_textfp_reprint_changes;
SELECT pg_temp.reprints_differ('tsec.copied') AS reprints_differ;

-- ===== 9. a writer's key or site too wide for the store's index rows =====
-- A link's row in the store's pair index holds its source's key and site,
-- its own site and its story's key (1.1's covering index).  An INSERT-only
-- writer's row with a key of 1,408 bytes that do not compress made every
-- near copy another role inserted fail (54000: index row past btree's 2704
-- bytes), as long as that row stayed.  A key or site wider than 640 bytes as
-- indexed (four of them fill a row) is refused now (54000), at the insert or
-- update that brings it, and only that; a long value that compresses below
-- the bound is taken, and copies link to it.
SET ROLE regress_tsec_owner;
CREATE TABLE wide (id text PRIMARY KEY, at timestamptz NOT NULL, site text, body text);
CALL textfp_track('wide', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
GRANT INSERT, UPDATE, SELECT ON wide TO regress_tsec_writer;
RESET ROLE;
SET ROLE regress_tsec_writer;
SELECT pg_temp.failure(format('INSERT INTO tsec.wide VALUES (%L, %L, %L, %L)',
	(SELECT string_agg(md5(i::text), '') FROM generate_series(1, 44) i), '2025-01-01', 'ledger',
	(SELECT body FROM tsec.texts WHERE n = 1))) AS wide_key;
SELECT pg_temp.failure(format('INSERT INTO tsec.wide VALUES (%L, %L, %L, %L)', 'w2', '2025-01-02',
	(SELECT string_agg(md5(i::text), '') FROM generate_series(1, 22) i), (SELECT body FROM tsec.texts WHERE n = 1))) AS wide_site;
INSERT INTO tsec.wide VALUES ('w3', '2025-01-03', 'ledger', (SELECT body FROM tsec.texts WHERE n = 1));
SELECT pg_temp.failure(format('UPDATE tsec.wide SET site = %L WHERE id = %L',
	(SELECT string_agg(md5(i::text), '') FROM generate_series(1, 22) i), 'w3')) AS widened_site;
INSERT INTO tsec.wide VALUES (repeat('k', 3000), '2025-01-04', repeat('s', 3000), (SELECT body FROM tsec.texts WHERE n = 3));
RESET ROLE;
-- the owner's near copies, of the writer's row and of the long keyed one
SET ROLE regress_tsec_owner;
INSERT INTO wide VALUES ('o1', '2025-01-05', 'herald', (SELECT body FROM texts WHERE n = 2)),
	('o2', '2025-01-06', 'herald', (SELECT body FROM texts WHERE n = 3));
RESET ROLE;
SELECT left(key, 3) AS key, length(key) AS key_length, left(source, 3) AS source FROM wide_textfp ORDER BY at;
-- a wide row written before the registration: textfp_track refuses it, in
-- memory (SimHash) and batch by batch (MinHash), before any copy links to it
SET ROLE regress_tsec_owner;
CREATE TABLE wide_before (id text PRIMARY KEY, at timestamptz NOT NULL, site text, body text);
GRANT INSERT ON wide_before TO regress_tsec_writer;
RESET ROLE;
SET ROLE regress_tsec_writer;
INSERT INTO tsec.wide_before VALUES ((SELECT string_agg(md5(i::text), '') FROM generate_series(1, 44) i), '2025-01-01', 'ledger',
	(SELECT body FROM tsec.texts WHERE n = 3));
RESET ROLE;
SET ROLE regress_tsec_owner;
\set VERBOSITY terse
CALL textfp_track('wide_before', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 12);
SELECT textfp_untrack('wide_before');
CALL textfp_track('wide_before', 'body', 'id', 'at', site_column => 'site');
\set VERBOSITY default
RESET ROLE;

-- ===== 10. a report's call of textfp's functions on a table that is not textfp's =====
-- textfp_track_report runs its fixed query as the owner of any plain table
-- the caller may read, and the query calls textfp's idf_model_digest()
-- (the registration report) or containment(), quoted_in(), quoting()
-- and @@ (the excerpts report) on the table's columns.  On a table of the
-- owner's with those columns of another type, an overload of that type
-- planted in textfp's schema by a reader that may create there took the
-- call and ran as the owner.  Those columns must be of textfp's types now
-- (42804), before anything runs.
SET ROLE regress_tsec_owner;
DELETE FROM tsec.calls;
CREATE TABLE lookalike (text_column name, key_column name, time_column name, site_column name, method text, preset text,
	options text[], idf text, threshold float8, cohesion float8, lsh_bands int, lsh_rows int, lsh_min_bands int,
	excerpts boolean, dedup text, dedup_scope text, locks text, state text, phase text, done bigint, total bigint,
	registered_at timestamptz, updated_at timestamptz, source_table regclass);
INSERT INTO lookalike (idf) VALUES ('a model?');
CREATE TABLE quotes (key text, at timestamptz, site text, wf text);
INSERT INTO quotes VALUES ('q1', '2025-01-01', 'herald', 'w1'), ('q2', '2025-01-02', 'herald', 'w2');
GRANT SELECT ON lookalike, quotes TO regress_tsec_reader;
RESET ROLE;
GRANT CREATE ON SCHEMA public TO regress_tsec_reader;
SET ROLE regress_tsec_reader;
CREATE FUNCTION public.idf_model_digest(m text) RETURNS text LANGUAGE sql
	AS $$ SELECT CASE WHEN tsec.spy('idf_model_digest(text)') THEN m END $$;
CREATE FUNCTION public.containment(a text, b text) RETURNS float8 LANGUAGE sql
	AS $$ SELECT CASE WHEN tsec.spy('containment(text, text)') THEN 1.0::float8 END $$;
CREATE FUNCTION public.quoted_in(a text, m float8, n integer, x bigint[]) RETURNS text LANGUAGE sql
	AS $$ SELECT CASE WHEN tsec.spy('quoted_in(text, ...)') THEN a END $$;
CREATE FUNCTION public.quoting(a text, m float8, n integer, x bigint[]) RETURNS text LANGUAGE sql
	AS $$ SELECT CASE WHEN tsec.spy('quoting(text, ...)') THEN a END $$;
CREATE FUNCTION public.tsec_match(a text, b text) RETURNS boolean LANGUAGE sql
	AS $$ SELECT tsec.spy('@@(text, text)') $$;
CREATE OPERATOR public.@@ (LEFTARG = text, RIGHTARG = text, FUNCTION = public.tsec_match);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_report('tsec.lookalike', 'registration', '{}') AS q(a name, b name,
	c name, d name, m text, p text, o text[], i text, th float8, co float8, lb int, lr int, lm int, ex boolean, dd text,
	ds text, lk text, st text, ph text, dn bigint, n bigint, ra timestamptz, u timestamptz, src regclass)$$);
SELECT pg_temp.failure($$SELECT * FROM textfp_track_report('tsec.quotes', 'excerpts', ARRAY['q1', '0.1', '{}'])
	AS q(k text, a timestamptz, s text, how text, share float8)$$);
RESET ROLE;
SELECT what, who, superuser FROM tsec.calls GROUP BY 1, 2, 3 ORDER BY 1;
DROP OPERATOR public.@@ (text, text);
DROP FUNCTION public.idf_model_digest(text), public.containment(text, text), public.quoted_in(text, float8, integer, bigint[]),
	public.quoting(text, float8, integer, bigint[]), public.tsec_match(text, text);
REVOKE CREATE ON SCHEMA public FROM regress_tsec_reader;

RESET search_path;
DROP SCHEMA tsec CASCADE;
DROP ROLE regress_tsec_owner;
DROP ROLE regress_tsec_reader;
DROP SCHEMA tsec_dec CASCADE;
DROP ROLE regress_tsec_writer;
