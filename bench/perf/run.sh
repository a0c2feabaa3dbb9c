#!/bin/bash
# run.sh: what simhash(text) costs next to md5(text) and to_tsvector('simple', text), and
# what minhash(text) costs next to simhash(text) (one-permutation hashing against the k-hash
# reference, from text and from stored shingle arrays), on the same rows of real English and
# Chinese text, as ratios measured side by side.
#
# Installs what is missing (build tools, PostgreSQL 15, the Debian packages the text comes
# from, perf), builds and installs textfp, makes the rows with make_rows.pl, runs bench.sql
# in one session of a throwaway cluster (pg_virtualenv), then profiles simhash and its
# slower options with perf.  Raw results go to bench/out/perf-<UTC time>/ (git-ignored);
# the Markdown report (report.pl) is printed and saved there as report.md.
#
# Usage, as root from a clone:  bash bench/perf/run.sh
# Environment:
#   ROUNDS           measured rounds after the warm-up round (default 5)
#   ROWS             rows per language at least; the unique rows are repeated to get there
#                    (default 3000)
#   BENCH_LOCALE     locale of the cluster (default C.UTF-8; under C, to_tsvector's parser
#                    makes no libc wide-character calls)
#   PROFILE          1 to profile with perf after the timing (default), 0 not to
#   PROFILE_SECONDS  how long each profile samples (default 5)
#   BENCH_PORT       port of the throwaway cluster (default: a free one from 15432 + random)

set -euo pipefail

perf_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$perf_dir/../.." && pwd)
ROUNDS=${ROUNDS:-5}
ROWS=${ROWS:-3000}
BENCH_LOCALE=${BENCH_LOCALE:-C.UTF-8}
PROFILE=${PROFILE:-1}
export PROFILE_SECONDS=${PROFILE_SECONDS:-5}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
unset LANGUAGE

step() { printf '\n==> %s\n' "$*" >&2; }

# --- packages ----------------------------------------------------------------

packages=(
	build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev libxxhash-dev
	debian-reference-en debian-reference-zh-cn fortunes-zh
)
[[ $PROFILE == 1 ]] && packages+=(linux-perf)
# shellcheck source=../../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
ensure_packages "${packages[@]}"

# --- build -------------------------------------------------------------------

# shellcheck source=../../scripts/build_textfp.sh
source "$repo/scripts/build_textfp.sh"
build_textfp "$repo"

# --- rows and machine facts --------------------------------------------------

out="$repo/bench/out/perf-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
chmod 755 "$out"

step "making the rows (make_rows.pl, at least $ROWS per language)"
for lang in en zh; do
	perl "$perf_dir/make_rows.pl" --lang "$lang" --rows "$ROWS" > "$out/rows_$lang.tsv"
done

{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	printf 'nproc\t%s\n' "$(nproc)"
	printf 'mem\t%s\n' "$(awk '/^MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
	printf 'kernel\t%s\n' "$(uname -sr)"
	printf 'load\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'locale\t%s\n' "$BENCH_LOCALE"
	printf 'rounds\t%s\n' "$ROUNDS"
	printf 'profile_seconds\t%s\n' "$PROFILE_SECONDS"
	printf 'rows_target\t%s\n' "$ROWS"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
	printf 'src_changes\t%s\n' "$(git -C "$repo" status --porcelain -- src 2>/dev/null | wc -l)"
	printf 'textfp_so\t%s\n' "$(md5sum < "$($PG_CONFIG --pkglibdir)/textfp.so" | cut -c1-12)"
} > "$out/meta.txt"

# --- inside the throwaway cluster ---------------------------------------------

# Runs under pg_virtualenv: load, time (bench.sql, one session), profile.
inner() {
	local out=$1 perf_dir=$2 rounds=$3 profile=$4
	local psql=(psql -X -q -v ON_ERROR_STOP=1)

	"${psql[@]}" -At -c 'SELECT version()' | sed 's/^/server\t/; s/ on x86.*//; s/,.*//' >> "$out/meta.txt"
	"${psql[@]}" -At -c 'SHOW shared_buffers' | sed 's/^/shared_buffers\t/' >> "$out/meta.txt"

	echo "==> loading the rows" >&2
	"${psql[@]}" <<-EOF
		CREATE EXTENSION textfp;
		CREATE TABLE bench_en (id serial PRIMARY KEY, copy int NOT NULL, source text NOT NULL, body text NOT NULL);
		CREATE TABLE bench_zh (LIKE bench_en INCLUDING ALL);
		\copy bench_en (copy, source, body) FROM '$out/rows_en.tsv'
		\copy bench_zh (copy, source, body) FROM '$out/rows_zh.tsv'
		-- the rows' shingle sets, stored, for timing MinHash's signing step alone
		CREATE TABLE bench_en_sh AS SELECT id, shingles(body) AS sh FROM bench_en ORDER BY id;
		CREATE TABLE bench_zh_sh AS SELECT id, shingles(body) AS sh FROM bench_zh ORDER BY id;
		VACUUM (FREEZE, ANALYZE) bench_en;
		VACUUM (FREEZE, ANALYZE) bench_zh;
		VACUUM (FREEZE, ANALYZE) bench_en_sh;
		VACUUM (FREEZE, ANALYZE) bench_zh_sh;
	EOF

	echo "==> timing (bench.sql: 1 warm-up round + $rounds rounds)" >&2
	"${psql[@]}" -v rounds="$rounds" -v results="$out/results.tsv" -v corpus="$out/corpus.tsv" \
		-f "$perf_dir/bench.sql"

	[[ $profile == 1 ]] || return 0
	local name lang expr
	while IFS='|' read -r name lang expr; do
		profile_one "$out" "$name" "$lang" "$expr"
	done <<-'EOF2'
		en-default|en|simhash(body)
		zh-default|zh|simhash(body)
		en-simplify|en|simhash(body, simplify => true)
		zh-simplify|zh|simhash(body, simplify => true)
		zh-icu|zh|simhash(body, tokenizer => 'icu')
		en-minhash|en|minhash(body)
		zh-minhash|zh|minhash(body)
		zh-kperm|zh|minhash(body, method => 'kperm')
		en-to_tsvector|en|to_tsvector('simple', body)
		zh-to_tsvector|zh|to_tsvector('simple', body)
	EOF2
}

# perf record of one backend while it evaluates expr over the unique rows of bench_<lang>,
# again and again for PROFILE_SECONDS; writes profile-<name>.txt (by symbol) and
# profile-<name>-dso.txt (by library).
profile_one() {
	local out=$1 name=$2 lang=$3 expr=$4
	local pidfile="$out/backend-$name.pid"

	echo "==> profiling $expr on bench_$lang for ${PROFILE_SECONDS}s" >&2
	psql -X -q -v ON_ERROR_STOP=1 -At -v expr="$expr" -v lang="$lang" \
		-v secs="$PROFILE_SECONDS" -v pidfile="$pidfile" <<-'EOF2' &
		SET max_parallel_workers_per_gather = 0;
		SET jit = off;
		SELECT format('SELECT count(*) FROM bench_%s WHERE copy = 1 AND %s IS NOT NULL',
			:'lang', :'expr') AS query \gset
		SET bench.query = :'query';
		SET bench.secs = :'secs';
		\o :pidfile
		SELECT pg_backend_pid();
		\o
		SELECT pg_sleep(3);  -- let perf attach first
		DO $$
		DECLARE
			stop timestamptz := clock_timestamp()
				+ make_interval(secs => current_setting('bench.secs')::float8);
		BEGIN
			LOOP
				EXECUTE current_setting('bench.query');
				EXIT WHEN clock_timestamp() > stop;
			END LOOP;
		END $$;
	EOF2
	local psql_pid=$! tries=0 backend perf_pid
	until grep -qs '[0-9]' "$pidfile"; do
		sleep 0.1
		((++tries < 100)) || { echo "run.sh: no backend pid for $name" >&2; return 1; }
	done
	backend=$(grep -o '[0-9]\+' "$pidfile" | head -1)
	perf record -q -F 999 -g -p "$backend" -o "$out/perf-$name.data" 2>/dev/null &
	perf_pid=$!
	wait "$psql_pid"
	kill -INT "$perf_pid"
	wait "$perf_pid" || true
	perf report -i "$out/perf-$name.data" --stdio --no-children --sort dso,symbol \
		-g none 2>/dev/null > "$out/profile-$name.txt"
	perf report -i "$out/perf-$name.data" --stdio --no-children --sort dso \
		-g none 2>/dev/null > "$out/profile-$name-dso.txt"
}
export -f inner profile_one

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

step "running on a throwaway PostgreSQL 15 cluster (port $PGPORT, locale $BENCH_LOCALE)"
export PGCLIENTENCODING=UTF8
pg_virtualenv -t -v 15 -c "--encoding=UTF8 --locale=$BENCH_LOCALE" \
	-o "external_pid_file=/tmp/textfp-bench-$PGPORT.pid" \
	bash -c 'inner "$@"' inner "$out" "$perf_dir" "$ROUNDS" "$PROFILE"

{
	printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'textfp_so_end\t%s\n' "$(md5sum < "$($PG_CONFIG --pkglibdir)/textfp.so" | cut -c1-12)"
} >> "$out/meta.txt"

# --- report --------------------------------------------------------------------

perl "$perf_dir/report.pl" "$out" > "$out/report.md"
step "report ($out/report.md)"
cat "$out/report.md"
