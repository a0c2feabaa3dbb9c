#!/bin/bash
# run.sh: recall and false matches of pinyin_signature() and sentence_signature() on the edits they target
# (homophone substitution; sentences reordered, dropped, added, replaced), next to simhash and minhash at
# their defaults, on sections of the New Maintainers' Guide and the Debian Edu manual in English and Chinese.
#
# make_set.pl makes the documents and their edited copies (how, in its header); eval.sql scores every pair
# under every configuration.  The configurations of the two signatures were compared on the tuning split
# (grid.tsv), the defaults chosen there are reported on the reporting split (report.md).
#
# Usage, as root from a clone, against psql's default connection (PGHOST, PGPORT; a database is created and
# dropped) with textfp installed:
#     bash bench/signatures/run.sh
# Environment: DB (default textfp_signatures).  Results go to bench/out/signatures-<UTC time>/ (git-ignored).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
DB=${DB:-textfp_signatures}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
# shellcheck source=../../scripts/ensure_packages.sh
source "$repo/scripts/ensure_packages.sh"
ensure_packages maint-guide maint-guide-zh-cn debian-edu-doc-en debian-edu-doc-zh-cn \
	golang-github-mozillazg-go-pinyin-dev

out="$repo/bench/out/signatures-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
step() { printf '\n==> %s\n' "$*" >&2; }

step "making the set"
perl "$here/make_set.pl" > "$out/set.tsv" 2> "$out/set.log"
cat "$out/set.log" >&2

psql=(psql -X -q -v ON_ERROR_STOP=1)
"${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
"${psql[@]}" -d "$DB" <<-SQL
	CREATE EXTENSION textfp;
	CREATE TABLE docs (id int, lang text, split text, kind text, level text, base int, donor int, body text);
	\copy docs FROM '$out/set.tsv'
	ANALYZE docs;
SQL
step "scoring (eval.sql)"
"${psql[@]}" -d "$DB" -f "$here/eval.sql"
q() { "${psql[@]}" -d "$DB" -At -F $'\t' -c "$1"; }
# recall per edit and false matches per 1,000 unrelated pairs, one line a rule and language
rates="SELECT name, lang,
	string_agg(CASE WHEN kind = 'unrelated' THEN NULL ELSE kind || ' ' || level || '=' || round(matched::numeric / pairs, 2) END,
		'; ' ORDER BY kind, CASE WHEN level ~ '^[0-9]+%$' THEN lpad(level, 4, '0') ELSE level END),
	round(1000.0 * sum(matched) FILTER (WHERE kind = 'unrelated') / sum(pairs) FILTER (WHERE kind = 'unrelated'), 2),
	sum(pairs) FILTER (WHERE kind = 'unrelated')"
q "$rates FROM grid WHERE split = 'tune' GROUP BY name, ord, m, lang ORDER BY lang, ord, m" > "$out/grid.tsv"
q "SELECT lang, name, kind, level, pairs, matched FROM report
	ORDER BY lang, ord, m, kind, CASE WHEN level ~ '^[0-9]+%$' THEN lpad(level, 4, '0') ELSE level END" > "$out/report.tsv"
q "SELECT lang, method, param, mean_values, empty FROM sizes ORDER BY 1, 2, 3" > "$out/sizes.tsv"
q "SELECT count(*) FILTER (WHERE kind = 'original'), count(*) FILTER (WHERE kind <> 'original') FROM docs WHERE split = 'report'" > "$out/counts.tsv"
"${psql[@]}" -d postgres -c "DROP DATABASE $DB"

# --- report ------------------------------------------------------------------------------------------------
{
	echo "## Set signatures: homophones and reordered sentences"
	echo
	read -r originals copies < "$out/counts.tsv"
	echo "Reporting split: $originals documents, $copies edited copies ($(head -1 "$out/set.log"))."
	echo "Recall: share of edited copies matched with their document; false: matches per 1,000 unrelated pairs."
	echo "simhash at d <= 10, minhash at J >= 0.28 (the settings' defaults); the signatures at their defaults,"
	echo "matched when they share at least 1 or 2 values."
	for lang in zh en; do
		echo
		echo "### $lang"
		echo
		kinds=$(awk -F'\t' -v l="$lang" '$1 == l && $3 != "unrelated" { print $3 " " $4 }' "$out/report.tsv" | awk '!seen[$0]++')
		printf '| rule |'; while read -r k; do printf ' %s |' "$k"; done <<< "$kinds"; echo ' false / 1,000 (pairs) |'
		printf '|---|'; while read -r k; do printf -- '---:|'; done <<< "$kinds"; echo '---:|'
		awk -F'\t' -v l="$lang" '$1 == l {
			if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
			if ($3 == "unrelated") { fp[$2] = sprintf("%.2f (%d)", 1000 * $6 / $5, $5) }
			else { cell[$2] = cell[$2] sprintf(" %.2f |", $6 / $5) }
		} END { for (i = 1; i <= n; i++) printf "| %s |%s %s |\n", order[i], cell[order[i]], fp[order[i]] }' "$out/report.tsv"
	done
	echo
	echo "Values per document (mean over the originals, both splits; documents with none):"
	echo
	echo "| language | signature | parameters | mean values | empty |"
	echo "|---|---|---|---:|---:|"
	awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$out/sizes.tsv"
	echo
	echo "Tuning split, every configuration (recall per edit; false / 1,000; unrelated pairs):"
	echo
	echo "| rule | language | recall | false / 1,000 | pairs |"
	echo "|---|---|---|---:|---:|"
	awk -F'\t' '$1 !~ /^pinyin/ || $2 == "zh" { printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$out/grid.tsv"
} > "$out/report.md"
step "report ($out/report.md)"
cat "$out/report.md"
