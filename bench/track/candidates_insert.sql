-- candidates_insert.sql: single-row inserts into a tracked table for each candidate of cand
-- (candidates.sh's table: name, expr, threshold; options given as psql variable per run), next to
-- plain inserts of the same rows that compute the same fingerprint.  Expects cl (id, lang, body) and
-- psql variables name, options (textfp_track's options, a text[] literal), threshold, base (rows of cl
-- in the table before, ids 1..base) and inserts (the rows inserted after, ids base+1 ..).  Times
-- come from cl's id order (one minute apart), so every insert is later than every row before.
-- Results in ins_result (name, kind: tracked or plain, lang, id, ms) and ins_build.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
CREATE TABLE IF NOT EXISTS ins_result (name text, kind text, lang text, id bigint, ms float8);
CREATE TABLE IF NOT EXISTS ins_build (name text, base int, track_s float8, at timestamptz DEFAULT clock_timestamp());
DELETE FROM ins_result WHERE name = :'name';
DELETE FROM ins_build WHERE name = :'name';
\set tbl 'ti_' :name
\set plain 'tp_' :name
SELECT format('DROP TABLE IF EXISTS %I', :'plain') \gexec
SELECT format('SELECT textfp_untrack(%L)', :'tbl') WHERE EXISTS (SELECT FROM textfp_tracked() t WHERE t.tbl::text = :'tbl') \gexec
SELECT format('DROP TABLE IF EXISTS %I', :'tbl') \gexec
SELECT format('CREATE TABLE %I (id bigint PRIMARY KEY, published_at timestamptz NOT NULL, body text NOT NULL)', :'tbl') \gexec
SELECT format('INSERT INTO %I SELECT id, timestamptz ''2024-01-01'' + id * interval ''1 minute'', body FROM cl WHERE id <= %s',
	:'tbl', :base) \gexec
SELECT format('CREATE TABLE %I (id bigint PRIMARY KEY, published_at timestamptz NOT NULL, body text NOT NULL, fp minhash_sig)',
	:'plain') \gexec
SELECT clock_timestamp() AS t0 \gset
CALL textfp_track(:'tbl', 'body', 'id', 'published_at', options => :'options', threshold => :threshold);
INSERT INTO ins_build (name, base, track_s) VALUES (:'name', :base, extract(epoch FROM clock_timestamp() - :'t0'::timestamptz));
SET ins.tbl = :'tbl';
SET ins.plain = :'plain';
SET ins.name = :'name';
SET ins.base = :base;
SET ins.inserts = :inserts;
SET ins.expr = :'expr';
-- tracked and plain inserts of each row alternately, each its own transaction
DO $$
DECLARE n bigint; t0 timestamptz; l text; ms float8;
	b bigint := current_setting('ins.base')::bigint;
BEGIN
	FOR n IN b + 1 .. b + current_setting('ins.inserts')::bigint LOOP
		SELECT lang INTO l FROM cl WHERE id = n;
		t0 := clock_timestamp();
		EXECUTE format('INSERT INTO %I SELECT id, timestamptz ''2024-01-01'' + id * interval ''1 minute'', body FROM cl WHERE id = $1',
			current_setting('ins.tbl')) USING n;
		COMMIT;
		ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
		INSERT INTO ins_result VALUES (current_setting('ins.name'), 'tracked', l, n, ms);
		t0 := clock_timestamp();
		EXECUTE format('INSERT INTO %I SELECT id, timestamptz ''2024-01-01'' + id * interval ''1 minute'', body, %s FROM cl WHERE id = $1',
			current_setting('ins.plain'), replace(current_setting('ins.expr'), '$1', 'body')) USING n;
		COMMIT;
		ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
		INSERT INTO ins_result VALUES (current_setting('ins.name'), 'plain', l, n, ms);
		COMMIT;
	END LOOP;
END $$;
SELECT name, kind, lang, count(*) AS inserts, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS ms_median,
	round(avg(ms)::numeric, 2) AS ms_mean, round(max(ms)::numeric, 1) AS ms_max
FROM ins_result WHERE name = :'name' GROUP BY 1, 2, 3 ORDER BY 3, 2;
SELECT * FROM ins_build WHERE name = :'name';
