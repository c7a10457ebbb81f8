#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the VM of make deb-test, whose root is the Debian packages as
# installed (scripts/deb.sh): etw.ko is DKMS's build, loaded at boot from
# modules-load.d; the udev rule names that device; the installed etw
# records a provider built against the installed libetw-dev into a file
# its installed logger writes.  Prints KTAP.
unset LD_LIBRARY_PATH
guid=b3864c38-4273-58c5-545b-8b3608343471
rel=$(uname -r)
dir=/lib/modules/$rel/updates/dkms
n=0 failed=0
t() { # t NAME CMD...: one KTAP result
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		failed=1
	fi
}
echo "TAP version 13"
echo "1..6"

# The module loaded is the file DKMS built, signed and installed (.ko, or
# .ko.xz for a kernel whose modules are compressed), the one modprobe
# resolves etw to.
loaded_dkms() {
	ko=$(ls $dir/etw.ko* 2>/dev/null) && [ -n "$ko" ] &&
		grep -q '^etw ' /proc/modules &&
		grep -qx etw /usr/lib/modules-load.d/etw.conf &&
		/sbin/modprobe --show-depends etw | grep -qx "insmod $ko *" &&
		[ "$(/sbin/modinfo -F signer "$ko")" = "DKMS module signing key" ]
}
t "etw.ko from DKMS ($dir), loaded from modules-load.d" loaded_dkms

# The rule matches the device the module registers, with its mode.
udev_rule() {
	rule=/lib/udev/rules.d/60-etw.rules
	grep -q 'KERNEL=="etw", SUBSYSTEM=="misc"' "$rule" &&
		[ -e /sys/class/misc/etw ] &&
		[ "$(stat -c %a /dev/etw)" = "$(sed -n 's/.*MODE="0\([0-7]*\)".*/\1/p' "$rule")" ]
}
t "the udev rule names /dev/etw and its mode" udev_rule

# The installed tool, on the installed library alone.
tool_lib() {
	etw version && /lib64/ld-linux-x86-64.so.2 --list /usr/bin/etw | grep -q '/usr/lib/x86_64-linux-gnu/libetw.so.0'
}
t "etw version (/usr/bin/etw, libetw.so.0 from libetw0)" tool_lib

t "etw record -p MyProvider -- a provider built with pkg-config libetw" \
	etw record -o /tmp/deb.etl -p "$guid:5" -- /usr/local/bin/etw-example-provider 5

# Its five events (id 1) are in the file, as the installed etw reads it.
events() {
	etw dump -f csv /tmp/deb.etl > /tmp/deb.csv &&
		[ "$(awk -F, -v g="$guid" '$9 == g && $12 == 1' /tmp/deb.csv | wc -l)" -eq 5 ]
}
t "etw dump: the provider's 5 events" events

# A session from the command line, written by the installed logger.
logger_session() {
	etw start debtest -o /tmp/deb-start.etl && etw enable debtest "$guid" --level 5 &&
		/usr/local/bin/etw-example-provider 3 > /dev/null && etw stop debtest &&
		[ "$(etw dump -f csv /tmp/deb-start.etl | awk -F, -v g="$guid" '$9 == g && $12 == 1' | wc -l)" -eq 3 ]
}
t "etw start/enable/stop: a file session of the installed logger" logger_session
exit "$failed"
