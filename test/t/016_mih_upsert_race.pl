# mih and INSERT ... ON CONFLICT: a speculatively inserted row that loses the
# race on the arbiter index is killed at once (super-deleted) without any
# (sub)transaction abort.  VACUUM may then free its TID and another row take
# it while the inserting statement still runs; an entry for the dead row
# written after that (at the statement's end) would give the new row for the
# dead row's fingerprint.  Advisory locks, taken inside a slow IMMUTABLE
# expression of the unique index, hold the inserting session at each step
# (assignments, not PERFORM: a PERFORM is a query of its own, whose end would
# write the statement's pending rows early).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', "autovacuum = off\n");
$node->start;
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION textfp;
-- waits (in session B only) at the second evaluation for key 'aaaa' (the
-- unique index's insertion, after the conflict pre-check) and at any
-- evaluation for key 'zzzz' (the next row of the statement)
CREATE FUNCTION gate(x text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  n int;
  r text;
BEGIN
  IF current_setting('app.gate', true) = 'on' THEN
    IF x = 'aaaa' THEN
      n := current_setting('app.n')::int + 1;
      r := set_config('app.n', n::text, false);
      IF n = 2 THEN
        r := pg_advisory_lock_shared(1) IS NULL;
        r := pg_advisory_unlock_shared(1);
      END IF;
    ELSIF x = 'zzzz' THEN
      r := pg_advisory_lock_shared(2) IS NULL;
      r := pg_advisory_unlock_shared(2);
    END IF;
  END IF;
  RETURN x;
END $$;
CREATE TABLE t (k text, fp simhash64) WITH (autovacuum_enabled = off);
INSERT INTO t VALUES ('base', '1111111111111111');
CREATE INDEX t_mih ON t USING mih (fp);
CREATE UNIQUE INDEX t_k ON t (gate(k));
CREATE TABLE b_rows AS SELECT * FROM (VALUES ('aaaa', 'aaaaaaaaaaaaaaaa'::simhash64),
                                             ('zzzz', 'eeeeeeeeeeeeeeee'::simhash64)) v (k, fp);
});

my $locker = $node->background_psql('postgres');
$locker->query_safe('SELECT pg_advisory_lock(1), pg_advisory_lock(2)');

# B's statement is the first of its session to use textfp (no literal, no
# function of it): the library is loaded while the statement's executor starts
my $b = $node->background_psql('postgres', on_error_stop => 0);
$b->query_safe(q{SET app.gate = 'on'; SET app.n = '0';});
my $bpid = $b->query_safe('SELECT pg_backend_pid()');
$b->query_until(qr/started/, q{
\echo started
INSERT INTO t SELECT * FROM b_rows ORDER BY k ON CONFLICT DO NOTHING;
});

my $waiting = "SELECT count(*) = 1 FROM pg_locks WHERE pid = $bpid AND locktype = 'advisory' AND NOT granted AND objid = %d";
ok($node->poll_query_until('postgres', sprintf($waiting, 1)),
	'B inserted its row into the heap and waits in the unique index');
is($node->safe_psql('postgres', q{SELECT ctid FROM t WHERE k = 'aaaa'}), '',
	'(B\'s row is not visible)');

# A inserts the same key and commits: B's insertion into the unique index
# finds A's row, so B's heap tuple is super-deleted and its row skipped
$node->safe_psql('postgres', q{INSERT INTO t VALUES ('aaaa', 'bbbbbbbbbbbbbbbb')});
$locker->query_safe('SELECT pg_advisory_unlock(1)');
ok($node->poll_query_until('postgres', sprintf($waiting, 2)),
	'B went on to its next row (the statement has not ended)');

# the dead row's entry was written when it was inserted (the index scan
# gives its TID; the heap says it is dead), so VACUUM removes it with the tuple
like($node->safe_psql('postgres', q{SET enable_seqscan = off;
	EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT k FROM t WHERE fp = 'aaaaaaaaaaaaaaaa'}),
	qr/Bitmap Index Scan on t_mih \(actual rows=1 /, 'the speculative row\'s entry is in the index at once');

# VACUUM frees the dead tuple's TID and C's row takes it
$node->safe_psql('postgres', 'VACUUM (INDEX_CLEANUP ON) t');
is($node->safe_psql('postgres', q{INSERT INTO t VALUES ('cccc', 'cccccccccccccccc') RETURNING ctid}),
	'(0,2)', 'C\'s row took the TID of B\'s dead row');

$locker->query_safe('SELECT pg_advisory_unlock(2)');
$b->query_safe('SELECT 1');
$b->quit;
$locker->quit;

my $idx = 'SET enable_seqscan = off; SET enable_indexscan = off;';
like($node->safe_psql('postgres',
		"$idx EXPLAIN (COSTS OFF) SELECT k FROM t WHERE fp = 'aaaaaaaaaaaaaaaa'"),
	qr/Bitmap Index Scan on t_mih/, 'the lookups use the mih index');
is($node->safe_psql('postgres', "$idx SELECT string_agg(k, ',') FROM t WHERE fp = 'aaaaaaaaaaaaaaaa'"),
	'', 'the index gives no row for the dead row\'s fingerprint');
is($node->safe_psql('postgres', "$idx SELECT string_agg(k, ',' ORDER BY k) FROM t WHERE fp <@ hamming_ball(fp, 0)"),
	'aaaa,base,cccc,zzzz', 'and finds every row');

# the same with ON CONFLICT DO UPDATE, and rows that win: every row is found
$node->safe_psql('postgres', q{
INSERT INTO t SELECT 'k' || i, hashint8extended(i, 7)::simhash64 FROM generate_series(1, 300) i
ON CONFLICT (gate(k)) DO UPDATE SET fp = excluded.fp;
INSERT INTO t SELECT 'k' || i, hashint8extended(i, 8)::simhash64 FROM generate_series(1, 600) i
ON CONFLICT (gate(k)) DO UPDATE SET fp = excluded.fp;
INSERT INTO t SELECT 'k' || i, hashint8extended(i, 9)::simhash64 FROM generate_series(1, 900) i
ON CONFLICT DO NOTHING;});
is($node->safe_psql('postgres', "$idx SELECT count(*) FROM t WHERE fp <@ hamming_ball(fp, 0)"),
	$node->safe_psql('postgres', 'SELECT count(*) FROM t WHERE fp IS NOT NULL'),
	'after upserts the index finds as many rows as the table has');
is($node->safe_psql('postgres', "$idx SELECT count(*) FROM t WHERE fp = hashint8extended(5, 7)::simhash64"),
	'0', 'and no row for a fingerprint an update replaced');

$node->stop;
done_testing();
