#!/bin/bash
# run.sh: the README's main-job demo, end to end, on a fresh Debian 12 machine.
#
# Installs what is missing (build tools, PostgreSQL 15, the text packages the corpus comes
# from), builds and installs textfp, makes the corpus with make_articles.pl and runs
# demo.sql on a throwaway cluster (pg_virtualenv), printing a near-duplicate report.
#
# Usage, as root from a clone:  bash demo/run.sh
# Environment: PER_LANG (originals per language, default 400), REPRINTS (originals
# reprinted per language, default 60), SEED (default 42).

set -euo pipefail

demo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$demo_dir")
start=$SECONDS

step() { printf '\n==> %s\n' "$*"; }

# --- packages --------------------------------------------------------------

packages=(
	build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev libxxhash-dev
	debian-reference-en debian-reference-zh-cn fortunes-zh
)
# shellcheck source=../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
ensure_packages "${packages[@]}"

# --- build -------------------------------------------------------------------

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# pg_config of PostgreSQL 15, whatever else is installed
export PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
step "building and installing textfp (make && make install)"
if ! { make -C "$repo" PG_CONFIG="$PG_CONFIG" && make -C "$repo" PG_CONFIG="$PG_CONFIG" install; } \
	> "$work/build.log" 2>&1; then
	tail -n 40 "$work/build.log" >&2
	echo "run.sh: the build failed (last 40 lines above)" >&2
	exit 1
fi
echo "installed $("$PG_CONFIG" --pkglibdir)/textfp.so"

# --- corpus ------------------------------------------------------------------

step "making the corpus (demo/make_articles.pl)"
perl "$demo_dir/make_articles.pl" \
	--per-lang "${PER_LANG:-400}" --reprints "${REPRINTS:-60}" --seed "${SEED:-42}" \
	> "$work/articles.tsv"

# --- report ------------------------------------------------------------------

step "running demo/demo.sql on a throwaway PostgreSQL 15 cluster"
export PGCLIENTENCODING=UTF8
pg_virtualenv -t -v 15 -c '--encoding=UTF8 --locale=C' \
	bash -c 'psql -X -q -v ON_ERROR_STOP=1 -f "$1" < "$2"' demo "$demo_dir/demo.sql" "$work/articles.tsv"

step "done in $((SECONDS - start)) s"
