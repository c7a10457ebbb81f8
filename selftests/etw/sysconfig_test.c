// SPDX-License-Identifier: GPL-2.0
/*
 * The machine as a kernel trace describes it.  The NT Kernel Logger with
 * IMAGE_LOAD, started and stopped with a log file, read back with
 * ProcessTrace; the file holds, exactly:
 *
 * - one SystemConfig/CPU (version 3, 828 bytes) whose MHz, processors,
 *   memory, page size, host and domain names, hyper-threading, family,
 *   model, stepping and NX are what /proc/cpuinfo, /proc/meminfo,
 *   sysconf(), uname() and sysfs say;
 * - one SystemConfig/PhyDisk (version 2, 568 bytes) per entry of
 *   /sys/block, numbered in order: its name, logical block size,
 *   partitions and the cylinders its size holds at 63 x 255 sectors;
 * - one SystemConfig/NIC (version 2) per entry of /sys/class/net: its
 *   name, index, hardware address and IPv4 addresses (getifaddrs());
 * - the kernel's image (vmlinux) and this module's (etw.ko), in process
 *   0, each with a DbgID_RSDS at its image event's time carrying the
 *   build-id of /sys/kernel/notes and /sys/module/etw/notes;
 * - one SystemConfig/LogDisk (version 2, 112 bytes) per block device
 *   /proc/self/mountinfo mounts: its disk, partition, offset, size,
 *   file system and the statvfs() counts of its mount;
 * - one SystemConfig/Power (version 2, 8 bytes): the S states the boot
 *   log's "ACPI: PM: (supports ...)" lists;
 * - one SystemConfig/IRQ (version 3) per handler /sys/kernel/irq/N/actions
 *   names, with /proc/irq/N/smp_affinity;
 * - one SystemConfig/PnP (version 5) per /sys/bus/pci/devices entry: its
 *   ids in Windows' form, class name, sysfs path and driver.
 *
 * With EVENT_TRACE_FLAG_NO_SYSCONFIG there is no SystemConfig record.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <windows.h>
#include <evntrace.h>
#include <evntcons.h>

#include "kselftest_harness.h"
#include "etw_selftests.h"
#include "kernel_props.h"

#define SYSCONF_FILE	"/tmp/etwtest-sysconfig.etl"
#define MAX_NICS	32
#define MAX_DISKS	64
#define MAX_KIMAGES	256
#define MAX_LOGDISKS	32
#define MAX_IRQS	512
#define MAX_PNP		256

static const GUID sysconfig_guid = { 0x01853a65, 0x418f, 0x4f36,
	{ 0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35 } };
static const GUID image_guid = { 0x2cb15d1d, 0x5fc1, 0x11d2,
	{ 0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18 } };
static const GUID image_id_guid = { 0xb3e675d7, 0x2554, 0x4f18,
	{ 0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde } };

/* SystemConfig_V3_CPU, as a reader lays it out. */
struct cpu_rec {
	uint32_t mhz, cpus, mem_mb, page_size, granularity;
	char computer[256], domain[134];
	uint64_t ht, highest_user;
	uint16_t arch, level, revision;
	uint8_t pae, nx;
	uint32_t mem_speed;
};

struct nic_rec {
	uint64_t addr;
	uint32_t addr_len, ipv4_index, ipv6_index;
	char name[64], ips[256], dns[64];
};

struct disk_rec {
	uint32_t number, bytes_per_sector, sectors_per_track, tracks;
	uint64_t cylinders;
	uint32_t partitions;
	char name[64];
};

/* SystemConfig_V2_LogDisk. */
struct logdisk_rec {
	uint64_t start, size;
	uint32_t disk, rec_size, type, partition, sectors_per_cluster,
		 bytes_per_sector;
	int64_t free, total;
	uint32_t volume_ext;
	char letter[8], fs[32];
};

struct irq_rec {
	uint64_t affinity;
	uint16_t group;
	uint32_t irq, len;
	char name[128];
};

struct pnp_rec {
	uint8_t guid[16];
	uint32_t upper, lower, status, problem;
	char id[256], desc[128], friendly[64], pdo[256], service[64],
	     uf[16], lf[16];
};

/* A kernel image event or identity in process 0. */
struct kimage {
	uint64_t base;
	LONGLONG time;
	char name[64];
	uint8_t id[20];
	bool rsds;
};

struct sc_seen {
	int n_cpu, n_nic, n_disk, n_sysconfig;
	struct cpu_rec cpu;
	struct disk_rec disks[MAX_DISKS];
	struct nic_rec nics[MAX_NICS];
	int n_images, n_rsds;
	struct kimage images[MAX_KIMAGES], rsds[MAX_KIMAGES];
	int n_logdisk, n_power, n_irq, n_pnp;
	struct logdisk_rec logdisks[MAX_LOGDISKS];
	uint8_t power[8];
	struct irq_rec irqs[MAX_IRQS];
	struct pnp_rec pnp[MAX_PNP];
	long bad;
	char bad_what[128];
};

static void bad(struct sc_seen *s, const char *what)
{
	if (!s->bad++)
		snprintf(s->bad_what, sizeof(s->bad_what), "%s", what);
}

static void on_cpu(struct sc_seen *s, const uint8_t *d, size_t len,
		   unsigned int version)
{
	struct cpu_rec *c = &s->cpu;

	if (version != 3 || len != 828)
		return bad(s, "CPU version or size");
	s->n_cpu++;
	memcpy(&c->mhz, d, 4);
	memcpy(&c->cpus, d + 4, 4);
	memcpy(&c->mem_mb, d + 8, 4);
	memcpy(&c->page_size, d + 12, 4);
	memcpy(&c->granularity, d + 16, 4);
	etw_utf16_ascii(d + 20, 512, c->computer, sizeof(c->computer));
	etw_utf16_ascii(d + 532, 268, c->domain, sizeof(c->domain));
	memcpy(&c->ht, d + 800, 8);
	memcpy(&c->highest_user, d + 808, 8);
	memcpy(&c->arch, d + 816, 2);
	memcpy(&c->level, d + 818, 2);
	memcpy(&c->revision, d + 820, 2);
	c->pae = d[822];
	c->nx = d[823];
	memcpy(&c->mem_speed, d + 824, 4);
}

static void on_disk(struct sc_seen *s, const uint8_t *d, size_t len,
		    unsigned int version)
{
	struct disk_rec *k;

	if (version != 2 || len != 568)
		return bad(s, "PhyDisk version or size");
	if (s->n_disk == MAX_DISKS)
		return bad(s, "too many disks");
	k = &s->disks[s->n_disk++];
	memcpy(&k->number, d, 4);
	memcpy(&k->bytes_per_sector, d + 4, 4);
	memcpy(&k->sectors_per_track, d + 8, 4);
	memcpy(&k->tracks, d + 12, 4);
	memcpy(&k->cylinders, d + 16, 8);
	etw_utf16_ascii(d + 40, 512, k->name, sizeof(k->name));
	memcpy(&k->partitions, d + 552, 4);
}

static void on_nic(struct sc_seen *s, const uint8_t *d, size_t len,
		   unsigned int version)
{
	struct nic_rec *n;
	size_t off = 20;
	int k;

	if (version != 2 || len < 26)
		return bad(s, "NIC version or size");
	if (s->n_nic == MAX_NICS)
		return bad(s, "too many NICs");
	n = &s->nics[s->n_nic++];
	memcpy(&n->addr, d, 8);
	memcpy(&n->addr_len, d + 8, 4);
	memcpy(&n->ipv4_index, d + 12, 4);
	memcpy(&n->ipv6_index, d + 16, 4);
	k = etw_utf16_ascii(d + off, len - off, n->name, sizeof(n->name));
	if (k < 0)
		return bad(s, "NIC description");
	off += k;
	k = etw_utf16_ascii(d + off, len - off, n->ips, sizeof(n->ips));
	if (k < 0)
		return bad(s, "NIC addresses");
	off += k;
	k = etw_utf16_ascii(d + off, len - off, n->dns, sizeof(n->dns));
	/* The three strings are the whole record. */
	if (k < 0 || off + k != len)
		return bad(s, "NIC size");
}

static void on_logdisk(struct sc_seen *s, const uint8_t *d, size_t len,
		       unsigned int version)
{
	struct logdisk_rec *l;

	if (version != 2 || len != 112)
		return bad(s, "LogDisk version or size");
	if (s->n_logdisk == MAX_LOGDISKS)
		return bad(s, "too many LogDisks");
	l = &s->logdisks[s->n_logdisk++];
	memcpy(&l->start, d, 8);
	memcpy(&l->size, d + 8, 8);
	memcpy(&l->disk, d + 16, 4);
	memcpy(&l->rec_size, d + 20, 4);
	memcpy(&l->type, d + 24, 4);
	etw_utf16_ascii(d + 28, 8, l->letter, sizeof(l->letter));
	memcpy(&l->partition, d + 40, 4);
	memcpy(&l->sectors_per_cluster, d + 44, 4);
	memcpy(&l->bytes_per_sector, d + 48, 4);
	memcpy(&l->free, d + 56, 8);
	memcpy(&l->total, d + 64, 8);
	etw_utf16_ascii(d + 72, 32, l->fs, sizeof(l->fs));
	memcpy(&l->volume_ext, d + 104, 4);
}

static void on_power(struct sc_seen *s, const uint8_t *d, size_t len,
		     unsigned int version)
{
	if (version != 2 || len != 8)
		return bad(s, "Power version or size");
	s->n_power++;
	memcpy(s->power, d, 8);
}

static void on_irq(struct sc_seen *s, const uint8_t *d, size_t len,
		   unsigned int version)
{
	struct irq_rec *q;
	int k;

	if (version != 3 || len < 22)
		return bad(s, "IRQ version or size");
	if (s->n_irq == MAX_IRQS)
		return bad(s, "too many IRQs");
	q = &s->irqs[s->n_irq++];
	memcpy(&q->affinity, d, 8);
	memcpy(&q->group, d + 8, 2);
	memcpy(&q->irq, d + 12, 4);
	memcpy(&q->len, d + 16, 4);
	k = etw_utf16_ascii(d + 20, len - 20, q->name, sizeof(q->name));
	if (k < 0 || 20 + (size_t)k != len)
		bad(s, "IRQ description");
}

static void on_pnp(struct sc_seen *s, const uint8_t *d, size_t len,
		   unsigned int version)
{
	struct pnp_rec *n;
	char *strs[7];
	size_t rooms[7], off = 32;

	if (version != 5 || len < 32 + 14)
		return bad(s, "PnP version or size");
	if (s->n_pnp == MAX_PNP)
		return bad(s, "too many PnP");
	n = &s->pnp[s->n_pnp++];
	memcpy(n->guid, d, 16);
	memcpy(&n->upper, d + 16, 4);
	memcpy(&n->lower, d + 20, 4);
	memcpy(&n->status, d + 24, 4);
	memcpy(&n->problem, d + 28, 4);
	strs[0] = n->id; rooms[0] = sizeof(n->id);
	strs[1] = n->desc; rooms[1] = sizeof(n->desc);
	strs[2] = n->friendly; rooms[2] = sizeof(n->friendly);
	strs[3] = n->pdo; rooms[3] = sizeof(n->pdo);
	strs[4] = n->service; rooms[4] = sizeof(n->service);
	strs[5] = n->uf; rooms[5] = sizeof(n->uf);
	strs[6] = n->lf; rooms[6] = sizeof(n->lf);
	for (int i = 0; i < 7; i++) {
		int k = etw_utf16_ascii(d + off, len - off, strs[i], rooms[i]);

		if (k < 0)
			return bad(s, "PnP strings");
		off += k;
	}
	/* The seven strings are the whole record. */
	if (off != len)
		bad(s, "PnP size");
}

static void on_image(struct sc_seen *s, const EVENT_RECORD *r)
{
	const uint8_t *d = r->UserData;
	struct kimage *im;
	uint32_t pid;

	/* Image_Load V3: base, size, pid, ..., FileName at 56. */
	if (r->UserDataLength < 58)
		return bad(s, "Image size");
	memcpy(&pid, d + 16, 4);
	if (pid || s->n_images == MAX_KIMAGES)
		return;
	im = &s->images[s->n_images++];
	memcpy(&im->base, d, 8);
	im->time = r->EventHeader.TimeStamp.QuadPart;
	etw_utf16_ascii(d + 56, r->UserDataLength - 56, im->name,
			sizeof(im->name));
}

static void on_image_id(struct sc_seen *s, const EVENT_RECORD *r)
{
	const uint8_t *d = r->UserData;
	size_t len = r->UserDataLength;
	struct kimage *x;
	uint32_t pid;

	if (r->EventHeader.EventDescriptor.Opcode != 36)
		return;
	if (len < 33 || d[len - 1] || strlen((const char *)d + 32) + 33 != len)
		return bad(s, "DbgID_RSDS size");
	memcpy(&pid, d + 8, 4);
	if (pid || s->n_rsds == MAX_KIMAGES)
		return;
	x = &s->rsds[s->n_rsds++];
	memcpy(&x->base, d, 8);
	memcpy(x->id, d + 12, 20);
	snprintf(x->name, sizeof(x->name), "%s", (const char *)d + 32);
	x->time = r->EventHeader.TimeStamp.QuadPart;
	x->rsds = true;
}

static void WINAPI on_record(PEVENT_RECORD r)
{
	struct sc_seen *s = r->UserContext;
	const GUID *g = &r->EventHeader.ProviderId;
	unsigned int op = r->EventHeader.EventDescriptor.Opcode;
	unsigned int version = r->EventHeader.EventDescriptor.Version;

	if (IsEqualGUID(g, &sysconfig_guid)) {
		s->n_sysconfig++;
		if (op == 10)
			on_cpu(s, r->UserData, r->UserDataLength, version);
		else if (op == 11)
			on_disk(s, r->UserData, r->UserDataLength, version);
		else if (op == 13)
			on_nic(s, r->UserData, r->UserDataLength, version);
		else if (op == 12)
			on_logdisk(s, r->UserData, r->UserDataLength, version);
		else if (op == 16)
			on_power(s, r->UserData, r->UserDataLength, version);
		else if (op == 21)
			on_irq(s, r->UserData, r->UserDataLength, version);
		else if (op == 22)
			on_pnp(s, r->UserData, r->UserDataLength, version);
		else
			bad(s, "SystemConfig opcode");
	} else if (IsEqualGUID(g, &image_guid)) {
		on_image(s, r);
	} else if (IsEqualGUID(g, &image_id_guid)) {
		on_image_id(s, r);
	}
}

/* The NT Kernel Logger with @flags into SYSCONF_FILE, stopped, read. */
static int record_and_read(struct sc_seen *s, ULONG flags)
{
	TRACEHANDLE th = 0;
	struct kprops b;
	ULONG err;

	unlink(SYSCONF_FILE);
	err = StartTraceA(&th, KERNEL_LOGGER_NAMEA,
			  kernel_props(&b, flags, SYSCONF_FILE));
	if (err)
		return (int)err;
	err = ControlTraceA(th, KERNEL_LOGGER_NAMEA, kernel_props(&b, 0, NULL),
			    EVENT_TRACE_CONTROL_STOP);
	if (err)
		return (int)err;
	memset(s, 0, sizeof(*s));
	err = kernel_trace_read(SYSCONF_FILE, on_record, s, NULL);
	unlink(SYSCONF_FILE);
	return (int)err;
}

/* The value of "@key : value" in @path's first block (first processor). */
static int proc_field(const char *path, const char *key, char *val, size_t room)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *end;

		if (!colon || strncmp(line, key, strlen(key)) ||
		    !(isspace((unsigned char)line[strlen(key)]) ||
		      line[strlen(key)] == ':'))
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		end = colon + strcspn(colon, "\n");
		*end = 0;
		snprintf(val, room, "%s", colon);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

static long proc_long(const char *path, const char *key)
{
	char v[256];

	return proc_field(path, key, v, sizeof(v)) ? -1 : strtol(v, NULL, 0);
}

/* The first line of @path, without its newline; -1 if unreadable. */
static int read_line(const char *path, char *buf, size_t room)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)room, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* The GNU build-id in the notes file @path (a sysfs notes blob); its length. */
static int notes_build_id(const char *path, uint8_t id[20])
{
	static uint8_t p[65536];
	size_t n, off = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	n = fread(p, 1, sizeof(p), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12 + ((namesz + 3) & ~3u);
		if (off + descsz > n)
			return 0;
		if (type == 3 && namesz == 4 && !memcmp(p + off - 4, "GNU", 4) &&
		    descsz <= 20) {
			memset(id, 0, 20);
			memcpy(id, p + off, descsz);
			return (int)descsz;
		}
		off += (descsz + 3) & ~3u;
	}
	return 0;
}

/* The DbgID_RSDS of kernel image @name, at the time of its image event. */
static const struct kimage *kernel_rsds(const struct sc_seen *s,
					const char *name)
{
	for (int i = 0; i < s->n_rsds; i++) {
		const struct kimage *x = &s->rsds[i];

		if (strcmp(x->name, name))
			continue;
		for (int j = 0; j < s->n_images; j++)
			if (!strcmp(s->images[j].name, name) &&
			    s->images[j].base == x->base &&
			    s->images[j].time == x->time)
				return x;
	}
	return NULL;
}

/* @ifname's IPv4 addresses, as the NIC record lists them. */
static void ipv4_list(const char *ifname, char *out, size_t room)
{
	struct ifaddrs *ifa, *i;
	size_t n = 0;

	out[0] = 0;
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next) {
		char a[INET_ADDRSTRLEN];

		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    strcmp(i->ifa_name, ifname))
			continue;
		inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr,
			  a, sizeof(a));
		n += snprintf(out + n, room - n, "%s%s", n ? ", " : "", a);
	}
	freeifaddrs(ifa);
}

/* The number in sysfs file @dir/@name in @base; -1 if unreadable. */
static long sysfs_long(const char *dir, const char *name, int base)
{
	char path[PATH_MAX], v[64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_line(path, v, sizeof(v)) ? -1 : strtol(v, NULL, base);
}

/* The PhyDisk number of disk @name, or -1. */
static long phydisk_number(const struct sc_seen *s, const char *name)
{
	for (int i = 0; i < s->n_disk; i++)
		if (!strcmp(s->disks[i].name, name))
			return s->disks[i].number;
	return -1;
}

/* Each block device mountinfo mounts against its LogDisk; how many. */
static int check_logdisks(struct __test_metadata *_metadata,
			  const struct sc_seen *s)
{
	char line[4096], dir[128], real[PATH_MAX], mnt[1024], fs[64], v[64];
	dev_t seen[MAX_LOGDISKS];
	int n_seen = 0;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const struct logdisk_rec *l = NULL;
		unsigned int maj, min;
		long partno, number, bs;
		struct statvfs st;
		char *dash, *disk;
		bool dup = false;

		dash = strstr(line, " - ");
		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &maj, &min, mnt) != 3 ||
		    !dash || sscanf(dash + 3, "%63s", fs) != 1)
			continue;
		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", maj, min);
		if (!realpath(dir, real))
			continue;		/* not a block device */
		for (int i = 0; i < n_seen; i++)
			dup |= seen[i] == makedev(maj, min);
		if (dup || n_seen == MAX_LOGDISKS)
			continue;
		seen[n_seen++] = makedev(maj, min);
		partno = sysfs_long(dir, "partition", 10);
		if (partno < 0)
			partno = 0;
		if (partno)
			*strrchr(real, '/') = 0;	/* its disk */
		disk = strrchr(real, '/') + 1;
		number = phydisk_number(s, disk);
		for (int i = 0; i < s->n_logdisk; i++)
			if (s->logdisks[i].disk == number &&
			    s->logdisks[i].partition == partno)
				l = &s->logdisks[i];
		EXPECT_NE(NULL, l) TH_LOG("no LogDisk for %s (%s)", dir, mnt);
		if (!l)
			continue;
		EXPECT_STREQ(fs, l->fs);
		EXPECT_EQ(112, l->rec_size);
		EXPECT_EQ(partno ? 1 : 2, l->type);
		EXPECT_STREQ("", l->letter);
		EXPECT_EQ((uint64_t)sysfs_long(dir, "size", 10) * 512, l->size);
		EXPECT_EQ(partno ? (uint64_t)sysfs_long(dir, "start", 10) * 512 : 0,
			  l->start);
		snprintf(line, sizeof(line), "/sys/block/%s/queue/logical_block_size",
			 disk);
		bs = read_line(line, v, sizeof(v)) ? -1 : strtol(v, NULL, 10);
		EXPECT_EQ(bs, l->bytes_per_sector);
		ASSERT_EQ(0, statvfs(mnt, &st));
		EXPECT_EQ(st.f_frsize, (uint64_t)l->sectors_per_cluster *
			  l->bytes_per_sector) TH_LOG("%s", mnt);
		EXPECT_EQ((int64_t)st.f_blocks, l->total) TH_LOG("%s", mnt);
		EXPECT_EQ((int64_t)st.f_bavail, l->free) TH_LOG("%s", mnt);
		EXPECT_EQ(0, l->volume_ext);
	}
	fclose(f);
	return n_seen;
}

/* The S states the boot log's "ACPI: PM: (supports S0 ...)" lists; 0 if none. */
static int acpi_supports(uint8_t want[5])
{
	int size = klogctl(10, NULL, 0), n;
	char *buf, *p, *end;

	memset(want, 0, 5);
	if (size <= 0)
		return -1;
	buf = malloc(size + 1);
	if (!buf)
		return -1;
	n = klogctl(3, buf, size);
	buf[n > 0 ? n : 0] = 0;
	p = strstr(buf, "ACPI: PM: (supports");
	end = p ? strchr(p, ')') : NULL;
	for (char *q = p; end && q + 1 < end; q++)
		if (q[0] == ' ' && q[1] == 'S' && q[2] >= '1' && q[2] <= '5')
			want[q[2] - '1'] = 1;
	free(buf);
	return end ? 0 : -1;
}

/* /proc/irq/@irq/smp_affinity's first 64 CPUs. */
static uint64_t irq_affinity(unsigned int irq)
{
	char path[64], v[512], hex[512];
	size_t n = 0, len;

	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity", irq);
	if (read_line(path, v, sizeof(v)))
		return ~0ull;
	for (char *c = v; *c; c++)
		if (*c != ',')
			hex[n++] = *c;
	hex[n] = 0;
	len = n > 16 ? n - 16 : 0;
	return strtoull(hex + len, NULL, 16);
}

/* Each handler /sys/kernel/irq/N/actions names against its IRQ record. */
static int check_irqs(struct __test_metadata *_metadata, const struct sc_seen *s)
{
	DIR *dir = opendir("/sys/kernel/irq");
	struct dirent *e;
	int total = 0;

	if (!dir)
		return -1;
	while ((e = readdir(dir))) {
		char path[512], actions[4096], *name, *save = NULL;
		unsigned int irq;
		int k = 0;

		if (e->d_name[0] == '.')
			continue;
		irq = strtoul(e->d_name, NULL, 10);
		snprintf(path, sizeof(path), "/sys/kernel/irq/%s/actions", e->d_name);
		if (read_line(path, actions, sizeof(actions)) || !actions[0])
			continue;
		for (name = strtok_r(actions, ",", &save); name;
		     name = strtok_r(NULL, ",", &save), k++) {
			const struct irq_rec *q = NULL;
			int j = 0;

			total++;
			/* The k-th record of this IRQ. */
			for (int i = 0; i < s->n_irq && !q; i++)
				if (s->irqs[i].irq == irq && j++ == k)
					q = &s->irqs[i];
			EXPECT_NE(NULL, q) TH_LOG("no IRQ record %u %s", irq, name);
			if (!q)
				continue;
			EXPECT_STREQ(name, q->name) TH_LOG("IRQ %u", irq);
			EXPECT_EQ(strlen(name), q->len);
			EXPECT_EQ(0, q->group);
			EXPECT_EQ(irq_affinity(irq), q->affinity) TH_LOG("IRQ %u", irq);
		}
	}
	closedir(dir);
	return total;
}

/* The PCI base classes' names (PCI Code and ID Assignment). */
static const char *pci_class_name(long class)
{
	static const char *const names[] = {
		"Unclassified device", "Mass storage controller",
		"Network controller", "Display controller",
		"Multimedia controller", "Memory controller", "Bridge",
		"Communication controller", "Generic system peripheral",
		"Input device controller", "Docking station", "Processor",
		"Serial bus controller", "Wireless controller",
		"Intelligent controller", "Satellite communications controller",
		"Encryption controller", "Signal processing controller",
		"Processing accelerators", "Non-Essential Instrumentation",
	};
	long base = class >> 16;

	if (base >= 0 && base < (long)(sizeof(names) / sizeof(names[0])))
		return names[base];
	return base == 0x40 ? "Coprocessor" : "Unassigned class";
}

/* Each PCI device sysfs lists against its PnP record; how many. */
static int check_pnp(struct __test_metadata *_metadata, const struct sc_seen *s)
{
	static const uint8_t zero[16];
	DIR *dir = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	int n = 0;

	if (!dir)
		return 0;		/* no PCI: no records */
	while ((e = readdir(dir))) {
		char d[512], id[512], path[600], real[PATH_MAX], drv[PATH_MAX];
		const struct pnp_rec *r = NULL;
		const char *service = "";
		ssize_t len;

		if (e->d_name[0] == '.')
			continue;
		n++;
		snprintf(d, sizeof(d), "/sys/bus/pci/devices/%s", e->d_name);
		snprintf(id, sizeof(id),
			 "PCI\\VEN_%04lX&DEV_%04lX&SUBSYS_%04lX%04lX&REV_%02lX\\%s",
			 sysfs_long(d, "vendor", 16), sysfs_long(d, "device", 16),
			 sysfs_long(d, "subsystem_device", 16),
			 sysfs_long(d, "subsystem_vendor", 16),
			 sysfs_long(d, "revision", 16), e->d_name);
		for (int i = 0; i < s->n_pnp; i++)
			if (!strcmp(s->pnp[i].id, id))
				r = &s->pnp[i];
		EXPECT_NE(NULL, r) TH_LOG("no PnP record %s", id);
		if (!r)
			continue;
		EXPECT_STREQ(pci_class_name(sysfs_long(d, "class", 16)), r->desc);
		ASSERT_NE(NULL, realpath(d, real));
		EXPECT_STREQ(real + strlen("/sys"), r->pdo);
		snprintf(path, sizeof(path), "%s/driver", d);
		len = readlink(path, drv, sizeof(drv) - 1);
		if (len > 0) {
			drv[len] = 0;
			service = strrchr(drv, '/') + 1;
		}
		EXPECT_STREQ(service, r->service) TH_LOG("%s", id);
		EXPECT_EQ(*service ? 0xau : 0, r->status) TH_LOG("%s", id);
		EXPECT_EQ(*service ? 0 : 28u, r->problem) TH_LOG("%s", id);
		EXPECT_EQ(0, memcmp(zero, r->guid, 16));
		EXPECT_EQ(0, r->upper);
		EXPECT_EQ(0, r->lower);
		EXPECT_STREQ("", r->friendly);
		EXPECT_STREQ("", r->uf);
		EXPECT_STREQ("", r->lf);
	}
	closedir(dir);
	return n;
}

FIXTURE(sysconf)
{
	int fd;
};

FIXTURE_SETUP(sysconf)
{
	struct kprops b;

	etw_require_root(_metadata);
	self->fd = etw_open_or_skip(_metadata);
	/* A session a failed run left behind. */
	ControlTraceA(0, KERNEL_LOGGER_NAMEA, kernel_props(&b, 0, NULL),
		      EVENT_TRACE_CONTROL_STOP);
}

FIXTURE_TEARDOWN(sysconf)
{
	close(self->fd);
}

TEST_F(sysconf, cpu_nics_and_kernel_build_ids)
{
	static struct sc_seen s;
	char v[256], path[512], mac[64];
	struct utsname u;
	uint8_t id[20];
	const struct kimage *x;
	DIR *dir;
	struct dirent *e;
	int n_net = 0, n_disks = 0, idlen;

	ASSERT_EQ(0, record_and_read(&s, EVENT_TRACE_FLAG_IMAGE_LOAD));
	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.bad_what);

	/* The processor, the memory, the host. */
	ASSERT_EQ(1, s.n_cpu);
	ASSERT_EQ(0, proc_field("/proc/cpuinfo", "cpu MHz", v, sizeof(v)));
	EXPECT_EQ((uint32_t)strtoul(v, NULL, 10), s.cpu.mhz) TH_LOG("cpuinfo %s", v);
	EXPECT_EQ((uint32_t)sysconf(_SC_NPROCESSORS_ONLN), s.cpu.cpus);
	EXPECT_EQ((uint32_t)(proc_long("/proc/meminfo", "MemTotal") / 1024),
		  s.cpu.mem_mb);
	EXPECT_EQ((uint32_t)sysconf(_SC_PAGESIZE), s.cpu.page_size);
	EXPECT_EQ((uint32_t)sysconf(_SC_PAGESIZE), s.cpu.granularity);
	ASSERT_EQ(0, uname(&u));
	EXPECT_STREQ(u.nodename, s.cpu.computer);
	EXPECT_STREQ(strcmp(u.domainname, "(none)") ? u.domainname : "",
		     s.cpu.domain);
	ASSERT_EQ(0, read_line("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
			       v, sizeof(v)));
	EXPECT_EQ(strpbrk(v, ",-") != NULL, s.cpu.ht) TH_LOG("siblings %s", v);
	EXPECT_EQ(0, (s.cpu.highest_user + 1) % sysconf(_SC_PAGESIZE));
	EXPECT_LT((uintptr_t)&v, s.cpu.highest_user);
	EXPECT_EQ(9, s.cpu.arch);		/* PROCESSOR_ARCHITECTURE_AMD64 */
	EXPECT_EQ(proc_long("/proc/cpuinfo", "cpu family"), s.cpu.level);
	EXPECT_EQ((proc_long("/proc/cpuinfo", "model") << 8 |
		   proc_long("/proc/cpuinfo", "stepping")), s.cpu.revision);
	EXPECT_EQ(1, s.cpu.pae);
	ASSERT_EQ(0, proc_field("/proc/cpuinfo", "flags", v, sizeof(v)));
	EXPECT_EQ(strstr(v, " nx ") != NULL, s.cpu.nx);
	EXPECT_EQ(0, s.cpu.mem_speed);

	/* The network interfaces, as sysfs lists them. */
	dir = opendir("/sys/class/net");
	ASSERT_NE(NULL, dir);
	while ((e = readdir(dir))) {
		const struct nic_rec *n = NULL;
		char expect[256], got[64] = "";
		long len;

		if (e->d_name[0] == '.')
			continue;
		n_net++;
		for (int i = 0; i < s.n_nic; i++)
			if (!strcmp(s.nics[i].name, e->d_name))
				n = &s.nics[i];
		EXPECT_NE(NULL, n) TH_LOG("no NIC record for %s", e->d_name);
		if (!n)
			continue;
		EXPECT_EQ(if_nametoindex(e->d_name), n->ipv4_index);
		EXPECT_EQ(n->ipv4_index, n->ipv6_index);
		snprintf(path, sizeof(path), "/sys/class/net/%s/addr_len", e->d_name);
		len = read_line(path, v, sizeof(v)) ? -1 : strtol(v, NULL, 10);
		EXPECT_EQ(len, n->addr_len) TH_LOG("%s", e->d_name);
		snprintf(path, sizeof(path), "/sys/class/net/%s/address", e->d_name);
		ASSERT_EQ(0, read_line(path, mac, sizeof(mac)));
		for (uint32_t i = 0; i < n->addr_len && i < 8; i++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 "%s%02x", i ? ":" : "", ((const uint8_t *)&n->addr)[i]);
		EXPECT_STREQ(mac, got) TH_LOG("%s", e->d_name);
		ipv4_list(e->d_name, expect, sizeof(expect));
		EXPECT_STREQ(expect, n->ips) TH_LOG("%s", e->d_name);
		EXPECT_STREQ("", n->dns);
	}
	closedir(dir);
	EXPECT_EQ(n_net, s.n_nic);

	/* The disks, as /sys/block lists them. */
	dir = opendir("/sys/block");
	ASSERT_NE(NULL, dir);
	while ((e = readdir(dir))) {
		const struct disk_rec *k = NULL;
		long parts = 0, bs, sectors;
		struct dirent *p;
		DIR *pd;

		if (e->d_name[0] == '.')
			continue;
		n_disks++;
		for (int i = 0; i < s.n_disk; i++)
			if (!strcmp(s.disks[i].name, e->d_name))
				k = &s.disks[i];
		EXPECT_NE(NULL, k) TH_LOG("no PhyDisk record for %s", e->d_name);
		if (!k)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/queue/logical_block_size",
			 e->d_name);
		bs = read_line(path, v, sizeof(v)) ? -1 : strtol(v, NULL, 10);
		EXPECT_EQ(bs, k->bytes_per_sector) TH_LOG("%s", e->d_name);
		snprintf(path, sizeof(path), "/sys/block/%s/size", e->d_name);
		sectors = read_line(path, v, sizeof(v)) ? -1 : strtol(v, NULL, 10);
		EXPECT_EQ(63, k->sectors_per_track);
		EXPECT_EQ(255, k->tracks);
		EXPECT_EQ((uint64_t)sectors * 512 / ((uint64_t)bs * 63 * 255),
			  k->cylinders) TH_LOG("%s", e->d_name);
		EXPECT_GT(s.n_disk, k->number);
		/* Its partitions: the directories named after it. */
		snprintf(path, sizeof(path), "/sys/block/%s", e->d_name);
		pd = opendir(path);
		ASSERT_NE(NULL, pd);
		while ((p = readdir(pd)))
			parts += !strncmp(p->d_name, e->d_name, strlen(e->d_name));
		closedir(pd);
		EXPECT_EQ(parts, k->partitions) TH_LOG("%s", e->d_name);
	}
	closedir(dir);
	EXPECT_EQ(n_disks, s.n_disk);
	for (int i = 0; i < s.n_disk; i++)
		EXPECT_EQ(i, s.disks[i].number);
	EXPECT_EQ(1 + s.n_disk + s.n_nic + s.n_logdisk + s.n_power + s.n_irq +
		  s.n_pnp, s.n_sysconfig);

	/* The kernel's and this module's build-ids, from their notes. */
	idlen = notes_build_id("/sys/kernel/notes", id);
	ASSERT_LT(0, idlen);
	x = kernel_rsds(&s, "vmlinux");
	ASSERT_NE(NULL, x);
	EXPECT_EQ(0, memcmp(x->id, id, 20));
	idlen = notes_build_id("/sys/module/etw/notes/.note.gnu.build-id", id);
	ASSERT_LT(0, idlen);
	x = kernel_rsds(&s, "etw.ko");
	ASSERT_NE(NULL, x);
	EXPECT_EQ(0, memcmp(x->id, id, 20));
}

TEST_F(sysconf, logical_disks_power_irqs_and_devices)
{
	static struct sc_seen s;
	uint8_t want[5];
	int n;

	ASSERT_EQ(0, record_and_read(&s, EVENT_TRACE_FLAG_PROCESS));
	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.bad_what);

	/* The VM's disk is mounted: at least one LogDisk. */
	n = check_logdisks(_metadata, &s);
	EXPECT_LT(0, n);
	EXPECT_EQ(n, s.n_logdisk);

	ASSERT_EQ(1, s.n_power);
	ASSERT_EQ(0, acpi_supports(want)) TH_LOG("no ACPI sleep states in the log");
	EXPECT_EQ(0, memcmp(want, s.power, 5))
		TH_LOG("log S1-S5 %d%d%d%d%d, record %d%d%d%d%d", want[0],
		       want[1], want[2], want[3], want[4], s.power[0],
		       s.power[1], s.power[2], s.power[3], s.power[4]);
	EXPECT_EQ(0, s.power[5] | s.power[6] | s.power[7]);

	n = check_irqs(_metadata, &s);
	EXPECT_LT(0, n);
	EXPECT_EQ(n, s.n_irq);

	n = check_pnp(_metadata, &s);
	EXPECT_EQ(n, s.n_pnp);
}

TEST_F(sysconf, no_sysconfig_flag)
{
	static struct sc_seen s;

	ASSERT_EQ(0, record_and_read(&s, EVENT_TRACE_FLAG_PROCESS |
				     EVENT_TRACE_FLAG_NO_SYSCONFIG));
	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.bad_what);
	EXPECT_EQ(0, s.n_sysconfig);
}

TEST_HARNESS_MAIN
