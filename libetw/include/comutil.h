/* SPDX-License-Identifier: MIT */
/*
 * <comutil.h>: MSVC's _bstr_t and _variant_t.  Not part of libetw: ETW
 * samples include it without using them (Windows-classic-samples'
 * EtwConsumer and WppConsumer), so it gives what <comdef.h> gives, and a
 * program that uses the classes fails to compile, naming them.
 */
#ifndef LIBETW_COMUTIL_H
#define LIBETW_COMUTIL_H

#include "comdef.h"

#endif /* LIBETW_COMUTIL_H */
