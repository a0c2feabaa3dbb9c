-- A database left at textfp 1.0 runs this library: the 1.0 objects give the
-- 1.0 answers (golden.sql's fingerprints, computed through 1.0's SQL).  Then
-- ALTER EXTENSION ... UPDATE gives exactly the objects of a fresh 1.1:
-- compared as a digest of every member's description, definition, operator
-- links, operator-class entries, type properties, casts, access methods and
-- comment.  1.1's objects (the featureless overloads, the mih access method,
-- the LSH bands) are absent at 1.0 and present after the update.
SET client_min_messages = warning;
SELECT current_user AS regress_user \gset
DROP DATABASE IF EXISTS textfp_v10;
DROP DATABASE IF EXISTS textfp_v11;
-- as pg_regress makes its own database (--no-locale): to_tsvector's parser,
-- which golden.sql uses, depends on the locale
CREATE DATABASE textfp_v10 TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';
CREATE DATABASE textfp_v11 TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';

\set objects 'SELECT md5(string_agg(d, E''\n'' ORDER BY d)) AS digest, count(*) AS members FROM (SELECT pg_describe_object(dep.classid, dep.objid, 0) || '' | '' || coalesce(obj_description(dep.objid, dep.classid::regclass::name), ''-'') || '' | '' || CASE dep.classid WHEN ''pg_proc''::regclass THEN (SELECT CASE p.prokind WHEN ''a'' THEN ''aggregate '' || (SELECT a.aggtransfn || ''/'' || a.aggfinalfn || ''/'' || a.aggcombinefn || ''/'' || a.aggserialfn || ''/'' || a.aggdeserialfn || ''/'' || format_type(a.aggtranstype, NULL) FROM pg_aggregate a WHERE a.aggfnoid = p.oid) ELSE pg_get_functiondef(p.oid) END FROM pg_proc p WHERE p.oid = dep.objid) WHEN ''pg_operator''::regclass THEN (SELECT concat_ws('','', o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator, o.oprrest, o.oprjoin, o.oprcanmerge, o.oprcanhash) FROM pg_operator o WHERE o.oid = dep.objid) WHEN ''pg_type''::regclass THEN (SELECT concat_ws('','', t.typlen, t.typbyval, t.typalign, t.typstorage, t.typinput, t.typoutput, t.typreceive, t.typsend, t.typmodin, t.typmodout, t.typanalyze) FROM pg_type t WHERE t.oid = dep.objid) WHEN ''pg_cast''::regclass THEN (SELECT concat_ws('','', c.castfunc::regprocedure, c.castcontext, c.castmethod) FROM pg_cast c WHERE c.oid = dep.objid) WHEN ''pg_opfamily''::regclass THEN (SELECT string_agg(x, '';'' ORDER BY x) FROM (SELECT concat_ws('','', ''op'', amopstrategy, amoplefttype::regtype, amoprighttype::regtype, amopopr::regoperator, amoppurpose, amopsortfamily) x FROM pg_amop WHERE amopfamily = dep.objid UNION ALL SELECT concat_ws('','', ''proc'', amprocnum, amproclefttype::regtype, amprocrighttype::regtype, amproc::regprocedure) FROM pg_amproc WHERE amprocfamily = dep.objid) s) WHEN ''pg_opclass''::regclass THEN (SELECT concat_ws('','', c.opcdefault, c.opcintype::regtype, c.opckeytype::regtype) FROM pg_opclass c WHERE c.oid = dep.objid) WHEN ''pg_am''::regclass THEN (SELECT concat_ws('','', a.amhandler::regproc, a.amtype) FROM pg_am a WHERE a.oid = dep.objid) ELSE '''' END AS d FROM pg_depend dep JOIN pg_extension e ON dep.refclassid = ''pg_extension''::regclass AND dep.refobjid = e.oid WHERE e.extname = ''textfp'' AND dep.deptype = ''e'') s'

\c textfp_v11
SET client_min_messages = warning;
CREATE EXTENSION textfp;
:objects \gset fresh_

\c textfp_v10
SET client_min_messages = warning;
CREATE EXTENSION textfp VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'textfp';
\i sql/golden.sql
-- fingerprints stored under 1.0's SQL, to compare after the update
CREATE TABLE stored AS
SELECT body, simhash(body) AS fp, simhash(body, shingle => 2, tokenizer => 'icu') AS fp2,
       minhash(body) AS sig, minhash(body, k => 32, method => 'kperm', simplify => true) AS sig2,
       shingles(body) AS sh
FROM (VALUES ('The quick brown fox jumps over the lazy dog'), ('今天天气很好，我们去公园散步吧。'),
             ('這個國家的經濟發展很快'), (''), ('!!!'), ('Hello world!')) v(body);
-- 1.0's % is still its own commutator here, and 1.1's objects are absent
SELECT oprname, oprcom = oid AS own_commutator FROM pg_operator
WHERE oprname = '%' AND oprleft IN ('simhash64'::regtype, 'minhash_sig'::regtype) ORDER BY oprleft;
SELECT to_regprocedure('simhash(text,text,integer,integer,text,boolean,text,text[],text,bigint,text)') IS NULL
       AS no_featureless_overload;
\set new_objects 'SELECT (SELECT count(*) FROM pg_am WHERE amname = ''mih'') AS mih_am, (SELECT count(*) FROM pg_opclass WHERE opcname IN (''mih_simhash64_ops'', ''gin_minhash_lsh_ops'')) AS new_opclasses, to_regtype(''lsh_query'') IS NOT NULL AS lsh_query_type, (SELECT count(*) FROM pg_proc WHERE proname IN (''minhash_bands'', ''minhash_lsh'', ''lsh_probability'', ''lsh_params'', ''lsh_params_for'')) AS lsh_functions'
:new_objects;

ALTER EXTENSION textfp UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'textfp';
:objects \gset updated_
SELECT :'updated_digest' = :'fresh_digest' AS same_objects_as_fresh,
       :'updated_members' = :'fresh_members' AS same_member_count;
:new_objects;
SELECT oprname, oprcom = 0 AS no_commutator FROM pg_operator
WHERE oprname = '%' AND oprleft IN ('simhash64'::regtype, 'minhash_sig'::regtype) ORDER BY oprleft;
-- the updated database computes what it stored under 1.0
SELECT count(*) AS rows, count(*) FILTER (WHERE fp = simhash(body) AND fp2 = simhash(body, shingle => 2, tokenizer => 'icu')
       AND sig = minhash(body) AND sig2 = minhash(body, k => 32, method => 'kperm', simplify => true)
       AND sh = shingles(body)) AS unchanged
FROM stored;

-- textfp is trusted: a user without superuser installs the same 1.1 (the
-- update script's catalog change runs as the bootstrap superuser); SET ROLE
-- rather than a new login, which a cluster's password rules may refuse
\c contrib_regression
SET client_min_messages = warning;
DROP ROLE IF EXISTS textfp_plain_user;
CREATE ROLE textfp_plain_user LOGIN;
CREATE DATABASE textfp_trusted OWNER textfp_plain_user TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';
\c textfp_trusted
SET ROLE textfp_plain_user;
SELECT rolsuper FROM pg_roles WHERE rolname = current_user;
CREATE EXTENSION textfp;
RESET ROLE;
:objects \gset trusted_
SELECT :'trusted_digest' = :'fresh_digest' AS same_objects_as_fresh;

\c contrib_regression :regress_user
DROP DATABASE textfp_v10;
DROP DATABASE textfp_v11;
DROP DATABASE textfp_trusted;
DROP ROLE textfp_plain_user;
