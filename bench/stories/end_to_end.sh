#!/bin/bash
# end_to_end.sh: the labeled sets tracked by textfp_track() at its defaults (MinHash; method => 'simhash';
# preset => 'simhash_idf_v1'), the ARI of textfp_stories() against the labels, and a check that every
# text's story equals the simulator's best+orig(t) at the same settings (bench/stories/README.md).
#
# Usage, on a server with textfp installed (PGHOST, PGPORT, PGDATABASE, PGUSER as for psql):
#   bash bench/stories/end_to_end.sh DIR
# DIR holds lineages.tsv and quality.tsv (run.sh's sets) and pairs.sql's files for them
# (<set>.texts.tsv, <set>.pairs.tsv, <set>.minbands.tsv); end_to_end.sql writes <set>.e2e.tsv (every
# registration's stories) and <set>.e2e.scores.tsv next to them, and this script <set>.e2e.md (the
# psql output and the check).  Exit status 1 when a story differs.
# A candidate MinHash fingerprint (README, "Candidates"): MH_OPTIONS (textfp_track's options, a text[]
# literal) and MH_THRESHOLD register mh with them, sh and shi left out; pairs.sql must have made DIR's
# pairs with the same fingerprint (its mh_expr).  MH_COHESION (optional) registers it with that cohesion
# (0: off; at most the threshold, the rules simulate.py replays) and checks it against the same rule.
set -euo pipefail
s_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:?usage: end_to_end.sh DIR}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
MH_OPTIONS=${MH_OPTIONS:-}
MH_THRESHOLD=${MH_THRESHOLD:-0.46875}
MH_COHESION=${MH_COHESION:-}
cand=()
coh=()
rules='best+orig(0.46875),best+orig(11),best+orig(13)'
if [[ -n $MH_OPTIONS ]]; then
	cand=(-v mh_options="$MH_OPTIONS" -v mh_threshold="$MH_THRESHOLD")
	rules="best+orig($(python3 -c "print(f'{float(\"$MH_THRESHOLD\"):g}')"))"
	if [[ -n $MH_COHESION ]]; then
		# the registration's cohesion (0: off): the simulator's best (off) or best+orig(c), c <= t
		cand+=(-v mh_cohesion="$MH_COHESION")
		coh=(--mh-cohesion "$MH_COHESION")
		rules=$(python3 -c "c = float('$MH_COHESION'); print('best' if c == 0 else f'best+orig({c:g})')")
	fi
fi
status=0
for c in lineages quality; do
	[[ -f $dir/$c.tsv ]] || continue
	psql -X -q -v ON_ERROR_STOP=1 -v corpus="$c" -v out="$dir" "${cand[@]}" -f "$s_dir/end_to_end.sql" < "$dir/$c.tsv" \
		> "$dir/$c.e2e.md" 2>&1
	if ! python3 "$s_dir/simulate.py" --texts "$dir/$c.texts.tsv" --pairs "$dir/$c.pairs.tsv" \
		--minbands "$dir/$c.minbands.tsv" --grid default --rules "$rules" --mh-threshold "$MH_THRESHOLD" \
		"${coh[@]}" --groups all --check "$dir/$c.e2e.tsv" >> "$dir/$c.e2e.md" 2> "$dir/$c.e2e.err"; then
		status=1
	fi
	echo "$c: $dir/$c.e2e.md"
done
exit $status
