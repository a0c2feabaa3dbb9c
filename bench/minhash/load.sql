-- load.sql: the rows, the queries and the reference answers of the MinHash GIN benchmark,
-- deterministic from the psql variables rows, queries, query_rows, insert_rows and
-- min_threshold; and the helpers the other scripts share (schema bench).
--
-- Synthetic shingle sets, each signed with minhash(bigint[], 128) (one-permutation hashing,
-- seed 0).  Pseudo-random values come from hashint8extended(value, seed), PostgreSQL's 64-bit
-- integer hash (stable across platforms and releases), a different seed for each purpose, so
-- every run makes the same rows.  Ids come in blocks of ten, one block a family:
--   slot 0     root: a base document of 100 to 400 random 64-bit shingles
--   slots 1-6  members: edited copies of the root.  Each draws a target Jaccard t uniform in
--              0.40..0.98 and a drop share p uniform in 0..(1 - t), drops round(p * root
--              size) of the root's shingles (a run of positions from a random start), and
--              adds round(kept / t - root size) new random shingles, so that its true Jaccard
--              with the root, kept / (root size + added), is t up to rounding; the exact value
--              is recorded (bench.rowinfo.true_j).  Two members of a family share part of the
--              root too, so they are similar to each other.
--   slots 7-9  unrelated base documents of 100 to 400 shingles.
-- At 1M rows: 100k roots, 600k members, 300k unrelated rows.
--
-- Queries (bench.queries): :queries row signatures, odd numbers a member of a family, even
-- numbers an unrelated row, rows chosen pseudo-randomly among the first :query_rows.  Each
-- answer holds the query row itself; a member's also holds its root and siblings, as far as
-- their similarity reaches the threshold.
--
-- Reference (bench.ref): one pass over mh with every query, jaccard(sig, q) (the estimate,
-- computed by a function the index does not use), every (query, row) pair with an estimate of
-- at least :min_threshold.
--
-- Also: :insert_rows new rows for the insert test (bench.new_rows, ids after :rows, the same
-- generator), the statistics of the planted families (bench.jstats) and the table's size.

\set ON_ERROR_STOP on

CREATE EXTENSION textfp;
CREATE EXTENSION pg_prewarm;
CREATE SCHEMA bench;

-- a pseudo-random number in [0, 1) from (x, seed)
CREATE FUNCTION bench.u(x bigint, seed bigint) RETURNS float8
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql AS $$
	SELECT (hashint8extended(x, seed) & 16777215)::float8 / 16777216
$$;

-- Rows lo..hi: id, family (the root's id, for roots and members), kind, shingle count, true
-- Jaccard with the root (members), and the shingle set.  A member drops d = round(p * size)
-- of the root's shingles, those at positions off .. off + d - 1 (cyclically; the shingles
-- are independent random values, so which positions go does not matter), and adds a new
-- ones.  One array subquery per row: the executor's per-element cost is what loading takes.
-- (Only the shingle arrays go through the executor element by element.)
CREATE FUNCTION bench.gen(lo bigint, hi bigint)
RETURNS TABLE (id int, fam int, kind text, n int, true_j float8, sh bigint[])
IMMUTABLE LANGUAGE sql AS $$
	SELECT i::int, fam::int, kind, nb - d + a,
		CASE WHEN kind = 'member' THEN (nb - d)::float8 / (nb + a) END,
		ARRAY(SELECT CASE WHEN jj < nb THEN hashint8extended(doc * 1024 + jj, 11)
					ELSE hashint8extended(i * 1024 + (jj - nb), 12) END
			  FROM generate_series(0, nb + a - 1) jj
			  WHERE jj >= nb OR (jj - off + nb) % nb >= d)
	FROM (SELECT *, CASE WHEN kind = 'member'
				THEN greatest(0, round((nb - d) / t - nb))::int ELSE 0 END AS a
		  FROM (SELECT *, CASE WHEN kind = 'member'
						THEN round(nb * bench.u(i, 32) * (1 - t))::int ELSE 0 END AS d,
					(hashint8extended(i, 34) & 65535)::int % nb AS off
				FROM (SELECT *, 100 + ((hashint8extended(doc, 21) & 65535) % 301)::int AS nb,
							0.40 + 0.58 * bench.u(i, 31) AS t     -- a member's target Jaccard
					  FROM (SELECT i, CASE WHEN slot <= 6 THEN root END AS fam,
								CASE WHEN slot = 0 THEN 'root' WHEN slot <= 6 THEN 'member'
									ELSE 'unrelated' END AS kind,
								-- whose base document: a member's is its root's
								CASE WHEN slot BETWEEN 1 AND 6 THEN root ELSE i END AS doc
							FROM (SELECT i, (i - 1) % 10 AS slot, i - (i - 1) % 10 AS root
								  FROM generate_series(lo, hi) i) b) k) p) q
		  -- a fence: without it the planner pulls these expressions into the array subquery
		  -- and evaluates them again for every element
		  OFFSET 0) r
$$;

-- This backend's time on a CPU so far, in ns, or null where the kernel does not give it.
CREATE FUNCTION bench.cpu_ns() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
	RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint;
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END $$;

CREATE TABLE bench.timings (
	what text, bits int, relation text, ms float8, cpu_ms float8, rows bigint);
CREATE TABLE bench.sizes (stage text, bits int, relation text, bytes bigint, rows bigint);

-- One statement in a transaction of its own, committed, timed and recorded.  CALL it at top
-- level so that it may commit.
CREATE PROCEDURE bench.timed(what text, bits int, relation text, stmt text)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	c0 bigint;
	n bigint;
BEGIN
	COMMIT;
	c0 := bench.cpu_ns();
	t0 := clock_timestamp();
	EXECUTE stmt;
	GET DIAGNOSTICS n = ROW_COUNT;
	COMMIT;
	INSERT INTO bench.timings VALUES (what, bits, relation,
		1000 * extract(epoch FROM clock_timestamp() - t0), (bench.cpu_ns() - c0) / 1e6, n);
	COMMIT;
END $$;

-- Size of a relation (main fork; the heap's TOAST too, in its own line), and its rows.
CREATE PROCEDURE bench.record_size(stage text, bits int, rel text)
LANGUAGE sql AS $$
	INSERT INTO bench.sizes
	SELECT stage, bits, c.relname, pg_relation_size(c.oid),
		CASE WHEN c.relkind = 'r' THEN c.reltuples::bigint END
	FROM pg_class c WHERE c.relname = rel
	UNION ALL
	SELECT stage, bits, c.relname || ' (toast)', pg_relation_size(c.reltoastrelid), NULL
	FROM pg_class c WHERE c.relname = rel AND c.reltoastrelid <> 0
$$;

-- The table: the signature and an id, nothing else; what the generator knows goes to
-- bench.rowinfo.
CREATE TABLE mh (id int NOT NULL, sig minhash_sig NOT NULL);
CREATE TABLE bench.rowinfo (id int PRIMARY KEY, fam int, kind text, n int, true_j float8);

SET work_mem = '256MB';
SET bench.rows = :'rows';
DO $$
DECLARE
	n bigint := current_setting('bench.rows')::bigint;
	chunk bigint := 100000;
	lo bigint := 1;
BEGIN
	WHILE lo <= n LOOP
		WITH g AS (SELECT * FROM bench.gen(lo, least(n, lo + chunk - 1))),
		info AS (INSERT INTO bench.rowinfo SELECT g.id, g.fam, g.kind, g.n, g.true_j FROM g)
		INSERT INTO mh SELECT g.id, minhash(g.sh, 128) FROM g ORDER BY g.id;
		COMMIT;
		RAISE NOTICE 'rows % .. % loaded', lo, least(n, lo + chunk - 1);
		lo := lo + chunk;
	END LOOP;
END $$;

VACUUM (FREEZE, ANALYZE) mh;
VACUUM (ANALYZE) bench.rowinfo;
CALL bench.record_size('load', NULL, 'mh');

-- the queries: odd numbers a family member, even numbers an unrelated row
CREATE TABLE bench.queries (qno int PRIMARY KEY, qset text NOT NULL, src_id int NOT NULL,
	q minhash_sig NOT NULL);
INSERT INTO bench.queries
SELECT p.qno, p.qset, t.id, t.sig
FROM (SELECT qno, CASE WHEN qno % 2 = 1 THEN 'family' ELSE 'unrelated' END AS qset,
		-- block (hash mod blocks), then a member slot (1..6) or an unrelated slot (7..9)
		((hashint8extended(qno, 41) & 1048575) % (:query_rows / 10)) * 10 + 1
			+ CASE WHEN qno % 2 = 1 THEN 1 + (hashint8extended(qno, 42) & 65535) % 6
				ELSE 7 + (hashint8extended(qno, 42) & 65535) % 3 END AS src
	  FROM generate_series(1, :queries) qno) p
JOIN mh t ON t.id = p.src;

-- the reference: every (query, row) pair with an estimate of at least :min_threshold
CREATE TABLE bench.ref AS
SELECT q.qno, t.id, jaccard(t.sig, q.q) AS est
FROM mh t, (SELECT * FROM bench.queries OFFSET 0) q
WHERE jaccard(t.sig, q.q) >= :min_threshold;

-- the planted families: members' true Jaccard with the root against the estimate
CREATE TABLE bench.jstats AS
SELECT width_bucket(i.true_j, 0.4, 1.0, 6) AS bucket,
	0.4 + 0.1 * (width_bucket(i.true_j, 0.4, 1.0, 6) - 1) AS j_from,
	count(*) AS members, avg(i.true_j) AS mean_true_j,
	avg(jaccard(m.sig, r.sig)) AS mean_estimate,
	avg(jaccard(m.sig, r.sig) - i.true_j) AS bias,
	sqrt(avg((jaccard(m.sig, r.sig) - i.true_j) ^ 2)) AS rmse,
	min(i.true_j) AS min_true_j, max(i.true_j) AS max_true_j
FROM bench.rowinfo i JOIN mh m ON m.id = i.id JOIN mh r ON r.id = i.fam
WHERE i.kind = 'member'
GROUP BY 1 ORDER BY 1;

CREATE TABLE bench.kinds AS
SELECT kind, count(*) AS rows, avg(n) AS mean_n, min(n) AS min_n, max(n) AS max_n
FROM bench.rowinfo GROUP BY kind ORDER BY kind;

-- new rows for the insert test: the same generator, ids after the loaded ones, signed now
CREATE TABLE bench.new_rows AS
SELECT id, minhash(sh, 128) AS sig FROM bench.gen(:rows + 1, :rows + :insert_rows) ORDER BY id;
VACUUM (ANALYZE) bench.new_rows;

-- filled by bench.sql, once per index
CREATE TABLE bench.results (
	bits int, rows bigint, pass int, seq int, qno int, qset text, threshold float8, method text,
	ms float8, cpu_ms float8, n int, answer text, plan text);
CREATE TABLE bench.default_plans (
	bits int, rows bigint, threshold float8, qno int, qset text, plan text, est_rows float8,
	total_cost float8, actual_rows int);
