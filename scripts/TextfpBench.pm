# TextfpBench.pm: what the benchmark report scripts share (core Perl only).
package TextfpBench;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(read_tsv median read_meta pct fmt_ms fmt_x);

# Rows of a tab-separated file with a header line, as hashes keyed by column.
sub read_tsv {
	my ($path) = @_;
	open my $fh, '<:encoding(UTF-8)', $path or die "$path: $!\n";
	chomp(my $head = <$fh>);
	my @cols = split /\t/, $head;
	my @rows;
	while (my $line = <$fh>) {
		chomp $line;
		next unless length $line;
		my %r;
		@r{@cols} = split /\t/, $line, -1;
		push @rows, \%r;
	}
	return @rows;
}

sub median {
	my @v = sort { $a <=> $b } @_;
	return undef unless @v;
	return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

# meta.txt of a run: key<TAB>value lines, as a hash.
sub read_meta {
	my ($path) = @_;
	my %meta;
	open my $fh, '<', $path or die "$path: $!\n";
	while (<$fh>) {
		chomp;
		my ($k, $v) = split /\t/, $_, 2;
		$meta{$k} = $v if defined $v;
	}
	close $fh;
	return %meta;
}

# Nearest-rank percentile p (0..100) of the values; undef for none.
sub pct {
	my ($p, @v) = @_;
	@v = sort { $a <=> $b } @v;
	return undef unless @v;
	my $i = int($p / 100 * @v + 0.999999) - 1;
	return $v[$i < 0 ? 0 : $i];
}

# Milliseconds with three significant digits or so; 'n/a' for undef.
sub fmt_ms {
	my ($v) = @_;
	return 'n/a' unless defined $v;
	return sprintf('%.0f', $v) if $v >= 100;
	return sprintf('%.1f', $v) if $v >= 10;
	return sprintf('%.2f', $v) if $v >= 1;
	return sprintf('%.3f', $v);
}

# A ratio as "146x" (or "1.3x" below 10).
sub fmt_x {
	my ($v) = @_;
	return 'n/a' unless defined $v;
	return sprintf('%.0fx', $v) if $v >= 10;
	return sprintf('%.1fx', $v);
}

1;
