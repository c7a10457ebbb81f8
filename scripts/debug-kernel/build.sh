#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel of make check-debug, built once per machine:
#   build.sh          print its directory, building it first if needed
#   build.sh --dir    print its directory only (built or not)
# The kernel is Debian's linux-source-6.12 with x86_64_defconfig,
# kernel/configs/kvm_guest.config and debug.config (next to this script).
# It is kept in $ETW_DEBUG_KERNEL_CACHE (default /var/cache/etw/debug-kernel)
# under a key made of the fragment and the source package's version, so
# every clone on the machine reuses it, and a changed fragment or a new
# linux-source-6.12 builds a new one.  The directory holds:
#   linux/            the built source tree: KDIR for etw.ko (Module.symvers,
#                     .config), linux/arch/x86/boot/bzImage
#   release           the kernel release (uname -r in the VM)
#   build.log         the build's output
# REBUILD=1 (make check-debug REBUILD=1), or deleting the directory,
# builds it again.  The build runs under nice -n 19 (ETW_DEBUG_KERNEL_NICE)
# on every core; an interrupted build goes on where it stopped.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
frag=$here/debug.config
tarball=/usr/src/linux-source-6.12.tar.xz
cache=${ETW_DEBUG_KERNEL_CACHE:-/var/cache/etw/debug-kernel}

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
key=$( { cat "$frag"; echo "linux-source-6.12 $srcver"; } | sha256sum | cut -c1-16)
dir=$cache/$key

if [ "${1:-}" = --dir ]; then
	echo "$dir"
	exit 0
fi

say() { printf 'debug-kernel: %s\n' "$*" >&2; }

mkdir -p "$cache"
# One build at a time on the machine; a second clone waits and reuses it.
exec 9> "$cache/.lock"
flock 9

if [ "${REBUILD:-0}" = 1 ]; then
	say "REBUILD=1: removing $dir"
	rm -rf "$dir"
fi
if [ -s "$dir/release" ] && [ -s "$dir/linux/arch/x86/boot/bzImage" ]; then
	echo "$dir"
	exit 0
fi

say "building the debug kernel in $dir (about 25 minutes on 2 idle cores; log in $dir/build.log)"
# Built where it stays; "release" is written last, so a tree without it
# is an unfinished build, which goes on where it stopped (Kbuild rebuilds
# only what is not up to date).
[ -e "$dir/.extracted" ] || rm -rf "$dir"
mkdir -p "$dir/linux"
log=$dir/build.log
if [ ! -e "$dir/.extracted" ]; then
	tar -xJf "$tarball" -C "$dir/linux" --strip-components=1
	touch "$dir/.extracted"
fi
cd "$dir/linux"
{
	make x86_64_defconfig
	scripts/kconfig/merge_config.sh -m .config kernel/configs/kvm_guest.config "$frag"
	make olddefconfig
} >> "$log" 2>&1 || { tail -n 30 "$log" >&2; exit 1; }

# Every option the fragment sets must be what .config has.
bad=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*=.*\)$/\1/p' "$frag" | while read -r want; do
	grep -qxF "$want" .config || echo "$want"
done)
if [ -n "$bad" ]; then
	say "Kconfig did not keep these options of $frag:"
	printf '  %s\n' $bad >&2
	exit 1
fi

if ! nice -n "${ETW_DEBUG_KERNEL_NICE:-19}" make -j"$(nproc)" all >> "$log" 2>&1; then
	tail -n 40 "$log" >&2
	say "the build failed; see $log"
	exit 1
fi
make -s kernelrelease > "$dir/release.tmp"
mv "$dir/release.tmp" "$dir/release"
say "built $(cat "$dir/release") in $dir"
echo "$dir"
