# The backend's copy of a mih index's directory lives with the index's
# relcache data (rd_amcache): when another session's change invalidates the
# entry while the index is open (a cursor over it), the relcache reloads the
# index's data and frees rd_amcache alone; a copy of its own would be left
# behind each time (up to 1 MB).  The index's memory context must not grow
# over 20 such reloads.

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
CREATE TABLE t (id int, fp simhash64);
INSERT INTO t SELECT i, hashint8extended(i, 3)::simhash64 FROM generate_series(1, 2000) i;
CREATE INDEX t_mih ON t USING mih (fp) WITH (m = 4);
} . join('', map { "CREATE TABLE d$_ (x int);\n" } 1 .. 21));

my $s = $node->background_psql('postgres');
$s->query_safe(q{SET enable_seqscan = off; BEGIN;
DECLARE c CURSOR FOR SELECT id FROM t WHERE fp <@ hamming_ball('0123456789abcdef', 64);
FETCH 1 FROM c;});
my $mem = q{SELECT sum(total_bytes) FROM pg_backend_memory_contexts WHERE ident = 't_mih'};
my $lookup = q{SELECT count(*) FROM t WHERE fp = hashint8extended(5, 3)::simhash64};
is($s->query_safe($lookup), '1', 'a lookup through the index');
my $first = $s->query_safe("SELECT * FROM d21; $mem");
for my $i (1 .. 20)
{
	# a reloption change invalidates the index's relcache entry; the lock on a
	# new table makes the session take the invalidation in while c is open
	$node->safe_psql('postgres', 'ALTER INDEX t_mih SET (fillfactor = ' . (50 + $i) . ')');
	$s->query_safe("SELECT * FROM d$i; $lookup");
}
my $last = $s->query_safe($mem);
$s->query_safe('COMMIT');
$s->quit;
note("index context: $first bytes after the first lookup, $last after 20 reloads");
# one copy with m = 4 is 1 MB
cmp_ok($last - $first, '<', 512 * 1024, 'the index\'s memory did not grow with the reloads');

$node->stop;
done_testing();
