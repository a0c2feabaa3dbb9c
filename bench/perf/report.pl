#!/usr/bin/perl
# report.pl: the Markdown report of one simhash cost run, from the raw files run.sh wrote.
#
# Reads OUTDIR/meta.txt (key<TAB>value), OUTDIR/corpus.tsv and OUTDIR/results.tsv (both
# with a header line, as bench.sql writes them).  Per language and method: the median
# execution time over the measured rounds (round 0, the warm-up, is left out), that per
# row in microseconds, throughput, and the ratios of the medians to to_tsvector('simple')
# and to md5, which ran side by side in the same rounds.  Then whether the target
# "simhash(text) no slower than to_tsvector('simple', text)" holds, per language.  Then the
# MinHash constructors next to simhash(body): minhash(body) (one-permutation hashing), the
# k-hash reference (method => 'kperm'), k = 256, and the signing step alone on the stored
# shingle arrays (input 'sh'), with the targets "minhash(body) at most 1.5x simhash(body)"
# and "minhash at least 10x faster than kperm", as ratios of medians and min/median/max of
# the per-round ratios.  (Runs from before the MinHash expressions have none of this.)
#
# Core Perl only.  Usage: perl bench/perf/report.pl OUTDIR

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpBench qw(read_tsv median);
use utf8;

binmode STDOUT, ':encoding(UTF-8)';

my $dir = shift // die "usage: $0 OUTDIR\n";

my $TSVECTOR = q{to_tsvector('simple', body)};
my $MD5      = 'md5(body)';
my $SIMHASH  = 'simhash(body)';
my $MINHASH  = 'minhash(body)';
my $KPERM    = q{minhash(body, method => 'kperm')};
my $MINHASH256 = 'minhash(body, k => 256)';
my $SH_FLOOR = 'cardinality(sh)';
my $SH_OPH   = 'minhash(sh)';
my $SH_KPERM = q{minhash(sh, method => 'kperm')};
my %LANG_NAME = (en => 'English', zh => 'Chinese');

my %meta;
open my $mfh, '<:encoding(UTF-8)', "$dir/meta.txt" or die "$dir/meta.txt: $!\n";
while (<$mfh>) {
	chomp;
	my ($k, $v) = split /\t/, $_, 2;
	$meta{$k} = $v if defined $v;
}
close $mfh;

my %corpus = map { $_->{lang} => $_ } read_tsv("$dir/corpus.tsv");

# lang -> method -> [ms...], for the CPU time and the wall clock; method order as bench.sql
# numbers them.  CPU time is the main measure when the kernel gave it.
my (%cpu, %wall, %ord, %evaluated, %by_round, %input);
my $rounds = 0;
for my $r (read_tsv("$dir/results.tsv")) {
	$ord{$r->{method}} = $r->{ord};
	# input: 'body' (bench_<lang>) or 'sh' (bench_<lang>_sh, stored shingle arrays)
	$input{$r->{method}} = (defined $r->{input} && length $r->{input}) ? $r->{input} : 'body';
	next if $r->{round} == 0;
	$rounds = $r->{round} if $r->{round} > $rounds;
	push @{$wall{$r->{lang}}{$r->{method}}}, $r->{ms};
	push @{$cpu{$r->{lang}}{$r->{method}}}, $r->{cpu_ms}
		if defined $r->{cpu_ms} && length $r->{cpu_ms};
	$by_round{$r->{lang}}{$r->{method}}{$r->{round}} = (defined $r->{cpu_ms} && length $r->{cpu_ms}) ? $r->{cpu_ms} : $r->{ms};
	$evaluated{$r->{lang}}{$r->{rows_evaluated}}++;
}
die "no measured rounds in $dir/results.tsv\n" unless $rounds;
my @all_methods = sort { $ord{$a} <=> $ord{$b} } keys %ord;
# the main table: expressions of body; those of the shingle arrays are in the MinHash section
my @methods = grep { $input{$_} eq 'body' } @all_methods;
my $have_cpu = %cpu ? 1 : 0;
my %main = $have_cpu ? %cpu : %wall;
my $main_name = $have_cpu ? 'CPU' : 'wall';

my @notes;
my $build = ($meta{commit} ? "commit `$meta{commit}`" : 'no git commit')
	. (($meta{src_changes} // 0) ? " plus $meta{src_changes} uncommitted change(s) under src/" : '')
	. ($meta{textfp_so} ? ", textfp.so md5 `$meta{textfp_so}`" : '');
push @notes, "textfp.so was reinstalled during the run (md5 `$meta{textfp_so}` at start, "
	. "`$meta{textfp_so_end}` at end): the timing session keeps the library it loaded in its "
	. "warm-up round, but profiles may have used the new one"
	if $meta{textfp_so_end} && $meta{textfp_so} && $meta{textfp_so} ne $meta{textfp_so_end};

print "Run of $meta{date}, `bench/perf/run.sh` (ROUNDS=$meta{rounds}, ROWS=$meta{rows_target}), $build.\n\n";
print "- Machine: $meta{cpu}, nproc $meta{nproc}, $meta{mem}; $meta{kernel}; load average ",
	"$meta{load} at start", ($meta{load_end} ? ", $meta{load_end} at end" : ''), "\n";
print "- Server: $meta{server}, database encoding UTF8, locale $meta{locale}, ",
	"shared_buffers $meta{shared_buffers}, jit off, max_parallel_workers_per_gather 0\n";
print "- Method: one session; EXPLAIN (ANALYZE, TIMING OFF) of ",
	"`SELECT count(*) FROM bench_<lang> WHERE <expr> IS NOT NULL`; 1 warm-up round, then ",
	"$rounds measured rounds, expressions interleaved in an order rotated each round; ",
	"median of the rounds. ",
	($have_cpu
		? "CPU = the backend's on-CPU time over the query (/proc/self/schedstat), "
			. "wall = EXPLAIN's Execution Time; ratios and us/row are from CPU time\n"
		: "wall = EXPLAIN's Execution Time (no CPU time available)\n");
print "- Note: $_\n" for @notes;
print "\n";

my $have_sh = grep { defined $_->{mean_shingles} && length $_->{mean_shingles} } values %corpus;
print "| corpus | rows (unique x copies) | total MB | mean chars/row | mean bytes/row | chars/row min..max |",
	($have_sh ? " mean shingles/row | shingles/row min..max |" : ''), "\n";
print "|---|---:|---:|---:|---:|---:|", ($have_sh ? "---:|---:|" : ''), "\n";
for my $lang (sort keys %corpus) {
	my $c = $corpus{$lang};
	printf "| %s (%s) | %d (%d x %d) | %.1f | %.0f | %.0f | %d..%d |",
		$LANG_NAME{$lang} // $lang, $lang, $c->{rows_total}, $c->{rows_unique}, $c->{copies},
		$c->{bytes_total} / 1e6, $c->{mean_chars}, $c->{mean_bytes}, $c->{min_chars}, $c->{max_chars};
	printf " %.0f | %d..%d |", $c->{mean_shingles}, $c->{min_shingles}, $c->{max_shingles} if $have_sh;
	print "\n";
}
print "\n";

my (%verdict, %verdict_wall, %verdict_range);
for my $lang (sort keys %main) {
	my $c = $corpus{$lang};
	my %med = map { $_ => median(@{$main{$lang}{$_}}) } keys %{$main{$lang}};
	my %wmed = map { $_ => median(@{$wall{$lang}{$_}}) } keys %{$wall{$lang}};
	print "**$LANG_NAME{$lang} ($lang)**, $c->{rows_total} rows, ",
		sprintf('%.1f', $c->{bytes_total} / 1e6), " MB\n\n";
	print "| expression | $main_name ms | us/row | MB/s | x to_tsvector('simple') | x md5 | ",
		"$main_name min..max ms", ($have_cpu ? " | wall ms | wall x to_tsvector" : ''), " |\n";
	print "|---|---:|---:|---:|---:|---:|---:|", ($have_cpu ? "---:|---:|" : ''), "\n";
	for my $m (@methods) {
		next unless defined $med{$m};
		my @v = sort { $a <=> $b } @{$main{$lang}{$m}};
		printf "| `%s` | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f..%.1f |",
			$m, $med{$m}, 1000 * $med{$m} / $c->{rows_total},
			($c->{bytes_total} / 1e6) / ($med{$m} / 1000),
			$med{$m} / $med{$TSVECTOR}, $med{$m} / $med{$MD5}, $v[0], $v[-1];
		printf " %.1f | %.2f |", $wmed{$m}, $wmed{$m} / $wmed{$TSVECTOR} if $have_cpu;
		print "\n";
	}
	print "\n";
	$verdict{$lang} = $med{$SIMHASH} / $med{$TSVECTOR};
	$verdict_wall{$lang} = $wmed{$SIMHASH} / $wmed{$TSVECTOR};
	my $br = $by_round{$lang};
	my @per_round = sort { $a <=> $b } map { $br->{$SIMHASH}{$_} / $br->{$TSVECTOR}{$_} } keys %{$br->{$SIMHASH}};
	$verdict_range{$lang} = [$per_round[0], $per_round[-1]];
	my @ev = keys %{$evaluated{$lang}};
	warn "report.pl: $lang: scans evaluated differing row counts (@ev)\n" if @ev != 1;
	warn "report.pl: $lang: scans evaluated $ev[0] rows, corpus has $c->{rows_total}\n"
		if @ev == 1 && $ev[0] != $c->{rows_total};
}

print "Target \"simhash(text) no slower than to_tsvector('simple', text)\", default options:\n\n";
for my $lang (sort keys %verdict) {
	printf "- %s: %s; simhash / to_tsvector = %.2f (median %s time)%s, per-round ratios %.2f..%.2f\n",
		$LANG_NAME{$lang} // $lang, $verdict{$lang} <= 1.0 ? 'holds' : 'does NOT hold',
		$verdict{$lang}, $main_name, $have_cpu ? sprintf(', %.2f by wall clock', $verdict_wall{$lang}) : '',
		@{$verdict_range{$lang}};
}

# ---------------------------------------------------------------------------
# MinHash constructors next to simhash(body), when the run timed them
# ---------------------------------------------------------------------------

# min, median and max of the per-round ratios num / den (CPU time where there is one)
sub round_ratios {
	my ($lang, $num, $den, $sub) = @_;
	my $br = $by_round{$lang};
	my @r;
	for my $round (keys %{$br->{$num} // {}}) {
		my ($n, $d) = ($br->{$num}{$round}, $br->{$den}{$round});
		next unless defined $d;
		if (defined $sub) {
			my $s = $br->{$sub}{$round} // next;
			($n, $d) = ($n - $s, $d - $s);
		}
		push @r, $n / $d if $d > 0;
	}
	@r = sort { $a <=> $b } @r;
	return @r ? ($r[0], median(@r), $r[-1]) : ();
}

sub fmt_range { return @_ ? sprintf('%.2f / %.2f / %.2f', @_) : 'n/a' }

my @mh_langs = grep { defined $main{$_}{$MINHASH} && defined $main{$_}{$SIMHASH} } sort keys %main;
if (@mh_langs) {
	print "\n### MinHash constructors (k = 128 unless said), next to simhash(body)\n\n";
	print "Same rounds, same session. `sh` is the row's `shingles(body)` stored in a table of its own ",
		"(`bench_<lang>_sh`, same rows), so the `sh` expressions time the signing step alone; ",
		"`cardinality(sh)` is their floor (scan and detoast the array). Ratios are of medians of $main_name ",
		"time; \"per round\" = min / median / max of the ratios within each round.\n\n";
	for my $lang (@mh_langs) {
		my $c = $corpus{$lang};
		my %med = map { $_ => median(@{$main{$lang}{$_}}) } keys %{$main{$lang}};
		print "**$LANG_NAME{$lang} ($lang)**, $c->{rows_total} rows",
			(defined $c->{mean_shingles} ? sprintf(', %.0f shingles per row on average', $c->{mean_shingles}) : ''),
			"\n\n";
		print "| expression | $main_name ms | us/row | x simhash(body) | x minhash(body) | ",
			"x simhash(body), per round | $main_name min..max ms |\n";
		print "|---|---:|---:|---:|---:|---:|---:|\n";
		for my $m ($SIMHASH, grep { $ord{$_} >= $ord{$MINHASH} } @all_methods) {
			next unless defined $med{$m};
			my @v = sort { $a <=> $b } @{$main{$lang}{$m}};
			printf "| `%s` | %.1f | %.1f | %.2f | %.2f | %s | %.1f..%.1f |\n", $m, $med{$m},
				1000 * $med{$m} / $c->{rows_total}, $med{$m} / $med{$SIMHASH}, $med{$m} / $med{$MINHASH},
				fmt_range(round_ratios($lang, $m, $SIMHASH)), $v[0], $v[-1];
		}
		print "\n";
	}

	print "Targets (ratios of medians; per round: min / median / max):\n\n";
	print "| language | target | ratio | per round | holds? |\n|---|---|---:|---:|---|\n";
	for my $lang (@mh_langs) {
		my %med = map { $_ => median(@{$main{$lang}{$_}}) } keys %{$main{$lang}};
		my $L = $LANG_NAME{$lang} // $lang;
		my $r = $med{$MINHASH} / $med{$SIMHASH};
		my @rr = round_ratios($lang, $MINHASH, $SIMHASH);
		printf "| %s | `minhash(body)` / `simhash(body)` at most 1.5 | %.2f | %s | %s |\n", $L, $r,
			fmt_range(@rr), $r <= 1.5 ? (@rr && $rr[-1] > 1.5 ? 'yes (median; not every round)' : 'yes') : '**no**';
		if (defined $med{$KPERM}) {
			$r = $med{$KPERM} / $med{$MINHASH};
			printf "| %s | kperm / oph from text, `minhash(body, method => 'kperm')` / `minhash(body)`, at least 10 | %.2f | %s | %s |\n",
				$L, $r, fmt_range(round_ratios($lang, $KPERM, $MINHASH)), $r >= 10 ? 'yes' : '**no**';
		}
		if (defined $med{$SH_KPERM} && defined $med{$SH_OPH}) {
			$r = $med{$SH_KPERM} / $med{$SH_OPH};
			printf "| %s | kperm / oph, signing alone, `minhash(sh, method => 'kperm')` / `minhash(sh)`, at least 10 | %.2f | %s | %s |\n",
				$L, $r, fmt_range(round_ratios($lang, $SH_KPERM, $SH_OPH)), $r >= 10 ? 'yes' : '**no**';
			if (defined $med{$SH_FLOOR}) {
				my ($n, $d) = ($med{$SH_KPERM} - $med{$SH_FLOOR}, $med{$SH_OPH} - $med{$SH_FLOOR});
				printf "| %s | the same less the floor `cardinality(sh)` from both | %s | %s | (for information) |\n",
					$L, ($d > 0 ? sprintf('%.1f', $n / $d) : 'n/a'),
					fmt_range(round_ratios($lang, $SH_KPERM, $SH_OPH, $SH_FLOOR));
			}
		}
		if (defined $med{$MINHASH256}) {
			printf "| %s | k = 256 / k = 128, `minhash(body, k => 256)` / `minhash(body)` (no target) | %.2f | %s | |\n",
				$L, $med{$MINHASH256} / $med{$MINHASH}, fmt_range(round_ratios($lang, $MINHASH256, $MINHASH));
		}
	}
	print "\n";
}

# ---------------------------------------------------------------------------
# profiles (perf report --sort dso,symbol output), when run.sh made them
# ---------------------------------------------------------------------------

# Pipeline stage of a symbol, by name: approximate (inlined code counts where it landed).
my @STAGES = (
	['detoast (pglz)',                   qr/pglz_|toast/],
	['simplify (ICU transliterator)',    qr/Translit|StringMatcher|utrans|Replaceable|UnicodeFilter/],
	['normalise (UTF-8 check, UTF-16, NFKC_CF)', qr/Normalizer2|unorm2|u_strFromUTF8|u_strToUTF8|tfp_normalize|tfp_utf8_valid|ReorderingBuffer/],
	['ICU UnicodeString (transliterator or word break)', qr/UnicodeString/],
	['tokenise: ICU word break',         qr/BreakIterator|BreakEngine|BreakCache|UCharsTrie|DictionaryMatcher|utext_|ubrk_|UnicodeSet|UVector|LanguageBreak/],
	['tokenise: general category + n-grams', qr/\b(classify|next_cp|tfp_is_cjk|starts_push|span_push|emit_ngrams|tfp_tokenize|tokenize_\w+|u_charType\w*)\b/],
	['stopword lookup (hashing excluded)', qr/tfp_stopset_contains|drop_stopwords/],
	['MinHash signing (OPH bins and densification, k-hash loop)', qr/tfp_minhash|mix64/],
	['shingle set: sort and dedupe',     qr/tfp_sort_unique|cmp_u64/],
	['tfp_hash (XXH3: stopword lookups and features)', qr/tfp_hash|XXH/],
	['simhash accumulate',               qr/tfp_simhash_|tfp_feature_weight_fixed/],
	['feature loop (tfp_extract)',       qr/tfp_extract|dedupe_/],
	['to_tsvector: parser',              qr/parsetext|TParser|p_is|p_iseq|prs_|hlparse|char2wchar|mbsrtowcs|mbstowcs|gconv|isw\w+|towlower|wchar2char|pg_mb|pg_utf/],
	['to_tsvector: lexize + tsvector',   qr/lowerstr|str_tolower|dsimple|LexizeExec|make_tsvector|uniqueWORD|qsort|compareWORD|tsCompareString/],
	['memory, libc copies and compares', qr/AllocSet|palloc|pfree|malloc|_int_free|_int_malloc|\bfree\b|memmove|memcpy|memset|memcmp|cfree|MemoryContext/],
	['kernel',                           qr/^\[k\]/],
);

sub stage_of {
	my ($kind, $sym) = @_;
	return 'kernel' if $kind eq 'k';
	for my $s (@STAGES) {
		return $s->[0] if $sym =~ $s->[1];
	}
	return 'other (executor, libc, unresolved)';
}

my @profiles = sort glob("$dir/profile-*.txt");
@profiles = grep { !/-dso\.txt$/ } @profiles;
if (@profiles) {
	print "\n### Profiles (perf, cpu-clock at 999 Hz, one backend, ",
		"$meta{profile_seconds} s each over the unique rows)\n";
}
for my $path (@profiles) {
	my ($name) = $path =~ /profile-(.+)\.txt$/;
	open my $fh, '<', $path or die "$path: $!\n";
	my ($samples, @syms, %stage);
	while (<$fh>) {
		$samples = $1 if /^# Samples: (\S+)/;
		next unless /^\s+([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*(?:-\s+-\s*)?$/;
		my ($pct, $dso, $kind, $sym) = ($1, $2, $3, $4);
		push @syms, [$pct, $dso, $sym];
		$stage{stage_of($kind, $sym)} += $pct;
	}
	close $fh;
	print "\n**$name** ($samples samples)\n\n";
	print "| stage (by symbol name) | % |\n|---|---:|\n";
	for my $s (sort { $stage{$b} <=> $stage{$a} } keys %stage) {
		printf "| %s | %.1f |\n", $s, $stage{$s} if $stage{$s} >= 0.05;
	}
	print "\n| % | library | top symbols |\n|---:|---|---|\n";
	for my $s (@syms[0 .. ($#syms < 11 ? $#syms : 11)]) {
		(my $sym = $s->[2]) =~ s/\|/\\|/g;
		printf "| %.1f | %s | `%s` |\n", $s->[0], $s->[1], $sym;
	}
}
