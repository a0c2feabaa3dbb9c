-- plpgsql_lint: every PL/pgSQL function and procedure of textfp through
-- plpgsql_check (errors, other, extra, performance and security warnings);
-- the test fails on any finding but the suppressions below, each with its
-- reason.
SET client_min_messages = warning;
CREATE EXTENSION plpgsql_check;

-- plpgsql_check reads each static statement against the relations that exist
-- when it checks, so the temporary tables the functions make at run time are
-- made here in their shapes.  textfp_cluster_reps.fp is simhash64 or
-- minhash_sig as the table's fingerprint is, and textfp_cluster_pairs has a
-- branch of statements for each: two passes, one per kind, and a line is a
-- finding only when both passes find something on it (a line of the other
-- kind's branch fails in one pass only, on the fingerprint's type).
CREATE TEMP TABLE textfp_cluster_keys (key bigint, rep bigint);
CREATE TEMP TABLE textfp_cluster_pairs (a bigint, b bigint, score double precision);
CREATE TEMP TABLE textfp_cluster_bands (key bigint, band bigint);
CREATE TEMP TABLE textfp_cluster_cands (a bigint, b bigint);
CREATE TEMP TABLE textfp_cluster_out (key bigint, cluster_key bigint);

CREATE TEMP TABLE lint_functions AS
SELECT p.oid AS fn, p.proname, p.prokind
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql');
SELECT count(*) >= 15 AS functions_checked, count(*) FILTER (WHERE prokind = 'p') >= 3 AS procedures_checked FROM lint_functions;

\set lint 'SELECT f.proname, c.lineno, c.level, c.sqlstate, c.message, c.detail, c.query FROM lint_functions f CROSS JOIN LATERAL plpgsql_check_function_tb(f.fn, fatal_errors => false, other_warnings => true, extra_warnings => true, performance_warnings => true, security_warnings => true) c'
CREATE TEMP TABLE textfp_cluster_reps (key bigint, fp simhash64);
CREATE TEMP TABLE lint_simhash AS :lint;
DROP TABLE textfp_cluster_reps;
CREATE TEMP TABLE textfp_cluster_reps (key bigint, fp minhash_sig);
CREATE TEMP TABLE lint_minhash AS :lint;

-- Suppressions: (function, level, message, query or detail pattern, reason)
CREATE TEMP TABLE lint_allowed (proname name, level text, message text, pattern text, reason text);
INSERT INTO lint_allowed VALUES
	-- plpgsql_check does not read format()'s positional specifiers (%1$I):
	-- it reports every text argument of such a format as unsanitized, even
	-- one quoted with %1$I (see the control function below).  Every format
	-- of textfp's quotes names with %I and passes relations as regclass.
	(NULL, 'security', 'text type variable is not sanitized', '%[0-9]+\$', 'positional format specifiers'),
	-- fpcall is the registration's fingerprint call made by
	-- textfp_track_fp_call(), which quotes option names with %I and values
	-- with %L (each cast to its parameter's type)
	('textfp_track_register', 'security', 'text type variable is not sanitized', 'fpcall', 'built by textfp_track_fp_call'),
	-- textfp_track_register creates the registration's tables and triggers,
	-- textfp_track_fill inserts into the store, both through EXECUTE, which
	-- plpgsql_check cannot see into: VOLATILE is right.
	('textfp_track_register', 'performance', 'routine is marked as VOLATILE, should be STABLE', '', 'creates tables'),
	('textfp_track_fill', 'performance', 'routine is marked as VOLATILE, should be STABLE', '', 'writes the store'),
	-- the report functions return their rows with RETURN QUERY EXECUTE; a
	-- RETURNS TABLE function that returns by query never assigns its OUT
	-- variables
	(NULL, 'warning extra', 'OUT variable "%" is maybe unmodified', 'cannot to determine result of dynamic SQL', 'RETURN QUERY EXECUTE');

-- the findings: every (function, line) that both passes report on, less
-- the suppressed ones; none
SELECT s.proname, s.lineno, s.level, s.sqlstate, s.message
FROM lint_simhash s
WHERE EXISTS (SELECT FROM lint_minhash m WHERE m.proname = s.proname AND m.lineno IS NOT DISTINCT FROM s.lineno)
  AND NOT EXISTS (SELECT FROM lint_allowed a
				  WHERE (a.proname IS NULL OR a.proname = s.proname) AND a.level = s.level
					AND s.message LIKE a.message
					AND coalesce(s.query, '') || coalesce(s.detail, '') ~ a.pattern)
ORDER BY 1, 2, 5;
-- and the other way round (a finding of the minhash_sig pass alone on a line
-- the simhash64 pass also reports)
SELECT m.proname, m.lineno, m.level, m.sqlstate, m.message
FROM lint_minhash m
WHERE EXISTS (SELECT FROM lint_simhash s WHERE s.proname = m.proname AND s.lineno IS NOT DISTINCT FROM m.lineno)
  AND NOT EXISTS (SELECT FROM lint_allowed a
				  WHERE (a.proname IS NULL OR a.proname = m.proname) AND a.level = m.level
					AND m.message LIKE a.message
					AND coalesce(m.query, '') || coalesce(m.detail, '') ~ a.pattern)
ORDER BY 1, 2, 5;
-- each pass alone finds the other kind's branch (the passes do check it)
SELECT count(*) > 0 AS simhash_pass_finds_minhash_branch FROM lint_simhash WHERE message ~ 'jaccard|minhash_bands';
SELECT count(*) > 0 AS minhash_pass_finds_simhash_branch FROM lint_minhash WHERE message ~ 'hamming|mih_simhash64_ops|simhash64';

-- the control for the first suppression: %1$I is as safe as %I
CREATE FUNCTION pg_temp.lint_positional(n name, r regclass) RETURNS void LANGUAGE plpgsql
	AS $$ BEGIN EXECUTE format('SELECT %1$I FROM %2$s', n, r); END $$;
CREATE FUNCTION pg_temp.lint_plain(n name, r regclass) RETURNS void LANGUAGE plpgsql
	AS $$ BEGIN EXECUTE format('SELECT %I FROM %s', n, r); END $$;
SELECT 'positional' AS format, message FROM plpgsql_check_function_tb('pg_temp.lint_positional(name, regclass)', security_warnings => true)
UNION ALL
SELECT 'plain', message FROM plpgsql_check_function_tb('pg_temp.lint_plain(name, regclass)', security_warnings => true);

DROP EXTENSION plpgsql_check;
