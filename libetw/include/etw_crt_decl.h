/* SPDX-License-Identifier: MIT */
/*
 * The functions behind etw_crt.h's names, declared once for both sides:
 * programs see ETW_CRT_WCHAR as their 16-bit wchar_t (etw_crt.h, built
 * with -fshort-wchar), the library, built without it, as char16_t.  The
 * two types have one ABI.  Not for direct use: include <windows.h> in
 * Windows-source mode.
 */
#ifndef LIBETW_ETW_CRT_DECL_H
#define LIBETW_ETW_CRT_DECL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#ifndef ETW_CRT_WCHAR
#error "define ETW_CRT_WCHAR before including etw_crt_decl.h"
#endif

#ifndef _ERRNO_T_DEFINED
#define _ERRNO_T_DEFINED
typedef int errno_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* stdio: wide */
int etw_wprintf(const ETW_CRT_WCHAR *format, ...);
int etw_fwprintf(FILE *stream, const ETW_CRT_WCHAR *format, ...);
int etw_vwprintf(const ETW_CRT_WCHAR *format, va_list ap);
int etw_vfwprintf(FILE *stream, const ETW_CRT_WCHAR *format, va_list ap);
int etw_swprintf(ETW_CRT_WCHAR *buffer, size_t count, const ETW_CRT_WCHAR *format, ...);
int etw_vswprintf(ETW_CRT_WCHAR *buffer, size_t count, const ETW_CRT_WCHAR *format, va_list ap);
int etw_snwprintf(ETW_CRT_WCHAR *buffer, size_t count, const ETW_CRT_WCHAR *format, ...);
int etw_vsnwprintf(ETW_CRT_WCHAR *buffer, size_t count, const ETW_CRT_WCHAR *format, va_list ap);
int etw_swprintf_s(ETW_CRT_WCHAR *buffer, size_t count, const ETW_CRT_WCHAR *format, ...);
int etw_vswprintf_s(ETW_CRT_WCHAR *buffer, size_t count, const ETW_CRT_WCHAR *format, va_list ap);
int etw_snwprintf_s(ETW_CRT_WCHAR *buffer, size_t size, size_t count, const ETW_CRT_WCHAR *format, ...);
int etw_scwprintf(const ETW_CRT_WCHAR *format, ...);
int etw_swprintf_legacy(ETW_CRT_WCHAR *buffer, const ETW_CRT_WCHAR *format, ...);
int etw_fputws(const ETW_CRT_WCHAR *str, FILE *stream);
int etw_putws(const ETW_CRT_WCHAR *str);
unsigned int etw_putwchar(unsigned int c);
unsigned int etw_fputwc(unsigned int c, FILE *stream);
FILE *etw_wfopen(const ETW_CRT_WCHAR *filename, const ETW_CRT_WCHAR *mode);
errno_t etw_wfopen_s(FILE **file, const ETW_CRT_WCHAR *filename, const ETW_CRT_WCHAR *mode);
errno_t etw_fopen_s(FILE **file, const char *filename, const char *mode);

/* stdio: narrow, with the same rules (%S is a wide string) */
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

/* string.h / wchar.h */
size_t etw_wcslen(const ETW_CRT_WCHAR *s);
size_t etw_wcsnlen(const ETW_CRT_WCHAR *s, size_t max);
ETW_CRT_WCHAR *etw_wcscpy(ETW_CRT_WCHAR *dst, const ETW_CRT_WCHAR *src);
ETW_CRT_WCHAR *etw_wcsncpy(ETW_CRT_WCHAR *dst, const ETW_CRT_WCHAR *src, size_t n);
ETW_CRT_WCHAR *etw_wcscat(ETW_CRT_WCHAR *dst, const ETW_CRT_WCHAR *src);
ETW_CRT_WCHAR *etw_wcsncat(ETW_CRT_WCHAR *dst, const ETW_CRT_WCHAR *src, size_t n);
int etw_wcscmp(const ETW_CRT_WCHAR *a, const ETW_CRT_WCHAR *b);
int etw_wcsncmp(const ETW_CRT_WCHAR *a, const ETW_CRT_WCHAR *b, size_t n);
int etw_wcsicmp(const ETW_CRT_WCHAR *a, const ETW_CRT_WCHAR *b);
int etw_wcsnicmp(const ETW_CRT_WCHAR *a, const ETW_CRT_WCHAR *b, size_t n);
ETW_CRT_WCHAR *etw_wcschr(const ETW_CRT_WCHAR *s, ETW_CRT_WCHAR c);
ETW_CRT_WCHAR *etw_wcsrchr(const ETW_CRT_WCHAR *s, ETW_CRT_WCHAR c);
ETW_CRT_WCHAR *etw_wcsstr(const ETW_CRT_WCHAR *hay, const ETW_CRT_WCHAR *needle);
size_t etw_wcsspn(const ETW_CRT_WCHAR *s, const ETW_CRT_WCHAR *accept);
size_t etw_wcscspn(const ETW_CRT_WCHAR *s, const ETW_CRT_WCHAR *reject);
ETW_CRT_WCHAR *etw_wcspbrk(const ETW_CRT_WCHAR *s, const ETW_CRT_WCHAR *accept);
ETW_CRT_WCHAR *etw_wcstok_s(ETW_CRT_WCHAR *s, const ETW_CRT_WCHAR *delim, ETW_CRT_WCHAR **context);
ETW_CRT_WCHAR *etw_wcsdup(const ETW_CRT_WCHAR *s);
ETW_CRT_WCHAR *etw_wcslwr(ETW_CRT_WCHAR *s);
ETW_CRT_WCHAR *etw_wcsupr(ETW_CRT_WCHAR *s);
errno_t etw_wcscpy_s(ETW_CRT_WCHAR *dst, size_t size, const ETW_CRT_WCHAR *src);
errno_t etw_wcsncpy_s(ETW_CRT_WCHAR *dst, size_t size, const ETW_CRT_WCHAR *src, size_t count);
errno_t etw_wcscat_s(ETW_CRT_WCHAR *dst, size_t size, const ETW_CRT_WCHAR *src);
ETW_CRT_WCHAR *etw_wmemcpy(ETW_CRT_WCHAR *dst, const ETW_CRT_WCHAR *src, size_t n);
ETW_CRT_WCHAR *etw_wmemmove(ETW_CRT_WCHAR *dst, const ETW_CRT_WCHAR *src, size_t n);
ETW_CRT_WCHAR *etw_wmemset(ETW_CRT_WCHAR *dst, ETW_CRT_WCHAR c, size_t n);
int etw_wmemcmp(const ETW_CRT_WCHAR *a, const ETW_CRT_WCHAR *b, size_t n);
ETW_CRT_WCHAR *etw_wmemchr(const ETW_CRT_WCHAR *s, ETW_CRT_WCHAR c, size_t n);
int etw_stricmp(const char *a, const char *b);
int etw_strnicmp(const char *a, const char *b, size_t n);
errno_t etw_strcpy_s(char *dst, size_t size, const char *src);
errno_t etw_strncpy_s(char *dst, size_t size, const char *src, size_t count);
errno_t etw_strcat_s(char *dst, size_t size, const char *src);
char *etw_strdup(const char *s);
errno_t etw_strncat_s(char *dst, size_t size, const char *src, size_t count);
errno_t etw_wcsncat_s(ETW_CRT_WCHAR *dst, size_t size, const ETW_CRT_WCHAR *src, size_t count);
errno_t etw_memcpy_s(void *dst, size_t size, const void *src, size_t count);
errno_t etw_memmove_s(void *dst, size_t size, const void *src, size_t count);
errno_t etw_wmemcpy_s(ETW_CRT_WCHAR *dst, size_t size, const ETW_CRT_WCHAR *src, size_t count);
errno_t etw_wmemmove_s(ETW_CRT_WCHAR *dst, size_t size, const ETW_CRT_WCHAR *src, size_t count);

/* stdlib.h */
int etw_wtoi(const ETW_CRT_WCHAR *s);
long etw_wtol(const ETW_CRT_WCHAR *s);
long long etw_wtoi64(const ETW_CRT_WCHAR *s);
long etw_wcstol(const ETW_CRT_WCHAR *s, ETW_CRT_WCHAR **end, int base);
unsigned long etw_wcstoul(const ETW_CRT_WCHAR *s, ETW_CRT_WCHAR **end, int base);
long long etw_wcstoll(const ETW_CRT_WCHAR *s, ETW_CRT_WCHAR **end, int base);
unsigned long long etw_wcstoull(const ETW_CRT_WCHAR *s, ETW_CRT_WCHAR **end, int base);
double etw_wtof(const ETW_CRT_WCHAR *s);
double etw_wcstod(const ETW_CRT_WCHAR *s, ETW_CRT_WCHAR **end);
size_t etw_mbstowcs(ETW_CRT_WCHAR *dst, const char *src, size_t n);
size_t etw_wcstombs(char *dst, const ETW_CRT_WCHAR *src, size_t n);
ETW_CRT_WCHAR *etw_wfullpath(ETW_CRT_WCHAR *abs, const ETW_CRT_WCHAR *rel, size_t max);
char *etw_fullpath(char *abs, const char *rel, size_t max);
ETW_CRT_WCHAR *etw_wgetenv(const ETW_CRT_WCHAR *name);

#ifdef __cplusplus
}
#endif

#endif /* LIBETW_ETW_CRT_DECL_H */
