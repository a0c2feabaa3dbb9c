# Tracked tables under stress: 8 pgbench sessions write into a tracked table
# (inserts at random times, so late arrivals are the rule; updates of the
# text, the time and the site; deletes; multi-row inserts; transactions of
# several writes) while another session registers it (textfp_track()'s
# back-fill) and then rebuilds it (textfp_rebuild()), for SimHash and
# MinHash, at READ COMMITTED and at REPEATABLE READ.  Half the sessions write
# as the bootstrap superuser (the owner's privileges: it escalates to the
# exclusive lock), half as a role that only has INSERT, UPDATE and DELETE on
# the tables.  pgbench retries 40001 and 40P01 (--max-tries); their counts
# are reported.  Afterwards:
#
#   - the store mirrors the table: a row per row, its time, its site and the
#     fingerprint the SQL function gives;
#   - the story report and who reprints whom, read from their summaries, are
#     the whole store's counts, and every link keeps its source's site and
#     time (the writers change sites under the links);
#   - the links kept on every write are those textfp_rebuild() makes of the
#     same rows (source, story and score of every row);
#   - a second table, registered with dedup => 'reject', written by the same
#     sessions (single rows, two near rows in one statement, updates), holds
#     no near-duplicate pair (a sequential scan of its store).
#
# Every wait is pgbench's or psql's own end, bounded by the TAP timeout.

use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $CLIENTS = 8;
my $TRANSACTIONS = $ENV{TEXTFP_TRACK_STRESS_TRANSACTIONS} // 100;	# per client and run
my $FAMILIES = 150;
my $VARIANTS = 4;
my $INITIAL = 1500;		# rows before the registration
my $TENANTS = $CLIENTS / 2;
my $DAYS = 60;			# times are spread over this many days, in random order

my $node = PostgreSQL::Test::Cluster->new('track_stress');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf',
	"max_connections = 30\ndeadlock_timeout = 50ms\nautovacuum = off\n" .
	"fsync = off\nlog_lock_waits = on\n");
$node->start;

# --- the pool: families of texts that drift a few words at a time ------------
# Variant v of a family replaces 2v of its 40 words: neighbours are near,
# the ends of a family often not, so stories are chains, not cliques.
srand(21);
my @vocab = map { join('', map { ('a' .. 'z')[ int(rand(26)) ] } 1 .. 3 + int(rand(6))) } 1 .. 800;
my @pool;
for my $f (1 .. $FAMILIES)
{
	my @w = map { $vocab[ int(rand(@vocab)) ] } 1 .. 40;
	my @x = @w;
	for my $v (0 .. $VARIANTS - 1)
	{
		$x[ 3 + 6 * $v ] = $vocab[ int(rand(@vocab)) ] if $v > 0;
		$x[ 5 + 6 * $v ] = $vocab[ int(rand(@vocab)) ] if $v > 0;
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
CREATE SEQUENCE ids START 100000;
GRANT USAGE ON SEQUENCE ids TO tenant;
-- the guarded insert: a rejection (23505) is an answer, not a failure
CREATE FUNCTION attempt(q text) RETURNS void LANGUAGE plpgsql AS \$\$
BEGIN
	EXECUTE q;
EXCEPTION WHEN unique_violation THEN
	NULL;
END \$\$;
});

sub script
{
	my ($name, $sql) = @_;
	my $f = "$tmp/$name.sql";
	open my $fh, '>', $f or die "$f: $!";
	print $fh $sql;
	close $fh;
	return $f;
}
my $maxid = 100000 + $CLIENTS * $TRANSACTIONS * 2;
my $pick = join('', map { "$_\n" }
	"\\set f random(1, $FAMILIES)",
	"\\set g random(1, $FAMILIES)",
	"\\set v random(0, " . ($VARIANTS - 1) . ")",
	"\\set w random(0, " . ($VARIANTS - 1) . ")",
	"\\set site random(1, 3)",
	"\\set sec random(0, " . ($DAYS * 86400) . ")",
	"\\set sec2 random(0, " . ($DAYS * 86400) . ")",
	# a row that exists most of the time: an initial one or a new one
	"\\set id random(1, $maxid)",
	"\\set id2 random(1, $INITIAL)");
my $at = q{timestamptz '2025-01-01' + :sec * interval '1 second'};
my @scripts = (
	script('insert', $pick . qq{
INSERT INTO news (id, site, at, body) SELECT nextval('ids'), :site, $at, body FROM pool WHERE family = :f AND v = :v;
}) . '@6',
	script('multi', $pick . qq{
INSERT INTO news (id, site, at, body)
SELECT nextval('ids'), :site, timestamptz '2025-01-01' + (CASE p.v WHEN :v THEN :sec ELSE :sec2 END) * interval '1 second', p.body
FROM pool p WHERE (p.family, p.v) IN ((:f, :v), (:f, :w), (:g, :w));
}) . '@2',
	script('update_text', $pick . q{
UPDATE news SET body = (SELECT body FROM pool WHERE family = :f AND v = :v) WHERE id IN (:id, :id2);
}) . '@2',
	script('update_time', $pick . qq{
UPDATE news SET at = $at WHERE id = :id2;
}) . '@1',
	script('update_site', $pick . q{
UPDATE news SET site = :site WHERE id = :id;
}) . '@1',
	script('delete', $pick . q{
DELETE FROM news WHERE id IN (:id, :id2 + 1);
}) . '@1',
	script('transaction', $pick . qq{
BEGIN;
INSERT INTO news (id, site, at, body) SELECT nextval('ids'), :site, $at, body FROM pool WHERE family = :f AND v = :w;
UPDATE news SET body = (SELECT body FROM pool WHERE family = :g AND v = :v) WHERE id = :id2;
DELETE FROM news WHERE id = :id;
INSERT INTO news (id, site, at, body) SELECT nextval('ids'), :site, $at, body FROM pool WHERE family = :g AND v = :v;
COMMIT;
}) . '@1',
	script('guarded', $pick . qq{
SELECT attempt(format('INSERT INTO guarded (id, site, at, body) SELECT nextval(''ids''), %s, %L::timestamptz, body FROM pool WHERE family = %s AND v = %s',
	:site, $at, :f, :v));
}) . '@3',
	# two rows of one family in one statement: near each other, so never both
	script('guarded_multi', $pick . qq{
SELECT attempt(format('INSERT INTO guarded (id, site, at, body) SELECT nextval(''ids''), %s, %L::timestamptz, body FROM pool WHERE family = %s AND v IN (%s, %s)',
	:site, $at, :f, :v, :w));
}) . '@1',
	script('guarded_update', $pick . q{
SELECT attempt(format('UPDATE guarded SET body = (SELECT body FROM pool WHERE family = %s AND v = %s) WHERE id = (SELECT min(id) FROM guarded WHERE id >= %s)',
	:f, :v, :id2));
}) . '@1',
);

my $seq = 'SET enable_indexscan = off; SET enable_bitmapscan = off;';
my %seen = (s => 0, d => 0);
for my $method ('simhash', 'minhash')
{
	my $threshold = $method eq 'simhash' ? 10 : 0.5;
	my $near = $method eq 'simhash'
	  ? "hamming_distance(a.fp, b.fp) <= $threshold"
	  : "a.fp OPERATOR(\@\@) lsh_query(b.fp, 44, 1, (SELECT lsh_min_bands FROM guarded_textfp_config)) AND a.fp <@ jaccard_ball(b.fp, $threshold)";
	# the registrations' default presets
	my $fp = $method eq 'simhash' ? "simhash(t.body, preset => 'simhash_v2')" : "minhash(t.body, preset => 'minhash_v3')";
	for my $level ('read committed', 'repeatable read')
	{
		my $run = "$method, $level";
		$node->safe_psql('postgres', qq{
SET client_min_messages = warning;
DROP TABLE IF EXISTS news, news_textfp, news_textfp_config, news_textfp_stories, news_textfp_changes,
	news_textfp_reprints, news_textfp_reprint_changes, guarded, guarded_textfp, guarded_textfp_config,
	guarded_textfp_stories, guarded_textfp_changes, guarded_textfp_reprints, guarded_textfp_reprint_changes, saved;
CREATE TABLE news (id bigint PRIMARY KEY, site int, at timestamptz NOT NULL, body text);
INSERT INTO news SELECT g, 1 + g % 3, timestamptz '2025-01-01' + (hashint4(g) & 1048575) * interval '5 seconds',
	(SELECT body FROM pool WHERE family = 1 + (hashint4(g * 7) & 127) AND v = g % $VARIANTS)
FROM generate_series(1, $INITIAL) g;
-- a row without text: no fingerprint, no link
UPDATE news SET body = NULL WHERE id = 7;
CREATE TABLE guarded (id bigint PRIMARY KEY, site int, at timestamptz NOT NULL, body text);
INSERT INTO guarded SELECT family, 1, timestamptz '2025-01-01' + family * interval '1 hour', body FROM pool
WHERE v = 0 AND family % 5 = 0;
CALL textfp_track('guarded', 'body', 'id', 'at', site_column => 'site', method => '$method',
	threshold => $threshold, dedup => 'reject');
GRANT SELECT, INSERT, UPDATE, DELETE ON news, guarded TO tenant;
});
		(my $escaped = $level) =~ s/ /\\ /g;
		my $start = time;
		my @benches;
		{
			local $ENV{PGOPTIONS} = "-c default_transaction_isolation=$escaped";
			for my $bench ([ $CLIENTS - $TENANTS, $node->safe_psql('postgres', 'SELECT current_user') ],
				[ $TENANTS, 'tenant' ])
			{
				my ($clients, $user) = @$bench;
				my %b = (user => $user, out => '', err => '');
				$b{run} = IPC::Run::start(
					[ 'pgbench', '-n', '-c', $clients, '-j', $clients, '-t', $TRANSACTIONS,
					  '--max-tries=1000', '--failures-detailed',
					  '-h', $node->host, '-p', $node->port, '-U', $user, map({ ('-f', $_) } @scripts), 'postgres' ],
					'>', \$b{out}, '2>', \$b{err});
				push @benches, \%b;
			}
		}
		# meanwhile the owner registers news (fingerprints in batches, then
		# links in time order at once in memory, writers waiting for the
		# pass) and then rebuilds it, in batches, writers going on
		my ($mout, $merr) = ('', '');
		my $maint = IPC::Run::start(
			[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', $node->host, '-p', $node->port, '-d', 'postgres',
			  '-c', 'SET client_min_messages = warning',
			  '-c', "CALL textfp_track('news', 'body', 'id', 'at', site_column => 'site', method => '$method', threshold => $threshold, batch => 200)",
			  '-c', "SELECT 'registered ' || clock_timestamp()",
			  '-c', "CALL textfp_rebuild('news', online => true, batch => 200)",
			  '-c', "SELECT 'rebuilt ' || clock_timestamp()" ],
			'>', \$mout, '2>', \$merr);
		$maint->finish;
		my $maint_secs = time - $start;
		my $maint_ok = $? == 0;
		$_->{run}->finish for @benches;
		my $secs = time - $start;
		ok($maint_ok, "$run: textfp_track() and textfp_rebuild() ran while the writers wrote") or diag($merr);

		my ($done, $failed, $retried, $retries, $out, $err) = (0, 0, 0, 0, '', '');
		my %retries_of;
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
			while ($b->{out} =~ m{SQL script \d+: \S*/(\w+)\.sql\n(.*?)total number of retries: (\d+)}sg)
			{
				$retries_of{$1} += $3;
			}
		}
		is($done, $CLIENTS * $TRANSACTIONS, "$run: every pgbench transaction committed") or diag($out . $err);
		unlike($err, qr/aborted|ERROR(?!.*(could not serialize|deadlock detected))/, "$run: no client aborted, no other errors")
		  or diag($err);

		my $log = slurp_file($node->logfile);
		my $n40001 = () = $log =~ /ERROR:  could not serialize/g;
		my $n40P01 = () = $log =~ /ERROR:  deadlock detected/g;
		($n40001, $n40P01) = ($n40001 - $seen{s}, $n40P01 - $seen{d});
		$seen{s} += $n40001;
		$seen{d} += $n40P01;
		my $rows = $node->safe_psql('postgres', q{
SELECT (SELECT count(*) FROM news) || ' rows in ' || (SELECT count(DISTINCT story) FROM news_textfp) || ' stories, '
	|| (SELECT count(*) FROM guarded) || ' guarded rows'});
		note(sprintf("%s: %d s (registration and rebuild: %d s); %d of %d transactions committed after %d retries (%d retried); "
			. "server errors 40001: %d, 40P01: %d; %s", $run, $secs, $maint_secs, $done, $CLIENTS * $TRANSACTIONS,
			$retries, $retried, $n40001, $n40P01, $rows));
		note("$run: retries by script: " . join(', ', map { "$_ $retries_of{$_}" } sort keys %retries_of));

		# the store mirrors the table
		is($node->safe_psql('postgres', qq{
SELECT t.id, s.key, t.at, s.at, t.site, s.site, s.fp IS NOT DISTINCT FROM $fp
FROM news t FULL JOIN news_textfp s ON s.key = t.id
WHERE t.id IS NULL OR s.key IS NULL OR s.at <> t.at OR s.site IS DISTINCT FROM t.site
   OR s.fp IS DISTINCT FROM $fp ORDER BY 1, 2}), '', "$run: a store row per row, with its time, site and fingerprint");

		# the story report (the summary the writers folded, and the stories
		# changed since) is the whole store's count
		is($node->safe_psql('postgres', q{
SELECT count(*) FROM (
	(SELECT * FROM textfp_story_report('news') EXCEPT ALL SELECT * FROM textfp_story_report('news', min_size => 1) r WHERE r.size >= 2)
	UNION ALL
	(SELECT * FROM textfp_story_report('news', min_size => 1) r WHERE r.size >= 2 EXCEPT ALL SELECT * FROM textfp_story_report('news'))) d}),
			'0', "$run: the story report from the summary is the store's count");

		# the same for who reprints whom, and every link keeps its source's
		# site and time (the writers changed sites under the links)
		is($node->safe_psql('postgres', q{
SELECT count(*) FROM (
	(SELECT * FROM textfp_reprints('news', same_site => true) EXCEPT ALL SELECT * FROM textfp_reprints('news', '-infinity', true))
	UNION ALL
	(SELECT * FROM textfp_reprints('news', '-infinity', true) EXCEPT ALL SELECT * FROM textfp_reprints('news', same_site => true))) d}),
			'0', "$run: who reprints whom from the summary is the store's count");
		is($node->safe_psql('postgres', q{
SELECT count(*) FROM news_textfp c JOIN news_textfp o ON o.key = c.source
WHERE c.source_site IS DISTINCT FROM o.site OR c.source_at IS DISTINCT FROM o.at}),
			'0', "$run: every link keeps its source's site and time");

		# the links kept on write are a rebuild's
		$node->safe_psql('postgres', q{
CREATE TABLE saved AS SELECT key, source, story, score FROM news_textfp;
CALL textfp_rebuild('news');});
		my $diff = $node->safe_psql('postgres', q{
SELECT s.key, s.source, s.story, s.score, t.source, t.story, t.score
FROM saved s FULL JOIN news_textfp t ON t.key = s.key
WHERE (s.source, s.story, s.score) IS DISTINCT FROM (t.source, t.story, t.score) ORDER BY 1});
		is($diff, '', "$run: the links kept on write are those of a rebuild");
		is($node->safe_psql('postgres', q{
SELECT count(*) FROM news_textfp WHERE source IS NOT NULL}) > 100 ? 'linked' : 'few links', 'linked',
			"$run: most rows link (the test has near rows to link)");

		# every write looks its near rows up: no pending list to read through
		is($node->safe_psql('postgres', q{
SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am m ON m.oid = c.relam
WHERE i.indrelid = 'news_textfp'::regclass AND m.amname = 'gin'
  AND NOT coalesce('fastupdate=off' = ANY (c.reloptions), false)}), '0',
			"$run: the store's GIN index has no pending list") if $method eq 'minhash';

		# dedup => 'reject': no committed near-duplicate pair
		is($node->safe_psql('postgres', qq{$seq
SELECT count(*) FROM guarded_textfp a JOIN guarded_textfp b ON a.key < b.key AND $near}), '0',
			"$run: no near-duplicate pair among the guarded rows");
		cmp_ok($node->safe_psql('postgres', 'SELECT count(*) FROM guarded'), '>', 60,
			"$run: the guard let distinct texts in");
	}
}

$node->stop;
done_testing();
