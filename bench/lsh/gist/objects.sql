-- objects.sql: the SQL objects of the bloom GiST prototype (minhash_gist.c), made in a schema of
-- the benchmark's after CREATE EXTENSION textfp.  Not part of the extension.
CREATE TYPE gist_minhash_key;
CREATE FUNCTION gist_minhash_key_in(cstring) RETURNS gist_minhash_key AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_key_out(gist_minhash_key) RETURNS cstring AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE TYPE gist_minhash_key (INPUT = gist_minhash_key_in, OUTPUT = gist_minhash_key_out, INTERNALLENGTH = VARIABLE, STORAGE = plain);
CREATE FUNCTION gist_minhash_consistent(internal, minhash_sig, smallint, oid, internal) RETURNS boolean AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_distance(internal, minhash_sig, smallint, oid, internal) RETURNS float8 AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_union(internal, internal) RETURNS gist_minhash_key AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_compress(internal) RETURNS internal AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_decompress(internal) RETURNS internal AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_penalty(internal, internal, internal) RETURNS internal AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_picksplit(internal, internal) RETURNS internal AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_same(gist_minhash_key, gist_minhash_key, internal) RETURNS internal AS '$libdir/textfp' LANGUAGE C STRICT IMMUTABLE;
CREATE FUNCTION gist_minhash_options(internal) RETURNS void AS '$libdir/textfp' LANGUAGE C IMMUTABLE;
CREATE OPERATOR CLASS gist_minhash_bloom_ops FOR TYPE minhash_sig USING gist AS
	OPERATOR 1 = (minhash_sig, minhash_sig),
	OPERATOR 2 % (minhash_sig, minhash_sig),
	OPERATOR 3 <@ (minhash_sig, jaccard_ball),
	OPERATOR 15 <%> (minhash_sig, minhash_sig) FOR ORDER BY float_ops,
	FUNCTION 1 gist_minhash_consistent(internal, minhash_sig, smallint, oid, internal),
	FUNCTION 2 gist_minhash_union(internal, internal),
	FUNCTION 3 gist_minhash_compress(internal),
	FUNCTION 4 gist_minhash_decompress(internal),
	FUNCTION 5 gist_minhash_penalty(internal, internal, internal),
	FUNCTION 6 gist_minhash_picksplit(internal, internal),
	FUNCTION 7 gist_minhash_same(gist_minhash_key, gist_minhash_key, internal),
	FUNCTION 8 gist_minhash_distance(internal, minhash_sig, smallint, oid, internal),
	FUNCTION 10 gist_minhash_options(internal),
	STORAGE gist_minhash_key;
