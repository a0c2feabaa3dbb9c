#!/bin/bash
# candidates_insert.sh: tracked single-row inserts for candidate MinHash fingerprints (candidates_insert.sql),
# on candidates.sh's database (table cl loaded): BASE rows registered with textfp_track(options, threshold),
# then INSERTS rows inserted one by one, next to plain inserts computing the same fingerprint.
#
#   BASE=20000 INSERTS=300 bash bench/track/candidates_insert.sh 'NAME|OPTIONS|THRESHOLD' ...
set -euo pipefail
t_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BASE=${BASE:-20000}
INSERTS=${INSERTS:-300}
DB=${DB:-textfp_cand}
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
# candidates.sh's database, which this role must own (candidates.sh says why)
[[ $(psql -X -qAt -d postgres -v db="$DB" <<< "SELECT d.datdba = r.oid FROM pg_catalog.pg_database d, pg_catalog.pg_roles r WHERE d.datname = :'db' AND r.rolname = current_user") == t ]] ||
	{ echo "candidates_insert.sh: database $DB is missing or belongs to another role (candidates.sh makes it)" >&2; exit 2; }
for spec in "$@"; do
	IFS='|' read -r name opts thr <<< "$spec"
	args=$(echo "$opts" | tr ',' '\n' | awk -F= '{ v = $2; if (v !~ /^[0-9]+$/) v = "'\''" v "'\''"; printf "%s%s => %s", (NR > 1 ? ", " : ""), $1, v }')
	echo "== $name: {$opts}, J >= $thr; $BASE rows, $INSERTS inserts; $(date -u '+%H:%M:%S UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
	psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -v name="$name" -v options="{$opts}" -v threshold="$thr" -v base="$BASE" \
		-v inserts="$INSERTS" -v expr="minhash(\$1, 'null', $args)" -f "$t_dir/candidates_insert.sql"
done
echo "done $(date -u '+%H:%M:%S UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
