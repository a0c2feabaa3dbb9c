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
-- issue 16: clustering (union-find), stories that persist, a match store
-- and reports
-- =========================================================================
-- union_find() groups the pairs a query returns (src/cluster.c, in C);
-- cluster_table() clusters a whole table in one call; the story_* functions
-- keep a table's stories and verified matches in two tables next to it and
-- report on them.  docs/clustering.md says how to choose and what each
-- keeps.  The PL/pgSQL functions run with search_path = pg_catalog, pg_temp
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

-- ----- stories that persist and the match store -----
-- For a source table T, two tables next to it (same schema):
--   T_matches (a, b, method, score, found_at): verified pairs, a < b
--   T_stories (key, story_id, updated_at): the members of every story of
--             two or more rows; story_id is the key of the story's
--             original, its earliest member by the time column (ties: the
--             smallest key).  A key not in T_stories is a story of its own.
-- Stories are the connected components of T_matches (every method).
--
-- Both belong to T's owner: the calls that write them need the privileges
-- of T's owner, make them owned by T's owner, and refuse an existing
-- relation of that name unless it is a plain table of T's owner in exactly
-- the shape textfp makes (no trigger, rule, policy, inheritance, default,
-- check or index expression of anyone else's that a write could run).

-- The quoted, schema-qualified names of T_matches and T_stories.
CREATE FUNCTION story_table_names(source regclass, OUT matches text, OUT stories text)
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	nsp name;
	rel name;
BEGIN
	SELECT n.nspname, c.relname INTO nsp, rel
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = source::oid;
	IF rel IS NULL THEN
		RAISE EXCEPTION 'relation with OID % does not exist', source::oid USING ERRCODE = 'undefined_table';
	END IF;
	IF octet_length(rel) + octet_length('_matches') > 63 THEN
		RAISE EXCEPTION 'table name "%" is too long for the story tables', rel
			USING ERRCODE = 'name_too_long',
				  DETAIL = 'The story tables are named after the table plus "_matches" and "_stories", at most 63 bytes.';
	END IF;
	matches := format('%I.%I', nsp, rel || '_matches');
	stories := format('%I.%I', nsp, rel || '_stories');
END
$$;
COMMENT ON FUNCTION story_table_names(regclass)
	IS 'the match store and story table of a source table: <table>_matches and <table>_stories in its schema';

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
				  DETAIL = 'textfp''s story tables belong to the owner of the table they describe; only that owner (or a member of its role) keeps them.';
	END IF;
	RETURN owner;
END
$$;
COMMENT ON FUNCTION textfp_check_owner(regclass)
	IS 'internal: the owner of a table, after checking that the caller has its privileges';

-- Checks that store, an existing relation named like one of textfp's story
-- tables, is one textfp may read and write for source: a plain table
-- owned by source's owner, with the columns, defaults and constraints
-- textfp gives it and nothing that a write could run.  kind is 'matches'
-- or 'stories'.
CREATE FUNCTION textfp_check_store(source regclass, store regclass, kind text) RETURNS void
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	c record;
	shape text;
	expected text := CASE kind
		WHEN 'matches' THEN 'a bigint not null;b bigint not null;found_at timestamp with time zone not null default now();method text not null;score double precision not null|c ((a < b));p (a, b, method)'
		ELSE 'key bigint not null;story_id bigint not null;updated_at timestamp with time zone not null default now()|p (key)' END;
	why text;
BEGIN
	SELECT r.relkind, r.relowner, r.relhasrules, r.relrowsecurity, r.relhassubclass, r.relispartition,
		   s.relowner AS source_owner
	INTO c FROM pg_class r, pg_class s WHERE r.oid = store::oid AND s.oid = source::oid;
	shape := (SELECT string_agg(format('%s %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
				CASE WHEN a.attnotnull THEN ' not null' ELSE '' END,
				CASE WHEN a.atthasdef THEN ' default ' || pg_get_expr(d.adbin, d.adrelid) ELSE '' END
				|| CASE WHEN a.attgenerated <> '' OR a.attidentity <> '' OR a.attcollation <> 0
						AND a.attcollation <> 'pg_catalog.default'::regcollation::oid THEN ' (other)' ELSE '' END),
				';' ORDER BY a.attname)
			  FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
			  WHERE a.attrelid = store::oid AND a.attnum > 0 AND NOT a.attisdropped)
		|| '|' || coalesce((SELECT string_agg(x.contype::text || ' ' || CASE x.contype
				WHEN 'c' THEN regexp_replace(pg_get_constraintdef(x.oid), '^CHECK ', '')
				ELSE regexp_replace(pg_get_constraintdef(x.oid), '^PRIMARY KEY ', '') END, ';' ORDER BY x.contype, x.conname)
			  FROM pg_constraint x WHERE x.conrelid = store::oid), '');
	IF c.relkind <> 'r' OR c.relispartition THEN
		why := 'it is not a plain table';
	ELSIF c.relowner <> c.source_owner THEN
		why := format('it is owned by %s, not by %s, the owner of %s',
					  c.relowner::regrole, c.source_owner::regrole, source);
	ELSIF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = store::oid) THEN
		why := 'it has triggers';
	ELSIF c.relhasrules THEN
		why := 'it has rules';
	ELSIF c.relrowsecurity OR EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = store::oid) THEN
		why := 'it has row-level security';
	ELSIF c.relhassubclass OR EXISTS (SELECT FROM pg_inherits i WHERE i.inhrelid = store::oid) THEN
		why := 'it takes part in inheritance';
	ELSIF EXISTS (SELECT FROM pg_index i WHERE i.indrelid = store::oid
				  AND (i.indexprs IS NOT NULL OR i.indpred IS NOT NULL)) THEN
		why := 'it has an index on an expression or with a predicate';
	ELSIF shape IS DISTINCT FROM expected THEN
		why := 'its columns, defaults or constraints are not those textfp makes';
	END IF;
	IF why IS NOT NULL THEN
		RAISE EXCEPTION 'relation % exists and is not a textfp story table of %', store, source
			USING ERRCODE = 'duplicate_table',
				  DETAIL = format('textfp uses %s only as the %s table of %s, and %s.', store,
								  CASE kind WHEN 'matches' THEN 'match' ELSE 'story' END, source, why),
				  HINT = 'Rename or drop it, or ask its owner to; textfp then makes its own.';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_check_store(regclass, regclass, text)
	IS 'internal: refuses an existing relation named like a story table unless it is a plain table of the source''s owner in textfp''s shape';

-- Both story tables, made (owned by the source's owner) where missing and
-- checked where present.  Needs the privileges of the source's owner.
CREATE FUNCTION story_tables(source regclass, OUT matches regclass, OUT stories regclass)
	LANGUAGE plpgsql VOLATILE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	owner oid := @extschema@.textfp_check_owner(source);
	m text;
	st text;
BEGIN
	SELECT n.matches, n.stories INTO m, st FROM @extschema@.story_table_names(source) n;
	IF to_regclass(m) IS NULL THEN
		EXECUTE format('CREATE TABLE %s (
			a bigint NOT NULL,
			b bigint NOT NULL,
			method text NOT NULL,
			score double precision NOT NULL,
			found_at timestamptz NOT NULL DEFAULT now(),
			PRIMARY KEY (a, b, method),
			CHECK (a < b))', m);
		EXECUTE format('CREATE INDEX ON %s (b)', m);
		EXECUTE format('COMMENT ON TABLE %s IS %L', m,
			'textfp match store of ' || source::text || ': verified pairs (a < b), method, score (Hamming bits or Jaccard estimate), when found');
		IF (SELECT c.relowner FROM pg_class c WHERE c.oid = to_regclass(m)::oid) <> owner THEN
			EXECUTE format('ALTER TABLE %s OWNER TO %I', m, owner::regrole::text);
		END IF;
	END IF;
	PERFORM @extschema@.textfp_check_store(source, to_regclass(m), 'matches');
	IF to_regclass(st) IS NULL THEN
		EXECUTE format('CREATE TABLE %s (
			key bigint PRIMARY KEY,
			story_id bigint NOT NULL,
			updated_at timestamptz NOT NULL DEFAULT now())', st);
		EXECUTE format('CREATE INDEX ON %s (story_id)', st);
		EXECUTE format('COMMENT ON TABLE %s IS %L', st,
			'textfp stories of ' || source::text || ': members of stories of two or more; story_id is the original''s key');
		IF (SELECT c.relowner FROM pg_class c WHERE c.oid = to_regclass(st)::oid) <> owner THEN
			EXECUTE format('ALTER TABLE %s OWNER TO %I', st, owner::regrole::text);
		END IF;
	END IF;
	PERFORM @extschema@.textfp_check_store(source, to_regclass(st), 'stories');
	matches := to_regclass(m);
	stories := to_regclass(st);
END
$$;
COMMENT ON FUNCTION story_tables(regclass)
	IS 'makes (if missing) the match store <table>_matches and the story table <table>_stories of a source table, owned by its owner; refuses relations of those names that are not textfp''s';

-- The story table of source for a report: it must exist and be textfp's.
CREATE FUNCTION textfp_story_table(source regclass, which text) RETURNS regclass
	LANGUAGE plpgsql STABLE STRICT
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	name text;
	r regclass;
BEGIN
	SELECT CASE which WHEN 'matches' THEN n.matches ELSE n.stories END INTO name
	FROM @extschema@.story_table_names(source) n;
	r := to_regclass(name);
	IF r IS NULL THEN
		RAISE EXCEPTION 'table % has no story tables yet', source
			USING ERRCODE = 'undefined_table',
				  HINT = 'story_refresh() makes them.';
	END IF;
	PERFORM @extschema@.textfp_check_store(source, r, which);
	RETURN r;
END
$$;
COMMENT ON FUNCTION textfp_story_table(regclass, text)
	IS 'internal: the match store (''matches'') or story table (''stories'') of a source table, checked to be textfp''s';

-- The key column must be unique (a unique index on it alone) and the time
-- column a timestamp or date: stories are named by their earliest member.
CREATE FUNCTION textfp_story_columns(source regclass, key_column name, time_column name) RETURNS void
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	katt smallint;
	ttype oid;
BEGIN
	IF key_column IS NULL OR time_column IS NULL THEN
		RAISE EXCEPTION 'key and time columns must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = source::oid) THEN
		RAISE EXCEPTION 'relation with OID % does not exist', source::oid USING ERRCODE = 'undefined_table';
	END IF;
	SELECT a.attnum INTO katt FROM pg_attribute a
	WHERE a.attrelid = source::oid AND a.attname = key_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF katt IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', key_column, source
			USING ERRCODE = 'undefined_column';
	END IF;
	IF NOT EXISTS (SELECT FROM pg_index i WHERE i.indrelid = source::oid AND i.indisunique AND i.indisvalid
				   AND i.indnkeyatts = 1 AND i.indkey[0] = katt AND i.indexprs IS NULL AND i.indpred IS NULL) THEN
		RAISE EXCEPTION 'key column "%" of % is not unique', key_column, source
			USING ERRCODE = 'invalid_column_reference',
				  DETAIL = 'Stories name rows by their keys, so story calls need a primary key, a unique constraint or a unique index on the key column alone.',
				  HINT = format('ALTER TABLE %s ADD UNIQUE (%I);', source, key_column);
	END IF;
	SELECT a.atttypid INTO ttype FROM pg_attribute a
	WHERE a.attrelid = source::oid AND a.attname = time_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF ttype IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', time_column, source
			USING ERRCODE = 'undefined_column';
	END IF;
	IF ttype <> ALL (ARRAY['timestamptz'::regtype::oid, 'timestamp'::regtype::oid, 'date'::regtype::oid]) THEN
		RAISE EXCEPTION 'time column "%" must be timestamptz, timestamp or date, not %', time_column, ttype::regtype
			USING ERRCODE = 'datatype_mismatch';
	END IF;
END
$$;
COMMENT ON FUNCTION textfp_story_columns(regclass, name, name)
	IS 'internal: checks that the key column is unique and the time column a timestamp or date';

-- Recomputes the stories of the keys in pg_temp.textfp_story_scope (key)
-- from the match store: their components (over matches between keys of
-- the scope that still exist in the source), each named by its earliest
-- member.  The scope must be a union of whole stories plus new keys.
CREATE FUNCTION textfp_story_recompute(source regclass, key_column name, time_column name)
RETURNS void
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	m regclass;
	st regclass;
BEGIN
	SELECT t.matches, t.stories INTO m, st FROM @extschema@.story_tables(source) t;
	-- the scope's keys that exist, with their times
	EXECUTE format('CREATE TEMP TABLE textfp_story_live AS
		SELECT t.%1$I::bigint AS key, t.%2$I AS at
		FROM %3$s t JOIN pg_temp.textfp_story_scope sc ON sc.key = t.%1$I::bigint',
		key_column, time_column, source);
	CREATE UNIQUE INDEX ON pg_temp.textfp_story_live (key);
	ANALYZE pg_temp.textfp_story_live;
	CREATE TEMP TABLE textfp_story_comp AS
		SELECT u.key, u.cluster_key, u.cluster_size
		FROM @extschema@.union_find(format('SELECT DISTINCT m.a, m.b FROM %s m
				   JOIN pg_temp.textfp_story_live x ON x.key = m.a
				   JOIN pg_temp.textfp_story_live y ON y.key = m.b', m), 'components'::text) u
		WHERE u.cluster_size > 1;
	-- the story id: the component's earliest member (ties: smallest key)
	CREATE TEMP TABLE textfp_story_new AS
		SELECT DISTINCT ON (c.key) c.key,
			first_value(c.key) OVER (PARTITION BY c.cluster_key ORDER BY l.at, c.key) AS story_id
		FROM pg_temp.textfp_story_comp c JOIN pg_temp.textfp_story_live l ON l.key = c.key;
	EXECUTE format('DELETE FROM %s st USING pg_temp.textfp_story_scope sc
		WHERE st.key = sc.key
		  AND NOT EXISTS (SELECT FROM pg_temp.textfp_story_new n WHERE n.key = st.key AND n.story_id = st.story_id)', st);
	EXECUTE format('INSERT INTO %1$s AS st (key, story_id)
		SELECT n.key, n.story_id FROM pg_temp.textfp_story_new n
		ON CONFLICT (key) DO UPDATE SET story_id = excluded.story_id, updated_at = now()
		WHERE st.story_id IS DISTINCT FROM excluded.story_id', st);
	DROP TABLE pg_temp.textfp_story_live, pg_temp.textfp_story_comp, pg_temp.textfp_story_new;
END
$$;
COMMENT ON FUNCTION textfp_story_recompute(regclass, name, name)
	IS 'internal: recomputes the stories of the keys in pg_temp.textfp_story_scope from the match store';

-- A whole table in one batch: every verified pair within the threshold into
-- the match store (pairs of this method no longer within it, or with a
-- deleted key, leave it), then every story recomputed.
CREATE FUNCTION story_refresh(source regclass, key_column name, fp_column name, time_column name,
							  threshold double precision DEFAULT NULL, bands integer DEFAULT NULL, rows integer DEFAULT NULL,
							  OUT stories bigint, OUT members bigint, OUT largest bigint, OUT matches bigint)
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	m regclass;
	st regclass;
	kind text;
BEGIN
	PERFORM @extschema@.textfp_story_columns(source, key_column, time_column);
	SELECT t.matches, t.stories INTO m, st FROM @extschema@.story_tables(source) t;
	SELECT p.kind INTO kind FROM @extschema@.textfp_cluster_pairs(source, key_column, fp_column, threshold, bands, rows) p;
	EXECUTE format('DELETE FROM %s m WHERE m.method = $1
		AND NOT EXISTS (SELECT FROM pg_temp.textfp_cluster_pairs p WHERE p.a = m.a AND p.b = m.b)', m) USING kind;
	EXECUTE format('INSERT INTO %1$s AS m (a, b, method, score)
		SELECT p.a, p.b, $1, p.score FROM pg_temp.textfp_cluster_pairs p
		ON CONFLICT (a, b, method) DO UPDATE SET score = excluded.score
		WHERE m.score IS DISTINCT FROM excluded.score', m) USING kind;
	-- matches of other methods with a key gone from the table
	EXECUTE format('DELETE FROM %s m WHERE NOT EXISTS (SELECT FROM pg_temp.textfp_cluster_keys k WHERE k.key = m.a)
		OR NOT EXISTS (SELECT FROM pg_temp.textfp_cluster_keys k WHERE k.key = m.b)', m);
	CREATE TEMP TABLE textfp_story_scope AS SELECT k.key FROM pg_temp.textfp_cluster_keys k;
	EXECUTE format('INSERT INTO pg_temp.textfp_story_scope SELECT st.key FROM %s st
		WHERE NOT EXISTS (SELECT FROM pg_temp.textfp_cluster_keys k WHERE k.key = st.key)', st);
	PERFORM @extschema@.textfp_story_recompute(source, key_column, time_column);
	DROP TABLE pg_temp.textfp_story_scope, pg_temp.textfp_cluster_keys,
		pg_temp.textfp_cluster_reps, pg_temp.textfp_cluster_pairs;
	EXECUTE format('SELECT count(DISTINCT story_id), count(*) FROM %s', st) INTO stories, members;
	EXECUTE format('SELECT coalesce(max(c), 0) FROM (SELECT count(*) AS c FROM %s GROUP BY story_id) x', st) INTO largest;
	EXECUTE format('SELECT count(*) FROM %s', m) INTO matches;
END
$$;
COMMENT ON FUNCTION story_refresh(regclass, name, name, name, double precision, integer, integer)
	IS 'batch: stores every verified pair of a table within threshold in <table>_matches and recomputes <table>_stories';

-- New rows: their matches against the whole table (through the table's own
-- index on the fingerprint when it has one), then the stories they touch,
-- merged where a new row joins two.
CREATE FUNCTION story_add(source regclass, key_column name, fp_column name, time_column name,
						  keys bigint[], threshold double precision DEFAULT NULL)
RETURNS bigint
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	m regclass;
	st regclass;
	kind text;
	thr double precision;
	found bigint;
BEGIN
	IF keys IS NULL THEN
		RAISE EXCEPTION 'keys must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	PERFORM @extschema@.textfp_story_columns(source, key_column, time_column);
	SELECT c.kind, c.threshold INTO kind, thr
	FROM @extschema@.textfp_cluster_check(source, key_column, fp_column, threshold) c;
	SELECT t.matches, t.stories INTO m, st FROM @extschema@.story_tables(source) t;
	-- score and ball per kind: hamming_distance and hamming_ball(fp, integer)
	-- for simhash64, jaccard and jaccard_ball(sig, float8) for minhash_sig
	IF kind = 'simhash64' THEN
		EXECUTE format('CREATE TEMP TABLE textfp_story_pairs AS
			SELECT DISTINCT least(n.%1$I::bigint, k.%1$I::bigint) AS a, greatest(n.%1$I::bigint, k.%1$I::bigint) AS b,
				   @extschema@.hamming_distance(n.%2$I, k.%2$I)::float8 AS score
			FROM %3$s k JOIN %3$s n ON n.%2$I OPERATOR(@extschema@.<@) @extschema@.hamming_ball(k.%2$I, $2::integer)
			WHERE k.%1$I = ANY ($1::bigint[]) AND n.%1$I <> k.%1$I', key_column, fp_column, source)
			USING keys, thr::integer;
	ELSE
		EXECUTE format('CREATE TEMP TABLE textfp_story_pairs AS
			SELECT DISTINCT least(n.%1$I::bigint, k.%1$I::bigint) AS a, greatest(n.%1$I::bigint, k.%1$I::bigint) AS b,
				   @extschema@.jaccard(n.%2$I, k.%2$I) AS score
			FROM %3$s k JOIN %3$s n ON n.%2$I OPERATOR(@extschema@.<@) @extschema@.jaccard_ball(k.%2$I, $2::float8)
			WHERE k.%1$I = ANY ($1::bigint[]) AND n.%1$I <> k.%1$I', key_column, fp_column, source)
			USING keys, thr;
	END IF;
	EXECUTE format('INSERT INTO %s (a, b, method, score)
		SELECT p.a, p.b, $1, p.score FROM pg_temp.textfp_story_pairs p
		ON CONFLICT (a, b, method) DO NOTHING', m) USING kind;
	GET DIAGNOSTICS found = ROW_COUNT;
	-- scope: the new keys, their matches, and every member of their stories
	CREATE TEMP TABLE textfp_story_scope AS
		SELECT unnest(keys) AS key
		UNION SELECT p.a FROM pg_temp.textfp_story_pairs p
		UNION SELECT p.b FROM pg_temp.textfp_story_pairs p;
	EXECUTE format('INSERT INTO pg_temp.textfp_story_scope
		SELECT st.key FROM %1$s st WHERE st.story_id IN
			(SELECT st2.story_id FROM %1$s st2 JOIN pg_temp.textfp_story_scope sc ON sc.key = st2.key)
		EXCEPT SELECT key FROM pg_temp.textfp_story_scope', st);
	PERFORM @extschema@.textfp_story_recompute(source, key_column, time_column);
	DROP TABLE pg_temp.textfp_story_scope, pg_temp.textfp_story_pairs;
	RETURN found;
END
$$;
COMMENT ON FUNCTION story_add(regclass, name, name, name, bigint[], double precision)
	IS 'new rows: stores their verified matches and updates the stories they join or merge; returns the matches stored';

-- Rows deleted (or about to be): their matches leave the store and their
-- stories are recomputed from the matches left, which may split them.
CREATE FUNCTION story_forget(source regclass, key_column name, time_column name, keys bigint[])
RETURNS bigint
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	m regclass;
	st regclass;
	gone bigint;
BEGIN
	IF keys IS NULL THEN
		RAISE EXCEPTION 'keys must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	PERFORM @extschema@.textfp_story_columns(source, key_column, time_column);
	SELECT t.matches, t.stories INTO m, st FROM @extschema@.story_tables(source) t;
	EXECUTE format('CREATE TEMP TABLE textfp_story_scope AS
		SELECT st.key FROM %1$s st WHERE st.story_id IN
			(SELECT st2.story_id FROM %1$s st2 WHERE st2.key = ANY ($1::bigint[]))', st) USING keys;
	EXECUTE format('DELETE FROM %s m WHERE m.a = ANY ($1::bigint[]) OR m.b = ANY ($1::bigint[])', m) USING keys;
	GET DIAGNOSTICS gone = ROW_COUNT;
	EXECUTE format('DELETE FROM %s st WHERE st.key = ANY ($1::bigint[])', st) USING keys;
	DELETE FROM pg_temp.textfp_story_scope sc WHERE sc.key = ANY (keys);
	PERFORM @extschema@.textfp_story_recompute(source, key_column, time_column);
	DROP TABLE pg_temp.textfp_story_scope;
	RETURN gone;
END
$$;
COMMENT ON FUNCTION story_forget(regclass, name, name, bigint[])
	IS 'deleted rows: removes their matches and recomputes (and may split) the stories they were in; returns the matches removed';

-- ----- reports -----
-- They read the story tables as the caller (SELECT on them and on the
-- source), after checking that the tables are textfp's for that source.

CREATE FUNCTION story_report(source regclass, key_column name, time_column name, site_column name DEFAULT NULL)
RETURNS TABLE (story_id bigint, size bigint, original_key bigint, first_at timestamptz, last_at timestamptz,
			   original_site text, sites bigint)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := @extschema@.textfp_story_table(source, 'stories');
	site text := CASE WHEN site_column IS NULL THEN 'NULL::text' ELSE format('t.%I::text', site_column) END;
BEGIN
	PERFORM @extschema@.textfp_story_columns(source, key_column, time_column);
	RETURN QUERY EXECUTE format('
		SELECT st.story_id, count(*), st.story_id, min(t.%2$I)::timestamptz, max(t.%2$I)::timestamptz,
			   (array_agg(%4$s ORDER BY t.%2$I, t.%1$I::bigint))[1], count(DISTINCT %4$s)
		FROM %5$s st JOIN %3$s t ON t.%1$I::bigint = st.key
		GROUP BY st.story_id ORDER BY count(*) DESC, st.story_id',
		key_column, time_column, source, site, st);
END
$$;
COMMENT ON FUNCTION story_report(regclass, name, name, name)
	IS 'every story of two or more rows: size, original (earliest member), first and last publication, the original''s site and how many sites ran it';

CREATE FUNCTION stories_since(source regclass, key_column name, time_column name, since timestamptz)
RETURNS TABLE (story_id bigint, size bigint, first_at timestamptz, new_members bigint)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := @extschema@.textfp_story_table(source, 'stories');
BEGIN
	PERFORM @extschema@.textfp_story_columns(source, key_column, time_column);
	RETURN QUERY EXECUTE format('
		SELECT st.story_id, count(*), min(t.%2$I)::timestamptz, count(*) FILTER (WHERE t.%2$I >= $1::timestamptz)
		FROM %4$s st JOIN %3$s t ON t.%1$I::bigint = st.key
		GROUP BY st.story_id HAVING min(t.%2$I) >= $1::timestamptz
		ORDER BY min(t.%2$I), st.story_id', key_column, time_column, source, st) USING since;
END
$$;
COMMENT ON FUNCTION stories_since(regclass, name, name, timestamptz)
	IS 'stories whose original (earliest member) was published at or after since, with their size';

CREATE FUNCTION story_reprints(source regclass, key_column name, time_column name, site_column name)
RETURNS TABLE (original_site text, reprint_site text, reprints bigint, stories bigint, median_delay interval)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	st regclass := @extschema@.textfp_story_table(source, 'stories');
BEGIN
	IF site_column IS NULL THEN
		RAISE EXCEPTION 'story_reprints() needs the site column' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	PERFORM @extschema@.textfp_story_columns(source, key_column, time_column);
	RETURN QUERY EXECUTE format('
		SELECT o.%4$I::text, t.%4$I::text, count(*), count(DISTINCT st.story_id),
			   percentile_disc(0.5) WITHIN GROUP (ORDER BY (t.%2$I::timestamptz - o.%2$I::timestamptz))
		FROM %5$s st
		JOIN %3$s t ON t.%1$I::bigint = st.key
		JOIN %3$s o ON o.%1$I::bigint = st.story_id
		WHERE st.key <> st.story_id
		GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2', key_column, time_column, source, site_column, st);
END
$$;
COMMENT ON FUNCTION story_reprints(regclass, name, name, name)
	IS 'who reprints whom: reprints (members other than the original) by the original''s site and the reprint''s site, with the median delay';

CREATE FUNCTION match_scores(source regclass, buckets integer DEFAULT 10)
RETURNS TABLE (method text, score_from double precision, score_to double precision, pairs bigint)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	m regclass;
BEGIN
	IF buckets IS NULL OR buckets < 1 OR buckets > 1000 THEN
		RAISE EXCEPTION 'buckets must be between 1 and 1000' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	m := @extschema@.textfp_story_table(source, 'matches');
	-- simhash64: one row per distance in bits; minhash_sig: buckets over [0, 1]
	RETURN QUERY EXECUTE format('
		SELECT m.method, m.score, m.score, count(*) FROM %1$s m WHERE m.method = ''simhash64'' GROUP BY 1, 2
		UNION ALL
		SELECT m.method, (w.bk - 1)::float8 / $1::integer, w.bk::float8 / $1::integer, count(*)
		FROM %1$s m, LATERAL (SELECT least(width_bucket(m.score, 0, 1, $1::integer), $1::integer) AS bk) w
		WHERE m.method <> ''simhash64'' GROUP BY 1, 2, 3
		ORDER BY 1, 2', m) USING buckets;
END
$$;
COMMENT ON FUNCTION match_scores(regclass, integer)
	IS 'distribution of match scores in <table>_matches: pairs per Hamming distance (simhash64) or per Jaccard bucket (minhash_sig)';

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
--   row <@ quoted_in(q, c, m)  a share c of the row (and m fingerprints) is in q;
--   row <@ quoting(q, c, m)    the row holds a share c of q (and m fingerprints).
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
	IS 'implementation of <@: the row shares enough fingerprints with the query in its direction';
COMMENT ON FUNCTION excerpt_query_match_row(excerpt_query, bigint[])
	IS 'implementation of @> with the query on the left';

CREATE OPERATOR <@ (
	LEFTARG = bigint[], RIGHTARG = excerpt_query, FUNCTION = excerpt_query_row_match,
	COMMUTATOR = @>, RESTRICT = pg_catalog.contsel, JOIN = pg_catalog.contjoinsel
);
CREATE OPERATOR @> (
	LEFTARG = excerpt_query, RIGHTARG = bigint[], FUNCTION = excerpt_query_match_row,
	COMMUTATOR = <@, RESTRICT = pg_catalog.contsel, JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR <@ (bigint[], excerpt_query)
	IS 'excerpt match: the row shares enough winnowed fingerprints with the query in its direction';
COMMENT ON OPERATOR @> (excerpt_query, bigint[])
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
	OPERATOR 1 <@ (bigint[], excerpt_query),
	FUNCTION 1 pg_catalog.btint8cmp(bigint, bigint),
	FUNCTION 2 gin_winnow_extract_value(bigint[], internal, internal),
	FUNCTION 3 gin_winnow_extract_query(bigint[], internal, smallint, internal, internal, internal, internal),
	FUNCTION 4 gin_winnow_consistent(internal, smallint, bigint[], integer, internal, internal, internal, internal),
	FUNCTION 6 gin_winnow_triconsistent(internal, smallint, bigint[], integer, internal, internal, internal),
	FUNCTION 7 gin_winnow_options(internal),
	STORAGE bigint;
COMMENT ON OPERATOR CLASS gin_winnow_ops USING gin
	IS 'winnowed fingerprints (bigint[]): exact for <@ excerpt_query, one key per fingerprint';
