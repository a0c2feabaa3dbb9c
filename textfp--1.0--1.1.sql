/*
 * textfp--1.0--1.1.sql: what 1.1 adds to 1.0 (ALTER EXTENSION textfp UPDATE).
 *
 * A fresh CREATE EXTENSION runs textfp--1.1.sql, which is made from
 * textfp--1.0.sql and this script by scripts/make_install_script.pl (the
 * test suite checks that it is up to date): the 1.0 objects as 1.1 leaves
 * them, then everything below but the parts marked update-only, which change
 * 1.0's catalog entries in place.  Nothing here changes what a 1.0 object
 * returns for the same arguments (stored fingerprints and indexes stay
 * valid); new behaviour comes as new functions, new option values and new
 * operator classes.
 *
 * Security: textfp is trusted, so this script may run as the bootstrap
 * superuser for any role with CREATE on the database, with search_path set
 * to the extension's schema, which that role may own and fill with
 * operators and functions of its own.  So every executable statement names
 * each operator as OPERATOR(pg_catalog.x) and each function and type with
 * its schema, and casts every literal to an exact type
 * (scripts/check_scripts.pl fails the suite otherwise); the rest are
 * declarations.  textfp is not relocatable, so @extschema@ names textfp's
 * own objects, here and inside the PL/pgSQL functions.
 */

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.1'" to load this file. \quit

-- =========================================================================
-- % leaves exclusion constraints
-- =========================================================================
-- % reads textfp.hamming_threshold or textfp.jaccard_threshold, so an
-- exclusion constraint on it could be bypassed by any session that changes
-- the setting.  PostgreSQL admits an operator to EXCLUDE only when it is its
-- own commutator: 1.1 removes that link.  The planner used the commutator to
-- turn "q % col" into the index condition "col % q"; the support function
-- does that now, so no index use is lost.

CREATE FUNCTION textfp_near_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_near_support(internal)
	IS 'planner support for %: makes "q % col" an index condition, as a commutator would';
ALTER FUNCTION simhash64_near(simhash64, simhash64) SUPPORT textfp_near_support;
ALTER FUNCTION minhash_sig_near(minhash_sig, minhash_sig) SUPPORT textfp_near_support;

-- @update-only-begin
-- PostgreSQL 15 has no ALTER OPERATOR for the commutator, hence the catalog
-- update (textfp--1.1.sql declares % without one).
UPDATE pg_catalog.pg_operator SET oprcom = 0::pg_catalog.oid
WHERE oid OPERATOR(pg_catalog.=) '@extschema@.%(@extschema@.simhash64, @extschema@.simhash64)'::pg_catalog.regoperator::pg_catalog.oid
   OR oid OPERATOR(pg_catalog.=) '@extschema@.%(@extschema@.minhash_sig, @extschema@.minhash_sig)'::pg_catalog.regoperator::pg_catalog.oid;

-- Constraints made under 1.0 keep working (and stay bypassable): say so.
DO $$
DECLARE
	c record;
BEGIN
	FOR c IN
		SELECT con.conname, con.conrelid::pg_catalog.regclass AS rel
		FROM pg_catalog.pg_constraint con
		WHERE con.contype OPERATOR(pg_catalog.=) 'x'::pg_catalog."char"
		  AND con.conexclop OPERATOR(pg_catalog.&&) ARRAY[
				'@extschema@.%(@extschema@.simhash64, @extschema@.simhash64)'::pg_catalog.regoperator::pg_catalog.oid,
				'@extschema@.%(@extschema@.minhash_sig, @extschema@.minhash_sig)'::pg_catalog.regoperator::pg_catalog.oid]
		ORDER BY 2, 1
	LOOP
		RAISE WARNING 'exclusion constraint "%" on table % uses textfp''s %% operator', c.conname, c.rel
			USING DETAIL = 'Any session can bypass it by changing textfp.hamming_threshold or textfp.jaccard_threshold, and from textfp 1.1 % is not accepted in exclusion constraints, so a dump of this database will not restore it.',
				  HINT = 'Replace it with EXCLUDE USING gist (hamming_ball(fp, r) WITH &&), which rejects pairs within 2r bits whatever the session''s settings; see docs/indexing.md.';
	END LOOP;
END
$$;
-- @update-only-end

-- =========================================================================
-- idf_model: document frequencies for TF-IDF-weighted SimHash
-- =========================================================================
-- A count-min sketch of how many documents have each feature (src/core/
-- idf.c): 4 rows of width counters and the number of documents, a fixed
-- size whatever the corpus.  The aggregate idf_model(features) builds it
-- from each row's distinct feature hashes (simhash_features(doc, <options>)); its
-- states add counter by counter, so the model is the same for any row order
-- and any parallel plan.  simhash(doc, featureless, ..., idf => model)
-- weighs each feature by 1 + ln((N + 1) / (df + 1)).  A model is a value
-- (text and binary I/O), so fingerprints stay IMMUTABLE: an index
-- expression holds it as a literal, a trigger passes it from a
-- configuration row.  simhash64 records no model: keep idf_model_digest()
-- beside the fingerprints (docs/pipeline.md).  'none' is the empty model,
-- which weighs nothing.

CREATE TYPE idf_model;
CREATE FUNCTION idf_model_in(cstring) RETURNS idf_model
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION idf_model_out(idf_model) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION idf_model_recv(internal) RETURNS idf_model
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION idf_model_send(idf_model) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idf_model_in(cstring) IS 'idf_model text input: ''none'' or ''idf1:docs=N:width=W:'' and the counters in base64';
COMMENT ON FUNCTION idf_model_out(idf_model) IS 'idf_model text output';
COMMENT ON FUNCTION idf_model_recv(internal) IS 'idf_model binary input';
COMMENT ON FUNCTION idf_model_send(idf_model) IS 'idf_model binary output: version, docs, width, counters (big-endian)';
CREATE TYPE idf_model (
	INPUT = idf_model_in,
	OUTPUT = idf_model_out,
	RECEIVE = idf_model_recv,
	SEND = idf_model_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = extended);
COMMENT ON TYPE idf_model
	IS 'document frequencies of features (a count-min sketch and the number of documents) for TF-IDF-weighted simhash';

CREATE FUNCTION idf_model_digest(idf_model) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idf_model_digest(idf_model)
	IS 'identity of a model: 16 hex digits of XXH3-64 over its binary form; store it beside fingerprints made with the model';
CREATE FUNCTION idf_model_docs(idf_model) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idf_model_docs(idf_model)
	IS 'number of documents a model counted (0 for ''none'')';
CREATE FUNCTION idf_model_width(idf_model) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idf_model_width(idf_model)
	IS 'counters per row of a model''s sketch (0 for ''none'')';
CREATE FUNCTION idf_model_df(idf_model, feature bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION idf_model_df(idf_model, bigint)
	IS 'estimated number of documents that have a feature (a hash from simhash_features() or textfp_features())';

-- The features simhash() weighs, with simhash()'s defaults (shingle 1,
-- built-in stopwords), which differ from shingles()'s (minhash()'s): build
-- a model from simhash_features(doc, <the fingerprint's options>).
CREATE FUNCTION simhash_features(
	doc text,
	ngram integer DEFAULT 2,
	shingle integer DEFAULT 1,
	tokenizer text DEFAULT 'ngram',
	simplify boolean DEFAULT false,
	stopwords text DEFAULT 'builtin',
	user_stopwords text[] DEFAULT '{}',
	seed bigint DEFAULT 0,
	numbers text DEFAULT 'keep',
	chinese text DEFAULT 'none')
RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'textfp_simhash_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_features(text, integer, integer, text, boolean, text, text[], bigint, text, text)
	IS 'the sorted, distinct feature hashes simhash() weighs under the same options; idf_model() counts them';

CREATE FUNCTION idf_model_trans(internal, bigint[]) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION idf_model_trans_width(internal, bigint[], integer) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION idf_model_combine(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION idf_model_serialize(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION idf_model_deserialize(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION idf_model_final(internal) RETURNS idf_model
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION idf_model_trans(internal, bigint[]) IS 'idf_model state transition';
COMMENT ON FUNCTION idf_model_trans_width(internal, bigint[], integer) IS 'idf_model state transition with a width';
COMMENT ON FUNCTION idf_model_combine(internal, internal) IS 'idf_model parallel combine: adds the counters';
COMMENT ON FUNCTION idf_model_serialize(internal) IS 'idf_model state serialisation';
COMMENT ON FUNCTION idf_model_deserialize(bytea, internal) IS 'idf_model state deserialisation';
COMMENT ON FUNCTION idf_model_final(internal) IS 'idf_model final value';

CREATE AGGREGATE idf_model(features bigint[]) (
	SFUNC = idf_model_trans,
	STYPE = internal,
	FINALFUNC = idf_model_final,
	COMBINEFUNC = idf_model_combine,
	SERIALFUNC = idf_model_serialize,
	DESERIALFUNC = idf_model_deserialize,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE idf_model(bigint[])
	IS 'document frequency model of the rows'' feature sets (width 4096): idf_model(simhash_features(doc, <options>)); ''none'' for no rows';

CREATE AGGREGATE idf_model(features bigint[], width integer) (
	SFUNC = idf_model_trans_width,
	STYPE = internal,
	FINALFUNC = idf_model_final,
	COMBINEFUNC = idf_model_combine,
	SERIALFUNC = idf_model_serialize,
	DESERIALFUNC = idf_model_deserialize,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE idf_model(bigint[], integer)
	IS 'document frequency model of the rows'' feature sets with width counters per row (a power of two, 64..65536)';

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
-- Defaults are the 1.0 functions' own.  simhash's overload also takes, last,
-- numbers ('keep', 'drop' or 'shape' for tokens of digits), keywords (SimHash
-- over the N features of greatest weight; 0 for all), idf (a model from the
-- idf_model aggregate) and chinese (explained below, regional Chinese);
-- minhash's takes chinese last.  Their defaults give the 1.0 value.

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
	seed bigint DEFAULT 0,
	numbers text DEFAULT 'keep',
	keywords integer DEFAULT 0,
	idf idf_model DEFAULT 'none',
	chinese text DEFAULT 'none')
RETURNS simhash64
	AS 'MODULE_PATHNAME', 'textfp_simhash_text_featureless'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(text, text, integer, integer, text, boolean, text, text[], text, bigint, text, integer, idf_model, text)
	IS 'SimHash of a text''s weighted features; featureless => ''null'' gives NULL for a text without features; numbers, keywords, idf and chinese (1.1) choose what weighs';

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
	seed bigint DEFAULT 0,
	chinese text DEFAULT 'none')
RETURNS minhash_sig
	AS 'MODULE_PATHNAME', 'textfp_minhash_text_featureless'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash(text, text, integer, text, integer, integer, text, boolean, text, text[], bigint, text)
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
-- Regional Chinese: Taiwan and Hong Kong words to mainland ones
-- =========================================================================
-- chinese => 'mainland' converts Taiwan and Hong Kong Traditional Chinese to
-- mainland Simplified word by word (軟體 -> 软件, 檔案 -> 文件), not only
-- character by character as simplify => true does, through a table frozen
-- from OpenCC 1.1.6's dictionaries (src/core/zh_mainland_data.c; its digest
-- is part of the pipeline identity, so a minhash_sig says which table made
-- it).  'none', the default, changes nothing.  A value names one table for
-- good: newer data would come as a new value.  It is a text rather than a
-- boolean so that more targets and tables can come as values, and so that a
-- named set of options (a preset) can carry it like tokenizer or stopwords.
-- simhash() and minhash() take it last in their featureless forms (above);
-- shingles(), textfp_features() and textfp_normalize() get forms that take
-- it second, required, beside 1.0's, whose calls it cannot capture but for
-- a quoted literal in second place (textfp_normalize(doc, 'true')), which
-- PostgreSQL now resolves to the text parameter.

CREATE FUNCTION shingles(
	doc text,
	chinese text,
	ngram integer DEFAULT 2,
	shingle integer DEFAULT 2,
	tokenizer text DEFAULT 'ngram',
	simplify boolean DEFAULT false,
	stopwords text DEFAULT 'none',
	user_stopwords text[] DEFAULT '{}',
	seed bigint DEFAULT 0)
RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'textfp_shingles_chinese'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION shingles(text, text, integer, integer, text, boolean, text, text[], bigint)
	IS 'the sorted, distinct shingle hashes minhash() uses, with chinese => ''mainland'' or ''none''';

CREATE FUNCTION textfp_features(
	doc text,
	chinese text,
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
	AS 'MODULE_PATHNAME', 'textfp_features_chinese'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_features(text, text, integer, integer, text, boolean, text, text[], text, bigint)
	IS 'the features simhash() sums, with chinese => ''mainland'' or ''none''';

CREATE FUNCTION textfp_normalize(doc text, chinese text, simplify boolean DEFAULT false)
RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_normalize_chinese'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_normalize(text, text, boolean)
	IS 'the text as the pipeline sees it, with chinese => ''mainland'' or ''none''';

CREATE FUNCTION textfp_chinese_tables(OUT chinese text, OUT name text, OUT sha256 text)
RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'textfp_chinese_tables'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
COMMENT ON FUNCTION textfp_chinese_tables()
	IS 'the frozen table behind each value of chinese: its name and the SHA-256 of its entries';

-- =========================================================================
-- Presets: named, frozen option sets with their measured thresholds
-- =========================================================================
-- A preset is a method, every pipeline option and the threshold chosen with
-- them on three evaluation sets (docs/quality.md, bench/presets/); the table
-- is src/core/presets.c, the one source these functions, textfp_presets()
-- and the table registration read.  A preset's definition never changes:
-- stored fingerprints and indexes hold what it computes, so a better one
-- comes under a new name.  Under a preset a text without features gives
-- NULL.  textfp_preset is a type of its own, in the user-defined category,
-- not text: a quoted literal in second place, as in simhash(body, 'null'),
-- keeps resolving to the text parameter of the featureless overloads
-- (PostgreSQL prefers the string category for an unknown literal), so a
-- preset is named (preset => 'minhash_v1') or cast
-- ('minhash_v1'::textfp_preset).  It holds the preset's frozen number and
-- reads and writes its name; it has no operators (keep names as text in
-- tables).

CREATE TYPE textfp_preset;
CREATE FUNCTION textfp_preset_in(cstring) RETURNS textfp_preset
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION textfp_preset_out(textfp_preset) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION textfp_preset_recv(internal) RETURNS textfp_preset
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION textfp_preset_send(textfp_preset) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_preset_in(cstring) IS 'textfp_preset text input: a preset''s name';
COMMENT ON FUNCTION textfp_preset_out(textfp_preset) IS 'textfp_preset text output: the preset''s name';
COMMENT ON FUNCTION textfp_preset_recv(internal) IS 'textfp_preset binary input: the name';
COMMENT ON FUNCTION textfp_preset_send(textfp_preset) IS 'textfp_preset binary output: the name';
CREATE TYPE textfp_preset (
	INPUT = textfp_preset_in,
	OUTPUT = textfp_preset_out,
	RECEIVE = textfp_preset_recv,
	SEND = textfp_preset_send,
	INTERNALLENGTH = 4,
	PASSEDBYVALUE,
	ALIGNMENT = int4,
	CATEGORY = 'U');
COMMENT ON TYPE textfp_preset
	IS 'the name of a textfp preset (textfp_presets() lists them): a frozen set of options for simhash() or minhash()';

CREATE FUNCTION simhash(doc text, preset textfp_preset, idf idf_model DEFAULT 'none')
RETURNS simhash64
	AS 'MODULE_PATHNAME', 'textfp_simhash_preset'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(text, textfp_preset, idf_model)
	IS 'SimHash of a text under a preset (NULL for a text without features); idf: the collection''s model, for a preset that weighs by one';

CREATE FUNCTION minhash(doc text, preset textfp_preset)
RETURNS minhash_sig
	AS 'MODULE_PATHNAME', 'textfp_minhash_preset'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION minhash(text, textfp_preset)
	IS 'MinHash signature of a text under a preset (NULL for a text without shingles)';

CREATE FUNCTION simhash_features(doc text, preset textfp_preset)
RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'textfp_simhash_features_preset'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_features(text, textfp_preset)
	IS 'the feature hashes a SimHash preset weighs: idf_model(simhash_features(doc, preset => ...)) is its model';

CREATE FUNCTION shingles(doc text, preset textfp_preset)
RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'textfp_shingles_preset'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION shingles(text, textfp_preset)
	IS 'the shingle hashes a MinHash preset signs (sorted, distinct)';

CREATE FUNCTION textfp_presets(
	OUT name text,
	OUT method text,
	OUT recommended boolean,
	OUT threshold double precision,
	OUT options jsonb,
	OUT expression text,
	OUT description text)
RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'textfp_presets'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 3;
COMMENT ON FUNCTION textfp_presets()
	IS 'every preset: its method, whether it is the one recommended for its method, its threshold (Hamming radius or Jaccard), its options, the call it equals, and what it is for';

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
-- @update-only-begin
UPDATE pg_catalog.pg_operator SET oprcanmerge = true
WHERE oid OPERATOR(pg_catalog.=) '@extschema@.=(@extschema@.minhash_sig, @extschema@.minhash_sig)'::pg_catalog.regoperator::pg_catalog.oid;
-- @update-only-end

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
	RETURN @extschema@.lsh_query(sig, 44::pg_catalog.int4, 1::pg_catalog.int4, 10::pg_catalog.int4);
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
	FUNCTION 1 pg_catalog.btint8cmp(bigint, bigint),
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

-- =========================================================================
-- issue 16: one-off clustering (union-find, cluster_table)
-- =========================================================================
-- union_find() groups the pairs a query returns (src/cluster.c, in C);
-- cluster_table() clusters a whole table in one call (connected components
-- or stars).  Stories kept current as rows arrive are tracked tables
-- (textfp_track, below).  docs/clustering.md says which to use.  The
-- PL/pgSQL functions run with search_path = pg_catalog, pg_temp
-- and name textfp's own objects as @extschema@.x; users' tables and columns
-- are quoted with format('%I') and values pass as typed parameters
-- ($1::float8), so no overload planted in any schema can take a call.

-- Not STRICT: a NULL query or mode is an error, not an empty result.
CREATE FUNCTION union_find(pairs text, mode text DEFAULT 'components')
RETURNS TABLE (key bigint, cluster_key bigint, cluster_size bigint)
	AS 'MODULE_PATHNAME', 'textfp_union_find'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION union_find(text, text)
	IS 'clusters the pairs of keys a query returns: connected components (mode components) or non-transitive stars around the smallest key (mode star); cluster_key is the smallest key of the cluster';

-- In C so that the call loads the library: a plpgsql function that reads
-- textfp.hamming_threshold before any textfp C function has run in the
-- session finds no such setting.
CREATE FUNCTION textfp_cluster_pair_limit(nreps bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_cluster_pair_limit(bigint)
	IS 'internal: the most pairs a clustering call may store for so many distinct fingerprints (1,000 each plus 10M, or textfp.cluster_max_pairs if lower)';

CREATE FUNCTION textfp_default_threshold(kind text) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION textfp_default_threshold(text)
	IS 'internal: the session''s threshold of the % operator for a fingerprint kind (''simhash64'': textfp.hamming_threshold, ''minhash_sig'': textfp.jaccard_threshold)';

-- Checks a table's key and fingerprint columns and the threshold; returns
-- the fingerprint's type name ('simhash64' or 'minhash_sig') and the
-- threshold to use (NULL: the % operator's setting).
CREATE FUNCTION textfp_cluster_check(tbl regclass, key_column name, fp_column name,
									 INOUT threshold double precision, OUT kind text)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	kt oid;
	ft oid;
	rk "char";
BEGIN
	IF tbl IS NULL OR key_column IS NULL OR fp_column IS NULL THEN
		RAISE EXCEPTION 'table, key column and fingerprint column must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT c.relkind INTO rk FROM pg_class c WHERE c.oid = tbl::oid;
	IF rk IS NULL THEN
		RAISE EXCEPTION 'relation with OID % does not exist', tbl::oid
			USING ERRCODE = 'undefined_table';
	END IF;
	IF rk <> ALL ('{r,p,m,f}'::"char"[]) THEN
		RAISE EXCEPTION '"%" is not a table', tbl
			USING ERRCODE = 'wrong_object_type',
				  DETAIL = 'Tables, partitioned tables, materialized views and foreign tables can be clustered.';
	END IF;
	SELECT a.atttypid INTO kt FROM pg_attribute a
	WHERE a.attrelid = tbl::oid AND a.attname = key_column
	  AND a.attnum > 0 AND NOT a.attisdropped;
	IF kt IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', key_column, tbl
			USING ERRCODE = 'undefined_column';
	END IF;
	IF kt <> ALL (ARRAY['bigint'::regtype::oid, 'integer'::regtype::oid, 'smallint'::regtype::oid]) THEN
		RAISE EXCEPTION 'key column "%" must be bigint, integer or smallint, not %', key_column, kt::regtype
			USING ERRCODE = 'datatype_mismatch';
	END IF;
	SELECT a.atttypid INTO ft FROM pg_attribute a
	WHERE a.attrelid = tbl::oid AND a.attname = fp_column
	  AND a.attnum > 0 AND NOT a.attisdropped;
	IF ft IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', fp_column, tbl
			USING ERRCODE = 'undefined_column';
	END IF;
	IF ft = '@extschema@.simhash64'::regtype::oid THEN
		kind := 'simhash64';
	ELSIF ft = '@extschema@.minhash_sig'::regtype::oid THEN
		kind := 'minhash_sig';
	ELSE
		RAISE EXCEPTION 'fingerprint column "%" must be simhash64 or minhash_sig, not %', fp_column, ft::regtype
			USING ERRCODE = 'datatype_mismatch';
	END IF;
	threshold := coalesce(threshold, @extschema@.textfp_default_threshold(kind));
	IF kind = 'simhash64' THEN
		IF threshold <> trunc(threshold)
		   OR threshold < 0 OR threshold > 64 THEN
			RAISE EXCEPTION 'threshold for simhash64 must be a whole number of bits from 0 to 64, not %', threshold
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	ELSIF NOT (threshold > 0 AND threshold <= 1) THEN
		RAISE EXCEPTION 'threshold for minhash_sig must be a Jaccard similarity above 0 and at most 1, not %', threshold
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_cluster_check(regclass, name, name, double precision)
	IS 'internal: checks cluster_table''s arguments; the fingerprint kind and the threshold to use';

-- Candidate pairs, verified, into pg_temp.textfp_cluster_pairs (a < b,
-- score), and every key into pg_temp.textfp_cluster_keys (key, rep): rows
-- of one fingerprint value are collapsed first (rep is the smallest key of
-- the value; NULL fingerprints are their own rep and match nothing), so a
-- story reprinted verbatim 5,000 times is one row when pairs are made and
-- costs 4,999 pairs (member, rep), not 12.5M.  Pairs among reps come
-- through an index on the reps (mih for simhash64, exact; for minhash_sig
-- the GIN class gin_minhash_ops, exact), so each pair comes out once
-- (a.key < b.key) and is verified by the index's exact operator.  With
-- bands and rows (minhash_sig only), candidates are instead the pairs of
-- reps sharing a band key (minhash_bands, an equi-join by hash), made
-- distinct before each is verified with jaccard(): approximate, the
-- S-curve lsh_probability(J, bands, rows) of finding a pair.
--
-- Either route makes at most 1,000 pairs per distinct fingerprint plus 10M
-- (temporary storage: about 40 bytes a pair): the LSH route counts its
-- candidates before making them, the exact route stops its join at the
-- limit; past it the call fails (54000) before the pairs fill the disk.
CREATE FUNCTION textfp_cluster_pairs(tbl regclass, key_column name, fp_column name,
									 threshold double precision, bands integer DEFAULT NULL, rows integer DEFAULT NULL,
									 OUT kind text, OUT threshold_used double precision)
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	est numeric;
	nreps bigint;
	max_pairs bigint;
	npairs bigint;
BEGIN
	SELECT c.kind, c.threshold INTO kind, threshold_used
	FROM @extschema@.textfp_cluster_check(tbl, key_column, fp_column, threshold) c;
	IF (bands IS NULL) <> (rows IS NULL) THEN
		RAISE EXCEPTION 'bands and rows go together' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF bands IS NOT NULL AND kind <> 'minhash_sig' THEN
		RAISE EXCEPTION 'bands and rows apply to minhash_sig columns only' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF bands IS NOT NULL AND (bands < 1 OR rows < 1
			OR bands::bigint * rows::bigint > 1024::bigint) THEN
		RAISE EXCEPTION 'bands and rows must be at least 1, and bands * rows at most the signature''s k'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- left over by a call that failed in a subtransaction
	IF to_regclass('pg_temp.textfp_cluster_keys') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_cluster_keys;
	END IF;
	IF to_regclass('pg_temp.textfp_cluster_reps') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_cluster_reps;
	END IF;
	IF to_regclass('pg_temp.textfp_cluster_pairs') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_cluster_pairs;
	END IF;
	IF to_regclass('pg_temp.textfp_cluster_bands') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_cluster_bands;
	END IF;
	IF to_regclass('pg_temp.textfp_cluster_cands') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_cluster_cands;
	END IF;
	EXECUTE format('CREATE TEMP TABLE textfp_cluster_reps AS
		SELECT min(t.%1$I::bigint) AS key, t.%2$I AS fp
		FROM %3$s t WHERE t.%1$I IS NOT NULL AND t.%2$I IS NOT NULL GROUP BY t.%2$I',
		key_column, fp_column, tbl);
	EXECUTE format('CREATE TEMP TABLE textfp_cluster_keys AS
		SELECT t.%1$I::bigint AS key, coalesce(r.key, t.%1$I::bigint) AS rep
		FROM %3$s t LEFT JOIN pg_temp.textfp_cluster_reps r ON r.fp OPERATOR(@extschema@.=) t.%2$I
		WHERE t.%1$I IS NOT NULL', key_column, fp_column, tbl);
	SELECT count(*) INTO nreps FROM pg_temp.textfp_cluster_reps;
	max_pairs := @extschema@.textfp_cluster_pair_limit(nreps);
	IF bands IS NOT NULL THEN
		-- LSH: the band keys of every distinct value, pairs sharing one
		CREATE TEMP TABLE textfp_cluster_bands AS
			SELECT r.key, b.band FROM pg_temp.textfp_cluster_reps r,
				unnest(@extschema@.minhash_bands(r.fp, bands, rows)) b(band);
		ANALYZE pg_temp.textfp_cluster_bands;
		-- a bucket of n rows makes n(n-1)/2 pairs: refuse a banding that
		-- would make far more pairs than rows before making them
		SELECT coalesce(sum(x.n * (x.n - 1::numeric)
				/ 2::numeric), 0::numeric) INTO est
		FROM (SELECT count(*)::numeric AS n FROM pg_temp.textfp_cluster_bands GROUP BY band) x;
		IF est > max_pairs::numeric THEN
			DROP TABLE pg_temp.textfp_cluster_bands;
			RAISE EXCEPTION 'banding % x % makes % candidate pairs for % distinct signatures', bands, rows, est::bigint, nreps
				USING ERRCODE = 'program_limit_exceeded',
					  DETAIL = 'At most 1,000 candidates a signature (plus 10M) are made.',
					  HINT = 'Use more rows per band (fewer, stricter bands), or no banding (the exact index route).';
		END IF;
		CREATE TEMP TABLE textfp_cluster_cands AS
			SELECT DISTINCT x.key AS a, y.key AS b
			FROM pg_temp.textfp_cluster_bands x JOIN pg_temp.textfp_cluster_bands y
			  ON y.band = x.band AND x.key < y.key;
		DROP TABLE pg_temp.textfp_cluster_bands;
		CREATE UNIQUE INDEX ON pg_temp.textfp_cluster_reps (key);
		ANALYZE pg_temp.textfp_cluster_reps;
		-- each candidate's two signatures through the index on key: a hash
		-- join would spill the signatures of every candidate to disk
		CREATE TEMP TABLE textfp_cluster_pairs AS
			SELECT v.a, v.b, v.score FROM (
				SELECT c.a, c.b, @extschema@.jaccard(
					(SELECT x.fp FROM pg_temp.textfp_cluster_reps x WHERE x.key = c.a),
					(SELECT y.fp FROM pg_temp.textfp_cluster_reps y WHERE y.key = c.b)) AS score
				FROM pg_temp.textfp_cluster_cands c) v
			WHERE v.score >= threshold_used;
		DROP TABLE pg_temp.textfp_cluster_cands;
	ELSE
		ANALYZE pg_temp.textfp_cluster_reps;
		-- per kind: the exact index (mih or gin_minhash_ops), the score and
		-- the ball (hamming_ball takes an integer radius); the join stops one
		-- pair past the limit
		IF kind = 'simhash64' THEN
			CREATE INDEX ON pg_temp.textfp_cluster_reps USING mih (fp @extschema@.mih_simhash64_ops);
			CREATE TEMP TABLE textfp_cluster_pairs AS
				SELECT a.key AS a, b.key AS b, @extschema@.hamming_distance(a.fp, b.fp)::float8 AS score
				FROM pg_temp.textfp_cluster_reps a JOIN pg_temp.textfp_cluster_reps b
				  ON b.fp OPERATOR(@extschema@.<@) @extschema@.hamming_ball(a.fp, threshold_used::integer)
				 AND a.key < b.key
				LIMIT max_pairs + 1::bigint;
		ELSE
			CREATE INDEX ON pg_temp.textfp_cluster_reps USING gin (fp @extschema@.gin_minhash_ops);
			CREATE TEMP TABLE textfp_cluster_pairs AS
				SELECT a.key AS a, b.key AS b, @extschema@.jaccard(a.fp, b.fp) AS score
				FROM pg_temp.textfp_cluster_reps a JOIN pg_temp.textfp_cluster_reps b
				  ON b.fp OPERATOR(@extschema@.<@) @extschema@.jaccard_ball(a.fp, threshold_used)
				 AND a.key < b.key
				LIMIT max_pairs + 1::bigint;
		END IF;
		GET DIAGNOSTICS npairs = ROW_COUNT;
		IF npairs > max_pairs THEN
			DROP TABLE pg_temp.textfp_cluster_pairs, pg_temp.textfp_cluster_keys, pg_temp.textfp_cluster_reps;
			RAISE EXCEPTION 'more than % pairs within the threshold among % distinct fingerprints', max_pairs, nreps
				USING ERRCODE = 'program_limit_exceeded',
					  DETAIL = 'At most 1,000 pairs a distinct fingerprint (plus 10M) are made.',
					  HINT = 'Use a stricter threshold: at this one most rows are near most others.';
		END IF;
	END IF;
	-- rows of one value: each to its rep, at distance 0 / Jaccard 1
	INSERT INTO pg_temp.textfp_cluster_pairs
		SELECT k.rep, k.key, CASE WHEN kind = 'simhash64' THEN 0::float8 ELSE 1::float8 END
		FROM pg_temp.textfp_cluster_keys k WHERE k.key <> k.rep;
END
$$;
COMMENT ON FUNCTION textfp_cluster_pairs(regclass, name, name, double precision, integer, integer)
	IS 'internal: the verified pairs of a table within the threshold, into temporary tables textfp_cluster_pairs and textfp_cluster_keys';

CREATE FUNCTION cluster_table(tbl regclass, key_column name, fp_column name,
							  threshold double precision DEFAULT NULL, mode text DEFAULT 'components',
							  bands integer DEFAULT NULL, rows integer DEFAULT NULL)
RETURNS TABLE (key bigint, cluster_key bigint, cluster_size bigint)
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	n bigint;
	big bigint;
BEGIN
	IF mode IS NULL OR mode <> ALL ('{components,star}'::text[]) THEN
		RAISE EXCEPTION 'invalid clustering mode "%"', mode
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Valid modes are "components" and "star".';
	END IF;
	PERFORM @extschema@.textfp_cluster_pairs(tbl, key_column, fp_column, threshold, bands, rows);
	IF mode = 'components' THEN
		-- every key through its rep: components of reps, then members
		CREATE TEMP TABLE textfp_cluster_out AS
			SELECT u.key, u.cluster_key FROM @extschema@.union_find(
				'SELECT a, b FROM pg_temp.textfp_cluster_pairs UNION ALL SELECT key, NULL FROM pg_temp.textfp_cluster_keys'::text, 'components'::text) u;
	ELSE
		-- star over reps only (a row takes its rep's original: the same
		-- result as star over all rows, since equal rows have equal edges)
		CREATE TEMP TABLE textfp_cluster_out AS
			SELECT k.key, u.cluster_key
			FROM @extschema@.union_find(
				'SELECT p.a, p.b FROM pg_temp.textfp_cluster_pairs p
				   JOIN pg_temp.textfp_cluster_keys k ON k.key = p.b AND k.key = k.rep
				 UNION ALL SELECT key, NULL FROM pg_temp.textfp_cluster_keys WHERE key = rep',
				'star') u
			JOIN pg_temp.textfp_cluster_keys k ON k.rep = u.key;
	END IF;
	SELECT sum(x.c)::bigint, max(x.c) INTO n, big
	FROM (SELECT count(*) AS c FROM pg_temp.textfp_cluster_out o GROUP BY o.cluster_key) x;
	-- chaining: one cluster holding a large share is usually templates or
	-- boilerplate joined link by link, not one story
	IF big > 100 AND big::numeric > 0.05 * n THEN
		RAISE NOTICE 'largest cluster holds % of % keys (% %%)', big, n,
			round(100.0 * big / n, 1)
			USING HINT = CASE WHEN mode = 'components'
				THEN 'Connected components chain near duplicates of near duplicates; mode => ''star'' or a stricter threshold keeps clusters tight.'
				ELSE 'A stricter threshold keeps clusters tight.' END;
	END IF;
	RETURN QUERY
		SELECT o.key, o.cluster_key, count(*) OVER (PARTITION BY o.cluster_key)
		FROM pg_temp.textfp_cluster_out o;
	DROP TABLE pg_temp.textfp_cluster_out, pg_temp.textfp_cluster_keys,
		pg_temp.textfp_cluster_reps, pg_temp.textfp_cluster_pairs;
END
$$;
COMMENT ON FUNCTION cluster_table(regclass, name, name, double precision, text, integer, integer)
	IS 'clusters a table''s rows by their fingerprints within threshold (NULL: the % setting): connected components or stars; cluster_key is the smallest key of the cluster; bands and rows: LSH candidates for minhash_sig';


-- =========================================================================
-- issue 21: tracked tables (textfp_track): one registration per table,
-- stories as lineages in time, kept current on every write
-- =========================================================================
-- docs/stories.md is the guide.  CALL textfp_track(T, ...) registers a table:
-- two tables of T's owner next to it, T_textfp_config (the registration: one
-- row, the only place its settings live) and T_textfp (the store: a row per
-- row of T with its fingerprint and its link to its likely source), and
-- triggers on T that keep the store current (src/track/).  Every later call
-- takes only the table.  The store is read by the reports as their caller,
-- and written only by textfp, as T's owner.

CREATE FUNCTION textfp_track_trigger() RETURNS trigger
	AS 'MODULE_PATHNAME', 'textfp_track_trigger' LANGUAGE C;
COMMENT ON FUNCTION textfp_track_trigger()
	IS 'trigger of a tracked table: keeps its store (fingerprints, links, stories) current; made by textfp_track()';

CREATE FUNCTION textfp_track_dedup() RETURNS trigger
	AS 'MODULE_PATHNAME', 'textfp_track_dedup' LANGUAGE C;
COMMENT ON FUNCTION textfp_track_dedup()
	IS 'trigger of a tracked table registered with dedup => ''reject'' or ''skip'': keeps near duplicates out, race-free; made by textfp_track()';

CREATE FUNCTION textfp_track_link(config regclass, after_at text, after_key text, batch integer,
								  OUT last_at text, OUT last_key text, OUT rows integer, OUT changed integer)
	AS 'MODULE_PATHNAME', 'textfp_track_link' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION textfp_track_link(regclass, text, text, integer)
	IS 'internal: relinks the next batch of a tracked table''s rows in (time, key) order after a cursor (NULL: from the first)';

CREATE FUNCTION textfp_track_link_all(config regclass, OUT rows bigint, OUT changed bigint)
	AS 'MODULE_PATHNAME', 'textfp_track_link_all' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION textfp_track_link_all(regclass)
	IS 'internal: relinks every row of a registration at once, in memory, writers kept out until the transaction ends; NULLs when it does not apply (more than maintenance_work_mem, or MinHash signatures made otherwise)';

-- Locks a table of the caller's by OID (LOCK TABLE ONLY names it, and
-- after a wait looks the name up again: a table renamed meanwhile left its
-- name, and the lock, to whatever table took the name).
CREATE FUNCTION textfp_track_lock(tbl regclass, mode text) RETURNS void
	AS 'MODULE_PATHNAME', 'textfp_track_lock' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION textfp_track_lock(regclass, text)
	IS 'internal: locks a table of the caller''s by OID (ACCESS SHARE, SHARE, SHARE ROW EXCLUSIVE or ACCESS EXCLUSIVE); 42P01 if it was dropped meanwhile';

CREATE FUNCTION textfp_track_invalidate(config regclass) RETURNS void
	AS 'MODULE_PATHNAME', 'textfp_track_invalidate' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION textfp_track_invalidate(regclass)
	IS 'internal: makes every session read a registration again once the calling transaction commits';

-- Runs a statement on a registration's tables as their owner (src/track/
-- track_exec.c): the procedures' callers may have more privileges than the
-- owner, who may change its tables between a check and a statement.
CREATE FUNCTION textfp_track_exec(rel regclass, query text, args text[]) RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'textfp_track_exec' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION textfp_track_exec(regclass, text, text[])
	IS 'internal: runs a query ($1... the arguments, as text) as the owner of a relation, for a caller with that owner''s privileges, in a security-restricted operation';

-- The reports' queries on a store (or a registration), run as its owner for
-- a caller with SELECT on it (src/track/track_exec.c): the queries are fixed
-- in C, so the caller can make the owner run nothing but them.
CREATE FUNCTION textfp_track_report(rel regclass, report text, args text[]) RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'textfp_track_report' LANGUAGE C STABLE;
COMMENT ON FUNCTION textfp_track_report(regclass, text, text[])
	IS 'internal: one of the reports'' fixed queries on a store or registration ($1... the arguments, as text), run as its owner for a caller with SELECT on it';

-- Refuses (42501) a caller without the privileges of the table's owner.
CREATE FUNCTION textfp_check_owner(tbl regclass) RETURNS oid
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	owner oid;
BEGIN
	SELECT c.relowner INTO owner FROM pg_class c WHERE c.oid = tbl::oid;
	IF owner IS NULL THEN
		RAISE EXCEPTION 'relation with OID % does not exist', tbl::oid USING ERRCODE = 'undefined_table';
	END IF;
	IF NOT pg_has_role(current_user, owner, 'USAGE') THEN
		RAISE EXCEPTION 'must be owner of table %', tbl
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'A table''s textfp registration and store belong to its owner; only that owner (or a member of its role) registers it, rebuilds or ends its registration.';
	END IF;
	RETURN owner;
END
$$;
COMMENT ON FUNCTION textfp_check_owner(regclass)
	IS 'internal: the owner of a table, after checking that the caller has its privileges';

-- The shape of a table: columns (name type, not null, default, collation)
-- | constraints, to compare with the shape textfp makes.
CREATE FUNCTION textfp_relation_shape(rel regclass) RETURNS text
	LANGUAGE sql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT (SELECT string_agg(format('%s %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
				CASE WHEN a.attnotnull THEN ' not null' ELSE '' END,
				CASE WHEN a.atthasdef THEN ' default ' || pg_get_expr(d.adbin, d.adrelid) ELSE '' END
				|| CASE WHEN a.attgenerated <> '' OR a.attidentity <> '' THEN ' (other)' ELSE '' END
				|| CASE WHEN a.attcollation <> t.typcollation THEN ' collate ' || a.attcollation::regcollation::text ELSE '' END),
				';' ORDER BY a.attnum)
			FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
			LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
			WHERE a.attrelid = rel::oid AND a.attnum > 0 AND NOT a.attisdropped)
		|| '|' || coalesce((SELECT string_agg(x.contype::text || ' ' || pg_get_constraintdef(x.oid), ';'
												ORDER BY x.contype, pg_get_constraintdef(x.oid))
			FROM pg_constraint x WHERE x.conrelid = rel::oid), '')
$$;
COMMENT ON FUNCTION textfp_relation_shape(regclass)
	IS 'internal: a table''s columns, defaults and constraints as text, to compare with the shape textfp makes';

-- Refuses (42P07, naming it) a relation that is not a plain table of owner
-- with nothing a write could run: no trigger, rule, policy, inheritance,
-- index expression or predicate; and, unless expected is NULL, whose shape
-- is not expected.
CREATE FUNCTION textfp_check_owned_table(rel regclass, owner oid, expected text, what text) RETURNS void
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	c record;
	why text;
	label text := rel::text;	-- its name, while it has one
BEGIN
	SELECT r.relkind, r.relowner, r.relrowsecurity, r.relispartition
	INTO c FROM pg_class r WHERE r.oid = rel::oid;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'the textfp % table with OID % does not exist', what, rel::oid
			USING ERRCODE = 'undefined_table',
				  HINT = 'textfp_untrack() ends the registration; textfp_track() makes a new one.';
	END IF;
	IF c.relkind <> 'r' OR c.relispartition THEN
		why := 'it is not a plain table';
	ELSIF c.relowner <> owner THEN
		why := format('it is owned by %s, not by %s', c.relowner::regrole, owner::regrole);
	ELSIF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = rel::oid) THEN
		why := 'it has triggers';
	-- the catalogs, not relhasrules and relhassubclass: those stay true after
	-- the last rule or child went, until the table is vacuumed or analyzed
	ELSIF EXISTS (SELECT FROM pg_rewrite w WHERE w.ev_class = rel::oid) THEN
		why := 'it has rules';
	ELSIF c.relrowsecurity OR EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = rel::oid) THEN
		why := 'it has row-level security';
	ELSIF EXISTS (SELECT FROM pg_inherits i WHERE i.inhrelid = rel::oid OR i.inhparent = rel::oid) THEN
		why := 'it takes part in inheritance';
	ELSIF EXISTS (SELECT FROM pg_index i WHERE i.indrelid = rel::oid
				  AND (i.indexprs IS NOT NULL OR i.indpred IS NOT NULL)) THEN
		why := 'it has an index on an expression or with a predicate';
	ELSIF expected IS NOT NULL AND @extschema@.textfp_relation_shape(rel) IS DISTINCT FROM expected THEN
		why := 'its columns, defaults or constraints are not those textfp makes';
	END IF;
	-- dropped since this statement's snapshot (the shape's pg_get_expr waits
	-- for the lock of a drop, then reads nothing): the catalog as it is now
	IF why IS NOT NULL AND pg_table_is_visible(rel::oid) IS NULL THEN
		RAISE EXCEPTION 'the textfp % table % does not exist any more', what, label
			USING ERRCODE = 'undefined_table',
				  HINT = 'textfp_untrack() ends the registration; textfp_track() makes a new one.';
	END IF;
	IF why IS NOT NULL THEN
		RAISE EXCEPTION 'relation % is not a textfp % table', rel, what
			USING ERRCODE = 'duplicate_table',
				  DETAIL = format('textfp uses %s only as a %s table it made itself, owned by the tracked table''s owner, and %s.',
								  rel, what, why),
				  HINT = 'Rename or drop it, or ask its owner to.';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_check_owned_table(regclass, oid, text, text)
	IS 'internal: refuses a relation that is not a plain table of owner, in the expected shape, with nothing a write could run';

-- The columns of T_textfp_config.
CREATE FUNCTION textfp_track_config_shape() RETURNS text
	LANGUAGE sql STABLE PARALLEL SAFE
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT 'singleton boolean not null default true;format integer not null;source_table regclass not null;'
		|| 'store_table regclass not null;text_column name not null;key_column name not null;time_column name not null;'
		|| 'site_column name;method text not null;preset text;idf ' || format_type('@extschema@.idf_model'::regtype, NULL)
		|| ';excerpts boolean not null;options text[] not null;threshold double precision not null;'
		|| 'cohesion double precision;lsh_bands integer;lsh_rows integer;lsh_min_bands integer;dedup text not null;'
		|| 'dedup_scope text not null;state text not null;phase text;done bigint;total bigint;'
		|| 'started_at timestamp with time zone;updated_at timestamp with time zone;'
		|| 'registered_at timestamp with time zone not null default now();locks text'
		|| '|c CHECK (singleton);p PRIMARY KEY (singleton)'
$$;
COMMENT ON FUNCTION textfp_track_config_shape()
	IS 'internal: the shape of a registration''s configuration table';

-- The collation a registration's key columns take: "C" for a collatable key
-- type (text keys ordered by their bytes, whatever the table's collation),
-- none otherwise; ' collate "C"' as the tables are made and as
-- textfp_relation_shape() shows them (a type whose own collation is "C"
-- shows none).
CREATE FUNCTION textfp_track_key_collate(key_type regtype) RETURNS text
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT CASE WHEN (SELECT t.typcollation FROM pg_type t WHERE t.oid = key_type::oid) NOT IN (0, 950)
		THEN ' collate "C"' ELSE '' END
$$;
COMMENT ON FUNCTION textfp_track_key_collate(regtype)
	IS 'internal: the collation clause of a registration''s key columns for a key type (collate "C", or nothing)';

-- A MinHash registration's banding for a threshold and the signatures' k
-- (docs/stories.md): of 64 bands of two values (as many as k holds) and
-- gin_minhash_lsh_ops' default 44 bands of one, each with the most bands a
-- pair must share that still finds 99.5% of the pairs at the threshold
-- (estimated from k values), the one whose S-curve has the smaller area
-- below the threshold (lsh_params' false positives, 64 steps).  Bands of two
-- win at most thresholds from 0.34 up and at all from 0.44 (k = 128):
-- word-set minima are mostly common words (and, Chinese being signed by
-- its characters, common characters), and a band of two of them is rare
-- where one is not, so lookups read far shorter posting lists.  Where
-- neither finds 99.5%: 44 bands of one, at least one equal.  The triggers, the batches and the
-- pending rows all read the banding from the registration.
CREATE FUNCTION textfp_track_banding(threshold float8, k integer, OUT bands integer, OUT rows integer, OUT min_bands integer)
	LANGUAGE sql IMMUTABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT coalesce(c.b, 44), coalesce(c.r, 1), coalesce(c.m, 1)
	FROM (VALUES (1)) one(x) LEFT JOIN LATERAL (
		SELECT c.b, c.r, c.m
		FROM (VALUES (least(64, k / 2), 2), (44, 1)) c0(b, r),
			LATERAL (SELECT c0.b, c0.r, (SELECT max(m) FROM generate_series(1,
						CASE WHEN c0.b >= 1 AND c0.b * c0.r <= k THEN c0.b ELSE 0 END) m
					 WHERE @extschema@.lsh_probability(threshold, c0.b, c0.r, m, k) >= 0.995) AS m) c
		WHERE c.m IS NOT NULL
		ORDER BY (SELECT sum(@extschema@.lsh_probability(threshold * (i + 0.5) / 64, c.b, c.r, c.m))
				  FROM generate_series(0, 63) i), c.r DESC
		LIMIT 1) c ON true
$$;
COMMENT ON FUNCTION textfp_track_banding(float8, integer)
	IS 'internal: a MinHash registration''s LSH banding (bands, rows, min_bands) for a threshold and signatures of k values';

-- The columns of T_textfp for a key type, time type and site type.
CREATE FUNCTION textfp_track_store_shape(key_type regtype, time_type regtype, site_type regtype, fp_type regtype)
RETURNS text
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT format('key %1$s not null%2$s;at %3$s not null;site %4$s;fp %5$s;wf bigint[];source %1$s%2$s;source_site %4$s;source_at %3$s;'
				  'story %1$s not null%2$s;'
				  'score double precision;linked_at timestamp with time zone not null default now()|p PRIMARY KEY (key)',
			format_type(key_type, NULL),
			@extschema@.textfp_track_key_collate(key_type),
			format_type(time_type, NULL),
			coalesce(format_type(site_type, NULL), 'text'),
			format_type(fp_type, NULL))
$$;
COMMENT ON FUNCTION textfp_track_store_shape(regtype, regtype, regtype, regtype)
	IS 'internal: the shape of a registration''s store for these key, time, site and fingerprint types';

-- The columns of T_textfp_stories (the stories of two rows or more, as of
-- the last fold) and of T_textfp_changes (the stories changed since).
CREATE FUNCTION textfp_track_stories_shape(key_type regtype, time_type regtype, site_type regtype)
RETURNS text
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT format('story %1$s not null%2$s;size bigint not null;sites bigint not null;site %4$s;first_at %3$s not null;'
				  'last_at %3$s not null|p PRIMARY KEY (story)',
			format_type(key_type, NULL),
			@extschema@.textfp_track_key_collate(key_type),
			format_type(time_type, NULL),
			coalesce(format_type(site_type, NULL), 'text'))
$$;
COMMENT ON FUNCTION textfp_track_stories_shape(regtype, regtype, regtype)
	IS 'internal: the shape of a registration''s story summary for these key, time and site types';

CREATE FUNCTION textfp_track_changes_shape(key_type regtype) RETURNS text
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT format('story %1$s not null%2$s|', format_type(key_type, NULL),
			@extschema@.textfp_track_key_collate(key_type))
$$;
COMMENT ON FUNCTION textfp_track_changes_shape(regtype)
	IS 'internal: the shape of a registration''s list of changed stories for this key type';

-- The columns of T_textfp_reprints (links by the source's site and the
-- copy's site, as of the last fold) and of T_textfp_reprint_changes (the
-- site pairs changed since).
CREATE FUNCTION textfp_track_reprints_shape(site_type regtype) RETURNS text
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT format('source_site %1$s;site %1$s;reprints bigint not null;stories bigint not null;median_delay interval'
				  '|u UNIQUE NULLS NOT DISTINCT (source_site, site)',
			coalesce(format_type(site_type, NULL), 'text'))
$$;
COMMENT ON FUNCTION textfp_track_reprints_shape(regtype)
	IS 'internal: the shape of a registration''s summary of reprints by site pair for this site type';

CREATE FUNCTION textfp_track_reprint_changes_shape(site_type regtype) RETURNS text
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT format('source_site %1$s;site %1$s|', coalesce(format_type(site_type, NULL), 'text'))
$$;
COMMENT ON FUNCTION textfp_track_reprint_changes_shape(regtype)
	IS 'internal: the shape of a registration''s list of changed site pairs for this site type';

-- What is wrong with the types of a registration's columns, or NULL: those
-- textfp_track_register accepts.  A later ALTER ... TYPE must not let a
-- tracked table's owner choose a type whose casts or checks run its own code
-- (a cast from a type of its own, a domain's CHECK or DEFAULT) where textfp
-- converts or compares keys and times as the caller of a procedure or a
-- report, nor hand the triggers a text column that is not text (they read it
-- as text: an integer crashed the server).  A NULL type (a column renamed or
-- dropped) is not checked here: its user says it is missing.
CREATE FUNCTION textfp_track_types_problem(text_type regtype, key_type regtype, time_type regtype) RETURNS text
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT CASE
		WHEN text_type IS NOT NULL AND text_type NOT IN ('text'::regtype, 'character varying'::regtype)
			THEN format('its text column has type %s, not text or varchar', text_type)
		WHEN key_type IS NOT NULL AND NOT EXISTS (SELECT FROM pg_opclass c JOIN pg_am m ON m.oid = c.opcmethod
												   WHERE m.amname = 'btree' AND c.opcdefault AND c.opcintype = key_type::oid)
			THEN format('its key column has type %s, which has no default btree order of its own', key_type)
		WHEN time_type IS NOT NULL
			 AND time_type NOT IN ('timestamp with time zone'::regtype, 'timestamp without time zone'::regtype, 'date'::regtype)
			THEN format('its time column has type %s, not timestamptz, timestamp or date', time_type)
	END
$$;
COMMENT ON FUNCTION textfp_track_types_problem(regtype, regtype, regtype)
	IS 'internal: why the text, key and time types of a registration are not those textfp_track() accepts, or NULL';

-- A table of a registration named after its store (store name || suffix,
-- in the store's schema); 42P01 if there is none.
CREATE FUNCTION textfp_track_side_table(store regclass, suffix text) RETURNS regclass
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	rel regclass;
BEGIN
	SELECT c.oid::regclass INTO rel FROM pg_class c
	WHERE c.relnamespace = (SELECT s.relnamespace FROM pg_class s WHERE s.oid = store::oid)
	  AND c.relname = (SELECT s.relname FROM pg_class s WHERE s.oid = store::oid) || suffix;
	IF rel IS NULL THEN
		RAISE EXCEPTION 'the textfp table % of store % does not exist',
			(SELECT s.relname FROM pg_class s WHERE s.oid = store::oid) || suffix, store
			USING ERRCODE = 'undefined_table',
				  HINT = 'textfp_untrack() ends the registration; textfp_track() makes a new one.';
	END IF;
	RETURN rel;
END
$$;
COMMENT ON FUNCTION textfp_track_side_table(regclass, text)
	IS 'internal: a registration''s table named after its store with a suffix (_stories, _changes, _reprints, _reprint_changes)';

-- A registration's configuration table, checked: textfp's shape, owned by
-- source's owner, registering source; returns its store, checked likewise.
-- The triggers call it (as the owner) before they trust a configuration.
CREATE FUNCTION textfp_track_check(config regclass, source regclass) RETURNS regclass
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	owner oid := (SELECT c.relowner FROM pg_class c WHERE c.oid = source::oid);
	src regclass;
	st regclass;
	kcol name;
	tcol name;
	scol name;
	meth text;
	fmt integer;
	tcol_text name;
	why text;
	ktype regtype;
	ttype regtype;
	stype regtype;
BEGIN
	PERFORM @extschema@.textfp_check_owned_table(config, owner, @extschema@.textfp_track_config_shape(), 'registration');
	SELECT q.* INTO STRICT src, st, kcol, tcol, scol, meth, fmt, tcol_text
	FROM @extschema@.textfp_track_exec(config, format('SELECT c.source_table, c.store_table, c.key_column, c.time_column,
		c.site_column, c.method, c.format, c.text_column FROM ONLY %s c', config), '{}'::text[])
		AS q(source_table regclass, store_table regclass, key_column name, time_column name, site_column name, method text,
			 format integer, text_column name);
	IF fmt <> 1 THEN
		RAISE EXCEPTION 'textfp registration % has format %, which this textfp does not read', config, fmt
			USING ERRCODE = 'feature_not_supported';
	END IF;
	IF src IS DISTINCT FROM source THEN
		RAISE EXCEPTION 'textfp registration % is not that of table %', config, source
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('It registers %s.', src),
				  HINT = 'A trigger may name only its own table''s registration.';
	END IF;
	-- the columns' types as the table has them now (a column dropped or
	-- renamed: NULL), for their check and the tables' shapes
	SELECT (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = source::oid AND a.attname = kcol AND a.attnum > 0 AND NOT a.attisdropped)::regtype,
		   (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = source::oid AND a.attname = tcol AND a.attnum > 0 AND NOT a.attisdropped)::regtype,
		   (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = source::oid AND a.attname = scol AND a.attnum > 0 AND NOT a.attisdropped)::regtype
	INTO ktype, ttype, stype;
	why := @extschema@.textfp_track_types_problem(
		(SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = source::oid AND a.attname = tcol_text AND a.attnum > 0 AND NOT a.attisdropped)::regtype,
		ktype, ttype);
	IF why IS NOT NULL THEN
		RAISE EXCEPTION 'the textfp registration of table % no longer fits its columns', source
			USING ERRCODE = 'datatype_mismatch',
				  DETAIL = format('Table %s has changed since textfp_track(): %s.', source, why),
				  HINT = 'Change the column back, or textfp_untrack() and textfp_track() again.';
	END IF;
	PERFORM @extschema@.textfp_check_owned_table(st, owner,
		@extschema@.textfp_track_store_shape(ktype, ttype, stype,
			CASE meth WHEN 'minhash' THEN '@extschema@.minhash_sig'::regtype ELSE '@extschema@.simhash64'::regtype END),
		'store');
	-- the summaries and their changes: named after the store, beside it
	PERFORM @extschema@.textfp_check_owned_table(
		@extschema@.textfp_track_side_table(st, '_stories'::text), owner,
		@extschema@.textfp_track_stories_shape(ktype, ttype, stype),
		'story summary');
	PERFORM @extschema@.textfp_check_owned_table(
		@extschema@.textfp_track_side_table(st, '_changes'::text), owner,
		@extschema@.textfp_track_changes_shape(ktype),
		'story changes');
	PERFORM @extschema@.textfp_check_owned_table(
		@extschema@.textfp_track_side_table(st, '_reprints'::text), owner,
		@extschema@.textfp_track_reprints_shape(stype),
		'reprint summary');
	PERFORM @extschema@.textfp_check_owned_table(
		@extschema@.textfp_track_side_table(st, '_reprint_changes'::text), owner,
		@extschema@.textfp_track_reprint_changes_shape(stype),
		'reprint changes');
	RETURN st;
END
$$;
COMMENT ON FUNCTION textfp_track_check(regclass, regclass)
	IS 'internal: checks a registration''s configuration table and store (textfp''s shape, the source''s owner, this source); returns the store';

-- A trigger's arguments (pg_trigger.tgargs, each ending in a zero byte), in
-- the database's encoding: textfp_registration() reads the registration's
-- tables from them, textfp_track_set() gives them to the dedup trigger.
CREATE FUNCTION textfp_track_trigger_args(args bytea) RETURNS text[]
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	out text[] := '{}'::text[];
	sep integer;
BEGIN
	LOOP
		sep := position('\000'::bytea IN args);
		EXIT WHEN sep = 0;
		out := out || convert_from(substr(args, 1, sep - 1), getdatabaseencoding());
		args := substr(args, sep + 1);
	END LOOP;
	RETURN out;
END
$$;
COMMENT ON FUNCTION textfp_track_trigger_args(bytea)
	IS 'internal: a trigger''s arguments (pg_trigger.tgargs) as text, in the database''s encoding';

-- The registration of a table: its configuration table and store, named by
-- its textfp_track trigger, both plain tables of the table's owner in
-- textfp's shape with nothing a read or write could run.  Readers of the
-- reports need SELECT on the store only.
CREATE FUNCTION textfp_registration(tbl regclass, OUT config regclass, OUT store regclass)
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	arg bytea;
	args text[];
	owner oid;
	ktype regtype;
	ttype regtype;
	stype regtype;
	fptype regtype;
	shape text;
BEGIN
	SELECT c.relowner INTO owner FROM pg_class c WHERE c.oid = tbl::oid;
	IF owner IS NULL THEN
		RAISE EXCEPTION 'relation with OID % does not exist', tbl::oid USING ERRCODE = 'undefined_table';
	END IF;
	SELECT t.tgargs INTO arg FROM pg_trigger t
	WHERE t.tgrelid = tbl::oid AND t.tgname = 'textfp_track' AND t.tgnargs = 2
	  AND t.tgfoid = '@extschema@.textfp_track_trigger()'::regprocedure::oid;
	IF arg IS NULL THEN
		RAISE EXCEPTION 'table % is not tracked by textfp', tbl
			USING ERRCODE = 'undefined_object',
				  HINT = 'CALL textfp_track(...) registers it.';
	END IF;
	args := @extschema@.textfp_track_trigger_args(arg);
	config := to_regclass(args[1]);
	store := to_regclass(args[2]);
	IF config IS NULL OR store IS NULL THEN
		RAISE EXCEPTION 'the registration tables of % are missing', tbl USING ERRCODE = 'undefined_table',
			HINT = 'textfp_untrack() and textfp_track() register it anew.';
	END IF;
	PERFORM @extschema@.textfp_check_owned_table(config, owner, @extschema@.textfp_track_config_shape(), 'registration');
	-- the store's shape from its own columns' types, which must be types
	-- textfp_track() takes: the reports convert and compare keys and times
	-- as their caller, and a type of the owner's own (a domain, a cast of its
	-- own) would run the owner's code as the caller
	SELECT (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = store::oid AND a.attname = 'key' AND NOT a.attisdropped)::regtype,
		   (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = store::oid AND a.attname = 'at' AND NOT a.attisdropped)::regtype,
		   (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = store::oid AND a.attname = 'site' AND NOT a.attisdropped)::regtype,
		   (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = store::oid AND a.attname = 'fp' AND NOT a.attisdropped)::regtype
	INTO ktype, ttype, stype, fptype;
	IF ktype IS NOT NULL AND ttype IS NOT NULL AND stype IS NOT NULL
	   AND fptype IN ('@extschema@.minhash_sig'::regtype, '@extschema@.simhash64'::regtype)
	   AND @extschema@.textfp_track_types_problem(NULL, ktype, ttype) IS NULL THEN
		shape := @extschema@.textfp_track_store_shape(ktype, ttype, stype, fptype);
	END IF;
	PERFORM @extschema@.textfp_check_owned_table(store, owner, coalesce(shape, 'a store of the types textfp takes'::text), 'store');
END
$$;
COMMENT ON FUNCTION textfp_registration(regclass)
	IS 'the configuration table and the store of a tracked table (named by its trigger, checked to be textfp''s)';

-- The dedup mode and scope of a registration (textfp_track, textfp_track_set):
-- 22023 for a value they do not take.
CREATE FUNCTION textfp_track_check_dedup(dedup text, dedup_scope text, site_column name) RETURNS void
	LANGUAGE plpgsql IMMUTABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
BEGIN
	IF dedup IS NULL OR dedup NOT IN ('off', 'reject', 'skip') THEN
		RAISE EXCEPTION 'invalid dedup mode "%"', dedup
			USING ERRCODE = 'invalid_parameter_value', HINT = 'Modes are "off", "reject" and "skip".';
	END IF;
	IF dedup_scope IS NULL OR dedup_scope NOT IN ('all', 'site') THEN
		RAISE EXCEPTION 'invalid dedup scope "%"', dedup_scope
			USING ERRCODE = 'invalid_parameter_value', HINT = 'Scopes are "all" and "site".';
	END IF;
	IF dedup_scope = 'site' AND site_column IS NULL THEN
		RAISE EXCEPTION 'dedup scope "site" needs a site column' USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_track_check_dedup(text, text, name)
	IS 'internal: refuses (22023) a dedup mode or scope a registration does not take';

-- The lock keys of a registration of a method and threshold (the threshold
-- checked already; textfp_track, textfp_track_set): 'blocks' or 'pairs' for
-- SimHash, pairs up to 30 bits; none for MinHash, whose rows lock the keys of
-- their bands.  22023 otherwise.
CREATE FUNCTION textfp_track_check_locks(method text, threshold double precision, locks text) RETURNS void
	LANGUAGE plpgsql IMMUTABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
BEGIN
	IF method = 'simhash' THEN
		IF locks IS NULL OR locks NOT IN ('blocks', 'pairs') THEN
			RAISE EXCEPTION 'invalid locks "%"', locks
				USING ERRCODE = 'invalid_parameter_value', HINT = 'Lock keys are "blocks" and "pairs".';
		END IF;
		IF locks = 'pairs' AND threshold > 30 THEN
			RAISE EXCEPTION 'locks "pairs" takes a simhash threshold up to 30 bits, not %', threshold
				USING ERRCODE = 'invalid_parameter_value', HINT = 'Give locks => ''blocks''.';
		END IF;
	ELSIF locks IS NOT NULL THEN
		RAISE EXCEPTION 'locks is for simhash registrations'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = 'A minhash registration''s rows lock the keys of their LSH bands.',
				  HINT = 'Leave locks out.';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_track_check_locks(text, double precision, text)
	IS 'internal: refuses (22023) lock keys a registration of this method and threshold does not take';

-- Checks a registration's arguments and makes its tables and triggers
-- (state 'building': the triggers fingerprint new rows, no links yet).
CREATE FUNCTION textfp_track_register(tbl regclass, text_column name, key_column name, time_column name,
	site_column name, method text, preset text, threshold double precision, dedup text, dedup_scope text,
	options text[], idf @extschema@.idf_model, cohesion double precision, excerpts boolean, locks text)
RETURNS regclass
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	owner oid := @extschema@.textfp_check_owner(tbl);
	nsp name;
	rel name;
	cfg text;
	st text;
	sty text;
	chg text;
	rpr text;
	rpc text;
	ktype regtype;
	kcoll text;
	ttype regtype;
	stype regtype;
	txtype regtype;
	katt smallint;
	fptype regtype;
	fpcall text;
	bands integer;
	rws integer;
	minb integer;
	sigk integer;
	pmethod text;
	pthreshold double precision;
	needs_idf boolean;
BEGIN
	IF tbl IS NULL OR text_column IS NULL OR key_column IS NULL OR time_column IS NULL THEN
		RAISE EXCEPTION 'table, text, key and time columns must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT n.nspname, c.relname INTO nsp, rel
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = tbl::oid;
	IF (SELECT c.relkind FROM pg_class c WHERE c.oid = tbl::oid) <> 'r' THEN
		RAISE EXCEPTION '"%" is not a plain table', tbl
			USING ERRCODE = 'wrong_object_type',
				  DETAIL = 'textfp_track() registers ordinary tables (not partitioned tables, views or foreign tables).';
	END IF;
	-- the batches read the table as its owner: policies forced on the owner
	-- would hide rows from them, rows the store would then never have
	IF (SELECT c.relrowsecurity AND c.relforcerowsecurity FROM pg_class c WHERE c.oid = tbl::oid) THEN
		RAISE EXCEPTION 'table % forces row-level security on its owner', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'textfp_track() fingerprints every row of the table as its owner; a forced policy would hide some of them.',
				  HINT = format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY while textfp_track() runs; the triggers keep every row afterwards.', tbl);
	END IF;
	IF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = tbl::oid AND t.tgname IN ('textfp_track', 'textfp_track_truncate', 'textfp_track_dedup')) THEN
		RAISE EXCEPTION 'table % is already tracked by textfp', tbl
			USING ERRCODE = 'duplicate_object', HINT = 'textfp_untrack() first to register it anew.';
	END IF;
	IF octet_length(rel) + octet_length('_textfp_reprint_changes') > 63 THEN
		RAISE EXCEPTION 'table name "%" is too long for textfp''s tables', rel
			USING ERRCODE = 'name_too_long',
				  DETAIL = 'The registration''s tables are named after the table plus "_textfp", "_textfp_config", "_textfp_stories", "_textfp_changes", "_textfp_reprints" and "_textfp_reprint_changes", at most 63 bytes.';
	END IF;
	cfg := format('%I.%I', nsp, rel || '_textfp_config');
	st := format('%I.%I', nsp, rel || '_textfp');
	sty := format('%I.%I', nsp, rel || '_textfp_stories');
	chg := format('%I.%I', nsp, rel || '_textfp_changes');
	rpr := format('%I.%I', nsp, rel || '_textfp_reprints');
	rpc := format('%I.%I', nsp, rel || '_textfp_reprint_changes');
	IF EXISTS (SELECT FROM pg_catalog.unnest(ARRAY[cfg, st, sty, chg, rpr, rpc]) n WHERE to_regclass(n) IS NOT NULL) THEN
		RAISE EXCEPTION 'relation % exists already',
			(SELECT string_agg(n, ', ') FROM pg_catalog.unnest(ARRAY[cfg, st, sty, chg, rpr, rpc]) n WHERE to_regclass(n) IS NOT NULL)
			USING ERRCODE = 'duplicate_table',
				  HINT = 'textfp_track() makes the registration''s tables itself: rename or drop those.';
	END IF;

	-- columns
	SELECT a.atttypid::regtype INTO txtype FROM pg_attribute a
	WHERE a.attrelid = tbl::oid AND a.attname = text_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF txtype IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', text_column, tbl USING ERRCODE = 'undefined_column';
	END IF;
	IF txtype NOT IN ('text'::regtype, 'character varying'::regtype) THEN
		RAISE EXCEPTION 'text column "%" must be text or varchar, not %', text_column, txtype USING ERRCODE = 'datatype_mismatch';
	END IF;
	SELECT a.atttypid::regtype, a.attnum INTO ktype, katt FROM pg_attribute a
	WHERE a.attrelid = tbl::oid AND a.attname = key_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF ktype IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', key_column, tbl USING ERRCODE = 'undefined_column';
	END IF;
	-- unique at once, not DEFERRABLE: the triggers replay a statement's rows
	-- in order, and a key two rows share for a while would mix their store rows
	IF NOT EXISTS (SELECT FROM pg_index i WHERE i.indrelid = tbl::oid AND i.indisunique AND i.indimmediate AND i.indisvalid
				   AND i.indnkeyatts = 1 AND i.indkey[0] = katt AND i.indexprs IS NULL AND i.indpred IS NULL)
	   OR NOT (SELECT a.attnotnull FROM pg_attribute a WHERE a.attrelid = tbl::oid AND a.attnum = katt) THEN
		RAISE EXCEPTION 'key column "%" of % must be NOT NULL and unique', key_column, tbl
			USING ERRCODE = 'invalid_column_reference',
				  DETAIL = 'Stories name rows by their keys: a primary key, or a NOT NULL column with a unique index on it alone, not DEFERRABLE.',
				  HINT = format('ALTER TABLE %s ADD PRIMARY KEY (%I);', tbl, key_column);
	END IF;
	IF NOT EXISTS (SELECT FROM pg_opclass c JOIN pg_am m ON m.oid = c.opcmethod
				   WHERE m.amname = 'btree' AND c.opcdefault AND c.opcintype = ktype::oid) THEN
		RAISE EXCEPTION 'key column "%" has type % without a default btree order', key_column, ktype
			USING ERRCODE = 'datatype_mismatch';
	END IF;
	SELECT a.atttypid::regtype INTO ttype FROM pg_attribute a
	WHERE a.attrelid = tbl::oid AND a.attname = time_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF ttype IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', time_column, tbl USING ERRCODE = 'undefined_column';
	END IF;
	IF ttype NOT IN ('timestamp with time zone'::regtype, 'timestamp without time zone'::regtype, 'date'::regtype) THEN
		RAISE EXCEPTION 'time column "%" must be timestamptz, timestamp or date, not %', time_column, ttype
			USING ERRCODE = 'datatype_mismatch';
	END IF;
	IF NOT (SELECT a.attnotnull FROM pg_attribute a WHERE a.attrelid = tbl::oid AND a.attname = time_column) THEN
		RAISE EXCEPTION 'time column "%" of % must be NOT NULL', time_column, tbl
			USING ERRCODE = 'invalid_column_reference',
				  DETAIL = 'Stories are made in time order: every row needs its time.',
				  HINT = format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL;', tbl, time_column);
	END IF;
	IF site_column IS NOT NULL THEN
		SELECT a.atttypid::regtype INTO stype FROM pg_attribute a
		WHERE a.attrelid = tbl::oid AND a.attname = site_column AND a.attnum > 0 AND NOT a.attisdropped;
		IF stype IS NULL THEN
			RAISE EXCEPTION 'column "%" of relation % does not exist', site_column, tbl USING ERRCODE = 'undefined_column';
		END IF;
	END IF;

	-- the fingerprint and what near means
	IF method IS NOT NULL AND method NOT IN ('minhash', 'simhash') THEN
		RAISE EXCEPTION 'invalid method "%"', method
			USING ERRCODE = 'invalid_parameter_value', HINT = 'Methods are "minhash" and "simhash".';
	END IF;
	IF options IS NULL THEN
		RAISE EXCEPTION 'options must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- a preset, or options: by default the method's preset for stories
	-- (docs/stories.md: simhash_v2 keeps unrelated Chinese texts apart, minhash_v3
	-- keeps lookups short at a million rows)
	IF preset IS NOT NULL AND cardinality(options) > 0 THEN
		RAISE EXCEPTION 'a registration takes a preset or options, not both'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = 'A preset fixes every option of the pipeline.';
	END IF;
	IF preset IS NULL AND cardinality(options) = 0 THEN
		preset := CASE method WHEN 'simhash' THEN 'simhash_v2' ELSE 'minhash_v3' END;
	END IF;
	IF preset IS NOT NULL THEN
		SELECT p.method, p.threshold, p.options ->> 'idf' = 'model' INTO pmethod, pthreshold, needs_idf
		FROM @extschema@.textfp_presets() p WHERE p.name = preset;
		IF pmethod IS NULL THEN
			RAISE EXCEPTION 'invalid preset "%"', preset
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = format('Presets are %s.', (SELECT string_agg(format('"%s"', p.name), ', ') FROM @extschema@.textfp_presets() p));
		END IF;
		IF method IS NOT NULL AND method <> pmethod THEN
			RAISE EXCEPTION 'preset "%" is a % preset, not %', preset, pmethod, method
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'Leave method out: the preset gives it.';
		END IF;
		method := pmethod;
		threshold := coalesce(threshold, pthreshold);
	ELSE
		method := coalesce(method, 'minhash');
	END IF;
	IF idf IS NOT NULL AND NOT coalesce(needs_idf, false) THEN
		RAISE EXCEPTION 'an idf model goes with a preset that weighs by one'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = format('Presets that weigh by a model: %s.',
								(SELECT string_agg(format('"%s"', p.name), ', ') FROM @extschema@.textfp_presets() p
								 WHERE p.options ->> 'idf' = 'model'));
	END IF;
	IF excerpts IS NULL THEN
		RAISE EXCEPTION 'excerpts must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	PERFORM @extschema@.textfp_track_check_dedup(dedup, dedup_scope, site_column);
	IF method = 'simhash' THEN
		fptype := '@extschema@.simhash64'::regtype;
		threshold := coalesce(threshold, 10);
		IF threshold <> trunc(threshold) OR threshold < 0 OR threshold > 31 THEN
			RAISE EXCEPTION 'threshold for simhash must be a whole number of bits from 0 to 31, not %', threshold
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
		-- by default a row joins a story only within the threshold of its
		-- original too: templates cannot chain unrelated stories (docs/stories.md)
		cohesion := coalesce(cohesion, threshold);
		IF cohesion <> trunc(cohesion) OR cohesion < 0 OR cohesion > 64 THEN
			RAISE EXCEPTION 'cohesion for simhash must be a whole number of bits from 0 to 64, not %', cohesion
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
		-- the writers' lock keys (docs/dedup.md, "Lock keys"): by default
		-- on pairs of threshold + 2 blocks, which unrelated rows share about
		-- a third as often as single blocks (docs/stories.md); at 31 bits,
		-- where pairs would need 33 blocks of 64 bits, on blocks
		locks := coalesce(locks, CASE WHEN threshold <= 30 THEN 'pairs' ELSE 'blocks' END);
		PERFORM @extschema@.textfp_track_check_locks(method, threshold, locks);
	ELSE
		fptype := '@extschema@.minhash_sig'::regtype;
		threshold := coalesce(threshold, 0.3);
		IF NOT (threshold > 0 AND threshold <= 1) THEN
			RAISE EXCEPTION 'threshold for minhash must be a Jaccard estimate above 0 and at most 1, not %', threshold
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
		cohesion := coalesce(cohesion, threshold);
		IF NOT (cohesion >= 0 AND cohesion <= 1) THEN
			RAISE EXCEPTION 'cohesion for minhash must be a Jaccard estimate from 0 to 1, not %', cohesion
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
		PERFORM @extschema@.textfp_track_check_locks(method, threshold, locks);
	END IF;
	-- the model of a preset that weighs by one: the one given, or the
	-- table's rows now, kept with the registration (its fingerprints depend on it)
	IF needs_idf AND idf IS NULL THEN
		-- as the owner: the caller may have more privileges
		SELECT q.m INTO idf
		FROM @extschema@.textfp_track_exec(tbl, format('SELECT @extschema@.idf_model(@extschema@.simhash_features(t.%I::pg_catalog.text,
			preset => $1::@extschema@.textfp_preset)) FROM ONLY %s t', text_column, tbl), ARRAY[preset]) AS q(m @extschema@.idf_model);
		IF idf IS NULL OR @extschema@.idf_model_docs(idf) = 0 THEN
			RAISE EXCEPTION 'preset "%" needs an idf model, and table % has no rows to build one from', preset, tbl
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  HINT = 'Load a sample of the collection first, or give idf => a model built from one (docs/pipeline.md), or use preset => ''simhash_v1''.';
		END IF;
	END IF;
	-- bad options fail here, before anything is made (on an empty text: the
	-- fingerprint functions are strict and check nothing on a NULL one)
	fpcall := @extschema@.textfp_track_fp_call(method, preset, options, '''''::text', '$1');
	EXECUTE 'SELECT ' || fpcall USING idf;
	-- the banding (textfp_track_banding); 44 bands of one value need
	-- signatures of 44 values at least (k => 32 failed every lookup, after
	-- the registration was made)
	IF method = 'minhash' THEN
		fpcall := @extschema@.textfp_track_fp_call(method, preset, options,
			'''textfp checks the signature size of a registration''::text', '$1');
		EXECUTE 'SELECT (@extschema@.minhash_info(' || fpcall || ')).k' INTO sigk USING idf;
		SELECT b.bands, b.rows, b.min_bands INTO bands, rws, minb FROM @extschema@.textfp_track_banding(threshold, sigk) b;
		IF sigk < bands * rws THEN
			RAISE EXCEPTION 'minhash signatures of % values are too short for the registration''s % bands', sigk, bands
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = format('Leave k at its default (128), or give k => %s or more.', bands * rws);
		END IF;
	END IF;

	-- the tables, owned by the table's owner
	kcoll := @extschema@.textfp_track_key_collate(ktype);
	EXECUTE format('CREATE TABLE %s (
		singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
		format integer NOT NULL,
		source_table regclass NOT NULL,
		store_table regclass NOT NULL,
		text_column name NOT NULL,
		key_column name NOT NULL,
		time_column name NOT NULL,
		site_column name,
		method text NOT NULL,
		preset text,
		idf @extschema@.idf_model,
		excerpts boolean NOT NULL,
		options text[] NOT NULL,
		threshold double precision NOT NULL,
		cohesion double precision,
		lsh_bands integer,
		lsh_rows integer,
		lsh_min_bands integer,
		dedup text NOT NULL,
		dedup_scope text NOT NULL,
		state text NOT NULL,
		phase text,
		done bigint,
		total bigint,
		started_at timestamptz,
		updated_at timestamptz,
		registered_at timestamptz NOT NULL DEFAULT now(),
		locks text)', cfg);
	EXECUTE format('CREATE TABLE %s (
		key %s NOT NULL%s PRIMARY KEY,
		at %s NOT NULL,
		site %s,
		fp %s,
		wf bigint[],
		source %s%s,
		source_site %s,
		source_at %s,
		story %s NOT NULL%s,
		score double precision,
		linked_at timestamptz NOT NULL DEFAULT now())', st,
		ktype, kcoll,
		ttype, coalesce(stype, 'text'::regtype), fptype,
		ktype, kcoll,
		coalesce(stype, 'text'::regtype), ttype,
		ktype, kcoll);
	-- the stories of two rows or more as of the last fold, and the stories
	-- changed since (appended by every write, folded now and then): the
	-- reports read both, never a row every writer updates (track_story.c)
	EXECUTE format('CREATE TABLE %s (
		story %s NOT NULL%s PRIMARY KEY,
		size bigint NOT NULL,
		sites bigint NOT NULL,
		site %s,
		first_at %s NOT NULL,
		last_at %s NOT NULL)', sty,
		ktype, kcoll,
		coalesce(stype, 'text'::regtype), ttype, ttype);
	EXECUTE format('CREATE TABLE %s (story %s NOT NULL%s)', chg,
		ktype, kcoll);
	-- the reports' orders: their first rows (max_rows) are read from these
	-- indexes, merged with the changed stories and pairs recounted, not
	-- sorted from every story or pair
	EXECUTE format('CREATE INDEX ON %s (size DESC, first_at, story)', sty);
	-- the same for who reprints whom: links by the source's site (kept in
	-- the store with the link as source_site, with the source's time as
	-- source_at) and the copy's site
	EXECUTE format('CREATE TABLE %s (
		source_site %s,
		site %s,
		reprints bigint NOT NULL,
		stories bigint NOT NULL,
		median_delay interval,
		UNIQUE NULLS NOT DISTINCT (source_site, site))', rpr,
		coalesce(stype, 'text'::regtype), coalesce(stype, 'text'::regtype));
	EXECUTE format('CREATE TABLE %s (source_site %s, site %s)', rpc,
		coalesce(stype, 'text'::regtype), coalesce(stype, 'text'::regtype));
	EXECUTE format('CREATE INDEX ON %s (reprints DESC, source_site, site)', rpr);
	-- covering, as the pair index below: a fold or the story report recounts
	-- a changed story (size, sites, last member) from the index alone
	EXECUTE format('CREATE INDEX ON %s (story) INCLUDE (site, at)', st);
	EXECUTE format('CREATE INDEX ON %s (source)', st);
	-- covering: a fold or report recounts a site pair from the index alone
	-- (index-only, no heap fetch a link), and source as a key column lets a
	-- pair of NULL sites skip the rows without a source (NULL sorts last)
	EXECUTE format('CREATE INDEX ON %s (source_site, site, source) INCLUDE (story, at, source_at)', st);
	EXECUTE format('CREATE INDEX ON %s (at, key)', st);
	IF method = 'simhash' THEN
		EXECUTE format('CREATE INDEX ON %s USING mih (fp @extschema@.mih_simhash64_ops)', st);
	ELSE
		-- without a pending list: every write looks its near rows up, and a
		-- lookup reads the whole pending list (a relink of 2,000 rows took
		-- 17 times as long with it)
		EXECUTE format('CREATE INDEX ON %s USING gin (fp @extschema@.gin_minhash_lsh_ops (bands = %s, rows = %s)) WITH (fastupdate = off)', st, bands, rws);
	END IF;
	-- the winnowed fingerprints of excerpt search (docs/excerpts.md): 28 bits
	-- a key, about one fingerprint a key at a million rows
	IF excerpts THEN
		EXECUTE format('CREATE INDEX ON %s USING gin (wf @extschema@.gin_winnow_ops (bits = 28))', st);
	END IF;
	EXECUTE format('COMMENT ON TABLE %s IS %L', cfg, 'textfp registration of ' || tbl::text || ': its one row says how the table is tracked');
	EXECUTE format('COMMENT ON TABLE %s IS %L', st, 'textfp store of ' || tbl::text || ': a row per row, its fingerprint and its link to its likely source (source, story, score)');
	EXECUTE format('COMMENT ON TABLE %s IS %L', sty, 'textfp stories of ' || tbl::text || ' (two rows or more) as of the last fold of ' || chg);
	EXECUTE format('COMMENT ON TABLE %s IS %L', chg, 'textfp: stories of ' || tbl::text || ' changed since the last fold into ' || sty);
	EXECUTE format('COMMENT ON TABLE %s IS %L', rpr, 'textfp reprints of ' || tbl::text || ' by source site and site as of the last fold of ' || rpc);
	EXECUTE format('COMMENT ON TABLE %s IS %L', rpc, 'textfp: site pairs of ' || tbl::text || ' changed since the last fold into ' || rpr);
	IF (SELECT c.relowner FROM pg_class c WHERE c.oid = to_regclass(cfg)::oid) <> owner THEN
		EXECUTE format('ALTER TABLE %s OWNER TO %I', cfg, owner::regrole::text);
		EXECUTE format('ALTER TABLE %s OWNER TO %I', st, owner::regrole::text);
		EXECUTE format('ALTER TABLE %s OWNER TO %I', sty, owner::regrole::text);
		EXECUTE format('ALTER TABLE %s OWNER TO %I', chg, owner::regrole::text);
		EXECUTE format('ALTER TABLE %s OWNER TO %I', rpr, owner::regrole::text);
		EXECUTE format('ALTER TABLE %s OWNER TO %I', rpc, owner::regrole::text);
	END IF;
	EXECUTE format('INSERT INTO %s (format, source_table, store_table, text_column, key_column, time_column, site_column,
			method, preset, idf, excerpts, options, threshold, cohesion, lsh_bands, lsh_rows, lsh_min_bands, dedup, dedup_scope,
			locks, state, phase, done, started_at, updated_at)
		VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, ''building'',
			''fingerprints'', 0, now(), now())', cfg)
		USING tbl, to_regclass(st), text_column, key_column, time_column, site_column, method, preset, idf, excerpts, options,
			  threshold, cohesion, bands, rws, minb, dedup, dedup_scope, locks;

	-- the triggers: from now on every write is fingerprinted
	EXECUTE format('CREATE TRIGGER textfp_track AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW
		EXECUTE FUNCTION @extschema@.textfp_track_trigger(%L, %L)', tbl, cfg, st);
	EXECUTE format('CREATE TRIGGER textfp_track_truncate AFTER TRUNCATE ON %s FOR EACH STATEMENT
		EXECUTE FUNCTION @extschema@.textfp_track_trigger(%L, %L)', tbl, cfg, st);
	IF dedup <> 'off' THEN
		EXECUTE format('CREATE TRIGGER textfp_track_dedup BEFORE INSERT OR UPDATE ON %s FOR EACH ROW
			EXECUTE FUNCTION @extschema@.textfp_track_dedup(%L, %L)', tbl, cfg, st);
	END IF;
	RETURN to_regclass(cfg);
END
$$;
COMMENT ON FUNCTION textfp_track_register(regclass, name, name, name, name, text, text, double precision, text, text, text[], idf_model, double precision, boolean, text)
	IS 'internal: checks a registration and makes its tables and triggers (textfp_track() then fills and links)';

-- The SQL call of the registration's fingerprint function on doc (an
-- expression): with a preset, simhash(doc, preset, idf) (idf an expression
-- such as $1, the model) or minhash(doc, preset); else with its options as
-- named arguments, each value cast to its parameter's type: an untyped value
-- would let an overload planted in textfp's schema with a text parameter of
-- that name take the call (run as whoever registers the table).  doc is
-- cast to text likewise: a varchar column would let an overload with a
-- varchar first parameter take it (as the table's owner).  The
-- function is the one the triggers call (fpcall.c): textfp's own simhash or
-- minhash over (doc text, featureless text, ...), or over (doc text, preset
-- textfp_preset[, idf idf_model]).
CREATE FUNCTION textfp_track_fp_call(method text, preset text, options text[], doc text, idf text) RETURNS text
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	fname text := CASE method WHEN 'minhash' THEN 'minhash' ELSE 'simhash' END;
	fn oid;
	call text := format('@extschema@.%s((%s)::pg_catalog.text, ''null''::text', fname, doc);
	o text;
	eq integer;
	ptype oid;
BEGIN
	IF preset IS NOT NULL THEN
		RETURN format('@extschema@.%s((%s)::pg_catalog.text, preset => %L::@extschema@.textfp_preset%s)', fname, doc, preset,
			CASE WHEN method = 'minhash' THEN ''
				 ELSE format(', idf => coalesce(%s, ''none''::@extschema@.idf_model)', idf) END);
	END IF;
	SELECT p.oid INTO fn FROM pg_proc p
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
	WHERE p.proname = fname AND p.pronargs >= 2 AND p.proargtypes[0] = 'text'::regtype AND p.proargtypes[1] = 'text'::regtype
	  AND p.proargnames[2] = 'featureless';
	IF fn IS NULL THEN
		RAISE EXCEPTION 'textfp''s %(doc text, featureless text, ...) is missing', fname USING ERRCODE = 'undefined_function';
	END IF;
	FOREACH o IN ARRAY coalesce(options, '{}'::text[]) LOOP
		eq := strpos(o, '=');
		IF eq < 2 THEN
			RAISE EXCEPTION 'option "%" is not of the form name=value', o USING ERRCODE = 'invalid_parameter_value';
		END IF;
		ptype := (SELECT p.proargtypes[i.n - 1] FROM pg_proc p, generate_subscripts(p.proargnames, 1) i(n)
				  WHERE p.oid = fn AND i.n > 2 AND p.proargnames[i.n] = left(o, eq - 1));
		IF ptype IS NULL THEN
			RAISE EXCEPTION '% has no option "%"', fname, left(o, eq - 1)
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = format('Its options are those of %s() after the text: %s.', fname,
									(SELECT string_agg(x.n, ', ') FROM pg_proc p, unnest(p.proargnames[3:]) x(n) WHERE p.oid = fn));
		END IF;
		call := call || format(', %I => %L::%s', left(o, eq - 1), substr(o, eq + 1), format_type(ptype, NULL));
	END LOOP;
	RETURN call || ')';
END
$$;
COMMENT ON FUNCTION textfp_track_fp_call(text, text, text[], text, text)
	IS 'internal: the call of simhash() or minhash() a registration makes, as SQL text: with its preset (and model), or each option cast to its parameter''s type';

-- The next batch of rows of the table without a store row (after a key, in
-- the key's order): fingerprinted into the store.
CREATE FUNCTION textfp_track_fill(config regclass, after_key text, batch integer, OUT last_key text, OUT rows integer)
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	src regclass;
	st regclass;
	ktype regtype;
	txcol name;
	kcol name;
	tcol name;
	scol name;
	meth text;
	pre text;
	opts text[];
	exc boolean;
BEGIN
	SELECT q.* INTO STRICT src, txcol, kcol, tcol, scol, meth, pre, opts, exc
	FROM @extschema@.textfp_track_exec(config, format('SELECT c.source_table, c.text_column, c.key_column, c.time_column,
		c.site_column, c.method, c.preset, c.options, c.excerpts FROM ONLY %s c', config), '{}'::text[])
		AS q(source_table regclass, text_column name, key_column name, time_column name, site_column name, method text,
			 preset text, options text[], excerpts boolean);
	st := @extschema@.textfp_track_check(config, src);
	PERFORM @extschema@.textfp_check_owner(src);
	-- No write to the table while a batch reads it: the triggers of a
	-- delete or a change of site, which would not find a row the batch is
	-- about to add, run before the batch reads or after it commits.
	PERFORM @extschema@.textfp_track_lock(src, 'SHARE'::pg_catalog.text);
	ktype := (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = src::oid AND a.attname = kcol AND NOT a.attisdropped)::regtype;
	-- as the owner: the caller may have more privileges than the owner,
	-- whose table and store these are
	SELECT q.last_key, q.rows INTO last_key, rows
	FROM @extschema@.textfp_track_exec(config, format('WITH b AS (SELECT t.%1$I AS key, t.%2$I AS at, %3$s AS site, %4$s AS fp, %8$s AS wf FROM ONLY %5$s t
			WHERE $1 IS NULL OR t.%1$I > $1::%6$s ORDER BY t.%1$I LIMIT $2::integer),
		i AS (INSERT INTO %7$s (key, at, site, fp, wf, story) SELECT b.key, b.at, b.site, b.fp, b.wf, b.key FROM b
			ON CONFLICT (key) DO NOTHING)
		SELECT (SELECT b.key FROM b ORDER BY b.key DESC LIMIT 1)::text, (SELECT count(*) FROM b)::integer',
		kcol, tcol,
		CASE WHEN scol IS NULL THEN 'NULL::text' ELSE format('t.%I', scol) END,
		@extschema@.textfp_track_fp_call(meth, pre, opts, format('t.%I', txcol), format('(SELECT c.idf FROM ONLY %s c)', config)),
		src, ktype, st,
		CASE WHEN exc THEN format('@extschema@.winnow(t.%I::pg_catalog.text)', txcol) ELSE 'NULL::bigint[]' END),
		ARRAY[after_key, batch::text]) AS q(last_key text, rows integer);
END
$$;
COMMENT ON FUNCTION textfp_track_fill(regclass, text, integer)
	IS 'internal: fingerprints the next batch of a tracked table''s rows into its store';

-- A registration's state and progress, as monitoring reads them.
CREATE FUNCTION textfp_track_progress(config regclass, state text, phase text, done bigint, total bigint)
RETURNS void
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
BEGIN
	IF state = 'linking' THEN
		-- the links begin once every writer that read the registration as
		-- 'building' (fingerprints only, no links, no locks) has ended
		PERFORM @extschema@.textfp_track_lock(@extschema@.textfp_track_source(config), 'SHARE'::pg_catalog.text);
	END IF;
	-- as the owner: a trigger or rule it put on its registration since the
	-- last check (it may between two batches) runs as the owner, not the
	-- caller (it ran as a superuser calling textfp_rebuild())
	PERFORM FROM @extschema@.textfp_track_exec(config, format('UPDATE ONLY %s SET state = coalesce($1, state), phase = $2,
		done = $3::bigint, total = $4::bigint, updated_at = now(),
		started_at = CASE WHEN phase IS DISTINCT FROM $2 THEN now() ELSE started_at END', config),
		ARRAY[state, phase, done::text, total::text]) AS q(x integer);
	IF state IS NOT NULL THEN
		PERFORM @extschema@.textfp_track_invalidate(config);
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_track_progress(regclass, text, text, bigint, bigint)
	IS 'internal: records a registration''s state and progress';

-- The rows a batch of textfp_track, textfp_rebuild and their procedures
-- (22023 outside 1 .. 1000000; NULL never ended a loop).
CREATE FUNCTION textfp_track_check_batch(batch integer) RETURNS void
	LANGUAGE plpgsql IMMUTABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
BEGIN
	IF batch IS NULL OR batch < 1 OR batch > 1000000 THEN
		RAISE EXCEPTION 'batch must be between 1 and 1000000, not %', batch USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_track_check_batch(integer)
	IS 'internal: checks the rows a batch of textfp_track() or textfp_rebuild() (1 .. 1000000; 22023)';

-- The first lock of each transaction of a call that commits as it goes
-- (textfp_track, textfp_rebuild): the table's, before any of its
-- registration's tables, as writers and textfp_untrack() take them.  A
-- transaction that read the registration, then waited for the table (for
-- a batch's lock, a count, the pass's SHARE) deadlocked (40P01) with a
-- textfp_untrack() that held the table and waited for the registration.
-- Then the catalog as it is once the lock is held: 42P01 when the table,
-- or the registration config (unless NULL), went meanwhile.
CREATE FUNCTION textfp_track_hold(config regclass, tbl regclass) RETURNS void
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	nsp name;
	rel name;
BEGIN
	SELECT n.nspname, c.relname INTO nsp, rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = tbl::oid;
	IF rel IS NULL THEN
		RAISE EXCEPTION 'relation with OID % does not exist', tbl::oid USING ERRCODE = 'undefined_table';
	END IF;
	-- by OID: LOCK TABLE, having waited for a rename, looked the name up
	-- again and locked whatever table had taken it
	PERFORM @extschema@.textfp_track_lock(tbl, 'ACCESS SHARE'::pg_catalog.text);
	IF NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = tbl::oid) THEN
		RAISE EXCEPTION 'table %.% does not exist any more', quote_ident(nsp), quote_ident(rel)
			USING ERRCODE = 'undefined_table';
	END IF;
	IF config IS NOT NULL AND NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = config::oid) THEN
		RAISE EXCEPTION 'table % is no longer tracked by textfp', tbl
			USING ERRCODE = 'undefined_table',
				  DETAIL = 'textfp_untrack() ended its registration while this call waited for the table.',
				  HINT = 'CALL textfp_track(...) registers it anew.';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_track_hold(regclass, regclass)
	IS 'internal: locks a tracked table (ACCESS SHARE) before a transaction of textfp_track() or textfp_rebuild() reads its registration; 42P01 if the table or the registration went meanwhile';

-- Registers a table: see docs/stories.md.  A procedure: it commits as it
-- goes, so CALL it outside a transaction block; writers may go on meanwhile.
CREATE PROCEDURE textfp_track(
	tbl regclass,
	text_column name,
	key_column name,
	time_column name,
	site_column name DEFAULT NULL,
	method text DEFAULT NULL,
	preset text DEFAULT NULL,
	threshold double precision DEFAULT NULL,
	dedup text DEFAULT 'off',
	dedup_scope text DEFAULT 'all',
	options text[] DEFAULT '{}',
	idf @extschema@.idf_model DEFAULT NULL,
	cohesion double precision DEFAULT NULL,
	excerpts boolean DEFAULT false,
	batch integer DEFAULT 1000,
	locks text DEFAULT NULL)
	LANGUAGE plpgsql
	AS $$
DECLARE
	cfg regclass;
BEGIN
	PERFORM @extschema@.textfp_track_check_batch(batch);
	cfg := @extschema@.textfp_track_register(tbl, text_column, key_column, time_column, site_column, method, preset,
		threshold, dedup, dedup_scope, options, idf, cohesion, excerpts, locks);
	-- the arguments are checked: now it must be free to commit
	PERFORM @extschema@.textfp_track_outside_block('textfp_track()'::pg_catalog.text);
	COMMIT;
	PERFORM @extschema@.textfp_track_hold(cfg, tbl);
	CALL @extschema@.textfp_track_fill_all(cfg, batch);
	PERFORM @extschema@.textfp_track_hold(cfg, tbl);
	CALL @extschema@.textfp_track_relink(cfg, batch, true);
END
$$;
COMMENT ON PROCEDURE textfp_track(regclass, name, name, name, name, text, text, double precision, text, text, text[], idf_model, double precision, boolean, integer, text)
	IS 'registers a table: its fingerprints, links and stories kept in <table>_textfp by triggers; fills and links the rows it has, committing as it goes';

-- The long calls' NOTICEs: one each time the rows done pass another tenth
-- of the rows expected (1,000 lines at 1M rows with a NOTICE a batch drowned
-- them); the progress row is written every batch.  The expected count is an
-- estimate, as low as 0 for a table analyzed before a load: past it, one
-- each time the rows done double (at most 64 more), not one a batch.  The
-- bit length of done / total counts the doublings exactly; numeric keeps
-- any pair of bigints in range.
CREATE FUNCTION textfp_track_tenth(done bigint, total bigint) RETURNS integer
	LANGUAGE sql IMMUTABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
	SELECT CASE WHEN done >= total
		THEN 9 + length(ltrim(greatest(done / greatest(total, 1), 1)::bit(64)::text, '0'))
		ELSE div(greatest(done, 0)::numeric * 10, greatest(total, 1)::numeric)::integer END
$$;
COMMENT ON FUNCTION textfp_track_tenth(bigint, bigint)
	IS 'internal: how many tenths of the expected rows a long call has done, when its progress NOTICEs are due';

-- Fingerprints every row of the table without a store row, committing each
-- batch (the rows the triggers wrote meanwhile are left as they are).
-- Its caller holds the table (textfp_track_hold), as it does after each
-- commit.
CREATE PROCEDURE textfp_track_fill_all(config regclass, batch integer)
	LANGUAGE plpgsql
	AS $$
DECLARE
	src regclass := @extschema@.textfp_track_source(config);
	total bigint := @extschema@.textfp_track_rows(src);
	done bigint := 0::pg_catalog.int8;
	told integer := 0::pg_catalog.int4;
	tenth integer;
	k text;
	n integer;
BEGIN
	-- NULL: a batch of NULL rows never ended the loop
	PERFORM @extschema@.textfp_track_check_batch(batch);
	PERFORM @extschema@.textfp_track_progress(config, 'building'::pg_catalog.text, 'fingerprints'::pg_catalog.text,
		0::pg_catalog.int8, total);
	COMMIT;
	LOOP
		PERFORM @extschema@.textfp_track_hold(config, src);
		SELECT f.last_key, f.rows INTO k, n FROM @extschema@.textfp_track_fill(config, k, batch) f;
		done := done OPERATOR(pg_catalog.+) n;
		PERFORM @extschema@.textfp_track_progress(config, NULL::pg_catalog.text, 'fingerprints'::pg_catalog.text, done, total);
		COMMIT;
		EXIT WHEN n OPERATOR(pg_catalog.<) batch;
		tenth := @extschema@.textfp_track_tenth(done, total);
		IF tenth OPERATOR(pg_catalog.>) told THEN
			told := tenth;
			RAISE NOTICE 'textfp: % of about % rows fingerprinted', done, total;
		END IF;
	END LOOP;
	RAISE NOTICE 'textfp: % rows fingerprinted; linking them in time order', done;
END
$$;
COMMENT ON PROCEDURE textfp_track_fill_all(regclass, integer)
	IS 'internal: fingerprints every row of a tracked table that has no store row, committing each batch';

-- Relinks every row in (time, key) order; then the registration is ready.
-- fast: at once, in memory, in one transaction that keeps writers out
-- (textfp_track_link_all), when it applies; else (or when it does not
-- apply) batch by batch, committing each, writers going on.  Its caller
-- holds the table (textfp_track_hold), as it does after each commit.
CREATE PROCEDURE textfp_track_relink(config regclass, batch integer, fast boolean)
	LANGUAGE plpgsql
	AS $$
DECLARE
	src regclass;
	total bigint;
	done bigint := 0::pg_catalog.int8;
	changed bigint := 0::pg_catalog.int8;
	told integer := 0::pg_catalog.int4;
	tenth integer;
	k text;
	a text;
	n integer;
	c integer;
BEGIN
	-- fast NULL ran neither pass and said the registration was ready
	IF fast IS NULL THEN
		RAISE EXCEPTION 'fast must be true or false, not NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	PERFORM @extschema@.textfp_track_check_batch(batch);
	src := @extschema@.textfp_track_source(config);
	total := @extschema@.textfp_track_rows(src);
	PERFORM @extschema@.textfp_track_progress(config, 'linking'::pg_catalog.text, 'links'::pg_catalog.text, 0::pg_catalog.int8, total);
	COMMIT;
	IF fast THEN
		PERFORM @extschema@.textfp_track_hold(config, src);
		SELECT l.rows, l.changed INTO done, changed FROM @extschema@.textfp_track_link_all(config) l;
		IF done IS NULL THEN
			-- it did not apply (its NOTICE said why): let writers in again
			done := 0::pg_catalog.int8;
			changed := 0::pg_catalog.int8;
			fast := false;
			COMMIT;
		END IF;
	END IF;
	WHILE NOT fast LOOP
		PERFORM @extschema@.textfp_track_hold(config, src);
		SELECT l.last_at, l.last_key, l.rows, l.changed INTO a, k, n, c FROM @extschema@.textfp_track_link(config, a, k, batch) l;
		done := done OPERATOR(pg_catalog.+) n;
		changed := changed OPERATOR(pg_catalog.+) c;
		PERFORM @extschema@.textfp_track_progress(config, NULL::pg_catalog.text, 'links'::pg_catalog.text, done, total);
		COMMIT;
		EXIT WHEN n OPERATOR(pg_catalog.=) 0::pg_catalog.int4;
		tenth := @extschema@.textfp_track_tenth(done, total);
		IF tenth OPERATOR(pg_catalog.>) told THEN
			told := tenth;
			RAISE NOTICE 'textfp: % of about % rows linked', done, total;
		END IF;
	END LOOP;
	-- the story summary from the store, whole (after the in-memory pass, with
	-- the links it counts: the pass writes links without their changes)
	PERFORM @extschema@.textfp_track_hold(config, src);
	PERFORM @extschema@.textfp_track_fold(config, true);
	PERFORM @extschema@.textfp_track_progress(config, 'ready'::pg_catalog.text, NULL::pg_catalog.text, done, total);
	COMMIT;
	BEGIN
		PERFORM @extschema@.textfp_track_summary(config, changed);
	EXCEPTION WHEN undefined_table THEN
		-- a textfp_untrack() that waited for the links' commit has ended the
		-- registration since: the links were done, there is nothing to count
		IF EXISTS (SELECT FROM pg_catalog.pg_trigger g WHERE g.tgrelid OPERATOR(pg_catalog.=) src::pg_catalog.oid
				   AND g.tgname OPERATOR(pg_catalog.=) 'textfp_track'::pg_catalog.name) THEN
			RAISE;
		END IF;
		RAISE NOTICE 'textfp: the registration of % was ended (textfp_untrack) once its links were committed', src;
	END;
END
$$;
COMMENT ON PROCEDURE textfp_track_relink(regclass, integer, boolean)
	IS 'internal: relinks every row of a tracked table in time order: at once in memory (fast, within maintenance_work_mem), else committing each batch';

-- The table a configuration table registers.
CREATE FUNCTION textfp_track_source(config regclass) RETURNS regclass
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	src regclass;
BEGIN
	SELECT q.source_table INTO STRICT src
	FROM @extschema@.textfp_track_exec(config, format('SELECT c.source_table FROM ONLY %s c', config), '{}'::text[])
		AS q(source_table regclass);
	RETURN src;
END
$$;
COMMENT ON FUNCTION textfp_track_source(regclass) IS 'internal: the table a registration''s configuration table registers';

-- Rows of a table, for a progress total: the catalog's estimate, or a count
-- when the table was never analyzed.
CREATE FUNCTION textfp_track_rows(rel regclass) RETURNS bigint
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	n bigint := (SELECT c.reltuples::bigint FROM pg_class c WHERE c.oid = rel::oid);
BEGIN
	IF n IS NULL OR n < 0 THEN
		SELECT q.n INTO n FROM @extschema@.textfp_track_exec(rel, format('SELECT count(*) FROM ONLY %s', rel), '{}'::text[]) AS q(n bigint);
	END IF;
	RETURN n;
END
$$;
COMMENT ON FUNCTION textfp_track_rows(regclass) IS 'internal: a table''s rows for a progress total (the catalog''s estimate, else a count)';

-- The registration of a table, for its owner: the configuration table its
-- textfp_track trigger names, checked to register that very table (a role
-- with TRIGGER on the table may have named another table's).
CREATE FUNCTION textfp_track_own_config(tbl regclass) RETURNS regclass
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	cfg regclass;
	src regclass;
BEGIN
	PERFORM @extschema@.textfp_check_owner(tbl);
	SELECT r.config INTO cfg FROM @extschema@.textfp_registration(tbl) r;
	SELECT q.source_table INTO src
	FROM @extschema@.textfp_track_exec(cfg, format('SELECT c.source_table FROM ONLY %s c', cfg), '{}'::text[]) AS q(source_table regclass);
	IF src IS DISTINCT FROM tbl THEN
		RAISE EXCEPTION 'textfp registration % is not that of table %', cfg, tbl
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('It registers %s; the trigger textfp_track on %s names it.', src, tbl),
				  HINT = 'Drop that trigger: it was not made by textfp_track().';
	END IF;
	RETURN cfg;
END
$$;
COMMENT ON FUNCTION textfp_track_own_config(regclass)
	IS 'internal: the configuration table of a table''s own registration, for its owner (textfp_rebuild, textfp_untrack)';

-- online false: at once in memory when it applies (the store within
-- maintenance_work_mem), writers waiting; true: in batches, writers going on
-- (docs/stories.md).
CREATE PROCEDURE textfp_rebuild(tbl regclass, online boolean DEFAULT false, batch integer DEFAULT 1000)
	LANGUAGE plpgsql
	AS $$
DECLARE
	cfg regclass;
BEGIN
	PERFORM @extschema@.textfp_check_owner(tbl);
	PERFORM @extschema@.textfp_track_hold(NULL::pg_catalog.regclass, tbl);
	cfg := @extschema@.textfp_track_own_config(tbl);
	IF online IS NULL THEN
		RAISE EXCEPTION 'online must be true or false, not NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	PERFORM @extschema@.textfp_track_check_batch(batch);
	PERFORM @extschema@.textfp_track_outside_block('textfp_rebuild()'::pg_catalog.text);
	-- a registration whose textfp_track() stopped while filling: fill the rest first
	IF @extschema@.textfp_track_state(cfg) OPERATOR(pg_catalog.=) 'building'::pg_catalog.text THEN
		CALL @extschema@.textfp_track_fill_all(cfg, batch);
		PERFORM @extschema@.textfp_track_hold(cfg, tbl);
	END IF;
	CALL @extschema@.textfp_track_relink(cfg, batch, NOT online);
END
$$;
COMMENT ON PROCEDURE textfp_rebuild(regclass, boolean, integer)
	IS 'relinks every row of a tracked table in time order (its stories as a rebuild makes them): at once in memory, writers waiting, unless online or larger than maintenance_work_mem; else committing each batch, writers going on; finishes a registration whose textfp_track() stopped';

-- A registration's state: building, linking or ready.
CREATE FUNCTION textfp_track_state(config regclass) RETURNS text
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st text;
BEGIN
	SELECT q.state INTO STRICT st
	FROM @extschema@.textfp_track_exec(config, format('SELECT c.state FROM ONLY %s c', config), '{}'::text[]) AS q(state text);
	RETURN st;
END
$$;
COMMENT ON FUNCTION textfp_track_state(regclass) IS 'internal: a registration''s state (building, linking or ready)';

CREATE FUNCTION textfp_track_fold(config regclass, whole boolean) RETURNS bigint
	AS 'MODULE_PATHNAME', 'textfp_track_fold' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION textfp_track_fold(regclass, boolean)
	IS 'internal: folds a registration''s changed stories into its story summary (whole: recomputes it from the store); returns the stories written';

CREATE FUNCTION textfp_track_outside_block(what text) RETURNS void
	AS 'MODULE_PATHNAME', 'textfp_track_outside_block' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION textfp_track_outside_block(text)
	IS 'internal: refuses (25001) to run a committing procedure inside a transaction block';

-- The NOTICE after linking: stories, and a WARNING when one story holds a
-- large share of the table.
CREATE FUNCTION textfp_track_summary(config regclass, changed bigint) RETURNS void
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	src regclass := @extschema@.textfp_track_source(config);
	st regclass := @extschema@.textfp_track_check(config, src);
	n bigint;
	stories bigint;
	big bigint;
	bigid text;
BEGIN
	SELECT q.* INTO n, stories
	FROM @extschema@.textfp_track_exec(config, format('SELECT count(*), count(DISTINCT story) FROM %s', st), '{}'::text[])
		AS q(n bigint, stories bigint);
	SELECT q.* INTO bigid, big
	FROM @extschema@.textfp_track_exec(config, format('SELECT s.story::text, count(*) FROM %s s GROUP BY s.story ORDER BY 2 DESC, 1 LIMIT 1', st), '{}'::text[])
		AS q(story text, n bigint);
	RAISE NOTICE 'textfp: % rows of % in % stories; % links changed', n, src, stories, changed;
	IF big > 100 AND big > 0.01 * n THEN
		RAISE WARNING 'textfp: story % of % holds % of % rows (% %%)', bigid, src, big, n, round(100.0 * big / n, 1)
			USING HINT = 'A story this large is usually a template or boilerplate shared by unrelated texts: a stricter threshold, a cohesion bound, or stopwords for the boilerplate keep stories apart (docs/stories.md).';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_track_summary(regclass, bigint)
	IS 'internal: reports a tracked table''s stories after linking, warning when one holds more than 1% of the rows';

CREATE FUNCTION textfp_untrack(tbl regclass) RETURNS void
	LANGUAGE plpgsql VOLATILE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	cfg regclass;
	st regclass;
	suffix text;
	side regclass;
BEGIN
	PERFORM @extschema@.textfp_check_owner(tbl);
	-- not tracked (42704) before it makes writers wait, from the catalogs
	-- alone; its tables gone (42P01): its triggers go below
	BEGIN
		PERFORM @extschema@.textfp_registration(tbl);
	EXCEPTION WHEN undefined_table THEN
		NULL;
	END;
	-- the table first (DROP TRIGGER's lock), then the registration, as
	-- writers lock them: read first, the registration was held while this
	-- waited for the table, and a second textfp_untrack() that held the
	-- table waited for it (40P01)
	PERFORM @extschema@.textfp_track_lock(tbl, 'ACCESS EXCLUSIVE'::pg_catalog.text);
	BEGIN
		cfg := @extschema@.textfp_track_own_config(tbl);
		st := (SELECT r.store FROM @extschema@.textfp_registration(tbl) r);
	EXCEPTION WHEN undefined_table THEN
		-- its tables are gone: the triggers go, which fail on every write
		cfg := NULL;
	END;
	EXECUTE format('DROP TRIGGER textfp_track ON %s', tbl);
	IF cfg IS NOT NULL THEN
		-- the registration and the store next, before the summaries: in the
		-- order a rebuild's last step (textfp_track_summary) reads them, so
		-- that one of the two waits for the other, never each for the other
		-- (dropping the summaries first, this waited for the store a summary
		-- read, which waited for a summary dropped: 40P01)
		PERFORM @extschema@.textfp_track_lock(cfg, 'ACCESS EXCLUSIVE'::pg_catalog.text);
		PERFORM @extschema@.textfp_track_lock(st, 'ACCESS EXCLUSIVE'::pg_catalog.text);
	END IF;
	IF EXISTS (SELECT FROM pg_trigger g WHERE g.tgrelid = tbl::oid AND g.tgname = 'textfp_track_truncate') THEN
		EXECUTE format('DROP TRIGGER textfp_track_truncate ON %s', tbl);
	END IF;
	IF EXISTS (SELECT FROM pg_trigger g WHERE g.tgrelid = tbl::oid AND g.tgname = 'textfp_track_dedup') THEN
		EXECUTE format('DROP TRIGGER textfp_track_dedup ON %s', tbl);
	END IF;
	IF cfg IS NOT NULL THEN
		-- the story summary and its changes, unless they are gone already.
		-- Found by name beside the store, whose name and schema the owner
		-- chooses (its trigger names the store): only the owner's own plain
		-- tables, never another role's table of that name that a caller
		-- with more privileges (a superuser) could drop.
		FOREACH suffix IN ARRAY ARRAY['_stories', '_changes', '_reprints', '_reprint_changes'] LOOP
			BEGIN
				side := @extschema@.textfp_track_side_table(st, suffix);
			EXCEPTION WHEN undefined_table THEN
				CONTINUE;
			END;
			PERFORM @extschema@.textfp_check_owned_table(side, (SELECT c.relowner FROM pg_class c WHERE c.oid = tbl::oid),
				NULL::text, CASE suffix WHEN '_stories' THEN 'story summary' WHEN '_changes' THEN 'story changes'
								  WHEN '_reprints' THEN 'reprint summary' ELSE 'reprint changes' END);
			EXECUTE format('DROP TABLE %s', side);
		END LOOP;
		EXECUTE format('DROP TABLE %s, %s', st, cfg);
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_untrack(regclass)
	IS 'ends a table''s registration: drops its triggers, its store, its story and reprint summaries and their changes, and its configuration table';

-- Changes the settings of a registration that leave its fingerprints, links
-- and stories as they are: SimHash's lock keys (locks) and the dedup mode and
-- scope, which say only what a later write takes and lets in (docs/stories.md,
-- "Changing a registration").  NULL leaves a setting as it is.  The others
-- are taken at their current values only, and refused (0A000) otherwise:
-- every fingerprint, link and store row was made with them, so a change is
-- textfp_untrack() and textfp_track() again.
--
-- Writers compute their lock keys and their dedup decision from the
-- registration cached in their backend, read again after an invalidation
-- (track_config.c).  A writer that took 'pairs' keys and one that takes
-- 'blocks' keys share no key, so near rows of the two would not wait for each
-- other and could both go in.  The table's SHARE ROW EXCLUSIVE lock waits for
-- every writer in flight (a writer holds ROW EXCLUSIVE until its transaction
-- ends) and keeps new ones out until the change commits; a new writer then
-- takes its lock, which takes in the invalidation, and reads the new
-- settings.  Two changes take turns on the same lock.
CREATE FUNCTION textfp_track_set(tbl regclass, locks text DEFAULT NULL, dedup text DEFAULT NULL,
	dedup_scope text DEFAULT NULL, method text DEFAULT NULL, preset text DEFAULT NULL,
	threshold double precision DEFAULT NULL, options text[] DEFAULT NULL, idf @extschema@.idf_model DEFAULT NULL,
	cohesion double precision DEFAULT NULL, excerpts boolean DEFAULT NULL, site_column name DEFAULT NULL)
RETURNS void
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	cfg regclass;
	c record;
	v record;
	new_locks text;
	new_dedup text;
	new_scope text;
	targs bytea;
	a text[];
	g record;
	has_dedup boolean;
BEGIN
	IF tbl IS NULL THEN
		RAISE EXCEPTION 'table must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the owner only (42501), and a tracked table (42704), before it makes
	-- writers wait: from the catalogs alone, the registration table left
	-- unlocked (held while the lock below waits, it made a deadlock with
	-- textfp_untrack(), which locks the table, then drops its registration)
	PERFORM @extschema@.textfp_check_owner(tbl);
	PERFORM @extschema@.textfp_registration(tbl);
	PERFORM @extschema@.textfp_track_lock(tbl, 'SHARE ROW EXCLUSIVE'::pg_catalog.text);
	-- the table's own registration and its settings, read once the lock is
	-- held: a change or an untrack that committed meanwhile is seen
	cfg := @extschema@.textfp_track_own_config(tbl);
	SELECT q.* INTO STRICT c
	FROM @extschema@.textfp_track_exec(cfg, format('SELECT c.method, c.preset, c.options, c.idf, c.threshold, c.cohesion,
		c.excerpts, c.site_column, c.locks, c.dedup, c.dedup_scope FROM ONLY %s c', cfg), '{}'::text[])
		AS q(m text, p text, o text[], i @extschema@.idf_model, th double precision, co double precision, ex boolean,
			 sc name, lk text, dd text, ds text);
	-- the settings the store was made with: given, they must be the current ones
	FOR v IN
		SELECT x.setting, x.was, x.why FROM (VALUES
			(1, 'method', method IS NOT NULL AND method IS DISTINCT FROM c.m, c.m, 'every fingerprint of its store was made by it'),
			(2, 'preset', preset IS NOT NULL AND preset IS DISTINCT FROM c.p, c.p, 'every fingerprint of its store was made with it'),
			(3, 'options', options IS NOT NULL AND options IS DISTINCT FROM c.o, c.o::text,
			 'every fingerprint of its store was made with them'),
			(4, 'idf', idf IS NOT NULL AND @extschema@.idf_model_digest(idf) IS DISTINCT FROM @extschema@.idf_model_digest(c.i),
			 'of digest ' || @extschema@.idf_model_digest(c.i), 'every fingerprint of its store was weighed by it'),
			(5, 'threshold', threshold IS NOT NULL AND threshold IS DISTINCT FROM c.th, c.th::text,
			 'every link and story was made with it, and so were the lock keys and a MinHash store''s bands'),
			(6, 'cohesion', cohesion IS NOT NULL AND cohesion IS DISTINCT FROM c.co, c.co::text, 'every link and story was made with it'),
			(7, 'excerpts', excerpts IS NOT NULL AND excerpts IS DISTINCT FROM c.ex, c.ex::text,
			 'its store keeps the winnowed fingerprints and their index by it'),
			(8, 'site_column', site_column IS NOT NULL AND site_column IS DISTINCT FROM c.sc, quote_ident(c.sc),
			 'its store and reprint summary keep the sites of that column'))
			AS x(n, setting, differs, was, why)
		WHERE x.differs
		ORDER BY x.n LIMIT 1
	LOOP
		RAISE EXCEPTION 'textfp_track_set() cannot change the % of a registration', v.setting
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = format('Table %s is tracked with %s %s: %s.', tbl, v.setting, coalesce(v.was, 'NULL'), v.why),
				  HINT = format('textfp_untrack(%L) and CALL textfp_track(...) with the new %s register it anew (a full rebuild).',
								tbl::text, v.setting);
	END LOOP;
	new_locks := coalesce(locks, c.lk);
	new_dedup := coalesce(dedup, c.dd);
	new_scope := coalesce(dedup_scope, c.ds);
	-- textfp_track's checks and SQLSTATEs; locks given to a MinHash registration is 22023
	IF locks IS NOT NULL THEN
		PERFORM @extschema@.textfp_track_check_locks(c.m, c.th, locks);
	END IF;
	PERFORM @extschema@.textfp_track_check_dedup(new_dedup, new_scope, c.sc);
	-- a trigger of the dedup trigger's name that is not the one textfp_track
	-- makes, kept as it is, would leave near duplicates let in under a
	-- registration that says it rejects them: a role with TRIGGER on the
	-- table may make one that never fires (WHEN false, UPDATE only, another
	-- function) or names another registration.  The one textfp_track makes:
	-- BEFORE INSERT OR UPDATE FOR EACH ROW (tgtype 23), enabled, on every
	-- column, of textfp_track_dedup() with the arguments of the textfp_track
	-- trigger (the registration textfp_registration() checked).
	targs := (SELECT k.tgargs FROM pg_trigger k WHERE k.tgrelid = tbl::oid AND k.tgname = 'textfp_track');
	SELECT d.tgfoid, d.tgtype, d.tgenabled, d.tgqual, d.tgattr, d.tgnargs, d.tgargs, d.tgconstraint, d.tgparentid,
		   d.tgoldtable, d.tgnewtable
	INTO g FROM pg_trigger d WHERE d.tgrelid = tbl::oid AND d.tgname = 'textfp_track_dedup';
	has_dedup := FOUND;
	IF new_dedup <> 'off' AND has_dedup AND NOT coalesce(g.tgfoid = '@extschema@.textfp_track_dedup()'::regprocedure::oid
		AND g.tgtype = 23 AND g.tgenabled = 'O' AND g.tgqual IS NULL AND cardinality(g.tgattr::smallint[]) = 0
		AND g.tgnargs = 2 AND g.tgargs = targs AND g.tgconstraint = 0 AND g.tgparentid = 0
		AND g.tgoldtable IS NULL AND g.tgnewtable IS NULL, false) THEN
		RAISE EXCEPTION 'trigger "textfp_track_dedup" on table % is not textfp''s', tbl
			USING ERRCODE = 'duplicate_object',
				  DETAIL = 'textfp_track_set() keeps near duplicates out through the trigger textfp_track() makes under that name; this one is not it, and would not.',
				  HINT = 'Drop that trigger (or ask the table''s owner to), then call textfp_track_set() again.';
	END IF;
	-- nothing to change: the settings are those given, the trigger there or not as they say
	IF (new_locks, new_dedup, new_scope) IS NOT DISTINCT FROM (c.lk, c.dd, c.ds) AND has_dedup = (new_dedup <> 'off') THEN
		RETURN;
	END IF;
	-- as the owner, as textfp_track_progress writes it
	PERFORM FROM @extschema@.textfp_track_exec(cfg, format('UPDATE ONLY %s SET locks = $1, dedup = $2, dedup_scope = $3', cfg),
		ARRAY[new_locks, new_dedup, new_scope]) AS q(x integer);
	-- the dedup trigger, as textfp_track makes it: there while dedup is not
	-- 'off', with the textfp_track trigger's arguments
	IF new_dedup <> 'off' AND NOT has_dedup THEN
		a := @extschema@.textfp_track_trigger_args(targs);
		EXECUTE format('CREATE TRIGGER textfp_track_dedup BEFORE INSERT OR UPDATE ON %s FOR EACH ROW
			EXECUTE FUNCTION @extschema@.textfp_track_dedup(%L, %L)', tbl, a[1], a[2]);
	ELSIF new_dedup = 'off' AND has_dedup THEN
		EXECUTE format('DROP TRIGGER textfp_track_dedup ON %s', tbl);
	END IF;
	-- every session reads the registration again at its next write
	PERFORM @extschema@.textfp_track_invalidate(cfg);
END
$$;
COMMENT ON FUNCTION textfp_track_set(regclass, text, text, text, text, text, double precision, text[], idf_model, double precision, boolean, name)
	IS 'changes a tracked table''s lock keys (locks) and dedup mode and scope, NULL leaving one as it is, once the writers in flight have ended; refuses (0A000) a change of the settings its store was made with';

-- ----- what the store says -----

CREATE FUNCTION textfp_stories(tbl regclass) RETURNS TABLE (key text, story_id text)
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := (SELECT r.store FROM @extschema@.textfp_registration(tbl) r);
BEGIN
	-- as the store's owner, for a caller with SELECT on it (track_exec.c):
	-- the owner may swap the store's name for a view's after the check
	RETURN QUERY SELECT * FROM @extschema@.textfp_track_report(st, 'stories'::text, '{}'::text[]) AS r(k text, s text);
END
$$;
COMMENT ON FUNCTION textfp_stories(regclass)
	IS 'every row of a tracked table with the story it belongs to (the key of its original; its own key for an original), as text';

-- Refuses a negative max_rows (2201W, as LIMIT does).
CREATE FUNCTION textfp_check_max_rows(max_rows integer) RETURNS void
	LANGUAGE plpgsql IMMUTABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
BEGIN
	IF max_rows < 0 THEN
		RAISE EXCEPTION 'max_rows must not be negative, not %', max_rows
			USING ERRCODE = 'invalid_row_count_in_limit_clause';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_check_max_rows(integer)
	IS 'internal: refuses a negative max_rows of a report';

-- The stories of a tracked table, largest first: one row per story of at
-- least min_size rows (whose original is at or after since, if given); the
-- first max_rows of them (all with NULL), read from the summary's index in
-- that order, where a LIMIT would come after every row was made.
CREATE FUNCTION textfp_story_report(tbl regclass, since timestamptz DEFAULT NULL, min_size integer DEFAULT 2,
	max_rows integer DEFAULT NULL)
RETURNS TABLE (story_id text, size bigint, sites bigint, original_site text, first_at timestamptz, last_at timestamptz)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := (SELECT r.store FROM @extschema@.textfp_registration(tbl) r);
BEGIN
	-- as the store's owner, for a caller with SELECT on it (textfp_stories)
	PERFORM @extschema@.textfp_check_max_rows(max_rows);
	RETURN QUERY SELECT * FROM @extschema@.textfp_track_report(st, 'story_report'::text,
		ARRAY[since::text, coalesce(min_size, 1)::text, max_rows::text])
		AS r(s text, n bigint, ns bigint, os text, f timestamptz, l timestamptz);
END
$$;
COMMENT ON FUNCTION textfp_story_report(regclass, timestamptz, integer, integer)
	IS 'the stories of a tracked table, largest first (the first max_rows): original (story_id), size, sites, the original''s site, first and last seen';

-- Stories that began at or after since, earliest first (the first max_rows).
CREATE FUNCTION textfp_new_stories(tbl regclass, since timestamptz, max_rows integer DEFAULT NULL)
RETURNS TABLE (story_id text, first_at timestamptz, original_site text, size bigint, sites bigint)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := (SELECT r.store FROM @extschema@.textfp_registration(tbl) r);
BEGIN
	IF since IS NULL THEN
		RAISE EXCEPTION 'since must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- as the store's owner, for a caller with SELECT on it (textfp_stories)
	PERFORM @extschema@.textfp_check_max_rows(max_rows);
	RETURN QUERY SELECT * FROM @extschema@.textfp_track_report(st, 'new_stories'::text, ARRAY[since::text, max_rows::text])
		AS r(s text, f timestamptz, os text, n bigint, ns bigint);
END
$$;
COMMENT ON FUNCTION textfp_new_stories(regclass, timestamptz, integer)
	IS 'the stories of a tracked table whose original is at or after since (the first max_rows), with their size so far';

-- Who reprints whom: links between rows of different sites (or all links
-- with same_site), by the source's site and the copy's site, most first (the
-- first max_rows).
CREATE FUNCTION textfp_reprints(tbl regclass, since timestamptz DEFAULT NULL, same_site boolean DEFAULT false,
	max_rows integer DEFAULT NULL)
RETURNS TABLE (source_site text, reprint_site text, reprints bigint, stories bigint, median_delay interval)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := (SELECT r.store FROM @extschema@.textfp_registration(tbl) r);
BEGIN
	-- as the store's owner, for a caller with SELECT on it (textfp_stories)
	PERFORM @extschema@.textfp_check_max_rows(max_rows);
	RETURN QUERY SELECT * FROM @extschema@.textfp_track_report(st, 'reprints'::text,
		ARRAY[since::text, coalesce(same_site, false)::text, max_rows::text])
		AS r(os text, rs text, n bigint, ns bigint, d interval);
END
$$;
COMMENT ON FUNCTION textfp_reprints(regclass, timestamptz, boolean, integer)
	IS 'who reprints whom in a tracked table: links by the source''s site and the copy''s site, with their count, stories and median delay';

-- A story's members in time order, each with its link.
CREATE FUNCTION textfp_story_timeline(tbl regclass, story_id text)
RETURNS TABLE (key text, at timestamptz, site text, source text, score double precision, delay interval)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := (SELECT r.store FROM @extschema@.textfp_registration(tbl) r);
BEGIN
	-- as the store's owner, for a caller with SELECT on it (textfp_stories)
	RETURN QUERY SELECT * FROM @extschema@.textfp_track_report(st, 'timeline'::text, ARRAY[story_id])
		AS r(k text, a timestamptz, s text, src text, sc double precision, d interval);
END
$$;
COMMENT ON FUNCTION textfp_story_timeline(regclass, text)
	IS 'the members of one story of a tracked table in time order, each with its source, score and delay after the original';

-- The rows of a tracked table registered with excerpts => true that share a
-- passage with one row (docs/excerpts.md): 'contains', rows a share
-- min_containment or more of which is in the row (it quotes them, or they
-- are excerpts of it), and 'contained_in', rows that hold that share of the
-- row; through the store's winnowed fingerprints and their index, exact,
-- with the fingerprints in ignore left out.  Which came first is the time's.
CREATE FUNCTION textfp_excerpts(tbl regclass, key text, min_containment double precision DEFAULT 0.2,
	ignore bigint[] DEFAULT '{}')
RETURNS TABLE (other_key text, at timestamptz, site text, direction text, containment double precision)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	r record;
BEGIN
	SELECT * INTO r FROM @extschema@.textfp_registration(tbl);
	-- registered with excerpts: the store's wf has its index (readers of the
	-- reports need not read the registration)
	IF NOT EXISTS (SELECT FROM pg_index i JOIN pg_opclass o ON o.oid = i.indclass[0]
				   JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
				   WHERE i.indrelid = r.store::oid AND a.attname = 'wf' AND o.opcname = 'gin_winnow_ops'
					 AND o.opcnamespace = '@extschema@'::regnamespace::oid) THEN
		RAISE EXCEPTION 'table % is tracked without excerpts', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'textfp_untrack() it and CALL textfp_track(..., excerpts => true).';
	END IF;
	IF min_containment IS NULL OR ignore IS NULL THEN
		RAISE EXCEPTION 'min_containment and ignore must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	RETURN QUERY SELECT * FROM @extschema@.textfp_track_report(r.store, 'excerpts'::text,
		ARRAY[key, min_containment::text, ignore::text])
		AS q(other_key text, at timestamptz, site text, direction text, containment double precision);
END
$$;
COMMENT ON FUNCTION textfp_excerpts(regclass, text, double precision, bigint[])
	IS 'rows of a tracked table (registered with excerpts) that one row quotes or that quote it, with the share quoted';

-- The tracked tables the caller may see (SELECT on the table), with every
-- setting of their registrations, their state and progress: those only to a
-- caller that may read the registration (SELECT on T_textfp_config), NULL
-- otherwise.
CREATE FUNCTION textfp_tracked()
RETURNS TABLE (tbl regclass, store regclass, text_column name, key_column name, time_column name, site_column name,
			   method text, preset text, options text[], idf_digest text, threshold double precision,
			   cohesion double precision, lsh_bands integer, lsh_rows integer, lsh_min_bands integer, excerpts boolean,
			   dedup text, dedup_scope text, locks text, state text, phase text, done bigint, total bigint,
			   registered_at timestamptz, updated_at timestamptz)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	t record;
	r record;
	q record;
BEGIN
	FOR t IN
		SELECT g.tgrelid::regclass AS tbl FROM pg_trigger g
		WHERE g.tgname = 'textfp_track' AND g.tgfoid = '@extschema@.textfp_track_trigger()'::regprocedure::oid
		  AND has_table_privilege(g.tgrelid, 'SELECT')
		ORDER BY 1
	LOOP
		-- a registration that fails its checks (its tables gone or not
		-- textfp's, a trigger made by hand with arguments that are no
		-- relation's name) is listed without its store and settings, not an
		-- error: any role may put a textfp_track trigger on a table of its
		-- own that others may read, and made textfp_tracked() fail for all
		-- of them
		BEGIN
			SELECT * INTO r FROM @extschema@.textfp_registration(t.tbl);
		EXCEPTION WHEN undefined_object OR undefined_table OR duplicate_table OR invalid_name OR syntax_error
					   OR feature_not_supported OR character_not_in_repertoire THEN
			SELECT NULL::regclass AS config, NULL::regclass AS store INTO r;
		END;
		tbl := t.tbl;
		store := r.store;
		text_column := NULL; key_column := NULL; time_column := NULL; site_column := NULL; method := NULL; preset := NULL;
		options := NULL; idf_digest := NULL; threshold := NULL; cohesion := NULL; lsh_bands := NULL; lsh_rows := NULL;
		lsh_min_bands := NULL; excerpts := NULL; dedup := NULL; dedup_scope := NULL; locks := NULL; state := NULL;
		phase := NULL; done := NULL; total := NULL; registered_at := NULL; updated_at := NULL;
		IF r.config IS NOT NULL AND has_table_privilege(r.config, 'SELECT') THEN
			-- as the registration's owner (textfp_stories)
			SELECT x.* INTO q
			FROM @extschema@.textfp_track_report(r.config, 'registration'::text, '{}'::text[])
				AS x(txc name, kc name, tc name, sc name, m text, p text, o text[], i text, th double precision,
					 co double precision, lb integer, lr integer, lm integer, ex boolean, dd text, ds text, lk text,
					 st text, ph text, d bigint, n bigint, ra timestamptz, u timestamptz, src regclass);
			-- a trigger not made by textfp_track() may name another table's registration
			CONTINUE WHEN q.src IS DISTINCT FROM t.tbl;
			text_column := q.txc; key_column := q.kc; time_column := q.tc; site_column := q.sc; method := q.m;
			preset := q.p; options := q.o; idf_digest := q.i; threshold := q.th; cohesion := q.co; lsh_bands := q.lb;
			lsh_rows := q.lr; lsh_min_bands := q.lm; excerpts := q.ex; dedup := q.dd; dedup_scope := q.ds;
			locks := q.lk; state := q.st; phase := q.ph; done := q.d; total := q.n; registered_at := q.ra;
			updated_at := q.u;
		END IF;
		RETURN NEXT;
	END LOOP;
END
$$;
COMMENT ON FUNCTION textfp_tracked()
	IS 'the tracked tables the caller may read, with every setting of their registrations (columns, fingerprint, threshold, cohesion, banding, excerpts, dedup, lock keys), state and progress (from the registration, when the caller may read it)';

-- textfp_stories(tbl, key type): the same, keys of the table's own type.
CREATE FUNCTION textfp_stories(tbl regclass, key_type anyelement)
RETURNS TABLE (key anyelement, story_id anyelement)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := (SELECT r.store FROM @extschema@.textfp_registration(tbl) r);
	ktype regtype := (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = st::oid AND a.attname = 'key')::regtype;
BEGIN
	IF pg_typeof(key_type) <> ktype THEN
		RAISE EXCEPTION 'the keys of % are %, not %', tbl, ktype, pg_typeof(key_type)
			USING ERRCODE = 'datatype_mismatch', HINT = format('textfp_stories(%L, NULL::%s)', tbl, ktype);
	END IF;
	-- as the store's owner, for a caller with SELECT on it (textfp_stories(regclass))
	RETURN QUERY EXECUTE format('SELECT * FROM @extschema@.textfp_track_report($1, ''stories_typed''::text, ''{}''::text[])
		AS r(k %s, s %s)', ktype, ktype) USING st;
END
$$;
COMMENT ON FUNCTION textfp_stories(regclass, anyelement)
	IS 'every row of a tracked table with the story it belongs to, as the key''s own type: textfp_stories(''t'', NULL::bigint)';

-- ---------------------------------------------------------------------------
-- Set signatures (1.1): sorted, distinct bigint[] values compared by how many
-- two texts share.  A GIN index with the stock array_ops class serves &&; the
-- matching rule is `a && b AND signature_overlap(a, b) >= m`.  Both are
-- IMMUTABLE for expression indexes: their ICU dependencies (Han-Latin data,
-- sentence break rules) are documented in reference.md's stability section.
-- ---------------------------------------------------------------------------

CREATE FUNCTION pinyin_signature(doc text, window_size integer DEFAULT 16)
RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'textfp_pinyin_signature'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION pinyin_signature(text, integer)
	IS 'pinyin first-letter signature of a text''s Han characters: windows of letter frequencies against a frozen reference, two windows a value; ''{}'' for fewer than window_size / 2 Han characters';

CREATE FUNCTION pinyin_letters(doc text) RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_pinyin_letters'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION pinyin_letters(text)
	IS 'the pinyin first letters pinyin_signature reads: one letter a Han character (ICU Han-Latin), other characters left out';

CREATE FUNCTION sentence_signature(doc text, k integer DEFAULT 8, min_length integer DEFAULT 10)
RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'textfp_sentence_signature'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION sentence_signature(text, integer, integer)
	IS 'hashes of a text''s k longest distinct sentences (at least min_length letters), sorted; fewer for fewer sentences';

CREATE FUNCTION signature_overlap(a bigint[], b bigint[]) RETURNS integer
	AS 'MODULE_PATHNAME', 'textfp_signature_overlap'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION signature_overlap(bigint[], bigint[])
	IS 'number of distinct values two signatures share';
-- ===== issue 22: excerpts (winnowed fingerprints and containment) =====
-- docs/excerpts.md.  winnow(doc) keeps, of every window of `window`
-- consecutive shingle hashes, the smallest (Schleimer, Wilkerson and Aiken
-- 2003), as a bigint[] sorted without repeats: two texts that share a run of
-- window + shingle - 1 tokens share a fingerprint, and the share of a text's
-- fingerprints found in another estimates how much of it the other quotes
-- (containment), which Jaccard similarity cannot see when the other text is
-- longer.  An excerpt_query carries the fingerprints of a text, a direction,
-- a least containment and a least number of shared fingerprints:
--   row @@ quoted_in(q, c, m)  a share c of the row (and m fingerprints) is in q;
--   row @@ quoting(q, c, m)    the row holds a share c of q (and m fingerprints).
-- Every parameter is in the value, so the operators are IMMUTABLE and
-- gin_winnow_ops (one key per fingerprint, "at least so many keys", then
-- recheck) answers exactly what a sequential scan answers.

CREATE FUNCTION winnow(
	doc text,
	"window" integer DEFAULT 6,
	ngram integer DEFAULT 2,
	shingle integer DEFAULT 4,
	tokenizer text DEFAULT 'ngram',
	simplify boolean DEFAULT false,
	stopwords text DEFAULT 'none',
	user_stopwords text[] DEFAULT '{}',
	seed bigint DEFAULT 0,
	chinese text DEFAULT 'none')
RETURNS bigint[]
	AS 'MODULE_PATHNAME', 'textfp_winnow'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION winnow(text, integer, integer, integer, text, boolean, text, text[], bigint, text)
	IS 'winnowed fingerprints of a text''s shingles (the least hash of every window of shingles), sorted, without repeats';

CREATE FUNCTION containment(a bigint[], b bigint[]) RETURNS float8
	AS 'MODULE_PATHNAME', 'textfp_containment'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION containment(bigint[], bigint[])
	IS 'share of a''s distinct values found in b (0 for an empty a): how much of a the text of b quotes';

-- type excerpt_query

CREATE TYPE excerpt_query;

CREATE FUNCTION excerpt_query_in(cstring) RETURNS excerpt_query
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION excerpt_query_out(excerpt_query) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION excerpt_query_recv(internal) RETURNS excerpt_query
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION excerpt_query_send(excerpt_query) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE excerpt_query (
	INPUT = excerpt_query_in,
	OUTPUT = excerpt_query_out,
	RECEIVE = excerpt_query_recv,
	SEND = excerpt_query_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = extended
);
COMMENT ON TYPE excerpt_query
	IS 'winnowed fingerprints with a direction (quoted_in or quoting), a least containment and a least number of shared fingerprints';
COMMENT ON FUNCTION excerpt_query_in(cstring) IS 'text input of excerpt_query';
COMMENT ON FUNCTION excerpt_query_out(excerpt_query) IS 'text output of excerpt_query';
COMMENT ON FUNCTION excerpt_query_recv(internal) IS 'binary input of excerpt_query';
COMMENT ON FUNCTION excerpt_query_send(excerpt_query) IS 'binary output of excerpt_query';

CREATE FUNCTION quoted_in(fingerprints bigint[], min_containment float8 DEFAULT 0.2,
						  min_shared integer DEFAULT 3, ignore bigint[] DEFAULT '{}')
RETURNS excerpt_query
	AS 'MODULE_PATHNAME', 'excerpt_query_quoted_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION quoted_in(bigint[], float8, integer, bigint[])
	IS 'query for rows of which a share min_containment (and min_shared fingerprints) is in these fingerprints: the sources a text quotes; ignored fingerprints count on neither side';
CREATE FUNCTION quoting(fingerprints bigint[], min_containment float8 DEFAULT 0.2,
						min_shared integer DEFAULT 3, ignore bigint[] DEFAULT '{}')
RETURNS excerpt_query
	AS 'MODULE_PATHNAME', 'excerpt_query_quoting'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION quoting(bigint[], float8, integer, bigint[])
	IS 'query for rows that hold a share min_containment (and min_shared) of these fingerprints: the texts that quote it; ignored fingerprints count on neither side';

CREATE FUNCTION excerpt_query_fingerprints(excerpt_query) RETURNS bigint[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION excerpt_query_ignored(excerpt_query) RETURNS bigint[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION excerpt_query_direction(excerpt_query) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION excerpt_query_min_containment(excerpt_query) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION excerpt_query_min_shared(excerpt_query) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION excerpt_query_fingerprints(excerpt_query) IS 'fingerprints of an excerpt_query, sorted, without repeats';
COMMENT ON FUNCTION excerpt_query_ignored(excerpt_query) IS 'fingerprints an excerpt_query ignores, sorted, without repeats';
COMMENT ON FUNCTION excerpt_query_direction(excerpt_query) IS 'direction of an excerpt_query: quoted_in or quoting';
COMMENT ON FUNCTION excerpt_query_min_containment(excerpt_query) IS 'least containment of an excerpt_query';
COMMENT ON FUNCTION excerpt_query_min_shared(excerpt_query) IS 'least number of shared fingerprints of an excerpt_query';

-- COST 10: one merge of two sorted arrays.
CREATE FUNCTION excerpt_query_row_match(bigint[], excerpt_query) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
CREATE FUNCTION excerpt_query_match_row(excerpt_query, bigint[]) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION excerpt_query_row_match(bigint[], excerpt_query)
	IS 'implementation of @@: the row shares enough fingerprints with the query in its direction';
COMMENT ON FUNCTION excerpt_query_match_row(excerpt_query, bigint[])
	IS 'implementation of @@ with the query on the left';

-- @@, as tsvector @@ tsquery: not <@ and @>, which an untyped literal
-- beside a bigint[] ('{1,2}') would resolve to this type rather than to
-- the array operators (sql/operator_capture.sql)
CREATE OPERATOR @@ (
	LEFTARG = bigint[], RIGHTARG = excerpt_query, FUNCTION = excerpt_query_row_match,
	COMMUTATOR = @@, RESTRICT = pg_catalog.contsel, JOIN = pg_catalog.contjoinsel
);
CREATE OPERATOR @@ (
	LEFTARG = excerpt_query, RIGHTARG = bigint[], FUNCTION = excerpt_query_match_row,
	COMMUTATOR = @@, RESTRICT = pg_catalog.contsel, JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @@ (bigint[], excerpt_query)
	IS 'excerpt match: the row shares enough winnowed fingerprints with the query in its direction';
COMMENT ON OPERATOR @@ (excerpt_query, bigint[])
	IS 'excerpt match with the query on the left';

-- GIN: one key per fingerprint, "at least so many keys" (gin_minhash_ops's
-- consistent functions, declared again for bigint[]).  Support functions
-- name the indexed type (bigint[]) where the query goes, as amvalidate wants;
-- the query is an excerpt_query.

CREATE FUNCTION gin_winnow_extract_value(bigint[], internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_winnow_extract_query(bigint[], internal, smallint, internal, internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_winnow_consistent(internal, smallint, bigint[], integer, internal, internal, internal, internal) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gin_minhash_consistent' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_winnow_triconsistent(internal, smallint, bigint[], integer, internal, internal, internal) RETURNS "char"
	AS 'MODULE_PATHNAME', 'gin_minhash_triconsistent' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gin_winnow_options(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION gin_winnow_extract_value(bigint[], internal, internal)
	IS 'GIN support: one key per distinct fingerprint';
COMMENT ON FUNCTION gin_winnow_extract_query(bigint[], internal, smallint, internal, internal, internal, internal)
	IS 'GIN support: the query''s fingerprints and how many a row must share';
COMMENT ON FUNCTION gin_winnow_consistent(internal, smallint, bigint[], integer, internal, internal, internal, internal)
	IS 'GIN support: enough fingerprints shared';
COMMENT ON FUNCTION gin_winnow_triconsistent(internal, smallint, bigint[], integer, internal, internal, internal)
	IS 'GIN support: ternary form of the consistent function';
COMMENT ON FUNCTION gin_winnow_options(internal)
	IS 'GIN support: the bits option';

CREATE OPERATOR CLASS gin_winnow_ops
	FOR TYPE bigint[] USING gin AS
	OPERATOR 1 @@ (bigint[], excerpt_query),
	FUNCTION 1 pg_catalog.btint8cmp(bigint, bigint),
	FUNCTION 2 gin_winnow_extract_value(bigint[], internal, internal),
	FUNCTION 3 gin_winnow_extract_query(bigint[], internal, smallint, internal, internal, internal, internal),
	FUNCTION 4 gin_winnow_consistent(internal, smallint, bigint[], integer, internal, internal, internal, internal),
	FUNCTION 6 gin_winnow_triconsistent(internal, smallint, bigint[], integer, internal, internal, internal),
	FUNCTION 7 gin_winnow_options(internal),
	STORAGE bigint;
COMMENT ON OPERATOR CLASS gin_winnow_ops USING gin
	IS 'winnowed fingerprints (bigint[]): exact for @@ excerpt_query, one key per fingerprint';
