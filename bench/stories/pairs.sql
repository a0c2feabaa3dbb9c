-- pairs.sql: the fingerprints of a labeled set (make_lineages.pl's or quality_lineages.pl's output on
-- stdin) under the presets textfp_track() registers by default, and every pair within a generous
-- threshold, for simulate.py.
--
--   psql -X -v corpus=lineages -v out=/tmp/st -f bench/stories/pairs.sql < lineages.tsv
--
-- Writes :out/<corpus>.texts.tsv (key, lang, set, lineage, version, time as epoch seconds),
-- :out/<corpus>.pairs.tsv (method, a, b, score, bands1, bands2) with a < b, every pair of the set (all
-- pairs are scored, no index: the sets are small) whose score reaches the generous bound, and
-- :out/<corpus>.minbands.tsv (threshold, min_bands, rows), the registration's LSH rule per MinHash
-- threshold:
--
--   method  fingerprint (txt: title, newline, body, as bench/quality scores it)      score      kept at
--   mh      minhash(txt, preset => 'minhash_v1'): textfp_track's default             Jaccard    >= 0.1
--   sh      simhash(txt, preset => 'simhash_v1'): method => 'simhash'                Hamming    <= 24
--   shi     simhash(txt, preset => 'simhash_idf_v1', idf => the set's model):        Hamming    <= 24
--           preset => 'simhash_idf_v1', whose model textfp_track builds from the table's rows when it
--           is not given: here idf_model(simhash_features(txt, preset => 'simhash_idf_v1')) over every
--           text of the set, as a table holding the set would build it
--
-- A candidate MinHash fingerprint instead of minhash_v1 (README, "Candidates"): psql variable mh_expr, an
-- expression of txt, e.g. -v mh_expr="minhash(txt, 'null', ngram => 2, shingle => 1, stopwords =>
-- 'zh+snowball', chinese => 'mainland')"; mh is then that fingerprint (k 128: the counts below are of the
-- two bandings of k 128).
--
-- bands1 and bands2 (mh only; 44 and 64 elsewhere) are how many of the 44 bands of one position
-- (minhash_bands(sig, 44, 1)) and of the 64 bands of two (minhash_bands(sig, 64, 2)) the pair shares: a
-- registration's store finds a row's earlier matches through its GIN index of its banding's bands, fp @@
-- lsh_query(sig, bands, rows, min_bands), then verifies J >= threshold.  The banding is
-- textfp_track_banding(threshold, k), the registration's own rule, one of these two: 64 x 2 at least 6 at
-- 0.46875, 44 x 1 at most thresholds below 0.44; minbands.tsv has it per threshold (rows 1 or 2) and simulate.py
-- compares the count of that banding.  A pair sharing fewer is never a link, but a cohesion check sees
-- its score (the store compares a row with its candidate story's original directly).  Checked here: for
-- both bandings at the default threshold's min_bands, the count is exactly fp @@ lsh_query(...) on every
-- exported pair.  A text whose fingerprint is NULL (no
-- features) has no pairs.  The set stays in table st_text, its fingerprints in st_fp, its pairs in st_pair
-- (corpus column).

\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
\if :{?mh_expr}
\else
\set mh_expr 'minhash(txt, preset => ''minhash_v1'')'
\endif

CREATE TABLE IF NOT EXISTS st_text (
	corpus  text NOT NULL,
	key     bigint NOT NULL,
	lang    text NOT NULL,
	set     text NOT NULL,
	lineage text NOT NULL,
	version text NOT NULL,
	time    timestamptz NOT NULL,
	source  text NOT NULL,
	title   text NOT NULL,
	body    text NOT NULL,
	PRIMARY KEY (corpus, key)
);
CREATE TEMP TABLE st_in (LIKE st_text);
ALTER TABLE st_in DROP COLUMN corpus;
\copy st_in FROM pstdin
DELETE FROM st_text WHERE corpus = :'corpus';
INSERT INTO st_text SELECT :'corpus', * FROM st_in;

CREATE TABLE IF NOT EXISTS st_fp (
	corpus text NOT NULL,
	key    bigint NOT NULL,
	mh     minhash_sig,
	mhb    bigint[],
	mhb2   bigint[],
	sh     simhash64,
	shi    simhash64,
	PRIMARY KEY (corpus, key)
);
DELETE FROM st_fp WHERE corpus = :'corpus';
CREATE TEMP TABLE st_idf AS
SELECT idf_model(simhash_features(title || E'\n' || body, preset => 'simhash_idf_v1')) AS model
FROM st_text WHERE corpus = :'corpus';
SELECT idf_model_docs(model) AS idf_model_docs, idf_model_digest(model) AS idf_model_digest FROM st_idf;
INSERT INTO st_fp
SELECT corpus, key, mh, minhash_bands(mh, 44, 1), minhash_bands(mh, 64, 2), sh, shi
FROM (SELECT t.corpus, t.key,
		(SELECT :mh_expr FROM (SELECT t.txt) x) AS mh,
		simhash(t.txt, preset => 'simhash_v1') AS sh,
		simhash(t.txt, preset => 'simhash_idf_v1', idf => (SELECT model FROM st_idf)) AS shi
	  FROM (SELECT corpus, key, title || E'\n' || body AS txt FROM st_text WHERE corpus = :'corpus') t) f;
ANALYZE st_fp;
SELECT count(*) AS texts, count(*) FILTER (WHERE mh IS NULL) AS mh_null, count(*) FILTER (WHERE sh IS NULL) AS sh_null,
	count(*) FILTER (WHERE shi IS NULL) AS shi_null
FROM st_fp WHERE corpus = :'corpus';

CREATE TABLE IF NOT EXISTS st_pair (
	corpus text NOT NULL,
	method text NOT NULL,
	a      bigint NOT NULL,
	b      bigint NOT NULL,
	score  float8 NOT NULL,
	bands  integer NOT NULL,
	bands2 integer NOT NULL,
	CHECK (a < b)
);
DELETE FROM st_pair WHERE corpus = :'corpus';
\timing on
INSERT INTO st_pair
SELECT :'corpus', 'mh', x.key, y.key, jaccard(x.mh, y.mh),
	(SELECT count(*) FROM generate_subscripts(x.mhb, 1) i WHERE x.mhb[i] = y.mhb[i]),
	(SELECT count(*) FROM generate_subscripts(x.mhb2, 1) i WHERE x.mhb2[i] = y.mhb2[i])
FROM st_fp x JOIN st_fp y ON x.corpus = y.corpus AND x.key < y.key
WHERE x.corpus = :'corpus' AND jaccard(x.mh, y.mh) >= 0.1;
INSERT INTO st_pair
SELECT :'corpus', 'sh', x.key, y.key, hamming_distance(x.sh, y.sh), 44, 64
FROM st_fp x JOIN st_fp y ON x.corpus = y.corpus AND x.key < y.key
WHERE x.corpus = :'corpus' AND hamming_distance(x.sh, y.sh) <= 24;
INSERT INTO st_pair
SELECT :'corpus', 'shi', x.key, y.key, hamming_distance(x.shi, y.shi), 44, 64
FROM st_fp x JOIN st_fp y ON x.corpus = y.corpus AND x.key < y.key
WHERE x.corpus = :'corpus' AND hamming_distance(x.shi, y.shi) <= 24;
\timing off

-- the registration's rule per threshold of m/128 from 13/128 (the export's bound, J >= 0.1: shingles of
-- three tokens need thresholds below 0.25) to 0.75, for minhash_v1's k; the counts above are of its two
-- bandings only
CREATE TEMP TABLE st_rule AS
SELECT t, b.bands, b.rows, b.min_bands
FROM (SELECT m / 128.0::float8 AS t FROM generate_series(13, 96) m) x,
	textfp_track_banding(t, (SELECT (minhash_info(mh)).k FROM st_fp WHERE corpus = :'corpus' AND mh IS NOT NULL LIMIT 1)) b;
SELECT rows, bands, count(*) AS thresholds, min(t), max(t) FROM st_rule GROUP BY 1, 2 ORDER BY 1;
-- the band counts against the store's own test, at the default threshold's min_bands of each banding
SET st.corpus = :'corpus';
DO $$
DECLARE
	bad bigint;
	m1 integer := (SELECT min_bands FROM st_rule WHERE rows = 1 ORDER BY abs(t - 0.46875) LIMIT 1);
	m2 integer := (SELECT min_bands FROM st_rule WHERE rows = 2 ORDER BY abs(t - 0.46875) LIMIT 1);
BEGIN
	IF EXISTS (SELECT FROM st_rule WHERE (bands, rows) NOT IN ((44, 1), (64, 2))) THEN
		RAISE EXCEPTION 'textfp_track_banding gives a banding other than 44 x 1 and 64 x 2: pairs.sql counts only those';
	END IF;
	SELECT count(*) INTO bad
	FROM st_pair p JOIN st_fp x ON x.corpus = p.corpus AND x.key = p.a JOIN st_fp y ON y.corpus = p.corpus AND y.key = p.b
	WHERE p.corpus = current_setting('st.corpus') AND p.method = 'mh'
		AND ((p.bands >= coalesce(m1, 12)) IS DISTINCT FROM (y.mh @@ lsh_query(x.mh, 44, 1, coalesce(m1, 12)))
			 OR (p.bands2 >= coalesce(m2, 6)) IS DISTINCT FROM (y.mh @@ lsh_query(x.mh, 64, 2, coalesce(m2, 6))));
	IF bad > 0 THEN
		RAISE EXCEPTION '% pairs whose band count disagrees with lsh_query', bad;
	END IF;
END
$$;

SELECT method, count(*) AS pairs,
	count(*) FILTER (WHERE method = 'mh' AND score >= 0.46875) AS "J >= 0.46875",
	count(*) FILTER (WHERE method = 'mh' AND score >= 0.46875 AND bands >= 12) AS "of them 44 x 1 (12) candidates",
	count(*) FILTER (WHERE method = 'mh' AND score >= 0.46875 AND bands2 >= 6) AS "of them 64 x 2 (6) candidates",
	count(*) FILTER (WHERE method = 'sh' AND score <= 11) AS "d <= 11",
	count(*) FILTER (WHERE method = 'shi' AND score <= 13) AS "d <= 13"
FROM st_pair WHERE corpus = :'corpus' GROUP BY method ORDER BY method;

\set texts_file :out '/' :corpus '.texts.tsv'
\set pairs_file :out '/' :corpus '.pairs.tsv'
\set minbands_file :out '/' :corpus '.minbands.tsv'
\o :texts_file
COPY (SELECT key, lang, set, lineage, version, extract(epoch FROM time)::bigint
	  FROM st_text WHERE corpus = :'corpus' ORDER BY time, key) TO STDOUT;
\o :pairs_file
COPY (SELECT method, a, b, score, bands, bands2 FROM st_pair WHERE corpus = :'corpus' ORDER BY method, a, b)
	TO STDOUT;
\o :minbands_file
COPY (SELECT t, min_bands, rows FROM st_rule ORDER BY t) TO STDOUT;
\o
