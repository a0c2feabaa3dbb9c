#!/bin/bash
# run.sh: the measurements of README.md, in the order they were made (2026-11-26).  Needs a server with textfp
# (PG* variables; database bp), the corpora of bench/corpus/corpus.sh (the usual one and the same with
# WRAPPING=0, the oracle: the same rows without the site's wrapping), and bench/stories' natural lineages
# (make_lineages.pl's output, LINEAGES).  About 1 h at 100k and 15 to 40 min per 1M variant on 2 busy cores.
set -euo pipefail
B=$(cd "$(dirname "$0")" && pwd); repo=$(cd "$B/../.." && pwd)
export OUT=${OUT:-/tmp/bp21}
mkdir -p "$OUT" "$OUT/m1"
cc -O3 -march=native -Wall -o "$OUT/replay" "$B/replay.c"; cp "$OUT/replay" "$OUT/m1/replay"
source "$repo/bench/corpus/corpus.sh"
C=$(N=100000 textlike_file); W=$(N=100000 WRAPPING=0 textlike_file)
C1=$(env -u N bash -c "source '$repo/bench/corpus/corpus.sh'; textlike_file")
L=${LINEAGES:?the natural lineages, bench/stories/make_lineages.pl > lineages.tsv}
labels() { awk -F'\t' 'BEGIN{OFS="\t"} {print $1, $2, $3, ($4=="\\N"?0:$4), $5, ($7=="\\N"?-1:$7)}' "$1"; }
labels "$C" > "$OUT/labels.tsv"; labels "$C1" > "$OUT/m1/labels.tsv"
python3 "$B/score.py" --header > "$OUT/scores.tsv"; cp "$OUT/scores.tsv" "$OUT/m1/scores.tsv"

# 100k: the text as is, the oracle, learned lists (site or corpus, lines or segments), position, IDF
v=$B/variant.sh
$v none "$C" none
$v oracle "$W" none
$v siteline_f10 "$C" learn --unit line --scope site -F 0.1 -C 5
$v siteline_f02 "$C" learn --unit line --scope site -F 0.02 -C 5
$v siteseg_f10 "$C" learn --unit seg --scope site -F 0.1 -C 5
$v siteseg_f50 "$C" learn --unit seg --scope site -F 0.5 -C 5
$v siteseg_f10_m3 "$C" learn --unit seg --scope site -F 0.1 -C 5 --min-months 3
$v siteseg_f50_cap200 "$C" learn --unit seg --scope site -F 0.5 -C 5 --site-cap 200
$v corpseg_c50 "$C" learn --unit seg --scope corpus -F 0 -C 50
$v corpseg_c50_m3 "$C" learn --unit seg --scope corpus -F 0 -C 50 --min-months 3
$v pos "$C" pos
FP=idf RADII="11 13" $v idf_none "$C" none
FP=idf RADII="11 13" $v idf_siteseg_f10_m3 "$C" learn --unit seg --scope site -F 0.1 -C 5 --min-months 3
$v siteseg_f10_m3_l10 "$C" learn --unit seg --scope site -F 0.1 -C 5 --min-months 3 --learn-share 0.1

# natural lineages (the set, e.g. clang, as the site)
for a in "none none" "siteseg_f50 learn --unit seg --scope site -F 0.5 -C 5" "siteseg_f10 learn --unit seg --scope site -F 0.1 -C 5" \
	"corpseg_c50 learn --unit seg --scope corpus -F 0 -C 50" \
	"siteseg_f10_m3 learn --unit seg --scope site -F 0.1 -C 5 --min-months 3" \
	"corpseg_c50_m3 learn --unit seg --scope corpus -F 0 -C 50 --min-months 3"; do
	# shellcheck disable=SC2086
	"$B/lineages.sh" "$L" $a | tee -a "$OUT/lineages.tsv"
done

# what the lists strip: the generator's wrapping, or article text (templates, families, repeated sentences)
for a in "siteseg_f10_m3 --scope site -F 0.1 -C 5 --min-months 3"; do
	set -- $a; n=$1; shift
	python3 "$B/strip.py" learn "$C" --unit seg "$@" --dump "$OUT/dump_$n.tsv" > /dev/null
	python3 "$B/classify.py" "$OUT/dump_$n.tsv" "$W" "$OUT/labels.tsv" "$n" >> "$OUT/classify.tsv"
done

# 1M (texts piped, never stored)
export OUT=$OUT/m1
/usr/bin/time -v "$B/variant1m.sh" none "$C1" none 2> "$OUT/time_none.log"
/usr/bin/time -v "$B/variant1m.sh" siteseg_f10_m3_cap200 "$C1" learn --unit seg --scope site -F 0.1 -C 5 --min-months 3 --site-cap 200 2> "$OUT/time_siteseg_m3.log"
/usr/bin/time -v "$B/variant1m.sh" siteseg_f10_m3_s200 "$C1" learn --unit seg --scope site -F 0.1 -C 5 --min-months 3 --site-sample 200 2> "$OUT/time_siteseg_s200.log"
# not run in the time box: the 1M oracle ($W1) and IDF at 1M

# simhash_v2 candidates (README, "A model-free SimHash preset"): 100k replay at several radii, 1M at the chosen
# ones, mih lookups and fingerprinting cost.  (bench/presets/run.sh with ONLY and bench/stories/candidate.sh
# give the presets' scores and the lineages.)
export OUT=/tmp/shv2
o2() { echo "'null', ngram => $1, shingle => $2, stopwords => 'builtin', weighting => '$3', chinese => 'mainland'"; }
RADII="9 10 11 12 13 14" "$B/candidates.sh" "$C" "v1=preset => 'simhash_v1'" "n2s1sub=$(o2 2 1 sublinear)" \
	"n2s1bin=$(o2 2 1 binary)" "n2s2sub=$(o2 2 2 sublinear)" "n2s2bin=$(o2 2 2 binary)"
RADII="11 12 13 14" "$B/candidates.sh" "$C" "n1s2sub=$(o2 1 2 sublinear)"
for a in "v1 11" "n2s1sub 13" "n2s1sub 11" "n2s1bin 13" "n1s2sub 14" "n2s2sub 14"; do
	set -- $a
	psql -X -q -d bp -v name="$1" -v r="$2" -v fps="$OUT/fp_$1.tsv" -v labels="$OUT/labels.tsv" -f "$B/lookup.sql"
done
psql -X -q -d bp -f "$B/fpcost.sql"
mkdir -p "$OUT/m1"; cc -O3 -march=native -Wall -o "$OUT/m1/replay" "$B/replay.c"
labels "$C1" > "$OUT/m1/labels.tsv"; python3 "$B/score.py" --header > "$OUT/m1/scores.tsv"
OUT=$OUT/m1 "$B/variant1m.sh" none "$C1" none    # simhash_v1 (the 1M none@11 run above, here into $OUT/m1)
OUT=$OUT/m1 RADII="11 12 13" FP_OPTS=$(o2 2 1 sublinear) "$B/variant1m.sh" n2s1sub "$C1" none
OUT=$OUT/m1 RADII="11 13" FP_OPTS=$(o2 2 1 binary) "$B/variant1m.sh" n2s1bin "$C1" none
for a in "none 11" "n2s1sub 11" "n2s1sub 13"; do
	set -- $a
	psql -X -q -d bp -v name="$1" -v r="$2" -v fps="$OUT/m1/fp_$1.tsv" -v labels="$OUT/m1/labels.tsv" -f "$B/lookup.sql"
done
