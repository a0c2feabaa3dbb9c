#!/usr/bin/perl
# report.pl: the Markdown report of bench/mih/run.sh, from OUTDIR/micro.tsv (micro.c's output:
# "query" rows, one per data set, size, structure, m and radius; "skew" rows, one per data
# set, size, m and table) and OUTDIR/meta.txt.
#
# Core Perl only.  Usage: perl bench/mih/report.pl OUTDIR

use strict;
use warnings;

my $dir = shift // die "usage: $0 OUTDIR\n";
my %meta;
if (open my $m, '<', "$dir/meta.txt") {
	while (<$m>) { chomp; my ($k, $v) = split /\t/, $_, 2; $meta{$k} = $v if defined $v }
}

my (%q, %skew, @order, %seen);
my $bad = 0;
open my $fh, '<', "$dir/micro.tsv" or die "$dir/micro.tsv: $!\n";
while (<$fh>) {
	chomp;
	next if /^#/;
	my @f = split /\t/;
	if ($f[0] eq 'query') {
		my (undef, $ds, $n, $s, $m, $r, $med, $p90, $probes, $cands, $ans, $mis) = @f;
		$ds =~ s{.*/}{};
		push @order, "$ds\t$n" unless $seen{"$ds\t$n"}++;
		$q{$ds}{$n}{"$s$m"}{$r} = {med => $med, p90 => $p90, probes => $probes, cands => $cands, ans => $ans};
		$bad += $mis;
	} elsif ($f[0] eq 'skew') {
		my (undef, $ds, $n, $m, $t, $w, $even, $mean, $ratio, $max, $empty) = @f;
		$ds =~ s{.*/}{};
		push @{$skew{$ds}{$n}{$m}}, {w => $w, even => $even, mean => $mean, ratio => $ratio, max => $max, empty => $empty};
	}
}

sub num { my ($v) = @_; 1 while $v =~ s/^(\d+)(\d{3})/$1,$2/; return $v }

print "# mih microbenchmark (in memory): multi-index hashing against GIN with whole-code entries\n\n";
print "Run of ", $meta{date} // '?', " on ", $meta{cpu} // '?', ", nproc ", $meta{nproc} // '?',
	", load average ", $meta{load} // '?', " at start, ", $meta{load_end} // '?', " at end; commit ",
	$meta{commit} // '?', ". Every answer checked against a scan of all codes: ",
	($bad ? "**$bad MISMATCHES**" : 'all equal'), ".\n\n";
print "Median time of a query in microseconds (probes per query / candidates verified per query). ",
	"`gin`: the entry tree of GIN with whole-code keys, 4 blocks (probe keys as gin_simhash64_ops), ",
	"a binary search per probe key and a comparePartial stand-in called through a pointer per entry ",
	"(a lower bound of GIN's cost: no pages, locks or fmgr). `mihM`: M tables of contiguous buckets, ",
	"the probe plan of src/core/mih.c (a full pass over one table where it is cheaper), the popcount ",
	"kernel. Half the queries are a code with 1 or 2 bits flipped, half random.\n\n";
for my $key (@order) {
	my ($ds, $n) = split /\t/, $key;
	my $st = $q{$ds}{$n};
	my @s = sort { ($a =~ /^gin/ ? 0 : 1) <=> ($b =~ /^gin/ ? 0 : 1) || $a cmp $b } keys %$st;
	my %r = map { %{$st->{$_}} } @s;
	print "**$ds, ", num($n), " codes**\n\n| radius | answers | ", join(' | ', @s), " |\n|---:|---:|",
		join('', map { '---:|' } @s), "\n";
	for my $r (sort { $a <=> $b } keys %r) {
		my ($first) = grep { $_ } map { $st->{$_}{$r} } @s;
		print "| $r | $first->{ans} | ", join(' | ', map {
			my $x = $st->{$_}{$r};
			$x ? sprintf('%.1f (%s / %s)', $x->{med}, num($x->{probes}), num($x->{cands})) : '-'
		} @s), " |\n";
	}
	print "\n";
}

print "## How codes spread over the buckets\n\n";
print "Per table: the mean size of the bucket a random code falls into (sum of squared bucket sizes / codes), ",
	"less the code itself, against codes / 2^w, its value for codes spread evenly; the ratio is how many more ",
	"candidates a probe meets than on uniform codes. Mean and largest ratio over the tables, the largest ",
	"bucket, and the share of empty buckets.\n\n";
print "| data set | codes | m | width | codes / 2^w | mean ratio | largest ratio | largest bucket | empty buckets |\n";
print "|---|---:|---:|---|---:|---:|---:|---:|---:|\n";
for my $key (@order) {
	my ($ds, $n) = split /\t/, $key;
	for my $m (sort { $a <=> $b } keys %{$skew{$ds}{$n} // {}}) {
		my @t = @{$skew{$ds}{$n}{$m}};
		my ($sum, $maxr, $maxb, $emp) = (0, 0, 0, 0);
		for (@t) {
			$sum += $_->{ratio};
			$maxr = $_->{ratio} if $_->{ratio} > $maxr;
			$maxb = $_->{max} if $_->{max} > $maxb;
			$emp += $_->{empty};
		}
		my %w = map { $_->{w} => 1 } @t;
		printf "| %s | %s | %d | %s | %.1f | %.2f | %.2f | %s | %.1f%% |\n", $ds, num($n), $m,
			join('/', sort { $b <=> $a } keys %w), $t[0]{even}, $sum / @t, $maxr, num($maxb), 100 * $emp / @t;
	}
}
print "\n";
exit($bad ? 2 : 0);
