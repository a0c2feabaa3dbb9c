# shellcheck shell=bash
# corpus.sh: sourced by a benchmark to get the generated corpus as a file or as a loaded table.
#
#   source bench/corpus/corpus.sh
#   textlike_file                 path of the corpus for the current parameters (N, SEED and
#                                 the others of make_textlike.pl, from the environment), made
#                                 first if missing (installing the packages it needs, as
#                                 root); kept in bench/out/corpus/ (git-ignored)
#   textlike_load [PSQL ARGS...]  that corpus as table textlike with fingerprint columns
#                                 (load.sql), through psql's default connection plus the
#                                 arguments given
#
# The file name holds a digest of the parameters and of the generator's sources, so a
# changed parameter or generator makes a new file and an unchanged one is reused.

_textlike_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/ensure_packages.sh
source "$_textlike_dir/../../scripts/ensure_packages.sh"

textlike_file() {
	local repo key v out
	repo=$(cd "$_textlike_dir/../.." && pwd)
	key=$(
		for v in N SEED ZH_SHARE FAMILY_SHARE MAX_FAMILY FAMILY_ALPHA BIG_FAMILIES TEMPLATE_SHARE SITES \
			LONG_SHARE SHORT_BYTES LONG_BYTES TOPIC_P TRIGRAM_P WRAPPING; do
			printf '%s=%s\n' "$v" "${!v-}"
		done
		cat "$_textlike_dir/make_textlike.pl" "$_textlike_dir/textlike_sample.c" \
			"$repo"/scripts/Textfp{Corpus,Edits,Html}.pm
	) || return 1
	key=$(printf '%s' "$key" | md5sum | cut -c1-12)
	out="$repo/bench/out/corpus/textlike-N${N:-1000000}-SEED${SEED:-1}-$key.tsv"
	if [[ ! -s $out ]]; then
		ensure_packages build-essential icu-devtools debian-reference-en debian-reference-zh-cn \
			debian-handbook >&2 || return 1
		mkdir -p "$(dirname "$out")"
		echo "textlike_file: making $out" >&2
		if ! perl "$_textlike_dir/make_textlike.pl" > "$out.part"; then
			rm -f "$out.part"
			return 1
		fi
		mv "$out.part" "$out"
		chmod 644 "$out"
	fi
	printf '%s\n' "$out"
}

textlike_load() {
	local file
	file=$(textlike_file) || return 1
	psql -X -q -v ON_ERROR_STOP=1 "$@" -f "$_textlike_dir/load.sql" < "$file"
}
