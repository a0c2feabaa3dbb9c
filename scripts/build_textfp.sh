# build_textfp.sh: sourced by the benchmarks.
#
# build_textfp REPO: builds textfp against PostgreSQL 15 and installs it,
# exporting PG_CONFIG.  The install is retried once: another build on the same
# machine may be installing at the same moment.

build_textfp()
{
	local repo=$1
	export PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
	echo "==> building and installing textfp" >&2
	make -C "$repo" PG_CONFIG="$PG_CONFIG" >&2 || return 1
	make -C "$repo" PG_CONFIG="$PG_CONFIG" install >&2 ||
		{ sleep 5; make -C "$repo" PG_CONFIG="$PG_CONFIG" install >&2; }
}
