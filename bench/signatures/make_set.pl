#!/usr/bin/perl
# make_set.pl: documents and edited copies for bench/signatures, as COPY text.
#
# Documents are the sections of two Debian manuals in English and Simplified Chinese, neither used by the demo
# (debian-reference-*) nor by bench/quality (fortunes-zh, the Reference, the Handbook): the New Maintainers'
# Guide (maint-guide, maint-guide-zh-cn) and the Debian Edu bookworm manual (debian-edu-doc-en,
# debian-edu-doc-zh-cn); their prose paragraphs (no listings, no tables), the first ones up to MAX_CHARS, in
# sections of at least MIN_CHARS and 4 sentences.  Each goes to the tuning or the reporting split by a fixed
# hash of its source.
#
# Edited copies, each from its document with a seed of its own:
#   homophone 5% ... 50%      (Chinese) that share of the Han characters that have a homophone replaced by one:
#                             another character of the corpus with the same first reading (tone included) in
#                             the Unihan-derived readings of go-pinyin's dictionary (golang-github-mozillazg-
#                             go-pinyin-dev), a reading source independent of ICU's Han-Latin
#   reorder paragraphs        paragraphs shuffled
#   reorder sentences         every sentence shuffled, then regrouped three a paragraph
#   sentences+drop+add        sentences shuffled, a fifth of them dropped, two sentences of another document of
#                             the same language and split (the donor) added
#   sentences+half replaced   sentences shuffled, half of them dropped, as many of the donor's added
# Sentences are split here by punctuation (。！？； and ., !, ? before white space), not by ICU, so the edits do
# not lean on the signature's own sentence breaker.
#
# Output, tab-separated, COPY text:  id  lang  split  kind  level  base  donor  body
# (kind 'original' has base = id; every other row's base is its document's id; donor is the document whose
# sentences a copy took, or \N: eval.sql does not count that pair as unrelated)
# Usage: perl bench/signatures/make_set.pl > set.tsv   (a summary goes to stderr)

use strict;
use warnings;
use utf8;
use FindBin;
use Digest::MD5 qw(md5);
use lib "$FindBin::Bin/../../scripts";
use TextfpHtml qw(html_sections);
use TextfpCorpus qw(seed_rng rnd rand_int shuffled copy_escape han_ratio);

binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

my %MIN_CHARS = (en => 800, zh => 200);
my %MAX_CHARS = (en => 6000, zh => 3000);
my $DICT = $ENV{PINYIN_DICT} // '/usr/share/gocode/src/github.com/mozillazg/go-pinyin/pinyin_dict.go';
my @SOURCES = (
	['en', 'maint-guide', glob('/usr/share/doc/maint-guide/html/*.en.html')],
	['zh', 'maint-guide', glob('/usr/share/doc/maint-guide-zh-cn/html/*.zh-cn.html')],
	['en', 'edu', '/usr/share/doc/debian-edu-doc-en/debian-edu-bookworm-manual.html'],
	['zh', 'edu', '/usr/share/doc/debian-edu-doc-zh-cn/debian-edu-bookworm-manual.html'],
);

sub sentences {
	my ($lang, $para) = @_;
	my @s = $lang eq 'zh'
		? split(/(?<=[。！？；])/, $para)
		: split(/(?<=[.!?])\s+(?=["'(]?[A-Z0-9])/, $para);
	return grep { /\S/ } @s;
}

# --- documents ---
my @docs;
for my $src (@SOURCES) {
	my ($lang, $label, @files) = @$src;
	die "no files for $lang $label: install the packages run.sh names\n" unless @files && -e $files[0];
	for my $a (html_sections($lang, $label, { min_chars => \%MIN_CHARS, max_chars => $MAX_CHARS{$lang} }, @files)) {
		my @paras = split /\n/, $a->{body};
		my $n = 0;
		$n += scalar sentences($lang, $_) for @paras;
		next if $n < 4;
		my $split = (unpack('C', md5($a->{source})) & 1) ? 'report' : 'tune';
		push @docs, { lang => $lang, split => $split, source => $a->{source}, paras => \@paras };
	}
}

# --- homophones: first reading (tone marks kept) => characters of the corpus that have it ---
my %reading;
open my $dh, '<:encoding(UTF-8)', $DICT or die "$DICT: $!\n";
while (<$dh>) {
	$reading{chr(hex $1)} = $2 if /^\s*0x([0-9A-F]+): "([^,"]+)/;
}
close $dh;
my %seen;
for my $d (grep { $_->{lang} eq 'zh' } @docs) {
	$seen{$_} = 1 for grep { defined $reading{$_} } split //, join('', @{ $d->{paras} });
}
my %group;
push @{ $group{ $reading{$_} } }, $_ for sort keys %seen;
my %homophones = map { my $c = $_; ($c => [grep { $_ ne $c } @{ $group{ $reading{$c} } }]) } keys %seen;
delete $homophones{$_} for grep { !@{ $homophones{$_} } } keys %homophones;

sub homophone_copy {
	my ($paras, $rate) = @_;
	my @out;
	for my $p (@$paras) {
		push @out, join '', map {
			my $alts = $homophones{$_};
			($alts && rnd() < $rate) ? $alts->[rand_int(scalar @$alts)] : $_
		} split //, $p;
	}
	return @out;
}

sub regroup {
	my ($lang, @s) = @_;
	my $sep = $lang eq 'zh' ? '' : ' ';
	my @out;
	push @out, join($sep, splice(@s, 0, 3)) while @s;
	return @out;
}

# --- output ---
my $id = 0;
my %count;
my @by_lang_split;
for my $d (@docs) {
	$d->{id} = ++$id;
	push @{ $by_lang_split[0]{"$d->{lang}/$d->{split}"} }, $d;
}
sub row {
	my ($d, $kind, $level, $donor, @paras) = @_;
	my $rid = $kind eq 'original' ? $d->{id} : ++$id;
	print join("\t", $rid, $d->{lang}, $d->{split}, $kind, $level, $d->{id}, $donor ? $donor->{id} : '\N',
		copy_escape(join "\n\n", @paras)), "\n";
	$count{"$d->{lang}\t$kind\t$level"}++;
}
for my $d (@docs) {
	my ($lang, @paras) = ($d->{lang}, @{ $d->{paras} });
	my @sent = map { sentences($lang, $_) } @paras;
	seed_rng(unpack('N', md5("signatures/$d->{source}")));
	row($d, 'original', '', undef, @paras);
	if ($lang eq 'zh') {
		row($d, 'homophone', "$_%", undef, homophone_copy(\@paras, $_ / 100)) for (5, 15, 30, 50);
	}
	row($d, 'reorder', 'paragraphs', undef, shuffled(@paras));
	row($d, 'reorder', 'sentences', undef, regroup($lang, shuffled(@sent)));
	my @others = grep { $_ != $d } @{ $by_lang_split[0]{"$lang/$d->{split}"} };
	my $donor = $others[rand_int(scalar @others)];
	my @theirs = shuffled(map { sentences($lang, $_) } @{ $donor->{paras} });
	my @kept = grep { rnd() >= 0.2 } shuffled(@sent);
	row($d, 'reorder', 'sentences+drop+add', $donor, regroup($lang, shuffled(@kept, @theirs[0, 1])));
	my @half = (shuffled(@sent))[0 .. int(@sent / 2) - 1];
	my @more = map { $theirs[$_ % @theirs] } 0 .. $#half;
	row($d, 'reorder', 'sentences+half replaced', $donor, regroup($lang, shuffled(@half, @more)));
}
printf STDERR "%d documents (%d zh, %d en), %d characters of Chinese with a homophone in the corpus\n",
	scalar @docs, scalar(grep { $_->{lang} eq 'zh' } @docs), scalar(grep { $_->{lang} eq 'en' } @docs),
	scalar keys %homophones;
print STDERR "$_\t$count{$_}\n" for sort keys %count;
