# A mih build keeps to maintenance_work_mem even when one bucket is larger
# than the memory (many rows with one fingerprint put all of them in one
# bucket of every table): such a bucket's chain is written as a scan of the
# build's temporary file finds its entries, instead of gathering them in an
# array of 16 bytes a row.  The backend's peak resident size (VmHWM) is read
# before and after a build of 1.5 million identical fingerprints at the
# smallest maintenance_work_mem (the array would have taken 24 MB); shared
# buffers are kept small, as the pages the backend touches there count too.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

if (!-r "/proc/self/status")
{
	plan skip_all => 'no /proc/<pid>/status to read the peak resident size from';
}

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', "autovacuum = off\nshared_buffers = 1MB\n");
$node->start;
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION textfp;
CREATE TABLE big (id int, fp simhash64);
INSERT INTO big SELECT i, CASE WHEN i % 1000 = 0 THEN hashint8extended(i, 5)::simhash64
                              ELSE 'cafecafecafecafe' END
FROM generate_series(1, 1500000) i;
});

sub peak_kb
{
	my ($pid) = @_;
	open my $fh, '<', "/proc/$pid/status" or die "/proc/$pid/status: $!";
	while (my $line = <$fh>)
	{
		return $1 if $line =~ /^VmHWM:\s+(\d+) kB/;
	}
	die "no VmHWM in /proc/$pid/status";
}

my $s = $node->background_psql('postgres');
my $pid = $s->query_safe('SELECT pg_backend_pid()');
$s->query_safe(q{SET maintenance_work_mem = '1MB'; SELECT count(*) FROM big WHERE fp = 'cafecafecafecafe';});
my $before = peak_kb($pid);
$s->query_safe('CREATE INDEX big_mih ON big USING mih (fp)');
my $after = peak_kb($pid);
$s->quit;
note("peak resident size: $before kB before the build, $after kB after");
cmp_ok($after - $before, '<', 12 * 1024,
	'the build of one 1.5-million-row bucket raised the peak by less than 12 MB');

# and the index is right: the big bucket's chains and the other buckets
my $idx = 'SET enable_seqscan = off; SET enable_indexscan = off;';
like($node->safe_psql('postgres', "$idx EXPLAIN (COSTS OFF) SELECT count(*) FROM big WHERE fp = 'cafecafecafecafe'"),
	qr/Bitmap Index Scan on big_mih/, 'the lookups use the index');
for my $q ("fp = 'cafecafecafecafe'", "fp <@ hamming_ball('cafecafecafecafe', 2)",
	"fp = hashint8extended(2000, 5)::simhash64", "fp <@ hamming_ball(hashint8extended(7000, 5)::simhash64, 3)",
	"fp <@ hamming_ball('0000000000000000', 64)")
{
	is($node->safe_psql('postgres', "$idx SELECT count(*) FROM big WHERE $q"),
		$node->safe_psql('postgres', "SET enable_bitmapscan = off; SELECT count(*) FROM big WHERE $q"),
		"the index agrees with a sequential scan: $q");
}

$node->stop;
done_testing();
