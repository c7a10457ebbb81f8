#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the path of Debian's image package of kernel release REL in apt's
# own cache, downloading it first if it is not there (never installing it):
#   scripts/kernel-deb.sh REL
# The package is linux-image-REL, or linux-image-REL-unsigned where the
# archive has only that (the same kernel, modules and files, without
# Secure Boot's signature: a new point release often reaches the archive
# unsigned first).
set -eu
rel=${1:?usage: kernel-deb.sh RELEASE}
cache=/var/cache/apt/archives

# The version apt would fetch of PACKAGE, or nothing.
candidate() {
	apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' | grep -v '^(none)$' || true
}

found() {
	ls "$cache/linux-image-${rel}_"*.deb "$cache/linux-image-${rel}-unsigned_"*.deb \
		2>/dev/null | head -n 1 || true
}

deb=$(found)
if [ -z "$deb" ]; then
	pkg=linux-image-$rel
	[ -n "$(candidate "$pkg")" ] || pkg=linux-image-$rel-unsigned
	if [ -z "$(candidate "$pkg")" ]; then
		echo "kernel-deb.sh: neither linux-image-$rel nor linux-image-$rel-unsigned can be had from apt" >&2
		exit 1
	fi
	apt-get install -d -y -qq --no-install-recommends "$pkg" >/dev/null
	deb=$(found)
fi
[ -n "$deb" ] || { echo "kernel-deb.sh: apt fetched no image of $rel" >&2; exit 1; }
echo "$deb"
