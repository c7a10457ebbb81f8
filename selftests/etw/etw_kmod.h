/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module itself, from a selftest: load and unload etw.ko, and read and
 * write files such as its parameters (/sys/module/etw/parameters/) or a
 * CPU's online switch.  Every function returns 0 or a negative errno.
 */
#ifndef ETW_KMOD_H
#define ETW_KMOD_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ETW_PARAM(name)	"/sys/module/etw/parameters/" name

/* Load etw.ko with the parameters @args ("name=value ..."). */
static inline int etw_module_load_args(const char *path, const char *args)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, args, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/* Load etw.ko as the VM's init did: with ETW_MODULE_ARGS, if set. */
static inline int etw_module_load(const char *path)
{
	const char *args = getenv("ETW_MODULE_ARGS");

	return etw_module_load_args(path, args ? args : "");
}

static inline int etw_module_unload(void)
{
	return syscall(SYS_delete_module, "etw", O_NONBLOCK) ? -errno : 0;
}

static inline bool etw_module_loaded(void)
{
	struct stat st;

	return stat("/sys/module/etw", &st) == 0;
}

static inline int etw_write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The file's content, NUL-terminated, in @buf of @len bytes. */
static inline int etw_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

#endif /* ETW_KMOD_H */
