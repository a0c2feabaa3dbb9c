#!/bin/bash
# candidate.sh DIR NAME=OPTIONS...: SimHash fingerprint options other than simhash_v1 (candidates for a
# model-free registration preset) on the labeled sets of a finished run.sh (DIR: its output directory; the
# sets still in table st_text of the same database).  Per candidate NAME: simhash(title || E'\n' || body,
# OPTIONS) (OPTIONS as SQL arguments after the text, e.g. "'null', ngram => 2, weighting => 'binary'"), every
# pair within 24 bits as method sh (the name simulate.py gives SimHash without a model), and simulate.py over
# them at every threshold of its full grid; output in DIR/cand-NAME/ (<set>.pairs.tsv, <set>.scores.tsv,
# <set>.report.md).
# The end-to-end check is not run: textfp_track registers presets only, and simulate.py's best+orig(t) is
# the registration's rule (run.sh checks that text by text for simhash_v1).
set -euo pipefail
s_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:?usage: candidate.sh DIR NAME=OPTIONS...}; shift
export LC_ALL=C.UTF-8 LANG=C.UTF-8
psql=(psql -X -q -v ON_ERROR_STOP=1)
for c in "$@"; do
	name=${c%%=*} opts=${c#*=}
	o=$dir/cand-$name
	mkdir -p "$o"
	for s in lineages quality; do
		cp "$dir/$s.texts.tsv" "$dir/$s.minbands.tsv" "$o/"
		"${psql[@]}" <<-SQL
			SET jit = off;
			SET max_parallel_workers_per_gather = 0;
			CREATE TEMP TABLE f AS
			SELECT key, simhash(title || E'\n' || body, $opts) AS fp FROM st_text WHERE corpus = '$s';
			\copy (SELECT 'sh', x.key, y.key, hamming_distance(x.fp, y.fp), 44, 64 FROM f x JOIN f y ON x.key < y.key WHERE hamming_distance(x.fp, y.fp) <= 24 ORDER BY 2, 3) TO '$o/$s.pairs.tsv'
		SQL
		python3 "$s_dir/simulate.py" --texts "$o/$s.texts.tsv" --pairs "$o/$s.pairs.tsv" --methods sh \
			--grid full --union 'en+zh=lang:en+lang:zh' --tsv "$o/$s.scores.tsv" > "$o/$s.report.md" 2> "$o/$s.sim.log"
	done
	echo "$name: $o"
done
