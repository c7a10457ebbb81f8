#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the kernel releases the VM lane tests, one per line:
#   the Debian 12 default kernel (what linux-headers-amd64 depends on, 6.1)
#   the newest Debian 12 6.12 kernel that has both an image and headers.
# ETW_KERNELS="rel1 rel2" overrides the choice.
set -eu

if [ -n "${ETW_KERNELS:-}" ]; then
	printf '%s\n' $ETW_KERNELS
	exit 0
fi

# apt's lists may be missing on a fresh machine; fetch them once.
if ! apt-cache show linux-headers-amd64 >/dev/null 2>&1; then
	apt-get update -qq >/dev/null
fi

apt-cache depends linux-headers-amd64 2>/dev/null |
	sed -n 's/^ *Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n 1

names=$(apt-cache pkgnames linux-headers-6.12. 2>/dev/null |
	sed -n 's/^linux-headers-\(6\.12\.[0-9]*+deb12-amd64\)$/\1/p' | sort -V -r)
for rel in $names; do
	# The image signed or unsigned (scripts/kernel-deb.sh takes either).
	if apt-cache policy "linux-image-$rel" "linux-image-$rel-unsigned" 2>/dev/null |
	   grep -q '^ *Candidate: [0-9]'; then
		echo "$rel"
		exit 0
	fi
done
echo "kernels.sh: no Debian 6.12 kernel with headers found in apt" >&2
exit 1
