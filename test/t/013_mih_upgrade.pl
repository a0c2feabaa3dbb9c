# Upgrading to 1.1 with mih: indexes built under 1.0 (GIN, GiST, SP-GiST)
# answer the same after ALTER EXTENSION textfp UPDATE, without REINDEX; the
# update adds the mih access method and its operator class, the same objects
# a fresh 1.1 has; a database left at 1.0 with the new library has no mih and
# answers as before; a mih index survives pg_dump and restore.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->start;

my $setup = q{
CREATE TABLE t (id int, fp simhash64);
INSERT INTO t SELECT i, CASE WHEN i % 5 = 0 THEN (hashint8extended(i / 5, 1) # 7)::simhash64
                             ELSE hashint8extended(i, 2)::simhash64 END
FROM generate_series(1, 20000) i;
CREATE INDEX t_gin ON t USING gin (fp);
CREATE INDEX t_gist ON t USING gist (fp);
CREATE INDEX t_spgist ON t USING spgist (fp);
ANALYZE t;
};

my $answers = q{
SELECT r, (SELECT count(*) FROM t WHERE fp <@ hamming_ball(q, r)),
       (SELECT count(*) FROM t WHERE fp % q), (SELECT count(*) FROM t WHERE q % fp)
FROM (SELECT fp AS q FROM t WHERE id % 1999 = 0) qs, unnest('{0,1,3,6,10}'::int[]) r
ORDER BY 1, 2, 3, 4};

# Every index alone, then a sequential scan.
sub answers_by_index
{
	my ($db, @indexes) = @_;
	my %got;
	for my $index (@indexes)
	{
		my $drop = join(' ', map { "DROP INDEX $_;" } grep { $_ ne $index } @indexes);
		$got{$index} = $node->safe_psql($db,
			"BEGIN; $drop SET enable_seqscan = off; $answers; ROLLBACK;");
	}
	$got{seq} = $node->safe_psql($db,
		"SET enable_indexscan = off; SET enable_bitmapscan = off; $answers");
	return \%got;
}

my @old = qw(t_gin t_gist t_spgist);

$node->safe_psql('postgres', 'CREATE DATABASE upgraded');
$node->safe_psql('postgres', 'CREATE DATABASE stays10');
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
for my $db (qw(upgraded stays10))
{
	$node->safe_psql($db, "CREATE EXTENSION textfp VERSION '1.0'; $setup");
}
is($node->safe_psql('upgraded', q{SELECT count(*) FROM pg_am WHERE amname = 'mih'}),
	'0', 'a 1.0 database has no mih access method');

my $before = answers_by_index('upgraded', @old);
is($before->{$_}, $before->{seq}, "$_ answers like a sequential scan under 1.0") for @old;

$node->safe_psql('upgraded', 'ALTER EXTENSION textfp UPDATE');
is($node->safe_psql('upgraded', q{SELECT extversion FROM pg_extension WHERE extname = 'textfp'}),
	'1.1', 'updated to 1.1');
my $after = answers_by_index('upgraded', @old);
is($after->{$_}, $before->{seq}, "$_, built under 1.0, answers the same after the update") for @old;

$node->safe_psql('upgraded', 'CREATE INDEX t_mih ON t USING mih (fp)');
$after = answers_by_index('upgraded', @old, 't_mih');
is($after->{t_mih}, $before->{seq}, 'a mih index made after the update answers the same');
is($node->safe_psql('upgraded',
		q{SELECT bool_and(amvalidate(c.oid)) FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
		  WHERE c.opcname LIKE '%simhash64%' OR a.amname = 'mih'}),
	't', 'every simhash64 operator class validates after the update');

# the same objects as a fresh 1.1
my $members = q{
SELECT pg_describe_object(classid, objid, objsubid)
FROM pg_depend
WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'textfp')
ORDER BY 1};
$node->safe_psql('fresh', 'CREATE EXTENSION textfp');
is($node->safe_psql('upgraded', $members), $node->safe_psql('fresh', $members),
	'an updated 1.0 has the objects of a fresh 1.1');
like($node->safe_psql('fresh', $members), qr/access method mih/, 'among them the access method mih');
like($node->safe_psql('fresh', $members), qr/operator class mih_simhash64_ops for access method mih/,
	'and its operator class');

# left at 1.0, with the new library loaded
my $stays = answers_by_index('stays10', @old);
is($stays->{$_}, $before->{seq}, "$_ in a database left at 1.0 answers as before") for @old;
is($node->safe_psql('stays10', q{SELECT count(*) FROM pg_am WHERE amname = 'mih'}),
	'0', 'and it has no mih');
$node->safe_psql('stays10', 'CREATE INDEX t_gin4 ON t USING gin (fp gin_simhash64_ops (blocks = 4))');

# pg_dump and restore of a database with a mih index (with options)
$node->safe_psql('upgraded', 'CREATE INDEX t_mih7 ON t USING mih (fp) WITH (m = 7, fillfactor = 80)');
my $dump = $node->basedir . '/upgraded.sql';
$node->command_ok([ 'pg_dump', '-d', $node->connstr('upgraded'), '-f', $dump ], 'pg_dump');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('restored'), '-f', $dump ],
	'restore');
like($node->safe_psql('restored', q{SELECT pg_get_indexdef('t_mih7'::regclass)}),
	qr/USING mih \(fp\) WITH \(m='?7'?, fillfactor='?80'?\)/, 'the restored index keeps its options');
my $restored = answers_by_index('restored', @old, 't_mih', 't_mih7');
is($restored->{$_}, $before->{seq}, "restored $_ answers the same") for (@old, 't_mih', 't_mih7');

$node->stop;
done_testing();
