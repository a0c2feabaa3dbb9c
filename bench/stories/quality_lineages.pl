#!/usr/bin/perl
# quality_lineages.pl: bench/quality's labeled families as lineages, in make_lineages.pl's format.
#
# Reads make_corpus.pl's output on stdin.  A family is a lineage: its original first, then its edited copies
# in a seeded random order.  Each family starts at a random minute of 2024-2025; each copy follows the one
# before it by 1 minute to 3 days, so the families interleave in time while keys (make_corpus.pl's ids:
# the original, then the copies by kind) do not follow time within a family.  set is quality-<split>-<lang>.
#
# Output, tab-separated, COPY text, no header, in (time, key) order:
#   key  lang  set  lineage  version  time  source  title  body
#
# Usage: perl bench/quality/make_corpus.pl --per-lang 160 --seed 2026 | perl bench/stories/quality_lineages.pl [--seed N]

use strict;
use warnings;
use utf8;
use Getopt::Long;
use FindBin;
use POSIX qw(strftime);
use lib "$FindBin::Bin/../../scripts";
use TextfpCorpus qw(seed_rng rnd rand_int shuffled);

binmode STDIN, ':encoding(UTF-8)';
binmode STDOUT, ':encoding(UTF-8)';

my $SEED = 21;
GetOptions('seed=i' => \$SEED) or die "usage: $0 [--seed N]\n";
seed_rng($SEED);

my $START = 1704067200;              # 2024-01-01 00:00:00 UTC
my $SPAN_MINUTES = 2 * 365 * 24 * 60;
my $MAX_GAP_MINUTES = 3 * 24 * 60;

my %family;
my @families;
while (my $line = <STDIN>) {
	chomp $line;
	# id lang split family source kind strength edits title body (COPY text, kept escaped)
	my @f = split /\t/, $line, -1;
	die "bad line: expected 10 fields\n" unless @f == 10;
	push @families, $f[3] unless $family{$f[3]};
	push @{$family{$f[3]}}, \@f;
}

my @out;
for my $fam (@families) {
	my ($orig, @copies) = @{$family{$fam}};
	die "family $fam: the first row is not its original\n" unless $orig->[5] eq 'original';
	my $t = $START + 60 * rand_int($SPAN_MINUTES);
	for my $r ($orig, shuffled(@copies)) {
		my ($id, $lang, $split, $family, $source, $kind, undef, undef, $title, $body) = @$r;
		push @out, [$t, $id, $lang, "quality-$split-$lang", "quality/$family", $kind,
			strftime('%Y-%m-%d %H:%M:%S+00', gmtime $t), $source, $title, $body];
		$t += 60 * (1 + rand_int($MAX_GAP_MINUTES));
	}
}
print join("\t", @$_[1 .. $#$_]), "\n" for sort { $a->[0] <=> $b->[0] || $a->[1] <=> $b->[1] } @out;
