#!/bin/bash
# run.sh: the bloom-style GiST for minhash_sig that issue 14 asked to measure before shipping:
# a prototype (minhash_gist.c, objects.sql; not part of the extension) against the exact GIN
# index and a sequential scan (compare.sql).  It did not earn its place; docs/benchmarks.md
# has the numbers and this reproduces them.
#
# Builds textfp with the prototype added from a copy of this checkout (git archive of HEAD, in a
# temporary directory) and installs it with PG_CONFIG's make install, so run it against a server
# of your own whose library you may replace (the prototype only adds symbols).  Then it runs
# compare.sql in the database lsh_bench that `BENCH_SERVER=existing bash bench/lsh/run.sh` left
# on that server (it reads tl and lb.queries), and prints a Markdown table.  Reinstall the
# checkout's own build afterwards (make install) if you like.
#
# Usage: PGHOST=... PGPORT=... PGUSER=... PG_CONFIG=... bash bench/lsh/gist/run.sh
# Environment: COL (column of tl, default the first set's), SIGLENS (bytes, default
# "256 1024"), THRESHOLDS (default "0.3 0.5 0.8"), QUERIES (default 20).

set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
: "${PG_CONFIG:?set PG_CONFIG to the pg_config of the server}"
SIGLENS=${SIGLENS:-256 1024}
THRESHOLDS=${THRESHOLDS:-0.3 0.5 0.8}
QUERIES=${QUERIES:-20}
export PGDATABASE=lsh_bench PGCLIENTENCODING=UTF8
COL=${COL:-$(psql -X -At -c "SELECT 's_' || name FROM lb.sets ORDER BY ord LIMIT 1")}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$repo" archive HEAD | tar -C "$tmp" -xf -
cp "$here/minhash_gist.c" "$tmp/src/"
sed -i 's|^\tsrc/minhash_lsh_gin.o$|\tsrc/minhash_lsh_gin.o \\\n\tsrc/minhash_gist.o|' "$tmp/Makefile"
grep -q minhash_gist.o "$tmp/Makefile" || { echo "run.sh: could not add the prototype to OBJS" >&2; exit 1; }
make -s -C "$tmp" PG_CONFIG="$PG_CONFIG" >&2
make -s -C "$tmp" PG_CONFIG="$PG_CONFIG" install >&2

start=$SECONDS
psql -X -q -v ON_ERROR_STOP=1 -v objects="$here/objects.sql" -v col="$COL" -v siglens="$SIGLENS" \
	-v thresholds="$THRESHOLDS" -v queries="$QUERIES" -f "$here/compare.sql"
echo
echo "(column $COL of tl, $(psql -X -At -c 'SELECT count(*) FROM gp.g') rows, $QUERIES queries; $((SECONDS - start)) s)"
