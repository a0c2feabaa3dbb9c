# TextfpHtml.pm: plain text out of the Debian Reference's and the Debian Administrator's
# Handbook's HTML, for the demo and the benchmarks (core Perl only).
package TextfpHtml;

use strict;
use warnings;
use utf8;
use Exporter 'import';
use TextfpCorpus qw(han_ratio cap_paragraphs);

our @EXPORT_OK = qw(decode_entities html_to_text html_sections read_utf8);

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

# One article per h2..h5 section of an HTML book (the Debian Reference's or the Debian
# Administrator's Handbook's): its prose paragraphs, not listings, tables or figure titles,
# the first ones up to $limits->{max_chars} characters; sections shorter than
# $limits->{min_chars}{$lang}, Chinese ones mostly untranslated and English ones with any
# Han are left out; $limits->{paragraph_filter}, if given, decides first which paragraphs
# count.  Each: { lang, source (label/file#n), title, body (paragraphs, one a line) }.
sub html_sections {
	my ($lang, $label, $limits, @files) = @_;
	my @articles;
	for my $path (sort @files) {
		my $html = read_utf8($path);
		(my $file = $path) =~ s{.*/}{};
		my (undef, @parts) = split /<h([1-5]) class="title"[^>]*>(.*?)<\/h[1-5]>/s, $html;
		for (my $i = 0; $i + 2 <= $#parts; $i += 3) {
			my ($level, $head_html, $body_html) = @parts[$i .. $i + 2];
			next if $level == 1;
			$body_html =~ s/<pre\b.*?<\/pre>//gs;
			$body_html =~ s/<table\b.*?<\/table>//gs;
			$body_html =~ s/<p class="title">.*?<\/p>//gs;
			# <p> in the Reference, <div class="para"> in the Handbook
			my @paras = grep { length } map { html_to_text($_) } grep { defined }
				($body_html =~ /<p\b[^>]*>(.*?)<\/p>|<div class="para"[^>]*>(.*?)<\/div>/gs);
			@paras = grep { $limits->{paragraph_filter}->($_) } @paras if $limits->{paragraph_filter};
			@paras = cap_paragraphs($limits->{max_chars}, @paras);
			my $body = join "\n", @paras;
			next if length($body) < $limits->{min_chars}{$lang};
			next if $lang eq 'zh' && han_ratio($body) < 0.5;   # untranslated sections
			next if $lang eq 'en' && han_ratio($body) > 0;
			my $title = html_to_text($head_html);
			$title =~ s/^[0-9A-Z]+(\.[0-9]+)*\.?\s+//;          # section numbers
			push @articles, { lang => $lang, source => "$label/$file#" . (($i / 3) + 1),
				title => $title, body => $body };
		}
	}
	return @articles;
}

1;
