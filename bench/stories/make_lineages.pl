#!/usr/bin/perl
# make_lineages.pl: natural revision lineages from documents Debian ships in several versions, as COPY text.
#
# A lineage is one section of a manual followed across its releases: the versions of the section, ordered by
# release (an older release is an earlier time).  Every section is one text, cut at headings (HTML) or info
# nodes; a section present in one version only is a lineage of one.  Sections are aligned across versions by
# name only, never by their text, so the labels do not lean towards what a fingerprint finds:
#
#   edu-en, edu-zh,  Debian Edu manual, bullseye (11) then bookworm (12), English, Simplified Chinese and
#   edu-ja           Japanese (debian-edu-doc-en, -zh-cn, -ja): the heading path (chapter heading, section
#                    heading), section numbers dropped, release names and numbers replaced by a placeholder
#   clang            Clang's documentation 13, 14, 15, 16, 19 (clang-N-doc): the page and the section's
#                    HTML id (its heading where Sphinx numbered the id: id1, id2, ...); the release notes
#                    are left out (a new text each release under the same ids)
#   guile            Guile reference manual 2.2 then 3.0 (guile-2.2-doc, guile-3.0-doc): the info node
#   automake         Automake manual 1.11 then 1.16 (automake1.11, automake): the info node
#   lua              Lua reference manual 5.1 then 5.2 (lua5.1-doc, lua5.2-doc): the anchor of an API entry
#                    (lua_call, pdf-string.format), else the heading without its number
#
# A name found twice in one version gets its occurrence number.  A section whose name the previous version
# lacks may still continue one of its sections: renamed or moved with its words kept (word-set Jaccard 0.9 or
# more), or renamed and edited (0.5 or more, both lone and each other's best match); RENAMES=1 lists them.  Prose only: listings (<pre>), tables and,
# in info, menus and lines indented as deep as examples inside definitions are left out; sections shorter
# than 400 characters (English) or 200 (Chinese, Japanese) after that are left out, as bench/quality does, and so are
# licence, index and changelog sections and info's Top node (the manual's title and licence notice), which
# every manual repeats nearly verbatim and which are not articles.
#
# Output, tab-separated, COPY text, no header, in (time, key) order:
#   key  lang  set  lineage  version  time  source  title  body
# key numbers the texts in that order; lineage is "set/name"; time is the version's release date.
# A summary per set goes to stderr.  Same packages, same output.
#
# Usage: perl bench/stories/make_lineages.pl [--sets edu-en,edu-zh,edu-ja,clang,guile,automake,lua] > lineages.tsv

use strict;
use warnings;
use utf8;
use Getopt::Long;
use FindBin;
use IO::Uncompress::Gunzip qw(gunzip $GunzipError);
use lib "$FindBin::Bin/../../scripts";
use TextfpHtml qw(html_to_text read_utf8);
use TextfpCorpus qw(cap_paragraphs copy_escape);

binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

my %MIN_CHARS = (en => 400, zh => 200, ja => 200);
my $MAX_CHARS = 6000;
my $SKIP_NAME = qr/^top$|licen[cs]e|copying|index$|^(concept|function|procedure|variable|type|macro) index|changelog|history of automake/i;

my $sets = 'edu-en,edu-zh,edu-ja,clang,guile,automake,lua';
GetOptions('sets=s' => \$sets) or die "usage: $0 [--sets LIST]\n";

my $EDU = '/usr/share/doc/debian-edu-doc';
my %SOURCE = (
	'edu-en' => { lang => 'en', kind => 'edu', versions => [
		['bullseye', '2021-08-14', "$EDU-en/debian-edu-bullseye-manual.html"],
		['bookworm', '2023-06-10', "$EDU-en/debian-edu-bookworm-manual.html"]] },
	'edu-zh' => { lang => 'zh', kind => 'edu', versions => [
		['bullseye', '2021-08-14', "$EDU-zh-cn/debian-edu-bullseye-manual.html"],
		['bookworm', '2023-06-10', "$EDU-zh-cn/debian-edu-bookworm-manual.html"]] },
	'edu-ja' => { lang => 'ja', kind => 'edu', versions => [
		['bullseye', '2021-08-14', "$EDU-ja/debian-edu-bullseye-manual.html"],
		['bookworm', '2023-06-10', "$EDU-ja/debian-edu-bookworm-manual.html"]] },
	'clang' => { lang => 'en', kind => 'sphinx', versions => [
		map { [$_->[0], $_->[1], glob("/usr/share/doc/clang-$_->[0]/html/*.html")] }
			['13', '2021-10-04'], ['14', '2022-03-25'], ['15', '2022-09-06'], ['16', '2023-03-17'],
			['19', '2024-09-17']] },
	'guile' => { lang => 'en', kind => 'info', versions => [
		['2.2', '2017-03-16', info_files('/usr/share/info/guile-2.2/guile.info')],
		['3.0', '2020-01-16', info_files('/usr/share/info/guile-3.0/guile.info')]] },
	'automake' => { lang => 'en', kind => 'info', versions => [
		['1.11', '2009-05-17', info_files('/usr/share/info/automake-1.11.info')],
		['1.16', '2018-02-25', info_files('/usr/share/info/automake-1.16.info')]] },
	'lua' => { lang => 'en', kind => 'lua', versions => [
		['5.1', '2006-02-21', '/usr/share/doc/lua5.1-doc/doc/manual.html'],
		['5.2', '2011-12-16', '/usr/share/doc/lua5.2/manual.html']] },
);

# The parts of an info manual in reading order: the main file, then name-1, name-2, ...
sub info_files {
	my ($base) = @_;
	my @parts = sort { ($a =~ /-(\d+)\.gz$/)[0] <=> ($b =~ /-(\d+)\.gz$/)[0] } glob("$base-*.gz");
	return @parts ? @parts : ("$base.gz");
}

sub read_gz {
	my ($path) = @_;
	gunzip($path => \my $raw) or die "$path: $GunzipError\n";
	utf8::decode($raw);
	return $raw;
}

# Named entities html_to_text leaves alone (the Lua manual's).
my %MORE_ENTITY = (ndash => "\x{2013}", mdash => "\x{2014}", middot => "\x{b7}", sect => "\x{a7}",
	lsquo => "\x{2018}", rsquo => "\x{2019}", ldquo => "\x{201c}", rdquo => "\x{201d}", acute => "\x{b4}",
	le => "\x{2264}", ge => "\x{2265}", copy => "\x{a9}", pi => "\x{3c0}", hellip => "\x{2026}");

sub text_of {
	my ($html) = @_;
	$html =~ s/&([a-z]+);/exists $MORE_ENTITY{$1} ? $MORE_ENTITY{$1} : "&$1;"/ge;
	return html_to_text($html);
}

# Prose of an HTML fragment, one paragraph a block element (p, li, dt, dd, div, ...): listings, tables and
# tables of contents out.
sub html_paragraphs {
	my ($html) = @_;
	$html =~ s/<pre\b.*?<\/pre>//gs;
	$html =~ s/<table\b.*?<\/table>//gs;
	$html =~ s/<div class="toc">.*?<\/dl>\s*<\/div>//gs;
	$html =~ s/<nav class="contents.*?<\/nav>//gs;
	$html =~ s/<div class="contents[^"]*topic".*?<\/ul>\s*<\/div>//gs;
	$html =~ s/<(p|div) class="(title|rubric)">.*?<\/\1>//gs;
	$html =~ s/<div class="highlight[^"]*">.*?<\/div>//gs;
	$html =~ s/<a class="headerlink".*?<\/a>//gs;
	$html =~ s/<\/?(p|li|dt|dd|div|br|ul|ol|dl|blockquote|section|h[1-6])\b[^>]*>/\n/g;
	return grep { length } map { text_of($_) } split /\n/, $html;
}

# Share of Han and kana among Han, kana and Latin letters (han_ratio counts no kana).
sub cjk_ratio {
	my ($s) = @_;
	my $cjk = ($s =~ tr/\x{3040}-\x{30FF}\x{3400}-\x{9FFF}\x{F900}-\x{FAFF}//);
	my $latin = ($s =~ tr/A-Za-z\x{C0}-\x{24F}//);
	return $cjk + $latin ? $cjk / ($cjk + $latin) : 0;
}

# Heading text as a name: section numbers, release names and release numbers out.
sub heading_name {
	my ($t) = @_;
	$t =~ s/^\s*[0-9A-Z]+(\.[0-9]+)*\.?\s+//;
	$t =~ s/^appendix [A-Z] - /appendix - /i;
	$t =~ s/\b(buster|bullseye|bookworm|trixie|stretch)\b/REL/gi;
	$t =~ s/\b(10|11|12|13)\b/N/g;
	$t =~ s/\s+/ /g;
	return lc $t;
}

# Debian Edu's one-page DocBook HTML: a section per <hN class="title">, named by its chapter (the chapter's
# id where DocBook kept one, else its heading) and heading.  Release notes are named by the release they
# describe, not by where they stand: the chapter "New features in Debian Edu <this release>" moves to the
# appendix "Features in older releases" in the next manual, whose subsection headings carry a release date.
my $CODENAME = qr/\b(squeeze|wheezy|jessie|stretch|buster|bullseye|bookworm|trixie)\b/i;
sub edu_sections {
	my ($path) = @_;
	my $html = read_utf8($path);
	my (undef, @parts) = split /<h([2-6]) class="title"[^>]*>(.*?)<\/h[2-6]>/s, $html;
	my @out;
	my ($chapter, $chapter_id, $release) = ('', '', undef);
	for (my $i = 0; $i + 2 <= $#parts; $i += 3) {
		my ($level, $head, $body) = @parts[$i .. $i + 2];
		my $title = text_of($head);
		my $name = heading_name($title);
		my ($code) = $title =~ $CODENAME;
		if ($level == 2) {
			($chapter_id) = $head =~ /<a id="([^"]+)"/;
			$chapter_id = '' if !defined $chapter_id || $chapter_id =~ /^idm[0-9]+$/;
			$chapter = $chapter_id || $name;
			$release = $chapter_id eq 'Features' && $code ? lc $code : undef;
		} elsif ($level == 3) {
			$release = $code && ($chapter_id eq 'Features' || $title =~ /[0-9]{4}-[0-9]{2}-[0-9]{2}/) ? lc $code
				: $chapter_id eq 'Features' ? $release : undef;
		}
		$title =~ s/^\s*[0-9A-Z]+(\.[0-9]+)*\.?\s+//;
		my $full = defined $release ? ($level <= 3 ? "features/$release" : "features/$release / $name")
			: $level == 2 ? $chapter : "$chapter / $name";
		push @out, { name => $full, title => $title, paras => [html_paragraphs($body)] };
	}
	return @out;
}

# Sphinx HTML: a section per heading, named by its page and the id of the <section> (or <div class="section">)
# that opens just before it; the section's own text runs to the next section or heading.
sub sphinx_sections {
	my (@files) = @_;
	my @out;
	for my $path (sort @files) {
		(my $page = $path) =~ s{.*/}{};
		next if $page =~ /^(ReleaseNotes|genindex|search|index)\.html$/;
		my $html = read_utf8($path);
		my $at = index($html, 'role="main"');
		$html = substr($html, $at) if $at >= 0;
		my @cuts = split /(<section id="[^"]*">|<div class="section" id="[^"]*">|<h[1-6]\b[^>]*>.*?<\/h[1-6]>)/s, $html;
		my ($id, $cur);
		for my $piece (@cuts) {
			if ($piece =~ /^<(?:section|div class="section") id="([^"]*)">$/) {
				$id = $1;
			} elsif ($piece =~ /^<h[1-6]\b[^>]*>(.*?)<\/h[1-6]>$/s) {
				my $title = text_of($1);
				$title =~ s/\x{b6}$//;
				# Sphinx numbers sections without a name of their own (id1, id2, ...): those numbers shift
				my $name = defined $id && $id !~ /^id[0-9]+$/ ? $id : heading_name($title);
				$cur = { name => "$page#$name", title => $title, paras => [] };
				push @out, $cur;
			} elsif ($cur) {
				push @{$cur->{paras}}, html_paragraphs($piece);
			}
		}
	}
	return @out;
}

# Lua's manual: <h1>..<h3> headings; API entries carry their function's name as the anchor.
sub lua_sections {
	my ($path) = @_;
	my $html = read_utf8($path);
	my (undef, @parts) = split /<h([1-3])>(.*?)<\/h[1-3]>/s, $html;
	my @out;
	for (my $i = 0; $i + 2 <= $#parts; $i += 3) {
		my ($level, $head, $body) = @parts[$i .. $i + 2];
		my $title = text_of($head);
		$title =~ s/^\s*[0-9]+(\.[0-9]+)*\s*(-|\x{2013})\s*//;
		my ($anchor) = $head =~ /<a name="([^"]+)"/;
		my $name = defined $anchor && $anchor !~ /^[0-9.]+$/ ? $anchor : lc $title;
		$body =~ s/<hr>\s*$//;
		push @out, { name => $name, title => $title, paras => [html_paragraphs($body)] };
	}
	return @out;
}

# Info: a section per node, named by the node; paragraphs are runs of lines between blank lines, joined.
sub info_sections {
	my (@files) = @_;
	my $all = join '', map { read_gz($_) } @files;
	my @out;
	for my $node (split /\x1f\n/, $all) {
		my ($name) = $node =~ /^File: [^,]*,\s+Node: ([^,\n]+)/ or next;
		my @lines = split /\n/, $node;
		shift @lines;
		$node = join "\n", @lines;
		$node =~ s/^\s*\n//;
		$node =~ s/^\* Menu:.*//ms;
		my @blocks = grep { /\S/ } split /\n\s*\n/, $node;
		my $title = $name;
		if (@blocks && $blocks[0] =~ /^(.+)\n[=*\-.]{3,}\s*$/) {
			($title = $1) =~ s/^[0-9A-Z]+(\.[0-9]+)*\s+//;
			shift @blocks;
		}
		my @paras;
		for my $b (@blocks) {
			next if $b =~ /^ {10}/m && $b !~ /^ {0,9}\S/m;   # an example inside a definition
			(my $t = $b) =~ s/\s+/ /g;
			$t =~ s/^ | $//g;
			push @paras, $t if length $t;
		}
		push @out, { name => $name, title => $title, paras => \@paras };
	}
	return @out;
}

my @rows;
my %summary;
for my $set (split /,/, $sets) {
	my $src = $SOURCE{$set} or die "unknown set $set\n";
	my $lang = $src->{lang};
	for my $v (@{$src->{versions}}) {
		my ($version, $date, @files) = @$v;
		-e $_ or die "$_ is missing: apt-get install the package named in $0\n" for @files;
		my @sections = $src->{kind} eq 'edu' ? edu_sections(@files)
			: $src->{kind} eq 'sphinx' ? sphinx_sections(@files)
			: $src->{kind} eq 'lua' ? lua_sections(@files)
			: info_sections(@files);
		my %seen;
		for my $s (@sections) {
			my $name = $s->{name};
			$name .= '#' . $seen{$s->{name}} if $seen{$s->{name}}++;
			next if $name =~ $SKIP_NAME || $s->{title} =~ $SKIP_NAME;
			my $body = join "\n", cap_paragraphs($MAX_CHARS, @{$s->{paras}});
			if (length($body) < $MIN_CHARS{$lang}) { $summary{$set}{short}++; next; }
			next if $lang ne 'en' && cjk_ratio($body) < 0.5;   # untranslated
			push @rows, { lang => $lang, set => $set, lineage => "$set/$name", version => $version,
				time => "$date 00:00:00+00", source => $files[0], title => $s->{title}, body => $body };
		}
	}
}

# Renames: a section of a later version whose name matches none of the previous version joins a section of
# the previous version with nearly the same words (word-set Jaccard >= 0.9: moved or renamed, text kept),
# or one that also lost its name there and is its best match both ways at 0.5 or more (renamed and edited).
# check_lineages.py lists them; --renames prints them here.
sub words {
	my ($t) = @_;
	my @w = map { lc } $t =~ /([A-Za-z0-9_]+|[\x{3040}-\x{30FF}\x{3400}-\x{9FFF}])/g;
	my @cjk = grep { /^[\x{3040}-\x{9FFF}]$/ } @w;
	return { map { $_ => 1 } @cjk > @w / 2 ? map { "$cjk[$_]$cjk[$_ + 1]" } 0 .. $#cjk - 1 : @w };
}

sub word_jaccard {
	my ($a, $b) = @_;
	my $both = grep { $b->{$_} } keys %$a;
	my $either = keys(%$a) + keys(%$b) - $both;
	return $either ? $both / $either : 1;
}

my %renamed;
for my $set (split /,/, $sets) {
	my @versions = map { $_->[0] } @{$SOURCE{$set}{versions}};
	my @in = grep { $_->{set} eq $set } @rows;
	$_->{words} = words("$_->{title}\n$_->{body}") for @in;
	my %count;
	$count{$_->{lineage}}++ for @in;
	for my $i (1 .. $#versions) {
		my @prev = grep { $_->{version} eq $versions[$i - 1] } @in;
		my @lone = grep { $_->{version} eq $versions[$i] && $count{$_->{lineage}} == 1 } @in;
		my @prev_lone = grep { $count{$_->{lineage}} == 1 } @prev;
		my %best_of_prev;   # a lone section of the previous version: its best lone match in this one
		for my $p (@prev_lone) {
			my ($best, $bj) = (undef, -1);
			for my $r (@lone) { my $j = word_jaccard($p->{words}, $r->{words}); ($best, $bj) = ($r, $j) if $j > $bj; }
			$best_of_prev{$p} = $best if $best;
		}
		for my $r (@lone) {
			my ($best, $bj) = (undef, -1);
			for my $p (@prev) { my $j = word_jaccard($r->{words}, $p->{words}); ($best, $bj) = ($p, $j) if $j > $bj; }
			next unless $best;
			next unless $bj >= 0.9 || ($bj >= 0.5 && $count{$best->{lineage}} == 1 && ($best_of_prev{$best} // 0) == $r);
			$renamed{$set}++;
			printf STDERR "rename %.3f %s (%s) -> %s\n", $bj, $best->{lineage}, $best->{version}, $r->{lineage}
				if $ENV{RENAMES};
			$count{$r->{lineage}}--;
			$r->{lineage} = $best->{lineage};
			$count{$r->{lineage}}++;
		}
	}
	delete $_->{words} for @in;
}

# (time, key) order: by release date, then set, then order within the document
my $n = 0;
my @order = sort { $rows[$a]{time} cmp $rows[$b]{time} || $rows[$a]{set} cmp $rows[$b]{set} || $a <=> $b } 0 .. $#rows;
my %size;
$size{$_->{lineage}}++ for @rows;
for my $i (@order) {
	my $r = $rows[$i];
	print join("\t", map { copy_escape($_) } ++$n, @$r{qw(lang set lineage version time source title body)}), "\n";
	$summary{$r->{set}}{texts}++;
	$summary{$r->{set}}{"v $r->{version}"}++;
}
for my $l (keys %size) {
	my ($set) = $l =~ m{^([^/]+)/};
	$summary{$set}{lineages}++;
	$summary{$set}{"lineages of $size{$l}"}++;
}
for my $set (split /,/, $sets) {
	$summary{$set}{renamed} = $renamed{$set} // 0;
	printf STDERR "%s: %s\n", $set, join ', ', map { "$_ $summary{$set}{$_}" } sort keys %{$summary{$set}};
}
