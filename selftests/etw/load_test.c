// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and unloading etw.ko: 100 cycles without leaks, and no unload
 * while the device is open.  Needs root and ETW_MODULE (the path of etw.ko,
 * set by the VM's init); leaves the module loaded as it found it.
 *
 * Leaks are caught twice: the module's objects come from its own slab
 * caches, and with slub_debug the kernel reports any object left in a
 * cache when rmmod destroys it (the VM runner fails on that report); and
 * the kernel's Slab + VmallocUsed + Percpu must not grow across the cycles.
 * On make check-debug's kernel (ETW_DEBUG_KERNEL, set by the VM's init)
 * freed objects wait in KASAN's quarantine and count as Slab; shrinking
 * every slab cache empties it before each measurement, so the same budget
 * holds there (and kmemleak checks the objects one by one).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "etw_kmod.h"

#define CYCLES 100
/* Growth allowed over all cycles: allocator noise, not 10 KiB per cycle. */
#define LEAK_BUDGET_KB 1024

/* Kernel memory that a leaking module would grow, in KiB. */
static long kernel_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long sum = 0, kb;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld", &kb) == 1 ||
		    sscanf(line, "VmallocUsed: %ld", &kb) == 1 ||
		    sscanf(line, "Percpu: %ld", &kb) == 1)
			sum += kb;
	fclose(f);
	return sum;
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "3", 1) < 0)
			perror("drop_caches");
		close(fd);
	}
}

/* Empty KASAN's quarantine: kmem_cache_shrink() drains a cache's share. */
static void shrink_slabs(void)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	char path[300];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		etw_write_file(path, "1");
	}
	closedir(d);
}

static void settle_memory(void)
{
	drop_caches();
	if (getenv("ETW_DEBUG_KERNEL"))
		shrink_slabs();
}

/* Exercise the device the way a user would between load and unload. */
static int use_device(void)
{
	struct etw_version v = { .size = sizeof(v) };
	int fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = etw_ioctl_err(fd, ETW_IOC_VERSION, &v);
	close(fd);
	return ret;
}

FIXTURE(module)
{
	const char *path;
};

FIXTURE_SETUP(module)
{
	self->path = getenv("ETW_MODULE");
	if (!self->path || geteuid() != 0)
		SKIP(return, "needs root and ETW_MODULE=<path of etw.ko>");
	if (!etw_module_loaded())
		ASSERT_EQ(0, etw_module_load(self->path));
}

FIXTURE_TEARDOWN(module)
{
	if (self->path && !etw_module_loaded())
		etw_module_load(self->path);
}

TEST_F_TIMEOUT(module, load_unload_100, 600)
{
	long before, after;
	int i;

	/* One warm-up cycle so first-time allocations are not counted. */
	ASSERT_EQ(0, etw_module_unload());
	ASSERT_EQ(0, etw_module_load(self->path));
	ASSERT_EQ(0, use_device());
	ASSERT_EQ(0, etw_module_unload());
	settle_memory();
	before = kernel_kb();
	ASSERT_LT(0, before);

	for (i = 0; i < CYCLES; i++) {
		ASSERT_EQ(0, etw_module_load(self->path)) TH_LOG("load %d", i);
		ASSERT_TRUE(etw_module_loaded());
		ASSERT_EQ(0, use_device()) TH_LOG("use %d", i);
		ASSERT_EQ(0, etw_module_unload()) TH_LOG("unload %d", i);
		ASSERT_FALSE(etw_module_loaded());
		/* The device node goes with the module. */
		ASSERT_NE(0, access(ETW_DEV, F_OK));
	}

	settle_memory();
	after = kernel_kb();
	TH_LOG("kernel memory %ld KiB before, %ld KiB after %d cycles", before,
	       after, CYCLES);
	EXPECT_LT(after - before, LEAK_BUDGET_KB);
	ASSERT_EQ(0, etw_module_load(self->path));
}

TEST_F(module, no_unload_while_open)
{
	struct etw_version v = { .size = sizeof(v) };
	int fd = open(ETW_DEV, O_RDWR | O_CLOEXEC);
	int ret;

	ASSERT_LE(0, fd);
	ret = etw_module_unload();
	EXPECT_TRUE(ret == -EWOULDBLOCK || ret == -EBUSY) TH_LOG("unload: %d", ret);
	EXPECT_TRUE(etw_module_loaded());
	/* The open file still works. */
	EXPECT_EQ(0, etw_ioctl_err(fd, ETW_IOC_VERSION, &v));
	close(fd);
	EXPECT_EQ(0, etw_module_unload());
	EXPECT_EQ(0, etw_module_load(self->path));
}

TEST_F(module, double_load_is_eexist)
{
	ASSERT_TRUE(etw_module_loaded());
	EXPECT_EQ(-EEXIST, etw_module_load(self->path));
}

TEST_HARNESS_MAIN
