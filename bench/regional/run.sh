#!/bin/bash
# run.sh: how well textfp matches Taiwan and mainland Chinese texts of the same content,
# with and without converting regional Chinese (chinese => 'mainland', simplify => true).
#
# The set (make_set.pl) is natural and disjoint from bench/quality and the demo: the zh_TW
# and zh_CN message catalogs that Debian packages ship for the same programs, independently
# translated, grouped into documents of the same messages on both sides.  eval.sql scores
# every Taiwan document against every mainland document, per configuration: is the
# counterpart the nearest, is it within the default threshold, and within the threshold
# that lets in at most 1 in 1,000 non-counterpart pairs (chosen on half of the catalogs,
# reported on the other half); false matches per 1,000 non-counterpart pairs.  With COST=1,
# cost.sql also times the conversion next to to_tsvector('simple') on bench/perf's Chinese
# rows and on the same rows in Taiwan wording (opencc s2twp).
#
# Usage, as root from a clone, against psql's default connection (PGHOST, PGPORT; a
# database is created and dropped) with textfp installed:
#     bash bench/regional/run.sh
# Environment:
#   MIN_CHARS  Han characters a Taiwan document has at least (default 150)
#   MAX_DOCS   documents a catalog at most (default 25)
#   COST       1 to time the conversion too (default 0); ROUNDS (3) and ROWS (1000) as in perf/
#   DB         the database to use (default textfp_regional)
# Raw results and the report go to bench/out/regional-<UTC time>/ (git-ignored).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
export MIN_CHARS=${MIN_CHARS:-150} MAX_DOCS=${MAX_DOCS:-25}
COST=${COST:-0}
ROUNDS=${ROUNDS:-3}
ROWS=${ROWS:-1000}
DB=${DB:-textfp_regional}
export LC_ALL=C.UTF-8 LANG=C.UTF-8

# shellcheck source=catalogs.sh
source "$here/catalogs.sh"
packages=("${regional_packages[@]}")
[[ $COST == 1 ]] && packages+=(debian-reference-zh-cn fortunes-zh)
# shellcheck source=../../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
ensure_packages "${packages[@]}"

out="$repo/bench/out/regional-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
step() { printf '\n==> %s\n' "$*" >&2; }

step "making the set (MIN_CHARS=$MIN_CHARS, MAX_DOCS=$MAX_DOCS)"
perl "$here/make_set.pl" > "$out/set.tsv" 2> "$out/set.log"
grep -v '^read-mo' "$out/set.log" >&2 || true
# OpenCC's own tw2sp over the Taiwan side, to compare with the frozen table
awk -F'\t' '$3 == "tw" { print $4 }' "$out/set.tsv" > "$out/tw.txt"
opencc -c tw2sp.json -i "$out/tw.txt" -o "$out/tw_opencc.txt"
awk -F'\t' '$3 == "tw" { print $1 }' "$out/set.tsv" | paste - "$out/tw_opencc.txt" > "$out/tw_opencc.tsv"

psql=(psql -X -q -v ON_ERROR_STOP=1)
"${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
"${psql[@]}" -d "$DB" <<-SQL
	CREATE EXTENSION textfp;
	CREATE TABLE docs (id int, catalog text, side text, body text);
	\copy docs FROM '$out/set.tsv'
	CREATE TABLE tw_opencc (id int, body text);
	\copy tw_opencc FROM '$out/tw_opencc.tsv'
	ANALYZE;
SQL

step "the set"
"${psql[@]}" -d "$DB" -At -F $'\t' > "$out/set_stats.tsv" <<-'SQL'
	SELECT 'catalogs', count(DISTINCT catalog) FROM docs;
	SELECT 'document pairs', count(*) / 2 FROM docs;
	SELECT 'Han characters a document, mean (tw)', round(avg(length(regexp_replace(body, '[^\u4e00-\u9fff]', '', 'g')))) FROM docs WHERE side = 'tw';
	-- a Taiwan side made from the mainland one by conversion would be near identical after it
	SELECT 'highest mean bigram Jaccard of a catalog after conversion', round(max(j)::numeric, 3) FROM (
		SELECT catalog, avg(jaccard(shingles(t.body, 'mainland', shingle => 1), shingles(c.body, 'mainland', shingle => 1))) AS j
		FROM docs t JOIN docs c USING (id, catalog) WHERE t.side = 'tw' AND c.side = 'cn' GROUP BY catalog) s;
	SELECT 'Taiwan documents that the table converts as OpenCC 1.1.6 tw2sp does', round(avg((textfp_normalize(d.body, 'mainland') = textfp_normalize(o.body))::int)::numeric, 3)
	FROM docs d JOIN tw_opencc o USING (id) WHERE d.side = 'tw';
SQL
cat "$out/set_stats.tsv" >&2

step "scoring (eval.sql)"
"${psql[@]}" -d "$DB" -f "$here/eval.sql"
"${psql[@]}" -d "$DB" -At -F $'\t' -c "SELECT name, docs, round(nearest::numeric, 3), t_default,
	round(recall_default::numeric, 3), round(fp_default::numeric, 2), round(t_chosen::numeric, 3),
	round(recall_chosen::numeric, 3), round(fp_chosen::numeric, 2) FROM results ORDER BY ord" > "$out/results.tsv"

if [[ $COST == 1 ]]; then
	step "cost (cost.sql, ROUNDS=$ROUNDS, ROWS=$ROWS)"
	perl "$repo/bench/perf/make_rows.pl" --lang zh --rows "$ROWS" > "$out/rows_zh.tsv"
	opencc -c s2twp.json -i "$out/rows_zh.tsv" -o "$out/rows_zh_tw.tsv"
	"${psql[@]}" -d "$DB" <<-SQL
		CREATE TABLE cost_rows (copy int, source text, body text, lang text);
		CREATE TEMP TABLE t (copy int, source text, body text);
		\copy t FROM '$out/rows_zh.tsv'
		INSERT INTO cost_rows SELECT *, 'zh' FROM t;
		TRUNCATE t;
		\copy t FROM '$out/rows_zh_tw.tsv'
		INSERT INTO cost_rows SELECT *, 'zh_tw' FROM t;
		VACUUM ANALYZE cost_rows;
	SQL
	"${psql[@]}" -d "$DB" -At -F $'\t' -c "SET cost.rounds = $ROUNDS" -f "$here/cost.sql" > "$out/cost.tsv"
fi
"${psql[@]}" -d postgres -c "DROP DATABASE $DB"

# --- report ----------------------------------------------------------------------------
{
	echo "## Regional Chinese: Taiwan and mainland translations of the same messages"
	echo
	awk -F'\t' '{ printf "- %s: %s\n", $1, $2 }' "$out/set_stats.tsv"
	echo
	echo "Reporting half of the catalogs; SimHash distances in bits, MinHash as 1 - estimated Jaccard."
	echo
	echo "| configuration | documents | counterpart nearest | default threshold | recall | false / 1,000 | threshold at ≤ 1 / 1,000 (tuning half) | recall | false / 1,000 |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	awk -F'\t' '{ printf "| %s |", $1; for (i = 2; i <= NF; i++) printf " %s |", $i; printf "\n" }' "$out/results.tsv"
	if [[ -s $out/cost.tsv ]]; then
		echo
		echo "CPU ms over the rows (median of $ROUNDS rounds) and the ratio to to_tsvector('simple', body):"
		echo
		echo "| expression | zh ms | × to_tsvector | zh_tw ms | × to_tsvector |"
		echo "|---|---:|---:|---:|---:|"
		awk -F'\t' '{ printf "| `%s` | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$out/cost.tsv"
	fi
} > "$out/report.md"
step "report ($out/report.md)"
cat "$out/report.md"
