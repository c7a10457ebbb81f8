# SPDX-License-Identifier: GPL-2.0
#
# libetw: shared (with soname and symbol versions) and static.

LIB_SRCS	:= $(wildcard libetw/src/*/*.c)
LIB_OBJS	:= $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB_HDRS	:= $(wildcard libetw/include/*.h)
# The standard headers libetw wraps (etw_std_hide.h), installed with them.
LIB_STD_HDRS	:= libetw/include/regex libetw/include/filesystem libetw/include/charconv \
		   libetw/include/complex libetw/include/codecvt
# The Windows headers under their names in other letter cases
# (scripts/header-case-links.sh); installed beside them.
LIB_CASE_DIR	:= $(BUILD)/lib/include-case
LIB_SO		:= $(BUILD)/lib/libetw.so.$(VERSION)
LIB_SONAME	:= libetw.so.$(SOVERSION)
LIB_A		:= $(BUILD)/lib/libetw.a
LIB_PC		:= $(BUILD)/lib/libetw.pc
# Manifests are read with expat (libexpat1-dev), the ones programs carry
# with libelf (libelf-dev).
LIB_LIBS	:= -lexpat -lelf
# Windows-source mode (Documentation/porting.rst): its .pc file and the
# main() that calls a program's wmain, a static library of its own.
LIB_WIN_PC	:= $(BUILD)/lib/libetw-windows.pc
# C++ only: libetw-windows with what MSVC accepts that g++ calls
# permissive (-fpermissive, which a C compiler with -Werror refuses).
LIB_WINXX_PC	:= $(BUILD)/lib/libetw-windows++.pc
LIB_WMAIN	:= $(BUILD)/lib/libetw_wmain.a

lib: $(LIB_SO) $(LIB_A) $(LIB_PC) $(LIB_WIN_PC) $(LIB_WINXX_PC) $(LIB_WMAIN) $(LIB_CASE_DIR)/.stamp

$(LIB_CASE_DIR)/.stamp: $(LIB_HDRS) libetw/include/case-names scripts/header-case-links.sh
	rm -rf $(LIB_CASE_DIR)
	scripts/header-case-links.sh $(CURDIR)/libetw/include $(LIB_CASE_DIR)
	@touch $@

# The library calls its own EventWrite & co directly: the inline enable
# test of <evntprov.h> is for its users (and would make tld.o need
# provider.o, which the host tests replace).
$(BUILD)/libetw/%.o: libetw/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DLIBETW_NO_INLINE_ENABLED -fPIC -fvisibility=hidden \
		-pthread -c -o $@ $<

# StartTrace runs the installed etw as the session's logger.
$(BUILD)/libetw/src/controller/logger_spawn.o: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BINDIR)/etw"'

$(LIB_SO): $(LIB_OBJS) libetw/libetw.map
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -shared -pthread -Wl,-soname,$(LIB_SONAME) -Wl,-z,defs \
		-Wl,--version-script=libetw/libetw.map -o $@ $(LIB_OBJS) $(LIB_LIBS)
	ln -sf $(notdir $@) $(BUILD)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(BUILD)/lib/libetw.so

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# The .pc file is made again at install time, with that run's PREFIX.
make_pc = sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' libetw/$(or $(2),libetw).pc.in > $(1)

$(LIB_PC): libetw/libetw.pc.in Makefile
	@mkdir -p $(@D)
	$(call make_pc,$@)

$(LIB_WIN_PC): libetw/libetw-windows.pc.in Makefile
	@mkdir -p $(@D)
	$(call make_pc,$@,libetw-windows)

$(LIB_WINXX_PC): libetw/libetw-windows++.pc.in Makefile
	@mkdir -p $(@D)
	$(call make_pc,$@,libetw-windows++)

$(BUILD)/libetw/wmain/wmain.o: libetw/wmain/wmain.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -c -o $@ $<

$(LIB_WMAIN): $(BUILD)/libetw/wmain/wmain.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# Host unit tests: need no kernel.  Each prints KTAP; scripts/ktap-count.sh
# adds them up.  uapi_layout is built -m64 and -m32: the uapi structs must
# be the same in both.
UNIT_TESTS	:= $(patsubst libetw/tests/%.c,$(BUILD)/tests/%,$(wildcard libetw/tests/*.c))
UNIT_BINS	:= $(UNIT_TESTS) $(BUILD)/tests/uapi_layout_32

$(BUILD)/tests/%: libetw/tests/%.c uapi/linux/etw.h $(LIB_A) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) -pthread -o $@ $< $(LIB_A) $(LIB_LIBS)

# The logger's pace is the etw tool's (tools/cmd/logger_pace.c), built in.
$(BUILD)/tests/logger_pace: libetw/tests/logger_pace.c tools/cmd/logger_pace.c \
		tools/cmd/logger_pace.h $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) -Itools -o $@ $< tools/cmd/logger_pace.c

$(BUILD)/tests/uapi_layout_32: libetw/tests/uapi_layout.c uapi/linux/etw.h $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) -m32 $(ALL_CFLAGS) $(KSFT_CFLAGS) -o $@ $<

# The Windows-compatible headers: win_headers also runs -m32, and the
# headers must compile as C++ (both ABIs; needs g++).
UNIT_BINS	+= $(BUILD)/tests/win_headers_32
$(BUILD)/tests/win_headers: $(LIB_HDRS)

$(BUILD)/tests/win_headers_32: libetw/tests/win_headers.c $(LIB_HDRS) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) -m32 $(ALL_CFLAGS) $(KSFT_CFLAGS) -o $@ $<

$(BUILD)/tests/win_headers_cxx.ok: libetw/tests/win_headers_cxx.cc $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include -fsyntax-only $<
	$(CXX) -m32 -std=c++17 -Wall -Wextra -Werror -Ilibetw/include -fsyntax-only $<
	@touch $@

unit: $(BUILD)/tests/win_headers_cxx.ok

# Windows-source mode (libetw-windows.pc's flags): the C runtime's test
# only there, the Win32 functions' test in both modes, the headers as C++.
WIN_SOURCE_FLAGS := -fshort-wchar -DLIBETW_WINDOWS_SOURCE
UNIT_BINS	+= $(BUILD)/tests/win32_api_windows
$(BUILD)/tests/win32_crt: libetw/tests/win32_crt.c $(LIB_A) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) $(WIN_SOURCE_FLAGS) -o $@ $< $(LIB_A) $(LIB_LIBS)

$(BUILD)/tests/win32_api_windows: libetw/tests/win32_api.c $(LIB_A) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) $(WIN_SOURCE_FLAGS) -o $@ $< $(LIB_A) $(LIB_LIBS)

$(BUILD)/tests/win_source_cxx.ok: libetw/tests/win_source_cxx.cc $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include $(WIN_SOURCE_FLAGS) \
		-fsyntax-only $<
	@! $(CXX) -std=c++17 -Ilibetw/include $(WIN_SOURCE_FLAGS) -DUSE_WMI \
		-fsyntax-only $< 2>/dev/null || \
		{ echo "WMI or _bstr_t compiled"; exit 1; }
	@touch $@

unit: $(BUILD)/tests/win_source_cxx.ok

# libetw-windows++'s flags, as its .pc file gives them: the headers build
# with them under -Werror, and what MSVC accepts (win_source_permissive.cc)
# builds with them (g++ warns: -w) and only with them.
WIN_SOURCE_CXX_FLAGS := $(shell sed -n 's/^Cflags: //p' libetw/libetw-windows++.pc.in)
$(BUILD)/tests/win_source_permissive.ok: libetw/tests/win_source_permissive.cc \
		libetw/tests/win_source_cxx.cc libetw/libetw-windows++.pc.in $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include $(WIN_SOURCE_FLAGS) \
		$(WIN_SOURCE_CXX_FLAGS) -fsyntax-only libetw/tests/win_source_cxx.cc
	$(CXX) -std=c++17 -w -Ilibetw/include $(WIN_SOURCE_FLAGS) \
		$(WIN_SOURCE_CXX_FLAGS) -fsyntax-only $<
	@! $(CXX) -std=c++17 -Ilibetw/include $(WIN_SOURCE_FLAGS) -fsyntax-only $< 2>/dev/null || \
		{ echo "win_source_permissive.cc compiled without libetw-windows++'s flags"; exit 1; }
	@touch $@

unit: $(BUILD)/tests/win_source_permissive.ok

# C++ wide strings in Windows-source mode (etw_wstring.h), run; and what
# they cannot do right must not compile (win_source_fail.cc's cases).
WIN_FAIL_CASES	:= WCIN WIDE_NUMBER_IN WSS_NUMBER_IN WIDE_DOUBLE_IN WOFSTREAM WSTRING_CONVERT FS_WSTRING WREGEX
UNIT_BINS	+= $(BUILD)/tests/win_wstring
$(BUILD)/tests/win_wstring: libetw/tests/win_wstring.cc $(LIB_A) $(LIB_WMAIN) $(LIB_HDRS) \
		$(LIB_STD_HDRS) $(LIB_CASE_DIR)/.stamp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include -I$(LIB_CASE_DIR) \
		$(WIN_SOURCE_FLAGS) -o $@ $< $(LIB_WMAIN) $(LIB_A) $(LIB_WMAIN) $(LIB_LIBS)

$(BUILD)/tests/win_source_fail.ok: libetw/tests/win_source_fail.cc $(LIB_HDRS) $(LIB_STD_HDRS) \
		$(LIB_CASE_DIR)/.stamp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include -I$(LIB_CASE_DIR) \
		$(WIN_SOURCE_FLAGS) -fsyntax-only $<
	@for c in $(WIN_FAIL_CASES); do \
		! $(CXX) -std=c++17 -Ilibetw/include -I$(LIB_CASE_DIR) $(WIN_SOURCE_FLAGS) \
			-DCASE=$$c -fsyntax-only $< 2>/dev/null || \
			{ echo "win_source_fail.cc: $$c compiled"; exit 1; }; \
	done
	@touch $@

unit: $(BUILD)/tests/win_source_fail.ok

# main and wmain as Windows programs write them, C++ (case:exit status)
# and C.
WIN_MAIN_CASES	:= 1:0 2:0 3:0 4:4 5:5 6:0 7:7 8:8 9:9
$(BUILD)/tests/win_main.ok: libetw/tests/entry/main_cases.cc libetw/tests/entry/void_main.c $(LIB_A) \
		$(LIB_WMAIN) $(LIB_HDRS) $(LIB_CASE_DIR)/.stamp
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -Ilibetw/include $(WIN_SOURCE_FLAGS) \
		-o $(BUILD)/tests/win_main_c libetw/tests/entry/void_main.c $(LIB_A) $(LIB_LIBS)
	$(BUILD)/tests/win_main_c >/dev/null
	@for c in $(WIN_MAIN_CASES); do \
		$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include -I$(LIB_CASE_DIR) \
			$(WIN_SOURCE_FLAGS) -DCASE=$${c%%:*} -o $(BUILD)/tests/win_main $< \
			$(LIB_WMAIN) $(LIB_A) $(LIB_WMAIN) $(LIB_LIBS) || exit 1; \
		$(BUILD)/tests/win_main a b >/dev/null; st=$$?; \
		[ $$st = $${c#*:} ] || { echo "main_cases.cc case $${c%%:*}: exit $$st"; exit 1; }; \
	done
	@touch $@

unit: $(BUILD)/tests/win_main.ok

# Every header as C11, default and Windows-source mode, -m64 and -m32.
# And <evntrace.h> with <tdh.h> alone must give EVENT_RECORD, as on Windows.
# And the headers spelled in other letter cases, with standard headers
# after them and SAL of every kind, as C and as C++ (win_source_case.c).
WIN_HDR_TESTS	:= libetw/tests/headers/win_source_all.c libetw/tests/headers/evntrace_tdh.c \
		   libetw/tests/headers/win_source_case.c
$(BUILD)/tests/win_source_c.ok: $(WIN_HDR_TESTS) $(LIB_HDRS) $(LIB_STD_HDRS) $(LIB_CASE_DIR)/.stamp
	@mkdir -p $(@D)
	for f in $(WIN_HDR_TESTS); do for abi in -m64 -m32; do \
		$(CC) $$abi -std=c11 -Wall -Wextra -Werror -Ilibetw/include -I$(LIB_CASE_DIR) \
			-fsyntax-only $$f && \
		$(CC) $$abi -std=c11 -Wall -Wextra -Werror -Ilibetw/include -I$(LIB_CASE_DIR) \
			$(WIN_SOURCE_FLAGS) -fsyntax-only $$f || exit 1; \
	done; done
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include $(WIN_SOURCE_FLAGS) \
		-fsyntax-only -x c++ libetw/tests/headers/evntrace_tdh.c
	for std in c++17 c++20; do \
		$(CXX) -std=$$std -Wall -Wextra -Werror -Ilibetw/include -I$(LIB_CASE_DIR) \
			$(WIN_SOURCE_FLAGS) -fsyntax-only -x c++ libetw/tests/headers/win_source_case.c \
			|| exit 1; \
	done
	@touch $@

unit: $(BUILD)/tests/win_source_c.ok

# TraceLoggingProvider.h as C++, run (it prints KTAP); etw dump of
# Windows' TraceLogging samples needs this build's etw.
UNIT_BINS	+= $(BUILD)/tests/tracelogging_cxx
$(BUILD)/tests/tracelogging_meta $(BUILD)/tests/tld_encoding: libetw/tests/tl_recorder.h
$(BUILD)/tests/tracelogging_cxx: libetw/tests/tracelogging_cxx.cc $(LIB_HDRS)
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iuapi -Ilibetw/include -o $@ $<
$(BUILD)/tests/tl_samples $(BUILD)/tests/dump_formats $(BUILD)/tests/etl_compressed $(BUILD)/tests/stack_report: $(BUILD)/bin/etw
$(BUILD)/tests/tl_samples $(BUILD)/tests/dump_formats $(BUILD)/tests/etl_compressed $(BUILD)/tests/stack_report: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
$(BUILD)/tests/manifest_tool $(BUILD)/tests/mof_schema: $(BUILD)/bin/etw
# etw export loaded by the viewers: speedscope in Chromium, protoc (export_check.py).
$(BUILD)/tests/export_viewers: $(BUILD)/bin/etw libetw/tests/ktrace.h libetw/tests/etl_test.h \
	libetw/tests/run_cmd.h \
	libetw/tests/export_check.py tools/export/perfetto_trace.proto
$(BUILD)/tests/export_viewers: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
$(BUILD)/tests/manifest_tool: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
$(BUILD)/tests/mof_schema $(BUILD)/tests/mof_schema_asan: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
$(BUILD)/tests/mof_schema $(BUILD)/tests/mof_schema_asan: libetw/tests/tdh_consumer.h
# etw autologger's files, commands and units, with this build's etw.
$(BUILD)/tests/autologger_config: $(BUILD)/bin/etw
$(BUILD)/tests/autologger_config: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
# etw eventlog against a journald the test starts (systemd's own parts).
$(BUILD)/tests/eventlog_journal: $(BUILD)/bin/etw libetw/tests/etl_test.h
$(BUILD)/tests/eventlog_journal: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
$(BUILD)/tests/decode_kernel $(BUILD)/tests/decode_kernel_asan: $(BUILD)/bin/etw
$(BUILD)/tests/decode_kernel $(BUILD)/tests/decode_kernel_asan: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
# WPP records through etw dump --tmf.
$(BUILD)/tests/wpp_records: $(BUILD)/bin/etw
$(BUILD)/tests/wpp_records: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
# etw without the module (no_module) runs this build's etw too.
$(BUILD)/tests/no_module: $(BUILD)/bin/etw
$(BUILD)/tests/no_module: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
$(BUILD)/tests/dump_formats $(BUILD)/tests/stack_report: libetw/tests/etl_test.h libetw/tests/run_cmd.h
# etw report, dump and export unwinding a StackCopy, with this build's etw.
$(BUILD)/tests/stack_copy_unwind: $(BUILD)/bin/etw libetw/tests/ktrace.h libetw/tests/etl_test.h \
	libetw/tests/run_cmd.h
$(BUILD)/tests/stack_copy_unwind: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'

# The header `etw mc` makes of the test manifest, compiled as C (run, with
# the provider calls recorded) and as C++, in both modes.
MC_GEN		:= $(BUILD)/tests/gen/etw-test-types.h
$(MC_GEN): testdata/manifests/etw-test-types.man $(BUILD)/bin/etw
	@mkdir -p $(@D)
	$(BUILD)/bin/etw mc -um -h $(@D) -b $<
$(BUILD)/tests/mc_header $(BUILD)/tests/tdh_manifest: $(MC_GEN) libetw/tests/tl_recorder.h
$(BUILD)/tests/tdh_manifest $(BUILD)/tests/tdh_tracelogging: libetw/tests/tdh_consumer.h
$(BUILD)/tests/manifest_tool: $(BUILD)/tests/tdh_manifest
$(BUILD)/tests/tdh_tracelogging $(BUILD)/tests/tdh_sources: libetw/tests/etl_test.h
$(BUILD)/tests/tdh_sources: libetw/tests/tdh_consumer.h
$(BUILD)/tests/mc_roundtrip: $(MC_GEN) libetw/tests/tdh_consumer.h $(BUILD)/bin/etw
$(BUILD)/tests/mc_roundtrip: ALL_CFLAGS += -I$(BUILD)/tests/gen -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
$(BUILD)/tests/mc_header $(BUILD)/tests/tdh_manifest: ALL_CFLAGS += -I$(BUILD)/tests/gen
# tdh_manifest carries the manifest in its .etw_manifest section (etw mc -b).
$(BUILD)/tests/tdh_manifest: libetw/tests/tdh_manifest.c $(LIB_A) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) -pthread -o $@ $< \
		$(BUILD)/tests/gen/etw-test-types_manifest.c $(LIB_A) $(LIB_LIBS)
$(BUILD)/tests/mc_header_cxx.ok: libetw/tests/mc_header_cxx.cc $(MC_GEN) $(LIB_HDRS)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include -I$(BUILD)/tests/gen -fsyntax-only $<
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Ilibetw/include -I$(BUILD)/tests/gen \
		$(WIN_SOURCE_FLAGS) -fsyntax-only $<
	@touch $@
unit: $(BUILD)/tests/mc_header_cxx.ok

# The WPP sample (examples/wpp) through etw wpp, built in Windows-source
# mode into wpp_sample, which records it with a private logger.
WPP_GEN		:= $(BUILD)/tests/gen/wpp
WPP_SAMPLE	:= examples/wpp/tracesample.c
$(WPP_GEN)/tracesample.tmh: $(WPP_SAMPLE) examples/wpp/trace.h $(BUILD)/bin/etw
	@rm -rf $(@D) && mkdir -p $(@D)
	$(BUILD)/bin/etw wpp -odir:$(@D) -p:TraceSample -scan:examples/wpp/trace.h \
		'-func:DoTraceLevelMessage(LEVEL,FLAGS,MSG,...)' $(WPP_SAMPLE)
# etw wpp's parsers on damaged input, built in; again under ASan and UBSan.
WPP_TOOL_SRCS	:= $(wildcard tools/wpp/*.c) libetw/src/common/sha1.c
$(BUILD)/tests/wpp_fuzz: libetw/tests/wpp_fuzz.c $(WPP_TOOL_SRCS) tools/wpp/wpp.h $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(KSFT_CFLAGS) -o $@ $< $(WPP_TOOL_SRCS)
$(BUILD)/tests/wpp_fuzz_asan: libetw/tests/wpp_fuzz.c $(WPP_TOOL_SRCS) tools/wpp/wpp.h $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(KSFT_CFLAGS) $(ASAN_FLAGS) -o $@ $< \
		$(WPP_TOOL_SRCS)
$(BUILD)/tests/wpp_tool: $(BUILD)/bin/etw
$(BUILD)/tests/wpp_tool: ALL_CFLAGS += -DETW_TOOL_PATH='"$(BUILD)/bin/etw"'
$(BUILD)/tests/wpp_sample: libetw/tests/wpp_sample.c libetw/tests/wpp_expected.h $(WPP_SAMPLE) $(WPP_GEN)/tracesample.tmh \
		$(LIB_A) $(LIB_HDRS) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(KSFT_CFLAGS) $(WIN_SOURCE_FLAGS) -I$(WPP_GEN) -Iexamples/wpp \
		-DWPP_GEN_DIR='"$(WPP_GEN)"' -DETW_TOOL_PATH='"$(BUILD)/bin/etw"' \
		-pthread -o $@ $< $(WPP_SAMPLE) $(LIB_A) $(LIB_LIBS)

# The ETL reader's tests share a header.  Its fuzz test runs again under
# ASan and UBSan, the reader's sources built into it, where the compiler
# has their runtimes.
ETL_TESTS	:= $(addprefix $(BUILD)/tests/,etl_reader etl_records etl_fuzz etl_compressed)
$(ETL_TESTS): libetw/tests/etl_test.h
# Compressed files are made by a test-only compressor.
$(BUILD)/tests/etl_compressed $(BUILD)/tests/xpress_vectors $(BUILD)/tests/etl_fuzz \
	$(BUILD)/tests/etl_fuzz_asan: libetw/tests/xpress_encoder.h

ETL_SRCS	:= $(addprefix libetw/src/etl/,file.c inflate.c iter.c kernel.c merge.c names.c \
		     record.c time.c xpress.c)
ASAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
ifneq ($(filter /%,$(shell $(CC) -print-file-name=libasan.so)),)
UNIT_BINS	+= $(BUILD)/tests/etl_fuzz_asan $(BUILD)/tests/consumer_api_asan
UNIT_BINS	+= $(BUILD)/tests/decode_kernel_asan
UNIT_BINS	+= $(BUILD)/tests/manifest_parse_asan $(BUILD)/tests/tdh_tracelogging_asan
UNIT_BINS	+= $(BUILD)/tests/wpp_fuzz_asan
UNIT_BINS	+= $(BUILD)/tests/mof_schema_asan
UNIT_BINS	+= $(BUILD)/tests/wpp_tmf_asan
endif

# Manifests, MOF schemas, TraceLogging schemas, TMF texts and WPP
# payloads with bytes changed, under ASan too.
$(BUILD)/tests/manifest_parse_asan $(BUILD)/tests/tdh_tracelogging_asan \
	$(BUILD)/tests/mof_schema_asan $(BUILD)/tests/wpp_tmf_asan: \
		$(BUILD)/tests/%_asan: libetw/tests/%.c libetw/tests/etl_test.h \
		libetw/tests/tdh_consumer.h $(LIB_SRCS) $(wildcard libetw/src/*/*.h) \
		$(LIB_HDRS) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(KSFT_CFLAGS) $(ASAN_FLAGS) \
		-pthread -o $@ $< $(LIB_SRCS) $(LIB_LIBS)

$(BUILD)/tests/etl_fuzz_asan: libetw/tests/etl_fuzz.c libetw/tests/etl_test.h \
		$(ETL_SRCS) $(wildcard libetw/src/*/*.h) $(LIB_HDRS) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(KSFT_CFLAGS) $(ASAN_FLAGS) \
		-o $@ $< $(ETL_SRCS)

# The decoder over every sample and synthetic kernel record, under ASan.
$(BUILD)/tests/decode_kernel: libetw/tests/etl_test.h
$(BUILD)/tests/decode_kernel_asan: libetw/tests/decode_kernel.c libetw/tests/etl_test.h \
		$(LIB_SRCS) $(wildcard libetw/src/*/*.h) $(LIB_HDRS) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(KSFT_CFLAGS) $(ASAN_FLAGS) \
		-pthread -o $@ $< $(LIB_SRCS) $(LIB_LIBS)

# The consumer API too, the whole library built into it.
$(BUILD)/tests/consumer_api: libetw/tests/etl_test.h
$(BUILD)/tests/consumer_api_asan: libetw/tests/consumer_api.c libetw/tests/etl_test.h \
		$(LIB_SRCS) $(wildcard libetw/src/*/*.h) $(LIB_HDRS) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(KSFT_CFLAGS) $(ASAN_FLAGS) \
		-pthread -o $@ $< $(LIB_SRCS) $(LIB_LIBS)

unit: $(UNIT_BINS)
	@scripts/run-unit.sh $(UNIT_BINS)

$(KSRC)/.stamp:
	@scripts/setup.sh $(BUILD)

# The units of systemd/, with the installed etw in them.
SYSTEMD_UNITS	:= $(notdir $(basename $(wildcard systemd/*.service.in)))

install: lib tools kprov-headers-install
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/etw/linux \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(UDEVDIR) $(DESTDIR)$(UNITDIR)
	install -m 0755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libetw.so
	install -m 0644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 0644 $(LIB_HDRS) $(LIB_STD_HDRS) $(DESTDIR)$(INCLUDEDIR)/etw/
	scripts/header-case-links.sh $(DESTDIR)$(INCLUDEDIR)/etw $(DESTDIR)$(INCLUDEDIR)/etw \
		libetw/include/case-names
	install -m 0644 uapi/linux/etw.h $(DESTDIR)$(INCLUDEDIR)/etw/linux/
	$(call make_pc,$(DESTDIR)$(PKGCONFIGDIR)/libetw.pc)
	$(call make_pc,$(DESTDIR)$(PKGCONFIGDIR)/libetw-windows.pc,libetw-windows)
	$(call make_pc,$(DESTDIR)$(PKGCONFIGDIR)/libetw-windows++.pc,libetw-windows++)
	install -m 0644 $(LIB_WMAIN) $(DESTDIR)$(LIBDIR)/
	install -m 0755 $(ETW_TOOL) $(DESTDIR)$(BINDIR)/
	install -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 udev/60-etw.rules $(DESTDIR)$(UDEVDIR)/
	for u in $(SYSTEMD_UNITS); do \
		sed 's|@BINDIR@|$(BINDIR)|' systemd/$$u.in > $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done
	install -d $(DESTDIR)$(WPPDIR) $(DESTDIR)$(LIBDIR)/cmake/EtwWpp
	install -m 0644 tools/wpp/defaultwpp.ini tools/wpp/rules/wpp.mk $(DESTDIR)$(WPPDIR)/
	install -m 0644 tools/wpp/rules/EtwWppConfig.cmake $(DESTDIR)$(LIBDIR)/cmake/EtwWpp/

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libetw.so* $(DESTDIR)$(LIBDIR)/libetw.a \
		$(DESTDIR)$(PKGCONFIGDIR)/libetw.pc $(DESTDIR)$(BINDIR)/etw \
		$(DESTDIR)$(PKGCONFIGDIR)/libetw-windows.pc $(DESTDIR)$(LIBDIR)/libetw_wmain.a \
		$(DESTDIR)$(PKGCONFIGDIR)/libetw-windows++.pc \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES))) \
		$(DESTDIR)$(UDEVDIR)/60-etw.rules \
		$(addprefix $(DESTDIR)$(UNITDIR)/,$(SYSTEMD_UNITS))
	rm -rf $(DESTDIR)$(INCLUDEDIR)/etw $(DESTDIR)$(WPPDIR) $(DESTDIR)$(LIBDIR)/cmake/EtwWpp \
		$(DESTDIR)$(KPROV_DIR)

-include $(LIB_OBJS:.o=.d)
