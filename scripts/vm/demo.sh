#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo, inside the VM: the main job end to end, as far as it exists.
echo "ETW-DEMO"
ok=ok
say() { printf '\n--- %s\n' "$*"; }
run() { echo "\$ $*"; "$@" || ok=fail; }
guid=b3864c38-4273-58c5-545b-8b3608343471

say "1. etw.ko is loaded and /dev/etw is there"
grep '^etw ' /proc/modules
ls -l /dev/etw || ok=fail

say "2. the etw command talks to the module"
run etw version

say "3. a session records a provider written as on Windows (EventRegister, EventWrite)"
run etw record -o /tmp/demo.etl -p "$guid:5" -- etw-example-provider 5
ls -l /tmp/demo.etl

say "4. sessions from the command line: a circular file session written by its logger"
run etw start demo --buffer-size 16 -o /tmp/demo-ring.etl --circular --max-size 1
run etw enable demo "$guid" --level 4 --any-keyword 0x1
etw-example-provider 3 >/dev/null
run etw list
run etw stop demo
echo "\$ etw stop demo   # again: the error names the Win32 code"
etw stop demo
run etw dump --summary /tmp/demo-ring.etl

say "5. the decoder prints the file"
run etw dump /tmp/demo.etl
run etw dump --summary /tmp/demo.etl

say "6. TraceLogging: a provider named by name, events that describe themselves"
run etw guid MyCompany.MyComponent
run etw record -o /tmp/tl.etl -p MyCompany.MyComponent -- etw-example-tracelogging 2
run etw dump /tmp/tl.etl

say "7. a classic provider and a private logger: a session inside the process"
run etw-example-private-logger /tmp/private.etl
run etw dump /tmp/private.etl

say "8. a kernel trace seen in viewers: CPU samples with stacks, context switches"
cat > /tmp/work.sh <<'WORK'
spin() { i=0; while [ $i -lt "$1" ]; do i=$((i + 1)); done; }
spin 4000; sleep 0.2; spin 4000 & spin 2000; wait
WORK
run etw record --kernel process,thread,image,profile,cswitch -o /tmp/kernel.etl -- sh /tmp/work.sh
echo "\$ etw report --top 2 /tmp/kernel.etl | head -n 40"
etw report --top 2 /tmp/kernel.etl | head -n 40
run etw export -f speedscope --process busybox -o /tmp/demo.speedscope.json /tmp/kernel.etl
run etw export -f perfetto -o /tmp/demo.pftrace /tmp/kernel.etl
ls -l /tmp/demo.speedscope.json /tmp/demo.pftrace
# The files leave the VM on its console (make demo puts them in BUILD/check/).
for f in demo.speedscope.json demo.pftrace; do
	echo "ETW-FILE-BEGIN $f"
	base64 "/tmp/$f"
	echo "ETW-FILE-END"
done

echo
echo "ETW-DEMO-END $ok"
