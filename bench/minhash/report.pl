#!/usr/bin/perl
# report.pl: the Markdown report of one MinHash benchmark run, from the raw files run.sh wrote.
#
# Reads OUTDIR/meta.txt (key<TAB>value) and the tab-separated files with a header line:
# accuracy.tsv (accuracy.c), and from the GIN part results.tsv (every query run),
# default_plans.tsv, timings.tsv (builds, inserts, pending-list flushes), sizes.tsv, ref.tsv
# (the unindexed reference: (query, row, estimate) for every estimate at least the lowest
# threshold), queries.tsv, jstats.tsv and kinds.tsv; any of them may be missing (ACCURACY=0,
# INDEX=0).  Per index (bits) and threshold: median and 90th percentile over the queries of
# the timed pass (pass 1) for the sequential scan, `%` through GIN and `<@ jaccard_ball`
# through GIN, and the speedup as a ratio of medians over the same queries (the methods ran
# side by side, query by query).  Checks every answer: GIN's and the ball's against the
# sequential scan's, and all three against the reference's rows with an estimate of at
# least the threshold.  Writes the differences to OUTDIR/mismatches.tsv and exits 2 if there
# are any.
#
# Core Perl only.  Usage: perl bench/minhash/report.pl OUTDIR

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpBench qw(read_tsv median);

my $dir = shift // die "usage: $0 OUTDIR\n";

my %meta;
open my $mfh, '<', "$dir/meta.txt" or die "$dir/meta.txt: $!\n";
while (<$mfh>) {
	chomp;
	my ($k, $v) = split /\t/, $_, 2;
	$meta{$k} = $v if defined $v;
}
close $mfh;

sub opt_tsv { my ($f) = @_; return -e "$dir/$f" ? read_tsv("$dir/$f") : () }

# nearest-rank percentile
sub pct {
	my ($p, @v) = @_;
	@v = sort { $a <=> $b } @v;
	return undef unless @v;
	my $i = int($p / 100 * @v + 0.999999) - 1;
	$i = 0 if $i < 0;
	return $v[$i];
}

sub fmt_ms {
	my ($v) = @_;
	return 'n/a' unless defined $v;
	return sprintf('%.0f', $v) if $v >= 100;
	return sprintf('%.1f', $v) if $v >= 10;
	return sprintf('%.2f', $v) if $v >= 1;
	return sprintf('%.3f', $v);
}

sub fmt_x {
	my ($v) = @_;
	return 'n/a' unless defined $v;
	return sprintf('%.0fx', $v) if $v >= 10;
	return sprintf('%.1fx', $v) if $v >= 1;
	return sprintf('%.2fx', $v);
}

sub fmt_int { my $v = sprintf('%.0f', shift); 1 while $v =~ s/^(\d+)(\d{3})/$1,$2/; return $v }
sub mb { return sprintf('%.1f', $_[0] / 1048576) }

sub plan_label {
	my ($p) = @_;
	return '?' unless defined $p && length $p;
	return 'bitmap (GIN)' if $p =~ /Bitmap Heap Scan/;
	return 'seq' if $p =~ /Seq Scan/;
	return $p;
}

my @accuracy = opt_tsv('accuracy.tsv');
my @results  = opt_tsv('results.tsv');
my @defplans = opt_tsv('default_plans.tsv');
my @timings  = opt_tsv('timings.tsv');
my @sizes    = opt_tsv('sizes.tsv');
my @ref      = opt_tsv('ref.tsv');
my @queries  = opt_tsv('queries.tsv');
my @jstats   = opt_tsv('jstats.tsv');
my @kinds    = opt_tsv('kinds.tsv');

# --- header ------------------------------------------------------------------------

sub quoted { my ($v) = @_; return defined $v && length $v ? "\"$v\"" : undef }

my $build = ($meta{commit} ? "commit `$meta{commit}`" : 'no git commit')
	. (($meta{src_changes} // 0) ? " plus $meta{src_changes} uncommitted change(s) under src/" : '')
	. ($meta{textfp_so} ? ", textfp.so md5 `$meta{textfp_so}`" : '');
my $elapsed = ($meta{ended} && $meta{started}) ? sprintf(', %.0f min in all', ($meta{ended} - $meta{started}) / 60) : '';
my @env = map { "$_->[0]=$_->[1]" } grep { defined $_->[1] && length $_->[1] } (
	($meta{index} // 1) ? ([ROWS => $meta{rows}], [QUERIES => $meta{queries}],
		[THRESHOLDS => quoted($meta{thresholds})], [BITS => quoted($meta{bits})],
		[BITS_ROWS => quoted($meta{bits_rows})], [INSERT_ROWS => $meta{insert_rows}]) : ([INDEX => 0]),
	($meta{accuracy} // 1) ? ([ACCURACY_TRIALS => $meta{accuracy_trials}]) : ([ACCURACY => 0]));
print "Run of $meta{date}, `bench/minhash/run.sh` (@env)$elapsed, $build.\n\n";
print "- Machine: $meta{cpu}, nproc $meta{nproc}, $meta{mem}; $meta{kernel}; load average ",
	"$meta{load} at start", ($meta{load_end} ? ", $meta{load_end} at end" : ''), "\n";
print "- Server: $meta{server}; ", join(', ', split ' ', $meta{settings} // ''), "\n" if $meta{server};
print "- Note: textfp.so was reinstalled during the run (md5 `$meta{textfp_so}` at start, ",
	"`$meta{textfp_so_end}` at end); each psql session keeps the library it loaded first\n"
	if $meta{textfp_so_end} && $meta{textfp_so} && $meta{textfp_so} ne $meta{textfp_so_end};
print "\n";

my @mismatch;
my $status = 0;

if (@results) {
	# --- data ------------------------------------------------------------------------

	my %size;  # {stage}{bits, '' for none}{relation} = row
	$size{$_->{stage}}{$_->{bits} // ''}{$_->{relation}} = $_ for @sizes;
	my $heap = $size{load}{''}{mh};
	my $toast = $size{load}{''}{'mh (toast)'};
	print "## Data\n\n";
	print "Synthetic shingle sets (`bench/minhash/load.sql`), each signed with `minhash(shingles, 128)` ",
		"(one-permutation hashing). Ids in blocks of ten: a family root (a base document), 6 members ",
		"(edited copies of the root: a random share of its shingles dropped and new ones added, for a ",
		"true Jaccard with the root drawn uniformly in 0.40..0.98), 3 unrelated base documents; base ",
		"documents have 100 to 400 random 64-bit shingles.\n\n";
	print "| rows | kind | shingles per row, mean (min..max) |\n|---:|---|---:|\n";
	for my $k (@kinds) {
		printf "| %s | %s | %.0f (%d..%d) |\n", fmt_int($k->{rows}), $k->{kind}, $k->{mean_n}, $k->{min_n}, $k->{max_n};
	}
	printf "\nTable `mh (id int, sig minhash_sig)`: %s MB heap%s for %s rows, %.0f bytes per row.\n\n",
		mb($heap->{bytes}), ($toast && $toast->{bytes} ? ', ' . mb($toast->{bytes}) . ' MB TOAST' : ''),
		fmt_int($heap->{rows}), $heap->{bytes} / ($heap->{rows} || 1)
		if $heap;
	if (@jstats) {
		print "Members against their root: true Jaccard (of the shingle sets) and the estimate ",
			"`jaccard(member, root)` (k = 128):\n\n";
		print "| true J | members | mean true J | mean estimate | mean error | RMS error |\n";
		print "|---|---:|---:|---:|---:|---:|\n";
		for my $j (@jstats) {
			printf "| %.1f..%.1f | %s | %.3f | %.3f | %+.4f | %.4f |\n", $j->{j_from}, $j->{j_from} + 0.1,
				fmt_int($j->{members}), $j->{mean_true_j}, $j->{mean_estimate}, $j->{bias}, $j->{rmse};
		}
		print "\n";
	}

	# --- runs ---------------------------------------------------------------------------

	my @thresholds = split ' ', $meta{thresholds};
	my %tkey = map { ($_ + 0) => $_ } @thresholds;
	my (%run, %rows_of, %bitsset);
	for my $r (@results) {
		my $t = $tkey{$r->{threshold} + 0} // $r->{threshold};
		$r->{t} = $t;
		$bitsset{$r->{bits}} = 1;
		$rows_of{$r->{bits}} = $r->{rows};
		$run{$r->{bits}}{$r->{pass}}{$r->{qno}}{$t}{$r->{method}} = $r;
	}
	my @bits = sort { $a <=> $b } keys %bitsset;
	my %qset = map { $_->{qno} => $_->{qset} } @queries;

	# reference answers: {qno} = [[id, est], ...]
	my %refrows;
	push @{$refrows{$_->{qno}}}, [$_->{id}, $_->{est}] for @ref;
	sub ref_answer {
		my ($rr, $t, $maxid) = @_;
		my @ids = sort { $a <=> $b } map { $_->[0] } grep { $_->[1] >= $t && $_->[0] <= $maxid } @{$rr // []};
		return '{' . join(',', @ids) . '}';
	}

	# --- exactness ---------------------------------------------------------------------
	my %compared;
	for my $bt (@bits) {
		for my $pass (sort keys %{$run{$bt}}) {
			for my $qno (sort { $a <=> $b } keys %{$run{$bt}{$pass}}) {
				for my $t (@thresholds) {
					my $m = $run{$bt}{$pass}{$qno}{$t} or next;
					my $ref = @ref ? ref_answer($refrows{$qno}, $t, $rows_of{$bt}) : undef;
					for my $method (qw(seq gin ball)) {
						my $r = $m->{$method} or next;
						if ($method ne 'seq' && $m->{seq}) {
							$compared{$method}++;
							push @mismatch, [$bt, $pass, $qno, $t, $method, 'seq', $m->{seq}{answer}, $r->{answer}]
								if $r->{answer} ne $m->{seq}{answer};
						}
						if (defined $ref) {
							$compared{"$method-ref"}++;
							push @mismatch, [$bt, $pass, $qno, $t, $method, 'reference', $ref, $r->{answer}]
								if $r->{answer} ne $ref;
						}
					}
				}
			}
		}
	}
	open my $mm, '>', "$dir/mismatches.tsv" or die "$dir/mismatches.tsv: $!\n";
	print $mm join("\t", qw(bits pass qno threshold method against expected answer)), "\n";
	print $mm join("\t", @$_), "\n" for @mismatch;
	close $mm;

	print "## Exactness\n\n";
	if (@mismatch) {
		$status = 2;
		printf "**EXACTNESS MISMATCH: %d answers differ** (all in mismatches.tsv):\n\n", scalar @mismatch;
		print "| bits | pass | query | threshold | method | against | expected | answer |\n|---:|---:|---:|---:|---|---|---|---|\n";
		my $n = 0;
		for (@mismatch) {
			last if ++$n > 20;
			print '| ', join(' | ', @$_[0 .. 5], "`$_->[6]`", "`$_->[7]`"), " |\n";
		}
		print "\n";
	} else {
		printf "**All answers equal.** Compared: %d GIN `%%` answers and %d GIN `<@ jaccard_ball` answers ",
			$compared{gin} // 0, $compared{ball} // 0;
		print "with the sequential scan's (the same query, threshold and table, run beside them), and ",
			"all of them and the sequential scan's against the reference (",
			($compared{'seq-ref'} // 0) + ($compared{'gin-ref'} // 0) + ($compared{'ball-ref'} // 0),
			" answers): the rows whose `jaccard(sig, q)` (a function the index does not use) is at least ",
			"the threshold, from one unindexed pass over the table. Answers are the sorted lists of ids.\n\n"
			if @ref || %compared;
	}

	# --- builds ------------------------------------------------------------------------
	my %timing;  # {what}{bits} = row
	$timing{$_->{what}}{$_->{bits}} = $_ for @timings;
	print "## Index builds\n\n";
	print "`CREATE INDEX ... USING gin (sig gin_minhash_ops (bits = N))` on the loaded table, one index ",
		"at a time, committed; maintenance_work_mem as in the settings above. (bits = 16 is the default, ",
		"the same index as `USING gin (sig)`.)\n\n";
	print "| bits | rows | build s (wall) | build s (CPU) | index MB | bytes per row | x table size |\n";
	print "|---:|---:|---:|---:|---:|---:|---:|\n";
	for my $bt (@bits) {
		my $t = $timing{build}{$bt} or next;
		my $tbl = $t->{relation};
		my $is = $size{build}{$bt}{"${tbl}_sig"} or next;
		my $ts = $size{load}{''}{$tbl};
		printf "| %d | %s | %.1f | %s | %s | %.0f | %s |\n", $bt, fmt_int($rows_of{$bt}), $t->{ms} / 1000,
			(length($t->{cpu_ms} // '') ? sprintf('%.1f', $t->{cpu_ms} / 1000) : 'n/a'), mb($is->{bytes}),
			$is->{bytes} / $rows_of{$bt}, ($ts ? sprintf('%.2f', $is->{bytes} / $ts->{bytes}) : 'n/a');
	}
	print "\n";

	# --- query times -------------------------------------------------------------------
	# $st{bits}{t} = {...}
	my %st;
	for my $bt (@bits) {
		my $p1 = $run{$bt}{1} or next;
		for my $t (@thresholds) {
			my (%ms, %cpu, @ratio, @ball_ratio, %n, %gin_by_set);
			for my $qno (keys %$p1) {
				my $m = $p1->{$qno}{$t} or next;
				next unless $m->{seq} && $m->{gin};
				for my $method (qw(seq gin ball)) {
					my $r = $m->{$method} or next;
					push @{$ms{$method}}, $r->{ms};
					push @{$cpu{$method}}, $r->{cpu_ms} if length($r->{cpu_ms} // '');
				}
				push @ratio, $m->{seq}{ms} / $m->{gin}{ms} if $m->{gin}{ms} > 0;
				push @ball_ratio, $m->{seq}{ms} / $m->{ball}{ms} if $m->{ball} && $m->{ball}{ms} > 0;
				push @{$n{$qset{$qno} // 'all'}}, $m->{seq}{n};
				push @{$gin_by_set{$qset{$qno} // 'all'}}, $m->{gin}{ms};
			}
			next unless $ms{seq};
			my %med = map { $_ => median(@{$ms{$_}}) } keys %ms;
			my %cmed = map { $_ => median(@{$cpu{$_}}) } grep { @{$cpu{$_}} } keys %cpu;
			$st{$bt}{$t} = {
				nq => scalar @{$ms{seq}}, med => \%med, cmed => \%cmed,
				p90 => {map { $_ => pct(90, @{$ms{$_}}) } keys %ms},
				x => ($med{gin} > 0 ? $med{seq} / $med{gin} : undef),
				xcpu => (($cmed{gin} // 0) > 0 ? $cmed{seq} / $cmed{gin} : undef),
				xball => (($med{ball} // 0) > 0 ? $med{seq} / $med{ball} : undef),
				slowest => (@ratio ? (sort { $a <=> $b } @ratio)[0] : undef),
				answers => {map { $_ => median(@{$n{$_}}) } keys %n},
				answers_max => {map { my $s = $_; $s => (sort { $b <=> $a } @{$n{$s}})[0] } keys %n},
				gin_set => {map { $_ => median(@{$gin_by_set{$_}}) } keys %gin_by_set},
			};
		}
	}

	print "## Query times\n\n";
	print "Per query and threshold, in an order rotated from one to the next: `SELECT id FROM t WHERE sig % q` ",
		"(`textfp.jaccard_threshold` = the threshold) by a forced sequential scan and through the GIN index ",
		"(a bitmap scan), and `sig <@ jaccard_ball(q, threshold)` through the index; each EXECUTEd from ",
		"plpgsql with q as a parameter, wrapped to keep the sorted ids, timed as wall clock around the ",
		"EXECUTE (planning included). Medians and 90th percentiles over the queries, in ms; speedup = ",
		"sequential median / index median over the same queries (\"CPU\": the same from the backend's ",
		"CPU time); \"slowest\" = the smallest per-query ratio. Answers: median rows for family / unrelated ",
		"queries (max in brackets); every query finds at least its own row.\n\n";
	for my $bt (@bits) {
		next unless $st{$bt};
		printf "**bits = %d**, %s rows, %d queries\n\n", $bt, fmt_int($rows_of{$bt}),
			(values %{$st{$bt}})[0]{nq};
		print "| threshold | answers | seq ms | seq p90 | GIN ms | GIN p90 | GIN family / unrelated ms | speedup | speedup (CPU) | slowest | ball ms | ball speedup |\n";
		print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
		for my $t (@thresholds) {
			my $s = $st{$bt}{$t} or next;
			my $a = $s->{answers};
			my $ax = $s->{answers_max};
			print '| ', join(' | ', $t,
				join(' / ', map { defined $a->{$_} ? sprintf('%g (%d)', $a->{$_}, $ax->{$_}) : '-' } qw(family unrelated)),
				fmt_ms($s->{med}{seq}), fmt_ms($s->{p90}{seq}), fmt_ms($s->{med}{gin}), fmt_ms($s->{p90}{gin}),
				join(' / ', map { fmt_ms($s->{gin_set}{$_}) } qw(family unrelated)),
				fmt_x($s->{x}), fmt_x($s->{xcpu}), fmt_x($s->{slowest}),
				fmt_ms($s->{med}{ball}), fmt_x($s->{xball})), " |\n";
		}
		print "\n";
	}

	print "Speedup of `%` through GIN over the sequential scan, by threshold and bits:\n\n";
	print '| threshold | ', join(' | ', map { "bits $_" } @bits), " |\n|---:|", join('', map { '---:|' } @bits), "\n";
	for my $t (@thresholds) {
		print '| ', join(' | ', $t, map { $st{$_}{$t} ? fmt_x($st{$_}{$t}{x}) : '-' } @bits), " |\n";
	}
	print "\n";

	# plans of the timed runs
	my %planfail;
	for my $bt (@bits) {
		for my $qq (values %{$run{$bt}{1} // {}}) {
			for my $m (values %$qq) {
				for my $method (keys %$m) {
					my $want = $method eq 'seq' ? qr/Seq Scan/ : qr/Bitmap Index Scan/;
					$planfail{"$bt $method"}++ unless ($m->{$method}{plan} // '') =~ $want;
				}
			}
		}
	}
	for (sort keys %planfail) {
		my ($bt, $method) = split ' ';
		printf "**Warning**: %d bits %s %s runs did not use the intended plan.\n\n", $planfail{$_}, $bt, $method;
	}

	# --- targets ---------------------------------------------------------------------
	print "## Target\n\n";
	print "`%` through GIN at least 100x faster than a sequential scan at 1M rows for thresholds 0.8 ",
		"and above (speedup of medians; exact answers).",
		($meta{rows} != 1000000 ? " (This run has $meta{rows} rows.)" : ''), "\n\n";
	print "| bits | rows | threshold | speedup | slowest query | met? |\n|---:|---:|---:|---:|---:|---|\n";
	for my $bt (@bits) {
		for my $t (grep { $_ >= 0.8 } @thresholds) {
			my $s = $st{$bt}{$t} or next;
			printf "| %d | %s | %s | %s | %s | %s |\n", $bt, fmt_int($rows_of{$bt}), $t, fmt_x($s->{x}),
				fmt_x($s->{slowest}),
				(defined $s->{x} && $s->{x} >= 100 && !@mismatch ? 'yes' : '**no**')
				. ($rows_of{$bt} != 1000000 ? " (at $rows_of{$bt} rows)" : '');
		}
	}
	print "\n";

	# --- default plans -------------------------------------------------------------
	if (@defplans) {
		print "## The planner's own plan\n\n";
		print "`EXPLAIN SELECT id FROM t WHERE sig % q` with nothing disabled, for query 1 (a family member) ",
			"and query 2 (an unrelated row), with the planner's row estimate (`%` uses the generic ",
			"`matchingsel`) and the actual rows.\n\n";
		print "| bits | threshold | family: plan | estimate | actual | unrelated: plan | estimate | actual |\n";
		print "|---:|---:|---|---:|---:|---|---:|---:|\n";
		my %dp;
		$dp{$_->{bits}}{$tkey{$_->{threshold} + 0} // $_->{threshold}}{$_->{qset}} = $_ for @defplans;
		for my $bt (sort { $a <=> $b } keys %dp) {
			for my $t (@thresholds) {
				my $d = $dp{$bt}{$t} or next;
				print '| ', join(' | ', $bt, $t, map {
					my $r = $d->{$_};
					$r ? (plan_label($r->{plan}), sprintf('%.0f', $r->{est_rows}), $r->{actual_rows}) : ('-') x 3
				} qw(family unrelated)), " |\n";
			}
		}
		print "\n";
	}

	# --- inserts ---------------------------------------------------------------------
	if (%{$timing{insert} // {}}) {
		my $base = $timing{insert}{''};
		my ($ib) = grep { length $_ } keys %{$timing{insert}};
		my $ins = $ib ? $timing{insert}{$ib} : undef;
		my $flush = $ib ? $timing{flush}{$ib} : undef;
		print "## Inserts\n\n";
		print "One `INSERT ... SELECT` of $meta{insert_rows} new signed rows (same generator, ids after the ",
			"loaded ones), committed: into an empty table with no index (the heap's share), and into the ",
			"loaded table with its GIN index (bits = ", ($ib // '?'), "), default fastupdate = on (entries ",
			"go to the pending list, merged into the index each time it passes 4MB); what is left pending ",
			"at the end is merged apart (`gin_clean_pending_list`, \"flush\"), and \"with flush\" counts ",
			"both.\n\n";
		print "| table | s (wall) | s (CPU) | rows/s | x no index | flush s | rows/s with flush | index MB before / after |\n";
		print "|---|---:|---:|---:|---:|---:|---:|---:|\n";
		for my $t (grep { defined } $base, $ins) {
			my $is_idx = length($t->{bits} // '');
			my $f = $is_idx ? $flush : undef;
			printf "| %s | %.2f | %s | %s | %s | %s | %s | %s |\n",
				($is_idx ? "$t->{relation}, GIN bits $t->{bits}" : "$t->{relation}, no index"),
				$t->{ms} / 1000, (length($t->{cpu_ms} // '') ? sprintf('%.2f', $t->{cpu_ms} / 1000) : 'n/a'),
				fmt_int($t->{rows} / ($t->{ms} / 1000)),
				($base ? sprintf('%.1f', $t->{ms} / $base->{ms}) : ''),
				($f ? sprintf('%.2f', $f->{ms} / 1000) : ''),
				($f ? fmt_int($t->{rows} / (($t->{ms} + $f->{ms}) / 1000)) : ''),
				($is_idx ? mb($size{build}{$t->{bits}}{"$t->{relation}_sig"}{bytes} // 0) . ' / '
					. mb($size{insert}{$t->{bits}}{"$t->{relation}_sig"}{bytes} // 0) : '');
		}
		print "\n";
	}
}

# --- short-text accuracy -------------------------------------------------------------

if (@accuracy) {
	my %cell;  # {k}{n}{j} = {oph => row, kperm => row}
	for my $r (@accuracy) {
		$cell{$r->{k}}{$r->{n}}{$r->{j_target}}{$r->{method}} = $r;
	}
	my $trials = $accuracy[0]{trials};
	print "## Short texts: accuracy of the estimate\n\n";
	print "`bench/minhash/accuracy.c`, on the pure-C core: two sets of n shingles each sharing c, c the ",
		"whole number nearest 2nJ/(1+J) (between 1 and n - 1), so the exact Jaccard is Jx = c/(2n - c) ",
		"(small n cannot hit J exactly); $trials trials per cell, each with fresh random shingles and a fresh ",
		"seed; both sets signed with one-permutation hashing and optimal densification (OPH, the default) ",
		"and with k independent hashes (kperm, the reference). Bias = mean of (estimate - Jx), in units of ",
		"0.001, marked * where it exceeds 3 standard errors; var = variance of the estimate / (Jx(1 - Jx)/k), ",
		"the binomial variance of k independent hashes; out = share of trials whose count of equal ",
		"positions falls outside the central 99.7% interval of Binomial(k, Jx) (0.3% or less expected of ",
		"kperm).\n\n";
	for my $k (sort { $a <=> $b } keys %cell) {
		print "**k = $k**\n\n";
		print "| n | J | Jx | OPH bias | OPH var | OPH out | kperm bias | kperm var | kperm out |\n";
		print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
		for my $n (sort { $a <=> $b } keys %{$cell{$k}}) {
			for my $j (sort { $a <=> $b } keys %{$cell{$k}{$n}}) {
				my $c = $cell{$k}{$n}{$j};
				my $any = $c->{oph} // $c->{kperm};
				print '| ', join(' | ', $n, $j, sprintf('%.3f', $any->{j_exact}), map {
					my $r = $c->{$_};
					$r ? (sprintf('%+.1f%s', 1000 * $r->{bias}, abs($r->{bias}) > 3 * $r->{bias_se} ? '*' : ''),
						sprintf('%.2f', $r->{var_ratio}), sprintf('%.1f%%', 100 * $r->{outside})) : ('-') x 3
				} qw(oph kperm)), " |\n";
			}
		}
		print "\n";
	}
	# summary: by method and by n against k
	print "Summary over all J (min..max of the cells):\n\n";
	print "| k | sets | OPH var | OPH out | OPH max abs bias | kperm var | kperm out | kperm max abs bias |\n";
	print "|---:|---|---:|---:|---:|---:|---:|---:|\n";
	for my $k (sort { $a <=> $b } keys %cell) {
		for my $band (['n < k/4', sub { $_[0] < $k / 4 }], ['k/4 <= n < k', sub { $_[0] >= $k / 4 && $_[0] < $k }],
			['n >= k', sub { $_[0] >= $k }]) {
			my %v;
			for my $n (grep { $band->[1]->($_) } keys %{$cell{$k}}) {
				for my $c (values %{$cell{$k}{$n}}) {
					for my $m (qw(oph kperm)) {
						my $r = $c->{$m} or next;
						push @{$v{$m}{var}}, $r->{var_ratio};
						push @{$v{$m}{out}}, $r->{outside};
						push @{$v{$m}{bias}}, abs($r->{bias});
					}
				}
			}
			next unless %v;
			my $rng = sub { my @x = sort { $a <=> $b } @_; sprintf('%.2f..%.2f', $x[0], $x[-1]) };
			my $prng = sub { my @x = sort { $a <=> $b } @_; sprintf('%.1f..%.1f%%', 100 * $x[0], 100 * $x[-1]) };
			my $mx = sub { my @x = sort { $b <=> $a } @_; sprintf('%.4f', $x[0]) };
			print '| ', join(' | ', $k, $band->[0], map {
				($rng->(@{$v{$_}{var}}), $prng->(@{$v{$_}{out}}), $mx->(@{$v{$_}{bias}}))
			} qw(oph kperm)), " |\n";
		}
	}
	print "\n";
}

exit $status;
