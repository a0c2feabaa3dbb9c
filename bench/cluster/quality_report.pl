#!/usr/bin/perl
# quality_report.pl: the Markdown report of a bench/cluster/quality.sh run (scores.tsv,
# sizes.tsv) and the plot of cluster sizes, found against true (sizes.svg, gnuplot).
use strict;
use warnings;

my $dir = shift or die "usage: quality_report.pl DIR\n";
sub rows {
	my ($f) = @_;
	open my $fh, '<', "$dir/$f" or die "$dir/$f: $!\n";
	my $h = <$fh>;
	chomp $h;
	my @h = split /\t/, $h;
	my @r;
	while (<$fh>) {
		chomp;
		my %r;
		@r{@h} = split /\t/, $_, -1;
		push @r, \%r;
	}
	return @r;
}
my @scores = rows('scores.tsv');
print "| fingerprint and threshold | mode | texts | clusters | largest | ARI | pair precision | pair recall | pair F1 |\n";
print "|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
for my $lang ('all', 'en', 'zh') {
	print "| **$lang** | | | | | | | | |\n";
	for my $r (grep { $_->{lang} eq $lang } @scores) {
		print "| $r->{method} | $r->{mode} | $r->{docs} | $r->{clusters} | $r->{largest} | $r->{ari} | ",
			"$r->{pair_precision} | $r->{pair_recall} | $r->{pair_f1} |\n";
	}
}

# the plot: clusters of each size, one series per clustering
my %series;
for my $r (rows('sizes.tsv')) {
	push @{ $series{"$r->{method} ($r->{mode})"} }, [ $r->{size}, $r->{clusters} ];
}
my @names = sort { ($a =~ /^true/ ? 0 : 1) <=> ($b =~ /^true/ ? 0 : 1) || $a cmp $b } keys %series;
my @plots;
for my $i (0 .. $#names) {
	my $f = "$dir/sizes_$i.dat";
	open my $fh, '>', $f or die;
	print $fh "$_->[0] $_->[1]\n" for sort { $a->[0] <=> $b->[0] } @{ $series{ $names[$i] } };
	close $fh;
	(my $t = $names[$i]) =~ s/"/'/g;
	my $style = $names[$i] =~ /^true/ ? 'linespoints lw 3 pt 7 lc rgb "black"' : 'linespoints pt ' . (4 + $i);
	push @plots, qq{"$f" using 1:2 with $style title "$t"};
}
open my $gp, '|-', 'gnuplot' or die "gnuplot: $!\n";
print $gp <<"GP";
set terminal svg size 900,560 font "sans,12" background "white"
set output "$dir/sizes.svg"
set title "Cluster sizes on bench/quality's reporting split: found (cluster_table) against true families"
set xlabel "cluster size (texts)"
set ylabel "clusters of that size"
set logscale xy
set key outside bottom center maxrows 4 font "sans,10"
set grid
GP
print $gp 'plot ', join(", \\\n\t", @plots), "\n";
close $gp or die "gnuplot failed\n";
print "\n![cluster sizes](sizes.svg)\n";
