#!/bin/sh
# Run the core unit tests under valgrind memcheck: any memory error or leak
# fails.  ICU's own process-lifetime objects are suppressed (valgrind.supp).
# Usage: test/unit/valgrind.sh [test name substring...]
set -e
cd "$(dirname "$0")/../.."
make -s test/unit/test_core
exec valgrind --quiet --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect,possible \
	--suppressions=test/unit/valgrind.supp \
	test/unit/test_core "$@"
