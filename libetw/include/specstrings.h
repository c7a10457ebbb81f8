/* SPDX-License-Identifier: MIT */
/* <specstrings.h>: Windows' older name for the SAL annotations (sal.h). */
#ifndef LIBETW_SPECSTRINGS_H
#define LIBETW_SPECSTRINGS_H

#include "sal.h"

#endif /* LIBETW_SPECSTRINGS_H */
