#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The modules a VM needs to mount the ext4 disk scripts/vm/disk.sh makes:
#   diskmods.sh RELEASE DIR
# puts them into DIR as NN-name.ko, in the order init.sh loads them (a
# module before those that depend on it), uncompressed so busybox insmod
# takes them.  They come from the kernel package setup.sh downloaded
# (vmlinuz comes from the same .deb); a module the kernel has built in is
# not in the package and is skipped.  Kept in DIR: extracting is slow.
# crc32c-intel, as on any x86 Debian system: ext4's metadata checksums
# with the CPU's crc32 instruction, not the table-driven generic code.
set -eu

rel=$1 dir=$2
mods="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci
virtio_blk crc16 mbcache jbd2 crc32c_generic crc32c-intel ext4"
[ "$(cat "$dir/.stamp" 2>/dev/null)" = "$(echo $mods)" ] && exit 0
# (Downloaded again if apt's cache was cleaned since setup.sh used it.)
deb=$("$(dirname "$0")/../kernel-deb.sh" "$rel")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards \
	'./lib/modules/*/kernel/drivers/virtio/*' \
	'./lib/modules/*/kernel/drivers/block/virtio_blk.ko*' \
	'./lib/modules/*/kernel/lib/crc16.ko*' \
	'./lib/modules/*/kernel/fs/mbcache.ko*' \
	'./lib/modules/*/kernel/fs/jbd2/*' \
	'./lib/modules/*/kernel/fs/ext4/*' \
	'./lib/modules/*/kernel/crypto/crc32c_generic.ko*' \
	'./lib/modules/*/kernel/arch/x86/crypto/crc32c-intel.ko*'
rm -rf "$dir"
mkdir -p "$dir"
n=10
for m in $mods; do
	f=$(find "$tmp" -name "$m.ko" -o -name "$m.ko.xz" | head -n 1)
	if [ -n "$f" ]; then
		case "$f" in
		*.xz) xz -dc "$f" > "$dir/$n-$m.ko" ;;
		*) cp "$f" "$dir/$n-$m.ko" ;;
		esac
	fi
	n=$((n + 1))
done
echo $mods > "$dir/.stamp"
