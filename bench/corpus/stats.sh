#!/bin/bash
# stats.sh: how a generated corpus compares with real text, as textfp's fingerprints see it.
#
# Makes bench/quality's real labeled corpus (make_corpus.pl), takes every STEP-th document of
# the generated one (SAMPLE documents) and all its originals and copies, and runs stats.sql
# on a server with textfp installed: percentiles of the exact Jaccard of shingle sets and of
# the SimHash Hamming distance for unrelated same-language pairs, and per edit kind and
# strength for planted pairs, real and generated side by side.  Prints Markdown.
#
# Usage: bash bench/corpus/stats.sh CORPUS.tsv > report.md
#   The server is psql's default connection (PGHOST, PGPORT, PGUSER, PGDATABASE); the script
#   creates the extension if it is missing and works in schema corpus_stats.
# Environment:
#   PAIRS          unrelated pairs drawn per population and language (default 200000)
#   SAMPLE         generated documents in the unrelated population (default 40000)
#   REAL_PER_LANG  make_corpus.pl --per-lang (default 500, all it has)
#   REAL_SEED      make_corpus.pl --seed (default 2026)

set -euo pipefail

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$dir/../.." && pwd)
corpus=${1:?usage: stats.sh CORPUS.tsv}
PAIRS=${PAIRS:-200000}
SAMPLE=${SAMPLE:-40000}
REAL_PER_LANG=${REAL_PER_LANG:-500}
REAL_SEED=${REAL_SEED:-2026}
export LC_ALL=C.UTF-8 PGCLIENTENCODING=UTF8
[[ -r $corpus ]] || { echo "stats.sh: cannot read $corpus" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perl "$repo/bench/quality/make_corpus.pl" --per-lang "$REAL_PER_LANG" --seed "$REAL_SEED" > "$tmp/real.tsv"
start=$SECONDS
perl "$dir/stats_rows.pl" "$tmp/real.tsv" "$corpus" "$SAMPLE" |
	psql -X -q -v ON_ERROR_STOP=1 -v pairs="$PAIRS" -f "$dir/stats.sql"
echo
echo "(real: \`make_corpus.pl --per-lang $REAL_PER_LANG --seed $REAL_SEED\`; generated: $(basename "$corpus"), SAMPLE=$SAMPLE, PAIRS=$PAIRS; $((SECONDS - start)) s)"
