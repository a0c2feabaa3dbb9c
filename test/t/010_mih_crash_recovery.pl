# Crash recovery of mih indexes: the build (every page logged whole) and every
# later change (inserts, range page splits, overflow chains, VACUUM's
# deletes, a build after the checkpoint) are replayed from WAL after an
# immediate shutdown; wal_consistency_checking = 'generic' makes the replay
# compare each replayed page with the image the primary logged.  Committed
# rows are all found through the indexes, exactly as a sequential scan finds
# them, uncommitted ones are gone, and an unlogged table's index comes back
# empty and usable.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf',
	"checkpoint_timeout = '1h'\nmax_wal_size = '1GB'\nwal_consistency_checking = 'generic'\n");
$node->start;

# Rows: unrelated fingerprints, families, and 1500 copies of one value with
# 500 one bit away (buckets far larger than a page: overflow chains).
my $rows = q{
CREATE FUNCTION rows(lo int, hi int) RETURNS TABLE (id int, fp simhash64)
LANGUAGE sql IMMUTABLE AS $$
  SELECT i, CASE
    WHEN i % 97 = 5 THEN NULL
    WHEN i % 10 < 6 THEN hashint8extended(i, 31)::simhash64
    WHEN i % 10 < 8 THEN (hashint8extended(i / 100, 32) # (1::bigint << (i % 64)))::simhash64
    WHEN i % 10 = 8 THEN 'cafecafecafecafe'::simhash64
    ELSE ('cafecafecafecafe'::simhash64::bigint # (1::bigint << (i % 64)))::simhash64
  END
  FROM generate_series(lo, hi) i
$$;
};

$node->safe_psql(
	'postgres', qq{
CREATE EXTENSION textfp;
$rows
CREATE TABLE t (id int PRIMARY KEY, fp simhash64);
INSERT INTO t SELECT * FROM rows(1, 15000);
CREATE INDEX t_mih ON t USING mih (fp) WITH (m = 4);
CREATE INDEX t_mih8 ON t USING mih (fp) WITH (m = 8, fillfactor = 100);
CREATE UNLOGGED TABLE u (id int, fp simhash64);
CREATE INDEX u_mih ON u USING mih (fp);
INSERT INTO u SELECT * FROM rows(1, 2000);
CHECKPOINT;
});

# After the checkpoint: only in WAL when the server dies.  Inserts split the
# full range pages of t_mih8 and grow chains; VACUUM removes entries and
# marks chains with room; the later inserts use that room.
$node->safe_psql(
	'postgres', q{
INSERT INTO t SELECT * FROM rows(15001, 30000);
UPDATE t SET fp = hashint8extended(id, 33)::simhash64 WHERE id % 7 = 0;
DELETE FROM t WHERE id % 3 = 0;
VACUUM t;
INSERT INTO t SELECT id + 100000, fp FROM rows(1, 6000);
CREATE TABLE t2 AS SELECT * FROM t WHERE id % 2 = 0;
CREATE INDEX t2_mih ON t2 USING mih (fp);
INSERT INTO t2 SELECT id + 200000, fp FROM t WHERE id % 2 = 1 AND id < 4000;
INSERT INTO u SELECT * FROM rows(2001, 3000);
});

# Never committed: an open transaction when the server dies.
my $bg = $node->background_psql('postgres');
$bg->query_safe(
	q{BEGIN;
INSERT INTO t SELECT id + 500000, fp FROM rows(1, 3000);
INSERT INTO t2 SELECT id + 500000, fp FROM rows(1, 3000);});

my $seq = q{SET enable_indexscan = off; SET enable_bitmapscan = off;};
my $idx = q{SET enable_seqscan = off;};

# For each query fingerprint and radius, the ids within the radius (as a
# count and a checksum of the ids).
sub radius_query
{
	my ($table) = @_;
	return qq{
SELECT r, lower(q::text), count(*), coalesce(sum(id::bigint * 7919 % 1000003), 0)
FROM (SELECT DISTINCT fp AS q FROM $table WHERE id % 1009 = 0 AND fp IS NOT NULL
      UNION SELECT 'cafecafecafecafe' UNION SELECT '0123456789abcdef') qs
     CROSS JOIN unnest('{0,1,3,6,10,16,24,40,64}'::int[]) r
     LEFT JOIN $table ON $table.fp <@ hamming_ball(q, r)
GROUP BY 1, 2 ORDER BY 1, 2};
}

my %before;
$before{$_} = $node->safe_psql('postgres', $seq . radius_query($_)) for qw(t t2);
my $count_before = $node->safe_psql('postgres', 'SELECT count(*) FROM t');

my $log_offset = -s $node->logfile;
$node->stop('immediate');
eval { $bg->quit; };
$node->start;
ok($node->log_contains('redo starts at', $log_offset), 'the restart replayed WAL');
ok(!$node->log_contains('inconsistent page found', $log_offset),
	'every replayed page matches the logged image (wal_consistency_checking)');

is($node->safe_psql('postgres', 'SELECT count(*) FROM t'), $count_before,
	'the committed rows are there');
is($node->safe_psql('postgres', 'SELECT count(*) FROM t WHERE id > 500000'),
	'0', 'the uncommitted rows are gone');

for my $table (qw(t t2))
{
	is($node->safe_psql('postgres', $seq . radius_query($table)),
		$before{$table}, "sequential scan of $table unchanged by recovery");
}

# Each index alone answers as the sequential scan did before the crash.
for my $case ([ 't', 't_mih', 't_mih8' ], [ 't', 't_mih8', 't_mih' ], [ 't2', 't2_mih', undef ])
{
	my ($table, $index, $other) = @$case;
	my $drop = defined $other ? "BEGIN; DROP INDEX $other;" : 'BEGIN;';
	like(
		$node->safe_psql('postgres',
			"$drop $idx EXPLAIN (COSTS OFF) " . radius_query($table) . '; ROLLBACK;'),
		qr/Bitmap Index Scan on $index/,
		"radius queries use $index");
	is($node->safe_psql('postgres', "$drop $idx " . radius_query($table) . '; ROLLBACK;'),
		$before{$table}, "$index answers exactly after crash recovery");
}

# The unlogged table is empty again, its index usable.
is($node->safe_psql('postgres', "$idx SELECT count(*) FROM u WHERE fp % 'cafecafecafecafe'"),
	'0', 'the unlogged table\'s index is empty after the crash');
$node->safe_psql('postgres', 'INSERT INTO u SELECT * FROM rows(1, 3000)');
is( $node->safe_psql('postgres',
		"$idx SELECT count(*) FROM u WHERE fp <@ hamming_ball('cafecafecafecafe', 1)"),
	$node->safe_psql('postgres',
		"$seq SELECT count(*) FROM u WHERE fp <@ hamming_ball('cafecafecafecafe', 1)"),
	'and answers exactly after new inserts');

# Still writable: new rows reach the indexes; VACUUM works.
$node->safe_psql('postgres',
	q{INSERT INTO t VALUES (-1, '0123456789abcdef'); DELETE FROM t WHERE id % 11 = 0; VACUUM t;});
is( $node->safe_psql('postgres',
		"$idx SELECT string_agg(id::text, ',' ORDER BY id) FROM t WHERE fp = '0123456789abcdef'"),
	$node->safe_psql('postgres',
		"$seq SELECT string_agg(id::text, ',' ORDER BY id) FROM t WHERE fp = '0123456789abcdef'"),
	'a row inserted after recovery is found');
is($node->safe_psql('postgres', "$idx " . radius_query('t')),
	$node->safe_psql('postgres', "$seq " . radius_query('t')),
	'exact after inserts, deletes and VACUUM following recovery');

$node->stop;
done_testing();
