/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by the library's own files only: export marker and small helpers. */
#ifndef BINO_INTERNAL_H
#define BINO_INTERNAL_H

#include "btrfsino.h"

/* Everything is hidden unless marked; lib/libbtrfsino.sym lists the same set. */
#define BINO_PUBLIC __attribute__((visibility("default")))

/*
 * The audited path a suggestion is for (bino_audit_target_path() of the
 * target it was made from): the directory a mount plan resolves the
 * suggestion's mount points from.
 */
const char *bino__suggestion_path(const struct bino_suggestion *suggestion);

#endif
