#!/bin/bash
# variant.sh NAME CORPUS STRIP-ARGS...: one stripping variant measured end to end on a corpus
#   strip.py STRIP-ARGS < CORPUS  ->  table bp_v_NAME (id, body)  ->  simhash(body, preset => 'simhash_v1')
#   -> replay.c at 11/11 -> score.py against the labels.  Also, with FP=idf, simhash_idf_v1 with the model
#   built from the stripped rows (as textfp_track builds it), at RADII (default "11 13").
# Environment: OUT (directory, default /tmp/bp21), LABELS (labels file), FP (v1 or idf), RADII, PSQL db via PG* vars
set -euo pipefail
name=$1 corpus=$2; shift 2
d=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/bp21} FP=${FP:-v1} RADII=${RADII:-11}
LABELS=${LABELS:-$OUT/labels.tsv}
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "${DB:-bp}")
if [[ ! -s $OUT/text_$name.tsv || ! -s $OUT/strip_$name.log ]]; then
	nice -n 10 python3 "$d/strip.py" "$1" "$corpus" "${@:2}" > "$OUT/text_$name.tsv" 2> "$OUT/strip_$name.log"
fi
cat "$OUT/strip_$name.log" >&2
"${psql[@]}" -c "DROP TABLE IF EXISTS bp_v_$name; CREATE TABLE bp_v_$name (id bigint PRIMARY KEY, body text NOT NULL)"
"${psql[@]}" -c "\\copy bp_v_$name FROM '$OUT/text_$name.tsv'"
if [[ $FP == v1 ]]; then
	nice -n 10 "${psql[@]}" -Atc "\\copy (SELECT id, simhash(body, preset => 'simhash_v1')::bigint FROM bp_v_$name ORDER BY id) TO '$OUT/fp_$name.tsv'"
else
	nice -n 10 "${psql[@]}" -c "DROP TABLE IF EXISTS bp_idf_$name; CREATE TABLE bp_idf_$name AS SELECT idf_model(simhash_features(body, preset => 'simhash_idf_v1')) AS model FROM bp_v_$name"
	nice -n 10 "${psql[@]}" -Atc "\\copy (SELECT id, simhash(body, preset => 'simhash_idf_v1', idf => (SELECT model FROM bp_idf_$name))::bigint FROM bp_v_$name ORDER BY id) TO '$OUT/fp_$name.tsv'"
fi
[[ -s $OUT/groups.tsv ]] || awk -F'\t' '{print ($5 == "original" || $5 == "copy") ? $4 : 0}' "$LABELS" > "$OUT/groups.tsv"
# disk: keep only the fingerprints
"${psql[@]}" -c "DROP TABLE bp_v_$name"
[[ ${KEEP_TEXT:-} ]] || rm -f "$OUT/text_$name.tsv"
for r in $RADII; do
	paste "$OUT/fp_$name.tsv" "$OUT/groups.tsv" | nice -n 10 "$OUT/replay" "$r" "$r" > "$OUT/st_${name}_$r.tsv"
	python3 "$d/score.py" "$LABELS" "$OUT/st_${name}_$r.tsv" "${name}@$r" "$OUT/fp_$name.tsv" | tee -a "$OUT/scores.tsv"
done
