// SPDX-License-Identifier: GPL-2.0
/*
 * etw wpp: a source's .tmh, the header it includes after its own.  It has
 *   - <etw_wpp.h> (the control model, registration and marshalling), after
 *     -D's, -dll's and -ctl:'s definitions;
 *   - the source's message GUID and its TMF text, the text in the object's
 *     .etw.tmf section, NUL-terminated, so the linker's concatenation of
 *     several sources' texts stays readable;
 *   - one logging function per argument signature, WPP_SF_<sig>, calling
 *     TraceMessage with the arguments' (address, size) pairs and 0;
 *   - each trace function mapped to WPP_(CALL), and one macro per call
 *     site, WPP_CALL_<file>_<ext><line>:
 *
 *	WPP_<C>_PRE(c) ((WPP_<C>_ENABLED(c)) ?
 *		WPP_SF_<sig>(WPP_<C>_LOGGER(c) <number>, WPP_LOCAL_TraceGuids + 0,
 *			     args...), 1 : 0) WPP_<C>_POST(c)
 *
 *     where <C> is the function's condition names joined by '_' ({K=V}
 *     conditions first, then the parameters before MSG) and c their values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"

static void c_string(struct wpp_buf *out, const char *s)
{
	wpp_buf_puts(out, "\t\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\n') {
			wpp_buf_puts(out, "\\n\"");
			if (s[1])
				wpp_buf_puts(out, "\n\t\"");
			else
				return;
		} else if (ch == '"' || ch == '\\') {
			wpp_buf_printf(out, "\\%c", ch);
		} else if (ch < 0x20 || ch >= 0x7f || ch == '?') {
			/* Octal: no trigraphs, no hex escape running on. */
			wpp_buf_printf(out, "\\%03o", ch);
		} else {
			wpp_buf_add(out, (const char *)&ch, 1);
		}
	}
	wpp_buf_puts(out, "\"");
}

/* WPP_SF_<signature>: its name. */
static void sig_name(const struct wpp_msg *m, struct wpp_buf *out)
{
	wpp_buf_puts(out, "WPP_SF_");
	for (int i = 0; i < m->nargs; i++)
		wpp_buf_puts(out, m->args[i].type->sig);
}

static void sf_function(const struct wpp_msg *m, struct wpp_buf *out)
{
	struct wpp_buf name = { 0 };

	sig_name(m, &name);
	wpp_buf_printf(out, "#ifndef %s_def\n#define %s_def\n", name.s, name.s);
	wpp_buf_printf(out, "static __attribute__((noinline, unused)) void\n%s(TRACEHANDLE Logger, "
		       "unsigned short id, LPCGUID TraceGuid", name.s);
	for (int i = 0; i < m->nargs; i++)
		wpp_buf_printf(out, ", %s _a%d", m->args[i].type->ctype, i + 1);
	wpp_buf_puts(out, ")\n{\n\tWPP_TRACE(Logger, WPP_TRACE_OPTIONS, (LPGUID)TraceGuid, id,");
	for (int i = 0; i < m->nargs; i++) {
		const struct wpp_type *t = m->args[i].type;

		if (t->kind == WPP_TYPE_VALUE)
			wpp_buf_printf(out, "\n\t\t   WPP_LOGTYPEVAL(%s, _a%d)", t->ctype, i + 1);
		else if (t->kind == WPP_TYPE_POINTER)
			wpp_buf_printf(out, "\n\t\t   WPP_LOGTYPEPTR(_a%d)", i + 1);
		else
			wpp_buf_printf(out, "\n\t\t   %s(_a%d)", t->macro, i + 1);
	}
	wpp_buf_printf(out, "\n\t\t   (const void *)0);\n}\n#endif\n\n");
	wpp_buf_free(&name);
}

/* "_LEVEL_FLAGS" and "FLAG_ONE, (wpp_v0)": the conditions and their values. */
static void conditions(const struct wpp_msg *m, struct wpp_buf *names, struct wpp_buf *vals,
		       struct wpp_buf *params)
{
	const struct wpp_func *f = m->func;
	int n = 0;

	wpp_buf_puts(names, "");
	wpp_buf_puts(vals, "");
	wpp_buf_puts(params, "");
	for (int i = 0; i < f->nfixed; i++, n++) {
		wpp_buf_printf(names, "_%s", f->fixed_names[i]);
		wpp_buf_printf(vals, "%s%s", n ? ", " : "", f->fixed_values[i]);
		wpp_buf_printf(params, "%sa%d", n ? ", " : "", n);
	}
	for (int i = 0; i < f->nparams; i++, n++) {
		if (i == f->msg)
			break;
		wpp_buf_printf(names, "_%s", f->params[i]);
		wpp_buf_printf(vals, "%swpp_v%d", n ? ", " : "", i);
		wpp_buf_printf(params, "%sa%d", n ? ", " : "", n);
	}
}

static bool seen_before(const struct wpp_source *src, int i, bool by_sig, bool by_func,
			bool by_cond)
{
	const struct wpp_msg *m = &src->msgs[i];

	for (int k = 0; k < i; k++) {
		const struct wpp_msg *o = &src->msgs[k];

		if (by_func && o->func == m->func)
			return true;
		if (by_cond && o->func->nfixed == m->func->nfixed) {
			struct wpp_buf a = { 0 }, b = { 0 }, x = { 0 }, y = { 0 }, p = { 0 }, q = { 0 };
			bool same;

			conditions(m, &a, &x, &p);
			conditions(o, &b, &y, &q);
			same = !strcmp(a.s, b.s);
			wpp_buf_free(&a);
			wpp_buf_free(&b);
			wpp_buf_free(&x);
			wpp_buf_free(&y);
			wpp_buf_free(&p);
			wpp_buf_free(&q);
			if (same)
				return true;
		}
		if (by_sig && o->nargs == m->nargs) {
			int a = 0;

			while (a < m->nargs && !strcmp(o->args[a].type->sig, m->args[a].type->sig))
				a++;
			if (a == m->nargs)
				return true;
		}
	}
	return false;
}

static void call_site(const struct wpp_source *src, const struct wpp_msg *m,
		      struct wpp_buf *out)
{
	struct wpp_buf names = { 0 }, vals = { 0 }, params = { 0 }, sig = { 0 };

	conditions(m, &names, &vals, &params);
	sig_name(m, &sig);
	wpp_buf_printf(out, "#define WPP_CALL_%s%d(", src->canon, m->pos.line);
	for (int i = 0; i < m->nvals; i++)
		wpp_buf_printf(out, "%swpp_v%d", i ? ", " : "", i);
	wpp_buf_printf(out, ") \\\n\tWPP%s_PRE(%s) \\\n", names.s, vals.s);
	wpp_buf_printf(out, "\t((WPP%s_ENABLED(%s)) ? \\\n", names.s, vals.s);
	wpp_buf_printf(out, "\t %s(WPP%s_LOGGER(%s) %d, WPP_LOCAL_TraceGuids + 0", sig.s,
		       names.s, vals.s, m->number);
	for (int i = 0; i < m->nargs; i++)
		wpp_buf_printf(out, ", %s", m->args[i].param);
	wpp_buf_printf(out, "), 1 : 0) \\\n\tWPP%s_POST(%s)\n", names.s, vals.s);
	wpp_buf_free(&names);
	wpp_buf_free(&vals);
	wpp_buf_free(&params);
	wpp_buf_free(&sig);
}

void wpp_tmh_text(const struct wpp_source *src, const struct wpp_config *cfg,
		  const char *tmf, const struct wpp_tmh_opts *o, struct wpp_buf *out)
{
	const uint8_t *g = src->guid;

	(void)cfg;
	wpp_buf_printf(out, "// Generated by etw wpp from %s: do not edit.\n\n", src->base);
	for (int i = 0; i < o->ndefines; i++) {
		char *name = wpp_strdup(o->defines[i]), *eq = strchr(name, '=');

		if (eq)
			*eq = 0;
		wpp_buf_printf(out, "#ifndef %s\n#define %s %s\n#endif\n", name, name,
			       eq ? eq + 1 : "1");
		free(name);
	}
	if (o->dll)
		wpp_buf_puts(out, "#ifndef WPP_DLL\n#define WPP_DLL\n#endif\n");
	if (o->ctl_guid)
		wpp_buf_printf(out, "#ifndef WPP_CONTROL_GUIDS\n#define WPP_DEFAULT_CONTROL_GUID %s\n"
			       "#endif\n", o->ctl_guid);
	wpp_buf_printf(out, "#include <etw_wpp.h>\n\n#undef WPP_THIS_FILE\n"
		       "#define WPP_THIS_FILE %s\n\n", src->canon);
	wpp_buf_puts(out, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");

	wpp_buf_printf(out, "/* The message GUID of %s's messages. */\n", src->base);
	wpp_buf_printf(out, "static const GUID WPP_%s_Traceguids[] __attribute__((unused)) = {\n"
		       "\t{ 0x%02x%02x%02x%02x, 0x%02x%02x, 0x%02x%02x,\n\t  { 0x%02x, 0x%02x, 0x%02x, "
		       "0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%02x } } };\n",
		       src->canon, g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9],
		       g[10], g[11], g[12], g[13], g[14], g[15]);
	wpp_buf_printf(out, "#undef WPP_LOCAL_TraceGuids\n#define WPP_LOCAL_TraceGuids "
		       "WPP_%s_Traceguids\n\n", src->canon);

	if (src->nmsgs) {
		wpp_buf_puts(out, "/* Its TMF file, for etw wpp extract and the decoders. */\n");
		wpp_buf_printf(out, "static const char WPP_%s_tmf[] WPP_TMF_SECTION =\n",
			       src->canon);
		c_string(out, tmf);
		wpp_buf_puts(out, ";\n\n");
	}

	for (int i = 0; i < src->nmsgs; i++)
		if (!seen_before(src, i, true, false, false))
			sf_function(&src->msgs[i], out);

	for (int i = 0; i < src->nmsgs; i++) {
		const struct wpp_msg *m = &src->msgs[i];
		struct wpp_buf names = { 0 }, vals = { 0 }, params = { 0 };

		if (!seen_before(src, i, false, true, false))
			wpp_buf_printf(out, "#undef %s\n#define %s WPP_(CALL)\n", m->func->name,
				       m->func->name);
		if (seen_before(src, i, false, false, true))
			continue;
		conditions(m, &names, &vals, &params);
		wpp_buf_printf(out, "#ifndef WPP%s_PRE\n#define WPP%s_PRE(%s)\n#endif\n",
			       names.s, names.s, params.s);
		wpp_buf_printf(out, "#ifndef WPP%s_POST\n#define WPP%s_POST(%s)\n#endif\n",
			       names.s, names.s, params.s);
		wpp_buf_free(&names);
		wpp_buf_free(&vals);
		wpp_buf_free(&params);
	}
	wpp_buf_puts(out, "\n");
	for (int i = 0; i < src->nmsgs; i++)
		call_site(src, &src->msgs[i], out);
	wpp_buf_puts(out, "\n#ifdef __cplusplus\n}\n#endif\n");
}
