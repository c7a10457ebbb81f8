#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make install into a staging directory, then check what a packager and a
# user get: the files, the soname, the symbol versions, and that
# examples/provider.c, examples/tracelogging.c and examples/controller.c
# (the last two also as C++) build with
# `pkg-config --cflags --libs libetw`
# against the staged tree alone, and a Windows-source program with
# `pkg-config --cflags --libs libetw-windows` (as C++ also with
# libetw-windows++), and examples/wpp with the
# installed etw wpp make rules and CMake module.
#   install-test.sh BUILD_DIR
set -eu
build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
dest=$(cd "$build" && pwd)/destdir
rm -rf "$dest"
make -s --no-print-directory BUILD="$build" install DESTDIR="$dest" PREFIX=/usr \
	UDEVDIR=/usr/lib/udev/rules.d >/dev/null
make -s --no-print-directory BUILD="$build" modules_install \
	INSTALL_MOD_PATH="$dest" >/dev/null 2>&1 || true

fail=0
need() {
	if [ ! -e "$dest$1" ]; then
		echo "install-test: missing $1"
		fail=1
	fi
}
need /usr/lib/libetw.so.0
need /usr/lib/libetw.so
need /usr/lib/libetw.a
need /usr/lib/pkgconfig/libetw.pc
need /usr/lib/pkgconfig/libetw-windows.pc
need /usr/lib/pkgconfig/libetw-windows++.pc
need /usr/lib/libetw_wmain.a
need /usr/include/etw/strsafe.h
need /usr/include/etw/etw_crt.h
need /usr/include/etw/libetw.h
need /usr/include/etw/evntprov.h
need /usr/include/etw/evntrace.h
need /usr/include/etw/TraceLoggingProvider.h
need /usr/include/etw/etw_tld.h
need /usr/include/etw/etw_tl.h
need /usr/include/etw/linux/etw.h
# The Windows headers' other spellings, and the wrapped standard headers.
need /usr/include/etw/Windows.h
need /usr/include/etw/WinDef.h
need /usr/include/etw/Evntrace.h
need /usr/include/etw/regex
need /usr/bin/etw
need /usr/share/man/man1/etw.1
need /lib/systemd/system/etw-eventlog.service
grep -q '^ExecStart=/usr/bin/etw eventlog run$' "$dest/lib/systemd/system/etw-eventlog.service" ||
	{ echo "install-test: etw-eventlog.service does not run /usr/bin/etw"; fail=1; }
need /lib/systemd/system/etw-autologger.service
need /lib/systemd/system/etw-autologger-flush.service
grep -q '^ExecStart=/usr/bin/etw autologger start --early$' "$dest/lib/systemd/system/etw-autologger.service" ||
	{ echo "install-test: etw-autologger.service does not run /usr/bin/etw"; fail=1; }
grep -q '^ExecStart=/usr/bin/etw autologger flush$' "$dest/lib/systemd/system/etw-autologger-flush.service" ||
	{ echo "install-test: etw-autologger-flush.service does not run /usr/bin/etw"; fail=1; }
# Every subcommand etw --help lists has its page.
for cmd in $("$build/bin/etw" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
	need "/usr/share/man/man1/etw-$cmd.1"
done
need /usr/lib/udev/rules.d/60-etw.rules
need /usr/include/etw/etw_wpp.h
need /usr/share/etw/wpp/defaultwpp.ini
need /usr/share/etw/wpp/wpp.mk
need /usr/lib/cmake/EtwWpp/EtwWppConfig.cmake

soname=$(readelf -d "$dest/usr/lib/libetw.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libetw.so.0 ] || { echo "install-test: soname is '$soname'"; fail=1; }
if ! readelf --dyn-syms -W "$dest/usr/lib/libetw.so.0" | grep -q 'EventWrite@@LIBETW_0.1'; then
	echo "install-test: EventWrite is not versioned LIBETW_0.1"
	fail=1
fi

# Build the example against the staged tree only.
# The staged .pc files first, the system's after them for the packages
# they require (expat, libelf).
syspc=$(pkg-config --variable pc_path pkg-config)
export PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_LIBDIR="$dest/usr/lib/pkgconfig:$syspc"
flags=$(pkg-config --cflags --libs libetw)
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror examples/provider.c $flags -o "$build/provider-installed" ||
	fail=1
# TraceLogging, as C and as C++, against the installed headers.
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror examples/tracelogging.c $flags -o "$build/tracelogging-installed" ||
	fail=1
# shellcheck disable=SC2086
c++ -std=c++17 -Wall -Wextra -Werror -x c++ examples/tracelogging.c $flags \
	-o "$build/tracelogging-installed-cxx" || fail=1
# A controller: <windows.h>, <wmistr.h>, <evntprov.h>, <evntrace.h> and
# <evntcons.h> in Windows' order, as C and as C++.
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror examples/controller.c $flags -o "$build/controller-installed" ||
	fail=1
# shellcheck disable=SC2086
c++ -std=c++17 -Wall -Wextra -Werror -x c++ examples/controller.c $flags \
	-o "$build/controller-installed-cxx" || fail=1
# Windows-source mode: a _tmain program with L"" text, wprintf, strsafe
# and the tchar routines, headers spelled as Windows programs spell them,
# as C and as C++, against the staged tree alone.
wflags=$(pkg-config --cflags --libs libetw-windows)
cat > "$build/winsrc-installed.c" <<'EOF'
#include <stdio.h>
#include <Windows.h>
#include <TChar.h>
#include <strsafe.h>
#include <Evntrace.h>

int __cdecl _tmain(int argc, _TCHAR **argv)
{
	WCHAR buf[64];

	UNREFERENCED_PARAMETER(argc);
	if (FAILED(StringCchPrintf(buf, ARRAYSIZE(buf), _T("%s %d"), _T("x"), 1)))
		return 1;
	return _tcsicmp(buf, _T("X 1")) != 0 || wprintf(L"%s %S\n", argv[0], "ok") < 0;
}
EOF
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror -DUNICODE -D_UNICODE "$build/winsrc-installed.c" $wflags \
	-o "$build/winsrc-installed" || fail=1
LD_LIBRARY_PATH="$dest/usr/lib" "$build/winsrc-installed" > /dev/null || fail=1
# shellcheck disable=SC2086
c++ -std=c++17 -Wall -Wextra -Werror -DUNICODE -D_UNICODE -x c++ "$build/winsrc-installed.c" \
	$wflags -o "$build/winsrc-installed-cxx" || fail=1
LD_LIBRARY_PATH="$dest/usr/lib" "$build/winsrc-installed-cxx" > /dev/null || fail=1
# C++ with libetw-windows++ (libetw-windows and -fpermissive): the same
# program, -Werror.
# shellcheck disable=SC2086
c++ -std=c++17 -Wall -Wextra -Werror -DUNICODE -D_UNICODE -x c++ "$build/winsrc-installed.c" \
	$(pkg-config --cflags --libs libetw-windows++) -o "$build/winsrc-installed-cxxp" || fail=1
LD_LIBRARY_PATH="$dest/usr/lib" "$build/winsrc-installed-cxxp" > /dev/null || fail=1
# The WPP sample with the installed make rules and CMake module: etw wpp
# runs before the compiler, and the program carries its TMF.
wppmk=$(pkg-config --variable=wppdir libetw-windows)/wpp.mk
rm -rf "$build/wpp-make" "$build/wpp-cmake"
cp -r examples/wpp "$build/wpp-make"
make -s -C "$build/wpp-make" WPP_MK="$wppmk" ETW_WPP="$dest/usr/bin/etw wpp" >/dev/null || fail=1
objcopy -O binary --only-section=.etw.tmf "$build/wpp-make/tracesample" "$build/wpp-make/tmf"
head -c -1 "$build/wpp-make/tmf" | cmp -s - "$build/wpp-make/wpp/"*.tmf ||
	{ echo "install-test: the sample's .etw.tmf is not its TMF"; fail=1; }
# (cmake: scripts/setup.sh installs it.)
if ! cmake -S examples/wpp -B "$build/wpp-cmake" -DCMAKE_PREFIX_PATH="$dest/usr" \
	-DETW_EXECUTABLE="$dest/usr/bin/etw" >/dev/null ||
   ! cmake --build "$build/wpp-cmake" >/dev/null || [ ! -x "$build/wpp-cmake/tracesample" ]; then
	echo "install-test: CMake WPP build"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "install-test: ok ($dest)"
exit "$fail"
