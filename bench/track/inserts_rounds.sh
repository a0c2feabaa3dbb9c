#!/bin/bash
# inserts_rounds.sh: single-row inserts into a tracked table next to plain inserts that compute the same
# fingerprint into a btree-indexed column of a plain table, in alternating rounds (the method of
# docs/benchmarks.md, "MinHash single-row inserts at 1M"): in each round the plain pool rows deleted from the
# plain table and it vacuumed, then plain and tracked each `pgbench -n -c 1 -T T` from the same pool row
# (prepare.sql's tk_pool, ids past 100,000,000); the next round starts past the tracked rows
# (NEXT: the first round's first pool row).  One session.
#
#   DB=tk TBL=tk_n1s3 PLAIN=pl_n1s3 FPCALL="minhash(body, 'null', ngram => 1, ...)" ROUNDS=3 T=60 OUT=dir \
#       bash bench/track/inserts_rounds.sh
set -euo pipefail
DB=${DB:?DB} TBL=${TBL:?TBL: the tracked table} PLAIN=${PLAIN:?PLAIN: the plain table} FPCALL=${FPCALL:?FPCALL}
ROUNDS=${ROUNDS:-3} T=${T:-60} OUT=${OUT:?OUT: a directory for pgbench outputs} NEXT=${NEXT:-1}
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "$DB")
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
mkdir -p "$OUT"
load() { cut -d' ' -f1 /proc/loadavg; }
store=$("${psql[@]}" -At -c "SELECT store_table FROM $("${psql[@]}" -At -c "SELECT textfp_track_own_config('$TBL')")")
echo "INSERT INTO $PLAIN (id, site, published_at, body, fp) SELECT id, site, published_at, body, $FPCALL FROM tk_pool WHERE n = (SELECT nextval('s3_seq'));" > "$OUT/insert-plain.sql"
echo "INSERT INTO $TBL (id, site, published_at, body) SELECT id, site, published_at, body FROM tk_pool WHERE n = (SELECT nextval('s3_seq'));" > "$OUT/insert-tracked.sql"
"${psql[@]}" -c "VACUUM ANALYZE $TBL, $store, $PLAIN"
echo "round|kind|rows/s|latency|rows|pool rows|load before|load after"
next=$NEXT
for round in $(seq 1 "$ROUNDS"); do
	for kind in plain tracked; do
		[[ $kind == plain ]] && "${psql[@]}" -c "DELETE FROM $PLAIN WHERE id > 100000000" -c "VACUUM $PLAIN"
		[[ $kind == plain ]] && tblk=$PLAIN || tblk=$TBL
		"${psql[@]}" -c "DROP SEQUENCE IF EXISTS s3_seq" -c "CREATE SEQUENCE s3_seq START WITH $next"
		before=$("${psql[@]}" -At -c "SELECT count(*) FROM $tblk WHERE id > 100000000")
		l0=$(load)
		o=$OUT/pgbench-$kind-$round.out
		pgbench -n -c 1 -T "$T" -f "$OUT/insert-$kind.sql" "$DB" > "$o" 2>&1 || { echo "pgbench failed: $o" >&2; cat "$o" >&2; exit 1; }
		l1=$(load)
		after=$("${psql[@]}" -At -c "SELECT count(*) FROM $tblk WHERE id > 100000000")
		used=$("${psql[@]}" -At -c "SELECT last_value FROM s3_seq")
		echo "$round|$kind|$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$o" | head -1)|$(sed -n 's/^latency average = //p' "$o")|$((after - before))|$next to $used|$l0|$l1"
		if [[ $kind == tracked ]]; then
			"${psql[@]}" -At -F'|' -c "SELECT $round, p.kind, count(*), count(s.source) FROM tk_pool p JOIN $store s ON s.key = p.id
				WHERE p.n BETWEEN $next AND $used GROUP BY p.kind ORDER BY p.kind" >> "$OUT/mix.txt"
			tnext=$((used + 1))
		fi
	done
	# the plain pool rows are deleted before each plain run: the next round starts past the tracked rows
	next=$tnext
done
echo "mix (round|kind|rows|linked):"; cat "$OUT/mix.txt"
