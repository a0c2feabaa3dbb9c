#!/bin/bash
# run.sh: how well textfp finds reprints, on labeled real text.
#
# make_corpus.pl makes originals from Debian packages (Debian Reference, Debian Administrator's
# Handbook, fortunes-zh; English and Chinese) and recorded copies of each at graded edit
# strengths, split by family into a tuning and a reporting part.  On a throwaway cluster
# (pg_virtualenv, C.UTF-8 so that pg_trgm treats Chinese characters as word characters):
# load.sql loads it and numbers pg_trgm's trigrams; tune.sql scores every pair of the tuning
# split under a grid of options for simhash and minhash, and pg_trgm's similarity; then the
# reporting split is scored with the functions' defaults (no options); methods.sql scores it
# with the 1.1 methods too (the presets, through bench/presets' load.sql, score.sql and
# grid.sql; winnow's excerpt rule; the set signatures); jointime.sql times self-joins.
# report.pl chooses on the tuning split, reports on the reporting split and draws the plots
# with gnuplot.
#
# Raw results and the report go to bench/out/quality-<UTC time>/ (git-ignored).  With
# UPDATE_DOCS=1 the report replaces the generated part of docs/quality.md and the plots go
# to docs/quality/.
#
# Usage, as root from a clone:  bash bench/quality/run.sh
#                               UPDATE_DOCS=1 bash bench/quality/run.sh   (what docs/quality.md shows)
# Environment:
#   PER_LANG     originals per language (default 160; each gets 8 or 9 copies; the pair count
#                grows with its square)
#   SEED         the corpus seed (default 2026)
#   TUNE         1 to score the option grid on the tuning split (default), 0 not to
#   UPDATE_DOCS  1 to write docs/quality.md's generated part and docs/quality/*.svg
#   BENCH_PORT   port of the throwaway cluster (default: a free one from 15432 + random)
#   DB           instead of a throwaway cluster, this database (created, and dropped at the
#                end unless KEEP_DB=1) on psql's default connection (PGHOST, PGPORT, PGUSER),
#                with textfp 1.1 and pg_trgm installed in that server; nothing is built
#   KEEP_DB      1 to keep DB (default 0)
#   JOINTIME     1 to time the self-joins (default), 0 not to

set -euo pipefail

q_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$q_dir/../.." && pwd)
PER_LANG=${PER_LANG:-160}
SEED=${SEED:-2026}
TUNE=${TUNE:-1}
UPDATE_DOCS=${UPDATE_DOCS:-0}
DB=${DB:-}
KEEP_DB=${KEEP_DB:-0}
JOINTIME=${JOINTIME:-1}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
unset LANGUAGE
start=$SECONDS

step() { printf '\n==> %s\n' "$*" >&2; }
die() { echo "run.sh: $*" >&2; exit 1; }

[[ $PER_LANG =~ ^[0-9]+$ ]] && ((PER_LANG >= 4)) || die "PER_LANG must be an integer >= 4"
[[ $SEED =~ ^[0-9]+$ ]] || die "SEED must be a non-negative integer"
[[ -z $DB || $DB =~ ^[a-z_][a-z0-9_]*$ ]] || die "DB must be a plain lower-case name"

# --- packages and build ------------------------------------------------------

# postgresql-15 includes contrib (pg_trgm); icu-devtools has uconv (Traditional copies)
# shellcheck source=../../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
ensure_packages build-essential pkg-config postgresql-15 postgresql-server-dev-15 libicu-dev \
	libxxhash-dev icu-devtools gnuplot-nox debian-reference-en debian-reference-zh-cn \
	debian-handbook fortunes-zh
# shellcheck source=../../scripts/build_textfp.sh
source "$repo/scripts/build_textfp.sh"
[[ -n $DB ]] || build_textfp "$repo"

out="$repo/bench/out/quality-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
chmod 755 "$out"

step "making the corpus (PER_LANG=$PER_LANG, SEED=$SEED)"
perl "$q_dir/make_corpus.pl" --per-lang "$PER_LANG" --seed "$SEED" > "$out/corpus_rows.tsv"
chmod 644 "$out/corpus_rows.tsv"

{
	printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	printf 'nproc\t%s\n' "$(nproc)"
	printf 'mem\t%s\n' "$(awk '/^MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
	printf 'load\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'command\t%s\n' "PER_LANG=$PER_LANG SEED=$SEED${DB:+ DB=$DB}$( ((JOINTIME)) || echo ' JOINTIME=0') bash bench/quality/run.sh"
	printf 'commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || true)"
	printf 'src_changes\t%s\n' "$(git -C "$repo" status --porcelain -- src textfp--1.0.sql 2>/dev/null | wc -l)"
} > "$out/meta.txt"

# --- inside the throwaway cluster ----------------------------------------------

# shellcheck disable=SC2317  # called through bash -c
inner() {
	set -euo pipefail
	local out=$1 q_dir=$2 tune=$3 jointime=$4
	local psql=(psql -X -q -v ON_ERROR_STOP=1)
	"${psql[@]}" -At -c 'SELECT version()' | sed 's/^/server\t/; s/ on x86.*//; s/,.*//' >> "$out/meta.txt"
	echo "==> loading the corpus, numbering trigrams" >&2
	"${psql[@]}" -f "$q_dir/load.sql" < "$out/corpus_rows.tsv"
	# the settings' built-in values (the extension is loaded now)
	"${psql[@]}" -At -F $'\t' -c "LOAD 'textfp'" -c "SELECT 'hamming_threshold', boot_val FROM pg_settings
		WHERE name = 'textfp.hamming_threshold' UNION ALL SELECT 'jaccard_threshold', boot_val FROM pg_settings
		WHERE name = 'textfp.jaccard_threshold'" >> "$out/meta.txt"
	if ((tune)); then
		echo "==> tuning split: the option grid" >&2
		"${psql[@]}" -f "$q_dir/tune.sql" > /dev/null
	else
		"${psql[@]}" -c "SELECT score_split('tuning', 'trgm', ARRAY['trgm']);
			SELECT score_split('tuning', 'default', ARRAY['simhash', 'minhash'])" > /dev/null
	fi
	echo "==> reporting split: the defaults" >&2
	"${psql[@]}" -c "SET work_mem = '256MB'; SET jit = off;
		SELECT score_split('reporting', 'default', ARRAY['simhash', 'minhash']);
		SELECT score_split('reporting', 'trgm', ARRAY['trgm'])" > /dev/null
	echo "==> reporting split: the 1.1 methods (presets, excerpts, set signatures)" >&2
	"${psql[@]}" -v quality="$out/corpus_rows.tsv" -v revisions=/dev/null -v regional=/dev/null \
		-f "$q_dir/../presets/load.sql" -f "$q_dir/../presets/score.sql" -f "$q_dir/../presets/grid.sql" > /dev/null
	"${psql[@]}" -v split=reporting -f "$q_dir/methods.sql" > /dev/null
	# the presets' thresholds, for report.pl's columns
	"${psql[@]}" -At -F $'\t' -c "SELECT name, method, threshold FROM textfp_presets()
		ORDER BY method DESC, recommended DESC, name" > "$out/presets.tsv"
	"${psql[@]}" -c "\\copy score TO '$out/score.tsv' WITH (FORMAT text, HEADER)"
	"${psql[@]}" -c "\\copy (SELECT lang, split, split_part(source, '/', 1) AS source,
			count(*) FILTER (WHERE kind = 'original') AS originals,
			count(*) FILTER (WHERE kind <> 'original') AS copies,
			round(avg(length(txt)) FILTER (WHERE kind = 'original')) AS mean_chars
		FROM doc GROUP BY 1, 2, 3 ORDER BY 1, 2 DESC, 3) TO '$out/corpus.tsv' WITH (FORMAT text, HEADER)"
	# pg_trgm's threshold for the join: the tuned one
	perl -I"$q_dir/../../scripts" "$q_dir/report.pl" "$out" > /dev/null
	local trgm_t
	trgm_t=$(awk -F'\t' '$1 == "trgm" { print $3 }' "$out/choice.tsv")
	((jointime)) || return 0
	for lang in en zh; do
		echo "==> reporting split: self-join times ($lang)" >&2
		"${psql[@]}" -v lang="$lang" -v trgm_threshold="$trgm_t" -f "$q_dir/jointime.sql" > /dev/null
	done
	"${psql[@]}" -c "\\copy jointime TO '$out/jointime.tsv' WITH (FORMAT text, HEADER)"
}
export -f inner

export PGCLIENTENCODING=UTF8
if [[ -n $DB ]]; then
	step "scoring in database $DB of the running server"
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" \
		-c "CREATE DATABASE $DB TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'"
	PGDATABASE=$DB PGOPTIONS='-c jit=off -c max_parallel_workers_per_gather=0' \
		inner "$out" "$q_dir" "$TUNE" "$JOINTIME"
	((KEEP_DB)) || psql -X -q -d postgres -c "DROP DATABASE $DB"
else
	step "scoring on a throwaway PostgreSQL 15 cluster"
	pg_virtualenv -t -v 15 ${BENCH_PORT:+-p "$BENCH_PORT"} -c '--encoding=UTF8 --locale=C.UTF-8' \
		-o 'jit=off' -o 'max_parallel_workers_per_gather=0' -o 'shared_buffers=1GB' \
		bash -c 'inner "$@"' inner "$out" "$q_dir" "$TUNE" "$JOINTIME"
fi

printf 'elapsed_s\t%s\n' $((SECONDS - start)) >> "$out/meta.txt"
step "report"
perl "$q_dir/report.pl" "$out" > "$out/report.md"
cat "$out/report.md"

# the tuning rule's choice against the shipped defaults
awk -F'\t' 'NR > 1 { print "tuning picks for " $1 ": " $2 ", threshold " $3 " (mean F1 " $4 ")" }' "$out/choice.tsv" >&2

if ((UPDATE_DOCS)); then
	doc="$repo/docs/quality.md"
	grep -q '^<!-- generated by bench/quality/run.sh: begin -->$' "$doc" || die "$doc has no generated part"
	mkdir -p "$repo/docs/quality"
	cp "$out"/plots/*.svg "$repo/docs/quality/"
	REPORT="$out/report.md" perl -0pi -e '
		BEGIN { local $/; open my $fh, "<:raw", $ENV{REPORT} or die; $r = <$fh>; }
		s/(<!-- generated by bench\/quality\/run.sh: begin -->\n).*(<!-- generated by bench\/quality\/run.sh: end -->)/$1\n$r\n$2/s
	' "$doc"
	step "updated docs/quality.md and docs/quality/*.svg"
fi
step "done in $((SECONDS - start)) s; raw results in $out"
