#!/usr/bin/perl
# make_textlike.pl: a million text-like documents with planted near-duplicate families, as
# COPY text, for the benchmarks that need real-looking text at scale (bench/README.md,
# "corpus/").
#
# Article text comes from a word-level Markov model (trigram/bigram, per topic and overall)
# of the prose of the Debian Reference and the Debian Administrator's Handbook, English and
# Simplified Chinese (tokens: words, single Han characters, punctuation), sampled by
# textlike_sample.c, so unrelated articles share common words and phrases as real ones do.
# Around the article, what makes unrelated articles of a real archive alike: each document
# belongs to a site (site sizes Zipf-distributed), and sites have their own header, footer,
# byline and dateline styles; some documents are template articles (one frame, its slots
# filled anew each time).  Planted families: an original and copies, each copy with edits of
# scripts/TextfpEdits.pm (the kinds of bench/quality) at recorded strengths, published later
# on its own site.  Ids follow publication time.
#
# Output columns, tab-separated, COPY text format, no header:
#   id  lang  site  family  role  edit  strength  published_at  body
# role: singleton, original, copy (family = the original's id), template (family = the
# template group's first id); edit and strength are \N except for copies and templates.
#
# Parameters (environment): N, SEED, ZH_SHARE, FAMILY_SHARE, MAX_FAMILY, FAMILY_ALPHA,
# BIG_FAMILIES, TEMPLATE_SHARE, SITES, LONG_SHARE, SHORT_BYTES, LONG_BYTES, TOPIC_P,
# TRIGRAM_P, WRAPPING; bench/README.md says what each means and its default.  Same
# parameters and packages, same output.  Core Perl, a C compiler (cc), uconv (icu-devtools),
# and the packages debian-reference-en, debian-reference-zh-cn, debian-handbook.
#
# Usage: perl bench/corpus/make_textlike.pl > corpus.tsv      (N=10000 for a quick look)

use strict;
use warnings;
use utf8;
use FindBin;
use File::Temp qw(tempdir);
use Encode qw(encode_utf8 decode_utf8);
use POSIX qw(strftime floor);
use Time::HiRes qw(time);
use lib "$FindBin::Bin/../../scripts";
use TextfpHtml qw(html_sections);
use TextfpCorpus qw(seed_rng rnd rand_int pick shuffled han_ratio copy_escape);
use TextfpEdits qw(%EDIT %KINDS set_titles set_script_converter uconv_traditional);

binmode STDERR, ':encoding(UTF-8)';
STDERR->autoflush(1);    # progress notes as they come, through the encoding layer
binmode STDOUT, ':raw';

sub param {
	my ($name, $default, $re) = @_;
	my $v = $ENV{$name} // $default;
	die "make_textlike: $name must match $re (got '$v')\n" unless $v =~ /^(?:$re)$/;
	return $v;
}
my $NUM = qr/[0-9]*\.?[0-9]+/;
my $N              = param('N', 1_000_000, qr/[1-9][0-9]*/);
my $SEED           = param('SEED', 1, qr/[0-9]+/);
my $ZH_SHARE       = param('ZH_SHARE', 0.5, $NUM);
my $FAMILY_SHARE   = param('FAMILY_SHARE', 0.02, $NUM);
my $MAX_FAMILY     = param('MAX_FAMILY', 300, qr/[2-9]|[1-9][0-9]+/);
my $FAMILY_ALPHA   = param('FAMILY_ALPHA', 2.0, $NUM);
my $BIG_FAMILIES   = param('BIG_FAMILIES', '2000 1000', qr/[0-9 ]*/);
my $TEMPLATE_SHARE = param('TEMPLATE_SHARE', 0.03, $NUM);
my $SITES          = param('SITES', 1000, qr/[1-9][0-9]*/);
my $LONG_SHARE     = param('LONG_SHARE', 0.3, $NUM);
my $SHORT_BYTES    = param('SHORT_BYTES', 1024, qr/[1-9][0-9]*/);
my $LONG_BYTES     = param('LONG_BYTES', 5120, qr/[1-9][0-9]*/);
my $TOPIC_P        = param('TOPIC_P', 0.5, $NUM);
my $TRIGRAM_P      = param('TRIGRAM_P', 0.4, $NUM);
my $WRAPPING       = param('WRAPPING', 1, qr/[01]/);
for ([ZH_SHARE => $ZH_SHARE], [FAMILY_SHARE => $FAMILY_SHARE], [TEMPLATE_SHARE => $TEMPLATE_SHARE],
	[LONG_SHARE => $LONG_SHARE], [TOPIC_P => $TOPIC_P], [TRIGRAM_P => $TRIGRAM_P]) {
	die "make_textlike: $_->[0] must be in 0..1\n" if $_->[1] > 1;
}
die "make_textlike: FAMILY_SHARE + TEMPLATE_SHARE must be below 0.5\n" if $FAMILY_SHARE + $TEMPLATE_SHARE >= 0.5;

my $DOCREF_DIR   = $ENV{DOCREF_DIR}   // '/usr/share/debian-reference';
my $HANDBOOK_DIR = $ENV{HANDBOOK_DIR} // '/usr/share/doc/debian-handbook/html';

# Fixed rates, documented in bench/README.md.
my $LEN_SIGMA      = 0.35;     # log-normal spread of each length component
my $TEMPLATE_MIN   = 5;        # template group sizes: log-uniform in this range
my $TEMPLATE_MAX   = 500;
my $SLOT_SHARE     = 0.12;     # share of a template frame's words (en) or character pairs (zh) that are slots
my $VERBATIM_P     = 0.15;     # copies with no edit but their own site's wrapping
my @KINDS_P        = (0.7, 0.2, 0.1);   # copies with 1, 2, 3 edit kinds
my $OTHER_SITE_P   = 0.85;     # copies published on another site than their original
my $SITE_ZIPF      = 0.8;      # site k of a language publishes in proportion to k^-0.8
my $HEADER_P       = 0.5;      # sites with a navigation header line
my $FOOTER_P       = 0.6;      # sites with footer lines (each line of the pool with probability 0.25, at least one)
my $NO_BYLINE_P    = 0.3;      # sites without bylines; the others put one on 90% of documents
my $DATELINE_P     = 0.6;      # sites with a dateline
my $DELAY_MIN      = 300;      # copies appear 5 minutes to 30 days after their original (log-uniform)
my $DELAY_MAX      = 30 * 86400;
my $T0             = 1704067200;                  # 2024-01-01 00:00:00 UTC
my $SPAN           = 2 * 365 * 86400;             # documents spread over two years

my $started = time;
my $work = tempdir('textlike-XXXXXX', TMPDIR => 1, CLEANUP => 1);
sub note { printf STDERR "make_textlike: %6.1f s  %s\n", time - $started, $_[0]; }

# ---------------------------------------------------------------------------
# the model: prose of the books, tokenised, one topic per source file
# ---------------------------------------------------------------------------

my %BOOKS = (
	en => [['debian-reference', "$DOCREF_DIR/*.en.html"], ['debian-handbook', "$HANDBOOK_DIR/en-US/*.html"]],
	zh => [['debian-reference', "$DOCREF_DIR/*.zh-cn.html"], ['debian-handbook', "$HANDBOOK_DIR/zh-CN/*.html"]],
);
my %KEEP = (en => sub { han_ratio($_[0]) == 0 }, zh => sub { han_ratio($_[0]) >= 0.5 });
my (%TITLES, %FILLERS, %STATS);

# Tokens: a Han character, a run of letters and digits (with inner ' or -), or any other
# character; each with the space before it, if there was one, so that joining tokens gives
# the text back.
my $TOKEN = qr/ ?(?:\p{Han}|[\p{L}\p{N}_]+(?:['’-][\p{L}\p{N}_]+)*|\S)/;

# The model file textlike_sample.c reads: "textlike-model 1", "topics K", "vocab V", V lines
# "flags<TAB>token" (token 0 the paragraph break; flags 1 sentence end, 2 clause end; the
# token COPY-escaped), "stream T P", then P lines "topic id id ...", each a paragraph
# followed by the break.
sub write_model {
	my ($lang) = @_;
	my (%topic, @vocab, %id, @paras, %fill);
	@vocab = ('');
	my $tokens = 0;
	for my $book (@{$BOOKS{$lang}}) {
		my %limits = (min_chars => { $lang => 1 }, max_chars => 1e12, paragraph_filter => $KEEP{$lang});
		for my $s (html_sections($lang, $book->[0], \%limits, glob($book->[1]))) {
			(my $file = $s->{source}) =~ s/#.*//;
			$topic{$file} = scalar keys %topic unless exists $topic{$file};
			my $t = $topic{$file};
			push @{$TITLES{$lang}}, $s->{title} if length $s->{title} >= 8;
			for my $p (split /\n/, $s->{body}) {
				$p =~ s/\s+/ /g;
				$p =~ s/^ | $//g;
				my @ids = map { $id{$_} //= do { push @vocab, $_; $#vocab } } $p =~ /$TOKEN/g;
				next unless @ids;
				push @paras, join(' ', $t, @ids, 0);
				if ($lang eq 'zh') { exists $fill{$_} or $fill{$_} = keys %fill for $p =~ /(\p{Han}\p{Han})/g; }
				$tokens += @ids + 1;
			}
		}
	}
	die "make_textlike: no $lang prose found (are debian-reference-* and debian-handbook installed?)\n"
		unless @paras;
	# template slot fillers: words of 4+ letters (en), Han pairs (zh), in order of appearance
	$FILLERS{$lang} = [sort { $fill{$a} <=> $fill{$b} } keys %fill] if $lang eq 'zh';
	$FILLERS{$lang} = [map { s/^ //r } grep { /^ ?\p{Ll}{4,}$/ } @vocab] if $lang eq 'en';
	my $path = "$work/model-$lang.txt";
	open my $fh, '>:encoding(UTF-8)', $path or die "$path: $!\n";
	printf $fh "textlike-model 1\ntopics %d\nvocab %d\n", scalar keys %topic, scalar @vocab;
	for my $v (@vocab) {
		my $flags = $v =~ /^ ?[.!?。！？]$/ ? 1 : $v =~ /^ ?[,;:，；：、]$/ ? 2 : 0;
		print $fh $flags, "\t", copy_escape($v), "\n";
	}
	printf $fh "stream %d %d\n", $tokens, scalar @paras;
	print $fh "$_\n" for @paras;
	close $fh or die "$path: $!\n";
	$STATS{$lang} = sprintf '%d topics, %d paragraphs, %d tokens, %d types', scalar keys %topic,
		scalar @paras, $tokens, scalar @vocab;
	return $path;
}

my %MODEL = map { $_ => write_model($_) } qw(en zh);
set_titles($_, @{$TITLES{$_}}) for qw(en zh);
note("model: en $STATS{en}; zh $STATS{zh}");

my $sampler = "$work/textlike_sample";
system('cc', '-O2', '-o', $sampler, "$FindBin::Bin/textlike_sample.c") == 0
	or die "make_textlike: cc failed (is build-essential installed?)\n";

# Traditional script for the 'script' edit: a character map made by one uconv run, since
# the copies stream past and cannot wait for one run at the end.
my @HAN = map { chr } 0x4E00 .. 0x9FFF;
my %TRAD;
@TRAD{@HAN} = uconv_traditional(@HAN);
set_script_converter(sub { my ($s) = @_; $s =~ s/(\p{Han})/$TRAD{$1} \/\/ $1/ge; return $s; });

# ---------------------------------------------------------------------------
# the plan: which id is what (ids in publication order)
# ---------------------------------------------------------------------------

use constant { SINGLETON => 0, ORIGINAL => 1, COPY => 2, TEMPLATE => 3 };
my @ROLE_NAME = qw(singleton original copy template);

seed_rng($SEED);
my @role = (SINGLETON) x $N;
my @group;       # family or template group index of an id
my @families;    # { lang, ids => [original, copies...] }, ids as 0-based slots
my @templates;   # { lang, ids => [instances...] }

# the first free slot from $want on, wrapping around to just after $after
sub take_slot {
	my ($want, $after) = @_;
	$want = $N - 1 if $want >= $N;
	for (my $i = $want; $i < $N; $i++) { return $i if $role[$i] == SINGLETON; }
	for (my $i = $after + 1; $i < $want; $i++) { return $i if $role[$i] == SINGLETON; }
	return undef;
}

sub zh_or_en { return rnd() < $ZH_SHARE ? 'zh' : 'en'; }

# Family sizes: the big ones that fit in half the budget, then P(s) ~ s^-alpha on
# 2..MAX_FAMILY until the budget (FAMILY_SHARE of N) is spent.
my $budget = int($N * $FAMILY_SHARE + 0.5);
my @sizes;
for my $s (split ' ', $BIG_FAMILIES) {
	next unless $s >= 2 && $s <= $budget / 2;
	push @sizes, $s;
	$budget -= $s;
}
my @cum;
{
	my $c = 0;
	push @cum, $c += $_ ** -$FAMILY_ALPHA for 2 .. $MAX_FAMILY;
	$_ /= $c for @cum;
}
while ($budget >= 2) {
	my $r = rnd();
	my ($lo, $hi) = (0, $#cum);
	while ($lo < $hi) { my $m = int(($lo + $hi) / 2); if ($cum[$m] <= $r) { $lo = $m + 1; } else { $hi = $m; } }
	my $s = $lo + 2;
	$s = $budget if $s > $budget || $budget - $s < 2;
	push @sizes, $s;
	$budget -= $s;
}
for my $size (@sizes) {
	my $lang = @families < 2 && $size > $MAX_FAMILY ? (@families % 2 ? 'zh' : 'en') : zh_or_en();
	my $o = take_slot(rand_int(int($N * 0.95)), -1);
	$role[$o] = ORIGINAL;
	my @ids = ($o);
	for (2 .. $size) {
		my $delay = exp(log($DELAY_MIN) + rnd() * (log($DELAY_MAX) - log($DELAY_MIN)));
		my $c = take_slot($o + 1 + int($delay * $N / $SPAN), $o) // last;
		$role[$c] = COPY;
		push @ids, $c;
	}
	push @families, { lang => $lang, ids => [sort { $a <=> $b } @ids] };
	$group[$_] = $#families for @ids;
}

# Template groups: log-uniform sizes, members anywhere, one site each.
$budget = int($N * $TEMPLATE_SHARE + 0.5);
while ($budget >= 2) {
	my $size = int(exp(log($TEMPLATE_MIN) + rnd() * (log($TEMPLATE_MAX + 1) - log($TEMPLATE_MIN))));
	$size = $budget if $size > $budget || $budget - $size < 2;
	$budget -= $size;
	my @ids;
	for (1 .. $size) {
		my $t = take_slot(rand_int($N), -1) // last;
		$role[$t] = TEMPLATE;
		push @ids, $t;
	}
	push @templates, { lang => zh_or_en(), ids => [sort { $a <=> $b } @ids] };
	$group[$_] = $#templates for @ids;
}
note(sprintf 'plan: %d families (%d documents, largest %d), %d template groups (%d documents)',
	scalar @families, scalar(map { @{$_->{ids}} } @families), (sort { $b <=> $a } map { scalar @{$_->{ids}} } @families)[0] // 0,
	scalar @templates, scalar(map { @{$_->{ids}} } @templates));

# ---------------------------------------------------------------------------
# per-document draws, seeded by id, so one document's draws do not shift another's
# ---------------------------------------------------------------------------

# A seed for TextfpCorpus's LCG from (purpose, key): two murmur3 finalisers, each a bijection
# on 32 bits, so keys of one purpose never share a seed.
my %PURPOSE = (doc => 1, request => 2, site_order => 3, site => 4, frame_slots => 5, frame_site => 6);
sub mix32 {
	my ($h) = @_;
	use integer;
	$h = (($h ^ ($h >> 16)) * 0x85EBCA6B) & 0xffffffff;
	$h = (($h ^ ($h >> 13)) * 0xC2B2AE35) & 0xffffffff;
	return $h ^ ($h >> 16);
}
sub doc_seed {
	my ($purpose, $key) = @_;
	use integer;
	my $h = mix32((($PURPOSE{$purpose} * 0x9E3779B1) ^ $SEED) & 0xffffffff);
	return mix32($h ^ (($key * 0x9E3779B1) & 0xffffffff)) & 0x7fffffff;
}

# log-normal around the short or the long median
sub draw_length {
	my ($short_only) = @_;
	my $median = !$short_only && rnd() < $LONG_SHARE ? $LONG_BYTES : $SHORT_BYTES;
	my $z = sqrt(-2 * log(1 - rnd())) * cos(6.283185307179586 * rnd());
	my $n = int($median * exp($LEN_SIGMA * $z));
	return $n < 200 ? 200 : $n > 30000 ? 30000 : $n;
}

# ---------------------------------------------------------------------------
# sites: names, boilerplate and styles, drawn from the site's own seed
# ---------------------------------------------------------------------------

my %NAME_PARTS = (
	en => [[qw(Daily Evening Morning Northern Southern Western Eastern Metro Valley Harbor Capital Riverside
		Coastal National Global Digital Open Linux Server Network County City Island Highland Union)],
		[qw(Times Post Herald Tribune Gazette Chronicle Journal Observer Courier Ledger Review Dispatch
		Bulletin Monitor Report Wire Insider Digest Weekly News Sentinel Register Standard Star)]],
	zh => [[qw(北京 上海 广州 深圳 南方 东方 华夏 江南 西部 中原 长江 珠江 海峡 齐鲁 燕赵 巴蜀 三秦 荆楚 八闽 岭南
		科技 数码 开源 网络 信息)],
		[qw(日报 晚报 时报 商报 新闻网 在线 周刊 快讯 观察 导报 都市报 早报 信息港 资讯 头条 视点 科技网 热线 之声 评论)]],
);
my %SECTIONS = (
	en => [qw(Home News World Business Technology Science Opinion Sports Culture Health Travel Video Podcasts
		Newsletters Subscribe Archive)],
	zh => [qw(首页 新闻 国内 国际 财经 科技 体育 娱乐 评论 社会 文化 健康 旅游 视频 专题 订阅)],
);
my %FOOTERS = (
	en => [
		'Copyright © %Y %S. All rights reserved.',
		'© %S %Y. This material may not be published, broadcast, rewritten or redistributed.',
		'%L',
		'Sign up for the %S newsletter and get the top stories in your inbox every morning.',
		'Follow %S on social media for more news and analysis.',
		'Have a news tip? Contact the %S newsroom.',
		'Corrections and clarifications: tell %S if you see an error in this story.',
		'Most read this week on %S: see the full list on our home page.',
	],
	zh => [
		'版权所有 © %Y %S 未经授权禁止转载',
		'%L',
		'欢迎关注%S官方微信公众号，获取更多资讯。',
		'下载%S客户端，随时随地看新闻。',
		'本网站所刊登的各种新闻、信息和专栏资料，均为%S版权所有，未经协议授权，禁止下载使用。',
		'新闻热线：010-%P 举报电话：010-%P',
		'凡本网注明“来源：%S”的所有作品，版权均属于%S，转载请注明出处。',
		'网友评论仅供其表达个人看法，并不表明%S同意其观点或证实其描述。',
	],
);
my %LINKS = (
	en => ['About us', 'Contact', 'Privacy policy', 'Terms of use', 'Advertise', 'Careers', 'Cookie settings',
		'Accessibility', 'Site map', 'RSS', 'Help', 'Newsletters', 'Archives', 'Licensing'],
	zh => [qw(关于我们 联系我们 广告服务 隐私政策 网站地图 招聘信息 法律声明 版权声明 意见反馈 合作伙伴 网站导航 订阅服务)],
);
my %PEOPLE = (
	en => [[qw(James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard
		Susan Joseph Jessica Thomas Sarah Daniel Karen Priya Wei Carlos Fatima Olga Kenji Amara Lars Ines Ravi)],
		[qw(Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Wilson
		Anderson Thomas Taylor Moore Jackson Martin Lee Chen Patel Novak Kowalski Schmidt Rossi Silva Tanaka)]],
	zh => [[split //, '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董'],
		[qw(伟 芳 娜 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀英 华 慧 建华 晓东 小红 志强 海燕 文博 子涵 雨萱 浩然 欣怡)]],
);
my %CITIES = (
	en => [qw(LONDON PARIS BERLIN TOKYO SYDNEY TORONTO CHICAGO BOSTON SEATTLE DUBLIN MADRID ROME OSLO VIENNA PRAGUE)],
	zh => [qw(北京 上海 广州 深圳 杭州 南京 武汉 成都 西安 重庆 天津 长沙 郑州 沈阳 厦门)],
);
my @MONTHS = qw(January February March April May June July August September October November December);

my @SITE;   # site number -> { lang, name, header, footer, byline_p, byline, dateline }
my %SITE_CUM;   # lang -> cumulative Zipf weights of its sites
for my $lang (qw(en zh)) {
	my ($pre, $post) = @{$NAME_PARTS{$lang}};
	my @combos = map { my $p = $_; map { [$p, $_] } @$post } @$pre;
	seed_rng(doc_seed(site_order => $lang eq 'zh' ? 1 : 0));
	@combos = shuffled(@combos);
	my $c = 0;
	for my $k (1 .. $SITES) {
		my $site = $lang eq 'en' ? $k : $SITES + $k;
		seed_rng(doc_seed(site => $site));
		my $combo = $combos[($k - 1) % @combos];
		my $name = $lang eq 'en' ? "The $combo->[0] $combo->[1]" : "$combo->[0]$combo->[1]";
		$name .= ($lang eq 'en' ? ' ' : '') . (1 + int(($k - 1) / @combos)) if $k > @combos;
		my $sections = join ' | ', grep { rnd() < 0.5 } @{$SECTIONS{$lang}};
		my @footer = grep { rnd() < 0.25 } @{$FOOTERS{$lang}};
		@footer = (pick(@{$FOOTERS{$lang}})) unless @footer;
		my $year = 2010 + rand_int(14);
		my $links = join ' | ', grep { rnd() < 0.5 } @{$LINKS{$lang}};
		s/%S/$name/g, s/%Y/$year/g, s/%L/$links/g, s/%P/sprintf('%08d', rand_int(1e8))/ge for @footer;
		$SITE[$site] = {
			lang => $lang, name => $name,
			header => rnd() < $HEADER_P ? "$name | $sections" : undef,
			footer => rnd() < $FOOTER_P ? join("\n", @footer) : undef,
			byline_p => rnd() < $NO_BYLINE_P ? 0 : 0.9,
			byline => rand_int(3), dateline => rnd() < $DATELINE_P ? rand_int(2) : undef,
		};
		push @{$SITE_CUM{$lang}}, $c += $k ** -$SITE_ZIPF;
	}
	$_ /= $c for @{$SITE_CUM{$lang}};
}

sub draw_site {
	my ($lang) = @_;
	my $cum = $SITE_CUM{$lang};
	my $r = rnd();
	my ($lo, $hi) = (0, $#$cum);
	while ($lo < $hi) { my $m = int(($lo + $hi) / 2); if ($cum->[$m] <= $r) { $lo = $m + 1; } else { $hi = $m; } }
	return ($lang eq 'en' ? 1 : $SITES + 1) + $lo;
}

sub person {
	my ($lang) = @_;
	my ($first, $last) = @{$PEOPLE{$lang}};
	return $lang eq 'en' ? pick(@$first) . ' ' . pick(@$last) : pick(@$first) . pick(@$last);
}

# The wrapping a site puts around an article: (lines before the title, line before the body,
# prefix of the first paragraph, lines after), as characters.
sub wrapping {
	my ($site, $epoch, $author) = @_;
	my $S = $SITE[$site];
	my $lang = $S->{lang};
	my @t = gmtime($epoch);
	my ($before, $after) = ($S->{header}, $S->{footer});
	my ($byline, $prefix);
	if (rnd() < $S->{byline_p}) {
		$byline = $lang eq 'en'
			? ("By $author", "$author, $S->{name}", "By $author | $S->{name}")[$S->{byline}]
			: ("本报记者 $author", "$S->{name}记者 $author", "来源：$S->{name} 作者：$author")[$S->{byline}];
	}
	if (defined $S->{dateline}) {
		if ($S->{dateline} == 0) {
			$prefix = $lang eq 'en'
				? sprintf('%s, %s %d (%s) - ', pick(@{$CITIES{en}}), $MONTHS[$t[4]], $t[3], $S->{name})
				: sprintf('%s%s%d月%d日电 ', $S->{name}, pick(@{$CITIES{zh}}), $t[4] + 1, $t[3]);
		} else {
			my $stamp = strftime('%Y-%m-%d %H:%M', @t);
			$byline = join($lang eq 'en' ? ' | ' : ' ', grep { defined } $byline,
				$lang eq 'en' ? "Published $stamp" : "发布时间：$stamp");
		}
	}
	# Chinese articles end with the editor's name more often than not
	$after = join "\n", grep { defined } $after, '（责任编辑：' . person('zh') . '）' if $lang eq 'zh' && rnd() < 0.5;
	return ($before, $byline, $prefix, $after);
}

# ---------------------------------------------------------------------------
# requests for the sampler, in the order the documents will need them
# ---------------------------------------------------------------------------

my @lang_of;    # per id: 0 en, 1 zh
my @site_of;
{
	my %req;
	for my $lang (qw(en zh)) {
		open $req{$lang}, '>', "$work/requests-$lang.txt" or die "$work: $!\n";
	}
	my %frame_done;
	for my $id (1 .. $N) {
		my $slot = $id - 1;
		my $r = $role[$slot];
		seed_rng(doc_seed(request => $id));
		my $lang = $r == SINGLETON ? zh_or_en() : $r == TEMPLATE ? $templates[$group[$slot]]{lang} : $families[$group[$slot]]{lang};
		$lang_of[$slot] = $lang eq 'zh' ? 1 : 0;
		if ($r == SINGLETON || $r == ORIGINAL) {
			print { $req{$lang} } $id, ' ', draw_length(0), "\n";
		} elsif ($r == TEMPLATE && !$frame_done{$group[$slot]}++) {
			print { $req{$lang} } $N + 1 + $group[$slot], ' ', draw_length(1), "\n";
		}
	}
	close $req{$_} or die "$work: $!\n" for qw(en zh);
}
note('requests written');

# ---------------------------------------------------------------------------
# the documents
# ---------------------------------------------------------------------------

my %sample;
for my $lang (qw(en zh)) {
	open $sample{$lang}, '-|:raw', $sampler, $MODEL{$lang}, "$work/requests-$lang.txt", $TOPIC_P, $TRIGRAM_P, $SEED
		or die "make_textlike: cannot run the sampler: $!\n";
}
sub next_article {
	my ($lang) = @_;
	my $line = readline($sample{$lang}) // die "make_textlike: the $lang sampler stopped early\n";
	chomp $line;
	my ($title, $body) = split /\t/, $line, 2;
	return ($title, $body);
}

my %UNESCAPE = (n => "\n", t => "\t", r => "\r", '\\' => '\\');
sub copy_unescape { my ($s) = @_; $s =~ s/\\(.)/$UNESCAPE{$1} \/\/ $1/ge; return $s; }

# The stored text of a document: wrapping, title, body.  $title and $body are COPY-escaped
# UTF-8 bytes.
sub compose {
	my ($site, $epoch, $author, $title, $body) = @_;
	my ($before, $byline, $prefix, $after) = $WRAPPING ? wrapping($site, $epoch, $author) : ();
	my @lines = ((defined $before ? encode_utf8(copy_escape($before)) : ()), $title,
		(defined $byline ? encode_utf8(copy_escape($byline)) : ()),
		(defined $prefix ? encode_utf8(copy_escape($prefix)) : '') . $body,
		(defined $after ? encode_utf8(copy_escape($after)) : ()));
	return join '\n', @lines;
}

# A template instance: its frame with the slots filled anew.
sub fill_template {
	my ($frame, $lang) = @_;
	my @pieces = @{$frame->{pieces}};
	my $filled = 0;
	for my $i (@{$frame->{slots}}) {
		next if rnd() < 0.1;
		$pieces[$i] = rnd() < 0.3 ? rand_int(1000) : pick(@{$FILLERS{$lang}});
		$filled++;
	}
	my $text = join '', @pieces;
	my ($title, $body) = split /\n/, $text, 2;
	return ($title, $body, sprintf('%d of %d slots filled', $filled, scalar @{$frame->{slots}}));
}

sub make_frame {
	my ($lang, $title, $body, $group) = @_;
	my $text = decode_utf8(copy_unescape($title)) . "\n" . decode_utf8(copy_unescape($body));
	my @pieces = $lang eq 'en' ? split(/(\p{L}+)/, $text) : split(/(\p{Han}\p{Han})/, $text);
	my @eligible = grep { $pieces[$_] =~ /^(?:\p{L}{3,}|\p{Han}\p{Han})$/ } 0 .. $#pieces;
	seed_rng(doc_seed(frame_slots => $group));
	my @slots = grep { rnd() < $SLOT_SHARE } @eligible;
	return { pieces => \@pieces, slots => \@slots };
}

my (%original, %frame, %count, %bytes);
my @kinds_cum = map { my $k = $_; my $c = 0; $c += $KINDS_P[$_] for 0 .. $k; $c } 0 .. $#KINDS_P;
for my $id (1 .. $N) {
	my $slot = $id - 1;
	my $r = $role[$slot];
	my $lang = $lang_of[$slot] ? 'zh' : 'en';
	my $epoch = $T0 + int(($slot + 0.5 * ($id * 0.6180339887 - int($id * 0.6180339887))) * $SPAN / $N);
	seed_rng(doc_seed(doc => $id));
	my ($family, $edit, $strength, $site, $title, $body, $author) = ('\N', '\N', '\N');
	if ($r == SINGLETON || $r == ORIGINAL) {
		($title, $body) = next_article($lang);
		$site = draw_site($lang);
		$author = person($lang);
		if ($r == ORIGINAL) {
			$family = $id;
			$original{$group[$slot]} = { id => $id, site => $site, author => $author, title => $title, body => $body };
		}
	} elsif ($r == COPY) {
		my $o = $original{$group[$slot]};
		$family = $o->{id};
		$author = $o->{author};
		$site = $o->{site};
		if (rnd() < $OTHER_SITE_P) {
			for (1 .. 10) { $site = draw_site($lang); last if $site != $o->{site}; }
		}
		if (rnd() < $VERBATIM_P) {
			($title, $body, $edit, $strength) = ($o->{title}, $o->{body}, 'verbatim', 0);
		} else {
			my $u = rnd();
			my $n = 1 + scalar grep { $u >= $_ } @kinds_cum[0 .. $#kinds_cum - 1];
			my %pick = map { $_ => 1 } (shuffled(@{$KINDS{$lang}}))[0 .. $n - 1];
			my ($t, $b) = (decode_utf8(copy_unescape($o->{title})), decode_utf8(copy_unescape($o->{body})));
			my @done;
			$strength = 0;
			for my $k (grep { $pick{$_} } @{$KINDS{$lang}}) {
				my $s = 1 + rand_int(3);
				($t, $b, my $detail) = $EDIT{$k}->($lang, $s, $t, $b);
				push @done, "$k $s ($detail)";
				$strength = $s if $s > $strength;
			}
			($title, $body, $edit) = (encode_utf8(copy_escape($t)), encode_utf8(copy_escape($b)), join('; ', @done));
		}
	} else {
		my $g = $group[$slot];
		$family = $templates[$g]{ids}[0] + 1;
		my $f = $frame{$g} //= do {
			my ($t, $b) = next_article($lang);
			my $fr = make_frame($lang, $t, $b, $g);
			seed_rng(doc_seed(frame_site => $g));
			$fr->{site} = draw_site($lang);
			$fr;
		};
		seed_rng(doc_seed(doc => $id));
		($title, $body, $edit) = fill_template($f, $lang);
		($title, $body) = map { encode_utf8(copy_escape($_)) } $title, $body;
		$site = $f->{site};
		$author = person($lang);
		$strength = '\N';
	}
	my $text = compose($site, $epoch, $author, $title, $body);
	print join("\t", $id, $lang, $site, $family, $ROLE_NAME[$r],
		$edit eq '\N' ? $edit : encode_utf8(copy_escape($edit)), $strength,
		strftime('%Y-%m-%d %H:%M:%S+00', gmtime($epoch)), $text), "\n";
	$count{"$lang $ROLE_NAME[$r]"}++;
	$bytes{$lang} += length $text;
	note(sprintf '%d documents', $id) if $id % 100_000 == 0;
}
for my $lang (qw(en zh)) {
	close $sample{$lang} or die "make_textlike: the $lang sampler failed\n";
}
close STDOUT or die "make_textlike: write error: $!\n";
note(join '; ', (map { "$_ $count{$_}" } sort keys %count),
	map { sprintf '%s mean %.0f bytes', $_, $bytes{$_} / ($count{"$_ singleton"} + ($count{"$_ original"} // 0)
		+ ($count{"$_ copy"} // 0) + ($count{"$_ template"} // 0)) } sort keys %bytes);
