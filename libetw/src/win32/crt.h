/* SPDX-License-Identifier: MIT */
/*
 * The library's side of etw_crt.h: the same functions with char16_t for
 * the header's 16-bit wchar_t (the library itself is built without
 * -fshort-wchar; the two types have one ABI).
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

/* etw_crt.h's and conio.h's functions, with char16_t for wchar_t. */
int etw_wprintf(const char16_t *format, ...);
int etw_fwprintf(FILE *stream, const char16_t *format, ...);
int etw_vwprintf(const char16_t *format, va_list ap);
int etw_vfwprintf(FILE *stream, const char16_t *format, va_list ap);
int etw_swprintf(char16_t *buffer, size_t count, const char16_t *format, ...);
int etw_vswprintf(char16_t *buffer, size_t count, const char16_t *format, va_list ap);
int etw_snwprintf(char16_t *buffer, size_t count, const char16_t *format, ...);
int etw_vsnwprintf(char16_t *buffer, size_t count, const char16_t *format, va_list ap);
int etw_swprintf_s(char16_t *buffer, size_t count, const char16_t *format, ...);
int etw_vswprintf_s(char16_t *buffer, size_t count, const char16_t *format, va_list ap);
int etw_snwprintf_s(char16_t *buffer, size_t size, size_t count, const char16_t *format, ...);
int etw_scwprintf(const char16_t *format, ...);
int etw_swprintf_legacy(char16_t *buffer, const char16_t *format, ...);
int etw_fputws(const char16_t *str, FILE *stream);
int etw_putws(const char16_t *str);
unsigned int etw_putwchar(unsigned int c);
unsigned int etw_fputwc(unsigned int c, FILE *stream);
int etw_wfopen_s(FILE **file, const char16_t *filename, const char16_t *mode);
int etw_fopen_s(FILE **file, const char *filename, const char *mode);
int etw_printf(const char *format, ...);
int etw_fprintf(FILE *stream, const char *format, ...);
int etw_vprintf(const char *format, va_list ap);
int etw_vfprintf(FILE *stream, const char *format, va_list ap);
int etw_sprintf(char *buffer, const char *format, ...);
int etw_vsprintf(char *buffer, const char *format, va_list ap);
int etw_snprintf(char *buffer, size_t count, const char *format, ...);
int etw_vsnprintf(char *buffer, size_t count, const char *format, va_list ap);
int etw_snprintf_ms(char *buffer, size_t count, const char *format, ...);
int etw_vsnprintf_ms(char *buffer, size_t count, const char *format, va_list ap);
int etw_sprintf_s(char *buffer, size_t count, const char *format, ...);
int etw_vsprintf_s(char *buffer, size_t count, const char *format, va_list ap);
size_t etw_wcslen(const char16_t *s);
size_t etw_wcsnlen(const char16_t *s, size_t max);
char16_t *etw_wcscpy(char16_t *dst, const char16_t *src);
char16_t *etw_wcsncpy(char16_t *dst, const char16_t *src, size_t n);
char16_t *etw_wcscat(char16_t *dst, const char16_t *src);
char16_t *etw_wcsncat(char16_t *dst, const char16_t *src, size_t n);
int etw_wcscmp(const char16_t *a, const char16_t *b);
int etw_wcsncmp(const char16_t *a, const char16_t *b, size_t n);
int etw_wcsicmp(const char16_t *a, const char16_t *b);
int etw_wcsnicmp(const char16_t *a, const char16_t *b, size_t n);
char16_t *etw_wcschr(const char16_t *s, char16_t c);
char16_t *etw_wcsrchr(const char16_t *s, char16_t c);
char16_t *etw_wcsstr(const char16_t *hay, const char16_t *needle);
size_t etw_wcsspn(const char16_t *s, const char16_t *accept);
size_t etw_wcscspn(const char16_t *s, const char16_t *reject);
char16_t *etw_wcspbrk(const char16_t *s, const char16_t *accept);
char16_t *etw_wcstok_s(char16_t *s, const char16_t *delim, char16_t **context);
char16_t *etw_wcsdup(const char16_t *s);
char16_t *etw_wcslwr(char16_t *s);
char16_t *etw_wcsupr(char16_t *s);
int etw_wcscpy_s(char16_t *dst, size_t size, const char16_t *src);
int etw_wcsncpy_s(char16_t *dst, size_t size, const char16_t *src, size_t count);
int etw_wcscat_s(char16_t *dst, size_t size, const char16_t *src);
char16_t *etw_wmemcpy(char16_t *dst, const char16_t *src, size_t n);
char16_t *etw_wmemmove(char16_t *dst, const char16_t *src, size_t n);
char16_t *etw_wmemset(char16_t *dst, char16_t c, size_t n);
int etw_wmemcmp(const char16_t *a, const char16_t *b, size_t n);
char16_t *etw_wmemchr(const char16_t *s, char16_t c, size_t n);
int etw_stricmp(const char *a, const char *b);
int etw_strnicmp(const char *a, const char *b, size_t n);
int etw_strcpy_s(char *dst, size_t size, const char *src);
int etw_strncpy_s(char *dst, size_t size, const char *src, size_t count);
int etw_strcat_s(char *dst, size_t size, const char *src);
char *etw_strdup(const char *s);
int etw_wtoi(const char16_t *s);
long etw_wtol(const char16_t *s);
long long etw_wtoi64(const char16_t *s);
long etw_wcstol(const char16_t *s, char16_t **end, int base);
unsigned long etw_wcstoul(const char16_t *s, char16_t **end, int base);
long long etw_wcstoll(const char16_t *s, char16_t **end, int base);
unsigned long long etw_wcstoull(const char16_t *s, char16_t **end, int base);
double etw_wtof(const char16_t *s);
double etw_wcstod(const char16_t *s, char16_t **end);
size_t etw_mbstowcs(char16_t *dst, const char *src, size_t n);
size_t etw_wcstombs(char *dst, const char16_t *src, size_t n);
char16_t *etw_wfullpath(char16_t *abs, const char16_t *rel, size_t max);
char *etw_fullpath(char *abs, const char *rel, size_t max);
char16_t *etw_wgetenv(const char16_t *name);
int etw_getch(void);
int etw_getche(void);
int etw_kbhit(void);

#endif /* LIBETW_WIN32_CRT_H */
