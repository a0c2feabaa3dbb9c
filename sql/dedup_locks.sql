-- textfp_dedup's locks for writers without the table owner's privileges: they
-- never take the exclusive (table, scope) lock that would make every other
-- writer of the scope wait (specs/dedup_tenant.spec), and keep taking
-- per-row keys up to textfp.dedup_max_locks for the transaction, past which
-- their statement fails (54000).  The owner escalates instead.
SET client_min_messages = warning;
CREATE ROLE regress_dedup_owner;
CREATE ROLE regress_dedup_tenant;
CREATE TABLE texts (n int PRIMARY KEY, body text);
INSERT INTO texts VALUES
 (1, 'Storm closes the harbour bridge for two days while engineers inspect cables damaged by high winds overnight'),
 (2, 'Local bakery wins national prize for its sourdough, the owner thanks customers and staff for years of support'),
 (3, 'Council approves new cycling lanes along the river, construction to begin in spring and finish by the autumn'),
 (4, 'Orchestra announces a free summer concert series in the park with guest soloists from four countries this year'),
 (5, 'Museum reopens its east wing after a two year renovation with a new gallery of maritime paintings and maps'),
 (6, 'Farmers market moves to the old railway station on Saturdays, with more stalls and a covered seating area');
GRANT SELECT ON texts TO PUBLIC;
-- threshold 3: each row takes 4 keys and the shared (table, scope) lock
CREATE TABLE guarded (id int PRIMARY KEY, body text, fp simhash64);
CREATE INDEX ON guarded USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON guarded FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3', 'escalate=1');
ALTER TABLE guarded OWNER TO regress_dedup_owner;
GRANT INSERT ON guarded TO regress_dedup_tenant;
CREATE VIEW my_locks AS
SELECT l.objsubid, l.mode, count(*) FROM pg_locks l
WHERE l.locktype = 'advisory' AND l.pid = pg_backend_pid() AND l.objsubid IN (29798, 29799)
GROUP BY 1, 2 ORDER BY 1, 2;
GRANT SELECT ON my_locks TO PUBLIC;

-- the setting: 4096 by default, set by superusers only
SHOW textfp.dedup_max_locks;
SET textfp.dedup_max_locks = 12;
SET ROLE regress_dedup_tenant;
SET textfp.dedup_max_locks = 100000;
SHOW textfp.dedup_max_locks;

-- a tenant: keys past escalate, then 54000 at the third row (15 locks > 12)
BEGIN;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 1;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 2;
SELECT * FROM my_locks;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 3;
ROLLBACK;
-- a multi-row statement counts the same
INSERT INTO guarded SELECT n, body FROM texts WHERE n IN (1, 2, 3);
-- locks released by a rolled-back savepoint (or exception block) count no more
BEGIN;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 1;
SAVEPOINT s;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 2;
ROLLBACK TO s;
SELECT * FROM my_locks;
DO $$
BEGIN
	INSERT INTO guarded SELECT n, body FROM texts WHERE n = 3;
	RAISE EXCEPTION 'undo';
EXCEPTION WHEN raise_exception THEN
	NULL;
END $$;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 4;
SELECT * FROM my_locks;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 5;
ROLLBACK;
-- while a committed subtransaction's locks stay counted
BEGIN;
SAVEPOINT s;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 1;
RELEASE SAVEPOINT s;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 2;
INSERT INTO guarded SELECT n, body FROM texts WHERE n = 3;
ROLLBACK;
RESET ROLE;

-- the owner escalates: past escalate=1 row, the exclusive scope lock and no more keys
SET ROLE regress_dedup_owner;
BEGIN;
INSERT INTO guarded SELECT n, body FROM texts WHERE n IN (1, 2, 3, 4, 5, 6);
SELECT * FROM my_locks;
ROLLBACK;
RESET ROLE;
-- and without escalate, at the bound rather than failing
DROP TRIGGER dedup ON guarded;
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON guarded FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=3');
SET ROLE regress_dedup_owner;
BEGIN;
INSERT INTO guarded SELECT n, body FROM texts WHERE n IN (1, 2, 3, 4, 5, 6);
SELECT * FROM my_locks;
ROLLBACK;
RESET ROLE;
RESET textfp.dedup_max_locks;

DROP VIEW my_locks;
DROP TABLE guarded, texts;
DROP ROLE regress_dedup_owner, regress_dedup_tenant;
