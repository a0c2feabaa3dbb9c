-- textfp_dedup under a hostile tenant.  The lookup that detects near
-- duplicates runs as the table's owner past row-level security (a policy
-- cannot hide duplicates: sql/dedup.sql), but the trigger's options are
-- chosen by whoever holds TRIGGER, so nothing the trigger writes (the mark)
-- or reports (DETAIL) may show a value the writing role cannot SELECT: the
-- mark and the DETAIL name only a row the writer could have found itself,
-- reading the key, fingerprint and scope columns under its own policies.
SET client_min_messages = warning;
CREATE ROLE regress_dedup_owner;
CREATE ROLE regress_dedup_tenant;
CREATE TABLE texts (n int PRIMARY KEY, body text);
INSERT INTO texts VALUES
 (1, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight'),
 (2, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight!'),
 (3, 'Local bakery wins national prize for its sourdough, the owner thanks customers and staff for years of support'),
 (4, 'Local bakery wins national prize for its sourdough, the owner thanks customers and staff for years of support!'),
 (5, '  STORM closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight.  '),
 (6, 'Storm closes the harbour bridge for three days while engineers inspect cables damaged by strong winds overnight');
GRANT SELECT ON texts TO PUBLIC;
-- 1, 2 and 5 are at distance 0 of each other, 6 at distance 10 of them
SELECT a.n, b.n, hamming_distance(simhash(a.body, 'null'), simhash(b.body, 'null')) AS d
FROM texts a, texts b WHERE a.n < b.n AND hamming_distance(simhash(a.body, 'null'), simhash(b.body, 'null')) <= 10 ORDER BY 1, 2;
-- one line per error: SQLSTATE and DETAIL
CREATE FUNCTION dedup_try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; det text;
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, det = PG_EXCEPTION_DETAIL;
	RETURN st || ': ' || det;
END $$;

-- 1. Column privileges: a tenant with INSERT, TRIGGER and SELECT on some
-- columns makes its own trigger with a hidden column as the key.
CREATE TABLE priv_people (id int PRIMARY KEY, ssn int, site int, note int, body text, fp simhash64);
CREATE INDEX ON priv_people USING mih (fp);
INSERT INTO priv_people SELECT 1, 123456789, 1, NULL, body, simhash(body, 'null') FROM texts WHERE n = 1;
ALTER TABLE priv_people OWNER TO regress_dedup_owner;
GRANT INSERT, TRIGGER ON priv_people TO regress_dedup_tenant;
GRANT SELECT (id, site, note, body, fp) ON priv_people TO regress_dedup_tenant;
SET ROLE regress_dedup_tenant;
CREATE TRIGGER a_dedup BEFORE INSERT OR UPDATE ON priv_people FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=ssn', 'threshold=10', 'mode=mark', 'mark=note');
-- the nearest match's SSN is not copied into a column the tenant reads
INSERT INTO priv_people (id, site, body) SELECT 2, 1, body FROM texts WHERE n = 2;
SELECT id, note FROM priv_people ORDER BY id;
RESET ROLE;
DROP TRIGGER a_dedup ON priv_people;
-- nor shown in the DETAIL of a rejection, nor the distance (an oracle of the hidden text)
SET ROLE regress_dedup_tenant;
CREATE TRIGGER a_dedup BEFORE INSERT OR UPDATE ON priv_people FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=ssn', 'threshold=10');
SELECT dedup_try($$INSERT INTO priv_people (id, site, body) SELECT 3, 1, body FROM texts WHERE n = 5$$);
RESET ROLE;
DROP TRIGGER a_dedup ON priv_people;
-- a key the tenant may read is written and shown
SET ROLE regress_dedup_tenant;
CREATE TRIGGER a_dedup BEFORE INSERT OR UPDATE ON priv_people FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=mark', 'mark=note');
INSERT INTO priv_people (id, site, body) SELECT 3, 1, body FROM texts WHERE n = 5;
SELECT id, note FROM priv_people ORDER BY id;
RESET ROLE;
DROP TRIGGER a_dedup ON priv_people;
-- but not when the fingerprint or a scope column is hidden: "row 1 is near
-- my text" would tell the hidden column's content
REVOKE SELECT (fp) ON priv_people FROM regress_dedup_tenant;
SET ROLE regress_dedup_tenant;
CREATE TRIGGER a_dedup BEFORE INSERT OR UPDATE ON priv_people FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=mark', 'mark=note');
INSERT INTO priv_people (id, site, body) SELECT 4, 1, body FROM texts WHERE n = 6;
SELECT id, note FROM priv_people ORDER BY id;
RESET ROLE;
DROP TRIGGER a_dedup ON priv_people;
GRANT SELECT (fp) ON priv_people TO regress_dedup_tenant;
REVOKE SELECT (site) ON priv_people FROM regress_dedup_tenant;
SET ROLE regress_dedup_tenant;
CREATE TRIGGER a_dedup BEFORE INSERT OR UPDATE ON priv_people FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'scope=site');
SELECT dedup_try($$INSERT INTO priv_people (id, site, body) SELECT 5, 1, body FROM texts WHERE n = 6$$);
RESET ROLE;
DROP TRIGGER a_dedup ON priv_people;
-- nor when the text column is hidden (the new row's text need not be the writer's: a default, a trigger)
GRANT SELECT (site) ON priv_people TO regress_dedup_tenant;
REVOKE SELECT (body) ON priv_people FROM regress_dedup_tenant;
SET ROLE regress_dedup_tenant;
CREATE TRIGGER a_dedup BEFORE INSERT OR UPDATE ON priv_people FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=mark', 'mark=note');
INSERT INTO priv_people (id, site, body) SELECT 5, 1, body FROM texts WHERE n = 2;
SELECT id, note FROM priv_people ORDER BY id;
RESET ROLE;
DROP TRIGGER a_dedup ON priv_people;

-- 2. A tenant that may not SELECT the mark column at all still sees what
-- the trigger writes there: its own trigger, firing next, reads NEW.
REVOKE SELECT ON priv_people FROM regress_dedup_tenant;
CREATE SCHEMA tenant_code AUTHORIZATION regress_dedup_tenant;
SET ROLE regress_dedup_tenant;
CREATE FUNCTION tenant_code.peek() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE WARNING 'the trigger wrote note = %', NEW.note;
	RETURN NEW;
END $$;
CREATE TRIGGER a_dedup BEFORE INSERT OR UPDATE ON priv_people FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=ssn', 'threshold=10', 'mode=mark', 'mark=note');
CREATE TRIGGER b_peek BEFORE INSERT ON priv_people FOR EACH ROW EXECUTE FUNCTION tenant_code.peek();
INSERT INTO priv_people (id, site, body) SELECT 7, 1, body FROM texts WHERE n = 2;
RESET ROLE;
DROP TABLE priv_people;
DROP SCHEMA tenant_code CASCADE;

-- 3. Row-level security, permissive and restrictive policies: the owner's
-- trigger, a tenant that sees its own rows that are not archived.
CREATE TABLE priv_posts (id int PRIMARY KEY, author name DEFAULT current_user, archived boolean DEFAULT false,
                    body text, fp simhash64, duplicate_of int);
CREATE INDEX ON priv_posts USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON priv_posts FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=mark');
ALTER TABLE priv_posts OWNER TO regress_dedup_owner;
ALTER TABLE priv_posts ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON priv_posts USING (author = current_user) WITH CHECK (true);
CREATE POLICY current ON priv_posts AS RESTRICTIVE USING (NOT archived) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE ON priv_posts TO regress_dedup_tenant;
-- 1: someone else's (hidden), 7: the tenant's but archived (hidden), 6: the tenant's
INSERT INTO priv_posts (id, author, body) SELECT 1, 'someone_else', body FROM texts WHERE n = 1;
INSERT INTO priv_posts (id, author, archived, body) SELECT 7, 'regress_dedup_tenant', true, body FROM texts WHERE n = 5;
INSERT INTO priv_posts (id, author, body) SELECT 6, 'regress_dedup_tenant', body FROM texts WHERE n = 6;
INSERT INTO priv_posts (id, author, body) SELECT 3, 'someone_else', body FROM texts WHERE n = 3;
SET ROLE regress_dedup_tenant;
SELECT id FROM priv_posts ORDER BY id;
-- nearest: 1 and 7 at distance 0 (hidden); the tenant's mark is 6, at 10
INSERT INTO priv_posts (id, body) SELECT 10, body FROM texts WHERE n = 2;
-- only a hidden row is near: no mark
INSERT INTO priv_posts (id, body) SELECT 11, body FROM texts WHERE n = 4;
SELECT id, duplicate_of FROM priv_posts ORDER BY id;
-- an UPDATE is never marked with its own old row: 6 becomes a copy of 10
UPDATE priv_posts SET body = (SELECT body FROM texts WHERE n = 2) WHERE id = 6;
SELECT id, duplicate_of FROM priv_posts ORDER BY id;
RESET ROLE;
SELECT id, duplicate_of FROM priv_posts ORDER BY id;
-- mode reject: the DETAIL names the nearest row the tenant may read
DROP TRIGGER dedup ON priv_posts;
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON priv_posts FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10');
SET ROLE regress_dedup_tenant;
SELECT dedup_try($$INSERT INTO priv_posts (id, body) SELECT 12, body FROM texts WHERE n = 5$$);
RESET ROLE;
-- and when it may read none, neither a key nor a distance: the distance
-- would let a writer that sees no row recover a hidden text by probing
CREATE TABLE priv_invoices (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX ON priv_invoices USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON priv_invoices FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=31');
INSERT INTO priv_invoices VALUES (1, 'Invoice 2291 to Harbour Works Ltd: amount due 48000 euros, payable within thirty days of the date of issue');
ALTER TABLE priv_invoices OWNER TO regress_dedup_owner;
ALTER TABLE priv_invoices ENABLE ROW LEVEL SECURITY;
GRANT SELECT, INSERT ON priv_invoices TO regress_dedup_tenant;
SET ROLE regress_dedup_tenant;
SELECT count(*) AS rows_the_tenant_sees FROM priv_invoices;
SELECT amount, dedup_try(format('INSERT INTO priv_invoices (id, body) VALUES (%s, %L)', amount,
	'Invoice 2291 to Harbour Works Ltd: amount due ' || amount || ' euros, payable within thirty days of the date of issue'))
FROM (VALUES (47000), (48000), (49000)) v(amount);
RESET ROLE;
DROP TABLE priv_invoices;

-- 4. FORCE ROW LEVEL SECURITY: the owner's own writes see through its policies
-- (detection does not: the owner's near duplicate is still rejected)
ALTER TABLE priv_posts FORCE ROW LEVEL SECURITY;
SET ROLE regress_dedup_owner;
SELECT count(*) AS rows_the_owner_sees FROM priv_posts;
SELECT dedup_try($$INSERT INTO priv_posts (id, body) SELECT 20, body FROM texts WHERE n = 5$$);
RESET ROLE;
DROP TRIGGER dedup ON priv_posts;
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON priv_posts FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=mark');
SET ROLE regress_dedup_owner;
INSERT INTO priv_posts (id, body) SELECT 20, body FROM texts WHERE n = 5;
INSERT INTO priv_posts (id, body) SELECT 21, body FROM texts WHERE n = 2;
SELECT id, duplicate_of FROM priv_posts ORDER BY id;
RESET ROLE;
ALTER TABLE priv_posts NO FORCE ROW LEVEL SECURITY;
-- without FORCE the owner reads every row: the mark is the nearest of all
SET ROLE regress_dedup_owner;
INSERT INTO priv_posts (id, body) SELECT 22, body FROM texts WHERE n = 1;
SELECT duplicate_of FROM priv_posts WHERE id = 22;
RESET ROLE;

-- 5. Columns of a domain over textfp's types, and a tenant with CREATE on
-- textfp's schema (public here).  The lookups passed the domain-typed
-- fingerprint, key and scope columns to textfp's functions and operators by
-- name, and an overload of exactly the domain's types planted in that
-- schema took them: it ran as the owner in the owner's lookup (and its
-- answer rejected an unrelated row).  The lookups read the columns as their
-- base types now.
CREATE SEQUENCE priv_decoy_runs;
CREATE SEQUENCE priv_decoy_owner_runs;
GRANT USAGE ON SEQUENCE priv_decoy_runs, priv_decoy_owner_runs TO PUBLIC;
GRANT CREATE ON SCHEMA public TO regress_dedup_tenant;
CREATE SCHEMA privo AUTHORIZATION regress_dedup_owner;
GRANT USAGE ON SCHEMA privo TO PUBLIC;
SET ROLE regress_dedup_owner;
CREATE DOMAIN privo.priv_fp AS simhash64;
CREATE DOMAIN privo.priv_scope AS simhash64;
CREATE DOMAIN privo.priv_key AS simhash64;
CREATE TABLE privo.priv_dom (id privo.priv_key PRIMARY KEY, region privo.priv_scope, body text, fp privo.priv_fp);
CREATE INDEX ON privo.priv_dom USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON privo.priv_dom FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'scope=region');
INSERT INTO privo.priv_dom SELECT n::bigint::simhash64, 0::bigint::simhash64, body FROM texts WHERE n IN (1, 3);
GRANT SELECT, INSERT ON privo.priv_dom TO regress_dedup_tenant;
RESET ROLE;
SET ROLE regress_dedup_tenant;
-- each decoy counts its runs, and those as the table's owner (sequences:
-- the statement's error rolls back no count)
CREATE FUNCTION public.priv_decoy_hit() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	PERFORM nextval('priv_decoy_runs');
	IF current_user = 'regress_dedup_owner' THEN
		PERFORM nextval('priv_decoy_owner_runs');
	END IF;
	RETURN true;
END
$$;
CREATE FUNCTION public.hamming_distance(a privo.priv_fp, b simhash64) RETURNS integer LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.priv_decoy_hit(); RETURN 0; END $$;
CREATE FUNCTION public.priv_decoy_within(a privo.priv_fp, b hamming_ball) RETURNS boolean LANGUAGE plpgsql AS
	$$ BEGIN RETURN public.priv_decoy_hit(); END $$;
CREATE OPERATOR public.<@ (LEFTARG = privo.priv_fp, RIGHTARG = hamming_ball, FUNCTION = public.priv_decoy_within);
CREATE FUNCTION public.priv_decoy_eq(a privo.priv_scope, b privo.priv_scope) RETURNS boolean LANGUAGE plpgsql AS
	$$ BEGIN RETURN public.priv_decoy_hit(); END $$;
CREATE OPERATOR public.= (LEFTARG = privo.priv_scope, RIGHTARG = privo.priv_scope, FUNCTION = public.priv_decoy_eq);
CREATE FUNCTION public.priv_decoy_key_eq(a privo.priv_key, b privo.priv_key) RETURNS boolean LANGUAGE plpgsql AS
	$$ BEGIN RETURN public.priv_decoy_hit(); END $$;
CREATE OPERATOR public.= (LEFTARG = privo.priv_key, RIGHTARG = privo.priv_key, FUNCTION = public.priv_decoy_key_eq);
-- an unrelated text (accepted), a near duplicate of 1 (rejected), an update
SELECT dedup_try($$INSERT INTO privo.priv_dom VALUES (6::bigint::simhash64, 0::bigint::simhash64,
		'A text about something else entirely: the chess club meets on Thursdays in the library basement.')$$) AS unrelated,
	dedup_try($$INSERT INTO privo.priv_dom SELECT 7::bigint::simhash64, 0::bigint::simhash64, body FROM texts WHERE n = 2$$) AS near_duplicate;
RESET ROLE;
SET ROLE regress_dedup_owner;
UPDATE privo.priv_dom SET body = body || ' ' WHERE id = 3::bigint::simhash64;
RESET ROLE;
SELECT id::bigint AS id FROM privo.priv_dom ORDER BY 1;
SELECT (SELECT is_called FROM priv_decoy_runs) AS decoys_ran, (SELECT is_called FROM priv_decoy_owner_runs) AS as_the_owner;
DROP TABLE privo.priv_dom;
DROP OPERATOR public.<@ (privo.priv_fp, hamming_ball), public.= (privo.priv_scope, privo.priv_scope), public.= (privo.priv_key, privo.priv_key);
DROP FUNCTION public.hamming_distance(privo.priv_fp, simhash64), public.priv_decoy_within(privo.priv_fp, hamming_ball),
	public.priv_decoy_eq(privo.priv_scope, privo.priv_scope), public.priv_decoy_key_eq(privo.priv_key, privo.priv_key),
	public.priv_decoy_hit();
DROP DOMAIN privo.priv_fp, privo.priv_scope, privo.priv_key;
DROP SCHEMA privo;
DROP SEQUENCE priv_decoy_runs, priv_decoy_owner_runs;
REVOKE CREATE ON SCHEMA public FROM regress_dedup_tenant;

DROP TABLE priv_posts, texts;
DROP FUNCTION dedup_try(text);
DROP ROLE regress_dedup_owner, regress_dedup_tenant;
