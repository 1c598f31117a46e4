/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The configuration that makes an unsafe export safe, as suggest prints it
 * and audit --suggest appends it: one renderer, so the two cannot differ.
 */
#ifndef BTRFS_INO_SUGGESTION_H
#define BTRFS_INO_SUGGESTION_H

#include <stdbool.h>
#include <stdio.h>

#include "btrfsino.h"
#include "output.h"

/* The blocks, in the order of the full report; --format picks one. */
enum suggest_block {
	SUGGEST_SERVER_FSTAB,
	SUGGEST_MOUNT_UNITS,
	SUGGEST_EXPORTS,
	SUGGEST_EXPORTS_NOHIDE,
	SUGGEST_CLIENT_FSTAB,
	SUGGEST_AUTOFS,
	SUGGEST_SNAPSHOT_HOOK,
	SUGGEST_BLOCK_NR,
	SUGGEST_ALL = SUGGEST_BLOCK_NR, /* the full report */
};

/* The --format name of a block ("server-fstab"). */
const char *suggest_block_name(enum suggest_block block);
/* The block of a --format name, or -1. */
int suggest_block_from_name(const char *name);
/* Every --format name in order, ", " between, into @buf (cut to @size). */
void suggest_block_names(char *buf, size_t size);

struct server_fstab;

/* What every suggestion of one run is written with; all borrowed. */
struct suggest_config {
	const struct bino_exports *exports; /* as given to the audit */
	const struct bino_mounts *mounts; /* as given to the audit, or NULL */
	const char *server; /* in client lines; NULL: this host's name */
	const char *client_dir; /* where clients mount the path; NULL: itself */
	/* --exports as given (the snapshot hook passes it on), or NULL */
	const char *exports_file;
	/*
	 * The server fstab read (server_fstab.h): the file new lines go to and
	 * the stale lines to remove; NULL: /etc/fstab, not read.
	 */
	const struct server_fstab *fstab;
};

struct edit_list;

/*
 * Write what suggest prints for one audited path to @stream: @block
 * whenever there are subvolumes to write it for, safe or not; with
 * SUGGEST_ALL the full report when the path is unsafe, else a one-line
 * note, the stale lines below it and the client blocks.  *@needed tells
 * whether the path is unsafe.  Returns 0, or -1 with the reason on stderr
 * when no suggestion can be made (the audit of the path failed, no mount
 * holds it, a client block or the hook has no subvolume to name, or
 * memory ran out).
 */
int suggestion_write(const struct suggest_config *config,
		     const struct bino_audit_target *target,
		     enum suggest_block block, FILE *stream, bool *needed);

/*
 * Add the edits of @block (SUGGEST_SERVER_FSTAB, SUGGEST_MOUNT_UNITS or
 * SUGGEST_EXPORTS) for @target to @list (suggestion_edits.h): what that
 * block shows, as data, for --diff and --output-dir.  Those that make the
 * path safe only when it is unsafe; the removal of stale server fstab
 * lines below it always.  Returns 0, or -1 with the reason on stderr.
 */
int suggestion_edits(const struct suggest_config *config,
		     const struct bino_audit_target *target,
		     enum suggest_block block, struct edit_list *list);

/*
 * The suggestion as a JSON object under @key (NULL inside an array), see
 * btrfs-ino(1) "suggest --json": the path, whether a change is needed, the
 * facts it is made from and the text of every block, exactly as --format
 * prints it.  An export whose audit failed gets an "error" object.  Returns
 * 0, or -1 with the reason on stderr (the object then holds "error").
 */
int suggestion_json(struct output *out, const char *key,
		    const struct suggest_config *config,
		    const struct bino_audit_target *target);

/*
 * The audited path of @audit whose tree holds @target's: strictly above
 * it, on the same filesystem (mounts of one source and type), or NULL.
 * Its suggestion covers @target's subvolumes and changes @target's export
 * lines too, so @target gets no suggestion of its own (suggest, audit
 * --suggest): whatever exports overlap, each mount point is named once.
 */
const struct bino_audit_target *
suggestion_covering(const struct bino_audit *audit,
		    const struct bino_audit_target *target);

#endif
