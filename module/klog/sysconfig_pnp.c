// SPDX-License-Identifier: GPL-2.0
/*
 * SystemConfig/PnP (opcode 22, version 5): one record per PCI device, in
 * the PCI core's order, in Windows' WMI_PNP_RECORD_V5 layout:
 *
 * - ClassGuid: zeros (Linux has no device setup classes);
 * - UpperFilterCount, LowerFilterCount 0, and UpperFilters and
 *   LowerFilters empty (Linux stacks no filter drivers);
 * - DevStatus DN_DRIVER_LOADED | DN_STARTED with a driver bound, else 0
 *   with DevProblem CM_PROB_FAILED_INSTALL (28), Windows' "no driver";
 * - DeviceID in Windows' form, the hardware ID then the instance:
 *   PCI\VEN_vvvv&DEV_dddd&SUBSYS_ssssSSSS&REV_rr\<the PCI address>
 *   (subsystem device before subsystem vendor, upper-case hex, as
 *   Windows writes them); Windows' own instance part is an opaque
 *   enumerator string, the address is Linux's name for the device;
 * - DeviceDescription: the device's PCI base class by its name in the
 *   PCI class code list ("Network controller"), as the kernel has no
 *   product names; FriendlyName empty (Windows leaves most so);
 * - PdoName: the device's sysfs path (/devices/pci0000:00/...), Linux's
 *   name for the physical device object;
 * - ServiceName: the bound driver's name (Windows' function driver
 *   service), else empty.
 *
 * pci_get_device() holds each device in turn; its driver is read under
 * the device lock, which binding takes, if it is free: the stop holds
 * etw_lock, which a driver's probe may take (EtwRegister) under the
 * device lock, so a device being bound or unbound at that moment is
 * written with no driver, no status and no problem.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "klog.h"
#include "klog_internal.h"
#include "klog_sysconfig.h"
#include "klog_text.h"

#define KLOG_DN_DRIVER_LOADED		0x00000002
#define KLOG_DN_STARTED			0x00000008
#define KLOG_CM_PROB_FAILED_INSTALL	28

/* Each string's room, in characters: Windows' MAX_DEVICE_ID_LENGTH. */
#define KLOG_PNP_STR		256

/* WMI_PNP_RECORD_V5's fixed part; seven UTF-16 strings follow. */
struct klog_sysconfig_pnp {
	u8 class_guid[16];
	u32 upper_filter_count;
	u32 lower_filter_count;
	u32 dev_status;
	u32 dev_problem;
} __packed;

/* The strings the device gives, in the scratch's order. */
enum {
	KLOG_PNP_ID,
	KLOG_PNP_DESC,
	KLOG_PNP_PDO,
	KLOG_PNP_SERVICE,
	KLOG_PNP_NSTR
};

struct klog_pnp_scratch {
	char text[KLOG_PNP_NSTR][KLOG_PNP_STR];
	u8 text16[KLOG_PNP_NSTR][KLOG_PNP_STR * 2];
};

/* The PCI base classes' names (PCI Code and ID Assignment). */
static const char *const klog_pci_classes[] = {
	"Unclassified device", "Mass storage controller",
	"Network controller", "Display controller", "Multimedia controller",
	"Memory controller", "Bridge", "Communication controller",
	"Generic system peripheral", "Input device controller",
	"Docking station", "Processor", "Serial bus controller",
	"Wireless controller", "Intelligent controller",
	"Satellite communications controller", "Encryption controller",
	"Signal processing controller", "Processing accelerators",
	"Non-Essential Instrumentation",
};

static const char *klog_pci_class_name(u32 class)
{
	u32 base = class >> 16;

	if (base < ARRAY_SIZE(klog_pci_classes))
		return klog_pci_classes[base];
	if (base == 0x40)
		return "Coprocessor";
	return "Unassigned class";
}

/* @pdev's record's text: its ids, class, path and driver; its status. */
static void klog_pnp_text(struct pci_dev *pdev, struct klog_pnp_scratch *sc,
			  struct klog_sysconfig_pnp *r)
{
	char *path;

	snprintf(sc->text[KLOG_PNP_ID], KLOG_PNP_STR,
		 "PCI\\VEN_%04X&DEV_%04X&SUBSYS_%04X%04X&REV_%02X\\%s",
		 pdev->vendor, pdev->device, pdev->subsystem_device,
		 pdev->subsystem_vendor, pdev->revision, pci_name(pdev));
	strscpy(sc->text[KLOG_PNP_DESC], klog_pci_class_name(pdev->class),
		KLOG_PNP_STR);
	path = kobject_get_path(&pdev->dev.kobj, GFP_KERNEL);
	strscpy(sc->text[KLOG_PNP_PDO], path ?: "", KLOG_PNP_STR);
	kfree(path);
	memset(r, 0, sizeof(*r));
	sc->text[KLOG_PNP_SERVICE][0] = 0;
	/* Not waited for: a driver's probe may take etw_lock under it. */
	if (!device_trylock(&pdev->dev))
		return;
	if (pdev->dev.driver) {
		strscpy(sc->text[KLOG_PNP_SERVICE], pdev->dev.driver->name,
			KLOG_PNP_STR);
		r->dev_status = KLOG_DN_DRIVER_LOADED | KLOG_DN_STARTED;
	} else {
		r->dev_problem = KLOG_CM_PROB_FAILED_INSTALL;
	}
	device_unlock(&pdev->dev);
}

void klog_sysconfig_pnp(struct klog_session *k)
{
	static const u8 empty[2];
	struct klog_pnp_scratch *sc;
	struct klog_sysconfig_pnp r;
	struct klog_part parts[8] = {
		{ &r, sizeof(r) },
		{ NULL, 0 },			/* DeviceID */
		{ NULL, 0 },			/* DeviceDescription */
		{ empty, sizeof(empty) },	/* FriendlyName */
		{ NULL, 0 },			/* PdoName */
		{ NULL, 0 },			/* ServiceName */
		{ empty, sizeof(empty) },	/* UpperFilters */
		{ empty, sizeof(empty) },	/* LowerFilters */
	};
	static const u8 part_of[KLOG_PNP_NSTR] = { 1, 2, 4, 5 };
	struct pci_dev *pdev = NULL;
	int i;

	sc = kmalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc) {
		klog_lanes_add_lost(k, 1);
		return;
	}
	for_each_pci_dev(pdev) {
		klog_pnp_text(pdev, sc, &r);
		for (i = 0; i < KLOG_PNP_NSTR; i++) {
			parts[part_of[i]].data = sc->text16[i];
			parts[part_of[i]].size =
				klog_utf16(sc->text16[i], sizeof(sc->text16[i]),
					   sc->text[i], strlen(sc->text[i]));
		}
		klog_sysconfig_write(k, KLOG_SYSCONFIG_PNP, 5, parts,
				     ARRAY_SIZE(parts));
	}
	kfree(sc);
}
