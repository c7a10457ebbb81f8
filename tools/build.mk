# SPDX-License-Identifier: GPL-2.0
#
# The etw command: one binary, its files in rooms:
#   etw.c, etw.h, progress.c  the entry point and what every room shares
#   cmd/     the subcommands, one file each, and the session helpers
#   dump/    etw dump's formatters: text, JSON, CSV, XML, and the decoding
#   model/   the trace model: processes, threads, images, stacks, symbols,
#            the CPU-sample counts reports are made from
#   mc/      etw mc's generators: the C header of a manifest
#   eventlog/  etw eventlog: channel events into the systemd journal

TOOL_SRCS	:= $(wildcard tools/*.c tools/*/*.c)
TOOL_OBJS	:= $(TOOL_SRCS:%.c=$(BUILD)/%.o)
ETW_TOOL	:= $(BUILD)/bin/etw
MAN_PAGES	:= $(wildcard tools/man/*.1)

tools: $(ETW_TOOL)

$(BUILD)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itools -c -o $@ $<

# Linked against the shared library, as an installed etw would be; the
# RUNPATH finds it in build/lib and in $(PREFIX)/lib (none in the Debian
# package: the library is in a system directory there).
TOOL_RPATH	?= -Wl,-rpath,'$$ORIGIN/../lib'
$(ETW_TOOL): $(TOOL_OBJS) $(LIB_SO)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJS) -L$(BUILD)/lib -letw -ldw -lelf -lsystemd $(TOOL_RPATH)

-include $(TOOL_OBJS:.o=.d)
