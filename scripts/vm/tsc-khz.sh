#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the host's TSC rate in kHz (ETW_VM_TSC_KHZ overrides), or nothing.
#
# Under TCG the guest's TSC counts at the host's rate, but on a loaded host
# the guest's boot calibration can miss it by 4-9x (PIT "deviates from
# HPET"), and with tsc=reliable nothing corrects it: the guest's clock then
# runs that much fast.  A guest given tsc_early_khz=<this> keeps time.
# Not for -icount: there the TSC counts guest nanoseconds (1 GHz), which
# the guest calibrates exactly.
set -eu

if [ -n "${ETW_VM_TSC_KHZ:-}" ]; then
	echo "$ETW_VM_TSC_KHZ"
	exit 0
fi
dmesg 2>/dev/null | sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9]*\)\.\([0-9][0-9][0-9]\) MHz.*/\1\2/p' | tail -n 1 | grep . && exit 0
dmesg 2>/dev/null | sed -n 's/.*tsc: Detected \([0-9]*\)\.\([0-9][0-9][0-9]\) MHz processor.*/\1\2/p' | tail -n 1 | grep . && exit 0
# "cpu MHz" is the TSC's rate only where the kernel cannot read the actual one.
if grep -q '^flags.* constant_tsc' /proc/cpuinfo && ! grep -q '^flags.* aperfmperf' /proc/cpuinfo; then
	sed -n 's/^cpu MHz[[:space:]]*: \([0-9]*\)\.\([0-9][0-9][0-9]\).*/\1\2/p' /proc/cpuinfo | head -n 1
fi
exit 0
