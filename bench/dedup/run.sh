#!/bin/bash
# run.sh: throughput of textfp_dedup's guarded inserts into a 1M-row table, next to plain
# inserts that compute the same fingerprint into a table with a unique btree on it, one
# session and 8 sessions, English and Chinese texts of about 1 KB and 5 KB; and what a
# BEFORE ROW trigger costs COPY (row by row instead of batched).
#
# The texts inserted are bench/corpus's generated documents (make_textlike.pl, no planted
# families, no templates; DOCS of them), split by language and by size (under or over 2,500
# bytes).  The 1M rows already in both tables are fingerprints only (no text stored):
# simhash(..., featureless => 'null') of 80 tokens, four runs of 20 from random places in the
# same documents' token stream (words for English, characters for Chinese), so the index
# holds text-like values.
#
#   guarded: fp simhash64 with a mih index and the trigger at the default threshold
#            (textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10',
#            'mode=skip'); skip so that a near duplicate among the documents ends nothing)
#   plain:   fp simhash64 with a unique btree, filled by INSERT ... SELECT body,
#            simhash(body, 'null') ... ON CONFLICT (fp) DO NOTHING (exact duplicates skipped)
#
# Each run is pgbench, one row per transaction, READ COMMITTED, the documents taken in
# turn from a sequence (no text twice).  Reported: rows/s, the ratio guarded/plain, rows
# the trigger skipped, lock waits longer than deadlock_timeout (set to 10 ms for the run,
# from log_lock_waits in the server log when it is readable, else "n/a"), 40001 and 40P01.
#
# Usage: psql's default connection (PG* variables) to a server with textfp installed, e.g.
#   PGHOST=/tmp PGPORT=5432 bash bench/dedup/run.sh
#   pg_virtualenv -t bash bench/dedup/run.sh         (a throwaway cluster; as root)
# Environment: ROWS (prefilled rows, default 1000000), DOCS (documents generated, default
# 30000), ROWS_1 (rows per single-session run, default 1000), ROWS_8 (rows per client of the
# 8-session runs, default 250), SERVER_LOG (path of the server log, for lock waits).
set -euo pipefail

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$dir/../.." && pwd)
ROWS=${ROWS:-1000000}
DOCS=${DOCS:-30000}
ROWS_1=${ROWS_1:-1000}
ROWS_8=${ROWS_8:-250}
out=$repo/bench/out/dedup-$(date -u +%Y%m%dT%H%M%S)
mkdir -p "$out"
psql=(psql -X -q -v ON_ERROR_STOP=1)

# --- documents -----------------------------------------------------------------
docs=$repo/bench/out/corpus/dedup-docs-N$DOCS.tsv
if [[ ! -s $docs ]]; then
	mkdir -p "$(dirname "$docs")"
	N=$DOCS FAMILY_SHARE=0 TEMPLATE_SHARE=0 perl "$repo/bench/corpus/make_textlike.pl" > "$docs.part"
	mv "$docs.part" "$docs"
fi
prefilled=$("${psql[@]}" -At -c "SELECT count(*) FROM dd_guarded WHERE body IS NULL" 2>/dev/null || echo 0)
if [[ $prefilled != "$ROWS" ]]; then
# the prefill: ROWS texts of 80 tokens, four runs of 20 consecutive tokens from random places
# in the last 2,500 documents' token stream (words for English, characters for Chinese)
perl -CSD -e '
	use strict; srand(15);
	my (%tok);
	open my $f, "<", $ARGV[0] or die;
	while (<$f>) {
		next if $. <= $ARGV[2] - 2500;	# the last documents: the runs insert the first ones
		chomp; my @c = split /\t/;
		my ($lang, $body) = ($c[1], $c[8]);
		$body =~ s/\\./ /g;
		push @{ $tok{$lang} }, $lang eq "zh" ? grep { /\S/ } split(//, $body) : split(/\s+/, $body);
	}
	my @langs = sort keys %tok;
	for my $i (1 .. $ARGV[1]) {
		my $lang = $langs[ $i % @langs ];
		my $t = $tok{$lang};
		my $sep = $lang eq "zh" ? "" : " ";
		print join($sep, map { my $o = int(rand(@$t - 20)); @$t[ $o .. $o + 19 ] } 1 .. 4), "\n";
	}' "$docs" "$ROWS" "$DOCS" > "$out/prefill.txt"

"${psql[@]}" <<SQL
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;
DROP TABLE IF EXISTS dd_prefill, dd_guarded, dd_plain, dd_copy_plain;
CREATE TABLE dd_prefill (body text);
\copy dd_prefill FROM '$out/prefill.txt'
CREATE TABLE dd_guarded (id bigserial PRIMARY KEY, body text, fp simhash64);
INSERT INTO dd_guarded (fp) SELECT simhash(body, 'null') FROM dd_prefill;
CREATE TABLE dd_plain (id bigserial PRIMARY KEY, body text, fp simhash64);
INSERT INTO dd_plain (fp) SELECT DISTINCT fp FROM dd_guarded WHERE fp IS NOT NULL;
DROP TABLE dd_prefill;
CREATE INDEX dd_guarded_fp ON dd_guarded USING mih (fp);
CREATE UNIQUE INDEX dd_plain_fp ON dd_plain (fp);
CREATE TRIGGER dedup BEFORE INSERT OR UPDATE ON dd_guarded FOR EACH ROW
	EXECUTE FUNCTION textfp_dedup('text=body', 'fingerprint=fp', 'key=id', 'threshold=10', 'mode=skip');
VACUUM ANALYZE dd_guarded, dd_plain;
SQL
rm -f "$out/prefill.txt"
fi
# the documents inserted
"${psql[@]}" <<SQL
DROP TABLE IF EXISTS dd_docs;
CREATE TABLE dd_docs (id bigint, lang text, site int, family bigint, role text, edit text,
	strength int, published_at timestamptz, body text);
\copy dd_docs FROM '$docs'
ALTER TABLE dd_docs ADD COLUMN grp text;
UPDATE dd_docs SET grp = lang || CASE WHEN octet_length(body) < 2500 THEN '_1k' ELSE '_5k' END;
VACUUM ANALYZE dd_docs;
SQL
# the rows of earlier runs go; the prefill stays (REUSE: a table of ROWS prefilled rows is kept)
"${psql[@]}" -c "DELETE FROM dd_guarded WHERE body IS NOT NULL" -c "DELETE FROM dd_plain WHERE body IS NOT NULL" \
	-c "DROP TABLE IF EXISTS dd_copy_plain" -c "VACUUM ANALYZE dd_guarded, dd_plain"

"${psql[@]}" -At -F $'\t' -c "SELECT grp, count(*), round(avg(octet_length(body))) FROM dd_docs GROUP BY 1 ORDER BY 1" \
	> "$out/groups.tsv"
"${psql[@]}" -At -c "SELECT 'prefilled rows: ' || (SELECT count(*) FROM dd_guarded) || ' guarded, ' || (SELECT count(*) FROM dd_plain) || ' plain (distinct fingerprints)'" | tee "$out/meta.txt"
"${psql[@]}" -At -c "SELECT version()" >> "$out/meta.txt"

# one pgbench run: table, group, clients, transactions per client
run() {
	local table=$1 grp=$2 clients=$3 tx=$4 seq=dd_seq_$1_$2_$3 f=$out/$1_$2_$3.sql log waits before after start=1
	# the single-session runs take the first documents, the 8-session runs the next ones
	[[ $clients != 1 ]] && start=$((ROWS_1 + 1))
	"${psql[@]}" -c "DROP SEQUENCE IF EXISTS $seq; CREATE SEQUENCE $seq START WITH $start;
		DROP TABLE IF EXISTS dd_pick_$grp; CREATE TABLE dd_pick_$grp AS
		SELECT row_number() OVER (ORDER BY id) AS n, body FROM dd_docs WHERE grp = '$grp';
		CREATE UNIQUE INDEX ON dd_pick_$grp (n)"
	if [[ $table == guarded ]]; then
		echo "INSERT INTO dd_guarded (body) SELECT body FROM dd_pick_$grp WHERE n = (SELECT nextval('$seq'));" > "$f"
	else
		echo "INSERT INTO dd_plain (body, fp) SELECT body, simhash(body, 'null') FROM dd_pick_$grp WHERE n = (SELECT nextval('$seq')) ON CONFLICT (fp) DO NOTHING;" > "$f"
	fi
	before=$("${psql[@]}" -At -c "SELECT count(*) FROM dd_$table")
	waits=n/a
	[[ -n ${SERVER_LOG:-} && -r ${SERVER_LOG:-} ]] && log=$(wc -l < "$SERVER_LOG")
	PGOPTIONS="-c deadlock_timeout=10ms -c log_lock_waits=on" \
		pgbench -n -c "$clients" -j "$clients" -t "$tx" --max-tries=10 --failures-detailed -f "$f" \
		> "$out/$table-$grp-$clients.out" 2>&1 || echo "pgbench failed: $out/$table-$grp-$clients.out" >&2
	after=$("${psql[@]}" -At -c "SELECT count(*) FROM dd_$table")
	if [[ -n ${log:-} ]]; then
		waits=$(tail -n +"$((log + 1))" "$SERVER_LOG" | grep -c 'still waiting for .* on advisory lock' || true)
	fi
	local tps ser dl
	tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$out/$table-$grp-$clients.out" | head -1)
	ser=$(sed -n 's/.*number of serialization failures: \([0-9]*\).*/\1/p' "$out/$table-$grp-$clients.out")
	dl=$(sed -n 's/.*number of deadlock failures: \([0-9]*\).*/\1/p' "$out/$table-$grp-$clients.out")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$table" "$grp" "$clients" "$tps" \
		"$((after - before))" "$((clients * tx))" "$waits" "${ser:-0}/${dl:-0}" >> "$out/runs.tsv"
}

printf 'table\tgroup\tsessions\trows_per_s\trows_in\ttried\tlock_waits\t40001/40P01\n' > "$out/runs.tsv"
for grp in en_1k en_5k zh_1k zh_5k; do
	for clients in 1 8; do
		tx=$ROWS_1
		[[ $clients == 8 ]] && tx=$ROWS_8
		run plain "$grp" "$clients" "$tx"
		run guarded "$grp" "$clients" "$tx"
	done
done

# COPY: batched into a table with a generated fingerprint, row by row through the trigger
"${psql[@]}" <<SQL > "$out/copy.txt"
\pset footer off
CREATE TEMP TABLE copy_src AS SELECT body FROM dd_docs WHERE grp = 'en_1k' ORDER BY id DESC LIMIT 1000;
\copy copy_src TO '$out/copy_src.txt'
CREATE TABLE dd_copy_plain (id bigserial PRIMARY KEY, body text,
	fp simhash64 GENERATED ALWAYS AS (simhash(body, 'null')) STORED);
CREATE UNIQUE INDEX ON dd_copy_plain (fp);
\timing on
\copy dd_copy_plain (body) FROM '$out/copy_src.txt'
\copy dd_guarded (body) FROM '$out/copy_src.txt'
SQL
rm -f "$out/copy_src.txt"

# report
perl -e '
	my %rate; my @rows;
	open my $g, "<", "$ARGV[0]/groups.tsv"; my %grp;
	while (<$g>) { chomp; my ($k, $n, $b) = split /\t/; $grp{$k} = "$n docs, mean $b bytes" }
	open my $f, "<", "$ARGV[0]/runs.tsv"; <$f>;
	while (<$f>) { chomp; my @c = split /\t/; push @rows, [@c]; $rate{"$c[0] $c[1] $c[2]"} = $c[3] }
	print "| texts | sessions | plain rows/s | guarded rows/s | guarded / plain | guarded rows in / tried | lock waits > 10 ms | 40001 / 40P01 |\n";
	print "|---|---:|---:|---:|---:|---:|---:|---:|\n";
	for my $r (grep { $_->[0] eq "guarded" } @rows) {
		my ($t, $grp, $c, $tps, $in, $tried, $w, $f) = @$r;
		my $p = $rate{"plain $grp $c"};
		printf "| %s (%s) | %d | %.0f | %.0f | %.2f | %d / %d | %s | %s |\n", $grp, $grp{$grp}, $c, $p, $tps,
			$p ? $tps / $p : 0, $in, $tried, $w, $f;
	}' "$out" | tee "$out/report.md"
echo
grep -E 'Time:' "$out/copy.txt" | sed '1s/^/COPY 1000 en_1k documents, batched into a generated-column table with a unique btree: /; 2s/^/COPY of the same through the trigger into the 1M-row guarded table: /' | tee -a "$out/report.md"
echo "results in $out"
