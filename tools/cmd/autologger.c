// SPDX-License-Identifier: GPL-2.0
/*
 * etw autologger: sessions started at boot from /etc/etw/autologger.d,
 * as Windows' AutoLogger key (logman create trace autosession\NAME,
 * tracelog -addautologger).  start and stop go through libetw's
 * StartTrace, EnableTraceEx2 and ControlTrace, so that a file's values
 * are refused exactly as a Windows controller's would be; each start's
 * Win32 code is the session's Status (Documentation/autologger.rst).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <windows.h>
#include <evntrace.h>
#include <etw_logger.h>

#include "autologger/config.h"
#include "autologger/status.h"
#include "ctl.h"
#include "etw.h"

static const char usage_text[] =
	"usage: etw autologger add NAME [options]\n"
	"       etw autologger remove NAME\n"
	"       etw autologger list\n"
	"       etw autologger show NAME\n"
	"       etw autologger start [--early] [NAME...]\n"
	"       etw autologger stop [NAME...]\n"
	"       etw autologger flush [NAME...]\n\n"
	"Sessions started at boot (Windows' AutoLogger): one file per session,\n"
	"" AL_CONF_DIR "/NAME.conf, with the registry key's value names.\n"
	"start starts every Start=1 session (or those named) and writes each\n"
	"one's Status; --early puts a file that is not under /run in\n"
	"" AL_RUN_DIR " until flush moves it to its FileName (systemd runs\n"
	"start --early before /var is writable, flush once it is).  stop stops\n"
	"them.  add writes a file (as logman create trace autosession\\NAME):\n\n"
	"  -g, --guid GUID        the session's Guid (default: a new one)\n"
	"  -o, --output FILE      FileName (default " AL_LOG_DIR "/NAME.etl)\n"
	"  -b, --buffer-size KB   BufferSize\n"
	"  -m, --min-buffers N    MinimumBuffers\n"
	"  -M, --max-buffers N    MaximumBuffers\n"
	"  -f, --flush-timer S    FlushTimer\n"
	"  -c, --clock N          ClockType (1 QPC, 2 system time, 3 CPU cycles)\n"
	"  -L, --mode MODE        LogFileMode (a number)\n"
	"  -r, --real-time        LogFileMode |= EVENT_TRACE_REAL_TIME_MODE\n"
	"      --buffering        LogFileMode = EVENT_TRACE_BUFFERING_MODE\n"
	"      --circular         LogFileMode |= EVENT_TRACE_FILE_MODE_CIRCULAR\n"
	"      --append           LogFileMode |= EVENT_TRACE_FILE_MODE_APPEND\n"
	"  -n, --file-max N       FileMax: NAME.etl.0001 .. NNNN in turn (<= 16)\n"
	"  -s, --max-size MB      MaxFileSize\n"
	"  -k, --kernel FLAGS     EnableKernelFlags (a system logger: process,\n"
	"                         thread, image, cswitch, disk, file, profile...)\n"
	"  -p, --provider P[:LEVEL[:KEYWORDS]]  a [Provider] section (GUID or name)\n"
	"  -K, --all-keyword K    MatchAllKeyword of the last -p\n"
	"  -P, --property LIST    EnableProperty of the last -p (sid, ts-id, stack...)\n"
	"  -F, --flags N          EnableFlags of the last -p (a classic provider)\n"
	"      --no-start         Start=0 (kept, not started at boot)\n"
	"      --force            replace NAME.conf\n"
	"  -h, --help             this text\n\n"
	"ETW_AUTOLOGGER_DIR, ETW_AUTOLOGGER_RUN and ETW_AUTOLOGGER_STATE replace\n"
	"" AL_CONF_DIR ", " AL_RUN_DIR " and " AL_STATE_DIR ".\n";

static const char *conf_dir(void)
{
	const char *d = getenv("ETW_AUTOLOGGER_DIR");

	return d && *d ? d : AL_CONF_DIR;
}

static int conf_path(const char *name, char *out, size_t size)
{
	if (!*name || strchr(name, '/') || strlen(name) >= AL_NAME_MAX)
		return etw_error("autologger: '%s' is not a session name (1 to %d bytes, no '/')",
				 name, AL_NAME_MAX - 1);
	snprintf(out, size, "%s/%s.conf", conf_dir(), name);
	return 0;
}

static int read_conf(const char *name, struct al_config *c)
{
	char path[PATH_MAX], err[PATH_MAX + 256];

	if (conf_path(name, path, sizeof(path)))
		return 1;
	if (access(path, F_OK))
		return etw_error("autologger: %s: no such AutoLogger (%s)", name, path);
	if (al_config_read(path, c, err, sizeof(err)))
		return etw_error("autologger: %s", err);
	return 0;
}

/* Every NAME.conf of the folder, sorted; the count, or -1. */
static int conf_names(struct dirent ***list)
{
	int n = scandir(conf_dir(), list, NULL, alphasort);
	int i, j = 0;

	if (n < 0) {
		if (errno == ENOENT) {
			*list = NULL;
			return 0;
		}
		return etw_error("autologger: %s: %s", conf_dir(), strerror(errno)) - 2;
	}
	for (i = 0; i < n; i++) {
		char *dot = strrchr((*list)[i]->d_name, '.');

		if ((*list)[i]->d_name[0] != '.' && dot && !strcmp(dot, ".conf")) {
			*dot = '\0';
			(*list)[j++] = (*list)[i];
		} else {
			free((*list)[i]);
		}
	}
	return j;
}

static void free_names(struct dirent **list, int n)
{
	while (n > 0)
		free(list[--n]);
	free(list);
}

struct props {
	EVENT_TRACE_PROPERTIES p;
	char logger[1024];
	char file[PATH_MAX];
};

static void props_init(struct props *b)
{
	memset(b, 0, sizeof(*b));
	b->p.Wnode.BufferSize = sizeof(*b);
	b->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	b->p.LoggerNameOffset = offsetof(struct props, logger);
	b->p.LogFileNameOffset = offsetof(struct props, file);
}

/* Is NAME running?  Its properties in @b if so. */
static bool running(const char *name, struct props *b)
{
	props_init(b);
	return !ControlTraceA(0, name, &b->p, EVENT_TRACE_CONTROL_QUERY);
}

static int mkdirs(const char *dir)
{
	char buf[PATH_MAX], *s;

	if (strlen(dir) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, dir);
	for (s = buf + 1; ; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*s = c;
		if (!c)
			return 0;
	}
}

static int mkdirs_of(const char *file)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	return mkdirs(dir);
}

/* Where the session's file goes: FileName, or its next numbered file. */
static int final_file(const struct al_config *c, char *out, size_t size)
{
	char base[600];
	unsigned int counter;

	al_config_file(c, base, sizeof(base));
	if (!c->file_max) {
		snprintf(out, size, "%s", base);
		return 0;
	}
	counter = al_file_counter_next(c->name, c->file_max);
	if (!counter)
		return -1;
	snprintf(out, size, "%s.%04u", base, counter);
	return 0;
}

static bool has_logger(unsigned int id);

/*
 * A session of that name runs without a logger: the Global Logger etw.ko
 * started at load (its autologger parameter), its buffers in memory.
 * Claim it: a logger writes them, and all that follows, to the file.
 */
static ULONG claim(const struct al_config *c, struct props *b, const struct al_status *st,
		   CONTROLTRACE_ID *h)
{
	struct etw_logger_args la = { 0 };
	struct etw_session_info info;
	struct props q;
	pid_t pid;
	int ret, fd;

	fd = ctl_open("autologger");
	if (fd < 0)
		return ERROR_ALREADY_EXISTS;
	ret = ctl_query(fd, c->name, ETW_CONTROL_QUERY, &info);
	close(fd);
	if (ret || !running(c->name, &q) || !*st->file ||
	    !(info.log_file_mode & (ETW_MODE_FILE_SEQUENTIAL | ETW_MODE_FILE_CIRCULAR)) ||
	    has_logger(info.logger_id))
		return ERROR_ALREADY_EXISTS;
	la.logger_id = info.logger_id;
	la.path = st->file;
	la.max_file_size = b->p.MaximumFileSize;
	ret = etw_logger_spawn(&la, &pid);
	if (ret)
		return ret == -EBUSY ? ERROR_ALREADY_EXISTS : ERROR_PATH_NOT_FOUND;
	*h = q.p.Wnode.HistoricalContext;
	printf("%s: claimed the session etw.ko started\n", c->name);
	return ERROR_SUCCESS;
}

/* Start one AutoLogger: StartTrace, then EnableTraceEx2 per provider. */
static int start_one(const struct al_config *c, bool early)
{
	struct al_status st = { 0 };
	char final[PATH_MAX];
	ENABLE_TRACE_PARAMETERS ep;
	CONTROLTRACE_ID h = 0;
	struct props b;
	unsigned int i, failed = 0;
	ULONG err;

	props_init(&b);
	memcpy(&b.p.Wnode.Guid, c->guid, 16);
	b.p.Wnode.ClientContext = c->clock_type;
	b.p.BufferSize = c->buffer_size;
	b.p.MinimumBuffers = c->min_buffers;
	b.p.MaximumBuffers = c->max_buffers;
	b.p.FlushTimer = c->flush_timer;
	b.p.LogFileMode = c->log_file_mode;
	b.p.EnableFlags = c->kernel_flags;
	if (al_config_no_file(c)) {
		b.p.LogFileNameOffset = 0;
	} else {
		if (!(c->log_file_mode & (EVENT_TRACE_FILE_MODE_SEQUENTIAL |
					  EVENT_TRACE_FILE_MODE_CIRCULAR |
					  EVENT_TRACE_FILE_MODE_APPEND)))
			b.p.LogFileMode |= EVENT_TRACE_FILE_MODE_SEQUENTIAL;
		/* Windows' default MaxFileSize: 100 MB. */
		b.p.MaximumFileSize = c->has_size ? c->max_file_size : 100;
		al_config_file(c, final, sizeof(final));
		if (early && strncmp(final, "/run/", 5)) {
			/* Not yet where it goes: flush moves it when /var is there. */
			snprintf(st.target, sizeof(st.target), "%s", final);
			snprintf(st.file, sizeof(st.file), "%s/%s.etl", al_run_dir(), c->name);
		} else if (final_file(c, st.file, sizeof(st.file))) {
			return etw_error("autologger: %s: cannot keep its FileCounter in %s",
					 c->name, al_state_dir());
		}
		mkdirs_of(st.file);
		snprintf(b.file, sizeof(b.file), "%s", st.file);
	}
	err = StartTraceA(&h, c->name, &b.p);
	if (err == ERROR_ALREADY_EXISTS)
		err = claim(c, &b, &st, &h);
	st.status = err;
	if (err)
		st.target[0] = '\0';	/* nothing for flush to move */
	if (!err) {
		for (i = 0; i < c->nprov; i++) {
			const struct al_provider *p = &c->prov[i];
			ULONG e;

			if (!p->enabled)
				continue;
			memset(&ep, 0, sizeof(ep));
			ep.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
			ep.EnableProperty = p->property;
			/* A classic provider's EnableFlags are its MatchAnyKeyword. */
			e = EnableTraceEx2(h, (const GUID *)p->guid,
					   EVENT_CONTROL_CODE_ENABLE_PROVIDER, p->level,
					   p->has_any ? p->match_any : p->flags, p->match_all,
					   0, &ep);
			if (e) {
				ctl_fail_win32("autologger", p->spec, e, NULL);
				al_status_provider(&st, p->spec, e);
				failed++;
			}
		}
		if (c->kernel_flags & ETW_KFLAG_PROFILE) {
			int fd = ctl_open("autologger");
			struct etw_session_info info;

			if (fd >= 0 && !ctl_query(fd, c->name, ETW_CONTROL_QUERY, &info) &&
			    ctl_kernel_stacks(fd, info.logger_id, c->kernel_flags))
				etw_error("autologger: %s: no stacks on samples", c->name);
			if (fd >= 0)
				close(fd);
		}
	}
	if (al_status_write(c->name, &st))
		etw_error("autologger: %s: cannot write its Status in %s: %s", c->name,
			  al_run_dir(), strerror(errno));
	if (err)
		return ctl_fail_win32("autologger", c->name, err, NULL);
	printf("%s: started%s%s%s\n", c->name, *st.file ? ", " : "", st.file,
	       *st.target ? " (until flush)" : "");
	return failed ? 1 : 0;
}

static int cmd_start_all(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "early", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct dirent **list;
	struct al_config c;
	bool early = false;
	int i, n, ret = 0, opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'e')
			early = true;
		else if (opt == 'h')
			return fputs(usage_text, stdout) < 0;
		else
			return 2;
	}
	if (optind < argc) {
		for (i = optind; i < argc; i++)
			ret |= read_conf(argv[i], &c) ? 1 : start_one(&c, early);
		return ret;
	}
	n = conf_names(&list);
	if (n < 0)
		return 1;
	for (i = 0; i < n; i++) {
		if (read_conf(list[i]->d_name, &c)) {
			struct al_status st = { .status = ERROR_INVALID_DATA };

			/* A file it cannot read: its Status says so, the others start. */
			al_status_write(list[i]->d_name, &st);
			ret = 1;
			continue;
		}
		if (c.start)
			ret |= start_one(&c, early);
	}
	free_names(list, n);
	return ret;
}

/* A file from /run to /var: rename, or copy and unlink across mounts. */
static int move_file(const char *from, const char *to)
{
	char buf[1 << 16];
	ssize_t r;
	int in, out, ret = 0;

	if (mkdirs_of(to))
		return -errno;
	if (!rename(from, to))
		return 0;
	if (errno != EXDEV)
		return -errno;
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		ret = -errno;
		close(in);
		return ret;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, r) != r) {
			ret = -EIO;
			break;
		}
	if (r < 0)
		ret = -errno;
	close(in);
	if (close(out) && !ret)
		ret = -errno;
	if (ret)
		unlink(to);
	else
		unlink(from);
	return ret;
}

/* Is @pid gone (or a zombie nobody reaped yet)? */
static bool gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return !p || p[2] == 'Z' || p[2] == 'X';
}

static bool kill_wait(pid_t pid)
{
	int i;

	if (kill(pid, SIGKILL) && errno == ESRCH)
		return true;
	for (i = 0; i < 1000 && !gone(pid); i++)
		usleep(10000);
	return gone(pid);
}

/* The parent of @pid, if it runs `etw logger --id @want`; else -1. */
static pid_t logger_parent(pid_t pid, const char *want)
{
	char path[64], buf[512], *p;
	const char *a[4];
	size_t n, i;
	int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	a[0] = buf;
	for (i = 1; i < 4; i++)
		a[i] = a[i - 1] + strlen(a[i - 1]) + (a[i - 1] < buf + n);
	if (strcmp(a[1], "logger") || strcmp(a[2], "--id") || strcmp(a[3], want) || gone(pid))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	if (!p || sscanf(p + 2, "%*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

static bool has_logger(unsigned int id)
{
	char want[16];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(want, sizeof(want), "%u", id);
	d = opendir("/proc");
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		pid_t pid = atoi(de->d_name);

		found = pid > 0 && logger_parent(pid, want) >= 0;
	}
	closedir(d);
	return found;
}

/*
 * End the loggers of session @id (`etw logger --id ID`: a supervisor and
 * its writer), the supervisor first so that it starts no writer again;
 * true when none is left.
 */
static bool end_loggers(unsigned int id)
{
	pid_t pids[16], parents[16];
	char want[16];
	struct dirent *de;
	int pass, n, i, j;
	DIR *d;

	snprintf(want, sizeof(want), "%u", id);
	for (pass = 0; pass < 10; pass++) {
		d = opendir("/proc");
		if (!d)
			return false;
		n = 0;
		while ((de = readdir(d)) && n < 16) {
			pid_t pid = atoi(de->d_name);

			if (pid > 0 && pid != getpid() && (parents[n] = logger_parent(pid, want)) >= 0)
				pids[n++] = pid;
		}
		closedir(d);
		if (!n)
			return true;
		/* Those whose parent is no logger of the session: the supervisors. */
		for (i = 0; i < n; i++) {
			for (j = 0; j < n && pids[j] != parents[i]; j++)
				;
			if (j == n)
				kill_wait(pids[i]);
		}
	}
	return false;
}

/*
 * Move a session's file from /run to its FileName while it runs: its
 * logger is ended (the kernel takes back the buffers it held and keeps
 * the new ones), the file moved, and a logger started that resumes the
 * moved file, as a killed logger's successor does (Documentation/logger.rst).
 */
static int flush_one(const char *name)
{
	struct al_config c;
	struct al_status st;
	struct etw_logger_args la = { 0 };
	struct etw_session_info info;
	char dst[PATH_MAX];
	struct props b;
	pid_t pid;
	int ret, i, fd;

	if (al_status_read(name, &st) || !*st.target)
		return 0;	/* nothing waits in /run */
	if (read_conf(name, &c))
		return 1;
	if (final_file(&c, dst, sizeof(dst)))
		return etw_error("autologger: %s: cannot keep its FileCounter in %s",
				 name, al_state_dir());
	if (!running(name, &b)) {
		ret = move_file(st.file, dst);
		if (ret)
			return etw_error("autologger: %s: moving %s to %s: %s", name, st.file,
					 dst, strerror(-ret));
		goto moved;
	}
	fd = ctl_open("autologger");
	if (fd < 0)
		return 1;
	ret = ctl_query(fd, name, ETW_CONTROL_QUERY, &info);
	close(fd);
	if (ret)
		return ctl_fail("autologger", name, ret);
	if (!end_loggers(info.logger_id))
		return etw_error("autologger: %s: its logger does not end", name);
	ret = move_file(st.file, dst);
	if (ret) {
		etw_error("autologger: %s: moving %s to %s: %s; it goes on in %s", name,
			  st.file, dst, strerror(-ret), st.file);
		snprintf(dst, sizeof(dst), "%s", st.file);
	}
	la.logger_id = info.logger_id;
	la.path = dst;
	la.resume = 1;
	la.max_file_size = b.p.MaximumFileSize;
	/* The old logger's consumer may take a moment to be released. */
	for (i = 0; i < 100; i++) {
		ret = etw_logger_spawn(&la, &pid);
		if (ret != -EBUSY)
			break;
		usleep(20000);
	}
	if (ret)
		return etw_error("autologger: %s: no logger for %s: %s", name, dst, strerror(-ret));
moved:
	snprintf(st.file, sizeof(st.file), "%s", dst);
	st.target[0] = '\0';
	if (al_status_write(name, &st))
		etw_error("autologger: %s: cannot write its Status: %s", name, strerror(errno));
	printf("%s: %s\n", name, dst);
	return 0;
}

/* stop: ControlTrace STOP; a file still in /run is moved then. */
static int stop_one(const char *name, bool quiet)
{
	struct al_status st;
	struct props b;
	ULONG err;

	/* Every AutoLogger: those that run. */
	if (quiet && !running(name, &b))
		return 0;
	props_init(&b);
	err = ControlTraceA(0, name, &b.p, EVENT_TRACE_CONTROL_STOP);
	/* Windows' answer for a session that cannot exist, and why. */
	if (err == ERROR_WMI_INSTANCE_NOT_FOUND && ctl_module_missing())
		return ctl_fail_win32("autologger", name, err,
				      "no such session: etw.ko is not loaded; load it with 'modprobe etw'");
	if (err)
		return ctl_fail_win32("autologger", name, err, NULL);
	printf("%s: stopped, %u events lost\n", name, (unsigned int)b.p.EventsLost);
	if (!al_status_read(name, &st) && *st.target)
		return flush_one(name);
	return 0;
}

static int for_each(int argc, char **argv, int (*fn)(const char *name, bool quiet))
{
	struct dirent **list;
	int i, n, ret = 0;

	if (etw_wants_help(argc, argv))
		return fputs(usage_text, stdout) < 0;
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			ret |= fn(argv[i], false);
		return ret;
	}
	n = conf_names(&list);
	if (n < 0)
		return 1;
	for (i = 0; i < n; i++)
		ret |= fn(list[i]->d_name, true);
	free_names(list, n);
	return ret;
}

static int flush_named(const char *name, bool quiet)
{
	(void)quiet;
	return flush_one(name);
}

static void print_status(const char *name)
{
	struct al_status st;
	struct props b;
	const char *ename;

	if (al_status_read(name, &st)) {
		printf("# Status: not started since boot\n");
	} else {
		ename = win32_error_name(st.status);
		printf("# Status=%u%s%s\n", st.status, ename ? " " : "", ename ? ename : "");
		if (*st.file)
			printf("# file: %s%s%s\n", st.file, *st.target ? ", until flush; then " : "",
			       st.target);
		if (*st.providers)
			printf("# %s\n", st.providers);
	}
	printf("# %s\n", running(name, &b) ? "running" : "not running");
}

static int cmd_show(int argc, char **argv)
{
	struct al_config c;

	if (etw_wants_help(argc, argv))
		return fputs(usage_text, stdout) < 0;
	if (argc != 2) {
		fputs("usage: etw autologger show NAME\n", stderr);
		return 2;
	}
	if (read_conf(argv[1], &c))
		return 1;
	al_config_write(stdout, &c);
	print_status(argv[1]);
	return 0;
}

static int cmd_list_all(int argc, char **argv)
{
	struct dirent **list;
	struct al_config c;
	struct al_status st;
	struct props b;
	char err[PATH_MAX + 256], path[PATH_MAX], file[600];
	int i, n;

	if (etw_wants_help(argc, argv))
		return fputs(usage_text, stdout) < 0;
	if (argc != 1) {
		fputs("usage: etw autologger list\n", stderr);
		return 2;
	}
	n = conf_names(&list);
	if (n < 0)
		return 1;
	printf("%-24s %-5s %-7s %-8s %s\n", "name", "Start", "Status", "running", "FileName");
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		char code[16] = "-";

		if (!al_status_read(name, &st))
			snprintf(code, sizeof(code), "%u", st.status);
		snprintf(path, sizeof(path), "%s/%s.conf", conf_dir(), name);
		if (al_config_read(path, &c, err, sizeof(err))) {
			printf("%-24s %-5s %-7s %-8s %s\n", name, "?", code, "?", err);
			continue;
		}
		if (al_config_no_file(&c))
			strcpy(file, "(none)");
		else
			al_config_file(&c, file, sizeof(file));
		printf("%-24s %-5d %-7s %-8s %s\n", name, c.start, code,
		       running(name, &b) ? "yes" : "no", file);
	}
	printf("%d AutoLogger%s\n", n, n == 1 ? "" : "s");
	free_names(list, n);
	return 0;
}

static int cmd_remove(int argc, char **argv)
{
	char path[PATH_MAX];

	if (etw_wants_help(argc, argv))
		return fputs(usage_text, stdout) < 0;
	if (argc != 2) {
		fputs("usage: etw autologger remove NAME\n", stderr);
		return 2;
	}
	if (conf_path(argv[1], path, sizeof(path)))
		return 1;
	if (unlink(path))
		return etw_error("autologger: %s: %s", path,
				 errno == ENOENT ? "no such AutoLogger" : strerror(errno));
	al_status_remove(argv[1]);
	return 0;
}

/* A random (version 4) GUID for a session that names none, as logman does. */
static int new_guid(unsigned char g[16])
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, g, 16);
	close(fd);
	if (n != 16)
		return -1;
	g[7] = (g[7] & 0x0f) | 0x40;	/* Data3's high nibble: version 4 */
	g[8] = (g[8] & 0x3f) | 0x80;
	return 0;
}

static int add_provider(struct al_config *c, const char *arg)
{
	struct al_provider *p;
	char buf[256], *level, *kw;
	uint64_t v;

	if (c->nprov == AL_MAX_PROVIDERS || strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	level = strchr(buf, ':');
	kw = NULL;
	if (level) {
		*level++ = '\0';
		kw = strchr(level, ':');
		if (kw)
			*kw++ = '\0';
	}
	p = &c->prov[c->nprov];
	memset(p, 0, sizeof(*p));
	if (strlen(buf) >= sizeof(p->spec) || ctl_parse_provider(buf, p->guid))
		return -1;
	strcpy(p->spec, buf);
	p->enabled = true;
	if (level && *level) {
		if (al_number(level, 255, &v))
			return -1;
		p->level = v;
	}
	if (kw && *kw) {
		if (al_number(kw, UINT64_MAX, &p->match_any))
			return -1;
		p->has_any = true;
	}
	c->nprov++;
	return 0;
}

static int cmd_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "guid", required_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "min-buffers", required_argument, NULL, 'm' },
		{ "max-buffers", required_argument, NULL, 'M' },
		{ "flush-timer", required_argument, NULL, 'f' },
		{ "clock", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'L' },
		{ "real-time", no_argument, NULL, 'r' },
		{ "buffering", no_argument, NULL, 'B' },
		{ "circular", no_argument, NULL, 'C' },
		{ "append", no_argument, NULL, 'A' },
		{ "file-max", required_argument, NULL, 'n' },
		{ "max-size", required_argument, NULL, 's' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "provider", required_argument, NULL, 'p' },
		{ "all-keyword", required_argument, NULL, 'K' },
		{ "property", required_argument, NULL, 'P' },
		{ "flags", required_argument, NULL, 'F' },
		{ "no-start", no_argument, NULL, 'S' },
		{ "force", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char path[PATH_MAX], tmp[PATH_MAX + 8], err[PATH_MAX + 256];
	struct al_config c, check;
	struct al_provider *last;
	char *text = NULL;
	size_t len = 0;
	bool force = false;
	uint64_t v;
	FILE *f;
	int opt;

	memset(&c, 0, sizeof(c));
	c.start = true;
	while ((opt = getopt_long(argc, argv, "g:o:b:m:M:f:c:L:rn:s:k:p:K:P:F:h", opts, NULL)) != -1) {
		last = c.nprov ? &c.prov[c.nprov - 1] : NULL;
		switch (opt) {
		case 'h':
			return fputs(usage_text, stdout) < 0;
		case 'g':
			if (ctl_parse_guid(optarg, c.guid))
				return etw_error("autologger: add: '%s' is not a GUID", optarg);
			c.has_guid = true;
			continue;
		case 'o':
			if (strlen(optarg) >= sizeof(c.file_name) ||
			    etw_logger_full_path(optarg, c.file_name, sizeof(c.file_name)))
				return etw_error("autologger: add: %s: the name is too long", optarg);
			c.has_file = true;
			continue;
		case 'r':
			c.log_file_mode |= EVENT_TRACE_REAL_TIME_MODE;
			c.has_mode = true;
			continue;
		case 'B':
			c.log_file_mode |= EVENT_TRACE_BUFFERING_MODE;
			c.has_mode = true;
			continue;
		case 'C':
			c.log_file_mode |= EVENT_TRACE_FILE_MODE_CIRCULAR;
			c.has_mode = true;
			continue;
		case 'A':
			c.log_file_mode |= EVENT_TRACE_FILE_MODE_APPEND;
			c.has_mode = true;
			continue;
		case 'k':
			if (ctl_parse_kernel_flags(optarg, &c.kernel_flags))
				return etw_error("autologger: add: bad kernel flags '%s'", optarg);
			c.log_file_mode |= EVENT_TRACE_SYSTEM_LOGGER_MODE;
			c.has_mode = true;
			continue;
		case 'p':
			if (add_provider(&c, optarg))
				return etw_error("autologger: add: '%s' is not PROVIDER[:LEVEL[:KEYWORDS]]",
						 optarg);
			continue;
		case 'P':
			if (!last)
				return etw_error("autologger: add: --property follows a -p");
			if (ctl_parse_properties(optarg, &last->property))
				return etw_error("autologger: add: bad --property '%s'", optarg);
			continue;
		case 'S':
			c.start = false;
			continue;
		case 'x':
			force = true;
			continue;
		case '?':
			return 2;
		}
		if (al_number(optarg, opt == 'K' ? UINT64_MAX : 0xffffffff, &v))
			return etw_error("autologger: add: bad number '%s' for --%s", optarg,
					 opt == 'K' ? "all-keyword" : opt == 'F' ? "flags" : "option");
		switch (opt) {
		case 'b':
			c.buffer_size = v;
			break;
		case 'm':
			c.min_buffers = v;
			break;
		case 'M':
			c.max_buffers = v;
			break;
		case 'f':
			c.flush_timer = v;
			break;
		case 'c':
			c.clock_type = v;
			break;
		case 'L':
			c.log_file_mode |= v;
			c.has_mode = true;
			break;
		case 'n':
			c.file_max = v;
			break;
		case 's':
			c.max_file_size = v;
			c.has_size = true;
			break;
		case 'K':
		case 'F':
			if (!last)
				return etw_error("autologger: add: --%s follows a -p",
						 opt == 'K' ? "all-keyword" : "flags");
			if (opt == 'K') {
				last->match_all = v;
			} else {
				last->flags = v;
				last->has_flags = true;
			}
			break;
		}
	}
	if (optind + 1 != argc) {
		fputs("usage: etw autologger add NAME [options] (see --help)\n", stderr);
		return 2;
	}
	if (conf_path(argv[optind], path, sizeof(path)))
		return 1;
	if (!force && !access(path, F_OK))
		return ctl_fail_win32("autologger", argv[optind], ERROR_ALREADY_EXISTS,
				      "the AutoLogger exists (--force replaces it)");
	if (!c.has_guid && new_guid(c.guid))
		return etw_error("autologger: add: no random GUID: %s", strerror(errno));
	c.has_guid = true;
	snprintf(c.name, sizeof(c.name), "%s", argv[optind]);
	/* The file is what is checked: the parser's rules, nothing apart. */
	f = open_memstream(&text, &len);
	if (!f)
		return etw_error("autologger: add: %s", strerror(errno));
	al_config_write(f, &c);
	fclose(f);
	if (al_config_parse(path, text, &check, err, sizeof(err))) {
		free(text);
		return etw_error("autologger: add: %s", strchr(err, ' ') ? strchr(err, ' ') + 1 : err);
	}
	if (mkdirs(conf_dir())) {
		free(text);
		return etw_error("autologger: add: %s: %s", conf_dir(), strerror(errno));
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
		int e = errno;

		free(text);
		unlink(tmp);
		return etw_error("autologger: add: %s: %s", path, strerror(e));
	}
	free(text);
	printf("%s\n", path);
	return 0;
}

int cmd_autologger(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help"))
		return fputs(usage_text, stdout) < 0;
	if (!strcmp(sub, "add"))
		return cmd_add(argc - 1, argv + 1);
	if (!strcmp(sub, "remove"))
		return cmd_remove(argc - 1, argv + 1);
	if (!strcmp(sub, "list"))
		return cmd_list_all(argc - 1, argv + 1);
	if (!strcmp(sub, "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(sub, "start"))
		return cmd_start_all(argc - 1, argv + 1);
	if (!strcmp(sub, "stop"))
		return for_each(argc - 1, argv + 1, stop_one);
	if (!strcmp(sub, "flush"))
		return for_each(argc - 1, argv + 1, flush_named);
	etw_error("autologger: '%s' is not add, remove, list, show, start, stop or flush", sub);
	return 2;
}
