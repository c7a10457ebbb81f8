#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages, built and tried:
#   deb.sh build BUILD_DIR   (make deb) dpkg-buildpackage -us -uc -b in a
#       copy of the tree's files (what a clean clone has, with the work
#       tree's changes) in BUILD_DIR/deb/src/, then lintian: every tag it
#       prints fails (debian/*.lintian-overrides hold the justified ones).
#       The .debs land in BUILD_DIR/deb/.  Skipped when the copy is the
#       one the .debs were built from.
#   deb.sh test BUILD_DIR    (make deb-test) build, then the packages
#       installed into a root of their own (dpkg -x), DKMS's add, build
#       and install of the installed source for each kernel of the VM
#       lane into that root (dkms --dkmstree/--sourcetree/--installtree:
#       nothing on this machine's /var/lib/dkms or /lib/modules), and a
#       VM per kernel booting that root: etw.ko loaded by modprobe from
#       modules-load.d, the installed etw record'ing a provider built
#       against the installed libetw-dev (scripts/vm/deb-record.sh).
# Prints "deb: N passed, N failed" (test) and exits non-zero on a failure.
set -eu
action=${1:?usage: deb.sh build|test BUILD_DIR} build=${2:?usage: deb.sh build|test BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mkdir -p "$build/deb"
out=$(cd "$build/deb" && pwd)
version=$(sed -n 's/^VERSION[[:space:]]*:= *//p' Makefile)

say() { printf 'deb: %s\n' "$*"; }

build_debs() {
	# The package's version is the Makefile's and dkms.conf's.
	chver=$(dpkg-parsechangelog -l debian/changelog -S Version)
	dkver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
	if [ "$chver" != "$version" ] || [ "$dkver" != "$version" ]; then
		say "versions differ: Makefile $version, debian/changelog $chver, dkms.conf $dkver"
		return 1
	fi
	# The tree's files as a clean clone has them (tracked and new ones,
	# not ignored), from the work tree.
	# (Deleted files still listed by git are left out.)
	list=$out/files.list
	git ls-files --cached --others --exclude-standard | sort -u |
		while read -r f; do [ -f "$f" ] && echo "$f"; done > "$list"
	sum=$( (cat "$list"; while read -r f; do sha1sum "$f"; done < "$list") |
		sha1sum | cut -d' ' -f1)
	debs="etw-dkms_${version}_all.deb libetw0_${version}_amd64.deb libetw-dev_${version}_amd64.deb etw_${version}_amd64.deb"
	if [ "$(cat "$out/tree.sum" 2>/dev/null)" = "$sum" ] &&
	   (cd "$out" && ls $debs >/dev/null 2>&1); then
		say "packages are up to date ($out)"
		return 0
	fi
	rm -rf "$out/src" "$out"/*.deb "$out/tree.sum"
	src=$out/src/etw-$version
	mkdir -p "$src"
	cpio -pdm --quiet "$src" < "$list"
	say "dpkg-buildpackage -us -uc -b -j2 (log: $out/build.log)"
	if ! (cd "$src" && dpkg-buildpackage -us -uc -b -j2) > "$out/build.log" 2>&1; then
		tail -n 40 "$out/build.log"
		say "dpkg-buildpackage failed"
		return 1
	fi
	changes=$(ls "$out"/src/etw_"${version}"_*.changes)
	# Every tag lintian prints (errors, warnings, info) fails the build;
	# overrides are in debian/ with their reasons.
	say "lintian (log: $out/lintian.log)"
	lintian --info --display-info --fail-on error,warning,info "$changes" 2>&1 |
		grep -vx 'running with root privileges is not recommended!' > "$out/lintian.log" || true
	if [ -s "$out/lintian.log" ]; then
		cat "$out/lintian.log"
		say "lintian printed tags"
		return 1
	fi
	for d in $debs; do
		mv "$out/src/$d" "$out/"
	done
	echo "$sum" > "$out/tree.sum"
	say "built: $debs"
}

case "$action" in
build) build_debs ;;
test) build_debs && exec scripts/deb-test.sh "$build" ;;
*) echo "usage: deb.sh build|test BUILD_DIR" >&2; exit 2 ;;
esac
