#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages `make` needs, by goal:
#   deps.sh missing GOAL...   print the missing ones on one line (none: nothing)
#   deps.sh install GOAL...   apt-get install them (make deps)
# GOAL is all, module, lib, tools, install or modules_install.  module
# needs the kernel's headers: none when KDIR (from the Makefile) names a
# directory, else linux-headers-$(uname -r).  ETW_DPKG_QUERY and
# ETW_APT_GET replace dpkg-query and apt-get (scripts/deps-test.sh).
# Without dpkg-query (not a Debian machine) nothing is reported.
set -eu
action=${1:?usage: deps.sh missing|install GOAL...}
shift
dpkg_query=${ETW_DPKG_QUERY:-dpkg-query}
apt_get=${ETW_APT_GET:-apt-get}

# gcc and make build everything; libetw reads manifests with expat and
# programs' ELF sections with libelf; etw reads debug information with
# libdw (elfutils) and writes to the journal with libsystemd.
lib="gcc libc6-dev libexpat1-dev libelf-dev"
tools="gcc libc6-dev libdw-dev libelf-dev libsystemd-dev"
pkgs=
for goal in "${@:-all}"; do
	case "$goal" in
	lib) pkgs="$pkgs $lib" ;;
	tools | install) pkgs="$pkgs $lib $tools" ;;
	module | modules_install) pkgs="$pkgs gcc" ;;
	all) pkgs="$pkgs $lib $tools" ;;
	*) echo "deps.sh: unknown goal '$goal'" >&2; exit 2 ;;
	esac
	case "$goal" in
	all | module | modules_install)
		[ -n "${KDIR:-}" ] && [ -d "${KDIR:-}" ] ||
			pkgs="$pkgs linux-headers-$(uname -r)"
		;;
	esac
done
pkgs=$(printf '%s\n' $pkgs | awk '!seen[$0]++' | tr '\n' ' ')

command -v "$dpkg_query" >/dev/null 2>&1 || exit 0
# One query for all of them; a package dpkg does not know is not printed.
installed=$("$dpkg_query" -W -f='${db:Status-Status} ${Package}\n' $pkgs 2>/dev/null |
	sed -n 's/^installed \([^: ]*\).*/\1/p') || true
missing=
for p in $pkgs; do
	printf '%s\n' "$installed" | grep -qx -- "$p" || missing="$missing $p"
done
missing=${missing# }

case "$action" in
missing)
	[ -n "$missing" ] && echo "$missing"
	exit 0
	;;
install)
	if [ -z "$missing" ]; then
		echo "deps: every package is installed"
		exit 0
	fi
	echo "deps: installing $missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive "$apt_get" install -y --no-install-recommends $missing
	;;
*)
	echo "usage: deps.sh missing|install GOAL..." >&2
	exit 2
	;;
esac
