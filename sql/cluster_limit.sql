-- cluster_limit: cluster_table's pairs are bounded on both routes: at most
-- 1,000 pairs a distinct fingerprint plus 10M by default, past which the call
-- fails (54000) before its temporary tables fill the disk (dense data, most
-- rows near most others, makes n^2/2 pairs).  The default is too large to
-- reach here, so the test lowers the bound with textfp.cluster_max_pairs
-- (0, the default: 1,000 a distinct fingerprint plus 10M).
-- NOTE: textfp.cluster_max_pairs is a proposal to the lead (docs/security.md,
-- the sec20 report); until it exists this test fails.
SET client_min_messages = warning;
CREATE SCHEMA cl_test;
SET search_path = cl_test, public;

-- 100 distinct fingerprints within 4 bits of one value: every pair within 8
-- bits, 4,950 pairs at threshold 8
CREATE TABLE dense (id bigint PRIMARY KEY, published timestamptz, fp simhash64, sig minhash_sig);
INSERT INTO dense
SELECT i, '2025-01-01'::timestamptz + i * interval '1 minute', (x'0123456789abcdef'::bigint # (1::bigint << (i % 64)) # (CASE WHEN i >= 64 THEN 1::bigint << ((i * 7 + 3) % 64) ELSE 0 END))::simhash64,
	minhash(ARRAY(SELECT generate_series(1, 200)::bigint) || ARRAY[i + 1000]::bigint[])
FROM generate_series(0, 99) i;
SELECT count(DISTINCT fp) AS fingerprints, count(DISTINCT sig) AS signatures FROM dense;
SELECT count(*) AS pairs_within_8 FROM dense a JOIN dense b ON a.id < b.id WHERE hamming_distance(a.fp, b.fp) <= 8;

-- the SQLSTATE and message of a call that fails
CREATE FUNCTION pg_temp.failure(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	st text;
	msg text;
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
	RETURN st || ': ' || msg;
END
$$;

SHOW textfp.cluster_max_pairs;
-- under the bound: clustered
SET textfp.cluster_max_pairs = 5000;
SELECT count(*), max(cluster_size) FROM cluster_table('dense', 'id', 'fp', 8);
-- over it: the exact route stops at the bound
SET textfp.cluster_max_pairs = 1000;
SELECT pg_temp.failure($$SELECT count(*) FROM cluster_table('dense', 'id', 'fp', 8)$$);
SELECT pg_temp.failure($$SELECT count(*) FROM cluster_table('dense', 'id', 'fp', 8, 'star')$$);
SELECT to_regclass('dense_matches') IS NULL AS no_store_left;
-- the minhash_sig exact route and the LSH route (which counts its candidates
-- before it makes them)
SELECT pg_temp.failure($$SELECT count(*) FROM cluster_table('dense', 'id', 'sig', 0.9)$$);
SELECT left(pg_temp.failure($$SELECT count(*) FROM cluster_table('dense', 'id', 'sig', 0.9, bands => 1, rows => 1)$$), 24);
-- a stricter threshold makes fewer pairs and passes
SELECT count(*), max(cluster_size) FROM cluster_table('dense', 'id', 'fp', 1);
-- no temporary tables are left behind
SELECT count(*) FROM pg_class WHERE relname LIKE 'textfp_cluster%' AND relpersistence = 't';
RESET textfp.cluster_max_pairs;
SELECT count(*), max(cluster_size) FROM cluster_table('dense', 'id', 'fp', 8);

RESET search_path;
DROP SCHEMA cl_test CASCADE;
