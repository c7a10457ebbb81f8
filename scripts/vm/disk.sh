#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The VM's disk, an empty ext4 file system in a raw image:
#   disk.sh IMAGE
# made once with mke2fs on this machine (no root, no loop device).  QEMU
# opens it with snapshot=on, so every boot starts from the empty file
# system and two VMs may use it at once.  The logger's O_DIRECT path needs
# a real block device under a real file system (tmpfs has neither), and a
# file on a disk is what a user records to.
set -eu

img=$1
[ -s "$img" ] && exit 0
rm -f "$img.tmp"
truncate -s 512M "$img.tmp"
mke2fs -q -F -t ext4 -L etwdisk "$img.tmp"
mv "$img.tmp" "$img"
