#!/usr/bin/perl
# report.pl: the Markdown report of one index benchmark run, from the raw files run.sh wrote.
#
# Reads OUTDIR/meta.txt (key<TAB>value) and the tab-separated files with a header line that
# the SQL scripts wrote: results.tsv (every query run), default_plans.tsv, timings.tsv (index
# builds and inserts) and sizes.tsv.  Per data set, query set, query kind and method: the
# median and 90th percentile over the queries of the timed pass (pass 1), and the speedup
# of the index over the sequential scan as a ratio of medians (the three methods ran side by
# side, query by query).  Checks every index answer against the sequential scan's: counts
# for r0..r6, lists of distances for KNN, and fp % q (threshold 6) and fp = q against the
# r6 and r0 counts.  Writes the differences to OUTDIR/mismatches.tsv and exits 2 if there
# are any.
#
# Core Perl only.  Usage: perl bench/index/report.pl OUTDIR

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpBench qw(read_tsv median);

my $dir = shift // die "usage: $0 OUTDIR\n";

my @DATASETS = qw(uniform clustered);
my @QSETS    = qw(near far);
my @KINDS    = qw(r0 r1 r2 r3 r4 r5 r6 knn1 knn10);
my @INDEXES  = qw(gist spgist);
my %NAME     = (seq => 'seq scan', gist => 'GiST', spgist => 'SP-GiST');
my %QSET_DESC = (
	near => 'a row\'s fingerprint with 1 or 2 bits flipped',
	far  => '64 random bits, no near neighbour',
);
my %DS_DESC = (
	uniform   => 'uniform random fingerprints',
	clustered => 'planted families of near duplicates',
);
my @TARGET_KINDS = qw(r3 knn1 knn10);
my ($TARGET, $STRETCH) = (20, 100);

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

my @results = read_tsv("$dir/results.tsv");
my @defplans = -e "$dir/default_plans.tsv" ? read_tsv("$dir/default_plans.tsv") : ();
my @timings = -e "$dir/timings.tsv" ? read_tsv("$dir/timings.tsv") : ();
my @sizes = -e "$dir/sizes.tsv" ? read_tsv("$dir/sizes.tsv") : ();

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
	return ($q->{r6}{ref}{result}, 'reference r6') if $k eq 'pct' && $q->{r6}{ref};
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
open my $mm, '>', "$dir/mismatches.tsv" or die "$dir/mismatches.tsv: $!\n";
print $mm join("\t", qw(dataset qset qno kind method reference answer)), "\n";
print $mm join("\t", @$_), "\n" for @mismatch;
close $mm;

# --- header ------------------------------------------------------------------------

my $minutes = defined $meta{started} && defined $meta{ended}
	? sprintf('%.1f', ($meta{ended} - $meta{started}) / 60) : '?';
print "# Exact Hamming search: GiST and SP-GiST, run of $meta{date}\n\n";
print "- Machine: $meta{cpu}, nproc $meta{nproc}, $meta{mem}; $meta{kernel}; load average ",
	"$meta{load} at start, ", $meta{load_end} // '?', " at end\n";
print "- Server: ", $meta{server} // '?', "; $meta{settings}\n";
print "- Rows: $meta{rows} per data set; $meta{queries} near and $meta{queries} far queries per data set ",
	"(KNN-10, far KNN-1 and the `%` check on the first ", $meta{knn_queries} // '?', " of each); ",
	"insert test $meta{insert_rows} rows\n";
print "- Commit $meta{commit}", ($meta{src_changes} ? " (plus uncommitted changes to $meta{src_changes} files under src/)" : ''),
	"; textfp.so $meta{textfp_so}",
	(defined $meta{textfp_so_end} && $meta{textfp_so_end} ne $meta{textfp_so}
		? " at start, $meta{textfp_so_end} at end (reinstalled during the run; the timing session kept the library it loaded)"
		: ''), "\n";
print "- Run time: $minutes min (load ", $meta{phase_load_s} // '?', ' s, builds ', $meta{phase_build_s} // '?',
	' s, queries ', $meta{phase_queries_s} // '?', ' s, inserts ', $meta{phase_insert_s} // '?', " s)\n\n";

# --- exactness summary -------------------------------------------------------------

print "## Exactness\n\n";
if (@mismatch) {
	printf "**EXACTNESS MISMATCH: %d answers differ from the reference** (all in mismatches.tsv):\n\n",
		scalar @mismatch;
	print "| data set | queries | query | kind | method | reference | answer |\n|---|---|---:|---|---|---|---|\n";
	my $n = 0;
	for (@mismatch) {
		last if ++$n > 20;
		print '| ', join(' | ', @$_[0 .. 3], $NAME{$_->[4]}, "`$_->[5]`", "`$_->[6]`"), " |\n";
	}
	print "\n";
} else {
	print 'All answers equal the reference: ',
		join(', ', map { "$NAME{$_} " . ($compared{$_} // 0) } @INDEXES, 'seq'),
		" answers compared. References: the counts within radius 0..6 from one unindexed pass ",
		"computing `fp <~> q` for every row and query; the KNN-1 and KNN-10 distance lists from ",
		"the sequential scan's KNN-10. Compared: every timed index answer, the sequential ",
		"scan's radius 3 counts, and, untimed, `fp % q` (threshold 6) and `fp = q` through each ",
		"index against the radius 6 and radius 0 counts.\n\n";
}
for my $m (@INDEXES) {
	printf "**Warning**: %d %s runs were planned without the index.\n\n", $plan_wrong{$m}, $NAME{$m}
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

if (%{$timing{build} // {}}) {
	print "## Index builds\n\n";
	print "| data set | index | build s (wall) | build s (CPU) | index MB | bytes per row | table MB |\n";
	print "|---|---|---:|---:|---:|---:|---:|\n";
	for my $ds (@DATASETS) {
		for my $m (@INDEXES) {
			my $t = $timing{build}{$ds}{$m} or next;
			my $ib = $size{build}{$ds}{$m}{index};
			my $tb = $size{build}{$ds}{$m}{table};
			printf "| %s | %s | %.1f | %s | %.1f | %.1f | %.1f |\n", $ds, $NAME{$m}, $t->{ms} / 1000,
				(length $t->{cpu_ms} ? sprintf('%.1f', $t->{cpu_ms} / 1000) : 'n/a'),
				$ib / 1048576, $ib / $meta{rows}, $tb / 1048576;
		}
	}
	print "\n";
}

# --- query times ------------------------------------------------------------------

# The sequential scan runs r3 and knn10; they stand for every radius and both KNN kinds.
sub seq_kind { my ($k) = @_; return $k =~ /^r/ ? 'r3' : 'knn10' }

# $stat{ds}{qs}{kind}{method} = {med, p90, n, x, min_x, below, seq_med}: over the queries the
# method ran the kind on; x = seq median / index median over the same queries.
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
					min_x => (sort { $a <=> $b } @ratio)[0],
					below => scalar(grep { $_ < $TARGET } @ratio),
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
	return @p ? $p[0] . (@p > 1 ? '*' : '') : '?';
}

print "## Query times\n\n";
print "Medians over the queries of each run's wall time (plpgsql `EXECUTE`, planning included), in ms; ",
	"p90 = 90th percentile. The sequential scan ran radius 3 and KNN-10 on every query (its cost does not ",
	"depend on the radius or on k); its median over the same queries as the index row is the seq column, ",
	"and speedup = seq median / index median. \"n\" = queries run; \"answer\" = median count (radius) or median ",
	"distance of the k-th nearest row (KNN), from the reference. Plans: what the index runs ",
	"(enable_seqscan off) used, GiST / SP-GiST; \"planner\": what the planner picks with nothing disabled ",
	"(query 1).\n\n";
for my $ds (@DATASETS) {
	for my $qs (@QSETS) {
		my $st = $stat{$ds}{$qs} or next;
		my @near = @{$nearest{$ds}{$qs} // []};
		my %hist;
		$hist{$_}++ for @near;
		my @r6 = map { (reference($run{$ds}{$qs}{$_}, 'r6'))[0] // () } keys %{$run{$ds}{$qs}};
		printf "**%s (%s), %s queries** (%d queries: %s. Nearest row at distance %s (%d queries with a " .
			"KNN run); no row within 6 bits for %d of %d)\n\n",
			$ds, $DS_DESC{$ds}, $qs, scalar(keys %{$run{$ds}{$qs}}), $QSET_DESC{$qs},
			join(', ', map { "$_: $hist{$_}" } sort { $a <=> $b } keys %hist), scalar @near,
			scalar(grep { $_ == 0 } @r6), scalar @r6;
		print "| query | n | answer | seq ms | GiST ms | GiST p90 | SP-GiST ms | SP-GiST p90 | GiST speedup | SP-GiST speedup | plans | planner |\n";
		print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
		for my $k (@KINDS) {
			my ($g, $s) = map { $st->{$k}{$_} } @INDEXES;
			next unless $g || $s;
			my $n = ($g // $s)->{n};
			print '| ', join(' | ', kind_label($k), $n, $answer{$ds}{$qs}{$k} // '?',
				fmt_ms(($g // $s)->{seq_med}),
				(map { ($_ ? (fmt_ms($_->{med}), fmt_ms($_->{p90})) : ('', '')) } $g, $s),
				(map { $_ ? fmt_x($_->{x}) : '' } $g, $s),
				join(' / ', map { usual_plan($ds, $qs, $k, $_) } @INDEXES),
				join(' / ', map { plan_label($defplan{$ds}{$qs}{$k}{$_}) } @INDEXES)), " |\n";
		}
		print "\n";
	}
}
print "(* more than one plan among the queries; the most common shown.)\n\n";

# --- targets ---------------------------------------------------------------------

print "## Targets\n\n";
print "Radius 3 and KNN for queries with a near neighbour (the near queries): at least ${TARGET}x ",
	"faster than a sequential scan (stretch ${STRETCH}x), exact.\n\n";
print "| data set | query | index | n | speedup | slowest query's ratio | queries under ${TARGET}x | ${TARGET}x | ${STRETCH}x |\n";
print "|---|---|---|---:|---:|---:|---:|---|---|\n";
for my $ds (@DATASETS) {
	for my $k (@TARGET_KINDS) {
		for my $m (@INDEXES) {
			my $s = $stat{$ds}{near}{$k}{$m} or next;
			my $x = $s->{x};
			printf "| %s | %s | %s | %d | %s | %s | %d | %s | %s |\n", $ds, kind_label($k), $NAME{$m},
				$s->{n}, fmt_x($x), fmt_x($s->{min_x}), $s->{below},
				(defined $x && $x >= $TARGET && !@mismatch ? 'met' : 'not met'),
				(defined $x && $x >= $STRETCH && !@mismatch ? 'met' : 'not met');
		}
	}
}
print "\n";

# --- inserts ----------------------------------------------------------------------

if (%{$timing{insert} // {}}) {
	print "## Inserts\n\n";
	print "One `INSERT ... SELECT` of $meta{insert_rows} new rows (same generator) into the loaded table, ",
		"committed, per data set and index.\n\n";
	print "| data set | index | s (wall) | s (CPU) | rows/s | x no index | index MB after |\n";
	print "|---|---|---:|---:|---:|---:|---:|\n";
	for my $ds (@DATASETS) {
		my $base = $timing{insert}{$ds}{seq};
		for my $m ('seq', @INDEXES) {
			my $t = $timing{insert}{$ds}{$m} or next;
			printf "| %s | %s | %.2f | %s | %.0f | %.1f | %s |\n", $ds, ($m eq 'seq' ? 'none' : $NAME{$m}),
				$t->{ms} / 1000, (length $t->{cpu_ms} ? sprintf('%.2f', $t->{cpu_ms} / 1000) : 'n/a'),
				$t->{rows} / ($t->{ms} / 1000), ($base ? $t->{ms} / $base->{ms} : 0),
				($m eq 'seq' ? '' : sprintf('%.1f', ($size{insert}{$ds}{$m}{index} // 0) / 1048576));
		}
	}
	print "\n";
}

exit(@mismatch ? 2 : 0);
