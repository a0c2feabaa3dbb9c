-- load.sql: the labeled excerpts (make_excerpts.pl's output in :'tsv'), every text's winnowed
-- fingerprints under each configuration of winnow(), MinHash signatures and shingle counts for the
-- containment estimate, and the pairs to score.  psql -v tsv=/path/excerpts.tsv -f load.sql
\set ON_ERROR_STOP on
DROP TABLE IF EXISTS ex, ex_cfg, ex_fp, ex_mh, ex_pairs CASCADE;
CREATE TABLE ex (id int PRIMARY KEY, lang text, kind text, src int, site int, frac float8, body text);
COPY ex FROM :'tsv';

-- winnow() configurations: shingle tokens k and window w (a shared run of w + k - 1 tokens
-- always shares a fingerprint)
CREATE TABLE ex_cfg (cfg text PRIMARY KEY, shingle int, win int);
INSERT INTO ex_cfg VALUES ('k3w4', 3, 4), ('k4w6', 4, 6), ('k5w8', 5, 8), ('k4w10', 4, 10), ('k5w16', 5, 16);
CREATE TABLE ex_fp AS
	SELECT c.cfg, e.id, winnow(e.body, "window" => c.win, shingle => c.shingle) AS f
	FROM ex e CROSS JOIN ex_cfg c;
ALTER TABLE ex_fp ADD PRIMARY KEY (cfg, id);

-- option (a): MinHash with the set size, pairs of tokens (minhash's default) and triples
CREATE TABLE ex_mh AS
	SELECT e.id, s.shingle, minhash(e.body, shingle => s.shingle) AS sig,
		   cardinality(shingles(e.body, shingle => s.shingle)) AS n
	FROM ex e CROSS JOIN (VALUES (2), (3)) s(shingle);

-- pairs: x is the side that should be contained in y
--   pos   (original, its composite) and (its standalone, original)
--   unrel (original, another original's composite) and (another's standalone, original)
--   site  two articles of one site (both orders)
CREATE TABLE ex_pairs AS
	SELECT 'pos'::text AS kind, e.lang, o.id AS x, e.id AS y
	FROM ex e JOIN ex o ON o.id = e.src WHERE e.kind = 'composite'
	UNION ALL
	SELECT 'pos', e.lang, e.id, o.id FROM ex e JOIN ex o ON o.id = e.src WHERE e.kind = 'standalone'
	UNION ALL
	SELECT 'unrel', e.lang, o.id, e.id FROM ex e JOIN ex o ON o.lang = e.lang AND o.kind = 'original' AND o.id <> e.src
	WHERE e.kind = 'composite'
	UNION ALL
	SELECT 'unrel', e.lang, e.id, o.id FROM ex e JOIN ex o ON o.lang = e.lang AND o.kind = 'original' AND o.id <> e.src
	WHERE e.kind = 'standalone'
	UNION ALL
	SELECT 'site', a.lang, a.id, b.id FROM ex a JOIN ex b ON a.site = b.site AND a.lang = b.lang AND a.id <> b.id
	WHERE a.kind = 'site' AND b.kind = 'site';
SELECT kind, lang, count(*) FROM ex_pairs GROUP BY 1, 2 ORDER BY 1, 2;
