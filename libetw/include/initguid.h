/* SPDX-License-Identifier: MIT */
/*
 * Include first in one source file to make every DEFINE_GUID that follows
 * a definition instead of a declaration (see guiddef.h).  No include guard,
 * as on Windows.
 */
#define INITGUID
#include "guiddef.h"
