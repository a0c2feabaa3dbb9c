# catalogs.sh: sourced by bench/regional/run.sh and bench/presets/run.sh.
#
# The regional set's message catalogs (…/LC_MESSAGES/<name>.mo, read by make_set.pl) and
# the Debian 12 packages that ship both their zh_TW and zh_CN sides.
# shellcheck shell=bash disable=SC2034  # sourced: the variables are for its callers
export CATALOGS="Linux-PAM PackageKit appstream apt at-spi2-core avahi bash binutils coreutils
diffutils dpkg findutils gdk-pixbuf gettext-runtime gettext-tools git glib20 gnupg2 grep
gsettings-desktop-schemas gstreamer-1.0 gtk20-properties gtk20 initdb-15 ld libapt-pkg6.0 libc
libpq5-15 make man-db pg_basebackup-15 pg_dump-15 pg_upgrade-15 pgscripts-15 plpgsql-15
postgres-15 psql-15 psmisc sed shadow shared-mime-info systemd tar wget xkeyboard-config xz"
regional_packages=(gettext opencc libopencc-data
	libpam-runtime packagekit appstream apt at-spi2-common libavahi-common-data bash binutils-common
	coreutils diffutils dpkg findutils libgdk-pixbuf2.0-common gettext-base git libglib2.0-data
	gnupg-l10n grep gsettings-desktop-schemas libgstreamer1.0-0 libgtk2.0-common postgresql-15
	libapt-pkg6.0 libc-l10n libpq5 make man-db postgresql-client-15 psmisc sed login
	shared-mime-info systemd tar wget xkb-data xz-utils)
