#!/usr/bin/perl
# make_revisions.pl: natural revisions of documents from Debian packages shipped in two versions, as COPY text.
#
# Each text is one section of a manual in one version; a section of the older version and the section of the
# newer version with the same name are a revision pair, every other cross-version pair of the same set is not.
# Sections are aligned by name only, never by their text, so the labels do not lean towards any fingerprint.
# Unlike bench/quality and bench/stories, a section keeps everything it holds: prose, lists, tables (a row a
# line, cells separated by tabs) and listings, since short sections of code and tables are where SimHash
# fails.
#
#   edu-en, edu-zh  Debian Edu manual, bullseye then bookworm (debian-edu-doc-en, debian-edu-doc-zh-cn): the
#                   heading path, section numbers dropped, release names and numbers as a placeholder
#   lua             Lua reference manual 5.1 then 5.2 (lua5.1-doc, lua5.2-doc): the anchor of a heading
#   automake        Automake manual 1.11 then 1.16 (automake1.11, automake): the info node
#
# Sections shorter than 200 characters (English) or 100 (Chinese) are left out, and so are Chinese sections
# whose letters are mostly Latin (untranslated); each keeps its first 6000 characters.  The split (tune or
# report) is a fixed hash of the set and name, so both versions of a section fall in the same split.
#
# Output, tab-separated, COPY text, no header:  id  set  lang  version (0 older, 1 newer)  name  split  body
# Usage: perl bench/revisions/make_revisions.pl > revisions.tsv   (a summary per set goes to stderr)

use strict;
use warnings;
use utf8;
use FindBin;
use IO::Uncompress::Gunzip qw(gunzip $GunzipError);
use Digest::MD5 qw(md5);
use Encode ();
use lib "$FindBin::Bin/../../scripts";
use TextfpHtml qw(html_to_text read_utf8);
use TextfpCorpus qw(han_ratio copy_escape);

binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

my %MIN_CHARS = (en => 200, zh => 100);
my $MAX_CHARS = 6000;
my $EDU = '/usr/share/doc/debian-edu-doc';

my @SETS = (
	['edu-en', 'en', 'edu', "$EDU-en/debian-edu-bullseye-manual.html", "$EDU-en/debian-edu-bookworm-manual.html"],
	['edu-zh', 'zh', 'edu', "$EDU-zh-cn/debian-edu-bullseye-manual.html", "$EDU-zh-cn/debian-edu-bookworm-manual.html"],
	['lua', 'en', 'lua', '/usr/share/doc/lua5.1-doc/doc/manual.html', '/usr/share/doc/lua5.2/manual.html'],
	['automake', 'en', 'info', '/usr/share/info/automake-1.11.info', '/usr/share/info/automake-1.16.info'],
);

# HTML to lines: blocks and table rows end lines, cells are tab-separated, listings keep their lines.
sub html_lines {
	my ($html) = @_;
	$html =~ s{<pre\b[^>]*>(.*?)</pre>}{my $p = $1; $p =~ s/\n/<br>/g; "<br>$p<br>"}gse;
	$html =~ s/\n/ /g;
	$html =~ s{</t[dh]>}{\t}g;
	$html =~ s/<\/?(p|li|dt|dd|div|br|ul|ol|dl|tr|table|blockquote|h[1-6])\b[^>]*>/\n/g;
	my @out;
	for my $line (split /\n/, $html) {
		my @cells = grep { length } map { html_to_text($_) } split /\t/, $line;
		push @out, join("\t", @cells) if @cells;
	}
	return @out;
}

sub edu_name {
	my ($t) = @_;
	$t =~ s/^\s*[0-9A-Z]+(\.[0-9]+)*\.?\s+//;
	$t =~ s/\b(buster|bullseye|bookworm|trixie)\b/REL/gi;
	$t =~ s/\b(10|11|12|13)\b/N/g;
	$t =~ s/\s+/ /g;
	return lc $t;
}

sub edu_sections {
	my ($path) = @_;
	my (undef, @parts) = split /<h([2-6]) class="title"[^>]*>(.*?)<\/h[2-6]>/s, read_utf8($path);
	my ($chapter, @out) = ('');
	for (my $i = 0; $i + 2 <= $#parts; $i += 3) {
		my ($level, $head, $body) = @parts[$i .. $i + 2];
		my $name = edu_name(html_to_text($head));
		$chapter = $name if $level == 2;
		push @out, [$level == 2 ? $name : "$chapter / $name", html_lines($body)];
	}
	return @out;
}

sub lua_sections {
	my ($path) = @_;
	my (undef, @parts) = split /<h[1-3]>(.*?)<\/h[1-3]>/s, read_utf8($path);
	my @out;
	for (my $i = 0; $i + 1 <= $#parts; $i += 2) {
		my ($head, $body) = @parts[$i, $i + 1];
		my $name = $head =~ /<a name="([^"]+)"/ ? $1 : html_to_text($head);
		# numbered chapters move between versions: name them by their title
		$name = lc html_to_text($head) if $name =~ /^[0-9.]+$/;
		$name =~ s/^[0-9.]+\s*(-|\x{2013}|&ndash;)?\s*//;
		push @out, [$name, html_lines($body)];
	}
	return @out;
}

sub info_sections {
	my ($base) = @_;
	my @files = sort { (($a =~ /-(\d+)\.gz$/)[0] // 0) <=> (($b =~ /-(\d+)\.gz$/)[0] // 0) } glob("$base*.gz");
	my $all = '';
	for my $f (@files) {
		gunzip($f => \my $raw) or die "$f: $GunzipError";
		$all .= $raw;
	}
	utf8::decode($all);
	my @out;
	for my $node (split /\x1f\n/, $all) {
		next unless $node =~ s/^File: [^,]*,\s*Node: ([^,\n]+)[^\n]*\n//;
		my $name = $1;
		my @lines = grep { /\S/ } split /\n/, $node;
		s/\s+$// for @lines;
		push @out, [$name, @lines];
	}
	return @out;
}

my $id = 0;
for my $set (@SETS) {
	my ($label, $lang, $kind, @paths) = @$set;
	my (%seen, %count);
	for my $version (0, 1) {
		my @sections = $kind eq 'edu' ? edu_sections($paths[$version])
			: $kind eq 'lua' ? lua_sections($paths[$version]) : info_sections($paths[$version]);
		my %dup;
		for my $s (@sections) {
			my ($name, @lines) = @$s;
			$name .= ' #' . $dup{$name} if $dup{$name}++;
			my $body = join "\n", @lines;
			next if length $body < $MIN_CHARS{$lang};
			next if $lang eq 'zh' && han_ratio($body) < 0.5;
			next if $name =~ /licen[cs]e|copyright|index$/i;
			$body = substr($body, 0, $MAX_CHARS);
			my $split = unpack('C', md5(Encode::encode("UTF-8", "$label/$name"))) % 2 ? 'report' : 'tune';
			print join("\t", ++$id, $label, $lang, $version, copy_escape($name), $split, copy_escape($body)), "\n";
			$count{$version}++;
			$seen{$name} |= 1 << $version;
		}
	}
	my $pairs = grep { $_ == 3 } values %seen;
	printf STDERR "%-9s %4d older, %4d newer sections, %4d revision pairs\n", $label, $count{0} // 0, $count{1} // 0, $pairs;
}
