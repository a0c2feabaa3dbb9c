#!/usr/bin/perl
# report.pl OUT: bench/track/run.sh's results (OUT/tk_result.tsv, OUT/meta.txt) as Markdown:
# one table per method, every recorded item, and the insert ratios tracked / plain.
use strict;
use warnings;
my $dir = shift or die "usage: report.pl OUT\n";
open my $m, '<', "$dir/meta.txt" or die "$dir/meta.txt: $!";
print "## bench/track\n\n";
while (<$m>) { chomp; my ($k, $v) = split /\t/, $_, 2; print "- $k: $v\n"; }
print "\n";
open my $f, '<', "$dir/tk_result.tsv" or die "$dir/tk_result.tsv: $!";
my (@order, %items);
while (<$f>) {
	chomp;
	my ($method, $item, $value) = split /\t/;
	$method = 'common' if $method eq '' || $method eq '\N';
	push @order, $method unless $items{$method};
	push @{ $items{$method} }, [$item, $value];
}
for my $method (@order) {
	print "### $method\n\n| item | value |\n|---|---|\n";
	my %v;
	for my $iv (@{ $items{$method} }) {
		my ($i, $v) = @$iv;
		$v{$i} = $v;
		$v =~ s/\|/\\|/g;
		print "| $i | $v |\n";
	}
	my @ratios;
	for my $k (sort keys %v) {
		next unless $k =~ /^insert tracked (\d+) rows\/s$/;
		my $s = $1;
		my $p = $v{"insert plain $s rows/s"};
		push @ratios, sprintf("| %d | %.0f | %.0f | %.2f |", $s, $p, $v{$k}, $v{$k} / $p) if $p;
	}
	print "\n| sessions | plain rows/s | tracked rows/s | tracked / plain |\n|---:|---:|---:|---:|\n",
		join("\n", @ratios), "\n" if @ratios;
	print "\n";
}
