-- plpgsql_decoys: a role with CREATE on textfp's schema (here public, the
-- usual place) plants overloads there of every textfp function, procedure
-- and operator that the PL/pgSQL layer (cluster_table, the tracked tables'
-- procedures, reports and helpers) calls, one argument's type changed to
-- each type that could win an unqualified or untyped call (numeric for a
-- float8 threshold, varchar for a text, oid for a regclass, ...), every
-- argument named as the original's and defaults after the changed one
-- (the shape that takes a call that names some arguments and leaves the
-- rest to their defaults, as the tracked tables' fingerprint calls do, with
-- a varchar text column too).  Each decoy
-- records its call and, run as a superuser, makes the planter one.  A
-- superuser then registers tracked tables (their batches, triggers,
-- rebuild, reports, untrack) and runs every clustering call, each with
-- typed, qualified arguments (an untyped call of the caller's own is the
-- caller's business: docs/security.md): no decoy runs.  The called functions
-- and operators are read from the PL/pgSQL bodies themselves, so a new call
-- is covered when it is added.
SET client_min_messages = warning;
SELECT current_user AS regress_user \gset
DROP DATABASE IF EXISTS textfp_pl_decoys;
DROP ROLE IF EXISTS regress_textfp_cotenant;
CREATE ROLE regress_textfp_cotenant;
CREATE DATABASE textfp_pl_decoys TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';
\c textfp_pl_decoys
SET client_min_messages = warning;
\set SHOW_CONTEXT never
CREATE EXTENSION textfp;
GRANT CREATE ON SCHEMA public TO regress_textfp_cotenant;
CREATE SCHEMA spy;
GRANT USAGE ON SCHEMA spy TO PUBLIC;
CREATE TABLE spy.calls (what text, caller name, escalated boolean);
GRANT SELECT, INSERT ON spy.calls TO PUBLIC;
CREATE FUNCTION spy.hit(what text) RETURNS void
	LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	escalated boolean := (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user);
BEGIN
	IF escalated THEN
		ALTER ROLE regress_textfp_cotenant SUPERUSER;
	END IF;
	INSERT INTO spy.calls VALUES (what, current_user, escalated);
END
$$;
\set verdict 'SELECT count(*) AS decoy_calls, string_agg(DISTINCT what, '', '') AS decoys_run, (SELECT rolsuper FROM pg_roles WHERE rolname = ''regress_textfp_cotenant'') AS cotenant_super FROM spy.calls'

-- what the PL/pgSQL layer calls: every textfp function named f( in its
-- bodies, however qualified, and every OPERATOR(...x) there
CREATE TABLE spy.called AS
WITH ext AS (
	SELECT p.oid, p.proname, p.prolang, p.prosrc FROM pg_proc p
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'),
bodies AS (SELECT string_agg(prosrc, E'\n') AS src FROM ext WHERE prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql'))
SELECT DISTINCT ext.proname::text AS name, false AS is_operator
FROM ext, bodies WHERE bodies.src ~ ('\m' || ext.proname || '\(')
UNION
SELECT DISTINCT r[1], true FROM bodies, LATERAL regexp_matches(bodies.src, 'OPERATOR\([^)]*?([^.()\s]+)\)', 'g') r
-- and the fingerprint functions, whose calls the tracked tables write out
-- by name (textfp_track_fp_call)
UNION
SELECT f, false FROM unnest(ARRAY['simhash', 'minhash']) f;
SELECT name FROM spy.called WHERE is_operator ORDER BY 1;
SELECT count(*) >= 15 AS many_functions, bool_or(name = 'union_find') AND bool_or(name = 'jaccard_ball')
	AND bool_or(name = 'textfp_default_threshold') AS the_reported_ones
FROM spy.called WHERE NOT is_operator;

-- each type an argument's type could lose a call to
CREATE TABLE spy.rivals (of text, rival text);
INSERT INTO spy.rivals VALUES
	('double precision', 'numeric'), ('double precision', 'real'), ('double precision', 'integer'), ('double precision', 'text'),
	('integer', 'numeric'), ('integer', 'bigint'), ('integer', 'smallint'), ('integer', 'double precision'), ('integer', 'text'),
	('bigint', 'numeric'), ('bigint', 'integer'), ('bigint', 'double precision'), ('bigint', 'text'),
	('text', 'character varying'), ('text', 'name'), ('text', 'character'),
	('name', 'text'), ('name', 'character varying'),
	('regclass', 'oid'), ('regclass', 'text'), ('regclass', 'name'),
	('bigint[]', 'integer[]'), ('bigint[]', 'numeric[]'), ('bigint[]', 'text[]'),
	('boolean', 'text'),
	('timestamp with time zone', 'timestamp without time zone'), ('timestamp with time zone', 'date'), ('timestamp with time zone', 'text'),
	('simhash64', 'bigint'), ('simhash64', 'text'), ('simhash64', 'bytea'),
	('minhash_sig', 'text'), ('minhash_sig', 'bytea'),
	('hamming_ball', 'text'), ('jaccard_ball', 'text'), ('lsh_query', 'text'),
	('text[]', 'character varying[]'), ('text[]', 'name[]'), ('idf_model', 'text');
GRANT SELECT ON spy.called, spy.rivals TO PUBLIC;

-- Plants, as the current user, decoys of each overload of each called
-- function or procedure with one input argument's type replaced by each
-- rival, with all the arguments named as the original's and defaults for
-- those after the replaced one (so that a call that names some and leaves
-- the rest to their defaults, as the tracked tables' fingerprint calls do,
-- finds it; not the replaced one, which would only make a call that leaves
-- it out ambiguous); and of each called operator with one side replaced.
CREATE FUNCTION spy.plant() RETURNS bigint
	LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	f record;
	i integer;
	rv text;
	args text[];
	named text[];
	arglist text;
	res text;
	n bigint := 0;
BEGIN
	FOR f IN
		SELECT p.oid, p.proname, p.prokind, p.pronargs, p.proretset, p.prorettype,
			   ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) t) AS intypes,
			   CASE WHEN p.proargnames IS NULL THEN '{}'::text[]
					ELSE ARRAY(SELECT a.n FROM unnest(p.proargnames, coalesce(p.proargmodes, array_fill('i'::"char", ARRAY[cardinality(p.proargnames)]))) a(n, m)
							   WHERE a.m IN ('i', 'b', 'v')) END AS innames,
			   (SELECT string_agg(format(', OUT o%s %s', k, format_type(a.t, NULL)), '' ORDER BY k)
				FROM unnest(p.proallargtypes, p.proargmodes) WITH ORDINALITY a(t, m, k)
				WHERE a.m IN ('o', 'b')) AS outs
		FROM pg_proc p JOIN spy.called c ON c.name = p.proname AND NOT c.is_operator
		WHERE p.pronamespace = 'public'::regnamespace
	LOOP
		res := CASE WHEN f.prokind = 'p' OR f.outs IS NOT NULL THEN '' ELSE ' RETURNS ' || pg_get_function_result(f.oid) END;
		FOR i IN 1 .. f.pronargs LOOP
			FOR rv IN SELECT r.rival FROM spy.rivals r WHERE r.of = f.intypes[i] LOOP
				args := f.intypes;
				args[i] := rv;
				named := ARRAY(SELECT CASE WHEN coalesce(f.innames[k], '') = '' THEN '' ELSE quote_ident(f.innames[k]) || ' ' END || args[k]
									  || CASE WHEN k > i THEN ' DEFAULT NULL' ELSE '' END
							   FROM generate_series(1, f.pronargs) k);
				FOREACH arglist IN ARRAY ARRAY[array_to_string(named, ', ')] LOOP
					BEGIN
						EXECUTE format('CREATE %s public.%I(%s%s)%s LANGUAGE plpgsql AS %L',
							CASE f.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END,
							f.proname, arglist, CASE WHEN f.prokind = 'p' THEN '' ELSE coalesce(f.outs, '') END, res,
							format('BEGIN PERFORM spy.hit(%L); %s END', format('%s(%s)', f.proname, arglist),
								   CASE WHEN f.prokind = 'p' OR f.proretset OR f.outs IS NOT NULL OR f.prorettype = 'void'::regtype
										THEN 'RETURN;' ELSE 'RETURN NULL;' END));
						n := n + 1;
					EXCEPTION WHEN duplicate_function OR invalid_function_definition THEN
						-- the same arguments as another decoy's or the original's, or
						-- a polymorphic result without its polymorphic argument
						NULL;
					END;
				END LOOP;
			END LOOP;
		END LOOP;
	END LOOP;
	FOR f IN
		SELECT o.oprname, format_type(o.oprleft, NULL) AS l, format_type(o.oprright, NULL) AS r, format_type(o.oprresult, NULL) AS res
		FROM pg_operator o JOIN spy.called c ON c.name = o.oprname AND c.is_operator
		WHERE o.oprnamespace = 'public'::regnamespace
	LOOP
		FOR i IN 1 .. 2 LOOP
			FOR rv IN SELECT r.rival FROM spy.rivals r WHERE r.of = CASE i WHEN 1 THEN f.l ELSE f.r END LOOP
				n := n + 1;
				EXECUTE format('CREATE FUNCTION public.textfp_decoy_op_%s(%s, %s) RETURNS %s LANGUAGE plpgsql AS %L',
					n, CASE i WHEN 1 THEN rv ELSE f.l END, CASE i WHEN 2 THEN rv ELSE f.r END, f.res,
					format('BEGIN PERFORM spy.hit(%L); RETURN NULL; END',
						   format('%s(%s, %s)', f.oprname, CASE i WHEN 1 THEN rv ELSE f.l END, CASE i WHEN 2 THEN rv ELSE f.r END)));
				BEGIN
					EXECUTE format('CREATE OPERATOR public.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = public.textfp_decoy_op_%s)',
						f.oprname, CASE i WHEN 1 THEN rv ELSE f.l END, CASE i WHEN 2 THEN rv ELSE f.r END, n);
				EXCEPTION WHEN duplicate_function THEN
					NULL;
				END;
			END LOOP;
		END LOOP;
	END LOOP;
	RETURN n;
END
$$;

-- the victim's data, made before the decoys
SET timezone = 'UTC';
CREATE TABLE news (id bigint PRIMARY KEY, site text, published timestamptz NOT NULL, fp simhash64, sig minhash_sig, body text);
INSERT INTO news
SELECT i, 'site' || (i % 3), '2025-01-01 00:00+00'::timestamptz + i * interval '1 hour',
	(hashint8extended(i / 4, 7) # (i % 4))::simhash64,
	minhash(ARRAY(SELECT (i / 4) * 100 + j FROM generate_series(1, 30) j WHERE j % 4 <> i % 4)::bigint[]),
	-- families of four drifting versions: 30 words, the version's first 2v changed
	(SELECT string_agg(translate(substr(md5((i / 4) || ':' || w || CASE WHEN w <= 2 * (i % 4) THEN 'v' ELSE '' END), 1, 7),
							   '0123456789', 'ghijklmnop'), ' ' ORDER BY w) FROM generate_series(1, 30) w)
FROM generate_series(1, 40) i;
CREATE TABLE wire (LIKE news INCLUDING ALL);
INSERT INTO wire SELECT * FROM news;
-- a varchar text column: the registrations' fingerprint calls pass the
-- column, which a decoy's varchar first argument matches better than text
CREATE TABLE notes (id bigint PRIMARY KEY, published timestamptz NOT NULL, body varchar);
INSERT INTO notes SELECT id, published, body FROM news;
CREATE TABLE notes_sh (LIKE notes INCLUDING ALL);
INSERT INTO notes_sh SELECT * FROM notes;
CREATE TABLE notes_opt (LIKE notes INCLUDING ALL);
INSERT INTO notes_opt SELECT * FROM notes;

SET ROLE regress_textfp_cotenant;
SELECT spy.plant() > 100 AS planted;
RESET ROLE;
SELECT count(*) > 0 AS the_reported_decoy_is_there FROM pg_proc
WHERE proname = 'jaccard_ball' AND proargtypes[1] = 'numeric'::regtype;

-- every clustering call and every tracked-table call, typed and qualified,
-- as a superuser; the default thresholds too (NULL)
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('news'::regclass, 'id'::name, 'fp'::name, 3::float8, 'components'::text, NULL::integer, NULL::integer);
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('news'::regclass, 'id'::name, 'fp'::name, 3::float8, 'star'::text, NULL::integer, NULL::integer);
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('news'::regclass, 'id'::name, 'fp'::name, NULL::float8, 'components'::text, NULL::integer, NULL::integer);
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('news'::regclass, 'id'::name, 'sig'::name, 0.5::float8, 'components'::text, NULL::integer, NULL::integer);
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('news'::regclass, 'id'::name, 'sig'::name, NULL::float8, 'star'::text, NULL::integer, NULL::integer);
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('news'::regclass, 'id'::name, 'sig'::name, 0.5::float8, 'components'::text, 32::integer, 2::integer);
-- tracked tables: simhash with options (each cast to its parameter's type in
-- the registration's fingerprint call) and cohesion; minhash with dedup
CALL public.textfp_track(tbl => 'news'::regclass, text_column => 'body'::name, key_column => 'id'::name, time_column => 'published'::name,
	site_column => 'site'::name, method => 'simhash'::text, preset => NULL::text, threshold => 12::float8, dedup => 'off'::text,
	dedup_scope => 'all'::text, options => ARRAY['ngram=3', 'shingle=1', 'stopwords=none', 'user_stopwords={a,b}', 'simplify=true', 'seed=5', 'weighting=tf']::text[],
	cohesion => 20::float8, batch => 7::integer);
CALL public.textfp_track(tbl => 'wire'::regclass, text_column => 'body'::name, key_column => 'id'::name, time_column => 'published'::name,
	site_column => 'site'::name, method => 'minhash'::text, preset => NULL::text, threshold => NULL::float8, dedup => 'skip'::text,
	dedup_scope => 'site'::text, options => '{k=64,ngram=3,method=oph}'::text[], cohesion => NULL::float8, batch => 1000::integer);
-- the varchar column: the defaults (a preset of each method), and options
CALL public.textfp_track(tbl => 'notes'::regclass, text_column => 'body'::name, key_column => 'id'::name, time_column => 'published'::name);
CALL public.textfp_track(tbl => 'notes_sh'::regclass, text_column => 'body'::name, key_column => 'id'::name, time_column => 'published'::name,
	method => 'simhash'::text);
CALL public.textfp_track(tbl => 'notes_opt'::regclass, text_column => 'body'::name, key_column => 'id'::name, time_column => 'published'::name,
	method => 'minhash'::text, options => '{k=64,ngram=3}'::text[]);
INSERT INTO notes SELECT 41, published, body FROM notes WHERE id = 4;
INSERT INTO notes_opt SELECT 41, published, body FROM notes WHERE id = 4;
CALL public.textfp_rebuild(tbl => 'notes_sh'::regclass, batch => 1000::integer);
SELECT count(*) FILTER (WHERE s.fp IS NOT DISTINCT FROM public.minhash(n.body::text, preset => 'minhash_v3'::public.textfp_preset)) AS notes_fp_ok,
	count(*) AS notes_rows
FROM notes_textfp s JOIN notes n ON n.id = s.key;
SELECT count(*) FILTER (WHERE s.fp IS NOT DISTINCT FROM public.simhash(n.body::text, preset => 'simhash_v2'::public.textfp_preset)) AS notes_sh_fp_ok,
	count(*) AS notes_sh_rows
FROM notes_sh_textfp s JOIN notes_sh n ON n.id = s.key;
SELECT count(*) FILTER (WHERE s.fp IS NOT DISTINCT FROM public.minhash(n.body::text, 'null'::text, k => 64::integer, ngram => 3::integer)) AS notes_opt_fp_ok,
	count(*) AS notes_opt_rows
FROM notes_opt_textfp s JOIN notes_opt n ON n.id = s.key;
SELECT public.textfp_untrack('notes'::regclass), public.textfp_untrack('notes_sh'::regclass), public.textfp_untrack('notes_opt'::regclass);
SELECT count(*), count(DISTINCT story_id) FROM public.textfp_stories('news'::regclass);
SELECT count(*), count(DISTINCT story_id) FROM public.textfp_stories('wire'::regclass);
-- the triggers: a late arrival, edits, deletes, a skipped near duplicate, TRUNCATE
INSERT INTO news SELECT 0, 'site0', '2024-12-31 00:00+00'::timestamptz, fp, sig, body FROM news WHERE id = 4;
UPDATE news SET body = (SELECT n.body FROM news n WHERE n.id = 9) WHERE id = 13;
UPDATE news SET published = '2024-12-30 00:00+00'::timestamptz WHERE id = 22;
UPDATE news SET id = 100 WHERE id = 23;
UPDATE news SET site = 'site9' WHERE id = 24;
DELETE FROM news WHERE id = 8;
INSERT INTO wire SELECT 41, 'site1', '2025-02-01 00:00+00'::timestamptz, fp, sig, body FROM wire WHERE id = 4;
SELECT count(*) AS skipped FROM wire WHERE id = 41;
CALL public.textfp_rebuild(tbl => 'news'::regclass, batch => 5::integer);
SELECT count(*), count(DISTINCT story_id) FROM public.textfp_stories('news'::regclass);
SELECT count(*) FROM public.textfp_stories('news'::regclass, NULL::bigint);
SELECT count(*), sum(size) FROM public.textfp_story_report('news'::regclass, NULL::timestamptz, 2::integer);
SELECT count(*) FROM public.textfp_new_stories('news'::regclass, '2025-01-01 10:00+00'::timestamptz);
SELECT sum(reprints) FROM public.textfp_reprints('news'::regclass, NULL::timestamptz, false::boolean);
SELECT count(*) FROM public.textfp_story_timeline('news'::regclass, '1'::text);
SELECT tbl, method, state FROM public.textfp_tracked() ORDER BY 1;
SELECT * FROM public.textfp_registration('news'::regclass);
SELECT count(*) FROM public.union_find('SELECT key, source FROM news_textfp WHERE source IS NOT NULL'::text, 'components'::text);
TRUNCATE wire;
SELECT public.textfp_untrack('news'::regclass), public.textfp_untrack('wire'::regclass);
:verdict;

-- an overload of union_find without the mode, planted: the review's 42725
-- (cluster_table's components call passed the query alone)
SET ROLE regress_textfp_cotenant;
CREATE FUNCTION public.union_find(text) RETURNS TABLE (key bigint, cluster_key bigint, cluster_size bigint)
	LANGUAGE plpgsql AS $$ BEGIN PERFORM spy.hit('union_find(text)'); RETURN; END $$;
RESET ROLE;
-- a new session: this one's PL/pgSQL has its statements planned already
\c textfp_pl_decoys
SET client_min_messages = warning;
\set SHOW_CONTEXT never
SELECT count(*), count(DISTINCT cluster_key) FROM public.cluster_table('news'::regclass, 'id'::name, 'fp'::name, 3::float8, 'components'::text, NULL::integer, NULL::integer);
CALL public.textfp_track(tbl => 'news'::regclass, text_column => 'body'::name, key_column => 'id'::name, time_column => 'published'::name,
	site_column => NULL::name, method => 'simhash'::text, preset => NULL::text, threshold => 12::float8, dedup => 'reject'::text,
	dedup_scope => 'all'::text, options => '{ngram=3}'::text[], cohesion => NULL::float8, batch => 1000::integer);
INSERT INTO news SELECT 200, 'site0', '2024-12-31 00:00+00'::timestamptz, fp, sig, 'a text of its own, near no other' FROM news WHERE id = 4;
CALL public.textfp_rebuild(tbl => 'news'::regclass, batch => 1000::integer);
SELECT count(*), count(DISTINCT story_id) FROM public.textfp_stories('news'::regclass);
SELECT public.textfp_untrack('news'::regclass);
:verdict;

\c contrib_regression :regress_user
DROP DATABASE textfp_pl_decoys;
ALTER ROLE regress_textfp_cotenant NOSUPERUSER;
DROP ROLE regress_textfp_cotenant;
