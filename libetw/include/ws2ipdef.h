/* SPDX-License-Identifier: MIT */
/* <ws2ipdef.h>: the IPv6 socket address types, of <winsock2.h> here. */
#ifndef LIBETW_WS2IPDEF_H
#define LIBETW_WS2IPDEF_H

#include "winsock2.h"

#endif /* LIBETW_WS2IPDEF_H */
