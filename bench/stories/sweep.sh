#!/bin/bash
# sweep.sh: after candidates.sh, a candidate's threshold sweep and its unrelated pairs, the inputs of
# sweep_table.py: simulate.py --grid full over the thresholds LO..HI of 128 (every rule; groups all, en+zh, ja
# for the lineages, all, en, zh for the families) into DIR/NAME/<set>.sweep.{tsv,md}, and unrelated.sql on the
# candidate's database (st_NAME) into DIR/NAME/<set>.{jhist,bhist}.tsv.
#
#   bash bench/stories/sweep.sh DIR NAME LO,HI[,STEP]      # e.g. bench/out/q3 n1s3 20,48,2
set -euo pipefail
s_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:?usage: sweep.sh DIR NAME LO,HI[,STEP]}
name=${2:?name}
grid=${3:?LO,HI[,STEP] of 128}
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
c_dir="$dir/$name"
for c in lineages quality; do
	[[ -f $c_dir/$c.pairs.tsv ]] || continue
	groups=all,en+zh,lang:ja
	[[ $c == quality ]] && groups=all,lang:en,lang:zh
	python3 "$s_dir/simulate.py" --texts "$c_dir/$c.texts.tsv" --pairs "$c_dir/$c.pairs.tsv" \
		--minbands "$c_dir/$c.minbands.tsv" --methods mh --grid full --mh-grid "$grid" \
		--union 'en+zh=lang:en+lang:zh' --groups "$groups" --tsv "$c_dir/$c.sweep.tsv" \
		> "$c_dir/$c.sweep.md" 2> "$c_dir/$c.sweep.err"
	PGDATABASE="st_$name" psql -X -q -v ON_ERROR_STOP=1 -v corpus="$c" -v out="$c_dir" -f "$s_dir/unrelated.sql"
	echo "$name $c: $c_dir/$c.sweep.tsv, $c_dir/$c.jhist.tsv, $c_dir/$c.bhist.tsv"
done
