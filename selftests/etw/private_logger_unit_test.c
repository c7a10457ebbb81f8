// SPDX-License-Identifier: GPL-2.0
/*
 * The host unit tests of private loggers (libetw/tests/private_logger.c),
 * run again in the VM on each kernel: the write path's lack of system
 * calls depends on the kernel's vDSO and rseq, which the host's kernel
 * need not share.
 */
#include "../../libetw/tests/private_logger.c"
