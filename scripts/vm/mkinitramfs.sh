#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the busybox initramfs for one kernel:
#   mkinitramfs.sh OUT.cpio.gz ETW_KO STAGE_DIR
# (ETW_DISKMODS=none: no disk modules, see below.)
# STAGE_DIR holds what `make` built for the VM: usr/bin/etw, usr/lib/libetw*,
# selftests/* (with selftests/list) and usr/share/etw/demo.sh.  Shared
# libraries the binaries need are copied from this machine.
set -eu

out=$1 ko=$2 stage=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/bin "$root"/dev "$root"/proc "$root"/sys "$root"/tmp \
	 "$root"/etc "$root"/root "$root"/lib/modules "$root"/usr/lib
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$top/scripts/vm/init.sh" "$root/init"
chmod 755 "$root/init"
# (DKMS installs a compressed etw.ko.xz for a kernel whose modules are.)
case "$ko" in
*.xz) xz -dc "$ko" > "$root/lib/modules/etw.ko" ;;
*) cp "$ko" "$root/lib/modules/etw.ko" ;;
esac
# The kernel-provider selftest module, built beside etw.ko (module/build.mk).
kprov=$(dirname "$ko")/etw_kprov_test.ko
[ ! -f "$kprov" ] || cp "$kprov" "$root/lib/modules/etw_kprov_test.ko"
# make bench's kernel-write module, built there too (bench/kmod/).
kbench=$(dirname "$ko")/etw_kbench.ko
[ ! -f "$kbench" ] || cp "$kbench" "$root/lib/modules/etw_kbench.ko"
# The disk's driver and file system, for the kernel etw.ko was built for;
# none for a kernel that has them built in (ETW_DISKMODS=none: make
# check-debug's kernel, which has no Debian package to take them from).
mkdir -p "$root/lib/modules/disk"
if [ "${ETW_DISKMODS:-}" != none ]; then
	rel=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
	"$top/scripts/vm/diskmods.sh" "$rel" "$(dirname "$out")/diskmods"
	cp "$(dirname "$out")"/diskmods/*.ko "$root/lib/modules/disk/"
fi
cp -a "$stage"/. "$root"/

# An unprivileged user for the permission tests.
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/tmp:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

# Every shared library the dynamic binaries need, at the same path (the
# stage's own libraries found where they are: usr/lib, or the multiarch
# directory of a root made of Debian packages).
multiarch=$(gcc -print-multiarch)
find "$root" -type f -perm -u+x | while read -r f; do
	file_is_elf=$(head -c 4 "$f" | od -An -c | tr -d ' ')
	[ "$file_is_elf" = '177ELF' ] || continue
	LD_LIBRARY_PATH="$root/usr/lib:$root/usr/lib/$multiarch" ldd "$f" 2>/dev/null |
		sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'
done | sort -u | while read -r lib; do
	case "$lib" in "$root"/*) continue ;; esac
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done

(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
