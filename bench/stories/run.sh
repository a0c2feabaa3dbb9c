#!/bin/bash
# run.sh: story link rules replayed over real revision lineages and bench/quality's families, at the
# presets textfp_track() registers by default, and the same sets tracked end to end
# (bench/stories/README.md says what and why).
#
# Usage, as root from a clone:  bash bench/stories/run.sh
#   on a server of your own:    BENCH_SERVER=existing PGHOST=... PGDATABASE=... bash bench/stories/run.sh
#   CHURN=30                    trials of the churn test (what one text's arrival or delete changes; 0: none)
# Output in bench/out/stories-<UTC time>/: the labeled sets, texts and pairs, score tables, the end-to-end
# stories, report.md (simulate.py's tables) and results.md (report.py's, as in RESULTS.md).
set -euo pipefail
s_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$s_dir/../.." && pwd)
BENCH_SERVER=${BENCH_SERVER:-}
CHURN=${CHURN:-0}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
out="$repo/bench/out/stories-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
chmod 755 "$out"

packages=(debian-edu-doc-en debian-edu-doc-zh-cn debian-edu-doc-ja clang-13-doc clang-14-doc clang-15-doc
	clang-16-doc clang-19-doc guile-2.2-doc guile-3.0-doc automake1.11 automake lua5.1-doc lua5.2-doc
	debian-reference-en debian-reference-zh-cn debian-handbook fortunes-zh icu-devtools)
# shellcheck source=../../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
ensure_packages "${packages[@]}"

perl "$s_dir/make_lineages.pl" > "$out/lineages.tsv" 2> "$out/lineages.log"
python3 "$s_dir/check_lineages.py" < "$out/lineages.tsv" > "$out/check_lineages.txt"
perl "$repo/bench/quality/make_corpus.pl" --per-lang 160 --seed 2026 | perl "$s_dir/quality_lineages.pl" > "$out/quality.tsv"

inner() {
	set -euo pipefail
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	"${psql[@]}" -c "DROP TABLE IF EXISTS st_text, st_fp, st_pair"
	for c in lineages quality; do
		"${psql[@]}" -v corpus="$c" -v out="$out" -f "$s_dir/pairs.sql" < "$out/$c.tsv" > "$out/$c.pairs.log"
	done
	bash "$s_dir/end_to_end.sh" "$out"
}
export -f inner
export out s_dir repo

e2e=0
if [[ $BENCH_SERVER == existing ]]; then
	inner || e2e=$?
else
	ensure_packages build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev libxxhash-dev
	# shellcheck source=../../scripts/build_textfp.sh
	source "$repo/scripts/build_textfp.sh"
	build_textfp "$repo"
	export PGCLIENTENCODING=UTF8
	pg_virtualenv -t -v 15 ${BENCH_PORT:+-p "$BENCH_PORT"} -c '--encoding=UTF8 --locale=C.UTF-8' \
		-o 'jit=off' -o 'max_parallel_workers_per_gather=0' -o 'shared_buffers=1GB' bash -c inner || e2e=$?
fi

sim=(python3 "$s_dir/simulate.py")
{
	echo "# Story link rules: bench/stories/run.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$repo" rev-parse --short HEAD)"
	for c in lineages quality; do
		echo; echo "## $c"; echo
		churn=()
		((CHURN)) && churn=(--churn "$CHURN" --churn-tsv "$out/$c.churn.tsv")
		"${sim[@]}" --texts "$out/$c.texts.tsv" --pairs "$out/$c.pairs.tsv" --minbands "$out/$c.minbands.tsv" \
			--grid full --bounds --union 'en+zh=lang:en+lang:zh' "${churn[@]}" --tsv "$out/$c.scores.tsv" 2> "$out/$c.sim.log"
	done
} > "$out/report.md"
python3 "$s_dir/report.py" "$out" > "$out/results.md"
echo "report: $out/report.md, $out/results.md; end to end: $out/lineages.e2e.md, $out/quality.e2e.md"
if ((e2e)); then
	echo "end to end: textfp_stories() differs from the simulator or failed (exit $e2e)" >&2
	exit "$e2e"
fi
