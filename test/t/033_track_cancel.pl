# Tracked tables answer a cancel: textfp_track() in its fill (fingerprints)
# and in its links, textfp_rebuild() in batches (online), and a late arrival whose trigger
# relinks a story of 1,500 rows, each cancelled while it runs; the latency,
# from pg_cancel_backend() to the backend's return to idle (both clocks the
# server's), must stay under the bound of test/t/003_cancel.pl (1 s, for a
# loaded machine).  Every wait is for a state (the registration's progress,
# the locks a backend holds, pg_stat_activity), bounded.
#
# After each cancel the registration is left as it was (building, linking):
# textfp_rebuild() must then finish it, the store holding a row per row of
# the table with its fingerprint.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $bound_ms = 1000;
my $wait_s = $PostgreSQL::Test::Utils::timeout_default;
my $ROWS = 6000;

my $node = PostgreSQL::Test::Cluster->new('track_cancel');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', "autovacuum = off\n");
$node->start;
$node->safe_psql('postgres', qq{
CREATE EXTENSION textfp;
CREATE FUNCTION words(a int, b int) RETURNS text LANGUAGE sql IMMUTABLE
	AS \$\$ SELECT string_agg(left(md5(g::text), 6), ' ' ORDER BY g) FROM generate_series(a, b) g \$\$;
CREATE TABLE news (id int PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO news SELECT g, timestamptz '2025-01-01' + (hashint4(g) & 65535) * interval '1 minute',
	words(1 + (g % 500) * 40, 30 + (g % 500) * 40 + g % 4) FROM generate_series(1, $ROWS) g;
CREATE TABLE boiler (id int PRIMARY KEY, at timestamptz NOT NULL, body text);
INSERT INTO boiler SELECT g, timestamptz '2025-01-01' + g * interval '1 minute',
	'Subscribe to our newsletter for daily updates on the city council, local sports and the weather'
FROM generate_series(1, 1500) g;

-- Waits until news's registration reports progress in phase ph written
-- after since; returns 'ok' or what it saw.
CREATE FUNCTION await_progress(ph text, since timestamptz, secs float8) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE
	deadline timestamptz := clock_timestamp() + secs * interval '1 s';
	r record;
BEGIN
	LOOP
		-- a query, not to_regclass(): a new snapshot sees the table once made
		IF EXISTS (SELECT FROM pg_class c WHERE c.relname = 'news_textfp_config') THEN
			EXECUTE 'SELECT phase, done, updated_at FROM news_textfp_config' INTO r;
			IF r.phase = ph AND r.done > 0 AND r.updated_at > since THEN
				RETURN 'ok';
			END IF;
		END IF;
		IF clock_timestamp() > deadline THEN
			RETURN format('timed out after %s s waiting for phase %s (saw %s)', secs, ph, r);
		END IF;
		PERFORM pg_sleep(0.01);
	END LOOP;
END\$\$;
-- Waits until backend p holds lock mode m on one of textfp's advisory locks
-- of kind k (pg_locks.objsubid); 'ok' or what it saw.
CREATE FUNCTION await_lock(p int, k int, m text, secs float8) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE
	deadline timestamptz := clock_timestamp() + secs * interval '1 s';
BEGIN
	LOOP
		IF EXISTS (SELECT FROM pg_locks l WHERE l.pid = p AND l.locktype = 'advisory' AND l.objsubid = k
				   AND l.mode = m AND l.granted) THEN
			RETURN 'ok';
		END IF;
		IF clock_timestamp() > deadline THEN
			RETURN format('timed out after %s s waiting for backend %s to hold %s of kind %s', secs, p, m, k);
		END IF;
		PERFORM pg_sleep(0.01);
	END LOOP;
END\$\$;
-- Waits until backend p is no longer active; returns when it became idle.
CREATE FUNCTION await_idle(p int, secs float8) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE
	deadline timestamptz := clock_timestamp() + secs * interval '1 s';
	st text;
	changed timestamptz;
BEGIN
	LOOP
		PERFORM pg_stat_clear_snapshot();
		SELECT state, state_change INTO st, changed FROM pg_stat_activity WHERE pid = p;
		IF st IS DISTINCT FROM 'active' THEN
			RETURN changed::text;
		END IF;
		IF clock_timestamp() > deadline THEN
			RETURN 'timed out';
		END IF;
		PERFORM pg_sleep(0.002);
	END LOOP;
END\$\$;
});

my $ctl = $node->background_psql('postgres', timeout => 4 * $wait_s);

# Runs $sql in a session of its own, waits for $await (a query of the
# control session that returns 'ok' once the call is where it should be
# cancelled), cancels it, and checks how soon the backend answered.
sub cancel_case
{
	my ($name, $sql, $await) = @_;
	my $bg = $node->background_psql('postgres', on_error_stop => 0, timeout => 4 * $wait_s);
	my $pid = $bg->query_safe('SELECT pg_backend_pid()');
	$pid =~ s/\D//g;
	my $since = $ctl->query_safe('SELECT clock_timestamp()');
	$bg->query_until(qr/started/, "SET client_min_messages = warning;\n\\echo started\n$sql;\n\\echo finished\n");
	$await =~ s/:pid/$pid/g;
	$await =~ s/:since/'$since'/g;
	my $state = $ctl->query_safe($await);
	is($state, 'ok', "$name: running when cancelled");
	my $t0 = $ctl->query_safe("SELECT clock_timestamp() FROM pg_cancel_backend($pid)");
	my $idle = $ctl->query_safe("SELECT await_idle($pid, $wait_s)");
	my $ms = $idle eq 'timed out' ? 'never' : $ctl->query_safe(
		"SELECT round(extract(epoch FROM '$idle'::timestamptz - '$t0'::timestamptz) * 1000)");
	$bg->query_until(qr/finished/, '');
	like($bg->{stderr}, qr/canceling statement due to user request/, "$name: cancelled");
	note("$name: cancel answered in $ms ms");
	ok($ms ne 'never' && $ms < $bound_ms, "$name: cancel answered within $bound_ms ms ($ms ms)");
	$bg->quit;
	return;
}

# The store holds a row per row of news, with its fingerprint.
my $mirror = q{SELECT count(*) FROM news t FULL JOIN news_textfp s ON s.key = t.id
	WHERE t.id IS NULL OR s.key IS NULL OR s.fp IS DISTINCT FROM simhash(t.body, 'null') OR s.at <> t.at};

cancel_case('textfp_track, fingerprints',
	"CALL textfp_track('news', 'body', 'id', 'at', method => 'simhash', threshold => 10, batch => 100)",
	"SELECT await_progress('fingerprints', :since, $wait_s)");
is($node->safe_psql('postgres', 'SELECT state FROM news_textfp_config'), 'building', 'left building');
$node->safe_psql('postgres', q{SET client_min_messages = warning; CALL textfp_rebuild('news', batch => 500)});
is($node->safe_psql('postgres', 'SELECT state FROM news_textfp_config'), 'ready', 'textfp_rebuild() finishes it');
is($node->safe_psql('postgres', $mirror), '0', 'and the store holds every row, fingerprinted');

$node->safe_psql('postgres', q{SELECT textfp_untrack('news')});
# (in batches: a store larger than maintenance_work_mem, as 1MB makes any)
cancel_case('textfp_track, links',
	"SET maintenance_work_mem = '1MB';\nCALL textfp_track('news', 'body', 'id', 'at', method => 'simhash', threshold => 10, batch => 100)",
	"SELECT await_progress('links', :since, $wait_s)");
is($node->safe_psql('postgres', 'SELECT state FROM news_textfp_config'), 'linking', 'left linking');

cancel_case('textfp_rebuild',
	"CALL textfp_rebuild('news', online => true, batch => 100)",
	"SELECT await_progress('links', :since, $wait_s)");
$node->safe_psql('postgres', q{SET client_min_messages = warning; CALL textfp_rebuild('news', batch => 500)});
is($node->safe_psql('postgres', 'SELECT state FROM news_textfp_config'), 'ready', 'textfp_rebuild() finishes it');
is($node->safe_psql('postgres', $mirror), '0', 'the store holds every row, fingerprinted');
$node->safe_psql('postgres', q{CREATE TABLE saved AS SELECT key, source, story, score FROM news_textfp;
SET client_min_messages = warning; CALL textfp_rebuild('news');});
is($node->safe_psql('postgres', q{SELECT count(*) FROM saved s FULL JOIN news_textfp t ON t.key = s.key
	WHERE (s.source, s.story, s.score) IS DISTINCT FROM (t.source, t.story, t.score)}), '0',
	'its links are a rebuild\'s');

# A late arrival before a story of 1,500 near-identical rows relinks all of
# them in its trigger; past its first rows the owner's transaction holds the
# table's exclusive lock (kind 29799), which says the relinking is under way.
$node->safe_psql('postgres', q{SET client_min_messages = warning;
CALL textfp_track('boiler', 'body', 'id', 'at', method => 'simhash', threshold => 10)});
cancel_case('a late arrival relinking 1,500 rows',
	q{INSERT INTO boiler VALUES (0, '2024-01-01', 'Subscribe to our newsletter for daily updates on the city council, local sports and the weather')},
	"SELECT await_lock(:pid, 29799, 'ExclusiveLock', $wait_s)");
is($node->safe_psql('postgres', q{SELECT count(*) FROM boiler_textfp WHERE key = 0}), '0', 'the cancelled row is not stored');
is($node->safe_psql('postgres', q{SELECT count(DISTINCT story) || ' ' || min(story) FROM boiler_textfp}), '1 1',
	'the story is as it was');

$ctl->quit;
$node->stop;
done_testing();
