#!/usr/bin/perl
# report.pl OUT_DIR: the quality report (Markdown on stdout) and its plots (gnuplot, SVG in
# OUT_DIR/plots) from the raw results run.sh left in OUT_DIR: score.tsv (pair counts per
# split, options, method, language, pair class and score), corpus.tsv (corpus summary),
# jointime.tsv (self-join times) and meta.txt.  Core Perl and gnuplot.

use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpBench qw(read_tsv);

binmode STDOUT, ':encoding(UTF-8)';
my $out = shift // die "usage: $0 OUT_DIR\n";

my %meta = map { chomp; split /\t/, $_, 2 } do { open my $fh, '<', "$out/meta.txt" or die "$out/meta.txt: $!\n"; <$fh> };

my @KIND = qw(headline boilerplate drop reorder typos width script truncate);
my @LANGS = qw(en zh);
my %LANG = (en => 'English', zh => 'Chinese');
my %METHOD = (simhash => 'SimHash', minhash => 'MinHash', trgm => 'pg_trgm similarity');

sub cls_name {
	my ($c) = @_;
	return 'unrelated' if $c == -1;
	return 'combo' if $c == 1;
	return 'copy-copy' if $c == 2;
	return $KIND[int($c / 10) - 1] . ' ' . ($c % 10);
}

# counts{split}{cfg}{method}{lang}{cls}[s], scale{method}{cfg}
my (%cnt, %scale);
for my $r (read_tsv("$out/score.tsv")) {
	$cnt{$r->{split}}{$r->{cfg}}{$r->{method}}{$r->{lang}}{$r->{cls}}[$r->{s}] += $r->{n};
	$scale{$r->{method}}{$r->{cfg}} = $r->{scale};
}

# For one (split, cfg, method, lang): cumulative counts from the top score down.
# Returns a hash: scale, tp[s], fp[s], pos, neg, and per class tp.
sub curves {
	my ($split, $cfg, $method, $lang) = @_;
	my $c = $cnt{$split}{$cfg}{$method}{$lang} or return;
	my $k = $scale{$method}{$cfg};
	my %r = (k => $k, pos => 0, neg => 0);
	my (@tp, @fp, %cls_tp, %cls_n);
	for my $cls (keys %$c) {
		my $acc = 0;
		my @cum;
		for (my $s = $k; $s >= 0; $s--) {
			$acc += $c->{$cls}[$s] // 0;
			$cum[$s] = $acc;
		}
		if ($cls == -1) { @fp = @cum; $r{neg} = $acc; }
		else {
			$tp[$_] += $cum[$_] for 0 .. $k;
			$r{pos} += $acc;
			$cls_tp{$cls} = \@cum;
			$cls_n{$cls} = $acc;
		}
	}
	$fp[$_] //= 0 for 0 .. $k;
	$tp[$_] //= 0 for 0 .. $k;
	@r{qw(tp fp cls_tp cls_n)} = (\@tp, \@fp, \%cls_tp, \%cls_n);
	return \%r;
}

sub prf {
	my ($tp, $fp, $pos) = @_;
	my $p = $tp + $fp ? $tp / ($tp + $fp) : 1;
	my $r = $pos ? $tp / $pos : 0;
	my $f = $p + $r ? 2 * $p * $r / ($p + $r) : 0;
	return ($p, $r, $f);
}

# The threshold a score cut-off means, in the method's own units.
sub threshold_label {
	my ($method, $k, $s) = @_;
	return sprintf('d <= %d', 64 - $s) if $method eq 'simhash';
	return sprintf('J >= %.3f', $s / $k) if $method eq 'minhash';
	return sprintf('sim >= %.2f', $s / 100);
}
sub threshold_value {
	my ($method, $k, $s) = @_;
	return 64 - $s if $method eq 'simhash';
	return sprintf('%.3f', $s / $k) + 0 if $method eq 'minhash';
	return sprintf('%.2f', $s / 100) + 0;
}
# The score cut-off for a setting value: least s with s/k >= t (as textfp and pg_trgm count).
sub cutoff {
	my ($method, $k, $v) = @_;
	return 64 - $v if $method eq 'simhash';
	my $s = int($v * $k);
	$s-- while $s > 0 && ($s - 1) / $k >= $v;
	$s++ while $s / $k < $v - 1e-12;
	return $s;
}

sub pct { return sprintf('%.1f', 100 * $_[0]); }
sub f3 { return sprintf('%.3f', $_[0]); }

# ---------------------------------------------------------------------------
# 1. tuning: per method and option set, the one threshold (for both languages) with the best
#    mean F1
# ---------------------------------------------------------------------------

# The rule: at most $MAX_FP_RATE false pairs per unrelated pair in each language (this set has
# a few hundred thousand pairs a language; a large table's self-join has billions), and for
# SimHash a radius the default GIN index serves with probe keys (it scans the whole index
# from radius 12 with blocks = 4).
my $MAX_FP_RATE = 1e-5;
my $MAX_GIN_RADIUS = 11;
my %best;    # method -> {cfg, s, f1, f_en, f_zh}
my @tune_rows;
for my $method (qw(simhash minhash trgm)) {
	for my $cfg (sort keys %{$scale{$method}}) {
		my %cv = map { $_ => curves('tuning', $cfg, $method, $_) } @LANGS;
		next unless $cv{en} && $cv{zh};
		my $k = $cv{en}{k};
		my ($bs, $bf, @bl) = ($k, -1);
		my ($us, $uf) = (0, -1);
		my %lang_best;
		for my $s (0 .. $k) {
			my @f = map { (prf($cv{$_}{tp}[$s], $cv{$_}{fp}[$s], $cv{$_}{pos}))[2] } @LANGS;
			my $m = ($f[0] + $f[1]) / 2;
			# ties go to the stricter threshold (fewer false pairs on larger tables)
			($us, $uf) = ($s, $m) if $m > $uf + 1e-12;
			my $ok = !grep { $cv{$_}{fp}[$s] > $MAX_FP_RATE * $cv{$_}{neg} } @LANGS;
			$ok &&= 64 - $s <= $MAX_GIN_RADIUS if $method eq 'simhash';
			($bs, $bf, @bl) = ($s, $m, @f) if $ok && $m > $bf + 1e-12;
			for my $i (0, 1) {
				$lang_best{$LANGS[$i]} = [$s, $f[$i]] if !$lang_best{$LANGS[$i]} || $f[$i] > $lang_best{$LANGS[$i]}[1] + 1e-12;
			}
		}
		my $row = { method => $method, cfg => $cfg, k => $k, s => $bs, f1 => $bf, f_en => $bl[0], f_zh => $bl[1],
			us => $us, uf => $uf,
			best_en => $lang_best{en}, best_zh => $lang_best{zh} };
		push @tune_rows, $row;
		$best{$method} = $row if !$best{$method} || $bf > $best{$method}{f1} + 1e-12;
	}
}

# ---------------------------------------------------------------------------
# plots
# ---------------------------------------------------------------------------

mkdir "$out/plots";
my @plots;
sub gnuplot {
	my ($name, $script) = @_;
	open my $gp, '|-', 'gnuplot' or die "gnuplot: $!\n";
	binmode $gp, ':encoding(UTF-8)';
	print $gp "set terminal svg size 900,380 dynamic font 'sans,12'\nset output '$out/plots/$name.svg'\n$script";
	close $gp or die "gnuplot failed for $name\n";
	push @plots, $name;
}

# Reporting split, default options: score distributions and precision/recall curves.
for my $method (qw(simhash minhash trgm)) {
	my $cfg = $method eq 'trgm' ? 'trgm' : 'default';
	my (@dist, @pr);
	for my $lang (@LANGS) {
		my $cv = curves('reporting', $cfg, $method, $lang) or next;
		my $k = $cv->{k};
		my $c = $cnt{reporting}{$cfg}{$method}{$lang};
		open my $d, '>', "$out/plots/$method-$lang.dat" or die;
		for my $s (0 .. $k) {
			my $pos = 0;
			$pos += $c->{$_}[$s] // 0 for grep { $_ != -1 } keys %$c;
			my $neg = $c->{-1}[$s] // 0;
			my ($p, $r) = prf($cv->{tp}[$s], $cv->{fp}[$s], $cv->{pos});
			my $x = $method eq 'simhash' ? 64 - $s : $s / $k;
			printf $d "%s %.6g %.6g %.6f %.6f\n", $x, $cv->{pos} ? $pos / $cv->{pos} : 0,
				$cv->{neg} ? $neg / $cv->{neg} : 0, $p, $r;
		}
		close $d;
	}
	my $xl = $method eq 'simhash' ? 'Hamming distance (bits)' : $method eq 'minhash' ? 'estimated Jaccard similarity' : 'pg_trgm similarity';
	my $thr = $method eq 'simhash' ? 'threshold: distance <= x' : 'threshold: similarity >= x';
	my $f = "$out/plots/$method";
	gnuplot("dist-$method", <<"GP");
set title "$METHOD{$method}: share of pairs at each score (reporting split, default options)"
set xlabel "$xl"
set ylabel "share of pairs (log)"
set logscale y
set yrange [1e-7:1]
set key top center
set grid
plot '$f-en.dat' using 1:(\$2>0?\$2:1/0) with linespoints pt 7 ps 0.4 lc rgb '#1f77b4' title 'en reprints', \\
     '$f-en.dat' using 1:(\$3>0?\$3:1/0) with linespoints pt 6 ps 0.4 lc rgb '#1f77b4' dt 2 title 'en unrelated', \\
     '$f-zh.dat' using 1:(\$2>0?\$2:1/0) with linespoints pt 7 ps 0.4 lc rgb '#d62728' title 'zh reprints', \\
     '$f-zh.dat' using 1:(\$3>0?\$3:1/0) with linespoints pt 6 ps 0.4 lc rgb '#d62728' dt 2 title 'zh unrelated'
GP
	gnuplot("pr-$method", <<"GP");
set title "$METHOD{$method}: precision and recall against the threshold (reporting split)"
set xlabel "$thr"
set ylabel "precision, recall"
set yrange [0:1.02]
set key bottom center
set grid
plot '$f-en.dat' using 1:4 with lines lw 2 lc rgb '#1f77b4' title 'en precision', \\
     '$f-en.dat' using 1:5 with lines lw 2 lc rgb '#1f77b4' dt 2 title 'en recall', \\
     '$f-zh.dat' using 1:4 with lines lw 2 lc rgb '#d62728' title 'zh precision', \\
     '$f-zh.dat' using 1:5 with lines lw 2 lc rgb '#d62728' dt 2 title 'zh recall'
GP
}

# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------

print "## Run\n\n";
printf "%s; %s, %s cores, %s; %s; textfp commit %s; command `%s`; %s s in all.\n\n",
	$meta{date} // '?', $meta{cpu} // '?', $meta{nproc} // '?', $meta{mem} // '?', $meta{server} // '?',
	$meta{commit} // '?', $meta{command} // 'bash bench/quality/run.sh', $meta{elapsed_s} // '?';

print "## The corpus\n\n";
print "| language | split | source | originals | copies | mean characters |\n|---|---|---|---:|---:|---:|\n";
for my $r (read_tsv("$out/corpus.tsv")) {
	print "| $r->{lang} | $r->{split} | $r->{source} | $r->{originals} | $r->{copies} | $r->{mean_chars} |\n";
}
print "\n";
my %pairs;
for my $lang (@LANGS) {
	my $cv = curves('reporting', 'default', 'simhash', $lang) or next;
	$pairs{$lang} = $cv;
}
printf "Reporting split: %s English pairs (%s reprint pairs), %s Chinese pairs (%s reprint pairs).\n\n",
	map { ($pairs{$_}{pos} + $pairs{$_}{neg}, $pairs{$_}{pos}) } @LANGS;

print "## Tuning split: options and thresholds\n\n";
print "For each method and option set, the single threshold (both languages share a setting) with the best mean F1 of\n"
	. "English and Chinese among those with at most $MAX_FP_RATE false pairs per unrelated pair in each language (and,\n"
	. "for SimHash, a radius of at most $MAX_GIN_RADIUS, the largest the default GIN index serves with probe keys); then the\n"
	. "best mean F1 without that rule, and each language's own best. Options not named are the function's 1.0\n"
	. "defaults. The best row under the rule is in bold (docs/quality.md says which defaults follow it, and why not\n"
	. "always).\n\n";
for my $method (qw(simhash minhash trgm)) {
	print "### $METHOD{$method}\n\n";
	print "| options | threshold | F1 mean | F1 en | F1 zh | without the rule (threshold, F1 mean) | best en (threshold, F1) | best zh (threshold, F1) |\n|---|---|---:|---:|---:|---|---|---|\n";
	for my $r (sort { $b->{f1} <=> $a->{f1} } grep { $_->{method} eq $method } @tune_rows) {
		my $mark = $r == $best{$method} ? '**' : '';
		printf "| %s%s%s | %s | %s | %s | %s | %s, %s | %s, %s | %s, %s |\n", $mark, $r->{cfg}, $mark,
			threshold_label($method, $r->{k}, $r->{s}), f3($r->{f1}), f3($r->{f_en}), f3($r->{f_zh}),
			threshold_label($method, $r->{k}, $r->{us}), f3($r->{uf}),
			threshold_label($method, $r->{k}, $r->{best_en}[0]), f3($r->{best_en}[1]),
			threshold_label($method, $r->{k}, $r->{best_zh}[0]), f3($r->{best_zh}[1]);
	}
	print "\n";
}

# Reporting split at the shipped defaults.
my %default_threshold = (simhash => $meta{hamming_threshold}, minhash => $meta{jaccard_threshold}, trgm => 0.3);
my $trgm_tuned = threshold_value('trgm', 100, $best{trgm}{s});

print "## Reporting split: precision, recall and F1 per threshold\n\n";
print "Default options (functions called with no option), all pairs of one language in the reporting split; a\n"
	. "reprint pair is two texts of one family (original and copy, or two copies).\n\n";
my %grid = (
	simhash => [0 .. 16],
	minhash => [map { $_ / 20 } 2 .. 19],
	trgm    => [map { $_ / 20 } 2 .. 19],
);
for my $method (qw(simhash minhash trgm)) {
	my $cfg = $method eq 'trgm' ? 'trgm' : 'default';
	my %cv = map { $_ => curves('reporting', $cfg, $method, $_) } @LANGS;
	next unless $cv{en} && $cv{zh};
	my $k = $cv{en}{k};
	print "### $METHOD{$method}\n\n";
	print "| threshold | en precision | en recall | en F1 | en false pairs | zh precision | zh recall | zh F1 | zh false pairs |\n"
		. "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
	my @vals = @{$grid{$method}};
	push @vals, $default_threshold{$method} unless grep { $_ == $default_threshold{$method} } @vals;
	push @vals, $trgm_tuned if $method eq 'trgm' && !grep { $_ == $trgm_tuned } @vals;
	for my $v (sort { $a <=> $b } @vals) {
		my $s = cutoff($method, $k, $v);
		my @cells;
		for my $lang (@LANGS) {
			my ($p, $r, $f) = prf($cv{$lang}{tp}[$s], $cv{$lang}{fp}[$s], $cv{$lang}{pos});
			push @cells, f3($p), f3($r), f3($f), $cv{$lang}{fp}[$s];
		}
		my $label = ($method eq 'simhash' ? "d <= $v" : "$v");
		$label = "**$label** (default)" if $v == $default_threshold{$method};
		$label .= ' (tuned)' if $method eq 'trgm' && $v == $trgm_tuned && $v != $default_threshold{$method};
		print "| $label | ", join(' | ', @cells), " |\n";
	}
	print "\n";
}

print "## Reporting split: per edit kind and strength\n\n";
printf "Run: %s; %s, %s cores, load %s; %s; textfp commit %s; command `%s`; %s s in all.\n\n",
	map { $meta{$_} // '?' } qw(date cpu nproc load server commit command elapsed_s);
# The columns: the 1.0 defaults, pg_trgm, the presets at their thresholds (textfp_presets()),
# and the set methods at their documented rules (methods.sql says how each pair is scored).
my @cols = (
	{ name => 'SimHash 1.0', method => 'simhash', cfg => 'default', v => $default_threshold{simhash},
		rule => "`simhash(txt)`, d <= $default_threshold{simhash}" },
	{ name => 'MinHash 1.0', method => 'minhash', cfg => 'default', v => $default_threshold{minhash},
		rule => "`minhash(txt)`, J >= $default_threshold{minhash}" },
	{ name => 'trgm 0.3', method => 'trgm', cfg => 'trgm', v => 0.3, rule => 'pg_trgm `similarity()` >= 0.3, its default' },
	{ name => "trgm $trgm_tuned", method => 'trgm', cfg => 'trgm', v => $trgm_tuned,
		rule => "pg_trgm `similarity()` >= $trgm_tuned, tuned above" },
);
for my $p (-e "$out/presets.tsv" ? do { open my $fh, '<', "$out/presets.tsv" or die; map { chomp; [split /\t/] } <$fh> } : ()) {
	my ($name, $method, $t) = @$p;
	push @cols, { name => $name, method => $method, cfg => "preset $name", v => $t + 0,
		rule => sprintf('`%s(txt, preset => \'%s\'%s)`, %s', $method, $name,
			$name =~ /idf/ ? ', idf => model' : '', $method eq 'simhash' ? "d <= $t" : 'J >= ' . ($t + 0)) };
}
push @cols,
	{ name => 'excerpt', method => 'excerpt', cfg => 'winnow', s => 20,
		rule => '`winnow(txt)`: one text an excerpt of the other, at least 3 shared fingerprints and `containment()` of the smaller in the larger >= 0.2 (docs/excerpts.md)' },
	{ name => 'excerpt, ignore', method => 'excerpt', cfg => 'winnow ignore', s => 20,
		rule => 'the same, with the fingerprints in 20 or more texts of the language and split ignored (the ignore list of docs/excerpts.md; 20 is twice a family: each original and its 8 or 9 copies share most of their fingerprints)' },
	{ name => 'sentence', method => 'sentence', cfg => 'sentence_signature', s => 2,
		rule => '`sentence_signature(txt)`, `signature_overlap() >= 2`' },
	{ name => 'pinyin', method => 'pinyin', cfg => 'pinyin_signature', s => 2,
		rule => '`pinyin_signature(txt)`, `signature_overlap() >= 2` (Chinese only: English gives `\'{}\'`)' };

print "Every pair of one language in the reporting split, scored by each method at its documented threshold:\n\n";
print "- **$_->{name}**: $_->{rule}\n" for @cols;
print "\n";
print "`idf => model` is a model of the texts scored, built per split and language from `simhash_features()` as\n"
	. "bench/presets builds it. A row is the original-copy pairs of one edit kind and strength (strength 1 is light,\n"
	. "3 heavy; the corpus section of docs/quality.md says what each means), then the copy-copy pairs (two copies of one\n"
	. "original) and all reprint pairs. Recall is the share of a row's pairs found; F1 takes as precision the row's\n"
	. "pairs found against the false pairs of the whole split (the last row of the recall table), as if every reprint\n"
	. "in the collection were of that kind.\n\n";

for my $lang (@LANGS) {
	my @c;
	for my $c (@cols) {
		my $cv = curves('reporting', $c->{cfg}, $c->{method}, $lang) or next;
		my $s = $c->{s} // cutoff($c->{method}, $cv->{k}, $c->{v});
		push @c, { %$c, cv => $cv, cut => $s };
	}
	next unless @c;
	my @classes = sort { $a <=> $b } grep { $_ != 2 } keys %{$c[0]{cv}{cls_n}};
	push @classes, 2;
	my $head = '| edit | pairs | ' . join(' | ', map { $_->{name} } @c) . " |\n|---|---:|" . ('---:|' x @c) . "\n";
	for my $what (qw(F1 recall)) {
		print "### $LANG{$lang}: $what\n\n$head";
		for my $cls (@classes, 'all') {
			my ($n, @cells);
			for my $c (@c) {
				my $cv = $c->{cv};
				my ($tp, $pos) = $cls eq 'all' ? ($cv->{tp}[$c->{cut}], $cv->{pos})
					: ($cv->{cls_tp}{$cls}[$c->{cut}], $cv->{cls_n}{$cls});
				$n = $pos;
				my ($p, $r, $f) = prf($tp, $cv->{fp}[$c->{cut}], $pos);
				push @cells, f3($what eq 'F1' ? $f : $r);
			}
			print '| ', ($cls eq 'all' ? 'all reprint pairs' : cls_name($cls)), " | $n | ", join(' | ', @cells), " |\n";
		}
		if ($what eq 'recall') {
			print '| false pairs (of ', $c[0]{cv}{neg}, ' unrelated) | | ', join(' | ', map { $_->{cv}{fp}[$_->{cut}] } @c), " |\n";
		}
		print "\n";
	}
}

print "## Reporting split: self-join time\n\n";
print "Every near pair of one language's reporting texts (`a.id < b.id`), at each method's default threshold\n"
	. "(pg_trgm: the tuned one), with the method's GIN index and without any index (nested loop). Fingerprint\n"
	. "time is computing the column for every text; the index build is separate. pg_trgm without an index is\n"
	. "timed on 40 outer rows and scaled to all pairs; a join that ran past 600 s was stopped (NaN). One run on a\n"
	. "shared 2-core VM: read the ratios, not the last digit.\n\n";
print "| language | method | texts | fingerprint (s) | index build (s) | index size | join with index (s) | pairs found | plan | join without index (s) |\n"
	. "|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n";
for my $r (-e "$out/jointime.tsv" ? read_tsv("$out/jointime.tsv") : ()) {
	printf "| %s | %s | %s | %.2f | %.2f | %s | %.2f | %s | %s | %.2f |\n", $r->{lang}, $METHOD{$r->{method}} . " ($r->{threshold})",
		$r->{texts}, $r->{fp_ms} / 1000, $r->{build_ms} / 1000, $r->{index_size}, $r->{join_ms} / 1000, $r->{pairs},
		$r->{plan}, $r->{seq_ms} / 1000;
}
print "\n## Plots\n\n";
print "![$_](quality/$_.svg)\n\n" for @plots;

# the choices, for run.sh to compare with the shipped defaults
open my $ch, '>', "$out/choice.tsv" or die;
print $ch "method\tcfg\tthreshold\tf1\n";
printf $ch "%s\t%s\t%s\t%.4f\n", $_, $best{$_}{cfg}, threshold_value($_, $best{$_}{k}, $best{$_}{s}), $best{$_}{f1}
	for sort keys %best;
close $ch;
