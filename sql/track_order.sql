-- track_order: upkeep on write equals a rebuild in time order.  The same
-- rows arrive in several seeded random orders (one statement a row, or
-- several rows a statement), some first in another shape fixed later (other
-- text, time, key, site, a NULL text), some deleted and inserted again, some
-- after a near row that goes again, into tracked tables of both methods,
-- with and without a cohesion bound (looser and tighter than the threshold),
-- with bigint keys and timestamptz times, and text keys of a non-C collation
-- with date times (many ties, decided by the key in "C" order).  Each store
-- is compared, row by row (key, time, site, fingerprint, source, story,
-- score), with a from-scratch registration of the final rows, with itself
-- after textfp_rebuild, and with the link rule written out in PL/pgSQL (the
-- oracle below).  The rows are near-duplicate families that drift (each
-- version three words from the last, so links chain and stories grow far
-- from their original), branches at the same time, exact copies (ties in
-- score), templates with a drifting boilerplate, a family whose versions
-- come in reverse time order, and unrelated texts.
SET client_min_messages = warning;
SET timezone = 'UTC';
CREATE SCHEMA track_order;
SET search_path = track_order, public;

CREATE FUNCTION pg_temp.w(seed text) RETURNS text LANGUAGE sql IMMUTABLE
	AS $$ SELECT translate(substr(md5(seed), 1, 7), '0123456789', 'ghijklmnop') $$;
CREATE TABLE fixture (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text, tag text);
WITH fam AS (
	-- family f, version v (words 1 .. 3v replaced), branch b (the last three replaced otherwise)
	SELECT 'f' || f || 'v' || v || 'b' || b AS tag,
		(SELECT string_agg(CASE WHEN i <= 3 * v THEN pg_temp.w(f || ':' || i || ':' || CASE WHEN i > 3 * (v - 1) THEN b ELSE 0 END)
								ELSE pg_temp.w(f || ':' || i) END, ' ' ORDER BY i)
		 FROM generate_series(1, 40) i) AS body,
		'2025-01-01'::timestamptz + ((CASE WHEN f = 5 THEN 8 - v ELSE v END) * 6 + f % 3) * interval '1 hour' AS at
	FROM generate_series(1, 6) f, generate_series(0, 7) v, generate_series(0, 1) b
	WHERE b = 0 OR (v >= 2 AND (f + v) % 3 = 0)),
tpl AS (
	-- 36 words of boilerplate, g of them changed, and 4 words of its own
	SELECT 't' || g AS tag,
		(SELECT string_agg(CASE WHEN i <= 36 THEN CASE WHEN i <= g THEN pg_temp.w('tx' || i) ELSE pg_temp.w('tpl' || i) END
								ELSE pg_temp.w('tu' || g || ':' || i) END, ' ' ORDER BY i)
		 FROM generate_series(1, 40) i) AS body,
		'2025-01-01'::timestamptz + (g * 5) * interval '1 hour' AS at
	FROM generate_series(1, 14) g),
dup AS (
	SELECT 'dup' || d AS tag, (SELECT body FROM fam WHERE tag = 'f1v0b0') AS body,
		'2025-01-01'::timestamptz + (d * 7) * interval '1 hour' AS at
	FROM generate_series(1, 3) d),
single AS (
	SELECT 's' || s AS tag, (SELECT string_agg(pg_temp.w('s' || s || ':' || i), ' ') FROM generate_series(1, 40) i) AS body,
		'2025-01-01'::timestamptz + (s * 9) * interval '1 hour' AS at
	FROM generate_series(1, 6) s),
rows AS (SELECT tag, body, at FROM fam UNION ALL SELECT tag, body, at FROM tpl
		 UNION ALL SELECT tag, body, at FROM dup UNION ALL SELECT tag, body, at FROM single)
INSERT INTO fixture SELECT row_number() OVER (ORDER BY md5(tag)), 'site' || (abs(hashtext(tag)) % 4), at, body, tag FROM rows;
SELECT count(*) AS fixture_rows, count(DISTINCT at) AS times, count(DISTINCT body) AS texts FROM fixture;

-- A seed's arrival script: every row arrives once, at its rank in the
-- seeded order; by a seeded kind, the row arrives as it is (0, 7), with the
-- text of another row and gets its own later (1), two days off its time
-- fixed later (2), under another key changed later (3), is deleted later
-- and inserted again (4), comes with a near row an hour before it that is
-- deleted later (5), or comes elsewhere without text and gets its site,
-- then its text, later (6).
CREATE FUNCTION pg_temp.ops(seed integer)
RETURNS TABLE (step numeric, op text, id bigint, site text, at timestamptz, body text, arg bigint)
	LANGUAGE sql AS $$
	WITH r AS (SELECT f.*, rank() OVER (ORDER BY md5(seed || '/' || f.id)) AS p, abs(hashtext(seed || 'k' || f.id)) % 8 AS k,
					  1 + abs(hashtext(seed || 'd' || f.id)) % 15 AS d, (SELECT count(*) FROM fixture) AS n
			   FROM fixture f)
	SELECT p, 'insert', r.id, r.site, r.at, r.body, NULL::bigint FROM r WHERE k IN (0, 4, 5, 7)
	UNION ALL SELECT p, 'insert', r.id, r.site, r.at, (SELECT o.body FROM fixture o WHERE o.id = (r.id * 7) % r.n + 1), NULL FROM r WHERE k = 1
	UNION ALL SELECT p + d, 'text', r.id, NULL, NULL, r.body, NULL FROM r WHERE k = 1
	UNION ALL SELECT p, 'insert', r.id, r.site, r.at + CASE WHEN r.id % 2 = 0 THEN interval '2 days' ELSE interval '-2 days' END, r.body, NULL
		FROM r WHERE k = 2
	UNION ALL SELECT p + d, 'time', r.id, NULL, r.at, NULL, NULL FROM r WHERE k = 2
	UNION ALL SELECT p, 'insert', r.id + 100000, r.site, r.at, r.body, NULL FROM r WHERE k = 3
	UNION ALL SELECT p + d, 'key', r.id, NULL, NULL, NULL, r.id + 100000 FROM r WHERE k = 3
	UNION ALL SELECT p + d, 'delete', r.id, NULL, NULL, NULL, NULL FROM r WHERE k = 4
	UNION ALL SELECT p + d + 0.5, 'insert', r.id, r.site, r.at, r.body, NULL FROM r WHERE k = 4
	UNION ALL SELECT p + 0.5, 'insert', r.id + 200000, r.site, r.at - interval '1 hour', regexp_replace(r.body, '^\S+ \S+', 'early bird'), NULL
		FROM r WHERE k = 5
	UNION ALL SELECT p + d, 'delete', r.id + 200000, NULL, NULL, NULL, NULL FROM r WHERE k = 5
	UNION ALL SELECT p, 'insert', r.id, 'elsewhere', r.at, NULL, NULL FROM r WHERE k = 6
	UNION ALL SELECT p + d, 'site', r.id, r.site, NULL, NULL, NULL FROM r WHERE k = 6
	UNION ALL SELECT p + d + 0.25, 'text', r.id, NULL, NULL, r.body, NULL FROM r WHERE k = 6
$$;

-- The script's steps after first up to last run on tbl: a statement
-- an operation, or with batched up to six inserts in a row in one statement.
CREATE FUNCTION pg_temp.arrive(tbl regclass, seed integer, batched boolean, first numeric, last numeric) RETURNS bigint
	LANGUAGE plpgsql AS $$
DECLARE
	o record;
	vals text[] := '{}';
	n bigint := 0;
BEGIN
	FOR o IN SELECT * FROM pg_temp.ops(seed) s WHERE s.step > first AND s.step <= last ORDER BY s.step, s.op, s.id LOOP
		IF o.op = 'insert' THEN
			vals := vals || format('(%s, %L, %L, %L)', o.id, o.site, o.at, o.body);
			n := n + 1;
			CONTINUE WHEN batched AND cardinality(vals) < 6;
		END IF;
		IF cardinality(vals) > 0 THEN
			EXECUTE format('INSERT INTO %s (id, site, at, body) VALUES %s', tbl, array_to_string(vals, ', '));
			vals := '{}';
		END IF;
		CASE o.op
		WHEN 'insert' THEN NULL;
		WHEN 'text' THEN EXECUTE format('UPDATE %s SET body = $1 WHERE id = $2', tbl) USING o.body, o.id;
		WHEN 'time' THEN EXECUTE format('UPDATE %s SET at = $1 WHERE id = $2', tbl) USING o.at, o.id;
		WHEN 'site' THEN EXECUTE format('UPDATE %s SET site = $1 WHERE id = $2', tbl) USING o.site, o.id;
		WHEN 'key' THEN EXECUTE format('UPDATE %s SET id = $1 WHERE id = $2', tbl) USING o.id, o.arg;
		WHEN 'delete' THEN EXECUTE format('DELETE FROM %s WHERE id = $1', tbl) USING o.id;
		END CASE;
		IF o.op <> 'insert' THEN
			n := n + 1;
		END IF;
	END LOOP;
	IF cardinality(vals) > 0 THEN
		EXECUTE format('INSERT INTO %s (id, site, at, body) VALUES %s', tbl, array_to_string(vals, ', '));
	END IF;
	RETURN n;
END
$$;

-- The scripts do what they should: each op kind occurs, and many rows
-- arrive after a later row near them (late arrivals that reach rows)
SELECT s.seed, count(*) FILTER (WHERE o.op = 'insert') AS inserts, count(*) FILTER (WHERE o.op = 'text') AS texts,
	count(*) FILTER (WHERE o.op = 'time') AS times, count(*) FILTER (WHERE o.op = 'key') AS keys,
	count(*) FILTER (WHERE o.op = 'delete') AS deletes, count(*) FILTER (WHERE o.op = 'site') AS sites
FROM generate_series(1, 6) s(seed), pg_temp.ops(s.seed) o GROUP BY 1 ORDER BY 1;
SELECT s.seed, count(*) > 20 AS late_arrivals_near_later_rows
FROM generate_series(1, 6) s(seed), fixture a, fixture b
WHERE a.at < b.at AND hamming_distance(simhash(a.body), simhash(b.body)) <= 9
  AND md5(s.seed || '/' || a.id) > md5(s.seed || '/' || b.id)
GROUP BY 1 ORDER BY 1;

-- The link rule written out (track_link.c's header): rows in (time, key)
-- order, key in "C" order; a row's candidates are the earlier rows within
-- the threshold (for minhash also an LSH candidate of the registration's
-- banding, as the store's index finds them), nearest first, then earliest;
-- with a cohesion bound (by default the threshold) a candidate is taken
-- only if the row is within it of the candidate's story's original; none:
-- the row is an original.
-- Returns the rows of the store whose (source, story, score) differ from
-- the rule's, and the rule's rows the store does not have.
CREATE FUNCTION pg_temp.oracle_diff(store regclass, minhash boolean, threshold float8, cohesion float8) RETURNS bigint
	LANGUAGE plpgsql AS $$
DECLARE
	r record;
	c record;
	near text := CASE WHEN minhash THEN 'jaccard(%1$s::minhash_sig, %2$s::minhash_sig)'
					  ELSE 'hamming_distance(%1$s::simhash64, %2$s::simhash64)::float8' END;
	n bigint;
	bands integer;
	rows integer;
	min_bands integer;
BEGIN
	-- the registration's threshold where the caller left it to the preset
	IF threshold IS NULL THEN
		EXECUTE format('SELECT threshold FROM %s', store::text || '_config') INTO threshold;
	END IF;
	cohesion := coalesce(cohesion, threshold);
	-- the registration's banding: the store finds only the candidates it gives
	EXECUTE format('SELECT lsh_bands, lsh_rows, lsh_min_bands FROM %s', store::text || '_config') INTO bands, rows, min_bands;
	-- ord: the (time, key) order, the key's "C" order being the store's
	DROP TABLE IF EXISTS pg_temp.oracle_rows;
	EXECUTE format('CREATE TEMP TABLE oracle_rows AS SELECT key::text AS key, row_number() OVER (ORDER BY at, key) AS ord,
		fp::text AS fp, NULL::text AS source, key::text AS story, NULL::float8 AS score FROM %s', store);
	FOR r IN SELECT * FROM oracle_rows WHERE fp IS NOT NULL ORDER BY ord LOOP
		FOR c IN EXECUTE format('SELECT e.key, e.story, %1$s AS score, (SELECT %2$s FROM oracle_rows o WHERE o.key = e.story) AS to_original
				FROM oracle_rows e
				WHERE e.ord < $1 AND e.fp IS NOT NULL AND %1$s %3$s $2 %4$s
				ORDER BY %1$s %5$s, e.ord',
				format(near, 'e.fp', '$3'), format(near, 'o.fp', '$3'), CASE WHEN minhash THEN '>=' ELSE '<=' END,
				CASE WHEN minhash THEN 'AND e.fp::minhash_sig @@ lsh_query($3::minhash_sig, $5, $6, $4)' ELSE '' END,
				CASE WHEN minhash THEN 'DESC' ELSE 'ASC' END)
			USING r.ord, threshold, r.fp, min_bands, bands, rows
		LOOP
			IF (CASE WHEN minhash THEN c.to_original >= cohesion ELSE c.to_original <= cohesion END) THEN
				UPDATE oracle_rows o SET source = c.key, story = c.story, score = c.score WHERE o.key = r.key;
				EXIT;
			END IF;
		END LOOP;
	END LOOP;
	EXECUTE format('SELECT count(*) FROM ((SELECT key::text, source::text, story::text, score FROM %1$s EXCEPT SELECT key, source, story, score FROM oracle_rows)
		UNION ALL (SELECT key, source, story, score FROM oracle_rows EXCEPT SELECT key::text, source::text, story::text, score FROM %1$s)) d', store) INTO n;
	RETURN n;
END
$$;

-- rows of two stores that differ in anything but linked_at
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

-- the registrations: name, method, threshold, cohesion (64 and 0: no bound;
-- NULL: the default, the threshold), key and time types.  MinHash with a
-- NULL threshold: the registration's defaults whole (no preset, no
-- threshold: minhash_v3, its threshold and its banding, 44 bands of one, at
-- least 6 equal)
CREATE TABLE configs (name text, method text, threshold float8, cohesion float8, text_key boolean);
INSERT INTO configs VALUES
	('sim', 'simhash', 9, 64, false),
	('sim_coh', 'simhash', 9, 12, false),
	('sim_default', 'simhash', 9, NULL, false),
	('sim_tight', 'simhash', 9, 6, false),
	('min', 'minhash', 0.7, 0, false),
	('min_default', 'minhash', 0.7, NULL, false),
	('min_coh', 'minhash', 0.7, 0.55, false),
	('min_tight', 'minhash', 0.7, 0.8, false),
	('min_low', 'minhash', 0.3, NULL, false),
	('min_text_date', 'minhash', 0.5, 0.4, true),
	('sim_text_date', 'simhash', 9, 12, true),
	('min_v3', 'minhash', NULL, NULL, false);
-- a table of a config: bigint keys and timestamptz times, or text keys of
-- the ICU root collation (made from the id: 'a' for odd ids, 'B' for even
-- ones, an order "C" reverses) and date times
CREATE FUNCTION pg_temp.make(c configs, tbl text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF c.text_key THEN
		EXECUTE format('CREATE TABLE %I (id bigint NOT NULL UNIQUE, site text, at date NOT NULL, body text,
			k text COLLATE "und-x-icu" GENERATED ALWAYS AS (CASE WHEN id %% 2 = 0 THEN ''B'' ELSE ''a'' END || id) STORED PRIMARY KEY)', tbl);
	ELSE
		EXECUTE format('CREATE TABLE %I (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text)', tbl);
	END IF;
END
$$;
-- the CALL that registers a table of a config; MinHash with minhash_v2,
-- the pairs the fixture's edits and thresholds were made for (the rule, not
-- the fingerprint, is what this file tests), but for min_v3 (the defaults:
-- the banding the store's index and the in-memory pass share)
CREATE FUNCTION pg_temp.track(c configs, tbl text) RETURNS text LANGUAGE sql AS $$
	SELECT format('CALL textfp_track(%L, ''body'', %L, ''at'', site_column => ''site'', method => %L%s, cohesion => %s%s)',
		tbl, CASE WHEN c.text_key THEN 'k' ELSE 'id' END, c.method,
		CASE WHEN c.threshold IS NOT NULL THEN ', threshold => ' || c.threshold END, coalesce(c.cohesion::text, 'NULL'),
		CASE WHEN c.method = 'minhash' AND c.threshold IS NOT NULL THEN ', preset => ''minhash_v2''' ELSE '' END)
$$;

-- the from-scratch registrations: every row there before textfp_track()
SELECT pg_temp.make(c, 'ref_' || c.name) FROM configs c;
SELECT format('INSERT INTO %I (id, site, at, body) SELECT id, site, at, body FROM fixture', 'ref_' || name) FROM configs \gexec
SELECT pg_temp.track(c, 'ref_' || c.name) FROM configs c \gexec
-- the defaults' registration is minhash_v3's
SELECT preset, threshold, lsh_bands, lsh_rows, lsh_min_bands FROM ref_min_v3_textfp_config;
SELECT c.name, pg_temp.oracle_diff(format('%I', 'ref_' || c.name || '_textfp')::regclass, c.method = 'minhash', c.threshold, c.cohesion) AS differs_from_rule
FROM configs c ORDER BY c.name;
-- the stories are not trivial: links that chain (a source that is not the
-- original), stories of many rows, and each cohesion bound changes stories
CREATE FUNCTION pg_temp.shape(store regclass, OUT links bigint, OUT chained bigint, OUT largest bigint, OUT stories bigint)
	LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT count(s.source), count(*) FILTER (WHERE s.source <> s.story),
			(SELECT max(n) FROM (SELECT count(*) AS n FROM %1$s GROUP BY story) g), count(DISTINCT s.story) FROM %1$s s', store)
		INTO links, chained, largest, stories;
END
$$;
SELECT c.name, (pg_temp.shape(format('%I', 'ref_' || c.name || '_textfp')::regclass)).* FROM configs c ORDER BY c.name;
SELECT c.name, count(*) AS rows_in_another_story_than_without_cohesion
FROM configs c, configs b, textfp_stories(format('%I', 'ref_' || c.name)::regclass) s
JOIN textfp_stories(format('%I', 'ref_' || b.name)::regclass) t USING (key)
WHERE c.name NOT IN ('sim', 'min', 'min_v3') AND NOT c.text_key AND b.name = CASE c.method WHEN 'simhash' THEN 'sim' ELSE 'min' END
	AND s.story_id <> t.story_id
GROUP BY 1 ORDER BY 1;

-- The story report reads the story summary and recounts the stories
-- changed since its last fold (min_size 2, the default); with min_size 1 it
-- counts the whole store: the two agree, row for row.  After a fold the
-- summary is the store's count itself, and no change is left.  stories:
-- the summary's rows the writers' own folds had made by then.
CREATE FUNCTION pg_temp.report_diff(tbl regclass) RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*) FROM (
		(SELECT * FROM textfp_story_report(tbl) EXCEPT ALL SELECT * FROM textfp_story_report(tbl, min_size => 1) r WHERE r.size >= 2)
		UNION ALL
		(SELECT * FROM textfp_story_report(tbl, min_size => 1) r WHERE r.size >= 2 EXCEPT ALL SELECT * FROM textfp_story_report(tbl))) d
$$;
-- the same for who reprints whom: the summary's answer and the whole
-- store's (since => '-infinity': counted from every link, grouping by the
-- source row's own site, not the site the link keeps)
CREATE FUNCTION pg_temp.reprints_diff(tbl regclass) RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*) FROM (
		(SELECT * FROM textfp_reprints(tbl, same_site => true) EXCEPT ALL SELECT * FROM textfp_reprints(tbl, '-infinity', true))
		UNION ALL
		(SELECT * FROM textfp_reprints(tbl, '-infinity', true) EXCEPT ALL SELECT * FROM textfp_reprints(tbl, same_site => true))) d
$$;
-- max_rows: the first n rows of each report in its order, read from the
-- summaries' indexes and merged with the changes not folded yet: the same
-- as the first n of the whole report (the whole store's count for min_size
-- 1 and since)
CREATE FUNCTION pg_temp.prefix_diff(tbl regclass) RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*) FROM generate_series(0, 9) n
	WHERE ARRAY(SELECT r::text FROM textfp_story_report(tbl, max_rows => n) r)
			IS DISTINCT FROM (ARRAY(SELECT r::text FROM textfp_story_report(tbl) r))[1:n]
		OR ARRAY(SELECT r::text FROM textfp_story_report(tbl, min_size => 1, max_rows => n) r)
			IS DISTINCT FROM (ARRAY(SELECT r::text FROM textfp_story_report(tbl, min_size => 1) r))[1:n]
		OR ARRAY(SELECT r::text FROM textfp_reprints(tbl, same_site => n % 2 = 0, max_rows => n) r)
			IS DISTINCT FROM (ARRAY(SELECT r::text FROM textfp_reprints(tbl, same_site => n % 2 = 0) r))[1:n]
		OR ARRAY(SELECT r::text FROM textfp_reprints(tbl, '-infinity', n % 2 = 0, n) r)
			IS DISTINCT FROM (ARRAY(SELECT r::text FROM textfp_reprints(tbl, '-infinity', n % 2 = 0) r))[1:n]
		OR ARRAY(SELECT r::text FROM textfp_new_stories(tbl, '-infinity', n) r)
			IS DISTINCT FROM (ARRAY(SELECT r::text FROM textfp_new_stories(tbl, '-infinity') r))[1:n]
$$;
CREATE FUNCTION pg_temp.fold_diff(tbl regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	PERFORM textfp_track_fold(format('%s_textfp_config', tbl)::regclass, false);
	EXECUTE format('SELECT count(*) FROM (
		(SELECT story::text, size, sites, site::text, first_at, last_at FROM %1$s_textfp_stories
		 EXCEPT ALL SELECT * FROM textfp_story_report(%2$L, min_size => 1) r WHERE r.size >= 2)
		UNION ALL
		(SELECT * FROM textfp_story_report(%2$L, min_size => 1) r WHERE r.size >= 2
		 EXCEPT ALL SELECT story::text, size, sites, site::text, first_at, last_at FROM %1$s_textfp_stories)) d', tbl, tbl)
		INTO n;
	EXECUTE format('SELECT $1 + count(*) FROM %s_textfp_changes', tbl) INTO n USING n;
	-- the reprint summary right after the fold, and its changes
	EXECUTE format('SELECT $1 + count(*) FROM (
		(SELECT source_site::text, site::text, reprints, stories, median_delay FROM %1$s_textfp_reprints WHERE reprints > 0
		 EXCEPT ALL SELECT * FROM textfp_reprints(%2$L, ''-infinity'', true))
		UNION ALL
		(SELECT * FROM textfp_reprints(%2$L, ''-infinity'', true)
		 EXCEPT ALL SELECT source_site::text, site::text, reprints, stories, median_delay FROM %1$s_textfp_reprints WHERE reprints > 0)) d', tbl, tbl)
		INTO n USING n;
	EXECUTE format('SELECT $1 + count(*) FROM %s_textfp_reprint_changes', tbl) INTO n USING n;
	RETURN n;
END
$$;
CREATE TABLE report_results (name text, seed integer, report_differs bigint, reprints_differ bigint, prefix_differs bigint, summary_differs bigint,
	stories bigint, site_pairs bigint);

-- the arrivals: each config in one or two seeds, a statement a row or in
-- batches, two of them with a textfp_rebuild halfway
CREATE TABLE runs (name text, seed integer, batched boolean, split numeric);
INSERT INTO runs VALUES
	('sim', 1, false, NULL), ('sim', 2, true, NULL), ('sim_coh', 3, false, 45), ('sim_coh', 4, true, NULL),
	('sim_tight', 5, false, NULL), ('min', 1, false, NULL), ('min', 2, true, 45), ('min_coh', 3, true, NULL),
	('min_tight', 4, false, NULL), ('sim_text_date', 5, false, NULL), ('sim_text_date', 6, true, NULL),
	('sim_default', 7, true, 45), ('min_default', 8, false, NULL), ('min_v3', 9, true, 45);
CREATE TABLE results (name text, seed integer, batched boolean, split numeric, rows_not_as_fixture bigint,
	differs_from_scratch bigint, differs_after_rebuild bigint, rebuild_changed bigint);
SELECT format('SELECT pg_temp.make(c, %L) FROM configs c WHERE c.name = %L', t, r.name),
	(SELECT pg_temp.track(c, t) FROM configs c WHERE c.name = r.name),
	format('SELECT pg_temp.arrive(%L, %s, %L, 0, %s)', t, r.seed, r.batched, coalesce(r.split, 1e9)),
	CASE WHEN r.split IS NOT NULL THEN format('CALL textfp_rebuild(%L)', t) END,
	CASE WHEN r.split IS NOT NULL THEN format('SELECT pg_temp.arrive(%L, %s, %L, %s, 1e9)', t, r.seed, r.batched, r.split) END,
	format('INSERT INTO report_results SELECT %L, %s, pg_temp.report_diff(%L), pg_temp.reprints_diff(%L), pg_temp.prefix_diff(%L), pg_temp.fold_diff(%L),
		(SELECT count(*) FROM %I), (SELECT count(*) FROM %I WHERE reprints > 0)',
		r.name, r.seed, t, t, t, t, t || '_textfp_stories', t || '_textfp_reprints'),
	format('CREATE TABLE %I AS SELECT * FROM %I', t || '_before', t || '_textfp'),
	format('CALL textfp_rebuild(%L)', t),
	format('INSERT INTO results SELECT %L, %s, %L, %L, (SELECT count(*) FROM ((SELECT id, site, at, body FROM %I EXCEPT SELECT id, site, at, body FROM %I)
			UNION ALL (SELECT id, site, at, body FROM %I EXCEPT SELECT id, site, at, body FROM %I)) d),
		pg_temp.store_diff(%L, %L), pg_temp.store_diff(%L, %L), pg_temp.store_diff(%L, %L)',
		r.name, r.seed, r.batched, r.split, t, 'ref_' || r.name, 'ref_' || r.name, t,
		t || '_before', 'ref_' || r.name || '_textfp', t || '_textfp', 'ref_' || r.name || '_textfp', t || '_before', t || '_textfp')
FROM runs r, LATERAL (SELECT format('arr_%s_%s', r.name, r.seed) AS t) x
ORDER BY r.name, r.seed \gexec
SELECT * FROM results ORDER BY name, seed;
SELECT * FROM report_results ORDER BY name, seed;

-- statements that change many rows at once (times, texts, keys and times
-- together, deletes, a delete and insert in one statement): the triggers
-- replay the rows one after the other, and the store ends as a rebuild
-- makes it and as the rule says
CREATE TABLE multi_results (name text, rows_not_in_store bigint, rebuild_changed bigint, differs_from_rule bigint);
SELECT format('SELECT pg_temp.make(c, %L) FROM configs c WHERE c.name = %L', t, c.name),
	format('INSERT INTO %I (id, site, at, body) SELECT id, site, at, body FROM fixture', t),
	pg_temp.track(c, t),
	format('UPDATE %I SET at = at + (id %% 3) * interval ''5 hours''', t),
	format('UPDATE %I x SET body = (SELECT f.body FROM fixture f WHERE f.id = (x.id * 5) %% 83 + 1) WHERE x.id %% 5 = 0', t),
	format('DELETE FROM %I WHERE id %% 7 = 0', t),
	format('UPDATE %I SET site = CASE WHEN id %% 13 = 0 THEN NULL ELSE ''site'' || (id %% 3) END WHERE id %% 4 = 2', t),
	format('UPDATE %I SET id = id + 1000, at = at - interval ''1 day'', body = body || '' tail'' WHERE id %% 6 = 1', t),
	format('WITH d AS (DELETE FROM %1$I WHERE id %% 11 = 0 RETURNING *) INSERT INTO %1$I (id, site, at, body) SELECT id + 5000, site, at + interval ''3 hours'', body FROM d', t),
	format('INSERT INTO report_results SELECT %L, NULL, pg_temp.report_diff(%L), pg_temp.reprints_diff(%L), pg_temp.prefix_diff(%L), pg_temp.fold_diff(%L),
		(SELECT count(*) FROM %I), (SELECT count(*) FROM %I WHERE reprints > 0)',
		t, t, t, t, t, t || '_textfp_stories', t || '_textfp_reprints'),
	format('CREATE TABLE %I AS SELECT * FROM %I', t || '_before', t || '_textfp'),
	format('CALL textfp_rebuild(%L)', t),
	format('INSERT INTO multi_results SELECT %L, (SELECT count(*) FROM %I x WHERE NOT EXISTS (SELECT FROM %I s WHERE s.key::text = %s::text COLLATE "C" AND s.at = x.at)),
		pg_temp.store_diff(%L, %L), pg_temp.oracle_diff(%L, %L, %s, %s)',
		c.name, t, t || '_textfp', CASE WHEN c.text_key THEN 'x.k' ELSE 'x.id' END, t || '_before', t || '_textfp',
		t || '_textfp', c.method = 'minhash', c.threshold, coalesce(c.cohesion::text, 'NULL'))
FROM configs c, LATERAL (SELECT format('multi_%s', c.name) AS t) x
WHERE c.name IN ('sim_coh', 'min', 'sim_text_date')
ORDER BY c.name \gexec
SELECT * FROM multi_results ORDER BY name;
SELECT * FROM report_results WHERE seed IS NULL ORDER BY name;

-- The two rebuilds: textfp_rebuild() at once in memory (the default) and in
-- batches (online => true) both give the rule's links, from a store whose
-- links were scrambled (no source, the row itself or no earlier row as
-- source or story, a score of 99 or none): for each registration above on
-- the fixture and a row without text (a NULL fingerprint), and for uuid keys
-- with many equal times (ties decided by the key).  Fingerprints planted in
-- the store by hand: SimHash 0000000000000000 on a row before the one without
-- text (a NULL read as that fingerprint would link to it), MinHash
-- featureless signatures on two rows (equal in every position, yet they
-- share no band: lsh_query.c).  A MinHash registration whose banding asks
-- for many equal bands (30 of 44, set by hand: the index answers any
-- min_bands), so that pairs within the threshold often are no LSH candidates.
-- The in-memory pass run again right after it applies and changes nothing
-- (in_memory_again_changed: NULL when it did not apply).
CREATE FUNCTION pg_temp.scramble(store regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE format('UPDATE %1$s s SET source = CASE WHEN abs(hashtext(s.key::text)) %% 3 = 0 THEN NULL ELSE s.key END,
			story = CASE WHEN abs(hashtext(s.key::text)) %% 2 = 0 THEN s.key ELSE (SELECT o.key FROM %1$s o ORDER BY o.key DESC LIMIT 1) END,
			score = CASE WHEN abs(hashtext(s.key::text)) %% 5 = 0 THEN NULL ELSE 99 END
		WHERE abs(hashtext(s.key::text || ''x'')) %% 3 <> 0', store);
	GET DIAGNOSTICS n = ROW_COUNT;
	RETURN n;
END
$$;
CREATE FUNCTION pg_temp.plant(store regclass, minhash boolean) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	IF minhash THEN
		EXECUTE format('UPDATE %1$s s SET fp = (split_part(s.fp::text, '':'', 1) || '':'' || split_part(s.fp::text, '':'', 2) || '':''
				|| split_part(s.fp::text, '':'', 3) || '':'' || split_part(s.fp::text, '':'', 4) || '':''
				|| repeat(''f'', length(split_part(s.fp::text, '':'', 5))))::minhash_sig
			WHERE s.key IN (SELECT o.key FROM %1$s o WHERE o.fp IS NOT NULL ORDER BY o.at, o.key LIMIT 2)', store);
	ELSE
		EXECUTE format('UPDATE %1$s s SET fp = ''0000000000000000''::simhash64
			WHERE s.key = (SELECT o.key FROM %1$s o WHERE o.fp IS NOT NULL
				AND o.at < (SELECT min(x.at) FROM %1$s x WHERE x.fp IS NULL) ORDER BY o.at, o.key LIMIT 1)', store);
	END IF;
	GET DIAGNOSTICS n = ROW_COUNT;
	RETURN n;
END
$$;
CREATE TABLE rebuild_results (name text, planted bigint, scrambled_differ_from_rule boolean, fast_differs_from_rule bigint,
	in_memory_again_changed bigint, online_differs_from_rule bigint, fast_differs_from_online bigint);
CREATE TABLE rb_uuid (id uuid PRIMARY KEY, site text, at timestamptz NOT NULL, body text);
INSERT INTO rb_uuid SELECT md5(f.id::text)::uuid, f.site, date_trunc('day', f.at), f.body FROM fixture f;
INSERT INTO rb_uuid VALUES (md5('no text')::uuid, 'site1', '2025-01-02', NULL);
SELECT count(*) AS uuid_rows, count(DISTINCT at) AS uuid_times FROM rb_uuid;
CALL textfp_track('rb_uuid', 'body', 'id', 'at', site_column => 'site', method => 'simhash', threshold => 9, cohesion => 12);
CREATE TABLE rb_banded (id bigint PRIMARY KEY, site text, at timestamptz NOT NULL, body text);
INSERT INTO rb_banded SELECT id, site, at, body FROM fixture;
CALL textfp_track('rb_banded', 'body', 'id', 'at', site_column => 'site', method => 'minhash', threshold => 0.3);
UPDATE rb_banded_textfp_config SET lsh_min_bands = 30;
SELECT textfp_track_invalidate('rb_banded_textfp_config');
-- pairs within the threshold that are no candidates of the banding
SELECT count(*) > 100 AS pairs_left_out FROM rb_banded_textfp a JOIN rb_banded_textfp b ON a.key < b.key
WHERE jaccard(a.fp, b.fp) >= 0.3 AND NOT a.fp @@ lsh_query(b.fp, 44, 1, 30);
SELECT x.stmt
FROM (SELECT c.name, format('rb_%s', c.name) AS t, c.method, c.threshold, c.cohesion FROM configs c
	  UNION ALL SELECT 'uuid', 'rb_uuid', 'simhash', 9, 12
	  UNION ALL SELECT 'banded', 'rb_banded', 'minhash', 0.3, NULL) c,
LATERAL (VALUES
	(1, CASE WHEN c.name NOT IN ('uuid', 'banded') THEN format('SELECT pg_temp.make(c, %L) FROM configs c WHERE c.name = %L', c.t, c.name) END),
	(2, CASE WHEN c.name NOT IN ('uuid', 'banded') THEN format('INSERT INTO %I (id, site, at, body) SELECT id, site, at, body FROM fixture UNION ALL SELECT 999, ''site1'', ''2025-01-02'', NULL', c.t) END),
	(3, CASE WHEN c.name NOT IN ('uuid', 'banded') THEN (SELECT pg_temp.track(k, c.t) FROM configs k WHERE k.name = c.name) END),
	(4, format('SELECT pg_temp.scramble(%L)', c.t || '_textfp')),
	(5, format('INSERT INTO rebuild_results (name, planted, scrambled_differ_from_rule) SELECT %L, pg_temp.plant(%L, %L), pg_temp.oracle_diff(%L, %L, %s, %s) > 0',
		c.name, c.t || '_textfp', c.method = 'minhash', c.t || '_textfp', c.method = 'minhash', coalesce(c.threshold::text, 'NULL'), coalesce(c.cohesion::text, 'NULL'))),
	(6, format('CALL textfp_rebuild(%L)', c.t)),
	(7, format('UPDATE rebuild_results SET fast_differs_from_rule = pg_temp.oracle_diff(%L, %L, %s, %s),
		in_memory_again_changed = (SELECT l.changed FROM textfp_track_link_all(%L) l) WHERE name = %L',
		c.t || '_textfp', c.method = 'minhash', coalesce(c.threshold::text, 'NULL'), coalesce(c.cohesion::text, 'NULL'), c.t || '_textfp_config', c.name)),
	(8, format('CREATE TABLE %I AS SELECT * FROM %I', c.t || '_fast', c.t || '_textfp')),
	(9, format('SELECT pg_temp.scramble(%L)', c.t || '_textfp')),
	(10, format('CALL textfp_rebuild(%L, online => true)', c.t)),
	(11, format('UPDATE rebuild_results SET online_differs_from_rule = pg_temp.oracle_diff(%L, %L, %s, %s), fast_differs_from_online = pg_temp.store_diff(%L, %L) WHERE name = %L',
		c.t || '_textfp', c.method = 'minhash', coalesce(c.threshold::text, 'NULL'), coalesce(c.cohesion::text, 'NULL'), c.t || '_fast', c.t || '_textfp', c.name))
) x(n, stmt)
WHERE x.stmt IS NOT NULL
ORDER BY c.name, x.n \gexec
SELECT * FROM rebuild_results ORDER BY name;

RESET search_path;
DROP SCHEMA track_order CASCADE;
