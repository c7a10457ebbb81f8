#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# header-case-links.sh SRC DEST [NAMES]: in DEST, a symbolic link to each Windows
# header of SRC (libetw/include) under the other names programs spell it
# with: Windows' file systems ignore case, so <Windows.h>, <WINDOWS.H>
# and <windows.h> are one file there.  Each header gets its lower-case,
# Capitalized and UPPER-CASE names, and those of NAMES (default
# SRC/case-names) that are its name in another case.  A link points at SRC's file by its path as
# given (relative to DEST when SRC is DEST: "Windows.h -> windows.h").
set -e
src=$1
dest=$2
names_file=${3:-$src/case-names}
if [ ! -d "$src" ] || [ -z "$dest" ]; then
	echo "usage: $0 SRC DEST [NAMES]" >&2
	exit 2
fi
mkdir -p "$dest"
lower() { printf '%s' "$1" | tr '[:upper:]' '[:lower:]'; }
upper() { printf '%s' "$1" | tr '[:lower:]' '[:upper:]'; }
for path in "$src"/*.h; do
	name=${path##*/}
	case $name in etw_*|libetw.h) continue ;; esac
	if [ "$src" = "$dest" ]; then target=$name; else target=$path; fi
	low=$(lower "$name")
	first=$(upper "$(printf '%s' "$low" | cut -c1)")
	names="$low $first$(printf '%s' "$low" | cut -c2-) $(upper "$name")"
	if [ -f "$names_file" ]; then
		names="$names $(grep -v '^#' "$names_file" | while read -r n; do
			if [ "$(lower "$n")" = "$low" ]; then printf '%s ' "$n"; fi
		done)"
	fi
	for n in $names; do
		if [ "$n" = "$name" ]; then continue; fi
		ln -sfn "$target" "$dest/$n"
	done
done
