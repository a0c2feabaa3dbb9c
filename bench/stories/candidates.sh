#!/bin/bash
# candidates.sh: the stories of candidate MinHash fingerprints (a successor to minhash_v1), each
# registered with options and a threshold instead of the preset: pairs.sql with mh_expr, then
# end_to_end.sh with MH_OPTIONS and MH_THRESHOLD (MinHash only), one database per candidate.
#
#   bash bench/stories/candidates.sh DIR 'NAME|OPTIONS|THRESHOLD' ...
#   e.g. bash bench/stories/candidates.sh bench/out/st \
#            'v1|ngram=1,shingle=1,stopwords=zh+snowball,chinese=mainland|0.46875' \
#            'bigram|ngram=2,shingle=1,stopwords=zh+snowball,chinese=mainland|0.3828125'
#
# DIR holds run.sh's sets (lineages.tsv, quality.tsv); each candidate's files go to DIR/NAME/ and its
# scores to DIR/NAME/<set>.e2e.md (textfp_stories, mh/components and mh/star from cluster_table, and the
# check against simulate.py's best+orig(t)).  Options are textfp_track's ('name=value', k 128 only:
# pairs.sql counts the bands of k 128).  Needs psql's default connection to a server with textfp.
set -euo pipefail
s_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:?usage: candidates.sh DIR 'NAME|OPTIONS|THRESHOLD' ...}
shift
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
for spec in "$@"; do
	IFS='|' read -r name opts thr <<< "$spec"
	[[ $name =~ ^[a-z0-9_]+$ ]] || { echo "candidates.sh: bad name $name" >&2; exit 2; }
	c_dir="$dir/$name"
	mkdir -p "$c_dir"
	# the options as minhash()'s named arguments: ngram => 2, stopwords => 'zh+snowball', ...
	args=$(echo "$opts" | tr ',' '\n' | awk -F= '{ v = $2; if (v !~ /^[0-9]+$/) v = "'\''" v "'\''"; printf "%s%s => %s", (NR > 1 ? ", " : ""), $1, v }')
	expr="minhash(txt, 'null', $args)"
	db="st_$name"
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
	echo "== $name: $expr, J >= $thr  [$(date -u +%H:%M:%S)]"
	for c in lineages quality; do
		[[ -f $dir/$c.tsv ]] || continue
		ln -f "$dir/$c.tsv" "$c_dir/"
		PGDATABASE=$db psql -X -q -v ON_ERROR_STOP=1 -v corpus="$c" -v out="$c_dir" -v mh_expr="$expr" \
			-f "$s_dir/pairs.sql" < "$c_dir/$c.tsv" > "$c_dir/$c.pairs.log"
	done
	st=0
	PGDATABASE=$db MH_OPTIONS="{$opts}" MH_THRESHOLD="$thr" bash "$s_dir/end_to_end.sh" "$c_dir" || st=$?
	echo "== $name: end_to_end.sh exit $st  [$(date -u +%H:%M:%S)]"
done
