#!/bin/bash
# lock_keys.sh CORPUS.tsv [RADIUS] [PAIRS]: the share of unrelated row pairs
# that share a tracked table's lock key (docs/dedup.md, "False waits"):
# SimHash simhash_v2 with locks => 'blocks' and 'pairs', MinHash minhash_v2's
# bands.  CORPUS is bench/corpus's output (make_textlike.pl); loaded into a
# scratch table of psql's default connection (textfp 1.1 installed), the
# fingerprints exported, the pairs sampled by lock_keys.py.
set -euo pipefail
CORPUS=${1:?corpus tsv}
R=${2:-11}
N=${3:-200000}
DIR=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS lock_keys_corpus;
CREATE TABLE lock_keys_corpus (id bigint, lang text, site int, family bigint, role text, edit text, strength int,
	published_at timestamptz, body text);
\copy lock_keys_corpus FROM '$CORPUS'
\copy (SELECT id, lang, site, coalesce(family, -id), role, simhash(body, preset => 'simhash_v2')::bigint, array_to_string((minhash_values(minhash(body, preset => 'minhash_v2')))[1:39], ',') FROM lock_keys_corpus ORDER BY id) TO '$OUT/fps.tsv'
DROP TABLE lock_keys_corpus;
SQL
python3 "$DIR/lock_keys.py" "$OUT/fps.tsv" "$R" "$N"
rm -rf "$OUT"
