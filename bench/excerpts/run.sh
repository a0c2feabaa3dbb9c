#!/bin/bash
# run.sh: how well winnowed fingerprints find excerpts of real text (make_excerpts.pl), for five winnow()
# settings, least containments and shares, with and without boilerplate ignored, next to MinHash with set
# sizes (score.sql); then, with CORPUS=/path/corpus.tsv (bench/corpus/make_textlike.pl's output), what
# winnow() and gin_winnow_ops cost at that many rows (perf.sql; BITS=24 for the bits option).
#
# Runs against psql's default connection (PGHOST, PGPORT, PGDATABASE...) with textfp 1.1 installed in the
# database; the server reads the files it loads, so they are made world-readable.
# Usage: bash bench/excerpts/run.sh        (needs debian-edu-doc-en, -zh-cn, debian-edu-doc-legacy-en,
#                                            -zh-cn, maint-guide-zh-cn, maint-guide-zh-tw)
#        CORPUS=/tmp/corpus.tsv PROBES=200 INSERTS=2000 bash bench/excerpts/run.sh
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$dir/../../scripts/ensure_packages.sh"
ensure_packages debian-edu-doc-en debian-edu-doc-zh-cn debian-edu-doc-legacy-en debian-edu-doc-legacy-zh-cn \
	maint-guide-zh-cn maint-guide-zh-tw
rows=$(mktemp --suffix=.tsv)
trap 'rm -f "$rows"' EXIT
perl "$dir/make_excerpts.pl" > "$rows"
chmod 644 "$rows"
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -v tsv="$rows" -f "$dir/load.sql"
psql -X -q -v ON_ERROR_STOP=1 -P pager=off -f "$dir/score.sql"
if [ -n "${CORPUS:-}" ]; then
	psql -X -v ON_ERROR_STOP=1 -P pager=off -v tsv="$CORPUS" -v probes="${PROBES:-200}" \
		-v inserts="${INSERTS:-2000}" -v bits="${BITS:-64}" -f "$dir/perf.sql" | grep -v '^INSERT 0 1$'
fi
