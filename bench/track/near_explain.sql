-- near_explain.sql: the registration's near-row query (fp @@ lsh_query(q, 44, 1, 4) AND fp <@ jaccard_ball(q, 0.25)) under
-- EXPLAIN ANALYZE for pool rows 150,001 to 150,020 (not inserted) of tk_pool on the store tk_docs_textfp (n1s3 at
-- 0.25): total and GIN bitmap scan ms, candidates (the bitmap's rows), rows found, English and Chinese rows.
SET jit = off;
CREATE TEMP TABLE ex (n bigint, lang_zh bool, kind text, total_ms float8, gin_ms float8, cands bigint, found bigint);
DO $$
DECLARE p record; sig minhash_sig; plan json; g json;
BEGIN
	FOR p IN SELECT * FROM tk_pool WHERE n BETWEEN 150001 AND 150020 ORDER BY n LOOP
		sig := minhash(p.body, 'null', ngram => 1, shingle => 3, stopwords => 'zh+snowball', chinese => 'mainland');
		EXECUTE format('EXPLAIN (ANALYZE, FORMAT JSON) SELECT key FROM tk_docs_textfp WHERE fp @@ lsh_query(%L::minhash_sig, 44, 1, 4) AND fp <@ jaccard_ball(%L::minhash_sig, 0.25)', sig, sig) INTO plan;
		g := plan->0->'Plan';
		WHILE g->>'Node Type' <> 'Bitmap Index Scan' AND g->'Plans' IS NOT NULL LOOP g := g->'Plans'->0; END LOOP;
		INSERT INTO ex VALUES (p.n, p.body ~ '[\u4e00-\u9fff]', p.kind, (plan->0->>'Execution Time')::float8,
			(g->>'Actual Total Time')::float8, (g->>'Actual Rows')::bigint, (plan->0->'Plan'->>'Actual Rows')::bigint);
	END LOOP;
END $$;
SELECT coalesce(lang_zh::text, 'all') zh, count(*), round(percentile_cont(0.5) within group (order by total_ms)::numeric,1) med_ms,
	round(avg(total_ms)::numeric,1) mean_ms, round(max(total_ms)::numeric,1) max_ms,
	round(percentile_cont(0.5) within group (order by gin_ms)::numeric,1) gin_med, round(avg(gin_ms)::numeric,1) gin_mean,
	percentile_disc(0.5) within group (order by cands) cands_med, round(avg(cands),0) cands_mean, max(cands) cands_max, sum(found) found
FROM ex GROUP BY GROUPING SETS ((lang_zh), ()) ORDER BY 1;
