#!/bin/bash
# run.sh: exact Hamming search over simhash64 through index operator classes (GiST, SP-GiST,
# GIN with any number of blocks), next to a sequential scan, on uniform random fingerprints
# and on planted families of near duplicates: build time, index size, query time (radius
# 0..6, KNN-1, KNN-10 for the trees), exactness, self-join time, and insert throughput.
#
# Installs what is missing (build tools, PostgreSQL 15), builds and installs textfp, and runs
# on a throwaway cluster (pg_virtualenv): load.sql makes the methods' table, the rows and the
# queries, build.sql builds and times the indexes and warms the cache, bench.sql times the
# queries in one session and keeps every answer, join.sql times self-joins through the index
# (pairs within 6 and within 3 bits) and checks them, insert.sql times inserts.  Raw results
# go to bench/out/index-<UTC time>/ (git-ignored); the Markdown report (report.pl) is printed
# and saved there as report.md.  Exits 2 if an index answer differs from the reference.
#
# Usage, as root from a clone:  bash bench/index/run.sh
# Environment:
#   ROWS          rows per data set (default 1000000; a multiple of 10 keeps whole families)
#   QUERIES       queries per query set, near and far, per data set (default 50)
#   KNN_QUERIES   how many of them (the first) also run KNN-10, KNN-1 on the far set and the
#                 % check: KNN takes seconds through either tree at 1M rows (default 10)
#   INSERT_ROWS   rows inserted in the insert test (default 100000)
#   METHODS       index methods, one table and index each (default "gist spgist gin gin8"):
#                 gist, spgist, gin (blocks = 4, the default), ginN (blocks = N, 2..32);
#                 bench.index_using in load.sql maps them to USING clauses
#   JOIN_METHODS  methods (among METHODS) whose table is self-joined (default "gin" when METHODS
#                 has it, else none; "" for none)
#   JOIN_OUTER    outer rows of each timed join, the first by id (default: ROWS up to 100000;
#                 the % join through GIN costs about 6 ms per outer row at 1M rows, so all
#                 1M rows would take 1.5 to 2 hours per join)
#   JOIN_CHECK_OUTER  outer rows of the joins checked against an unindexed reference
#                 (default 2000)
#   SHARED_BUFFERS  the server's shared_buffers (default 1GB: holds everything at 1M rows;
#                 give about 8GB at 10M)
#   BENCH_PORT    port of the throwaway cluster (default: a free one from 15432 + random)

set -euo pipefail

index_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$index_dir/../.." && pwd)
ROWS=${ROWS:-1000000}
QUERIES=${QUERIES:-50}
KNN_QUERIES=${KNN_QUERIES:-10}
INSERT_ROWS=${INSERT_ROWS:-100000}
METHODS=${METHODS-gist spgist gin gin8}
# the default join method only where it is loaded
[[ " $METHODS " == *" gin "* ]] && JOIN_METHODS=${JOIN_METHODS-gin} || JOIN_METHODS=${JOIN_METHODS-}
JOIN_OUTER=${JOIN_OUTER:-$((ROWS < 100000 ? ROWS : 100000))}
JOIN_CHECK_OUTER=${JOIN_CHECK_OUTER:-2000}
SHARED_BUFFERS=${SHARED_BUFFERS:-1GB}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
unset LANGUAGE

step() { printf '\n==> %s\n' "$*" >&2; }

# The join phase runs long after the start: catch a join method with no table now.
for m in $JOIN_METHODS; do
	[[ " $METHODS " == *" $m "* ]] || { echo "run.sh: JOIN_METHODS: $m is not in METHODS ($METHODS)" >&2; exit 1; }
done
[[ -n ${METHODS// /} ]] || { echo "run.sh: METHODS is empty" >&2; exit 1; }

# --- packages ----------------------------------------------------------------

# postgresql-15 includes contrib (pg_prewarm)
# shellcheck source=../../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
ensure_packages build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev \
	libxxhash-dev

# --- build -------------------------------------------------------------------

# shellcheck source=../../scripts/build_textfp.sh
source "$repo/scripts/build_textfp.sh"
build_textfp "$repo"

# --- machine facts -------------------------------------------------------------

out="$repo/bench/out/index-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
chmod 755 "$out"

# Server settings: the whole data (a heap per method plus one, an index per method) fits in
# shared_buffers; no checkpoint or autovacuum in the middle of a measurement; one core's
# work, no JIT (the plans forced with enable_seqscan = off cost enough to trigger it).
settings=(
	shared_buffers=$SHARED_BUFFERS maintenance_work_mem=256MB max_wal_size=8GB checkpoint_timeout=1h
	autovacuum=off jit=off max_parallel_workers_per_gather=0
)

{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	printf 'nproc\t%s\n' "$(nproc)"
	printf 'mem\t%s\n' "$(awk '/^MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
	printf 'kernel\t%s\n' "$(uname -sr)"
	printf 'load\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'rows\t%s\n' "$ROWS"
	printf 'queries\t%s\n' "$QUERIES"
	printf 'knn_queries\t%s\n' "$KNN_QUERIES"
	printf 'insert_rows\t%s\n' "$INSERT_ROWS"
	printf 'methods\t%s\n' "$METHODS"
	printf 'join_methods\t%s\n' "$JOIN_METHODS"
	printf 'join_outer\t%s\n' "$JOIN_OUTER"
	printf 'join_check_outer\t%s\n' "$JOIN_CHECK_OUTER"
	printf 'settings\t%s\n' "${settings[*]}"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
	printf 'src_changes\t%s\n' "$(git -C "$repo" status --porcelain -- src 2>/dev/null | wc -l)"
	printf 'textfp_so\t%s\n' "$(md5sum < "$($PG_CONFIG --pkglibdir)/textfp.so" | cut -c1-12)"
	printf 'started\t%s\n' "$(date +%s)"
} > "$out/meta.txt"

# --- inside the throwaway cluster ---------------------------------------------

# Runs under pg_virtualenv: load, build, query, join, insert; each phase's wall time in
# meta.txt.
# shellcheck disable=SC2317  # called through bash -c, which shellcheck does not follow
inner() {
	set -euo pipefail
	local out=$1 index_dir=$2 rows=$3 queries=$4 insert_rows=$5 knn_queries=$6 methods=$7
	local join_methods=$8 join_outer=$9 join_check_outer=${10}
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	local t

	"${psql[@]}" -At -c 'SELECT version()' | sed 's/^/server\t/; s/ on x86.*//; s/,.*//' >> "$out/meta.txt"

	echo "==> loading $rows rows per data set, $queries queries per query set" >&2
	t=$SECONDS
	"${psql[@]}" -v rows="$rows" -v queries="$queries" -v insert_rows="$insert_rows" \
		-v methods="$methods" -f "$index_dir/load.sql"
	printf 'phase_load_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> building the indexes" >&2
	t=$SECONDS
	"${psql[@]}" -f "$index_dir/build.sql" > "$out/prewarm.txt"
	printf 'phase_build_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> timing the queries" >&2
	t=$SECONDS
	"${psql[@]}" -v results="$out/results.tsv" -v plans="$out/default_plans.tsv" -v knn_queries="$knn_queries" \
		-f "$index_dir/bench.sql"
	printf 'phase_queries_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> timing self-joins through: ${join_methods:-(none)}" >&2
	t=$SECONDS
	"${psql[@]}" -v joins="$out/joins.tsv" -v join_methods="$join_methods" \
		-v join_outer="$join_outer" -v join_check_outer="$join_check_outer" -f "$index_dir/join.sql"
	printf 'phase_join_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> timing inserts" >&2
	t=$SECONDS
	"${psql[@]}" -v timings="$out/timings.tsv" -v sizes="$out/sizes.tsv" \
		-f "$index_dir/insert.sql" > /dev/null
	printf 'phase_insert_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"
}
export -f inner

# Other clusters may be starting on this machine at the same time: take a free port of our
# own rather than pg_virtualenv's first free one from 5432, and a pid file of our own rather
# than the shared /var/run/postgresql/15-regress.pid.
port_free() {
	[[ ! -e /var/run/postgresql/.s.PGSQL.$1 && ! -e /tmp/.s.PGSQL.$1 ]] &&
		! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
port=${BENCH_PORT:-$((15432 + RANDOM % 1000))}
until port_free "$port"; do port=$((port + 1)); done
export PGPORT=$port

opts=(-o "external_pid_file=/tmp/textfp-bench-$PGPORT.pid")
for s in "${settings[@]}"; do opts+=(-o "$s"); done

step "running on a throwaway PostgreSQL 15 cluster (port $PGPORT)"
pg_virtualenv -t -v 15 -c "--encoding=UTF8 --locale=C.UTF-8" "${opts[@]}" \
	bash -c 'inner "$@"' inner "$out" "$index_dir" "$ROWS" "$QUERIES" "$INSERT_ROWS" "$KNN_QUERIES" \
	"$METHODS" "$JOIN_METHODS" "$JOIN_OUTER" "$JOIN_CHECK_OUTER"

{
	printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'textfp_so_end\t%s\n' "$(md5sum < "$($PG_CONFIG --pkglibdir)/textfp.so" | cut -c1-12)"
	printf 'ended\t%s\n' "$(date +%s)"
} >> "$out/meta.txt"

# --- report --------------------------------------------------------------------

report_status=0
perl "$index_dir/report.pl" "$out" > "$out/report.md" || report_status=$?
step "report ($out/report.md)"
cat "$out/report.md"
if (($(wc -l < "$out/mismatches.tsv") > 1)); then
	echo >&2
	echo "run.sh: EXACTNESS MISMATCH: an index answered differently from the sequential scan;" \
		"see the report and $out/mismatches.tsv" >&2
	exit 2
fi
exit "${report_status:-0}"
