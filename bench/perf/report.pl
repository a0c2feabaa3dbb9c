#!/usr/bin/perl
# report.pl: the Markdown report of one simhash cost run, from the raw files run.sh wrote.
#
# Reads OUTDIR/meta.txt (key<TAB>value), OUTDIR/corpus.tsv and OUTDIR/results.tsv (both
# with a header line, as bench.sql writes them).  Per language and method: the median
# execution time over the measured rounds (round 0, the warm-up, is left out), that per
# row in microseconds, throughput, and the ratios of the medians to to_tsvector('simple')
# and to md5, which ran side by side in the same rounds.  Then whether the target
# "simhash(text) no slower than to_tsvector('simple', text)" holds, per language.
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
my (%cpu, %wall, %ord, %evaluated, %by_round);
my $rounds = 0;
for my $r (read_tsv("$dir/results.tsv")) {
	$ord{$r->{method}} = $r->{ord};
	next if $r->{round} == 0;
	$rounds = $r->{round} if $r->{round} > $rounds;
	push @{$wall{$r->{lang}}{$r->{method}}}, $r->{ms};
	push @{$cpu{$r->{lang}}{$r->{method}}}, $r->{cpu_ms}
		if defined $r->{cpu_ms} && length $r->{cpu_ms};
	$by_round{$r->{lang}}{$r->{method}}{$r->{round}} = (defined $r->{cpu_ms} && length $r->{cpu_ms}) ? $r->{cpu_ms} : $r->{ms};
	$evaluated{$r->{lang}}{$r->{rows_evaluated}}++;
}
die "no measured rounds in $dir/results.tsv\n" unless $rounds;
my @methods = sort { $ord{$a} <=> $ord{$b} } keys %ord;
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

print "| corpus | rows (unique x copies) | total MB | mean chars/row | mean bytes/row | chars/row min..max |\n";
print "|---|---:|---:|---:|---:|---:|\n";
for my $lang (sort keys %corpus) {
	my $c = $corpus{$lang};
	printf "| %s (%s) | %d (%d x %d) | %.1f | %.0f | %.0f | %d..%d |\n",
		$LANG_NAME{$lang} // $lang, $lang, $c->{rows_total}, $c->{rows_unique}, $c->{copies},
		$c->{bytes_total} / 1e6, $c->{mean_chars}, $c->{mean_bytes}, $c->{min_chars}, $c->{max_chars};
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
