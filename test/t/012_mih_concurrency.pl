# mih under concurrency: CREATE INDEX CONCURRENTLY while sessions insert;
# sessions inserting, deleting and querying while VACUUM runs (splits and
# chains under contention); predicate locks under SERIALIZABLE (a lookup
# conflicts with inserts into the buckets it read, not with others); and the
# build's progress in pg_stat_progress_create_index.

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf',
	"max_pred_locks_per_transaction = 1024\nmax_pred_locks_per_relation = 1024\n" .
	"autovacuum = off\nmax_connections = 30\n");
$node->start;
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION textfp;
CREATE TABLE c (id bigserial PRIMARY KEY, fp simhash64);
INSERT INTO c (fp) SELECT CASE WHEN i % 6 = 0 THEN 'cafecafecafecafe'::simhash64
                               ELSE hashint8extended(i, 51)::simhash64 END
FROM generate_series(1, 40000) i;
});

my $tmp = PostgreSQL::Test::Utils::tempdir;
sub script
{
	my ($name, $sql) = @_;
	my $f = "$tmp/$name.sql";
	open my $fh, '>', $f or die "$f: $!";
	print $fh $sql;
	close $fh;
	return $f;
}
my $insert = script('insert', q{
\set k random(1, 1000000000)
INSERT INTO c (fp) VALUES (CASE WHEN :k % 5 = 0 THEN 'cafecafecafecafe'::simhash64
                                WHEN :k % 5 = 1 THEN ('cafecafecafecafe'::simhash64::bigint # (1::bigint << (:k % 64)))::simhash64
                                ELSE hashint8extended(:k, 52)::simhash64 END);
});
my $delete = script('delete', q{
\set k random(1, 40000)
DELETE FROM c WHERE id = :k;
});
my $query = script('query', q{
\set k random(1, 40000)
SELECT count(*) FROM c WHERE fp <@ hamming_ball((SELECT fp FROM c WHERE id = :k), 10);
SELECT count(*) FROM c WHERE fp % 'cafecafecafecafe';
});

sub pgbench_start
{
	my ($seconds, @scripts) = @_;
	my ($out, $err) = ('', '');
	my @cmd = ('pgbench', '-n', '-c', '4', '-j', '4', '-T', $seconds,
		'-h', $node->host, '-p', $node->port, map({ ('-f', $_) } @scripts), 'postgres');
	my $h = IPC::Run::start(\@cmd, '>', \$out, '2>', \$err);
	return [ $h, \$out, \$err ];
}

sub pgbench_finish
{
	my ($run, $what) = @_;
	my ($h, $out, $err) = @$run;
	$h->finish;
	is($h->result(0), 0, "pgbench ran without errors ($what)") or diag($$err);
	my ($n) = $$out =~ /number of transactions actually processed: (\d+)/;
	ok(($n // 0) > 0, "pgbench committed transactions ($what): " . ($n // 0));
	return;
}

# Waits until pgbench's clients have committed $n rows past id $from, or
# pgbench has ended, or $timeout_default has passed; returns the largest id.
# (Instead of sleeping: on a loaded machine pgbench may take seconds to start.)
sub wait_for_inserts
{
	my ($run, $from, $n) = @_;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (1)
	{
		my $max = $node->safe_psql('postgres', 'SELECT max(id) FROM c');
		# (IPC::Run sees that pgbench has ended only when pumped)
		my $running = eval { $run->[0]->pump_nb; 1 } && $run->[0]->pumpable;
		return $max if $max >= $from + $n || !$running || time > $deadline;
		usleep(50_000);
	}
}

my $seq = q{SET enable_indexscan = off; SET enable_bitmapscan = off;};
my $idx = q{SET enable_seqscan = off;};
my $radius_query = q{
SELECT r, lower(q::text), (SELECT count(*) FROM c WHERE fp <@ hamming_ball(q, r)),
       (SELECT count(*) FROM c WHERE fp % q)
FROM (SELECT DISTINCT fp AS q FROM c WHERE id % 4999 = 0
      UNION SELECT 'cafecafecafecafe') qs,
     unnest('{0,1,4,10,16,64}'::int[]) r
ORDER BY 1, 2};

sub check_exact
{
	my ($what) = @_;
	like($node->safe_psql('postgres', "$idx EXPLAIN (COSTS OFF) $radius_query"),
		qr/Bitmap Index Scan on c_mih/, "queries use the index ($what)");
	is($node->safe_psql('postgres', "$idx $radius_query"),
		$node->safe_psql('postgres', "$seq $radius_query"),
		"the index answers exactly ($what)");
	return;
}

# CREATE INDEX CONCURRENTLY while four sessions insert: once they are
# inserting (at least 100 rows committed)
my $run = pgbench_start(12, $insert);
my $before = wait_for_inserts($run, 40000, 100);
$node->safe_psql('postgres', 'CREATE INDEX CONCURRENTLY c_mih ON c USING mih (fp) WITH (m = 5)');
my $after = $node->safe_psql('postgres', 'SELECT max(id) FROM c');
note('rows inserted while the index was built: ' . ($after - $before));
pgbench_finish($run, 'inserts during CREATE INDEX CONCURRENTLY');
is($node->safe_psql('postgres',
		q{SELECT indisvalid AND indisready FROM pg_index WHERE indexrelid = 'c_mih'::regclass}),
	't', 'the concurrently built index is valid');
check_exact('built concurrently under inserts');

# inserts, deletes and queries, with VACUUM running meanwhile: three times,
# each after the sessions have written some more
$run = pgbench_start(12, $insert, $delete, $query);
my $last = $node->safe_psql('postgres', 'SELECT max(id) FROM c');
for (1 .. 3)
{
	$last = wait_for_inserts($run, $last, 100);
	$node->safe_psql('postgres', 'VACUUM c');
}
pgbench_finish($run, 'inserts, deletes and queries during VACUUM');
check_exact('after concurrent inserts, deletes and VACUUM');
$node->safe_psql('postgres', 'VACUUM c');
check_exact('after a final VACUUM');

# --- pending rows and TID reuse -----------------------------------------------
# A statement that fails inside a savepoint has inserted rows whose entries
# are still pending (they are written when a statement ends); the rows are
# dead at once and VACUUM in another session may give their TIDs to new rows
# before the transaction ends.  Their pending entries must be dropped with
# the savepoint, or the index would give a new row's TID for a dead row's
# fingerprint.
$node->safe_psql('postgres',
	q{CREATE TABLE r (id int, fp simhash64) WITH (autovacuum_enabled = off);
	  INSERT INTO r VALUES (1, '1111111111111111');
	  CREATE INDEX r_mih ON r USING mih (fp);});
my $a = $node->background_psql('postgres', on_error_stop => 0);
$a->query_safe(q{BEGIN; INSERT INTO r VALUES (2, '2222222222222222'); SAVEPOINT s;});
# the first row goes in (at (0,3)), the second fails
$a->query(q{INSERT INTO r SELECT i, CASE WHEN i = 3 THEN 'deaddeaddeaddead'::simhash64
                                         ELSE ((1 / (i - 4))::bigint)::simhash64 END
            FROM generate_series(3, 4) i});
like($a->{stderr}, qr/division by zero/, 'the statement failed after its first row');
$a->{stderr} = '';
$a->query_safe('ROLLBACK TO SAVEPOINT s;');
$node->safe_psql('postgres', 'VACUUM r');
is($node->safe_psql('postgres', q{INSERT INTO r VALUES (4, '4444444444444444') RETURNING ctid}),
	'(0,3)', 'a new row took the failed statement\'s TID');
$a->query_safe('COMMIT;');
$a->quit;
is($node->safe_psql('postgres',
		"$idx SELECT count(*) FROM r WHERE fp <@ hamming_ball('deaddeaddeaddead', 5)"),
	'0', 'the index does not give the new row for the dead row\'s fingerprint');
is($node->safe_psql('postgres',
		"$idx SELECT string_agg(id::text, ',' ORDER BY id) FROM r WHERE fp <@ hamming_ball(fp, 0)"),
	'1,2,4', 'and finds every committed row');

# --- SERIALIZABLE: predicate locks on the buckets a lookup read ------------

$node->safe_psql(
	'postgres', q{
CREATE TABLE s (id int, fp simhash64);
INSERT INTO s SELECT i, hashint8extended(i, 61)::simhash64 FROM generate_series(1, 200000) i;
CREATE INDEX s_mih ON s USING mih (fp);
ANALYZE s;
});

# Two sessions each look up a fingerprint and then insert one, as a write-time
# duplicate check does; returns the error of each COMMIT ('' when it commits).
sub lookup_then_insert
{
	my ($q1, $new1, $q2, $new2) = @_;
	my $s1 = $node->background_psql('postgres', on_error_stop => 0);
	my $s2 = $node->background_psql('postgres', on_error_stop => 0);
	for my $s ($s1, $s2)
	{
		$s->query_safe('SET enable_seqscan = off; BEGIN ISOLATION LEVEL SERIALIZABLE;');
	}
	$s1->query_safe("SELECT count(*) FROM s WHERE fp % '$q1'");
	$s2->query_safe("SELECT count(*) FROM s WHERE fp % '$q2'");
	$s1->query_safe("INSERT INTO s VALUES (-1, '$new1')");
	$s2->query_safe("INSERT INTO s VALUES (-2, '$new2')");
	my @errors;
	for my $s ($s1, $s2)
	{
		$s->{stderr} = '';
		$s->query('COMMIT');
		push @errors, $s->{stderr};
		$s->quit;
	}
	$node->safe_psql('postgres', 'DELETE FROM s WHERE id < 0');
	return @errors;
}

# near duplicates of each other's lookups: a serialization failure
my @e = lookup_then_insert('0000000000000000', 'ffffffffffffff00', 'ffffffffffffffff', '00000000000000ff');
ok((grep { /could not serialize/ } @e) == 1,
	'two lookups and inserts that see each other: one fails with 40001')
  or diag(join(' | ', @e));

# unrelated lookups and inserts: both commit
@e = lookup_then_insert('0000000000000000', '5555555555555555', 'ffffffffffffffff', 'aaaaaaaaaaaaaaaa');
ok(!(grep { /\S/ } @e), 'unrelated lookups and inserts both commit') or diag(join(' | ', @e));

# what a lookup locks: its buckets, not the index
my $locks = q{
BEGIN ISOLATION LEVEL SERIALIZABLE;
SET LOCAL enable_seqscan = off;
SELECT count(*) FROM s WHERE fp <@ hamming_ball('0123456789abcdef', %d);
SELECT locktype, count(*) FROM pg_locks
WHERE mode = 'SIReadLock' AND relation = 's_mih'::regclass AND pid = pg_backend_pid()
GROUP BY 1 ORDER BY 1;
COMMIT};
like($node->safe_psql('postgres', sprintf($locks, 10)), qr/^page\|\d+$/m,
	'a radius-10 lookup holds bucket (page) locks on the index');
unlike($node->safe_psql('postgres', sprintf($locks, 10)), qr/^relation/m,
	'and no lock on the whole index');
like($node->safe_psql('postgres', sprintf($locks, 64)), qr/^relation\|1$/m,
	'a full pass (radius 64) locks the whole index');

# with PostgreSQL's defaults (max_pred_locks_per_relation -2: half of
# max_pred_locks_per_transaction, 64, so 32 pages), a radius-10 lookup's
# bucket locks are promoted to a lock on the whole index
$node->safe_psql('postgres', 'ALTER SYSTEM SET max_pred_locks_per_relation = 32; SELECT pg_reload_conf();');
$node->poll_query_until('postgres', q{SELECT current_setting('max_pred_locks_per_relation') = '32'});
like($node->safe_psql('postgres', sprintf($locks, 10)), qr/^relation\|1$/m,
	'at the default limit of 32 pages the locks are promoted to an index lock');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET max_pred_locks_per_relation; SELECT pg_reload_conf();');

# --- build progress -----------------------------------------------------------

$node->safe_psql(
	'postgres', q{
CREATE TABLE p AS SELECT i AS id, hashint8extended(i, 71)::simhash64 AS fp
FROM generate_series(1, 1500000) i;
CREATE TABLE progress (phase text, tuples_total bigint, tuples_done bigint, blocks_total bigint);
});
my $builder = $node->background_psql('postgres');
$builder->query_until(qr/building/, q{
\echo building
CREATE INDEX p_mih ON p USING mih (fp) WITH (m = 6);
\echo built
});
# samples the progress view until the index is there (at most timeout_default)
$node->safe_psql(
	'postgres', qq{
DO \$\$
DECLARE
  deadline timestamptz := clock_timestamp() + interval '$PostgreSQL::Test::Utils::timeout_default s';
BEGIN
  WHILE clock_timestamp() < deadline LOOP
    INSERT INTO progress
    SELECT phase, tuples_total, tuples_done, blocks_total FROM pg_stat_progress_create_index
    WHERE relid = 'p'::regclass;
    PERFORM pg_stat_clear_snapshot();	-- backend status is cached per transaction
    EXIT WHEN EXISTS (SELECT FROM pg_class WHERE relname = 'p_mih')
          AND NOT EXISTS (SELECT FROM pg_stat_progress_create_index WHERE relid = 'p'::regclass);
    PERFORM pg_sleep(0.002);
  END LOOP;
END \$\$;
});
$builder->quit;
my $phases = $node->safe_psql('postgres',
	q{SELECT string_agg(DISTINCT phase, ',' ORDER BY phase) FROM progress});
like($phases, qr/building index: scanning table/, 'progress shows the table scan');
like($phases, qr/building index: writing tables/, 'progress shows the writing of the tables');
is( $node->safe_psql('postgres',
		q{SELECT max(tuples_total) FROM progress WHERE phase = 'building index: writing tables'}),
	'9000000', 'tuples_total is rows x m while writing');
is( $node->safe_psql('postgres',
		q{SELECT bool_and(tuples_done <= tuples_total) FROM progress WHERE phase = 'building index: writing tables'}),
	't', 'tuples_done stays within tuples_total');

$node->stop;
done_testing();
