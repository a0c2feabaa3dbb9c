#!/usr/bin/perl
# gen_zh_mainland.pl: the frozen Taiwan/Hong Kong-to-mainland Chinese table
# behind chinese => 'mainland' (src/core/zh_mainland_data.c), made from
# OpenCC's dictionaries.
#
#   perl scripts/gen_zh_mainland.pl --import
#       dumps the seven dictionaries of the installed OpenCC data package
#       (Debian libopencc-data, with opencc_dict) into data/opencc/*.txt,
#       sorted, and records the package's version in data/opencc/SOURCE.
#       Only for a new table: 'mainland' itself never changes (see below).
#   perl scripts/gen_zh_mainland.pl
#       reads data/opencc/*.txt and writes data/opencc/mainland.tsv (the
#       merged table, one "key<TAB>value" a line) and
#       src/core/zh_mainland_data.c.  Both are committed; the C file carries
#       the SHA-256 of mainland.tsv, which test/unit checks and which is part
#       of the pipeline identity of every fingerprint made with the table.
#
# Stored fingerprints depend on every entry, so the table named 'mainland' is
# frozen: a table made from other OpenCC data would come under a new name.
#
# The merged table is what OpenCC's tw2sp and hk2s chains give for each key
# on its own: first the Taiwan and Hong Kong group (TWPhrasesRev,
# TWVariantsRevPhrases, TWVariantsRev, HKVariantsRevPhrases, HKVariantsRev:
# regional words and variant characters to OpenCC's standard Traditional),
# then the Traditional-to-Simplified group (TSPhrases, TSCharacters); in a
# group, at each position the first dictionary with a match gives its longest
# match, and the first of several candidate values is taken.  textfp applies
# the merged table by maximum forward matching over the whole text (the
# longest key at each position wins), where OpenCC segments the text with
# TSPhrases first and runs each group over each segment: the two can differ
# where keys of different dictionaries overlap.  Keys and values are put in
# the pipeline's normal form (NFKC, case folded: "SQL隱碼攻擊" matches
# "sql隱碼攻擊"); single characters that map to themselves are left out.
use strict;
use warnings;
use utf8;
use FindBin;
use Digest::SHA qw(sha256_hex);
use Unicode::Normalize qw(NFKC);
use feature 'fc';

my $root = "$FindBin::Bin/..";
my $data = "$root/data/opencc";
my @regional = qw(TWPhrasesRev TWVariantsRevPhrases TWVariantsRev HKVariantsRevPhrases HKVariantsRev);
my @simplify = qw(TSPhrases TSCharacters);
my $name = 'opencc-1.1.6-tw-hk-mainland';

if (@ARGV && $ARGV[0] eq '--import') {
	my $ver = `dpkg-query -W -f='\${Version}' libopencc-data`;
	die "libopencc-data is not installed\n" if $? != 0;
	for my $d (@regional, @simplify) {
		my $tmp = "$data/$d.tmp";
		system('opencc_dict', '-i', "/usr/share/opencc/$d.ocd2", '-o', $tmp, '-f', 'ocd2', '-t', 'text') == 0
			or die "opencc_dict $d failed\n";
		open(my $in, '<:raw', $tmp) or die "$tmp: $!";
		my @lines = sort <$in>;
		close $in;
		unlink $tmp;
		open(my $out, '>:raw', "$data/$d.txt") or die "$d.txt: $!";
		print $out @lines;
		close $out;
	}
	open(my $s, '>', "$data/SOURCE") or die "SOURCE: $!";
	print $s "Debian libopencc-data $ver: /usr/share/opencc/<name>.ocd2 dumped with opencc_dict -f ocd2 -t text, lines sorted\n";
	close $s;
	exit 0;
}

# name => { key => first value }, keys in the files' own form
my %dict;
for my $d (@regional, @simplify) {
	open(my $fh, '<:encoding(UTF-8)', "$data/$d.txt") or die "$d.txt: $!";
	while (my $line = <$fh>) {
		chomp $line;
		my ($k, $v) = split /\t/, $line, 2;
		die "$d.txt: bad line \"$line\"\n" unless defined $v && $k ne '' && $v ne '';
		($v) = split / /, $v;
		die "$d.txt: \"$k\" twice\n" if exists $dict{$d}{$k};
		$dict{$d}{$k} = $v;
	}
	close $fh;
}
my %maxlen;
for my $d (keys %dict) {
	$maxlen{$d} = 0;
	for (keys %{$dict{$d}}) { $maxlen{$d} = length if length > $maxlen{$d} }
}

# OpenCC's conversion of a string by a group of dictionaries.
sub convert_group {
	my ($s, @group) = @_;
	my $out = '';
	my $i = 0;
	while ($i < length $s) {
		my $done = 0;
	DICT:
		for my $d (@group) {
			for (my $l = $maxlen{$d}; $l >= 1; $l--) {
				next if $i + $l > length $s;
				my $v = $dict{$d}{substr($s, $i, $l)};
				if (defined $v) {
					$out .= $v;
					$i += $l;
					$done = 1;
					last DICT;
				}
			}
		}
		next if $done;
		$out .= substr($s, $i, 1);
		$i++;
	}
	return $out;
}

sub normal { return NFKC(fc(NFKC($_[0]))) }

my %table;
my ($same, $collide) = (0, 0);
for my $d (@regional, @simplify) {
	for my $k (sort keys %{$dict{$d}}) {
		my $nk = normal($k);
		my $v = normal(convert_group(convert_group($k, @regional), @simplify));
		if (length($nk) == 1 && $v eq $nk) {
			$same++;
			next;
		}
		die "key \"$k\" has no character beyond ASCII\n" unless $nk =~ /[^\x00-\x7f]/;
		if (exists $table{$nk}) {
			die "\"$k\" normalises to \"$nk\", which maps to two values\n" if $table{$nk} ne $v;
			$collide++;
			next;
		}
		$table{$nk} = $v;
	}
}

# Maximum forward matching over %table, as the C code does it.
my $table_max = 0;
sub table_max { $table_max = 0; for (keys %table) { $table_max = length if length > $table_max } }
sub convert_table {
	my ($s) = @_;
	my ($out, $i) = ('', 0);
	while ($i < length $s) {
		my $l = $table_max < length($s) - $i ? $table_max : length($s) - $i;
		for (; $l >= 1; $l--) {
			last if exists $table{substr($s, $i, $l)};
		}
		if ($l >= 1) {
			$out .= $table{substr($s, $i, $l)};
			$i += $l;
		}
		else {
			$out .= substr($s, $i, 1);
			$i++;
		}
	}
	return $out;
}

# Every value must convert to itself, so that text already in mainland form
# is left as it is: OpenCC's Taiwan table reads 程序 as Taiwan's word for a
# process (進程) and 文件 as a document (文檔), but 程序 and 文件 are also
# what it makes of Taiwan's 程式 and 檔案, and mainland text is full of
# them.  A value that would change becomes a key of its own that maps to
# itself (a single character: its entry goes), until none changes.
my $protected = 0;
for (my $round = 0;; $round++) {
	die "the table does not settle\n" if $round == 20;
	table_max();
	my @fix = grep { convert_table($table{$_}) ne $table{$_} } sort keys %table;
	last unless @fix;
	for my $k (@fix) {
		my $v = $table{$k};
		next if exists $table{$v} && $table{$v} eq $v;
		if (length($v) == 1) { delete $table{$v} } else { $table{$v} = $v }
		$protected++;
	}
}

# the merged table, canonical: lines sorted by the key's UTF-8 bytes
my @keys = sort { my ($x, $y) = ($a, $b); utf8::encode($x); utf8::encode($y); $x cmp $y } keys %table;
my $tsv = '';
$tsv .= "$_\t$table{$_}\n" for @keys;
my $tsv_bytes = $tsv;
utf8::encode($tsv_bytes);
open(my $t, '>:raw', "$data/mainland.tsv") or die "mainland.tsv: $!";
print $t $tsv_bytes;
close $t;
my $sha = sha256_hex($tsv_bytes);

# entries by first code point, then longest key first (the first that
# matches is the longest), then key bytes
my @entries = map {
	my ($k, $v) = ($_, $table{$_});
	my ($kb, $vb) = ($k, $v);
	utf8::encode($kb);
	utf8::encode($vb);
	die "key or value longer than 255 bytes\n" if length($kb) > 255 || length($vb) > 255;
	{ first => ord($k), key => $kb, value => $vb, chars => length($k) }
} @keys;
@entries = sort { $a->{first} <=> $b->{first} || length($b->{key}) <=> length($a->{key}) || $a->{key} cmp $b->{key} } @entries;

my ($pool, @firsts, @bitmap) = ('');
my ($max_key, $growth) = (0, 1);
@bitmap = (0) x 1024;
sub c_string {
	my ($b) = @_;
	(my $s = $b) =~ s/(["\\])/\\$1/g;
	return "\"$s\"";
}
my @entry_lines;
my @pool_lines;
for my $i (0 .. $#entries) {
	my $e = $entries[$i];
	my $koff = length $pool;
	$pool .= $e->{key};
	my $voff = length $pool;
	$pool .= $e->{value};
	push @pool_lines, "\t" . c_string($e->{key}) . ' ' . c_string($e->{value});
	push @entry_lines, sprintf("\t{%d, %d, %d, %d},", $koff, $voff, length $e->{key}, length $e->{value});
	$max_key = length $e->{key} if length $e->{key} > $max_key;
	my $g = int((length($e->{value}) + length($e->{key}) - 1) / length($e->{key}));
	$growth = $g if $g > $growth;
	if (!@firsts || $firsts[-1][0] != $e->{first}) {
		push @firsts, [$e->{first}, $i, 0];
		$bitmap[$e->{first} >> 6] |= 1 << ($e->{first} & 63) if $e->{first} < 0x10000;
	}
	$firsts[-1][2]++;
}
my $digest64 = substr($sha, 0, 16);

my $c = '';
$c .= "/*\n * zh_mainland_data.c: the frozen table of chinese => 'mainland' (generated by\n";
$c .= " * scripts/gen_zh_mainland.pl from data/opencc/; do not edit).\n *\n";
$c .= " * $name: OpenCC 1.1.6's Taiwan and Hong Kong phrase and variant\n";
$c .= " * dictionaries and its Traditional-to-Simplified ones (Apache-2.0, see\n";
$c .= " * data/opencc/LICENSE), merged into " . scalar(@entries) . " keys.  SHA-256 of\n";
$c .= " * data/opencc/mainland.tsv: $sha.\n */\n";
$c .= "#include \"tfp_zh.h\"\n\n";
$c .= "static const char pool[] =\n" . join("\n", @pool_lines) . ";\n\n";
$c .= "static const tfp_zh_entry entries[] = {\n" . join("\n", @entry_lines) . "\n};\n\n";
$c .= "static const tfp_zh_first firsts[] = {\n";
$c .= sprintf("\t{0x%X, %d, %d},\n", @$_) for @firsts;
$c .= "};\n\n";
$c .= "static const uint64_t bmp_starts[1024] = {\n";
for (my $i = 0; $i < 1024; $i += 4) {
	$c .= "\t" . join(', ', map { sprintf('UINT64_C(0x%016X)', $_) } @bitmap[$i .. $i + 3]) . ",\n";
}
$c .= "};\n\n";
$c .= "const tfp_zh_table tfp_zh_mainland_table = {\n";
$c .= "\t\"$name\",\n\t\"$sha\",\n\tUINT64_C(0x$digest64),\n";
$c .= "\tpool, sizeof(pool) - 1,\n\tentries, " . scalar(@entries) . ",\n\tfirsts, " . scalar(@firsts) . ",\n";
$c .= "\tbmp_starts,\n\t$max_key,\t\t\t\t\t\t/* bytes of the longest key */\n";
$c .= "\t$growth\t\t\t\t\t\t/* most output bytes per input byte */\n};\n";
open(my $out, '>:raw', "$root/src/core/zh_mainland_data.c") or die "zh_mainland_data.c: $!";
print $out $c;
close $out;
printf STDERR "%d keys (%d single characters that map to themselves left out, %d duplicates after normalising, %d values protected), longest key %d bytes, growth %d, sha256 %s\n",
	scalar(@entries), $same, $collide, $protected, $max_key, $growth, $sha;
