-- The configurations of dropped textfp_dedup triggers are freed: a backend
-- keeps one per trigger it ran (its arguments, prepared lookups), and before
-- this was fixed every dropped table with such a trigger left it behind
-- (about 25 kB a table: 56 MB after 2,010 create/drop cycles).  Measured as
-- the memory the backend's contexts hold, as sql/options_cache.sql does, but
-- in use (total less free: the cache's blocks double as it grows); the
-- backend's own catalog caches take about 1.5 kB a cycle of it.
SET client_min_messages = warning;
CREATE PROCEDURE dedup_cycles(n int) LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1 .. n LOOP
		CREATE TABLE cycle (id int PRIMARY KEY, body text, fp simhash64, duplicate_of int);
		CREATE INDEX ON cycle USING mih (fp);
		CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON cycle FOR EACH ROW
			EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'mode=mark');
		INSERT INTO cycle (id, body) VALUES (1, 'the first row of cycle ' || i), (2, 'the first row of cycle ' || i || '!');
		DROP TABLE cycle;
		COMMIT;
	END LOOP;
END $$;
CREATE FUNCTION pg_temp.context_kb() RETURNS bigint LANGUAGE sql AS
$$SELECT sum(total_bytes - free_bytes)::bigint / 1024 FROM pg_backend_memory_contexts$$;
CALL dedup_cycles(10);
SELECT pg_temp.context_kb() AS kb_before \gset
CALL dedup_cycles(150);
-- at most the last trigger's configuration is left, and its two lookups
SELECT count(*) <= 1 AS one_config FROM pg_backend_memory_contexts WHERE name = 'textfp_dedup trigger';
SELECT count(*) <= 2 AS two_plans FROM pg_backend_memory_contexts
WHERE name = 'CachedPlanSource' AND ident LIKE 'SELECT t.id, %.hamming_distance(t.fp, $1) FROM ONLY %';
SELECT pg_temp.context_kb() - :kb_before < 1024 AS bounded;
DROP PROCEDURE dedup_cycles(int);

-- A configuration is not freed while a call uses it: here a domain check,
-- run by the trigger on the fingerprint it writes, changes the table (a
-- GRANT invalidates its cache entry) and writes a row through the same
-- trigger, which builds a new configuration; the outer call goes on with
-- its own, which is freed at the next call once it is done.
CREATE TABLE nest (id int PRIMARY KEY, body text, fp simhash64, duplicate_of int);
CREATE FUNCTION nest_check(v simhash64) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	IF v IS NOT NULL AND current_setting('regress.nested', true) IS DISTINCT FROM 'yes' THEN
		PERFORM set_config('regress.nested', 'yes', false);
		GRANT SELECT ON nest TO PUBLIC;
		INSERT INTO nest (id, body) VALUES (100, 'Storm closes the harbour bridge for two days while engineers inspect cables');
		REVOKE SELECT ON nest FROM PUBLIC;
	END IF;
	RETURN true;
END $$;
CREATE DOMAIN nest_fp AS simhash64 CHECK (nest_check(VALUE));
ALTER TABLE nest ALTER COLUMN fp TYPE nest_fp;
CREATE INDEX ON nest USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON nest FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'mode=mark');
INSERT INTO nest (id, body) VALUES (1, 'Storm closes the harbour bridge for two days while engineers inspect cables!');
SELECT id, duplicate_of FROM nest ORDER BY id;
SELECT count(*) AS configs_kept FROM pg_backend_memory_contexts WHERE name = 'textfp_dedup trigger';
INSERT INTO nest (id, body) VALUES (2, 'Storm closes the harbour bridge for two days while engineers inspect cables?');
SELECT id, duplicate_of FROM nest ORDER BY id;
SELECT count(*) AS configs_kept FROM pg_backend_memory_contexts WHERE name = 'textfp_dedup trigger';
RESET regress.nested;
DROP TABLE nest;
DROP DOMAIN nest_fp;
DROP FUNCTION nest_check(simhash64);
