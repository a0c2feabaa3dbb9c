#!/bin/bash
# run.sh: exact Hamming search over simhash64 through index operator classes (GiST, SP-GiST,
# GIN with any number of blocks) and the mih access method, next to a sequential scan, on
# uniform random fingerprints, on planted families of near duplicates and (DATASETS) on the
# fingerprints of text-like documents: build time, index size, query time (radii 0..6 and
# the default threshold, KNN-1, KNN-10 for the trees), exactness, self-join time, and insert
# throughput (batched and single-row commits).
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
#   DATASETS      data sets (default "uniform clustered"): uniform, clustered, textlike (the
#                 default simhash of bench/corpus's generated documents: ROWS + INSERT_ROWS +
#                 SINGLE_ROWS + QUERIES of them, made once and kept in bench/out/corpus/ with
#                 their fingerprints; the far queries are documents not in the table)
#   TEXTLIKE_CORPUS  a corpus file to use instead of making one with bench/corpus (the same
#                 format, with enough documents); its fingerprints are kept next to it
#   RADII         radii timed through every index (default "0 1 2 3 4 5 6 10"; 10 is the
#                 default textfp.hamming_threshold)
#   THRESHOLD     textfp.hamming_threshold for % (the % check and the % self-join; default 10)
#   QUERIES       queries per query set, near and far, per data set (default 50)
#   KNN_QUERIES   how many of them (the first) also run KNN-10, KNN-1 on the far set and the
#                 % check: KNN takes seconds through either tree at 1M rows (default 10)
#   INSERT_ROWS   rows inserted in the insert test, one INSERT ... SELECT (default 100000)
#   SINGLE_ROWS   rows inserted one INSERT and COMMIT each, with synchronous_commit off
#                 (default 10000; 0 skips)
#   SINGLE_ROWS_SYNC  the same with synchronous_commit on: each commit waits for its WAL
#                 flush, which bounds every table alike (default 1000; 0 skips)
#   METHODS       index methods, one table and index each (default "gist spgist gin gin8
#                 mih"): gist, spgist, gin (blocks = 4, the default), ginN (blocks = N, 2..32),
#                 mih (m chosen from the table's size), mihN (m = N, 4..16); bench.index_using
#                 in load.sql maps them to USING clauses
#   JOIN_METHODS  methods (among METHODS) whose table is self-joined (default: gin and mih,
#                 those of them in METHODS; "" for none)
#   JOIN_OUTER    outer rows of each timed join, the first by id (default: ROWS up to 100000;
#                 the % join through GIN costs tens of ms per outer row at 1M rows at the
#                 default threshold); the report extrapolates to all ROWS
#   JOIN_CHECK_OUTER  outer rows of the joins checked against an unindexed reference, a
#                 sequential scan per outer row (default 200)
#   SESSION_MAP   1: before each data set's timed pass, the timing session reads every page of
#                 that data set's tables and indexes through shared buffers (pageinspect's
#                 get_raw_page, as a superuser), so that no timed query pays for the first
#                 touch of a buffer in that backend: the page faults that map shared memory
#                 into a process, which cost 40 to 70 us each on a VM such as ours (a 10M-row
#                 mih query meets a few hundred new pages).  The sequential scan is always
#                 timed that way (its warm-up run touched its pages).  Default 0.
#   SHARED_BUFFERS  the server's shared_buffers (default 1GB: holds everything at 1M rows;
#                 give about 8GB at 10M)
#   BENCH_PORT    port of the throwaway cluster (default: a free one from 15432 + random)
#   BENCH_SERVER  "existing": no package installs, no build, no throwaway cluster: run on the
#                 server that PGHOST, PGPORT and PGUSER reach, in a database of its own
#                 (created, dropped at the end), with textfp already installed for the
#                 PG_CONFIG given; the server's own settings apply (recorded in the report)

set -euo pipefail

index_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$index_dir/../.." && pwd)
ROWS=${ROWS:-1000000}
QUERIES=${QUERIES:-50}
KNN_QUERIES=${KNN_QUERIES:-10}
INSERT_ROWS=${INSERT_ROWS:-100000}
SINGLE_ROWS=${SINGLE_ROWS:-10000}
SINGLE_ROWS_SYNC=${SINGLE_ROWS_SYNC:-1000}
DATASETS=${DATASETS:-uniform clustered}
RADII=${RADII:-0 1 2 3 4 5 6 10}
THRESHOLD=${THRESHOLD:-10}
METHODS=${METHODS-gist spgist gin gin8 mih}
# the default join methods only where they are loaded
if [[ -z ${JOIN_METHODS+set} ]]; then
	JOIN_METHODS=
	for m in gin mih; do [[ " $METHODS " == *" $m "* ]] && JOIN_METHODS+="${JOIN_METHODS:+ }$m"; done
fi
JOIN_OUTER=${JOIN_OUTER:-$((ROWS < 100000 ? ROWS : 100000))}
JOIN_CHECK_OUTER=${JOIN_CHECK_OUTER:-200}
SHARED_BUFFERS=${SHARED_BUFFERS:-1GB}
SESSION_MAP=${SESSION_MAP:-0}
[[ $SESSION_MAP =~ ^[01]$ ]] || { echo "run.sh: SESSION_MAP takes 0 or 1, not $SESSION_MAP" >&2; exit 1; }
BENCH_SERVER=${BENCH_SERVER:-}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
unset LANGUAGE

step() { printf '\n==> %s\n' "$*" >&2; }

# The join phase runs long after the start: catch a join method with no table now.
for m in $JOIN_METHODS; do
	[[ " $METHODS " == *" $m "* ]] || { echo "run.sh: JOIN_METHODS: $m is not in METHODS ($METHODS)" >&2; exit 1; }
done
[[ -n ${METHODS// /} ]] || { echo "run.sh: METHODS is empty" >&2; exit 1; }
for d in $DATASETS; do
	[[ $d =~ ^(uniform|clustered|textlike)$ ]] || { echo "run.sh: DATASETS: unknown data set $d" >&2; exit 1; }
done
for r in $RADII $THRESHOLD; do
	[[ $r =~ ^[0-9]+$ ]] && ((r <= 64)) || { echo "run.sh: RADII and THRESHOLD take 0 .. 64, not $r" >&2; exit 1; }
done

# --- packages ----------------------------------------------------------------

# postgresql-15 includes contrib (pg_prewarm)
# shellcheck source=../../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
if [[ $BENCH_SERVER != existing ]]; then
	ensure_packages build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev \
		libxxhash-dev
fi

# --- build -------------------------------------------------------------------

if [[ $BENCH_SERVER == existing ]]; then
	: "${PG_CONFIG:?BENCH_SERVER=existing needs the PG_CONFIG of that server, with textfp installed}"
	export PG_CONFIG
else
	# shellcheck source=../../scripts/build_textfp.sh
	source "$repo/scripts/build_textfp.sh"
	build_textfp "$repo"
fi

# --- the text-like corpus ----------------------------------------------------------

# Its documents (bench/corpus), enough for the table, the inserts and the far queries; the
# fingerprints are computed once, on the benchmark's server, and kept next to the corpus.
textlike_tsv=
if [[ " $DATASETS " == *" textlike "* ]]; then
	if [[ -n ${TEXTLIKE_CORPUS:-} ]]; then
		textlike_tsv=$(realpath "$TEXTLIKE_CORPUS")
	else
		# shellcheck source=../corpus/corpus.sh
		source "$repo/bench/corpus/corpus.sh"
		textlike_tsv=$(N=$((ROWS + INSERT_ROWS + SINGLE_ROWS + SINGLE_ROWS_SYNC + QUERIES)) textlike_file)
	fi
fi

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
	printf 'datasets\t%s\n' "$DATASETS"
	printf 'radii\t%s\n' "$RADII"
	printf 'threshold\t%s\n' "$THRESHOLD"
	printf 'queries\t%s\n' "$QUERIES"
	printf 'knn_queries\t%s\n' "$KNN_QUERIES"
	printf 'insert_rows\t%s\n' "$INSERT_ROWS"
	printf 'single_rows\t%s\n' "$SINGLE_ROWS"
	printf 'single_rows_sync\t%s\n' "$SINGLE_ROWS_SYNC"
	printf 'methods\t%s\n' "$METHODS"
	printf 'textlike_corpus\t%s\n' "${textlike_tsv##*/}"
	printf 'bench_server\t%s\n' "${BENCH_SERVER:-throwaway}"
	printf 'join_methods\t%s\n' "$JOIN_METHODS"
	printf 'session_map\t%s\n' "$SESSION_MAP"
	printf 'join_outer\t%s\n' "$JOIN_OUTER"
	printf 'join_check_outer\t%s\n' "$JOIN_CHECK_OUTER"
	printf 'settings\t%s\n' "${settings[*]}"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
	printf 'src_changes\t%s\n' "$(git -C "$repo" status --porcelain -- src 2>/dev/null | wc -l)"
	printf 'textfp_so\t%s\n' "$(md5sum < "$($PG_CONFIG --pkglibdir)/textfp.so" | cut -c1-12)"
	printf 'started\t%s\n' "$(date +%s)"
} > "$out/meta.txt"

# --- inside the throwaway cluster ---------------------------------------------

# Runs under pg_virtualenv (or on BENCH_SERVER=existing's server): load, build, query, join,
# insert; each phase's wall time in meta.txt.  Parameters come in the environment (BENCH_*).
# shellcheck disable=SC2317  # called through bash -c, which shellcheck does not follow
inner() {
	set -euo pipefail
	local out=$BENCH_OUT index_dir=$BENCH_INDEX_DIR
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	local t

	"${psql[@]}" -At -c 'SELECT version()' | sed 's/^/server\t/; s/ on x86.*//; s/,.*//' >> "$out/meta.txt"
	"${psql[@]}" -At -c "SELECT 'server_settings' || chr(9) || string_agg(name || '=' || current_setting(name), ' ' ORDER BY name)
		FROM pg_settings WHERE name IN ('shared_buffers', 'maintenance_work_mem', 'max_wal_size', 'fsync',
			'synchronous_commit', 'autovacuum', 'jit', 'max_parallel_workers_per_gather', 'checkpoint_timeout')" \
		>> "$out/meta.txt"

	# The text-like data set: the corpus's fingerprints (simhash(body), textfp's defaults) as
	# bench_textlike_src (id, fp), computed once (in parallel) and kept next to the corpus.
	if [[ -n $BENCH_TEXTLIKE_TSV ]]; then
		local fpfile=$BENCH_TEXTLIKE_TSV.fp
		echo "==> fingerprints of the text-like corpus" >&2
		t=$SECONDS
		"${psql[@]}" -c 'CREATE EXTENSION IF NOT EXISTS textfp'
		if [[ ! -s $fpfile ]]; then
			"${psql[@]}" -c 'CREATE UNLOGGED TABLE bench_textlike_doc (id bigint, lang text, site int,
				family bigint, role text, edit text, strength int, published_at timestamptz, body text)'
			"${psql[@]}" -c 'COPY bench_textlike_doc FROM STDIN' < "$BENCH_TEXTLIKE_TSV"
			"${psql[@]}" -c 'SET max_parallel_workers_per_gather = 2' -c 'ANALYZE bench_textlike_doc' \
				-c 'CREATE TABLE bench_textlike_src AS SELECT id, simhash(body) AS fp FROM bench_textlike_doc' \
				-c 'DROP TABLE bench_textlike_doc'
			"${psql[@]}" -c 'COPY (SELECT id, fp FROM bench_textlike_src ORDER BY id) TO STDOUT' > "$fpfile.part"
			mv "$fpfile.part" "$fpfile"
		else
			"${psql[@]}" -c 'CREATE TABLE bench_textlike_src (id bigint, fp simhash64)' \
				-c 'COPY bench_textlike_src FROM STDIN' < "$fpfile"
		fi
		"${psql[@]}" -c 'ALTER TABLE bench_textlike_src ADD PRIMARY KEY (id)'
		printf 'phase_textlike_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"
	fi

	echo "==> loading $BENCH_ROWS rows per data set ($BENCH_DATASETS), $BENCH_QUERIES queries per query set" >&2
	t=$SECONDS
	"${psql[@]}" -v rows="$BENCH_ROWS" -v queries="$BENCH_QUERIES" -v insert_rows="$BENCH_INSERT_ROWS" \
		-v single_rows="$((BENCH_SINGLE_ROWS + BENCH_SINGLE_ROWS_SYNC))" -v datasets="$BENCH_DATASETS" \
		-v methods="$BENCH_METHODS" -f "$index_dir/load.sql"
	printf 'phase_load_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> building the indexes" >&2
	t=$SECONDS
	"${psql[@]}" -f "$index_dir/build.sql" > "$out/prewarm.txt"
	printf 'phase_build_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> timing the queries" >&2
	t=$SECONDS
	"${psql[@]}" -v results="$out/results.tsv" -v plans="$out/default_plans.tsv" \
		-v knn_queries="$BENCH_KNN_QUERIES" -v radii="$BENCH_RADII" -v threshold="$BENCH_THRESHOLD" \
		-v session_map="$BENCH_SESSION_MAP" -f "$index_dir/bench.sql"
	printf 'phase_queries_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> timing self-joins through: ${BENCH_JOIN_METHODS:-(none)}" >&2
	t=$SECONDS
	"${psql[@]}" -v joins="$out/joins.tsv" -v join_methods="$BENCH_JOIN_METHODS" \
		-v join_outer="$BENCH_JOIN_OUTER" -v join_check_outer="$BENCH_JOIN_CHECK_OUTER" \
		-v threshold="$BENCH_THRESHOLD" -f "$index_dir/join.sql"
	printf 'phase_join_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> timing inserts" >&2
	t=$SECONDS
	"${psql[@]}" -v timings="$out/timings.tsv" -v sizes="$out/sizes.tsv" \
		-v single_rows="$BENCH_SINGLE_ROWS" -v single_rows_sync="$BENCH_SINGLE_ROWS_SYNC" \
		-f "$index_dir/insert.sql" > /dev/null
	printf 'phase_insert_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"
}
export -f inner
export BENCH_OUT=$out BENCH_INDEX_DIR=$index_dir BENCH_ROWS=$ROWS BENCH_QUERIES=$QUERIES \
	BENCH_INSERT_ROWS=$INSERT_ROWS BENCH_SINGLE_ROWS=$SINGLE_ROWS BENCH_SINGLE_ROWS_SYNC=$SINGLE_ROWS_SYNC \
	BENCH_KNN_QUERIES=$KNN_QUERIES BENCH_METHODS=$METHODS BENCH_DATASETS=$DATASETS BENCH_RADII=$RADII \
	BENCH_THRESHOLD=$THRESHOLD BENCH_JOIN_METHODS=$JOIN_METHODS BENCH_JOIN_OUTER=$JOIN_OUTER \
	BENCH_JOIN_CHECK_OUTER=$JOIN_CHECK_OUTER BENCH_TEXTLIKE_TSV=$textlike_tsv BENCH_SESSION_MAP=$SESSION_MAP

if [[ $BENCH_SERVER == existing ]]; then
	db=textfp_bench_index_$$
	step "running on the existing server (${PGHOST:-default host}:${PGPORT:-5432}), database $db"
	psql -X -q -d postgres -c "CREATE DATABASE $db"
	PGDATABASE=$db inner
	psql -X -q -d postgres -c "DROP DATABASE $db"
else
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
	pg_virtualenv -t -v 15 -c "--encoding=UTF8 --locale=C.UTF-8" "${opts[@]}" bash -c inner
fi

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
