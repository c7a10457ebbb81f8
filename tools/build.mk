# SPDX-License-Identifier: GPL-2.0
#
# The etw command: one binary, its files in rooms:
#   etw.c, etw.h, progress.c  the entry point and what every room shares
#   cmd/     the subcommands, one file each, the session helpers, and
#            the options and reading etw report and etw export share
#   dump/    etw dump's formatters: text, JSON, CSV, XML, and the decoding
#   model/   the trace model: processes, threads, images, stacks, symbols,
#            the CPU-sample counts reports are made from, and the
#            interning (strings, stack trees) its users share
#   export/  etw export's writers: speedscope JSON and Perfetto protobuf,
#            their frames made from the model's stacks, and the reading
#            they share
#   mc/      etw mc's generators: the C header of a manifest
#   eventlog/  etw eventlog: channel events into the systemd journal
#   wpp/     etw wpp, the software trace preprocessor: configuration,
#            source scanner, format texts, the .tmh and TMF writers, and
#            the default configuration (defaultwpp.ini, built in)
#   autologger/  etw autologger: the boot sessions' files, Status, FileCounter

TOOL_SRCS	:= $(wildcard tools/*.c tools/*/*.c)
TOOL_OBJS	:= $(TOOL_SRCS:%.c=$(BUILD)/%.o)
# etw wpp's message GUIDs are SHA-1 name hashes: libetw's own SHA-1.
# Its default configuration is built in, as a C string.
TOOL_OBJS	+= $(BUILD)/tools/wpp/sha1.o $(BUILD)/tools/wpp/defaultwpp.o
WPP_CFG		:= tools/wpp/defaultwpp.ini
# Perfetto's packets are encoded by protobuf-c (libprotobuf-c-dev), its C
# generated from the .proto kept in the tree (protobuf-c-compiler).
PERFETTO_PROTO	:= tools/export/perfetto_trace.proto
PERFETTO_PBC	:= $(BUILD)/tools/gen/perfetto_trace.pb-c.c
TOOL_OBJS	+= $(PERFETTO_PBC:.c=.o)
ETW_TOOL	:= $(BUILD)/bin/etw
MAN_PAGES	:= $(wildcard tools/man/*.1)

tools: $(ETW_TOOL)

$(BUILD)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itools -I$(BUILD)/tools/gen -c -o $@ $<

$(PERFETTO_PBC) $(PERFETTO_PBC:.c=.h): $(PERFETTO_PROTO)
	@mkdir -p $(@D)
	protoc-c --c_out=$(@D) -I$(<D) $<

$(PERFETTO_PBC:.c=.o): $(PERFETTO_PBC)
	$(CC) $(filter-out -Wextra,$(ALL_CFLAGS)) -c -o $@ $<

$(BUILD)/tools/export/perfetto.o: $(PERFETTO_PBC:.c=.h)
$(BUILD)/tools/export/speedscope.o: ALL_CFLAGS += -DETW_VERSION='"$(VERSION)"'

$(BUILD)/tools/wpp/sha1.o: libetw/src/common/sha1.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tools/wpp/defaultwpp.c: $(WPP_CFG)
	@mkdir -p $(@D)
	{ echo '/* Generated from $<. */'; echo 'const char wpp_default_config[] ='; \
	  sed 's/\\/\\\\/g; s/"/\\"/g; s/^/\t"/; s/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/tools/wpp/defaultwpp.o: $(BUILD)/tools/wpp/defaultwpp.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Linked against the shared library, as an installed etw would be; the
# RUNPATH finds it in build/lib and in $(PREFIX)/lib (none in the Debian
# package: the library is in a system directory there).
TOOL_RPATH	?= -Wl,-rpath,'$$ORIGIN/../lib'
$(ETW_TOOL): $(TOOL_OBJS) $(LIB_SO)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJS) -L$(BUILD)/lib -letw -ldw -lelf -lsystemd -lprotobuf-c $(TOOL_RPATH)

-include $(TOOL_OBJS:.o=.d)

# etw built with AddressSanitizer and UBSan, libetw's sources in it, for
# export_fuzz (the writers over mutated traces); the plain etw where the
# compiler has no sanitizer runtimes.
ifneq ($(filter /%,$(shell $(CC) -print-file-name=libasan.so)),)
ETW_ASAN	:= $(BUILD)/tests/etw_asan
$(BUILD)/tests/perfetto_trace_asan.o: $(PERFETTO_PBC)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP -Wextra,$(ALL_CFLAGS)) $(ASAN_FLAGS) -c -o $@ $<
$(ETW_ASAN): $(TOOL_SRCS) $(BUILD)/tests/perfetto_trace_asan.o $(BUILD)/tools/wpp/defaultwpp.c $(LIB_SRCS) \
		$(wildcard tools/*/*.h libetw/src/*/*.h) $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(ASAN_FLAGS) -DETW_VERSION='"$(VERSION)"' \
		-Itools -I$(BUILD)/tools/gen \
		-pthread -o $@ $(TOOL_SRCS) $(BUILD)/tests/perfetto_trace_asan.o \
		$(BUILD)/tools/wpp/defaultwpp.c $(LIB_SRCS) \
		$(LIB_LIBS) -ldw -lsystemd -lprotobuf-c
else
ETW_ASAN	:= $(ETW_TOOL)
endif
$(BUILD)/tests/export_fuzz: $(ETW_ASAN) libetw/tests/ktrace.h libetw/tests/etl_test.h \
	libetw/tests/run_cmd.h \
	libetw/tests/export_check.py
$(BUILD)/tests/export_fuzz: ALL_CFLAGS += -DETW_ASAN_PATH='"$(ETW_ASAN)"'
