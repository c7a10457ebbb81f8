# SPDX-License-Identifier: GPL-2.0
#
# etw for Linux: top-level build.
#
#   make                  module (for KDIR), libetw, the etw tool
#   make check            the test command: setup, build, lint, host tests,
#                         selftests in QEMU on Debian's 6.1 and 6.12 kernels
#   make check-debug      the selftests, fuzzer, stress, fault injection and
#                         kmemleak on a KASAN/lockdep/UBSAN kernel built from
#                         linux-source-6.12 (REBUILD=1: build it again;
#                         T="a b": only these selftests)
#   make demo             the end-to-end demo in the VM
#   make vm-shell         an interactive shell in the VM, etw.ko loaded
#   make vm-test T="a b"  only the named selftests, one kernel (ETW_KERNEL);
#                         E="VAR=value ..." sets their environment
#   make bench            the benchmark table, in its own VM (issue 7)
#   make bench-host       only its host part (no VM): compressed ETL reading,
#                         decoding
#   make bench-manifest   etw dump of manifest vs TraceLogging events, on the host
#   make bench-profile CASE="write 64"  guest instructions per event by
#                         function (CASE: write SIZE, null, getpid; N, FUNC,
#                         BASE=null: the difference from another case)
#   make fuzz             the ioctl/mmap fuzzer, 1,000,000 calls per kernel
#   make stress           64 sessions, 1,000 providers, 50 processes, 3 minutes
#   make install          libetw, headers, pkg-config file, etw, man pages,
#                         etw wpp's make and CMake rules
#   make modules_install  etw.ko into /lib/modules/<release>/updates
#   make install-dkms     the module's sources into /usr/src/etw-<version>
#   make deps             apt-get install the Debian packages make needs
#   make deb              the Debian packages (dpkg-buildpackage), lintian
#   make deb-test         make deb, then DKMS and the installed etw record
#                         in the VM on each kernel (part of make check)
#
# Outputs go to $(BUILD) (default build/), never next to the sources.

VERSION		:= 0.1.0
SOVERSION	:= 0

BUILD		?= build
PREFIX		?= /usr/local
DESTDIR		?=
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
UDEVDIR		?= /lib/udev/rules.d
UNITDIR		?= /lib/systemd/system
# etw wpp's default configuration (for reading) and its make rules.
WPPDIR		?= $(PREFIX)/share/etw/wpp

# The kernel to build etw.ko against: the running kernel's build directory
# if it exists, otherwise the newest Debian kernel headers installed.
KDIR		?= $(or $(wildcard /lib/modules/$(shell uname -r)/build), \
		   $(lastword $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V)))
KREL		 = $(shell $(MAKE) -s -C $(KDIR) kernelrelease 2>/dev/null)

CC		?= cc
CFLAGS		?= -O2 -g
WARNINGS	:= -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
		   -Wmissing-prototypes -Wformat=2 -Wno-unused-parameter
ALL_CFLAGS	 = -std=gnu11 $(WARNINGS) $(CPPFLAGS) $(CFLAGS) -D_GNU_SOURCE \
		   -Iuapi -Ilibetw/include -MMD -MP

KSRC		:= $(BUILD)/ksrc
# The harness compares mixed signedness by design (EXPECT_EQ(0, u32)) and
# defines its functions without prototypes.
KSFT_CFLAGS	:= -I$(KSRC)/tools/testing/selftests -Wno-sign-compare \
		   -Wno-missing-prototypes -Wno-clobbered -Wno-misleading-indentation

.PHONY: all module lib tools selftests unit lint check check-debug demo vm-shell vm-test bench bench-host bench-manifest bench-profile fuzz stress \
	install modules_install uninstall clean help deps deb deb-test
.DEFAULT_GOAL := all

# Before anything compiles, one message names every Debian package the
# goals need that is not installed (scripts/deps.sh).
DEPS_GOALS	:= $(filter all module lib tools install modules_install,$(or $(MAKECMDGOALS),all))
ifneq ($(DEPS_GOALS),)
DEPS_MISSING	:= $(shell KDIR='$(KDIR)' scripts/deps.sh missing $(DEPS_GOALS))
ifneq ($(DEPS_MISSING),)
$(error missing Debian packages: $(DEPS_MISSING); install them with 'sudo apt-get install $(DEPS_MISSING)' or 'sudo make deps')
endif
endif

deps:
	@KDIR='$(KDIR)' scripts/deps.sh install all

deb:
	@scripts/deb.sh build "$(BUILD)"

deb-test:
	@scripts/deb.sh test "$(BUILD)"

all: module lib tools

help:
	@sed -n 's/^#   //p' Makefile

include libetw/build.mk
include tools/build.mk
include selftests/build.mk
include examples/build.mk
include bench/build.mk
include module/build.mk
include scripts/lint.mk

check:
	@scripts/check.sh

check-debug:
	@REBUILD="$(REBUILD)" T="$(T)" scripts/check-debug.sh

demo:
	@scripts/vm-job.sh demo

vm-shell:
	@scripts/vm-job.sh shell

vm-test:
	@T="$(T)" E="$(E)" scripts/vm-job.sh test

# Bounded: the fuzzer stops at its deadline (and fails if the calls were
# not all made by then); the VM at its timeout.
fuzz:
	@scripts/vm-each-kernel.sh fuzz "fuzz_test fuzz_test_32" \
		"ETW_FUZZ_CALLS=1000000 ETW_FUZZ_CALLS_32=200000 ETW_FUZZ_SECONDS=2400 ETW_TEST_TIMEOUT=2700" 3000

stress:
	@scripts/vm-each-kernel.sh stress stress_test \
		"ETW_STRESS_SESSIONS=64 ETW_STRESS_PROVIDERS=1000 ETW_STRESS_PROCS=50 ETW_STRESS_SECONDS=180 ETW_TEST_TIMEOUT=1500" 1800

bench:
	@scripts/bench.sh

bench-host:
	@BENCH_RUNS=host scripts/bench.sh

# Manifest events against the same fields in TraceLogging (issue 18 item 6).
bench-manifest:
	@scripts/bench-host-manifest.sh

bench-profile:
	@CASE="$(CASE)" N="$(N)" FUNC="$(FUNC)" BASE="$(BASE)" scripts/bench-profile.sh

clean:
	rm -rf $(BUILD)
