#!/bin/bash
# quality.sh: how good cluster_table's clusters are, on bench/quality's labeled set (its
# families are the true clusters): ARI and pairwise precision/recall per fingerprint and mode
# (quality.sql), and a gnuplot SVG of cluster sizes, found against true.
#
# Usage, as root from a clone:  bash bench/cluster/quality.sh
#   on a server of your own:    BENCH_SERVER=existing PGHOST=... PGDATABASE=... bash bench/cluster/quality.sh
#   UPDATE_DOCS=1               also copy the plot to docs/clustering/sizes.svg
# Environment: PER_LANG (default 160) and SEED (default 2026), as bench/quality/run.sh.
set -euo pipefail
c_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$c_dir/../.." && pwd)
PER_LANG=${PER_LANG:-160}
SEED=${SEED:-2026}
BENCH_SERVER=${BENCH_SERVER:-}
UPDATE_DOCS=${UPDATE_DOCS:-0}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
out="$repo/bench/out/cluster-quality-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
chmod 755 "$out"
perl "$repo/bench/quality/make_corpus.pl" --per-lang "$PER_LANG" --seed "$SEED" > "$out/corpus_rows.tsv"
chmod 644 "$out/corpus_rows.tsv"

inner() {
	set -euo pipefail
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	"${psql[@]}" -c "DROP TABLE IF EXISTS doc, score, trgm_id, doc_trgm CASCADE" 2>/dev/null || true
	"${psql[@]}" -c "DROP FUNCTION IF EXISTS score_split CASCADE" 2>/dev/null || true
	"${psql[@]}" -f "$repo/bench/quality/load.sql" < "$out/corpus_rows.tsv"
	"${psql[@]}" -f "$c_dir/quality.sql" | tee "$out/quality.txt"
	"${psql[@]}" -c "\\copy (SELECT * FROM qscore ORDER BY lang, method, mode) TO '$out/scores.tsv' WITH (FORMAT text, HEADER)"
	"${psql[@]}" -c "\\copy (SELECT * FROM qsizes ORDER BY method, mode, size) TO '$out/sizes.tsv' WITH (FORMAT text, HEADER)"
}
export -f inner
export out c_dir repo

if [[ $BENCH_SERVER == existing ]]; then
	inner
else
	# shellcheck source=../../scripts/ensure_packages.sh
	source "$repo/scripts/ensure_packages.sh"
	ensure_packages build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev \
		libxxhash-dev icu-devtools gnuplot-nox debian-reference-en debian-reference-zh-cn debian-handbook fortunes-zh
	# shellcheck source=../../scripts/build_textfp.sh
	source "$repo/scripts/build_textfp.sh"
	build_textfp "$repo"
	export PGCLIENTENCODING=UTF8
	pg_virtualenv -t -v 15 ${BENCH_PORT:+-p "$BENCH_PORT"} -c '--encoding=UTF8 --locale=C.UTF-8' \
		-o 'jit=off' -o 'max_parallel_workers_per_gather=0' -o 'shared_buffers=1GB' bash -c inner
fi
perl "$c_dir/quality_report.pl" "$out" | tee "$out/report.md"
if ((UPDATE_DOCS)); then
	mkdir -p "$repo/docs/clustering"
	cp "$out/sizes.svg" "$repo/docs/clustering/sizes.svg"
fi
