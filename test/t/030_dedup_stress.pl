# textfp_dedup under stress: 8 pgbench sessions of 1,000 transactions each,
# plus a session of COPYs, at READ COMMITTED, REPEATABLE READ and
# SERIALIZABLE, insert and update texts drawn from a pool of near-duplicate
# families; afterwards a sequential scan must find no committed near-duplicate
# pair.  Half the sessions write as a role that does not own the tables (a
# tenant: it never escalates to the exclusive scope lock), half as the
# bootstrap superuser (the owner's privileges: it escalates).  Single-row and
# multi-row INSERT, INSERT ... SELECT, UPDATE of the text, several statements
# per transaction (past the escalation threshold), COPY; a simhash64 table in
# mode reject with a scope column and a minhash_sig table in mode skip.
# pgbench retries 40001 and 40P01 (PostgreSQL 15's --max-tries); their counts
# are reported (docs/dedup.md quotes them).

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $CLIENTS = 8;
my $TRANSACTIONS = 1000;	# per client and isolation level
my $FAMILIES = 1500;		# near-duplicate families in the pool
my $VARIANTS = 3;
# the simhash64 table's lock keys and escalation (docs/dedup.md compares settings)
my $LOCKS = $ENV{TEXTFP_STRESS_LOCKS} // 'blocks';
my $ESCALATE = $ENV{TEXTFP_STRESS_ESCALATE} // '4';	# 'default': the trigger's own
my $TENANTS = $ENV{TEXTFP_STRESS_TENANTS} // $CLIENTS / 2;	# sessions that do not own the tables
my $escalate_arg = $ESCALATE eq 'default' ? '' : ", 'escalate=$ESCALATE'";

my $node = PostgreSQL::Test::Cluster->new('stress');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf',
	"max_connections = 30\ndeadlock_timeout = 20ms\nautovacuum = off\n" .
	"max_pred_locks_per_transaction = 256\nfsync = off\nlog_lock_waits = on\n");
$node->start;

# --- the pool: families of texts a word or two apart --------------------------
srand(15);
my @vocab = map { join('', map { ('a' .. 'z')[ int(rand(26)) ] } 1 .. 3 + int(rand(6))) } 1 .. 800;
my @pool;
for my $f (1 .. $FAMILIES)
{
	my @w = map { $vocab[ int(rand(@vocab)) ] } 1 .. 40;
	for my $v (0 .. $VARIANTS - 1)
	{
		my @x = @w;
		$x[ 8 + 11 * $v ] = $vocab[ int(rand(@vocab)) ] if $v > 0;
		push @x, $vocab[ int(rand(@vocab)) ] if $v == 2;
		push @pool, [ $f, $v, join(' ', @x) ];
	}
}
my $tmp = PostgreSQL::Test::Utils::tempdir;
open my $pf, '>', "$tmp/pool.tsv" or die $!;
print $pf join("\t", @$_), "\n" for @pool;
close $pf;

$node->safe_psql('postgres', qq{
CREATE EXTENSION textfp;
CREATE ROLE tenant LOGIN;
CREATE TABLE pool (family int, v int, body text, PRIMARY KEY (family, v));
GRANT SELECT ON pool TO tenant;
COPY pool FROM '$tmp/pool.tsv';
-- the guarded insert that takes a rejection (23505) as an answer, not a failure
CREATE FUNCTION attempt(q text) RETURNS void LANGUAGE plpgsql AS \$\$
BEGIN
	EXECUTE q;
EXCEPTION WHEN unique_violation THEN
	NULL;
END \$\$;
});
# how near the families are: the stress is only as good as its conflicts
my ($sim_near, $mh_near) = split /\|/, $node->safe_psql('postgres', q{
SELECT count(*) FILTER (WHERE hamming_distance(simhash(a.body, 'null'), simhash(b.body, 'null')) <= 10),
       count(*) FILTER (WHERE jaccard(minhash(a.body, 'null', k => 64), minhash(b.body, 'null', k => 64)) >= 0.7)
FROM pool a JOIN pool b ON a.family = b.family AND a.v < b.v});
my $pairs = $FAMILIES * $VARIANTS * ($VARIANTS - 1) / 2;
note("pool: $FAMILIES families x $VARIANTS variants; within a family $sim_near of $pairs pairs are near for SimHash (r = 10), $mh_near for MinHash (J >= 0.7, k = 64)");
ok($sim_near > $pairs * 0.9 && $mh_near > $pairs * 0.9, 'most pairs within a family are near duplicates');

sub script
{
	my ($name, $sql) = @_;
	my $f = "$tmp/$name.sql";
	open my $fh, '>', $f or die "$f: $!";
	print $fh $sql;
	close $fh;
	return $f;
}
my $pick = "\\set f random(1, $FAMILIES)\n\\set g random(1, $FAMILIES)\n\\set v random(0, " . ($VARIANTS - 1) . ")\n\\set w random(0, " . ($VARIANTS - 1) . ")\n\\set site random(1, 2)\n";
my @scripts = (
	script('single', $pick . q{
SELECT attempt(format('INSERT INTO posts (site, body) SELECT %s, body FROM pool WHERE family = %s AND v = %s', :site, :f, :v));
}) . '@4',
	script('multi', $pick . q{
SELECT attempt(format('INSERT INTO posts (site, body) VALUES (%s, (SELECT body FROM pool WHERE family = %s AND v = %s)), (%s, (SELECT body FROM pool WHERE family = %s AND v = %s))', :site, :f, :v, :site, :g, :w));
}) . '@2',
	script('insert_select', $pick . q{
SELECT attempt(format('INSERT INTO posts (site, body) SELECT %s, body FROM pool WHERE family IN (%s, %s) AND v = %s', :site, :f, :g, :v));
}) . '@2',
	script('update', $pick . q{
SELECT attempt(format('UPDATE posts SET body = (SELECT body FROM pool WHERE family = %s AND v = %s) WHERE id = (SELECT max(id) FROM posts) - %s', :f, :v, :g % 50));
}) . '@2',
	# six statements in one transaction: past escalate=4
	script('transaction', $pick . q{
BEGIN;
SELECT attempt(format('INSERT INTO posts (site, body) SELECT %s, body FROM pool WHERE family = %s AND v = %s', :site, :f, :v));
SELECT attempt(format('INSERT INTO posts (site, body) SELECT %s, body FROM pool WHERE family = %s AND v = %s', :site, :g, :w));
SELECT attempt(format('INSERT INTO posts (site, body) SELECT %s, body FROM pool WHERE family = %s AND v = %s', 3 - :site, :f, :w));
INSERT INTO docs (body) SELECT body FROM pool WHERE family = :f AND v = :w;
SELECT attempt(format('INSERT INTO posts (site, body) SELECT %s, body FROM pool WHERE family = %s AND v = %s', :site, (:f + 1) % 1500 + 1, :v));
SELECT attempt(format('INSERT INTO posts (site, body) SELECT %s, body FROM pool WHERE family = %s AND v = %s', :site, (:g + 1) % 1500 + 1, :w));
COMMIT;
}) . '@1',
	script('minhash', $pick . q{
INSERT INTO docs (body) SELECT body FROM pool WHERE family IN (:f, :g) AND v IN (:v, :w);
}) . '@3',
);

# COPY in its own session: psql runs a file of COPY ... FROM STDIN blocks
my $copyfile = "$tmp/copy.sql";
open my $cf, '>', $copyfile or die $!;
for my $i (1 .. 150)
{
	print $cf "COPY posts (site, body) FROM STDIN;\n";
	for (1 .. 4)
	{
		my $t = $pool[ int(rand(@pool)) ];
		print $cf (1 + int(rand(2))), "\t$t->[2]\n";
	}
	print $cf "\\.\n";
}
close $cf;

my $seq = 'SET enable_indexscan = off; SET enable_bitmapscan = off;';
my %seen = (s => 0, d => 0, w => 0);
for my $level ('read committed', 'repeatable read', 'serializable')
{
	$node->safe_psql('postgres', qq{
DROP TABLE IF EXISTS posts, docs;
CREATE TABLE posts (id bigserial PRIMARY KEY, site int, body text, fp simhash64);
CREATE INDEX ON posts USING mih (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON posts FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'scope=site',
		'locks=$LOCKS'$escalate_arg);
CREATE TABLE docs (id bigserial PRIMARY KEY, body text, sig minhash_sig);
CREATE INDEX ON docs USING gin (sig gin_minhash_ops) WITH (fastupdate = off);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON docs FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=sig', 'key=id', 'threshold=0.7', 'k=64', 'mode=skip');
INSERT INTO posts (site, body) SELECT 1 + family % 2, body FROM pool WHERE v = 0 AND family % 30 = 0;
GRANT SELECT, INSERT, UPDATE ON posts, docs TO tenant;
GRANT USAGE ON SEQUENCE posts_id_seq, docs_id_seq TO tenant;
});
	(my $escaped = $level) =~ s/ /\\ /g;
	local $ENV{PGOPTIONS} = "-c default_transaction_isolation=$escaped";
	my ($out, $err, $cout, $cerr) = ('', '', '', '');
	my $start = time;
	my $copy = IPC::Run::start(
		[ 'psql', '-X', '-q', '-h', $node->host, '-p', $node->port, '-d', 'postgres', '-f', $copyfile ],
		'>', \$cout, '2>', \$cerr);
	# the owner's sessions and the tenant's, at the same time
	my @benches;
	for my $bench ([ $CLIENTS - $TENANTS, $node->safe_psql('postgres', 'SELECT current_user') ], [ $TENANTS, 'tenant' ])
	{
		my ($clients, $user) = @$bench;
		next if $clients == 0;
		my %b = (user => $user, out => '', err => '');
		$b{run} = IPC::Run::start(
			[ 'pgbench', '-n', '-c', $clients, '-j', $clients, '-t', $TRANSACTIONS,
			  '--max-tries=100', '--failures-detailed',
			  '-h', $node->host, '-p', $node->port, '-U', $user, map({ ('-f', $_) } @scripts), 'postgres' ],
			'>', \$b{out}, '2>', \$b{err});
		push @benches, \%b;
	}
	$_->{run}->finish for @benches;
	$copy->finish;
	my $secs = time - $start;
	my ($done, $failed, $retried, $retries) = (0, 0, 0, 0);
	for my $b (@benches)
	{
		my ($d) = $b->{out} =~ /number of transactions actually processed: (\d+)/;
		my ($f) = $b->{out} =~ /number of failed transactions: (\d+)/;
		my ($rd) = $b->{out} =~ /number of transactions retried: (\d+)/;
		my ($rs) = $b->{out} =~ /total number of retries: (\d+)/;
		$done += $d // 0;
		$failed += $f // 0;
		$retried += $rd // 0;
		$retries += $rs // 0;
		$out .= "--- as $b->{user}\n$b->{out}";
		$err .= $b->{err};
	}
	is($done + $failed, $CLIENTS * $TRANSACTIONS, "$level: pgbench ran every transaction")
	  or diag($out . $err);
	unlike($err, qr/aborted|ERROR(?!.*(could not serialize|deadlock detected))/, "$level: no client aborted, no other errors")
	  or diag($err);
	my @copy_errors = $cerr =~ /^psql:.*ERROR:\s+(.*)$/mg;
	my %kinds;
	$kinds{ $_ =~ /near duplicate/ ? '23505' : $_ =~ /serialize/ ? '40001' : $_ =~ /deadlock/ ? '40P01' : $_ }++ for @copy_errors;
	ok(!(grep { !/^(23505|40001|40P01)$/ } keys %kinds), "$level: COPY errors are rejections, 40001 or 40P01 only")
	  or diag($cerr);

	# every 40001 and 40P01 the server raised, retried or not
	my $log = slurp_file($node->logfile);
	my $n40001 = () = $log =~ /ERROR:  could not serialize/g;
	my $n40P01 = () = $log =~ /ERROR:  deadlock detected/g;
	my $nwait = () = $log =~ /LOG:  process \d+ still waiting for \w+ on advisory lock/g;
	($n40001, $n40P01, $nwait) = ($n40001 - $seen{s}, $n40P01 - $seen{d}, $nwait - $seen{w});
	$seen{s} += $n40001;
	$seen{d} += $n40P01;
	$seen{w} += $nwait;
	my $counts = $node->safe_psql('postgres', 'SELECT (SELECT count(*) FROM posts), (SELECT count(*) FROM docs)');
	note(sprintf("locks=$LOCKS escalate=$ESCALATE, $TENANTS of $CLIENTS sessions as a tenant, %s: %d s; committed %d of %d pgbench transactions, %s failed after %s retries (%d transactions retried); server errors 40001: %d, 40P01: %d; lock waits over deadlock_timeout: %d; COPY: %s; rows posts|docs: %s",
		$level, $secs, $done, $CLIENTS * $TRANSACTIONS, $failed, $retries, $retried,
		$n40001, $n40P01, $nwait,
		join(', ', map { "$_ x $kinds{$_}" } sort keys %kinds) || 'no errors', $counts));

	# no committed near-duplicate pair, by a sequential scan
	is($node->safe_psql('postgres', qq{$seq
SELECT count(*) FROM posts a JOIN posts b ON a.id < b.id AND a.site IS NOT DISTINCT FROM b.site
 AND hamming_distance(a.fp, b.fp) <= 10}), '0', "$level: no near-duplicate pair among the simhash64 rows");
	is($node->safe_psql('postgres', qq{$seq
SELECT count(*) FROM docs a JOIN docs b ON a.id < b.id AND jaccard(a.sig, b.sig) >= 0.7}),
		'0', "$level: no near-duplicate pair among the minhash_sig rows");
	# and the stored fingerprints are the SQL functions' values
	is($node->safe_psql('postgres', q{
SELECT (SELECT count(*) FROM posts WHERE fp IS DISTINCT FROM simhash(body, 'null'))
     + (SELECT count(*) FROM docs WHERE sig IS DISTINCT FROM minhash(body, 'null', k => 64))}),
		'0', "$level: stored fingerprints equal simhash() and minhash()");
	my ($nposts) = split /\|/, $counts;
	ok($nposts > 500, "$level: the guard let distinct texts in ($nposts rows)");
}

done_testing();
