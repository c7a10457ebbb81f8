// SPDX-License-Identifier: GPL-2.0
/*
 * fileio_test's 32-bit child (built -m32 -static, staged as
 * /usr/lib/etw-fileio-ops32): file operations through the ia32 system
 * calls whose 64-bit values come in halves (pread64, preadv with a
 * compat_iovec array, ftruncate64), in the directory argv[1]; it exits
 * with its file still open.  Exit status: 0, or the failing step.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[512], buf[100], a[4], b[6];
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct stat st;
	int fd, n;

	if (argc != 2)
		return 1;
	snprintf(path, sizeof(path), "%s/w", argv[1]);
	memset(buf, 'x', sizeof(buf));
	fd = open(path, O_CREAT | O_RDWR, 0600);
	if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf))
		return 2;
	if (pread(fd, buf, 10, 5) != 10 || preadv(fd, iov, 2, 20) != 10)
		return 3;
	if (ftruncate(fd, 50) || fstat(fd, &st) || ioctl(fd, FIONREAD, &n))
		return 4;
	if (unlink(path))
		return 5;
	return 0;
}
