// SPDX-License-Identifier: MIT
/*
 * The printf family with MSVC's format rules, for Windows-source mode
 * (etw_crt.h).  Written by hand because no C library formats 16-bit
 * wchar_t text on Linux: the string and character conversions are done
 * here, every numeric one is handed to the C library's snprintf.
 *
 * MSVC's rules, from the "Format specification syntax" and "Size
 * specification" pages of its C runtime reference:
 *  - %s/%c take the function's own width of text (wide in wprintf, narrow
 *    in printf), %S/%C the other one; l and w make them wide, h narrow;
 *  - size prefixes h, hh, l (32-bit: long is LONG), ll, I64 (64-bit), I32
 *    (32-bit), I, z, t (pointer-sized), j (intmax_t), L (long double);
 *  - %p prints the pointer as 2 * sizeof(void *) upper-case hex digits;
 *  - a NULL string prints as "(null)";
 *  - the 0 flag pads strings and characters with zeros, as MSVC does;
 *  - %n is refused (MSVC disables it), as is any unknown conversion: the
 *    function returns -1 with errno EINVAL.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crt.h"

struct spec {
	int left, plus, space, alt, zero;
	int width;		/* -1: none */
	int prec;		/* -1: none */
	enum { SZ_NONE, SZ_HH, SZ_H, SZ_L32, SZ_64, SZ_PTR, SZ_MAX, SZ_LD,
	       SZ_WIDE } size;
	int narrow_text;	/* h on s/c */
};

struct fmt_reader {
	const void *p;
	int wide;
	size_t i;
};

static unsigned int fr_peek(const struct fmt_reader *r, size_t off)
{
	if (r->wide)
		return ((const char16_t *)r->p)[r->i + off];
	return ((const unsigned char *)r->p)[r->i + off];
}

static int pad(struct etw_obuf *o, int n, char c)
{
	char16_t w = (char16_t)c;

	for (; n > 0; n--) {
		if (o->wide ? etw_obuf_put16(o, &w, 1) : etw_obuf_put8(o, &c, 1))
			return -1;
	}
	return 0;
}

/* A string or character argument, with width, precision and padding. */
static int put_text(struct etw_obuf *o, const struct spec *sp, const void *s,
		    int wide, size_t len)
{
	int padn = sp->width > 0 && (size_t)sp->width > len ?
		   sp->width - (int)len : 0;
	char padc = sp->zero && !sp->left ? '0' : ' ';

	if (!sp->left && pad(o, padn, padc))
		return -1;
	if (wide ? etw_obuf_put16(o, s, len) : etw_obuf_put8(o, s, len))
		return -1;
	if (sp->left && pad(o, padn, ' '))
		return -1;
	return 0;
}

static int conv_string(struct etw_obuf *o, const struct spec *sp, int wide,
		       const void *s)
{
	size_t len = 0;

	if (!s) {
		static const char16_t null16[] = u"(null)";

		s = wide ? (const void *)null16 : "(null)";
	}
	if (wide) {
		const char16_t *w = s;

		while ((sp->prec < 0 || len < (size_t)sp->prec) && w[len])
			len++;
	} else {
		const char *n = s;

		while ((sp->prec < 0 || len < (size_t)sp->prec) && n[len])
			len++;
	}
	return put_text(o, sp, s, wide, len);
}

/*
 * Hand one numeric conversion to snprintf, flags and all: the format is
 * built here from the parsed spec, so it cannot be a literal.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static int conv_number(struct etw_obuf *o, const struct spec *sp_in, char conv,
		       va_list *ap)
{
	char f[32], buf[512], *out = buf;
	struct spec spv = *sp_in, *sp = &spv;
	size_t k = 0;
	int n, rc;

	if (sp->width < 0)
		sp->width = 0;

	f[k++] = '%';
	if (sp->left)
		f[k++] = '-';
	if (sp->plus)
		f[k++] = '+';
	if (sp->space)
		f[k++] = ' ';
	if (sp->alt)
		f[k++] = '#';
	if (sp->zero)
		f[k++] = '0';
	f[k++] = '*';
	f[k++] = '.';
	f[k++] = '*';
	if (strchr("eEfFgGaA", conv)) {
		if (sp->size == SZ_LD)
			f[k++] = 'L';
		f[k++] = conv;
		f[k] = 0;
		if (sp->size == SZ_LD) {
			long double v = va_arg(*ap, long double);

			n = snprintf(buf, sizeof(buf), f, sp->width, sp->prec, v);
			if (n >= (int)sizeof(buf)) {
				out = malloc((size_t)n + 1);
				if (!out)
					return -1;
				snprintf(out, (size_t)n + 1, f, sp->width, sp->prec, v);
			}
		} else {
			double v = va_arg(*ap, double);

			n = snprintf(buf, sizeof(buf), f, sp->width, sp->prec, v);
			if (n >= (int)sizeof(buf)) {
				out = malloc((size_t)n + 1);
				if (!out)
					return -1;
				snprintf(out, (size_t)n + 1, f, sp->width, sp->prec, v);
			}
		}
	} else {
		int is_signed = conv == 'd' || conv == 'i';
		unsigned long long u;
		long long s;

		switch (sp->size) {
		case SZ_64:
		case SZ_MAX:
			u = va_arg(*ap, unsigned long long);
			s = (long long)u;
			break;
		case SZ_PTR:
			u = va_arg(*ap, uintptr_t);
			s = sizeof(uintptr_t) == 8 ? (long long)u : (long long)(intptr_t)u;
			break;
		default:
			/* Everything 32-bit or narrower arrives as an int. */
			u = va_arg(*ap, unsigned int);
			s = (int)u;
			if (sp->size == SZ_H) {
				u = (unsigned short)u;
				s = (short)s;
			} else if (sp->size == SZ_HH) {
				u = (unsigned char)u;
				s = (signed char)s;
			}
			break;
		}
		f[k++] = 'l';
		f[k++] = 'l';
		f[k++] = conv;
		f[k] = 0;
		if (is_signed)
			n = snprintf(buf, sizeof(buf), f, sp->width, sp->prec, s);
		else
			n = snprintf(buf, sizeof(buf), f, sp->width, sp->prec, u);
		if (n >= (int)sizeof(buf)) {
			out = malloc((size_t)n + 1);
			if (!out)
				return -1;
			if (is_signed)
				snprintf(out, (size_t)n + 1, f, sp->width, sp->prec, s);
			else
				snprintf(out, (size_t)n + 1, f, sp->width, sp->prec, u);
		}
	}
	if (n < 0) {
		errno = EINVAL;
		return -1;
	}
	rc = etw_obuf_put8(o, out, (size_t)n);
	if (out != buf)
		free(out);
	return rc;
}
#pragma GCC diagnostic pop

int etw_format(struct etw_obuf *o, const void *fmt, va_list ap_in)
{
	struct fmt_reader r = { .p = fmt, .wide = o->wide };
	va_list ap;
	int rc = -1;

	va_copy(ap, ap_in);
	if (!fmt) {
		errno = EINVAL;
		goto out;
	}
	for (;;) {
		struct spec sp = { .width = -1, .prec = -1 };
		size_t start = r.i;
		unsigned int c;

		while ((c = fr_peek(&r, 0)) && c != '%')
			r.i++;
		if (r.i > start) {
			const void *lit = r.wide ?
				(const void *)((const char16_t *)fmt + start) :
				(const void *)((const char *)fmt + start);

			if (r.wide ? etw_obuf_put16(o, lit, r.i - start) :
				     etw_obuf_put8(o, lit, r.i - start))
				goto out;
		}
		if (!c)
			break;
		r.i++;	/* '%' */
		for (;; r.i++) {
			c = fr_peek(&r, 0);
			if (c == '-')
				sp.left = 1;
			else if (c == '+')
				sp.plus = 1;
			else if (c == ' ')
				sp.space = 1;
			else if (c == '#')
				sp.alt = 1;
			else if (c == '0')
				sp.zero = 1;
			else
				break;
		}
		if (fr_peek(&r, 0) == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = 1;
				sp.width = sp.width == INT32_MIN ? INT32_MAX : -sp.width;
			}
			r.i++;
		} else {
			while ((c = fr_peek(&r, 0)) >= '0' && c <= '9') {
				sp.width = (sp.width < 0 ? 0 : sp.width);
				if (sp.width > 100000000)
					goto bad;
				sp.width = sp.width * 10 + (int)(c - '0');
				r.i++;
			}
		}
		if (fr_peek(&r, 0) == '.') {
			r.i++;
			sp.prec = 0;
			if (fr_peek(&r, 0) == '*') {
				sp.prec = va_arg(ap, int);
				if (sp.prec < 0)
					sp.prec = -1;
				r.i++;
			} else {
				while ((c = fr_peek(&r, 0)) >= '0' && c <= '9') {
					if (sp.prec > 100000000)
						goto bad;
					sp.prec = sp.prec * 10 + (int)(c - '0');
					r.i++;
				}
			}
		}
		c = fr_peek(&r, 0);
		if (c == 'h') {
			r.i++;
			sp.size = SZ_H;
			sp.narrow_text = 1;
			if (fr_peek(&r, 0) == 'h') {
				r.i++;
				sp.size = SZ_HH;
			}
		} else if (c == 'l') {
			r.i++;
			sp.size = SZ_L32;
			if (fr_peek(&r, 0) == 'l') {
				r.i++;
				sp.size = SZ_64;
			}
		} else if (c == 'w') {
			r.i++;
			sp.size = SZ_WIDE;
		} else if (c == 'I') {
			r.i++;
			if (fr_peek(&r, 0) == '6' && fr_peek(&r, 1) == '4') {
				r.i += 2;
				sp.size = SZ_64;
			} else if (fr_peek(&r, 0) == '3' && fr_peek(&r, 1) == '2') {
				r.i += 2;
				sp.size = SZ_L32;
			} else {
				sp.size = SZ_PTR;
			}
		} else if (c == 'z' || c == 't') {
			r.i++;
			sp.size = SZ_PTR;
		} else if (c == 'j') {
			r.i++;
			sp.size = SZ_MAX;
		} else if (c == 'L') {
			r.i++;
			sp.size = SZ_LD;
		}
		c = fr_peek(&r, 0);
		r.i++;
		switch (c) {
		case '%':
			if (r.wide ? etw_obuf_put16(o, u"%", 1) : etw_obuf_put8(o, "%", 1))
				goto out;
			break;
		case 's':
		case 'S': {
			/* The function's own text for %s, the other for %S. */
			int wide = c == 's' ? r.wide : !r.wide;

			if (sp.narrow_text)
				wide = 0;
			else if (sp.size == SZ_L32 || sp.size == SZ_WIDE)
				wide = 1;
			if (conv_string(o, &sp, wide, va_arg(ap, const void *)))
				goto out;
			break;
		}
		case 'c':
		case 'C': {
			int wide = c == 'c' ? r.wide : !r.wide;
			unsigned int ch = va_arg(ap, unsigned int);

			if (sp.narrow_text)
				wide = 0;
			else if (sp.size == SZ_L32 || sp.size == SZ_WIDE)
				wide = 1;
			sp.prec = -1;
			if (wide) {
				char16_t w = (char16_t)ch;

				if (put_text(o, &sp, &w, 1, 1))
					goto out;
			} else {
				char n = (char)ch;

				if (put_text(o, &sp, &n, 0, 1))
					goto out;
			}
			break;
		}
		case 'd':
		case 'i':
		case 'u':
		case 'o':
		case 'x':
		case 'X':
		case 'e':
		case 'E':
		case 'f':
		case 'F':
		case 'g':
		case 'G':
		case 'a':
		case 'A':
			if (conv_number(o, &sp, (char)c, &ap))
				goto out;
			break;
		case 'p': {
			char buf[2 * sizeof(void *) + 1];
			struct spec ps = sp;

			snprintf(buf, sizeof(buf), "%0*llX", (int)(2 * sizeof(void *)),
				 (unsigned long long)(uintptr_t)va_arg(ap, void *));
			ps.prec = -1;
			ps.zero = 0;
			if (put_text(o, &ps, buf, 0, strlen(buf)))
				goto out;
			break;
		}
		default:
			goto bad;	/* %n, an unknown conversion, or the end */
		}
	}
	rc = 0;
	goto out;
bad:
	errno = EINVAL;
out:
	va_end(ap);
	return rc;
}
