# SPDX-License-Identifier: GPL-2.0
#
# etw.ko.  Kbuild writes its objects next to the sources it is given, so the
# module sources are copied into $(BUILD)/kmod/<release>/ and built there:
# one directory per kernel, several kernels side by side, a clean tree.

# The kernel-provider selftest module (selftests/kmod/) and make bench's
# kernel-write module (bench/kmod/) are built beside etw.ko unless
# KMOD_SELFTEST is empty (DKMS); their manifest headers need the etw tool.
KMOD_SELFTEST	?= m
KMOD_TOOL	:= $(if $(KMOD_SELFTEST),$(ETW_TOOL))

KMOD_SRCS := Kbuild $(wildcard module/*.c module/*.h module/klog/*.c module/klog/*.h module/include/etw/*.h) \
	     $(wildcard selftests/kmod/*.c selftests/kmod/*.h selftests/kmod/*.man) \
	     $(wildcard bench/kmod/*.c bench/kmod/*.h bench/kmod/*.man) \
	     uapi/linux/etw.h \
	     libetw/include/TraceLoggingProvider.h

# $(call kmod_dir,KDIR)
kmod_dir = $(BUILD)/kmod/$(notdir $(realpath $(1)))

# Build for one kernel: $(call kmod_build,KDIR[,extra make args])
define kmod_build
	@test -d $(1) || { echo "etw.ko: no kernel build directory '$(1)'; install linux-headers or set KDIR" >&2; exit 1; }
	@mkdir -p $(call kmod_dir,$(1))
	@cp --parents -u $(KMOD_SRCS) $(call kmod_dir,$(1))/
	$(MAKE) -C $(1) M=$(abspath $(call kmod_dir,$(1))) W=1 \
		ETW_SELFTEST_KMOD=$(KMOD_SELFTEST) ETW_MC=$(abspath $(ETW_TOOL)) $(2) modules
endef

module: $(KMOD_TOOL)
	$(call kmod_build,$(KDIR))

# Build for every kernel of the VM lane (used by scripts/check.sh).
modules-%: $(KMOD_TOOL)
	$(call kmod_build,/usr/src/linux-headers-$*)

# What other modules build against (Documentation/kernel-providers.rst):
# the headers under $(KPROV_INCDIR) (<etw/kernel.h>, <etw/provider_api.h>,
# <TraceLoggingProvider.h>), etw.ko's Module.symvers under
# $(KPROV_DIR)/<release>/.
KPROV_INCDIR	?= $(INCLUDEDIR)/etw/kernel
KPROV_DIR	?= $(PREFIX)/src/etw

kprov-headers-install:
	install -D -m 0644 module/include/etw/kernel.h $(DESTDIR)$(KPROV_INCDIR)/etw/kernel.h
	install -D -m 0644 module/include/etw/provider_api.h $(DESTDIR)$(KPROV_INCDIR)/etw/provider_api.h
	install -D -m 0644 libetw/include/TraceLoggingProvider.h $(DESTDIR)$(KPROV_INCDIR)/TraceLoggingProvider.h

modules_install: module kprov-headers-install
	$(MAKE) -C $(KDIR) M=$(abspath $(call kmod_dir,$(KDIR))) INSTALL_MOD_DIR=updates modules_install
	install -D -m 0644 $(call kmod_dir,$(KDIR))/Module.symvers \
		$(DESTDIR)$(KPROV_DIR)/$(KREL)/Module.symvers

.PHONY: kprov-headers-install

# The module's sources as DKMS takes them (/usr/src/etw-<version>, with
# dkms.conf), for `dkms install etw/<version>` and the etw-dkms package.
DKMS_SRCDIR	?= /usr/src/etw-$(VERSION)

install-dkms:
	install -d $(DESTDIR)$(DKMS_SRCDIR)
	cp --parents $(KMOD_SRCS) $(DESTDIR)$(DKMS_SRCDIR)/
	install -m 0644 dkms.conf $(DESTDIR)$(DKMS_SRCDIR)/

.PHONY: install-dkms
