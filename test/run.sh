#!/usr/bin/env bash
# test/run.sh: the whole textfp test suite in one command, as root on a fresh
# Debian 12 machine from a clean clone:
#
#     bash test/run.sh
#
# Installs missing build and test dependencies (apt), builds and installs the
# extension, then runs the static check of the extension scripts
# (scripts/check_scripts.pl), the C unit tests (make unittest), the pg_regress tests
# (make installcheck in a throwaway cluster made by pg_virtualenv, which also
# runs the isolation specs in specs/ with pg_isolation_regress) and the TAP
# tests in test/t/ (prove, as an unprivileged user, since initdb refuses root).
#
# Every unit case, regression test, isolation spec and TAP file counts as one
# test, and so do the static check of the scripts and its self-test.  The last
# line of output is always "N passed, M failed", and the exit status is
# non-zero when anything failed, including the build or a step that ran no
# tests at all.
#
# Environment:
#   TEXTFP_TEST_USER   unprivileged user for the TAP tests (default textfp_test)
#   TEXTFP_KEEP_TMP=1  keep the TAP work directory even when everything passed
#   PROVE_FLAGS        extra flags for prove, e.g. --verbose
#   TEXTFP_UNIT_TIMEOUT, TEXTFP_REGRESS_TIMEOUT, TEXTFP_TAP_TIMEOUT
#                      time limits in seconds for make unittest, for
#                      make installcheck and for each TAP file

set -u -o pipefail

PG_MAJOR=15
PGBIN=/usr/lib/postgresql/$PG_MAJOR/bin
PG_CONFIG=$PGBIN/pg_config
PGXS_DIR=/usr/lib/postgresql/$PG_MAJOR/lib/pgxs
TAP_USER=${TEXTFP_TEST_USER:-textfp_test}

# postgresql-15-plpgsql-check: sql/plpgsql_lint.sql lints textfp's PL/pgSQL
# with it (required, not optional, so that the lint never silently skips;
# Debian 12 ships it next to postgresql-15).
REQUIRED_PKGS="build-essential pkg-config postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR
	libicu-dev libxxhash-dev libipc-run-perl debian-reference-en debian-reference-zh-cn
	postgresql-$PG_MAJOR-plpgsql-check"
OPTIONAL_PKGS="postgresql-$PG_MAJOR-pgtap"

# Time limits per step, so that a hang still ends in a summary line.
UNIT_TIMEOUT=${TEXTFP_UNIT_TIMEOUT:-300}
REGRESS_TIMEOUT=${TEXTFP_REGRESS_TIMEOUT:-900}
TAP_FILE_TIMEOUT=${TEXTFP_TAP_TIMEOUT:-600}

cd "$(dirname "${BASH_SOURCE[0]}")/.." || { echo "cannot cd to the repository"; echo "0 passed, 1 failed"; exit 1; }
ROOT=$(pwd)
export LC_ALL=C.UTF-8 LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive
unset LANGUAGE

PASSED=0
FAILED=0
FAILURES=()
LOGDIR=$(mktemp -d /tmp/textfp-run.XXXXXX)
TAPDIR=
TAP_FAILED=0
START_TIME=$SECONDS
FINISHED=0

# Stops any cluster a killed TAP test left running, then removes the work
# directory unless something failed (or TEXTFP_KEEP_TMP is set).
cleanup_tap()
{
	[ -n "$TAPDIR" ] && [ -d "$TAPDIR" ] || return 0
	local pidfile
	for pidfile in "$TAPDIR"/tmp_check/t_*_data/pgdata/postmaster.pid; do
		[ -f "$pidfile" ] || continue
		set_tap_cmd
		"${TAP_CMD[@]}" "$PGBIN/pg_ctl" stop -m immediate -D "$(dirname "$pidfile")" >/dev/null 2>&1
	done
	if [ "$TAP_FAILED" = 0 ] && [ -z "${TEXTFP_KEEP_TMP:-}" ]; then
		rm -rf "$TAPDIR"
	else
		echo "TAP work directory kept: $TAPDIR"
	fi
	TAPDIR=
}

# Sets TAP_CMD to the command prefix that runs a program as the TAP user
# (when root) with the environment prove_installcheck in pgxs's
# Makefile.global gives the TAP tests.  An array, so timeout can run it.
set_tap_cmd()
{
	TAP_CMD=()
	[ "$(id -u)" -eq 0 ] && TAP_CMD=(runuser -u "$TAP_USER" --)
	TAP_CMD+=(env
		HOME="$TAPDIR"
		PATH="$PGBIN:/usr/local/bin:/usr/bin:/bin"
		PERL5LIB="$PGXS_DIR/src/test/perl${PERL5LIB:+:$PERL5LIB}"
		PG_REGRESS="$PGXS_DIR/src/test/regress/pg_regress"
		TESTDIR="$TAPDIR"
		TMPDIR="$TAPDIR/tmp"
		PG_TEST_PORT_DIR="$TAPDIR"
		TEXTFP_V10_DIR="$TAPDIR/v10"
		LC_ALL=C.UTF-8 LANG=C.UTF-8)
}

# The textfp 1.0 release, built from git history for test/t/004_upgrade.pl,
# which runs it under data and then swaps in this build.  Without the
# history (a shallow clone, an export) that test skips.
V10_COMMIT=542e7bc27cb7ac8cdf51f3d51ea23f217421cd54
build_v10()
{
	local dir=$TAPDIR/v10
	mkdir -p "$dir/src"
	if ! git -C "$ROOT" cat-file -e "$V10_COMMIT^{commit}" 2>/dev/null; then
		echo "textfp 1.0 ($V10_COMMIT) is not in this clone's history: 004_upgrade will skip"
		return 0
	fi
	if git -C "$ROOT" archive "$V10_COMMIT" | tar -x -C "$dir/src" &&
		pgmake -C "$dir/src" -j"$(nproc)" > "$dir/build.log" 2>&1 &&
		cp "$dir/src/textfp.so" "$dir/src/textfp.control" "$dir/src/textfp--1.0.sql" "$dir/"; then
		echo "built textfp 1.0 ($V10_COMMIT) for the upgrade test"
	else
		fail "tap: building textfp 1.0 for the upgrade test (log: $dir/build.log)"
		TAP_FAILED=1
	fi
}

pass() { PASSED=$((PASSED + 1)); }
fail() { FAILED=$((FAILED + 1)); FAILURES+=("$1"); }

step() { printf '\n==== %s ==== (%d s)\n' "$*" $((SECONDS - START_TIME)); }

# Prints the failures, the run time and, as the very last line, the summary;
# then exits.  Also runs on an unexpected exit (the trap), which then counts
# as a failure of its own.
finish()
{
	local rc=$?
	trap - EXIT INT TERM
	[ "$FINISHED" = 1 ] && return
	FINISHED=1
	if [ "${1:-}" != normal ]; then
		fail "test/run.sh ended early (status $rc)"
	fi
	cleanup_tap
	rm -rf "$LOGDIR"
	step "summary"
	if [ "${#FAILURES[@]}" -gt 0 ]; then
		echo "failed:"
		printf '  %s\n' "${FAILURES[@]}"
	fi
	echo "total time: $((SECONDS - START_TIME)) s"
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ] && exit 0
	exit 1
}
trap finish EXIT
trap 'exit 130' INT TERM

# Like `cat`, but at most $1 lines, saying so when it cuts.
show_head()
{
	local max=$1 file=$2 n
	n=$(wc -l < "$file")
	head -n "$max" "$file"
	[ "$n" -gt "$max" ] && echo "... ($((n - max)) more lines in $file)"
	return 0
}

# --------------------------------------------------------------------------
# dependencies
# --------------------------------------------------------------------------

is_installed()
{
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

install_dependencies()
{
	local missing=() optional=() p
	for p in $REQUIRED_PKGS; do is_installed "$p" || missing+=("$p"); done
	for p in $OPTIONAL_PKGS; do is_installed "$p" || optional+=("$p"); done
	if [ "${#missing[@]}" -eq 0 ] && [ "${#optional[@]}" -eq 0 ]; then
		echo "all packages present"
		return 0
	fi
	echo "missing: ${missing[*]} ${optional[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "not root: cannot install packages"
		[ "${#missing[@]}" -eq 0 ]
		return
	fi
	apt-get update || { echo "apt-get update failed"; [ "${#missing[@]}" -eq 0 ]; return; }
	# Optional packages only when the archive has them.
	for p in "${optional[@]}"; do
		if apt-cache show "$p" >/dev/null 2>&1; then
			missing+=("$p")
		else
			echo "optional package $p not available; continuing without it"
		fi
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	apt-get install -y --no-install-recommends "${missing[@]}"
}

step "dependencies"
if ! install_dependencies; then
	fail "dependencies: could not install required packages"
	finish normal
fi
for tool in "$PG_CONFIG" "$PGBIN/postgres" pg_virtualenv prove runuser; do
	if ! command -v "$tool" >/dev/null; then
		fail "dependencies: $tool not found"
		finish normal
	fi
done
echo "$("$PG_CONFIG" --version), $(gcc --version | head -n 1)"

# Run make with the PostgreSQL 15 pg_config even when other majors are installed.
pgmake() { make --no-print-directory PG_CONFIG="$PG_CONFIG" "$@"; }

# --------------------------------------------------------------------------
# build and install
# --------------------------------------------------------------------------

BUILD_OK=1
step "build: make"
if pgmake -j"$(nproc)" 2>&1 | tee "$LOGDIR/build.log"; then
	nwarn=$(grep -c 'warning:' "$LOGDIR/build.log")
	echo "build ok ($nwarn warnings)"
else
	echo "BUILD FAILED"
	fail "build (make)"
	BUILD_OK=0
fi

if [ "$BUILD_OK" = 1 ]; then
	step "install: make install"
	if ! pgmake install 2>&1 | tee "$LOGDIR/install.log"; then
		echo "INSTALL FAILED"
		fail "install (make install)"
		BUILD_OK=0
	fi
fi

# --------------------------------------------------------------------------
# C unit tests: test/unit/test_core prints "ok N - name" / "not ok N - name"
# --------------------------------------------------------------------------

# Counts TAP lines of a log into the totals; each case is one test.
# "not ok ... # TODO" counts as passed, as in TAP.  Sets TAP_OK, TAP_NOTOK.
count_tap_lines()
{
	local log=$1 prefix=$2 line name
	TAP_OK=0 TAP_NOTOK=0 TAP_PLAN=
	while IFS= read -r line; do
		case $line in
		"ok "[0-9]*)
			TAP_OK=$((TAP_OK + 1)); pass ;;
		"not ok "[0-9]*)
			name=${line#not ok }
			if [[ $line == *"# TODO"* ]]; then
				TAP_OK=$((TAP_OK + 1)); pass
			else
				TAP_NOTOK=$((TAP_NOTOK + 1)); fail "$prefix: $name"
			fi ;;
		1..[0-9]*)
			TAP_PLAN=${line#1..}; TAP_PLAN=${TAP_PLAN%%[!0-9]*} ;;
		esac
	done < "$log"
}

# --------------------------------------------------------------------------
# static check of the extension scripts (scripts/check_scripts.pl): what a
# trusted install or update runs as the bootstrap superuser names every
# operator and function with its schema; textfp--1.1.sql is up to date.
# Its self-test (each rule fires on a bad snippet) and the check count as
# one test each.
# --------------------------------------------------------------------------

step "scripts: perl scripts/check_scripts.pl"
if perl scripts/check_scripts.pl --self-test > "$LOGDIR/check_scripts_self.log" 2>&1; then
	tail -n 1 "$LOGDIR/check_scripts_self.log"
	pass
else
	cat "$LOGDIR/check_scripts_self.log"
	fail "scripts: check_scripts.pl --self-test"
fi
if perl scripts/check_scripts.pl 2>&1 | tee "$LOGDIR/check_scripts.log"; then
	pass
else
	fail "scripts: check_scripts.pl ($(tail -n 1 "$LOGDIR/check_scripts.log"))"
fi

step "unit tests: make unittest"
timeout "$UNIT_TIMEOUT" make --no-print-directory PG_CONFIG="$PG_CONFIG" unittest 2>&1 | tee "$LOGDIR/unit.log"
unit_rc=${PIPESTATUS[0]}
[ "$unit_rc" -eq 124 ] && fail "unit: timed out after $UNIT_TIMEOUT s"
count_tap_lines "$LOGDIR/unit.log" "unit"
unit_ran=$((TAP_OK + TAP_NOTOK))
echo "unit: $TAP_OK passed, $TAP_NOTOK failed (make unittest exit status $unit_rc)"
if [ "$unit_ran" -eq 0 ]; then
	fail "unit: no unit cases ran (make unittest exit status $unit_rc)"
else
	if [ -n "$TAP_PLAN" ] && [ "$TAP_PLAN" -ne "$unit_ran" ]; then
		fail "unit: planned $TAP_PLAN cases but $unit_ran ran"
	fi
	if [ "$unit_rc" -ne 0 ] && [ "$TAP_NOTOK" -eq 0 ]; then
		fail "unit: make unittest exited with status $unit_rc"
	fi
fi

# --------------------------------------------------------------------------
# pg_regress tests, in a throwaway cluster
# --------------------------------------------------------------------------

# The REGRESS list from the Makefile, to notice tests that never ran.
regress_list()
{
	pgmake -s -f Makefile -f - print-regress-list <<'EOF' 2>/dev/null
print-regress-list:
	@echo $(REGRESS) $(PROBE_REGRESS) $(ISOLATION)
EOF
}

# A TCP port nothing listens on and no socket file claims, so the throwaway
# cluster does not collide with a server (or another test run) on 5432.
free_port()
{
	local port tries
	for tries in $(seq 1 100); do
		port=$((20000 + RANDOM % 30000))
		[ -e "/var/run/postgresql/.s.PGSQL.$port" ] && continue
		[ -e "/tmp/.s.PGSQL.$port" ] && continue
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
		echo "$port"
		return 0
	done
	echo 5432
}

if [ "$BUILD_OK" = 1 ]; then
	step "regression tests: pg_virtualenv make installcheck"
	rm -f regression.diffs regression.out
	rm -rf output_iso
	# -t: a private temporary cluster even as root (as root pg_virtualenv
	# otherwise uses /etc/postgresql/15/regress, and two runs collide).
	# TAP_TESTS= : should the Makefile ever turn TAP tests on, installcheck
	# must not run them as root; they run below, as an unprivileged user.
	# Then the isolation specs (on their own, so that they run even when a
	# regression test failed) and the probe pass (crash reproductions, bad
	# input) on the same cluster: should it take the server down, the main
	# tests have run.
	PGPORT=$(free_port) timeout "$REGRESS_TIMEOUT" pg_virtualenv -t -v "$PG_MAJOR" \
		sh -c 'make --no-print-directory PG_CONFIG="$1" installcheck TAP_TESTS= ISOLATION=; rc=$?;
			cp regression.diffs regression.diffs.main 2>/dev/null;
			make --no-print-directory PG_CONFIG="$1" installcheck-isolation || rc=1;
			make --no-print-directory PG_CONFIG="$1" installcheck-probe || rc=1;
			[ -f regression.diffs.main ] && cat regression.diffs.main >> regression.diffs;
			rm -f regression.diffs.main; exit $rc' sh "$PG_CONFIG" 2>&1 \
		| tee "$LOGDIR/regress.log"
	regress_rc=${PIPESTATUS[0]}
	[ "$regress_rc" -eq 124 ] && fail "regress: timed out after $REGRESS_TIMEOUT s"

	declare -A regress_seen=()
	regress_ok=0 regress_bad=0
	# PG15: "test name ... ok  12 ms", or in a parallel group
	# "     name ... ok  12 ms"; "... FAILED" or "... failed (ignored)".
	# Later majors print TAP: "ok 1  - name  12 ms" / "not ok 1 - name".
	in_tests=0
	while IFS= read -r line; do
		case $line in *"running regression test queries"*) in_tests=1; continue ;; esac
		if [ "$in_tests" = 1 ] && [[ $line =~ ^(test[[:space:]]+|[[:space:]]+)?([^[:space:]]+)[[:space:]]+\.\.\.[[:space:]]+(ok|FAILED|failed\ \(ignored\))(.*)$ ]]; then
			name=${BASH_REMATCH[2]} result=${BASH_REMATCH[3]} rest=${BASH_REMATCH[4]}
		elif [[ $line =~ ^(ok|not\ ok)\ +[0-9]+\ +[-+]\ +([^[:space:]]+)(.*)$ ]]; then
			name=${BASH_REMATCH[2]} result=${BASH_REMATCH[1]} rest=${BASH_REMATCH[3]}
		else
			continue
		fi
		regress_seen[$name]=1
		case $result in
		ok|"failed (ignored)") regress_ok=$((regress_ok + 1)); pass ;;
		*)
			regress_bad=$((regress_bad + 1))
			rest=$(echo $rest | sed -E 's/ *[0-9]+ ms$//')
			fail "regress: $name${rest:+ $rest}" ;;
		esac
	done < "$LOGDIR/regress.log"

	expected_tests=$(regress_list)
	missing_tests=0
	for t in $expected_tests; do
		if [ -z "${regress_seen[$t]:-}" ]; then
			missing_tests=$((missing_tests + 1))
			fail "regress: $t (did not run)"
		fi
	done
	echo "regress: $regress_ok passed, $regress_bad failed, $missing_tests did not run (exit status $regress_rc)"
	if [ $((regress_ok + regress_bad)) -eq 0 ] && [ "$missing_tests" -eq 0 ]; then
		fail "regress: no regression tests ran (exit status $regress_rc)"
	elif [ "$regress_rc" -ne 0 ] && [ "$regress_bad" -eq 0 ] && [ "$missing_tests" -eq 0 ]; then
		fail "regress: pg_virtualenv make installcheck exited with status $regress_rc"
	fi
	if [ -s regression.diffs ]; then
		step "regression.diffs"
		show_head 2000 regression.diffs
	fi
	if [ -s output_iso/regression.diffs ]; then
		step "output_iso/regression.diffs (isolation specs)"
		show_head 2000 output_iso/regression.diffs
	fi
else
	step "regression tests: skipped, the build failed"
fi

# --------------------------------------------------------------------------
# TAP tests (test/t/*.pl), each file one test
# --------------------------------------------------------------------------

run_tap_tests()
{
	local files=() f name rc log
	for f in test/t/*.pl; do [ -f "$f" ] && files+=("$f"); done
	if [ "${#files[@]}" -eq 0 ]; then
		fail "tap: no TAP test files in test/t"
		return
	fi

	TAPDIR=$(mktemp -d /tmp/textfp-tap.XXXXXX)
	if [ "$(id -u)" -eq 0 ]; then
		if ! id "$TAP_USER" >/dev/null 2>&1; then
			echo "creating user $TAP_USER"
			useradd --system --user-group --no-create-home --home-dir /nonexistent \
				--shell /usr/sbin/nologin "$TAP_USER" || { fail "tap: cannot create user $TAP_USER"; return; }
		fi
	fi
	# A copy of the tree the unprivileged user owns (the tests may read data
	# files from it); build products and git history are left behind.
	mkdir -p "$TAPDIR/src" "$TAPDIR/tmp"
	tar -C "$ROOT" --exclude=./.git --exclude=./results --exclude=./tmp_check --exclude=./bench/out \
		--exclude='*.o' --exclude='*.so' --exclude='*.bc' -cf - . | tar -C "$TAPDIR/src" -xf - \
		|| { fail "tap: cannot copy the tree to $TAPDIR"; return; }
	build_v10
	[ "$(id -u)" -eq 0 ] && chown -R "$TAP_USER:" "$TAPDIR"
	set_tap_cmd

	for f in "${files[@]}"; do
		name=$(basename "$f" .pl)
		echo "--- $f"
		# As prove_installcheck in pgxs's Makefile.global does it.
		(cd "$TAPDIR/src" && timeout "$TAP_FILE_TIMEOUT" "${TAP_CMD[@]}" prove \
			-I "$PGXS_DIR/src/test/perl" -I . ${PROVE_FLAGS:-} "$f") 2>&1 | tee "$LOGDIR/tap_$name.log"
		rc=${PIPESTATUS[0]}
		if [ "$rc" -eq 0 ]; then
			pass
		else
			TAP_FAILED=1
			if [ "$rc" -eq 124 ]; then
				fail "tap: $f (timed out after $TAP_FILE_TIMEOUT s)"
			else
				fail "tap: $f (prove exit status $rc)"
			fi
			log="$TAPDIR/tmp_check/log/regress_log_$name"
			if [ -f "$log" ]; then
				echo "--- last lines of $log:"
				tail -n 150 "$log"
			fi
		fi
	done
}

if [ "$BUILD_OK" = 1 ]; then
	step "TAP tests: prove test/t/*.pl"
	run_tap_tests
else
	step "TAP tests: skipped, the build failed"
fi

finish normal
