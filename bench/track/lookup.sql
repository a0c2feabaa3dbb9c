-- lookup.sql: what the triggers' near-row query (src/track/track_store.c, PLAN_NEAR) costs on
-- the store :store of registration :cfg: for :samples store rows taken at random, the query
-- with the row's fingerprint, timed one after the other in one session (warm); the median,
-- the largest, and the mean number of near rows, recorded in tk_result under :method.  For
-- MinHash also the rows that share at least one band value (what the GIN scan walks).
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE FUNCTION pg_temp.lookups(store regclass, cfg regclass, samples integer) RETURNS TABLE (item text, value text)
LANGUAGE plpgsql AS $$
DECLARE c record; q text; q1 text; f text; t0 timestamptz; ms double precision[] := '{}'; n bigint; near bigint[] := '{}'; one bigint[] := '{}';
BEGIN
	EXECUTE format('SELECT * FROM %s', cfg) INTO c;
	IF c.method = 'simhash' THEN
		q := format('SELECT count(*) FROM %s s WHERE s.fp <@ hamming_ball($1::simhash64, %s)', store, c.threshold::int);
	ELSE
		q := format('SELECT count(*) FROM %s s WHERE s.fp @@ lsh_query($1::minhash_sig, %s, %s, %s) AND s.fp <@ jaccard_ball($1::minhash_sig, %s)',
			store, c.lsh_bands, c.lsh_rows, c.lsh_min_bands, c.threshold);
		q1 := format('SELECT count(*) FROM %s s WHERE s.fp @@ lsh_query($1::minhash_sig, %s, %s, 1)',
			store, c.lsh_bands, c.lsh_rows);
	END IF;
	PERFORM setseed(0.5);
	FOR f IN EXECUTE format('SELECT s.fp::text FROM %s s TABLESAMPLE BERNOULLI (1) REPEATABLE (21) LIMIT %s', store, samples) LOOP
		t0 := clock_timestamp();
		EXECUTE q INTO n USING f;
		ms := ms || extract(epoch FROM clock_timestamp() - t0) * 1000;
		near := near || n;
		IF q1 IS NOT NULL THEN EXECUTE q1 INTO n USING f; one := one || n; END IF;
	END LOOP;
	item := 'near-row lookup (' || cardinality(ms) || ' random rows)';
	value := format('median %s ms, max %s ms; near rows mean %s',
		round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(ms) x)::numeric, 1),
		round((SELECT max(x) FROM unnest(ms) x)::numeric, 1), round((SELECT avg(x) FROM unnest(near) x), 1));
	RETURN NEXT;
	IF q1 IS NOT NULL THEN
		item := 'rows sharing at least one band value with a lookup';
		value := format('mean %s, median %s', round((SELECT avg(x) FROM unnest(one) x)),
			(SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(one) x));
		RETURN NEXT;
	END IF;
END $$;
INSERT INTO tk_result (method, item, value) SELECT :'method', l.item, l.value FROM pg_temp.lookups(:'store', :'cfg', :samples) l;
