#!/bin/bash
# candidates.sh: lookups of candidate MinHash fingerprints (a successor to minhash_v1) on bench/corpus's
# text-like rows, side by side (candidates.sql says what is measured).  Run it on a server of your own: the
# database is made by, and kept only for, the role that runs it.
#
#   N=100000 SAMPLES=200 bash bench/track/candidates.sh 'NAME|OPTIONS|THRESHOLD' ...
#   e.g. 'v1|ngram=1,shingle=1,stopwords=zh+snowball,chinese=mainland|0.46875'
#
# OPTIONS are minhash()'s ('name=value', k 128); the corpus is bench/corpus's (N rows, made if missing);
# psql's default connection, database DB (default textfp_cand, kept).  Output: the summary tables on
# stdout, and the per-row results in cand_result.  FDW=1 reads the corpus in place through file_fdw (for 1M
# rows: no copy of the texts in the database; the server must be able to read the file).
set -euo pipefail
t_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$t_dir/../.." && pwd)
export N=${N:-100000}
SAMPLES=${SAMPLES:-200}
DB=${DB:-textfp_cand}
FDW=${FDW:-0}
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
# shellcheck source=../corpus/corpus.sh
source "$repo/bench/corpus/corpus.sh"
# the generator's default N is 1000000: leave N unset then, so the corpus file of the other 1M
# benchmarks (made without N) is found (as bench/track/run.sh does)
if [[ $N == 1000000 ]]; then f=$(env -u N bash -c "source '$repo/bench/corpus/corpus.sh'; textlike_file"); else f=$(textlike_file); fi
psql=(psql -X -q -v ON_ERROR_STOP=1 -d "$DB")
[[ $DB =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "candidates.sh: DB must be a plain lower-case name" >&2; exit 2; }
# a database kept from an earlier run is used again only if this role owns it: the scripts' unqualified calls
# (jaccard_ball($1, 0.3125), ...) would run overloads planted in a co-tenant's database as this role
owner=$(psql -X -qAt -d postgres -v db="$DB" <<< "SELECT d.datdba = r.oid FROM pg_catalog.pg_database d, pg_catalog.pg_roles r WHERE d.datname = :'db' AND r.rolname = current_user")
if [[ -z $owner ]]; then
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $DB"
elif [[ $owner != t ]]; then
	echo "candidates.sh: database $DB exists and belongs to another role; drop it or give DB=" >&2
	exit 2
fi
"${psql[@]}" -c 'CREATE EXTENSION IF NOT EXISTS textfp'
if [[ $("${psql[@]}" -At -c "SELECT to_regclass('cl') IS NULL") == t ]]; then
	if ((FDW)); then
		# the corpus read in place (file_fdw, the server reads the file): no copy of the texts on disk
		"${psql[@]}" -v f="$f" <<-'SQL'
			CREATE EXTENSION IF NOT EXISTS file_fdw;
			CREATE SERVER IF NOT EXISTS corpus FOREIGN DATA WRAPPER file_fdw;
			CREATE FOREIGN TABLE cl (id bigint, lang text, site int, family bigint, role text, edit text, strength int,
				published_at timestamptz, body text) SERVER corpus OPTIONS (filename :'f', format 'text');
		SQL
	else
		cut -f1,2,9 "$f" | "${psql[@]}" -c 'CREATE TABLE cl (id bigint PRIMARY KEY, lang text, body text)' \
			-c '\copy cl FROM pstdin' -c 'ANALYZE cl'
	fi
fi
"${psql[@]}" -c 'DROP TABLE IF EXISTS cand' -c 'CREATE TABLE cand (name text PRIMARY KEY, expr text, threshold float8)'
for spec in "$@"; do
	IFS='|' read -r name opts thr <<< "$spec"
	args=$(echo "$opts" | tr ',' '\n' | awk -F= '{ v = $2; if (v !~ /^[0-9]+$/) v = "'\''" v "'\''"; printf "%s%s => %s", (NR > 1 ? ", " : ""), $1, v }')
	echo "INSERT INTO cand VALUES (:'name', :'expr', :'thr')" |
		"${psql[@]}" -v name="$name" -v expr="minhash(\$1, 'null', $args)" -v thr="$thr"
done
echo "corpus $f, $("${psql[@]}" -At -c 'SELECT count(*) FROM cl') rows; $SAMPLES samples per language; $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
"${psql[@]}" -v samples="$SAMPLES" -f "$t_dir/candidates.sql"
echo "done $(date -u '+%H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
