-- track_near_mih: a SimHash store's near rows read through its mih index
-- directly (track_near_mih.c, at READ COMMITTED and REPEATABLE READ) give
-- the links the store's query gives (SERIALIZABLE keeps it) and the rule
-- gives: the same rows inserted one by one, in time order and then late
-- (before near rows, which they relink), with and without a cohesion bound
-- (tighter and looser than the threshold), into a table written at READ
-- COMMITTED and one written at SERIALIZABLE, equal each other and a rebuild.
SET client_min_messages = warning;
SET timezone = 'UTC';
CREATE SCHEMA track_near_mih;
SET search_path = track_near_mih, public;

CREATE FUNCTION pg_temp.w(seed text) RETURNS text LANGUAGE sql IMMUTABLE
	AS $$ SELECT translate(substr(md5(seed), 1, 7), '0123456789', 'ghijklmnop') $$;
-- families that drift (each version three words from the last), exact
-- copies at one time (ties, decided by the key), a template's boilerplate
-- with a few words of its own, unrelated texts
CREATE TABLE fixture (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text);
WITH fam AS (
	SELECT 'f' || f || 'v' || v AS tag,
		(SELECT string_agg(CASE WHEN i <= 3 * v THEN pg_temp.w(f || ':' || i || ':v') ELSE pg_temp.w(f || ':' || i) END, ' ' ORDER BY i)
		 FROM generate_series(1, 40) i) AS body,
		'2025-01-01'::timestamptz + (v * 6 + f % 3) * interval '1 hour' AS at
	FROM generate_series(1, 5) f, generate_series(0, 9) v),
dup AS (
	SELECT 'dup' || d AS tag, (SELECT body FROM fam WHERE tag = 'f2v3') AS body, '2025-01-03'::timestamptz AS at
	FROM generate_series(1, 4) d),
tpl AS (
	SELECT 't' || g AS tag,
		(SELECT string_agg(CASE WHEN i <= 36 THEN CASE WHEN i <= g THEN pg_temp.w('tx' || i) ELSE pg_temp.w('tpl' || i) END
								ELSE pg_temp.w('tu' || g || ':' || i) END, ' ' ORDER BY i)
		 FROM generate_series(1, 40) i) AS body,
		'2025-01-01'::timestamptz + (g * 5) * interval '1 hour' AS at
	FROM generate_series(1, 14) g),
single AS (
	SELECT 's' || s AS tag, (SELECT string_agg(pg_temp.w('s' || s || ':' || i), ' ') FROM generate_series(1, 40) i) AS body,
		'2025-01-01'::timestamptz + (s * 9) * interval '1 hour' AS at
	FROM generate_series(1, 6) s),
rows AS (SELECT * FROM fam UNION ALL SELECT * FROM dup UNION ALL SELECT * FROM tpl UNION ALL SELECT * FROM single)
INSERT INTO fixture SELECT row_number() OVER (ORDER BY md5(tag)), 'site' || (abs(hashtext(tag)) % 3), at, body FROM rows;

-- store rows that differ in anything but linked_at
CREATE FUNCTION pg_temp.store_diff(a regclass, b regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE format('SELECT count(*) FROM ((SELECT key, at, site, fp::text, source, source_site, source_at, story, score FROM %1$s
			EXCEPT SELECT key, at, site, fp::text, source, source_site, source_at, story, score FROM %2$s)
		UNION ALL (SELECT key, at, site, fp::text, source, source_site, source_at, story, score FROM %2$s
			EXCEPT SELECT key, at, site, fp::text, source, source_site, source_at, story, score FROM %1$s)) d', a, b) INTO n;
	RETURN n;
END
$$;

-- registrations of an empty table: threshold 9, cohesion none (64), looser
-- (12), the default (the threshold), tighter (6); each written at READ
-- COMMITTED (the index read directly) and at SERIALIZABLE (the query)
CREATE TABLE configs (name text, cohesion integer, isolation text);
INSERT INTO configs SELECT n || i, c, l FROM (VALUES ('t_none', 64), ('t_loose', 12), ('t_default', NULL), ('t_tight', 6)) x(n, c),
	(VALUES ('_rc', 'read committed'), ('_ser', 'serializable')) y(i, l);
SELECT format('CREATE TABLE %I (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text)', name) FROM configs \gexec
SELECT format('CALL textfp_track(%L, ''body'', ''id'', ''at'', site_column => ''site'', method => ''simhash'', threshold => 9, cohesion => %s)',
	name, coalesce(cohesion::text, 'NULL')) FROM configs \gexec

-- every row in time order, one statement each
CREATE FUNCTION pg_temp.insert_in_order(tbl text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	f record;
BEGIN
	FOR f IN SELECT * FROM fixture ORDER BY at, id LOOP
		EXECUTE format('INSERT INTO %I VALUES ($1, $2, $3, $4)', tbl) USING f.id, f.site, f.at, f.body;
	END LOOP;
END
$$;
SELECT format('BEGIN ISOLATION LEVEL %s', isolation), format('SELECT pg_temp.insert_in_order(%L)', name), 'COMMIT'
FROM configs ORDER BY name \gexec
CREATE FUNCTION pg_temp.summary(tbl text) RETURNS TABLE (rows bigint, links bigint, stories bigint) LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT count(*), count(source), count(DISTINCT story) FROM %I', tbl || '_textfp');
END
$$;
-- the store as the triggers left it, then rebuilt: the same
CREATE FUNCTION pg_temp.keep(tbl text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('DROP TABLE IF EXISTS %I', tbl || '_kept');
	EXECUTE format('CREATE TABLE %I AS SELECT * FROM %I', tbl || '_kept', tbl || '_textfp');
END
$$;
SELECT pg_temp.keep(name) FROM configs;
SELECT format('CALL textfp_rebuild(%L)', name) FROM configs \gexec
SELECT c.name, s.*, pg_temp.store_diff(format('%I', c.name || '_kept')::regclass, format('%I', c.name || '_textfp')::regclass) AS differs_from_rebuild,
	CASE WHEN c.name LIKE '%_rc' THEN pg_temp.store_diff(format('%I', c.name || '_kept')::regclass,
		format('%I', replace(c.name, '_rc', '_ser') || '_kept')::regclass) END AS differs_from_serializable
FROM configs c, pg_temp.summary(c.name) s ORDER BY c.name;

-- late arrivals in every registration: copies of the first 12 rows, one
-- word changed, three days before them (the query path: near rows after
-- them, which they relink), each followed by another copy after every row
CREATE FUNCTION pg_temp.late(tbl text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	FOR r IN SELECT row_number() OVER (ORDER BY x.at, x.id) AS n, x.id, x.site, x.at, x.body FROM fixture x
			 ORDER BY x.at, x.id LIMIT 12 LOOP
		EXECUTE format('INSERT INTO %I VALUES ($1, $2, $3, $4)', tbl)
			USING 2000 + r.n, r.site, r.at - interval '3 days', regexp_replace(r.body, '\S+$', 'late');
		EXECUTE format('INSERT INTO %I VALUES ($1, $2, $3, $4)', tbl)
			USING 3000 + r.n, r.site, '2025-03-01'::timestamptz + r.n * interval '1 minute', regexp_replace(r.body, '^\S+', 'again');
	END LOOP;
END
$$;
SELECT format('BEGIN ISOLATION LEVEL %s', isolation), format('SELECT pg_temp.late(%L)', name), 'COMMIT'
FROM configs ORDER BY name \gexec
SELECT pg_temp.keep(name) FROM configs;
SELECT format('CALL textfp_rebuild(%L)', name) FROM configs \gexec
SELECT c.name, s.*, pg_temp.store_diff(format('%I', c.name || '_kept')::regclass, format('%I', c.name || '_textfp')::regclass) AS differs_from_rebuild,
	CASE WHEN c.name LIKE '%_rc' THEN pg_temp.store_diff(format('%I', c.name || '_kept')::regclass,
		format('%I', replace(c.name, '_rc', '_ser') || '_kept')::regclass) END AS differs_from_serializable
FROM configs c, pg_temp.summary(c.name) s ORDER BY c.name;

SELECT textfp_untrack(name::regclass) FROM configs;
DROP SCHEMA track_near_mih CASCADE;
