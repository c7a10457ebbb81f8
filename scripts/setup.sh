#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install and extract everything the build and the VM lane need.
# Idempotent and quiet when everything is present.
#
#   scripts/setup.sh BUILD_DIR
#
# Installs with apt-get: compilers and checkers (python3-docutils for
# Documentation/), QEMU (qemu-user runs the -m32 host tests where the
# kernel runs no 32-bit program), busybox, the headers
# of every kernel in scripts/kernels.sh, linux-source-6.12, and
# liblttng-ust-dev (the lttng-ust peer of the benchmarks, built by make
# check so the bench programs keep compiling), libexpat1-dev and
# libelf-dev (libetw reads manifests, and the ones programs carry),
# libsystemd-dev, systemd's journald and systemd-journal-remote (etw
# eventlog writes to the journal; its tests start journald, and forward
# with systemd-journal-upload to systemd-journal-remote), and what make
# deb and its test use: dpkg-dev, debhelper, dh-dkms, dkms, lintian;
# libprotobuf-c-dev and protobuf-c-compiler (etw export's Perfetto
# packets), protobuf-compiler and python3-protobuf (its test decodes
# them), chromium (the test loads speedscope in it).  Then, into
# BUILD_DIR (kept between runs, never committed):
#   vm/<release>/vmlinuz   the kernel image, from Debian's .deb (not installed)
#   lttng-modules/src/     lttng-modules-dkms' sources (make bench's LTTng peer;
#                          the .deb, trixie's, cached in /var/cache/etw)
#   npm/                   speedscope, the viewer etw export is tested in
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
	   sparse cpio gzip xz-utils kmod busybox-static qemu-system-x86 qemu-user \
	   linux-source-6.12 liblttng-ust-dev libexpat1-dev libdw-dev libelf-dev \
	   flex bison bc libssl-dev libsystemd-dev systemd systemd-journal-remote iproute2 \
	   dpkg-dev debhelper dh-dkms dkms lintian cmake binutils \
	   chromium fonts-noto-color-emoji protobuf-compiler python3-protobuf \
	   libprotobuf-c-dev protobuf-c-compiler; do
	installed "$pkg" || need="$need $pkg"
done
for rel in $kernels; do
	installed "linux-headers-$rel" || need="$need linux-headers-$rel"
done
# npm (for speedscope, below) from Debian's nodejs and npm when none is there.
command -v npm >/dev/null 2>&1 || need="$need nodejs npm"

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
	say "kernel image $rel"
	deb=$("$top/scripts/kernel-deb.sh" "$rel")
	mkdir -p "$out"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -O "./boot/vmlinuz-$rel" > "$out/vmlinuz.tmp"
	mv "$out/vmlinuz.tmp" "$out/vmlinuz"
done

# LTTng's kernel tracer, the peer of make bench's section 12: the sources
# of Debian's lttng-modules-dkms, extracted from the .deb rather than
# installed, so DKMS builds nothing on this machine; scripts/lttng-modules.sh
# builds them for the VM's kernels.  Bookworm's 2.13.9 does not build for
# 6.12, so the .deb is trixie's (2.13.x, the LTTng ABI of bookworm's
# lttng-tools 2.13): apt fetches it with a private list of trixie's index,
# checked against the archive's keyring as any apt download is, leaving
# this machine's own sources untouched, and keeps it in /var/cache/etw.
# Without it (the download failed) make bench has no LTTng row; nothing
# else needs it.
lttng_src="$build/lttng-modules/src"
lttng_deb=$(ls /var/cache/etw/lttng-modules-dkms_*deb13*_all.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$lttng_deb" ]; then
	say "downloading lttng-modules-dkms (trixie)"
	apt=$(mktemp -d)
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" /var/cache/etw
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$apt/sources.list"
	set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
	       -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
	       -o APT::Architectures=amd64 -o APT::Sandbox::User=root
	if apt-get "$@" update -qq >/dev/null &&
	   (cd "$apt" && apt-get "$@" download -qq lttng-modules-dkms >/dev/null); then
		for f in "$apt"/lttng-modules-dkms_*_all.deb; do
			mv "$f" "/var/cache/etw/$(basename "$f")"
			lttng_deb="/var/cache/etw/$(basename "$f")"
		done
	else
		say "lttng-modules-dkms: trixie's .deb could not be fetched; make bench will have no LTTng row"
	fi
	rm -rf "$apt"
fi
if [ -n "$lttng_deb" ] && [ "$(cat "$lttng_src/.deb" 2>/dev/null)" != "$lttng_deb" ]; then
	# A new version: the per-kernel builds go with the old sources.
	rm -rf "$build/lttng-modules"
	mkdir -p "$lttng_src.tmp"
	dpkg-deb --fsys-tarfile "$lttng_deb" | tar -x -C "$lttng_src.tmp" --strip-components=4 --wildcards './usr/src/lttng-modules-*'
	echo "$lttng_deb" > "$lttng_src.tmp/.deb"
	mv "$lttng_src.tmp" "$lttng_src"
fi

# speedscope, the viewer etw export's test loads in Chromium: the npm
# package at the version and integrity scripts/viewers/package-lock.json
# pins, into BUILD_DIR/npm; again only when that version is not there.
npm_dir="$build/npm"
want=$(sed -n 's/.*"speedscope": "\(.*\)".*/\1/p' "$top/scripts/viewers/package.json")
have=$(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$npm_dir/node_modules/speedscope/package.json" 2>/dev/null | head -n 1)
if [ "$have" != "$want" ]; then
	say "installing speedscope $want (npm)"
	mkdir -p "$npm_dir"
	cp "$top/scripts/viewers/package.json" "$top/scripts/viewers/package-lock.json" "$npm_dir/"
	(cd "$npm_dir" && npm ci --no-audit --no-fund --silent >/dev/null)
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
