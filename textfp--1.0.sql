/* textfp--1.0.sql: text fingerprints and near-duplicate detection. */

\echo Use "CREATE EXTENSION textfp" to load this file. \quit

-- =========================================================================
-- type simhash64: a 64-bit SimHash, 16 hex digits in text form
-- =========================================================================

CREATE TYPE simhash64;

CREATE FUNCTION simhash64_in(cstring) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_out(simhash64) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_recv(internal) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_send(simhash64) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ANALYZE keeps the standard statistics and adds the distance distribution
-- of sampled row pairs, for the planner's estimates of % and <@.
CREATE FUNCTION simhash64_analyze(internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT;

-- LIKE int8: 8 bytes, passed by value exactly where int8 is (64-bit builds).
CREATE TYPE simhash64 (
	INPUT = simhash64_in,
	OUTPUT = simhash64_out,
	RECEIVE = simhash64_recv,
	SEND = simhash64_send,
	ANALYZE = simhash64_analyze,
	LIKE = pg_catalog.int8
);
COMMENT ON TYPE simhash64 IS '64-bit SimHash fingerprint';

-- casts: explicit only, bit-for-bit
CREATE FUNCTION simhash64_to_bigint(simhash64) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_from_bigint(bigint) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_to_bit(simhash64) RETURNS bit(64)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_from_bit(bit) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_to_bytea(simhash64) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_from_bytea(bytea) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION simhash64_to_bigint(simhash64) IS 'same 64 bits as a (signed) bigint';
COMMENT ON FUNCTION simhash64_from_bigint(bigint) IS 'simhash64 with the same 64 bits as the bigint';
COMMENT ON FUNCTION simhash64_to_bit(simhash64) IS 'the 64 bits, most significant first';
COMMENT ON FUNCTION simhash64_from_bit(bit) IS 'simhash64 from exactly 64 bits, most significant first';
COMMENT ON FUNCTION simhash64_to_bytea(simhash64) IS 'the 8 bytes, big-endian';
COMMENT ON FUNCTION simhash64_from_bytea(bytea) IS 'simhash64 from exactly 8 bytes, big-endian';

CREATE CAST (simhash64 AS bigint) WITH FUNCTION simhash64_to_bigint(simhash64);
CREATE CAST (bigint AS simhash64) WITH FUNCTION simhash64_from_bigint(bigint);
CREATE CAST (simhash64 AS bit) WITH FUNCTION simhash64_to_bit(simhash64);
CREATE CAST (bit AS simhash64) WITH FUNCTION simhash64_from_bit(bit);
CREATE CAST (simhash64 AS bytea) WITH FUNCTION simhash64_to_bytea(simhash64);
CREATE CAST (bytea AS simhash64) WITH FUNCTION simhash64_from_bytea(bytea);

-- comparison: unsigned order of the 64 bits, for btree and hash opclasses
CREATE FUNCTION simhash64_eq(simhash64, simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_ne(simhash64, simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_lt(simhash64, simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_le(simhash64, simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_gt(simhash64, simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_ge(simhash64, simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_cmp(simhash64, simhash64) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_hash(simhash64) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash64_hash_extended(simhash64, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION simhash64_eq(simhash64, simhash64) IS 'implementation of = operator';
COMMENT ON FUNCTION simhash64_ne(simhash64, simhash64) IS 'implementation of <> operator';
COMMENT ON FUNCTION simhash64_lt(simhash64, simhash64) IS 'implementation of < operator';
COMMENT ON FUNCTION simhash64_le(simhash64, simhash64) IS 'implementation of <= operator';
COMMENT ON FUNCTION simhash64_gt(simhash64, simhash64) IS 'implementation of > operator';
COMMENT ON FUNCTION simhash64_ge(simhash64, simhash64) IS 'implementation of >= operator';
COMMENT ON FUNCTION simhash64_cmp(simhash64, simhash64) IS 'btree comparison: unsigned order of the 64 bits';
COMMENT ON FUNCTION simhash64_hash(simhash64) IS 'hash support';
COMMENT ON FUNCTION simhash64_hash_extended(simhash64, bigint) IS 'seeded hash support';

CREATE OPERATOR = (
	LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS simhash64_btree_ops
	DEFAULT FOR TYPE simhash64 USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 simhash64_cmp(simhash64, simhash64);

CREATE OPERATOR CLASS simhash64_hash_ops
	DEFAULT FOR TYPE simhash64 USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 simhash64_hash(simhash64),
	FUNCTION 2 simhash64_hash_extended(simhash64, bigint);

-- =========================================================================
-- Hamming distance and the near operator
-- =========================================================================

CREATE FUNCTION hamming_distance(simhash64, simhash64) RETURNS integer
	AS 'MODULE_PATHNAME', 'simhash64_hamming'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming_distance(simhash64, simhash64)
	IS 'number of differing bits, 0 to 64';

-- planner estimates of % and <@ / @> (src/simhash64_selfuncs.c)
CREATE FUNCTION simhash64_hamming_sel(internal, oid, internal, integer) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash64_hamming_joinsel(internal, oid, internal, smallint, internal) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_hamming_sel(internal, oid, internal, integer)
	IS 'restriction selectivity of % and <@: MCVs, sampled pair distances, binomial floor';
COMMENT ON FUNCTION simhash64_hamming_joinsel(internal, oid, internal, smallint, internal)
	IS 'join selectivity of % and <@';

CREATE OPERATOR <~> (
	LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = hamming_distance,
	COMMUTATOR = <~>
);

-- STABLE, not IMMUTABLE: the answer depends on textfp.hamming_threshold.
CREATE FUNCTION simhash64_near(simhash64, simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash64_near(simhash64, simhash64)
	IS 'true when the Hamming distance is at most textfp.hamming_threshold';

CREATE OPERATOR % (
	LEFTARG = simhash64, RIGHTARG = simhash64, FUNCTION = simhash64_near,
	COMMUTATOR = %, RESTRICT = simhash64_hamming_sel, JOIN = simhash64_hamming_joinsel
);

-- =========================================================================
-- type hamming_ball: a centre and a radius, for per-query thresholds
-- =========================================================================

CREATE TYPE hamming_ball;

CREATE FUNCTION hamming_ball_in(cstring) RETURNS hamming_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball_out(hamming_ball) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball_recv(internal) RETURNS hamming_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball_send(hamming_ball) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE hamming_ball (
	INPUT = hamming_ball_in,
	OUTPUT = hamming_ball_out,
	RECEIVE = hamming_ball_recv,
	SEND = hamming_ball_send,
	INTERNALLENGTH = 16,
	ALIGNMENT = double
);
COMMENT ON TYPE hamming_ball IS 'simhash64 centre and Hamming radius, written centre/radius';

-- Two arguments, so never read as a cast.
CREATE FUNCTION hamming_ball(center simhash64, radius integer) RETURNS hamming_ball
	AS 'MODULE_PATHNAME', 'hamming_ball_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball(simhash64, integer)
	IS 'the fingerprints within radius bits of center (radius 0 to 64)';

CREATE FUNCTION hamming_ball_center(hamming_ball) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hamming_ball_radius(hamming_ball) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hamming_ball_center(hamming_ball) IS 'centre of the ball';
COMMENT ON FUNCTION hamming_ball_radius(hamming_ball) IS 'radius of the ball in bits';

CREATE FUNCTION simhash64_within(simhash64, hamming_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hamming_ball_contains(hamming_ball, simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash64_within(simhash64, hamming_ball)
	IS 'implementation of <@: fingerprint lies within the ball';
COMMENT ON FUNCTION hamming_ball_contains(hamming_ball, simhash64)
	IS 'implementation of @>: ball contains the fingerprint';

CREATE OPERATOR <@ (
	LEFTARG = simhash64, RIGHTARG = hamming_ball, FUNCTION = simhash64_within,
	COMMUTATOR = @>, RESTRICT = simhash64_hamming_sel, JOIN = simhash64_hamming_joinsel
);
CREATE OPERATOR @> (
	LEFTARG = hamming_ball, RIGHTARG = simhash64, FUNCTION = hamming_ball_contains,
	COMMUTATOR = <@, RESTRICT = simhash64_hamming_sel, JOIN = simhash64_hamming_joinsel
);

-- =========================================================================
-- the text pipeline
-- =========================================================================
-- Every pipeline parameter is a named argument with the same name and
-- default in every function.  Defaults are substituted at plan time and are
-- part of stored fingerprints: they never change within a version.

CREATE FUNCTION simhash(
	doc text,
	ngram integer DEFAULT 2,
	shingle integer DEFAULT 1,
	tokenizer text DEFAULT 'ngram',
	simplify boolean DEFAULT false,
	stopwords text DEFAULT 'builtin',
	user_stopwords text[] DEFAULT '{}',
	weighting text DEFAULT 'tf',
	seed bigint DEFAULT 0)
RETURNS simhash64
	AS 'MODULE_PATHNAME', 'textfp_simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(text, integer, integer, text, boolean, text, text[], text, bigint)
	IS 'SimHash of a text''s weighted features';

CREATE FUNCTION textfp_features(
	doc text,
	ngram integer DEFAULT 2,
	shingle integer DEFAULT 1,
	tokenizer text DEFAULT 'ngram',
	simplify boolean DEFAULT false,
	stopwords text DEFAULT 'builtin',
	user_stopwords text[] DEFAULT '{}',
	weighting text DEFAULT 'tf',
	seed bigint DEFAULT 0,
	OUT feature text,
	OUT hash bigint,
	OUT weight double precision)
RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'textfp_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 200;
COMMENT ON FUNCTION textfp_features(text, integer, integer, text, boolean, text, text[], text, bigint)
	IS 'the features the pipeline extracts from a text, with hash and weight';

CREATE FUNCTION textfp_normalize(doc text, simplify boolean DEFAULT false)
RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_normalize'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_normalize(text, boolean)
	IS 'the text as the pipeline sees it: NFKC with case folding, optionally simplified Chinese';

CREATE FUNCTION textfp_stopwords(list text DEFAULT 'builtin') RETURNS SETOF text
	AS 'MODULE_PATHNAME', 'textfp_stopwords'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION textfp_stopwords(text)
	IS 'the words of a built-in stopword list: builtin, zh, en or none';

CREATE FUNCTION textfp_versions(
	OUT textfp text, OUT icu text, OUT unicode text, OUT xxhash text)
RETURNS record
	AS 'MODULE_PATHNAME', 'textfp_versions'
	LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_versions()
	IS 'versions of textfp, ICU, Unicode and xxHash this server uses';

-- =========================================================================
-- SimHash from other feature sources
-- =========================================================================

CREATE FUNCTION simhash(doc tsvector) RETURNS simhash64
	AS 'MODULE_PATHNAME', 'textfp_simhash_tsvector'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(tsvector)
	IS 'SimHash of a tsvector''s lexemes, weighted by their number of positions';

CREATE FUNCTION simhash_agg_transfn(internal, bigint, double precision)
RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION simhash_agg_finalfn(internal) RETURNS simhash64
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION simhash_agg_combinefn(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION simhash_agg_serialfn(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_agg_deserialfn(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_transfn(internal, bigint, double precision) IS 'simhash_agg state transition';
COMMENT ON FUNCTION simhash_agg_finalfn(internal) IS 'simhash_agg final value';
COMMENT ON FUNCTION simhash_agg_combinefn(internal, internal) IS 'simhash_agg parallel combine';
COMMENT ON FUNCTION simhash_agg_serialfn(internal) IS 'simhash_agg state serialisation';
COMMENT ON FUNCTION simhash_agg_deserialfn(bytea, internal) IS 'simhash_agg state deserialisation';

CREATE AGGREGATE simhash_agg(feature_hash bigint, weight double precision) (
	SFUNC = simhash_agg_transfn,
	STYPE = internal,
	FINALFUNC = simhash_agg_finalfn,
	COMBINEFUNC = simhash_agg_combinefn,
	SERIALFUNC = simhash_agg_serialfn,
	DESERIALFUNC = simhash_agg_deserialfn,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE simhash_agg(bigint, double precision)
	IS 'SimHash of (feature hash, weight) rows; order-independent';

-- =========================================================================
-- GiST: radius and nearest-neighbour search over simhash64
-- =========================================================================

CREATE TYPE gist_simhash64_key;
CREATE FUNCTION gist_simhash64_key_in(cstring) RETURNS gist_simhash64_key
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_key_out(gist_simhash64_key) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE gist_simhash64_key (
	INPUT = gist_simhash64_key_in,
	OUTPUT = gist_simhash64_key_out,
	INTERNALLENGTH = 16,
	ALIGNMENT = double
);
COMMENT ON TYPE gist_simhash64_key IS 'GiST key of simhash64: AND and OR of the fingerprints below';

CREATE FUNCTION gist_simhash64_consistent(internal, simhash64, smallint, oid, internal)
RETURNS boolean AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_distance(internal, simhash64, smallint, oid, internal)
RETURNS double precision AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_union(internal, internal) RETURNS gist_simhash64_key
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_compress(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_fetch(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_penalty(internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_picksplit(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_same(gist_simhash64_key, gist_simhash64_key, internal)
RETURNS internal AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_simhash64_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS gist_simhash64_ops
	DEFAULT FOR TYPE simhash64 USING gist AS
	OPERATOR 1 = (simhash64, simhash64),
	OPERATOR 2 % (simhash64, simhash64),
	OPERATOR 3 <@ (simhash64, hamming_ball),
	OPERATOR 15 <~> (simhash64, simhash64) FOR ORDER BY pg_catalog.integer_ops,
	FUNCTION 1 gist_simhash64_consistent(internal, simhash64, smallint, oid, internal),
	FUNCTION 2 gist_simhash64_union(internal, internal),
	FUNCTION 3 gist_simhash64_compress(internal),
	FUNCTION 5 gist_simhash64_penalty(internal, internal, internal),
	FUNCTION 6 gist_simhash64_picksplit(internal, internal),
	FUNCTION 7 gist_simhash64_same(gist_simhash64_key, gist_simhash64_key, internal),
	FUNCTION 8 gist_simhash64_distance(internal, simhash64, smallint, oid, internal),
	FUNCTION 9 gist_simhash64_fetch(internal),
	FUNCTION 11 gist_simhash64_sortsupport(internal),
	STORAGE gist_simhash64_key;

-- =========================================================================
-- hamming_ball overlap, and GiST for exclusion constraints
-- =========================================================================

CREATE FUNCTION hamming_ball_overlaps(hamming_ball, hamming_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming_ball_overlaps(hamming_ball, hamming_ball)
	IS 'implementation of &&: some fingerprint lies in both balls (centres at most r1 + r2 apart)';

CREATE OPERATOR && (
	LEFTARG = hamming_ball, RIGHTARG = hamming_ball, FUNCTION = hamming_ball_overlaps,
	COMMUTATOR = &&, RESTRICT = contsel, JOIN = contjoinsel
);

CREATE TYPE gist_hamming_ball_key;
CREATE FUNCTION gist_hamming_ball_key_in(cstring) RETURNS gist_hamming_ball_key
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_hamming_ball_key_out(gist_hamming_ball_key) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE gist_hamming_ball_key (
	INPUT = gist_hamming_ball_key_in,
	OUTPUT = gist_hamming_ball_key_out,
	INTERNALLENGTH = 24,
	ALIGNMENT = double
);
COMMENT ON TYPE gist_hamming_ball_key IS 'GiST key of hamming_ball: AND and OR of the centres below, largest radius';

CREATE FUNCTION gist_hamming_ball_consistent(internal, hamming_ball, smallint, oid, internal)
RETURNS boolean AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_hamming_ball_union(internal, internal) RETURNS gist_hamming_ball_key
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_hamming_ball_compress(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_hamming_ball_penalty(internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_hamming_ball_picksplit(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gist_hamming_ball_same(gist_hamming_ball_key, gist_hamming_ball_key, internal)
RETURNS internal AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS gist_hamming_ball_ops
	DEFAULT FOR TYPE hamming_ball USING gist AS
	OPERATOR 3 && (hamming_ball, hamming_ball),
	FUNCTION 1 gist_hamming_ball_consistent(internal, hamming_ball, smallint, oid, internal),
	FUNCTION 2 gist_hamming_ball_union(internal, internal),
	FUNCTION 3 gist_hamming_ball_compress(internal),
	FUNCTION 5 gist_hamming_ball_penalty(internal, internal, internal),
	FUNCTION 6 gist_hamming_ball_picksplit(internal, internal),
	FUNCTION 7 gist_hamming_ball_same(gist_hamming_ball_key, gist_hamming_ball_key, internal),
	STORAGE gist_hamming_ball_key;

-- =========================================================================
-- SP-GiST: a radix trie over simhash64, for the same queries as GiST
-- =========================================================================

CREATE FUNCTION spgist_simhash64_config(internal, internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spgist_simhash64_choose(internal, internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spgist_simhash64_picksplit(internal, internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spgist_simhash64_inner_consistent(internal, internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spgist_simhash64_leaf_consistent(internal, internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS spgist_simhash64_ops
	DEFAULT FOR TYPE simhash64 USING spgist AS
	OPERATOR 1 = (simhash64, simhash64),
	OPERATOR 2 % (simhash64, simhash64),
	OPERATOR 3 <@ (simhash64, hamming_ball),
	OPERATOR 15 <~> (simhash64, simhash64) FOR ORDER BY pg_catalog.integer_ops,
	FUNCTION 1 spgist_simhash64_config(internal, internal),
	FUNCTION 2 spgist_simhash64_choose(internal, internal),
	FUNCTION 3 spgist_simhash64_picksplit(internal, internal),
	FUNCTION 4 spgist_simhash64_inner_consistent(internal, internal),
	FUNCTION 5 spgist_simhash64_leaf_consistent(internal, internal);

-- =========================================================================
-- GIN: pigeonhole blocks (src/simhash64_gin.c), exact for every radius
-- =========================================================================

CREATE FUNCTION gin_simhash64_extract_value(simhash64, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_simhash64_extract_query(simhash64, internal, smallint, internal, internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_simhash64_consistent(internal, smallint, simhash64, integer, internal, internal, internal, internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_simhash64_triconsistent(internal, smallint, simhash64, integer, internal, internal, internal) RETURNS "char"
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_simhash64_options(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION gin_simhash64_extract_value(simhash64, internal, internal)
	IS 'GIN support: the (block, value) keys of a fingerprint';
COMMENT ON FUNCTION gin_simhash64_extract_query(simhash64, internal, smallint, internal, internal, internal, internal)
	IS 'GIN support: the probe keys of a radius search';
COMMENT ON FUNCTION gin_simhash64_consistent(internal, smallint, simhash64, integer, internal, internal, internal, internal)
	IS 'GIN support: lower bound of the distance from the matched probes';
COMMENT ON FUNCTION gin_simhash64_triconsistent(internal, smallint, simhash64, integer, internal, internal, internal)
	IS 'GIN support: ternary form of the consistent function';
COMMENT ON FUNCTION gin_simhash64_options(internal)
	IS 'GIN support: the blocks option';

CREATE OPERATOR CLASS gin_simhash64_ops
	DEFAULT FOR TYPE simhash64 USING gin AS
	OPERATOR 1 = (simhash64, simhash64),
	OPERATOR 2 % (simhash64, simhash64),
	OPERATOR 3 <@ (simhash64, hamming_ball),
	FUNCTION 1 btint8cmp(bigint, bigint),
	FUNCTION 2 gin_simhash64_extract_value(simhash64, internal, internal),
	FUNCTION 3 gin_simhash64_extract_query(simhash64, internal, smallint, internal, internal, internal, internal),
	FUNCTION 4 gin_simhash64_consistent(internal, smallint, simhash64, integer, internal, internal, internal, internal),
	FUNCTION 6 gin_simhash64_triconsistent(internal, smallint, simhash64, integer, internal, internal, internal),
	FUNCTION 7 gin_simhash64_options(internal),
	STORAGE bigint;

-- =========================================================================
-- type minhash_sig: MinHash signatures of shingle sets
-- =========================================================================

CREATE TYPE minhash_sig;

CREATE FUNCTION minhash_sig_in(cstring, oid, integer) RETURNS minhash_sig
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_sig_out(minhash_sig) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_sig_recv(internal, oid, integer) RETURNS minhash_sig
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_sig_send(minhash_sig) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_sig_typmod_in(cstring[]) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_sig_typmod_out(integer) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_sig_analyze(internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT;

-- Values are random 32-bit numbers: compression would only cost time.
CREATE TYPE minhash_sig (
	INPUT = minhash_sig_in,
	OUTPUT = minhash_sig_out,
	RECEIVE = minhash_sig_recv,
	SEND = minhash_sig_send,
	TYPMOD_IN = minhash_sig_typmod_in,
	TYPMOD_OUT = minhash_sig_typmod_out,
	ANALYZE = minhash_sig_analyze,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = external
);
COMMENT ON TYPE minhash_sig
	IS 'MinHash signature: k 32-bit values with the method, seed and pipeline that made them; minhash_sig(k) fixes k';

COMMENT ON FUNCTION minhash_sig_in(cstring, oid, integer) IS 'text input of minhash_sig';
COMMENT ON FUNCTION minhash_sig_out(minhash_sig) IS 'text output of minhash_sig';
COMMENT ON FUNCTION minhash_sig_recv(internal, oid, integer) IS 'binary input of minhash_sig';
COMMENT ON FUNCTION minhash_sig_send(minhash_sig) IS 'binary output of minhash_sig';
COMMENT ON FUNCTION minhash_sig_typmod_in(cstring[]) IS 'reads the k of minhash_sig(k)';
COMMENT ON FUNCTION minhash_sig_typmod_out(integer) IS 'writes the k of minhash_sig(k)';
COMMENT ON FUNCTION minhash_sig_analyze(internal)
	IS 'ANALYZE of minhash_sig columns: standard statistics plus the Jaccard estimates of sampled row pairs';

CREATE FUNCTION minhash_sig_jaccard_sel(internal, oid, internal, integer) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_sig_jaccard_joinsel(internal, oid, internal, smallint, internal) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_sig_jaccard_sel(internal, oid, internal, integer)
	IS 'restriction selectivity of the minhash_sig operators %, <@ and @>';
COMMENT ON FUNCTION minhash_sig_jaccard_joinsel(internal, oid, internal, smallint, internal)
	IS 'join selectivity of the minhash_sig operators %, <@ and @>';

CREATE FUNCTION minhash_sig(minhash_sig, integer, boolean) RETURNS minhash_sig
	AS 'MODULE_PATHNAME', 'minhash_sig_enforce_k'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_sig(minhash_sig, integer, boolean)
	IS 'checks a signature''s k against minhash_sig(k)';
CREATE CAST (minhash_sig AS minhash_sig)
	WITH FUNCTION minhash_sig(minhash_sig, integer, boolean) AS IMPLICIT;

CREATE FUNCTION minhash_sig_eq(minhash_sig, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION minhash_sig_ne(minhash_sig, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION minhash_sig_hash(minhash_sig) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_sig_hash_extended(minhash_sig, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_sig_eq(minhash_sig, minhash_sig)
	IS 'implementation of =: same header and values';
COMMENT ON FUNCTION minhash_sig_ne(minhash_sig, minhash_sig)
	IS 'implementation of <>';
COMMENT ON FUNCTION minhash_sig_hash(minhash_sig) IS 'hash support for minhash_sig';
COMMENT ON FUNCTION minhash_sig_hash_extended(minhash_sig, bigint) IS 'hash support for minhash_sig';

CREATE OPERATOR = (
	LEFTARG = minhash_sig, RIGHTARG = minhash_sig, FUNCTION = minhash_sig_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES
);
CREATE OPERATOR <> (
	LEFTARG = minhash_sig, RIGHTARG = minhash_sig, FUNCTION = minhash_sig_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR CLASS minhash_sig_hash_ops
	DEFAULT FOR TYPE minhash_sig USING hash AS
	OPERATOR 1 = (minhash_sig, minhash_sig),
	FUNCTION 1 minhash_sig_hash(minhash_sig),
	FUNCTION 2 minhash_sig_hash_extended(minhash_sig, bigint);

-- COST 50: comparing k values (and detoasting) costs about 50 times a plain
-- operator, which the planner must know to weigh a scan against the index.
CREATE FUNCTION jaccard(minhash_sig, minhash_sig) RETURNS float8
	AS 'MODULE_PATHNAME', 'minhash_sig_jaccard'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION jaccard(minhash_sig, minhash_sig)
	IS 'MinHash estimate of the Jaccard similarity: the share of equal positions';

CREATE FUNCTION minhash_sig_distance(minhash_sig, minhash_sig) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION minhash_sig_distance(minhash_sig, minhash_sig)
	IS 'implementation of <%>: 1 - jaccard';
CREATE OPERATOR <%> (
	LEFTARG = minhash_sig, RIGHTARG = minhash_sig, FUNCTION = minhash_sig_distance,
	COMMUTATOR = <%>
);

-- STABLE, not IMMUTABLE: the answer depends on textfp.jaccard_threshold.
CREATE FUNCTION minhash_sig_near(minhash_sig, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION minhash_sig_near(minhash_sig, minhash_sig)
	IS 'true when the Jaccard estimate is at least textfp.jaccard_threshold';
CREATE OPERATOR % (
	LEFTARG = minhash_sig, RIGHTARG = minhash_sig, FUNCTION = minhash_sig_near,
	COMMUTATOR = %, RESTRICT = minhash_sig_jaccard_sel, JOIN = minhash_sig_jaccard_joinsel
);

CREATE FUNCTION minhash_info(sig minhash_sig,
	OUT method text, OUT k integer, OUT value_bits integer, OUT seed bigint, OUT pipeline text)
RETURNS record
	AS 'MODULE_PATHNAME', 'minhash_sig_info'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_info(minhash_sig)
	IS 'how a signature was made: method, k, value width, seed and pipeline identity';

CREATE FUNCTION minhash_values(sig minhash_sig) RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'minhash_sig_values'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_values(minhash_sig)
	IS 'the k values of a signature, 0 to 4294967295 each';

-- =========================================================================
-- type jaccard_ball: a signature and a threshold, for per-query thresholds
-- =========================================================================

CREATE TYPE jaccard_ball;

CREATE FUNCTION jaccard_ball_in(cstring) RETURNS jaccard_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION jaccard_ball_out(jaccard_ball) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION jaccard_ball_recv(internal) RETURNS jaccard_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION jaccard_ball_send(jaccard_ball) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE jaccard_ball (
	INPUT = jaccard_ball_in,
	OUTPUT = jaccard_ball_out,
	RECEIVE = jaccard_ball_recv,
	SEND = jaccard_ball_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);
COMMENT ON TYPE jaccard_ball
	IS 'minhash signature and least Jaccard estimate, written signature/threshold';
COMMENT ON FUNCTION jaccard_ball_in(cstring) IS 'text input of jaccard_ball';
COMMENT ON FUNCTION jaccard_ball_out(jaccard_ball) IS 'text output of jaccard_ball';
COMMENT ON FUNCTION jaccard_ball_recv(internal) IS 'binary input of jaccard_ball';
COMMENT ON FUNCTION jaccard_ball_send(jaccard_ball) IS 'binary output of jaccard_ball';

-- Two arguments, so never read as a cast.
CREATE FUNCTION jaccard_ball(sig minhash_sig, threshold float8) RETURNS jaccard_ball
	AS 'MODULE_PATHNAME', 'jaccard_ball_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION jaccard_ball(minhash_sig, float8)
	IS 'the signatures whose Jaccard estimate with sig is at least threshold (0 to 1)';

CREATE FUNCTION jaccard_ball_signature(jaccard_ball) RETURNS minhash_sig
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION jaccard_ball_threshold(jaccard_ball) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION jaccard_ball_signature(jaccard_ball) IS 'signature of the ball';
COMMENT ON FUNCTION jaccard_ball_threshold(jaccard_ball) IS 'least Jaccard estimate of the ball';

CREATE FUNCTION minhash_sig_within(minhash_sig, jaccard_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
CREATE FUNCTION jaccard_ball_contains(jaccard_ball, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION minhash_sig_within(minhash_sig, jaccard_ball)
	IS 'implementation of <@: Jaccard estimate with the ball''s signature at least its threshold';
COMMENT ON FUNCTION jaccard_ball_contains(jaccard_ball, minhash_sig)
	IS 'implementation of @>: the ball contains the signature';

CREATE OPERATOR <@ (
	LEFTARG = minhash_sig, RIGHTARG = jaccard_ball, FUNCTION = minhash_sig_within,
	COMMUTATOR = @>, RESTRICT = minhash_sig_jaccard_sel, JOIN = minhash_sig_jaccard_joinsel
);
CREATE OPERATOR @> (
	LEFTARG = jaccard_ball, RIGHTARG = minhash_sig, FUNCTION = jaccard_ball_contains,
	COMMUTATOR = <@, RESTRICT = minhash_sig_jaccard_sel, JOIN = minhash_sig_jaccard_joinsel
);

-- =========================================================================
-- MinHash constructors and exact shingle sets
-- =========================================================================
-- The pipeline options are simhash()'s, less weighting (sets have none),
-- with the same names.  Two defaults differ, chosen on the labeled evaluation
-- (docs/quality.md): word or n-gram pairs (shingle 2) and no stopwords, since
-- set resemblance gains from order and loses nothing to common words.  Frozen
-- with 1.0: stored signatures depend on them.

CREATE FUNCTION minhash(
	doc text,
	k integer DEFAULT 128,
	method text DEFAULT 'oph',
	ngram integer DEFAULT 2,
	shingle integer DEFAULT 2,
	tokenizer text DEFAULT 'ngram',
	simplify boolean DEFAULT false,
	stopwords text DEFAULT 'none',
	user_stopwords text[] DEFAULT '{}',
	seed bigint DEFAULT 0)
RETURNS minhash_sig
	AS 'MODULE_PATHNAME', 'textfp_minhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash(text, integer, text, integer, integer, text, boolean, text, text[], bigint)
	IS 'MinHash signature of a text''s shingle set';

CREATE FUNCTION minhash(
	shingles bigint[],
	k integer DEFAULT 128,
	seed bigint DEFAULT 0,
	method text DEFAULT 'oph')
RETURNS minhash_sig
	AS 'MODULE_PATHNAME', 'textfp_minhash_array'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash(bigint[], integer, bigint, text)
	IS 'MinHash signature of a set of 64-bit shingle hashes (repeats are ignored)';

CREATE FUNCTION shingles(
	doc text,
	ngram integer DEFAULT 2,
	shingle integer DEFAULT 2,
	tokenizer text DEFAULT 'ngram',
	simplify boolean DEFAULT false,
	stopwords text DEFAULT 'none',
	user_stopwords text[] DEFAULT '{}',
	seed bigint DEFAULT 0)
RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'textfp_shingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION shingles(text, integer, integer, text, boolean, text, text[], bigint)
	IS 'the sorted, distinct shingle hashes minhash() uses';

CREATE FUNCTION jaccard(bigint[], bigint[]) RETURNS float8
	AS 'MODULE_PATHNAME', 'textfp_set_jaccard'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION jaccard(bigint[], bigint[])
	IS 'exact Jaccard similarity of two arrays taken as sets (1 for two empty sets)';

-- =========================================================================
-- GIN: (position, value) keys, exact for =, % and <@ jaccard_ball
-- =========================================================================

CREATE FUNCTION gin_minhash_extract_value(minhash_sig, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_minhash_extract_query(minhash_sig, internal, smallint, internal, internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_minhash_consistent(internal, smallint, minhash_sig, integer, internal, internal, internal, internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_minhash_triconsistent(internal, smallint, minhash_sig, integer, internal, internal, internal) RETURNS "char"
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_minhash_options(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION gin_minhash_extract_value(minhash_sig, internal, internal)
	IS 'GIN support: the (position, value) keys of a signature';
COMMENT ON FUNCTION gin_minhash_extract_query(minhash_sig, internal, smallint, internal, internal, internal, internal)
	IS 'GIN support: the query''s keys and how many must match';
COMMENT ON FUNCTION gin_minhash_consistent(internal, smallint, minhash_sig, integer, internal, internal, internal, internal)
	IS 'GIN support: enough keys matched to reach the threshold';
COMMENT ON FUNCTION gin_minhash_triconsistent(internal, smallint, minhash_sig, integer, internal, internal, internal)
	IS 'GIN support: ternary form of the consistent function';
COMMENT ON FUNCTION gin_minhash_options(internal)
	IS 'GIN support: the bits option';

CREATE OPERATOR CLASS gin_minhash_ops
	DEFAULT FOR TYPE minhash_sig USING gin AS
	OPERATOR 1 = (minhash_sig, minhash_sig),
	OPERATOR 2 % (minhash_sig, minhash_sig),
	OPERATOR 3 <@ (minhash_sig, jaccard_ball),
	FUNCTION 1 btint8cmp(bigint, bigint),
	FUNCTION 2 gin_minhash_extract_value(minhash_sig, internal, internal),
	FUNCTION 3 gin_minhash_extract_query(minhash_sig, internal, smallint, internal, internal, internal, internal),
	FUNCTION 4 gin_minhash_consistent(internal, smallint, minhash_sig, integer, internal, internal, internal, internal),
	FUNCTION 6 gin_minhash_triconsistent(internal, smallint, minhash_sig, integer, internal, internal, internal),
	FUNCTION 7 gin_minhash_options(internal),
	STORAGE bigint;
