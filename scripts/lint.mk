# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the kernel side: checkpatch --strict and sparse on
# module/ and uapi/, any finding fails.  checkpatch.pl and kernel-doc come
# from Debian's linux-source-6.12 (scripts/setup.sh), never from the tree.

CHECKPATCH	:= perl $(KSRC)/scripts/checkpatch.pl --no-tree --strict --terse \
		   --show-types --ignore FILE_PATH_CHANGES
KERNEL_DOC	:= perl $(KSRC)/scripts/kernel-doc
LINT_FILES	:= $(wildcard module/*.c module/*.h module/klog/*.c module/klog/*.h) \
		   uapi/linux/etw.h

lint: checkpatch kernel-doc rst-check tree-check

checkpatch: $(KSRC)/.stamp
	@$(CHECKPATCH) -f $(LINT_FILES) > $(BUILD)/checkpatch.log 2>&1; \
	if [ -s $(BUILD)/checkpatch.log ] && grep -q . $(BUILD)/checkpatch.log; then \
		cat $(BUILD)/checkpatch.log; echo "checkpatch: findings above" >&2; exit 1; \
	fi; echo "checkpatch: clean ($(words $(LINT_FILES)) files)"

# The uapi header is documented field by field; kernel-doc must not warn.
kernel-doc: $(KSRC)/.stamp
	@out=$$($(KERNEL_DOC) -none -Wall uapi/linux/etw.h 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; echo "kernel-doc: findings above" >&2; exit 1; fi; \
	echo "kernel-doc: clean"

# sparse (C=2: every file, not only the rebuilt ones) with warnings as
# errors, against one kernel: make sparse-<release>
# (etw.ko alone: the selftest module's generated header has u"" literals,
# which sparse does not parse.)
sparse-%: KMOD_SELFTEST :=
sparse-%:
	$(call kmod_build,/usr/src/linux-headers-$*,C=2 CF=-Wsparse-error)

# Documentation/ parses as reStructuredText with no warning (titles,
# tables, lists); Sphinx's own directives are taken unchecked.  Debian's
# python3 and its python3-docutils (scripts/setup.sh), whatever python3
# comes first in PATH.
rst-check:
	@/usr/bin/python3 scripts/rst-check.py $(sort $(shell find Documentation -name '*.rst'))

# Nothing outside the repository is referred to; libetw/src's layering.
tree-check:
	@scripts/tree-check.sh

.PHONY: lint checkpatch kernel-doc rst-check tree-check
