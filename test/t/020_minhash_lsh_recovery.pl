# Crash recovery of LSH band indexes (gin_minhash_lsh_ops): built before a checkpoint, then
# inserts (through the pending list and straight into the tree), updates, deletes and an
# uncommitted transaction exist only in WAL when the server dies; after recovery every index
# answers @@ lsh_query exactly as a sequential scan does, and takes new rows.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('lsh');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', "checkpoint_timeout = '1h'\nmax_wal_size = '1GB'\n");
$node->start;

# Families of overlapping word sets: rows g and g + 1 .. g + 9 share most words.
my $sig = q{minhash((SELECT string_agg('w' || (g / 10 * 50 + j), ' ')
                     FROM generate_series(g % 10, g % 10 + 80) j))};

$node->safe_psql(
	'postgres', qq{
CREATE EXTENSION textfp;
CREATE TABLE lsh (id integer PRIMARY KEY, sig minhash_sig(128));
INSERT INTO lsh SELECT g, $sig FROM generate_series(1, 1500) AS g;
INSERT INTO lsh VALUES (-1, minhash('')), (-2, NULL);
-- the default options with a pending list; 16 x 8 with full keys and no pending list;
-- 64 x 2 with 4-bit keys (every key shared by many rows)
CREATE INDEX lsh_default ON lsh USING gin (sig gin_minhash_lsh_ops);
CREATE INDEX lsh_16x8 ON lsh USING gin (sig gin_minhash_lsh_ops (bands = 16, rows = 8, bits = 32))
	WITH (fastupdate = off);
CREATE INDEX lsh_64x2 ON lsh USING gin (sig gin_minhash_lsh_ops (bands = 64, rows = 2, bits = 4))
	WITH (fastupdate = off);
CHECKPOINT;
});

$node->safe_psql(
	'postgres', qq{
INSERT INTO lsh SELECT g, $sig FROM generate_series(1501, 3000) AS g;
UPDATE lsh SET sig = minhash('updated ' || id) WHERE id BETWEEN 100 AND 149;
UPDATE lsh SET sig = minhash('') WHERE id BETWEEN 150 AND 159;
DELETE FROM lsh WHERE id BETWEEN 300 AND 349;
});

my $bg = $node->background_psql('postgres');
$bg->query_safe(
	qq{BEGIN;
INSERT INTO lsh SELECT 50000 + g, $sig FROM generate_series(1, 300) AS g;});

my $log_offset = -s $node->logfile;
$node->stop('immediate');
eval { $bg->quit; };
$node->start;
ok($node->log_contains('redo starts at', $log_offset), 'the restart replayed WAL');
is( $node->safe_psql('postgres', 'SELECT count(*), count(*) FILTER (WHERE id > 50000) FROM lsh'),
	'2952|0', 'the committed rows are there, the uncommitted ones gone');

# Per query row and banding, the rows found; the same query under each index.
my %bandings = (
	lsh_default => [ [ 44, 1, 10 ], [ 44, 1, 4 ], [ 20, 1, 5 ] ],
	lsh_16x8    => [ [ 16, 8, 1 ], [ 16, 8, 2 ] ],
	lsh_64x2    => [ [ 64, 2, 4 ], [ 40, 2, 2 ] ]);
for my $index (sort keys %bandings)
{
	my $values = join(', ', map { '(' . join(', ', @$_) . ')' } @{ $bandings{$index} });
	my $query = qq{
SELECT q.id, b, r, m, (SELECT count(*) FROM lsh WHERE sig @@ lsh_query(q.sig, b, r, m))
FROM lsh q, (VALUES $values) v(b, r, m)
WHERE q.id % 37 = 0 OR q.id = -1
ORDER BY 1, 2, 3, 4};
	my $drop = join(' ', map { "DROP INDEX $_;" } grep { $_ ne $index } sort keys %bandings);
	my $seq = $node->safe_psql('postgres',
		"SET enable_indexscan = off; SET enable_bitmapscan = off; $query");
	like(
		$node->safe_psql('postgres',
			"BEGIN; $drop SET enable_seqscan = off; EXPLAIN (COSTS OFF) $query; ROLLBACK;"),
		qr/Bitmap Index Scan on $index/,
		"lookups use $index");
	is($node->safe_psql('postgres', "BEGIN; $drop SET enable_seqscan = off; $query; ROLLBACK;"),
		$seq, "$index answers \@\@ like a sequential scan after crash recovery");
	like($seq, qr/\|([2-9]|\d\d+)$/m, "$index: some queries find family members");
}

# Still writable, and a new row reaches every index.
$node->safe_psql('postgres', qq{INSERT INTO lsh SELECT 90000, $sig FROM (SELECT 2001 AS g) s});
for my $index (sort keys %bandings)
{
	my ($b, $r, $m) = @{ $bandings{$index}[0] };
	my $drop = join(' ', map { "DROP INDEX $_;" } grep { $_ ne $index } sort keys %bandings);
	is( $node->safe_psql(
			'postgres', qq{BEGIN; $drop SET enable_seqscan = off;
			SELECT count(*) FROM lsh WHERE id = 90000 AND sig @@ lsh_query((SELECT sig FROM lsh WHERE id = 2001), $b, $r, $m);
			ROLLBACK;}),
		'1',
		"$index finds a row inserted after recovery");
}

$node->stop;
done_testing();
