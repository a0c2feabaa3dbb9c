# A damaged mih index is reported, never followed: with a directory entry, a
# bucket page's range, an overflow chain and a page's entry count overwritten
# on disk, scans, inserts and VACUUM fail with index_corrupted (XX002) and the
# hint to REINDEX, the server keeps running, and REINDEX repairs the index.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->start;
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION textfp;
CREATE TABLE c (id int, fp simhash64);
INSERT INTO c SELECT g, CASE WHEN g % 10 = 0 THEN 'cafecafecafecafe'::simhash64
                             ELSE hashint8extended(g, 3)::simhash64 END
FROM generate_series(1, 50000) g;
CREATE INDEX c_mih ON c USING mih (fp) WITH (m = 5);
CHECKPOINT;
});
my $file = $node->data_dir . '/' . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('c_mih')});

# Where things are: the metapage gives table 0's first directory page; the
# directory gives the bucket pages of table 0's first buckets.
my $bs = 8192;
my $special = $bs - 32;    # MAXALIGN(sizeof(MihPageOpaqueData))
sub read_at
{
	my ($off, $len) = @_;
	open my $fh, '<:raw', $file or die "$file: $!";
	seek $fh, $off, 0;
	my $buf;
	read $fh, $buf, $len;
	close $fh;
	return $buf;
}
sub write_at
{
	my ($off, $data) = @_;
	open my $fh, '+<:raw', $file or die "$file: $!";
	seek $fh, $off, 0;
	print $fh $data;
	close $fh;
	return;
}
# directory page of table 0 (MihMetaPageData.dir_start[0], after magic, version,
# m, dir_entries and 16 widths)
my $dir0 = unpack('V', read_at(24 + 16 + 16, 4));
my $page_of_bucket0 = unpack('V', read_at($dir0 * $bs + 24, 4));
# the bucket of 'cafecafecafecafe' in table 0 (its top 13 bits) has a chain
my $dir_entries = 2034;    # MIH_DIR_ENTRIES: (8192 - 24 - 32) / 4
my $cafe0 = 0xcafe >> 3;
my $cafe_primary = unpack('V',
	read_at(($dir0 + int($cafe0 / $dir_entries)) * $bs + 24 + 4 * ($cafe0 % $dir_entries), 4));
ok($page_of_bucket0 > $dir0 && $cafe_primary > $dir0, "found bucket pages $page_of_bucket0 and $cafe_primary");

my $idx = 'SET enable_seqscan = off;';
sub expect_corrupted
{
	my ($sql, $what) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "$idx $sql");
	like($err, qr/ERROR:  index "c_mih" is corrupted: .*\n.*HINT:  REINDEX the index\./,
		"$what: index_corrupted, with the hint");
	return;
}

$node->stop;
# 1. bucket 0's page says its range is 16 .. 1
my $range = read_at($page_of_bucket0 * $bs + $special, 8);
write_at($page_of_bucket0 * $bs + $special, pack('VV', 16, 1));
$node->start;
expect_corrupted(q{SELECT count(*) FROM c WHERE fp <@ hamming_ball('0000000000000000', 2)},
	'a page whose range does not hold its bucket');
expect_corrupted(q{INSERT INTO c VALUES (-1, '0000000000000001')}, 'an insert there');

$node->stop;
write_at($page_of_bucket0 * $bs + $special, $range);    # repaired
# 2. the chain of 'cafecafecafecafe' in table 0 loops onto its own primary
my $next = unpack('V', read_at($cafe_primary * $bs + $special + 8, 4));
ok($next != 0xffffffff, "the bucket of cafecafecafecafe has an overflow page ($next)")
  or BAIL_OUT('no chain to damage');
write_at($next * $bs + $special + 8, pack('V', $next));
$node->start;
expect_corrupted(q{SELECT count(*) FROM c WHERE fp <@ hamming_ball('cafecafecafecafe', 1)},
	'an overflow chain that loops');

$node->stop;
# 3. a directory entry names the metapage
write_at($dir0 * $bs + 24 + 4 * 7, pack('V', 0));
$node->start;
expect_corrupted(q{SELECT count(*) FROM c WHERE fp <@ hamming_ball('0000000000000000', 64)},
	'a directory entry naming the metapage (a full pass)');

$node->stop;
# 4. a bucket page's TIDs and codes disagree in number
write_at($cafe_primary * $bs + 12, pack('v', 8000));    # pd_lower
$node->start;
my ($ret, $out, $err) = $node->psql('postgres',
	"$idx SELECT count(*) FROM c WHERE fp <@ hamming_ball('cafecafecafecafe', 1)");
like($err, qr/ERROR:  (index "c_mih" is corrupted|invalid page)/, 'a malformed page: an error');
# (a VACUUM that removes rows: one that removes none reads no index page)
($ret, $out, $err) = $node->psql('postgres', 'DELETE FROM c WHERE id = 1; VACUUM (INDEX_CLEANUP ON) c');
like($err, qr/ERROR:  (index "c_mih" is corrupted|invalid page)/, 'VACUUM stops at it with an error');

is($node->safe_psql('postgres', 'SELECT 1'), '1', 'the server is up');
ok(!$node->log_contains('terminated by signal'), 'no backend crashed');

$node->safe_psql('postgres', 'REINDEX INDEX c_mih');
is( $node->safe_psql('postgres',
		"$idx SELECT count(*) FROM c WHERE fp <@ hamming_ball('cafecafecafecafe', 1)"),
	$node->safe_psql('postgres',
		"SET enable_bitmapscan = off; SELECT count(*) FROM c WHERE fp <@ hamming_ball('cafecafecafecafe', 1)"),
	'REINDEX repairs it');

$node->stop;
done_testing();
