// SPDX-License-Identifier: MIT
/*
 * MOF text into the model of etw_mof.h: the part of WMI's Managed Object
 * Format that classic ETW providers publish (mofcomp's input): comments,
 * #pragma lines, qualifier lists with their flavors (": amended"),
 * classes with a parent, properties with arrays and default values.
 * Instances, methods, references and #pragma include are refused with
 * file:line, as is anything else this subset does not know.  The parser
 * is hand-written: no Debian library reads MOF.
 *
 * Everything a model holds lives in one arena, freed with it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/internal.h"
#include "mof.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- the arena ---- */

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

struct mof_model {
	struct etw_mof pub;
	struct arena_block *blocks;
};

static void *arena_alloc(struct mof_model *m, size_t n)
{
	struct arena_block *b = m->blocks;
	size_t a = (n + 15) & ~(size_t)15;

	if (!b || b->size - b->used < a) {
		size_t size = a > 16384 ? a : 16384;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		b->next = m->blocks;
		m->blocks = b;
	}
	b->used += a;
	return memset((char *)b->data + b->used - a, 0, a);
}

static char *arena_strndup(struct mof_model *m, const char *s, size_t n)
{
	char *p = arena_alloc(m, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* A growable array whose final form is copied into the arena. */
struct vec {
	void *items;
	size_t n, cap, size;
};

static void *vec_push(struct vec *v)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 8;
		void *p = realloc(v->items, cap * v->size);

		if (!p)
			return NULL;
		v->items = p;
		v->cap = cap;
	}
	return memset((char *)v->items + v->n++ * v->size, 0, v->size);
}

static void *vec_finish(struct mof_model *m, struct vec *v)
{
	void *p = NULL;

	if (v->n) {
		p = arena_alloc(m, v->n * v->size);
		if (p)
			memcpy(p, v->items, v->n * v->size);
	}
	free(v->items);
	v->items = NULL;
	return p;
}

/* ---- the lexer ---- */

enum tok {
	T_EOF, T_IDENT, T_STRING, T_NUMBER, T_PUNCT, T_PRAGMA
};

struct parser {
	struct mof_model *m;
	const char *p, *end;
	unsigned long line;
	enum tok tok;
	char punct;
	const char *text;		/* identifier or number as written */
	size_t len;
	char *str;			/* a string's value (concatenated) */
	size_t str_len, str_cap;
	unsigned long tok_line;
	struct etw_mof_error *err;
	int ret;
};

static int fail(struct parser *ps, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	if (ps->ret)
		return ps->ret;
	ps->err->line = line;
	va_start(ap, fmt);
	vsnprintf(ps->err->message, sizeof(ps->err->message), fmt, ap);
	va_end(ap);
	ps->ret = -EBADMSG;
	return ps->ret;
}

static int oom(struct parser *ps)
{
	if (!ps->ret)
		ps->ret = -ENOMEM;
	return ps->ret;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n') {
			ps->line++;
			ps->p++;
		} else if (isspace((unsigned char)c)) {
			ps->p++;
		} else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '/') {
			while (ps->p < ps->end && *ps->p != '\n')
				ps->p++;
		} else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '*') {
			unsigned long start = ps->line;

			ps->p += 2;
			while (ps->p + 1 < ps->end &&
			       !(ps->p[0] == '*' && ps->p[1] == '/')) {
				if (*ps->p == '\n')
					ps->line++;
				ps->p++;
			}
			if (ps->p + 1 >= ps->end) {
				fail(ps, start, "comment not closed");
				ps->p = ps->end;
				return;
			}
			ps->p += 2;
		} else {
			return;
		}
	}
}

static int str_add(struct parser *ps, char c)
{
	if (ps->str_len + 1 >= ps->str_cap) {
		size_t cap = ps->str_cap ? ps->str_cap * 2 : 64;
		char *s = realloc(ps->str, cap);

		if (!s)
			return oom(ps);
		ps->str = s;
		ps->str_cap = cap;
	}
	ps->str[ps->str_len++] = c;
	ps->str[ps->str_len] = '\0';
	return 0;
}

/* One "..." literal appended to ps->str; MOF's escapes. */
static int lex_string(struct parser *ps)
{
	unsigned long start = ps->line;

	ps->p++;
	while (ps->p < ps->end && *ps->p != '"') {
		char c = *ps->p++;

		if (c == '\n')
			return fail(ps, start, "string not closed");
		if (c == '\\') {
			if (ps->p >= ps->end)
				break;
			c = *ps->p++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case '"': case '\'': case '\\': break;
			default:
				return fail(ps, ps->line, "unknown escape '\\%c' in a string", c);
			}
		}
		if (str_add(ps, c))
			return ps->ret;
	}
	if (ps->p >= ps->end)
		return fail(ps, start, "string not closed");
	ps->p++;
	return 0;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int next(struct parser *ps)
{
	char c;

	skip_space(ps);
	if (ps->ret)
		return ps->ret;
	ps->tok_line = ps->line;
	if (ps->p >= ps->end) {
		ps->tok = T_EOF;
		return 0;
	}
	c = *ps->p;
	ps->text = ps->p;
	if (c == '"') {
		ps->str_len = 0;
		if (str_add(ps, 'x'))
			return ps->ret;
		ps->str_len = 0;
		ps->str[0] = '\0';
		/* Adjacent literals are one string, as in C. */
		do {
			if (lex_string(ps))
				return ps->ret;
			skip_space(ps);
		} while (ps->p < ps->end && *ps->p == '"' && !ps->ret);
		ps->tok = T_STRING;
		return ps->ret;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		while (ps->p < ps->end && ident_char(*ps->p))
			ps->p++;
		ps->tok = T_IDENT;
		ps->len = (size_t)(ps->p - ps->text);
		return 0;
	}
	if (isdigit((unsigned char)c) || c == '-' || c == '+') {
		ps->p++;
		while (ps->p < ps->end && (isalnum((unsigned char)*ps->p) || *ps->p == '.'))
			ps->p++;
		ps->tok = T_NUMBER;
		ps->len = (size_t)(ps->p - ps->text);
		if (ps->len == 1 && !isdigit((unsigned char)c))
			return fail(ps, ps->line, "unexpected '%c'", c);
		return 0;
	}
	if (c == '#') {
		ps->p++;
		while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
			ps->p++;
		ps->text = ps->p;
		while (ps->p < ps->end && ident_char(*ps->p))
			ps->p++;
		ps->len = (size_t)(ps->p - ps->text);
		if (ps->len != 6 || strncmp(ps->text, "pragma", 6))
			return fail(ps, ps->line, "unknown directive '#%.*s'",
				    (int)ps->len, ps->text);
		ps->tok = T_PRAGMA;
		return 0;
	}
	if (strchr("[](){},;:=", c)) {
		ps->p++;
		ps->tok = T_PUNCT;
		ps->punct = c;
		return 0;
	}
	return fail(ps, ps->line, isprint((unsigned char)c) ?
		    "unexpected '%c'" : "unexpected byte 0x%02x", (unsigned char)c);
}

static bool is_punct(const struct parser *ps, char c)
{
	return ps->tok == T_PUNCT && ps->punct == c;
}

static bool is_word(const struct parser *ps, const char *w)
{
	return ps->tok == T_IDENT && ps->len == strlen(w) &&
	       !strncasecmp(ps->text, w, ps->len);
}

static const char *tok_name(const struct parser *ps, char buf[48])
{
	switch (ps->tok) {
	case T_EOF:
		return "the end of the file";
	case T_STRING:
		return "a string";
	case T_PUNCT:
		snprintf(buf, 48, "'%c'", ps->punct);
		return buf;
	case T_PRAGMA:
		return "#pragma";
	default:
		snprintf(buf, 48, "'%.*s'", (int)(ps->len > 40 ? 40 : ps->len),
			 ps->text);
		return buf;
	}
}

static int expect(struct parser *ps, char c, const char *where)
{
	char buf[48];

	if (!is_punct(ps, c))
		return fail(ps, ps->tok_line, "expected '%c' %s, found %s", c,
			    where, tok_name(ps, buf));
	return next(ps);
}

static char *take_ident(struct parser *ps, const char *what)
{
	char buf[48];
	char *s;

	if (ps->tok != T_IDENT) {
		fail(ps, ps->tok_line, "expected %s, found %s", what,
		     tok_name(ps, buf));
		return NULL;
	}
	s = arena_strndup(ps->m, ps->text, ps->len);
	if (!s) {
		oom(ps);
		return NULL;
	}
	return next(ps) ? NULL : s;
}

/* ---- the grammar ---- */

/* A value: string, number, or true/false/null; as text. */
static const char *take_value(struct parser *ps)
{
	char buf[48];
	const char *s;

	if (ps->tok == T_STRING)
		s = arena_strndup(ps->m, ps->str, ps->str_len);
	else if (ps->tok == T_NUMBER || is_word(ps, "true") ||
		 is_word(ps, "false") || is_word(ps, "null"))
		s = arena_strndup(ps->m, ps->text, ps->len);
	else {
		fail(ps, ps->tok_line, "expected a value, found %s",
		     tok_name(ps, buf));
		return NULL;
	}
	if (!s) {
		oom(ps);
		return NULL;
	}
	return next(ps) ? NULL : s;
}

static const char *const flavors[] = {
	"amended", "ToSubclass", "ToInstance", "NotToSubclass",
	"NotToInstance", "EnableOverride", "DisableOverride", "Restricted",
	"Translatable",
};

static int parse_flavors(struct parser *ps)
{
	char buf[48];
	bool any = false;

	for (;;) {
		bool known = false;

		for (size_t i = 0; i < ARRAY_SIZE(flavors); i++)
			known |= is_word(ps, flavors[i]);
		if (!known)
			break;
		any = true;
		if (next(ps))
			return ps->ret;
	}
	if (!any)
		return fail(ps, ps->tok_line, "expected a qualifier flavor "
			    "(such as amended), found %s", tok_name(ps, buf));
	return 0;
}

static int parse_qualifier(struct parser *ps, struct etw_mof_qualifier *q)
{
	struct vec vals = { .size = sizeof(const char *) };
	const char **slot;

	q->name = take_ident(ps, "a qualifier name");
	if (!q->name)
		return ps->ret;
	if (is_punct(ps, '(') || is_punct(ps, '{')) {
		char close = ps->punct == '(' ? ')' : '}';

		q->list = ps->punct == '{';
		if (next(ps))
			return ps->ret;
		for (;;) {
			const char *v = take_value(ps);

			if (!v)
				break;
			slot = vec_push(&vals);
			if (!slot) {
				oom(ps);
				break;
			}
			*slot = v;
			if (!q->list || !is_punct(ps, ','))
				break;
			if (next(ps))
				break;
		}
		if (!ps->ret)
			expect(ps, close, "after the qualifier's value");
		q->nvalues = vals.n;
		q->values = vec_finish(ps->m, &vals);
		if (ps->ret)
			return ps->ret;
		if (q->nvalues && !q->values)
			return oom(ps);
	}
	if (is_punct(ps, ':')) {
		if (next(ps))
			return ps->ret;
		return parse_flavors(ps);
	}
	return 0;
}

static int parse_qualifiers(struct parser *ps, struct etw_mof_qualifier **out,
			    size_t *n)
{
	struct vec v = { .size = sizeof(struct etw_mof_qualifier) };

	*out = NULL;
	*n = 0;
	if (!is_punct(ps, '['))
		return 0;
	if (next(ps))
		return ps->ret;
	for (;;) {
		struct etw_mof_qualifier *q = vec_push(&v);

		if (!q) {
			oom(ps);
			break;
		}
		if (parse_qualifier(ps, q))
			break;
		if (!is_punct(ps, ','))
			break;
		if (next(ps))
			break;
	}
	if (!ps->ret)
		expect(ps, ']', "after the qualifiers");
	*n = v.n;
	*out = vec_finish(ps->m, &v);
	if (!ps->ret && *n && !*out)
		oom(ps);
	return ps->ret;
}

static const char *const pragmas[] = {
	"namespace", "classflags", "deleteclass", "autorecover", "locale",
	"instancelocale", "amendment",
};

/* #pragma name(args): the ones mofcomp takes that change no class here. */
static int parse_pragma(struct parser *ps)
{
	unsigned long line = ps->tok_line;
	bool known = false;
	char buf[48];

	if (next(ps))
		return ps->ret;
	for (size_t i = 0; i < ARRAY_SIZE(pragmas); i++)
		known |= is_word(ps, pragmas[i]);
	if (ps->tok != T_IDENT)
		return fail(ps, line, "expected a pragma name, found %s",
			    tok_name(ps, buf));
	if (!known)
		return fail(ps, line, "unsupported #pragma %.*s", (int)ps->len,
			    ps->text);
	if (next(ps) || expect(ps, '(', "after the pragma's name"))
		return ps->ret;
	if (!is_punct(ps, ')')) {
		for (;;) {
			if (ps->tok == T_IDENT) {
				if (next(ps))
					return ps->ret;
			} else if (!take_value(ps)) {
				return ps->ret;
			}
			if (!is_punct(ps, ','))
				break;
			if (next(ps))
				return ps->ret;
		}
	}
	return expect(ps, ')', "after the pragma's arguments");
}

static int parse_property(struct parser *ps, struct etw_mof_property *p)
{
	char buf[48];

	p->line = ps->tok_line;
	if (parse_qualifiers(ps, &p->qualifiers, &p->nqualifiers))
		return ps->ret;
	p->line = ps->tok_line;
	p->type = take_ident(ps, "a property type");
	if (!p->type)
		return ps->ret;
	if (is_word(ps, "ref"))
		return fail(ps, ps->tok_line, "references are not supported");
	p->name = take_ident(ps, "a property name");
	if (!p->name)
		return ps->ret;
	if (is_punct(ps, '(')) {
		return fail(ps, ps->tok_line, "methods are not supported");
	}
	if (is_punct(ps, '[')) {
		p->array = true;
		if (next(ps))
			return ps->ret;
		if (ps->tok == T_NUMBER) {
			char *end;
			unsigned long n = strtoul(ps->text, &end, 0);

			if (end != ps->text + ps->len || n == 0 || n > 65535)
				return fail(ps, ps->tok_line,
					    "array size '%.*s' is not a number from 1 to 65535",
					    (int)ps->len, ps->text);
			p->array_size = (unsigned int)n;
			if (next(ps))
				return ps->ret;
		}
		if (expect(ps, ']', "after the array size"))
			return ps->ret;
	}
	if (is_punct(ps, '=')) {
		if (next(ps))
			return ps->ret;
		if (is_punct(ps, '{')) {
			if (next(ps))
				return ps->ret;
			while (!is_punct(ps, '}')) {
				if (!take_value(ps))
					return ps->ret;
				if (!is_punct(ps, ','))
					break;
				if (next(ps))
					return ps->ret;
			}
			if (expect(ps, '}', "after the default values"))
				return ps->ret;
		} else if (!take_value(ps)) {
			return ps->ret;
		}
	}
	if (!is_punct(ps, ';'))
		return fail(ps, ps->tok_line, "expected ';' after property '%s', found %s",
			    p->name, tok_name(ps, buf));
	return next(ps);
}

static int parse_class(struct parser *ps, struct etw_mof_class *c)
{
	struct vec props = { .size = sizeof(struct etw_mof_property) };
	char buf[48];

	c->line = ps->tok_line;
	if (next(ps))
		return ps->ret;
	c->name = take_ident(ps, "a class name");
	if (!c->name)
		return ps->ret;
	if (is_punct(ps, ':')) {
		if (next(ps))
			return ps->ret;
		c->parent = take_ident(ps, "the parent class's name");
		if (!c->parent)
			return ps->ret;
	}
	if (expect(ps, '{', "to open the class"))
		return ps->ret;
	while (!is_punct(ps, '}') && !ps->ret) {
		struct etw_mof_property *p;

		if (ps->tok == T_EOF) {
			fail(ps, c->line, "class %s is not closed", c->name);
			break;
		}
		p = vec_push(&props);
		if (!p) {
			oom(ps);
			break;
		}
		if (parse_property(ps, p))
			break;
	}
	c->nproperties = props.n;
	c->properties = vec_finish(ps->m, &props);
	if (ps->ret)
		return ps->ret;
	if (c->nproperties && !c->properties)
		return oom(ps);
	if (next(ps))
		return ps->ret;
	if (!is_punct(ps, ';'))
		return fail(ps, ps->tok_line, "expected ';' after class %s, found %s",
			    c->name, tok_name(ps, buf));
	return next(ps);
}

static int parse_file(struct parser *ps, struct vec *classes)
{
	char buf[48];

	if (next(ps))
		return ps->ret;
	while (ps->tok != T_EOF && !ps->ret) {
		struct etw_mof_qualifier *q;
		struct etw_mof_class *c;
		size_t nq;

		if (ps->tok == T_PRAGMA) {
			parse_pragma(ps);
			continue;
		}
		if (is_punct(ps, ';')) {
			next(ps);
			continue;
		}
		if (parse_qualifiers(ps, &q, &nq))
			break;
		if (is_word(ps, "instance"))
			return fail(ps, ps->tok_line, "instances are not supported");
		if (is_word(ps, "qualifier"))
			return fail(ps, ps->tok_line, "qualifier declarations are not supported");
		if (!is_word(ps, "class"))
			return fail(ps, ps->tok_line, "expected a class, found %s",
				    tok_name(ps, buf));
		c = vec_push(classes);
		if (!c)
			return oom(ps);
		c->qualifiers = q;
		c->nqualifiers = nq;
		parse_class(ps, c);
	}
	return ps->ret;
}

/* ---- the ETW rules ---- */

static const struct etw_mof_qualifier *
find_qualifier(const struct etw_mof_qualifier *q, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(q[i].name, name))
			return &q[i];
	return NULL;
}

ETW_EXPORT const struct etw_mof_qualifier *
etw_mof_class_qualifier(const struct etw_mof_class *c, const char *name)
{
	return find_qualifier(c->qualifiers, c->nqualifiers, name);
}

ETW_EXPORT const struct etw_mof_qualifier *
etw_mof_property_qualifier(const struct etw_mof_property *p, const char *name)
{
	return find_qualifier(p->qualifiers, p->nqualifiers, name);
}

static int check(struct parser *ps, const struct etw_mof *m)
{
	for (size_t i = 0; i < m->nclasses; i++) {
		const struct etw_mof_class *c = &m->classes[i];
		const struct etw_mof_qualifier *g = etw_mof_class_qualifier(c, "Guid");
		GUID guid;

		for (size_t j = 0; j < i; j++)
			if (!strcasecmp(m->classes[j].name, c->name))
				return fail(ps, c->line, "class %s is defined twice (first at line %lu)",
					    c->name, m->classes[j].line);
		if (g && (g->nvalues != 1 || mof_guid(g->values[0], &guid)))
			return fail(ps, c->line, "class %s: Guid is not a GUID",
				    c->name);
		if (c->parent && strcasecmp(c->parent, "EventTrace")) {
			size_t j;

			for (j = 0; j < i; j++)
				if (!strcasecmp(m->classes[j].name, c->parent))
					break;
			if (j == i)
				return fail(ps, c->line, "class %s: parent class %s is not defined before it",
					    c->name, c->parent);
		}
		if (!etw_mof_class_qualifier(c, "EventType"))
			continue;
		for (size_t k = 0; k < c->nproperties; k++) {
			const struct etw_mof_property *p = &c->properties[k];
			struct mof_field f;
			char why[160];

			if (mof_field_of(c, p, &f, why, sizeof(why)))
				return fail(ps, p->line, "%s.%s: %s", c->name,
					    p->name, why);
		}
	}
	return 0;
}

ETW_EXPORT int etw_mof_parse(const char *text, size_t size, const char *path,
			     struct etw_mof **out, struct etw_mof_error *err)
{
	struct vec classes = { .size = sizeof(struct etw_mof_class) };
	struct etw_mof_error dummy;
	struct parser ps = {
		.p = text, .end = text + size, .line = 1,
		.err = err ? err : &dummy,
	};
	struct mof_model *m;

	*out = NULL;
	ps.err->line = 0;
	ps.err->message[0] = '\0';
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	ps.m = m;
	m->pub.path = arena_strndup(m, path ? path : "", path ? strlen(path) : 0);
	if (!m->pub.path)
		oom(&ps);
	/* A UTF-8 byte order mark is allowed at the start. */
	if (size >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		ps.p += 3;
	if (!ps.ret)
		parse_file(&ps, &classes);
	m->pub.nclasses = classes.n;
	m->pub.classes = vec_finish(m, &classes);
	if (!ps.ret && m->pub.nclasses && !m->pub.classes)
		oom(&ps);
	if (!ps.ret)
		check(&ps, &m->pub);
	free(ps.str);
	if (ps.ret) {
		etw_mof_free(&m->pub);
		return ps.ret;
	}
	*out = &m->pub;
	return 0;
}

ETW_EXPORT int etw_mof_read(const char *path, struct etw_mof **out,
			    struct etw_mof_error *err)
{
	struct stat st;
	char *text;
	ssize_t n;
	int fd, ret;

	*out = NULL;
	if (err) {
		err->line = 0;
		err->message[0] = '\0';
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EFBIG;
		close(fd);
		return ret;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		close(fd);
		return -ENOMEM;
	}
	n = read(fd, text, (size_t)st.st_size);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (!ret)
		ret = etw_mof_parse(text, (size_t)n, path, out, err);
	free(text);
	return ret;
}

ETW_EXPORT void etw_mof_free(struct etw_mof *pub)
{
	struct mof_model *m = (struct mof_model *)pub;

	if (!m)
		return;
	while (m->blocks) {
		struct arena_block *b = m->blocks;

		m->blocks = b->next;
		free(b);
	}
	free(m);
}
