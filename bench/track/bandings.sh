#!/bin/bash
# bandings.sh: what LSH bandings cost a MinHash registration, side by side in one run, on a table
# registered with method => 'minhash' (e.g. bench/corpus's text-like rows loaded with bench/track/load.sql
# and registered by textfp_track): the in-memory relink (textfp_rebuild) and the near-row lookup
# (bandings.sql) per banding.  Run it on a server of your own, as the table's owner, one run at a time.
#
#   DB=tk TBL=tk_docs SAMPLES=100 bash bench/track/bandings.sh 'NAME|BANDS|ROWS|MIN_BANDS[|BITS]' ...
#   e.g. 'b44x1m6|44|1|6' 'b64x2m1|64|2|1' 'b64x2m1k20|64|2|1|20'
#
# PARTS (default "rebuild lookup"):
#   rebuild  for each banding (once for bandings that differ in BITS only): the registration's banding
#            set to it (its configuration row; the store's index is left as it is, the in-memory pass
#            does not read it), CALL textfp_rebuild(TBL) timed (maintenance_work_mem = MWM, default 3GB,
#            so that it runs in memory), its links kept in bnd_links (name, key, source); then how many
#            rows each banding links otherwise than the first (by name: name the reference first, e.g.
#            a_exact|128|1|40, which makes every pair the estimate puts within the threshold a
#            candidate); then the registration's own banding put back and the table relinked with it
#            (a failed rebuild: its banding set back, and the script stops)
#   lookup   bandings.sql over the store's fingerprints: lookup time, candidates, recall per banding
#            (BITS: the index's key bits, default 13 as a registration makes it)
# A banding is a name (a plain lower-case word), its bands, values a band (rows) and the bands a
# candidate shares at least.  Output on stdout; the tables stay in DB.
set -euo pipefail
t_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=${DB:?DB: the database}
TBL=${TBL:?TBL: the registered table}
SAMPLES=${SAMPLES:-100}
MWM=${MWM:-3GB}
PARTS=${PARTS:-rebuild lookup}
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "$DB")
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
load() { cut -d' ' -f1-3 /proc/loadavg; }
cfg=$("${psql[@]}" -At -v tbl="$TBL" <<< "SELECT textfp_track_own_config(:'tbl')")
read -r store thr own < <("${psql[@]}" -At -F' ' -c "SELECT store_table, threshold, lsh_bands || '|' || lsh_rows || '|' || lsh_min_bands FROM $cfg WHERE method = 'minhash'")
[[ -n ${store:-} ]] || { echo "bandings.sh: $TBL is not registered with method => 'minhash'" >&2; exit 2; }
"${psql[@]}" -c 'DROP TABLE IF EXISTS bnd' -c 'CREATE TABLE bnd (name text PRIMARY KEY, bands int, rows int, min_bands int, bits int)'
for spec in "$@"; do
	IFS='|' read -r name b r m bits <<< "$spec"
	# a banding the signatures (k 128) cannot hold would be relinked in batches: hours, not seconds
	if ! [[ $name =~ ^[a-z][a-z0-9_]*$ && $b =~ ^[0-9]+$ && $r =~ ^[0-9]+$ && $m =~ ^[0-9]+$ && ${bits:-13} =~ ^[0-9]+$ ]] ||
		! ((b >= 1 && r >= 1 && b * r <= 128 && m >= 1 && m <= b)); then
		echo "bandings.sh: bad banding '$spec' (NAME|BANDS|ROWS|MIN_BANDS[|BITS], bands x rows <= 128)" >&2
		exit 2
	fi
	"${psql[@]}" -c "INSERT INTO bnd VALUES ('$name', $b, $r, $m, ${bits:-13})"
done
echo "$TBL ($store, $("${psql[@]}" -At -c "SELECT count(*) FROM $store") rows): J >= $thr, its banding $own; $(date -u '+%Y-%m-%d %H:%M UTC'), load $(load)"

set_banding() { "${psql[@]}" -c "UPDATE $cfg SET lsh_bands = $1, lsh_rows = $2, lsh_min_bands = $3"; }
relink() {
	local t0 t1 out
	set_banding "$1" "$2" "$3"
	t0=$(date +%s.%N)
	if ! out=$("${psql[@]}" -c "SET maintenance_work_mem = '$MWM'" -c "CALL textfp_rebuild('$TBL')" 2>&1); then
		echo "$out" >&2
		IFS='|' read -r b r m <<< "$own"
		set_banding "$b" "$r" "$m"
		echo "bandings.sh: textfp_rebuild failed; the registration's own banding is set again" >&2
		exit 1
	fi
	t1=$(date +%s.%N)
	grep -E 'in memory|links changed|in batches' <<< "$out" || true
	echo "$1 x $2 >= $3: textfp_rebuild $(echo "$t1 - $t0" | bc) s, load $(load)"
}
if [[ " $PARTS " == *" rebuild "* ]]; then
	"${psql[@]}" -c 'DROP TABLE IF EXISTS bnd_links' -c 'CREATE TABLE bnd_links (name text, key text, source text)'
	while IFS='|' read -r name b r m; do
		relink "$b" "$r" "$m"
		"${psql[@]}" -c "INSERT INTO bnd_links SELECT '$name', key::text, source::text FROM $store"
	done < <("${psql[@]}" -At -F'|' -c 'SELECT DISTINCT ON (bands, rows, min_bands) name, bands, rows, min_bands FROM bnd ORDER BY bands, rows, min_bands, name')
	"${psql[@]}" -P footer=off -c "SELECT o.name, count(*) FILTER (WHERE o.source IS NOT NULL) AS links,
			count(*) FILTER (WHERE o.source IS DISTINCT FROM f.source) AS differ_from_first
		FROM bnd_links o JOIN bnd_links f ON f.key = o.key AND f.name = (SELECT min(name) FROM bnd_links)
		GROUP BY o.name ORDER BY o.name"
	IFS='|' read -r b r m <<< "$own"
	echo "the registration's own banding again:"
	relink "$b" "$r" "$m"
fi
if [[ " $PARTS " == *" lookup "* ]]; then
	"${psql[@]}" -v store="$store" -v src="$TBL" -v threshold="$thr" -v samples="$SAMPLES" -f "$t_dir/bandings.sql"
fi
echo "done $(date -u '+%H:%M UTC'), load $(load)"
