/* SPDX-License-Identifier: MIT */
/*
 * conio.h for libetw: _getch and _kbhit, with which console samples wait
 * for a key ("Press any key to stop the session").  On a terminal they
 * read one key without echo or line buffering; on anything else (a pipe,
 * a file) _getch reads one byte and _kbhit reports whether one is ready.
 * _getch returns EOF (-1) at the end of the input.
 */
#ifndef LIBETW_CONIO_H
#define LIBETW_CONIO_H

#include "windows.h"
#include "etw_win32.h"

#ifdef __cplusplus
extern "C" {
#endif

int etw_getch(void);
int etw_getche(void);
int etw_kbhit(void);

#ifdef __cplusplus
}
#endif

#define _getch		etw_getch
#define _getche		etw_getche
#define _kbhit		etw_kbhit
#define _getwch		etw_getch

#endif /* LIBETW_CONIO_H */
