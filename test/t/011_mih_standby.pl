# A streaming replica answers mih index queries (hot standby) exactly as a
# sequential scan on it does, while the primary keeps changing the index:
# builds, inserts with splits and chains, deletes, VACUUM, REINDEX and
# CREATE INDEX CONCURRENTLY.  The primary runs wal_consistency_checking =
# 'generic', so the standby checks every replayed page against its image.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1, extra => [ '--encoding=UTF8', '--locale=C' ]);
$primary->append_conf('postgresql.conf', "wal_consistency_checking = 'generic'\n");
$primary->start;
$primary->safe_psql(
	'postgres', q{
CREATE EXTENSION textfp;
CREATE TABLE t (id int PRIMARY KEY, fp simhash64);
INSERT INTO t SELECT i, CASE WHEN i % 4 = 0 THEN 'cafecafecafecafe'::simhash64
                             ELSE hashint8extended(i, 41)::simhash64 END
FROM generate_series(1, 8000) i;
CREATE INDEX t_mih ON t USING mih (fp) WITH (m = 6);
});
$primary->backup('b');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;

my $seq = q{SET enable_indexscan = off; SET enable_bitmapscan = off;};
my $idx = q{SET enable_seqscan = off;};
my $radius_query = q{
SELECT r, lower(q::text), (SELECT count(*) FROM t WHERE fp <@ hamming_ball(q, r)),
       (SELECT count(*) FROM t WHERE fp % q)
FROM (SELECT DISTINCT fp AS q FROM t WHERE id % 401 = 0) qs,
     unnest('{0,2,5,10,20,64}'::int[]) r
ORDER BY 1, 2};

sub check_standby
{
	my ($what) = @_;
	$primary->wait_for_catchup($standby);
	like($standby->safe_psql('postgres', "$idx EXPLAIN (COSTS OFF) $radius_query"),
		qr/Bitmap Index Scan on t_mih/, "the standby uses the index ($what)");
	is($standby->safe_psql('postgres', "$idx $radius_query"),
		$standby->safe_psql('postgres', "$seq $radius_query"),
		"the standby's index answers exactly ($what)");
	is($standby->safe_psql('postgres', "$seq $radius_query"),
		$primary->safe_psql('postgres', "$seq $radius_query"),
		"the standby has the primary's rows ($what)");
	return;
}

check_standby('built');

$primary->safe_psql(
	'postgres', q{
INSERT INTO t SELECT 10000 + i, CASE WHEN i % 3 = 0 THEN 'cafecafecafecafe'::simhash64
                                     ELSE hashint8extended(i, 42)::simhash64 END
FROM generate_series(1, 12000) i;
});
check_standby('inserts, splits and chains');

$primary->safe_psql('postgres', 'DELETE FROM t WHERE id % 5 = 0; VACUUM t;');
check_standby('deletes and VACUUM');

# queries on the standby while the primary inserts
my $bg = $primary->background_psql('postgres');
$bg->query_until(qr/started/, q{
\echo started
INSERT INTO t SELECT 40000 + i, hashint8extended(i, 43)::simhash64 FROM generate_series(1, 20000) i;
});
for my $i (1 .. 5)
{
	$standby->safe_psql('postgres',
		"$idx SELECT count(*) FROM t WHERE fp % 'cafecafecafecafe'");
}
$bg->quit;
check_standby('queried during replay');

$primary->safe_psql('postgres', 'REINDEX INDEX t_mih;');
check_standby('reindexed');
$primary->safe_psql('postgres',
	'DROP INDEX t_mih; CREATE INDEX CONCURRENTLY t_mih ON t USING mih (fp);');
check_standby('built concurrently');

my $log = slurp_file($standby->logfile);
unlike($log, qr/inconsistent page found/, 'replay found every page as the primary logged it');

$standby->stop;
$primary->stop;
done_testing();
