# TextfpEdits.pm: the edits a republisher makes to an article, at strengths 1 (light) to 3
# (heavy), shared by bench/quality's labeled set and bench/corpus's generated one (core Perl,
# plus uconv from icu-devtools for Traditional script).  Each edit takes (lang, strength,
# title, body) and returns (title, body, detail); the only randomness is TextfpCorpus's LCG,
# so a seed gives the same edits everywhere.  docs/quality.md describes every kind.
package TextfpEdits;

use strict;
use warnings;
use utf8;
use Exporter 'import';
use File::Temp qw(tempfile);
use TextfpCorpus qw(rnd rand_int pick shuffled);

our @EXPORT_OK = qw(%EDIT %KINDS pool sentences set_titles set_script_converter convert_marked uconv_traditional);

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

# The headlines edit_headline and edit_boilerplate take other articles' titles from.
sub set_titles { my ($lang, @titles) = @_; $TITLES{$lang} = [@titles]; }

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
# 1 the headline, 2 the headline and every other paragraph, 3 everything.  By default a
# piece is marked here and converted by convert_marked in one uconv run at the end;
# set_script_converter gives another converter (a character map, for a stream too long to
# hold).
my @TO_TRAD;
my $to_trad = sub { push @TO_TRAD, $_[0]; return "\x{E000}" . $#TO_TRAD . "\x{E001}"; };
sub set_script_converter { ($to_trad) = @_; }
sub edit_script {
	my ($lang, $s, $title, $body) = @_;
	my @p = split /\n/, $body;
	my $mark = $to_trad;
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

our %EDIT = (
	headline => \&edit_headline, boilerplate => \&edit_boilerplate, drop => \&edit_drop,
	reorder => \&edit_reorder, typos => \&edit_typos, width => \&edit_width,
	script => \&edit_script, truncate => \&edit_truncate,
);
our %KINDS = (
	en => [qw(headline boilerplate drop reorder typos width truncate)],
	zh => [qw(headline boilerplate drop reorder typos width script truncate)],
);

# The pieces in Traditional script, in one run of ICU's Simplified-Traditional transliterator.
sub uconv_traditional {
	my @pieces = @_;
	return () unless @pieces;
	my ($fh, $path) = tempfile(UNLINK => 1);
	binmode $fh, ':encoding(UTF-8)';
	print $fh join("\n\x{E002}\n", @pieces);
	close $fh;
	open my $in, '-|:encoding(UTF-8)', 'uconv', '-f', 'utf-8', '-t', 'utf-8', '-x', 'Simplified-Traditional', $path
		or die "uconv: $!\n";
	local $/;
	my $out = <$in>;
	close $in or die "uconv failed (is icu-devtools installed?)\n";
	my @trad = split /\n\x{E002}\n/, $out, -1;
	die sprintf("uconv returned %d pieces for %d\n", scalar @trad, scalar @pieces) if @trad != @pieces;
	return @trad;
}

# Converts the pieces edit_script marked, in place, in the strings referenced.
sub convert_marked {
	my @refs = @_;
	return unless @TO_TRAD;
	my @trad = uconv_traditional(@TO_TRAD);
	$$_ =~ s/\x{E000}([0-9]+)\x{E001}/$trad[$1]/g for @refs;
}

1;
