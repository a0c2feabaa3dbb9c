-- reports.sql: each report's first 20 rows over tracked table :tbl (max_rows => 20, and
-- the same with a LIMIT after the call, side by side), warm: one run to warm
-- the cache, then :runs timed runs (clock_timestamp() around the query in one session);
-- the median, least and largest, recorded in tk_result under :method.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE FUNCTION pg_temp.timeit(q text, runs integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; ms double precision[] := '{}'; n bigint;
BEGIN
	EXECUTE q INTO n;	-- warm
	FOR i IN 1 .. runs LOOP
		t0 := clock_timestamp();
		EXECUTE q INTO n;
		ms := ms || extract(epoch FROM clock_timestamp() - t0) * 1000;
	END LOOP;
	RETURN format('median %s ms (%s .. %s), %s rows',
		round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(ms) x)::numeric, 1),
		round((SELECT min(x) FROM unnest(ms) x)::numeric, 1), round((SELECT max(x) FROM unnest(ms) x)::numeric, 1), n);
END $$;
SELECT story AS big FROM (SELECT story, count(*) FROM :store GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1) x \gset
SELECT (m.m - interval '7 days')::text AS since, count(*) AS since_rows
FROM :store s, (SELECT max(at) AS m FROM :store) m WHERE s.at >= m.m - interval '7 days' GROUP BY m.m \gset
INSERT INTO tk_result (method, item, value) VALUES
	(:'method', 'report textfp_story_report, max_rows => 20', pg_temp.timeit(format('SELECT count(*) FROM textfp_story_report(%L, max_rows => 20) x', :'tbl'), :runs)),
	(:'method', 'report textfp_story_report, LIMIT 20 (every row made first)', pg_temp.timeit(format('SELECT count(*) FROM (SELECT * FROM textfp_story_report(%L) LIMIT 20) x', :'tbl'), :runs)),
	(:'method', 'report textfp_story_report, min_size => 1 (counts the whole store, no summary)', pg_temp.timeit(format('SELECT count(*) FROM (SELECT * FROM textfp_story_report(%L, min_size => 1) LIMIT 20) x', :'tbl'), :runs)),
	(:'method', 'report textfp_reprints, max_rows => 20', pg_temp.timeit(format('SELECT count(*) FROM textfp_reprints(%L, max_rows => 20) x', :'tbl'), :runs)),
	(:'method', 'report textfp_reprints, LIMIT 20 (every row made first)', pg_temp.timeit(format('SELECT count(*) FROM (SELECT * FROM textfp_reprints(%L) LIMIT 20) x', :'tbl'), :runs)),
	(:'method', 'report textfp_reprints, since => -infinity (counts the store''s links, no summary)', pg_temp.timeit(format('SELECT count(*) FROM (SELECT * FROM textfp_reprints(%L, ''-infinity'') LIMIT 20) x', :'tbl'), :runs)),
	(:'method', 'report textfp_new_stories, max_rows => 20 (last 7 days: ' || :'since_rows' || ' rows)', pg_temp.timeit(format('SELECT count(*) FROM textfp_new_stories(%L, %L, max_rows => 20) x', :'tbl', :'since'), :runs)),
	(:'method', 'report textfp_new_stories, LIMIT 20 (last 7 days: ' || :'since_rows' || ' rows)', pg_temp.timeit(format('SELECT count(*) FROM (SELECT * FROM textfp_new_stories(%L, %L) LIMIT 20) x', :'tbl', :'since'), :runs)),
	(:'method', 'report textfp_story_timeline (largest story)', pg_temp.timeit(format('SELECT count(*) FROM (SELECT * FROM textfp_story_timeline(%L, %L) LIMIT 20) x', :'tbl', :'big'), :runs)),
	(:'method', 'report textfp_stories', pg_temp.timeit(format('SELECT count(*) FROM (SELECT * FROM textfp_stories(%L) LIMIT 20) x', :'tbl'), :runs));
