#!/bin/bash
# run.sh: how well each weighting finds natural revisions (make_revisions.pl), next to MinHash.
#
# Runs against psql's default connection (PGHOST, PGPORT, PGDATABASE...) with textfp 1.1 installed in
# the database; loads the set, fingerprints every section with each method of methods.sql, scores
# every cross-version pair of a set (score.sql) and prints report.sql's tables, by language and by set.
# Usage: bash bench/revisions/run.sh        (needs debian-edu-doc-en, -zh-cn, lua5.1-doc, lua5.2-doc,
#                                             automake1.11, automake)
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rows=$(mktemp --suffix=.tsv)
trap 'rm -f "$rows"' EXIT
perl "$dir/make_revisions.pl" > "$rows"
chmod 644 "$rows"
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -v rows="$rows" -f "$dir/load.sql"
psql -X -q -v ON_ERROR_STOP=1 -f "$dir/methods.sql" > /dev/null
psql -X -q -v ON_ERROR_STOP=1 -f "$dir/score.sql"
echo "## By language"
psql -X -v ON_ERROR_STOP=1 -P pager=off -P footer=off -v grp=lang -f "$dir/report.sql"
echo "## By set"
psql -X -v ON_ERROR_STOP=1 -P pager=off -P footer=off -v grp=set -f "$dir/report.sql"
