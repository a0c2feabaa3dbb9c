#!/usr/bin/perl
# report.pl: the Markdown report of one index benchmark run, from the raw files run.sh wrote.
#
# Reads OUTDIR/meta.txt (key<TAB>value) and the tab-separated files with a header line that
# the SQL scripts wrote: results.tsv (every query run), default_plans.tsv, timings.tsv (index
# builds, inserts and GIN pending-list flushes), sizes.tsv and joins.tsv.  The index methods
# are those present in results.tsv and timings.tsv, in the order of meta.txt's "methods".
# Per data set, query set, query kind and method: the median and 90th percentile over the
# queries of the timed pass (pass 1), and the speedup of the index over the sequential scan
# as a ratio of medians (the methods ran side by side, query by query).  Checks every index
# answer against the reference: counts for r0..r6, lists of distances for KNN, fp % q
# (threshold 6) and fp = q against the r6 and r0 counts, and each self-join's count on the
# checked outer rows against the unindexed reference's (and the timed joins' counts across
# methods).  Writes the differences to OUTDIR/mismatches.tsv and exits 2 if there are any.
#
# Core Perl only.  Usage: perl bench/index/report.pl OUTDIR

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpBench qw(read_tsv median);

my $dir = shift // die "usage: $0 OUTDIR\n";

my @QSETS    = qw(near far);
my %QSET_DESC = (
	near => 'a row\'s fingerprint with 1 or 2 bits flipped',
	far  => '64 random bits, no near neighbour (text-like: a document not in the table)',
);
my %DS_DESC = (
	uniform   => 'uniform random fingerprints',
	clustered => 'planted families of near duplicates',
	textlike  => 'simhash of bench/corpus\'s text-like documents',
);

# What a method is called in the report: gin is blocks = 4, the opclass default; mih's m is
# chosen from the table's size unless given.
sub name {
	my ($m) = @_;
	return {seq => 'seq scan', gist => 'GiST', spgist => 'SP-GiST', gin => 'GIN (blocks 4)', mih => 'mih'}->{$m}
		// ($m =~ /^gin(\d+)$/ ? "GIN (blocks $1)" : $m =~ /^mih(\d+)$/ ? "mih (m = $1)" : $m);
}

sub is_gin { return $_[0] =~ /^gin\d*$/ }
sub is_mih { return $_[0] =~ /^mih\d*$/ }

# The targets of a method, for the near queries: [kind, target, stretch].  GIN answers no KNN;
# its point is radius queries far faster than the trees'.  mih's targets are in a section of
# their own (issue 13), over all queries.
sub targets {
	my ($m) = @_;
	return () if is_mih($m);
	return is_gin($m) ? (['r3', 200, 500]) : (['r3', 20, 100], ['knn1', 20, 100], ['knn10', 20, 100]);
}

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

sub kind_label {
	my ($k) = @_;
	return "radius $1" if $k =~ /^r(\d+)$/;
	return "KNN-$1" if $k =~ /^knn(\d+)$/;
	return $k;
}

# 'Index Only Scan' -> 'index-only', and so on
sub plan_label {
	my ($p) = @_;
	return '?' unless defined $p && length $p;
	return 'bitmap' if $p =~ /Bitmap Heap Scan/;
	return 'index-only' if $p =~ /Index Only Scan/;
	return 'index' if $p =~ /Index Scan/;
	return 'seq' if $p =~ /Seq Scan/;
	return $p;
}

# the distances of a KNN answer '{1,2,2}'
sub dists { my ($s) = @_; $s =~ s/[{}]//g; return length $s ? split /,/, $s : () }

my %meta;
open my $mfh, '<', "$dir/meta.txt" or die "$dir/meta.txt: $!\n";
while (<$mfh>) {
	chomp;
	my ($k, $v) = split /\t/, $_, 2;
	$meta{$k} = $v if defined $v;
}
close $mfh;

# Runs before RADII and DATASETS were parameters: radii 0..6, threshold 6, two data sets.
my @DATASETS = split ' ', ($meta{datasets} // 'uniform clustered');
my $THRESHOLD = $meta{threshold} // 6;
my %radius = map { $_ => 1 } 3, split ' ', ($meta{radii} // '0 1 2 3 4 5 6');
my @RADII = map { "r$_" } sort { $a <=> $b } keys %radius;
my @KINDS = (@RADII, qw(knn1 knn10));

my @results = read_tsv("$dir/results.tsv");
my @defplans = -e "$dir/default_plans.tsv" ? read_tsv("$dir/default_plans.tsv") : ();
my @timings = -e "$dir/timings.tsv" ? read_tsv("$dir/timings.tsv") : ();
my @sizes = -e "$dir/sizes.tsv" ? read_tsv("$dir/sizes.tsv") : ();
my @joins = -e "$dir/joins.tsv" ? read_tsv("$dir/joins.tsv") : ();

# The index methods present in the data: in the order run.sh was given them, then any others
# (trees first, GIN by blocks).
my @INDEXES;
{
	my %seen = map { $_->{method} => 1 } @results, @timings;
	delete @seen{qw(seq ref)};
	my %order;
	my @given = split ' ', ($meta{methods} // '');
	@order{@given} = 0 .. $#given;
	my $rank = sub {
		my ($m) = @_;
		return $order{$m} // 1000 + ($m =~ /^gin(\d*)$/ ? 100 + ($1 || 4) : 0);
	};
	@INDEXES = sort { $rank->($a) <=> $rank->($b) || $a cmp $b } keys %seen;
}

# $run{ds}{qset}{qno}{kind}{method} = row: the timed pass (1), the reference counts (-2,
# method 'ref') and the exactness-only checks (-1) together; no two share a kind and method.
my %run;
for my $r (@results) {
	next unless $r->{pass} == 1 || $r->{pass} == -1 || $r->{pass} == -2;
	$run{$r->{dataset}}{$r->{qset}}{$r->{qno}}{$r->{kind}}{$r->{method}} = $r;
}

# The reference answer of a query for a kind, and what it comes from.
sub reference {
	my ($q, $k) = @_;
	return ($q->{$k}{ref}{result}, 'reference') if $k =~ /^r\d+$/ && $q->{$k}{ref};
	return ($q->{"r$THRESHOLD"}{ref}{result}, "reference r$THRESHOLD") if $k eq 'pct' && $q->{"r$THRESHOLD"}{ref};
	return ($q->{r0}{ref}{result}, 'reference r0') if $k eq 'eq' && $q->{r0}{ref};
	my $knn = $q->{knn10} && $q->{knn10}{seq} or return;
	return ($knn->{result}, 'seq knn10') if $k eq 'knn10';
	if ($k eq 'knn1') {
		my @d = dists($knn->{result});
		return ('{' . ($d[0] // '') . '}', 'seq knn10, first');
	}
	return;
}

# --- exactness -------------------------------------------------------------------

my @mismatch;
my %compared;
my %plan_wrong;  # index runs whose plan used no index
for my $ds (sort keys %run) {
	for my $qs (sort keys %{$run{$ds}}) {
		for my $qno (sort { $a <=> $b } keys %{$run{$ds}{$qs}}) {
			my $q = $run{$ds}{$qs}{$qno};
			for my $k (sort keys %$q) {
				my ($ref, $from) = reference($q, $k);
				next unless defined $ref;
				for my $m ('seq', @INDEXES) {
					my $r = $q->{$k}{$m} or next;
					next if $m eq 'seq' && $k =~ /^knn/;  # the reference itself
					$compared{$m}++;
					push @mismatch, [$ds, $qs, $qno, $k, $m, "$from: $ref", $r->{result}]
						if $r->{result} ne $ref;
					$plan_wrong{$m}++ if $m ne 'seq' && $r->{plan} !~ /Index|Bitmap/;
				}
			}
		}
	}
}

# The joins: each checked join against the unindexed reference on the same outer rows, and
# the timed joins of one data set and operator against each other (same outer rows).
my %jref;    # {ds}{op} = reference row
my %jcheck;  # {ds}{op}{method} = check row
my %jtimed;  # {ds}{op}{method} = timed row
my @jnotrun;
for my $j (@joins) {
	if ($j->{stage} eq 'ref') { $jref{$j->{dataset}}{$j->{op}} = $j; next }
	($j->{stage} eq 'check' ? \%jcheck : \%jtimed)->{$j->{dataset}}{$j->{op}}{$j->{method}} = $j;
	push @jnotrun, $j unless length $j->{pairs};
}
my $jcompared = 0;
for my $ds (sort keys %jcheck) {
	for my $op (sort keys %{$jcheck{$ds}}) {
		my $ref = $jref{$ds}{$op};
		for my $m (sort keys %{$jcheck{$ds}{$op}}) {
			my $c = $jcheck{$ds}{$op}{$m};
			next unless length $c->{pairs};
			$jcompared++;
			push @mismatch, [$ds, 'join', $c->{outer_rows}, "join $op", $m,
				'unindexed join: ' . ($ref ? $ref->{pairs} : 'missing'), $c->{pairs}]
				if !$ref || $ref->{pairs} ne $c->{pairs} || $ref->{outer_rows} ne $c->{outer_rows};
		}
	}
}
for my $ds (sort keys %jtimed) {
	for my $op (sort keys %{$jtimed{$ds}}) {
		my @ran = grep { length $_->{pairs} } map { $jtimed{$ds}{$op}{$_} } grep { $jtimed{$ds}{$op}{$_} } @INDEXES;
		for my $j (@ran[1 .. $#ran]) {
			$jcompared++;
			push @mismatch, [$ds, 'join', $j->{outer_rows}, "join $op", $j->{method},
				"$ran[0]{method}: $ran[0]{pairs}", $j->{pairs}] if $j->{pairs} ne $ran[0]{pairs};
		}
	}
}

open my $mm, '>', "$dir/mismatches.tsv" or die "$dir/mismatches.tsv: $!\n";
print $mm join("\t", qw(dataset qset qno kind method reference answer)), "\n";
print $mm join("\t", @$_), "\n" for @mismatch;
close $mm;

# --- header ------------------------------------------------------------------------

my $minutes = defined $meta{started} && defined $meta{ended}
	? sprintf('%.1f', ($meta{ended} - $meta{started}) / 60) : '?';
print "# Exact Hamming search: ", join(', ', map { name($_) } @INDEXES), "; run of $meta{date}\n\n";
print "- Machine: $meta{cpu}, nproc $meta{nproc}, $meta{mem}; $meta{kernel}; load average ",
	"$meta{load} at start, ", $meta{load_end} // '?', " at end\n";
print "- Server: ", $meta{server} // '?', "; ", $meta{server_settings} // $meta{settings},
	(($meta{bench_server} // '') eq 'existing' ? ' (an existing server, BENCH_SERVER=existing)' : ''), "\n";
print "- Data sets: ", join(', ', map { "$_ ($DS_DESC{$_})" } @DATASETS),
	($meta{textlike_corpus} ? "; corpus file $meta{textlike_corpus}" : ''), "\n";
print "- Rows: $meta{rows} per data set; $meta{queries} near and $meta{queries} far queries per data set ",
	"(KNN-10, far KNN-1 and the `%` check on the first ", $meta{knn_queries} // '?', " of each); ",
	"insert test $meta{insert_rows} rows\n";
print "- Index methods: ", join(', ', map { "`$_` = " . name($_) } @INDEXES),
	(length($meta{join_methods} // '')
		? "; self-joins through " . join(', ', map { name($_) } split ' ', $meta{join_methods}) .
		  " on the first $meta{join_outer} rows, checked on the first $meta{join_check_outer}"
		: '; no self-joins'), "\n";
print "- The timing session read every page of each data set's tables and indexes before its timed queries ",
	"(SESSION_MAP=1: no timed query pays for a backend's first touch of a shared buffer)\n"
	if ($meta{session_map} // '0') eq '1';
print "- Commit $meta{commit}", ($meta{src_changes} ? " (plus uncommitted changes to $meta{src_changes} files under src/)" : ''),
	"; textfp.so $meta{textfp_so}",
	(defined $meta{textfp_so_end} && $meta{textfp_so_end} ne $meta{textfp_so}
		? " at start, $meta{textfp_so_end} at end (reinstalled during the run; the timing sessions kept the library they loaded)"
		: ''), "\n";
print "- Run time: $minutes min (load ", $meta{phase_load_s} // '?', ' s, builds ', $meta{phase_build_s} // '?',
	' s, queries ', $meta{phase_queries_s} // '?', ' s, joins ', $meta{phase_join_s} // '?',
	' s, inserts ', $meta{phase_insert_s} // '?', " s",
	(defined $meta{phase_textlike_s} ? ", text-like fingerprints $meta{phase_textlike_s} s" : ''), ")\n\n";

# --- exactness summary -------------------------------------------------------------

print "## Exactness\n\n";
if (@mismatch) {
	printf "**EXACTNESS MISMATCH: %d answers differ from the reference** (all in mismatches.tsv):\n\n",
		scalar @mismatch;
	print "| data set | queries | query | kind | method | reference | answer |\n|---|---|---:|---|---|---|---|\n";
	my $n = 0;
	for (@mismatch) {
		last if ++$n > 20;
		print '| ', join(' | ', @$_[0 .. 3], name($_->[4]), "`$_->[5]`", "`$_->[6]`"), " |\n";
	}
	print "\n";
} else {
	print 'All answers equal the reference: ',
		join(', ', map { name($_) . ' ' . ($compared{$_} // 0) } @INDEXES, 'seq'),
		" query answers", ($jcompared ? " and $jcompared join counts" : ''), " compared. References: ",
		"the counts within each radius from one unindexed pass computing `fp <~> q` for every row and ",
		"query; the KNN-1 and KNN-10 distance lists from the sequential scan's KNN-10. Compared: every ",
		"timed index answer, the sequential scan's radius 3 counts, and, untimed, `fp % q` (threshold ",
		"$THRESHOLD) and `fp = q` through each index against the radius $THRESHOLD and radius 0 counts",
		($jcompared ? "; each self-join's count over the checked outer rows against an unindexed " .
			"reference (`<~>` over every pair, a sequential scan per outer row, see Joins), and the " .
			"timed joins' counts across methods" : ''), ".\n\n";
}
for my $m (@INDEXES) {
	printf "**Warning**: %d %s runs were planned without the index.\n\n", $plan_wrong{$m}, name($m)
		if $plan_wrong{$m};
}

# --- builds and sizes ------------------------------------------------------------

my %size;  # {stage}{ds}{method}{table|index} = bytes
for my $s (@sizes) {
	my $what = $s->{relation} =~ /_fp$/ ? 'index' : 'table';
	$size{$s->{stage}}{$s->{dataset}}{$s->{method}}{$what} = $s->{bytes};
}
my %timing;  # {what}{ds}{method} = row
$timing{$_->{what}}{$_->{dataset}}{$_->{method}} = $_ for @timings;

sub fmt_cpu_s {
	my ($t, $fmt) = @_;
	return length($t->{cpu_ms} // '') ? sprintf($fmt, $t->{cpu_ms} / 1000) : 'n/a';
}

if (%{$timing{build} // {}}) {
	print "## Index builds\n\n";
	print "| data set | index | build s (wall) | build s (CPU) | index MB | bytes per row | table MB |\n";
	print "|---|---|---:|---:|---:|---:|---:|\n";
	for my $ds (@DATASETS) {
		for my $m (@INDEXES) {
			my $t = $timing{build}{$ds}{$m} or next;
			my $ib = $size{build}{$ds}{$m}{index} // 0;
			my $tb = $size{build}{$ds}{$m}{table} // 0;
			printf "| %s | %s | %.1f | %s | %.1f | %.1f | %.1f |\n", $ds, name($m), $t->{ms} / 1000,
				fmt_cpu_s($t, '%.1f'), $ib / 1048576, $ib / $meta{rows}, $tb / 1048576;
		}
	}
	print "\n";
}

# --- query times ------------------------------------------------------------------

# The sequential scan runs r3 and knn10; they stand for every radius and both KNN kinds.
sub seq_kind { my ($k) = @_; return $k =~ /^r/ ? 'r3' : 'knn10' }

# $stat{ds}{qs}{kind}{method} = {med, p90, n, x, ratios, seq_med}: over the queries the method
# ran the kind on; x = seq median / index median over the same queries, ratios per query.
my (%stat, %answer, %nearest);
for my $ds (@DATASETS) {
	for my $qs (@QSETS) {
		my $qq = $run{$ds}{$qs} or next;
		my @qnos = sort { $a <=> $b } keys %$qq;
		for my $qno (@qnos) {
			my $knn = $qq->{$qno}{knn10} && $qq->{$qno}{knn10}{seq} or next;
			my ($d1) = dists($knn->{result});
			push @{$nearest{$ds}{$qs}}, $d1 if defined $d1;
		}
		for my $k (@KINDS) {
			my @ans;
			for my $qno (@qnos) {
				my ($ref) = reference($qq->{$qno}, $k);
				next unless defined $ref;
				my @d = dists($ref);
				push @ans, $k =~ /^r/ ? $ref : $d[-1];
			}
			$answer{$ds}{$qs}{$k} = median(@ans);
			for my $m (@INDEXES) {
				my (@ms, @seq, @ratio);
				for my $qno (@qnos) {
					my $r = $qq->{$qno}{$k}{$m} or next;
					next unless length $r->{ms};
					push @ms, $r->{ms};
					my $s = $qq->{$qno}{seq_kind($k)}{seq};
					if ($s && length $s->{ms}) {
						push @seq, $s->{ms};
						push @ratio, $s->{ms} / $r->{ms} if $r->{ms} > 0;
					}
				}
				next unless @ms;
				my ($med, $smed) = (median(@ms), median(@seq));
				$stat{$ds}{$qs}{$k}{$m} = {
					med => $med, p90 => pct(90, @ms), n => scalar @ms, seq_med => $smed,
					x => (defined $smed && $med > 0 ? $smed / $med : undef),
					ratios => [sort { $a <=> $b } @ratio],
				};
			}
		}
	}
}

my %defplan;  # {ds}{qs}{kind}{method}
$defplan{$_->{dataset}}{$_->{qset}}{$_->{kind}}{$_->{method}} = $_->{plan} for @defplans;

# the most common plan of a method's runs
sub usual_plan {
	my ($ds, $qs, $k, $m) = @_;
	my %n;
	for my $qno (keys %{$run{$ds}{$qs}}) {
		my $r = $run{$ds}{$qs}{$qno}{$k}{$m} or next;
		$n{plan_label($r->{plan})}++;
	}
	my @p = sort { $n{$b} <=> $n{$a} || $a cmp $b } keys %n;
	return @p ? $p[0] . (@p > 1 ? '*' : '') : '-';
}

print "## Query times\n\n";
print "Medians over the queries of each run's wall time (plpgsql `EXECUTE`, planning included), in ms, ",
	"and in brackets the speedup over the sequential scan. The sequential scan ran radius 3 and KNN-10 on ",
	"every query (its cost does not depend on the radius or on k); its median over the same queries is ",
	"the seq column, and speedup = seq median / index median. \"n\" = queries run; \"answer\" = median ",
	"count (radius) or median distance of the k-th nearest row (KNN), from the reference. \"-\": not run ",
	"(GIN and mih answer no KNN). The 90th percentiles and the plans are in the next section.\n\n";
my $mhead = join(' | ', map { name($_) } @INDEXES);
my $malign = join('', map { '---:|' } @INDEXES);
for my $ds (@DATASETS) {
	for my $qs (@QSETS) {
		my $st = $stat{$ds}{$qs} or next;
		my @near = @{$nearest{$ds}{$qs} // []};
		my %hist;
		$hist{$_}++ for @near;
		my @rt = map { (reference($run{$ds}{$qs}{$_}, "r$THRESHOLD"))[0] // () } keys %{$run{$ds}{$qs}};
		printf "**%s (%s), %s queries** (%d queries: %s. Nearest row at distance %s (%d queries with a " .
			"KNN run); no row within %d bits for %d of %d)\n\n",
			$ds, $DS_DESC{$ds}, $qs, scalar(keys %{$run{$ds}{$qs}}), $QSET_DESC{$qs},
			join(', ', map { "$_: $hist{$_}" } sort { $a <=> $b } keys %hist), scalar @near,
			$THRESHOLD, scalar(grep { $_ == 0 } @rt), scalar @rt;
		print "| query | n | answer | seq ms | $mhead |\n";
		print "|---|---:|---:|---:|$malign\n";
		for my $k (@KINDS) {
			my @s = map { $st->{$k}{$_} } @INDEXES;
			my ($first) = grep { defined } @s;
			next unless $first;
			print '| ', join(' | ', kind_label($k), $first->{n}, $answer{$ds}{$qs}{$k} // '?',
				fmt_ms($first->{seq_med}),
				map { $_ ? fmt_ms($_->{med}) . ' (' . fmt_x($_->{x}) . ')' : '-' } @s), " |\n";
		}
		print "\n";
	}
}

print "## Speedup by radius\n\n";
print "Speedup over the sequential scan (its radius 3 median / the index's median over the same queries), ",
	"by radius.\n\n";
for my $ds (@DATASETS) {
	for my $qs (@QSETS) {
		my $st = $stat{$ds}{$qs} or next;
		print "**$ds, $qs queries**\n\n| radius | $mhead |\n|---:|$malign\n";
		for my $k (@RADII) {
			(my $r = $k) =~ s/^r//;
			print '| ', join(' | ', $r, map { $st->{$k}{$_} ? fmt_x($st->{$k}{$_}{x}) : '-' } @INDEXES), " |\n";
		}
		print "\n";
	}
}

print "## Query time spread and plans\n\n";
print "90th percentile of each run's wall time, in ms. Plans: what the index runs (enable_seqscan off) ",
	"used, and \"planner\": what the planner picks with nothing disabled (query 1), in the order ",
	join(' / ', map { name($_) } @INDEXES), ".\n\n";
for my $ds (@DATASETS) {
	next unless $stat{$ds};
	print "**$ds**\n\n| queries | query | ", join(' | ', map { name($_) . ' p90' } @INDEXES),
		" | plans | planner |\n|---|---|$malign---|---|\n";
	for my $qs (@QSETS) {
		my $st = $stat{$ds}{$qs} or next;
		for my $k (@KINDS) {
			my @s = map { $st->{$k}{$_} } @INDEXES;
			next unless grep { defined } @s;
			print '| ', join(' | ', $qs, kind_label($k), (map { $_ ? fmt_ms($_->{p90}) : '-' } @s),
				join(' / ', map { usual_plan($ds, $qs, $k, $_) } @INDEXES),
				join(' / ', map { exists $defplan{$ds}{$qs}{$k}{$_} ? plan_label($defplan{$ds}{$qs}{$k}{$_}) : '-' }
					@INDEXES)), " |\n";
		}
	}
	print "\n";
}
print "(* more than one plan among the queries; the most common shown.)\n\n";

# --- targets ---------------------------------------------------------------------

print "## Targets\n\n";
print "For queries with a near neighbour (the near queries), exact, at 1M rows: GiST and SP-GiST, radius 3 and ",
	"KNN at least 20x faster than a sequential scan (stretch 100x); GIN, radius 3 at least 200x (stretch ",
	"500x).", ($meta{rows} != 1000000 ? " (This run has $meta{rows} rows.)" : ''), "\n\n";
print "| data set | query | index | n | speedup | slowest query's ratio | queries under target | target | stretch |\n";
print "|---|---|---|---:|---:|---:|---:|---|---|\n";
for my $ds (@DATASETS) {
	for my $m (@INDEXES) {
		for my $t (targets($m)) {
			my ($k, $target, $stretch) = @$t;
			my $s = $stat{$ds}{near}{$k}{$m} or next;
			my $x = $s->{x};
			printf "| %s | %s | %s | %d | %s | %s | %d | %s | %s |\n", $ds, kind_label($k), name($m),
				$s->{n}, fmt_x($x), fmt_x($s->{ratios}[0]), scalar(grep { $_ < $target } @{$s->{ratios}}),
				"${target}x " . (defined $x && $x >= $target && !@mismatch ? 'met' : 'not met'),
				"${stretch}x " . (defined $x && $x >= $stretch && !@mismatch ? 'met' : 'not met');
		}
	}
}
print "\n";

# --- joins -----------------------------------------------------------------------

# A timed join's wall time extrapolated to every row as outer row, in minutes.
sub join_minutes {
	my ($j) = @_;
	return undef unless length($j->{pairs} // '') && $j->{outer_rows} > 0;
	return $j->{ms} / 1000 / 60 * $meta{rows} / $j->{outer_rows};
}

my %JOIN_LABEL = (pct => "`b.fp % a.fp` (within $THRESHOLD)", r3 => '`b.fp <@ hamming_ball(a.fp, 3)`');
if (%jtimed || %jcheck) {
	print "## Joins\n\n";
	print "`SELECT count(*) FROM t a JOIN t b ON <condition> AND a.id < b.id WHERE a.id <= <outer rows>` ",
		"on the table with the index alone, in a transaction of its own, wall time with the commit; each ",
		"pair counted once. Plan as the planner chose it (nothing disabled unless marked forced: then with ",
		"enable_seqscan off), from EXPLAIN without ANALYZE; \"estimate\" = the planner's rows for the join ",
		"node, set against the actual count.\n\n";
	print "\"all rows\" extrapolates the wall time to every row of the table as outer row ",
		"($meta{rows}), in minutes.\n\n";
	print "| data set | join | index | outer rows | s (wall) | s (CPU) | pairs | outer rows/s | all rows, min | estimate | estimate / actual | plan |\n";
	print "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
	for my $ds (@DATASETS) {
		for my $op (qw(pct r3)) {
			for my $m (@INDEXES) {
				my $j = $jtimed{$ds}{$op}{$m} or next;
				my $ran = length $j->{pairs};
				print '| ', join(' | ', $ds, $JOIN_LABEL{$op}, name($m), $j->{outer_rows},
					($ran ? (sprintf('%.1f', $j->{ms} / 1000), fmt_cpu_s($j, '%.1f'), $j->{pairs},
						sprintf('%.0f', $j->{outer_rows} / ($j->{ms} / 1000)),
						sprintf('%.1f', join_minutes($j))) : ('not run') x 5),
					sprintf('%.0f', $j->{est_rows}),
					($ran && $j->{pairs} > 0 ? fmt_x($j->{est_rows} / $j->{pairs}) : 'n/a'),
					"`$j->{plan}`" . ($j->{forced} eq 't' ? ' (forced)' : '')), " |\n";
			}
		}
	}
	print "\n";
	my @ref = map { my $ds = $_; map { $jref{$ds}{$_} // () } qw(pct r3) } @DATASETS;
	if (@ref) {
		print "Exactness: the same joins on the first $ref[0]{outer_rows} outer rows (untimed) against a ",
			"reference computed on the table without an index, per data set: `a.fp <~> b.fp` (a different ",
			"operator) over every pair, a sequential scan per outer row (plan: $ref[0]{plan}).\n\n";
		my %checked = map { my $d = $_; map { %{$jcheck{$d}{$_} // {}} } keys %{$jcheck{$d}} } keys %jcheck;
		my @cm = grep { $checked{$_} } @INDEXES;
		print "| data set | join | reference pairs | reference s | ", join(' | ', map { name($_) } @cm), " |\n";
		print "|---|---|---:|---:|", join('', map { '---:|' } @cm), "\n";
		for my $r (@ref) {
			print '| ', join(' | ', $r->{dataset}, $JOIN_LABEL{$r->{op}}, $r->{pairs}, sprintf('%.1f', $r->{ms} / 1000),
				map {
					my $c = $jcheck{$r->{dataset}}{$r->{op}}{$_};
					!$c ? '-' : !length $c->{pairs} ? 'not run'
						: $c->{pairs} . ($c->{pairs} eq $r->{pairs} ? ' (equal)' : ' (**differs**)')
				} @cm), " |\n";
		}
		print "\n";
	}
	for my $j (@jnotrun) {
		printf "**Warning**: the %s join %s on %s was not run: its plan probes no index on the inner side (`%s`).\n\n",
			$j->{stage}, $j->{op}, "$j->{dataset}_$j->{method}", $j->{plan};
	}
}

# --- inserts ----------------------------------------------------------------------

if (%{$timing{insert} // {}}) {
	print "## Inserts\n\n";
	print "One `INSERT ... SELECT` of $meta{insert_rows} new rows (same generator) into the loaded table, ",
		"committed, per data set and index. GIN keeps its default fastupdate: the insert merges the ",
		"pending list into the index each time it passes 4MB; what is left pending at the end is ",
		"merged apart (`gin_clean_pending_list`, \"flush\"), and \"rows/s with flush\" counts both.\n\n";
	print "| data set | index | s (wall) | s (CPU) | rows/s | x no index | flush s | rows/s with flush | index MB after |\n";
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
	for my $ds (@DATASETS) {
		my $base = $timing{insert}{$ds}{seq};
		for my $m ('seq', @INDEXES) {
			my $t = $timing{insert}{$ds}{$m} or next;
			my $f = $timing{flush}{$ds}{$m};
			printf "| %s | %s | %.2f | %s | %.0f | %.1f | %s | %s | %s |\n", $ds, ($m eq 'seq' ? 'none' : name($m)),
				$t->{ms} / 1000, fmt_cpu_s($t, '%.2f'), $t->{rows} / ($t->{ms} / 1000),
				($base ? $t->{ms} / $base->{ms} : 0),
				($f ? sprintf('%.2f', $f->{ms} / 1000) : ''),
				($f ? sprintf('%.0f', $t->{rows} / (($t->{ms} + $f->{ms}) / 1000)) : ''),
				($m eq 'seq' ? '' : sprintf('%.1f', ($size{insert}{$ds}{$m}{index} // 0) / 1048576));
		}
	}
	print "\n";
}

if (%{$timing{single} // {}} || %{$timing{single_sync} // {}}) {
	print "### Single-row commits\n\n";
	print "Then rows one `INSERT` and one `COMMIT` each, from a procedure in the server (no client round ",
		"trip): $meta{single_rows} with `synchronous_commit = off`, then ", $meta{single_rows_sync} // 0,
		" with it on, where each commit waits for its WAL flush (fdatasync), which bounds every table ",
		"alike on this machine.\n\n";
	print "| data set | index | rows/s, synchronous_commit off | x no index | rows/s, synchronous_commit on | x no index |\n";
	print "|---|---|---:|---:|---:|---:|\n";
	for my $ds (@DATASETS) {
		my ($b0, $b1) = ($timing{single}{$ds}{seq}, $timing{single_sync}{$ds}{seq});
		for my $m ('seq', @INDEXES) {
			my ($t0, $t1) = ($timing{single}{$ds}{$m}, $timing{single_sync}{$ds}{$m});
			next unless $t0 || $t1;
			my $rate = sub { my ($t) = @_; return $t && $t->{ms} > 0 ? $t->{rows} / ($t->{ms} / 1000) : undef };
			my $fmt = sub { my ($v, $f) = @_; return defined $v ? sprintf($f, $v) : 'n/a' };
			printf "| %s | %s | %s | %s | %s | %s |\n", $ds, ($m eq 'seq' ? 'none' : name($m)),
				$fmt->($rate->($t0), '%.0f'),
				$fmt->(defined $rate->($t0) && defined $rate->($b0) ? $rate->($b0) / $rate->($t0) : undef, '%.1f'),
				$fmt->($rate->($t1), '%.0f'),
				$fmt->(defined $rate->($t1) && defined $rate->($b1) ? $rate->($b1) / $rate->($t1) : undef, '%.1f');
		}
	}
	print "\n(\"x no index\": how many times longer than the same inserts into the table without an index.)\n\n";
}

# --- the mih targets (issue 13) ------------------------------------------------------

my @MIH = grep { is_mih($_) } @INDEXES;
if (@MIH) {
	my $big = $meta{rows} >= 10_000_000;
	my $xtarget = $big ? 300 : 100;
	my $at_1m = $meta{rows} == 1_000_000;
	print "## mih targets\n\n";
	print "Issue 13's targets, for every data set and both query sets. Speedup = the sequential scan's median ",
		"over the same queries / the index's median (as above). Default threshold (radius $THRESHOLD): at least ",
		"100x at 1M rows, 300x at 10M (this run: $meta{rows} rows, target ${xtarget}x); radius 3: at least ",
		"GIN's (blocks 4) speedup of the same run; build at most 10 s and index at most 2.5x the table at 1M ",
		"rows; inserts at least 20,000 rows/s; the self-join at the threshold in at most 15 minutes ",
		"(extrapolated from the timed outer rows).", ($at_1m || $big ? '' : ' Build time and size targets are stated for 1M rows.'),
		"\n\n";
	print "| data set | index | target | measured | met |\n|---|---|---|---:|---|\n";
	my $row = sub { printf "| %s | %s | %s | %s | %s |\n", @_ };
	for my $ds (@DATASETS) {
		for my $m (@MIH) {
			for my $qs (@QSETS) {
				my $s = $stat{$ds}{$qs}{"r$THRESHOLD"}{$m} or next;
				$row->($ds, name($m), "radius $THRESHOLD, $qs queries, >= ${xtarget}x", fmt_x($s->{x}) .
					' (' . fmt_ms($s->{med}) . ' ms)', defined $s->{x} && $s->{x} >= $xtarget && !@mismatch ? 'yes' : 'no');
			}
			for my $qs (@QSETS) {
				my $s = $stat{$ds}{$qs}{r3}{$m} or next;
				my $g = $stat{$ds}{$qs}{r3}{gin};
				$row->($ds, name($m), "radius 3, $qs queries, >= GIN's " . ($g ? fmt_x($g->{x}) : 'n/a'),
					fmt_x($s->{x}), $g && defined $s->{x} && defined $g->{x} ? ($s->{x} >= $g->{x} ? 'yes' : 'no') : 'n/a');
			}
			if (my $t = $timing{build}{$ds}{$m}) {
				$row->($ds, name($m), 'build <= 10 s', sprintf('%.1f s', $t->{ms} / 1000),
					$at_1m ? ($t->{ms} <= 10000 ? 'yes' : 'no') : 'n/a (not 1M rows)');
			}
			for my $stage (qw(build insert)) {
				my ($ib, $tb) = ($size{$stage}{$ds}{$m}{index}, $size{$stage}{$ds}{$m}{table});
				next unless $ib && $tb;
				$row->($ds, name($m), "size <= 2.5x the table (after the $stage)", sprintf('%.2fx (%.0f / %.0f MB)',
					$ib / $tb, $ib / 1048576, $tb / 1048576), $ib <= 2.5 * $tb ? 'yes' : 'no');
			}
			for my $what (qw(insert single single_sync)) {
				my $t = $timing{$what}{$ds}{$m} or next;
				my $rate = $t->{ms} > 0 ? $t->{rows} / ($t->{ms} / 1000) : 0;
				my $label = {insert => 'INSERT ... SELECT', single => 'single-row commits, synchronous_commit off',
					single_sync => 'single-row commits, synchronous_commit on'}->{$what};
				my $base = $timing{$what}{$ds}{seq};
				my $brate = $base && $base->{ms} > 0 ? $base->{rows} / ($base->{ms} / 1000) : undef;
				$row->($ds, name($m), "$label >= 20,000 rows/s", sprintf('%.0f rows/s', $rate) .
					(defined $brate ? sprintf(' (no index: %.0f)', $brate) : ''), $rate >= 20000 ? 'yes' : 'no');
			}
			if (my $j = $jtimed{$ds}{pct}{$m}) {
				my $min = join_minutes($j);
				$row->($ds, name($m), "self-join at radius $THRESHOLD <= 15 min", defined $min ?
					sprintf('%.1f min (%d outer rows in %.0f s, %s pairs)', $min, $j->{outer_rows}, $j->{ms} / 1000, $j->{pairs})
					: 'not run', defined $min && $min <= 15 ? 'yes' : 'no');
			}
		}
	}
	print "\n";
}

exit(@mismatch ? 2 : 0);
