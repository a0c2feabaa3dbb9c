#!/usr/bin/perl
# make_excerpts.pl: a labeled set of excerpts made of real text from Debian packages, as COPY text.
#
#   original    a section of a manual: English from the Debian Edu bookworm and ITIL manuals
#               (debian-edu-doc-en, debian-edu-doc-legacy-en), Chinese from their Simplified Chinese
#               translations (debian-edu-doc-zh-cn, debian-edu-doc-legacy-zh-cn); 80 to 1,500 words or
#               200 to 3,000 characters
#   composite   a passage of 25% to 60% of one original (a random start, cut at words or characters),
#               with light edits (a typo every ~80 words, some punctuation changed), inside host text at
#               a random offset, with a byline; the host is other real text (English: the Rosegarden and
#               Audacity manuals and the licenses in /usr/share/common-licenses; Chinese: the Debian
#               New Maintainers' Guide, maint-guide-zh-cn, and the Rosegarden and Audacity manuals in
#               Chinese) of 1 to 3 times the original's length
#   standalone  the same kind of passage on its own with a byline: an article that is itself an excerpt
#               of a longer original
#   site        boilerplate-heavy hard negatives: 12 sites per language, each with a header and a footer
#               of real text (English: paragraphs of the GPL and Apache licenses; Chinese: paragraphs of
#               maint-guide-zh-tw) around a short article of host text of its own (no two site articles
#               share content), so every pair of one site shares only its boilerplate
#
# Positive pairs (contained, container): (original, composite) and (standalone, original), by src.
# Hosts and site contents come from the other half of the host paragraphs, so they never share text.
#
# Output, tab-separated, COPY text, no header:  id  lang  kind  src  site  frac  body
# Usage: perl bench/excerpts/make_excerpts.pl [seed] > excerpts.tsv   (a summary goes to stderr)

use strict;
use warnings;
use utf8;
use FindBin;
use IO::Uncompress::Gunzip qw(gunzip $GunzipError);
use lib "$FindBin::Bin/../../scripts";
use TextfpHtml qw(html_sections html_to_text read_utf8);
use TextfpCorpus qw(seed_rng rnd rand_int pick shuffled han_ratio copy_escape);

binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

seed_rng($ARGV[0] // 22);

my $DOC = '/usr/share/doc';
my %LIMITS = (max_chars => 12000, min_chars => { en => 400, zh => 200 });

# Lengths: English in words, Chinese in characters (spaces kept, so Latin words inside stay apart).
sub units {
	my ($lang, $s) = @_;
	return $lang eq 'en' ? [split /\s+/, $s] : [split //, $s];
}
sub join_units { my ($lang, $u) = @_; return join($lang eq 'en' ? ' ' : '', @$u); }

# Sections of HTML books, without copyright and licence sections (they quote the GPL, which is host text).
sub bodies {
	my ($lang, @files) = @_;
	return map { $_->{body} } grep { $_->{title} !~ /licen[cs]e|copyright|版权|许可|授权/i && $_->{body} !~ /free software/i }
		html_sections($lang, 'x', \%LIMITS, @files);
}

my %orig = (
	en => [bodies('en', "$DOC/debian-edu-doc-en/debian-edu-bookworm-manual.html",
		"$DOC/debian-edu-doc-legacy-en/debian-edu-itil-manual.html")],
	zh => [bodies('zh', "$DOC/debian-edu-doc-zh-cn/debian-edu-bookworm-manual.html",
		"$DOC/debian-edu-doc-legacy-zh-cn/debian-edu-itil-manual.html")],
);
my %host = (
	en => [map { split /\n/ } bodies('en', "$DOC/debian-edu-doc-legacy-en/rosegarden-manual.html",
		"$DOC/debian-edu-doc-legacy-en/audacity-manual.html")],
	zh => [map { split /\n/ } bodies('zh', glob("$DOC/maint-guide-zh-cn/html/*.html"),
		"$DOC/debian-edu-doc-legacy-zh-cn/rosegarden-manual.html",
		"$DOC/debian-edu-doc-legacy-zh-cn/audacity-manual.html")],
);
# the licenses, paragraph by paragraph, as more English host text and the English footers
my @license;
for my $f (qw(GPL-3 Apache-2.0 GFDL-1.3 LGPL-3 MPL-2.0 Artistic)) {
	my $t = read_utf8("/usr/share/common-licenses/$f");
	push @license, grep { length($_) > 120 } map { s/\s+/ /gr =~ s/^ | $//gr } split /\n\s*\n/, $t;
}
my @zh_footer = map { split /\n/ } bodies('zh', glob("$DOC/maint-guide-zh-tw/html/*.html"));
@zh_footer = grep { length($_) > 40 && length($_) < 200 } @zh_footer;

# Originals: long enough to excerpt, capped; English ones without Han, Chinese ones translated.
for my $lang (qw(en zh)) {
	my ($lo, $hi) = $lang eq 'en' ? (80, 1500) : (200, 3000);
	$orig{$lang} = [grep { my $n = @{units($lang, $_)}; $n >= $lo } @{$orig{$lang}}];
	for (@{$orig{$lang}}) {
		my $u = units($lang, $_);
		$_ = join_units($lang, [@$u[0 .. $hi - 1]]) if @$u > $hi;
	}
	$host{$lang} = [grep { $lang eq 'en' ? han_ratio($_) == 0 : han_ratio($_) >= 0.5 } @{$host{$lang}}];
}
push @{$host{en}}, @license[0 .. int(@license / 2) - 1];
my @en_footer = @license[int(@license / 2) .. $#license];

my %BYLINE = (
	en => ['By our staff reporter.', 'From our correspondent:', 'Reported by the news desk.', 'Guest column.'],
	zh => ['（本报记者 王明 报道）', '本报讯', '（通讯员 李华）', '【专栏】'],
);

# Light edits: a typo every ~80 words (a letter dropped), some commas and full stops changed.
sub light_edit {
	my ($lang, $s) = @_;
	if ($lang eq 'en') {
		my @w = split / /, $s;
		for my $i (0 .. $#w) {
			$w[$i] = substr($w[$i], 0, 2) . substr($w[$i], 3) if length $w[$i] > 4 && rnd() < 1 / 80;
		}
		$s = join ' ', @w;
		$s =~ s/,/rnd() < 0.3 ? ';' : ','/ge;
		$s =~ s/\. /rnd() < 0.2 ? '! ' : '. '/ge;
	}
	else {
		$s =~ s/，/rnd() < 0.3 ? '、' : '，'/ge;
		$s =~ s/。/rnd() < 0.2 ? '！' : '。'/ge;
	}
	return $s;
}

# A passage of frac of the original, starting at random.
sub passage {
	my ($lang, $body, $frac) = @_;
	my $u = units($lang, $body);
	my $len = int(@$u * $frac + 0.999);
	my $start = rand_int(@$u - $len + 1);
	return join_units($lang, [@$u[$start .. $start + $len - 1]]);
}

# Host text of at least n units from the pool's paragraphs, starting at a random one.
sub host_text {
	my ($lang, $pool, $n) = @_;
	my @out;
	my $have = 0;
	my $i = rand_int(scalar @$pool);
	while ($have < $n) {
		my $p = $pool->[$i++ % @$pool];
		push @out, $p;
		$have += @{units($lang, $p)};
	}
	return @out;
}

my $id = 0;
my %count;
sub emit {
	my ($lang, $kind, $src, $site, $frac, $body) = @_;
	print join("\t", ++$id, $lang, $kind, $src // '\N', $site // '\N',
		defined $frac ? sprintf('%.3f', $frac) : '\N', copy_escape($body)), "\n";
	$count{"$lang $kind"}++;
	return $id;
}

for my $lang (qw(en zh)) {
	my @pool = @{$host{$lang}};
	my @hosts = @pool[grep { $_ % 2 == 0 } 0 .. $#pool];
	my @content_pool = @pool[grep { $_ % 2 == 1 } 0 .. $#pool];
	my $sep = $lang eq 'en' ? "\n" : "\n";
	for my $o (@{$orig{$lang}}) {
		my $oid = emit($lang, 'original', undef, undef, undef, $o);
		my $n = @{units($lang, $o)};
		# inside host text of 1 to 3 times the original's length, at a random paragraph
		my $frac = 0.25 + 0.35 * rnd();
		my @h = host_text($lang, \@hosts, int($n * (1 + 2 * rnd())));
		my $at = rand_int(@h + 1);
		splice @h, $at, 0, light_edit($lang, passage($lang, $o, $frac));
		emit($lang, 'composite', $oid, undef, $frac, join($sep, pick(@{$BYLINE{$lang}}), @h));
		# on its own
		$frac = 0.25 + 0.35 * rnd();
		emit($lang, 'standalone', $oid, undef, $frac,
			join($sep, pick(@{$BYLINE{$lang}}), light_edit($lang, passage($lang, $o, $frac))));
	}
	# sites: a header and a footer of real text around short articles of their own
	my @footers = $lang eq 'en' ? @en_footer : @zh_footer;
	for my $s (1 .. 12) {
		my $header = $lang eq 'en'
			? "The Daily Site $s | Home | World | Business | Technology | Science | Sport | Opinion | Contact us"
			: "第${s}日报 | 首页 | 国内 | 国际 | 财经 | 科技 | 体育 | 评论 | 联系我们";
		my $footer = join $sep, map { $footers[($s * 3 + $_) % @footers] } 0 .. 1 + rand_int(2);
		# no paragraph twice in one site (sites may share paragraphs: only pairs of one site count)
		my @contents = shuffled(@content_pool);
		for (1 .. 12) {
			last unless @contents;
			my @body;
			my $want = $lang eq 'en' ? 60 + rand_int(300) : 150 + rand_int(600);
			my $have = 0;
			while ($have < $want && @contents) {
				my $p = shift @contents;
				push @body, $p;
				$have += @{units($lang, $p)};
			}
			emit($lang, 'site', undef, $s, undef, join($sep, $header, @body, $footer));
		}
	}
}
print STDERR join(', ', map { "$_: $count{$_}" } sort keys %count), "\n";
print STDERR "host paragraphs: en ", scalar @{$host{en}}, ", zh ", scalar @{$host{zh}}, "\n";
