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
use File::Temp qw(tempfile);
use FindBin;
use lib "$FindBin::Bin/../../scripts";
use TextfpHtml qw(html_to_text read_utf8);
use TextfpCorpus qw(seed_rng rnd rand_int pick shuffled han_ratio cap_paragraphs spread copy_escape);

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
my $FORTUNE_SHARE = 0.25;  # at most this share of the Chinese originals are fortunes-zh records

# the only randomness: TextfpCorpus's LCG, the same on every perl
seed_rng($SEED);

# ---------------------------------------------------------------------------
# originals
# ---------------------------------------------------------------------------

# One original per h2..h4 section of an HTML book: its prose paragraphs, not listings,
# tables or figure titles.
sub html_sections {
	my ($lang, $label, @files) = @_;
	my @articles;
	for my $path (sort @files) {
		my $html = read_utf8($path);
		(my $file = $path) =~ s{.*/}{};
		my (undef, @parts) = split /<h([1-5]) class="title"[^>]*>(.*?)<\/h[1-5]>/s, $html;
		for (my $i = 0; $i + 2 <= $#parts; $i += 3) {
			my ($level, $head_html, $body_html) = @parts[$i .. $i + 2];
			next if $level == 1;
			$body_html =~ s/<pre\b.*?<\/pre>//gs;
			$body_html =~ s/<table\b.*?<\/table>//gs;
			$body_html =~ s/<p class="title">.*?<\/p>//gs;
			# <p> in the Reference, <div class="para"> in the Handbook
			my @paras = grep { length } map { html_to_text($_) } grep { defined }
				($body_html =~ /<p\b[^>]*>(.*?)<\/p>|<div class="para"[^>]*>(.*?)<\/div>/gs);
			@paras = cap_paragraphs($MAX_CHARS, @paras);
			my $body = join "\n", @paras;
			next if length($body) < $MIN_CHARS{$lang};
			next if $lang eq 'zh' && han_ratio($body) < 0.5;   # untranslated sections
			next if $lang eq 'en' && han_ratio($body) > 0;
			my $title = html_to_text($head_html);
			$title =~ s/^[0-9A-Z]+(\.[0-9]+)*\.?\s+//;          # section numbers
			push @articles, { lang => $lang, source => "$label/$file#" . (($i / 3) + 1),
				title => $title, body => $body };
		}
	}
	return @articles;
}

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
	html_sections('en', 'debian-reference', glob("$DOCREF_DIR/*.en.html")),
	html_sections('en', 'debian-handbook', glob("$HANDBOOK_DIR/en-US/*.html")));
my @zh_books = without_natural_copies(\$dropped{zh},
	html_sections('zh', 'debian-reference', glob("$DOCREF_DIR/*.zh-cn.html")),
	html_sections('zh', 'debian-handbook', glob("$HANDBOOK_DIR/zh-CN/*.html")));
my $zh_dropped_books = $dropped{zh};
my @zh_fortune = without_natural_copies(\$dropped{zh}, map { fortunes($_) } qw(tang300 song100 chinese));

@en = spread($PER_LANG, @en);
my $n_fortune = int($PER_LANG * $FORTUNE_SHARE);
$n_fortune = $PER_LANG - @zh_books if @zh_books < $PER_LANG - $n_fortune;
my @zh = (spread($PER_LANG - $n_fortune, @zh_books), spread($n_fortune, @zh_fortune));
# a fortune record may quote a book: the same natural-copy rule across the two
@zh = without_natural_copies(\$dropped{zh}, @zh);

# ---------------------------------------------------------------------------
# edits; each takes (lang, strength 1..3, title, body), returns (title, body, detail)
# ---------------------------------------------------------------------------

my %EN_POOL = (
	tag => ['EXCLUSIVE: ', 'Explainer: ', 'Analysis: ', 'UPDATED: ', 'Opinion: '],
	byline => ['By Staff Reporter', 'By Our Correspondent', 'By Alex Morgan, Technology Desk',
		'By Priya Raman | Updated 14:05', 'From our wire services', 'Reporting by Chen Li; editing by Sam Holt'],
	footer => [
		'Copyright 2026 The Daily Terminal. All rights reserved. This material may not be published, broadcast, rewritten or redistributed without permission.',
		'Subscribe to our newsletter for more stories like this one. Follow us on social media and share this article with your friends.',
		'This article first appeared elsewhere and is republished under its license. Reporting by staff; editing by the news desk.',
		'Advertisement. Continue reading below. Sponsored content from our partners helps keep this site free for everyone.',
		'Comments are closed for this story. Read our community guidelines and privacy policy before you post.',
	],
	related => 'Related stories: ',
);
my %ZH_POOL = (
	tag => ['【转载】', '独家：', '干货：', '深度：', '快讯：'],
	byline => ['本报讯 记者 王小明 报道', '本报讯（记者 李华 实习生 张静）', '新华社北京电 记者 陈晨',
		'本报综合消息', '【科技日报】记者 刘洋', '来源：中国新闻网 编辑：周婷'],
	footer => [
		'（责任编辑：赵敏）版权所有，未经授权不得转载。',
		'欢迎关注我们的公众号，获取更多精彩内容。本文仅代表作者观点，不代表本站立场。',
		'来源：网络整理。如有侵权请联系删除。',
		'广告：点击下方链接，了解更多优惠信息。本站所有内容仅供参考。',
		'声明：本文转载自其他媒体，转载目的在于传递更多信息，并不代表本网赞同其观点和对其真实性负责。',
	],
	related => '相关阅读：',
);
sub pool { my ($lang) = @_; return $lang eq 'en' ? \%EN_POOL : \%ZH_POOL; }

sub sentences {
	my ($lang, $para) = @_;
	return $lang eq 'en'
		? ($para =~ /(.+?(?:[.!?](?=\s)\s*|$))/gs)
		: ($para =~ /(.+?(?:[。！？；!?](?:[”」』])?|$))/gs);
}

# The units an edit moves or drops: paragraphs when there are 4 or more, else sentences.
sub units {
	my ($lang, $body) = @_;
	my @p = split /\n/, $body;
	return (\@p, "\n") if @p >= 4;
	my @s = map { sentences($lang, $_) } @p;
	return (\@s, '');
}

my %TITLES;    # lang -> titles of all originals, for headline swaps

sub edit_headline {
	my ($lang, $s, $title, $body, $orig_id) = @_;
	my $P = pool($lang);
	return (pick(@{$P->{tag}}) . $title, $body, 'tag') if $s == 1;
	my $new = pick(grep { $_ ne $title } @{$TITLES{$lang}});
	return ($new, $body, 'new headline') if $s == 2;
	# 3: a new headline and a new first paragraph (a rewritten lede)
	my @p = split /\n/, $body;
	my @s = sentences($lang, $p[0]);
	my $lede = $lang eq 'en'
		? "$new: what you need to know, in brief, before the details below."
		: "$new：一文读懂，详情见下文。";
	$p[0] = @s > 1 ? $lede . ($lang eq 'en' ? ' ' : '') . join('', @s[1 .. $#s]) : $lede;
	return ($new, join("\n", @p), 'new headline and lede');
}

# Boilerplate of about 10%, 30% or 60% of the body's length: a byline on top, then footers
# and a list of other titles below.
sub edit_boilerplate {
	my ($lang, $s, $title, $body) = @_;
	my $P = pool($lang);
	my $want = length($body) * (0.1, 0.3, 0.6)[$s - 1];
	my $top = pick(@{$P->{byline}});
	my @bottom;
	my $added = length $top;
	my @footers = shuffled(@{$P->{footer}});
	while ($added < $want) {
		my $line = @footers ? shift @footers
			: $P->{related} . join($lang eq 'en' ? '; ' : '；', map { pick(@{$TITLES{$lang}}) } 1 .. 3);
		push @bottom, $line;
		$added += length $line;
	}
	return ($title, join("\n", $top, $body, @bottom),
		sprintf('%d%% added', 100 * $added / length($body) + 0.5));
}

sub edit_drop {
	my ($lang, $s, $title, $body) = @_;
	my ($u, $sep) = units($lang, $body);
	my @u = @$u;
	return ($title, $body, 'none') if @u < 2;
	my $n = int(@u * (0.1, 0.25, 0.4)[$s - 1] + 0.5);
	$n = 1 if $n < 1;
	$n = @u - 1 if $n > @u - 1;
	my %gone = map { $_ => 1 } (shuffled(1 .. $#u))[0 .. $n - 1];   # never the first
	my @kept = map { $u[$_] } grep { !$gone{$_} } 0 .. $#u;
	return ($title, join($sep, @kept), sprintf('%d of %d %s', $n, scalar @u, $sep ? 'paragraphs' : 'sentences'));
}

sub edit_reorder {
	my ($lang, $s, $title, $body) = @_;
	my ($u, $sep) = units($lang, $body);
	my @u = @$u;
	return ($title, $body, 'none') if @u < 2;
	s/\s+$// for @u;
	my $glue = $sep || ($lang eq 'en' ? ' ' : '');
	my $what;
	if ($s == 1) {
		my $i = rand_int(@u - 1);
		@u[$i, $i + 1] = @u[$i + 1, $i];
		$what = 'two adjacent swapped';
	} elsif ($s == 2) {
		my $n = int(@u / 3) || 1;
		for (1 .. $n) { my $i = rand_int(scalar @u); my ($x) = splice @u, $i, 1; splice @u, rand_int(@u + 1), 0, $x; }
		$what = "$n moved";
	} else {
		@u = shuffled(@u);
		$what = 'all shuffled';
	}
	return ($title, join($glue, @u), sprintf('%s of %d %s', $what, scalar @$u, $sep ? 'paragraphs' : 'sentences'));
}

# Typos at 1%, 3% or 8% of the words (English) or characters (Chinese): swapped neighbours,
# deletions, and substitutions (a neighbouring key; another character of the same text).
sub edit_typos {
	my ($lang, $s, $title, $body) = @_;
	my $rate = (0.01, 0.03, 0.08)[$s - 1];
	my @pos;
	if ($lang eq 'en') { while ($body =~ /\b(?=\p{Latin}{2})/g) { push @pos, pos($body); } }
	else { while ($body =~ /(?=\p{Han}\p{Han})/g) { push @pos, pos($body); } }
	return ($title, $body, 'none') unless @pos;
	my @han = $body =~ /(\p{Han})/g;
	my $n = int(@pos * $rate + 0.5) || 1;
	# from the end, so earlier positions stay valid
	my @at = sort { $b <=> $a } (shuffled(@pos))[0 .. ($n < @pos ? $n : @pos) - 1];
	for my $p (@at) {
		if ($lang eq 'en') {
			my ($word) = substr($body, $p) =~ /^(\p{Latin}+)/;
			my $i = rand_int(length($word) - 1);
			my $op = rand_int(3);
			if ($op == 0) { substr($body, $p + $i, 2) = reverse substr($body, $p + $i, 2); }
			elsif ($op == 1) { substr($body, $p + $i, 1) = ''; }
			else { substr($body, $p + $i, 1) = pick(split //, 'etaoinshrdlu'); }
		} else {
			my $op = rand_int(3);
			if ($op == 0) { substr($body, $p, 2) = reverse substr($body, $p, 2); }
			elsif ($op == 1) { substr($body, $p, 1) = ''; }
			else { substr($body, $p, 1) = pick(@han); }
		}
	}
	return ($title, $body, sprintf('%d typos', scalar @at));
}

my %TO_FULL = map { $_ => chr(ord($_) + 0xFEE0) } split //, ',;:!?()';
my %TO_HALF = ('，' => ',', '；' => ';', '：' => ':', '！' => '!', '？' => '?', '（' => '(', '）' => ')', '。' => '.');

# What normalisation should undo.  1: quotes and dashes (English) or punctuation to half width
# (Chinese); 2: also full-width punctuation (English) or full-width letters and digits (Chinese);
# 3: also full-width letters and digits (English) and changed spacing and line breaks.
sub edit_width {
	my ($lang, $s, $title, $body) = @_;
	if ($lang eq 'en') {
		$body =~ s/"(\S[^"]*?)"/\x{201C}$1\x{201D}/g;
		$body =~ s/(\w)'(\w)/$1\x{2019}$2/g;
		$body =~ s/ - / \x{2014} /g;
		$body =~ s/([,;:!?()])/$TO_FULL{$1}/g if $s >= 2;
		$body =~ s/([A-Za-z0-9])/chr(ord($1) + 0xFEE0)/ge if $s >= 3;
	} else {
		$body =~ s/([，；：！？（）。])/$TO_HALF{$1}/g;
		$body =~ s/([A-Za-z0-9])/chr(ord($1) + 0xFEE0)/ge if $s >= 2;
	}
	if ($s >= 3) {
		$body =~ s/ /  /g;
		$body =~ s/\n/\n\n/g;
	}
	return ($title, $body, ('quotes or punctuation', '+ letters or digits', '+ letters, digits and spacing')[$s - 1]);
}

# Traditional script (Chinese only), through ICU's Simplified-Traditional transliterator:
# 1 the headline, 2 the headline and every other paragraph, 3 everything.  Marked here,
# converted in one uconv run at the end.
my @TO_TRAD;
sub edit_script {
	my ($lang, $s, $title, $body) = @_;
	my @p = split /\n/, $body;
	my $mark = sub { push @TO_TRAD, $_[0]; return "\x{E000}" . $#TO_TRAD . "\x{E001}"; };
	$title = $mark->($title);
	if ($s == 2) { $p[$_] = $mark->($p[$_]) for grep { $_ % 2 == 0 } 0 .. $#p; }
	if ($s == 3) { $p[$_] = $mark->($p[$_]) for 0 .. $#p; }
	return ($title, join("\n", @p), ('headline', 'headline and half the paragraphs', 'all')[$s - 1]);
}

# Keep the first 80%, 60% or 40%, cut at the end of a sentence.
sub edit_truncate {
	my ($lang, $s, $title, $body) = @_;
	my $want = int(length($body) * (0.8, 0.6, 0.4)[$s - 1]);
	my $cut = 0;
	my $end = $lang eq 'en' ? qr/[.!?](?=\s)|\n/ : qr/[。！？；]|\n/;
	while ($body =~ /$end/g) {
		last if pos($body) > $want;
		$cut = pos($body);
	}
	$cut = $want if $cut < $want * 0.7;
	my $new = substr($body, 0, $cut) =~ s/\s+$//r;
	return ($title, $new, sprintf('%d%% kept', 100 * length($new) / length($body) + 0.5));
}

my %EDIT = (
	headline => \&edit_headline, boilerplate => \&edit_boilerplate, drop => \&edit_drop,
	reorder => \&edit_reorder, typos => \&edit_typos, width => \&edit_width,
	script => \&edit_script, truncate => \&edit_truncate,
);
my %KINDS = (
	en => [qw(headline boilerplate drop reorder typos width truncate)],
	zh => [qw(headline boilerplate drop reorder typos width script truncate)],
);

# ---------------------------------------------------------------------------
# families and output
# ---------------------------------------------------------------------------

my @rows;
my $id = 0;
my %count;
for my $list (\@en, \@zh) {
	my $lang = $list->[0]{lang};
	$TITLES{$lang} = [map { $_->{title} } @$list];
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
if (@TO_TRAD) {
	my ($fh, $path) = tempfile(UNLINK => 1);
	binmode $fh, ':encoding(UTF-8)';
	print $fh join("\n\x{E002}\n", @TO_TRAD);
	close $fh;
	open my $in, '-|:encoding(UTF-8)', 'uconv', '-f', 'utf-8', '-t', 'utf-8', '-x', 'Simplified-Traditional', $path
		or die "uconv: $!\n";
	local $/;
	my $out = <$in>;
	close $in or die "uconv failed (is icu-devtools installed?)\n";
	my @trad = split /\n\x{E002}\n/, $out, -1;
	die sprintf("uconv returned %d pieces for %d\n", scalar @trad, scalar @TO_TRAD) if @trad != @TO_TRAD;
	for my $r (@rows) {
		s/\x{E000}([0-9]+)\x{E001}/$trad[$1]/g for @$r[8, 9];
	}
}

print join("\t", map { copy_escape($_) } @$_), "\n" for @rows;

printf STDERR "make_corpus: %d English originals (%d tuning), %d Chinese (%d tuning; %d fortunes-zh); "
	. "natural copies left out: %d en, %d zh; %d rows\n",
	scalar @en, $count{en}{tuning} // 0, scalar @zh, $count{zh}{tuning} // 0,
	scalar(grep { $_->{source} =~ /^fortunes/ } @zh), $dropped{en}, $dropped{zh}, scalar @rows;
