#!/bin/bash
# fp_lookups.sh: the near-row lookup of candidate MinHash fingerprints at a table's size, side by side
# (fp_lookups.sql), each fingerprint computed once for every row of a loaded corpus table (load.sql's
# tk_docs: id, lang, body) and each candidate's banding the one textfp_track_banding chooses at its
# threshold.  Run it on a server of your own (it makes tables lk_*), one run at a time.
#
#   DB=tk SRC=tk_docs SAMPLES=100 bash bench/track/fp_lookups.sh 'COL|EXPR' ... -- 'NAME|COL|THRESHOLD' ...
#   e.g. bash bench/track/fp_lookups.sh \
#          "v2|minhash(body, preset => 'minhash_v2')" \
#          "n1s3|minhash(body, 'null', ngram => 1, shingle => 3, stopwords => 'zh+snowball', chinese => 'mainland')" \
#          -- 'v2_t3125|v2|0.3125' 'n1s3_t25|n1s3|0.25'
# DROP_FP=1 drops lk_fp once each column is copied (disk space).
# KEEP=1 keeps an lk_fp of the same columns from an earlier run (the fingerprints are not computed again).
set -euo pipefail
t_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=${DB:?DB: the database}
SRC=${SRC:-tk_docs}
SAMPLES=${SAMPLES:-100}
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "$DB")
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
load() { cut -d' ' -f1-3 /proc/loadavg; }
cols=() exprs=()
while (($#)) && [[ $1 != -- ]]; do
	IFS='|' read -r col expr <<< "$1"
	[[ $col =~ ^[a-z][a-z0-9_]*$ ]] || { echo "fp_lookups.sh: bad column name $col" >&2; exit 2; }
	cols+=("$col") exprs+=("$expr AS $col")
	shift
done
(($#)) && shift
(IFS=,; echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC') fp_lookups.sh: ${cols[*]} on $DB.$SRC, load $(load)")
if [[ -z ${KEEP:-} ]]; then
	t0=$(date +%s.%N)
	(IFS=,; "${psql[@]}" -c "DROP TABLE IF EXISTS lk_fp" -c "CREATE TABLE lk_fp AS SELECT id, lang, ${exprs[*]} FROM $SRC" \
		-c "ALTER TABLE lk_fp ADD PRIMARY KEY (id)" -c "VACUUM ANALYZE lk_fp")
	echo "lk_fp: $(echo "$(date +%s.%N) - $t0" | bc) s, load $(load)"
fi
"${psql[@]}" -c 'DROP TABLE IF EXISTS lk_cand' \
	-c 'CREATE TABLE lk_cand (name text PRIMARY KEY, col text, threshold float8, bands int, rows int, min_bands int, bits int)'
for spec in "$@"; do
	IFS='|' read -r name col thr <<< "$spec"
	[[ $name =~ ^[a-z][a-z0-9_]*$ && $col =~ ^[a-z][a-z0-9_]*$ && $thr =~ ^[0-9.]+$ ]] ||
		{ echo "fp_lookups.sh: bad candidate '$spec' (NAME|COL|THRESHOLD)" >&2; exit 2; }
	"${psql[@]}" -c "INSERT INTO lk_cand SELECT '$name', '$col', $thr, b.bands, b.rows, b.min_bands, 13
		FROM textfp_track_banding($thr, 128) b"
done
"${psql[@]}" -c 'SELECT * FROM lk_cand ORDER BY name'
(IFS=,; "${psql[@]}" -v samples="$SAMPLES" -v fpcols="${cols[*]}" ${DROP_FP:+-v drop_fp=1} -f "$t_dir/fp_lookups.sql")
echo "done $(date -u '+%H:%M:%S UTC'), load $(load)"
