#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Count KTAP results read from stdin: prints "PASS FAIL SKIP".
# Only top-level test lines count ("ok N name", "not ok N name"); a
# "# SKIP" directive makes an ok a skip.
awk '
/^ok [0-9]+ .*# SKIP/	{ skip++; next }
/^ok [0-9]+ /		{ pass++; next }
/^not ok [0-9]+ /	{ fail++; next }
END			{ printf "%d %d %d\n", pass, fail, skip }
'
