// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel logger end to end.  The NT Kernel Logger, started as
 * Microsoft's "Configuring and Starting the NT Kernel Logger Session"
 * starts it (EVENT_TRACE_PROPERTIES with SystemTraceControlGuid and
 * EnableFlags, a log file, StartTrace with KERNEL_LOGGER_NAME), records
 * a child process this test starts; the file read back with ProcessTrace
 * shows, exactly:
 *
 * - the child's Process/Start with its image name, command line and
 *   parent, and Process/End with its exit code, image name and command
 *   line;
 * - its second thread's Thread/Start and the name it gave itself;
 * - its executable and libraries as Image/Load at the addresses of its
 *   /proc/PID/maps (the child saves it before it exits), each with a
 *   DbgID_RSDS of the same time carrying the file's ELF build-id, and an
 *   Image/Unload at its exit the same as its Load;
 * - a library it dlopen()s and dlclose()s: its Load at the addresses its
 *   maps showed, its Unload the same, later;
 * - Process/DCStart of every process /proc listed at start, DCEnd (with
 *   this test's command line; a zombie child's with its comm and exit
 *   code) and RundownComplete at stop;
 * - every kernel record well formed: the layout of its (group, opcode,
 *   version), its sizes exact;
 * - the same of a second logger, started after a first one recorded a
 *   child and stopped;
 * - a child that exits, and one that execs, while a process it cloned
 *   with CLONE_VM still holds its address space: an Image/Unload of each
 *   of its images, once, before its Process/End (or the exec's Start),
 *   none of the holder, and End with its command line.
 *
 * Then the settings: system loggers started with
 * EVENT_TRACE_SYSTEM_LOGGER_MODE, TraceSetInformation and
 * TraceQueryInformation for EnableFlags, stack lists and the profile
 * interval, their errors, the limit of 8 system loggers, and the
 * privilege the kernel logger needs.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <elf.h>
#include <grp.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "kernel_props.h"

#define CHILD_ARG	"--klog-child"
#define CHILD_OUT	"/tmp/etwtest-klog-child.txt"
#define KLOG_FILE	"/tmp/etwtest-klog.etl"
#define THREAD_NAME	"klog-thread"
#define CHILD_EXIT	7
/* The exit code of the child left unreaped over the DCEnd rundown. */
#define ZOMBIE_EXIT	9
/*
 * A child whose leader exits with LEADER_EXIT before its last thread,
 * which exits with LATE_THREAD_EXIT: wait() reports the last one's.
 */
#define LEADER_EXIT	3
#define LATE_THREAD_EXIT 4
/*
 * A child that exits (HOLDER_EXIT) or execs while a process it cloned
 * with CLONE_VM still holds its address space; after the exec it exits
 * with EXEC_EXIT.
 */
#define HOLDER_ARG	"--klog-holder"
#define EXEC_ARG	"--klog-exit"
#define HOLDER_OUT	"/tmp/etwtest-klog-holder.txt"
#define HOLDER_EXIT	11
#define EXEC_EXIT	12
/* Built beside the selftests, in /usr/lib of the VM; no test links it. */
#define DLOPEN_LIB	"libetw_selftest_dlopen.so"

static const GUID process_guid = { 0x3d6fa8d0, 0xfe05, 0x11d0,
	{ 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
static const GUID thread_guid = { 0x3d6fa8d1, 0xfe05, 0x11d0,
	{ 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
static const GUID image_guid = { 0x2cb15d1d, 0x5fc1, 0x11d2,
	{ 0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18 } };
static const GUID header_guid = { 0x68fdd900, 0x4a3e, 0x11d1,
	{ 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };
/* KernelTraceControl's ImageID class (ImageID/Info 0, DbgID_RSDS 36). */
static const GUID image_id_guid = { 0xb3e675d7, 0x2554, 0x4f18,
	{ 0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde } };
/* SystemConfig, at stop: sysconfig_test checks its records. */
static const GUID sysconfig_guid = { 0x01853a65, 0x418f, 0x4f36,
	{ 0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35 } };

/*
 * The child: a second thread that names itself, its maps and that
 * thread's id saved for the parent, exit code CHILD_EXIT.
 */
static pthread_barrier_t child_barrier;
static pid_t child_thread_tid;

static void *child_thread(void *arg)
{
	prctl(PR_SET_NAME, THREAD_NAME);
	child_thread_tid = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&child_barrier);
	pthread_barrier_wait(&child_barrier);
	return NULL;
}

/*
 * The mappings of @lib in our maps: the start of its offset-0 mapping, its
 * executable one, its path; how many executable ones.
 */
static int child_lib_maps(const char *lib, unsigned long *base,
			  unsigned long *lo, unsigned long *hi, char *path)
{
	unsigned long a, b, off;
	char line[512], perms[8], p[256];
	int n = 0;
	FILE *m = fopen("/proc/self/maps", "r");

	if (!m)
		_exit(102);
	while (fgets(line, sizeof(line), m)) {
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %255s", &a, &b, perms,
			   &off, p) != 5 || !strstr(p, lib))
			continue;
		if (!off)
			*base = a;
		if (perms[2] == 'x') {
			*lo = a;
			*hi = b;
			strcpy(path, p);
			n++;
		}
	}
	fclose(m);
	return n;
}

/* dlopen() and dlclose() DLOPEN_LIB; its mapping while loaded, for @f. */
static void child_dlopen(FILE *f)
{
	unsigned long base = 0, lo = 0, hi = 0;
	char path[256] = "";
	int (*fn)(int);
	void *h = dlopen(DLOPEN_LIB, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		_exit(103);
	fn = (int (*)(int))dlsym(h, "etw_selftest_dlopen_lib");
	if (!fn || fn(1) != 2 || child_lib_maps(DLOPEN_LIB, &base, &lo, &hi,
						path) != 1)
		_exit(104);
	dlclose(h);
	/* Unmapped now, or there is no unload to see. */
	if (child_lib_maps(DLOPEN_LIB, &base, &lo, &hi, path))
		_exit(105);
	fprintf(f, "dl %lx %lx %lx %s\n", base, lo, hi, path);
}

static void child_main(const char *out)
{
	char line[512];
	pthread_t t;
	FILE *f, *m;

	pthread_barrier_init(&child_barrier, NULL, 2);
	if (pthread_create(&t, NULL, child_thread, NULL))
		_exit(100);
	pthread_barrier_wait(&child_barrier);
	f = fopen(out, "w");
	if (!f)
		_exit(101);
	fprintf(f, "tid %d\n", child_thread_tid);
	child_dlopen(f);
	m = fopen("/proc/self/maps", "r");
	if (!m)
		_exit(101);
	while (fgets(line, sizeof(line), m))
		fputs(line, f);
	fclose(m);
	fclose(f);
	pthread_barrier_wait(&child_barrier);
	pthread_join(t, NULL);
	exit(CHILD_EXIT);
}

/* The last thread of a process whose leader has exited. */
static void *late_thread(void *arg)
{
	(void)arg;
	usleep(50000);
	syscall(SYS_exit, LATE_THREAD_EXIT);
	return NULL;
}

/* A leader that exits (SYS_exit, not exit_group) before its thread. */
static void leader_exits_first(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, late_thread, NULL))
		_exit(101);
	syscall(SYS_exit, LEADER_EXIT);
}

/*
 * The CLONE_VM process: it shares its parent's address space and holds
 * it until the parent's end of the pipe closes (the parent's exit, or its
 * exec: the pipe is O_CLOEXEC).  Raw system calls: it runs on the
 * parent's thread pointer.
 */
static int holder_main(void *arg)
{
	int *fds = arg;
	char c;

	syscall(SYS_close, fds[1]);
	while (syscall(SYS_read, fds[0], &c, 1) > 0)
		;
	syscall(SYS_exit, 0);
	return 0;
}

/*
 * The holder's child: a CLONE_VM process holds our address space; our
 * maps and its pid into @out; then exit, or exec ourselves with EXEC_ARG.
 */
static void holder_child(const char *out, const char *mode)
{
	static char stack[64 << 10] __attribute__((aligned(16)));
	static int fds[2];
	char line[512], exe[512];
	FILE *f, *m;
	ssize_t n;
	pid_t holder;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || pipe2(fds, O_CLOEXEC))
		_exit(100);
	exe[n] = 0;
	holder = clone(holder_main, stack + sizeof(stack), CLONE_VM | SIGCHLD,
		       fds);
	if (holder < 0)
		_exit(101);
	f = fopen(out, "w");
	m = fopen("/proc/self/maps", "r");
	if (!f || !m)
		_exit(102);
	fprintf(f, "holder %d\n", holder);
	while (fgets(line, sizeof(line), m))
		fputs(line, f);
	fclose(m);
	fclose(f);
	if (!strcmp(mode, "exec")) {
		execl(exe, exe, EXEC_ARG, (char *)NULL);
		_exit(103);
	}
	exit(HOLDER_EXIT);
}

/* Run as the child when exec'd with CHILD_ARG, before the harness. */
__attribute__((constructor)) static void maybe_child(void)
{
	static char args[4096];
	size_t n, i;
	FILE *f = fopen("/proc/self/cmdline", "r");

	if (!f)
		return;
	n = fread(args, 1, sizeof(args) - 1, f);
	fclose(f);
	/* argv[1] and argv[2]: CHILD_ARG and the output file. */
	i = strnlen(args, n) + 1;
	if (i < n && !strcmp(args + i, CHILD_ARG))
		child_main(args + i + strlen(CHILD_ARG) + 1);
	if (i < n && !strcmp(args + i, EXEC_ARG))
		_exit(EXEC_EXIT);
	if (i < n && !strcmp(args + i, HOLDER_ARG)) {
		const char *out = args + i + strlen(HOLDER_ARG) + 1;

		holder_child(out, out + strlen(out) + 1);
	}
}

/* Microsoft's sample: one allocation, the names after the structure. */
/* The pids /proc lists. */
static int proc_pids(int *pids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			pids[n++] = atoi(e->d_name);
	closedir(d);
	return n;
}

#define MAX_PIDS	4096
/* Loads and Unloads of every process while the logger runs. */
#define MAX_IMAGES	4096

struct image_ev {
	UCHAR op;		/* 10 Load, 2 Unload */
	uint64_t base, size;
	uint32_t pid, checksum, time_stamp;
	char path[256];
	LONGLONG time;
};

/* A DbgID_RSDS: the image it names, its build-id, its time. */
struct rsds_ev {
	uint64_t base;
	uint32_t pid;
	uint8_t id[20];
	char path[256];
	LONGLONG time;
};

/* What the callback gathered. */
struct seen {
	pid_t child, parent, zombie, leader_first;
	int dcstart_pids[MAX_PIDS], n_dcstart;
	int dcend_self;
	int rundown_complete;
	int child_starts;
	LONGLONG child_start_time[4];	/* of its first Starts */
	LONGLONG child_end_time;
	char child_image[256];
	char child_cmdline[1024];
	uint32_t child_parent;
	int child_ends;
	int32_t child_exit;
	char child_end_image[256];
	char child_end_cmdline[1024];
	char dcend_self_cmdline[1024];
	int zombie_dcend;
	int leader_first_ends;
	int32_t leader_first_exit;
	int32_t zombie_exit;
	char zombie_image[256];
	char zombie_cmdline[1024];
	int exit5;		/* Process/Ends with ExitStatus 5 */
	uint32_t thread_tid;
	int thread_start_ok;
	int thread_named;
	struct image_ev images[MAX_IMAGES];
	int n_images;
	int images_dropped;	/* beyond MAX_IMAGES: the checks would miss them */
	struct rsds_ev rsds[MAX_IMAGES];
	int n_rsds;
	int n_info;
	uint64_t vmlinux_base, vmlinux_size;	/* Image/DCStart in process 0 */
	uint64_t etw_base, etw_size;
	long kernel_records;
	long bad;
	char bad_what[128];
};

static void bad(struct seen *s, const char *what, const EVENT_RECORD *r)
{
	if (!s->bad++)
		snprintf(s->bad_what, sizeof(s->bad_what), "%s (opcode %u, %u bytes)",
			 what, r->EventHeader.EventDescriptor.Opcode,
			 r->UserDataLength);
}

static void on_process(struct seen *s, const EVENT_RECORD *r)
{
	const uint8_t *d = r->UserData;
	size_t len = r->UserDataLength, off;
	char image[256], cmd[1024];
	uint32_t pid, ppid;
	int32_t status;
	int n;

	if (r->EventHeader.EventDescriptor.Version != 4 || len < 68)
		return bad(s, "process size", r);
	memcpy(&pid, d + 8, 4);
	memcpy(&ppid, d + 12, 4);
	memcpy(&status, d + 20, 4);
	/* TOKEN_USER, then S-1-22-1-<uid>: 2 sub-authorities. */
	if (d[52] != 1 || d[53] != 2 || d[59] != 22)
		return bad(s, "process SID", r);
	off = 68;
	n = (int)strnlen((const char *)d + off, len - off);
	if (off + n >= len)
		return bad(s, "process image name", r);
	snprintf(image, sizeof(image), "%s", (const char *)d + off);
	off += n + 1;
	n = etw_utf16_ascii(d + off, len - off, cmd, sizeof(cmd));
	/* The command line, then two empty strings, and nothing more. */
	if (n < 0 || off + n + 4 != len || d[off + n] || d[off + n + 3])
		return bad(s, "process strings", r);

	switch (r->EventHeader.EventDescriptor.Opcode) {
	case 1:		/* Start: the last one is the exec's */
		if (pid != (uint32_t)s->child)
			break;
		if (s->child_starts < 4)
			s->child_start_time[s->child_starts] =
				r->EventHeader.TimeStamp.QuadPart;
		s->child_starts++;
		snprintf(s->child_image, sizeof(s->child_image), "%s", image);
		snprintf(s->child_cmdline, sizeof(s->child_cmdline), "%s", cmd);
		s->child_parent = ppid;
		if (status != 0x103)
			bad(s, "Start's ExitStatus", r);
		break;
	case 2:
		if (status == 5)
			s->exit5++;
		if (pid == (uint32_t)s->leader_first) {
			s->leader_first_ends++;
			s->leader_first_exit = status;
		}
		if (pid == (uint32_t)s->child) {
			s->child_ends++;
			s->child_exit = status;
			s->child_end_time = r->EventHeader.TimeStamp.QuadPart;
			snprintf(s->child_end_image, sizeof(s->child_end_image),
				 "%s", image);
			snprintf(s->child_end_cmdline,
				 sizeof(s->child_end_cmdline), "%s", cmd);
		}
		break;
	case 3:
		if (s->n_dcstart < MAX_PIDS)
			s->dcstart_pids[s->n_dcstart++] = (int)pid;
		break;
	case 4:
		if (pid == (uint32_t)s->parent) {
			s->dcend_self++;
			snprintf(s->dcend_self_cmdline,
				 sizeof(s->dcend_self_cmdline), "%s", cmd);
			if (status != 0x103)
				bad(s, "a live process's DCEnd ExitStatus", r);
		} else if (pid == (uint32_t)s->zombie) {
			s->zombie_dcend++;
			s->zombie_exit = status;
			snprintf(s->zombie_image, sizeof(s->zombie_image), "%s",
				 image);
			snprintf(s->zombie_cmdline, sizeof(s->zombie_cmdline),
				 "%s", cmd);
		}
		break;
	default:
		bad(s, "process opcode", r);
	}
}

static void on_thread(struct seen *s, const EVENT_RECORD *r)
{
	const uint8_t *d = r->UserData;
	UCHAR op = r->EventHeader.EventDescriptor.Opcode;
	uint32_t pid, tid;
	char name[64];

	if (op >= 1 && op <= 4) {
		if (r->EventHeader.EventDescriptor.Version != 3 ||
		    r->UserDataLength != 72)
			return bad(s, "thread size", r);
		memcpy(&pid, d, 4);
		memcpy(&tid, d + 4, 4);
		if (op == 1 && tid == s->thread_tid && pid == (uint32_t)s->child)
			s->thread_start_ok++;
		return;
	}
	if (op != 72)
		return bad(s, "thread opcode", r);
	if (r->EventHeader.EventDescriptor.Version != 2 || r->UserDataLength < 10 ||
	    etw_utf16_ascii(d + 8, r->UserDataLength - 8, name, sizeof(name)) !=
	    r->UserDataLength - 8)
		return bad(s, "SetName size", r);
	memcpy(&pid, d, 4);
	memcpy(&tid, d + 4, 4);
	if (tid == s->thread_tid && pid == (uint32_t)s->child &&
	    !strcmp(name, THREAD_NAME))
		s->thread_named++;
}

static void on_image(struct seen *s, const EVENT_RECORD *r)
{
	const uint8_t *d = r->UserData;
	struct image_ev *im;
	UCHAR op = r->EventHeader.EventDescriptor.Opcode;
	char path[256];

	if (op != 10 && (op < 2 || op > 4))
		return bad(s, "image opcode", r);
	if (r->EventHeader.EventDescriptor.Version != 3 || r->UserDataLength < 58 ||
	    etw_utf16_ascii(d + 56, r->UserDataLength - 56, path, sizeof(path)) !=
	    r->UserDataLength - 56)
		return bad(s, "image size", r);
	if (op == 3) {
		uint32_t pid;

		memcpy(&pid, d + 16, 4);
		if (!pid && !strcmp(path, "vmlinux")) {
			memcpy(&s->vmlinux_base, d, 8);
			memcpy(&s->vmlinux_size, d + 8, 8);
		} else if (!pid && !strcmp(path, "etw.ko")) {
			memcpy(&s->etw_base, d, 8);
			memcpy(&s->etw_size, d + 8, 8);
		}
	}
	if (op != 10 && op != 2)
		return;
	if (s->n_images == MAX_IMAGES) {
		s->images_dropped++;
		return;
	}
	im = &s->images[s->n_images++];
	im->op = op;
	memcpy(&im->base, d, 8);
	memcpy(&im->size, d + 8, 8);
	memcpy(&im->pid, d + 16, 4);
	memcpy(&im->checksum, d + 20, 4);
	memcpy(&im->time_stamp, d + 24, 4);
	snprintf(im->path, sizeof(im->path), "%s", path);
	im->time = r->EventHeader.TimeStamp.QuadPart;
}

static void on_image_id(struct seen *s, const EVENT_RECORD *r)
{
	const uint8_t *d = r->UserData;
	size_t len = r->UserDataLength;
	struct rsds_ev *x;
	char name[256];

	if (r->EventHeader.EventDescriptor.Version != 2)
		return bad(s, "ImageID version", r);
	if (r->EventHeader.EventDescriptor.Opcode == 0) {
		if (len < 26 || etw_utf16_ascii(d + 24, len - 24, name, sizeof(name)) !=
		    (int)len - 24)
			return bad(s, "ImageID/Info size", r);
		s->n_info++;
		return;
	}
	if (r->EventHeader.EventDescriptor.Opcode != 36)
		return bad(s, "ImageID opcode", r);
	/* ImageBase, ProcessId, GuidSig, Age, then the path, NUL-ended. */
	if (len < 33 || d[len - 1] || strlen((const char *)d + 32) + 33 != len)
		return bad(s, "DbgID_RSDS size", r);
	if (s->n_rsds == MAX_IMAGES)
		return;
	x = &s->rsds[s->n_rsds++];
	memcpy(&x->base, d, 8);
	memcpy(&x->pid, d + 8, 4);
	memcpy(x->id, d + 12, 20);
	snprintf(x->path, sizeof(x->path), "%s", (const char *)d + 32);
	x->time = r->EventHeader.TimeStamp.QuadPart;
}

/* The GNU build-id of the ELF file @path (from its first page); 0 if none. */
static int file_build_id(const char *path, uint8_t id[20])
{
	static uint8_t p[4096];
	const Elf64_Ehdr *eh = (const void *)p;
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(p, 1, sizeof(p), f);
	fclose(f);
	if (n < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(p + eh->e_phoff + i * sizeof(*ph));
		size_t off, end;

		if ((const uint8_t *)(ph + 1) > p + n || ph->p_type != PT_NOTE)
			continue;
		off = ph->p_offset;
		end = off + ph->p_filesz;
		while (off + sizeof(Elf64_Nhdr) <= end && end <= n) {
			const Elf64_Nhdr *nh = (const void *)(p + off);
			size_t desc = off + sizeof(*nh) + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_descsz == 20 &&
			    desc + 20 <= n) {
				memcpy(id, p + desc, 20);
				return 1;
			}
			off = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

/* A DbgID_RSDS of the child's image at @base: its build-id, the Load's time. */
static bool image_identified(const struct seen *s, const char *path, uint64_t base)
{
	uint8_t id[20];

	if (!file_build_id(path, id))
		return true;	/* no build-id to carry */
	for (int i = 0; i < s->n_rsds; i++) {
		const struct rsds_ev *x = &s->rsds[i];

		if (x->pid != (uint32_t)s->child || x->base != base ||
		    strcmp(x->path, path) || memcmp(x->id, id, 20))
			continue;
		for (int j = 0; j < s->n_images; j++)
			if (s->images[j].op == 10 && s->images[j].pid == x->pid &&
			    s->images[j].base == base && s->images[j].time == x->time)
				return true;
	}
	return false;
}

static void WINAPI on_record(PEVENT_RECORD r)
{
	struct seen *s = r->UserContext;
	const GUID *g = &r->EventHeader.ProviderId;

	/* Kernel records are classic ones, as Windows delivers them. */
	if (!(r->EventHeader.Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER))
		return bad(s, "not a classic header", r);
	if (IsEqualGUID(g, &header_guid)) {
		if (r->EventHeader.EventDescriptor.Opcode == 8) {
			s->kernel_records++;
			s->rundown_complete++;
			if (r->UserDataLength)
				bad(s, "RundownComplete size", r);
		}
		return;
	}
	s->kernel_records++;
	if (IsEqualGUID(g, &process_guid))
		on_process(s, r);
	else if (IsEqualGUID(g, &thread_guid))
		on_thread(s, r);
	else if (IsEqualGUID(g, &image_guid))
		on_image(s, r);
	else if (IsEqualGUID(g, &image_id_guid))
		on_image_id(s, r);
	else if (!IsEqualGUID(g, &sysconfig_guid))
		bad(s, "unexpected group", r);
}

/* An Image/Load of the child at @base for @path covering [lo, hi)? */
/* The next executable file mapping of a maps copy: its range and file. */
static bool next_exec_mapping(FILE *f, unsigned long *lo, unsigned long *hi,
			      char path[256])
{
	char line[512], perms[8];
	unsigned long off;

	while (fgets(line, sizeof(line), f)) {
		path[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %255s", lo, hi, perms,
			   &off, path) >= 4 && perms[2] == 'x' && path[0] == '/')
			return true;
	}
	return false;
}

/* Where @path's mapping at file offset 0 starts in the maps copy @maps; 0: none. */
static unsigned long file_base(const char *maps, const char *path)
{
	unsigned long lo, off, base = 0;
	char line[512];
	FILE *f = fopen(maps, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char p[256] = "";

		if (sscanf(line, "%lx-%*x %*s %lx %*s %*s %255s", &lo, &off, p) == 3 &&
		    !off && !strcmp(p, path)) {
			base = lo;
			break;
		}
	}
	fclose(f);
	return base;
}

static bool image_loaded(const struct seen *s, const char *path, uint64_t base,
			 uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < s->n_images; i++) {
		const struct image_ev *im = &s->images[i];

		if (im->op == 10 && im->pid == (uint32_t)s->child &&
		    !strcmp(im->path, path) && im->base == base &&
		    lo >= im->base && hi <= im->base + im->size)
			return true;
	}
	return false;
}

/*
 * The Load before the child's Image/Unload @u: the same image (base,
 * size, checksum, time stamp, file name), as Windows' Unload repeats its
 * Load.
 */
static bool unload_matches_load(const struct seen *s, const struct image_ev *u)
{
	for (int i = 0; i < s->n_images; i++) {
		const struct image_ev *im = &s->images[i];

		if (im->op == 10 && im->pid == u->pid && im->base == u->base &&
		    im->size == u->size && im->checksum == u->checksum &&
		    im->time_stamp == u->time_stamp && !strcmp(im->path, u->path) &&
		    im->time < u->time)
			return true;
	}
	return false;
}

/* How many Image/Unloads of the child for @path at @base, after @after. */
static int image_unloads(const struct seen *s, const char *path, uint64_t base,
			 LONGLONG after)
{
	int n = 0;

	for (int i = 0; i < s->n_images; i++) {
		const struct image_ev *im = &s->images[i];

		n += im->op == 2 && im->pid == (uint32_t)s->child &&
		     !strcmp(im->path, path) && im->base == base &&
		     im->time > after;
	}
	return n;
}

/* The time of the child's last Image/Unload of @path, or 0. */
static LONGLONG image_unload_time(const struct seen *s, const char *path)
{
	LONGLONG t = 0;

	for (int i = 0; i < s->n_images; i++)
		if (s->images[i].op == 2 && s->images[i].pid == (uint32_t)s->child &&
		    !strcmp(s->images[i].path, path))
			t = s->images[i].time;
	return t;
}

/* Our own command line, its arguments joined by spaces. */
static void own_cmdline(char *out, size_t room)
{
	size_t n, i;
	FILE *f = fopen("/proc/self/cmdline", "r");

	out[0] = 0;
	if (!f)
		return;
	n = fread(out, 1, room - 1, f);
	fclose(f);
	while (n && !out[n - 1])
		n--;
	for (i = 0; i < n; i++)
		if (!out[i])
			out[i] = ' ';
	out[n] = 0;
}

static int run_child(pid_t *pid)
{
	char exe[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int status;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (!*pid) {
		execl(exe, exe, CHILD_ARG, CHILD_OUT, (char *)NULL);
		_exit(127);
	}
	if (waitpid(*pid, &status, 0) != *pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

FIXTURE(klog)
{
	int fd;
};

FIXTURE_SETUP(klog)
{
	struct kprops b;

	self->fd = etw_open_or_skip(_metadata);
	/* A session a failed run left behind. */
	ControlTraceA(0, KERNEL_LOGGER_NAMEA, kernel_props(&b, 0, NULL),
		      EVENT_TRACE_CONTROL_STOP);
	etw_stop_test_sessions(self->fd);
}

FIXTURE_TEARDOWN(klog)
{
	etw_stop_test_sessions(self->fd);
	close(self->fd);
}

/*
 * The NT Kernel Logger with PROCESS, THREAD and IMAGE_LOAD records a
 * child, read back and checked record by record (the file's header says
 * what).
 */
static void records_a_child(struct __test_metadata *_metadata)
{
	static struct seen s;
	static int before[MAX_PIDS], after[MAX_PIDS];
	char exe[512], base_name[64], want_cmd[1024], line[512], dl_path[256], path[256];
	char comm[32] = "";
	siginfo_t si;
	unsigned long dl_base, dl_lo, dl_hi, lo, hi;
	LONGLONG dl_unload;
	bool kernel = false;
	CONTROLTRACE_ID id;
	struct kprops b;
	int n_before, n_after, i, j, exit_code, checked = 0;
	FILE *f;
	ssize_t n;

	memset(&s, 0, sizeof(s));
	s.parent = getpid();
	unlink(KLOG_FILE);
	n_before = proc_pids(before, MAX_PIDS);
	ASSERT_EQ(ERROR_SUCCESS,
		  StartTraceA(&id, KERNEL_LOGGER_NAMEA,
			      kernel_props(&b, EVENT_TRACE_FLAG_PROCESS |
					   EVENT_TRACE_FLAG_THREAD |
					   EVENT_TRACE_FLAG_IMAGE_LOAD,
					   KLOG_FILE)));
	/* QueryTrace shows it as Windows would. */
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(id, NULL, kernel_props(&b, 0, NULL)));
	EXPECT_EQ(EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD |
		  EVENT_TRACE_FLAG_IMAGE_LOAD, b.p.EnableFlags);
	EXPECT_TRUE(IsEqualGUID(&b.p.Wnode.Guid, &SystemTraceControlGuid));
	EXPECT_STREQ(KERNEL_LOGGER_NAMEA, b.logger_name);
	n_after = proc_pids(after, MAX_PIDS);

	exit_code = run_child(&s.child);
	/* Its End's ExitStatus is what wait() reports: the last thread's. */
	s.leader_first = fork();
	ASSERT_LE(0, s.leader_first);
	if (!s.leader_first)
		leader_exits_first();
	ASSERT_EQ(s.leader_first, waitpid(s.leader_first, &i, 0));
	ASSERT_TRUE(WIFEXITED(i));
	ASSERT_EQ(LATE_THREAD_EXIT, WEXITSTATUS(i));
	/* A child that has exited, not reaped: a zombie at the DCEnd rundown. */
	f = fopen("/proc/self/comm", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	s.zombie = fork();
	ASSERT_LE(0, s.zombie);
	if (!s.zombie)
		_exit(ZOMBIE_EXIT);
	ASSERT_EQ(0, waitid(P_PID, s.zombie, &si, WEXITED | WNOWAIT));
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(0, KERNEL_LOGGER_NAMEA,
					    kernel_props(&b, 0, NULL)));
	ASSERT_EQ(s.zombie, waitpid(s.zombie, &i, 0));
	ASSERT_EQ(CHILD_EXIT, exit_code);
	EXPECT_EQ(0, b.p.EventsLost);

	f = fopen(CHILD_OUT, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "tid %u\n", &s.thread_tid));
	ASSERT_EQ(4, fscanf(f, "dl %lx %lx %lx %255s\n", &dl_base, &dl_lo, &dl_hi,
			    dl_path));

	ASSERT_EQ(ERROR_SUCCESS, kernel_trace_read(KLOG_FILE, on_record, &s, &kernel));
	EXPECT_TRUE(kernel);

	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.bad_what);
	EXPECT_LT(0, s.kernel_records);
	EXPECT_EQ(0, s.images_dropped) TH_LOG("%d image events, more than the %d kept",
					      s.n_images + s.images_dropped,
					      MAX_IMAGES);

	/* The child: started twice (fork, then exec), ended once. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = 0;
	snprintf(base_name, sizeof(base_name), "%s", strrchr(exe, '/') + 1);
	snprintf(want_cmd, sizeof(want_cmd), "%s %s %s", exe, CHILD_ARG, CHILD_OUT);
	EXPECT_EQ(2, s.child_starts);
	EXPECT_STREQ(base_name, s.child_image);
	EXPECT_STREQ(want_cmd, s.child_cmdline);
	EXPECT_EQ((uint32_t)getpid(), s.child_parent);
	EXPECT_EQ(1, s.child_ends);
	EXPECT_EQ(CHILD_EXIT, s.child_exit);
	/* End names the process as its Start did, though its memory is gone. */
	EXPECT_STREQ(base_name, s.child_end_image);
	EXPECT_STREQ(want_cmd, s.child_end_cmdline);
	/* DCEnd of a live process: its command line too. */
	own_cmdline(line, sizeof(line));
	EXPECT_STREQ(line, s.dcend_self_cmdline);

	/* Every Unload of the child repeats a Load of its before it. */
	for (i = 0; i < s.n_images; i++)
		if (s.images[i].op == 2 && s.images[i].pid == (uint32_t)s.child)
			EXPECT_TRUE(unload_matches_load(&s, &s.images[i]))
				TH_LOG("Image/Unload of %s at 0x%llx size 0x%llx: no such Load",
				       s.images[i].path,
				       (unsigned long long)s.images[i].base,
				       (unsigned long long)s.images[i].size);
	/* The dlclose()d library: loaded where its maps showed, unloaded once. */
	EXPECT_TRUE(image_loaded(&s, dl_path, dl_base, dl_lo, dl_hi))
		TH_LOG("no Image/Load of %s at 0x%lx", dl_path, dl_base);
	EXPECT_EQ(1, image_unloads(&s, dl_path, dl_base, 0));
	dl_unload = image_unload_time(&s, dl_path);

	/* Its second thread, and the name it gave itself. */
	EXPECT_EQ(1, s.thread_start_ok);
	EXPECT_EQ(1, s.thread_named);

	/*
	 * Each executable file mapping of its maps: an Image/Load based at
	 * the start of the file's offset-0 mapping, covering the mapping.
	 */
	while (next_exec_mapping(f, &lo, &hi, path)) {
		/* The first mapping of the same file at offset 0. */
		unsigned long base = file_base(CHILD_OUT, path);

		EXPECT_TRUE(image_loaded(&s, path, base, lo, hi))
			TH_LOG("no Image/Load of %s at 0x%lx covering 0x%lx-0x%lx",
			       path, base, lo, hi);
		EXPECT_TRUE(image_identified(&s, path, base))
			TH_LOG("no DbgID_RSDS of %s at 0x%lx with its build-id and time",
			       path, base);
		/* Unloaded as the child exits: after the dlclose()d library. */
		EXPECT_EQ(1, image_unloads(&s, path, base, dl_unload))
			TH_LOG("not one Image/Unload of %s at 0x%lx at exit", path,
			       base);
		checked++;
	}
	fclose(f);
	/* The executable, ld.so and libc at least. */
	EXPECT_LE(3, checked);
	/* An ImageID/Info beside every user image event. */
	EXPECT_LE(checked, s.n_info);

	/* The rundown: every process /proc listed before and after start. */
	for (i = 0; i < n_before; i++) {
		bool live = false, found = false;

		for (j = 0; j < n_after && !live; j++)
			live = after[j] == before[i];
		if (!live)
			continue;
		for (j = 0; j < s.n_dcstart && !found; j++)
			found = s.dcstart_pids[j] == before[i];
		EXPECT_TRUE(found) TH_LOG("no Process/DCStart for pid %d", before[i]);
	}
	EXPECT_EQ(1, s.dcend_self);
	EXPECT_EQ(1, s.rundown_complete);
	EXPECT_EQ(1, s.leader_first_ends);
	EXPECT_EQ(LATE_THREAD_EXIT, s.leader_first_exit);
	/* The zombie: its comm, no command line, its exit code. */
	EXPECT_EQ(1, s.zombie_dcend);
	EXPECT_EQ(ZOMBIE_EXIT, s.zombie_exit);
	EXPECT_STREQ(comm, s.zombie_image);
	EXPECT_STREQ("", s.zombie_cmdline);

	/* The kernel's images in process 0: vmlinux, and this module's text. */
	EXPECT_LE(0xffffffff80000000ULL, s.vmlinux_base);
	EXPECT_LT(0, s.vmlinux_size);
	f = fopen("/sys/module/etw/sections/.text", "r");
	ASSERT_NE(NULL, f);
	{
		unsigned long long text = 0;

		EXPECT_EQ(1, fscanf(f, "%llx", &text));
		fclose(f);
		EXPECT_LE(s.etw_base, text) TH_LOG(".text 0x%llx, etw.ko at 0x%llx",
						   text, (unsigned long long)s.etw_base);
		EXPECT_GT(s.etw_base + s.etw_size, text);
	}
	unlink(KLOG_FILE);
	unlink(CHILD_OUT);
}

TEST_F(klog, nt_kernel_logger_records_a_child)
{
	records_a_child(_metadata);
}

/*
 * A system logger after another one stopped in the same boot: the first
 * records a child and stops (its DCEnd rundown, SystemConfig records and
 * RundownComplete, its sources stopped); the second sees the next
 * child's images, their identities and their unloads, as the first did.
 */
TEST_F(klog, images_of_a_logger_after_another_stopped)
{
	static const char first[] = "/tmp/etwtest-klog-first.etl";
	CONTROLTRACE_ID id;
	struct kprops b;
	pid_t child;

	ASSERT_EQ(ERROR_SUCCESS,
		  StartTraceA(&id, KERNEL_LOGGER_NAMEA,
			      kernel_props(&b, EVENT_TRACE_FLAG_PROCESS |
					   EVENT_TRACE_FLAG_THREAD |
					   EVENT_TRACE_FLAG_IMAGE_LOAD, first)));
	ASSERT_EQ(CHILD_EXIT, run_child(&child));
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(0, KERNEL_LOGGER_NAMEA,
					    kernel_props(&b, 0, NULL)));
	EXPECT_EQ(0, b.p.EventsLost);
	unlink(first);
	records_a_child(_metadata);
}

/* Image/Unloads of @pid for @path at @base in (@after, @before]. */
static int unloads_between(const struct seen *s, uint32_t pid, const char *path,
			   uint64_t base, LONGLONG after, LONGLONG before)
{
	int n = 0;

	for (int i = 0; i < s->n_images; i++) {
		const struct image_ev *im = &s->images[i];

		n += im->op == 2 && im->pid == pid && !strcmp(im->path, path) &&
		     im->base == base && im->time > after && im->time <= before;
	}
	return n;
}

/* Image/Unloads of @pid, any image. */
static int unloads_of(const struct seen *s, uint32_t pid)
{
	int n = 0;

	for (int i = 0; i < s->n_images; i++)
		n += s->images[i].op == 2 && s->images[i].pid == pid;
	return n;
}

/*
 * A child that leaves its address space while a process it cloned with
 * CLONE_VM still holds it (the space outlives the child): at its exit
 * (@mode "exit") or at its exec ("exec"), Image/Unload of each image its
 * maps showed, exactly once, in the child, before its Process/End (exit)
 * or its exec's Process/Start; none of the holder, which loaded none; and
 * Process/End with its command line.
 */
static void holder_case(struct __test_metadata *_metadata, const char *mode)
{
	static struct seen s;
	char exe[512], want_cmd[1024], path[256];
	unsigned long lo, hi;
	CONTROLTRACE_ID id;
	struct kprops b;
	bool exec = !strcmp(mode, "exec");
	LONGLONG after, before;
	int status, i, checked = 0;
	pid_t holder = 0;
	FILE *f;
	ssize_t n;

	memset(&s, 0, sizeof(s));
	s.parent = getpid();
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = 0;
	/* The holder outlives its parent: ours to reap then. */
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	unlink(KLOG_FILE);
	unlink(HOLDER_OUT);
	ASSERT_EQ(ERROR_SUCCESS,
		  StartTraceA(&id, KERNEL_LOGGER_NAMEA,
			      kernel_props(&b, EVENT_TRACE_FLAG_PROCESS |
					   EVENT_TRACE_FLAG_THREAD |
					   EVENT_TRACE_FLAG_IMAGE_LOAD,
					   KLOG_FILE)));
	s.child = fork();
	ASSERT_LE(0, s.child);
	if (!s.child) {
		execl(exe, exe, HOLDER_ARG, HOLDER_OUT, mode, (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(s.child, waitpid(s.child, &status, 0));
	f = fopen(HOLDER_OUT, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "holder %d\n", &holder));
	/* Its parent gone, the holder is ours; it ends as the pipe closes. */
	ASSERT_EQ(holder, waitpid(holder, NULL, 0));
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(0, KERNEL_LOGGER_NAMEA,
					    kernel_props(&b, 0, NULL)));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(exec ? EXEC_EXIT : HOLDER_EXIT, WEXITSTATUS(status));
	EXPECT_EQ(0, b.p.EventsLost);

	ASSERT_EQ(ERROR_SUCCESS, kernel_trace_read(KLOG_FILE, on_record, &s, NULL));
	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.bad_what);
	EXPECT_EQ(0, s.images_dropped);

	/* Started at fork and exec (and the second exec), ended once. */
	ASSERT_EQ(exec ? 3 : 2, s.child_starts);
	EXPECT_EQ(1, s.child_ends);
	EXPECT_EQ(exec ? EXEC_EXIT : HOLDER_EXIT, s.child_exit);
	if (exec)
		snprintf(want_cmd, sizeof(want_cmd), "%s %s", exe, EXEC_ARG);
	else
		snprintf(want_cmd, sizeof(want_cmd), "%s %s %s %s", exe,
			 HOLDER_ARG, HOLDER_OUT, mode);
	EXPECT_STREQ(want_cmd, s.child_end_cmdline);
	EXPECT_STREQ(strrchr(exe, '/') + 1, s.child_end_image);
	/* The images of its first exec, unloaded before it ends (or execs). */
	after = s.child_start_time[1];
	before = exec ? s.child_start_time[2] : s.child_end_time;
	EXPECT_EQ(0, unloads_of(&s, (uint32_t)holder));
	for (i = 0; i < s.n_images; i++)
		if (s.images[i].op == 2 && s.images[i].pid == (uint32_t)s.child)
			EXPECT_TRUE(unload_matches_load(&s, &s.images[i]))
				TH_LOG("Image/Unload of %s at 0x%llx: no such Load",
				       s.images[i].path,
				       (unsigned long long)s.images[i].base);

	while (next_exec_mapping(f, &lo, &hi, path)) {
		unsigned long base = file_base(HOLDER_OUT, path);

		EXPECT_EQ(1, unloads_between(&s, (uint32_t)s.child, path, base,
					     after, before))
			TH_LOG("%s: not one Image/Unload of %s at 0x%lx before %s",
			       mode, path, base, exec ? "the exec's Start" : "End");
		checked++;
	}
	fclose(f);
	/* The executable, ld.so and libc at least. */
	EXPECT_LE(3, checked);
	unlink(KLOG_FILE);
	unlink(HOLDER_OUT);
}

TEST_F(klog, unloads_at_exit_with_a_clone_vm_holder)
{
	holder_case(_metadata, "exit");
}

TEST_F(klog, unloads_at_exec_with_a_clone_vm_holder)
{
	holder_case(_metadata, "exec");
}

/*
 * etw record --kernel: a system logger beside a provider; the command it
 * runs is in the file with its exit code, through ProcessTrace.
 */
TEST_F(klog, etw_record_kernel)
{
	static struct seen s;
	static const char file[] = "/tmp/etwtest-klog-record.etl";
	char out[4096];

	if (access("/usr/bin/etw", X_OK) || access("/bin/sh", X_OK))
		SKIP(return, "no /usr/bin/etw or /bin/sh");
	unlink(file);
	/* Unknown names are a clear error, before anything starts. */
	EXPECT_EQ(1, etw_sh("etw record --kernel process,bogus -o /tmp/x.etl -- true 2>&1",
			    out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "bad kernel flags 'process,bogus'")) TH_LOG("%s", out);
	/* The shell's own exit code comes back, and is in the file. */
	EXPECT_EQ(5, etw_sh("etw record --kernel process,thread,image -o "
			    "/tmp/etwtest-klog-record.etl -- /bin/sh -c 'exit 5' 2>/dev/null",
			    NULL, 0));

	memset(&s, 0, sizeof(s));
	s.child = -1;
	ASSERT_EQ(ERROR_SUCCESS, kernel_trace_read(file, on_record, &s, NULL));
	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.bad_what);
	/* Some process ended with 5: the shell. */
	EXPECT_EQ(1, s.exit5);
	EXPECT_LT(0, s.n_dcstart);
	EXPECT_EQ(1, s.rundown_complete);
	unlink(file);
}

/* A system logger of our own name, started with SYSTEM_LOGGER_MODE. */
struct sprops {
	EVENT_TRACE_PROPERTIES p;
	char name[64];
};

static EVENT_TRACE_PROPERTIES *system_props(struct sprops *b, ULONG mode,
					    ULONG flags)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.Wnode.ClientContext = 1;
	b->p.LogFileMode = mode;
	b->p.EnableFlags = flags;
	b->p.LoggerNameOffset = offsetof(struct sprops, name);
	return &b->p;
}

TEST_F(klog, trace_information)
{
	CLASSIC_EVENT_ID ids[3], back[8];
	TRACE_PROFILE_INTERVAL iv;
	ULONG masks[8], ret_len;
	CONTROLTRACE_ID id, plain;
	struct sprops b;

	ASSERT_EQ(ERROR_SUCCESS,
		  StartTraceA(&id, "etwtest-klog-system",
			      system_props(&b, EVENT_TRACE_SYSTEM_LOGGER_MODE |
					   EVENT_TRACE_REAL_TIME_MODE, 0)));
	EXPECT_EQ(0, b.p.EnableFlags);

	/* EnableFlags through TraceSetInformation, back through both. */
	memset(masks, 0, sizeof(masks));
	masks[0] = EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD;
	masks[3] = 0x40;	/* another group mask: kept, records nothing */
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceSetInformation(id, TraceSystemTraceEnableFlagsInfo, masks,
				      sizeof(masks)));
	memset(masks, 0xff, sizeof(masks));
	ret_len = 0;
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceQueryInformation(id, TraceSystemTraceEnableFlagsInfo, masks,
					sizeof(masks), &ret_len));
	EXPECT_EQ(sizeof(masks), ret_len);
	EXPECT_EQ(EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD, masks[0]);
	EXPECT_EQ(0x40, masks[3]);
	EXPECT_EQ(0, masks[7]);
	ASSERT_EQ(ERROR_SUCCESS, QueryTraceA(id, NULL, system_props(&b, 0, 0)));
	EXPECT_EQ(EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD, b.p.EnableFlags);
	EXPECT_NE(0, b.p.LogFileMode & EVENT_TRACE_SYSTEM_LOGGER_MODE);

	/* UpdateTrace changes them too; 0 turns all off. */
	system_props(&b, 0, EVENT_TRACE_FLAG_IMAGE_LOAD);
	ASSERT_EQ(ERROR_SUCCESS, UpdateTraceA(id, NULL, &b.p));
	EXPECT_EQ(EVENT_TRACE_FLAG_IMAGE_LOAD, b.p.EnableFlags);

	/* The stack list: Process/Start, Image/Load, Thread/CSwitch. */
	memset(ids, 0, sizeof(ids));
	ids[0].EventGuid = process_guid;
	ids[0].Type = 1;
	ids[1].EventGuid = image_guid;
	ids[1].Type = 10;
	ids[2].EventGuid = thread_guid;
	ids[2].Type = 36;
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceSetInformation(id, TraceStackTracingInfo, ids, sizeof(ids)));
	memset(back, 0xee, sizeof(back));
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceQueryInformation(id, TraceStackTracingInfo, back,
					sizeof(back), &ret_len));
	ASSERT_EQ(sizeof(ids), ret_len);
	/* In hook order: Process/1, Image/10 (hook 0x030A), Thread/36. */
	EXPECT_TRUE(IsEqualGUID(&back[0].EventGuid, &process_guid));
	EXPECT_EQ(1, back[0].Type);
	EXPECT_TRUE(IsEqualGUID(&back[1].EventGuid, &image_guid));
	EXPECT_EQ(10, back[1].Type);
	EXPECT_TRUE(IsEqualGUID(&back[2].EventGuid, &thread_guid));
	EXPECT_EQ(36, back[2].Type);
	/* Too small an answer: the length it needs. */
	EXPECT_EQ(ERROR_BAD_LENGTH,
		  TraceQueryInformation(id, TraceStackTracingInfo, back,
					sizeof(back[0]), &ret_len));
	EXPECT_EQ(sizeof(ids), ret_len);
	/* Length 0 clears it. */
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceSetInformation(id, TraceStackTracingInfo, NULL, 0));
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceQueryInformation(id, TraceStackTracingInfo, back,
					sizeof(back), &ret_len));
	EXPECT_EQ(0, ret_len);

	/* The profile interval, clamped as Windows clamps it. */
	iv.Source = 0;
	iv.Interval = 5000;
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceSetInformation(0, TraceSampledProfileIntervalInfo, &iv,
				      sizeof(iv)));
	iv.Interval = 0;
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceQueryInformation(0, TraceSampledProfileIntervalInfo, &iv,
					sizeof(iv), NULL));
	EXPECT_EQ(5000, iv.Interval);
	iv.Interval = 1;
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceSetInformation(0, TraceSampledProfileIntervalInfo, &iv,
				      sizeof(iv)));
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceQueryInformation(0, TraceSampledProfileIntervalInfo, &iv,
					sizeof(iv), NULL));
	EXPECT_EQ(1221, iv.Interval);
	iv.Source = 1;	/* a hardware counter: not here */
	EXPECT_EQ(ERROR_NOT_SUPPORTED,
		  TraceSetInformation(0, TraceSampledProfileIntervalInfo, &iv,
				      sizeof(iv)));
	iv.Source = 0;
	iv.Interval = 10000;
	ASSERT_EQ(ERROR_SUCCESS,
		  TraceSetInformation(0, TraceSampledProfileIntervalInfo, &iv,
				      sizeof(iv)));

	/* Not a system logger: ERROR_INVALID_PARAMETER. */
	ASSERT_EQ(ERROR_SUCCESS,
		  StartTraceA(&plain, "etwtest-klog-plain",
			      system_props(&b, EVENT_TRACE_REAL_TIME_MODE, 0)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TraceSetInformation(plain, TraceSystemTraceEnableFlagsInfo,
				      masks, sizeof(ULONG)));
	EXPECT_EQ(ERROR_INVALID_PARAMETER,
		  TraceSetInformation(plain, TraceStackTracingInfo, ids,
				      sizeof(ids)));
	/* A session that stopped: not found. */
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(plain, NULL, system_props(&b, 0, 0)));
	EXPECT_EQ(ERROR_WMI_INSTANCE_NOT_FOUND,
		  TraceSetInformation(plain, TraceSystemTraceEnableFlagsInfo,
				      masks, sizeof(ULONG)));
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(id, NULL, system_props(&b, 0, 0)));
}

TEST_F(klog, eight_system_loggers)
{
	CONTROLTRACE_ID ids[9];
	struct sprops b;
	char name[64];
	int i;

	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "etwtest-klog-%d", i);
		ASSERT_EQ(ERROR_SUCCESS,
			  StartTraceA(&ids[i], name,
				      system_props(&b, EVENT_TRACE_SYSTEM_LOGGER_MODE |
						   EVENT_TRACE_REAL_TIME_MODE,
						   EVENT_TRACE_FLAG_PROCESS)));
	}
	EXPECT_EQ(ERROR_NO_SYSTEM_RESOURCES,
		  StartTraceA(&ids[8], "etwtest-klog-8",
			      system_props(&b, EVENT_TRACE_SYSTEM_LOGGER_MODE |
					   EVENT_TRACE_REAL_TIME_MODE, 0)));
	/* A plain session still starts. */
	EXPECT_EQ(ERROR_SUCCESS,
		  StartTraceA(&ids[8], "etwtest-klog-plain",
			      system_props(&b, EVENT_TRACE_REAL_TIME_MODE, 0)));
	for (i = 0; i < 9; i++)
		EXPECT_EQ(ERROR_SUCCESS, StopTraceA(ids[i], NULL, system_props(&b, 0, 0)));
}

/* The kernel logger needs a controller's rights: nobody gets none. */
TEST_F(klog, needs_privilege)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		struct kprops b;
		CONTROLTRACE_ID id;
		ULONG masks[1] = { EVENT_TRACE_FLAG_PROCESS };

		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		if (StartTraceA(&id, KERNEL_LOGGER_NAMEA,
				kernel_props(&b, EVENT_TRACE_FLAG_PROCESS, NULL)) !=
		    ERROR_ACCESS_DENIED)
			_exit(3);
		if (TraceSetInformation(1, TraceSystemTraceEnableFlagsInfo, masks,
					sizeof(masks)) != ERROR_ACCESS_DENIED &&
		    TraceSetInformation(1, TraceSystemTraceEnableFlagsInfo, masks,
					sizeof(masks)) != ERROR_WMI_INSTANCE_NOT_FOUND)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* SystemTraceControlGuid with another name is not the kernel logger. */
TEST_F(klog, kernel_guid_needs_kernel_name)
{
	CONTROLTRACE_ID id;
	struct sprops b;

	system_props(&b, EVENT_TRACE_REAL_TIME_MODE, EVENT_TRACE_FLAG_PROCESS);
	b.p.Wnode.Guid = SystemTraceControlGuid;
	EXPECT_EQ(ERROR_INVALID_PARAMETER, StartTraceA(&id, "etwtest-klog-x", &b.p));
	/* EnableFlags of a session that is no system logger: ignored. */
	system_props(&b, EVENT_TRACE_REAL_TIME_MODE, EVENT_TRACE_FLAG_PROCESS);
	ASSERT_EQ(ERROR_SUCCESS, StartTraceA(&id, "etwtest-klog-x", &b.p));
	EXPECT_EQ(0, b.p.EnableFlags);
	EXPECT_EQ(ERROR_SUCCESS, StopTraceA(id, NULL, system_props(&b, 0, 0)));
}

TEST_HARNESS_MAIN
