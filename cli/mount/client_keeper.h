/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino mount --client: on an NFS client, every mount the server has
 * below the export a mount of the client's own before tools look
 * (client_keeper.c).
 */
#ifndef BTRFS_INO_CLIENT_KEEPER_H
#define BTRFS_INO_CLIENT_KEEPER_H

#include <stdbool.h>
#include <stddef.h>

struct client_options {
	size_t max_user_mounts; /* per owner other than root, below each DIR */
	size_t max_total_user_mounts; /* all owners but root, below each DIR */
	bool dry_run; /* print what would be mounted; change nothing */
	bool quiet; /* no "watching DIR" line */
	bool watch; /* keep running until SIGTERM */
};

/*
 * Mount each server mount below each of the @n_dirs NFS mounts @dirs, and
 * with @opts->watch keep doing so (and unmount the ones the server no
 * longer has) until SIGTERM or SIGINT.  The command's exit status: 0 done
 * (or ended by a signal), 1 a mount failed, 2 a DIR that is no NFS mount
 * or a keeper that cannot start (said on stderr).
 */
int client_keeper_run(const struct client_options *opts, char *const *dirs,
		      size_t n_dirs);

#endif
