/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The server fstab's btrfs lines at or below an exported path, read by
 * libmount (the reader mount -a and systemd use), each with what became of
 * the subvolume it mounts, and whether its path, or an exports line's, is
 * one no user can change (bino_confpath): what audit's drift report says
 * and suggest --diff removes, decided in one place.
 */
#ifndef BTRFS_INO_SERVER_FSTAB_H
#define BTRFS_INO_SERVER_FSTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "audit_session.h"
#include "output.h"

/* The server fstab audit checks and suggest edits unless told another. */
#define SYSTEM_FSTAB "/etc/fstab"

/* What became of the subvolume of one line. */
enum fstab_state {
	FSTAB_MOUNTED, /* mounted on its mount point: nothing to say */
	FSTAB_NOT_MOUNTED, /* exists, not mounted: run mount -a */
	FSTAB_DELETED, /* its subvolume is gone: remove the line */
	FSTAB_SNAPSHOT, /* a snapshot: btrfs-ino mount's, remove the line */
	FSTAB_UNSAFE_PATH, /* others may change its path: remove the line */
};

/* One btrfs line, as libmount read it. */
struct fstab_line {
	unsigned int number; /* in the file, from 1 */
	char *source; /* as written ("UUID=..."), unescaped */
	char *target; /* the mount point, unescaped */
	uint64_t subvolid; /* its subvolid= option; 0: none */
	bool nofail; /* it has the nofail option */
	enum fstab_state state;
	/* FSTAB_UNSAFE_PATH: the judgement of its mount point; else NULL */
	struct bino_confpath *confpath;
};

/* The lines of one fstab file; release with server_fstab_free(). */
struct server_fstab {
	char *file;
	struct fstab_line *line;
	size_t n_lines;
	size_t cap_lines;
};

/*
 * Read the btrfs lines of @file at or below a path exported by @session's
 * exports files or etab into @fstab (zeroed first), each with its state
 * from @session's mount table and audit: a subvolume the audit of the path
 * holding the line met is known by its subvolid= (else by its path), a
 * snapshot when it has a parent UUID; one the audit did not meet where it
 * looked is deleted only when the filesystem's subvolume tree no longer
 * has its subvolid= or subvol= (bino_subvol_exists()): a missing mount
 * point is no deletion.
 * Below a path not audited a line is only mounted or not.  A missing file
 * has no lines; an unreadable one is said on stderr and has none; a line
 * libmount rejects is said once on stderr ("FILE:LINE: ...") and skipped.
 * Returns 0, or -1 with the reason on stderr: out of memory, or the file
 * could not be read again for its line numbers.
 */
int server_fstab_read(struct server_fstab *fstab, const char *file,
		      const struct audit_session *session);
void server_fstab_free(struct server_fstab *fstab);

/* The line of @fstab that mounts on @target and may stay, or NULL. */
const struct fstab_line *server_fstab_find(const struct server_fstab *fstab,
					   const char *target);

/*
 * "subvolume 259 deleted" or "leave this snapshot to btrfs-ino mount": why
 * a line in @state must go, or NULL when it may stay.  Written into @buf;
 * for FSTAB_UNSAFE_PATH the directory follows (put_confpath_why()).
 */
const char *fstab_line_removal(const struct fstab_line *line, char *buf,
			       size_t size);

/*
 * Why @confpath's path is not safe, on one line (the directory as comments
 * show it, quote_comment()): "/srv/x/alice is owned by uid 1000".
 */
void put_confpath_why(FILE *out, const struct bino_confpath *confpath);

/*
 * In JSON only: under @key, null for NULL or a safe path, else
 * {reason, directory, owner, errno, message}: bino_confpath_reason_name(),
 * the directory at fault, its owner (null when unknown), the errno (0 when
 * none) and put_confpath_why()'s text.
 */
void print_confpath(struct output *out, const char *key,
		    const struct bino_confpath *confpath);

/*
 * The judgement of the path of @e, an entry of @exports, from the
 * outermost other exported path above it (root chose that one); *@ret NULL
 * when no export is above it or its path is safe, else the caller's to
 * destroy.  Returns 0, or -1 with errno set (out of memory): its callers,
 * the edit makers among them, say it once.
 */
int export_confpath(const struct bino_exports *exports,
		    const struct bino_export *e, struct bino_confpath **ret);

#endif
