// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp: the configuration statements, as defaultwpp.ini and begin_wpp
 * config blocks write them: FUNC, USEPREFIX, USESUFFIX, the type
 * statements (types.c) and WPP_FLAGS.  Each is NAME(args) with an
 * optional ';'; FUNC is "FUNC Name{K=V,...}(params)".  Comments are '#'
 * and '//' to the end of the line and C's block comments.
 *
 * Hand-written: no library parses this grammar.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"

struct cursor {
	const char *p;
	struct wpp_pos pos;
};

static void skip_space(struct cursor *c)
{
	for (;;) {
		if (*c->p == '\n') {
			c->pos.line++;
			c->p++;
		} else if (isspace((unsigned char)*c->p)) {
			c->p++;
		} else if (*c->p == '#' || (c->p[0] == '/' && c->p[1] == '/')) {
			while (*c->p && *c->p != '\n')
				c->p++;
		} else if (c->p[0] == '/' && c->p[1] == '*') {
			c->p += 2;
			while (*c->p && !(c->p[0] == '*' && c->p[1] == '/')) {
				if (*c->p == '\n')
					c->pos.line++;
				c->p++;
			}
			if (*c->p)
				c->p += 2;
		} else {
			return;
		}
	}
}

static char *ident(struct cursor *c)
{
	const char *s = c->p;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return NULL;
	while (isalnum((unsigned char)*c->p) || *c->p == '_')
		c->p++;
	return wpp_strndup(s, (size_t)(c->p - s));
}

static char *trim(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return wpp_strndup(s, n);
}

/*
 * The list between c->p's opening bracket and its match, split at commas
 * outside brackets and quotes.  Returns the count, -1 on an error.
 */
static int list(struct cursor *c, char close, char ***out)
{
	const char *start;
	char **v = NULL;
	int n = 0, depth = 0;
	char open = *c->p;

	c->p++;
	start = c->p;
	for (;; c->p++) {
		char ch = *c->p;

		if (!ch) {
			free(v);
			return wpp_error(&c->pos, "'%c' without '%c'", open, close);
		}
		if (ch == '\n')
			c->pos.line++;
		if (ch == '"' || ch == '\'') {
			for (c->p++; *c->p && *c->p != ch; c->p++)
				if (*c->p == '\\' && c->p[1])
					c->p++;
			if (!*c->p) {
				free(v);
				return wpp_error(&c->pos, "unterminated quote");
			}
			continue;
		}
		if (ch == '(' || ch == '{' || ch == '[') {
			depth++;
			continue;
		}
		if ((ch == ')' || ch == '}' || ch == ']') && depth) {
			depth--;
			continue;
		}
		if (depth == 0 && (ch == close || ch == ',')) {
			char *a = trim(start, (size_t)(c->p - start));

			if (ch == close && !n && !*a) {
				free(a);
				c->p++;
				*out = v;
				return 0;
			}
			v = realloc(v, sizeof(*v) * (n + 1));
			if (!v)
				abort();
			v[n++] = a;
			start = c->p + 1;
			if (ch == close) {
				c->p++;
				*out = v;
				return n;
			}
		}
	}
}

static void free_list(char **v, int n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

char *wpp_unquote(const char *arg)
{
	struct wpp_buf b = { 0 };
	const char *p = arg;

	b.s = wpp_strdup("");
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p == 'L')
			p++;
		if (*p != '"') {
			wpp_buf_free(&b);
			return NULL;
		}
		for (p++; *p && *p != '"'; p++) {
			/* \" and \\ are the character; other escapes stay as written. */
			if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '\'')) {
				p++;
			} else if (*p == '\\' && p[1]) {
				wpp_buf_add(&b, p, 1);
				p++;
			}
			wpp_buf_add(&b, p, 1);
		}
		if (!*p) {
			wpp_buf_free(&b);
			return NULL;
		}
		p++;
	}
	return b.s;
}

const struct wpp_fix *wpp_fix_find(const struct wpp_fix *fix, int n, const char *func)
{
	const struct wpp_fix *any = NULL;

	while (n-- > 0) {
		if (!strcmp(fix[n].func, func))
			return &fix[n];
		if (!any && !strcmp(fix[n].func, "*"))
			any = &fix[n];
	}
	return any;
}

struct wpp_func *wpp_func_find(const struct wpp_config *cfg, const char *name)
{
	for (int i = cfg->nfuncs - 1; i >= 0; i--)
		if (!strcmp(cfg->funcs[i].name, name))
			return &cfg->funcs[i];
	return NULL;
}

static int is_ident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	return !*s;
}

static int add_func(struct wpp_config *cfg, char *name, char **fixed, int nfixed,
		    char **params, int nparams, const struct wpp_pos *pos)
{
	struct wpp_func f = { .name = name, .msg = -1, .pos = *pos };

	for (int i = 0; i < nfixed; i++) {
		char *eq = strchr(fixed[i], '=');

		if (!eq)
			return wpp_error(pos, "FUNC %s: '%s' is not NAME=VALUE", name, fixed[i]);
		f.fixed_names = realloc(f.fixed_names, sizeof(char *) * (i + 1));
		f.fixed_values = realloc(f.fixed_values, sizeof(char *) * (i + 1));
		f.fixed_names[i] = trim(fixed[i], (size_t)(eq - fixed[i]));
		f.fixed_values[i] = trim(eq + 1, strlen(eq + 1));
		if (!is_ident(f.fixed_names[i]))
			return wpp_error(pos, "FUNC %s: '%s' is not a condition name", name,
					 f.fixed_names[i]);
		f.nfixed = i + 1;
	}
	for (int i = 0; i < nparams; i++) {
		if (!strcmp(params[i], "MSG")) {
			if (f.msg >= 0)
				return wpp_error(pos, "FUNC %s: MSG twice", name);
			f.msg = i;
		} else if (!strcmp(params[i], "...")) {
			if (f.msg != i - 1 || i != nparams - 1)
				return wpp_error(pos, "FUNC %s: '...' must follow MSG and end the list",
						 name);
			f.varargs = true;
			continue;
		} else if (f.msg >= 0) {
			return wpp_error(pos, "FUNC %s: parameter '%s' after MSG is not supported",
					 name, params[i]);
		} else if (!is_ident(params[i])) {
			return wpp_error(pos, "FUNC %s: '%s' is not a condition name", name,
					 params[i]);
		}
		f.params = realloc(f.params, sizeof(char *) * (f.nparams + 1));
		f.params[f.nparams++] = wpp_strdup(params[i]);
	}
	if (f.msg < 0 && !f.nparams && !f.nfixed)
		return wpp_error(pos, "FUNC %s: no parameters", name);
	cfg->funcs = realloc(cfg->funcs, sizeof(f) * (cfg->nfuncs + 1));
	if (!cfg->funcs)
		abort();
	cfg->funcs[cfg->nfuncs++] = f;
	return 0;
}

static int fix_statement(struct wpp_fix **fix, int *n, char **args, int nargs, bool suffix,
			 const struct wpp_pos *pos)
{
	const char *what = suffix ? "USESUFFIX" : "USEPREFIX";
	struct wpp_fix f = { .pos = *pos };

	if (nargs < 2 || (!suffix && nargs != 2))
		return wpp_error(pos, "%s needs (function, \"format\"%s)", what,
				 suffix ? ", arguments..." : "");
	f.text = wpp_unquote(args[1]);
	if (!f.text)
		return wpp_error(pos, "%s: the format is not a string: %s", what, args[1]);
	f.func = wpp_strdup(args[0]);
	for (int i = 2; i < nargs; i++) {
		f.args = realloc(f.args, sizeof(char *) * (f.nargs + 1));
		f.args[f.nargs++] = wpp_strdup(args[i]);
	}
	*fix = realloc(*fix, sizeof(f) * (*n + 1));
	if (!*fix)
		abort();
	(*fix)[(*n)++] = f;
	return 0;
}

static int flags_statement(struct wpp_config *cfg, char **args, int nargs,
			   const struct wpp_pos *pos)
{
	for (int i = 0; i < nargs; i++) {
		char *save = NULL, *copy = wpp_strdup(args[i]);
		int ret = 0;

		for (char *t = strtok_r(copy, " \t\n", &save); t && !ret;
		     t = strtok_r(NULL, " \t\n", &save)) {
			if (!strcmp(t, "-km"))
				cfg->km = true;
			else if (!strcmp(t, "-dll"))
				cfg->dll = true;
			else if (!strncmp(t, "-func:", 6))
				ret = wpp_config_func(cfg, t + 6, pos);
			else
				ret = wpp_error(pos, "WPP_FLAGS: option '%s' is not supported here", t);
		}
		free(copy);
		if (ret)
			return ret;
	}
	return 0;
}

int wpp_config_parse(struct wpp_config *cfg, const char *text, const char *file,
		     int first_line)
{
	struct cursor c = { text, { file, first_line } };

	for (;;) {
		char **fixed = NULL, **args = NULL, *name = NULL, *func = NULL;
		int nfixed = 0, nargs, ret = 0;
		struct wpp_pos pos;

		skip_space(&c);
		if (!*c.p)
			return 0;
		pos = c.pos;
		name = ident(&c);
		if (!name)
			return wpp_error(&pos, "expected a configuration statement at '%.20s'", c.p);
		skip_space(&c);
		if (!strcmp(name, "FUNC")) {
			func = ident(&c);
			if (!func) {
				free(name);
				return wpp_error(&pos, "FUNC without a function name");
			}
			skip_space(&c);
			if (*c.p == '{') {
				nfixed = list(&c, '}', &fixed);
				if (nfixed < 0) {
					free(name);
					free(func);
					return -1;
				}
				skip_space(&c);
			}
		}
		if (*c.p != '(') {
			ret = wpp_error(&pos, "%s: '(' expected", name);
			free(name);
			free(func);
			free_list(fixed, nfixed);
			return ret;
		}
		nargs = list(&c, ')', &args);
		if (nargs < 0) {
			free(name);
			free(func);
			free_list(fixed, nfixed);
			return -1;
		}
		skip_space(&c);
		if (*c.p == ';')
			c.p++;

		if (func)
			ret = add_func(cfg, func, fixed, nfixed, args, nargs, &pos);
		else if (!strcmp(name, "USEPREFIX"))
			ret = fix_statement(&cfg->prefixes, &cfg->nprefixes, args, nargs, false, &pos);
		else if (!strcmp(name, "USESUFFIX"))
			ret = fix_statement(&cfg->suffixes, &cfg->nsuffixes, args, nargs, true, &pos);
		else if (!strcmp(name, "WPP_FLAGS"))
			ret = flags_statement(cfg, args, nargs, &pos);
		else
			ret = wpp_type_statement(cfg, name, args, nargs, &pos);
		free(name);
		free_list(fixed, nfixed);
		free_list(args, nargs);
		if (ret)
			return ret;
	}
}

int wpp_config_func(struct wpp_config *cfg, const char *text, const struct wpp_pos *pos)
{
	struct wpp_buf b = { 0 };
	int ret;

	wpp_buf_printf(&b, "FUNC %s", text);
	ret = wpp_config_parse(cfg, b.s, pos ? pos->file : "-func", pos ? pos->line : 0);
	wpp_buf_free(&b);
	return ret;
}

static void free_fix(struct wpp_fix *f, int n)
{
	for (int i = 0; i < n; i++) {
		free(f[i].func);
		free(f[i].text);
		free_list(f[i].args, f[i].nargs);
	}
	free(f);
}

void wpp_config_free(struct wpp_config *cfg)
{
	for (int i = 0; i < cfg->ntypes; i++) {
		struct wpp_type *t = &cfg->types[i];

		free(t->name);
		free(t->ctype);
		free(t->item);
		free(t->format);
		free(t->macro);
		free(t->sig);
		free(t->enum_name);
	}
	free(cfg->types);
	for (int i = 0; i < cfg->nfuncs; i++) {
		struct wpp_func *f = &cfg->funcs[i];

		free(f->name);
		free_list(f->fixed_names, f->nfixed);
		free_list(f->fixed_values, f->nfixed);
		free_list(f->params, f->nparams);
	}
	free(cfg->funcs);
	free_fix(cfg->prefixes, cfg->nprefixes);
	free_fix(cfg->suffixes, cfg->nsuffixes);
	for (int i = 0; i < cfg->nenums; i++) {
		free(cfg->enums[i].name);
		free_list(cfg->enums[i].names, cfg->enums[i].count);
		free(cfg->enums[i].values);
	}
	free(cfg->enums);
	memset(cfg, 0, sizeof(*cfg));
}
