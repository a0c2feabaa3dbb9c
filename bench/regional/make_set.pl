#!/usr/bin/perl
# make_set.pl: a natural evaluation set of regional Chinese, independently
# written Taiwan and mainland texts of the same content: the zh_TW and zh_CN
# message catalogs that Debian packages ship for the same program.
#
# For each catalog in @CATALOGS (the Debian packages that ship both are in
# run.sh), msgunfmt reads /usr/share/locale/{zh_TW,zh_CN}/LC_MESSAGES/X.mo;
# the messages translated on both sides (same msgctxt and msgid, the first
# plural form) are taken in msgid order, their markup, printf directives and
# accelerators removed, and cut into documents of at least MIN_CHARS Han
# characters on the Taiwan side; a document pair is the Taiwan and the
# mainland translation of the same messages.  At most MAX_DOCS documents a
# catalog, evenly spread, so that no program dominates.  Catalogs named in
# EXCLUDE are skipped (run.sh checks that no catalog's Taiwan side looks
# made from the mainland one by conversion; none does in Debian 12).
#
# Output (stdout): id <TAB> catalog <TAB> side (tw|cn) <TAB> text, one
# document a line (newlines in messages become spaces).
use strict;
use warnings;
use utf8;
use open qw(:std :encoding(UTF-8));

my $MIN_CHARS = $ENV{MIN_CHARS} // 150;
my $MAX_DOCS = $ENV{MAX_DOCS} // 25;
my @CATALOGS = split ' ', ($ENV{CATALOGS} // die "CATALOGS is empty\n");
my %EXCLUDE = map { $_ => 1 } split ' ', ($ENV{EXCLUDE} // '');

# msgctxt\x04msgid => msgstr of one .mo
sub read_catalog {
	my ($path) = @_;
	my %m;
	open(my $fh, '-|', 'msgunfmt', '--no-wrap', $path) or die "msgunfmt $path: $!";
	binmode($fh, ':encoding(UTF-8)');
	my ($field, %cur) = ('');
	my $flush = sub {
		if (defined $cur{msgid} && $cur{msgid} ne '' && defined $cur{msgstr} && $cur{msgstr} ne '') {
			my $key = (defined $cur{msgctxt} ? "$cur{msgctxt}\x04" : '') . $cur{msgid};
			$m{$key} = $cur{msgstr};
		}
		%cur = ();
	};
	while (my $line = <$fh>) {
		chomp $line;
		if ($line =~ /^(msgctxt|msgid|msgid_plural|msgstr(?:\[(\d+)\])?) "(.*)"$/) {
			my ($kw, $n, $s) = ($1, $2, $3);
			$flush->() if $kw eq 'msgctxt' || ($kw eq 'msgid' && defined $cur{msgstr});
			$field = $kw =~ /^msgstr/ ? ((defined $n && $n > 0) ? 'skip' : 'msgstr') : $kw;
			$cur{$field} = unescape($s) unless $field eq 'skip';
		}
		elsif ($line =~ /^"(.*)"$/) {
			$cur{$field} .= unescape($1) unless $field eq 'skip';
		}
	}
	$flush->();
	close $fh or die "msgunfmt $path failed\n";
	return \%m;
}

sub unescape {
	my ($s) = @_;
	$s =~ s/\\(.)/$1 eq 'n' ? "\n" : $1 eq 't' ? "\t" : $1/ge;
	return $s;
}

# What a reader sees of a message: no markup, directives or accelerators.
sub clean {
	my ($s) = @_;
	$s =~ s/<[^<>]{1,40}>//g;							# markup
	$s =~ s/%(?:\d+\$)?[-+ #0'I]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspnm%]//g;
	$s =~ s/%\{?\w+\}?//g;								# %{name}, %name
	$s =~ s/\$\{\w+\}|\{\d*\}//g;						# ${name}, {0}
	$s =~ s/\((?:_|&)\w\)//g;							# (_F) accelerators
	$s =~ s/[_&](?=\w)//g;								# _File, &File
	$s =~ s/[\\\x00-\x1f\x7f]/ /g;					# escapes, controls (and COPY's backslash)
	$s =~ s/\s+/ /g;
	$s =~ s/^ | $//g;
	return $s;
}

sub han { my ($s) = @_; return scalar(() = $s =~ /\p{Han}/g) }

my $id = 0;
for my $cat (@CATALOGS) {
	next if $EXCLUDE{$cat};
	my $tw = read_catalog("/usr/share/locale/zh_TW/LC_MESSAGES/$cat.mo");
	my $cn = read_catalog("/usr/share/locale/zh_CN/LC_MESSAGES/$cat.mo");
	my @docs;
	my ($t, $c) = ('', '');
	for my $k (sort grep { exists $cn->{$_} } keys %$tw) {
		my ($a, $b) = (clean($tw->{$k}), clean($cn->{$k}));
		next unless han($a) && han($b);
		$t .= ($t eq '' ? '' : ' ') . $a;
		$c .= ($c eq '' ? '' : ' ') . $b;
		if (han($t) >= $MIN_CHARS) {
			push @docs, [$t, $c];
			($t, $c) = ('', '');
		}
	}
	my $n = @docs;
	my @pick = $n <= $MAX_DOCS ? (0 .. $n - 1) : map { int($_ * $n / $MAX_DOCS) } 0 .. $MAX_DOCS - 1;
	for my $i (@pick) {
		$id++;
		print "$id\t$cat\ttw\t$docs[$i][0]\n";
		print "$id\t$cat\tcn\t$docs[$i][1]\n";
	}
	printf STDERR "%-28s %4d documents, %d kept\n", $cat, $n, scalar @pick;
}
