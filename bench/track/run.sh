#!/bin/bash
# run.sh: tracked tables (textfp_track, issue 21) at 1M text-like documents (bench/corpus), both
# fingerprints with the registration's defaults (MinHash: no method, preset minhash_v2;
# SimHash: method => 'simhash', preset simhash_v2):
#   - textfp_track's own time (fill and link phases apart, from its progress NOTICEs), backend
#     CPU time and peak resident memory; sizes of the table, the store and its indexes
#   - chaining and recall: largest stories next to the largest planted family; planted pairs
#     (copy, original) in one story, and among the pairs within the threshold
#   - each report's first 20 rows (median of 5 warm runs)
#   - single-row INSERT transactions into the tracked table next to plain inserts that compute
#     the same fingerprint into a btree-indexed column of a plain table of the same rows,
#     side by side (pgbench -T, 1 and 8 sessions for SimHash, 1 for MinHash); the rows come
#     from a second corpus of the same generator (another seed, later in time, with its own
#     planted families and templates) with every NEAR_EVERY-th row an edited copy of a random
#     existing row; the mix inserted and how much of it was linked is reported
#   - textfp_rebuild (every row relinked in time order), after the insert runs
# Results go to bench/out/track-<UTC time>/ (tk_result.tsv, pgbench outputs, NOTICE logs with
# timestamps) and a Markdown report (report.md).
#
# Usage, as root from a clone:     bash bench/track/run.sh
#   on a server of your own:       BENCH_SERVER=existing PGHOST=... PGPORT=... PGDATABASE=... \
#                                  bash bench/track/run.sh        (superuser: pg_read_file)
# Environment:
#   N            documents in the tracked tables (default 1000000)
#   POOL         documents of the second corpus, the rows the insert runs take (default 200000)
#   NEAR_EVERY   every NEAR_EVERY-th pool row is an edited copy of an existing row (default 10)
#   T            seconds of each pgbench run (default 60)
#   METHODS      default "simhash minhash"
#   PARTS        default "load track plain quality lookup reports inserts rebuild"; "load" loads the
#                corpora and makes the pool; for each method, "track" makes the table (a copy
#                of the corpus) and registers it, "plain" records sizes and makes the plain
#                table; the rest need them ("lookup": the triggers' near-row query timed on
#                random rows, 200 for SimHash, 10 for MinHash)
#   SESSIONS_simhash, SESSIONS_minhash   insert runs' sessions (default "1 8" and "1")
#   TRACK_TIMEOUT_simhash, TRACK_TIMEOUT_minhash   seconds after which textfp_track is cancelled
#                (default: none); the registration stays 'building' or 'linking' and the run
#                goes on with the rows filled and linked so far (recorded)
#   BENCH_SERVER "existing": no packages, no build, no throwaway cluster
set -euo pipefail
t_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$t_dir/../.." && pwd)
export N=${N:-1000000} POOL=${POOL:-200000} NEAR_EVERY=${NEAR_EVERY:-10} T=${T:-60}
export METHODS=${METHODS:-simhash minhash}
export PARTS=${PARTS:-load track plain quality lookup reports inserts rebuild}
export SESSIONS_simhash=${SESSIONS_simhash:-1 8} SESSIONS_minhash=${SESSIONS_minhash:-1}
export TRACK_TIMEOUT_simhash=${TRACK_TIMEOUT_simhash:-} TRACK_TIMEOUT_minhash=${TRACK_TIMEOUT_minhash:-}
BENCH_SERVER=${BENCH_SERVER:-}
start=$SECONDS
step() { printf '\n==> %s  [%s]\n' "$*" "$(date -u +%H:%M:%S)" >&2; }

out="$repo/bench/out/track-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	printf 'nproc\t%s\n' "$(nproc)"
	printf 'memory\t%s\n' "$(free -g | awk '/^Mem:/ {print $2 " GB"}')"
	printf 'load_start\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
	printf 'command\t%s\n' "N=$N POOL=$POOL NEAR_EVERY=$NEAR_EVERY T=$T METHODS='$METHODS' PARTS='$PARTS' SESSIONS_simhash='$SESSIONS_simhash' SESSIONS_minhash='$SESSIONS_minhash' bash bench/track/run.sh"
} > "$out/meta.txt"
export out t_dir repo

inner() {
	set -euo pipefail
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	part() { [[ " $PARTS " == *" $1 "* ]]; }
	stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N)" "$l"; done; }
	"${psql[@]}" -At -c 'SELECT version()' | sed 's/^/server\t/; s/ on x86.*//; s/,.*//' >> "$out/meta.txt"
	"${psql[@]}" -At -F $'\t' -c "SELECT 'settings', string_agg(name || '=' || current_setting(name), ' ' ORDER BY name)
		FROM pg_settings WHERE name IN ('shared_buffers', 'fsync', 'synchronous_commit', 'max_wal_size', 'jit',
			'max_parallel_workers_per_gather', 'autovacuum', 'work_mem', 'maintenance_work_mem')" >> "$out/meta.txt"
	"${psql[@]}" -c 'CREATE EXTENSION IF NOT EXISTS textfp' 2>/dev/null
	if part load; then
		# shellcheck source=../corpus/corpus.sh
		source "$repo/bench/corpus/corpus.sh"
		local f p t0=$SECONDS
		# the generator's default N is 1000000: leave N unset then, so the corpus file of the
		# other 1M benchmarks (made without N) is found
		if [[ $N == 1000000 ]]; then f=$(env -u N bash -c "source '$repo/bench/corpus/corpus.sh'; textlike_file")
		else f=$(textlike_file); fi
		p=$(N=$POOL SEED=2 textlike_file)
		step "loading $N documents from $f and the pool of $POOL from $p"
		"${psql[@]}" -v tbl=tk_docs -f "$t_dir/load.sql" < "$f"
		"${psql[@]}" -v tbl=tk_pool_raw -f "$t_dir/load.sql" < "$p"
		"${psql[@]}" -c "DROP TABLE IF EXISTS tk_result"
		"${psql[@]}" -v near_every="$NEAR_EVERY" -f "$t_dir/prepare.sql"
		"${psql[@]}" -c "INSERT INTO tk_result (method, item, value) VALUES ('', 'load_s', '$((SECONDS - t0))')"
	fi
	local m tbl plain fpcall fptype track_args s
	for m in $METHODS; do
		tbl=tk_$m; plain=pl_$m
		if [[ $m == simhash ]]; then
			fpcall="simhash(body, preset => 'simhash_v2')"; fptype=simhash64; track_args="method => 'simhash'${LOCKS:+, locks => '$LOCKS'}"
		else
			fpcall="minhash(body, preset => 'minhash_v2')"; fptype=minhash_sig; track_args=""
		fi
		if part track; then
			step "$m: table $tbl, a copy of tk_docs"
			"${psql[@]}" -v tbl="$tbl" -f "$t_dir/table.sql"
			step "$m: CALL textfp_track('$tbl', ...${track_args:+, $track_args})"
			local timeout canceller=
			timeout=$(eval echo "\${TRACK_TIMEOUT_$m:-}")
			if [[ -n $timeout ]]; then
				( sleep "$timeout"; "${psql[@]}" -At -c "SELECT 'cancelled textfp_track after $timeout s: ' || pg_cancel_backend(pid)
					FROM pg_stat_activity WHERE query LIKE 'CALL textfp_track(''$tbl''%' AND pid <> pg_backend_pid()" >&2 ) &
				canceller=$!
			fi
			{
				echo "start"
				"${psql[@]}" -v method="$m" -v step=textfp_track \
					-v call="CALL textfp_track('$tbl', 'body', 'id', 'published_at', site_column => 'site'${track_args:+, $track_args})" \
					-f "$t_dir/call.sql" 2>&1
				echo "end"
			} | stamp | tee "$out/notices-track-$m.log" | awk 'NR % 50 == 1 || /linking|stories|end/' >&2
			# fill: start to the NOTICE that says linking begins; link: from there to the end
			awk -v m="$m" '
				NR == 1 { t0 = $1 } / linking them in time order/ { t1 = $1 } /^[0-9.]+ end$/ { t2 = $1 }
				END { printf "%s\ttextfp_track fill_s\t%.1f\n%s\ttextfp_track link_s\t%.1f\n", m, t1 - t0, m, t2 - t1 }' \
				"$out/notices-track-$m.log" > "$out/phases-$m.tsv"
			[[ -n $canceller ]] && { kill "$canceller" 2>/dev/null || true; }
			"${psql[@]}" -c "\\copy tk_result (method, item, value) FROM '$out/phases-$m.tsv'"
			"${psql[@]}" -c "INSERT INTO tk_result (method, item, value) SELECT '$m', 'textfp_track ended in', format('state %s, phase %s, %s of %s', state, phase, done, total) FROM ${tbl}_textfp_config"
		fi
		if part plain; then
			"${psql[@]}" -c "VACUUM ANALYZE ${tbl}_textfp"
			"${psql[@]}" -c "INSERT INTO tk_result (method, item, value)
				SELECT '$m', 'registration', format('method %s, preset %s, threshold %s, cohesion %s, lsh %s x %s min %s, options %s',
					method, preset, threshold, cohesion, lsh_bands, lsh_rows, lsh_min_bands, options) FROM ${tbl}_textfp_config"
			"${psql[@]}" -v method="$m" -v tbl="$tbl" -v store="${tbl}_textfp" -f "$t_dir/sizes.sql"
			step "$m: plain table $plain"
			"${psql[@]}" -v tbl="$tbl" -v plain="$plain" -v store="${tbl}_textfp" -v fptype="$fptype" \
				-v fpcall="$fpcall" -f "$t_dir/plain.sql"
		fi
		if part quality; then
			step "$m: chaining and recall"
			"${psql[@]}" -v method="$m" -v tbl="$tbl" -v store="${tbl}_textfp" -v cfg="${tbl}_textfp_config" \
				-f "$t_dir/quality.sql"
		fi
		if part lookup; then
			step "$m: near-row lookups"
			"${psql[@]}" -v method="$m" -v store="${tbl}_textfp" -v cfg="${tbl}_textfp_config" \
				-v samples="$([[ $m == simhash ]] && echo 200 || echo 10)" -f "$t_dir/lookup.sql"
		fi
		if part reports; then
			step "$m: reports"
			"${psql[@]}" -v method="$m" -v tbl="$tbl" -v store="${tbl}_textfp" -v runs=5 -f "$t_dir/reports.sql"
		fi
		if part inserts; then
			local next=1 sessions kind f seq before after used
			for sessions in $(eval echo "\$SESSIONS_$m"); do
				for kind in plain tracked; do
					step "$m: $kind single-row inserts, $sessions sessions, $T s, pool rows from $next"
					seq=tk_seq_$m
					"${psql[@]}" -c "DROP SEQUENCE IF EXISTS $seq; CREATE SEQUENCE $seq START WITH $next"
					f=$out/insert-$m-$kind.sql
					if [[ $kind == plain ]]; then
						echo "INSERT INTO $plain (id, site, published_at, body, fp) SELECT id, site, published_at, body, $fpcall FROM tk_pool WHERE n = (SELECT nextval('$seq'));" > "$f"
					else
						echo "INSERT INTO $tbl (id, site, published_at, body) SELECT id, site, published_at, body FROM tk_pool WHERE n = (SELECT nextval('$seq'));" > "$f"
					fi
					[[ $kind == plain ]] && tblk=$plain || tblk=$tbl
					before=$("${psql[@]}" -At -c "SELECT count(*) FROM $tblk")
					pgbench -n -c "$sessions" -j "$sessions" -T "$T" --max-tries=10 --failures-detailed -f "$f" \
						> "$out/pgbench-$m-$kind-$sessions.out" 2>&1 || echo "pgbench failed: $out/pgbench-$m-$kind-$sessions.out" >&2
					after=$("${psql[@]}" -At -c "SELECT count(*) FROM $tblk")
					used=$("${psql[@]}" -At -c "SELECT last_value FROM $seq")
					"${psql[@]}" -v m="$m" -v k="$kind $sessions" -v tps="$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$out/pgbench-$m-$kind-$sessions.out" | head -1)" \
						-v rows="$((after - before))" -v lat="$(sed -n 's/^latency average = //p' "$out/pgbench-$m-$kind-$sessions.out")" \
						-v fail="$(grep -E 'number of (failed|serialization|deadlock|other)' "$out/pgbench-$m-$kind-$sessions.out" | sed 's/^ *number of //; s/ (.*//' | paste -sd, -)" \
						-v exhausted="$([[ $used -gt $POOL ]] && echo 'POOL EXHAUSTED' || echo '')" <<'SQL'
INSERT INTO tk_result (method, item, value) VALUES
	(:'m', 'insert ' || :'k' || ' rows/s', :'tps'),
	(:'m', 'insert ' || :'k' || ' rows in', :'rows' || ' ' || :'exhausted'),
	(:'m', 'insert ' || :'k' || ' latency', :'lat'),
	(:'m', 'insert ' || :'k' || ' failures', :'fail');
SQL
					if [[ $kind == tracked ]]; then
						# the mix of this run's rows and how many were linked to an earlier row
						"${psql[@]}" -c "INSERT INTO tk_result (method, item, value)
							SELECT '$m', 'insert tracked $sessions mix: ' || p.kind, format('%s rows, %s linked (%s%%)', count(*),
								count(s.source), round(100.0 * count(s.source) / count(*), 1))
							FROM tk_pool p JOIN ${tbl}_textfp s ON s.key = p.id
							WHERE p.n >= $next AND p.n <= $used GROUP BY p.kind"
						next=$((used + 1))
					fi
				done
				# the plain run may have used more of the pool: the next pair starts past both
				next=$(( $("${psql[@]}" -At -c "SELECT greatest(max(n), $next - 1) FROM tk_pool p WHERE p.id IN (SELECT id FROM $plain WHERE id > 100000000)") + 1 ))
			done
			"${psql[@]}" -c "VACUUM ANALYZE $tbl, ${tbl}_textfp, $plain"
		fi
		if part rebuild; then
			step "$m: CALL textfp_rebuild('$tbl')"
			"${psql[@]}" -c "INSERT INTO tk_result (method, item, value) SELECT '$m', 'textfp_rebuild rows', count(*)::text FROM $tbl"
			{
				echo "start"
				"${psql[@]}" -v method="$m" -v step=textfp_rebuild -v call="CALL textfp_rebuild('$tbl')" \
					-f "$t_dir/call.sql" 2>&1
				echo "end"
			} | stamp | tee "$out/notices-rebuild-$m.log" | awk 'NR % 50 == 1 || /stories|end/' >&2
		fi
	done
	"${psql[@]}" -c "\\copy (SELECT method, item, value, at FROM tk_result ORDER BY at) TO '$out/tk_result.tsv'"
}
export -f inner step

if [[ $BENCH_SERVER == existing ]]; then
	step "running on the existing server (${PGHOST:-default host}:${PGPORT:-5432}), database ${PGDATABASE:-default}"
	inner
else
	# shellcheck source=../../scripts/ensure_packages.sh
	source "$repo/scripts/ensure_packages.sh"
	ensure_packages build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev libxxhash-dev
	# shellcheck source=../../scripts/build_textfp.sh
	source "$repo/scripts/build_textfp.sh"
	build_textfp "$repo"
	export PGPORT=${BENCH_PORT:-$((15432 + RANDOM % 1000))}
	step "running on a throwaway PostgreSQL 15 cluster (port $PGPORT)"
	pg_virtualenv -t -v 15 -c "--encoding=UTF8 --locale=C.UTF-8" -o 'jit=off' \
		-o 'max_parallel_workers_per_gather=0' -o 'shared_buffers=1GB' -o 'max_wal_size=8GB' \
		-o 'autovacuum=off' bash -c inner
fi
printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/meta.txt"
printf 'elapsed_s\t%s\n' $((SECONDS - start)) >> "$out/meta.txt"
perl "$t_dir/report.pl" "$out" | tee "$out/report.md"
