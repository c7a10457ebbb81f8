// SPDX-License-Identifier: GPL-2.0
/*
 * The processes, threads and images of a trace, kept up to date record by
 * record, and frames named with them.  An image load replaces the images
 * it overlaps (a new mapping of the range), an unload removes its image,
 * a process's End forgets its images.  Kernel addresses are looked up in
 * process 0, as Windows' tools do.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "etw.h"
#include "model/stack.h"

/* A .NET method's code, from the runtime's method events. */
struct method {
	uint64_t start;
	uint64_t size;
	uint64_t module_id;		/* named when the frame is: rundown
					 * gives a module after its methods */
	char *name;			/* "Namespace.Method(args)" */
};

/* A .NET module's id and its IL file's name without extension. */
struct clr_module {
	uint64_t id;
	char *name;
};

struct process {
	uint32_t pid;
	char *name;
	struct stack_image *images;	/* sorted by base, not overlapping */
	size_t nimages;
	size_t cap;
	struct method *methods;		/* sorted by start when !methods_dirty */
	size_t nmethods, methods_cap;
	bool methods_dirty;
	struct clr_module *modules;
	size_t nmodules;
};

struct file_entry {
	char *path;
	struct sym_file *file;		/* NULL: no symbols */
	bool warned;			/* its build-id is not the trace's */
};

/* A map of 32-bit ids, open addressing; value 0 is "absent". */
struct idmap {
	uint32_t *keys;
	uint64_t *vals;
	size_t cap;			/* a power of 2 */
	size_t n;
};

struct stack_model {
	struct stack_options opt;
	struct process **procs;		/* by idmap value - 1 */
	size_t nprocs;
	struct idmap pid_index;
	struct idmap tid_pid;		/* value: pid + 1 */
	struct file_entry *files;
	size_t nfiles;
	struct sym_kallsyms *kallsyms;
	bool kallsyms_tried;
	bool kallsyms_checked;		/* matched against the trace's kernel */
	uint64_t kernel_min;		/* by the trace's pointer size */
	struct rec_image img;		/* scratch, large */
	struct rec_image_id img_id;
	struct rec_clr_method method;
	struct rec_clr_module module;
	/* The user frames of the last StackCopy, for its StackWalk. */
	struct dwarf_unwind *unwind;
	struct rec_stack_copy copy;
	uint64_t unwound[STACK_MAX_FRAMES];
	unsigned int nunwound;
	uint8_t joined[8 * STACK_MAX_FRAMES];	/* kernel + unwound frames */
};

void stack_oom(void)
{
	etw_error("out of memory");
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		stack_oom();
	return p;
}

static size_t id_hash(uint32_t k, size_t cap)
{
	return (size_t)(k * 2654435761u) & (cap - 1);
}

static uint64_t idmap_get(const struct idmap *m, uint32_t key)
{
	if (!m->cap)
		return 0;
	for (size_t i = id_hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->vals[i])
			return 0;
		if (m->keys[i] == key)
			return m->vals[i];
	}
}

static void idmap_put(struct idmap *m, uint32_t key, uint64_t val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct idmap big = { 0 };

		big.cap = m->cap ? 2 * m->cap : 256;
		big.keys = xcalloc(big.cap, sizeof(*big.keys));
		big.vals = xcalloc(big.cap, sizeof(*big.vals));
		for (i = 0; i < m->cap; i++)
			if (m->vals[i])
				idmap_put(&big, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = big;
	}
	for (i = id_hash(key, m->cap); m->vals[i] && m->keys[i] != key;
	     i = (i + 1) & (m->cap - 1))
		;
	if (!m->vals[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
}

static void idmap_free(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
}

struct stack_model *stack_model_new(const struct stack_options *o)
{
	struct stack_model *m = xcalloc(1, sizeof(*m));

	if (o)
		m->opt = *o;
	m->kernel_min = KERNEL_ADDRESS_MIN;
	return m;
}

static void image_free(struct stack_image *im)
{
	free(im->path);
}

void stack_model_free(struct stack_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nprocs; i++) {
		struct process *p = m->procs[i];

		for (size_t j = 0; j < p->nimages; j++)
			image_free(&p->images[j]);
		free(p->images);
		free(p->name);
		for (size_t j = 0; j < p->nmethods; j++)
			free(p->methods[j].name);
		free(p->methods);
		for (size_t j = 0; j < p->nmodules; j++)
			free(p->modules[j].name);
		free(p->modules);
		free(p);
	}
	free(m->procs);
	dwarf_unwind_free(m->unwind);
	for (size_t i = 0; i < m->nfiles; i++) {
		sym_file_close(m->files[i].file);
		free(m->files[i].path);
	}
	free(m->files);
	sym_kallsyms_close(m->kallsyms);
	idmap_free(&m->pid_index);
	idmap_free(&m->tid_pid);
	free(m);
}

static struct process *find_process(const struct stack_model *m, uint32_t pid)
{
	uint64_t i = idmap_get(&m->pid_index, pid);

	return i ? m->procs[i - 1] : NULL;
}

static struct process *get_process(struct stack_model *m, uint32_t pid)
{
	struct process *p = find_process(m, pid);

	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	m->procs = realloc(m->procs, (m->nprocs + 1) * sizeof(*m->procs));
	if (!m->procs)
		stack_oom();
	m->procs[m->nprocs++] = p;
	idmap_put(&m->pid_index, pid, m->nprocs);
	return p;
}

static void forget_images(struct process *p)
{
	for (size_t j = 0; j < p->nimages; j++)
		image_free(&p->images[j]);
	p->nimages = 0;
}

/* Remove the images overlapping [base, base + size); keep the order. */
static void remove_range(struct process *p, uint64_t base, uint64_t size)
{
	size_t j = 0;

	for (size_t i = 0; i < p->nimages; i++) {
		struct stack_image *im = &p->images[i];

		if (im->base < base + size && base < im->base + im->size)
			image_free(im);
		else
			p->images[j++] = *im;
	}
	p->nimages = j;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	s = s ? s + 1 : path;
	/* Windows-style paths of Windows-written traces. */
	if (strrchr(s, '\\'))
		s = strrchr(s, '\\') + 1;
	return s;
}

static void add_image(struct stack_model *m, const struct rec_image *r)
{
	struct process *p;
	struct stack_image *im;
	size_t i;

	if (!r->size || r->base + r->size < r->base)
		return;
	p = get_process(m, r->pid);
	remove_range(p, r->base, r->size);
	if (p->nimages == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->images = realloc(p->images, p->cap * sizeof(*p->images));
		if (!p->images)
			stack_oom();
	}
	for (i = p->nimages; i > 0 && p->images[i - 1].base > r->base; i--)
		p->images[i] = p->images[i - 1];
	im = &p->images[i];
	p->nimages++;
	memset(im, 0, sizeof(*im));
	im->base = r->base;
	im->size = r->size;
	im->path = strdup(r->path);
	if (!im->path)
		stack_oom();
	im->name = basename_of(im->path);
}

/* The trace's build-id of the image at @base of @pid (DbgID_RSDS). */
static void set_build_id(struct stack_model *m, const struct rec_image_id *r)
{
	struct process *p = find_process(m, r->pid);

	for (size_t i = 0; p && i < p->nimages; i++)
		if (p->images[i].base == r->base) {
			memcpy(p->images[i].build_id, r->id, BUILD_ID_MAX);
			p->images[i].has_build_id = true;
		}
}

static void set_name(struct stack_model *m, uint32_t pid, const char *name)
{
	struct process *p = get_process(m, pid);

	free(p->name);
	p->name = strdup(name);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		stack_oom();
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		stack_oom();
	return d;
}

/* A managed module's IL file, named as PerfView names it: no extension. */
static void add_clr_module(struct stack_model *m, const struct rec_clr_module *r)
{
	struct process *p = get_process(m, r->pid);
	const char *base = basename_of(r->il_path);
	const char *dot = strrchr(base, '.');
	struct clr_module *cm = NULL;

	for (size_t i = 0; i < p->nmodules; i++)
		if (p->modules[i].id == r->module_id)
			cm = &p->modules[i];
	if (!cm) {
		p->modules = xrealloc(p->modules, (p->nmodules + 1) * sizeof(*cm));
		cm = &p->modules[p->nmodules++];
		cm->id = r->module_id;
	} else {
		free(cm->name);
	}
	cm->name = strndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
	if (!cm->name)
		stack_oom();
}

static const char *clr_module_name(const struct process *p, uint64_t id)
{
	for (size_t i = 0; i < p->nmodules; i++)
		if (p->modules[i].id == id)
			return p->modules[i].name;
	return "?";
}

/* "Namespace.Method(args)", the arguments from the signature. */
static void add_method(struct stack_model *m, const struct rec_clr_method *r)
{
	struct process *p;
	const char *args = strchr(r->signature, '(');
	struct method *me;
	struct sbuf sb = { 0 };

	if (!r->size || r->start + r->size < r->start)
		return;
	p = get_process(m, r->pid);
	if (p->nmethods == p->methods_cap) {
		p->methods_cap = p->methods_cap ? 2 * p->methods_cap : 64;
		p->methods = xrealloc(p->methods, p->methods_cap * sizeof(*me));
	}
	me = &p->methods[p->nmethods++];
	me->start = r->start;
	me->size = r->size;
	me->module_id = r->module_id;
	sb_printf(&sb, "%s%s%s%s", r->ns, *r->ns ? "." : "", r->name,
		  args ? args : "");
	me->name = xstrdup(sb.p);
	sb_free(&sb);
	p->methods_dirty = true;
}

static int by_start(const void *a, const void *b)
{
	const struct method *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/* The .NET method whose code holds @addr in process @pid, or NULL. */
static const struct method *find_method(const struct stack_model *m,
					uint32_t pid, uint64_t addr)
{
	struct process *p = find_process(m, pid);
	size_t lo = 0, hi;

	if (!p || !p->nmethods)
		return NULL;
	if (p->methods_dirty) {
		/* Stable for equal starts: the first one given wins. */
		qsort(p->methods, p->nmethods, sizeof(*p->methods), by_start);
		p->methods_dirty = false;
	}
	hi = p->nmethods;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->methods[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - p->methods[lo - 1].start >= p->methods[lo - 1].size)
		return NULL;
	return &p->methods[lo - 1];
}

bool stack_model_is_kernel(const struct stack_model *m, uint64_t addr)
{
	return addr >= m->kernel_min;
}

bool stack_model_knows(const struct stack_model *m, uint32_t pid, uint64_t addr)
{
	return stack_model_is_kernel(m, addr) || stack_model_image(m, pid, addr) ||
	       find_method(m, pid, addr);
}

/* A StackCopy: its user frames wait for the StackWalk written after it. */
static void unwind_copy(struct stack_model *m)
{
	struct process *p = find_process(m, m->copy.pid);

	m->nunwound = 0;
	if (!p || !p->nimages)
		return;
	if (!m->unwind)
		m->unwind = dwarf_unwind_new();
	m->nunwound = dwarf_unwind_stack(m->unwind, m->copy.pid, p->images,
					 p->nimages, &m->copy, m->unwound,
					 STACK_MAX_FRAMES);
}

bool stack_model_stack(struct stack_model *m, const struct etw_etl_event *ev,
		       struct rec_stack *r)
{
	uint32_t nk = 0, n;

	if (!rec_parse_stack(ev, r))
		return false;
	if (!m->nunwound || r->timestamp != m->copy.timestamp ||
	    r->tid != m->copy.tid || r->pointer_size != 8)
		return true;
	while (nk < r->nframes && stack_model_is_kernel(m, rec_stack_frame(r, nk)))
		nk++;
	/* The frame-pointer walk's user frames, unless the unwinder got more. */
	if (m->nunwound <= r->nframes - nk || nk + m->nunwound > STACK_MAX_FRAMES) {
		m->nunwound = 0;
		return true;
	}
	memcpy(m->joined, r->frames, 8 * (size_t)nk);
	for (n = 0; n < m->nunwound; n++)
		for (unsigned int b = 0; b < 8; b++)
			m->joined[8 * (nk + n) + b] = (uint8_t)(m->unwound[n] >> (8 * b));
	r->frames = m->joined;
	r->nframes = nk + m->nunwound;
	return true;
}

void stack_model_event(struct stack_model *m, const struct etw_etl_event *ev)
{
	struct rec_process rp;
	struct rec_thread rt;
	struct process *p;

	/* The kernel's own records tell its pointer size (a 32-bit process's
	 * events in a 64-bit trace have 4-byte pointers). */
	if (ev->kind == ETW_ETL_KIND_SYSTEM || ev->kind == ETW_ETL_KIND_PERFINFO ||
	    ev->kind == ETW_ETL_KIND_COMPACT)
		m->kernel_min = ev->pointer_size == 4 ? KERNEL_ADDRESS_MIN32 :
						       KERNEL_ADDRESS_MIN;
	if (rec_parse_stack_copy(ev, &m->copy)) {
		unwind_copy(m);
		return;
	}
	if (rec_parse_image_id(ev, &m->img_id)) {
		set_build_id(m, &m->img_id);
		return;
	}
	if (rec_parse_clr_method(ev, &m->method)) {
		add_method(m, &m->method);
		return;
	}
	if (rec_parse_clr_module(ev, &m->module)) {
		add_clr_module(m, &m->module);
		return;
	}
	if (!(ev->has & ETW_ETL_HAS_HOOK))
		return;
	switch (ev->hook_id) {
	case HOOK_IMAGE_LOAD:
	case HOOK_IMAGE_DCSTART:
		if (rec_parse_image(ev, &m->img))
			add_image(m, &m->img);
		break;
	case HOOK_IMAGE_UNLOAD:
		if (rec_parse_image(ev, &m->img)) {
			p = find_process(m, m->img.pid);
			if (p)
				remove_range(p, m->img.base, m->img.size);
		}
		break;
	case HOOK_PROCESS_START:
	case HOOK_PROCESS_DCSTART:
	case HOOK_PROCESS_DCEND:
		if (rec_parse_process(ev, &rp))
			set_name(m, rp.pid, rp.name);
		break;
	case HOOK_PROCESS_END:
		/* Its id may be used again: its images go, its name stays. */
		if (rec_parse_process(ev, &rp)) {
			set_name(m, rp.pid, rp.name);
			forget_images(get_process(m, rp.pid));
		}
		break;
	case HOOK_THREAD_START:
	case HOOK_THREAD_DCSTART:
		if (rec_parse_thread(ev, &rt))
			stack_model_set_thread(m, rt.tid, rt.pid);
		break;
	default:
		break;
	}
}

uint32_t stack_model_thread_pid(const struct stack_model *m, uint32_t tid)
{
	uint64_t v = idmap_get(&m->tid_pid, tid);

	return v ? (uint32_t)(v - 1) : UINT32_MAX;
}

void stack_model_set_thread(struct stack_model *m, uint32_t tid, uint32_t pid)
{
	idmap_put(&m->tid_pid, tid, (uint64_t)pid + 1);
}

const char *stack_model_process_name(const struct stack_model *m, uint32_t pid)
{
	const struct process *p = find_process(m, pid);

	return p && p->name ? p->name : "";
}

const struct stack_image *stack_model_image(const struct stack_model *m,
					   uint32_t pid, uint64_t addr)
{
	const struct process *p;
	size_t lo = 0, hi;

	if (addr >= m->kernel_min)
		pid = 0;
	p = find_process(m, pid);
	if (!p)
		return NULL;
	hi = p->nimages;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->images[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - p->images[lo - 1].base >= p->images[lo - 1].size)
		return NULL;
	return &p->images[lo - 1];
}

const char *stack_model_module(const struct stack_model *m, uint32_t pid,
			       uint64_t addr)
{
	const struct stack_image *im = stack_model_image(m, pid, addr);
	const struct method *me;

	if (im)
		return im->name;
	if (addr >= m->kernel_min)
		return "[kernel]";
	me = find_method(m, pid, addr);
	return me ? clr_module_name(find_process(m, pid), me->module_id) : "[unknown]";
}

static struct file_entry *file_entry(struct stack_model *m, const char *path)
{
	struct file_entry *f;

	for (size_t i = 0; i < m->nfiles; i++)
		if (!strcmp(m->files[i].path, path))
			return &m->files[i];
	m->files = realloc(m->files, (m->nfiles + 1) * sizeof(*m->files));
	if (!m->files)
		stack_oom();
	f = &m->files[m->nfiles++];
	f->path = strdup(path);
	f->file = path[0] == '/' ? sym_file_open(path, m->opt.debug_dir) : NULL;
	f->warned = false;
	return f;
}

/*
 * The symbols of an image's file, unless the trace says the image had
 * another build-id than the file has now (rebuilt since): then none.
 */
static struct sym_file *image_symbols(struct stack_model *m,
				      const struct stack_image *im)
{
	struct file_entry *f = file_entry(m, im->path);

	if (!f->file || !im->has_build_id || sym_file_build_id_is(f->file, im->build_id))
		return f->file;
	if (!f->warned) {
		f->warned = true;
		etw_error("%s: not the file the trace saw (another build-id): its frames are offsets",
			  im->path);
	}
	return NULL;
}

/*
 * The kernel's symbols: the kallsyms file given, or /proc/kallsyms when
 * the trace's kernel image (pid 0) starts at its _text or _stext, which
 * holds only on the machine and boot that recorded the trace.
 */
static const struct sym_kallsyms *kernel_symbols(struct stack_model *m)
{
	const struct process *p;
	uint64_t text, stext;

	if (m->opt.no_kallsyms)
		return NULL;
	if (!m->kallsyms_tried) {
		m->kallsyms_tried = true;
		m->kallsyms = sym_kallsyms_open(m->opt.kallsyms ? m->opt.kallsyms :
						"/proc/kallsyms");
	}
	if (!m->kallsyms || m->opt.kallsyms || m->kallsyms_checked)
		return m->kallsyms;
	p = find_process(m, 0);
	text = sym_kallsyms_address(m->kallsyms, "_text");
	stext = sym_kallsyms_address(m->kallsyms, "_stext");
	for (size_t i = 0; p && i < p->nimages; i++)
		if (p->images[i].base == text || p->images[i].base == stext) {
			m->kallsyms_checked = true;
			return m->kallsyms;
		}
	return NULL;
}

void stack_model_frame(struct stack_model *m, uint32_t pid, uint64_t addr,
		       bool offset, struct sbuf *sb)
{
	const struct stack_image *im = stack_model_image(m, pid, addr);
	const struct method *me;
	const char *fn = NULL;
	uint64_t off = 0;

	if (!im && addr < m->kernel_min && (me = find_method(m, pid, addr))) {
		/* As PerfView names .NET code: Module!Namespace.Method(args). */
		sb_printf(sb, "%s!%s", clr_module_name(find_process(m, pid), me->module_id),
			  me->name);
		if (offset)
			sb_printf(sb, "+0x%" PRIx64, addr - me->start);
		return;
	} else if (addr >= m->kernel_min) {
		const struct sym_kallsyms *k = kernel_symbols(m);

		/* Without an image to bound it, only a given kallsyms names it. */
		if (k && (im || m->opt.kallsyms))
			fn = sym_kallsyms_lookup(k, addr, &off);
	} else if (im) {
		struct sym_file *f = image_symbols(m, im);

		if (f)
			fn = sym_file_lookup(f, addr - im->base, &off);
	}
	if (fn && offset)
		sb_printf(sb, "%s+0x%" PRIx64, fn, off);
	else if (fn)
		sb_printf(sb, "%s", fn);
	else if (im)
		sb_printf(sb, "%s+0x%" PRIx64, im->name, addr - im->base);
	else
		sb_printf(sb, "0x%" PRIx64, addr);
}
