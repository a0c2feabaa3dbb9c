#!/usr/bin/perl
# report.pl: the Markdown report of one LSH benchmark run (bench/lsh/run.sh), from its raw
# files, and the S-curve plots (gnuplot, SVG) in OUTDIR/plots/.
#
# Reads OUTDIR/meta.txt and the tab-separated files run.sh wrote: sets, corpus, rows, uhist,
# ujhist (unrelated pairs: estimate and exact Jaccard), ucand (candidates among them per
# banding), scurve (band hits per Jaccard bin and set size), queries, results (every query
# run), answers (the sequential scan's answers with their estimates), qstats (candidates and
# heap rows per lookup), probes (candidates of random rows), timings, sizes, keydist.
#
# Speed-ups are ratios of medians over the same queries, run side by side.  Recall: over the
# queries, the pairs (query, row), row not the query itself, whose estimate is at least the
# threshold + 0.1 (and, apart, at least the threshold), that the idiom returned.  The S-curve
# check: per bin, z = (measured - predicted) / se with predicted the mean of lsh_probability
# over the bin's pairs and se = sqrt(sum p (1 - p)) / n.
#
# Core Perl only (gnuplot for the plots, skipped when missing).
# Usage: perl bench/lsh/report.pl OUTDIR

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpBench qw(read_tsv median read_meta pct fmt_ms fmt_x);

my $dir = shift // die "usage: $0 OUTDIR\n";

my %meta = read_meta("$dir/meta.txt");

sub tsv { my ($f) = @_; return -e "$dir/$f" ? read_tsv("$dir/$f") : () }

sub fmt_int { my $v = sprintf('%.0f', shift); 1 while $v =~ s/^(-?\d+)(\d{3})/$1,$2/; return $v }
sub fmt_g {
	my ($v) = @_;
	return 'n/a' unless defined $v;
	return fmt_int($v) if $v >= 100;
	return sprintf('%.1f', $v) if $v >= 1;
	return sprintf('%.2f', $v) if $v >= 0.01;
	return $v == 0 ? '0' : sprintf('%.1e', $v);
}
sub mb { return sprintf('%.1f', $_[0] / 1048576) }
sub mean { return @_ ? eval { my $s = 0; $s += $_ for @_; $s / @_ } : undef }

my @sets = sort { $a->{ord} <=> $b->{ord} } tsv('sets.tsv');
my %set = map { $_->{name} => $_ } @sets;
my $first = $sets[0]{name};
my ($rowsrec) = tsv('rows.tsv');
my $nrows = $rowsrec ? $rowsrec->{rows} : 0;
my @timings = tsv('timings.tsv');
my @sizes = tsv('sizes.tsv');
my %timing;
$timing{"$_->{what}|" . ($_->{set_name} // '') . "|$_->{variant}"} = $_ for @timings;
my %size;
$size{"$_->{what}|" . ($_->{set_name} // '') . "|$_->{variant}"} = $_->{bytes} for @sizes;
my @targets;    # [target, result, met]

print "# MinHash LSH bands at scale\n\n";
printf "%s; %s, %s cores, %s; %s; textfp commit %s%s; corpus %s (%s rows); load %s at the start, %s at the end; %s min in all.\n\n",
	$meta{date} // '?', $meta{cpu} // '?', $meta{nproc} // '?', $meta{mem} // '?', $meta{server} // '?',
	$meta{commit} // '?', ($meta{src_changes} // 0) ? ' (with uncommitted changes)' : '',
	$meta{corpus} // '?', fmt_int($meta{corpus_rows} // 0), $meta{load} // '?', $meta{load_end} // '?',
	defined $meta{ended} && defined $meta{started} ? sprintf('%.0f', ($meta{ended} - $meta{started}) / 60) : '?';
print "Command: `$meta{command}`", ($meta{server_mode} // '') eq 'existing' ? ' (`BENCH_SERVER=existing`, on a running server)' : '', ".\n";
print "Server settings: $meta{settings}.\n" if $meta{settings};
print "\n";

print "## Option sets\n\n";
print "| set | minhash options | threshold t | banding (bands x rows, min_bands) | key bits | signing, all sets together |\n|---|---|---:|---|---:|---:|\n";
my $sign = (grep { $_->{what} eq 'sign' } @timings)[0];
for my $s (@sets) {
	printf "| %s%s | `shingle => %s`, k = 128 | %s | %s x %s, %s | %s | %s |\n", $s->{name}, $s->{name} eq $first ? ' (first)' : '',
		$s->{shingle}, $s->{threshold}, $s->{bands}, $s->{rows}, $s->{min_bands}, $s->{bits},
		$s->{name} eq $first && $sign ? sprintf('%.0f s', $sign->{ms} / 1000) : '';
}
print "\nThe table: ", fmt_int($nrows), " rows.";
my @corpus = tsv('corpus.tsv');
print " By role: ", join(', ', map { "$_->{role} $_->{lang} " . fmt_int($_->{count}) . " (mean $_->{mean_bytes} bytes)" } @corpus), ".\n\n";

# --- unrelated pairs ----------------------------------------------------------------------

print "## Unrelated pairs\n\n";
print "Pairs of $meta{sample} sampled documents per language that are not of one reprint family, by kind: two instances of one template, two articles of one site, other.  Percentiles of the estimate (`jaccard(sig, sig)`) and of the exact Jaccard of the shingle sets.\n\n";
my @uh = tsv('uhist.tsv');
my @uj = tsv('ujhist.tsv');
sub hist_pct {
	my ($rows, $field, $scale, $p) = @_;
	my $tot = 0;
	$tot += $_->{n} for @$rows;
	my $cum = 0;
	for my $r (sort { $a->{$field} <=> $b->{$field} } @$rows) {
		$cum += $r->{n};
		return $r->{$field} / $scale if $cum >= $p * $tot;
	}
	return undef;
}
print "| set | lang | pairs | share template / same site | estimate p50 | p99 | p99.9 | p99.99 | max | exact J p50 | p99 | p99.9 | p99.99 | max |\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
for my $s (@sets) {
	for my $lang (qw(en zh)) {
		my @h = grep { $_->{set_name} eq $s->{name} && $_->{lang} eq $lang } @uh;
		my @j = grep { $_->{set_name} eq $s->{name} && $_->{lang} eq $lang } @uj;
		next unless @h;
		my ($tot, %k) = (0);
		for (@h) { $tot += $_->{n}; $k{$_->{kind}} += $_->{n} }
		my $maxc = 0;
		$_->{c} > $maxc and $maxc = $_->{c} for @h;
		my $maxj = 0;
		$_->{j1000} > $maxj and $maxj = $_->{j1000} for @j;
		printf "| %s | %s | %s | %.2f%% / %.1f%% | %s | %s | %s | %s | %.3f | %s | %s | %s | %s | %.3f |\n", $s->{name}, $lang, fmt_int($tot),
			100 * ($k{template} // 0) / $tot, 100 * ($k{'same site'} // 0) / $tot,
			(map { sprintf('%.3f', hist_pct(\@h, 'c', 128, $_)) } 0.5, 0.99, 0.999, 0.9999), $maxc / 128,
			(map { sprintf('%.3f', hist_pct(\@j, 'j1000', 1000, $_)) } 0.5, 0.99, 0.999, 0.9999), $maxj / 1000;
	}
}
print "\n";

# --- candidates per banding -----------------------------------------------------------------

print "## Candidates per row, per banding\n\n";
printf "The share of the sampled unrelated pairs that each banding makes candidates (`sig @@ lsh_query(q, b, r, m)`), times the rows of the table less one (%s): the unrelated candidates a row gets in a self-join of the whole table.  Instances of one template are counted apart (they are near duplicates by construction); a row's own reprint family adds its members (measured through the index below).  With the set's threshold, the probability of a pair at t + 0.1 (from its estimate, `lsh_probability(t + 0.1, b, r, m, 128)`) says what each banding costs in recall.\n\n", fmt_int($nrows - 1);
my @uc = tsv('ucand.tsv');
my %ucs;
for my $r (@uc) {
	my $key = "$r->{set_name}|$r->{b}|$r->{r}|$r->{m}";
	my $g = $r->{kind} eq 'template' ? 'tmpl' : 'unrel';
	# every kind's candidates over all the language's pairs: shares add up per row
	$ucs{$key}{"$_|$r->{lang}|pairs"} += $r->{pairs} for qw(unrel tmpl);
	$ucs{$key}{"$g|$r->{lang}|cand"} += $r->{candidates};
}
sub lsh_p {
	# P(at least m of b bands of r equal | c of k positions equal), bands taken as independent
	my ($c, $k, $b, $r, $m) = @_;
	my $q = 1;
	for my $i (0 .. $r - 1) { $q *= $c - $i > 0 ? ($c - $i) / ($k - $i) : 0 }
	my ($sum, $term) = (0, (1 - $q)**$b);
	for my $j (0 .. $b) {
		$sum += $term if $j >= $m;
		last if $j == $b;
		$term = $q >= 1 ? ($j + 1 == $b ? 1 : 0) : $term * ($b - $j) / ($j + 1) * $q / (1 - $q);
	}
	return $sum > 1 ? 1 : $sum;
}
print "| set | banding | keys a row | unrelated, en | zh | template instances, en | zh | P at t + 0.1 |\n|---|---|---:|---:|---:|---:|---:|---:|\n";
for my $s (@sets) {
	my @bs = sort { $a->[0] <=> $b->[0] || $a->[1] <=> $b->[1] || $a->[2] <=> $b->[2] }
		map { [ (split /\|/)[1 .. 3] ] } grep { /^\Q$s->{name}\E\|/ } keys %ucs;
	for my $b (@bs) {
		my $u = $ucs{"$s->{name}|$b->[0]|$b->[1]|$b->[2]"};
		my @cells;
		for my $g (qw(unrel tmpl)) {
			for my $lang (qw(en zh)) {
				my $p = $u->{"$g|$lang|pairs"};
				push @cells, $p ? fmt_g(($u->{"$g|$lang|cand"} // 0) / $p * ($nrows - 1)) : 'n/a';
			}
		}
		my $own = $b->[0] == $s->{bands} && $b->[1] == $s->{rows} && $b->[2] == $s->{min_bands};
		my $c = int(($s->{threshold} + 0.1) * 128 + 0.999999);
		printf "| %s | %s%s x %s, %s%s | %s | %s | %.4f |\n", $s->{name}, $own ? '**' : '', @$b, $own ? '**' : '', $b->[0], join(' | ', @cells),
			lsh_p($c, 128, @$b);
	}
}
print "\n";

# --- the S-curve --------------------------------------------------------------------------

print "## The S-curve against measured band hits\n\n";
print "Planted pairs (a copy and its original) and unrelated pairs of one site, with the exact Jaccard J of their shingle sets; per bin of J (0.05 wide) and of the smaller set's size, the share of pairs the set's banding makes candidates, next to the mean of `lsh_probability(J, b, r, m)` over the bin.  `oph`: the table's one-permutation signatures; `kperm`: k independent hashes of the same sets.  z = (measured - predicted) / s.e.; |z| <= 3 is the target.\n\n";
my @sc = tsv('scurve.tsv');
my @sizename = ('< 32', '32-63', '64-127', '128-511', '>= 512');
my %zsum;
for my $s (@sets) {
	my @rows = grep { $_->{set_name} eq $s->{name} } @sc;
	next unless @rows;
	print "### $s->{name}: $s->{bands} x $s->{rows}, min_bands $s->{min_bands}\n\n";
	print "| method | set size | J | pairs | measured | predicted | s.e. | z |\n|---|---|---|---:|---:|---:|---:|---:|\n";
	for my $r (sort { $a->{method} cmp $b->{method} || $a->{size_bin} <=> $b->{size_bin} || $a->{j_bin} <=> $b->{j_bin} } @rows) {
		next if $r->{n} < 20;
		my $meas = $r->{hits} / $r->{n};
		my $pred = $r->{sum_p} / $r->{n};
		my $se = sqrt($r->{sum_pq}) / $r->{n};
		my $z = $se > 0 ? ($meas - $pred) / $se : ($meas == $pred ? 0 : 99);
		my $zk = "$s->{name}|$r->{method}|" . ($r->{size_bin} >= 2 ? 'large' : 'small');
		$zsum{$zk}{bins}++;
		$zsum{$zk}{within}++ if abs($z) <= 3;
		$zsum{$zk}{pairs} += $r->{n};
		printf "| %s | %s | %.2f-%.2f | %s | %.3f | %.3f | %.3f | %s |\n", $r->{method}, $sizename[$r->{size_bin}],
			$r->{j_bin} / 20, ($r->{j_bin} + 1) / 20, fmt_int($r->{n}), $meas, $pred, $se, abs($z) >= 99 ? 'n/a' : sprintf('%+.1f', $z);
	}
	print "\n";
	for my $m (qw(oph kperm)) {
		for my $sz (qw(large small)) {
			my $z = $zsum{"$s->{name}|$m|$sz"} or next;
			printf "- %s, %s sets (%s shingles): %d of %d bins (of 20 pairs or more) within 3 s.e. (%s pairs)\n", $m,
				$sz eq 'large' ? 'larger' : 'smaller', $sz eq 'large' ? '64 or more' : 'fewer than 64, k/2',
				$z->{within} // 0, $z->{bins}, fmt_int($z->{pairs});
			push @targets, [ "S-curve within 3 s.e. per J bin, $s->{name}, $m, sets of " . ($sz eq 'large' ? '>= 64' : '< 64') . ' shingles',
				sprintf('%d of %d bins', $z->{within} // 0, $z->{bins}), ($z->{within} // 0) == $z->{bins} ? 'met' : 'missed' ]
				if $s->{name} eq $first && $sz eq 'large';
		}
	}
	print "\n";
	plot_scurve($s, \@rows) if $s->{name} eq $first;
}

# --- lookups and recall ---------------------------------------------------------------------

my @results = grep { $_->{pass} == 1 } tsv('results.tsv');
my @answers = tsv('answers.tsv');
my @qstats = tsv('qstats.tsv');
my @probes = tsv('probes.tsv');
my @queries = tsv('queries.tsv');
my %qset = map { $_->{qno} => $_->{qset} } @queries;
my %qid = map { $_->{qno} => $_->{id} } @queries;

print "## Lookups and recall\n\n";
print "Per set: $meta{queries} query rows (half members of planted families, half any row), each run as a sequential scan of `sig <@ jaccard_ball(q, t)` and as the idiom `sig @@ lsh_query(q, b, r, m) AND sig <@ jaccard_ball(q, t)` through the band index, side by side; times are medians in ms (wall clock, planning included).  Recall: of the pairs (query, row) the scan returned with an estimate of at least t + 0.1 (and, apart, of at least t), the share the idiom returned.  Candidates: rows passing `@@` per lookup; heap rows: those the bitmap scan rechecked.  Probes: $meta{probes} random rows' band candidates, less the row itself: the candidates per row of a self-join.\n\n";
my %pred = map { ("$_->{set_name}|$_->{what}" => $_) } tsv('predicted.tsv');
print "| set | index | size MB | build s | seq ms | idiom ms | speed-up | idiom p90 ms | recall at >= t + 0.1 | recall at >= t | candidates per lookup, mean / p99 | heap rows, mean | self-join candidates per row, mean / p99 | predicted by ANALYZE | planner's plan for the idiom |\n|---|---|---:|---:|---:|---:|---:|---:|---|---|---|---:|---|---:|---|\n";
my %summary;
for my $s (@sets) {
	my %byq;
	for my $r (grep { $_->{set_name} eq $s->{name} && $_->{variant} eq 'main' } @results) {
		$byq{$r->{qno}}{$r->{method}} = $r;
	}
	my @qnos = grep { $byq{$_}{seq} && $byq{$_}{lsh} } sort { $a <=> $b } keys %byq;
	next unless @qnos;
	my $seq = median(map { $byq{$_}{seq}{ms} } @qnos);
	my $lsh = median(map { $byq{$_}{lsh}{ms} } @qnos);
	my $lsh90 = pct(90, map { $byq{$_}{lsh}{ms} } @qnos);
	# recall
	my %found;
	for my $q (@qnos) { $found{"$q|$_"} = 1 for ($byq{$q}{lsh}{answer} =~ /(\d+)/g) }
	my ($n1, $f1, $n0, $f0) = (0, 0, 0, 0);
	for my $a (grep { $_->{set_name} eq $s->{name} } @answers) {
		next if $a->{id} == ($qid{$a->{qno}} // -1);
		my $hit = $found{"$a->{qno}|$a->{id}"} ? 1 : 0;
		$n0++, $f0 += $hit;
		$n1++, $f1 += $hit if $a->{est} >= $s->{threshold} + 0.1 - 1e-9;
	}
	my @qs = grep { $_->{set_name} eq $s->{name} && $_->{variant} eq 'main' } @qstats;
	my @cand = map { $_->{candidates} } @qs;
	my @heap = map { $_->{heap_rows} } @qs;
	my %plans;
	$plans{$_->{plan} // '?'}++ for @qs;
	my @pr = map { $_->{candidates} - 1 } grep { $_->{set_name} eq $s->{name} } @probes;
	my $bt = $timing{"build|$s->{name}|lsh"};
	my $bs = $size{"build|$s->{name}|lsh"};
	my $r1 = $n1 ? $f1 / $n1 : undef;
	my $pr = $pred{"$s->{name}|the set's banding"};
	printf "| %s | %s x %s, m %s, %s bits | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %.0f | %s / %s | %s | %s |\n", $s->{name},
		$s->{bands}, $s->{rows}, $s->{min_bands}, $s->{bits}, $bs ? mb($bs) : 'n/a', $bt ? sprintf('%.0f', $bt->{ms} / 1000) : 'n/a',
		fmt_ms($seq), fmt_ms($lsh), fmt_x($seq / $lsh), fmt_ms($lsh90),
		$n1 ? sprintf('%.4f (%d of %d)', $r1, $f1, $n1) : 'n/a (no pairs)',
		$n0 ? sprintf('%.4f (%d of %d)', $f0 / $n0, $f0, $n0) : 'n/a',
		fmt_g(mean(@cand)), fmt_g(pct(99, @cand)), mean(@heap) // 0,
		fmt_g(mean(@pr)), fmt_g(pct(99, @pr)), $pr ? fmt_g($pr->{candidates_per_row}) : 'n/a',
		join(', ', map { "$_ $plans{$_}" } sort keys %plans);
	$summary{$s->{name}} = { seq => $seq, lsh => $lsh, recall => $r1, n1 => $n1, f1 => $f1, cand => mean(@pr),
		size => $bs, build => $bt ? $bt->{ms} : undef };
}
print "\n";
my @lpf = grep { $_->{what} =~ /^lsh_params_for/ } values %pred;
if (@lpf) {
	print "What `lsh_params_for(table, column, t, max_candidates => 100)` chooses from the statistics of `ANALYZE` (max_min_bands 4):\n\n";
	printf "- %s: %s x %s, min_bands %s, predicting %s candidates per row (FN area %.4f)\n", $_->{set_name}, $_->{bands}, $_->{rows}, $_->{min_bands},
		fmt_g($_->{candidates_per_row}), $_->{false_negative} for sort { $set{$a->{set_name}}{ord} <=> $set{$b->{set_name}}{ord} } @lpf;
	print "\n";
}

# --- the exact index --------------------------------------------------------------------------

my %ex;
for my $r (grep { $_->{set_name} eq $first && $_->{variant} eq 'exact' } @results) { $ex{$r->{qno}}{$r->{method}} = $r }
my @exq = grep { $ex{$_}{seq} && $ex{$_}{exact} } sort { $a <=> $b } keys %ex;
my $exb = $timing{"build|$first|exact"};
my $exs = $size{"build|$first|exact"};
if (@exq && $exb && $exs) {
	my $s = $set{$first};
	my $seq = median(map { $ex{$_}{seq}{ms} } @exq);
	my $exact = median(map { $ex{$_}{exact}{ms} } @exq);
	my $sm = $summary{$first};
	print "## The exact index at the same threshold ($first, t = $s->{threshold})\n\n";
	print "`gin_minhash_ops` (bits = 16, k keys a row) on the same table, queries `sig <@ jaccard_ball(q, t)` through it and by a sequential scan, side by side (the sequential scans of this pass and of the band pass are separate runs of the same queries).\n\n";
	print "| index | size MB | build s | seq ms | indexed ms | speed-up |\n|---|---:|---:|---:|---:|---:|\n";
	printf "| exact, `gin_minhash_ops` | %s | %.0f | %s | %s | %s |\n", mb($exs), $exb->{ms} / 1000, fmt_ms($seq), fmt_ms($exact), fmt_x($seq / $exact);
	printf "| bands, `gin_minhash_lsh_ops` (%s x %s, m %s, %s bits) | %s | %.0f | %s | %s | %s |\n", $s->{bands}, $s->{rows}, $s->{min_bands}, $s->{bits},
		mb($sm->{size}), $sm->{build} / 1000, fmt_ms($sm->{seq}), fmt_ms($sm->{lsh}), fmt_x($sm->{seq} / $sm->{lsh}) if $sm && $sm->{size};
	print "\n";
	my @kd = tsv('keydist.tsv');
	if (@kd) {
		print "Rows per key (from the data): a lookup reads the posting lists of its keys, so the last column, the mean over rows of the rows of a row's keys, is what a query merges per key.\n\n";
		print "| index | keys | entries | rows per key p50 | p90 | p99 | p99.9 | max | keys of one row | rows per key a lookup meets |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
		for my $k (@kd) {
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f |\n", $k->{index_kind}, fmt_int($k->{keys}), fmt_int($k->{rows_total}),
				(map { fmt_g($_) } @$k{qw(p50 p90 p99 p999)}), fmt_int($k->{max}), fmt_int($k->{singletons}), $k->{mean_query_rows};
		}
		print "\n";
	}
	if ($sm && $sm->{size}) {
		push @targets, [ 'band index <= 25% of the exact index', sprintf('%.1f%% (%s MB against %s MB)', 100 * $sm->{size} / $exs, mb($sm->{size}), mb($exs)),
			$sm->{size} <= 0.25 * $exs ? 'met' : 'missed' ];
		push @targets, [ 'build >= 5x faster than the exact index', sprintf('%.1fx (%.0f s against %.0f s)', $exb->{ms} / $sm->{build}, $sm->{build} / 1000, $exb->{ms} / 1000),
			$exb->{ms} >= 5 * $sm->{build} ? 'met' : 'missed' ];
	}
}
if (my $sm = $summary{$first}) {
	unshift @targets, [ 'lookups >= 200x a sequential scan', sprintf('%s (%s ms against %s ms)', fmt_x($sm->{seq} / $sm->{lsh}), fmt_ms($sm->{lsh}), fmt_ms($sm->{seq})),
		$sm->{seq} >= 200 * $sm->{lsh} ? 'met' : 'missed' ];
	unshift @targets, [ 'candidates per row <= 100 (self-join)', sprintf('%s per row (mean of %s probes)', fmt_g($sm->{cand}), $meta{probes}),
		defined $sm->{cand} && $sm->{cand} <= 100 ? 'met' : 'missed' ];
	unshift @targets, [ 'recall >= 0.99 for estimates >= t + 0.1', defined $sm->{recall} ? sprintf('%.4f (%d of %d pairs)', $sm->{recall}, $sm->{f1}, $sm->{n1}) : 'no pairs',
		defined $sm->{recall} && $sm->{recall} >= 0.99 ? 'met' : 'missed' ];
}

# --- key bits -----------------------------------------------------------------------------------

my @bitsv = sort { $a <=> $b } map { /^bits=(\d+)$/ ? $1 : () } map { $_->{variant} } grep { $_->{what} eq 'build' && $_->{set_name} eq $first } @timings;
if (@bitsv) {
	my $s = $set{$first};
	print "## Key bits against size and candidates ($first, $s->{bands} x $s->{rows}, m $s->{min_bands})\n\n";
	print "The band index again with each number of bits kept from the band keys: fewer bits let unrelated rows share keys (shorter index, posting lists merged by more rows), and the bitmap scan then rechecks the heap rows that reach min_bands keys by chance.  Over the first queries: the idiom's median time, the heap rows rechecked and the band candidates (the same for every bits: the recheck keeps the index exact).\n\n";
	print "| bits | size MB | x exact index | build s | idiom ms (median) | heap rows rechecked, mean | band candidates, mean |\n|---:|---:|---:|---:|---:|---:|---:|\n";
	for my $b (@bitsv) {
		my $v = "bits=$b";
		my @r = grep { $_->{set_name} eq $first && $_->{variant} eq $v && $_->{method} eq 'lsh' } @results;
		my @q = grep { $_->{set_name} eq $first && $_->{variant} eq $v } @qstats;
		my $sz = $size{"build|$first|$v"};
		printf "| %s | %s | %s | %.0f | %s | %.1f | %.1f |\n", $b, mb($sz), $exs ? sprintf('%.3f', $sz / $exs) : 'n/a',
			$timing{"build|$first|$v"}{ms} / 1000, fmt_ms(median(map { $_->{ms} } @r)),
			mean(map { $_->{heap_rows} } @q) // 0, mean(map { $_->{candidates} } @q) // 0;
	}
	print "\n";
}

# --- inserts --------------------------------------------------------------------------------------

my @ins = grep { $_->{what} eq 'insert' } @timings;
my %insert_rate;    # set => best band-index rate with the merge
if (@ins) {
	print "## Inserts\n\n";
	printf "%s new rows (signatures made beforehand: the table's texts signed with another seed, so their keys are new) into the %s-row table, one INSERT ... SELECT, with one index besides the primary key; with a pending list, then its merge (`gin_clean_pending_list`); rows per second of the insert alone and with the merge.  After each, the rows are deleted and the table vacuumed.\n\n",
		fmt_int($meta{insert_rows}), fmt_int($nrows);
	print "| set | index | insert s | merge s | rows/s, insert | rows/s, with the merge | index MB after |\n|---|---|---:|---:|---:|---:|---:|\n";
	for my $s (@sets) {
		for my $i (grep { $_->{set_name} eq $s->{name} } @ins) {
			my $f = $timing{"flush|$s->{name}|$i->{variant}"};
			my $tot = $i->{ms} + ($f ? $f->{ms} : 0);
			my $rate = $i->{rows} / ($tot / 1000);
			printf "| %s | %s | %.1f | %s | %s | %s | %s |\n", $s->{name}, $i->{variant}, $i->{ms} / 1000, $f ? sprintf('%.1f', $f->{ms} / 1000) : '-',
				fmt_int($i->{rows} / ($i->{ms} / 1000)), fmt_int($rate),
				$size{"insert|$s->{name}|$i->{variant}"} ? mb($size{"insert|$s->{name}|$i->{variant}"}) : '-';
			next unless $i->{variant} =~ /^lsh/;
			$insert_rate{$s->{name}}{$i->{variant}} = $rate;
			push @targets, [ "inserts >= 5,000 rows/s with the pending list merged ($i->{variant})", fmt_int($rate) . ' rows/s',
				$rate >= 5000 ? 'met' : 'missed' ] if $s->{name} eq $first;
		}
	}
	print "\n";
}

# --- quality and the settings table ------------------------------------------------------------------

my @qual = tsv('quality.tsv');
if (@qual) {
	print "## Quality on the labeled corpus (bench/quality)\n\n";
	print "Every pair of one language and split of `make_corpus.pl --per-lang 160 --seed 2026` (the corpus of docs/quality.md), scored with the set's pipeline, found when the estimate is at least the set's threshold.\n\n";
	print "| set | threshold | split | lang | precision | recall | F1 | false pairs (of unrelated) |\n|---|---:|---|---|---:|---:|---:|---|\n";
	for my $q (sort { $a->{ord} <=> $b->{ord} || $b->{split} cmp $a->{split} || $a->{lang} cmp $b->{lang} } @qual) {
		printf "| %s | %s | %s | %s | %.3f | %.3f | %.3f | %s of %s |\n", $q->{name}, $q->{threshold}, $q->{split}, $q->{lang},
			$q->{precision} || 0, $q->{recall} || 0, $q->{f1} || 0, fmt_int($q->{false_pairs}), fmt_int($q->{unrelated});
	}
	print "\n";
}
print "## Settings table\n\n";
print "Per option set: quality (reporting split of the labeled corpus) and speed at this run's scale (band index, the idiom; inserts with the best pending-list setting, merge included).\n\n";
print "| set | pipeline, threshold | banding | F1 en | F1 zh | lookup ms | speed-up | candidates per row | recall at t + 0.1 | index MB | inserts/s |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
for my $s (@sets) {
	my $sm = $summary{$s->{name}} // {};
	my %f1 = map { $_->{lang} => $_->{f1} } grep { $_->{name} eq $s->{name} && $_->{split} eq 'reporting' } @qual;
	my ($best) = sort { $b <=> $a } values %{ $insert_rate{$s->{name}} // {} };
	printf "| %s | `shingle => %s`, t = %s | %s x %s, m %s, %s bits | %s | %s | %s | %s | %s | %s | %s | %s |\n", $s->{name}, $s->{shingle}, $s->{threshold},
		$s->{bands}, $s->{rows}, $s->{min_bands}, $s->{bits},
		defined $f1{en} ? sprintf('%.3f', $f1{en}) : 'n/a', defined $f1{zh} ? sprintf('%.3f', $f1{zh}) : 'n/a',
		fmt_ms($sm->{lsh}), $sm->{lsh} ? fmt_x($sm->{seq} / $sm->{lsh}) : 'n/a', fmt_g($sm->{cand}),
		defined $sm->{recall} ? sprintf('%.3f', $sm->{recall}) : 'n/a', $sm->{size} ? mb($sm->{size}) : 'n/a',
		defined $best ? fmt_int($best) : 'n/a';
}
print "\n";

print "## Targets ($first)\n\n| target | result | |\n|---|---|---|\n";
printf "| %s | %s | %s |\n", @$_ for @targets;
print "\n";

# --- plot -------------------------------------------------------------------------------------------

sub plot_scurve {
	my ($s, $rows) = @_;
	return unless system('command -v gnuplot > /dev/null 2>&1') == 0;
	mkdir "$dir/plots";
	my $data = "$dir/plots/scurve-$s->{name}.dat";
	open my $fh, '>', $data or die "$data: $!\n";
	for my $m (qw(oph kperm)) {
		for my $r (sort { $a->{j_bin} <=> $b->{j_bin} } grep { $_->{method} eq $m && $_->{size_bin} >= 2 && $_->{n} >= 20 } @$rows) {
			printf $fh "%s %.4f %.4f %.4f\n", $m, $r->{sum_j} / $r->{n}, $r->{hits} / $r->{n}, sqrt($r->{sum_pq}) / $r->{n};
		}
	}
	close $fh;
	my ($b, $r, $m, $t) = @$s{qw(bands rows min_bands threshold)};
	open my $gp, '|-', 'gnuplot' or return;
	print $gp <<"GP";
set terminal svg size 720,440 font 'sans,12'
set output '$dir/plots/scurve-$s->{name}.svg'
set xlabel 'Jaccard similarity of the shingle sets'
set ylabel 'probability of becoming a candidate'
set key left top
set grid
set xrange [0:1]
set yrange [-0.02:1.02]
binom(n, p, m) = (m <= 0) ? 1 : sum [j = m:n] (gamma(n + 1) / gamma(j + 1) / gamma(n - j + 1) * p**j * (1 - p)**(n - j))
P(s) = binom($b, s**$r, $m)
set arrow from $t, graph 0 to $t, graph 1 nohead dt 2 lc rgb 'gray40'
set label 'threshold $t' at $t, graph 0.95 offset 0.5, 0
set arrow from $t + 0.1, graph 0 to $t + 0.1, graph 1 nohead dt 3 lc rgb 'gray60'
set samples 400
plot P(x) title sprintf('lsh\\_probability(J, $b, $r, $m)') lw 2 lc rgb '#1f77b4', \\
	'$data' using (stringcolumn(1) eq 'oph' ? \$2 : 1/0):3:4 with yerrorbars title 'measured, one-permutation (sets >= 64)' pt 7 lc rgb '#d62728', \\
	'$data' using (stringcolumn(1) eq 'kperm' ? \$2 : 1/0):3:4 with yerrorbars title 'measured, k independent hashes' pt 5 lc rgb '#2ca02c'
GP
	close $gp;
}
