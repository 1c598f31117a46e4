/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private to suggest/: what a mount plan asks of a suggestion. */
#ifndef BINO_SUGGEST_INTERNAL_H
#define BINO_SUGGEST_INTERNAL_H

#include "internal.h"

/*
 * The audited path a suggestion is for (bino_audit_target_path() of the
 * target it was made from): the directory a mount plan resolves the
 * suggestion's mount points from.  Valid as long as @suggestion.
 */
const char *bino__suggestion_path(const struct bino_suggestion *suggestion);

#endif
