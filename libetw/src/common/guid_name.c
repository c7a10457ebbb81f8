// SPDX-License-Identifier: MIT
/*
 * The provider GUID Windows derives from a provider name (TraceLogging,
 * EventSource, LoggingChannel): SHA-1 over a fixed 16-byte namespace and
 * the upper-cased name as UTF-16 big-endian without a NUL; the first 16
 * bytes of the digest with the version nibble of byte 7 set to 5 are the
 * GUID in its in-memory (little-endian fields) layout.  The variant bits of
 * byte 8 stay as the hash left them, as on Windows, so the result is not
 * an RFC 4122 name-based UUID.
 *
 * Upper-casing follows the invariant culture: Unicode simple case mapping,
 * one code point to one code point (so U+00DF stays, U+0131 becomes I).
 * glibc's C.UTF-8 locale has that table; it is used through a locale
 * object of our own so the process's locale does not matter.
 */
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "internal.h"
#include "sha1.h"
#include "utf.h"

static const uint8_t name_namespace[16] = {
	0x48, 0x2c, 0x2d, 0xb2, 0xc3, 0x90, 0x47, 0xc8,
	0x87, 0xf8, 0x1a, 0x15, 0xbf, 0xc1, 0x30, 0xfb,
};

static locale_t upper_locale;
static pthread_once_t upper_once = PTHREAD_ONCE_INIT;

static void upper_init(void)
{
	upper_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

static uint32_t to_upper(uint32_t c)
{
	if (c < 0x80)
		return c >= 'a' && c <= 'z' ? c - 32 : c;
	if (!upper_locale)
		return c;
	return (uint32_t)towupper_l((wint_t)c, upper_locale);
}

static void put_unit(struct etw_sha1 *s, uint32_t u)
{
	uint8_t be[2] = { (uint8_t)(u >> 8), (uint8_t)u };

	etw_sha1_update(s, be, 2);
}

ETW_EXPORT int etw_guid_from_name(const char *name, size_t len,
				  unsigned char guid[16])
{
	uint8_t digest[ETW_SHA1_SIZE];
	struct etw_sha1 s;
	char16_t *w;
	ssize_t n;

	if (!name || !guid)
		return -EINVAL;
	n = etw_utf8_to_utf16(name, len, NULL, 0);
	if (n < 0)
		return -EINVAL;
	w = malloc(((size_t)n + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	etw_utf8_to_utf16(name, len, w, (size_t)n + 1);
	pthread_once(&upper_once, upper_init);

	etw_sha1_init(&s);
	etw_sha1_update(&s, name_namespace, sizeof(name_namespace));
	for (ssize_t i = 0; i < n; i++) {
		uint32_t c = w[i];

		if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
			c = 0x10000 + ((c - 0xd800) << 10) + (w[i + 1] - 0xdc00);
			i++;
		}
		c = to_upper(c);
		if (c >= 0x10000) {
			put_unit(&s, 0xd800 + ((c - 0x10000) >> 10));
			put_unit(&s, 0xdc00 + ((c - 0x10000) & 0x3ff));
		} else {
			put_unit(&s, c);
		}
	}
	free(w);
	etw_sha1_final(&s, digest);
	digest[7] = (digest[7] & 0x0f) | 0x50;
	memcpy(guid, digest, 16);
	return 0;
}
