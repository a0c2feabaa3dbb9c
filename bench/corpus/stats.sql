-- stats.sql: does a generated corpus look like real text to textfp's fingerprints?  Reads
-- stats_rows.pl's rows on stdin (the real labeled corpus of bench/quality and a sample of the
-- generated one) and prints Markdown tables: for unrelated same-language pairs, percentiles of
-- the exact Jaccard of shingle sets (the default minhash pipeline, shingle = 2, and shingle =
-- 3, 4, 5) and of the SimHash Hamming distance (default simhash); for planted pairs (original
-- and copy), the same per edit kind and strength, real and generated side by side.
--
-- Unrelated pairs, drawn per language with hashint8extended (deterministic): real, every row
-- (originals and copies of different families, as bench/quality scores them); real
-- originals only (all pairs: no edited copy in them); real Chinese without fortunes-zh (the
-- generator learns from the books only); generated, the sampled rows (not two of one family;
-- two instances of one template do count, as do two articles of one site).  Two subsets are
-- shown besides: real originals both of 1,500 bytes or more (generated articles are longer,
-- and longer texts share more common shingles), and generated pairs of two sites and not of
-- one template (the article text without the site's boilerplate in common).
--
-- Usage: perl stats_rows.pl REAL.tsv GEN.tsv SAMPLE | psql -X -v pairs=200000 -f stats.sql
-- Everything lives in schema corpus_stats, dropped first.

\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET work_mem = '256MB';
CREATE EXTENSION IF NOT EXISTS textfp;
DROP SCHEMA IF EXISTS corpus_stats CASCADE;
CREATE SCHEMA corpus_stats;
SET search_path = corpus_stats, public;

CREATE TABLE doc (
	corpus   text NOT NULL,
	id       bigint NOT NULL,
	lang     text NOT NULL,
	family   bigint,
	role     text NOT NULL,
	kind     text,
	strength integer,
	site     integer,
	sampled  boolean NOT NULL,
	source   text,
	txt      text NOT NULL,
	PRIMARY KEY (corpus, id)
);
\copy doc FROM pstdin

-- the shingle sets (uncompressed: every pair reads two) and the SimHash of every row
CREATE TABLE feat (corpus text, id bigint, fp simhash64, s2 bigint[], s3 bigint[], s4 bigint[], s5 bigint[],
	PRIMARY KEY (corpus, id));
ALTER TABLE feat ALTER s2 SET STORAGE EXTERNAL, ALTER s3 SET STORAGE EXTERNAL,
	ALTER s4 SET STORAGE EXTERNAL, ALTER s5 SET STORAGE EXTERNAL;
INSERT INTO feat SELECT corpus, id, simhash(txt), shingles(txt), shingles(txt, shingle => 3),
	shingles(txt, shingle => 4), shingles(txt, shingle => 5) FROM doc;
ANALYZE doc;
ANALYZE feat;

-- The populations of unrelated pairs: (population, corpus, lang, a, b).
CREATE TABLE member AS
	SELECT p.population, d.corpus, d.lang, d.id, d.family, d.role,
		row_number() OVER (PARTITION BY p.population, d.lang ORDER BY d.id) - 1 AS k
	FROM doc d
	JOIN (VALUES ('real, all rows', 'real'), ('real, originals', 'real'), ('real, books only', 'real'),
		('generated', 'gen')) p(population, corpus) ON p.corpus = d.corpus
	WHERE CASE p.population
		WHEN 'real, all rows' THEN true
		WHEN 'real, originals' THEN d.role = 'original'
		WHEN 'real, books only' THEN d.role = 'original' AND d.source = 'books' AND d.lang = 'zh'
		ELSE d.sampled END;
CREATE INDEX ON member (population, lang, k);
ANALYZE member;

CREATE TABLE upair (population text, corpus text, lang text, a bigint, b bigint);
-- all pairs where there are at most :pairs, else :pairs drawn (a draw of one row twice, or of
-- two rows of one reprint family, is skipped)
INSERT INTO upair
	WITH sz AS (SELECT population, lang, count(*) AS n FROM member GROUP BY 1, 2)
	SELECT m1.population, m1.corpus, m1.lang, m1.id, m2.id
	FROM sz JOIN member m1 USING (population, lang) JOIN member m2 USING (population, lang)
	WHERE sz.n * (sz.n - 1) / 2 <= :pairs AND m1.k < m2.k
		AND (m1.family IS NULL OR m2.family IS NULL OR m1.family <> m2.family OR m1.role = 'template');
INSERT INTO upair
	WITH sz AS (SELECT population, lang, count(*) AS n FROM member GROUP BY 1, 2 HAVING count(*) * (count(*) - 1) / 2 > :pairs),
	draw AS (SELECT population, lang, abs(hashint8extended(i, 1)) % n AS ka, abs(hashint8extended(i, 2)) % n AS kb
		FROM sz, generate_series(1, :pairs) i)
	SELECT m1.population, m1.corpus, m1.lang, m1.id, m2.id
	FROM draw JOIN member m1 ON (m1.population, m1.lang, m1.k) = (draw.population, draw.lang, draw.ka)
	JOIN member m2 ON (m2.population, m2.lang, m2.k) = (draw.population, draw.lang, draw.kb)
	WHERE m1.id <> m2.id AND (m1.family IS NULL OR m2.family IS NULL OR m1.family <> m2.family OR m1.role = 'template');

CREATE TABLE uscore AS
	SELECT u.population, u.lang, jaccard(fa.s2, fb.s2) AS j2, jaccard(fa.s3, fb.s3) AS j3,
		jaccard(fa.s4, fb.s4) AS j4, jaccard(fa.s5, fb.s5) AS j5, fa.fp <~> fb.fp AS d,
		da.site = db.site AS same_site, da.role = 'template' AND da.family = db.family AS same_template,
		least(octet_length(da.txt), octet_length(db.txt)) AS shorter
	FROM upair u
	JOIN feat fa ON (fa.corpus, fa.id) = (u.corpus, u.a) JOIN feat fb ON (fb.corpus, fb.id) = (u.corpus, u.b)
	JOIN doc da ON (da.corpus, da.id) = (u.corpus, u.a) JOIN doc db ON (db.corpus, db.id) = (u.corpus, u.b);

-- planted pairs: each copy with its original
CREATE TABLE pscore AS
	SELECT c.corpus, c.lang, c.kind, c.strength, jaccard(fo.s2, fc.s2) AS j2, fo.fp <~> fc.fp AS d
	FROM doc c JOIN doc o ON o.corpus = c.corpus AND o.family = c.family AND o.role = 'original'
	JOIN feat fo ON (fo.corpus, fo.id) = (o.corpus, o.id) JOIN feat fc ON (fc.corpus, fc.id) = (c.corpus, c.id)
	WHERE c.role = 'copy';

\pset format unaligned
\pset tuples_only on
\pset footer off

\echo
\echo '### The rows compared'
\echo
\echo '| corpus | lang | rows | of them originals / copies / templates | mean characters | mean bytes | mean shingles (default) |'
\echo '|---|---|---:|---|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s / %s / %s | %s | %s | %s |', d.corpus, d.lang, count(*),
		count(*) FILTER (WHERE role = 'original'), count(*) FILTER (WHERE role = 'copy'),
		count(*) FILTER (WHERE role = 'template'), round(avg(length(txt))), round(avg(octet_length(txt))),
		round(avg(cardinality(f.s2))))
FROM doc d JOIN feat f USING (corpus, id) GROUP BY d.corpus, d.lang ORDER BY d.corpus DESC, d.lang;

\echo
\echo '### Unrelated same-language pairs'
\echo
\echo 'Exact Jaccard of the shingle sets (`jaccard(shingles(a), shingles(b))`; default pipeline: 2-gram CJK tokens, no stopwords, shingle = 2) at the percentiles p50 / p99 / p99.9 / p99.99, and SimHash Hamming distance (`simhash(a) <~> simhash(b)`, defaults) at p0.01 / p0.1 / p1 / p50.'
\echo
\echo '| lang | population | pairs | J, shingle 2 (default) | J, shingle 3 | J, shingle 4 | J, shingle 5 | Hamming p0.01 / p0.1 / p1 / p50 |'
\echo '|---|---|---:|---|---|---|---|---|'
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s |', lang, population, count(*),
		array_to_string(percentile_disc(ARRAY[0.5, 0.99, 0.999, 0.9999]) WITHIN GROUP (ORDER BY round(j2::numeric, 3)), ' / '),
		array_to_string(percentile_disc(ARRAY[0.5, 0.99, 0.999, 0.9999]) WITHIN GROUP (ORDER BY round(j3::numeric, 3)), ' / '),
		array_to_string(percentile_disc(ARRAY[0.5, 0.99, 0.999, 0.9999]) WITHIN GROUP (ORDER BY round(j4::numeric, 3)), ' / '),
		array_to_string(percentile_disc(ARRAY[0.5, 0.99, 0.999, 0.9999]) WITHIN GROUP (ORDER BY round(j5::numeric, 3)), ' / '),
		array_to_string(percentile_disc(ARRAY[0.0001, 0.001, 0.01, 0.5]) WITHIN GROUP (ORDER BY d), ' / '))
FROM (SELECT population, lang, j2, j3, j4, j5, d FROM uscore
	UNION ALL SELECT 'real, originals, both 1,500+ bytes', lang, j2, j3, j4, j5, d FROM uscore
		WHERE population = 'real, originals' AND shorter >= 1500
	UNION ALL SELECT 'generated, two sites, no template', lang, j2, j3, j4, j5, d FROM uscore
		WHERE population = 'generated' AND NOT same_site AND NOT coalesce(same_template, false)) u
GROUP BY lang, population
ORDER BY lang, array_position(ARRAY['real, all rows', 'real, originals', 'real, originals, both 1,500+ bytes',
	'real, books only', 'generated', 'generated, two sites, no template'], population);

\echo
\echo 'Where the generated tail comes from: unrelated pairs of one site or of one template, and their share among the pairs at or above the p99.9 Jaccard (shingle 2) and at or below the p0.1 Hamming distance.'
\echo
\echo '| lang | pairs | one site | one template | one site, of J2 >= p99.9 | one template, of J2 >= p99.9 | one site, of d <= p0.1 | one template, of d <= p0.1 |'
\echo '|---|---:|---:|---:|---:|---:|---:|---:|'
WITH g AS (SELECT * FROM uscore WHERE population = 'generated'),
q AS (SELECT lang, percentile_disc(0.999) WITHIN GROUP (ORDER BY j2) AS j999,
	percentile_disc(0.001) WITHIN GROUP (ORDER BY d) AS d001 FROM g GROUP BY lang)
SELECT format('| %s | %s | %s%% | %s%% | %s%% | %s%% | %s%% | %s%% |', lang, count(*),
		round(100.0 * avg(same_site::int), 2), round(100.0 * avg(coalesce(same_template, false)::int), 3),
		round(100.0 * avg(same_site::int) FILTER (WHERE j2 >= j999), 1),
		round(100.0 * avg(coalesce(same_template, false)::int) FILTER (WHERE j2 >= j999), 1),
		round(100.0 * avg(same_site::int) FILTER (WHERE d <= d001), 1),
		round(100.0 * avg(coalesce(same_template, false)::int) FILTER (WHERE d <= d001), 1))
FROM g JOIN q USING (lang) GROUP BY lang ORDER BY lang;

\echo
\echo '### Planted pairs (original and copy)'
\echo
\echo 'Per edit kind and strength (generated: copies with one kind; `combo` several, `verbatim` none but the new site''s wrapping): pairs, median exact Jaccard (shingle 2), share with J >= 0.28 (the default `textfp.jaccard_threshold`, on the exact value), median Hamming distance, share with d <= 10 (the default `textfp.hamming_threshold`); real | generated.'
\echo
\echo '| lang | kind | strength | pairs real / gen | median J real / gen | J >= 0.28 real / gen | median d real / gen | d <= 10 real / gen |'
\echo '|---|---|---:|---|---|---|---|---|'
WITH s AS (
	SELECT corpus, lang, kind, CASE WHEN kind IN ('combo', 'verbatim') THEN 0 ELSE strength END AS strength,
		count(*) AS n, percentile_disc(0.5) WITHIN GROUP (ORDER BY j2) AS mj, avg((j2 >= 0.28)::int) AS rj,
		percentile_disc(0.5) WITHIN GROUP (ORDER BY d) AS md, avg((d <= 10)::int) AS rd
	FROM pscore GROUP BY 1, 2, 3, 4),
k AS (SELECT DISTINCT lang, kind, strength FROM s)
SELECT format('| %s | %s | %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |', k.lang, k.kind,
		CASE WHEN k.strength = 0 THEN '' ELSE k.strength::text END,
		coalesce(r.n, 0), coalesce(g.n, 0), round(r.mj::numeric, 3), round(g.mj::numeric, 3),
		round(r.rj, 2), round(g.rj, 2), r.md, g.md, round(r.rd, 2), round(g.rd, 2))
FROM k LEFT JOIN s r ON r.corpus = 'real' AND (r.lang, r.kind, r.strength) = (k.lang, k.kind, k.strength)
	LEFT JOIN s g ON g.corpus = 'gen' AND (g.lang, g.kind, g.strength) = (k.lang, k.kind, k.strength)
ORDER BY k.lang, array_position(ARRAY['verbatim', 'headline', 'boilerplate', 'drop', 'reorder', 'typos', 'width',
	'script', 'truncate', 'combo'], k.kind), k.strength;
