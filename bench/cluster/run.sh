#!/bin/bash
# run.sh: clustering a million text-like documents (bench/corpus) with cluster_table, both
# fingerprints, both modes: time, peak memory and temporary files of each call, the
# largest cluster, and recall of the planted pairs next to the pairwise operator's.
#
# Each call runs in a fresh psql session (step.sql), so the backend's VmHWM is that call's
# peak resident memory.  Results go to bench/out/cluster-<UTC time>/ and a Markdown report.
#
# Usage, as root from a clone:     bash bench/cluster/run.sh
#   on a server of your own:       BENCH_SERVER=existing PGHOST=... PGPORT=... PGDATABASE=... \
#                                  bash bench/cluster/run.sh
# Environment:
#   N              documents (default 1000000)
#   SIMHASH_T      SimHash threshold in bits (default 10, textfp.hamming_threshold's default)
#   MINHASH_T      MinHash threshold (default 0.28, textfp.jaccard_threshold's default)
#   MINHASH        1 to cluster minhash_sig too (default 1)
#   SKIP_LOAD      1: table textlike is loaded already (BENCH_SERVER=existing)
#   BENCH_SERVER   "existing": no packages, no build, no throwaway cluster
#   PARTS          which parts to run (default all but sig_uf_*): fp_components fp_star fp_pairs
#                  fp_recall sig_components sig_star sig_pairs sig_uf_components sig_uf_star
#                  sig_recall (sig_uf_*: the clustering alone from sig_pairs's stored pairs, in
#                  place of sig_components and sig_star); results of earlier runs in the same
#                  database are kept
#   BANDS, ROWS    MinHash LSH banding for cluster_table (default: none, the exact GIN route)

set -euo pipefail
c_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$c_dir/../.." && pwd)
export N=${N:-1000000}
SIMHASH_T=${SIMHASH_T:-10}
MINHASH_T=${MINHASH_T:-0.28}
MINHASH=${MINHASH:-1}
PARTS=${PARTS:-fp_components fp_star fp_pairs fp_recall sig_components sig_star sig_pairs sig_recall}
BANDS=${BANDS:-}
ROWS=${ROWS:-}
SKIP_LOAD=${SKIP_LOAD:-0}
BENCH_SERVER=${BENCH_SERVER:-}
start=$SECONDS
step() { printf '\n==> %s\n' "$*" >&2; }

out="$repo/bench/out/cluster-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	printf 'nproc\t%s\n' "$(nproc)"
	printf 'load_start\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
	printf 'command\t%s\n' "N=$N SIMHASH_T=$SIMHASH_T MINHASH_T=$MINHASH_T MINHASH=$MINHASH BANDS=$BANDS ROWS=$ROWS PARTS='$PARTS' bash bench/cluster/run.sh"
} > "$out/meta.txt"

inner() {
	set -euo pipefail
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	"${psql[@]}" -At -c 'SELECT version()' | sed 's/^/server\t/; s/ on x86.*//; s/,.*//' >> "$out/meta.txt"
	if [[ $SKIP_LOAD != 1 ]]; then
		step "loading $N text-like documents (fingerprints computed while loading)"
		# shellcheck source=../corpus/corpus.sh
		source "$repo/bench/corpus/corpus.sh"
		local t0=$SECONDS
		textlike_load
		printf 'load_s\t%s\n' $((SECONDS - t0)) >> "$out/meta.txt"
	fi
	part() { [[ " $PARTS " == *" $1 "* ]]; }
	local lsh=""
	[[ -n $BANDS ]] && lsh=", bands => $BANDS, rows => $ROWS"
	"${psql[@]}" -At -F $'\t' -c "SELECT 'rows', count(*), 'distinct_fp', count(DISTINCT fp), 'planted_copies',
		count(*) FILTER (WHERE role = 'copy') FROM textlike" >> "$out/meta.txt"
	run_step() {	# name, call, out table
		step "$1"
		"${psql[@]}" -v step="$1" -v call="$2" -v out="$3" -f "$c_dir/step.sql" | tee -a "$out/steps.log" >&2
	}
	local s
	for mode in components star; do
		part "fp_$mode" || continue
		run_step "simhash64 $mode" \
			"CREATE TABLE cl_fp_$mode AS SELECT * FROM cluster_table('textlike', 'id', 'fp', $SIMHASH_T, '$mode')" \
			"cl_fp_$mode"
	done
	# the verified pairs alone (for recall, and the time split between pairs and union-find)
	part fp_pairs && run_step "simhash64 pairs only" \
		"SELECT textfp_cluster_pairs('textlike', 'id', 'fp', $SIMHASH_T); DROP TABLE IF EXISTS pairs_fp, keys_fp; CREATE TABLE pairs_fp AS SELECT a, b, score AS cluster_key, 1::bigint AS cluster_size FROM pg_temp.textfp_cluster_pairs; CREATE TABLE keys_fp AS SELECT * FROM pg_temp.textfp_cluster_keys; CREATE INDEX ON keys_fp (key); CREATE INDEX ON pairs_fp (a, b)" \
		pairs_fp
	for mode in components star; do
		part fp_recall || continue
		"${psql[@]}" -v fp=fp -v op="hamming_distance(o.fp, c.fp) <= $SIMHASH_T" -v pairs=pairs_fp -v keys=keys_fp \
			-v lsh=false \
			-v clusters="cl_fp_$mode" -f "$c_dir/recall.sql" | tee -a "$out/steps.log" >&2
	done
	if [[ $MINHASH == 1 ]]; then
		for mode in components star; do
			part "sig_$mode" || continue
			run_step "minhash_sig $mode" \
				"CREATE TABLE cl_sig_$mode AS SELECT * FROM cluster_table('textlike', 'id', 'sig', $MINHASH_T, '$mode'$lsh)" \
				"cl_sig_$mode"
		done
		part sig_pairs && run_step "minhash_sig pairs only" \
			"SELECT textfp_cluster_pairs('textlike', 'id', 'sig', $MINHASH_T${lsh:+, $BANDS, $ROWS}); DROP TABLE IF EXISTS pairs_sig, keys_sig; CREATE TABLE pairs_sig AS SELECT a, b, score AS cluster_key, 1::bigint AS cluster_size FROM pg_temp.textfp_cluster_pairs; CREATE TABLE keys_sig AS SELECT * FROM pg_temp.textfp_cluster_keys; CREATE INDEX ON keys_sig (key); CREATE INDEX ON pairs_sig (a, b)" \
			pairs_sig
		# the clustering alone, from the stored pairs, as cluster_table does it after making
		# them (for a table where one call per mode would make the pairs twice)
		part sig_uf_components && run_step "minhash_sig components, from the pairs" \
			"CREATE TABLE cl_sig_components AS SELECT u.key, u.cluster_key, u.cluster_size FROM union_find('SELECT a, b FROM pairs_sig UNION ALL SELECT key, NULL FROM keys_sig') u" \
			cl_sig_components
		part sig_uf_star && run_step "minhash_sig star, from the pairs" \
			"CREATE TABLE cl_sig_star AS SELECT k.key, u.cluster_key, count(*) OVER (PARTITION BY u.cluster_key) AS cluster_size FROM union_find('SELECT p.a, p.b FROM pairs_sig p JOIN keys_sig k ON k.key = p.b AND k.key = k.rep UNION ALL SELECT key, NULL FROM keys_sig WHERE key = rep', 'star') u JOIN keys_sig k ON k.rep = u.key" \
			cl_sig_star
		for mode in components star; do
			part sig_recall || continue
			"${psql[@]}" -v fp=sig -v op="jaccard(o.sig, c.sig) >= $MINHASH_T" -v pairs=pairs_sig -v keys=keys_sig \
				-v lsh="$([[ -n $BANDS ]] && echo true || echo false)" -v bands="${BANDS:-0}" -v rows="${ROWS:-0}" \
				-v clusters="cl_sig_$mode" -f "$c_dir/recall.sql" | tee -a "$out/steps.log" >&2
		done
	fi
	"${psql[@]}" -c "\\copy bench_step TO '$out/steps.tsv' WITH (FORMAT text, HEADER)"
	"${psql[@]}" -c "\\copy bench_recall TO '$out/recall.tsv' WITH (FORMAT text, HEADER)"
}
export -f inner step
export out c_dir repo SIMHASH_T MINHASH_T MINHASH SKIP_LOAD PARTS BANDS ROWS

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
	port=${BENCH_PORT:-$((15432 + RANDOM % 1000))}
	export PGPORT=$port
	step "running on a throwaway PostgreSQL 15 cluster (port $PGPORT)"
	pg_virtualenv -t -v 15 -c "--encoding=UTF8 --locale=C.UTF-8" -o 'jit=off' \
		-o 'max_parallel_workers_per_gather=0' -o 'shared_buffers=1GB' -o 'max_wal_size=8GB' \
		-o 'autovacuum=off' bash -c inner
fi
printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/meta.txt"
printf 'elapsed_s\t%s\n' $((SECONDS - start)) >> "$out/meta.txt"
perl "$c_dir/report.pl" "$out" | tee "$out/report.md"
