# Every textfp call answers a cancel quickly, including work inside ICU on
# inputs made to be slow: 24 MB of Chinese without punctuation (n-grams, ICU
# word break, Traditional-to-Simplified, shingle pairs, feature lists),
# U+FDFA's 18-fold expansion (which ends in error 54000 when not cancelled),
# a million distinct shingles to sort, union_find over 3M pairs (components
# and star).  The cases the 1.0 report measured are cancelled 20 times each
# at different moments, the others 8 times, and the worst latency of each
# case is printed (TEXTFP_CANCEL_VERBOSE=1: every one).  textfp 1.0 took 1.8
# to 11 s on such inputs.  The assertion, 1 s, allows for a loaded machine;
# docs/reference.md quotes the figures measured on a quiet one.
#
# Nothing here depends on the machine's speed.  Each case's first call runs
# uncancelled and is timed; the cancels then come at fractions of that time.
# The calling session reports every outcome of a call (cancelled, finished,
# failed, or a cancel that came before the call began), and a call that was
# not cancelled while it ran is tried again with the cancel sooner.  Every
# wait is for a state, and bounded.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $tries = $ENV{TEXTFP_CANCEL_TRIES} // 20;
my $bound_ms = 1000;
my $attempts = 6;	# per try: each one after the first cancels twice as soon
my $wait_s = $PostgreSQL::Test::Utils::timeout_default;

my $node = PostgreSQL::Test::Cluster->new('cancel');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\n");
$node->start;
# The test and the calling session take turns through the table handshake:
# "go N" starts call N, "read N" says the test has read its outcome, "stop N"
# ends the session's loop.  The calling session says where it is through
# application_name, which await_state() watches from the test's session.
$node->safe_psql('postgres', qq{
CREATE EXTENSION textfp;
CREATE TABLE handshake (step text, n int);
-- Waits for one of the steps for call i and returns it.  A cancel that comes
-- while it waits (after the call it was meant for has ended) is ignored.
CREATE FUNCTION wait_for(s text[], i int) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE
	found text;
	deadline timestamptz := clock_timestamp() + interval '$wait_s s';
BEGIN
	LOOP
		BEGIN
			SELECT step INTO found FROM handshake WHERE step = ANY (s) AND n = i LIMIT 1;
			IF found IS NOT NULL THEN
				RETURN found;
			END IF;
			IF clock_timestamp() > deadline THEN
				RAISE EXCEPTION 'no % for call % within $wait_s s: the test is gone', s, i;
			END IF;
			PERFORM pg_sleep(0.005);
		EXCEPTION WHEN query_canceled THEN
			NULL;
		END;
	END LOOP;
END\$\$;
-- Waits until backend p's application_name matches pattern, and returns it;
-- or says that the backend left its DO block, or that the wait timed out.
CREATE FUNCTION await_state(p int, pattern text, secs float8) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE
	app text;
	st text;
	q text;
	deadline timestamptz := clock_timestamp() + secs * interval '1 s';
BEGIN
	LOOP
		PERFORM pg_stat_clear_snapshot();	-- backend status is cached per transaction
		SELECT application_name, state, query INTO app, st, q FROM pg_stat_activity WHERE pid = p;
		IF app ~ pattern THEN
			RETURN app;
		ELSIF st IS NULL OR (st <> 'active' AND q ~ '^DO') THEN
			-- gone, or its DO block has ended (an error reverts application_name)
			RETURN format('backend %s is %s after its DO block (application_name %L)', p, coalesce(st, 'gone'), app);
		ELSIF clock_timestamp() > deadline THEN
			RETURN format('timed out after %s s waiting for %L (application_name %L)', secs, pattern, app);
		END IF;
		PERFORM pg_sleep(0.002);
	END LOOP;
END\$\$;
});

# Each case builds its input once, in a DO block, then calls textfp again and
# again, saying "ready N" through application_name before call N and its
# outcome after it: "done N ms", "failed N sqlstate ms", "caught N
# timestamp" (the cancel's handler ran then) or "lost N" (the cancel came
# between calls).  The latency is measured from the clock_timestamp() of
# pg_cancel_backend to that of the handler, both on the server.  Building
# inputs this large with repeat() or string_agg() takes most of a second in
# which PostgreSQL itself answers no cancel: that is why it happens once,
# before the first "ready".
my $cjk = q{repeat('经济发展很快国家', 1000000)};	# 24 MB, no punctuation
# name, input, call, cancels, how an uncancelled call ends ('done' or a SQLSTATE).
# The four cases of the 1.0 report are cancelled $tries times, the others 8.
my @cases = (
	[ 'simhash, n-grams', q{repeat('经济发展很快国家', 2500000)}, 'simhash(t)', $tries, 'done' ],
	[ 'simhash, ICU word break', $cjk, "simhash(t, tokenizer => 'icu')", $tries, 'done' ],
	[ 'simhash, simplify', q{repeat('經濟發展很快國家', 1000000)}, 'simhash(t, simplify => true)', $tries, 'done' ],
	# 7M U+FDFA normalise to 231 MB, past the 128 MB limit: error 54000
	[ 'U+FDFA expansion', q{repeat(U&'\FDFA', 7000000)}, 'simhash(t)', $tries, '54000' ],
	[ 'minhash, n-gram pairs',   $cjk, 'minhash(t)', 8, 'done' ],
	[ 'textfp_features',         $cjk, "(SELECT count(*) FROM textfp_features(t, shingle => 3))", 8, 'done' ],
	[ 'shingles, 1M distinct',
	  q{(SELECT string_agg(md5(g::text), ' ') FROM generate_series(1, 1000000) g)},
	  'shingles(t, shingle => 1)', 8, 'done' ],
	# union_find over 3M pairs of 1M keys: reading the pairs, the unions, and
	# (star) the sort and the claims at the end
	[ 'union_find, components', q{''}, q{(SELECT count(*) FROM union_find('SELECT a, b FROM uf_pairs'))}, 8, 'done' ],
	[ 'union_find, star', q{''}, q{(SELECT count(*) FROM union_find('SELECT a, b FROM uf_pairs', 'star'))}, 8, 'done' ],
);
$node->safe_psql('postgres', q{
CREATE TABLE uf_pairs AS
	SELECT (hashint4(i) & 1048575)::bigint AS a, (hashint4(i + 7) & 1048575)::bigint AS b
	FROM generate_series(1, 3000000) i;
});

# The test's own session: starts calls, sends cancels and waits for states,
# each in one round trip.  Its psql lives through the whole test.
my $ctl = $node->background_psql('postgres', timeout => 20 * $wait_s);

# Waits for the calling session ($bg, backend $pid) to reach a state; dies
# with what it saw, and what its psql printed, when it does not within $wait_s.
sub await_state
{
	my ($bg, $pid, $pattern) = @_;
	my $app = $ctl->query_safe("SELECT await_state($pid, '$pattern', $wait_s)");
	if ($app !~ /$pattern/)
	{
		eval { $bg->{run}->pump_nb; };
		die "$app\n$bg->{stderr}\n";
	}
	return $app;
}

for my $case (@cases)
{
	my ($name, $make, $call, $n, $expect) = @$case;
	my $worst = 0;
	my $answered = 0;
	my $missed = 0;
	my $bg = $node->background_psql('postgres', on_error_stop => 0, timeout => 20 * $wait_s);
	my $pid = $bg->query_safe('SELECT pg_backend_pid()');

	$pid =~ s/\D//g;
	$ctl->query_safe('TRUNCATE handshake');
	$bg->query_until(qr/started/, qq{\\echo started
DO \$\$DECLARE
	t text := $make;
	t0 timestamptz;
	outcome text;
	i int := 0;
BEGIN
	LOOP
		i := i + 1;
		outcome := 'lost ' || i;
		-- One cancel comes after each "go", at any moment: every statement
		-- from "ready" to "read" is inside this block.
		BEGIN
			PERFORM set_config('application_name', 'ready ' || i, false);
			EXIT WHEN wait_for('{go,stop}', i) = 'stop';
			t0 := clock_timestamp();
			BEGIN
				PERFORM $call;
				outcome := format('done %s %s', i, round(extract(epoch FROM clock_timestamp() - t0) * 1000));
			EXCEPTION WHEN query_canceled THEN
				outcome := 'caught ' || i || ' ' || clock_timestamp();
			WHEN OTHERS THEN
				outcome := format('failed %s %s %s', i, SQLSTATE, round(extract(epoch FROM clock_timestamp() - t0) * 1000));
			END;
			PERFORM set_config('application_name', outcome, false);
			PERFORM wait_for('{read}', i);
		EXCEPTION WHEN query_canceled THEN
			-- the cancel came after the call had ended, or before it began
			PERFORM set_config('application_name', outcome, false);
			PERFORM wait_for('{read}', i);
		END;
	END LOOP;
END\$\$;
\\echo finished
});
	my $call_no = 0;

	# Starts the next call and, unless $delay_s is undef, cancels it $delay_s
	# into it.  Returns the outcome and the time of the cancel.
	my $run_call = sub {
		my ($delay_s) = @_;
		$call_no++;
		await_state($bg, $pid, "^ready $call_no\$");
		my $t0 = '';
		if (defined $delay_s)
		{
			my $out = $ctl->query_safe(sprintf(
				"INSERT INTO handshake VALUES ('go', %d); SELECT pg_sleep(%.3f); " .
				"SELECT clock_timestamp() FROM pg_cancel_backend(%d);", $call_no, $delay_s, $pid));
			($t0) = $out =~ /([^\n]+)\s*\z/;
		}
		else
		{
			$ctl->query_safe("INSERT INTO handshake VALUES ('go', $call_no)");
		}
		my $app = await_state($bg, $pid, "^(caught|done|failed|lost) $call_no( |\$)");
		$ctl->query_safe("INSERT INTO handshake VALUES ('read', $call_no)");
		return ($app, $t0);
	};

	# the first call uncancelled: how it ends, and how long it takes here
	my ($first) = $run_call->(undef);
	my ($how, $ms) = $first =~ /^done \d+ (\d+)$/ ? ('done', $1)
	  : $first =~ /^failed \d+ (\w+) (\d+)$/ ? ($1, $2) : ($first, 0);
	is($how, $expect, "$name: an uncancelled call ends as it should ($first)");

	for my $try (1 .. $n)
	{
		# a different moment into the call each try: 5% to 50% of its time,
		# of its first 6 s for a long call (so that a loaded machine, where
		# calls take longer, does not make the test take longer still)
		my $span_s = ($ms < 6000 ? $ms : 6000) / 1000;
		my $delay_s = $span_s * (0.05 + 0.45 * (($try - 1) % 10) / 9);
		my $caught;
		for my $attempt (1 .. $attempts)
		{
			my ($app, $t0) = $run_call->($delay_s);
			if ($app =~ /^caught \d+ (.+)$/)
			{
				$caught = $ctl->query_safe(
					"SELECT round(extract(epoch FROM '$1'::timestamptz - '$t0'::timestamptz) * 1000)");
				last;
			}
			# it ended (or the cancel came before it began): cancel sooner; a
			# first call that was slower (cold caches) no longer sets the pace
			$ms = $1 if $app =~ /^(?:done \d+|failed \d+ \w+) (\d+)$/ && $1 < $ms;
			note("$name, try $try: cancel ${\ int($delay_s * 1000)} ms in, but $app");
			$missed++;
			$delay_s = $delay_s / 2 < 0.02 ? 0.02 : $delay_s / 2;
		}
		next unless defined $caught;
		note("$name, try $try: $caught ms") if $ENV{TEXTFP_CANCEL_VERBOSE};
		$answered++;
		$worst = $caught if $caught > $worst;
	}
	$ctl->query_safe(sprintf("INSERT INTO handshake VALUES ('stop', %d)", $call_no + 1));
	$bg->query_until(qr/finished/, '');
	$bg->quit;
	note(sprintf("%-24s worst cancel latency %4d ms over %d cancels (uncancelled call %d ms, %d cancels came too late)",
		$name, $worst, $answered, $ms, $missed));
	is($answered, $n, "$name: each of $n calls cancelled while running");
	cmp_ok($worst, '<', $bound_ms, "$name: every cancel answered within $bound_ms ms (worst $worst ms)");
}

$ctl->quit;
$node->stop;
done_testing();
