// SPDX-License-Identifier: MIT
/*
 * The WPP sample's program: register, trace, unregister.  A session that
 * enables the control GUID (6f8b0d3a-52c4-4e1f-9a37-1c2d3e4f5a6b) with
 * flags 3 and level 4 records its messages:
 *
 *   etw start S -f s.etl && etw enable S 6f8b0d3a-52c4-4e1f-9a37-1c2d3e4f5a6b -f 3 -l 4
 *   ./tracesample 2; etw stop S
 */
#include <stdlib.h>
#include <windows.h>

#include "trace.h"

int main(int argc, char **argv)
{
	SampleStart();
	SampleRun(argc > 1 ? atoi(argv[1]) : 2);
	SampleStop();
	return 0;
}
