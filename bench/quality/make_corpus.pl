#!/usr/bin/perl
# make_corpus.pl: the labeled evaluation set, real originals and recorded copies, as COPY text.
#
# Originals are sections of the Debian Reference and of the Debian Administrator's Handbook
# (English and Simplified Chinese HTML) and Chinese poems and sayings from fortunes-zh.
# Every original gets one copy per edit kind, at a strength from 1 (light) to 3 (heavy) that
# cycles over the originals so each kind has as many copies of each strength, plus one copy
# that combines three kinds.  The label of a pair comes from this provenance only: two texts
# of one family (an original and its copies) are a reprint pair, texts of two families are
# unrelated.  Originals that share a verbatim paragraph of 40 characters or more with an
# earlier original are left out first, since they are natural copies whose provenance is
# not known.  Families are split into a tuning part and a reporting part by a seeded
# shuffle.  Same input, same output: the only randomness is a seeded LCG
# (scripts/TextfpCorpus.pm).
#
# Output columns, tab-separated, COPY text format, no header:
#   id  lang  split  family  source  kind  strength  edits  title  body
# kind is 'original' (strength 0), one of the edit kinds, or 'combo'.  Core Perl, plus
# uconv (icu-devtools) for the Traditional Chinese copies.
#
# Usage: perl bench/quality/make_corpus.pl [--per-lang N] [--seed N] > corpus.tsv

use strict;
use warnings;
use utf8;
use Getopt::Long;
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpHtml qw(html_sections read_utf8);
use TextfpCorpus qw(seed_rng rand_int shuffled han_ratio spread copy_escape);
use TextfpEdits qw(%EDIT %KINDS set_titles convert_marked);

binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

my $DOCREF_DIR   = $ENV{DOCREF_DIR}   // '/usr/share/debian-reference';
my $HANDBOOK_DIR = $ENV{HANDBOOK_DIR} // '/usr/share/doc/debian-handbook/html';
my $FORTUNE_DIR  = $ENV{FORTUNE_DIR}  // '/usr/share/games/fortunes';

my $PER_LANG = 500;       # originals per language, at most
my $SEED = 2026;
GetOptions('per-lang=i' => \$PER_LANG, 'seed=i' => \$SEED)
	or die "usage: $0 [--per-lang N] [--seed N]\n";
die "--per-lang must be at least 2\n" if $PER_LANG < 2;

my %MIN_CHARS = (en => 400, zh => 200);
my $MAX_CHARS = 6000;
my %SECTION_LIMITS = (min_chars => \%MIN_CHARS, max_chars => $MAX_CHARS);
my $FORTUNE_SHARE = 0.25;  # at most this share of the Chinese originals are fortunes-zh records

# the only randomness: TextfpCorpus's LCG, the same on every perl
seed_rng($SEED);

# ---------------------------------------------------------------------------
# originals
# ---------------------------------------------------------------------------

sub fortunes {
	my ($name) = @_;
	my @records = split /^%\n/m, read_utf8("$FORTUNE_DIR/$name.u8");
	my @articles;
	for my $n (0 .. $#records) {
		my $r = $records[$n];
		$r =~ s/\e\[[0-9;]*m//g;
		my @lines = grep { /\S/ } map { s/^\s+|\s+$//gr } split /\n/, $r;
		next unless @lines >= 2;
		my $body = join "\n", @lines[1 .. $#lines];
		(my $dense = $body) =~ s/\s+//g;
		next if length($dense) < $MIN_CHARS{zh} / 2;
		next if han_ratio($body) < 0.8;
		push @articles, { lang => 'zh', source => "fortunes-zh/$name#" . ($n + 1),
			title => $lines[0], body => $body };
	}
	return @articles;
}

# Natural copies out: an original is dropped when one of its paragraphs of 40 characters or
# more (whitespace removed) already occurs in an earlier one, or its body does.
sub without_natural_copies {
	my ($dropped, @list) = @_;
	my %seen;
	my @keep;
	for my $a (@list) {
		my @keys = grep { length >= 40 } map { s/\s+//gr } split /\n/, $a->{body};
		(my $whole = $a->{body}) =~ s/\s+//g;
		push @keys, $whole;
		if (grep { $seen{$_} } @keys) { $$dropped++; next; }
		$seen{$_} = 1 for @keys;
		push @keep, $a;
	}
	return @keep;
}

my %dropped = (en => 0, zh => 0);
my @en = without_natural_copies(\$dropped{en},
	html_sections('en', 'debian-reference', \%SECTION_LIMITS, glob("$DOCREF_DIR/*.en.html")),
	html_sections('en', 'debian-handbook', \%SECTION_LIMITS, glob("$HANDBOOK_DIR/en-US/*.html")));
my @zh_books = without_natural_copies(\$dropped{zh},
	html_sections('zh', 'debian-reference', \%SECTION_LIMITS, glob("$DOCREF_DIR/*.zh-cn.html")),
	html_sections('zh', 'debian-handbook', \%SECTION_LIMITS, glob("$HANDBOOK_DIR/zh-CN/*.html")));
my $zh_dropped_books = $dropped{zh};
my @zh_fortune = without_natural_copies(\$dropped{zh}, map { fortunes($_) } qw(tang300 song100 chinese));

@en = spread($PER_LANG, @en);
my $n_fortune = int($PER_LANG * $FORTUNE_SHARE);
$n_fortune = $PER_LANG - @zh_books if @zh_books < $PER_LANG - $n_fortune;
my @zh = (spread($PER_LANG - $n_fortune, @zh_books), spread($n_fortune, @zh_fortune));
# a fortune record may quote a book: the same natural-copy rule across the two
@zh = without_natural_copies(\$dropped{zh}, @zh);

# The edits are scripts/TextfpEdits.pm's.

# ---------------------------------------------------------------------------
# families and output
# ---------------------------------------------------------------------------

my @rows;
my $id = 0;
my %count;
for my $list (\@en, \@zh) {
	my $lang = $list->[0]{lang};
	set_titles($lang, map { $_->{title} } @$list);
	# the split: a seeded shuffle, first half tuning
	my @order = shuffled(0 .. $#$list);
	my %split;
	$split{$order[$_]} = $_ < @order / 2 ? 'tuning' : 'reporting' for 0 .. $#order;
	my @kinds = @{$KINDS{$lang}};
	for my $i (0 .. $#$list) {
		my $o = $list->[$i];
		my $family = ++$id;
		my $split = $split{$i};
		push @rows, [$family, $lang, $split, $family, $o->{source}, 'original', 0, '', $o->{title}, $o->{body}];
		for my $j (0 .. $#kinds) {
			my $s = 1 + ($i + $j) % 3;
			my ($t, $b, $detail) = $EDIT{$kinds[$j]}->($lang, $s, $o->{title}, $o->{body});
			push @rows, [++$id, $lang, $split, $family, $o->{source}, $kinds[$j], $s, $detail, $t, $b];
			$count{$lang}{copies}++;
		}
		# a combination: three other kinds at strength 1 or 2, applied in the kinds' order
		my %pick = map { $_ => 1 } (shuffled(grep { $_ ne 'script' } @kinds))[0 .. 2];
		my ($t, $b) = ($o->{title}, $o->{body});
		my @done;
		for my $k (grep { $pick{$_} } @kinds) {
			my $s = 1 + rand_int(2);
			($t, $b, my $detail) = $EDIT{$k}->($lang, $s, $t, $b);
			push @done, "$k $s ($detail)";
		}
		push @rows, [++$id, $lang, $split, $family, $o->{source}, 'combo', 0, join('; ', @done), $t, $b];
		$count{$lang}{copies}++;
		$count{$lang}{$split}++;
	}
}

# Traditional script: one uconv run over every marked piece.
convert_marked(map { \@$_[8, 9] } @rows);

print join("\t", map { copy_escape($_) } @$_), "\n" for @rows;

printf STDERR "make_corpus: %d English originals (%d tuning), %d Chinese (%d tuning; %d fortunes-zh); "
	. "natural copies left out: %d en, %d zh; %d rows\n",
	scalar @en, $count{en}{tuning} // 0, scalar @zh, $count{zh}{tuning} // 0,
	scalar(grep { $_->{source} =~ /^fortunes/ } @zh), $dropped{en}, $dropped{zh}, scalar @rows;
