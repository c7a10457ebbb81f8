// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp: the source scanner.  It reads C and C++ as tokens (comments,
 * strings and preprocessor lines skipped), and finds
 *   - "// begin_wpp config" ... "// end_wpp" blocks (also in a block
 *     comment), handed to the configuration parser;
 *   - enum definitions, for CUSTOM_TYPE(x, ItemEnum(T));
 *   - the calls of the configured trace functions, with the arguments as
 *     written (split at the commas outside parentheses, as the C
 *     preprocessor splits them) and the function definition they are in.
 *
 * Hand-written: the preprocessor's own view of the source comes later,
 * from the compiler; this needs only what tracewpp looks at.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"

enum tok_kind { T_EOF, T_IDENT, T_NUMBER, T_STRING, T_CHAR, T_PUNCT };

struct tok {
	enum tok_kind kind;
	const char *s;
	size_t n;
	int line;
	bool space;		/* whitespace or a comment before it */
};

struct scanner {
	struct wpp_config *cfg;
	bool blocks;		/* read config blocks */
	const char *path;
	const char *p;
	int line;
	bool bol;		/* only whitespace since the line began */
	int err;
	/* A "// begin_wpp config" block being read. */
	bool in_config;
	bool commented;		/* this line had a "//" comment */
	int config_line;
	struct wpp_buf config;
};

static bool starts(const char *s, const char *prefix)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !strncmp(s, prefix, strlen(prefix));
}

static void config_done(struct scanner *sc)
{
	if (!sc->err && sc->config.s &&
	    wpp_config_parse(sc->cfg, sc->config.s, sc->path, sc->config_line))
		sc->err = -1;
	wpp_buf_free(&sc->config);
	sc->in_config = false;
}

/* A "//" comment's text (without the slashes), on line sc->line. */
static void line_comment(struct scanner *sc, const char *s, size_t n)
{
	char *text;

	if (!sc->blocks)
		return;
	text = wpp_strndup(s, n);
	sc->commented = true;
	if (sc->in_config) {
		if (starts(text, "end_wpp")) {
			config_done(sc);
		} else {
			wpp_buf_puts(&sc->config, text);
			wpp_buf_puts(&sc->config, "\n");
		}
	} else if (starts(text, "begin_wpp config")) {
		sc->in_config = true;
		sc->config_line = sc->line + 1;
		wpp_buf_puts(&sc->config, "");
	}
	free(text);
}

/* A block comment holding a whole config block. */
static void block_comment(struct scanner *sc, const char *s, size_t n, int line)
{
	char *text, *b, *e;

	if (!sc->blocks)
		return;
	text = wpp_strndup(s, n);
	b = strstr(text, "begin_wpp config");
	if (b) {
		b += strlen("begin_wpp config");
		e = strstr(b, "end_wpp");
		if (e)
			*e = 0;
		for (const char *q = text; q < b; q++)
			line += *q == '\n';
		if (!sc->err && wpp_config_parse(sc->cfg, b, sc->path, line))
			sc->err = -1;
	}
	free(text);
}

/* Skip whitespace, comments and preprocessor lines; true if any. */
static bool skip(struct scanner *sc)
{
	bool any = false;

	for (;;) {
		const char *p = sc->p;

		if (*p == '\n') {
			/* One line of config text per line of source. */
			if (sc->in_config && !sc->commented)
				wpp_buf_puts(&sc->config, "\n");
			sc->commented = false;
			sc->line++;
			sc->bol = true;
			sc->p++;
		} else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
			sc->p++;
		} else if (p[0] == '/' && p[1] == '/') {
			const char *e = strchr(p, '\n');

			if (!e)
				e = p + strlen(p);
			line_comment(sc, p + 2, (size_t)(e - p - 2));
			sc->p = e;
			sc->bol = false;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			int line = sc->line;

			if (!e)
				e = p + strlen(p) - 2;
			for (const char *q = p; q < e; q++)
				sc->line += *q == '\n';
			block_comment(sc, p + 2, (size_t)(e - p - 2), line);
			sc->p = e + 2;
		} else if (*p == '#' && sc->bol) {
			/* A directive, with its continuation lines. */
			while (*sc->p && *sc->p != '\n') {
				if (sc->p[0] == '\\' && sc->p[1] == '\n') {
					sc->line++;
					sc->p++;
				} else if (sc->p[0] == '/' && sc->p[1] == '*') {
					break;
				}
				sc->p++;
			}
		} else {
			return any;
		}
		any = true;
	}
}

static struct tok next(struct scanner *sc)
{
	struct tok t = { .space = skip(sc) };
	const char *p = sc->p;

	t.s = p;
	t.line = sc->line;
	if (*p)
		sc->bol = false;
	if (!*p) {
		t.kind = T_EOF;
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		t.kind = T_IDENT;
		/* L"...", u8"...": a string with a prefix. */
		if ((*p == '"' || *p == '\'') && p - t.s <= 2 &&
		    strchr("LuU8", t.s[0]) && strchr("LuU8", p[-1])) {
			sc->p = p;
			t.kind = *p == '"' ? T_STRING : T_CHAR;
			goto quoted;
		}
	} else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
		while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' ||
		       ((*p == '+' || *p == '-') && strchr("eEpP", p[-1])))
			p++;
		t.kind = T_NUMBER;
	} else if (*p == '"' || *p == '\'') {
		t.kind = *p == '"' ? T_STRING : T_CHAR;
quoted:
		{
			char q = *p++;

			while (*p && *p != q && *p != '\n') {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			if (*p != q) {
				struct wpp_pos pos = { sc->path, sc->line };

				sc->err = wpp_error(&pos, "unterminated %s",
						    q == '"' ? "string" : "character constant");
				t.kind = T_EOF;
				return t;
			}
			p++;
		}
	} else if (p[0] == ':' && p[1] == ':') {
		p += 2;
		t.kind = T_PUNCT;
	} else {
		p++;
		t.kind = T_PUNCT;
	}
	t.n = (size_t)(p - t.s);
	sc->p = p;
	return t;
}

static bool is(const struct tok *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->s, s, t->n);
}

/* ---- enums --------------------------------------------------------- */

static bool parse_int(const char *s, int64_t *v)
{
	bool neg = false;
	char *end;

	while (*s == ' ')
		s++;
	if (*s == '-' || *s == '+') {
		neg = *s == '-';
		s++;
		while (*s == ' ')
			s++;
	}
	if (!isdigit((unsigned char)*s))
		return false;
	*v = (int64_t)strtoull(s, &end, 0);
	while (*end && strchr("uUlL", *end))
		end++;
	if (*end)
		return false;
	if (neg)
		*v = -*v;
	return true;
}

static void add_enum(struct wpp_config *cfg, const struct wpp_enum *e, const char *name)
{
	struct wpp_enum c = *e;

	c.name = wpp_strdup(name);
	c.names = malloc(sizeof(char *) * (size_t)(e->count ? e->count : 1));
	c.values = malloc(sizeof(int64_t) * (size_t)(e->count ? e->count : 1));
	if (!c.names || !c.values)
		abort();
	for (int i = 0; i < e->count; i++) {
		c.names[i] = wpp_strdup(e->names[i]);
		c.values[i] = e->values[i];
	}
	cfg->enums = realloc(cfg->enums, sizeof(c) * (cfg->nenums + 1));
	if (!cfg->enums)
		abort();
	cfg->enums[cfg->nenums++] = c;
}

struct wpp_enum *wpp_enum_find(const struct wpp_config *cfg, const char *name)
{
	for (int i = cfg->nenums - 1; i >= 0; i--)
		if (!strcmp(cfg->enums[i].name, name))
			return &cfg->enums[i];
	return NULL;
}

/*
 * After "enum": read the definition on a copy of the scanner (the main
 * scan goes through the braces itself).  Values: integer constants or an
 * earlier enumerator; anything else marks the enum not evaluable.
 */
static void scan_enum(struct scanner *main)
{
	struct scanner sc = *main;
	struct wpp_enum e = { 0 };
	char *tag = NULL;
	struct tok t;
	int64_t next_value = 0;

	sc.blocks = false;
	sc.in_config = false;
	sc.config = (struct wpp_buf){ 0 };
	t = next(&sc);
	if (t.kind == T_IDENT && (is(&t, "class") || is(&t, "struct")))
		t = next(&sc);
	if (t.kind == T_IDENT) {
		tag = wpp_strndup(t.s, t.n);
		t = next(&sc);
	}
	if (t.kind == T_PUNCT && is(&t, ":"))
		while (t.kind != T_EOF && !is(&t, "{") && !is(&t, ";"))
			t = next(&sc);
	if (!is(&t, "{")) {
		free(tag);
		return;
	}
	e.pos = (struct wpp_pos){ main->path, t.line };
	for (;;) {
		struct wpp_buf val = { 0 };
		char *name;
		int64_t v;

		t = next(&sc);
		if (t.kind != T_IDENT)
			break;
		name = wpp_strndup(t.s, t.n);
		t = next(&sc);
		v = next_value;
		if (is(&t, "=")) {
			int depth = 0;

			wpp_buf_puts(&val, "");
			for (t = next(&sc); t.kind != T_EOF; t = next(&sc)) {
				if (is(&t, "("))
					depth++;
				if (is(&t, ")"))
					depth--;
				if (!depth && (is(&t, ",") || is(&t, "}")))
					break;
				if (t.space && val.len)
					wpp_buf_puts(&val, " ");
				wpp_buf_add(&val, t.s, t.n);
			}
			if (!parse_int(val.s, &v)) {
				int k;

				for (k = 0; k < e.count && strcmp(e.names[k], val.s); k++)
					;
				if (k < e.count)
					v = e.values[k];
				else if (!e.bad_line)
					e.bad_line = t.line;
			}
			wpp_buf_free(&val);
		}
		e.names = realloc(e.names, sizeof(char *) * (e.count + 1));
		e.values = realloc(e.values, sizeof(int64_t) * (e.count + 1));
		if (!e.names || !e.values)
			abort();
		e.names[e.count] = name;
		e.values[e.count++] = v;
		next_value = v + 1;
		if (!is(&t, ","))
			break;
	}
	if (is(&t, "}")) {
		if (tag)
			add_enum(main->cfg, &e, tag);
		/* typedef enum _T { ... } T, *PT; */
		for (t = next(&sc); t.kind == T_IDENT || is(&t, ",") || is(&t, "*"); t = next(&sc))
			if (t.kind == T_IDENT) {
				char *alias = wpp_strndup(t.s, t.n);

				add_enum(main->cfg, &e, alias);
				free(alias);
			}
	}
	for (int i = 0; i < e.count; i++)
		free(e.names[i]);
	free(e.names);
	free(e.values);
	free(tag);
}

/* ---- calls --------------------------------------------------------- */

static char *arg_text(struct wpp_buf *b)
{
	char *s = b->s ? b->s : wpp_strdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

/* The arguments of a call, after its '('; -1 on an error. */
static int call_args(struct scanner *sc, char ***out, int line)
{
	struct wpp_buf cur = { 0 };
	char **v = NULL;
	int n = 0, depth = 0;

	for (;;) {
		struct tok t = next(sc);

		if (t.kind == T_EOF) {
			struct wpp_pos pos = { sc->path, line };

			free(v);
			wpp_buf_free(&cur);
			return sc->err ? -1 : wpp_error(&pos, "the call has no closing ')'");
		}
		if (is(&t, "("))
			depth++;
		if (is(&t, ")") && depth-- == 0) {
			if (n || cur.len) {
				v = realloc(v, sizeof(*v) * (n + 1));
				v[n++] = arg_text(&cur);
			}
			*out = v;
			return n;
		}
		if (is(&t, ",") && depth == 0) {
			v = realloc(v, sizeof(*v) * (n + 1));
			v[n++] = arg_text(&cur);
			continue;
		}
		if (t.space && cur.len)
			wpp_buf_puts(&cur, " ");
		wpp_buf_add(&cur, t.s, t.n);
	}
}

static int add_call(struct scanner *sc, struct wpp_source *src, const struct wpp_func *f,
		    const char *function, int line)
{
	struct wpp_msg m = { .func = f, .pos = { sc->path, line } };
	int need;

	m.nvals = call_args(sc, &m.vals, line);
	if (m.nvals < 0)
		return -1;
	need = f->msg >= 0 ? f->msg + 1 : f->nparams;
	if (m.nvals < need || (m.nvals > need && !f->varargs))
		return wpp_error(&m.pos, "%s takes %s%d arguments, the call has %d", f->name,
				 f->varargs ? "at least " : "", need, m.nvals);
	if (src->nmsgs && src->msgs[src->nmsgs - 1].pos.line == line)
		return wpp_error(&m.pos, "two trace calls on one line: each line is one message");
	m.function = wpp_strdup(function);
	src->msgs = realloc(src->msgs, sizeof(m) * (src->nmsgs + 1));
	if (!src->msgs)
		abort();
	src->msgs[src->nmsgs++] = m;
	return 0;
}

/* ---- the walk ------------------------------------------------------ */

enum brace { B_SCOPE, B_FUNCTION, B_OTHER };

int wpp_scan(struct wpp_config *cfg, const char *path, const char *text,
	     struct wpp_source *src, bool msgs)
{
	struct scanner sc = { .cfg = cfg, .blocks = !msgs, .path = path, .p = text, .line = 1,
			      .bol = true };
	enum brace *stack = NULL;
	int depth = 0, scope_depth = 0, parens = 0;
	char *function = wpp_strdup(""), *candidate = NULL, *qual = NULL;
	bool after_params = false, scope_next = false, prev_colons = false;

	for (;;) {
		struct tok t = next(&sc);

		if (sc.err || t.kind == T_EOF)
			break;
		/* Anywhere: enum definitions and trace calls. */
		if (t.kind == T_IDENT && !msgs && is(&t, "enum")) {
			scan_enum(&sc);
			if (sc.err)
				break;
		}
		if (t.kind == T_IDENT && msgs) {
			char *name = wpp_strndup(t.s, t.n);
			const struct wpp_func *f = wpp_func_find(cfg, name);

			free(name);
			if (f) {
				const char *save = sc.p;
				int line = sc.line;
				struct tok o = next(&sc);

				if (is(&o, "(")) {
					if (add_call(&sc, src, f, function, t.line))
						sc.err = -1;
					continue;
				}
				sc.p = save;
				sc.line = line;
			}
		}
		/* Which function definition we are in, at file or namespace scope. */
		if (depth == scope_depth) {
			if (t.kind == T_IDENT) {
				if (is(&t, "namespace"))
					scope_next = true;
				if (parens == 0) {
					char *id = wpp_strndup(t.s, t.n);

					if (prev_colons && qual) {
						char *q = malloc(strlen(qual) + strlen(id) + 3);

						sprintf(q, "%s::%s", qual, id);
						free(id);
						id = q;
					}
					free(qual);
					qual = id;
				}
			} else if (t.kind == T_STRING && is(&t, "\"C\"")) {
				scope_next = true;	/* extern "C" { */
			} else if (is(&t, "(")) {
				if (parens++ == 0 && qual) {
					free(candidate);
					candidate = wpp_strdup(qual);
					after_params = false;
				}
			} else if (is(&t, ")")) {
				if (parens > 0 && --parens == 0 && candidate)
					after_params = true;
			} else if (parens == 0 && (is(&t, ";") || is(&t, "="))) {
				after_params = false;
				scope_next = false;
				free(candidate);
				candidate = NULL;
			}
		}
		prev_colons = is(&t, "::");
		if (is(&t, "{")) {
			enum brace b = B_OTHER;

			if (depth == scope_depth && scope_next) {
				b = B_SCOPE;
			} else if (depth == scope_depth && parens == 0 && after_params && candidate) {
				b = B_FUNCTION;
				free(function);
				function = candidate;
				candidate = NULL;
			}
			stack = realloc(stack, sizeof(*stack) * (depth + 1));
			stack[depth++] = b;
			if (b == B_SCOPE)
				scope_depth = depth;
			after_params = false;
			scope_next = false;
			parens = 0;
		} else if (is(&t, "}") && depth > 0) {
			enum brace b = stack[--depth];

			if (b == B_SCOPE)
				scope_depth = depth;
			if (b == B_FUNCTION) {
				free(function);
				function = wpp_strdup("");
			}
			if (depth == scope_depth) {
				free(qual);
				qual = NULL;
				free(candidate);
				candidate = NULL;
				after_params = false;
			}
		}
	}
	if (!sc.err && sc.in_config) {
		struct wpp_pos pos = { path, sc.config_line - 1 };

		sc.err = wpp_error(&pos, "begin_wpp config without end_wpp");
	}
	wpp_buf_free(&sc.config);
	free(stack);
	free(function);
	free(candidate);
	free(qual);
	if (sc.err)
		return -1;
	for (int i = 0; i < src->nmsgs; i++)
		src->msgs[i].number = 10 + i;
	return 0;
}
