# mih's pending rows (mihpending.c: a backend writes the index entries of the
# rows it inserted at the end of a statement, not one by one) must reach the
# index before anything can miss them: a utility command in the same
# transaction (ALTER INDEX ... SET TABLESPACE copies the index's files,
# TRUNCATE, REINDEX), a parallel worker that builds the bitmap, a query a
# trigger runs mid-statement, a cursor, savepoints, PREPARE TRANSACTION.
# COPY FROM has no executor end, so its rows stay pending after it: each case
# starts with one.  Every count through the index is compared with the count
# of a sequential scan.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf',
	"autovacuum = off\nallow_in_place_tablespaces = on\nmax_prepared_transactions = 2\n" .
	"max_worker_processes = 8\nmax_parallel_workers = 4\n");
$node->start;
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION textfp;
CREATE TABLESPACE ts LOCATION '';
CREATE TABLE t (id int, fp simhash64);
INSERT INTO t SELECT i, hashint8extended(i % 50, 3)::simhash64 FROM generate_series(1, 150) i;
CREATE INDEX t_mih ON t USING mih (fp);
ANALYZE t;
});

# 50 rows for COPY FROM STDIN: the same 50 fingerprints as the table's
my $copy = "COPY t FROM STDIN;\n" .
  join('', map { sprintf("%d\t%s\n", 1000 + $_, $node->safe_psql('postgres',
		"SELECT hashint8extended($_, 3)::simhash64")) } 0 .. 49) . "\\.\n";

my $idx = 'SET enable_seqscan = off; SET enable_indexscan = off;';
# one lookup per distinct fingerprint (a parameter, so the index can answer it)
my $q = q{SELECT sum((SELECT count(*) FROM t WHERE fp = d.fp)) FROM (SELECT DISTINCT fp FROM t) d};

# the index's count and the table's
sub counts
{
	my ($what) = @_;
	my $seq = $node->safe_psql('postgres', "SET enable_bitmapscan = off; $q");
	my $ix = $node->safe_psql('postgres', "$idx $q");
	is($ix, $seq, "$what: the index finds the table's $seq rows");
}

like($node->safe_psql('postgres', "$idx EXPLAIN (COSTS OFF) $q"),
	qr/Bitmap Index Scan on t_mih/, 'the counts use the mih index');

# --- ALTER INDEX ... SET TABLESPACE after COPY in one transaction
$node->safe_psql('postgres', "BEGIN;\n$copy ALTER INDEX t_mih SET TABLESPACE ts;\nCOMMIT;");
counts('SET TABLESPACE after COPY');
$node->safe_psql('postgres', "BEGIN;\n$copy ALTER INDEX t_mih SET TABLESPACE pg_default;\n" .
	"ALTER INDEX t_mih SET TABLESPACE ts;\nCOMMIT;");
counts('SET TABLESPACE twice after COPY');
# (a fresh index, so that the cases below stand alone)
$node->safe_psql('postgres', 'REINDEX INDEX t_mih');

# --- a parallel worker builds the bitmap (the leader does not take part)
my $par = q{SET force_parallel_mode = on; SET parallel_leader_participation = off;
SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;};
# (a lookup of one of the 50 fingerprints: a correlated subplan is not parallel safe)
my $q1 = q{SELECT count(*) FROM t WHERE fp <@ hamming_ball(hashint8extended(7, 3)::simhash64, 0)};
like($node->safe_psql('postgres', "$par $idx EXPLAIN (COSTS OFF) $q1"),
	qr/Gather.*Bitmap Index Scan on t_mih/s, 'the parallel plan has the index scan under a Gather');
my $before = $node->safe_psql('postgres', "SET enable_bitmapscan = off; $q1");
is($node->safe_psql('postgres', "BEGIN;\n$copy $par $idx $q1; COMMIT;"),
	$before + 1, 'a worker\'s index scan sees the row COPY just added in the transaction');
counts('after the parallel query');

# --- TRUNCATE, then COPY again, in one transaction
$node->safe_psql('postgres', "BEGIN;\n$copy TRUNCATE t;\n$copy COMMIT;");
counts('COPY, TRUNCATE, COPY');
is($node->safe_psql('postgres', "$idx $q"), '50', 'only the last COPY\'s rows are left');

# --- REINDEX after COPY in one transaction
$node->safe_psql('postgres', "BEGIN;\n$copy REINDEX INDEX t_mih;\n$copy COMMIT;");
counts('COPY, REINDEX, COPY');

# --- a trigger's query mid-statement (BEFORE ROW: the rows before are in)
$node->safe_psql(
	'postgres', q{
CREATE TABLE seen (id int, n bigint);
CREATE FUNCTION t_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SET LOCAL enable_seqscan = off;
  SET LOCAL enable_indexscan = off;
  INSERT INTO seen SELECT NEW.id, count(*) FROM t WHERE fp <@ hamming_ball(NEW.fp, 0);
  RETURN NEW;
END $$;
CREATE TRIGGER t_seen BEFORE INSERT ON t FOR EACH ROW WHEN (NEW.id >= 5000) EXECUTE FUNCTION t_seen();
});
$node->safe_psql('postgres',
	q{INSERT INTO t SELECT i, 'f0f0f0f0f0f0f0f0' FROM generate_series(5000, 5009) i});
is($node->safe_psql('postgres', q{SELECT string_agg(n::text, ',' ORDER BY id) FROM seen}),
	'0,1,2,3,4,5,6,7,8,9', 'each row\'s BEFORE trigger finds the rows before it through the index');
$node->safe_psql('postgres', 'DROP TRIGGER t_seen ON t');
counts('after the trigger');

# --- a cursor declared after COPY
$before = $node->safe_psql('postgres', "SET enable_bitmapscan = off; $q");
is($node->safe_psql('postgres', "BEGIN;\n$copy $idx DECLARE c CURSOR FOR $q; FETCH c; COMMIT;"),
	$before + 50,
	'a cursor over the index sees the rows COPY added');
counts('after the cursor');

# --- savepoints: rows of a rolled back savepoint are never written
$node->safe_psql('postgres', "BEGIN;\n$copy SAVEPOINT a;\n$copy SAVEPOINT b;\n$copy ROLLBACK TO a;\n" .
	"$copy RELEASE a;\nSAVEPOINT c;\n$copy ROLLBACK TO c;\nCOMMIT;");
counts('savepoints');
$node->safe_psql('postgres', 'VACUUM t');
counts('savepoints, after VACUUM');

# --- PREPARE TRANSACTION after COPY; seen by other sessions once committed
$node->safe_psql('postgres', "BEGIN;\n$copy PREPARE TRANSACTION 'p1';");
$node->safe_psql('postgres', "COMMIT PREPARED 'p1';");
counts('PREPARE TRANSACTION after COPY');
$node->safe_psql('postgres', "BEGIN;\n$copy PREPARE TRANSACTION 'p2';");
$node->safe_psql('postgres', "ROLLBACK PREPARED 'p2';");
$node->safe_psql('postgres', 'VACUUM t');
counts('PREPARE TRANSACTION, rolled back, VACUUM');

# --- the index is consistent at the end (amcheck-like: every entry's row has its code)
$node->safe_psql('postgres', 'REINDEX INDEX t_mih');
counts('after REINDEX');

$node->stop;
done_testing();
