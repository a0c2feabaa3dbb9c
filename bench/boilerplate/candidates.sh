#!/bin/bash
# candidates.sh CORPUS NAME=OPTIONS...: fingerprint options measured by the replay of textfp_track's SimHash rule,
# for choosing the model-free SimHash preset of a registration (simhash_v2).  The corpus's texts are loaded once
# (table shv_text, kept for the next call unless DROP=1); per candidate NAME the fingerprints
# simhash(body, OPTIONS) (OPTIONS as SQL arguments after the text, e.g. "preset => 'simhash_v1'" or
# "'null', ngram => 2, weighting => 'binary'") are written with the backend's fingerprinting time, then
# replay.c at every radius of RADII (cohesion = radius) and score.py against the labels.
# Environment: OUT (default /tmp/shv2), RADII (default "11"), DB (default bp), PG* for psql; REUSE=1 keeps
# fingerprints already written (fp_NAME.tsv) and only replays them.
set -euo pipefail
corpus=$1; shift
d=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/shv2} RADII=${RADII:-11}
mkdir -p "$OUT"
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "${DB:-bp}")
[[ -x $OUT/replay ]] || cc -O3 -march=native -Wall -o "$OUT/replay" "$d/replay.c"
[[ -s $OUT/labels.tsv ]] || awk -F'\t' 'BEGIN{OFS="\t"} {print $1, $2, $3, ($4=="\\N"?0:$4), $5, ($7=="\\N"?-1:$7)}' \
	"$corpus" > "$OUT/labels.tsv"
[[ -s $OUT/groups.tsv ]] || awk -F'\t' '{print ($5 == "original" || $5 == "copy") ? $4 : 0}' "$OUT/labels.tsv" > "$OUT/groups.tsv"
[[ -s $OUT/scores.tsv ]] || python3 "$d/score.py" --header > "$OUT/scores.tsv"
if [[ $("${psql[@]}" -Atc "SELECT to_regclass('shv_text') IS NOT NULL") != t ]]; then
	"${psql[@]}" -c "CREATE TABLE shv_text (id bigint PRIMARY KEY, body text NOT NULL)"
	nice -n 10 python3 "$d/strip.py" none "$corpus" | "${psql[@]}" -c "\\copy shv_text FROM pstdin"
	"${psql[@]}" -c "VACUUM ANALYZE shv_text"
fi
for c in "$@"; do
	name=${c%%=*} opts=${c#*=}
	if [[ ! ${REUSE:-} || ! -s $OUT/fp_$name.tsv ]]; then
		t0=$(date +%s.%N)
		nice -n 10 "${psql[@]}" -Atc "\\copy (SELECT id, simhash(body, $opts)::bigint FROM shv_text ORDER BY id) TO '$OUT/fp_$name.tsv' NULL '\\N'"
		printf '%s\tfingerprint_s\t%.1f\n' "$name" "$(echo "$(date +%s.%N) - $t0" | bc)" | tee -a "$OUT/times.tsv"
	fi
	for r in $RADII; do
		paste "$OUT/fp_$name.tsv" "$OUT/groups.tsv" | nice -n 10 "$OUT/replay" "$r" "$r" > "$OUT/st_${name}_$r.tsv"
		python3 "$d/score.py" "$OUT/labels.tsv" "$OUT/st_${name}_$r.tsv" "${name}@$r" "$OUT/fp_$name.tsv" | tee -a "$OUT/scores.tsv"
	done
done
[[ ${DROP:-} ]] && "${psql[@]}" -c "DROP TABLE shv_text"
true
