#!/usr/bin/perl
# check_scripts.pl: a static check of the extension scripts, which a trusted
# extension's CREATE EXTENSION and ALTER EXTENSION UPDATE run as the bootstrap
# superuser with search_path = <target schema>, pg_temp -- a schema the
# installing role may own and fill with operators and functions of its own.
# docs/security.md says why each rule is there.  It fails (exit 1, one line a
# problem) on:
#
#   1. in an executable statement of textfp--1.0.sql, textfp--1.1.sql or
#      textfp--1.0--1.1.sql (top-level UPDATE, INSERT, DELETE, SELECT, WITH,
#      VALUES, DO, CALL, and the SQL-standard bodies RETURN ... / BEGIN ATOMIC
#      ... END, which are parsed at install time):
#        - an operator not written OPERATOR(pg_catalog.x) or
#          OPERATOR(@extschema@.x);
#        - a function not qualified with pg_catalog or @extschema@;
#        - a literal (string, number, NULL) not cast to a schema-qualified
#          type, or a cast to a type without its schema;
#        - a name inside a reg* literal ('...'::pg_catalog.regoperator) without
#          its schema;
#   2. a statement of a kind this check does not know to be a declaration;
#   3. a LANGUAGE plpgsql or sql function with a string body (AS $$...$$)
#      without SET search_path = pg_catalog, pg_temp (a procedure that
#      commits cannot have one: its body must pass the rules of 1 instead);
#   4. in such a body (and in the SQL inside its strings), a call of one of
#      textfp's own functions, or a use of one of its types, not qualified
#      @extschema@., or one of the operators textfp defines for its types
#      other than the comparisons (<@ @> @@ && % <%> <~>) not written
#      OPERATOR(schema.x);
#   5. textfp--1.1.sql out of date (scripts/make_install_script.pl --check).
#
#     perl scripts/check_scripts.pl [--dir DIR] [--list]
#
# --dir checks the scripts of another tree (e.g. an old commit's); --list
# prints the operators, functions and casts the executable statements use.
use strict;
use warnings;

my $root = $0 =~ m{^(.*)/scripts/[^/]+$} ? $1 : '.';
my $dir = $root;
my ($list, $selftest) = (0, 0);
while (@ARGV)
{
	my $a = shift @ARGV;
	if ($a eq '--dir') { $dir = shift @ARGV // die "--dir needs a directory\n"; }
	elsif ($a eq '--list') { $list = 1; }
	elsif ($a eq '--self-test') { $selftest = 1; }
	else { die "usage: check_scripts.pl [--dir DIR] [--list] [--self-test]\n"; }
}

my @problems;
my %used;	# --list: what executable statements evaluate

sub problem
{
	my ($file, $line, $msg) = @_;
	push @problems, "$file:$line: $msg";
}

# ---------------------------------------------------------------------------
# tokens: [type, text, line]; types ws-free: ident, qident, string, number,
# param, op, punct.  @extschema@ becomes the identifier @extschema@.
# ---------------------------------------------------------------------------
sub tokenize
{
	my ($text, $line) = @_;
	my @t;
	pos($text) = 0;
	while (pos($text) < length($text))
	{
		if ($text =~ /\G(\s+)/gc) { $line += ($1 =~ tr/\n//); next; }
		if ($text =~ /\G(--[^\n]*)/gc) { next; }
		if ($text =~ /\G\/\*/gc)
		{
			my $depth = 1;
			while ($depth > 0 && $text =~ /\G(.*?)(\/\*|\*\/)/sgc)
			{
				$line += ($1 =~ tr/\n//);
				$depth += $2 eq '/*' ? 1 : -1;
			}
			die "unterminated comment at line $line\n" if $depth > 0;
			next;
		}
		my $start = $line;
		if ($text =~ /\G\@extschema\@/gc) { push @t, [ 'ident', '@extschema@', $start ]; next; }
		if ($text =~ /\G[eE]'((?:[^'\\]|\\.|'')*)'/sgc)
		{
			my $s = $1;
			push @t, [ 'string', $s, $start ];
			$line += ($s =~ tr/\n//);
			next;
		}
		if ($text =~ /\G[bBxX]?'((?:[^']|'')*)'/sgc)
		{
			my $s = $1;
			$line += ($s =~ tr/\n//);
			$s =~ s/''/'/g;
			push @t, [ 'string', $s, $start ];
			next;
		}
		if ($text =~ /\G(\$([A-Za-z_][A-Za-z_0-9]*)?\$)/gc)
		{
			my $tag = $1;
			$text =~ /\G(.*?)\Q$tag\E/sgc or die "unterminated $tag string at line $start\n";
			my $s = $1;
			push @t, [ 'string', $s, $start, 'dollar' ];
			$line += ($s =~ tr/\n//);
			next;
		}
		if ($text =~ /\G\$(\d+)/gc) { push @t, [ 'param', "\$$1", $start ]; next; }
		if ($text =~ /\G"((?:[^"]|"")*)"/gc) { (my $q = $1) =~ s/""/"/g; push @t, [ 'qident', $q, $start ]; next; }
		if ($text =~ /\G((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/gc) { push @t, [ 'number', $1, $start ]; next; }
		if ($text =~ /\G([A-Za-z_\x80-\xff][A-Za-z_0-9\$\x80-\xff]*)/gc) { push @t, [ 'ident', lc $1, $start ]; next; }
		if ($text =~ /\G(::|:=|=>|[()\[\],;.:])/gc) { push @t, [ 'punct', $1, $start ]; next; }
		# an operator; a comment start ends it, as in PostgreSQL's lexer
		if ($text =~ /\G((?:(?!--|\/\*)[-+*\/<>=~!\@#%^&|`?])+)/gc) { push @t, [ 'op', $1, $start ]; next; }
		if ($text =~ /\G(.)/sgc) { push @t, [ 'punct', $1, $start ]; next; }
	}
	return @t;
}

# Statements: split at ; outside BEGIN ATOMIC ... END.
sub statements
{
	my @t = @_;
	my (@stmts, @cur);
	my ($atomic, $case) = (0, 0);
	for my $i (0 .. $#t)
	{
		my $tok = $t[$i];
		push @cur, $tok;
		if ($tok->[0] eq 'ident')
		{
			my $v = $tok->[1];
			$atomic = 1 if $v eq 'atomic' && @cur > 1 && $cur[-2][1] eq 'begin';
			$case++ if $atomic && $v eq 'case';
			if ($atomic && $v eq 'end')
			{
				if ($case > 0) { $case--; }
				else { $atomic = 0; }
			}
		}
		if ($tok->[0] eq 'punct' && $tok->[1] eq ';' && !$atomic)
		{
			pop @cur;
			push @stmts, [@cur] if @cur;
			@cur = ();
		}
	}
	push @stmts, [@cur] if @cur;
	return @stmts;
}

my %SCHEMA_OK = ('pg_catalog' => 1, '@extschema@' => 1);

# Words followed by ( that are syntax, not function calls.
my %SYNTAX_PAREN = map { $_ => 1 } qw(
  operator in any all some exists values array row cast coalesce nullif greatest
  least filter over group as using on from select where and or not then else when
  if return returning into except union intersect by set table loop elsif case
  lateral join distinct with by limit offset partition order window having is
  between like ilike similar);

my %TYPE_WORDS_FOLLOW = map { $_ => 1 } qw(precision varying zone);

# Reads the type after :: at $i (the token after ::); returns (next index,
# qualified?, type text).
sub read_type
{
	my ($t, $i) = @_;
	my @parts;
	my $qualified = 0;
	if ($i + 2 <= $#$t && $t->[$i + 1][1] eq '.' && $t->[$i][0] =~ /ident/)
	{
		$qualified = $SCHEMA_OK{ $t->[$i][1] } ? 1 : -1;
		push @parts, $t->[$i][1], '.';
		$i += 2;
	}
	return ($i, 0, '?') if $i > $#$t;
	push @parts, $t->[$i][1];
	$i++;
	while ($i <= $#$t && $t->[$i][0] eq 'ident' && $TYPE_WORDS_FOLLOW{ $t->[$i][1] })
	{
		push @parts, ' ', $t->[$i][1];
		$i++;
	}
	if ($i <= $#$t && $t->[$i][1] eq '(')
	{
		my $depth = 0;
		do
		{
			$depth++ if $t->[$i][1] eq '(';
			$depth-- if $t->[$i][1] eq ')';
			push @parts, $t->[$i][1];
			$i++;
		} while ($depth > 0 && $i <= $#$t);
	}
	while ($i + 1 <= $#$t && $t->[$i][1] eq '[' && $t->[$i + 1][1] eq ']')
	{
		push @parts, '[]';
		$i += 2;
	}
	return ($i, $qualified, join('', @parts));
}

my %REG_TYPES = map { $_ => 1 } qw(regclass regtype regproc regprocedure regoper regoperator
  regnamespace regrole regconfig regdictionary regcollation);

# A reg* literal's names must all carry their schema.
sub check_reg_literal
{
	my ($file, $line, $s, $type) = @_;
	my @names;
	if ($type =~ /^(regoperator|regprocedure)$/)
	{
		$s =~ /^\s*(.*?)\s*\((.*)\)\s*$/s or return problem($file, $line, "'$s'::$type: cannot read it");
		my ($name, $args) = ($1, $2);
		push @names, $name, map { s/^\s+|\s+$//gr } split /,/, $args;
	}
	else
	{
		push @names, $s;
	}
	for my $n (@names)
	{
		next if $n eq 'NONE';
		problem($file, $line, "'$s'::pg_catalog.$type names $n without \@extschema\@. or pg_catalog.")
		  unless $n =~ /^\s*(\@extschema\@|pg_catalog)\./;
	}
}

# The rules of an executable statement (or an SQL-standard body, or a DO
# block's PL/pgSQL) over tokens $t.
sub check_executable
{
	my ($file, $t, $plpgsql) = @_;
	my $depth = 0;
	my $in_set = 0;		# UPDATE ... SET assignments at depth 0
	my $in_raise = 0;	# PL/pgSQL RAISE ... ;
	my $raise_fmt_seen = 0;
	my $in_orderby = 0;	# ORDER BY / GROUP BY positions
	my %cast_ok;		# literal indexes followed by a good cast
	my $stmt_start = 0;
	for (my $i = 0; $i <= $#$t; $i++)
	{
		my ($type, $v, $line) = @{ $t->[$i] };
		my $prev = $i > 0 ? $t->[$i - 1] : [ '', '' ];
		my $next = $i < $#$t ? $t->[$i + 1] : [ '', '' ];
		if ($type eq 'punct')
		{
			$depth++ if $v eq '(';
			$depth-- if $v eq ')';
			if ($v eq ';')
			{
				($in_set, $in_raise, $raise_fmt_seen, $in_orderby) = (0, 0, 0, 0);
				$stmt_start = $i + 1;
			}
			if ($v eq '::')
			{
				my ($j, $q, $ty) = read_type($t, $i + 1);
				$used{"cast ::$ty"}++;
				problem($file, $line, "cast to $ty without its schema (write ::pg_catalog.x or ::\@extschema\@.x)")
				  unless $q == 1;
				if ($prev->[0] eq 'string' && $ty =~ /^(?:pg_catalog\.)?(\w+)$/ && $REG_TYPES{$1})
				{
					check_reg_literal($file, $prev->[2], $prev->[1], $1);
				}
				$i = $j - 1;
			}
			next;
		}
		if ($type eq 'ident')
		{
			$in_set = 1 if $v eq 'set' && $depth == 0;
			$in_set = 0 if $in_set && $depth == 0 && $v =~ /^(where|from|returning)$/;
			if ($plpgsql && $v eq 'raise' && $prev->[1] ne '.') { $in_raise = 1; }
			$in_orderby = 1 if $v eq 'by' && $prev->[1] =~ /^(order|group)$/;
			$in_orderby = 0 if $in_orderby && $v !~ /^(by|asc|desc|nulls|first|last)$/ && $prev->[1] ne 'by' && $prev->[1] ne ',';
			# syntax that looks an operator up by name: IN (list or
			# subquery) and NULLIF and IS DISTINCT FROM and a simple CASE
			# (=), BETWEEN (>=, <=), LIKE, ILIKE, SIMILAR TO (~~, ~~*, ~)
			if (($v eq 'in' && $next->[1] eq '(') || $v =~ /^(between|like|ilike|similar|nullif)$/
				|| ($v eq 'distinct' && ($prev->[1] eq 'is' || ($prev->[1] eq 'not' && $i > 1 && $t->[$i - 2][1] eq 'is')))
				|| ($v eq 'case' && $next->[1] ne 'when'))
			{
				$used{"operator by syntax: " . uc $v}++;
				problem($file, $line, uc($v) . " looks its operator up by name: write it with OPERATOR(pg_catalog.x)");
				next if $v eq 'nullif';
			}
			if ($v eq 'null')
			{
				next if $prev->[1] eq 'is' || ($prev->[1] eq 'not' && $i > 1 && $t->[$i - 2][1] eq 'is');
				next if $next->[1] eq '::';
				next if $in_raise && $depth == 0;
				problem($file, $line, "NULL without a cast to a schema-qualified type");
				next;
			}
			if ($next->[1] eq '(' && !($prev->[1] eq 'into' || ($prev->[1] eq '.' && $i > 2 && $t->[$i - 3][1] eq 'into')))
			{
				if ($prev->[1] eq '.')
				{
					my $schema = $i > 1 ? $t->[$i - 2][1] : '';
					$used{"function $schema.$v"}++;
					problem($file, $line, "function $v qualified with $schema, not pg_catalog or \@extschema\@")
					  unless $SCHEMA_OK{$schema};
				}
				elsif (!$SYNTAX_PAREN{$v})
				{
					$used{"function $v"}++;
					problem($file, $line, "function $v( without its schema (write pg_catalog.$v or \@extschema\@.$v)");
				}
			}
			if ($v eq 'operator' && $next->[1] eq '(')
			{
				# OPERATOR(schema.op)
				my ($s, $dot, $op, $close) = @{$t}[ $i + 2 .. $i + 5 ];
				if ($s && $dot && $dot->[1] eq '.' && $op && $op->[0] eq 'op' && $close && $close->[1] eq ')')
				{
					$used{"operator $s->[1].$op->[1]"}++;
					problem($file, $line, "OPERATOR($s->[1].$op->[1]): not pg_catalog or \@extschema\@")
					  unless $SCHEMA_OK{ $s->[1] };
					$i += 5;
				}
				else
				{
					problem($file, $line, "OPERATOR(...) without a schema");
				}
			}
			next;
		}
		if ($type eq 'op')
		{
			# a star, not multiplication
			next if $v eq '*' && ($prev->[1] =~ /^(\(|,|\.|select)$/ || $i == $stmt_start);
			# a negative number is a constant
			if ($v eq '-' && $next->[0] eq 'number' && ($prev->[0] eq 'op' || $prev->[1] =~ /^(\(|,|=|select|return|then|else|when|and|or|not|:=|)$/))
			{
				next;
			}
			# UPDATE ... SET col = value
			if ($v eq '=' && $in_set && $depth == 0 && $prev->[0] =~ /ident/ && $i > 1 && $t->[$i - 2][1] =~ /^(set|,)$/)
			{
				next;
			}
			# RAISE ... USING option = value
			if ($v eq '=' && $in_raise && $prev->[0] eq 'ident' && $i > 1 && $t->[$i - 2][1] =~ /^(using|,)$/)
			{
				next;
			}
			# %TYPE, %ROWTYPE
			next if $plpgsql && $v eq '%' && $next->[1] =~ /^(type|rowtype)$/;
			$used{"operator $v"}++;
			problem($file, $line, "operator $v without OPERATOR(pg_catalog.$v) or OPERATOR(\@extschema\@.$v)");
			next;
		}
		if ($type eq 'string' || $type eq 'number')
		{
			next if $next->[1] eq '::';
			next if $type eq 'number' && $prev->[1] eq '[' ;
			next if $type eq 'number' && $in_orderby;
			if ($in_raise)
			{
				# the format, and whole option values
				if (!$raise_fmt_seen && $type eq 'string') { $raise_fmt_seen = 1; next; }
				next if $prev->[1] eq '=' && $next->[1] =~ /^(,|;|)$/;
			}
			my $shown = $type eq 'string' ? "'" . (length($v) > 30 ? substr($v, 0, 30) . '...' : $v) . "'" : $v;
			$shown =~ s/\n/ /g;
			problem($file, $line, "literal $shown without a cast to a schema-qualified type");
			next;
		}
	}
}

# ---------------------------------------------------------------------------
# textfp's own objects, from the scripts' declarations
# ---------------------------------------------------------------------------
my (%OWN_FUNC, %OWN_TYPE);
my %OWN_OPS_ALWAYS_QUALIFIED = map { $_ => 1 } ('<@', '@>', '@@', '&&', '%', '<%>', '<~>');

# Checks a PL/pgSQL or SQL string body (rule 4); strings inside are checked
# again as SQL for names (format() templates, dynamic SQL).
sub check_body
{
	my ($file, $fname, $t, $nested) = @_;
	for my $i (0 .. $#$t)
	{
		my ($type, $v, $line) = @{ $t->[$i] };
		my $prev = $i > 0 ? $t->[$i - 1] : [ '', '' ];
		my $next = $i < $#$t ? $t->[$i + 1] : [ '', '' ];
		my $qual = $prev->[1] eq '.' ? ($i > 1 ? $t->[$i - 2][1] : '') : undef;
		if ($type eq 'string')
		{
			# SQL in a string (dynamic SQL, format() templates), not a message
			next unless $v =~ /\b(select|insert|update|delete|create|from|join|where)\b/i;
			my @inner = eval { tokenize($v, $line) };
			check_body($file, $fname, \@inner, 1) if @inner;
			next;
		}
		if ($type eq 'ident' && $OWN_FUNC{$v} && $next->[1] eq '(')
		{
			problem($file, $line, "in $fname: textfp's function $v( is not qualified \@extschema\@.$v")
			  unless defined $qual && $qual eq '@extschema@';
			next;
		}
		if ($type eq 'ident' && $OWN_TYPE{$v} && $next->[1] ne '(')
		{
			my $is_type = !$nested || $prev->[1] eq '::';
			problem($file, $line, "in $fname: textfp's type $v is not qualified \@extschema\@.$v")
			  if $is_type && !(defined $qual && $qual eq '@extschema@');
			next;
		}
		if (!$nested && $type eq 'op' && $OWN_OPS_ALWAYS_QUALIFIED{$v})
		{
			next if $v eq '%' && $next->[1] =~ /^(type|rowtype)$/;
			my $p2 = $i > 2 ? $t->[$i - 3][1] : '';
			problem($file, $line, "in $fname: operator $v: write OPERATOR(\@extschema\@.$v) for textfp's or OPERATOR(pg_catalog.$v)")
			  unless $prev->[1] eq '.' && $p2 eq '(';
		}
	}
}

my %DECLARATION = map { $_ => 1 } (
	'create function', 'create procedure', 'create type', 'create operator', 'create cast',
	'create aggregate', 'create access', 'comment on', 'alter function', 'alter operator',
	'grant', 'revoke');
my %EXECUTABLE = map { $_ => 1 } qw(update insert delete select with values do call merge table);

# Every rule over the scripts of a tree; the problems go to @problems.
sub check_tree
{
	my ($dir) = @_;
	my @SCRIPTS = grep { -f "$dir/$_" } ('textfp--1.0.sql', 'textfp--1.1.sql', 'textfp--1.0--1.1.sql');
	die "check_scripts.pl: no scripts in $dir\n" unless @SCRIPTS;
	my %stmts_of;
	(%OWN_FUNC, %OWN_TYPE) = ();

	for my $f (@SCRIPTS)
	{
		open(my $fh, '<', "$dir/$f") or die "$f: $!\n";
		local $/;
		my $text = <$fh>;
		close $fh;
		# psql meta-commands (the \echo guard) are not SQL
		$text =~ s/^\\[^\n]*$//mg;
		my @stmts = statements(tokenize($text, 1));
		$stmts_of{$f} = \@stmts;
		for my $s (@stmts)
		{
			my @w = map { $_->[1] } @$s[ 0 .. ($#$s < 5 ? $#$s : 5) ];
			shift @w, shift @w if @w > 2 && $w[0] eq 'create' && $w[1] eq 'or';
			next unless $w[0] eq 'create';
			if ($w[1] =~ /^(function|aggregate|procedure)$/) { $OWN_FUNC{ $w[2] } = 1; }
			elsif ($w[1] eq 'type') { $OWN_TYPE{ $w[2] } = 1; }
		}
	}

	for my $f (@SCRIPTS)
	{
		for my $s (@{ $stmts_of{$f} })
		{
			my $first = $s->[0][1];
			my $line = $s->[0][2];
			my @w = map { $_->[1] } @$s[ 0 .. ($#$s < 3 ? $#$s : 3) ];
			my $create_or_replace = @w > 2 && $w[0] eq 'create' && $w[1] eq 'or';
			my $kind = $create_or_replace ? "create $w[3]" : $w[0] eq 'create' || $w[0] eq 'comment' || $w[0] eq 'alter' ? "$w[0] $w[1]" : $w[0];
			if ($EXECUTABLE{$first})
			{
				if ($first eq 'do')
				{
					my ($body) = grep { $_->[0] eq 'string' } @$s;
					my $lang = 'plpgsql';
					for my $i (0 .. $#$s - 1) { $lang = $s->[ $i + 1 ][1] if $s->[$i][1] eq 'language'; }
					if (!$body) { problem($f, $line, "DO without a body"); next; }
					my @bt = tokenize($body->[1], $body->[2]);
					check_executable($f, \@bt, $lang eq 'plpgsql');
				}
				else
				{
					check_executable($f, $s, 0);
				}
				next;
			}
			if (!$DECLARATION{$kind})
			{
				problem($f, $line, "a statement ($kind) this check does not know to be a declaration: review it for what it evaluates, then teach scripts/check_scripts.pl");
				next;
			}
			next unless $kind =~ /^create (function|procedure)$/;
			my $fname = $s->[ $create_or_replace ? 4 : 2 ][1];
			my ($lang, $body, $std_at, $sp_ok) = ('', undef, undef, 0);
			my $depth = 0;
			for my $i (0 .. $#$s)
			{
				my $v = $s->[$i][1];
				$depth++ if $v eq '(';
				$depth-- if $v eq ')';
				next if $depth > 0;
				$lang = $s->[ $i + 1 ][1] if $v eq 'language' && $i < $#$s;
				if ($v eq 'as' && $i < $#$s && $s->[ $i + 1 ][0] eq 'string' && !defined $body)
				{
					$body = $s->[ $i + 1 ];
				}
				if (!defined $std_at && $s->[$i][0] eq 'ident' && ($v eq 'return' || ($v eq 'begin' && $i < $#$s && $s->[ $i + 1 ][1] eq 'atomic')))
				{
					$std_at = $i;
				}
				if ($v eq 'set' && $i + 5 <= $#$s && $s->[ $i + 1 ][1] eq 'search_path' && $s->[ $i + 2 ][1] =~ /^(=|to)$/
					&& $s->[ $i + 3 ][1] eq 'pg_catalog' && $s->[ $i + 4 ][1] eq ',' && $s->[ $i + 5 ][1] eq 'pg_temp'
					&& ($i + 6 > $#$s || $s->[ $i + 6 ][1] ne ','))
				{
					$sp_ok = 1;
				}
			}
			if (defined $std_at && !defined $body)
			{
				my @bt = @$s[ $std_at + ($s->[$std_at][1] eq 'begin' ? 2 : 1) .. $#$s ];
				pop @bt if @bt && $bt[-1][1] eq 'end';
				check_executable($f, \@bt, 0);
				next;
			}
			next unless defined $body && ($lang eq 'plpgsql' || $lang eq 'sql');
			if ($kind eq 'create procedure' && !$sp_ok)
			{
				# A procedure that commits cannot have a SET clause: it runs
				# under its caller's search_path, so its body must name
				# everything as an executable statement does.
				my @bt = tokenize($body->[1], $body->[2]);
				check_executable($f, \@bt, $lang eq 'plpgsql');
				check_body($f, $fname, \@bt, 0);
				next;
			}
			problem($f, $line, "function $fname (LANGUAGE $lang) has no SET search_path = pg_catalog, pg_temp")
			  unless $sp_ok;
			my @bt = tokenize($body->[1], $body->[2]);
			check_body($f, $fname, \@bt, 0);
		}
	}

	# 5: the generated install script is up to date
	if (-f "$dir/scripts/make_install_script.pl" && -f "$dir/textfp--1.1.sql")
	{
		if (system('perl', "$dir/scripts/make_install_script.pl", '--check') != 0)
		{
			push @problems, "textfp--1.1.sql: out of date (perl scripts/make_install_script.pl > textfp--1.1.sql)";
		}
	}
	elsif (-f "$dir/textfp--1.1.sql")
	{
		push @problems, "textfp--1.1.sql: scripts/make_install_script.pl is missing, so it cannot be checked";
	}
	return @SCRIPTS;
}

# Each snippet, as a tree's update script, must give the problem named.
sub self_test
{
	my @cases = (
		[ "UPDATE pg_catalog.pg_operator SET oprcom = 0::pg_catalog.oid WHERE oid IN ('\@extschema\@.%(\@extschema\@.t, \@extschema\@.t)'::pg_catalog.regoperator);", qr/IN looks its operator up/ ],
		[ "UPDATE pg_catalog.pg_operator SET oprcanmerge = true WHERE oid = '\@extschema\@.=(\@extschema\@.t, \@extschema\@.t)'::pg_catalog.regoperator::pg_catalog.oid;", qr/operator = without/ ],
		[ "UPDATE pg_catalog.pg_operator SET oprcom = 0 WHERE oid OPERATOR(pg_catalog.=) 1::pg_catalog.oid;", qr/literal 0 without/ ],
		[ "SELECT 1::pg_catalog.int4 WHERE '%(t, t)'::pg_catalog.regoperator IS NULL;", qr/names t without/ ],
		[ "SELECT 1::int4;", qr/cast to int4 without its schema/ ],
		[ "SELECT s.f(1::pg_catalog.int4);", qr/function f qualified with s/ ],
		[ "SELECT pg_catalog.count(*) FROM pg_catalog.pg_class WHERE relname LIKE 'x'::pg_catalog.text;", qr/LIKE looks/ ],
		[ "DO \$\$ BEGIN IF pg_catalog.now() > '2020-01-01'::pg_catalog.timestamptz THEN RAISE NOTICE 'x'; END IF; END \$\$;", qr/operator > without/ ],
		[ "DO \$\$ BEGIN PERFORM format('%s'::pg_catalog.text, 1::pg_catalog.int4); END \$\$;", qr/function format\( without/ ],
		[ "CREATE FUNCTION g(x integer) RETURNS integer LANGUAGE sql RETURN f(x, 2);", qr/function f\( without/ ],
		[ "CREATE FUNCTION g(x integer) RETURNS integer LANGUAGE sql BEGIN ATOMIC SELECT x + 1::pg_catalog.int4; END;", qr/operator \+ without/ ],
		[ "CREATE FUNCTION g(x integer) RETURNS integer LANGUAGE plpgsql AS \$\$ BEGIN RETURN x; END \$\$;", qr/has no SET search_path/ ],
		[ "CREATE PROCEDURE g(x integer) LANGUAGE plpgsql AS \$\$ BEGIN IF x = 1 THEN COMMIT; END IF; END \$\$;", qr/operator =/ ],
		[ "CREATE FUNCTION g(x integer) RETURNS integer LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS \$\$ BEGIN RETURN g(x); END \$\$;", qr/function g\( is not qualified/ ],
		[ "CREATE FUNCTION g(x integer) RETURNS integer LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS \$\$ BEGIN EXECUTE format('SELECT %s.g(1)', 's'); RETURN x; END \$\$;", qr/function g\( is not qualified/ ],
		[ "CREATE TYPE t; CREATE FUNCTION g(x integer) RETURNS integer LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS \$\$ BEGIN PERFORM NULL::t; RETURN x; END \$\$;", qr/type t is not qualified/ ],
		[ "CREATE FUNCTION g(x integer) RETURNS boolean LANGUAGE sql SET search_path = pg_catalog, pg_temp AS \$\$ SELECT ARRAY[x] <@ ARRAY[1] \$\$;", qr/operator <\@: write OPERATOR/ ],
		[ "CREATE TABLE t (x integer DEFAULT f());", qr/does not know to be a declaration/ ],
	);
	my $tmp = "/tmp/check_scripts.$$";
	mkdir $tmp or die "$tmp: $!\n";
	my $failed = 0;
	for my $c (@cases)
	{
		my ($sql, $want) = @$c;
		open(my $fh, '>', "$tmp/textfp--1.0--1.1.sql") or die "$tmp: $!\n";
		print $fh "CREATE FUNCTION f(integer) RETURNS integer AS 'MODULE_PATHNAME' LANGUAGE C;\n$sql\n";
		close $fh;
		@problems = ();
		check_tree($tmp);
		if (grep { $_ =~ $want } @problems)
		{
			print "ok - $want\n";
		}
		else
		{
			$failed++;
			print "not ok - $want not found for: $sql\n", map { "  # $_\n" } @problems;
		}
	}
	unlink "$tmp/textfp--1.0--1.1.sql";
	rmdir $tmp;
	return $failed;
}

if ($selftest)
{
	my $failed = self_test();
	print $failed ? "self-test: $failed failed\n" : "self-test: every rule fires\n";
	exit($failed ? 1 : 0);
}
@problems = ();
my @SCRIPTS = check_tree($dir);
if ($list)
{
	print "$_\t$used{$_}\n" for sort keys %used;
}
if (@problems)
{
	print "$_\n" for @problems;
	print scalar(@problems) . " problem(s) in " . join(', ', @SCRIPTS) . "\n";
	exit 1;
}
print "scripts ok: " . join(', ', @SCRIPTS) . "\n";
exit 0;
