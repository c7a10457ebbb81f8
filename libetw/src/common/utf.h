/* SPDX-License-Identifier: MIT */
/*
 * UTF-16 <-> UTF-8 for the W variants of the API: Windows names are
 * UTF-16 (WCHAR), the module's are UTF-8.  Strict in both directions: an
 * unpaired surrogate, an overlong or truncated UTF-8 sequence, a UTF-8
 * encoded surrogate or a code point above U+10FFFF is -EILSEQ, never
 * replaced, so a name converts back to exactly what it was.
 */
#ifndef LIBETW_UTF_H
#define LIBETW_UTF_H

#include <stddef.h>
#include <sys/types.h>
#include <uchar.h>

/*
 * Convert the @len code units at @in to UTF-8 at @out, which has room for
 * @size bytes including the terminating NUL that is always written.
 * Returns the length written without the NUL, -EILSEQ for invalid input
 * or -ENOBUFS if @size is too small.  With @out NULL only the length is
 * computed (and @size is ignored).
 */
ssize_t etw_utf16_to_utf8(const char16_t *in, size_t len, char *out,
			  size_t size);

/* The same from the @len bytes of UTF-8 at @in; @size counts code units. */
ssize_t etw_utf8_to_utf16(const char *in, size_t len, char16_t *out,
			  size_t size);

#endif /* LIBETW_UTF_H */
