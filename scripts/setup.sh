#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install and extract everything the build and the VM lane need.
# Idempotent and quiet when everything is present.
#
#   scripts/setup.sh BUILD_DIR
#
# Installs with apt-get: compilers and checkers (python3-docutils for
# Documentation/), QEMU, busybox, the headers
# of every kernel in scripts/kernels.sh, linux-source-6.12, and
# liblttng-ust-dev (the lttng-ust peer of the benchmarks, built by make
# check so the bench programs keep compiling), libexpat1-dev and
# libelf-dev (libetw reads manifests, and the ones programs carry).  Then, into
# BUILD_DIR (kept between runs, never committed):
#   vm/<release>/vmlinuz   the kernel image, from Debian's .deb (not installed)
#   lttng-modules/src/     lttng-modules-dkms' sources (make bench's LTTng peer)
#   ksrc/                  checkpatch.pl, kernel-doc and the kselftest harness
#                          headers, from Debian's linux-source-6.12 tarball
set -eu

build=${1:?usage: setup.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$build"

kernels=$("$top/scripts/kernels.sh")

say() { printf 'setup: %s\n' "$*" >&2; }

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

need=
for pkg in make gcc g++ gcc-multilib g++-multilib libc6-dev pkg-config perl python3 python3-docutils \
	   sparse cpio gzip xz-utils kmod busybox-static qemu-system-x86 \
	   linux-source-6.12 liblttng-ust-dev libexpat1-dev libdw-dev libelf-dev \
	   flex bison bc libssl-dev; do
	installed "$pkg" || need="$need $pkg"
done
for rel in $kernels; do
	installed "linux-headers-$rel" || need="$need linux-headers-$rel"
done

export DEBIAN_FRONTEND=noninteractive
if [ -n "$need" ]; then
	say "installing:$need"
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $need >/dev/null
fi

# Kernel images for the VM: extract vmlinuz from the .deb (downloaded into
# apt's own cache) rather than installing it, so no bootloader or initramfs
# hook runs on this machine.
for rel in $kernels; do
	out="$build/vm/$rel"
	[ -s "$out/vmlinuz" ] && continue
	deb=$(ls /var/cache/apt/archives/linux-image-"${rel}"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		say "downloading linux-image-$rel"
		apt-get install -d -y -qq --no-install-recommends "linux-image-$rel" >/dev/null
		deb=$(ls /var/cache/apt/archives/linux-image-"${rel}"_*.deb | head -n 1)
	fi
	mkdir -p "$out"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -O "./boot/vmlinuz-$rel" > "$out/vmlinuz.tmp"
	mv "$out/vmlinuz.tmp" "$out/vmlinuz"
done

# LTTng's kernel tracer, the peer of make bench's section 12: the sources
# of Debian's lttng-modules-dkms, extracted from the .deb (downloaded into
# apt's cache) rather than installed, so DKMS builds nothing on this
# machine; scripts/lttng-modules.sh builds them for the VM's kernel.
lttng="$build/lttng-modules/src"
if [ ! -f "$lttng/Makefile" ]; then
	deb=$(ls /var/cache/apt/archives/lttng-modules-dkms_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		say "downloading lttng-modules-dkms"
		apt-get install -d -y -qq --no-install-recommends lttng-modules-dkms >/dev/null
		deb=$(ls /var/cache/apt/archives/lttng-modules-dkms_*.deb | head -n 1)
	fi
	rm -rf "$lttng" "$lttng.tmp"
	mkdir -p "$lttng.tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$lttng.tmp" --strip-components=4 --wildcards './usr/src/lttng-modules-*'
	mv "$lttng.tmp" "$lttng"
fi

# Files from the kernel source tarball: used at build time, never committed.
ksrc="$build/ksrc"
if [ ! -e "$ksrc/.stamp" ]; then
	tarball=$(ls /usr/src/linux-source-6.12.tar.xz)
	say "extracting checkpatch and kselftest from $tarball"
	rm -rf "$ksrc"
	mkdir -p "$ksrc"
	tar -xJf "$tarball" -C "$ksrc" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' '*/scripts/kernel-doc' \
		'*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h'
	touch "$ksrc/.stamp"
fi
