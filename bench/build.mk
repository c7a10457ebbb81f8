# SPDX-License-Identifier: GPL-2.0
#
# The benchmark programs (make bench runs them in its own VM; make check
# builds them so they keep compiling).  Linked against the shared
# library, as applications are.

BENCH_COMMON	:= bench/common.c bench/syscount.c
BENCH_HDRS	:= bench/bench.h bench/lttng_tp.h bench/qemu/marker.h $(LIB_HDRS) uapi/linux/etw.h
BENCH_PROGS	:= $(addprefix $(BUILD)/bench/etw-bench-,write threads producer cpu lttng tracelogging profile)
# The instruction profiler, a QEMU plugin the host loads (make bench-profile).
BENCH_PLUGIN	:= $(BUILD)/bench/qemu/insn-profile.so
BENCH_LINK	:= -L$(BUILD)/lib -letw -Wl,-rpath,'$$ORIGIN/../lib' -pthread

bench-progs: $(BENCH_PROGS) $(BENCH_PLUGIN)

$(BUILD)/bench/etw-bench-%: bench/%.c $(BENCH_COMMON) $(BENCH_HDRS) $(LIB_SO)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -Ibench -o $@ $< $(BENCH_COMMON) \
		$(BENCH_LINK) $(if $(filter lttng,$*),-llttng-ust -ldl)

$(BENCH_PLUGIN): bench/qemu/insn-profile.c bench/qemu/plugin-api.h bench/qemu/marker.h
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -fPIC -shared -fvisibility=hidden \
		-o $@ $< -pthread

.PHONY: bench-progs
