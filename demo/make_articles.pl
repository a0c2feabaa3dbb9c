#!/usr/bin/perl
# make_articles.pl: the demo corpus, real articles and their edited reprints, as COPY text.
#
# Originals are sections of the Debian Reference (English and Simplified Chinese HTML) and
# Chinese poems and sayings from fortunes-zh.  For a seeded choice of originals it writes
# reprints with the edits a republisher makes (byline, footer, typos, a dropped paragraph,
# swapped sentences, punctuation width, truncation) and records which edits it made, so
# the demo can tell planted near-duplicates from the rest.  Same input, same output: the
# only randomness is a seeded LCG (scripts/TextfpCorpus.pm).
#
# Output columns, tab-separated, COPY text format, no header:
#   id  lang  source  original_id  edits  title  body
# original_id is \N for originals.  Core Perl only.
#
# Usage: perl demo/make_articles.pl [--per-lang N] [--reprints N] [--seed N] > articles.tsv
#        (DOCREF_DIR and FORTUNE_DIR override the package paths.)

use strict;
use warnings;
use utf8;
use Getopt::Long;
use FindBin;
use lib "$FindBin::Bin/../scripts";
use TextfpHtml qw(html_to_text read_utf8);
use TextfpCorpus qw(seed_rng rnd rand_int pick shuffled han_ratio cap_paragraphs spread copy_escape);

binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

my $DOCREF_DIR  = $ENV{DOCREF_DIR}  // '/usr/share/debian-reference';
my $FORTUNE_DIR = $ENV{FORTUNE_DIR} // '/usr/share/games/fortunes';

my $PER_LANG = 400;     # originals kept per language
my $REPRINTS = 60;      # originals reprinted per language
my $SECOND   = 15;      # of those, how many get a second, independent reprint
my $SEED     = 42;
GetOptions(
	'per-lang=i' => \$PER_LANG,
	'reprints=i' => \$REPRINTS,
	'second=i'   => \$SECOND,
	'seed=i'     => \$SEED,
) or die "usage: $0 [--per-lang N] [--reprints N] [--second N] [--seed N]\n";

# Shortest body kept, in characters, and the longest (cut at a paragraph).
my %MIN_CHARS = (en => 400, zh => 200);
my $MIN_FORTUNE_CHARS = 80;
my $MAX_CHARS = 6000;

# the only randomness: TextfpCorpus's LCG, the same on every perl
seed_rng($SEED);

# ---------------------------------------------------------------------------
# originals: Debian Reference sections
# ---------------------------------------------------------------------------

# One article per h2/h3/h4 section: its prose paragraphs (<p>, list items included), not
# screen listings, data tables or figure titles.
sub docref_sections {
	my ($lang, $suffix) = @_;
	my @articles;
	my @files = glob("$DOCREF_DIR/ch[0-9][0-9].$suffix.html");
	for my $path (sort @files) {
		my $html = read_utf8($path);
		(my $file = $path) =~ s{.*/}{};
		# (level, heading, html up to the next heading) triples; split, not match offsets,
		# which cost a scan each on a UTF-8 string
		my (undef, @parts) = split /<h([1-4]) class="title"[^>]*>(.*?)<\/h[1-4]>/s, $html;
		for (my $i = 0; $i + 2 <= $#parts; $i += 3) {
			my ($level, $head_html, $body_html) = @parts[$i .. $i + 2];
			next if $level == 1;
			$body_html =~ s/<pre\b.*?<\/pre>//gs;
			$body_html =~ s/<table class="table".*?<\/table>//gs;
			$body_html =~ s/<p class="title">.*?<\/p>//gs;
			my @paras = grep { length } map { html_to_text($_) } ($body_html =~ /<p\b[^>]*>(.*?)<\/p>/gs);
			@paras = cap_paragraphs($MAX_CHARS, @paras);
			my $body = join "\n", @paras;
			next if length($body) < $MIN_CHARS{$lang};
			# zh-cn pages keep some paragraphs untranslated: skip sections that are mostly English
			next if $lang eq 'zh' && han_ratio($body) < 0.5;
			my ($anchor) = $head_html =~ /<a id="([^"]+)"/;
			push @articles, {
				lang   => $lang,
				source => "debian-reference/$file#" . ($anchor // $i),
				title  => html_to_text($head_html),
				body   => $body,
			};
		}
	}
	return @articles;
}

# ---------------------------------------------------------------------------
# originals: fortunes-zh poems and sayings
# ---------------------------------------------------------------------------

sub fortunes {
	my ($name) = @_;
	my $path = "$FORTUNE_DIR/$name.u8";
	my @records = split /^%\n/m, read_utf8($path);
	my @articles;
	for my $n (0 .. $#records) {
		my $r = $records[$n];
		$r =~ s/\e\[[0-9;]*m//g;          # ANSI colours
		my @lines = grep { /\S/ } map { s/^\s+|\s+$//gr } split /\n/, $r;
		next unless @lines;
		my $body = join "\n", @lines;
		(my $dense = $body) =~ s/\s+//g;
		next if length($dense) < $MIN_FORTUNE_CHARS;
		next if han_ratio($body) < 0.8;
		# title: the 《...》 name if the record has one, else its first line
		my ($title) = $body =~ /《([^》]+)》/;
		$title //= $lines[0];
		push @articles, {
			lang   => 'zh',
			source => "fortunes-zh/$name#" . ($n + 1),
			title  => $title,
			body   => $body,
		};
	}
	return @articles;
}

# ---------------------------------------------------------------------------
# choosing originals
# ---------------------------------------------------------------------------

# Exact duplicates (same text up to whitespace) are kept once: the corpus repeats a few.
sub unique_bodies {
	my %seen;
	return grep { (my $k = $_->{body}) =~ s/\s+//g; !$seen{$k}++ } @_;
}

my @en = unique_bodies(docref_sections('en', 'en'));
my @zh_docref = unique_bodies(docref_sections('zh', 'zh-cn'));
my @zh_fortune = unique_bodies(map { fortunes($_) } qw(tang300 song100 chinese));

@en = spread($PER_LANG, @en);
# Chinese: half Debian Reference prose, half poems and sayings, as far as each goes.
my $zh_doc_n = @zh_docref < $PER_LANG / 2 ? scalar @zh_docref : int($PER_LANG / 2);
my @zh = (spread($zh_doc_n, @zh_docref));
push @zh, spread($PER_LANG - @zh, @zh_fortune);
@zh = unique_bodies(@zh);

# ---------------------------------------------------------------------------
# edits
# ---------------------------------------------------------------------------

my @EN_BYLINES = (
	'By Staff Reporter', 'By Our Correspondent', 'By Alex Morgan, Technology Desk',
	'By Priya Raman | Updated 14:05', 'From our wire services',
);
my @EN_HEADLINE = ('EXCLUSIVE: ', 'Explainer: ', 'How-to: ', 'Analysis: ', '');
my @EN_FOOTERS = (
	'Copyright 2024 The Daily Terminal. All rights reserved. This material may not be published, broadcast, rewritten or redistributed without permission.',
	'Subscribe to our newsletter for more stories like this one. Follow us on social media and share this article with your friends.',
	'This article first appeared in the Debian Reference and is republished under its license. Reporting by staff; editing by the news desk.',
);
my @ZH_BYLINES = (
	'本报讯 记者 王小明 报道', '本报讯（记者 李华 实习生 张静）', '新华社北京电 记者 陈晨',
	'本报综合消息', '【科技日报】记者 刘洋',
);
my @ZH_HEADLINE = ('【转载】', '独家：', '干货：', '深度：', '');
my @ZH_FOOTERS = (
	'（责任编辑：赵敏）版权所有，未经授权不得转载。',
	'欢迎关注我们的公众号，获取更多精彩内容。本文仅代表作者观点，不代表本站立场。',
	'来源：网络整理。如有侵权请联系删除。',
);

# Sentences with their trailing punctuation and space, so join('') gives the text back.
sub sentences {
	my ($lang, $para) = @_;
	return $lang eq 'en'
		? ($para =~ /(.+?(?:[.!?](?=\s)\s*|$))/gs)
		: ($para =~ /(.+?(?:[。！？；!?](?:[”」』])?|\n|$))/gs);
}

sub typo {
	my ($lang, $body) = @_;
	my $letter = $lang eq 'en' ? qr/\p{Latin}/ : qr/\p{Han}/;
	my @pos;
	while ($body =~ /(?=$letter$letter)/g) { push @pos, pos($body); }
	return ($body, 'none') unless @pos;
	my $p = pick(@pos);
	if (rnd() < 0.5) {
		substr($body, $p, 2) = reverse substr($body, $p, 2);
		return ($body, 'swap');
	}
	substr($body, $p, 1) = '';
	return ($body, 'delete');
}

sub drop_paragraph {
	my ($lang, $body) = @_;
	my @paras = split /\n/, $body;
	if (@paras >= 3) {
		splice @paras, 1 + rand_int(@paras - 1), 1;    # never the first
		return join "\n", @paras;
	}
	# too few paragraphs: drop one sentence instead
	my @sent = sentences($lang, $body);
	return $body if @sent < 3;
	splice @sent, 1 + rand_int(@sent - 1), 1;
	return join '', @sent;
}

sub swap_sentences {
	my ($lang, $body) = @_;
	my @paras = split /\n/, $body;
	my @candidates = grep { my @s = sentences($lang, $paras[$_]); @s >= 2 } 0 .. $#paras;
	return $body unless @candidates;
	my $i = pick(@candidates);
	my @s = sentences($lang, $paras[$i]);
	my $j = rand_int(@s - 1);
	# keep the separators where they were: move the sentence texts only
	my ($a, $b) = ($s[$j], $s[$j + 1]);
	my ($a_text, $a_tail) = $a =~ /^(.*?)(\s*)$/s;
	my ($b_text, $b_tail) = $b =~ /^(.*?)(\s*)$/s;
	@s[$j, $j + 1] = ($b_text . $a_tail, $a_text . $b_tail);
	$paras[$i] = join '', @s;
	return join "\n", @paras;
}

my %TO_FULL = map { $_ => chr(ord($_) + 0xFEE0) } split //, ',;:!?()';
my %TO_HALF = ('，' => ',', '；' => ';', '：' => ':', '！' => '!', '？' => '?', '（' => '(', '）' => ')');

# English: typographic quotes and dashes, as a CMS does.  Chinese: full-width punctuation to
# ASCII and ASCII letters and digits to full width, as a careless copy does.
sub punctuation_width {
	my ($lang, $body) = @_;
	if ($lang eq 'en') {
		$body =~ s/"(\S[^"]*?)"/\x{201C}$1\x{201D}/g;
		$body =~ s/(\w)'(\w)/$1\x{2019}$2/g;
		$body =~ s/ - / \x{2014} /g;
		$body =~ s/([,;:!?])(?= )/$TO_FULL{$1}/g if rnd() < 0.3;
		return $body;
	}
	$body =~ s/([，；：！？（）])/$TO_HALF{$1}/g;
	$body =~ s/([A-Za-z0-9])/chr(ord($1) + 0xFEE0)/ge;
	return $body;
}

# Keep the first 80% or so, cut at the end of a sentence.
sub truncate_body {
	my ($lang, $body) = @_;
	my $want = int(length($body) * 0.8);
	my $cut = 0;
	my $end = $lang eq 'en' ? qr/[.!?](?=\s)|\n/ : qr/[。！？；]|\n/;
	while ($body =~ /$end/g) {
		last if pos($body) > $want;
		$cut = pos($body);
	}
	$cut = $want if $cut < length($body) * 0.5;
	return substr($body, 0, $cut) =~ s/\s+$//r;
}

# One reprint of $orig: a random set of edits (at least one), applied in a fixed order.
sub reprint {
	my ($orig) = @_;
	my $lang = $orig->{lang};
	my $body = $orig->{body};
	my $title = $orig->{title};
	my @edits;
	my %do;
	until (%do) {
		$do{byline}   = 1 if rnd() < 0.5;
		$do{footer}   = 1 if rnd() < 0.5;
		$do{typos}    = 1 + rand_int(3) if rnd() < 0.6;
		$do{drop}     = 1 if rnd() < 0.3;
		$do{swap}     = 1 if rnd() < 0.3;
		$do{width}    = 1 if rnd() < 0.3;
		$do{truncate} = 1 if rnd() < 0.2;
	}
	if ($do{drop}) {
		my $new = drop_paragraph($lang, $body);
		push @edits, 'drop_para' if $new ne $body;
		$body = $new;
	}
	if ($do{swap}) {
		my $new = swap_sentences($lang, $body);
		push @edits, 'swap_sent' if $new ne $body;
		$body = $new;
	}
	if ($do{truncate}) {
		my $new = truncate_body($lang, $body);
		push @edits, 'truncate_' . int(100 * length($new) / length($body) + 0.5) if $new ne $body;
		$body = $new;
	}
	if ($do{typos}) {
		my $n = 0;
		for (1 .. $do{typos}) {
			my ($new, $kind) = typo($lang, $body);
			$n++ if $kind ne 'none';
			$body = $new;
		}
		push @edits, "typos_$n" if $n;
	}
	if ($do{width}) {
		my $new = punctuation_width($lang, $body);
		push @edits, 'punct_width' if $new ne $body;
		$body = $new;
	}
	if ($do{byline}) {
		my $head = $lang eq 'en' ? pick(@EN_HEADLINE) . $title : pick(@ZH_HEADLINE) . $title;
		my $by = $lang eq 'en' ? pick(@EN_BYLINES) : pick(@ZH_BYLINES);
		$body = "$head\n$by\n$body";
		$title = $head;
		push @edits, 'byline';
	}
	if ($do{footer}) {
		$body .= "\n" . ($lang eq 'en' ? pick(@EN_FOOTERS) : pick(@ZH_FOOTERS));
		push @edits, 'footer';
	}
	# an edit can come to nothing (e.g. no sentence to swap): then make it a footer
	unless (@edits) {
		$body .= "\n" . ($lang eq 'en' ? pick(@EN_FOOTERS) : pick(@ZH_FOOTERS));
		push @edits, 'footer';
	}
	return { %$orig, source => 'reprint', title => $title, body => $body, edits => join(',', @edits) };
}

# ---------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------

my $id = 0;
my @rows;
for my $a (@en, @zh) {
	$a->{id} = ++$id;
	push @rows, [$a->{id}, $a->{lang}, $a->{source}, undef, '', $a->{title}, $a->{body}];
}
my %reprinted;
for my $list (\@en, \@zh) {
	my @chosen = (shuffled(@$list))[0 .. ($REPRINTS < @$list ? $REPRINTS : @$list) - 1];
	@chosen = sort { $a->{id} <=> $b->{id} } @chosen;
	my @second = (shuffled(@chosen))[0 .. ($SECOND < @chosen ? $SECOND : @chosen) - 1];
	for my $orig (@chosen, sort { $a->{id} <=> $b->{id} } @second) {
		my $r = reprint($orig);
		push @rows, [++$id, $r->{lang}, $r->{source}, $orig->{id}, $r->{edits}, $r->{title}, $r->{body}];
		$reprinted{$orig->{lang}}++;
	}
}

print join("\t", map { copy_escape($_) } @$_), "\n" for @rows;

printf STDERR "make_articles: %d English and %d Chinese originals (%d Debian Reference, %d fortunes-zh), "
	. "%d + %d reprints, %d rows\n",
	scalar @en, scalar @zh, scalar(grep { $_->{source} =~ /^debian/ } @zh), scalar(grep { $_->{source} =~ /^fortunes/ } @zh),
	$reprinted{en} // 0, $reprinted{zh} // 0, scalar @rows;
