-- script_decoys: textfp is trusted, so CREATE EXTENSION and ALTER EXTENSION
-- UPDATE by a role with only CREATE on the database run the scripts as the
-- bootstrap superuser with search_path = <target schema>, pg_temp; that role
-- may own the target schema and fill it first.  For every install and update
-- path, a non-superuser plants decoys there for everything a script could
-- evaluate by name: operators on the catalog's types with the exact argument
-- types that beat pg_catalog's (=(oid, regoperator), &&(oid[], oid[]),
-- =("char", text), ...) and functions named like types (function-style
-- casts).  Each decoy records its call in spy.calls and tries ALTER ROLE
-- <planter> SUPERUSER, then computes what pg_catalog's operator would, so a
-- script that calls it still completes.  After each install or update: no
-- call, no superuser.  docs/security.md.
SET client_min_messages = warning;
SELECT current_user AS regress_user \gset
DROP DATABASE IF EXISTS textfp_decoy_template;
DROP DATABASE IF EXISTS textfp_decoy_fresh;
DROP DATABASE IF EXISTS textfp_decoy_public;
DROP DATABASE IF EXISTS textfp_decoy_v10;
DROP DATABASE IF EXISTS textfp_decoy_excl;
DROP ROLE IF EXISTS regress_textfp_attacker;
DROP ROLE IF EXISTS regress_textfp_dbowner;
-- no LOGIN: the tests SET ROLE (a cluster's password rules may refuse a login)
CREATE ROLE regress_textfp_attacker;
CREATE ROLE regress_textfp_dbowner;

-- ---------------------------------------------------------------------------
-- The decoys, planned once in a template database
-- ---------------------------------------------------------------------------
CREATE DATABASE textfp_decoy_template TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';
\c textfp_decoy_template
SET client_min_messages = warning;
CREATE SCHEMA spy;
GRANT USAGE ON SCHEMA spy TO PUBLIC;
-- every decoy call: what, as whom, and whether ALTER ROLE ... SUPERUSER worked
CREATE TABLE spy.calls (what text, caller name, escalated boolean);
GRANT SELECT, INSERT ON spy.calls TO PUBLIC;
CREATE FUNCTION spy.hit(what text, target name) RETURNS void
	LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	-- tried only when it can work: a subtransaction to catch the failure
	-- cannot start inside the update's catalog UPDATE
	escalated boolean := (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user);
BEGIN
	IF escalated THEN
		EXECUTE format('ALTER ROLE %I SUPERUSER', target);
	END IF;
	INSERT INTO spy.calls VALUES (what, current_user, escalated);
END
$$;

-- The plan: (operator, left, right) where pg_catalog has no exact operator
-- but resolves one by coercion (a decoy of exactly those types would win),
-- with the result type; and name(type) for every function-style cast to a
-- catalog type that pg_catalog has no exact function for.
CREATE TABLE spy.plan (id serial, kind text, name text, l text, r text, result text);
GRANT SELECT ON spy.plan TO PUBLIC;
DO $$
DECLARE
	ops text[] := '{=,<>,<,<=,>,>=,&&,||,@>,<@,~~,+,-}';
	types text[] := '{oid,regoperator,regoper,regprocedure,regproc,regclass,regtype,"\"char\"",name,text,'
		'"character varying",integer,smallint,bigint,numeric,"double precision",boolean,'
		'oid[],regoperator[],text[],name[],"\"char\"[]",bigint[]}';
	casts text[] := '{oid,regoperator,regclass,regtype,regproc,regprocedure,text,name,char,int2,int4,int8,bool,numeric,float8,varchar}';
	o text;
	l text;
	r text;
	res text;
BEGIN
	FOREACH o IN ARRAY ops LOOP
		FOREACH l IN ARRAY types LOOP
			FOREACH r IN ARRAY types LOOP
				CONTINUE WHEN EXISTS (SELECT FROM pg_operator p WHERE p.oprname = o
					AND p.oprleft = l::regtype AND p.oprright = r::regtype
					AND p.oprnamespace = 'pg_catalog'::regnamespace);
				BEGIN
					EXECUTE format('SELECT pg_catalog.pg_typeof(NULL::%s OPERATOR(pg_catalog.%s) NULL::%s)::text', l, o, r)
						INTO res;
				EXCEPTION WHEN undefined_function OR ambiguous_function OR datatype_mismatch THEN
					res := NULL;
				END;
				CONTINUE WHEN res IS NULL;
				INSERT INTO spy.plan (kind, name, l, r, result) VALUES ('operator', o, l, r, res);
			END LOOP;
		END LOOP;
	END LOOP;
	FOREACH o IN ARRAY casts LOOP
		FOREACH l IN ARRAY types LOOP
			CONTINUE WHEN EXISTS (SELECT FROM pg_proc p WHERE p.proname = o AND p.pronargs = 1
				AND p.proargtypes[0] = l::regtype AND p.pronamespace = 'pg_catalog'::regnamespace);
			BEGIN
				EXECUTE format('SELECT pg_catalog.pg_typeof(NULL::%s::pg_catalog.%I)::text', l, o) INTO res;
			EXCEPTION WHEN cannot_coerce OR undefined_function THEN
				res := NULL;
			END;
			CONTINUE WHEN res IS NULL;
			INSERT INTO spy.plan (kind, name, l, result) VALUES ('function', o, l, res);
		END LOOP;
	END LOOP;
END
$$;
SELECT kind, count(*) > 100 AS many FROM spy.plan GROUP BY 1 ORDER BY 1;
SELECT count(*) AS the_original_bug FROM spy.plan
WHERE (name, l, r) IN (('=', 'oid', 'regoperator'), ('&&', 'oid[]', 'oid[]'), ('=', 'regoperator', 'oid'), ('=', '"char"', 'text'));

-- Plants the plan in a schema as the current user; each decoy's call tries to
-- make the current user (the planter) a superuser.
CREATE FUNCTION spy.plant(target_schema name) RETURNS bigint
	LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	p record;
	fn text;
BEGIN
	FOR p IN SELECT * FROM spy.plan ORDER BY id LOOP
		fn := format('%I.textfp_decoy_%s', target_schema, p.id);
		IF p.kind = 'operator' THEN
			EXECUTE format('CREATE FUNCTION %s(%s, %s) RETURNS %s LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L',
				fn, p.l, p.r, p.result,
				format('BEGIN PERFORM spy.hit(%L, %L); RETURN $1 OPERATOR(pg_catalog.%s) $2; END',
					   format('%s(%s, %s)', p.name, p.l, p.r), current_user, p.name));
			EXECUTE format('CREATE OPERATOR %I.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = %s)',
				target_schema, p.name, p.l, p.r, fn);
		ELSE
			EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L',
				target_schema, p.name, p.l, p.result,
				format('BEGIN PERFORM spy.hit(%L, %L); RETURN $1::pg_catalog.%I; END',
					   format('%I(%s)', p.name, p.l), current_user, p.name));
		END IF;
	END LOOP;
	RETURN (SELECT count(*) FROM spy.plan);
END
$$;
-- after each install or update: the decoys' calls, and who is superuser now
\set verdict 'SELECT count(*) AS decoy_calls, count(*) FILTER (WHERE escalated) AS escalations, (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) ''regress_textfp_attacker''::name) AS attacker_super, (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) ''regress_textfp_dbowner''::name) AS dbowner_super FROM spy.calls'
-- the install is whole: 1.1's catalog changes are there
\set installed 'SELECT e.extversion, n.nspname, (SELECT pg_catalog.count(*) FROM pg_catalog.pg_operator o WHERE o.oprname OPERATOR(pg_catalog.=) ''%''::name AND o.oprnamespace OPERATOR(pg_catalog.=) n.oid AND o.oprcom OPERATOR(pg_catalog.=) 0::oid) AS percent_without_commutator FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace WHERE e.extname OPERATOR(pg_catalog.=) ''textfp''::name'
\c contrib_regression :regress_user
SET client_min_messages = warning;

-- ---------------------------------------------------------------------------
-- CREATE EXTENSION textfp (1.1) into a schema the installer owns
-- ---------------------------------------------------------------------------
CREATE DATABASE textfp_decoy_fresh TEMPLATE textfp_decoy_template;
GRANT CREATE ON DATABASE textfp_decoy_fresh TO regress_textfp_attacker;
\c textfp_decoy_fresh
SET client_min_messages = warning;
SET ROLE regress_textfp_attacker;
CREATE SCHEMA s;
SELECT spy.plant('s') > 1000 AS planted;
CREATE EXTENSION textfp SCHEMA s;
RESET ROLE;
SET search_path = pg_catalog, pg_temp;
:verdict;
:installed;
ALTER ROLE regress_textfp_attacker NOSUPERUSER;

-- ---------------------------------------------------------------------------
-- CREATE EXTENSION textfp into public by the database's owner
-- ---------------------------------------------------------------------------
\c contrib_regression :regress_user
SET client_min_messages = warning;
CREATE DATABASE textfp_decoy_public OWNER regress_textfp_dbowner TEMPLATE textfp_decoy_template;
\c textfp_decoy_public
SET client_min_messages = warning;
SET ROLE regress_textfp_dbowner;
SELECT spy.plant('public') > 1000 AS planted;
CREATE EXTENSION textfp;
RESET ROLE;
SET search_path = pg_catalog, pg_temp;
:verdict;
:installed;
ALTER ROLE regress_textfp_dbowner NOSUPERUSER;

-- ---------------------------------------------------------------------------
-- CREATE EXTENSION textfp VERSION '1.0', then ALTER EXTENSION textfp UPDATE
-- with the decoys still there, plus decoys on textfp's own types that the
-- SQL-standard body of lsh_query(minhash_sig) would bind if its call were
-- untyped (the body is parsed as the superuser and runs later as its caller;
-- lsh_query, the type, comes with the update, so they return another type
-- and would make the update fail if bound)
-- ---------------------------------------------------------------------------
\c contrib_regression :regress_user
SET client_min_messages = warning;
CREATE DATABASE textfp_decoy_v10 TEMPLATE textfp_decoy_template;
GRANT CREATE ON DATABASE textfp_decoy_v10 TO regress_textfp_attacker;
\c textfp_decoy_v10
SET client_min_messages = warning;
SET ROLE regress_textfp_attacker;
CREATE SCHEMA s;
SELECT spy.plant('s') > 1000 AS planted;
CREATE EXTENSION textfp VERSION '1.0' SCHEMA s;
RESET ROLE;
SET search_path = pg_catalog, pg_temp;
:verdict;
:installed;
ALTER ROLE regress_textfp_attacker NOSUPERUSER;
SET ROLE regress_textfp_attacker;
SET search_path = s;
CREATE FUNCTION s.lsh_query(minhash_sig, bigint, bigint, bigint) RETURNS minhash_sig
	LANGUAGE plpgsql AS $$ BEGIN PERFORM spy.hit('lsh_query(minhash_sig, bigint, bigint, bigint)', 'regress_textfp_attacker'); RETURN NULL; END $$;
CREATE FUNCTION s.lsh_query(minhash_sig, numeric, numeric, numeric) RETURNS minhash_sig
	LANGUAGE plpgsql AS $$ BEGIN PERFORM spy.hit('lsh_query(minhash_sig, numeric, numeric, numeric)', 'regress_textfp_attacker'); RETURN NULL; END $$;
RESET search_path;
ALTER EXTENSION textfp UPDATE;
RESET ROLE;
SET search_path = pg_catalog, pg_temp;
:verdict;
:installed;
ALTER ROLE regress_textfp_attacker NOSUPERUSER;
-- the body of lsh_query(minhash_sig) calls textfp's lsh_query, not a decoy
SELECT s.lsh_query(s.minhash_lsh('one two three four five six'::text)) IS NOT NULL AS lsh_query_made;
:verdict;

-- ---------------------------------------------------------------------------
-- ALTER EXTENSION textfp UPDATE with an exclusion constraint on textfp's %,
-- so the update's DO block finds one and warns
-- ---------------------------------------------------------------------------
\c contrib_regression :regress_user
SET client_min_messages = warning;
CREATE DATABASE textfp_decoy_excl TEMPLATE textfp_decoy_template;
GRANT CREATE ON DATABASE textfp_decoy_excl TO regress_textfp_attacker;
\c textfp_decoy_excl
SET client_min_messages = warning;
SET ROLE regress_textfp_attacker;
CREATE SCHEMA s;
CREATE EXTENSION textfp VERSION '1.0' SCHEMA s;
CREATE TABLE s.near (fp s.simhash64, EXCLUDE USING gist (fp WITH OPERATOR(s.%)));
INSERT INTO s.near VALUES ('0123456789abcdef');
SELECT spy.plant('s') > 1000 AS planted;
ALTER EXTENSION textfp UPDATE;
RESET ROLE;
SET search_path = pg_catalog, pg_temp;
:verdict;
:installed;
ALTER ROLE regress_textfp_attacker NOSUPERUSER;

\c contrib_regression :regress_user
DROP DATABASE textfp_decoy_fresh;
DROP DATABASE textfp_decoy_public;
DROP DATABASE textfp_decoy_v10;
DROP DATABASE textfp_decoy_excl;
DROP DATABASE textfp_decoy_template;
DROP ROLE regress_textfp_attacker;
DROP ROLE regress_textfp_dbowner;
