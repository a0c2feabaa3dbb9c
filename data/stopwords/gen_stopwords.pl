#!/usr/bin/perl
# Generate src/core/stopwords_data.c from data/stopwords/{zh,en,snowball_en}.txt.
use strict;
use warnings;
use FindBin;

sub emit {
	my ($lang) = @_;
	open(my $fh, '<:raw', "$FindBin::Bin/$lang.txt") or die "$lang.txt: $!";
	my @words;
	while (my $w = <$fh>) {
		chomp $w;
		next if $w eq '';
		$w =~ s/(["\\])/\\$1/g;
		push @words, $w;
	}
	close $fh;
	print "const char *const tfp_stopwords_${lang}_data[] = {\n";
	print "\t\"$_\",\n" for @words;
	print "};\nconst size_t tfp_stopwords_${lang}_count = ", scalar(@words), ";\n\n";
}

print "/*\n * stopwords_data.c: the built-in stopword lists (generated; do not edit).\n";
print " *\n * From npm stopwords-zh 0.4.0 and stopwords-en 0.3.0 (MIT, see\n";
print " * data/stopwords/LICENSE; en without 4 entries no tokenizer can emit) and\n";
print " * the Snowball English list PostgreSQL ships (BSD, see\n";
print " * data/stopwords/LICENSE.snowball), by data/stopwords/gen_stopwords.pl.\n */\n";
print "#include <stddef.h>\n\n";
print "extern const char *const tfp_stopwords_zh_data[];\nextern const size_t tfp_stopwords_zh_count;\n";
print "extern const char *const tfp_stopwords_en_data[];\nextern const size_t tfp_stopwords_en_count;\n";
print "extern const char *const tfp_stopwords_snowball_en_data[];\nextern const size_t tfp_stopwords_snowball_en_count;\n\n";
emit('zh');
emit('en');
emit('snowball_en');
