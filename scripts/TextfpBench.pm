# TextfpBench.pm: what the benchmark report scripts share (core Perl only).
package TextfpBench;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(read_tsv median);

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

1;
