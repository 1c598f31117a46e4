/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The first and the last lines of audit's text report, in the admin's
 * words: per PATH which tools break and the fix, and the command to run next
 * with the options that change its answer.
 */
#ifndef BTRFS_INO_AUDIT_VERDICT_H
#define BTRFS_INO_AUDIT_VERDICT_H

#include <stdbool.h>

#include "btrfsino.h"
#include "output.h"

/* The options of the audit that the next command must be given too. */
struct audit_next {
	const char *exports_file;
	const char *mountinfo_file;
	const char *server;
	const char *client_dir;
	bool drift; /* drift was reported: there is something to change */
};

/*
 * One verdict per audited path: "PATH: safe", or "PATH: unsafe: find
 * reports N loops; tar, rsync -H and du merge N files; ...; fix: ...",
 * wrapped at 80 columns.  @color: red and green.
 */
void audit_verdict_lines(struct output *out, const struct bino_audit *audit,
			 bool color);

/*
 * "next: btrfs-ino suggest [OPTION]... PATH", or what else to do; nothing
 * when nothing was audited.  @blank: a blank line first; @suggested: the
 * suggestions are printed already, so an unsafe audit gets no line.
 */
void audit_next_line(struct output *out, const struct bino_audit *audit,
		     const struct audit_next *next, bool blank, bool suggested);

#endif
