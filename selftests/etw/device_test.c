// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/etw itself: the node, the version ioctl and the argument checks that
 * every ioctl shares (unknown command, flags, reserved fields, sizes, bad
 * and short user buffers).  Also built 32-bit to cover compat_ioctl.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"

TEST(device_node)
{
	unsigned int major, minor;
	struct stat st;
	FILE *f;

	if (stat(ETW_DEV, &st) && !getenv("ETW_MODULE"))
		SKIP(return, "etw.ko not loaded");
	ASSERT_EQ(0, stat(ETW_DEV, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	/* Documented: root:root 0666 (Documentation/admin-guide.rst). */
	EXPECT_EQ(0666, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(0, st.st_gid);

	/* It is the misc device the module registered, not a stale node. */
	f = fopen("/sys/class/misc/" ETW_DEVICE_NAME "/dev", "r");
	ASSERT_TRUE(f != NULL);
	ASSERT_EQ(2, fscanf(f, "%u:%u", &major, &minor));
	fclose(f);
	EXPECT_EQ(major, major(st.st_rdev));
	EXPECT_EQ(minor, minor(st.st_rdev));
}

FIXTURE(dev)
{
	int fd;
	struct etw_version v;
};

FIXTURE_SETUP(dev)
{
	self->fd = etw_open_or_skip(_metadata);
	memset(&self->v, 0, sizeof(self->v));
	self->v.size = sizeof(self->v);
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(dev, version)
{
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &self->v));
	EXPECT_EQ(ETW_ABI_MAJOR, self->v.abi_major);
	EXPECT_EQ(ETW_ABI_MINOR, self->v.abi_minor);
	EXPECT_EQ(64, self->v.max_sessions);
	EXPECT_EQ(8, self->v.max_sessions_per_provider);
	EXPECT_EQ(0, self->v.features & ~ETW_FEATURE_MASK);
	/* In-fields come back as they went in. */
	EXPECT_EQ(sizeof(self->v), self->v.size);
	EXPECT_EQ(0, self->v.flags);
}

TEST_F(dev, version_first_size)
{
	self->v.size = ETW_VERSION_SIZE_VER0;
	ASSERT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &self->v));
	EXPECT_EQ(ETW_ABI_MAJOR, self->v.abi_major);
}

TEST_F(dev, unknown_ioctl_is_enotty)
{
	/* An unused number, our number with a size encoded, another type. */
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(self->fd, _IO(ETW_IOC_MAGIC, 0xff), &self->v));
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(self->fd, _IO(ETW_IOC_MAGIC, 0x7f), &self->v));
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(self->fd,
					 _IOWR(ETW_IOC_MAGIC, 0, struct etw_version),
					 &self->v));
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(self->fd, _IO('E', 0), &self->v));
	EXPECT_EQ(-ENOTTY, etw_ioctl_err(self->fd, FIONREAD, &self->v));
}

TEST_F(dev, unknown_flags_are_einval)
{
	for (unsigned int bit = 0; bit < 32; bit++) {
		self->v.flags = 1u << bit;
		EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &self->v))
			TH_LOG("flag bit %u accepted", bit);
	}
}

TEST_F(dev, reserved_fields_are_einval)
{
	for (unsigned int i = 0; i < sizeof(self->v.reserved) / sizeof(self->v.reserved[0]); i++) {
		memset(self->v.reserved, 0, sizeof(self->v.reserved));
		self->v.reserved[i] = 1ULL << (i * 13);
		EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &self->v))
			TH_LOG("reserved[%u] accepted", i);
	}
}

TEST_F(dev, sizes)
{
	struct {
		struct etw_version v;
		__u64 newer_field;
	} big;

	self->v.size = 0;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &self->v));
	self->v.size = ETW_VERSION_SIZE_VER0 - 1;
	EXPECT_EQ(-EINVAL, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &self->v));

	/* A newer caller: a zero tail is accepted, a non-zero one is E2BIG. */
	memset(&big, 0, sizeof(big));
	big.v.size = sizeof(big);
	EXPECT_EQ(0, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &big));
	EXPECT_EQ(ETW_ABI_MAJOR, big.v.abi_major);
	EXPECT_EQ(0, big.newer_field);
	big.newer_field = 1;
	EXPECT_EQ(-E2BIG, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &big));

	self->v.size = 1u << 20;
	EXPECT_EQ(-E2BIG, etw_ioctl_err(self->fd, ETW_IOC_VERSION, &self->v));
}

TEST_F(dev, bad_pointers_are_efault)
{
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_VERSION, NULL));
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_VERSION, (void *)1));
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_VERSION, (void *)-4096L));
#if __SIZEOF_POINTER__ == 8
	/* A kernel address. */
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_VERSION,
					 (void *)0xffffffff81000000UL));
#endif
}

/* A struct that ends in an unmapped page: the size says more than is there. */
TEST_F(dev, short_buffer_is_efault)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map;
	struct etw_version *v;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, munmap(map + page, page));

	/* Only the first 16 bytes are mapped. */
	v = (struct etw_version *)(map + page - 16);
	memset(v, 0, 16);
	v->size = sizeof(*v);
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_VERSION, v));

	/* Even the size field straddles the hole. */
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_VERSION, map + page - 2));
	munmap(map, page);
}

/* The struct can be read but not written back. */
TEST_F(dev, read_only_buffer_is_efault)
{
	long page = sysconf(_SC_PAGESIZE);
	struct etw_version *v;

	v = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(v != MAP_FAILED);
	memset(v, 0, sizeof(*v));
	v->size = sizeof(*v);
	ASSERT_EQ(0, mprotect(v, page, PROT_READ));
	EXPECT_EQ(-EFAULT, etw_ioctl_err(self->fd, ETW_IOC_VERSION, v));
	munmap(v, page);
}

/* The file is not seekable and has no read/write of its own yet. */
TEST_F(dev, no_seek)
{
	EXPECT_EQ(-1, lseek(self->fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
}

TEST_HARNESS_MAIN
