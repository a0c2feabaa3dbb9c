-- eval.sql: recall of the counterpart and false matches on the regional set
-- (make_set.pl), per configuration.  Expects table docs(id, catalog, side,
-- body) and writes table results.  Catalogs are split in two by name
-- (md5 parity): thresholds are chosen on the tuning half, everything is
-- reported on the reporting half.
SET client_min_messages = warning;
DROP TABLE IF EXISTS cfg, fps, pairs, results;

-- The configurations: a name, the kind, and the fingerprint call.
CREATE TABLE cfg (name text PRIMARY KEY, kind text, expr text, ord int);
INSERT INTO cfg VALUES
 ('simhash', 'simhash', $$simhash(body)$$, 1),
 ('simhash, simplify', 'simhash', $$simhash(body, simplify => true)$$, 2),
 ('simhash, mainland', 'simhash', $$simhash(body, 'fingerprint', chinese => 'mainland')$$, 3),
 ('simhash, mainland, ngram 1', 'simhash', $$simhash(body, 'fingerprint', ngram => 1, chinese => 'mainland')$$, 4),
 ('simhash, mainland, stopwords none', 'simhash', $$simhash(body, 'fingerprint', stopwords => 'none', chinese => 'mainland')$$, 5),
 ('simhash, mainland, binary', 'simhash', $$simhash(body, 'fingerprint', weighting => 'binary', chinese => 'mainland')$$, 6),
 ('simhash, mainland, icu', 'simhash', $$simhash(body, 'fingerprint', tokenizer => 'icu', chinese => 'mainland')$$, 7),
 ('simhash, mainland, ngram 1, stopwords none', 'simhash', $$simhash(body, 'fingerprint', ngram => 1, stopwords => 'none', chinese => 'mainland')$$, 8),
 ('simhash, mainland, zh+snowball', 'simhash', $$simhash(body, 'fingerprint', stopwords => 'zh+snowball', chinese => 'mainland')$$, 9),
 ('minhash', 'minhash', $$minhash(body)$$, 11),
 ('minhash, simplify', 'minhash', $$minhash(body, simplify => true)$$, 12),
 ('minhash, mainland', 'minhash', $$minhash(body, 'fingerprint', chinese => 'mainland')$$, 13),
 ('minhash, shingle 1', 'minhash', $$minhash(body, shingle => 1)$$, 14),
 ('minhash, simplify, shingle 1', 'minhash', $$minhash(body, shingle => 1, simplify => true)$$, 15),
 ('minhash, mainland, shingle 1', 'minhash', $$minhash(body, 'fingerprint', shingle => 1, chinese => 'mainland')$$, 16);

CREATE TABLE fps (cfg text, id int, half text, side text, sh simhash64, mh minhash_sig);
DO $$
DECLARE c record;
BEGIN
	FOR c IN SELECT * FROM cfg ORDER BY ord LOOP
		EXECUTE format($q$INSERT INTO fps SELECT %L, id,
			CASE WHEN ('x' || substr(md5(catalog), 1, 8))::bit(32)::int %% 2 = 0 THEN 'tune' ELSE 'report' END,
			side, %s, %s FROM docs$q$,
			c.name,
			CASE WHEN c.kind = 'simhash' THEN c.expr ELSE 'NULL::simhash64' END,
			CASE WHEN c.kind = 'minhash' THEN c.expr ELSE 'NULL::minhash_sig' END);
	END LOOP;
END $$;

-- Every Taiwan document against every mainland document of its half:
-- a distance (SimHash: Hamming bits; MinHash: 1 - estimated Jaccard).
CREATE TABLE pairs AS
SELECT t.cfg, t.half, t.id AS tw, c.id AS cn, t.id = c.id AS counterpart,
       CASE WHEN t.sh IS NOT NULL THEN hamming_distance(t.sh, c.sh)::float8
            ELSE 1 - jaccard(t.mh, c.mh) END AS d
FROM fps t JOIN fps c ON c.cfg = t.cfg AND c.half = t.half AND c.side = 'cn'
WHERE t.side = 'tw';
ANALYZE pairs;

-- Per configuration and half: the counterpart's distance and the nearest other one.
CREATE TEMP TABLE per_doc AS
SELECT cfg, half, tw,
       min(d) FILTER (WHERE counterpart) AS d_cp,
       min(d) FILTER (WHERE NOT counterpart) AS d_other
FROM pairs GROUP BY cfg, half, tw;

-- The threshold chosen on the tuning half: the largest at which at most 1 in
-- 1,000 non-counterpart pairs is within it (distances that occur there).
CREATE TEMP TABLE chosen AS
WITH tune AS (
	SELECT cfg, d, count(*) AS n FROM pairs WHERE half = 'tune' AND NOT counterpart GROUP BY cfg, d),
cum AS (
	SELECT cfg, d, sum(n) OVER (PARTITION BY cfg ORDER BY d) / sum(n) OVER (PARTITION BY cfg) AS share FROM tune)
SELECT cfg, max(d) AS t FROM cum WHERE share <= 0.001 GROUP BY cfg;

CREATE TABLE results AS
SELECT c.ord, c.name, c.kind,
       count(*) AS docs,
       avg((d.d_cp < d.d_other)::int) AS nearest,
       -- the default thresholds: 10 bits, Jaccard 0.28
       CASE WHEN c.kind = 'simhash' THEN 10 ELSE 0.72 END AS t_default,
       avg((d.d_cp <= CASE WHEN c.kind = 'simhash' THEN 10 ELSE 0.72 END)::int) AS recall_default,
       (SELECT 1000.0 * count(*) FILTER (WHERE p.d <= CASE WHEN c.kind = 'simhash' THEN 10 ELSE 0.72 END) / count(*)
        FROM pairs p WHERE p.cfg = c.name AND p.half = 'report' AND NOT p.counterpart) AS fp_default,
       ch.t AS t_chosen,
       avg((d.d_cp <= ch.t)::int) AS recall_chosen,
       (SELECT 1000.0 * count(*) FILTER (WHERE p.d <= ch.t) / count(*)
        FROM pairs p WHERE p.cfg = c.name AND p.half = 'report' AND NOT p.counterpart) AS fp_chosen,
       avg(d.d_cp) AS mean_cp, avg(d.d_other) AS mean_nearest_other
FROM cfg c JOIN per_doc d ON d.cfg = c.name AND d.half = 'report'
LEFT JOIN chosen ch ON ch.cfg = c.name
GROUP BY c.ord, c.name, c.kind, ch.t;
