#!/bin/bash
# Build the libFuzzer targets for src/core and run each for a bounded time.
#
#   test/fuzz/run.sh [-b] [-t SECONDS] [TARGET...]
#     -b          build only
#     -t SECONDS  run time per target (default: $FUZZ_TIME or 60)
#     TARGET      fuzz_pipeline, fuzz_hex, fuzz_minhash, fuzz_formats, fuzz_pieces,
#                 fuzz_lsh (default: all)
#   test/fuzz/run.sh -r TARGET FILE...   re-run inputs (e.g. a crash-* file)
#
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev).  Builds go
# to test/fuzz/build/ (or $FUZZ_OUT); the corpus grown there is kept between
# runs, seeds are regenerated from this script every time.  Crashes are saved
# as build/artifacts/crash-*; the script exits non-zero if any target failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${FUZZ_OUT:-$here/build}
time_per_target=${FUZZ_TIME:-60}
build_only=0
rerun=0
all_targets=(fuzz_pipeline fuzz_hex fuzz_minhash fuzz_formats fuzz_pieces fuzz_lsh)

while getopts "bt:r" opt; do
	case $opt in
		b) build_only=1 ;;
		t) time_per_target=$OPTARG ;;
		r) rerun=1 ;;
		*) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

CC=${CC:-clang}
SAN=${FUZZ_SANITIZE:-fuzzer,address,undefined}
CFLAGS=(-g -O1 -std=c99 -Wall -Wextra -Wno-unused-parameter
	"-fsanitize=$SAN" -fno-sanitize-recover=all -fno-omit-frame-pointer
	-I"$root/src/core")
LIBS=($(pkg-config --libs icu-i18n icu-uc 2>/dev/null || echo -licui18n -licuuc -licudata) -lm)
core_srcs=("$root"/src/core/*.c)

build() {
	local t=$1
	mkdir -p "$out"
	if [[ ! -x $out/$t || -n $(find "$here" "$root/src/core" -newer "$out/$t" \
			\( -name '*.c' -o -name '*.h' \) -print -quit) ]]; then
		echo "building $t"
		"$CC" "${CFLAGS[@]}" -o "$out/$t" "$here/$t.c" "${core_srcs[@]}" "${LIBS[@]}"
	fi
}

# Seeds: option header bytes (see fuzz_pipeline.c) followed by text.
seed() {
	local dir=$1 name=$2 header=$3 text=$4
	{ printf "$header"; printf '%s' "$text"; } > "$dir/$name"
}

seeds_fuzz_pipeline() {
	local d=$out/seeds/fuzz_pipeline
	rm -rf "$d" && mkdir -p "$d"
	#           ngram shingle flags seed failafter
	seed "$d" en        '\001\000\014\000\000' 'The quick brown fox jumps over the lazy dog'
	seed "$d" zh        '\001\000\014\000\000' '今天天气很好，我们去公园散步吧。'
	seed "$d" zh_hant   '\001\001\016\000\000' '這個國家的經濟發展很快，人民生活水平不斷提高。'
	seed "$d" mixed_icu '\001\000\015\052\000' 'Apple 发布了新款 iPhone 16，售价 5999 元起。'
	seed "$d" fullwidth '\002\002\000\000\000' 'ＰｏｓｔｇｒｅＳＱＬ　数据库　２０２６年　版本１５'
	seed "$d" ja        '\007\003\020\000\000' '東京は日本の首都です。カタカナとひらがな。ｶﾀｶﾅ'
	seed "$d" ko        '\000\000\040\000\000' '서울은 대한민국의 수도입니다. 가나다라'
	seed "$d" marks     '\001\000\000\000\000' 'q̇x naïve हिन्दी 今̇天 ﬁ Straße ①Ǆ'
	seed "$d" symbols   '\001\000\014\000\000' '!!! ??? ... ★☆ 🎉 $100 ©2026 〇〆々'
	seed "$d" expand    '\001\000\002\000\000' 'ﷺﷺﷺ 繁體'
	seed "$d" oom       '\001\001\157\003\003' 'foo bar foo 今天天气 hello 世界'
	seed "$d" ext_b     '\002\000\000\000\000' '𠀀𠀁𠀂 𪜀'
	printf '\001\000\000\000\000abc\377def\355\240\200' > "$d/bad_utf8"
	printf '\001\000\000\000\000' > "$d/empty"
	# a CJK run longer than the tokenizer's first offset buffer (256)
	{ printf '\001\000\000\000\000'; for i in $(seq 300); do printf '今天'; done; } > "$d/long_cjk"

	# dictionary: pieces the mutator would rarely build byte by byte
	cat > "$out/fuzz_pipeline.dict" <<'DICT'
"\xe4\xbb\x8a"
"\xe5\xa4\xa9"
"\xe9\xab\x94"
"\xe5\x9c\x8b"
"\xe6\x88\x91\xe4\xbb\xac"
"\xea\xb0\x80"
"\xe3\x82\xab"
"\xe3\x83\xbc"
"\xe3\x83\xbb"
"\xef\xbd\xb6"
"\xef\xbc\xa1"
"\xe3\x80\x80"
"\xe3\x80\x81"
"\xef\xbc\x8c"
"\xef\xb7\xba"
"\xcc\x87"
"\xcc\x81"
"\xc3\x9f"
"\xef\xac\x81"
"\xc7\x84"
"\xc2\xad"
"\xe2\x80\x8d"
"\xe0\xa4\xbf"
"\xf0\xa0\x80\x80"
"\xf0\x9f\x98\x80"
"\xed\xa0\x80"
"the"
"fox"
"iphone"
" "
DICT
}

seeds_fuzz_minhash() {
	local d=$out/seeds/fuzz_minhash
	rm -rf "$d" && mkdir -p "$d"
	#                k (2 bytes)  flags seed
	printf '\177\000\000\000' > "$d/empty_oph"
	printf '\177\000\001\007' > "$d/empty_kperm"
	printf '\177\000\000\000\001\000\000\000\000\000\000\000\002\000\000\000\000\000\000\000' > "$d/two_items"
	printf '\377\003\000\011abcdefghijklmnopqrstuvwx' > "$d/k1024"
	{ printf '\177\000\002\000'; printf '%s' 'Reprinted stories keep most words. 转载的新闻保留了大部分字词。'; } > "$d/text"
	{ printf '\077\000\003\005'; printf '%s' 'The quick brown fox jumps over the lazy dog'; } > "$d/text_kperm"
	{ printf '\177\000\006\002'; printf '%s' 'foo bar 今天天气 hello 世界'; } > "$d/text_oom"
}

seeds_fuzz_hex() {
	local d=$out/seeds/fuzz_hex
	rm -rf "$d" && mkdir -p "$d"
	printf '84048682805292e3' > "$d/lower"
	printf '0123456789ABCDEF' > "$d/upper"
	printf 'ffffffffffffffff' > "$d/max"
	printf '0123456789abcdeg' > "$d/bad_digit"
	printf '0123456789abcdef0' > "$d/too_long"
	printf '\000\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017' > "$d/binary"
}

seeds_fuzz_formats() {
	local d=$out/seeds/fuzz_formats
	rm -rf "$d" && mkdir -p "$d"
	printf '0123456789abcdef/7' > "$d/ball"
	printf '0123456789ABCDEF/64' > "$d/ball_max"
	printf '0123456789abcdef/65' > "$d/ball_range"
	printf 'oph32:k=2:seed=-5:pipe=820db166:0000000100000002' > "$d/sig"
	printf 'kperm32:k=1:seed=9223372036854775807:pipe=00000000:FFFFFFFF' > "$d/sig_kperm"
	printf 'oph32:k=0:seed=0:pipe=00000000:' > "$d/sig_k0"
	printf 'oph32:k=1025:seed=0:pipe=00000000:' > "$d/sig_k1025"
	printf '\001\040\000\002\202\015\261\146\000\000\000\000\000\000\000\005\000\000\000\001\000\000\000\002' > "$d/sig_binary"
	printf '\001\040\004\001' > "$d/sig_binary_short"
	printf '0.5' > "$d/t_half"
	printf 'NaN' > "$d/t_nan"
	printf '%s' '-Infinity' > "$d/t_inf"
	printf '1e400' > "$d/t_overflow"
	printf '0x1p-1' > "$d/t_hex"
}

seeds_fuzz_pieces() {
	local d=$out/seeds/fuzz_pieces
	rm -rf "$d" && mkdir -p "$d"
	#   piece flags
	seed "$d" trad     '\010\001' '茶餘飯後，甚麼瞭解關係聯繫這個國家的經濟發展很快'
	seed "$d" icu      '\020\002' '我们今天讨论系统管理软件包。Debian 的 apt-get 很好用，don'"'"'t 3.14'
	seed "$d" marks    '\030\000' 'é naïve q̇x ﬁ Straße ﷺ á̂̃̄'
	seed "$d" thai     '\014\002' 'ภาษาไทยง่ายนิดเดียว カタカナ はい'
	seed "$d" mainland '\010\004' '網路上的芳鄰程式設計師，這套軟體的檔案是互動式的 ＳＱＬ隱碼攻擊 乾隆年間 程序员 文件'
}

seeds_fuzz_lsh() {
	local d=$out/seeds/fuzz_lsh
	rm -rf "$d" && mkdir -p "$d"
	printf 'bands=20,rows=5,min_bands=1' > "$d/params"
	printf 'bands=32,rows=4,min_bands=2' > "$d/params_m2"
	printf 'bands=020,rows=5,min_bands=1' > "$d/leading_zero"
	printf 'bands=9999999999,rows=5,min_bands=1' > "$d/too_long"
	printf '\077abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' > "$d/sig"
	printf '\000' > "$d/k1"
}

run() {
	local t=$1 rc=0
	local corpus=$out/corpus/$t
	mkdir -p "$corpus" "$out/artifacts"
	echo "== $t: ${time_per_target}s"
	local dict=()
	[[ -f $out/$t.dict ]] && dict=(-dict="$out/$t.dict")
	"$out/$t" -max_total_time="$time_per_target" -max_len=4096 -timeout=20 "${dict[@]}" \
		-rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$out/artifacts/" "$corpus" "$out/seeds/$t" \
		> "$out/$t.log" 2>&1 || rc=$?
	grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|.*invariant failed|.*runtime error)' \
		"$out/$t.log" || true
	if [[ $rc -ne 0 ]]; then
		echo "!! $t failed (exit $rc); log: $out/$t.log"
		tail -40 "$out/$t.log"
	fi
	return $rc
}

if [[ $rerun -eq 1 ]]; then
	t=${1:?target}
	shift
	build "$t"
	exec "$out/$t" "$@"
fi

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
	[[ -f $here/$t.c ]] || { echo "no such target: $t" >&2; exit 2; }
	build "$t"
done
[[ $build_only -eq 1 ]] && exit 0

failed=0
for t in "${targets[@]}"; do
	"seeds_$t"
	run "$t" || failed=1
done
exit $failed
