// SPDX-License-Identifier: GPL-2.0
/*
 * FileIo end to end: the NT Kernel Logger with FILE_IO, FILE_IO_INIT and
 * DISK_FILE_IO records a child that creates, writes, flushes, truncates,
 * closes, reopens, reads, dup()s, stats, ioctl()s, chmods, renames and
 * deletes files, lists and watches a directory in a fresh temporary
 * directory; the file read back with ProcessTrace shows, for the child's
 * thread (TTID) and its IrpPtr, and the files it opened, exactly:
 *
 * - one Create per open with the path, CreateOptions (disposition and
 *   options) and FileObject, and a FileCreate naming the file's FileKey;
 *   the failed open's Create with FileObject 0 and the path as given;
 * - Write and Read with their offsets and sizes, Flush, SetInfo (end of
 *   file; basic information for fchmod), QueryInfo for fstat and statx
 *   of a descriptor (none for a stat of a path), FSControl with the
 *   ioctl's command, Cleanup for each close and Close only where the last
 *   reference went (not for the dup()), DirEnum, DirNotify for an inotify
 *   watch, and Delete/DletePath, Rename/RenamePath with the paths;
 * - a FileObject is never created again while it is open (Linux may
 *   reuse one after its Close, as Windows reuses FILE_OBJECTs);
 * - an OperationEnd after each, same IrpPtr, with the NTSTATUS and
 *   ExtraInfo Windows gives (bytes moved, FILE_CREATED or FILE_OPENED,
 *   STATUS_END_OF_FILE, STATUS_NO_MORE_FILES, OBJECT_NAME_NOT_FOUND);
 * - the operations' FileObject and FileKey those of their Create and
 *   FileCreate;
 * - a file this test holds open over the session: a Name at start and a
 *   FileRundown at stop with its path, all with one FileKey;
 * - every FileIo record of the trace the size of its layout, version 3;
 *   none lost.
 * A pipe's write gives nothing (FileIo follows files and directories).
 *
 * A second child leaves files to dup2(), close_range(), exec (O_CLOEXEC)
 * and exit: each gets its Cleanup, its Close where the last reference
 * went, and an OperationEnd.  A 32-bit child's calls give the same
 * records as their 64-bit twins.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "kernel_props.h"

#define FILEIO_ETL	"/tmp/etwtest-fileio.etl"
#define MAX_EVS		4096

static const GUID fileio_guid = { 0x90cbdc39, 0x4a3e, 0x11d1,
	{ 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3 } };

enum {
	OP_NAME = 0, OP_FILE_CREATE = 32, OP_RUNDOWN = 36, OP_CREATE = 64,
	OP_CLEANUP, OP_CLOSE, OP_READ, OP_WRITE, OP_SET_INFO, OP_DELETE,
	OP_RENAME, OP_DIR_ENUM, OP_FLUSH, OP_QUERY_INFO, OP_FS_CONTROL,
	OP_OP_END, OP_DIR_NOTIFY, OP_DELETE_PATH = 79, OP_RENAME_PATH = 80,
};

/* One FileIo record, its fields by name (0 where the layout has none). */
struct fev {
	uint8_t op;
	uint64_t irp, obj, key, offset, extra;
	uint32_t ttid, size, options, info_class, status;
	char name[512];
};

struct fseen {
	struct fev ev[MAX_EVS];
	int n;
	long bad;
	char bad_what[128];
};

static void bad(struct fseen *s, const char *what, const EVENT_RECORD *r)
{
	if (!s->bad++)
		snprintf(s->bad_what, sizeof(s->bad_what), "%s (opcode %u, %u bytes)",
			 what, r->EventHeader.EventDescriptor.Opcode,
			 r->UserDataLength);
}

static uint64_t u64_at(const uint8_t *d, size_t off)
{
	uint64_t v;

	memcpy(&v, d + off, 8);
	return v;
}

static uint32_t u32_at(const uint8_t *d, size_t off)
{
	uint32_t v;

	memcpy(&v, d + off, 4);
	return v;
}

/* The UTF-16 string at @off, ASCII only, to its NUL: its size, or 0. */
static size_t wstr_at(const uint8_t *d, size_t len, size_t off, char *out,
		      size_t room)
{
	size_t i = 0;

	while (off + 2 * i + 2 <= len) {
		uint16_t c = d[off + 2 * i] | d[off + 2 * i + 1] << 8;

		if (!c) {
			out[i < room ? i : room - 1] = 0;
			return 2 * i + 2;
		}
		if (i < room - 1)
			out[i] = c < 128 ? (char)c : '?';
		i++;
	}
	return 0;
}

/* Fixed bytes before the string (or all of them) of each layout. */
static void parse(struct fseen *s, const EVENT_RECORD *r, struct fev *e)
{
	const uint8_t *d = r->UserData;
	size_t len = r->UserDataLength, fixed, text = 0;

	switch (e->op) {
	case OP_NAME:
	case OP_FILE_CREATE:
	case OP_RUNDOWN:
		fixed = 8;
		if (len >= fixed)
			e->key = u64_at(d, 0);
		text = 1;
		break;
	case OP_CREATE:
		fixed = 32;
		if (len >= fixed) {
			e->irp = u64_at(d, 0);
			e->obj = u64_at(d, 8);
			e->ttid = u32_at(d, 16);
			e->options = u32_at(d, 20);
		}
		text = 1;
		break;
	case OP_CLEANUP:
	case OP_CLOSE:
	case OP_FLUSH:
		fixed = 28;
		if (len == fixed) {
			e->irp = u64_at(d, 0);
			e->obj = u64_at(d, 8);
			e->key = u64_at(d, 16);
			e->ttid = u32_at(d, 24);
		}
		break;
	case OP_READ:
	case OP_WRITE:
		fixed = 44;
		if (len == fixed) {
			e->offset = u64_at(d, 0);
			e->irp = u64_at(d, 8);
			e->obj = u64_at(d, 16);
			e->key = u64_at(d, 24);
			e->ttid = u32_at(d, 32);
			e->size = u32_at(d, 36);
		}
		break;
	case OP_SET_INFO:
	case OP_DELETE:
	case OP_RENAME:
	case OP_QUERY_INFO:
	case OP_FS_CONTROL:
		fixed = 40;
		if (len == fixed) {
			e->irp = u64_at(d, 0);
			e->obj = u64_at(d, 8);
			e->key = u64_at(d, 16);
			e->extra = u64_at(d, 24);
			e->ttid = u32_at(d, 32);
			e->info_class = u32_at(d, 36);
		}
		break;
	case OP_DELETE_PATH:
	case OP_RENAME_PATH:
		fixed = 40;
		if (len >= fixed) {
			e->irp = u64_at(d, 0);
			e->obj = u64_at(d, 8);
			e->ttid = u32_at(d, 32);
			e->info_class = u32_at(d, 36);
		}
		text = 1;
		break;
	case OP_DIR_ENUM:
	case OP_DIR_NOTIFY:
		fixed = 40;
		if (len >= fixed) {
			e->irp = u64_at(d, 0);
			e->obj = u64_at(d, 8);
			e->key = u64_at(d, 16);
			e->ttid = u32_at(d, 24);
			e->size = u32_at(d, 28);
			e->info_class = u32_at(d, 32);
		}
		text = 1;
		break;
	case OP_OP_END:
		fixed = 20;
		if (len == fixed) {
			e->irp = u64_at(d, 0);
			e->extra = u64_at(d, 8);
			e->status = u32_at(d, 16);
		}
		break;
	default:
		return bad(s, "unknown FileIo opcode", r);
	}
	if (len < fixed)
		return bad(s, "short record", r);
	if (text && wstr_at(d, len, fixed, e->name, sizeof(e->name)) !=
		    len - fixed)
		return bad(s, "string not the record's end", r);
	if (!text && len != fixed)
		bad(s, "size not the layout's", r);
}

static void WINAPI on_record(PEVENT_RECORD r)
{
	struct fseen *s = r->UserContext;
	struct fev *e;

	if (!IsEqualGUID(&r->EventHeader.ProviderId, &fileio_guid))
		return;
	if (r->EventHeader.EventDescriptor.Version != 3)
		return bad(s, "version", r);
	if (s->n == MAX_EVS)
		return bad(s, "too many records", r);
	e = &s->ev[s->n++];
	memset(e, 0, sizeof(*e));
	e->op = r->EventHeader.EventDescriptor.Opcode;
	parse(s, r, e);
}

/* FILEIO_ETL's FileIo records into @s, through ProcessTrace; then gone. */
static ULONG read_trace(struct fseen *s)
{
	ULONG err = kernel_trace_read(FILEIO_ETL, on_record, s, NULL);

	unlink(FILEIO_ETL);
	return err;
}

#define WRITE_SIZE	100
#define TRUNC_SIZE	50

/* The child's file operations in @dir; 0 or the failing step. */
static int child_ops(const char *dir)
{
	char a[512], b[512], q[512], missing[512], buf[4096];
	struct statx stx;
	struct stat st;
	int fd, fd2, dfd, p[2], i, in;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(q, sizeof(q), "%s/q", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	memset(buf, 'x', sizeof(buf));
	fd = open(a, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0)
		return 1;
	for (i = 0; i < 3; i++)
		if (write(fd, buf, WRITE_SIZE) != WRITE_SIZE)
			return 2;
	if (fsync(fd) || ftruncate(fd, TRUNC_SIZE) || close(fd))
		return 3;
	fd = open(a, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != TRUNC_SIZE ||
	    read(fd, buf, sizeof(buf)) != 0 || pread(fd, buf, 10, 5) != 10)
		return 4;
	fd2 = dup(fd);
	if (fd2 < 0 || close(fd2) || close(fd))
		return 5;
	if (open(missing, O_RDONLY) != -1)
		return 6;
	if (rename(a, b) || unlink(b))
		return 7;
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return 8;
	while ((i = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0)
		;
	if (i < 0 || close(dfd))
		return 9;
	/* Queried, controlled, its attributes set; a path's stat: nothing. */
	fd = open(q, O_CREAT | O_RDWR, 0600);
	if (fd < 0 || fstat(fd, &st) ||
	    statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx) ||
	    stat(q, &st) || ioctl(fd, FIONREAD, &i) || fchmod(fd, 0644) ||
	    close(fd))
		return 11;
	/* The directory watched (the watch descriptor 1), the file gone. */
	in = inotify_init1(0);
	if (in < 0 || inotify_add_watch(in, dir, IN_CREATE | IN_DELETE) != 1 ||
	    close(in) || unlink(q))
		return 12;
	/* Not a file: no record. */
	if (pipe(p) || write(p[1], "x", 1) != 1)
		return 10;
	return 0;
}

/* Does @path name @dir or a file in it? */
static int in_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (!path[n] || path[n] == '/');
}

#define MAX_OPEN	64

/*
 * The child's records of its own files, in order: its Creates of paths in
 * @dir, the operations on the FileObjects they opened until their Close,
 * its operations on paths (no FileObject), and the OperationEnd that
 * follows each (the next record of its IrpPtr).  The records of what else
 * the child has open (inherited, or opened by an image it exec()s) are
 * left out.  @reused counts Creates of a FileObject still open.
 */
static int child_evs(const struct fseen *s, uint32_t tid, const char *dir,
		     uint64_t *irp, const struct fev **out, int room,
		     int *reused)
{
	uint64_t open_objs[MAX_OPEN];
	int i, j, n = 0, nopen = 0, last = 0, mine;

	*irp = 0;
	*reused = 0;
	for (i = 0; i < s->n; i++)
		if (s->ev[i].ttid == tid && s->ev[i].irp) {
			*irp = s->ev[i].irp;
			break;
		}
	for (i = 0; i < s->n && n < room; i++) {
		const struct fev *e = &s->ev[i];

		if (e->op == OP_OP_END) {
			if (e->irp == *irp && last)
				out[n++] = e;
			if (e->irp == *irp)
				last = 0;
			continue;
		}
		if (e->ttid != tid || e->op < OP_CREATE)
			continue;
		for (j = 0; j < nopen && open_objs[j] != e->obj; j++)
			;
		if (e->op == OP_CREATE) {
			mine = in_dir(e->name, dir);
			if (mine && e->obj && j < nopen)
				(*reused)++;
			else if (mine && e->obj && nopen < MAX_OPEN)
				open_objs[nopen++] = e->obj;
		} else {
			mine = !e->obj || j < nopen;
			if (e->op == OP_CLOSE && j < nopen)
				open_objs[j] = open_objs[--nopen];
		}
		last = mine;
		if (mine)
			out[n++] = e;
	}
	return n;
}

/* How many @op records name @path, all with one FileKey (else -1). */
static int count_names(const struct fseen *s, uint8_t op, const char *path,
		       uint64_t *key)
{
	int i, n = 0;

	for (i = 0; i < s->n; i++) {
		if (s->ev[i].op != op || strcmp(s->ev[i].name, path))
			continue;
		if (n++ && s->ev[i].key != *key)
			return -1;
		*key = s->ev[i].key;
	}
	return n;
}

FIXTURE(fileio)
{
	int fd;
};

FIXTURE_SETUP(fileio)
{
	struct kprops b;

	self->fd = etw_open_or_skip(_metadata);
	ControlTraceA(0, KERNEL_LOGGER_NAMEA, kernel_props(&b, 0, NULL),
		      EVENT_TRACE_CONTROL_STOP);
	etw_stop_test_sessions(self->fd);
}

FIXTURE_TEARDOWN(fileio)
{
	etw_stop_test_sessions(self->fd);
	close(self->fd);
}

/* The expected sequence of the child's operations and their ends. */
struct want {
	uint8_t op;
	const char *name;	/* Create, *Path, DirNotify: after the dir */
	uint64_t offset;
	uint32_t size_or_class;
	uint32_t options;	/* Create: CreateOptions */
	uint32_t status;	/* OperationEnd */
	uint64_t extra;		/* OperationEnd, SetInfo */
	int file;		/* FileObject: the nth file opened, 0 none */
};

/* An ExtraInfo not checked: the bytes of a directory listing. */
#define ANY		UINT64_MAX
#define END(st, ex)	{ OP_OP_END, NULL, 0, 0, 0, st, ex, 0 }
#define NFILES		8

static const struct want wants[] = {
	{ OP_CREATE, "/a", 0, 0, 0x02000000, 0, 0, 1 }, END(0, 2),
	{ OP_WRITE, NULL, 0, WRITE_SIZE, 0, 0, 0, 1 }, END(0, WRITE_SIZE),
	{ OP_WRITE, NULL, 100, WRITE_SIZE, 0, 0, 0, 1 }, END(0, WRITE_SIZE),
	{ OP_WRITE, NULL, 200, WRITE_SIZE, 0, 0, 0, 1 }, END(0, WRITE_SIZE),
	{ OP_FLUSH, NULL, 0, 0, 0, 0, 0, 1 }, END(0, 0),
	{ OP_SET_INFO, NULL, 0, 20, 0, 0, TRUNC_SIZE, 1 }, END(0, 0),
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 1 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 1 }, END(0, 0),
	{ OP_CREATE, "/a", 0, 0, 0x01000000, 0, 0, 2 }, END(0, 1),
	{ OP_READ, NULL, 0, 4096, 0, 0, 0, 2 }, END(0, TRUNC_SIZE),
	{ OP_READ, NULL, TRUNC_SIZE, 4096, 0, 0, 0, 2 }, END(0xc0000011, 0),
	{ OP_READ, NULL, 5, 10, 0, 0, 0, 2 }, END(0, 10),
	/* The dup()'s close: Cleanup, the file still open. */
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 2 }, END(0, 0),
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 2 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 2 }, END(0, 0),
	{ OP_CREATE, "/missing", 0, 0, 0x01000000, 0, 0, 0 },
	END(0xc0000034, 0),
	{ OP_RENAME, NULL, 0, 10, 0, 0, 0, 0 },
	{ OP_RENAME_PATH, "/a", 0, 10, 0, 0, 0, 0 }, END(0, 0),
	{ OP_DELETE, NULL, 0, 13, 0, 0, 0, 0 },
	{ OP_DELETE_PATH, "/b", 0, 13, 0, 0, 0, 0 }, END(0, 0),
	{ OP_CREATE, "", 0, 0, 0x01000001, 0, 0, 3 }, END(0, 1),
	{ OP_DIR_ENUM, "*", 0, 4096, 0, 0, 0, 3 }, END(0, ANY),
	{ OP_DIR_ENUM, "*", 0, 4096, 0, 0, 0, 3 }, END(0x80000006, 0),
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 3 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 3 }, END(0, 0),
	/* OPEN_IF; fstat and statx: FileStatLxInformation (70). */
	{ OP_CREATE, "/q", 0, 0, 0x03000000, 0, 0, 4 }, END(0, 2),
	{ OP_QUERY_INFO, NULL, 0, 70, 0, 0, 0, 4 }, END(0, 0),
	{ OP_QUERY_INFO, NULL, 0, 70, 0, 0, 0, 4 }, END(0, 0),
	/* ioctl(FIONREAD): its command; fchmod: FileBasicInformation. */
	{ OP_FS_CONTROL, NULL, 0, FIONREAD, 0, 0, 0, 4 }, END(0, 0),
	{ OP_SET_INFO, NULL, 0, 4, 0, 0, 0, 4 }, END(0, 0),
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 4 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 4 }, END(0, 0),
	/* FILE_NOTIFY_CHANGE_FILE_NAME | DIR_NAME; ExtraInfo the watch. */
	{ OP_DIR_NOTIFY, "", 0, 3, 0, 0, 0, 0 }, END(0, 1),
	{ OP_DELETE, NULL, 0, 13, 0, 0, 0, 0 },
	{ OP_DELETE_PATH, "/q", 0, 13, 0, 0, 0, 0 }, END(0, 0),
};

/*
 * @evs against @w, record by record: operations, paths, classes, sizes,
 * ends, IrpPtr @irp, and the FileObject of each file's Create (into @obj).
 */
static void check_sequence(struct __test_metadata *_metadata,
			   const struct fev **evs, int n,
			   const struct want *ws, int nw, const char *dir,
			   uint64_t irp, uint64_t *obj)
{
	char path[512];
	int i;

	EXPECT_EQ(nw, n);
	for (i = 0; i < n && i < nw; i++) {
		const struct want *w = &ws[i];
		const struct fev *e = evs[i];

		ASSERT_EQ(w->op, e->op) TH_LOG("record %d", i);
		EXPECT_EQ(irp, e->irp) TH_LOG("record %d", i);
		if (e->op == OP_OP_END) {
			EXPECT_EQ(w->status, e->status) TH_LOG("record %d", i);
			if (w->extra != ANY) {
				EXPECT_EQ(w->extra, e->extra) TH_LOG("record %d", i);
			} else {
				EXPECT_LT(0, e->extra);
			}
			continue;
		}
		if (e->op == OP_CREATE) {
			snprintf(path, sizeof(path), "%s%s", dir, w->name);
			EXPECT_STREQ(path, e->name);
			EXPECT_EQ(w->options, e->options) TH_LOG("record %d", i);
			if (w->file) {
				EXPECT_NE(0, e->obj) TH_LOG("record %d", i);
				obj[w->file] = e->obj;
			} else {
				EXPECT_EQ(0, e->obj);
			}
		} else if (e->op == OP_READ || e->op == OP_WRITE) {
			EXPECT_EQ(w->offset, e->offset) TH_LOG("record %d", i);
			EXPECT_EQ(w->size_or_class, e->size) TH_LOG("record %d", i);
		} else if (e->op == OP_DIR_ENUM) {
			EXPECT_EQ(w->size_or_class, e->size);
			EXPECT_STREQ("*", e->name);
		} else if (e->op == OP_DIR_NOTIFY) {
			EXPECT_EQ(0, e->size);
			EXPECT_EQ(w->size_or_class, e->info_class);
			snprintf(path, sizeof(path), "%s%s", dir, w->name);
			EXPECT_STREQ(path, e->name);
		} else if (e->op == OP_SET_INFO || e->op == OP_DELETE ||
			   e->op == OP_RENAME || e->op == OP_DELETE_PATH ||
			   e->op == OP_RENAME_PATH || e->op == OP_QUERY_INFO ||
			   e->op == OP_FS_CONTROL) {
			EXPECT_EQ(w->size_or_class, e->info_class)
				TH_LOG("record %d", i);
			if (e->op == OP_SET_INFO)
				EXPECT_EQ(w->extra, e->extra);
			if (w->name) {
				snprintf(path, sizeof(path), "%s%s", dir, w->name);
				EXPECT_STREQ(path, e->name);
			}
		}
		/* The FileObject of the Create before it. */
		if (e->op != OP_CREATE)
			EXPECT_EQ(obj[w->file], e->obj) TH_LOG("record %d", i);
	}
}

#define NWANT	((int)(sizeof(wants) / sizeof(wants[0])))

/* Start the NT Kernel Logger with the three FileIo flags into FILEIO_ETL. */
static ULONG start_fileio(struct kprops *b)
{
	CONTROLTRACE_ID id;

	unlink(FILEIO_ETL);
	return StartTraceA(&id, KERNEL_LOGGER_NAMEA,
			   kernel_props(b, EVENT_TRACE_FLAG_FILE_IO |
					EVENT_TRACE_FLAG_FILE_IO_INIT |
					EVENT_TRACE_FLAG_DISK_FILE_IO,
					FILEIO_ETL));
}

/* The trace and the child's records in it, for checks of one's own. */
struct child_trace {
	struct fseen s;
	const struct fev *evs[MAX_EVS];
	int n;
};

/*
 * Wait for @child, stop the session, and check its records of the files
 * in @dir against @ws exactly (none lost, each well formed, no FileObject
 * created while open); @t keeps them.
 */
static void check_child(struct __test_metadata *_metadata, pid_t child,
			const char *dir, const struct want *ws, int nw,
			struct child_trace *t)
{
	uint64_t irp, obj[NFILES] = { 0 };
	struct kprops b;
	int status, reused;

	memset(t, 0, sizeof(*t));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(0, KERNEL_LOGGER_NAMEA,
					    kernel_props(&b, 0, NULL)));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, b.p.EventsLost);
	ASSERT_EQ(ERROR_SUCCESS, read_trace(&t->s));
	EXPECT_EQ(0, t->s.bad) TH_LOG("first bad record: %s", t->s.bad_what);
	t->n = child_evs(&t->s, (uint32_t)child, dir, &irp, t->evs, MAX_EVS,
			 &reused);
	EXPECT_NE(0, irp);
	EXPECT_EQ(0, reused);
	check_sequence(_metadata, t->evs, t->n, ws, nw, dir, irp, obj);
}

static struct child_trace trace;

TEST_F(fileio, operations_ends_and_names)
{
	const struct fseen *s = &trace.s;
	const struct fev **evs = trace.evs;
	char dir[] = "/tmp/etwtest-fileio-XXXXXX", keep[512], path[512];
	uint64_t key_a = 0, key_dir = 0, key_q = 0, k1 = 0, k2 = 0;
	struct kprops b;
	int keep_fd, n, i;
	pid_t child;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(keep, sizeof(keep), "%s-keep", dir);
	keep_fd = open(keep, O_CREAT | O_RDWR, 0600);
	ASSERT_LE(0, keep_fd);
	ASSERT_EQ(ERROR_SUCCESS, start_fileio(&b));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(child_ops(dir));
	check_child(_metadata, child, dir, wants, NWANT, &trace);
	close(keep_fd);
	unlink(keep);
	rmdir(dir);
	n = trace.n;
	/*
	 * The second open of a may have the first's FileObject (6.12 reuses
	 * the closed struct file at once): its Create follows the first's
	 * Close, and a FileCreate names the file again at each open.
	 */
	snprintf(path, sizeof(path), "%s/a", dir);
	EXPECT_EQ(2, count_names(s, OP_FILE_CREATE, path, &key_a));
	EXPECT_EQ(1, count_names(s, OP_FILE_CREATE, dir, &key_dir));
	snprintf(path, sizeof(path), "%s/q", dir);
	EXPECT_EQ(1, count_names(s, OP_FILE_CREATE, path, &key_q));
	for (i = 0; i < n && i < NWANT; i++) {
		if (evs[i]->op == OP_CREATE || evs[i]->op == OP_OP_END ||
		    !wants[i].file)
			continue;
		EXPECT_EQ(wants[i].file == 3 ? key_dir :
			  wants[i].file == 4 ? key_q : key_a, evs[i]->key)
			TH_LOG("record %d", i);
	}
	/*
	 * The file held open over the session: named at start and stop, once
	 * for each process holding it (this one; a logger being spawned may
	 * hold it a moment), all with one FileKey.
	 */
	EXPECT_LE(1, count_names(s, OP_NAME, keep, &k1));
	EXPECT_LE(1, count_names(s, OP_RUNDOWN, keep, &k2));
	EXPECT_NE(0, k1);
	EXPECT_EQ(k1, k2);
}

#define EXIT_ARG	"--fileio-exit"

/*
 * The closes no close(2) makes.  c stays open to the end, and e's
 * descriptor becomes a second one of c (dup2, closing e); f is closed by
 * close_range(), d (O_CLOEXEC) by the exec of this program, which exits
 * at once (EXIT_ARG) with c's two descriptors open.
 */
static int child_closes(const char *dir, const char *exe)
{
	char c[512], d[512], e[512], f[512];
	int fc, fd, fe, ff;

	snprintf(c, sizeof(c), "%s/c", dir);
	snprintf(d, sizeof(d), "%s/d", dir);
	snprintf(e, sizeof(e), "%s/e", dir);
	snprintf(f, sizeof(f), "%s/f", dir);
	fc = open(c, O_CREAT | O_WRONLY, 0600);
	fd = open(d, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	fe = open(e, O_CREAT | O_WRONLY, 0600);
	ff = open(f, O_CREAT | O_WRONLY, 0600);
	if (fc < 0 || fd < 0 || fe < 0 || ff < 0)
		return 1;
	if (dup2(fc, fe) != fe)
		return 2;
	if (syscall(SYS_close_range, ff, ff, 0))
		return 3;
	execl(exe, exe, EXIT_ARG, (char *)NULL);
	return 4;
}

static const struct want close_wants[] = {
	{ OP_CREATE, "/c", 0, 0, 0x03000000, 0, 0, 1 }, END(0, 2),
	{ OP_CREATE, "/d", 0, 0, 0x03000000, 0, 0, 2 }, END(0, 2),
	{ OP_CREATE, "/e", 0, 0, 0x03000000, 0, 0, 3 }, END(0, 2),
	{ OP_CREATE, "/f", 0, 0, 0x03000000, 0, 0, 4 }, END(0, 2),
	/* dup2() closes e, close_range() f, exec d. */
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 3 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 3 }, END(0, 0),
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 4 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 4 }, END(0, 0),
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 2 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 2 }, END(0, 0),
	/* Exit: c's two descriptors, the last one closes it. */
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 1 }, END(0, 0),
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 1 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 1 }, END(0, 0),
};

TEST_F(fileio, closes_at_dup2_close_range_exec_and_exit)
{
	char dir[] = "/tmp/etwtest-fileio-XXXXXX", exe[512], path[512];
	const char *names[] = { "c", "d", "e", "f" };
	struct kprops b;
	unsigned int i;
	ssize_t len;
	pid_t child;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, len);
	exe[len] = 0;
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(ERROR_SUCCESS, start_fileio(&b));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(child_closes(dir, exe));
	check_child(_metadata, child, dir, close_wants,
		    (int)(sizeof(close_wants) / sizeof(close_wants[0])), &trace);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

#define OPS32	"/usr/lib/etw-fileio-ops32"

/* selftests/etw/fileio_ops.c's operations, read as their 64-bit twins. */
static const struct want ops32_wants[] = {
	{ OP_CREATE, "/w", 0, 0, 0x03000000, 0, 0, 1 }, END(0, 2),
	{ OP_WRITE, NULL, 0, 100, 0, 0, 0, 1 }, END(0, 100),
	/* pread64's offset and preadv's in halves; two compat_iovecs. */
	{ OP_READ, NULL, 5, 10, 0, 0, 0, 1 }, END(0, 10),
	{ OP_READ, NULL, 20, 10, 0, 0, 0, 1 }, END(0, 10),
	{ OP_SET_INFO, NULL, 0, 20, 0, 0, 50, 1 }, END(0, 0),
	{ OP_QUERY_INFO, NULL, 0, 70, 0, 0, 0, 1 }, END(0, 0),
	{ OP_FS_CONTROL, NULL, 0, FIONREAD, 0, 0, 0, 1 }, END(0, 0),
	{ OP_DELETE, NULL, 0, 13, 0, 0, 0, 0 },
	{ OP_DELETE_PATH, "/w", 0, 13, 0, 0, 0, 0 }, END(0, 0),
	/* Its exit closes the file. */
	{ OP_CLEANUP, NULL, 0, 0, 0, 0, 0, 1 },
	{ OP_CLOSE, NULL, 0, 0, 0, 0, 0, 1 }, END(0, 0),
};

TEST_F(fileio, compat_32bit_calls)
{
	char dir[] = "/tmp/etwtest-fileio-XXXXXX";
	struct kprops b;
	pid_t child;

	ASSERT_EQ(0, access(OPS32, X_OK)) TH_LOG("no %s", OPS32);
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(ERROR_SUCCESS, start_fileio(&b));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		execl(OPS32, OPS32, dir, (char *)NULL);
		_exit(100);
	}
	check_child(_metadata, child, dir, ops32_wants,
		    (int)(sizeof(ops32_wants) / sizeof(ops32_wants[0])), &trace);
	rmdir(dir);
}

#define KPROBES	"/sys/kernel/debug/kprobes/list"

/* Is a kprobe on filp_close() listed?  -1: the list cannot be read. */
static int close_probe_listed(void)
{
	char line[512];
	FILE *f = fopen(KPROBES, "r");
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " filp_close+"))
			found = 1;
	fclose(f);
	return found;
}

/* The closes' kprobe is there while FileIo runs, gone at its stop. */
TEST_F(fileio, close_probe_released_at_stop)
{
	struct kprops b;

	if (close_probe_listed() < 0)
		SKIP(return, "no %s", KPROBES);
	EXPECT_EQ(0, close_probe_listed());
	ASSERT_EQ(ERROR_SUCCESS, start_fileio(&b));
	EXPECT_EQ(1, close_probe_listed());
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(0, KERNEL_LOGGER_NAMEA,
					    kernel_props(&b, 0, NULL)));
	unlink(FILEIO_ETL);
	EXPECT_EQ(0, close_probe_listed());
}

#define READER_ARG	"--fileio-read"

/*
 * Run as the reader when exec'd with READER_ARG FILE, before the harness:
 * read FILE to its end with read(2), 4 KiB at a time.
 */
__attribute__((constructor)) static void maybe_reader(void)
{
	static char args[4096];
	char buf[4096];
	size_t n, i;
	FILE *f = fopen("/proc/self/cmdline", "r");
	int fd;

	if (!f)
		return;
	n = fread(args, 1, sizeof(args) - 1, f);
	fclose(f);
	i = strnlen(args, n) + 1;
	/* Exit with the descriptors inherited still open. */
	if (i < n && !strcmp(args + i, EXIT_ARG))
		_exit(0);
	if (i >= n || strcmp(args + i, READER_ARG))
		return;
	fd = open(args + i + strlen(READER_ARG) + 1, O_RDONLY);
	if (fd < 0)
		_exit(1);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	_exit(0);
}

/*
 * etw record --kernel with the tool's FileIo names: a program that reads
 * a known file gives a Create of its path, then one Read of that
 * FileObject whose OperationEnd moved the file's bytes.
 */
TEST_F(fileio, etw_record_names_the_flags)
{
	static struct fseen s;
	static const char data[] = "etw fileio record\n";
	char known[] = "/tmp/etwtest-fileio-cat-XXXXXX", cmd[1024], exe[512];
	uint64_t obj = 0;
	int fd, i, j, reads = 0;
	ssize_t len;

	if (access("/usr/bin/etw", X_OK))
		SKIP(return, "no /usr/bin/etw");
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, len);
	exe[len] = 0;
	fd = mkstemp(known);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(data), write(fd, data, strlen(data)));
	close(fd);
	unlink(FILEIO_ETL);
	snprintf(cmd, sizeof(cmd), "etw record --kernel fileio,fileioinit,filename "
		 "-o %s -- %s %s %s >/dev/null 2>&1", FILEIO_ETL, exe, READER_ARG,
		 known);
	EXPECT_EQ(0, etw_sh(cmd, NULL, 0));
	memset(&s, 0, sizeof(s));
	ASSERT_EQ(ERROR_SUCCESS, read_trace(&s));
	unlink(known);
	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.bad_what);
	for (i = 0; i < s.n; i++) {
		const struct fev *e = &s.ev[i];

		if (e->op == OP_CREATE && !strcmp(e->name, known))
			obj = e->obj;
		if (!obj || e->op != OP_READ || e->obj != obj)
			continue;
		/* Its OperationEnd: the next of its IrpPtr. */
		for (j = i + 1; j < s.n; j++)
			if (s.ev[j].irp == e->irp)
				break;
		if (j < s.n && s.ev[j].op == OP_OP_END &&
		    s.ev[j].extra == strlen(data))
			reads++;
	}
	EXPECT_NE(0, obj);
	EXPECT_EQ(1, reads);
}

/* Without a FileIo flag, no FileIo record. */
TEST_F(fileio, none_without_the_flags)
{
	static struct fseen s;
	CONTROLTRACE_ID id;
	struct kprops b;
	char buf[64];
	int fd;

	memset(&s, 0, sizeof(s));
	unlink(FILEIO_ETL);
	ASSERT_EQ(ERROR_SUCCESS,
		  StartTraceA(&id, KERNEL_LOGGER_NAMEA,
			      kernel_props(&b, EVENT_TRACE_FLAG_PROCESS,
					   FILEIO_ETL)));
	fd = open("/proc/self/status", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, read(fd, buf, sizeof(buf)));
	close(fd);
	ASSERT_EQ(ERROR_SUCCESS, StopTraceA(0, KERNEL_LOGGER_NAMEA,
					    kernel_props(&b, 0, NULL)));
	ASSERT_EQ(ERROR_SUCCESS, read_trace(&s));
	EXPECT_EQ(0, s.n);
}

TEST_HARNESS_MAIN
