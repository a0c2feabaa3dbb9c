#!/bin/bash
# lineages.sh LINEAGES_TSV NAME STRIP-ARGS...: the natural lineages (bench/stories/make_lineages.pl's output)
# stripped as strip.py does (the set, e.g. clang, standing for the site), fingerprinted with simhash_v1 on
# title, newline, body (as bench/stories/pairs.sql does), linked by replay.c at 11/11 in (time, key) order, and
# scored against the lineages (ARI, pairwise precision and recall; all sets, and English and Chinese).
set -euo pipefail
src=$1 name=$2; shift 2
d=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/bp21}
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "${DB:-bp}")
# as corpus rows: id lang site family role edit strength published_at body(title \n body)
awk -F'\t' 'BEGIN{OFS="\t"} {print $1, $2, $3, 0, "x", "\\N", "\\N", $6, $8 "\\n" $9}' "$src" > "$OUT/lin_in.tsv"
awk -F'\t' 'BEGIN{OFS="\t"} {print $1, $2, $3, $4, $6}' "$src" > "$OUT/lin_labels.tsv"
python3 "$d/strip.py" "$1" "$OUT/lin_in.tsv" "${@:2}" > "$OUT/lin_text_$name.tsv" 2> "$OUT/lin_strip_$name.log"
cat "$OUT/lin_strip_$name.log" >&2
"${psql[@]}" -c "DROP TABLE IF EXISTS bp_lin; CREATE TABLE bp_lin (id bigint PRIMARY KEY, body text NOT NULL)" \
	-c "\\copy bp_lin FROM '$OUT/lin_text_$name.tsv'" \
	-c "DROP TABLE IF EXISTS bp_lin_lab; CREATE TABLE bp_lin_lab (id bigint PRIMARY KEY, lang text, set text, lineage text, at timestamptz)" \
	-c "\\copy bp_lin_lab FROM '$OUT/lin_labels.tsv'"
"${psql[@]}" -Atc "\\copy (SELECT b.id, simhash(b.body, preset => 'simhash_v1')::bigint FROM bp_lin b JOIN bp_lin_lab l USING (id) ORDER BY l.at, b.id) TO '$OUT/lin_fp_$name.tsv'"
"$OUT/replay" 11 11 < "$OUT/lin_fp_$name.tsv" > "$OUT/lin_st_$name.tsv"
python3 - "$OUT/lin_labels.tsv" "$OUT/lin_st_$name.tsv" "$name" <<'PY'
import sys
from collections import Counter
lab = {int(l.split('\t')[0]): l.rstrip('\n').split('\t') for l in open(sys.argv[1])}
st = {int(l.split('\t')[0]): int(l.split('\t')[1]) for l in open(sys.argv[2])}
c2 = lambda n: n * (n - 1) // 2
def score(keys):
    cont = Counter((st[k], lab[k][3]) for k in keys)
    tp = sum(c2(n) for n in cont.values())
    ps = sum(c2(n) for n in Counter(st[k] for k in keys).values())
    pt = sum(c2(n) for n in Counter(lab[k][3] for k in keys).values())
    exp = ps * pt / c2(len(keys))
    ari = (tp - exp) / (0.5 * (ps + pt) - exp)
    return '%.4f %.4f %.4f %d' % (ari, tp / ps if ps else 1, tp / pt, max(Counter(st[k] for k in keys).values()))
allk = list(lab)
enzh = [k for k in allk if lab[k][1] in ('en', 'zh')]
print('%s\tall: ARI/prec/rec/largest %s\ten+zh: %s' % (sys.argv[3], score(allk), score(enzh)))
PY
