/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by the library's own files only: export marker and small helpers. */
#ifndef BINO_INTERNAL_H
#define BINO_INTERNAL_H

#include "btrfsino.h"

/* Everything is hidden unless marked; lib/libbtrfsino.sym lists the same set. */
#define BINO_PUBLIC __attribute__((visibility("default")))

#endif
