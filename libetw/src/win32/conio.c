// SPDX-License-Identifier: MIT
/*
 * The C runtime's _getch, _getche and _kbhit (conio.h).  On a terminal
 * the key is read with canonical mode and echo off, the terminal's
 * settings restored before returning; elsewhere one byte of standard
 * input is read as it is.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

#include "../common/internal.h"
#include "crt.h"

static int read_key(int echo)
{
	struct termios old, raw;
	unsigned char c;
	int tty = isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &old);
	ssize_t n;

	if (tty) {
		raw = old;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	fflush(stdout);
	do {
		n = read(STDIN_FILENO, &c, 1);
	} while (n < 0 && errno == EINTR);
	if (tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &old);
	if (n != 1)
		return EOF;
	if (echo) {
		putchar(c);
		fflush(stdout);
	}
	/* Enter is '\r' on Windows' console. */
	return tty && c == '\n' ? '\r' : c;
}

ETW_EXPORT int etw_getch(void)
{
	return read_key(0);
}

ETW_EXPORT int etw_getche(void)
{
	return read_key(1);
}

/* Non-zero when a key (a byte) is waiting. */
ETW_EXPORT int etw_kbhit(void)
{
	struct termios old, raw;
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	int tty = isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &old), rc;

	if (tty) {
		/* Without canonical mode a key counts before Enter. */
		raw = old;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	rc = poll(&p, 1, 0) == 1 && (p.revents & (POLLIN | POLLHUP));
	if (tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &old);
	return rc;
}
