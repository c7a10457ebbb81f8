// SPDX-License-Identifier: GPL-2.0
// The header `etw mc` makes compiles as C++ too, in the default and the
// Windows-source mode (built with -fsyntax-only).
#include "etw-test-types.h"

static ULONG write_one()
{
	return EventWriteEmptyEvent();
}

int main()
{
	EventRegisterEtw_Test_Manifest();
	write_one();
	return (int)EventUnregisterEtw_Test_Manifest();
}
