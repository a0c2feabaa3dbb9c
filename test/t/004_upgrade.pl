# Upgrading the library under data made by textfp 1.0: a cluster runs the 1.0
# release's library (built from git history by test/run.sh, in
# TEXTFP_V10_DIR), stores fingerprints and builds every kind of index on
# them; then the new library replaces it.  A database left at 1.0 and one
# updated to 1.1 must give the same fingerprints for the same texts, and the
# indexes built under 1.0 the same answers as a sequential scan, before and
# after new rows arrive.  The update warns about an exclusion constraint on %.

use strict;
use warnings;

use File::Copy;
use File::Path qw(make_path);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $v10 = $ENV{TEXTFP_V10_DIR};
plan skip_all => 'no build of textfp 1.0 (test/run.sh makes one from git history)'
  unless defined $v10 && -f "$v10/textfp.so";

# A private copy of the PostgreSQL installation (relocatable), so that its
# textfp can be swapped without touching the system's.
my %dir;
for my $what (qw(bindir pkglibdir sharedir))
{
	$dir{$what} = `pg_config --$what`;
	chomp $dir{$what};
}
my $root = PostgreSQL::Test::Utils::tempdir();
for my $d (values %dir)
{
	make_path("$root$d");
	system('cp', '-a', "$d/.", "$root$d") == 0 or die "cannot copy $d";
}
unlink glob("$root$dir{sharedir}/extension/textfp*");
sub install_textfp
{
	my ($so, @share) = @_;
	copy($so, "$root$dir{pkglibdir}/textfp.so") or die "copy $so: $!";
	copy($_, "$root$dir{sharedir}/extension/") or die "copy $_: $!" for @share;
}
install_textfp("$v10/textfp.so", "$v10/textfp.control", "$v10/textfp--1.0.sql");

(my $install = $dir{bindir}) =~ s{/bin$}{};
my $node = PostgreSQL::Test::Cluster->new('upgrade', install_path => "$root$install");
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\n");
$node->start;

# the same data and indexes in a database that stays at 1.0 and one updated
my $setup = q{
CREATE EXTENSION textfp;
CREATE EXTENSION amcheck;
CREATE TABLE docs (id int PRIMARY KEY, body text);
INSERT INTO docs
SELECT g, CASE WHEN g % 50 = 0 THEN '' WHEN g % 50 = 1 THEN '!!! ★ 🎉'
	WHEN g % 3 = 0 THEN '新闻' || (g / 7) || '发布会介绍经济运行情况国家统计局' || repeat('记者', g % 5)
	ELSE 'story ' || (g / 7) || ' markets rallied after the bank held rates ' || md5((g / 7)::text) ||
		 CASE WHEN g % 7 > 3 THEN ' edited ' || g ELSE '' END END
FROM generate_series(1, 3000) g;
ALTER TABLE docs ADD fp simhash64, ADD sig minhash_sig(64), ADD sh bigint[], ADD fp2 simhash64;
UPDATE docs SET fp = simhash(body), sig = minhash(body, 64), sh = shingles(body),
	fp2 = simhash(body, shingle => 2, tokenizer => 'icu', simplify => true);
CREATE INDEX docs_btree ON docs (fp);
CREATE INDEX docs_hash ON docs USING hash (fp);
CREATE INDEX docs_gist ON docs USING gist (fp);
CREATE INDEX docs_spgist ON docs USING spgist (fp);
CREATE INDEX docs_gin ON docs USING gin (fp) WITH (fastupdate = off);
CREATE INDEX docs_gin_sig ON docs USING gin (sig);
CREATE INDEX docs_gin_sig32 ON docs USING gin (sig gin_minhash_ops (bits = 32)) WITH (fastupdate = off);
CREATE INDEX docs_expr ON docs (simhash(body, shingle => 3));
CREATE TABLE excl (fp simhash64, EXCLUDE USING gist (hamming_ball(fp, 2) WITH &&));
CREATE TABLE excl_near (fp simhash64, EXCLUDE USING gist (fp WITH %));
INSERT INTO excl SELECT fp FROM docs WHERE id <= 200 ON CONFLICT DO NOTHING;
};
$node->safe_psql('postgres', 'CREATE DATABASE keep; CREATE DATABASE upd');
$node->safe_psql($_, $setup) for qw(keep upd);
is($node->safe_psql('keep', "SELECT extversion FROM pg_extension WHERE extname = 'textfp'"),
	'1.0', 'the 1.0 library installs 1.0');

# Queries whose answers an index must give as a sequential scan does.
my @queries = (
	q{SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE fp % (SELECT fp FROM docs WHERE id = 8)},
	q{SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE fp <@ hamming_ball((SELECT fp FROM docs WHERE id = 9), 12)},
	q{SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE fp = (SELECT fp FROM docs WHERE id = 10)},
	q{SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE sig % (SELECT sig FROM docs WHERE id = 11)},
	q{SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE sig <@ jaccard_ball((SELECT sig FROM docs WHERE id = 12), 0.6)},
	q{SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE simhash(body, shingle => 3) = (SELECT simhash(body, shingle => 3) FROM docs WHERE id = 13)},
	q{SELECT string_agg(id::text, ',' ORDER BY id) FROM (SELECT id FROM docs ORDER BY fp <~> (SELECT fp FROM docs WHERE id = 14), id LIMIT 10) s},
);
my %index_settings = (
	seqscan => 'SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off;',
	indexes => 'SET enable_seqscan = off;',
);
sub answers
{
	my ($db, $how) = @_;
	return [ map { $node->safe_psql($db, "$index_settings{$how} $_") } @queries ];
}

# The answers with one index of each column left: each index built under 1.0 is asked.
my @fp_indexes = qw(docs_gist docs_spgist docs_gin);
my @sig_indexes = qw(docs_gin_sig docs_gin_sig32);
sub each_index_agrees
{
	my ($db, $label) = @_;
	my $scan = answers($db, 'seqscan');
	for my $keep (@fp_indexes, @sig_indexes)
	{
		my @drop = grep { $_ ne $keep } ($keep =~ /sig/ ? @sig_indexes : @fp_indexes);
		my @got = map {
			$node->safe_psql($db, "BEGIN; DROP INDEX " . join(', ', @drop) . "; SET enable_seqscan = off; $_; ROLLBACK")
		} @queries;
		is_deeply(\@got, $scan, "$db: $keep answers as a scan$label");
	}
}

# every query has an index to use, and a non-trivial answer
for my $q (@queries)
{
	like($node->safe_psql('keep', "$index_settings{indexes} EXPLAIN (COSTS OFF) $q"),
		qr/Index Scan|Index Only Scan|Bitmap Index Scan/, "an index serves: $q");
}

my %before;
$before{$_} = answers($_, 'seqscan') for qw(keep upd);
ok(!grep({ $_ eq '' } @{ $before{keep} }), 'every query finds rows');
is_deeply(answers('keep', 'indexes'), $before{keep}, '1.0 library: indexes answer as a scan');

# The new library (the one test/run.sh installed) replaces 1.0's.
$node->stop;
install_textfp("$dir{pkglibdir}/textfp.so", glob("$dir{sharedir}/extension/textfp*"));
$node->start;

my ($ret, $stdout, $stderr) = $node->psql('upd', 'ALTER EXTENSION textfp UPDATE');
is($ret, 0, 'ALTER EXTENSION textfp UPDATE');
like($stderr, qr/exclusion constraint "excl_near_fp_excl" on table excl_near uses textfp's % operator/,
	'the update warns about the exclusion constraint on %');
unlike($stderr, qr/excl_fp_excl/, 'and not about the one on &&');
is($node->safe_psql('keep', "SELECT extversion FROM pg_extension WHERE extname = 'textfp'"),
	'1.0', 'keep stays at 1.0');

for my $db (qw(keep upd))
{
	is($node->safe_psql($db, q{
		SELECT count(*) FILTER (WHERE fp IS DISTINCT FROM simhash(body) OR sig IS DISTINCT FROM minhash(body, 64)
			OR sh IS DISTINCT FROM shingles(body)
			OR fp2 IS DISTINCT FROM simhash(body, shingle => 2, tokenizer => 'icu', simplify => true))
		FROM docs}), '0', "$db: the new library computes every fingerprint 1.0 stored");
	is_deeply(answers($db, 'seqscan'), $before{$db}, "$db: a scan answers as under 1.0");
	is_deeply(answers($db, 'indexes'), $before{$db}, "$db: indexes built under 1.0 answer as a scan");
	each_index_agrees($db, '');
	is($node->safe_psql($db, q{
		SELECT count(*) FROM (SELECT bt_index_check(c.oid, true) FROM pg_class c
			WHERE c.relname IN ('docs_btree', 'docs_expr')) s}), '2', "$db: btree indexes check");

	# new rows next to old ones in the same indexes
	$node->safe_psql($db, q{
		INSERT INTO docs (id, body) SELECT 10000 + id, body || ' again' FROM docs WHERE id <= 500;
		UPDATE docs SET fp = simhash(body), sig = minhash(body, 64), sh = shingles(body),
			fp2 = simhash(body, shingle => 2, tokenizer => 'icu', simplify => true) WHERE id > 10000;
		DELETE FROM docs WHERE id % 11 = 0;
		VACUUM docs;});
	is_deeply(answers($db, 'indexes'), answers($db, 'seqscan'), "$db: after inserts, deletes and VACUUM too");
	each_index_agrees($db, ' after inserts, deletes and VACUUM');
}

# 1.1's objects in the updated database, none in the one left at 1.0
is($node->safe_psql('upd', q{SELECT simhash('!!!', featureless => 'null') IS NULL}), 't',
	'upd: 1.1 functions work');
($ret, $stdout, $stderr) = $node->psql('keep', q{SELECT simhash('!!!', featureless => 'null')});
like($stderr, qr/does not exist/, 'keep: has no 1.1 functions');
($ret, $stdout, $stderr) = $node->psql('upd', 'CREATE TABLE e2 (fp simhash64, EXCLUDE USING gist (fp WITH %))');
like($stderr, qr/is not commutative/, 'upd: % can no longer make an exclusion constraint');

# 1.1's index access method mih: in the updated database, answering the
# simhash64 queries as a scan does (issue 13); not in the one left at 1.0
$node->safe_psql('upd', 'CREATE INDEX docs_mih ON docs USING mih (fp)');
my $only_mih = 'BEGIN; DROP INDEX docs_btree, docs_hash, docs_gist, docs_spgist, docs_gin; SET enable_seqscan = off;';
like($node->safe_psql('upd', "$only_mih EXPLAIN (COSTS OFF) $queries[0]; ROLLBACK"),
	qr/Bitmap Index Scan on docs_mih/, 'upd: a mih index serves %');
is_deeply([ map { $node->safe_psql('upd', "$only_mih $_; ROLLBACK") } @queries[0 .. 2] ],
	[ @{ answers('upd', 'seqscan') }[0 .. 2] ], 'upd: a mih index answers as a scan');
($ret, $stdout, $stderr) = $node->psql('keep', 'CREATE INDEX ON docs USING mih (fp)');
like($stderr, qr/access method "mih" does not exist/, 'keep: has no mih');

# 1.1's LSH bands (issue 14): a band index on the signatures stored under
# 1.0 answers @@ as a scan in the updated database; the one left at 1.0 has
# neither the operator class nor the lsh_query type
$node->safe_psql('upd',
	'CREATE INDEX docs_lsh ON docs USING gin (sig gin_minhash_lsh_ops (bands = 16, rows = 4))');
my @lsh_queries = map {
	qq{SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE sig @@ lsh_query((SELECT sig FROM docs WHERE id = $_->[0]), 16, 4, $_->[1])}
} ([ 13, 1 ], [ 15, 3 ], [ 1, 1 ]);
like($node->safe_psql('upd', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $lsh_queries[0]"),
	qr/Bitmap Index Scan on docs_lsh/, 'upd: a band index serves @@');
my @lsh_scan = map { $node->safe_psql('upd', "$index_settings{seqscan} $_") } @lsh_queries;
ok($lsh_scan[0] ne '' && $lsh_scan[1] ne '', 'upd: the band queries find rows');
is($lsh_scan[2], '', 'upd: a featureless signature stored under 1.0 matches no row');
is_deeply([ map { $node->safe_psql('upd', "SET enable_seqscan = off; $_") } @lsh_queries ],
	\@lsh_scan, 'upd: a band index answers @@ as a scan');
($ret, $stdout, $stderr) = $node->psql('keep', 'CREATE INDEX ON docs USING gin (sig gin_minhash_lsh_ops)');
like($stderr, qr/operator class "gin_minhash_lsh_ops" does not exist/, 'keep: has no band index class');
($ret, $stdout, $stderr) = $node->psql('keep', q{SELECT sig @@ lsh_query(sig, 16, 4) FROM docs LIMIT 1});
like($stderr, qr/does not exist/, 'keep: has no lsh_query');

$node->stop;
done_testing();
