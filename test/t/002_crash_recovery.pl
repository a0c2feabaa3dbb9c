# Crash recovery of simhash64 and minhash_sig data: rows and their btree, hash, GiST, SP-GiST and GIN
# indexes are rebuilt from WAL after an immediate shutdown, committed changes are all
# there, an uncommitted transaction's are not, and index scans find every row.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
# Keep WAL on disk past any automatic checkpoint, so recovery replays it.
$node->append_conf('postgresql.conf', "checkpoint_timeout = '1h'\nmax_wal_size = '1GB'\n");
$node->start;

$node->safe_psql(
	'postgres', q{
CREATE EXTENSION textfp;
CREATE TABLE fps (id integer PRIMARY KEY, body text, fp simhash64);
-- before the checkpoint: on disk after it
INSERT INTO fps (id, body, fp)
	SELECT g, 'row ' || g, simhash('row ' || g || ' of the first batch')
	FROM generate_series(1, 2000) AS g;
INSERT INTO fps (id, body, fp) VALUES
	(-1, 'all ones', 'ffffffffffffffff'),
	(-2, 'all zeros', '0000000000000000'),
	(-3, 'top bit', '8000000000000000'),
	(-4, 'all but top bit', '7fffffffffffffff'),
	(-5, 'null', NULL);
CREATE INDEX fps_btree ON fps USING btree (fp);
CREATE INDEX fps_hash ON fps USING hash (fp);
CREATE INDEX fps_gist ON fps USING gist (fp);
CREATE INDEX fps_spgist ON fps USING spgist (fp);
CREATE INDEX fps_gin ON fps USING gin (fp) WITH (fastupdate = off);
-- minhash signatures of word sets, families of overlapping sets; one GIN
-- index with a pending list, one without
CREATE TABLE mhs (id integer PRIMARY KEY, sig minhash_sig(64));
INSERT INTO mhs
	SELECT g, minhash((SELECT string_agg('w' || (g / 10 * 50 + j), ' ')
	                   FROM generate_series(g % 10, g % 10 + 80) j), 64)
	FROM generate_series(1, 1000) AS g;
CREATE INDEX mhs_gin ON mhs USING gin (sig);
CREATE INDEX mhs_gin32 ON mhs USING gin (sig gin_minhash_ops (bits = 32)) WITH (fastupdate = off);
CHECKPOINT;
});

# After the checkpoint: these exist only in WAL when the server dies.
$node->safe_psql(
	'postgres', q{
INSERT INTO fps (id, body, fp)
	SELECT g, 'row ' || g, simhash('row ' || g || ' of the second batch')
	FROM generate_series(2001, 4000) AS g;
-- duplicates of existing fingerprints
INSERT INTO fps (id, body, fp)
	SELECT 10000 + id, 'duplicate ' || id, fp FROM fps WHERE id BETWEEN 1 AND 50;
UPDATE fps SET fp = simhash('updated ' || id) WHERE id BETWEEN 100 AND 199;
DELETE FROM fps WHERE id BETWEEN 300 AND 349;
INSERT INTO fps (id, body, fp) VALUES (-6, 'after checkpoint', 'fffffffffffffffe');
INSERT INTO mhs
	SELECT g, minhash((SELECT string_agg('w' || (g / 10 * 50 + j), ' ')
	                   FROM generate_series(g % 10, g % 10 + 80) j), 64)
	FROM generate_series(1001, 2000) AS g;
UPDATE mhs SET sig = minhash('updated ' || id, 64) WHERE id BETWEEN 100 AND 149;
DELETE FROM mhs WHERE id BETWEEN 300 AND 329;
});

# Fingerprints never committed: an open transaction when the server dies.
my $bg = $node->background_psql('postgres');
$bg->query_safe(
	q{BEGIN;
INSERT INTO fps (id, body, fp)
	SELECT 50000 + g, 'uncommitted ' || g, simhash('uncommitted ' || g)
	FROM generate_series(1, 500) AS g;
INSERT INTO mhs SELECT 50000 + g, minhash('uncommitted ' || g, 64) FROM generate_series(1, 200) AS g;});

my $rows_query = q{
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT id || ' ' || coalesce(fp::text, '<null>') FROM fps ORDER BY id};
my $before = $node->safe_psql('postgres', $rows_query);
my @rows = split /\n/, $before;
is(scalar @rows, 2000 + 5 + 2000 + 50 - 50 + 1, 'rows committed before the crash');

my $log_offset = -s $node->logfile;
$node->stop('immediate');
eval { $bg->quit; };
$node->start;
ok($node->log_contains('redo starts at', $log_offset),
	'the restart replayed WAL');

is($node->safe_psql('postgres', $rows_query), $before,
	'the same rows after crash recovery (sequential scan)');
is( $node->safe_psql('postgres', 'SELECT count(*) FROM fps WHERE id > 50000'),
	'0', 'the uncommitted rows are gone');
is( $node->safe_psql('postgres', 'SELECT count(*), count(*) FILTER (WHERE id > 50000) FROM mhs'),
	'1970|0', 'the committed minhash rows are there, the uncommitted ones gone');

# Expected answers, from the sequential scan: how many rows have each
# fingerprint, and all fingerprints in unsigned order (16 hex digits sort
# as text in the same order).
my (%count, @fps);
for my $row (@rows)
{
	my ($id, $fp) = split / /, $row;
	next if $fp eq '<null>';
	$count{ lc $fp }++;
	push @fps, lc $fp;
}
@fps = sort @fps;
my $expected_counts =
  join("\n", map { "$_ $count{$_}" } sort keys %count);

my $index_only = q{
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_sort = off;
};

# For every distinct fingerprint, the rows an equality lookup finds.
my $lookup_query = q{
SELECT lower(d.fp::text) || ' ' || (SELECT count(*) FROM fps f WHERE f.fp = d.fp)
FROM (SELECT DISTINCT fp FROM fps WHERE fp IS NOT NULL) AS d
ORDER BY 1};

my @indexes = qw(fps_btree fps_hash fps_gist fps_spgist);
my @all_indexes = (@indexes, 'fps_gin');    # GIN has bitmap scans only: radius checks below

# SQL that leaves only $index usable, inside a transaction rolled back by $end.
sub only
{
	my ($index) = @_;
	return 'BEGIN; ' . join(' ', map { "DROP INDEX $_;" } grep { $_ ne $index } @all_indexes);
}

sub check_lookups
{
	my ($index) = @_;
	my $drop = only($index);
	my $end = 'ROLLBACK;';

	like(
		$node->safe_psql('postgres',
			"$drop $index_only EXPLAIN (COSTS OFF) $lookup_query; $end"),
		qr/using $index/,
		"lookups use $index");
	is($node->safe_psql('postgres', "$drop $index_only $lookup_query; $end"),
		$expected_counts, "$index finds every row after crash recovery");

	# Boundary values, one by one.
	for my $v (qw(ffffffffffffffff fffffffffffffffe 0000000000000000
		8000000000000000 7fffffffffffffff))
	{
		is( $node->safe_psql(
				'postgres',
				"$drop $index_only SELECT count(*) FROM fps WHERE fp = '$v'; $end"
			),
			$count{$v} // 0,
			"$index finds $v");
	}
	return;
}

check_lookups($_) for @indexes;

# The tree and GIN indexes answer radius searches exactly as a sequential scan does.
my $radius_query = q{
SELECT r, lower(q::text), (SELECT count(*) FROM fps WHERE fp <@ hamming_ball(q, r))
FROM (SELECT DISTINCT fp AS q FROM fps WHERE id % 97 = 0 AND fp IS NOT NULL) qs,
     generate_series(0, 6) r
ORDER BY 1, 2};
my $seq_radius = $node->safe_psql('postgres',
	"SET enable_indexscan = off; SET enable_bitmapscan = off;
	 SET enable_indexonlyscan = off; $radius_query");
for my $index (qw(fps_gist fps_spgist fps_gin))
{
	my $drop = only($index);
	like(
		$node->safe_psql('postgres',
			"$drop SET enable_seqscan = off; EXPLAIN (COSTS OFF) $radius_query; ROLLBACK;"),
		qr/on $index/,
		"radius searches use $index");
	is( $node->safe_psql('postgres',
			"$drop SET enable_seqscan = off; $radius_query; ROLLBACK;"),
		$seq_radius,
		"$index answers radius searches like a sequential scan after recovery");
}

# Both minhash GIN indexes answer Jaccard searches exactly as a sequential scan does.
my $jaccard_query = q{
SELECT t, q.id, (SELECT count(*) FROM mhs WHERE sig <@ jaccard_ball(q.sig, t))
FROM mhs q, unnest('{0.3,0.5,0.8,1}'::float8[]) t
WHERE q.id % 41 = 0
ORDER BY 1, 2};
my $seq_jaccard = $node->safe_psql('postgres',
	"SET enable_indexscan = off; SET enable_bitmapscan = off; $jaccard_query");
for my $index (qw(mhs_gin mhs_gin32))
{
	my $other = $index eq 'mhs_gin' ? 'mhs_gin32' : 'mhs_gin';
	my $drop = "BEGIN; DROP INDEX $other;";
	like(
		$node->safe_psql('postgres',
			"$drop SET enable_seqscan = off; EXPLAIN (COSTS OFF) $jaccard_query; ROLLBACK;"),
		qr/on $index/,
		"Jaccard searches use $index");
	is( $node->safe_psql('postgres',
			"$drop SET enable_seqscan = off; $jaccard_query; ROLLBACK;"),
		$seq_jaccard,
		"$index answers Jaccard searches like a sequential scan after recovery");
}

# The btree returns all fingerprints in unsigned order.
my $ordered_query = 'SELECT lower(fp::text) FROM fps WHERE fp IS NOT NULL ORDER BY fp';
like(
	$node->safe_psql('postgres', "$index_only EXPLAIN (COSTS OFF) $ordered_query"),
	qr/using fps_btree/,
	'ordered scan uses fps_btree');
is($node->safe_psql('postgres', "$index_only $ordered_query"),
	join("\n", @fps), 'btree order is the unsigned order of the 64 bits');

# amcheck, when the server has it: the btree is well formed and holds every
# heap tuple.
if ($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'}) eq '1')
{
	$node->safe_psql('postgres', 'CREATE EXTENSION amcheck');
	my ($ret, $out, $err) = $node->psql('postgres',
		q{SELECT bt_index_check('fps_btree'::regclass, true)});
	is($ret, 0, 'amcheck: fps_btree is consistent with the heap')
	  or diag($err);
}

# Still writable, and new rows reach both indexes.
$node->safe_psql('postgres',
	q{INSERT INTO fps (id, body, fp) VALUES (-7, 'after recovery', '0123456789abcdef')});
for my $index (@indexes)
{
	is( $node->safe_psql(
			'postgres',
			only($index) . " $index_only
			 SELECT id FROM fps WHERE fp = '0123456789abcdef'; ROLLBACK;"),
		'-7',
		"$index finds a row inserted after recovery");
}

$node->stop;
done_testing();
