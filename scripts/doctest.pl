#!/usr/bin/perl
# doctest.pl: runs every ```sql block of README.md and docs/*.md as a test,
# so that the documentation stays true.
#
# Each page's blocks run in order, in one psql session, in a fresh database
# (UTF8, C collation) in which textfp is created first, unless the page's
# first statement creates it itself.  psql echoes the input (-a), so a page's
# results read like a pg_regress result file: its SQL, then what it printed.
# A page passes when
#
#   - every statement marked to fail does fail, and every other one succeeds;
#     a statement is marked by a comment starting with "-- ERROR" inside it,
#     after it on its last line, or on the comment lines right below it:
#
#         SELECT ''::simhash64;       -- ERROR: invalid input syntax ...
#
#   - its results equal test/doctest/expected/PAGE.out, so a stated result
#     that changes fails too.
#
# Markers, HTML comments that the rendered page does not show, placed right
# before a block (blank lines between are allowed):
#
#   <!-- doctest: skip: REASON -->   the block is a sketch and does not run
#                                    (the reason is required; keep these rare)
#   <!-- doctest: new database -->   the blocks from here on run in a fresh
#                                    database of their own
#   <!-- doctest: setup               SQL the page relies on without showing
#   CREATE TABLE ...;                 it (its tables, its rows): runs where it
#   -->                               stands, and is checked like a block
#
# Usage (the server from the libpq environment: PGHOST, PGPORT, PGUSER):
#
#   perl scripts/doctest.pl [--psql PATH] [--accept] [PAGE.md ...]
#
#   make installcheck-doctest     runs it against the installed textfp
#   make doctest-accept           rewrites the expected files from the results
#                                 (read the diff before committing them)
#
# Prints TAP: one test per page ("ok 3 - docs/dedup.md"), then a summary.
# Results go to test/doctest/results/, the differences to
# test/doctest/doctest.diffs.  Exit status 1 when a page failed.
use strict;
use warnings;
use File::Basename qw(basename);
use File::Path qw(make_path);
use Getopt::Long;

my $root = $0 =~ m{^(.*)/scripts/[^/]+$} ? $1 : '.';
my $psql = 'psql';
my $accept = 0;
my $maintenance_db = 'postgres';
GetOptions('psql=s' => \$psql, 'accept' => \$accept, 'maintenance-db=s' => \$maintenance_db)
  or die "usage: $0 [--psql PATH] [--accept] [--maintenance-db DB] [PAGE.md ...]\n";

my $expected_dir = "$root/test/doctest/expected";
my $results_dir = "$root/test/doctest/results";
my $diffs_file = "$root/test/doctest/doctest.diffs";
make_path($results_dir);
unlink $diffs_file;

# The marker psql prints after each statement: its number and SQLSTATE.
my $MARK = '@@doctest@@';

# Stable output whatever the client's settings.
$ENV{PGTZ} = 'UTC';
$ENV{PGDATESTYLE} = 'ISO, YMD';
$ENV{PGCLIENTENCODING} = 'UTF8';
delete $ENV{PGDATABASE};

my @pages = @ARGV;
if (!@pages)
{
	@pages = ('README.md', map { "docs/" . basename($_) } sort glob("$root/docs/*.md"));
}

sub slurp
{
	my ($file) = @_;
	open(my $fh, '<:raw', $file) or die "$file: $!\n";
	local $/;
	return scalar <$fh>;
}

sub spew
{
	my ($file, $text) = @_;
	open(my $fh, '>:raw', $file) or die "$file: $!\n";
	print $fh $text;
	close $fh or die "$file: $!\n";
	return;
}

# The SQL of a page: a list of segments (one per database), each a list of
# blocks { line => first line of SQL in the page, sql => text }.  Dies with
# "PAGE:LINE: message" on a marker it cannot use.
sub parse_page
{
	my ($page, $text) = @_;
	my @lines = split /\n/, $text, -1;
	my @segments = ([]);
	my ($pending_skip, $pending_new) = (undef, 0);
	for (my $i = 0; $i < @lines; $i++)
	{
		my $line = $lines[$i];
		my $n = $i + 1;
		if ($line =~ /^\s*<!--\s*doctest:\s*(.*?)\s*$/)
		{
			my $rest = $1;
			if ($rest =~ /^skip\s*:\s*(.*?)\s*-->\s*$/)
			{
				die "$page:$n: a skip marker needs a reason (<!-- doctest: skip: why -->)\n" if $1 eq '';
				$pending_skip = $n;
			}
			elsif ($rest =~ /^new database\s*-->\s*$/)
			{
				$pending_new = 1;
			}
			elsif ($rest =~ /^setup\s*$/)
			{
				die "$page:$pending_skip: a skip marker must stand right before a ```sql block\n"
				  if defined $pending_skip;
				my @sql;
				my $start = $n + 1;
				for ($i++; $i < @lines && $lines[$i] !~ /^\s*-->\s*$/; $i++)
				{
					push @sql, $lines[$i];
				}
				die "$page:$n: setup block without its closing -->\n" if $i >= @lines;
				if ($pending_new)
				{
					push @segments, [] if @{ $segments[-1] };
					$pending_new = 0;
				}
				push @{ $segments[-1] }, { line => $start, sql => join("\n", @sql) . "\n", setup => 1 };
			}
			else
			{
				die "$page:$n: unknown doctest marker: $line\n";
			}
			next;
		}
		if ($line =~ /^(\s*)```sql\s*$/)
		{
			my $indent = $1;	# a block inside a list item
			my @sql;
			my $start = $n + 1;
			for ($i++; $i < @lines && $lines[$i] !~ /^\s*```\s*$/; $i++)
			{
				(my $l = $lines[$i]) =~ s/^\Q$indent\E//;
				push @sql, $l;
			}
			die "$page:$n: unterminated ```sql block\n" if $i >= @lines;
			if ($pending_new)
			{
				push @segments, [] if @{ $segments[-1] };
				$pending_new = 0;
			}
			if (defined $pending_skip)
			{
				$pending_skip = undef;
				next;
			}
			push @{ $segments[-1] }, { line => $start, sql => join("\n", @sql) . "\n" };
			next;
		}
		if (defined $pending_skip && $line =~ /\S/)
		{
			die "$page:$pending_skip: a skip marker must stand right before a ```sql block\n";
		}
		die "$page:$n: a new database marker must stand right before a block\n"
		  if $pending_new && $line =~ /\S/;
	}
	die "$page:$pending_skip: a skip marker must stand right before a ```sql block\n"
	  if defined $pending_skip;
	return grep { @$_ } @segments;
}

# Splits a block into statements as psql does (top-level semicolons outside
# quotes, dollar quotes, comments and parentheses).  Returns a list of
# { start, end (0-based line of the ';'), col (offset after the ';'),
#   text, comments => [ [line, text], ... ] } and, separately, every comment
# of the block with its line and whether code precedes it on that line.
sub split_statements
{
	my ($sql) = @_;
	my @stmts;
	my @comments;
	my ($line, $depth) = (0, 0);
	my $cur;	# the statement being read
	my $len = length $sql;
	my $line_has_code = 0;
	my $pos = 0;
	while ($pos < $len)
	{
		my $c = substr($sql, $pos, 1);
		if ($c eq "\n")
		{
			$line++;
			$line_has_code = 0;
			$pos++;
			next;
		}
		if ($c =~ /\s/) { $pos++; next; }
		if (substr($sql, $pos, 2) eq '--')
		{
			my $end = index($sql, "\n", $pos);
			$end = $len if $end < 0;
			my $text = substr($sql, $pos, $end - $pos);
			push @comments, { line => $line, text => $text, after_code => $line_has_code };
			push @{ $cur->{comments} }, $text if $cur;
			$pos = $end;
			next;
		}
		if (substr($sql, $pos, 2) eq '/*')
		{
			my $nest = 0;
			while ($pos < $len)
			{
				if (substr($sql, $pos, 2) eq '/*') { $nest++; $pos += 2; next; }
				if (substr($sql, $pos, 2) eq '*/') { $nest--; $pos += 2; last if $nest == 0; next; }
				$line++ if substr($sql, $pos, 1) eq "\n";
				$pos++;
			}
			next;
		}
		if (!$cur && $c eq '\\')
		{
			# a psql meta-command: the rest of the line, not checked
			my $end = index($sql, "\n", $pos);
			$pos = $end < 0 ? $len : $end;
			next;
		}
		$cur //= { start => $line, from => $pos, comments => [] };
		$line_has_code = 1;
		if ($c eq "'" || $c eq '"')
		{
			my $escapes = $c eq "'" && $pos > 0 && substr($sql, $pos - 1, 1) =~ /[eE]/
			  && ($pos < 2 || substr($sql, $pos - 2, 1) !~ /\w/);
			$pos++;
			while ($pos < $len)
			{
				my $d = substr($sql, $pos, 1);
				$line++ if $d eq "\n";
				if ($escapes && $d eq '\\') { $pos += 2; next; }
				if ($d eq $c)
				{
					if (substr($sql, $pos + 1, 1) eq $c) { $pos += 2; next; }
					last;
				}
				$pos++;
			}
			$pos++;
			next;
		}
		if ($c eq '$' && substr($sql, $pos) =~ /^(\$(?:[A-Za-z_\x80-\xff][\w\x80-\xff]*)?\$)/
			&& ($pos == 0 || substr($sql, $pos - 1, 1) !~ /[\w\x80-\xff]/))
		{
			my $tag = $1;
			my $end = index($sql, $tag, $pos + length $tag);
			$end = $len - length $tag if $end < 0;
			$line += () = substr($sql, $pos, $end + length($tag) - $pos) =~ /\n/g;
			$pos = $end + length $tag;
			next;
		}
		if ($c eq '(') { $depth++; $pos++; next; }
		if ($c eq ')') { $depth-- if $depth > 0; $pos++; next; }
		if ($c eq ';' && $depth == 0)
		{
			$cur->{end} = $line;
			$cur->{col} = $pos + 1;
			$cur->{text} = substr($sql, $cur->{from}, $pos + 1 - $cur->{from});
			push @stmts, $cur;
			$cur = undef;
			$line_has_code = 0;
			$pos++;
			next;
		}
		$pos++;
	}
	if ($cur)
	{
		$cur->{end} = $line;
		$cur->{col} = $len;
		$cur->{text} = substr($sql, $cur->{from});
		$cur->{unterminated} = 1;
		push @stmts, $cur;
	}
	return (\@stmts, \@comments);
}

# Whether a statement is marked to fail: a comment starting with "ERROR"
# inside it, after it on its last line, or on comment-only lines right below.
sub marked_to_fail
{
	my ($stmt, $next, $comments, $lines) = @_;
	return 1 if grep { /^--\s*ERROR\b/ } @{ $stmt->{comments} };
	my $next_start = $next ? $next->{start} : 1e9;
	for my $c (@$comments)
	{
		next if $c->{line} < $stmt->{end};
		last if $c->{line} > $stmt->{end} && $c->{line} >= $next_start;
		if ($c->{line} == $stmt->{end})
		{
			# after the ';' on the same line, before any next statement
			next if $next && $next->{start} == $stmt->{end};
			return 1 if $c->{text} =~ /^--\s*ERROR\b/;
			next;
		}
		# comment lines right below: contiguous, nothing else on them
		my $contiguous = 1;
		for my $l ($stmt->{end} + 1 .. $c->{line} - 1)
		{
			$contiguous = 0 unless $lines->[$l] =~ /^\s*--/;
		}
		last unless $contiguous && !$c->{after_code};
		return 1 if $c->{text} =~ /^--\s*ERROR\b/;
	}
	return 0;
}

# The psql input of a segment, with a marker after each statement, and the
# list of statements: { page_line, first, fail }.
sub instrument
{
	my ($page, $segment) = @_;
	my @input;
	my @checks;
	for my $block (@$segment)
	{
		my ($stmts, $comments) = split_statements($block->{sql});
		my @lines = split /\n/, $block->{sql}, -1;
		pop @lines if @lines && $lines[-1] eq '';
		# where to put markers: after the line of each ';' (or, when another
		# statement starts on that line, right after the ';')
		my %after_line;
		my %split_at;
		for my $k (0 .. $#$stmts)
		{
			my $s = $stmts->[$k];
			my $next = $stmts->[ $k + 1 ];
			die sprintf("%s:%d: statement without its semicolon\n", $page, $block->{line} + $s->{start})
			  if $s->{unterminated};
			my ($first) = $s->{text} =~ /^\s*([^\n]*)/;
			push @checks, {
				page_line => $block->{line} + $s->{start},
				first => $first,
				fail => marked_to_fail($s, $next, $comments, \@lines),
				setup => $block->{setup} };
			my $n = scalar @checks;
			if ($next && $next->{start} == $s->{end})
			{
				push @{ $split_at{ $s->{end} } }, [ $s->{col}, $n ];
			}
			else
			{
				$after_line{ $s->{end} } = $n;
			}
		}
		# offsets of each line in the block, to split lines at a ';'
		my $offset = 0;
		for my $l (0 .. $#lines)
		{
			my $text = $lines[$l];
			my @cuts = sort { $a->[0] <=> $b->[0] } @{ $split_at{$l} // [] };
			my $done = 0;
			for my $cut (@cuts)
			{
				my $at = $cut->[0] - $offset;
				push @input, substr($text, $done, $at - $done);
				push @input, "\\echo $MARK $cut->[1] :SQLSTATE";
				$done = $at;
				$done++ while $done < length($text) && substr($text, $done, 1) eq ' ';
			}
			push @input, substr($text, $done);
			push @input, "\\echo $MARK $after_line{$l} :SQLSTATE" if defined $after_line{$l};
			$offset += length($text) + 1;
		}
		push @input, '';
	}
	return (join("\n", @input) . "\n", \@checks);
}

sub run_psql
{
	my ($db, $input, @args) = @_;
	my $in = "$results_dir/.input";
	spew($in, $input);
	my $out = `"$psql" -X -a -d "$db" -v ON_ERROR_STOP=0 @args < "$in" 2>&1`;
	unlink $in;
	return ($out, $?);
}

sub fresh_database
{
	my ($db) = @_;
	my ($out, $rc) = run_psql($maintenance_db,
		"SET client_min_messages = warning;\nDROP DATABASE IF EXISTS \"$db\";\n" .
		"CREATE DATABASE \"$db\" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';\n",
		'-q', '-v', 'ON_ERROR_STOP=1');
	return $rc == 0 ? undef : "cannot create database $db: $out";
}

my @names;
for my $page (@pages)
{
	my $text = slurp("$root/$page");
	push @names, $page if $text =~ /^\s*```sql\s*$/m;
}
print "1.." . scalar(@names) . "\n";
my ($passed, $failed, $number) = (0, 0, 0);
for my $page (@names)
{
	$number++;
	my $stem = lc basename($page, '.md');
	my @problems;
	my $result = '';
	my @segments = eval { parse_page($page, slurp("$root/$page")) };
	push @problems, $@ if $@;
	my $seg_no = 0;
	for my $segment (@segments)
	{
		$seg_no++;
		my $db = "doctest_$stem" . ($seg_no > 1 ? "_$seg_no" : '');
		my ($input, $checks) = eval { instrument($page, $segment) };
		if ($@) { push @problems, $@; last; }
		if (my $err = fresh_database($db)) { push @problems, $err; last; }
		if (!@$checks || $checks->[0]{first} !~ /^CREATE\s+EXTENSION\s+(IF\s+NOT\s+EXISTS\s+)?textfp\b/i)
		{
			my ($out, $rc) = run_psql($db, "CREATE EXTENSION textfp;\n", '-q', '-v', 'ON_ERROR_STOP=1');
			if ($rc) { push @problems, "CREATE EXTENSION textfp failed: $out"; last; }
		}
		$result .= "-- new database\n" if $seg_no > 1;
		my ($out) = run_psql($db, $input);
		my %state;
		for my $line (split /\n/, $out)
		{
			next if $line =~ /^\\echo \Q$MARK\E/;
			if ($line =~ /^\Q$MARK\E (\d+) (\S+)$/)
			{
				$state{$1} = $2;
				next;
			}
			$result .= "$line\n";
		}
		for my $k (1 .. @$checks)
		{
			my $c = $checks->[ $k - 1 ];
			my $where = "$page:$c->{page_line}" . ($c->{setup} ? ' (setup)' : '');
			my $sqlstate = $state{$k};
			if (!defined $sqlstate)
			{
				push @problems, "$where: did not run: $c->{first}";
			}
			elsif ($c->{fail} && $sqlstate eq '00000')
			{
				push @problems, "$where: marked -- ERROR but succeeded: $c->{first}";
			}
			elsif (!$c->{fail} && $sqlstate ne '00000')
			{
				push @problems, "$where: failed with $sqlstate: $c->{first}";
			}
		}
	}
	spew("$results_dir/$stem.out", $result);
	my $expected = "$expected_dir/$stem.out";
	if ($accept)
	{
		make_path($expected_dir);
		spew($expected, $result);
	}
	elsif (!-f $expected)
	{
		push @problems, "no expected file $expected (make doctest-accept writes it)";
	}
	else
	{
		my $diff = `diff -U3 "$expected" "$results_dir/$stem.out"`;
		if ($diff ne '')
		{
			push @problems, "results differ from $expected (see $diffs_file)";
			open(my $fh, '>>:raw', $diffs_file) or die "$diffs_file: $!\n";
			print $fh $diff;
			close $fh;
		}
	}
	if (@problems)
	{
		$failed++;
		print "not ok $number - $page\n";
		print map { "#   $_\n" } map { split /\n/ } @problems;
	}
	else
	{
		$passed++;
		print "ok $number - $page\n";
	}
}
print "# doctest: $passed passed, $failed failed\n";
exit($failed ? 1 : 0);
