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

-- =========================================================================
-- issue 16: clustering (union-find), stories that persist, a match store
-- and reports
-- =========================================================================
-- union_find() groups the pairs a query returns (src/cluster.c, in C);
-- cluster_table() clusters a whole table in one call; the story_* functions
-- keep a table's stories and verified matches in two tables next to it and
-- report on them.  docs/clustering.md says how to choose and what each
-- keeps.  The PL/pgSQL functions run with search_path = pg_catalog, pg_temp
-- and name textfp's own objects through the extension's schema, found at
-- run time in pg_extension (textfp is relocatable, so @extschema@ is not
-- available); users' tables and columns are quoted with format().

CREATE FUNCTION union_find(pairs text, mode text DEFAULT 'components')
RETURNS TABLE (key bigint, cluster_key bigint, cluster_size bigint)
	AS 'MODULE_PATHNAME', 'textfp_union_find'
	LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION union_find(text, text)
	IS 'clusters the pairs of keys a query returns: connected components (mode components) or non-transitive stars around the smallest key (mode star); cluster_key is the smallest key of the cluster';

-- Checks a table's key and fingerprint columns and the threshold; returns
-- the fingerprint's type name ('simhash64' or 'minhash_sig') and the
-- threshold to use (NULL: the % operator's setting).
CREATE FUNCTION textfp_cluster_check(tbl regclass, key_column name, fp_column name,
									 INOUT threshold double precision, OUT kind text)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	s text := (SELECT pg_catalog.quote_ident(n.nspname)
		FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = 'textfp');
	kt oid;
	ft oid;
BEGIN
	IF tbl IS NULL OR key_column IS NULL OR fp_column IS NULL THEN
		RAISE EXCEPTION 'table, key column and fingerprint column must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT a.atttypid INTO kt FROM pg_attribute a
	WHERE a.attrelid = tbl AND a.attname = key_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF kt IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', key_column, tbl
			USING ERRCODE = 'undefined_column';
	END IF;
	IF kt NOT IN ('bigint'::regtype, 'integer'::regtype, 'smallint'::regtype) THEN
		RAISE EXCEPTION 'key column "%" must be bigint, integer or smallint, not %', key_column, kt::regtype
			USING ERRCODE = 'datatype_mismatch';
	END IF;
	SELECT a.atttypid INTO ft FROM pg_attribute a
	WHERE a.attrelid = tbl AND a.attname = fp_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF ft IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', fp_column, tbl
			USING ERRCODE = 'undefined_column';
	END IF;
	IF ft = (s || '.simhash64')::regtype THEN
		kind := 'simhash64';
		threshold := coalesce(threshold, current_setting('textfp.hamming_threshold')::float8);
		IF threshold <> trunc(threshold) OR threshold < 0 OR threshold > 64 THEN
			RAISE EXCEPTION 'threshold for simhash64 must be a whole number of bits from 0 to 64, not %', threshold
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	ELSIF ft = (s || '.minhash_sig')::regtype THEN
		kind := 'minhash_sig';
		threshold := coalesce(threshold, current_setting('textfp.jaccard_threshold')::float8);
		IF NOT (threshold > 0 AND threshold <= 1) THEN
			RAISE EXCEPTION 'threshold for minhash_sig must be a Jaccard similarity above 0 and at most 1, not %', threshold
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	ELSE
		RAISE EXCEPTION 'fingerprint column "%" must be simhash64 or minhash_sig, not %', fp_column, ft::regtype
			USING ERRCODE = 'datatype_mismatch';
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
-- (a.key < b.key) and is verified by the index's exact operator.
CREATE FUNCTION textfp_cluster_pairs(tbl regclass, key_column name, fp_column name,
									 threshold double precision, OUT kind text, OUT threshold_used double precision)
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	s text := (SELECT pg_catalog.quote_ident(n.nspname)
		FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = 'textfp');
BEGIN
	EXECUTE format('SELECT c.kind, c.threshold FROM %s.textfp_cluster_check($1, $2, $3, $4) c', s)
		INTO kind, threshold_used USING tbl, key_column, fp_column, threshold;
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
	EXECUTE format('CREATE TEMP TABLE textfp_cluster_reps AS
		SELECT min(t.%1$I::bigint) AS key, t.%2$I AS fp
		FROM %3$s t WHERE t.%1$I IS NOT NULL AND t.%2$I IS NOT NULL GROUP BY t.%2$I',
		key_column, fp_column, tbl);
	EXECUTE format('CREATE TEMP TABLE textfp_cluster_keys AS
		SELECT t.%1$I::bigint AS key, coalesce(r.key, t.%1$I::bigint) AS rep
		FROM %3$s t LEFT JOIN pg_temp.textfp_cluster_reps r ON r.fp OPERATOR(%4$s.=) t.%2$I
		WHERE t.%1$I IS NOT NULL', key_column, fp_column, tbl, s);
	IF kind = 'simhash64' THEN
		EXECUTE format('CREATE INDEX ON pg_temp.textfp_cluster_reps USING mih (fp %s.mih_simhash64_ops)', s);
	ELSE
		EXECUTE format('CREATE INDEX ON pg_temp.textfp_cluster_reps USING gin (fp %s.gin_minhash_ops)', s);
	END IF;
	ANALYZE pg_temp.textfp_cluster_reps;
	IF kind = 'simhash64' THEN
		EXECUTE format('CREATE TEMP TABLE textfp_cluster_pairs AS
			SELECT a.key AS a, b.key AS b, %1$s.hamming_distance(a.fp, b.fp)::float8 AS score
			FROM pg_temp.textfp_cluster_reps a JOIN pg_temp.textfp_cluster_reps b
			  ON b.fp OPERATOR(%1$s.<@) %1$s.hamming_ball(a.fp, %2$s) AND a.key < b.key',
			s, threshold_used::integer);
	ELSE
		EXECUTE format('CREATE TEMP TABLE textfp_cluster_pairs AS
			SELECT a.key AS a, b.key AS b, %1$s.jaccard(a.fp, b.fp) AS score
			FROM pg_temp.textfp_cluster_reps a JOIN pg_temp.textfp_cluster_reps b
			  ON b.fp OPERATOR(%1$s.<@) %1$s.jaccard_ball(a.fp, %2$s) AND a.key < b.key',
			s, threshold_used);
	END IF;
	-- rows of one value: each to its rep, at distance 0 / Jaccard 1
	INSERT INTO pg_temp.textfp_cluster_pairs
		SELECT k.rep, k.key, CASE WHEN kind = 'simhash64' THEN 0 ELSE 1 END
		FROM pg_temp.textfp_cluster_keys k WHERE k.key <> k.rep;
END
$$;
COMMENT ON FUNCTION textfp_cluster_pairs(regclass, name, name, double precision)
	IS 'internal: the verified pairs of a table within the threshold, into temporary tables textfp_cluster_pairs and textfp_cluster_keys';

CREATE FUNCTION cluster_table(tbl regclass, key_column name, fp_column name,
							  threshold double precision DEFAULT NULL, mode text DEFAULT 'components')
RETURNS TABLE (key bigint, cluster_key bigint, cluster_size bigint)
	LANGUAGE plpgsql VOLATILE
	SET search_path = pg_catalog, pg_temp
	AS $$
DECLARE
	s text := (SELECT pg_catalog.quote_ident(n.nspname)
		FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = 'textfp');
	n bigint;
	big bigint;
BEGIN
	IF mode IS NULL OR mode NOT IN ('components', 'star') THEN
		RAISE EXCEPTION 'invalid clustering mode "%"', mode
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Valid modes are "components" and "star".';
	END IF;
	EXECUTE format('SELECT %s.textfp_cluster_pairs($1, $2, $3, $4)', s)
		USING tbl, key_column, fp_column, threshold;
	IF mode = 'components' THEN
		-- every key through its rep: components of reps, then members
		EXECUTE format('CREATE TEMP TABLE textfp_cluster_out AS
			SELECT u.key, u.cluster_key FROM %s.union_find(%L) u', s,
			'SELECT a, b FROM pg_temp.textfp_cluster_pairs UNION ALL SELECT key, NULL FROM pg_temp.textfp_cluster_keys');
	ELSE
		-- star over reps only (a row takes its rep's original: the same
		-- result as star over all rows, since equal rows have equal edges)
		EXECUTE format('CREATE TEMP TABLE textfp_cluster_out AS
			SELECT k.key, u.cluster_key
			FROM %s.union_find(%L, ''star'') u
			JOIN pg_temp.textfp_cluster_keys k ON k.rep = u.key', s,
			'SELECT p.a, p.b FROM pg_temp.textfp_cluster_pairs p
			   JOIN pg_temp.textfp_cluster_keys k ON k.key = p.b AND k.key = k.rep
			 UNION ALL SELECT key, NULL FROM pg_temp.textfp_cluster_keys WHERE key = rep');
	END IF;
	SELECT count(*), max(c) INTO n, big FROM (SELECT count(*) AS c FROM pg_temp.textfp_cluster_out o GROUP BY o.cluster_key) x;
	IF n > 0 THEN
		RAISE DEBUG 'cluster_table: % keys, largest cluster % keys', n, big;
	END IF;
	RETURN QUERY
		SELECT o.key, o.cluster_key, count(*) OVER (PARTITION BY o.cluster_key)
		FROM pg_temp.textfp_cluster_out o;
	DROP TABLE pg_temp.textfp_cluster_out, pg_temp.textfp_cluster_keys,
		pg_temp.textfp_cluster_reps, pg_temp.textfp_cluster_pairs;
END
$$;
COMMENT ON FUNCTION cluster_table(regclass, name, name, double precision, text)
	IS 'clusters a table''s rows by their fingerprints within threshold (NULL: the % setting): connected components or stars; cluster_key is the smallest key of the cluster';
