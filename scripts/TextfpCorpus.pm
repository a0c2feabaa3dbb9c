# TextfpCorpus.pm: what the demo's and the quality bench's corpus makers share (core Perl
# only): a seeded random sequence that is the same on every perl, and small text helpers.
package TextfpCorpus;

use strict;
use warnings;
use utf8;
use Exporter 'import';

our @EXPORT_OK = qw(seed_rng rnd rand_int pick shuffled han_ratio cap_paragraphs spread copy_escape);

# A 31-bit LCG: the only randomness, so a seed gives the same corpus everywhere.
my $rng = 0;
sub seed_rng { my ($seed) = @_; $rng = $seed & 0x7fffffff; }
sub rnd {
	{ use integer; $rng = ($rng * 1103515245 + 12345) & 0x7fffffff; }   # < 2**62: no overflow
	return $rng / 2147483648;
}
sub rand_int { my ($n) = @_; return int(rnd() * $n); }
sub pick { return $_[rand_int(scalar @_)]; }
sub shuffled { my @a = @_; for (my $i = $#a; $i > 0; $i--) { my $j = rand_int($i + 1); @a[$i, $j] = @a[$j, $i]; } return @a; }

# Share of Han among Han and Latin letters.  tr, not a regex with \p{Han}: several times
# faster on the 1 MB fortune file.
sub han_ratio {
	my ($s) = @_;
	my $han = ($s =~ tr/\x{3400}-\x{9FFF}\x{F900}-\x{FAFF}//);
	my $latin = ($s =~ tr/A-Za-z\x{C0}-\x{24F}//);
	return $han + $latin ? $han / ($han + $latin) : 0;
}

# The first paragraphs up to $max characters, whole ones only (at least one).
sub cap_paragraphs {
	my ($max, @paras) = @_;
	my @out;
	my $len = 0;
	for my $p (@paras) {
		last if @out && $len + length($p) > $max;
		push @out, $p;
		$len += length($p) + 1;
	}
	return @out;
}

# Up to $n of the list, spread evenly, in source order.
sub spread {
	my ($n, @list) = @_;
	return @list if @list <= $n;
	return map { $list[int($_ * @list / $n)] } 0 .. $n - 1;
}

# A value in COPY's text format.
sub copy_escape {
	my ($s) = @_;
	return '\N' unless defined $s;
	$s =~ s/\\/\\\\/g;
	$s =~ s/\t/\\t/g;
	$s =~ s/\n/\\n/g;
	$s =~ s/\r/\\r/g;
	return $s;
}

1;
