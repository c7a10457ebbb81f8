#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse every Documentation/*.rst with docutils; any warning fails.

Sphinx's own directives and roles (kernel-doc, toctree, :doc:, ...) are
not docutils': they are accepted here unchecked, as the kernel's Sphinx
build would resolve them.  What is checked is the reStructuredText itself:
titles, tables, lists, literal blocks.
"""
import io
import sys

import docutils.core
from docutils.parsers.rst import Directive, directives, roles


class Unchecked(Directive):
    """A Sphinx directive: its arguments and content are not docutils'."""
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = None
    has_content = True

    def run(self):
        return []


class AnyOption(dict):
    """Every option is accepted, as text."""
    def __getitem__(self, key):
        return directives.unchanged


Unchecked.option_spec = AnyOption()

for name in ("kernel-doc", "toctree", "c:function", "c:type", "c:macro",
             "c:struct", "only", "kernel-include"):
    directives.register_directive(name, Unchecked)


def unchecked_role(name, rawtext, text, lineno, inliner, options=None,
                   content=None):
    return [], []


for name in ("doc", "ref", "c:func", "c:type", "c:macro", "manpage"):
    roles.register_local_role(name, unchecked_role)

failed = 0
for path in sys.argv[1:]:
    err = io.StringIO()
    with open(path, encoding="utf-8") as f:
        docutils.core.publish_doctree(
            f.read(), source_path=path,
            settings_overrides={"warning_stream": err, "report_level": 2,
                                "halt_level": 5})
    if err.getvalue():
        sys.stdout.write(err.getvalue())
        failed += 1
print("rst-check: %s (%d files)" % ("findings above" if failed else "clean",
                                   len(sys.argv) - 1))
sys.exit(1 if failed else 0)
