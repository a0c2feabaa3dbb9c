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
