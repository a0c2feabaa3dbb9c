#!/bin/bash
# gen_pinyin_reference.sh: regenerates src/core/pinyin_reference.c, the frozen
# pinyin first-letter distribution of pinyin_signature(), from the Chinese
# manual pages of Debian 12's manpages-zh (1.6.4.0-1, /usr/share/man/zh_CN).
# Run as root from the top of the source tree; prints the C file (compare it
# with the committed one: the table is frozen, a new one would be new data).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=ensure_packages.sh
source scripts/ensure_packages.sh
ensure_packages manpages-zh >&2
core=$(ls src/core/*.c)
tool=$(mktemp -d)/pinyin_reference
# shellcheck disable=SC2086
cc -O1 -std=c99 -D_GNU_SOURCE -Isrc/core -o "$tool" scripts/pinyin_reference.c $core \
	$(pkg-config --libs icu-i18n icu-uc) -lm
# every page, in file-name order, as one stream of lines
find /usr/share/man/zh_CN -name '*.gz' -type f | LC_ALL=C sort | xargs zcat | "$tool"
rm -rf "$(dirname "$tool")"
