# SPDX-License-Identifier: GPL-2.0
#
# Examples, built against the in-tree library (the install test builds
# them again against the installed one).

EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))

examples: $(EXAMPLES)

$(BUILD)/examples/%: examples/%.c $(LIB_SO)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< -L$(BUILD)/lib -letw -Wl,-rpath,'$$ORIGIN/../lib'

.PHONY: examples
