# SPDX-License-Identifier: GPL-2.0
#
# The etw command: one binary, one file per subcommand.

TOOL_SRCS	:= $(wildcard tools/*.c)
TOOL_OBJS	:= $(TOOL_SRCS:%.c=$(BUILD)/%.o)
ETW_TOOL	:= $(BUILD)/bin/etw
MAN_PAGES	:= $(wildcard tools/man/*.1)

tools: $(ETW_TOOL)

$(BUILD)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itools -c -o $@ $<

# Linked against the shared library, as an installed etw would be.
$(ETW_TOOL): $(TOOL_OBJS) $(LIB_SO)
	@mkdir -p $(@D)
	$(CC) -o $@ $(TOOL_OBJS) -L$(BUILD)/lib -letw -ldw -lelf -Wl,-rpath,'$$ORIGIN/../lib'

-include $(TOOL_OBJS:.o=.d)
