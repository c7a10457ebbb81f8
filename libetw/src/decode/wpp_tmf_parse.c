// SPDX-License-Identifier: MIT
/*
 * The TMF parser: Windows' trace message format text, as tracewpp writes
 * it and tracepdb extracts it (wpp.md §1.6).  Line by line:
 *
 *   // comment
 *   <guid> <FriendlyName> // SRC=<file> MJ=<comp> MN=<subcomp>
 *   #typev <MsgName> <MsgNo> "<format text>" // LEVEL=.. FLAGS=.. FUNC=..
 *   {
 *   <expression>, <Item>[(<a>,<b>,..)] -- <N>
 *   }
 *   #enumv <EnumName> <count>       (the names ItemEnum(EnumName) shows)
 *   {
 *   <value> <Name>                  (or <Name> = <value>)
 *   }
 *
 * No library reads this format, so it is parsed here by hand.  Anything
 * else is a syntax error at its line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "wpp.h"

/* ---- an arena: everything of one text, freed at once ---- */

struct wpp_arena {
	struct wpp_arena *next;
	size_t used;
	size_t size;
	max_align_t data[];
};

static void *arena_alloc(struct wpp_arena **a, size_t n)
{
	struct wpp_arena *c = *a;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > 16384 ? n : 16384;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = *a;
		c->used = 0;
		c->size = size;
		*a = c;
	}
	c->used += n;
	return (char *)c->data + c->used - n;
}

static char *arena_str(struct wpp_arena **a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

static void arena_free(struct wpp_arena *a)
{
	while (a) {
		struct wpp_arena *next = a->next;

		free(a);
		a = next;
	}
}

void wpp_tmf_free(struct wpp_tmf *t)
{
	if (!t)
		return;
	arena_free(t->arena);
	free(t->headers);
	free(t->msgs);
	free(t->enums);
	free(t);
}

/* ---- the parser ---- */

struct parser {
	const char *name;
	struct etw_tmf_error *err;
	unsigned long line;
	struct wpp_tmf *t;
	uint32_t header_cap, msg_cap, enum_cap;
	bool oom;
};

static int fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->err) {
		snprintf(p->err->file, sizeof(p->err->file), "%s", p->name);
		p->err->line = p->line;
		va_start(ap, fmt);
		vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

static int nomem(struct parser *p)
{
	if (p->err) {
		snprintf(p->err->file, sizeof(p->err->file), "%s", p->name);
		p->err->line = 0;
		snprintf(p->err->message, sizeof(p->err->message), "out of memory");
	}
	return -ENOMEM;
}

static bool grow(void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
	void *q;
	uint32_t c;

	if (n < *cap)
		return true;
	c = *cap ? *cap * 2 : 8;
	q = realloc(*arr, (size_t)c * elem);
	if (!q)
		return false;
	*arr = q;
	*cap = c;
	return true;
}

/* A line without its end and surrounding blanks. */
struct span {
	const char *s;
	size_t n;
};

static struct span trim(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return (struct span){ s, n };
}

/* The value of KEY= in a trailer ("// SRC=x MJ= MN="), or "". */
static const char *trailer_value(struct parser *p, struct span tr,
				 const char *key)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i + kl <= tr.n; i++) {
		size_t j;

		if ((i && !isspace((unsigned char)tr.s[i - 1]) && tr.s[i - 1] != '/') ||
		    memcmp(tr.s + i, key, kl))
			continue;
		j = i + kl;
		while (j < tr.n && !isspace((unsigned char)tr.s[j]))
			j++;
		return arena_str(&p->t->arena, tr.s + i + kl, j - i - kl);
	}
	return "";
}

/* The next blank-separated word of *l, consumed. */
static struct span word(struct span *l)
{
	size_t i = 0;
	struct span w;

	while (i < l->n && !isspace((unsigned char)l->s[i]))
		i++;
	w = (struct span){ l->s, i };
	*l = trim(l->s + i, l->n - i);
	return w;
}

static int header_line(struct parser *p, struct span l)
{
	struct wpp_header *h;
	struct span rest = l, g = word(&rest), name, tr = { "", 0 };
	const char *cmt;
	char guid[40];
	GUID w;

	if (g.n >= sizeof(guid))
		return fail(p, "not a TMF line (a GUID, #typev, #enumv or // comment)");
	memcpy(guid, g.s, g.n);
	guid[g.n] = '\0';
	if (!mf_guid(guid, &w))
		return fail(p, "not a TMF line (a GUID, #typev, #enumv or // comment)");
	if (!grow((void **)&p->t->headers, &p->header_cap, p->t->header_count,
		  sizeof(*h)))
		return nomem(p);
	h = &p->t->headers[p->t->header_count];
	memset(h, 0, sizeof(*h));
	memcpy(&h->guid, &w, sizeof(h->guid));
	cmt = memmem(rest.s, rest.n, "//", 2);
	name = trim(rest.s, cmt ? (size_t)(cmt - rest.s) : rest.n);
	if (cmt)
		tr = trim(cmt + 2, rest.n - (size_t)(cmt + 2 - rest.s));
	for (size_t i = 0; i < name.n; i++)
		if (isspace((unsigned char)name.s[i]))
			return fail(p, "friendly name '%.*s' has a blank",
				    (int)name.n, name.s);
	h->friendly = arena_str(&p->t->arena, name.s, name.n);
	h->src = trailer_value(p, tr, "SRC=");
	h->mj = trailer_value(p, tr, "MJ=");
	h->mn = trailer_value(p, tr, "MN=");
	if (!h->friendly || !h->src || !h->mj || !h->mn)
		return nomem(p);
	p->t->header_count++;
	return 0;
}

/* An unsigned decimal number of at most max. */
static bool number(struct span s, unsigned long max, unsigned long *v)
{
	unsigned long x = 0;

	if (!s.n)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		if (!isdigit((unsigned char)s.s[i]))
			return false;
		x = x * 10 + (unsigned long)(s.s[i] - '0');
		if (x > max)
			return false;
	}
	*v = x;
	return true;
}

static int typev_line(struct parser *p, struct span l, struct wpp_msg **out)
{
	struct span rest = trim(l.s + 6, l.n - 6), name, num, tr = { "", 0 };
	const char *q1, *q2 = NULL;
	unsigned long no;
	struct wpp_msg *m;

	if (!p->t->header_count)
		return fail(p, "#typev before the message GUID line");
	name = word(&rest);
	num = word(&rest);
	if (!name.n)
		return fail(p, "#typev without a message name");
	if (!number(num, 0xFFFF, &no))
		return fail(p, "#typev %.*s: message number '%.*s' is not 0..65535",
			    (int)name.n, name.s, (int)num.n, num.s);
	if (!rest.n || rest.s[0] != '"')
		return fail(p, "#typev %.*s: no \"format text\"", (int)name.n, name.s);
	q1 = rest.s + 1;
	/* The closing quote: the last one followed by nothing or a comment. */
	for (size_t i = rest.n; i-- > 1; ) {
		struct span after;

		if (rest.s[i] != '"')
			continue;
		after = trim(rest.s + i + 1, rest.n - i - 1);
		if (!after.n || (after.n >= 2 && !memcmp(after.s, "//", 2))) {
			q2 = rest.s + i;
			if (after.n)
				tr = trim(after.s + 2, after.n - 2);
			break;
		}
	}
	if (!q2)
		return fail(p, "#typev %.*s: format text without its closing quote",
			    (int)name.n, name.s);
	if (!grow((void **)&p->t->msgs, &p->msg_cap, p->t->msg_count, sizeof(*m)))
		return nomem(p);
	m = &p->t->msgs[p->t->msg_count];
	memset(m, 0, sizeof(*m));
	/* Index of the header for now; a pointer once the arrays stop moving. */
	m->header = (const void *)(uintptr_t)(p->t->header_count - 1);
	m->number = (uint16_t)no;
	m->line = p->line;
	m->name = arena_str(&p->t->arena, name.s, name.n);
	m->format = arena_str(&p->t->arena, q1, (size_t)(q2 - q1));
	m->level = trailer_value(p, tr, "LEVEL=");
	m->flags = trailer_value(p, tr, "FLAGS=");
	m->func = trailer_value(p, tr, "FUNC=");
	if (!m->name || !m->format || !m->level || !m->flags || !m->func)
		return nomem(p);
	p->t->msg_count++;
	*out = m;
	return 0;
}

/* "a,b, c" as an array of trimmed names in the arena. */
static int split_names(struct parser *p, struct span s, struct wpp_arg *a)
{
	uint32_t n = 1, k = 0;
	const char **names;
	size_t start = 0;

	for (size_t i = 0; i < s.n; i++)
		n += s.s[i] == ',';
	names = arena_alloc(&p->t->arena, n * sizeof(*names));
	if (!names)
		return nomem(p);
	for (size_t i = 0; i <= s.n; i++) {
		struct span w;

		if (i < s.n && s.s[i] != ',')
			continue;
		w = trim(s.s + start, i - start);
		names[k] = arena_str(&p->t->arena, w.s, w.n);
		if (!names[k++])
			return nomem(p);
		start = i + 1;
	}
	a->names = names;
	a->name_count = n;
	return 0;
}

static int arg_line(struct parser *p, struct span l, struct wpp_arg *a)
{
	const char *dash = NULL;
	struct span rest, num, item, args = { "", 0 };
	unsigned long no;
	size_t e, end;
	bool has_args = false;

	for (size_t i = l.n; i-- > 0; )
		if (i + 4 <= l.n && !memcmp(l.s + i, " -- ", 4)) {
			dash = l.s + i;
			break;
		}
	if (!dash)
		return fail(p, "argument line without ' -- <number>'");
	num = trim(dash + 4, l.n - (size_t)(dash + 4 - l.s));
	if (!number(num, 0xFFFF, &no))
		return fail(p, "argument number '%.*s' is not a number",
			    (int)num.n, num.s);
	rest = trim(l.s, (size_t)(dash - l.s));
	end = rest.n;
	if (end && rest.s[end - 1] == ')') {
		int depth = 0;
		size_t i = end;

		while (i-- > 0) {
			depth += rest.s[i] == ')';
			depth -= rest.s[i] == '(';
			if (!depth)
				break;
		}
		if (depth || i == (size_t)-1)
			return fail(p, "unbalanced parentheses in the item's arguments");
		args = (struct span){ rest.s + i + 1, end - i - 2 };
		has_args = true;
		end = i;
		while (end && isspace((unsigned char)rest.s[end - 1]))
			end--;
	}
	e = end;
	while (e && (isalnum((unsigned char)rest.s[e - 1]) || rest.s[e - 1] == '_'))
		e--;
	item = (struct span){ rest.s + e, end - e };
	if (!item.n)
		return fail(p, "argument line without an item type");
	a->item = wpp_item_find(item.s, item.n);
	if (!a->item)
		return fail(p, "unknown item type '%.*s'", (int)item.n, item.s);
	if (has_args && !(a->item->flags & WPP_F_ARGS))
		return fail(p, "%s takes no arguments", a->item->name);
	if (!has_args && (a->item->flags & WPP_F_ARGS))
		return fail(p, "%s needs its (names)", a->item->name);
	while (e && isspace((unsigned char)rest.s[e - 1]))
		e--;
	if (!e || rest.s[e - 1] != ',')
		return fail(p, "argument line without '<expression>, ' before %s",
			    a->item->name);
	rest = trim(rest.s, e - 1);
	a->expr = arena_str(&p->t->arena, rest.s, rest.n);
	if (!a->expr)
		return nomem(p);
	a->number = (uint32_t)no;
	if (has_args)
		return split_names(p, trim(args.s, args.n), a);
	return 0;
}

/*
 * "<value> <name>" (what etw wpp writes) or "<name> = <value>"; values
 * in decimal or 0x hex, negative or up to 32 bits unsigned.
 */
static int enum_entry(struct parser *p, struct span l, struct wpp_enum_entry *e)
{
	const char *eq = memchr(l.s, '=', l.n);
	struct span rest = l, name, val;
	char buf[32], *end;
	long long v;

	if (eq) {
		name = trim(l.s, (size_t)(eq - l.s));
		val = trim(eq + 1, l.n - (size_t)(eq + 1 - l.s));
	} else {
		val = word(&rest);
		name = rest;
	}
	if (!name.n || !val.n || val.n >= sizeof(buf))
		return fail(p, "enumeration line without '<value> <name>'");
	memcpy(buf, val.s, val.n);
	buf[val.n] = '\0';
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (*end || errno)
		return fail(p, "enumeration value '%s' is not a number", buf);
	e->value = v;
	e->name = arena_str(&p->t->arena, name.s, name.n);
	return e->name ? 0 : nomem(p);
}

/* A block's lines "{" .. "}", fed to line_fn; *pos moves past it. */
struct block {
	struct wpp_arg *args;
	struct wpp_enum_entry *entries;
	uint32_t n, cap;
};

static struct span next_line(const char *text, size_t len, size_t *pos,
			     bool *eof)
{
	size_t s = *pos, e = s;

	*eof = s >= len;
	while (e < len && text[e] != '\n')
		e++;
	*pos = e < len ? e + 1 : e;
	return trim(text + s, e - s);
}

static bool is_comment(struct span l)
{
	return l.n >= 2 && l.s[0] == '/' && l.s[1] == '/';
}

static int block(struct parser *p, const char *text, size_t len, size_t *pos,
		 bool is_enum, struct block *b)
{
	bool eof, open = false;

	for (;;) {
		struct span l = next_line(text, len, pos, &eof);
		int ret;

		if (eof)
			return fail(p, open ? "missing '}' at the end" :
					      "missing '{' after the definition");
		p->line++;
		if (!l.n || is_comment(l))
			continue;
		if (!open) {
			if (l.n != 1 || l.s[0] != '{')
				return fail(p, "expected '{' after the definition");
			open = true;
			continue;
		}
		if (l.n == 1 && l.s[0] == '}')
			return 0;
		if (!grow(is_enum ? (void **)&b->entries : (void **)&b->args,
			  &b->cap, b->n,
			  is_enum ? sizeof(*b->entries) : sizeof(*b->args)))
			return nomem(p);
		if (is_enum) {
			ret = enum_entry(p, l, &b->entries[b->n]);
		} else {
			memset(&b->args[b->n], 0, sizeof(b->args[b->n]));
			ret = arg_line(p, l, &b->args[b->n]);
		}
		if (ret)
			return ret;
		b->n++;
	}
}

/* Copy a block's array into the arena (the block's own is freed). */
static void *keep(struct parser *p, void *arr, size_t bytes)
{
	void *q = bytes ? arena_alloc(&p->t->arena, bytes) : NULL;

	if (q)
		memcpy(q, arr, bytes);
	free(arr);
	return q;
}

static int enumv_line(struct parser *p, struct span l, const char *text,
		      size_t len, size_t *pos)
{
	struct span rest = trim(l.s + 6, l.n - 6), name = word(&rest);
	struct block b = { 0 };
	struct wpp_enum *e;
	int ret;

	if (!name.n)
		return fail(p, "#enumv without a name");
	ret = block(p, text, len, pos, true, &b);
	if (ret) {
		free(b.entries);
		return ret;
	}
	if (!grow((void **)&p->t->enums, &p->enum_cap, p->t->enum_count,
		  sizeof(*e))) {
		free(b.entries);
		return nomem(p);
	}
	e = &p->t->enums[p->t->enum_count];
	e->name = arena_str(&p->t->arena, name.s, name.n);
	e->count = b.n;
	e->entries = keep(p, b.entries, b.n * sizeof(*b.entries));
	if (!e->name || (b.n && !e->entries))
		return nomem(p);
	p->t->enum_count++;
	return 0;
}

static int parse(struct parser *p, const char *text, size_t len)
{
	size_t pos = 0;
	bool eof;

	for (;;) {
		struct span l = next_line(text, len, &pos, &eof);
		struct wpp_msg *m;
		struct block b = { 0 };
		int ret;

		if (eof)
			return 0;
		p->line++;
		if (!l.n || is_comment(l))
			continue;
		if (l.n >= 6 && !memcmp(l.s, "#typev", 6) &&
		    (l.n == 6 || isspace((unsigned char)l.s[6]))) {
			ret = typev_line(p, l, &m);
			if (ret)
				return ret;
			ret = block(p, text, len, &pos, false, &b);
			if (ret) {
				free(b.args);
				return ret;
			}
			m = &p->t->msgs[p->t->msg_count - 1];
			m->arg_count = b.n;
			m->args = keep(p, b.args, b.n * sizeof(*b.args));
			if (b.n && !m->args)
				return nomem(p);
			continue;
		}
		if (l.n >= 6 && !memcmp(l.s, "#enumv", 6) &&
		    (l.n == 6 || isspace((unsigned char)l.s[6]))) {
			ret = enumv_line(p, l, text, len, &pos);
			if (ret)
				return ret;
			continue;
		}
		if (l.s[0] == '#') {
			struct span d = l, w = word(&d);

			return fail(p, "unknown directive '%.*s'", (int)w.n, w.s);
		}
		ret = header_line(p, l);
		if (ret)
			return ret;
	}
}

int wpp_tmf_parse(const char *text, size_t len, const char *name,
		  struct wpp_tmf **out, struct etw_tmf_error *err)
{
	struct parser p = { .name = name ? name : "TMF", .err = err };
	int ret;

	*out = NULL;
	p.t = calloc(1, sizeof(*p.t));
	if (!p.t)
		return nomem(&p);
	if (memchr(text, '\0', len)) {
		p.line = 0;
		wpp_tmf_free(p.t);
		return fail(&p, "a NUL byte in the text");
	}
	ret = parse(&p, text, len);
	if (!ret && !p.t->header_count) {
		p.line = 0;
		ret = fail(&p, "no message GUID line");
	}
	if (ret) {
		wpp_tmf_free(p.t);
		return ret;
	}
	for (uint32_t i = 0; i < p.t->msg_count; i++)
		p.t->msgs[i].header =
			&p.t->headers[(uintptr_t)p.t->msgs[i].header];
	*out = p.t;
	return 0;
}
