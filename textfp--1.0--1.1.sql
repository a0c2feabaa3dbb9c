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
