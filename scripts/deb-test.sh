#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages of make deb, installed and used (make deb-test,
# scripts/deb.sh test):
#   deb-test.sh BUILD_DIR
# 1. dpkg -x of etw-dkms, libetw0, libetw-dev and etw into a root of their
#    own, BUILD_DIR/deb/root (no maintainer script runs: step 2 does what
#    etw-dkms' postinst has DKMS do);
# 2. per kernel of the VM lane, DKMS on the installed source: dkms add,
#    build and install, as the postinst's common.postinst runs them, with
#    its trees in BUILD_DIR/deb/dkms and the root (--dkmstree,
#    --sourcetree, --installtree, --no-depmod; its signing key there too),
#    then depmod -b on the root;
# 3. examples/provider.c built with pkg-config libetw against the root
#    alone (libetw-dev), into the root's /usr/local/bin;
# 4. per kernel, a VM booting the root: etw.ko loaded by modprobe from
#    modules-load.d, then scripts/vm/deb-record.sh (KTAP).
# Prints each step's ok / not ok, each VM's scan (its KTAP results and
# problems count one by one) and "deb: N passed, N failed".
set -u
build=${1:?usage: deb-test.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
out=$(cd "$build/deb" && pwd)
version=$(sed -n 's/^VERSION[[:space:]]*:= *//p' Makefile)
multiarch=$(gcc -print-multiarch)
root=$out/root
dk=$out/dkms
passed=0 failed=0
log=$out/test
mkdir -p "$log"

result() { # result OK NAME
	if [ "$1" -eq 0 ]; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "not ok - $2"
		failed=$((failed + 1))
	fi
}
finish() {
	echo "deb: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

kernels=$(scripts/kernels.sh) || { result 1 "the VM lane's kernels"; finish; }

# 1. The packages, unpacked.
rm -rf "$root" "$dk"
mkdir -p "$root" "$dk"
rc=0
for p in etw-dkms_${version}_all libetw0_${version}_amd64 libetw-dev_${version}_amd64 etw_${version}_amd64; do
	dpkg -x "$out/$p.deb" "$root" || rc=1
done
result $rc "dpkg -x: etw-dkms, libetw0, libetw-dev, etw"

# 2. DKMS, as the postinst runs it, for each kernel.  The signing key
# (dkms makes one where none is) stays in the build directory.
dkms_run() {
	mok_signing_key=$dk/mok.key mok_certificate=$dk/mok.pub \
		dkms "$@" -m etw -v "$version" --dkmstree "$dk/tree" \
		--sourcetree "$root/usr/src" --installtree "$root/lib/modules"
}
mkdir -p "$dk/tree"
dkms_run add > "$log/dkms-add.log" 2>&1
result $? "dkms add etw/$version (the installed /usr/src/etw-$version)"
for rel in $kernels; do
	mkdir -p "$root/lib/modules/$rel"
	t0=$(date +%s)
	{
		dkms_run build -k "$rel" --kernelsourcedir "/usr/src/linux-headers-$rel" -j 2 &&
		dkms_run install -k "$rel" --kernelsourcedir "/usr/src/linux-headers-$rel" --no-depmod &&
		depmod -b "$root" "$rel"
	} > "$log/dkms-$rel.log" 2>&1
	rc=$?
	ko=$(ls "$root/lib/modules/$rel/updates/dkms/"etw.ko* 2>/dev/null)
	[ $rc -eq 0 ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$rel" ] || rc=1
	[ $rc -eq 0 ] || tail -n 30 "$log/dkms-$rel.log"
	result $rc "dkms build and install for $rel: updates/dkms/etw.ko ($(($(date +%s) - t0)) s)"
done

# 3. A provider built against the installed development files alone.
syspc=$(pkg-config --variable pc_path pkg-config)
mkdir -p "$root/usr/local/bin"
# shellcheck disable=SC2046
PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$multiarch/pkgconfig:$syspc \
	cc -std=c11 -Wall -Wextra -Werror -o "$root/usr/local/bin/etw-example-provider" \
	examples/provider.c $(PKG_CONFIG_SYSROOT_DIR=$root \
		PKG_CONFIG_LIBDIR=$root/usr/lib/$multiarch/pkgconfig:$syspc \
		pkg-config --cflags --libs libetw)
result $? "examples/provider.c built with pkg-config libetw (libetw-dev)"

# 4. A VM per kernel on that root, with kmod's modprobe and modinfo (the
# library systemd-modules-load loads modules with; busybox's modprobe reads
# no compressed module).
mkdir -p "$root/selftests" "$root/sbin"
cp /bin/kmod "$root/sbin/kmod"
ln -sf kmod "$root/sbin/modprobe"
ln -sf kmod "$root/sbin/modinfo"
cp scripts/vm/deb-record.sh "$root/selftests/deb_record"
echo deb_record > "$root/selftests/list"
for rel in $kernels; do
	ko=$(ls "$root/lib/modules/$rel/updates/dkms/"etw.ko* 2>/dev/null)
	initrd=$build/vm/$rel/initramfs-deb.cpio.gz
	if [ -z "$ko" ] || ! scripts/vm/mkinitramfs.sh "$initrd" "$ko" "$root"; then
		result 1 "VM $rel: the installed packages' initramfs"
		continue
	fi
	t0=$(date +%s)
	ETW_VM_APPEND="etwload=modules-load.d" \
		scripts/vm/run.sh "$build/vm/$rel/vmlinuz" "$initrd" test "$log/vm-$rel.log"
	scripts/vm/scan.sh "$log/vm-$rel.log" "deb vm $rel" > "$log/scan-$rel.log"
	grep -E '^(not ok|# kernel:)' "$log/scan-$rel.log"
	# The VM's KTAP results and problems count one by one.
	# shellcheck disable=SC2046 # two numbers
	set -- $(tail -n 1 "$log/scan-$rel.log" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed, .*/\1 \2/p')
	if [ $# -eq 2 ] && [ "$1" -gt 0 ]; then
		passed=$((passed + $1)) failed=$((failed + $2))
		echo "$(tail -n 1 "$log/scan-$rel.log") ($(($(date +%s) - t0)) s; log: $log/vm-$rel.log)"
	else
		result 1 "VM $rel: no result (log: $log/vm-$rel.log)"
	fi
done
finish
