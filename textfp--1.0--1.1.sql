/*
 * textfp--1.0--1.1.sql: what 1.1 adds to 1.0.
 *
 * There is no textfp--1.1.sql: CREATE EXTENSION textfp runs textfp--1.0.sql
 * and then this script, so a fresh 1.1 and an updated 1.0 are the same
 * objects by construction.  Nothing here changes what a 1.0 object returns
 * for the same arguments (stored fingerprints and indexes stay valid); new
 * behaviour comes as new functions, new option values and new operator
 * classes.
 */

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.1'" to load this file. \quit

-- =========================================================================
-- % leaves exclusion constraints
-- =========================================================================
-- % reads textfp.hamming_threshold or textfp.jaccard_threshold, so an
-- exclusion constraint on it could be bypassed by any session that changes
-- the setting.  PostgreSQL admits an operator to EXCLUDE only when it is its
-- own commutator: 1.1 removes that link (PostgreSQL 15 has no ALTER OPERATOR
-- for it, hence the catalog update).  The planner used the commutator to
-- turn "q % col" into the index condition "col % q"; the support function
-- does that now, so no index use is lost.

CREATE FUNCTION textfp_near_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_near_support(internal)
	IS 'planner support for %: makes "q % col" an index condition, as a commutator would';
ALTER FUNCTION simhash64_near(simhash64, simhash64) SUPPORT textfp_near_support;
ALTER FUNCTION minhash_sig_near(minhash_sig, minhash_sig) SUPPORT textfp_near_support;

UPDATE pg_catalog.pg_operator SET oprcom = 0
WHERE oid IN ('%(simhash64, simhash64)'::pg_catalog.regoperator,
			  '%(minhash_sig, minhash_sig)'::pg_catalog.regoperator);

-- Constraints made under 1.0 keep working (and stay bypassable): say so.
DO $$
DECLARE
	c record;
BEGIN
	FOR c IN
		SELECT con.conname, con.conrelid::pg_catalog.regclass AS rel
		FROM pg_catalog.pg_constraint con
		WHERE con.contype = 'x'
		  AND con.conexclop && ARRAY['%(simhash64, simhash64)'::pg_catalog.regoperator,
									 '%(minhash_sig, minhash_sig)'::pg_catalog.regoperator]::pg_catalog.oid[]
		ORDER BY 2, 1
	LOOP
		RAISE WARNING 'exclusion constraint "%" on table % uses textfp''s %% operator', c.conname, c.rel
			USING DETAIL = 'Any session can bypass it by changing textfp.hamming_threshold or textfp.jaccard_threshold, and from textfp 1.1 % is not accepted in exclusion constraints, so a dump of this database will not restore it.',
				  HINT = 'Replace it with EXCLUDE USING gist (hamming_ball(fp, r) WITH &&), which rejects pairs within 2r bits whatever the session''s settings; see docs/indexing.md.';
	END LOOP;
END
$$;

-- =========================================================================
-- Featureless texts: NULL on request
-- =========================================================================
-- 1.0's simhash() gives 0000000000000000 and minhash() the empty set's
-- signature (every value ffffffff) for every text without features: empty,
-- punctuation or emoji only, or only stopwords.  All of them are then "near
-- duplicates" of each other.  These overloads take a required featureless
-- argument, second: 'null' gives NULL for such texts (NULL matches nothing
-- and conflicts with nothing), 'fingerprint' the 1.0 value.  The 1.0
-- functions are unchanged, so stored fingerprints and indexes stay valid.
-- Defaults are the 1.0 functions' own.

CREATE FUNCTION simhash(
	doc text,
	featureless text,
	ngram integer DEFAULT 2,
	shingle integer DEFAULT 1,
	tokenizer text DEFAULT 'ngram',
	simplify boolean DEFAULT false,
	stopwords text DEFAULT 'builtin',
	user_stopwords text[] DEFAULT '{}',
	weighting text DEFAULT 'tf',
	seed bigint DEFAULT 0)
RETURNS simhash64
	AS 'MODULE_PATHNAME', 'textfp_simhash_text_featureless'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(text, text, integer, integer, text, boolean, text, text[], text, bigint)
	IS 'SimHash of a text''s weighted features; featureless => ''null'' gives NULL for a text without features';

CREATE FUNCTION minhash(
	doc text,
	featureless text,
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
	AS 'MODULE_PATHNAME', 'textfp_minhash_text_featureless'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash(text, text, integer, text, integer, integer, text, boolean, text, text[], bigint)
	IS 'MinHash signature of a text''s shingle set; featureless => ''null'' gives NULL for a text without shingles';

CREATE FUNCTION minhash(
	shingles bigint[],
	featureless text,
	k integer DEFAULT 128,
	seed bigint DEFAULT 0,
	method text DEFAULT 'oph')
RETURNS minhash_sig
	AS 'MODULE_PATHNAME', 'textfp_minhash_array_featureless'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash(bigint[], text, integer, bigint, text)
	IS 'MinHash signature of a set of 64-bit shingle hashes; featureless => ''null'' gives NULL for an empty set';

-- =========================================================================
-- minhash_sig ordering: btree for sorting, DISTINCT and unique indexes
-- =========================================================================
-- By k, method, value width, pipeline identity, seed, then the values as
-- unsigned numbers.  The order means nothing for similarity; = is 1.0's.

CREATE FUNCTION minhash_sig_cmp(minhash_sig, minhash_sig) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION minhash_sig_lt(minhash_sig, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION minhash_sig_le(minhash_sig, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION minhash_sig_gt(minhash_sig, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION minhash_sig_ge(minhash_sig, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION minhash_sig_cmp(minhash_sig, minhash_sig)
	IS 'btree comparison: k, method, value width, pipeline, seed, then values (unsigned)';
COMMENT ON FUNCTION minhash_sig_lt(minhash_sig, minhash_sig) IS 'implementation of < operator';
COMMENT ON FUNCTION minhash_sig_le(minhash_sig, minhash_sig) IS 'implementation of <= operator';
COMMENT ON FUNCTION minhash_sig_gt(minhash_sig, minhash_sig) IS 'implementation of > operator';
COMMENT ON FUNCTION minhash_sig_ge(minhash_sig, minhash_sig) IS 'implementation of >= operator';

CREATE OPERATOR < (
	LEFTARG = minhash_sig, RIGHTARG = minhash_sig, FUNCTION = minhash_sig_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = minhash_sig, RIGHTARG = minhash_sig, FUNCTION = minhash_sig_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = minhash_sig, RIGHTARG = minhash_sig, FUNCTION = minhash_sig_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = minhash_sig, RIGHTARG = minhash_sig, FUNCTION = minhash_sig_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS minhash_sig_btree_ops
	DEFAULT FOR TYPE minhash_sig USING btree AS
	OPERATOR 1 < (minhash_sig, minhash_sig),
	OPERATOR 2 <= (minhash_sig, minhash_sig),
	OPERATOR 3 = (minhash_sig, minhash_sig),
	OPERATOR 4 >= (minhash_sig, minhash_sig),
	OPERATOR 5 > (minhash_sig, minhash_sig),
	FUNCTION 1 minhash_sig_cmp(minhash_sig, minhash_sig);

-- = was declared HASHES only; with an order it can merge too.
UPDATE pg_catalog.pg_operator SET oprcanmerge = true
WHERE oid = '=(minhash_sig, minhash_sig)'::pg_catalog.regoperator;

-- ===== mih: multi-index hashing access method =====
-- An index access method of textfp's own for Hamming radius search over
-- simhash64 (src/mih*.c, docs/indexing.md): m tables of buckets keyed on
-- substrings of the 64 bits, holding contiguous (code, TID) entries that a
-- scan verifies against the whole query, so only true answers reach the
-- table.  Bitmap scans only; no ordering, no uniqueness, no exclusion
-- constraints (% follows a session setting, so it must not define one).

CREATE FUNCTION mih_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME', 'mih_handler' LANGUAGE C;
COMMENT ON FUNCTION mih_handler(internal)
	IS 'index access method handler of mih (multi-index hashing over simhash64)';

CREATE ACCESS METHOD mih TYPE INDEX HANDLER mih_handler;
COMMENT ON ACCESS METHOD mih
	IS 'multi-index hashing: exact Hamming radius search over simhash64, verified inside the index';

CREATE OPERATOR CLASS mih_simhash64_ops
	DEFAULT FOR TYPE simhash64 USING mih AS
	OPERATOR 1 = (simhash64, simhash64),
	OPERATOR 2 % (simhash64, simhash64),
	OPERATOR 3 <@ (simhash64, hamming_ball);
COMMENT ON OPERATOR CLASS mih_simhash64_ops USING mih
	IS 'exact radius search over simhash64 with mih: =, % (textfp.hamming_threshold), <@ hamming_ball';
COMMENT ON OPERATOR FAMILY mih_simhash64_ops USING mih
	IS 'operators a mih index on simhash64 answers: =, %, <@ hamming_ball';

-- ===== minhash LSH bands (issue 14) =====
-- Band keys of minhash signatures, the S-curve and the choice of a banding,
-- the lsh_query type with its @@ operators (band semantics, every parameter
-- in the value, so IMMUTABLE), planner estimates for them, and the GIN class
-- gin_minhash_lsh_ops.  docs/minhash.md shows the idiom: @@ for candidates,
-- % (or <@ jaccard_ball) to verify.

-- The recommended configuration for band indexes at scale, in one name:
-- minhash(doc, featureless => 'null', shingle => 3) at k = 128, frozen like
-- every constructor.
CREATE FUNCTION minhash_lsh(doc text, seed bigint DEFAULT 0) RETURNS minhash_sig
	AS 'MODULE_PATHNAME', 'textfp_minhash_lsh'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_lsh(text, bigint)
	IS 'MinHash signature of the recommended configuration for band indexes: minhash(doc, featureless => ''null'', shingle => 3, seed => seed), k = 128';

CREATE FUNCTION minhash_bands(sig minhash_sig, bands integer, rows integer) RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'minhash_sig_bands'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_bands(minhash_sig, integer, integer)
	IS 'the 64-bit keys of a signature''s first bands bands of rows positions each, mixing in k, method, seed and pipeline; empty for a featureless signature';

-- Not STRICT for k alone: NULL in any other argument gives NULL.
CREATE FUNCTION lsh_probability(j float8, bands integer, rows integer,
	min_bands integer DEFAULT 1, k integer DEFAULT NULL) RETURNS float8
	AS 'MODULE_PATHNAME', 'textfp_lsh_probability'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION lsh_probability(float8, integer, integer, integer, integer)
	IS 'probability that a pair of Jaccard similarity j has at least min_bands equal bands (with k: j is an estimate from k positions)';

CREATE FUNCTION lsh_params(threshold float8, k integer DEFAULT 128,
	false_positive_weight float8 DEFAULT 0.5, false_negative_weight float8 DEFAULT 0.5,
	max_min_bands integer DEFAULT 1,
	OUT bands integer, OUT rows integer, OUT min_bands integer,
	OUT false_positive float8, OUT false_negative float8, OUT candidates_per_row float8)
RETURNS record
	AS 'MODULE_PATHNAME', 'textfp_lsh_params'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION lsh_params(float8, integer, float8, float8, integer)
	IS 'the banding with the least weighted false positive and false negative areas around a threshold';

-- STABLE: reads the column's ANALYZE statistics.
CREATE FUNCTION lsh_params_for(relation regclass, column_name name, threshold float8,
	max_candidates float8 DEFAULT 100,
	false_positive_weight float8 DEFAULT 0.5, false_negative_weight float8 DEFAULT 0.5,
	max_min_bands integer DEFAULT 4,
	OUT bands integer, OUT rows integer, OUT min_bands integer,
	OUT false_positive float8, OUT false_negative float8, OUT candidates_per_row float8)
RETURNS record
	AS 'MODULE_PATHNAME', 'textfp_lsh_params_column'
	LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION lsh_params_for(regclass, name, float8, float8, float8, float8, integer)
	IS 'the banding with the least weighted error among those predicted, from a column''s statistics, to give at most max_candidates candidates per row';

-- type lsh_query: a signature and a banding

CREATE TYPE lsh_query;

CREATE FUNCTION lsh_query_in(cstring) RETURNS lsh_query
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lsh_query_out(lsh_query) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lsh_query_recv(internal) RETURNS lsh_query
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lsh_query_send(lsh_query) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE lsh_query (
	INPUT = lsh_query_in,
	OUTPUT = lsh_query_out,
	RECEIVE = lsh_query_recv,
	SEND = lsh_query_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = external
);
COMMENT ON TYPE lsh_query
	IS 'minhash signature and banding, written signature/bands=B,rows=R,min_bands=M';
COMMENT ON FUNCTION lsh_query_in(cstring) IS 'text input of lsh_query';
COMMENT ON FUNCTION lsh_query_out(lsh_query) IS 'text output of lsh_query';
COMMENT ON FUNCTION lsh_query_recv(internal) IS 'binary input of lsh_query';
COMMENT ON FUNCTION lsh_query_send(lsh_query) IS 'binary output of lsh_query';

CREATE FUNCTION lsh_query(sig minhash_sig, bands integer, rows integer, min_bands integer DEFAULT 1)
RETURNS lsh_query
	AS 'MODULE_PATHNAME', 'lsh_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION lsh_query(minhash_sig, integer, integer, integer)
	IS 'the signatures made like sig that share at least min_bands of its first bands bands of rows positions';

-- The recommended banding (the defaults of gin_minhash_lsh_ops): 44 bands of
-- one position, at least 10 equal, for thresholds from 0.28 (docs/minhash.md).
CREATE FUNCTION lsh_query(sig minhash_sig) RETURNS lsh_query
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN lsh_query(sig, 44, 1, 10);
COMMENT ON FUNCTION lsh_query(minhash_sig)
	IS 'lsh_query(sig, 44, 1, 10): the recommended banding, the one gin_minhash_lsh_ops indexes by default';

CREATE FUNCTION lsh_query_signature(lsh_query) RETURNS minhash_sig
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lsh_query_bands(lsh_query) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lsh_query_rows(lsh_query) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lsh_query_min_bands(lsh_query) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION lsh_query_signature(lsh_query) IS 'signature of an lsh_query';
COMMENT ON FUNCTION lsh_query_bands(lsh_query) IS 'bands of an lsh_query';
COMMENT ON FUNCTION lsh_query_rows(lsh_query) IS 'positions per band of an lsh_query';
COMMENT ON FUNCTION lsh_query_min_bands(lsh_query) IS 'least number of equal bands of an lsh_query';

CREATE FUNCTION minhash_lsh_sel(internal, oid, internal, integer) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION minhash_lsh_joinsel(internal, oid, internal, smallint, internal) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash_lsh_sel(internal, oid, internal, integer)
	IS 'restriction selectivity of minhash_sig @@ lsh_query';
COMMENT ON FUNCTION minhash_lsh_joinsel(internal, oid, internal, smallint, internal)
	IS 'join selectivity of minhash_sig @@ lsh_query';

-- COST 10: at most k values compared, usually a few.
CREATE FUNCTION minhash_sig_lsh_match(minhash_sig, lsh_query) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
CREATE FUNCTION lsh_query_lsh_match(lsh_query, minhash_sig) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION minhash_sig_lsh_match(minhash_sig, lsh_query)
	IS 'implementation of @@: at least min_bands of the query''s bands are equal';
COMMENT ON FUNCTION lsh_query_lsh_match(lsh_query, minhash_sig)
	IS 'implementation of @@ with the query on the left';

CREATE OPERATOR @@ (
	LEFTARG = minhash_sig, RIGHTARG = lsh_query, FUNCTION = minhash_sig_lsh_match,
	COMMUTATOR = @@, RESTRICT = minhash_lsh_sel, JOIN = minhash_lsh_joinsel
);
CREATE OPERATOR @@ (
	LEFTARG = lsh_query, RIGHTARG = minhash_sig, FUNCTION = lsh_query_lsh_match,
	COMMUTATOR = @@, RESTRICT = minhash_lsh_sel, JOIN = minhash_lsh_joinsel
);
COMMENT ON OPERATOR @@ (minhash_sig, lsh_query)
	IS 'LSH candidates: at least min_bands of the query''s bands are equal';
COMMENT ON OPERATOR @@ (lsh_query, minhash_sig)
	IS 'LSH candidates: at least min_bands of the query''s bands are equal';

-- GIN: one key per band

CREATE FUNCTION gin_minhash_lsh_extract_value(minhash_sig, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_minhash_lsh_extract_query(minhash_sig, internal, smallint, internal, internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_minhash_lsh_options(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION gin_minhash_lsh_extract_value(minhash_sig, internal, internal)
	IS 'GIN support: one key per band of a signature';
COMMENT ON FUNCTION gin_minhash_lsh_extract_query(minhash_sig, internal, smallint, internal, internal, internal, internal)
	IS 'GIN support: the query''s band keys and how many must match';
COMMENT ON FUNCTION gin_minhash_lsh_options(internal)
	IS 'GIN support: the bands, rows and bits options';

-- Deciding from the keys is gin_minhash_ops's rule (at least so many keys,
-- then recheck): the class shares its consistent functions.
CREATE OPERATOR CLASS gin_minhash_lsh_ops
	FOR TYPE minhash_sig USING gin AS
	OPERATOR 1 @@ (minhash_sig, lsh_query),
	FUNCTION 1 btint8cmp(bigint, bigint),
	FUNCTION 2 gin_minhash_lsh_extract_value(minhash_sig, internal, internal),
	FUNCTION 3 gin_minhash_lsh_extract_query(minhash_sig, internal, smallint, internal, internal, internal, internal),
	FUNCTION 4 gin_minhash_consistent(internal, smallint, minhash_sig, integer, internal, internal, internal, internal),
	FUNCTION 6 gin_minhash_triconsistent(internal, smallint, minhash_sig, integer, internal, internal, internal),
	FUNCTION 7 gin_minhash_lsh_options(internal),
	STORAGE bigint;
COMMENT ON OPERATOR CLASS gin_minhash_lsh_ops USING gin
	IS 'LSH bands of minhash_sig: exact for @@ lsh_query, one key per band';

-- ===== issue 15: write-time deduplication (textfp_dedup trigger, textfp_exact) =====
-- docs/dedup.md.  textfp_dedup() is a BEFORE INSERT OR UPDATE row trigger
-- configured by name=value arguments; it fills the fingerprint column with
-- simhash()/minhash() (featureless => 'null'), takes advisory locks of its
-- own (pg_locks.objsubid 29798 and 29799) and looks the nearest row up
-- through an index, rejecting (23505), marking or skipping near duplicates.
-- textfp_exact() hashes the normalised text for a unique index.

CREATE FUNCTION textfp_dedup() RETURNS trigger
	AS 'MODULE_PATHNAME', 'textfp_dedup' LANGUAGE C;
COMMENT ON FUNCTION textfp_dedup()
	IS 'BEFORE INSERT OR UPDATE row trigger: rejects, marks or skips near duplicates (simhash64 or minhash_sig), race-free; arguments name=value, see docs/dedup.md';

CREATE FUNCTION textfp_exact(doc text, simplify boolean DEFAULT false) RETURNS uuid
	AS 'MODULE_PATHNAME', 'textfp_exact' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_exact(text, boolean)
	IS '128-bit hash (XXH3-128, UUID version 8) of the normalised text with white space squeezed, for a unique index on exact reprints; NULL for a blank text';
