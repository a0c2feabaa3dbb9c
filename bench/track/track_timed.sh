#!/bin/bash
# track_timed.sh: one statement through call.sql (wall, backend CPU, VmHWM into tk_result under METHOD and
# STEP), every NOTICE line stamped with the client's UTC time on arrival, so that a phase's time is the gap
# between its NOTICEs; and the registration's progress row (state, phase, done, total) polled every POLL s
# into OUT.progress.
#
#   DB=tk METHOD=n1s3 STEP=textfp_track CFG=tk_docs_textfp_config OUT=/tmp/x \
#       bash bench/track/track_timed.sh "CALL textfp_track(...)"
set -euo pipefail
t_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=${DB:?DB} METHOD=${METHOD:?METHOD} STEP=${STEP:?STEP} OUT=${OUT:?OUT} POLL=${POLL:-30}
call=${1:?the statement}
export LC_ALL=C.UTF-8 LANG=C.UTF-8 PGCLIENTENCODING=UTF8
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date -u +%H:%M:%S.%N | cut -c1-12)" "$l"; done; }
if [[ -n ${CFG:-} ]]; then
	( while sleep "$POLL"; do
		psql -X -At -F' ' -d "$DB" -c "SELECT clock_timestamp()::time(0), state, phase, done, total FROM $CFG" 2>/dev/null || true
		echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
	done > "$OUT.progress" ) &
	poller=$!
	trap 'kill $poller' EXIT
fi
echo "start $(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg)" | stamp
psql -X -d "$DB" -v method="$METHOD" -v step="$STEP" -v call="$call" -f "$t_dir/call.sql" 2>&1 | stamp
psql -X -At -d "$DB" -c "SELECT item, value FROM tk_result WHERE method = '$METHOD' AND item LIKE '$STEP %' ORDER BY at DESC LIMIT 4" | stamp
echo "end, load $(cut -d' ' -f1-3 /proc/loadavg)" | stamp
