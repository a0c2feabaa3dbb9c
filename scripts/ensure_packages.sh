# ensure_packages.sh: sourced by the demo and the benchmarks.
#
# ensure_packages PKG...: installs the Debian packages that are missing, with
# one apt-get update first (a fresh machine's package lists may be stale), and
# says so; does nothing when all are installed.  Needs root to install.

ensure_packages()
{
	local missing=() p status
	for p in "$@"; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[[ $status == installed ]] || missing+=("$p")
	done
	if ((${#missing[@]} == 0)); then
		echo "==> packages: all present"
		return 0
	fi
	if ((EUID != 0)); then
		echo "missing packages ${missing[*]}; run as root to install them" >&2
		return 1
	fi
	echo "==> installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	apt-get install -y --no-install-recommends "${missing[@]}"
}
