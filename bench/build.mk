# SPDX-License-Identifier: GPL-2.0
#
# The benchmark programs (make bench runs them in its own VM; make check
# builds them so they keep compiling).  Linked against the shared
# library, as applications are.

BENCH_COMMON	:= bench/common.c bench/syscount.c
BENCH_HDRS	:= bench/bench.h bench/lttng_tp.h bench/qemu/marker.h $(LIB_HDRS) uapi/linux/etw.h
BENCH_PROGS	:= $(addprefix $(BUILD)/bench/etw-bench-,write threads producer cpu lttng tracelogging profile xpress decode manifest rundown kstack fileio wpp viewers kwrite)
# The instruction profiler, a QEMU plugin the host loads (make bench-profile).
BENCH_PLUGIN	:= $(BUILD)/bench/qemu/insn-profile.so
BENCH_LINK	:= -L$(BUILD)/lib -letw -Wl,-rpath,'$$ORIGIN/../lib' -pthread

bench-progs: $(BENCH_PROGS) $(BENCH_PLUGIN)

$(BUILD)/bench/etw-bench-%: bench/%.c $(BENCH_COMMON) $(BENCH_HDRS) $(LIB_SO)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -Ibench -o $@ $< $(BENCH_COMMON) \
		$(BENCH_EXTRA) $(BENCH_LINK) $(if $(filter lttng,$*),-llttng-ust -ldl)

# The host part (scripts/bench-host.sh): the XPRESS decoder, hidden in the
# library, is built in from its source; the file is made by the tests'
# compressor.
$(BUILD)/bench/etw-bench-xpress: BENCH_EXTRA := libetw/src/etl/xpress.c
$(BUILD)/bench/etw-bench-xpress: libetw/src/etl/xpress.c libetw/src/etl/xpress.h \
	libetw/tests/xpress_encoder.h

# The trace etw report and etw export are measured on, written with the
# tests' writer of synthetic kernel traces.
$(BUILD)/bench/etw-bench-viewers: BENCH_EXTRA := -Ilibetw/tests
$(BUILD)/bench/etw-bench-viewers: libetw/tests/ktrace.h libetw/tests/etl_test.h

# The provider of etw-bench-manifest: the header etw mc makes of its manifest.
$(BUILD)/bench/gen/manifest.h: bench/manifest.man $(BUILD)/bin/etw
	@mkdir -p $(@D)
	$(BUILD)/bin/etw mc -um -h $(@D) $<
$(BUILD)/bench/etw-bench-manifest: $(BUILD)/bench/gen/manifest.h
$(BUILD)/bench/etw-bench-manifest: ALL_CFLAGS += -I$(BUILD)/bench/gen

# etw-bench-wpp goes through etw wpp: its .tmh.
$(BUILD)/bench/gen/wpp.tmh: bench/wpp.c $(BUILD)/bin/etw
	@mkdir -p $(@D)
	$(BUILD)/bin/etw wpp -odir:$(@D) -p:EtwBench $<
$(BUILD)/bench/etw-bench-wpp: $(BUILD)/bench/gen/wpp.tmh
$(BUILD)/bench/etw-bench-wpp: ALL_CFLAGS += -I$(BUILD)/bench/gen

$(BENCH_PLUGIN): bench/qemu/insn-profile.c bench/qemu/plugin-api.h bench/qemu/marker.h
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -fPIC -shared -fvisibility=hidden \
		-o $@ $< -pthread

.PHONY: bench-progs

# etw-bench-kwrite asks etw_kbench.ko (bench/kmod/) through its device.
$(BUILD)/bench/etw-bench-kwrite: bench/kmod/kbench.h
