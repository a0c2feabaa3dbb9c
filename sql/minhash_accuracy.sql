-- MinHash estimates against exact Jaccard on real text: 2,000 pairs of
-- overlapping windows of the Debian Reference (English words, Simplified
-- Chinese characters; package debian-reference-en / -zh-cn), spread over J
-- from 0.05 to 0.95.  Each estimate should fall outside its binomial 99.7%
-- interval about 0.3% of the time, and the errors should average near zero,
-- for the fast method (oph) and the reference (kperm) alike.  The output
-- is only pass/fail facts, so that a new package version of the text does
-- not change it.
SET client_min_messages = warning;

CREATE TEMP TABLE doc AS
SELECT lang, f,
       btrim(regexp_replace(regexp_replace(
           pg_read_file('/usr/share/debian-reference/' || f),
           '<[^>]*>', ' ', 'g'), '\s+', ' ', 'g')) AS body
FROM (VALUES ('en', 'ch02.en.html'), ('en', 'ch03.en.html'), ('en', 'ch09.en.html'),
             ('zh', 'ch02.zh-cn.html'), ('zh', 'ch03.zh-cn.html'), ('zh', 'ch09.zh-cn.html')) v(lang, f);

-- Chunks of 50 units (English words, Chinese characters); a window is 40
-- chunks, and the second window of a pair starts 0 to 48 chunks later.
CREATE TEMP TABLE chunk AS
SELECT lang, f, (n - 1) / 50 AS c,
       string_agg(w, CASE lang WHEN 'en' THEN ' ' ELSE '' END ORDER BY n) AS t
FROM doc
CROSS JOIN LATERAL unnest(CASE lang WHEN 'en' THEN regexp_split_to_array(body, ' ')
                                    ELSE regexp_split_to_array(body, '') END)
     WITH ORDINALITY AS x(w, n)
GROUP BY lang, f, (n - 1) / 50;
CREATE INDEX ON chunk (f, c);
ANALYZE chunk;

CREATE TEMP TABLE spec AS
SELECT i, d.lang, d.f, s, s + (i * 613) % 49 AS s2
FROM generate_series(1, 2400) i
JOIN (SELECT lang, f, row_number() OVER (ORDER BY f) - 1 AS r,
             (SELECT max(c) FROM chunk WHERE chunk.f = doc.f) AS nc
      FROM doc) d ON d.r = i % 6
CROSS JOIN LATERAL (SELECT (i * 7919) % (d.nc - 90) AS s) p;

CREATE TEMP TABLE cand AS
SELECT i, lang,
       (SELECT string_agg(t, ' ' ORDER BY c) FROM chunk
        WHERE chunk.f = spec.f AND c >= s AND c < s + 40) AS a,
       (SELECT string_agg(t, ' ' ORDER BY c) FROM chunk
        WHERE chunk.f = spec.f AND c >= s2 AND c < s2 + 40) AS b
FROM spec;

-- Every pair has its own seed, so that the estimates' errors are
-- independent draws of the hashing (one seed for all would make the
-- overlapping windows share their luck).  minhash(shingles(t), seed) has the
-- values of minhash(t, seed) (sql/minhash.sql checks it) at half the cost.
CREATE TEMP TABLE sets AS
SELECT i, lang, shingles(a, shingle => 1, stopwords => 'builtin') AS sa,
       shingles(b, shingle => 1, stopwords => 'builtin') AS sb FROM cand;

CREATE TEMP TABLE pair AS
SELECT i, lang, jaccard(sa, sb) AS j, least(cardinality(sa), cardinality(sb)) AS na,
       jaccard(minhash(sa, 128, i), minhash(sb, 128, i)) AS oph,
       jaccard(minhash(sa, 128, i, 'kperm'), minhash(sb, 128, i, 'kperm')) AS kperm
FROM sets;

-- 2,000 pairs with J in [0.05, 0.95], as even over nine bands as they come
CREATE TEMP TABLE chosen AS
SELECT * FROM (
    SELECT *, width_bucket(j, 0.05, 0.95, 9) AS band,
           row_number() OVER (PARTITION BY width_bucket(j, 0.05, 0.95, 9) ORDER BY i) AS rn
    FROM pair WHERE j BETWEEN 0.05 AND 0.95) p
ORDER BY rn, band, i LIMIT 2000;

SELECT (SELECT count(*) FROM chosen) AS pairs,
       count(*) AS bands,
       min(n) >= 100 AS every_band_has_100,
       bool_and(langs = 2) AS both_languages_in_every_band
FROM (SELECT band, count(*) AS n, count(DISTINCT lang) AS langs
      FROM chosen GROUP BY band) b;

-- 200 to about 700 distinct shingles a window: larger than k = 128
SELECT min(na) >= 200 AS sets_larger_than_k FROM chosen;

-- P(X <= c) for X ~ Binomial(128, J), from log factorials
CREATE TEMP TABLE lf AS
SELECT n, coalesce(sum(ln(m)) FILTER (WHERE m > 0), 0) AS lnf
FROM generate_series(0, 128) n
LEFT JOIN generate_series(1, 128) m ON m <= n
GROUP BY n;

CREATE TEMP TABLE tail AS
SELECT c.i, g.c,
       sum(exp(l128.lnf - lc.lnf - lk.lnf + g.c * ln(c.j) + (128 - g.c) * ln(1 - c.j)))
           OVER (PARTITION BY c.i ORDER BY g.c) AS cdf
FROM chosen c
CROSS JOIN generate_series(0, 128) g(c)
JOIN lf l128 ON l128.n = 128
JOIN lf lc ON lc.n = g.c
JOIN lf lk ON lk.n = 128 - g.c;

CREATE INDEX ON tail (i, c);
ANALYZE tail;

-- an estimate of c/128 is outside when P(X <= c) < 0.0015 or P(X >= c) < 0.0015
CREATE TEMP TABLE est AS
SELECT ch.i, ch.j, m.method, m.est,
       t.cdf < 0.0015 OR 1 - coalesce(lo.cdf, 0) < 0.0015 AS outside
FROM chosen ch
CROSS JOIN LATERAL (VALUES ('oph', ch.oph), ('kperm', ch.kperm)) m(method, est)
JOIN tail t ON t.i = ch.i AND t.c = round(m.est * 128)::int
LEFT JOIN tail lo ON lo.i = ch.i AND lo.c = t.c - 1;

SELECT method, count(*) AS estimates,
       avg(outside::int) < 0.01 AS share_outside_below_1pct,
       abs(avg(est - j)) < 0.004 AS mean_error_near_zero,
       abs(avg(est - j) FILTER (WHERE j < 0.5)) < 0.006 AS mean_error_near_zero_low_j,
       abs(avg(est - j) FILTER (WHERE j >= 0.5)) < 0.006 AS mean_error_near_zero_high_j,
       avg((est - j) ^ 2 / (j * (1 - j) / 128)) BETWEEN 0.6 AND 1.3 AS variance_near_binomial
FROM est GROUP BY method ORDER BY method;
