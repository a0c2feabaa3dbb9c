#!/bin/bash
# run.sh: MinHash LSH bands at scale, on the generated text-like corpus (bench/corpus).
#
# For each option set of SETS (a minhash pipeline, a threshold, a banding): the unrelated-pair
# distribution and the candidates each banding lets through (pairs.sql), the S-curve checked
# against measured band hits per Jaccard bin and set size, for one-permutation signatures and
# k independent hashes (pairs.sql), and the band index against a sequential scan: build time,
# size, lookups, recall of the idiom (band candidates verified with <@ jaccard_ball) against
# the verification alone, candidates per row (index.sql); and each set's precision, recall and
# F1 per language on bench/quality's labeled corpus at its threshold (quality.sql).  For the first set also the exact
# GIN index (gin_minhash_ops) at the same threshold, rows per key of both, the trade of key
# bits against candidates and size, and insert throughput with and without a pending list.
# report.pl prints Markdown and draws the S-curves (gnuplot).
#
# Usage, as root from a clone:  bash bench/lsh/run.sh
#   on a throwaway cluster (pg_virtualenv), after building and installing textfp into the
#   system PostgreSQL 15, as the other benchmarks do.
# Or on a running server with textfp already installed (e.g. a private tree):
#   BENCH_SERVER=existing PGHOST=/tmp PGPORT=25514 PGUSER=... PG_CONFIG=... bash bench/lsh/run.sh
#   (a database lsh_bench is dropped and made there; nothing is built or installed).
# Raw results and the report go to bench/out/lsh-<UTC time>/ (git-ignored).
#
# Environment:
#   SETS          option sets, "name,shingle,threshold,bands,rows,min_bands,bits" separated by
#                 spaces; the first is the recommended one (default: see below)
#   BANDINGS      extra bandings "b,r,m" whose candidates per row pairs.sql measures
#   N, SEED, ...  the corpus (bench/corpus/corpus.sh; N = 1000000 by default)
#   CORPUS        a corpus file to use instead (make_textlike.pl's output)
#   SAMPLE        documents per language in the unrelated-pair sample (default 2000)
#   SCURVE_PAIRS  planted and same-site pairs for the S-curve check, each (default 5000)
#   QUERIES       query rows (default 100), PROBES rows probed for candidates (default 1000)
#   BITS_TRADE    bits of the band index in the trade (default "8 12 13 14 16 20 32"), BITS_QUERIES
#                 queries each (default 40)
#   INSERT_ROWS   rows in the insert test (default 50000); PENDING_LIMITS kB (default "4096 65536")
#   WORKERS       parallel workers for signing the corpus (default 2)
#   QUALITY       1 (default) to score each set's threshold on bench/quality's labeled corpus
#                 (make_corpus.pl --per-lang 160 --seed 2026, as docs/quality.md), 0 not to
#   SHARED_BUFFERS, MAINTENANCE_WORK_MEM  server settings on the throwaway cluster (6GB, 2GB)

set -euo pipefail

lsh_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$lsh_dir/../.." && pwd)
SETS=${SETS:-"s3,3,0.3,44,1,10,13 s2,2,0.28,44,1,10,13 s3h,3,0.35,46,2,4,13"}
BANDINGS=${BANDINGS:-"42,3,1 25,5,1 20,5,1 32,4,1 32,4,2 16,8,1 56,2,3 64,2,3 40,1,8 44,1,10 48,1,11 46,2,4"}
SAMPLE=${SAMPLE:-2000}
SCURVE_PAIRS=${SCURVE_PAIRS:-5000}
QUERIES=${QUERIES:-100}
PROBES=${PROBES:-1000}
BITS_TRADE=${BITS_TRADE:-8 12 13 14 16 20 32}
BITS_QUERIES=${BITS_QUERIES:-40}
INSERT_ROWS=${INSERT_ROWS:-50000}
PENDING_LIMITS=${PENDING_LIMITS:-4096 65536}
WORKERS=${WORKERS:-2}
QUALITY=${QUALITY:-1}
SHARED_BUFFERS=${SHARED_BUFFERS:-6GB}
MAINTENANCE_WORK_MEM=${MAINTENANCE_WORK_MEM:-2GB}
BENCH_SERVER=${BENCH_SERVER:-throwaway}
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
unset LANGUAGE

step() { printf '\n==> %s\n' "$*" >&2; }
die() { echo "run.sh: $*" >&2; exit 1; }

for s in $SETS; do
	[[ $s =~ ^[a-z][a-z0-9_]*,[0-9]+,(0|1|0?\.[0-9]+),[0-9]+,[0-9]+,[0-9]+,[0-9]+$ ]] ||
		die "SETS: $s is not name,shingle,threshold,bands,rows,min_bands,bits"
done
for b in $BANDINGS; do [[ $b =~ ^[0-9]+,[0-9]+,[0-9]+$ ]] || die "BANDINGS: $b is not b,r,m"; done
for v in SAMPLE SCURVE_PAIRS QUERIES PROBES BITS_QUERIES INSERT_ROWS WORKERS; do
	[[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a number"
done
for b in $BITS_TRADE $PENDING_LIMITS; do [[ $b =~ ^[0-9]+$ ]] || die "BITS_TRADE and PENDING_LIMITS are numbers"; done
((QUERIES >= 4)) || die "QUERIES must be at least 4"

# --- packages, build, corpus ---------------------------------------------------------

if [[ $BENCH_SERVER == throwaway ]]; then
	# shellcheck source=../../scripts/ensure_packages.sh
	source "$repo/scripts/ensure_packages.sh"
	ensure_packages build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev \
		libxxhash-dev icu-devtools gnuplot-nox debian-reference-en debian-reference-zh-cn debian-handbook fortunes-zh
	# shellcheck source=../../scripts/build_textfp.sh
	source "$repo/scripts/build_textfp.sh"
	build_textfp "$repo"
elif [[ $BENCH_SERVER != existing ]]; then
	die "BENCH_SERVER must be throwaway or existing"
fi
: "${PG_CONFIG:=pg_config}"

if [[ -z ${CORPUS:-} ]]; then
	[[ -f $repo/bench/corpus/corpus.sh ]] || die "bench/corpus/corpus.sh is missing: set CORPUS to a corpus file"
	# shellcheck source=../corpus/corpus.sh
	source "$repo/bench/corpus/corpus.sh"
	step "the corpus (N=${N:-1000000})"
	CORPUS=$(textlike_file)
fi
[[ -r $CORPUS ]] || die "cannot read $CORPUS"

out="$repo/bench/out/lsh-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
chmod 755 "$out"
{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	printf 'nproc\t%s\n' "$(nproc)"
	printf 'mem\t%s\n' "$(awk '/^MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
	printf 'load\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'corpus\t%s\n' "$(basename "$CORPUS")"
	printf 'corpus_rows\t%s\n' "$(wc -l < "$CORPUS")"
	printf 'sets\t%s\n' "$SETS"
	printf 'bandings\t%s\n' "$BANDINGS"
	printf 'sample\t%s\n' "$SAMPLE"
	printf 'scurve_pairs\t%s\n' "$SCURVE_PAIRS"
	printf 'queries\t%s\n' "$QUERIES"
	printf 'probes\t%s\n' "$PROBES"
	printf 'bits_trade\t%s\n' "$BITS_TRADE"
	printf 'insert_rows\t%s\n' "$INSERT_ROWS"
	printf 'pending_limits\t%s\n' "$PENDING_LIMITS"
	printf 'server_mode\t%s\n' "$BENCH_SERVER"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
	printf 'src_changes\t%s\n' "$(git -C "$repo" status --porcelain -- src 2>/dev/null | wc -l)"
	printf 'textfp_so\t%s\n' "$(md5sum < "$($PG_CONFIG --pkglibdir)/textfp.so" | cut -c1-12)"
	printf 'command\t%s\n' "SETS='$SETS' bash bench/lsh/run.sh"
	printf 'started\t%s\n' "$(date +%s)"
} > "$out/meta.txt"

# --- on the server ---------------------------------------------------------------------

# shellcheck disable=SC2317  # called through bash -c
inner() {
	set -euo pipefail
	local out=$1 lsh_dir=$2 corpus=$3
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	local t name first
	"${psql[@]}" -At -c 'SELECT version()' | sed 's/^/server\t/; s/ on x86.*//; s/,.*//' >> "$out/meta.txt"
	"${psql[@]}" -At -c "SELECT 'settings', string_agg(name || '=' || setting, ' ') FROM pg_settings
		WHERE name IN ('shared_buffers', 'maintenance_work_mem', 'work_mem', 'max_wal_size', 'fsync', 'synchronous_commit')" |
		tr '|' '\t' >> "$out/meta.txt"

	echo "==> loading and signing the corpus" >&2
	t=$SECONDS
	"${psql[@]}" -v sets="$SETS" -v insert_rows="$INSERT_ROWS" -v workers="$WORKERS" \
		-f "$lsh_dir/load.sql" < "$corpus"
	printf 'phase_load_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	echo "==> unrelated pairs and the S-curve" >&2
	t=$SECONDS
	"${psql[@]}" -v sample="$SAMPLE" -v bandings="$BANDINGS" -v scurve_pairs="$SCURVE_PAIRS" \
		-f "$lsh_dir/pairs.sql"
	printf 'phase_pairs_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"

	for name in $("${psql[@]}" -At -c 'SELECT name FROM lb.sets ORDER BY ord'); do
		echo "==> set $name: indexes" >&2
		t=$SECONDS
		"${psql[@]}" -v set_name="$name" -v queries="$QUERIES" -v probes="$PROBES" \
			-v bits_trade="$BITS_TRADE" -v bits_queries="$BITS_QUERIES" \
			-v pending_limits="$PENDING_LIMITS" -v insert_rows="$INSERT_ROWS" \
			-f "$lsh_dir/index.sql" > /dev/null
		printf 'phase_index_%s_s\t%s\n' "$name" $((SECONDS - t)) >> "$out/meta.txt"
	done

	if ((QUALITY)); then
		echo "==> quality on bench/quality's labeled corpus" >&2
		t=$SECONDS
		psql -X -q -d postgres -c 'DROP DATABASE IF EXISTS lsh_quality' \
			-c "CREATE DATABASE lsh_quality TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'"
		perl "$lsh_dir/../quality/make_corpus.pl" --per-lang 160 --seed 2026 |
			"${psql[@]}" -d lsh_quality -f "$lsh_dir/../quality/load.sql" > /dev/null
		"${psql[@]}" -d lsh_quality -v sets="$SETS" -f "$lsh_dir/quality.sql" > /dev/null
		"${psql[@]}" -d lsh_quality -c "\\copy lsh_quality TO '$out/quality.tsv' WITH (FORMAT csv, HEADER, DELIMITER E'\\t')"
		printf 'phase_quality_s\t%s\n' $((SECONDS - t)) >> "$out/meta.txt"
	fi

	local tbl
	for tbl in sets timings sizes uhist ujhist ucand scurve queries results answers qstats probes keydist predicted; do
		"${psql[@]}" -c "\\copy lb.$tbl TO '$out/$tbl.tsv' WITH (FORMAT csv, HEADER, DELIMITER E'\\t')"
	done
	"${psql[@]}" -c "\\copy (SELECT role, lang, count(*), avg(bytes)::int AS mean_bytes FROM tl GROUP BY 1, 2 ORDER BY 1, 2) TO '$out/corpus.tsv' WITH (FORMAT csv, HEADER, DELIMITER E'\\t')"
	"${psql[@]}" -c "\\copy (SELECT count(*) AS rows FROM tl) TO '$out/rows.tsv' WITH (FORMAT csv, HEADER, DELIMITER E'\\t')"
}
export -f inner
export QUALITY SETS BANDINGS SAMPLE SCURVE_PAIRS QUERIES PROBES BITS_TRADE BITS_QUERIES INSERT_ROWS PENDING_LIMITS WORKERS

if [[ $BENCH_SERVER == existing ]]; then
	step "running on the server at ${PGHOST:-(default)}:${PGPORT:-(default)}"
	psql -X -q -d postgres -c 'DROP DATABASE IF EXISTS lsh_bench' -c 'CREATE DATABASE lsh_bench'
	PGDATABASE=lsh_bench inner "$out" "$lsh_dir" "$CORPUS"
else
	port_free() {
		[[ ! -e /var/run/postgresql/.s.PGSQL.$1 && ! -e /tmp/.s.PGSQL.$1 ]] &&
			! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
	}
	port=${BENCH_PORT:-$((15432 + RANDOM % 1000))}
	until port_free "$port"; do port=$((port + 1)); done
	export PGPORT=$port
	step "running on a throwaway PostgreSQL 15 cluster (port $PGPORT)"
	pg_virtualenv -t -v 15 -c "--encoding=UTF8 --locale=C.UTF-8" \
		-o "external_pid_file=/tmp/textfp-bench-$PGPORT.pid" -o "shared_buffers=$SHARED_BUFFERS" \
		-o "maintenance_work_mem=$MAINTENANCE_WORK_MEM" -o max_wal_size=16GB -o checkpoint_timeout=1h \
		-o autovacuum=off -o jit=off -o max_parallel_workers_per_gather=0 \
		bash -c 'inner "$@"' inner "$out" "$lsh_dir" "$CORPUS"
fi
printf 'ended\t%s\n' "$(date +%s)" >> "$out/meta.txt"
printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/meta.txt"

step "report ($out/report.md)"
perl "$lsh_dir/report.pl" "$out" > "$out/report.md"
cat "$out/report.md"
