-- LSH bands of minhash_sig: minhash_bands (golden keys), lsh_probability,
-- lsh_params and lsh_params_for, the lsh_query type and its @@ operators
-- against two references, and parameter errors.  The GIN class is in
-- minhash_lsh_gin.sql.

SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- golden band keys: stored in indexes and users' tables, the same on every
-- platform and in every later version
SELECT minhash_bands(minhash('The quick brown fox jumps over the lazy dog'), 4, 8);
SELECT minhash_bands(minhash('国务院新闻办公室今天举行新闻发布会，介绍前三季度国民经济运行情况。'), 3, 5);
SELECT minhash_bands(minhash('The quick brown fox jumps over the lazy dog', k => 84), 6, 14);
SELECT minhash_bands(minhash('The quick brown fox jumps over the lazy dog', method => 'kperm', seed => 7), 2, 64);
SELECT minhash_bands('oph32:k=4:seed=-1:pipe=00000000:00000001deadbeef00000002ffffffff', 2, 2);
-- the keys mix in the header: another seed, pipeline, k or method gives other keys
SELECT minhash_bands(minhash('The quick brown fox', seed => 1), 2, 4) && minhash_bands(minhash('The quick brown fox'), 2, 4) AS seed_shares,
       minhash_bands(minhash('The quick brown fox', shingle => 1), 2, 4) && minhash_bands(minhash('The quick brown fox'), 2, 4) AS pipe_shares,
       minhash_bands(minhash('The quick brown fox', k => 64, method => 'kperm'), 2, 4)
         && minhash_bands(minhash('The quick brown fox', k => 128, method => 'kperm'), 2, 4) AS k_shares,
       minhash_bands(minhash('The quick brown fox'), 2, 4) = minhash_bands(minhash('The quick brown fox'), 2, 4) AS same;
-- the first bands of a banding do not depend on how many there are
SELECT minhash_bands(minhash('The quick brown fox'), 3, 4) = (minhash_bands(minhash('The quick brown fox'), 32, 4))[1:3] AS prefix;
-- no features, no bands (never one key every empty text shares); NULL in, NULL out
SELECT minhash_bands(minhash(''), 32, 4), minhash_bands(minhash('{}'::bigint[]), 1, 1), minhash_bands(NULL, 1, 1);
-- bad parameters: the valid range in the message
SELECT minhash_bands(minhash('x'), 0, 4);
SELECT minhash_bands(minhash('x'), 33, 4);
SELECT minhash_bands(minhash('x'), 1, 0);
SELECT minhash_bands(minhash('x'), -1, 4);
SELECT minhash_bands(minhash('x', k => 64), 1, 65);
SELECT minhash_bands(minhash('x'), 2147483647, 2147483647);

-- minhash_lsh: the recommended configuration, minhash(doc, featureless => 'null',
-- shingle => 3) at k = 128, header and all; golden (as a digest of the text form) like
-- every constructor; NULL for a text without shingles
SELECT minhash_lsh('The quick brown fox jumps over the lazy dog') = minhash('The quick brown fox jumps over the lazy dog', shingle => 3) AS same,
       minhash_lsh('转载的新闻保留了大部分字词，只换了标题。', seed => 7) = minhash('转载的新闻保留了大部分字词，只换了标题。', shingle => 3, seed => 7) AS same_seeded,
       minhash_lsh('!!! ...') IS NULL AS featureless_null,
       minhash_lsh('word') = minhash('word', 'null', shingle => 3) AS one_word;
SELECT * FROM minhash_info(minhash_lsh('The quick brown fox jumps over the lazy dog'));
SELECT md5(minhash_lsh('Syndicated newspaper articles reappear under rewritten headlines in partner publications.')::text) AS en,
       md5(minhash_lsh('国务院新闻办公室今天举行新闻发布会，介绍前三季度国民经济运行情况。')::text) AS zh;
SELECT minhash_lsh(NULL), minhash_lsh('x', NULL);

-- the S-curve: 1 - (1 - j^r)^b for min_bands 1, a binomial tail above
SELECT round(lsh_probability(j, 20, 5)::numeric, 6) AS p_20x5,
       round((1 - (1 - j ^ 5) ^ 20)::numeric, 6) AS closed_form,
       round(lsh_probability(j, 32, 4, 2)::numeric, 6) AS p_32x4_m2,
       round(lsh_probability(j, 6, 14, 2)::numeric, 6) AS super_shingles
FROM unnest('{0,0.1,0.3,0.5,0.7,0.9,0.95,1}'::float8[]) j;
-- given an estimate from k positions: C(c, r) / C(k, r) per band
SELECT round(lsh_probability(0.5, 1, 2, 1, 128)::numeric, 6) AS given, round((64 * 63 / (128.0 * 127))::numeric, 6) AS c_choose;
SELECT lsh_probability(NULL, 1, 1), lsh_probability(0.5, NULL, 1), lsh_probability(0.5, 1, 1, NULL), lsh_probability(0.5, 4, 4, 1, NULL) = lsh_probability(0.5, 4, 4);
SELECT lsh_probability(1.5, 20, 5);
SELECT lsh_probability('NaN', 20, 5);
SELECT lsh_probability(0.5, 20, 5, 21);
SELECT lsh_probability(0.5, 20, 5, 0);
SELECT lsh_probability(0.5, 1025, 1);
SELECT lsh_probability(0.5, 20, 5, 1, 64);
SELECT lsh_probability(0.5, 20, 5, 1, 0);

-- the banding with the least weighted error areas: datasketch's choices
SELECT t, k, (lsh_params(t, k)).* FROM (VALUES (0.5, 128), (0.28, 128), (0.8, 128), (0.5, 64), (0.9, 256)) v(t, k);
-- false negatives weigh more: more, shorter bands
SELECT bands, rows, min_bands FROM lsh_params(0.5, 128, 0.1, 0.9);
-- searching min_bands too
SELECT bands, rows, min_bands FROM lsh_params(0.5, 128, max_min_bands => 4);
SELECT lsh_params(-0.1);
SELECT lsh_params('NaN');
SELECT lsh_params(0.5, 0);
SELECT lsh_params(0.5, 1025);
SELECT lsh_params(0.5, 128, -1, 1);
SELECT lsh_params(0.5, 128, 'Infinity', 1);
SELECT lsh_params(0.5, 128, 0, 0);
SELECT lsh_params(0.5, 128, 0.5, 0.5, 0);
SELECT lsh_params(0.5, 16, 0.5, 0.5, 17);

-- lsh_query: text I/O round trip
SELECT lsh_query('oph32:k=4:seed=0:pipe=00000000:00000001DEADBEEF00000002ffffffff', 2, 2, 1);
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff/bands=4,rows=1,min_bands=3'::lsh_query;
SELECT lsh_query_bands(q), lsh_query_rows(q), lsh_query_min_bands(q), lsh_query_signature(q)
FROM (SELECT lsh_query(minhash('a b c', k => 4), 2, 2) q) s;
SELECT lsh_query(minhash('a b c d'), 32, 4)::text::lsh_query::text = lsh_query(minhash('a b c d'), 32, 4)::text AS round_trip;
-- lsh_query(sig): the recommended banding, the defaults of gin_minhash_lsh_ops
SELECT lsh_query_bands(q), lsh_query_rows(q), lsh_query_min_bands(q), lsh_query_signature(q) = minhash('a b c d') AS same_sig
FROM (SELECT lsh_query(minhash('a b c d')) q) s;
SELECT lsh_query(minhash('a b c d', k => 32));
-- bad text: syntax (22P02), banding out of range (22003)
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff'::lsh_query;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff/bands=4,rows=1'::lsh_query;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff/bands=04,rows=1,min_bands=1'::lsh_query;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff/bands=4,rows=1,min_bands=1 '::lsh_query;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef/bands=1,rows=1,min_bands=1'::lsh_query;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff/bands=5,rows=1,min_bands=1'::lsh_query;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff/bands=2,rows=2,min_bands=3'::lsh_query;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff/bands=0,rows=0,min_bands=0'::lsh_query;
SELECT 'oph32:k=4:seed=0:pipe=00000000:00000001deadbeef00000002ffffffff/bands=1,rows=999999999,min_bands=1'::lsh_query;
-- bad constructor arguments (22023), with the range
SELECT lsh_query(minhash('x'), 0, 4);
SELECT lsh_query(minhash('x'), 33, 4);
SELECT lsh_query(minhash('x'), 32, 4, 0);
SELECT lsh_query(minhash('x'), 32, 4, 33);
SELECT lsh_query(minhash('x'), 1, 129);
SELECT lsh_query(minhash('x', k => 84), 7, 12);

-- binary I/O through COPY (a file the server may write: in its data directory)
SELECT current_setting('data_directory') || '/textfp_minhash_lsh.bin' AS binfile \gset
CREATE TABLE lq_io (id int, q lsh_query);
INSERT INTO lq_io SELECT i, lsh_query(minhash('binary ' || i, k => 8 * i), i, 8, 1 + i / 2) FROM generate_series(1, 4) i;
COPY lq_io TO :'binfile' (FORMAT binary);
CREATE TABLE lq_io2 (LIKE lq_io);
COPY lq_io2 FROM :'binfile' (FORMAT binary);
SELECT count(*) AS same FROM lq_io JOIN lq_io2 USING (id) WHERE lq_io.q::text = lq_io2.q::text;
DROP TABLE lq_io, lq_io2;

-- @@ against two references: equal bands counted in SQL from the values,
-- and equal keys of minhash_bands
CREATE FUNCTION pg_temp.set_of(tag text, n int) RETURNS bigint[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(('x' || substr(md5(tag || ':' || j), 1, 16))::bit(64)::bigint)
  FROM generate_series(1, n) j
$$;
CREATE FUNCTION pg_temp.bands_ref(s minhash_sig, q minhash_sig, b int, r int, m int) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT minhash_info(s) = minhash_info(q)
     AND NOT minhash_values(s) <@ '{4294967295}' AND NOT minhash_values(q) <@ '{4294967295}'
     AND (SELECT count(*) FROM generate_series(0, b - 1) i
          WHERE (minhash_values(s))[i * r + 1 : i * r + r] = (minhash_values(q))[i * r + 1 : i * r + r]) >= m
$$;
CREATE FUNCTION pg_temp.keys_ref(s minhash_sig, q minhash_sig, b int, r int, m int) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN (minhash_info(s)).k < b * r THEN false  -- (minhash_bands would reject it)
    ELSE (SELECT count(*) FROM unnest(minhash_bands(s, b, r), minhash_bands(q, b, r)) u(x, y) WHERE x = y) >= m END
$$;
-- 20 families, a root and copies with 10 .. 70 of 150 shingles replaced; a
-- featureless row, a row with another seed, one with k = 64
CREATE TABLE lr AS
SELECT f * 10 + c AS id,
       minhash(pg_temp.set_of('fam' || f, 150 - 10 * c) || pg_temp.set_of('edit' || f || ':' || c, 10 * c)) AS sig
FROM generate_series(1, 20) f, generate_series(0, 7) c;
INSERT INTO lr VALUES (1, minhash('')), (2, minhash(pg_temp.set_of('fam1', 150), seed => 1)),
                      (3, minhash(pg_temp.set_of('fam1', 150), 64));
CREATE TABLE bandings (b int, r int, m int);
INSERT INTO bandings VALUES (32, 4, 1), (32, 4, 3), (16, 8, 1), (20, 5, 2), (64, 2, 8), (128, 1, 40), (1, 128, 1);
SELECT b, r, m, count(*) FILTER (WHERE op) AS matches,
       count(*) FILTER (WHERE op IS DISTINCT FROM ref) AS differ_from_values,
       count(*) FILTER (WHERE op IS DISTINCT FROM keys) AS differ_from_keys
FROM (SELECT b, r, m, s.sig @@ lsh_query(q.sig, b, r, m) AS op,
             pg_temp.bands_ref(s.sig, q.sig, b, r, m) AS ref, pg_temp.keys_ref(s.sig, q.sig, b, r, m) AS keys
      FROM lr s, lr q, bandings WHERE q.id IN (10, 15, 110, 1, 2) AND s.id >= 0) x
GROUP BY b, r, m ORDER BY b, r, m;
-- the commutator says the same
SELECT count(*) FILTER (WHERE (s.sig @@ lsh_query(q.sig, 32, 4)) <> (lsh_query(q.sig, 32, 4) @@ s.sig)) AS commutator_differs
FROM lr s, lr q WHERE q.id BETWEEN 10 AND 40;
-- a featureless signature matches nothing, itself included; other headers share no band
SELECT minhash('') @@ lsh_query(minhash(''), 1, 1) AS empty_self,
       minhash('!!!') @@ lsh_query(minhash(''), 32, 4) AS two_empties,
       minhash('a b c', seed => 1) @@ lsh_query(minhash('a b c'), 32, 4) AS other_seed,
       minhash('a b c', k => 64) @@ lsh_query(minhash('a b c'), 16, 4) AS other_k,
       minhash('a b c') @@ lsh_query(minhash('a b c'), 32, 4, 32) AS same_text;
-- super-shingles (Fetterly et al.): k = 84, 6 super-shingles of 14, near when 2 match
SELECT c, round(150.0 / (150 + c), 3) AS j,
       minhash(pg_temp.set_of('fam3', 150 - c) || pg_temp.set_of('ss' || c, c), 84)
          @@ lsh_query(minhash(pg_temp.set_of('fam3', 150), 84), 6, 14, 2) AS near
FROM unnest('{0,1,2,5,10,20,40}'::int[]) c;

-- the planner's estimate of @@: ANALYZE's pair statistics predict the mean
-- rows per query, which every ordinary query gets (within a factor of 3 of
-- the mean found over all of lr's rows as queries); common values are
-- compared exactly.  (A table sampled whole keeps no MCV list of unique
-- values since 1.1's btree order for minhash_sig: ANALYZE then makes a
-- histogram, so nothing here is known row by row.)
ANALYZE lr;
CREATE FUNCTION pg_temp.est(query text, OUT estimated float8, OUT actual float8)
LANGUAGE plpgsql AS $$
DECLARE p json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO p;
  estimated := (p -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
  actual := (p -> 0 -> 'Plan' ->> 'Actual Rows')::float8;
END $$;
SELECT name, greatest(e.estimated, 1) / greatest(c.mean, 1) BETWEEN 1.0 / 3 AND 3 AS close, round(c.mean, 2) AS mean_actual
FROM (VALUES ('32x4', 32, 4, 1), ('32x4 m=6', 32, 4, 6), ('8x16', 8, 16, 1)) v(name, b, r, m),
  LATERAL pg_temp.est(format($$SELECT * FROM lr WHERE sig @@ lsh_query(minhash(pg_temp.set_of('fam4', 150)), %s, %s, %s)$$, b, r, m)) e,
  LATERAL (SELECT count(*) / 160.0 FROM lr a, lr q WHERE q.id >= 10 AND a.sig @@ lsh_query(q.sig, b, r, m)) c(mean)
ORDER BY name;
SELECT name, greatest(e.estimated, 1) / greatest(e.actual, 1) BETWEEN 1.0 / 3 AND 3 AS close, e.actual
FROM (VALUES
  ('self-join, 32x4 m=2', $$SELECT * FROM lr a JOIN lr b ON a.sig @@ lsh_query(b.sig, 32, 4, 2) WHERE b.id >= 10$$),
  ('self-join, 16x8', $$SELECT * FROM lr a JOIN lr b ON a.sig @@ lsh_query(b.sig, 16, 8) WHERE b.id >= 10$$)) v(name, query),
  pg_temp.est(query) e ORDER BY name;
-- queries that match nothing by their header: featureless, another k
SELECT name, e.estimated < 3 AS small, e.actual
FROM (VALUES
  ('featureless', $$SELECT * FROM lr WHERE sig @@ lsh_query(minhash(''), 32, 4)$$),
  ('k = 32', $$SELECT * FROM lr WHERE sig @@ lsh_query(minhash(pg_temp.set_of('fam1', 150), 32), 8, 4)$$)) v(name, query),
  pg_temp.est(query) e ORDER BY name;
-- a common value (40 copies of one signature) is compared exactly: queries
-- near it are estimated with its 40 rows, the others without
CREATE TABLE lc AS SELECT * FROM lr;
INSERT INTO lc SELECT 1000 + i, minhash(pg_temp.set_of('template', 150)) FROM generate_series(1, 40) i;
ANALYZE lc;
SELECT name, greatest(e.estimated, 1) / greatest(e.actual, 1) BETWEEN 1.0 / 3 AND 3 AS close, e.actual
FROM (VALUES
  ('the common value', $$SELECT * FROM lc WHERE sig @@ lsh_query(minhash(pg_temp.set_of('template', 150)), 32, 4)$$),
  ('an edit of it, m=6', $$SELECT * FROM lc WHERE sig @@ lsh_query(minhash(pg_temp.set_of('template', 140) || pg_temp.set_of('t2', 10)), 32, 4, 6)$$),
  ('a family', $$SELECT * FROM lc WHERE sig @@ lsh_query(minhash(pg_temp.set_of('fam4', 150)), 32, 4)$$)) v(name, query),
  pg_temp.est(query) e ORDER BY name;
DROP TABLE lc;

-- lsh_params_for: the best banding within a budget of candidates per row,
-- predicted from the column's statistics
SELECT bands, rows, min_bands, candidates_per_row <= 3 AS within_budget
FROM lsh_params_for('lr', 'sig', 0.5, max_candidates => 3);
SELECT bands * rows <= 128 AS fits, min_bands <= 2 AS m_searched FROM lsh_params_for('lr', 'sig', 0.7, max_min_bands => 2);
SELECT lsh_params_for('lr', 'nope', 0.5);
SELECT lsh_params_for('lr', 'id', 0.5);
SELECT lsh_params_for('lr', 'sig', 1.5);
SELECT lsh_params_for('lr', 'sig', 0.5, -1);
CREATE TABLE lr_empty (sig minhash_sig);
SELECT lsh_params_for('lr_empty', 'sig', 0.5);
CREATE ROLE regress_lsh_reader;
GRANT SELECT (id) ON lr TO regress_lsh_reader;
SET ROLE regress_lsh_reader;
SELECT lsh_params_for('lr', 'sig', 0.5);
RESET ROLE;
GRANT SELECT (sig) ON lr TO regress_lsh_reader;
SET ROLE regress_lsh_reader;
SELECT bands > 0 AS ok FROM lsh_params_for('lr', 'sig', 0.5);
RESET ROLE;
ALTER TABLE lr ENABLE ROW LEVEL SECURITY;
SET ROLE regress_lsh_reader;
SELECT lsh_params_for('lr', 'sig', 0.5);
RESET ROLE;
ALTER TABLE lr DISABLE ROW LEVEL SECURITY;
REVOKE ALL ON lr FROM regress_lsh_reader;
DROP ROLE regress_lsh_reader;

-- estimators named by someone else's operator, or given other shapes,
-- fall back to a default instead of reading values as signatures
CREATE FUNCTION pg_temp.always(int, int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR pg_temp.### (LEFTARG = int, RIGHTARG = int, FUNCTION = pg_temp.always,
                             RESTRICT = minhash_lsh_sel, JOIN = minhash_lsh_joinsel);
CREATE TEMP TABLE ints AS SELECT g AS x FROM generate_series(1, 100) g;
ANALYZE ints;
EXPLAIN (COSTS OFF) SELECT * FROM ints WHERE x OPERATOR(pg_temp.###) 42;
EXPLAIN (COSTS OFF) SELECT * FROM ints a JOIN ints b ON a.x OPERATOR(pg_temp.###) b.x;
-- a look-alike constructor of the user's own is not taken for textfp's
CREATE FUNCTION pg_temp.lsh_query(minhash_sig, int, int, int) RETURNS lsh_query
LANGUAGE sql IMMUTABLE AS 'SELECT public.lsh_query($1, $2, $3, $4)';
EXPLAIN (COSTS OFF) SELECT a.id FROM lr a JOIN lr b ON a.sig @@ pg_temp.lsh_query(b.sig, 32, 4, 1) WHERE b.id = 10;
SELECT count(*) FROM lr a JOIN lr b ON a.sig @@ pg_temp.lsh_query(b.sig, 32, 4, 1) WHERE b.id = 10;
-- a domain over minhash_sig, NULL constants and parameters
CREATE DOMAIN sig_dom AS minhash_sig;
CREATE TEMP TABLE ld AS SELECT id, sig::sig_dom AS sig FROM lr;
ANALYZE ld;
SELECT count(*) FROM ld WHERE sig @@ lsh_query(minhash(pg_temp.set_of('fam2', 150)), 32, 4);
SELECT count(*) FROM ld WHERE sig @@ NULL::lsh_query;
PREPARE lq(lsh_query) AS SELECT count(*) FROM ld WHERE sig @@ $1;
EXECUTE lq(lsh_query(minhash(pg_temp.set_of('fam2', 150)), 32, 4));
DEALLOCATE lq;
SELECT count(*) FROM ld a JOIN ld b ON a.sig @@ lsh_query(b.sig, 32, 4, 2) WHERE a.id < b.id AND b.id >= 10;

DROP TABLE lr, ld, bandings, lr_empty;
DROP DOMAIN sig_dom;
