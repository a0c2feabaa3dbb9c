#!/usr/bin/perl
# stats_rows.pl: the rows stats.sql compares, as COPY text on stdout: the real labeled corpus
# of bench/quality (make_corpus.pl's output, read from the file given) and a sample of a
# generated corpus (make_textlike.pl's output), in one format:
#   corpus  id  lang  family  role  kind  strength  site  sampled  source  txt
# corpus is real or gen.  kind: a copy's edit kind (combo for several; verbatim), else \N.
# sampled: the row is in the population of unrelated pairs (real: every row; gen: every
# STEP-th id, STEP = N / SAMPLE); every original and copy of gen is kept for the planted
# pairs.  Real text is title, newline, body, as bench/quality scores it.
#
# Usage: perl stats_rows.pl REAL.tsv GEN.tsv SAMPLE

use strict;
use warnings;

my ($real, $gen, $sample) = @ARGV;
die "usage: $0 REAL.tsv GEN.tsv SAMPLE\n" unless defined $sample && $sample =~ /^[1-9][0-9]*$/;
binmode STDOUT, ':raw';

# real: id lang split family source kind strength edits title body
open my $r, '<:raw', $real or die "$real: $!\n";
while (<$r>) {
	chomp;
	my ($id, $lang, undef, $family, $source, $kind, $strength, undef, $title, $body) = split /\t/;
	my $role = $kind eq 'original' ? 'original' : 'copy';
	print join("\t", 'real', $id, $lang, $family, $role, $role eq 'copy' ? $kind : '\N', $strength, '\N', 't',
		$source =~ /^fortunes/ ? 'fortunes' : 'books', "$title\\n$body"), "\n";
}
close $r;

# gen: id lang site family role edit strength published_at body; N is the last id
my $n = 0;
open my $g, '<:raw', $gen or die "$gen: $!\n";
$n++ while <$g>;
my $step = $n > $sample ? int($n / $sample) : 1;
seek $g, 0, 0 or die "$gen: $!\n";
while (<$g>) {
	my ($id, $lang, $site, $family, $role, $edit, $strength) = split /\t/, $_, 8;
	my $sampled = $id % $step == 0;
	next unless $sampled || $role eq 'original' || $role eq 'copy';
	chomp(my $body = (split /\t/, $_, 9)[8]);
	my $kind = '\N';
	if ($role eq 'copy') {
		my $kinds = () = $edit =~ /(?:^|; )\w+ [1-3] \(/g;
		$kind = $edit eq 'verbatim' ? 'verbatim' : $kinds > 1 ? 'combo' : ($edit =~ /^(\w+)/)[0];
	}
	print join("\t", 'gen', $id, $lang, $family, $role, $kind, $strength, $site, $sampled ? 't' : 'f', '\N', $body), "\n";
}
close $g;
