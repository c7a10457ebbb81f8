#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The tree stands on its own and keeps its layout:
#  - no tracked file refers to anything outside the repository (a
#    folder of notes beside the clone, or an absolute path of this machine);
#  - libetw/src's folders include one way, as libetw/src/README.md says.
set -u
cd "$(dirname "$0")/.."
rc=0

# The brackets keep this line from matching itself.
out=$(git ls-files -z | xargs -0 grep -nIE '[.][.]/shared|[/]work/' 2>/dev/null)
if [ -n "$out" ]; then
	echo "tree-check: files refer to places outside the repository:"
	printf '%s\n' "$out"
	rc=1
fi

# folder: the folders it may include from (libetw/src/README.md).
allowed() {
	case $1 in
	common)		echo "" ;;
	win32)		echo "common" ;;
	etl)		echo "common" ;;
	decode)		echo "etl common" ;;
	private_logger)	echo "etl common" ;;
	controller)	echo "private_logger etl common" ;;
	consumer)	echo "controller etl common" ;;
	provider)	echo "controller private_logger common" ;;
	*)		echo "?" ;;
	esac
}
for dir in libetw/src/*/; do
	d=$(basename "$dir")
	ok=$(allowed "$d")
	if [ "$ok" = "?" ]; then
		echo "tree-check: libetw/src/$d is not in libetw/src/README.md's table"
		rc=1
		continue
	fi
	for f in "$dir"*.[ch]; do
		[ -e "$f" ] || continue
		for to in $(sed -n 's|^#include "\.\./\([a-z_]*\)/.*|\1|p' "$f" | sort -u); do
			case " $ok " in
			*" $to "*) ;;
			*) echo "tree-check: $f includes from $to/, which $d/ may not"
			   rc=1 ;;
			esac
		done
	done
done
[ $rc -eq 0 ] && echo "tree-check: self-contained, libetw/src includes one way"
exit $rc
