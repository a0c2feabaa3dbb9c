#!/usr/bin/perl
# make_rows.pl: the rows the simhash cost benchmark scans, as COPY text, one language a call.
#
# English rows are the prose of the Debian Reference (debian-reference-en); Chinese rows are
# the prose of its Simplified Chinese translation (debian-reference-zh-cn) plus the poems and
# sayings of fortunes-zh.  Tags are stripped and entities decoded; consecutive paragraphs (or
# fortune records) are packed into article-sized rows of MIN_CHARS..MAX_CHARS characters,
# with row lengths cycling through a fixed set of targets so short and long rows are both
# there.  When the sources give fewer than --rows unique rows, the whole set is repeated
# (copy 2, copy 3, ...) until there are at least --rows; the "copy" column says which copy a
# row is, so the report can say how many rows are unique.  Same input, same output.
#
# Output columns, tab-separated, COPY text format, no header:  copy  source  body
# Core Perl only.
#
# Usage: perl bench/perf/make_rows.pl --lang en|zh [--rows N] > rows.tsv
#        (DOCREF_DIR and FORTUNE_DIR override the package paths.)

use strict;
use warnings;
use utf8;
use Getopt::Long;
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpHtml qw(html_to_text read_utf8);

binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

my $DOCREF_DIR  = $ENV{DOCREF_DIR}  // '/usr/share/debian-reference';
my $FORTUNE_DIR = $ENV{FORTUNE_DIR} // '/usr/share/games/fortunes';

my $LANG;
my $ROWS = 3000;
GetOptions('lang=s' => \$LANG, 'rows=i' => \$ROWS)
	and defined $LANG and $LANG =~ /^(en|zh)$/
	or die "usage: $0 --lang en|zh [--rows N]\n";

my $MIN_CHARS = 500;
my $MAX_CHARS = 5000;
# Row length targets, in characters, taken in turn: a row is closed at the first paragraph
# boundary at or past its target (and never grows past MAX_CHARS unless one paragraph does,
# in which case that paragraph is cut).
my @TARGETS = (600, 1200, 2000, 3000, 4500, 900, 1600, 2500);

# Paragraphs of one Debian Reference language, in document order, as [source, text] pairs:
# <p> elements (list items and notes included), not screen listings or data tables.
sub docref_paragraphs {
	my ($suffix) = @_;
	my @files = sort glob("$DOCREF_DIR/ch[0-9][0-9].$suffix.html");
	die "no $DOCREF_DIR/ch*.$suffix.html: is debian-reference-$suffix installed?\n" unless @files;
	my @paras;
	for my $path (@files) {
		(my $file = $path) =~ s{.*/}{};
		my $html = read_utf8($path);
		$html =~ s/<pre\b.*?<\/pre>//gs;
		$html =~ s/<table class="table".*?<\/table>//gs;
		$html =~ s/<p class="title">.*?<\/p>//gs;
		for my $p ($html =~ /<p\b[^>]*>(.*?)<\/p>/gs) {
			my $t = html_to_text($p);
			next unless length $t;
			# the zh-cn pages leave some paragraphs untranslated: keep Chinese ones only
			next if $suffix eq 'zh-cn' && $t !~ /\p{Han}/;
			push @paras, ["debian-reference/$file", $t];
		}
	}
	return @paras;
}

# fortunes-zh records, ANSI colours and blank lines out, as [source, text] pairs.
sub fortune_records {
	my @paras;
	for my $name (qw(tang300 song100 chinese)) {
		my $path = "$FORTUNE_DIR/$name.u8";
		die "no $path: is fortunes-zh installed?\n" unless -e $path;
		for my $r (split /^%\n/m, read_utf8($path)) {
			$r =~ s/\e\[[0-9;]*m//g;
			my @lines = grep { /\S/ } map { s/^\s+|\s+$//gr } split /\n/, $r;
			push @paras, ["fortunes-zh/$name", join("\n", @lines)] if @lines;
		}
	}
	return @paras;
}

# Pack [source, text] paragraphs into rows; a row never spans two sources.
sub pack_rows {
	my @rows;
	my ($src, @cur);
	my $len = 0;
	my $t = 0;
	my $close = sub {
		push @rows, [$src, join("\n", @cur)] if $len >= $MIN_CHARS;
		@cur = ();
		$len = 0;
		$t++;
	};
	for my $p (@_) {
		my ($s, $text) = @$p;
		$close->() if @cur && $s ne $src;
		$src = $s;
		$text = substr($text, 0, $MAX_CHARS) if length($text) > $MAX_CHARS;
		$close->() if @cur && $len + 1 + length($text) > $MAX_CHARS;
		push @cur, $text;
		$len += length($text) + (@cur > 1 ? 1 : 0);
		$close->() if $len >= $TARGETS[$t % @TARGETS];
	}
	$close->() if @cur;
	return @rows;
}

sub copy_escape {
	my ($s) = @_;
	$s =~ s/\\/\\\\/g;
	$s =~ s/\t/\\t/g;
	$s =~ s/\n/\\n/g;
	$s =~ s/\r/\\r/g;
	return $s;
}

my @rows = $LANG eq 'en'
	? pack_rows(docref_paragraphs('en'))
	: (pack_rows(docref_paragraphs('zh-cn')), pack_rows(fortune_records()));
die "no rows for $LANG\n" unless @rows;

my $copies = int(($ROWS + @rows - 1) / @rows);
$copies = 1 if $copies < 1;
for my $copy (1 .. $copies) {
	for my $r (@rows) {
		print join("\t", $copy, $r->[0], copy_escape($r->[1])), "\n";
	}
}
printf STDERR "make_rows.pl: %s: %d unique rows x %d copies = %d rows\n",
	$LANG, scalar @rows, $copies, $copies * @rows;
