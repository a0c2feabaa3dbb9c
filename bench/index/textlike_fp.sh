#!/bin/bash
# textlike_fp.sh: the fingerprints of a text-like corpus too large to keep (10M documents are
# 28 GB of text): bench/corpus/make_textlike.pl streams its documents into a table that keeps
# only (id, simhash(body)), through a trigger, and the result is written as the file that
# bench/index/run.sh reads instead of fingerprinting a corpus (<corpus>.fp, one "id<TAB>fp" a
# line).  The documents are the same as the corpus file of the same N would hold.
#
# Usage:  bash bench/index/textlike_fp.sh OUT.fp      (N and the other parameters of
#         make_textlike.pl in the environment; psql's connection from PG* variables, to a
#         database with textfp available)
# Then:   TEXTLIKE_CORPUS=OUT DATASETS="... textlike" bash bench/index/run.sh
#         (OUT without .fp: run.sh finds OUT.fp and never reads OUT)
set -euo pipefail

out=${1:?usage: textlike_fp.sh OUT.fp}
[[ $out == *.fp ]] || { echo "textlike_fp.sh: the output's name ends in .fp" >&2; exit 1; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
psql=(psql -X -q -v ON_ERROR_STOP=1)
table=textlike_fp_$$

"${psql[@]}" <<SQL
CREATE EXTENSION IF NOT EXISTS textfp;
CREATE UNLOGGED TABLE $table (id bigint, lang text, site int, family bigint, role text, edit text,
	strength int, published_at timestamptz, body text, fp simhash64);
CREATE FUNCTION ${table}_keep_fp() RETURNS trigger LANGUAGE plpgsql AS \$\$
BEGIN
	NEW.fp := simhash(NEW.body);
	NEW.body := NULL;
	RETURN NEW;
END \$\$;
CREATE TRIGGER keep_fp BEFORE INSERT ON $table FOR EACH ROW EXECUTE FUNCTION ${table}_keep_fp();
SQL
perl "$repo/bench/corpus/make_textlike.pl" |
	"${psql[@]}" -c "COPY $table (id, lang, site, family, role, edit, strength, published_at, body) FROM STDIN"
"${psql[@]}" -c "COPY (SELECT id, fp FROM $table ORDER BY id) TO STDOUT" > "$out.part"
"${psql[@]}" -c "DROP TABLE $table; DROP FUNCTION ${table}_keep_fp()"
mv "$out.part" "$out"
echo "textlike_fp.sh: $(wc -l < "$out") fingerprints in $out" >&2
