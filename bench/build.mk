# SPDX-License-Identifier: GPL-2.0
#
# The benchmark programs (make bench runs them in its own VM; make check
# builds them so they keep compiling).  Linked against the shared
# library, as applications are.

BENCH_COMMON	:= bench/common.c bench/syscount.c
BENCH_HDRS	:= bench/bench.h bench/lttng_tp.h $(LIB_HDRS) uapi/linux/etw.h
BENCH_PROGS	:= $(addprefix $(BUILD)/bench/etw-bench-,write threads producer cpu lttng tracelogging private)
BENCH_LINK	:= -L$(BUILD)/lib -letw -Wl,-rpath,'$$ORIGIN/../lib' -pthread

bench-progs: $(BENCH_PROGS)

$(BUILD)/bench/etw-bench-%: bench/%.c $(BENCH_COMMON) $(BENCH_HDRS) $(LIB_SO)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -Ibench -o $@ $< $(BENCH_COMMON) \
		$(BENCH_LINK) $(if $(filter lttng,$*),-llttng-ust -ldl)

.PHONY: bench-progs
