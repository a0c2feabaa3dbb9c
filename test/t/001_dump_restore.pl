# Dump and restore of textfp data: simhash64 and hamming_ball columns and an
# expression index on simhash(body) survive pg_dump in plain and custom
# format, and fingerprints recomputed after the restore match the stored ones.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE src');

# Bodies with a fingerprint are kept apart from fixed values (body NULL), so
# "fp = simhash(body)" must hold for every row with a body.
$node->safe_psql(
	'src', q{
CREATE EXTENSION textfp;
CREATE TABLE docs (
	id integer PRIMARY KEY,
	body text,
	fp simhash64,
	ball hamming_ball,
	mh minhash_sig(32),
	jball jaccard_ball
);
INSERT INTO docs (id, body, fp, ball) VALUES
	(1, NULL, 'ffffffffffffffff', NULL),
	(2, NULL, '0000000000000000', NULL),
	(3, NULL, NULL, NULL),
	(4, NULL, '8000000000000000', hamming_ball('ffffffffffffffff', 0)),
	(5, NULL, '7fffffffffffffff', hamming_ball('0000000000000000', 64));
INSERT INTO docs (id, body) VALUES
	(10, 'some text'),
	(11, '敏捷的棕色狐狸跳过了懒狗。这是一段用来测试指纹的中文文本，包含标点和数字123。'),
	(12, '繁體中文與简体中文混排 Mixed with English words, and ＦＵＬＬＷＩＤＴＨ letters.');
INSERT INTO docs (id, body)
	SELECT 100 + g, 'document number ' || g || ' about ' || (g % 7) || ' things'
	FROM generate_series(1, 300) AS g;
UPDATE docs SET fp = simhash(body) WHERE body IS NOT NULL;
UPDATE docs SET ball = hamming_ball(fp, id % 65) WHERE id >= 10;
UPDATE docs SET mh = minhash(body, k => 32), jball = jaccard_ball(minhash(body, k => 8, seed => -id), id / 400.0)
	WHERE body IS NOT NULL;
UPDATE docs SET mh = ('oph32:k=32:seed=0:pipe=820db166:' || repeat('ffffffff', 31) || '00000000')::minhash_sig,
	jball = ('kperm32:k=1:seed=-9223372036854775808:pipe=ffffffff:ffffffff/1')::jaccard_ball WHERE id = 1;
CREATE INDEX docs_body_fp ON docs (simhash(body));
CREATE INDEX docs_mh ON docs USING gin (mh gin_minhash_ops (bits = 20));
CREATE INDEX docs_fp ON docs (fp);
ANALYZE docs;
});

# Everything in a form that compares as text.
my $contents_query = q{
SELECT id, coalesce(body, '<null>'), coalesce(fp::text, '<null>'),
	coalesce(ball::text, '<null>'),
	coalesce(hamming_ball_center(ball)::text, '<null>'),
	coalesce(hamming_ball_radius(ball)::text, '<null>'),
	coalesce(mh::text, '<null>'), coalesce(jball::text, '<null>')
FROM docs ORDER BY id};
my $original = $node->safe_psql('src', $contents_query);
my $nrows = $node->safe_psql('src', 'SELECT count(*) FROM docs');
is($nrows, '308', 'source table loaded');

my $tempdir = PostgreSQL::Test::Utils::tempdir;

# Planner settings that leave index scans (and nested loops) as the only
# cheap plans.
my $index_only = q{
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
};

# Checks a restored database against the source.
sub check_restored
{
	my ($db, $how) = @_;

	my $restored = $node->safe_psql($db, $contents_query);
	is($restored, $original, "$how: table contents equal the source");

	is( $node->safe_psql(
			$db,
			q{SELECT count(*) FROM docs
			  WHERE body IS NOT NULL AND fp IS DISTINCT FROM simhash(body)}),
		'0',
		"$how: simhash(body) recomputed equals the stored fingerprint");
	is($node->safe_psql($db, 'SELECT count(*) FROM docs WHERE body IS NOT NULL'),
		'303', "$how: rows with a body");
	is( $node->safe_psql(
			$db,
			q{SELECT count(*) FROM docs
			  WHERE body IS NOT NULL AND mh IS DISTINCT FROM minhash(body, k => 32)}),
		'0',
		"$how: minhash(body, k => 32) recomputed equals the stored signature");
	is( $node->safe_psql(
			$db,
			q{SELECT format_type(atttypid, atttypmod) FROM pg_attribute
			  WHERE attrelid = 'docs'::regclass AND attname = 'mh'}),
		'minhash_sig(32)',
		"$how: the typmod came back");
	my $near = q{
SELECT id FROM docs
WHERE mh <@ jaccard_ball(minhash('document number 7 about 0 things', k => 32), 0.9)
ORDER BY id};
	my $gin_only = 'SET enable_seqscan = off; SET enable_indexscan = off;';
	like($node->safe_psql($db, "$gin_only EXPLAIN (COSTS OFF) $near"),
		qr/docs_mh/, "$how: Jaccard lookup uses the restored GIN index");
	is($node->safe_psql($db, "$gin_only $near"),
		$node->safe_psql('src', "SET enable_indexscan = off; SET enable_bitmapscan = off; $near"),
		"$how: the GIN index answers like a sequential scan on the source");

	is(lc $node->safe_psql($db, 'SELECT fp FROM docs WHERE id = 1'),
		'ffffffffffffffff', "$how: all-ones fingerprint");
	is(lc $node->safe_psql($db, 'SELECT fp FROM docs WHERE id = 2'),
		'0000000000000000', "$how: all-zeros fingerprint");
	is($node->safe_psql($db, 'SELECT fp IS NULL AND ball IS NULL FROM docs WHERE id = 3'),
		't', "$how: NULLs stay NULL");
	is( $node->safe_psql(
			$db,
			q{SELECT fp = simhash('some text') FROM docs WHERE id = 10}),
		't',
		"$how: simhash('some text') as stored");

	# The expression index came back and answers lookups.
	like(
		$node->safe_psql(
			$db, q{SELECT pg_get_indexdef('docs_body_fp'::regclass)}),
		qr/simhash\(body/,
		"$how: expression index restored");
	my $lookup = q{
SELECT id FROM docs
WHERE simhash(body) = simhash('敏捷的棕色狐狸跳过了懒狗。这是一段用来测试指纹的中文文本，包含标点和数字123。')
ORDER BY id};
	like($node->safe_psql($db, "$index_only EXPLAIN (COSTS OFF) $lookup"),
		qr/docs_body_fp/, "$how: lookup uses the expression index");
	is($node->safe_psql($db, "$index_only $lookup"), '11',
		"$how: expression index finds the Chinese row");

	# Every row with a body is found through the expression index.
	my $all = q{
SELECT count(*) FROM docs o
WHERE o.body IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM docs i WHERE simhash(i.body) = o.fp)};
	like($node->safe_psql($db, "$index_only EXPLAIN (COSTS OFF) $all"),
		qr/docs_body_fp/, "$how: anti-join probes the expression index");
	is($node->safe_psql($db, "$index_only $all"), '0',
		"$how: every body found through the expression index");

	is( $node->safe_psql(
			$db, q{SELECT extversion FROM pg_extension WHERE extname = 'textfp'}),
		$node->safe_psql(
			'src', q{SELECT extversion FROM pg_extension WHERE extname = 'textfp'}),
		"$how: extension version");
	return;
}

# plain format, restored with psql
$node->command_ok(
	[ 'pg_dump', '--no-password', '-d', 'src', '-f', "$tempdir/src.sql" ],
	'pg_dump plain format');
$node->safe_psql('postgres', 'CREATE DATABASE restored_plain');
$node->command_ok(
	[
		'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', 'restored_plain',
		'-f', "$tempdir/src.sql"
	],
	'psql restores the plain dump');
check_restored('restored_plain', 'plain');

# custom format, restored with pg_restore
$node->command_ok(
	[ 'pg_dump', '--no-password', '-Fc', '-d', 'src', '-f', "$tempdir/src.dump" ],
	'pg_dump custom format');
$node->safe_psql('postgres', 'CREATE DATABASE restored_custom');
$node->command_ok(
	[
		'pg_restore', '--exit-on-error', '-d', 'restored_custom',
		"$tempdir/src.dump"
	],
	'pg_restore restores the custom dump');
check_restored('restored_custom', 'custom');

# custom format, data only, into a schema made first from the plain dump's
# schema part: the COPY data alone must load into existing tables.
$node->safe_psql('postgres', 'CREATE DATABASE restored_split');
$node->command_ok(
	[
		'pg_restore', '--exit-on-error', '--section=pre-data',
		'-d', 'restored_split', "$tempdir/src.dump"
	],
	'pg_restore pre-data section');
$node->command_ok(
	[
		'pg_restore', '--exit-on-error', '--section=data',
		'-d', 'restored_split', "$tempdir/src.dump"
	],
	'pg_restore data section');
$node->command_ok(
	[
		'pg_restore', '--exit-on-error', '--section=post-data',
		'-d', 'restored_split', "$tempdir/src.dump"
	],
	'pg_restore post-data section (indexes built over loaded data)');
check_restored('restored_split', 'sections');

$node->stop;
done_testing();
