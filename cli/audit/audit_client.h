/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* btrfs-ino audit on an NFS client: the parts of the report only the client view has. */
#ifndef BTRFS_INO_AUDIT_CLIENT_H
#define BTRFS_INO_AUDIT_CLIENT_H

#include "btrfsino.h"
#include "output.h"

/* "view": "client" or "server"; in text, a line for the client view only. */
void audit_client_view(struct output *out, const struct bino_audit_target *target);

/*
 * In a subvolume's record, client view only: "client_st_dev" and
 * "own_filesystem" (in text: how this client shows it).
 */
void audit_client_subvol(struct output *out,
			 const struct bino_audit_target *target,
			 const struct bino_audit_subvol *subvol);

/* In text, for a client-view path not audited: why nothing can tell. */
void audit_client_cannot_tell(struct output *out,
			      const struct bino_audit_target *target);

/* Verdict wording: "unsafe on this client" or "unsafe for NFS clients". */
const char *audit_client_unsafe_word(const struct bino_audit_target *target);

/*
 * After the verdict of an unsafe client-view path: what this client can do
 * ("client_advice" in JSON, null when there is nothing to do).  Returns 0,
 * or -1 with errno set (out of memory: the advice is not whole).
 */
int audit_client_advice(struct output *out,
			 const struct bino_audit_target *target);

#endif
