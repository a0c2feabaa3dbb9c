#!/bin/bash
# variant1m.sh NAME CORPUS STRIP-ARGS...: variant.sh for a large corpus, without storing texts: strip.py's
# output is piped into a table whose trigger keeps only simhash(body, FP_OPTS), then
# replay.c at 11/11 and score.py as variant.sh.  (1M rows: texts of 2.5 GB never touch the disk.)
# FP_OPTS: the fingerprint's arguments after the text (default "preset => 'simhash_v1'"; e.g. "'null', ngram => 2,
# weighting => 'binary'"), RADII the radii replayed (cohesion = radius).
set -euo pipefail
name=$1 corpus=$2; shift 2
d=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/bp21} RADII=${RADII:-11} FP_OPTS=${FP_OPTS:-"preset => 'simhash_v1'"}
LABELS=${LABELS:-$OUT/labels.tsv}
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "${DB:-bp}")
"${psql[@]}" <<SQL
DROP TABLE IF EXISTS bp_fp_$name;
CREATE UNLOGGED TABLE bp_fp_$name (id bigint, body text, fp bigint);
CREATE OR REPLACE FUNCTION bp_fp_only_$name() RETURNS trigger LANGUAGE plpgsql AS
\$\$ BEGIN NEW.fp := simhash(NEW.body, $FP_OPTS)::bigint; NEW.body := NULL; RETURN NEW; END \$\$;
CREATE TRIGGER fp_only BEFORE INSERT ON bp_fp_$name FOR EACH ROW EXECUTE FUNCTION bp_fp_only_$name();
SQL
nice -n 10 python3 "$d/strip.py" "$1" "$corpus" "${@:2}" 2> "$OUT/strip_$name.log" |
	nice -n 10 "${psql[@]}" -c "\\copy bp_fp_$name (id, body) FROM pstdin"
cat "$OUT/strip_$name.log" >&2
"${psql[@]}" -Atc "\\copy (SELECT id, fp FROM bp_fp_$name ORDER BY id) TO '$OUT/fp_$name.tsv' NULL '\\N'"
"${psql[@]}" -c "DROP TABLE bp_fp_$name" -c "DROP FUNCTION bp_fp_only_$name()"
[[ -s $OUT/groups.tsv ]] || awk -F'\t' '{print ($5 == "original" || $5 == "copy") ? $4 : 0}' "$LABELS" > "$OUT/groups.tsv"
for r in $RADII; do
	paste "$OUT/fp_$name.tsv" "$OUT/groups.tsv" | nice -n 10 "$OUT/replay" "$r" "$r" > "$OUT/st_${name}_$r.tsv"
	python3 "$d/score.py" "$LABELS" "$OUT/st_${name}_$r.tsv" "${name}@$r" "$OUT/fp_$name.tsv" | tee -a "$OUT/scores.tsv"
done
