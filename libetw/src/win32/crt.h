/* SPDX-License-Identifier: MIT */
/*
 * The library's side of etw_crt.h: its functions (etw_crt_decl.h, with
 * char16_t for the header's 16-bit wchar_t: the library itself is built
 * without -fshort-wchar) and the formatter under them.
 */
#ifndef LIBETW_WIN32_CRT_H
#define LIBETW_WIN32_CRT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <uchar.h>

#include "../common/internal.h"

/*
 * The formatter under every printf-family function: @fmt is UTF-16 when
 * @wide_fmt, bytes (UTF-8) otherwise, and so is the output it appends to
 * @out.  Returns 0, or -1 with errno set (EINVAL for a bad format,
 * ENOMEM).
 */
struct etw_obuf {
	void *p;		/* char16_t or char units */
	size_t len, cap;	/* in units */
	int wide;
};

int etw_format(struct etw_obuf *out, const void *fmt, va_list ap);
void etw_obuf_free(struct etw_obuf *out);

/* Lenient UTF conversions: what is not valid becomes U+FFFD. */
int etw_obuf_put16(struct etw_obuf *o, const char16_t *s, size_t n);
int etw_obuf_put8(struct etw_obuf *o, const char *s, size_t n);
/* UTF-16 to a new NUL-terminated UTF-8 string (malloc), or NULL. */
char *etw_u16_to_u8_dup(const char16_t *s, size_t n);
/* UTF-8 to a new NUL-terminated UTF-16 string (malloc), or NULL. */
char16_t *etw_u8_to_u16_dup(const char *s, size_t n, size_t *out_len);

size_t etw_u16len(const char16_t *s);

/*
 * One code point: the next of UTF-16 @s or UTF-8 @s (@n units left, at
 * least 1), @used set to the units read; U+FFFD for what is not valid
 * (one unit read).  etw_enc8/16 write @c and return the units written.
 */
unsigned int etw_next16(const char16_t *s, size_t n, size_t *used);
unsigned int etw_next8(const unsigned char *s, size_t n, size_t *used);
size_t etw_enc8(unsigned int c, char *out);
size_t etw_enc16(unsigned int c, char16_t *out);

/* etw_crt.h's functions, with char16_t for its wchar_t; conio.h's. */
#define ETW_CRT_WCHAR char16_t
#include <etw_crt_decl.h>

int etw_getch(void);
int etw_getche(void);
int etw_kbhit(void);

#endif /* LIBETW_WIN32_CRT_H */
