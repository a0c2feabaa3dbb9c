#!/bin/bash
# run.sh: the in-memory microbenchmark behind the mih access method's design (issue 13):
# multi-index hashing with m = 4..8 tables against GIN with whole-code entries, at 1M and 10M
# codes, on uniform codes, planted families (clustered) and, given a file, the fingerprints of
# text-like documents; radii 3, 6, 10 (the default threshold) and 16.  Prints a Markdown
# report (medians of 200 queries, probes, candidates verified, answers; how unevenly codes
# spread over buckets) and keeps the raw output in bench/out/mih-<UTC time>/.
#
# Usage:  bash bench/mih/run.sh
# Environment:
#   SIZES       table sizes (default "1000000 10000000")
#   QUERIES     queries per run, half near (a code with 1 or 2 bits flipped), half random
#               (default 200)
#   TEXTLIKE    a file of text-like codes (16 hex digits a line, or as the last tab-separated
#               field: bench/index/run.sh keeps one next to the corpus, <corpus>.fp); runs the
#               sizes it has codes for
set -euo pipefail

mih_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$mih_dir/../.." && pwd)
SIZES=${SIZES:-1000000 10000000}
QUERIES=${QUERIES:-200}
TEXTLIKE=${TEXTLIKE:-}

# shellcheck source=../../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
ensure_packages build-essential >&2
make -C "$mih_dir" -s micro >&2

out="$repo/bench/out/mih-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	printf 'nproc\t%s\n' "$(nproc)"
	printf 'load\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
} > "$out/meta.txt"

datasets=(uniform clustered)
[[ -n $TEXTLIKE ]] && datasets+=("$TEXTLIKE")
for n in $SIZES; do
	for d in "${datasets[@]}"; do
		if [[ $d == "$TEXTLIKE" ]] && (($(wc -l < "$d") < n)); then
			echo "==> $d has fewer than $n codes: skipped" >&2
			continue
		fi
		echo "==> $n codes, ${d##*/}" >&2
		"$mih_dir/micro" -n "$n" -q "$QUERIES" -m 4,5,6,7,8 -r 3,6,10,16 -d "$d" >> "$out/micro.tsv"
	done
done
printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/meta.txt"
perl "$mih_dir/report.pl" "$out" | tee "$out/report.md"
