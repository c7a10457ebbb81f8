#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make's dependency check (scripts/deps.sh) against machines without the
# packages: a dpkg-query that knows only the packages in $ETW_FAKE_INSTALLED
# and an apt-get that records what it is asked.  make must stop before
# compiling anything, with one message naming exactly the missing packages;
# make deps must ask apt-get for exactly those.
#   deps-test.sh BUILD_DIR
set -u
build=${1:?usage: deps-test.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
mkdir -p "$build"
tmp=$(mktemp -d "$(cd "$build" && pwd)/deps-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# dpkg-query -W -f=FORMAT PKG...: a line per package it knows, exit 1 if
# one is unknown, as the real one does.
cat > "$tmp/dpkg-query" <<'FAKE'
#!/bin/sh
shift 2
rc=0
for p in "$@"; do
	if printf '%s\n' $ETW_FAKE_INSTALLED | grep -qx -- "$p"; then
		echo "installed $p"
	else
		echo "dpkg-query: no packages found matching $p" >&2
		rc=1
	fi
done
exit $rc
FAKE
cat > "$tmp/apt-get" <<'FAKE'
#!/bin/sh
echo "$*" > "$ETW_FAKE_APT_LOG"
FAKE
chmod +x "$tmp/dpkg-query" "$tmp/apt-get"
export ETW_DPKG_QUERY="$tmp/dpkg-query" ETW_APT_GET="$tmp/apt-get" ETW_FAKE_APT_LOG="$tmp/apt.log"

headers=linux-headers-$(uname -r)
every="gcc libc6-dev libexpat1-dev libelf-dev libdw-dev libsystemd-dev"
fail=0
n=0
check() { # check NAME OK
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		fail=1
	fi
}
# The packages the one message names, sorted, one line.
named() {
	sed -n "s/.*missing Debian packages: \([^;]*\);.*/\1/p" "$1" | tr ' ' '\n' | sort | tr '\n' ' '
}
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' '; }

# make [GOAL] with INSTALLED and KDIR: its status, its output in $tmp/out.
make_with() { # make_with INSTALLED KDIR MAKE-ARGS...
	inst=$1 kdir=$2
	shift 2
	rm -rf "$tmp/build"
	ETW_FAKE_INSTALLED=$inst make --no-print-directory BUILD="$tmp/build" KDIR="$kdir" "$@" \
		> "$tmp/out" 2>&1
}
# The one message, exactly the missing packages, and nothing built.
one_message() { # one_message EXPECTED...
	[ "$(grep -c 'missing Debian packages' "$tmp/out")" -eq 1 ] &&
		[ "$(wc -l < "$tmp/out")" -eq 1 ] &&
		[ "$(named "$tmp/out")" = "$(sorted "$@")" ] &&
		grep -q "sudo apt-get install .*' or 'sudo make deps'" "$tmp/out" &&
		[ ! -e "$tmp/build" ]
}

echo "TAP version 13"
echo "1..7"
make_with "" "" ; rc=$?
{ [ $rc -ne 0 ] && one_message $every "$headers"; }
check "make on a machine without any: one message names all seven, nothing built" $?
cat "$tmp/out" | sed 's/^/# /'

make_with "gcc libc6-dev libexpat1-dev" "$top" ; rc=$?
{ [ $rc -ne 0 ] && one_message libelf-dev libdw-dev libsystemd-dev; }
check "make with headers (KDIR), gcc and expat: names libelf-dev, libdw-dev and libsystemd-dev only" $?

make_with "gcc libc6-dev libexpat1-dev libelf-dev" "" -n lib ; rc=$?
[ $rc -eq 0 ] && ! grep -q 'missing Debian packages' "$tmp/out"
check "make lib needs neither libdw-dev, libsystemd-dev nor kernel headers" $?

make_with "$every" "" -n tools ; rc=$?
check "make tools with every library: no message" $rc

make_with "$every" "" -n module ; rc=$?
{ [ $rc -ne 0 ] && one_message "$headers"; }
check "make module without KDIR: names $headers" $?

make_with "$every" "$top" -n ; rc=$?
[ $rc -eq 0 ] && ! grep -q 'missing Debian packages' "$tmp/out"
check "make with everything: no message" $?

rm -f "$tmp/apt.log"
make_with "gcc libexpat1-dev" "" deps ; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/apt.log" 2>/dev/null)" = \
	"install -y --no-install-recommends libc6-dev libelf-dev libdw-dev libsystemd-dev $headers" ]
check "make deps: apt-get install of exactly the missing ones" $?

exit $fail
