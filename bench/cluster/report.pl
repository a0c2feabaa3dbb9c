#!/usr/bin/perl
# report.pl: the Markdown report of a bench/cluster run directory (steps.tsv, recall.tsv,
# meta.txt).
use strict;
use warnings;

my $dir = shift or die "usage: report.pl DIR\n";
sub rows {
	my ($f) = @_;
	open my $fh, '<', "$dir/$f" or return ();
	my $h = <$fh>;
	chomp $h;
	my @h = split /\t/, $h;
	my @r;
	while (<$fh>) {
		chomp;
		my %r;
		@r{@h} = map { $_ eq '\N' ? '' : $_ } split /\t/, $_, -1;
		push @r, \%r;
	}
	return @r;
}
my %meta;
if (open my $fh, '<', "$dir/meta.txt") {
	while (<$fh>) { chomp; my ($k, @v) = split /\t/; $meta{$k} = join ' ', @v; }
}
print "# cluster_table at scale\n\n";
print "$meta{date}, $meta{cpu}, $meta{nproc} cores, load $meta{load_start} at start, ",
	($meta{load_end} // '?'), " at end; $meta{server}; commit $meta{commit}\n\n";
print "`$meta{command}`\n\n" if $meta{command};
print "| call | wall s | wall min | backend CPU s | peak RSS (MB) | temp files (MB) | rows | clusters | largest | largest share |\n";
print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
for my $r (rows('steps.tsv')) {
	my $pairs = $r->{step} =~ /pairs only/;
	printf "| %s | %.0f | %.1f | %s | %.0f | %.0f | %s | %s | %s | %s |\n", $r->{step}, $r->{seconds},
		$r->{seconds} / 60, ($r->{cpu_seconds} // '') eq '' ? '' : sprintf('%.0f', $r->{cpu_seconds}),
		$r->{peak_rss_kb} / 1024, $r->{temp_mb}, $r->{rows},
		$pairs ? '' : $r->{clusters}, $pairs ? '' : $r->{largest},
		$pairs || !$r->{rows} ? '' : sprintf('%.3f%%', 100 * $r->{largest} / $r->{rows});
}
print "\n(pairs only: rows are the verified pairs, identical values collapsed)\n\n";
print "| fingerprint | clusters | planted pairs | operator recall | route recall | missed by route | extra | same cluster | route found, of the operator's | lsh_probability predicts (3 SE) |\n";
print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
for my $r (rows('recall.tsv')) {
	printf "| %s | %s | %d | %.4f | %.4f | %d | %d | %.4f | %s | %s |\n", $r->{fp}, $r->{clusters}, $r->{planted},
		$r->{operator_recall}, $r->{route_recall}, $r->{route_missing}, $r->{route_extra},
		$r->{cluster_recall}, ($r->{found_of_accepted} // '') eq '' ? '' : sprintf('%.4f', $r->{found_of_accepted}),
		($r->{lsh_expected} // '') eq '' ? '' : sprintf('%.4f (%.4f to %.4f)', $r->{lsh_expected},
			$r->{lsh_expected} - 3 * $r->{lsh_se}, $r->{lsh_expected} + 3 * $r->{lsh_se});
}
