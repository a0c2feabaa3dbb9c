-- load.sql: the labeled corpus (make_corpus.pl on stdin), pg_trgm's trigram sets, and the
-- functions that score every pair of one split under one set of options.
--
-- A pair is two texts of one language and one split.  Its class (score.cls) comes from
-- provenance only: -1 unrelated (two families), the copy's kcode for an original and its
-- copy, 2 for two copies of one original.  Ids are given family by family, original first,
-- so in a pair a.id < b.id of one family a is the original or both are copies.  The kind
-- numbers below must match @KIND in report.pl, which names the classes.
--
-- Scores are integers where higher means more alike, so every method's threshold is
-- "score >= s": SimHash 64 - Hamming distance; MinHash the number of equal positions
-- (jaccard * k); pg_trgm floor(similarity * 100).

\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
SET jit = off;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE doc (
	id       integer PRIMARY KEY,
	lang     text NOT NULL,
	split    text NOT NULL,
	family   integer NOT NULL,
	source   text NOT NULL,
	kind     text NOT NULL,
	strength integer NOT NULL,
	edits    text NOT NULL,
	title    text NOT NULL,
	body     text NOT NULL,
	-- the text every method sees: headline, then body
	txt      text GENERATED ALWAYS AS (title || E'\n' || body) STORED
);
\copy doc (id, lang, split, family, source, kind, strength, edits, title, body) FROM pstdin
-- the class of a copy as a number, so a pair's class is cheap to compute: 0 original,
-- else 10 * kind + strength (kind numbers below), 1 combo
ALTER TABLE doc ADD COLUMN kcode integer;
UPDATE doc SET kcode = CASE kind WHEN 'original' THEN 0 WHEN 'combo' THEN 1 ELSE 10 * (array_position(
	ARRAY['headline', 'boilerplate', 'drop', 'reorder', 'typos', 'width', 'script', 'truncate'], kind)) + strength END;
ANALYZE doc;

-- One row per pair class and score, for every split, option set and method.  cls: -1
-- unrelated, 2 two copies of one original, else the copy's kcode (original and copy).
CREATE TABLE score (
	split  text NOT NULL,
	cfg    text NOT NULL,       -- the options, as 'ngram=2 shingle=1 ...'
	method text NOT NULL,       -- simhash, minhash, trgm
	scale  integer NOT NULL,    -- the largest score: 64, k, 100
	lang   text NOT NULL,
	cls    integer NOT NULL,
	s      integer NOT NULL,
	n      bigint NOT NULL
);

-- pg_trgm's similarity of two texts is |A n B| / |A u B| over their trigram sets, so it
-- equals textfp's exact set Jaccard of the trigrams numbered: computed once per text here
-- instead of once per pair (checked against similarity() on a sample below).
CREATE TABLE trgm_id AS SELECT t, row_number() OVER (ORDER BY t) AS n
	FROM (SELECT DISTINCT unnest(show_trgm(txt)) AS t FROM doc) s;
CREATE UNIQUE INDEX ON trgm_id (t);
CREATE TABLE doc_trgm (id integer PRIMARY KEY, tg bigint[] NOT NULL);
-- stored uncompressed: every pair reads two of them
ALTER TABLE doc_trgm ALTER COLUMN tg SET STORAGE EXTERNAL;
INSERT INTO doc_trgm
	SELECT d.id, coalesce((SELECT array_agg(i.n ORDER BY i.n) FROM unnest(show_trgm(d.txt)) u(t)
		JOIN trgm_id i USING (t)), '{}')
	FROM doc d;
ANALYZE doc_trgm;

-- Scores of every pair of one split under one option set, into score.  An option left NULL
-- takes the function's 1.0 default (simhash: ngram 2, shingle 1, built-in stopwords, tf;
-- minhash: k 128, ngram 2, shingle 2, no stopwords); with all of them NULL the functions are
-- called with no option at all, which must give the same (sql/golden.sql checks it).
CREATE FUNCTION score_split(p_split text, p_cfg text, p_methods text[],
		p_ngram integer DEFAULT NULL, p_shingle integer DEFAULT NULL, p_stopwords text DEFAULT NULL,
		p_weighting text DEFAULT NULL, p_simplify boolean DEFAULT NULL, p_k integer DEFAULT NULL,
		p_numbers text DEFAULT NULL, p_keywords integer DEFAULT NULL, p_idf boolean DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	k integer;
	-- every option NULL: call the functions with no option at all
	bare boolean := num_nulls(p_ngram, p_shingle, p_stopwords, p_weighting, p_simplify, p_k,
		p_numbers, p_keywords, p_idf) = 9;
	-- 1.1's numbers, keywords and idf: the simhash(doc, featureless, ...) overload
	ranked boolean := num_nonnulls(p_numbers, p_keywords, p_idf) > 0;
	model idf_model := 'none';
BEGIN
	-- with p_idf, the model of the texts scored, per language, as a table would build its own
	DROP TABLE IF EXISTS split_model;
	CREATE TEMP TABLE split_model AS
	SELECT d.lang, idf_model(simhash_features(d.txt, ngram => coalesce(p_ngram, 2), shingle => coalesce(p_shingle, 1),
			stopwords => coalesce(p_stopwords, 'builtin'), simplify => coalesce(p_simplify, false),
			numbers => coalesce(p_numbers, 'keep'))) AS m
	FROM doc d WHERE d.split = p_split AND p_idf GROUP BY d.lang;
	DROP TABLE IF EXISTS fp;
	CREATE TEMP TABLE fp AS
	SELECT d.id, d.lang, d.family, d.kcode,
		CASE WHEN NOT 'simhash' = ANY (p_methods) THEN NULL
			WHEN bare THEN simhash(d.txt)
			WHEN ranked THEN simhash(d.txt, 'fingerprint',
				ngram => coalesce(p_ngram, 2), shingle => coalesce(p_shingle, 1),
				stopwords => coalesce(p_stopwords, 'builtin'), weighting => coalesce(p_weighting, 'tf'),
				simplify => coalesce(p_simplify, false), numbers => coalesce(p_numbers, 'keep'),
				keywords => coalesce(p_keywords, 0),
				idf => CASE WHEN p_idf THEN (SELECT m FROM split_model s WHERE s.lang = d.lang) ELSE model END)
			ELSE simhash(d.txt,
				ngram => coalesce(p_ngram, 2), shingle => coalesce(p_shingle, 1),
				stopwords => coalesce(p_stopwords, 'builtin'), weighting => coalesce(p_weighting, 'tf'),
				simplify => coalesce(p_simplify, false))
		END AS sh,
		CASE WHEN NOT 'minhash' = ANY (p_methods) THEN NULL
			WHEN bare THEN minhash(d.txt)
			ELSE minhash(d.txt, k => coalesce(p_k, 128),
				ngram => coalesce(p_ngram, 2), shingle => coalesce(p_shingle, 2),
				stopwords => coalesce(p_stopwords, 'none'), simplify => coalesce(p_simplify, false))
		END AS mh
	FROM doc d WHERE d.split = p_split;
	CREATE INDEX ON fp (lang, id);
	ANALYZE fp;

	IF 'simhash' = ANY (p_methods) THEN
		INSERT INTO score
		SELECT p_split, p_cfg, 'simhash', 64, a.lang,
			CASE WHEN a.family <> b.family THEN -1 WHEN a.kcode = 0 THEN b.kcode ELSE 2 END, 64 - hamming_distance(a.sh, b.sh),
			count(*)
		FROM fp a JOIN fp b ON b.lang = a.lang AND b.id > a.id
		GROUP BY 5, 6, 7;
	END IF;
	IF 'minhash' = ANY (p_methods) THEN
		SELECT (minhash_info(mh)).k INTO k FROM fp LIMIT 1;
		INSERT INTO score
		SELECT p_split, p_cfg, 'minhash', k, a.lang,
			CASE WHEN a.family <> b.family THEN -1 WHEN a.kcode = 0 THEN b.kcode ELSE 2 END, round(jaccard(a.mh, b.mh) * k)::integer,
			count(*)
		FROM fp a JOIN fp b ON b.lang = a.lang AND b.id > a.id
		GROUP BY 5, 6, 7;
	END IF;
	IF 'trgm' = ANY (p_methods) THEN
		INSERT INTO score
		SELECT p_split, p_cfg, 'trgm', 100, a.lang,
			CASE WHEN a.family <> b.family THEN -1 WHEN a.kcode = 0 THEN b.kcode ELSE 2 END,
			floor(jaccard(ta.tg, tb.tg) * 100 + 1e-9)::integer,
			count(*)
		FROM fp a JOIN fp b ON b.lang = a.lang AND b.id > a.id
			JOIN doc_trgm ta ON ta.id = a.id JOIN doc_trgm tb ON tb.id = b.id
		GROUP BY 5, 6, 7;
	END IF;
END
$$;

SET client_min_messages = notice;
-- The check: the numbered-trigram Jaccard is pg_trgm's similarity(), on 3,000 pairs of the
-- two splits (similarity() returns real, so equal to 1e-6).
DO $$
DECLARE
	bad integer;
	tot integer;
BEGIN
	SELECT count(*) FILTER (WHERE abs(similarity(a.txt, b.txt) - jaccard(ta.tg, tb.tg)) > 1e-6), count(*)
	INTO bad, tot
	FROM (SELECT id, row_number() OVER (ORDER BY hashint4(id)) AS r FROM doc) x
	JOIN (SELECT id, row_number() OVER (ORDER BY hashint4(id + 7919)) AS r FROM doc) y USING (r)
	JOIN doc a ON a.id = x.id JOIN doc b ON b.id = y.id
	JOIN doc_trgm ta ON ta.id = a.id JOIN doc_trgm tb ON tb.id = b.id
	WHERE x.r <= 3000;
	IF bad > 0 THEN
		RAISE EXCEPTION 'numbered-trigram Jaccard differs from pg_trgm similarity() in % of % pairs', bad, tot;
	END IF;
	RAISE NOTICE 'trigram check: % pairs equal to similarity()', tot;
END
$$;
