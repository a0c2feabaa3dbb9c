#!/bin/bash
# inserts_builds.sh: single-row inserts into a tracked table with two builds of textfp side by side, next to
# plain inserts that compute the same fingerprint into a btree-indexed column of a plain table (as
# inserts_rounds.sh).  In each round: plain, then the tracked table with each build (their order turned round
# by round), `pgbench -n -c SESSIONS -T T` each, every run from the same pool row (prepare.sql's tk_pool): after
# a tracked run its rows are kept (key, source, story, score in table si_links) and deleted again (through the
# trigger, latest first), the tables vacuumed, so each build inserts the same rows into the same table.  A build
# is put in place by copying its .so next to the installed one and renaming it over (new sessions load it; never
# a copy over a live library); the first build is put back at the end.  At the end: the links of the rows both
# builds inserted, compared (with several sessions, a row one run inserted and the other did not, the runs
# ending mid-transaction, can change the links of rows near it).
#
#   DB=tk TBL=tk_simhash PLAIN=pl_simhash FPCALL="simhash(body, preset => 'simhash_v2')" \
#   LIB=/path/lib/textfp.so BUILDS="base=/path/textfp.so.base new=/path/textfp.so.new" \
#   ROUNDS=3 T=60 SESSIONS=1 NEXT=1 OUT=dir [PGBENCH=pgbench] bash bench/track/inserts_builds.sh
set -euo pipefail
DB=${DB:?DB} TBL=${TBL:?TBL: the tracked table} PLAIN=${PLAIN:?PLAIN: the plain table} FPCALL=${FPCALL:?FPCALL}
LIB=${LIB:?LIB: the installed textfp.so} BUILDS=${BUILDS:?BUILDS: name=file ...}
ROUNDS=${ROUNDS:-3} T=${T:-60} SESSIONS=${SESSIONS:-1} OUT=${OUT:?OUT: a directory for pgbench outputs} NEXT=${NEXT:-1}
PGBENCH=${PGBENCH:-pgbench}
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "$DB")
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
mkdir -p "$OUT"
load() { cut -d' ' -f1 /proc/loadavg; }
put() { cp "$1" "$LIB.new" && mv "$LIB.new" "$LIB"; }
read -r -a builds <<< "$BUILDS"
store=$("${psql[@]}" -At -c "SELECT store_table FROM $("${psql[@]}" -At -c "SELECT textfp_track_own_config('$TBL')")")
echo "INSERT INTO $PLAIN (id, site, published_at, body, fp) SELECT id, site, published_at, body, $FPCALL FROM tk_pool WHERE n = (SELECT nextval('si_seq'));" > "$OUT/insert-plain.sql"
echo "INSERT INTO $TBL (id, site, published_at, body) SELECT id, site, published_at, body FROM tk_pool WHERE n = (SELECT nextval('si_seq'));" > "$OUT/insert-tracked.sql"
"${psql[@]}" -c "CREATE TABLE IF NOT EXISTS si_links (build text, sessions int, round int, key bigint, source bigint, story bigint, score float8)" \
	-c "DELETE FROM si_links WHERE sessions = $SESSIONS"
# a tracked run's rows deleted latest first: a row deleted then has no later pool row near it to relink (a
# DELETE of them all relinked the later rows of the pool's own families again and again: minutes)
"${psql[@]}" -c "CREATE OR REPLACE PROCEDURE si_undo(tbl regclass) LANGUAGE plpgsql AS \$\$
	DECLARE r record; i int := 0;
	BEGIN
		FOR r IN EXECUTE format('SELECT id FROM %s WHERE id > 100000000 ORDER BY published_at DESC, id DESC', tbl) LOOP
			EXECUTE format('DELETE FROM %s WHERE id = \$1', tbl) USING r.id;
			i := i + 1;
			IF i % 2000 = 0 THEN COMMIT; END IF;
		END LOOP;
	END \$\$" -c "CALL si_undo('$TBL')" -c "DELETE FROM $PLAIN WHERE id > 100000000" -c "VACUUM ANALYZE $TBL, $store, $PLAIN"
echo "round|run|rows/s|latency|rows|failures|pool rows|linked|load before|load after"
for round in $(seq 1 "$ROUNDS"); do
	order=("${builds[@]}")
	(( round % 2 == 0 )) && order=($(printf '%s\n' "${builds[@]}" | tac))
	for run in plain "${order[@]}"; do
		name=${run%%=*}
		if [[ $run == plain ]]; then
			"${psql[@]}" -c "DELETE FROM $PLAIN WHERE id > 100000000" -c "VACUUM $PLAIN"
			script=$OUT/insert-plain.sql; tblk=$PLAIN
		else
			put "${run#*=}"
			script=$OUT/insert-tracked.sql; tblk=$TBL
		fi
		"${psql[@]}" -c "DROP SEQUENCE IF EXISTS si_seq" -c "CREATE SEQUENCE si_seq START WITH $NEXT"
		before=$("${psql[@]}" -At -c "SELECT count(*) FROM $tblk WHERE id > 100000000")
		l0=$(load)
		o=$OUT/pgbench-$name-$SESSIONS-$round.out
		"$PGBENCH" -n -c "$SESSIONS" -j "$SESSIONS" -T "$T" --max-tries=10 --failures-detailed -f "$script" "$DB" > "$o" 2>&1 ||
			{ echo "pgbench failed: $o" >&2; cat "$o" >&2; exit 1; }
		l1=$(load)
		after=$("${psql[@]}" -At -c "SELECT count(*) FROM $tblk WHERE id > 100000000")
		used=$("${psql[@]}" -At -c "SELECT last_value FROM si_seq")
		fail=$(grep -E '^number of failed' "$o" | sed 's/^number of failed transactions: //' || true)
		linked=
		if [[ $run != plain ]]; then
			linked=$("${psql[@]}" -At -c "WITH r AS (INSERT INTO si_links SELECT '$name', $SESSIONS, $round, s.key, s.source, s.story, s.score
					FROM $store s WHERE s.key > 100000000 RETURNING source) SELECT count(source) FROM r")
			# the same rows for the next build: deleted through the trigger, then vacuumed
			"${psql[@]}" -c "CALL si_undo('$TBL')" -c "VACUUM $TBL, $store"
		fi
		echo "$round|$name|$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$o" | head -1)|$(sed -n 's/^latency average = //p' "$o")|$((after - before))|$fail|$NEXT to $used|$linked|$l0|$l1"
	done
done
put "${builds[0]#*=}"
echo "links of the rows both builds inserted, by round (rows, differing):"
"${psql[@]}" -At -F'|' -c "SELECT a.round, a.build || ' vs ' || b.build, count(*),
		count(*) FILTER (WHERE a.source IS DISTINCT FROM b.source OR a.story IS DISTINCT FROM b.story OR a.score IS DISTINCT FROM b.score)
	FROM si_links a JOIN si_links b ON a.key = b.key AND a.round = b.round AND a.sessions = b.sessions AND a.build < b.build
	WHERE a.sessions = $SESSIONS GROUP BY 1, 2 ORDER BY 1, 2"
