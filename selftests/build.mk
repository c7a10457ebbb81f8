# SPDX-License-Identifier: GPL-2.0
#
# Selftests: kselftest-harness programs run inside the VM (scripts/vm/).
# The harness headers come from Debian's linux-source-6.12 at build time.

SELFTEST_SRCS	:= $(wildcard selftests/etw/*_test.c)
SELFTESTS	:= $(patsubst selftests/etw/%.c,$(BUILD)/selftests/%,$(SELFTEST_SRCS))
# Tests again as 32-bit programs: the compat ioctl path, EVENT_HEADER32.
SELFTESTS_32	:= $(addprefix $(BUILD)/selftests/,device_test_32 write_test_32 write_short_test_32 write_fast_test_32 \
		     enable_test_32 \
		     enable_property_test_32 traits_test_32 notify_test_32 \
		     consumer_test_32 writer_test_32)
# The classic write kinds: FULL_HEADER32, INSTANCE32, POINTER32 messages.
SELFTESTS_32	+= $(BUILD)/selftests/trace_write_test_32 $(BUILD)/selftests/message_fast_test_32
# The fuzzer (compat ioctls).
SELFTESTS_32	+= $(BUILD)/selftests/fuzz_test_32
SELFTEST_HDRS	:= $(wildcard selftests/etw/*.h) uapi/linux/etw.h
# Windows-style programs: built in Windows-source mode, and again in the
# default mode (_default).
SELFTESTS	+= $(BUILD)/selftests/winsrc_test_default
# The harness's timeouts scale on a slower kernel (make check-debug).
SELFTEST_CFLAGS	:= -include selftests/etw/timeout_scale.h

# The library kernel_logger_test's child loads and unloads (/usr/lib in the VM).
DLOPEN_LIB	:= $(BUILD)/selftests-lib/libetw_selftest_dlopen.so

# fileio_test's 32-bit child (the ia32 system calls), not a test itself.
FILEIO_OPS32	:= $(BUILD)/selftests-lib/etw-fileio-ops32

selftests: $(SELFTESTS) $(SELFTESTS_32) $(DLOPEN_LIB) $(FILEIO_OPS32)

$(FILEIO_OPS32): selftests/etw/fileio_ops.c
	@mkdir -p $(@D)
	$(CC) -m32 -static $(ALL_CFLAGS) -o $@ $<

$(DLOPEN_LIB): selftests/etw/dlopen_lib.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $<

$(BUILD)/selftests/%: selftests/etw/%.c $(SELFTEST_HDRS) $(LIB_A) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) $(SELFTEST_CFLAGS) -pthread -o $@ $< $(LIB_A) $(LIB_LIBS)

$(BUILD)/selftests/winsrc_test: selftests/etw/winsrc_test.c $(SELFTEST_HDRS) $(LIB_A) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) -fshort-wchar -DLIBETW_WINDOWS_SOURCE -pthread \
		-o $@ $< $(LIB_A) $(LIB_LIBS)

$(BUILD)/selftests/winsrc_test_default: selftests/etw/winsrc_test.c $(SELFTEST_HDRS) $(LIB_A) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) -pthread -o $@ $< $(LIB_A) $(LIB_LIBS)

# The WPP sample through etw wpp (libetw/build.mk makes its .tmh), in
# Windows-source mode; its message GUID is testdata/wpp's.
$(BUILD)/selftests/wpp_test: selftests/etw/wpp_test.c libetw/tests/wpp_expected.h $(WPP_SAMPLE) \
		$(WPP_GEN)/tracesample.tmh $(SELFTEST_HDRS) $(LIB_A) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) $(SELFTEST_CFLAGS) -fshort-wchar -DLIBETW_WINDOWS_SOURCE \
		-I$(WPP_GEN) -Iexamples/wpp \
		-DWPP_SAMPLE_GUID='"$(shell sed -n 2p testdata/wpp/tracesample.tmf | cut -c1-36)"' \
		-pthread -o $@ $< $(WPP_SAMPLE) $(LIB_A) $(LIB_LIBS)

$(BUILD)/selftests/%_32: selftests/etw/%.c $(SELFTEST_HDRS) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) -m32 -static $(ALL_CFLAGS) $(KSFT_CFLAGS) $(SELFTEST_CFLAGS) -o $@ $<

# What goes into the VM besides the kernel module.
STAGE := $(BUILD)/stage

stage: lib tools selftests examples scripts/vm/demo.sh
	@rm -rf $(STAGE)
	@mkdir -p $(STAGE)/usr/bin $(STAGE)/usr/lib $(STAGE)/selftests $(STAGE)/usr/share/etw
	@cp -a $(BUILD)/lib/libetw.so* $(DLOPEN_LIB) $(FILEIO_OPS32) $(STAGE)/usr/lib/
	@cp $(ETW_TOOL) $(STAGE)/usr/bin/
	@cp $(BUILD)/examples/provider $(STAGE)/usr/bin/etw-example-provider
	@cp $(BUILD)/examples/tracelogging $(STAGE)/usr/bin/etw-example-tracelogging
	@cp $(BUILD)/examples/private_logger $(STAGE)/usr/bin/etw-example-private-logger
	@cp $(SELFTESTS) $(SELFTESTS_32) $(STAGE)/selftests/
	@cd $(STAGE)/selftests && ls -1 | grep -vx list > ../.list && mv ../.list list
	@cp scripts/vm/demo.sh $(STAGE)/usr/share/etw/demo.sh
	@# eventlog_test runs Debian's journald and journalctl (their libraries
	@# come with them: scripts/vm/mkinitramfs.sh).
	@mkdir -p $(STAGE)/lib/systemd
	@cp /lib/systemd/systemd-journald $(STAGE)/lib/systemd/
	@cp /usr/bin/journalctl $(STAGE)/usr/bin/
	@cp -a selftests/etw/boot $(STAGE)/usr/share/etw/boot

.PHONY: stage

# Stacks through frame pointers, and its functions' sizes by dladdr1().
$(BUILD)/selftests/kstack_test: private ALL_CFLAGS += -fno-omit-frame-pointer -rdynamic
# Its hot function is reached through libc, neither with frame pointers.
$(BUILD)/selftests/ustack_copy_test: private ALL_CFLAGS += -fomit-frame-pointer
