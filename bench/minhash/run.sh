#!/bin/bash
# run.sh: MinHash near-duplicate search at scale and in the small.
#
# 1. Short-text accuracy (accuracy.c, compiled here against the pure-C core src/core): bias
#    and variance of the Jaccard estimate of one-permutation hashing (the default) and of the
#    k-hash reference, for k = 64, 128, 256, sets of 2 to 5000 shingles, J = 0.2, 0.5, 0.8.
# 2. Exact Jaccard search over ROWS minhash_sig (k = 128) through the GIN operator class
#    gin_minhash_ops, bits = 8, 16, 32, next to a sequential scan: build time, index size,
#    query time at thresholds 0.5 .. 0.95 for `sig % q` (and `sig <@ jaccard_ball(q, t)`),
#    every index answer checked against the sequential scan's and an unindexed reference,
#    the planner's own plan, and insert throughput.
#
# Installs what is missing (build tools, PostgreSQL 15), builds and installs textfp, and runs
# part 2 on a throwaway cluster (pg_virtualenv): load.sql makes the synthetic shingle sets,
# signs them, and makes the queries and the reference; then, one index at a time on the same
# table, build.sql builds it, bench.sql times the queries in one session, and after the
# last (which has INSERT_BITS) insert.sql times inserts; dump.sql writes the raw results.
# Raw results go to bench/out/minhash-<UTC time>/ (git-ignored); the Markdown report
# (report.pl) is printed and saved there as report.md.  Exits 2 if an index answer differs
# from the sequential scan's or the reference's.
#
# Usage, as root from a clone:  bash bench/minhash/run.sh
# Environment:
#   ROWS             signatures in the table (default 1000000; a multiple of 10 keeps whole
#                    families)
#   QUERIES          query signatures, half family members, half unrelated rows (default 50)
#   THRESHOLDS       Jaccard thresholds (default "0.5 0.6 0.7 0.8 0.9 0.95")
#   BITS             the GIN indexes, one at a time, by their bits option (default "8 16 32")
#   BITS_ROWS        caps for some bits, e.g. "32=250000": that index is built on a copy of
#                    the first 250000 rows and its queries and sequential scans run there;
#                    queries are drawn from the smallest table's rows.  Default "32=250000"
#                    when ROWS is larger, else none ("" for none): bits = 32 makes nearly
#                    every (position, value) key distinct, and GIN's build inserts distinct
#                    keys one at a time, about 20-30 us each on a busy 2-core VM, so 128M keys
#                    at 1M rows would take about an hour
#   INSERT_ROWS      rows inserted in the insert test (default 50000)
#   INSERT_BITS      the index the insert test runs with (default 16, the opclass default);
#                    its variant runs last
#   MAINTENANCE_WORK_MEM  for the index builds (default 4GB: at 1M rows GIN's build then
#                    collects the bits = 8 and 16 keys in memory in one go; with less it
#                    writes them out several times, each time inserting every distinct key)
#   SHARED_BUFFERS   the server's shared_buffers (default 6GB: the table and the largest
#                    index fit at 1M rows)
#   ACCURACY         1 to run part 1 (default), 0 not to
#   ACCURACY_TRIALS  trials per cell of part 1 (default 2000; about 15 minutes on a busy
#                    2-core VM, nearly all of it the k-hash reference on 5000-shingle sets)
#   INDEX            1 to run part 2 (default), 0 not to
#   BENCH_PORT       port of the throwaway cluster (default: a free one from 15432 + random)

set -euo pipefail

mh_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$mh_dir/../.." && pwd)
ROWS=${ROWS:-1000000}
QUERIES=${QUERIES:-50}
THRESHOLDS=${THRESHOLDS:-0.5 0.6 0.7 0.8 0.9 0.95}
BITS=${BITS:-8 16 32}
if ((ROWS > 250000)); then BITS_ROWS=${BITS_ROWS-32=250000}; else BITS_ROWS=${BITS_ROWS-}; fi
INSERT_ROWS=${INSERT_ROWS:-50000}
INSERT_BITS=${INSERT_BITS:-16}
MAINTENANCE_WORK_MEM=${MAINTENANCE_WORK_MEM:-4GB}
SHARED_BUFFERS=${SHARED_BUFFERS:-6GB}
ACCURACY=${ACCURACY:-1}
ACCURACY_TRIALS=${ACCURACY_TRIALS:-2000}
INDEX=${INDEX:-1}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
unset LANGUAGE

step() { printf '\n==> %s\n' "$*" >&2; }
die() { echo "run.sh: $*" >&2; exit 1; }

# --- arguments ---------------------------------------------------------------------

[[ $ROWS =~ ^[1-9][0-9]*$ ]] || die "ROWS must be a positive integer"
[[ $QUERIES =~ ^[1-9][0-9]*$ && $QUERIES -ge 2 ]] || die "QUERIES must be an integer >= 2"
[[ $INSERT_ROWS =~ ^[1-9][0-9]*$ ]] || die "INSERT_ROWS must be a positive integer"
for t in $THRESHOLDS; do
	[[ $t =~ ^(0(\.[0-9]+)?|1(\.0*)?)$ ]] || die "THRESHOLDS: $t is not a number in 0..1"
done
[[ -n ${THRESHOLDS// /} ]] || die "THRESHOLDS is empty"
declare -A cap=()
for c in $BITS_ROWS; do
	[[ $c =~ ^([0-9]+)=([1-9][0-9]*)$ ]] || die "BITS_ROWS: $c is not bits=rows"
	((BASH_REMATCH[2] <= ROWS)) || die "BITS_ROWS: $c has more rows than ROWS ($ROWS)"
	cap[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
done
# the variants in order, the insert test's last; the queries come from the smallest table
variants=()
query_rows=$ROWS
for b in $BITS; do
	[[ $b =~ ^[0-9]+$ ]] && ((b >= 1 && b <= 32)) || die "BITS: $b is not 1..32"
	[[ $b == "$INSERT_BITS" ]] || variants+=("$b")
	r=${cap[$b]:-$ROWS}
	((r < query_rows)) && query_rows=$r
done
[[ " $BITS " == *" $INSERT_BITS "* ]] && variants+=("$INSERT_BITS")
((INDEX == 0)) || ((${#variants[@]} > 0)) || die "BITS is empty"
((query_rows >= 10)) || die "fewer than 10 rows to draw queries from"
query_rows=$((query_rows / 10 * 10))
min_threshold=$(printf '%s\n' $THRESHOLDS | sort -g | head -1)

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

out="$repo/bench/out/minhash-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
chmod 755 "$out"

# Server settings: the table and the largest index fit in shared_buffers; no checkpoint or
# autovacuum in the middle of a measurement; one core's work, no JIT (the plans forced with
# enable_seqscan = off cost enough to trigger it).
settings=(
	shared_buffers=$SHARED_BUFFERS maintenance_work_mem=$MAINTENANCE_WORK_MEM max_wal_size=16GB
	checkpoint_timeout=1h autovacuum=off jit=off max_parallel_workers_per_gather=0
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
	printf 'query_rows\t%s\n' "$query_rows"
	printf 'thresholds\t%s\n' "$THRESHOLDS"
	printf 'bits\t%s\n' "$BITS"
	printf 'bits_rows\t%s\n' "$BITS_ROWS"
	printf 'insert_rows\t%s\n' "$INSERT_ROWS"
	printf 'insert_bits\t%s\n' "$INSERT_BITS"
	printf 'accuracy\t%s\n' "$ACCURACY"
	printf 'accuracy_trials\t%s\n' "$ACCURACY_TRIALS"
	printf 'index\t%s\n' "$INDEX"
	printf 'settings\t%s\n' "${settings[*]}"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
	printf 'src_changes\t%s\n' "$(git -C "$repo" status --porcelain -- src 2>/dev/null | wc -l)"
	printf 'textfp_so\t%s\n' "$(md5sum < "$($PG_CONFIG --pkglibdir)/textfp.so" | cut -c1-12)"
	printf 'started\t%s\n' "$(date +%s)"
} > "$out/meta.txt"

# --- part 1: short-text accuracy ---------------------------------------------------

if ((ACCURACY)); then
	step "compiling accuracy.c against src/core and running it ($ACCURACY_TRIALS trials per cell)"
	# shellcheck disable=SC2046  # pkg-config's words are separate arguments
	cc -O2 -std=c99 -Wall -Wextra -I"$repo/src/core" -o "$out/accuracy" "$mh_dir/accuracy.c" \
		"$repo"/src/core/[a-z]*.c $(pkg-config --libs icu-i18n icu-uc) -lm
	t=$SECONDS
	"$out/accuracy" "$ACCURACY_TRIALS" > "$out/accuracy.tsv"
	printf 'phase_accuracy_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"
fi

# --- part 2: inside the throwaway cluster ----------------------------------------

# Runs under pg_virtualenv: load, then per variant build, query, (insert), drop; dump.  Each
# phase's wall time in meta.txt.
# shellcheck disable=SC2317  # called through bash -c, which shellcheck does not follow
inner() {
	set -euo pipefail
	local out=$1 mh_dir=$2 rows=$3 queries=$4 query_rows=$5 insert_rows=$6 min_threshold=$7
	local thresholds=$8 insert_bits=$9 variants=${10} caps=${11}
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	local t b r tbl
	declare -A cap=()
	for c in $caps; do cap[${c%%=*}]=${c#*=}; done

	"${psql[@]}" -At -c 'SELECT version()' | sed 's/^/server\t/; s/ on x86.*//; s/,.*//' >> "$out/meta.txt"

	echo "==> loading $rows rows, $queries queries, the reference" >&2
	t=$SECONDS
	"${psql[@]}" -v rows="$rows" -v queries="$queries" -v query_rows="$query_rows" \
		-v insert_rows="$insert_rows" -v min_threshold="$min_threshold" -f "$mh_dir/load.sql"
	printf 'phase_load_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	for b in $variants; do
		r=${cap[$b]:-$rows}
		tbl=mh
		((r < rows)) && tbl=mh_r$r
		echo "==> bits = $b on $tbl ($r rows): build" >&2
		t=$SECONDS
		"${psql[@]}" -v bits="$b" -v tbl="$tbl" -v tbl_rows="$r" -f "$mh_dir/build.sql" >> "$out/prewarm.txt"
		printf 'phase_build_%s_s\t%s\n' "$b" $((SECONDS - t)) >> "$out/meta.txt"

		echo "==> bits = $b: queries" >&2
		t=$SECONDS
		"${psql[@]}" -v bits="$b" -v tbl="$tbl" -v thresholds="$thresholds" -f "$mh_dir/bench.sql"
		printf 'phase_queries_%s_s\t%s\n' "$b" $((SECONDS - t)) >> "$out/meta.txt"

		if [[ $b == "$insert_bits" ]]; then
			echo "==> bits = $b: inserts" >&2
			t=$SECONDS
			"${psql[@]}" -v bits="$b" -v tbl="$tbl" -f "$mh_dir/insert.sql" > /dev/null
			printf 'phase_insert_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"
		else
			"${psql[@]}" -c "DROP INDEX ${tbl}_sig"
		fi
	done

	"${psql[@]}" -v out="$out" -f "$mh_dir/dump.sql"
}
export -f inner

if ((INDEX)); then
	# Other clusters may be starting on this machine at the same time: take a free port of
	# our own rather than pg_virtualenv's first free one from 5432, and a pid file of our own
	# rather than the shared /var/run/postgresql/15-regress.pid.
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
		bash -c 'inner "$@"' inner "$out" "$mh_dir" "$ROWS" "$QUERIES" "$query_rows" "$INSERT_ROWS" \
		"$min_threshold" "$THRESHOLDS" "$INSERT_BITS" "${variants[*]}" "$BITS_ROWS"
fi

{
	printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'textfp_so_end\t%s\n' "$(md5sum < "$($PG_CONFIG --pkglibdir)/textfp.so" | cut -c1-12)"
	printf 'ended\t%s\n' "$(date +%s)"
} >> "$out/meta.txt"

# --- report --------------------------------------------------------------------

report_status=0
perl "$mh_dir/report.pl" "$out" > "$out/report.md" || report_status=$?
step "report ($out/report.md)"
cat "$out/report.md"
if [[ -e $out/mismatches.tsv ]] && (($(wc -l < "$out/mismatches.tsv") > 1)); then
	echo >&2
	echo "run.sh: EXACTNESS MISMATCH: an index answered differently from the sequential scan" \
		"or the reference; see the report and $out/mismatches.tsv" >&2
	exit 2
fi
exit "${report_status:-0}"
