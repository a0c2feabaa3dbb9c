# TextfpHtml.pm: plain text out of the Debian Reference's HTML, for the demo and
# the benchmarks (core Perl only).
package TextfpHtml;

use strict;
use warnings;
use utf8;
use Exporter 'import';

our @EXPORT_OK = qw(decode_entities html_to_text read_utf8);

my %ENTITY = (lt => '<', gt => '>', amp => '&', quot => '"', apos => "'", nbsp => ' ');

sub decode_entities {
	my ($s) = @_;
	$s =~ s/&#[xX]([0-9a-fA-F]+);/chr(hex $1)/ge;
	$s =~ s/&#([0-9]+);/chr($1)/ge;
	$s =~ s/&([a-zA-Z]+);/exists $ENTITY{$1} ? $ENTITY{$1} : "&$1;"/ge;
	return $s;
}

# Tags out, entities decoded, whitespace collapsed; no space left between two CJK characters
# (the HTML wraps Chinese lines anywhere).
sub html_to_text {
	my ($html) = @_;
	(my $s = $html) =~ s/<[^>]*>//g;
	$s = decode_entities($s);
	$s =~ s/\s+/ /g;
	$s =~ s/(\p{Han}|\p{InCJKSymbolsAndPunctuation}|\p{InHalfwidthAndFullwidthForms}) (?=\p{Han}|\p{InCJKSymbolsAndPunctuation}|\p{InHalfwidthAndFullwidthForms})/$1/g;
	$s =~ s/^ | $//g;
	return $s;
}

sub read_utf8 {
	my ($path) = @_;
	open my $fh, '<:encoding(UTF-8)', $path or die "$path: $!\n";
	local $/;
	my $s = <$fh>;
	close $fh;
	return $s;
}

1;
