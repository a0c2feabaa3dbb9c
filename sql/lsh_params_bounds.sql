-- lsh_params_bounds: lsh_params and lsh_params_for at the extremes of every
-- argument (k and max_min_bands at their maximum, 1024; thresholds at and
-- near 0 and 1; weights 0 and the largest float8; budgets none can meet),
-- each answering well within the statement timeout below, which is ten
-- times the slowest on a loaded machine (1.0 took 36 s for
-- lsh_params(0.5, 1024, 1, 1, 4) and hours with max_min_bands 1024).  The
-- unit tests (test/unit/test_lsh.c) bound the work itself and compare the
-- answers with 1.0's search.
SET statement_timeout = '20s';

-- every answer a banding within its limits
CREATE FUNCTION pg_temp.valid(b int, r int, mb int, fp float8, fn float8, k int, m int)
RETURNS boolean LANGUAGE sql AS $$
	SELECT b >= 1 AND r >= 1 AND b * r <= k AND mb BETWEEN 1 AND least(b, m)
		AND fp BETWEEN 0 AND 1 AND fn BETWEEN 0 AND 1
$$;

-- k and max_min_bands at their maximum
SELECT m, bands, rows, min_bands, round(false_positive::numeric, 6) AS fp, round(false_negative::numeric, 6) AS fn
FROM (VALUES (1), (4), (1024)) v(m), lsh_params(0.5, 1024, 1, 1, m) ORDER BY m;

-- thresholds at and near 0 and 1, weights at their bounds, every max_min_bands
SELECT count(*) AS searches,
	   count(*) FILTER (WHERE pg_temp.valid(p.bands, p.rows, p.min_bands, p.false_positive, p.false_negative, 1024, m)) AS valid
FROM (VALUES (0), (1e-9), (0.001), (0.999), (1 - 1e-9), (1)) t(t),
	 (VALUES (1), (4), (1024)) v(m),
	 (VALUES (0::float8, 1::float8), (1, 0), (1, 1), (1e-300, 1.7976931348623157e308)) w(fp, fn),
	 LATERAL lsh_params(t, 1024, fp, fn, m) p;
-- a threshold of 0 has no false positive area: the steepest S-curve up front,
-- every position one band; 1, no false negative area: all positions one band
SELECT t, bands, rows, min_bands, false_positive = 0 AS no_fp, false_negative = 0 AS no_fn
FROM (VALUES (0.0), (1.0)) v(t), lsh_params(t, 1024, 1, 1, 1024) ORDER BY t;
-- only false negatives weigh: many bandings have next to none (below what
-- the areas' quadrature tells apart); the first in (bands, rows, min_bands)
-- order, a few bands of one row, not the largest
SELECT bands, rows, min_bands, false_negative < 1e-10 AS next_to_none FROM lsh_params(0.5, 1024, 0, 1, 1024);
-- k = 1 has one banding
SELECT bands, rows, min_bands FROM lsh_params(0.5, 1, 1, 1, 1);

-- lsh_params_for at k = 1024: unrelated rows and a few families of copies
CREATE TABLE lb (id int, sig minhash_sig);
INSERT INTO lb
SELECT i, minhash(ARRAY(SELECT hashint8(i * 100000 + j) FROM generate_series(1, 300) j)::bigint[], 1024)
FROM generate_series(1, 300) i;
INSERT INTO lb
SELECT 1000 + f * 10 + c,
	   minhash(ARRAY(SELECT hashint8(f * 7919 + j + CASE WHEN j <= 15 * c THEN 1000000 ELSE 0 END)
					 FROM generate_series(1, 300) j)::bigint[], 1024)
FROM generate_series(1, 20) f, generate_series(0, 5) c;
-- copies: pairs equal in all 1024 positions, candidates of every banding
INSERT INTO lb SELECT 2000 + i, sig FROM lb, generate_series(1, 3) i WHERE id = 1;
ANALYZE lb;
-- budgets loose, tight and none can meet (0: the fewest candidates then,
-- above the budget), every max_min_bands
SELECT budget, m, pg_temp.valid(p.bands, p.rows, p.min_bands, p.false_positive, p.false_negative, 1024, m) AS valid,
	   p.candidates_per_row <= budget AS within_budget
FROM (VALUES (0.0), (0.01), (1.0), (100.0), (1e6)) b(budget), (VALUES (1), (4), (1024)) v(m),
	 LATERAL lsh_params_for('lb', 'sig', 0.5, budget, 1, 1, m) p
ORDER BY budget, m;
-- and at the thresholds' and the weights' bounds
SELECT count(*) AS searches, count(*) FILTER (WHERE pg_temp.valid(p.bands, p.rows, p.min_bands, p.false_positive, p.false_negative, 1024, 1024)) AS valid
FROM (VALUES (0), (0.001), (0.999), (1)) t(t),
	 (VALUES (0::float8, 1::float8), (1, 0), (1e-300, 1.7976931348623157e308)) w(fp, fn),
	 LATERAL lsh_params_for('lb', 'sig', t, 10, fp, fn, 1024) p;
DROP TABLE lb;
RESET statement_timeout;
