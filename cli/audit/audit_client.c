/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino audit on an NFS client (bino_audit_target_client_view()): how
 * this client shows each server subvolume it reaches (a filesystem of its
 * own, or a plain directory of its parent), why it cannot tell without file
 * handles, and what it can do: mount those paths explicitly (client fstab
 * lines or an autofs map, as suggest writes them, if the server mounts and
 * exports them), else run its tools under btrfs-ino exec.
 */
#include "audit_client.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "report.h"

void audit_client_view(struct output *out, const struct bino_audit_target *target)
{
	const struct bino_mount *mount = bino_audit_target_mount(target);
	bool client = bino_audit_target_client_view(target);

	print_string(out, PRINT_JSON, "view", NULL, client ? "client" : "server");
	if (!client || !mount)
		return;
	print_string(out, PRINT_TEXT, NULL, "%s",
		     "  view: this NFS client's, on ");
	print_mount_text(out, mount);
	print_string(out, PRINT_TEXT, NULL, "%s\n",
		     " (the export options are the server's: unknown here)");
}

void audit_client_subvol(struct output *out,
			 const struct bino_audit_target *target,
			 const struct bino_audit_subvol *subvol)
{
	bool own = bino_audit_subvol_own_filesystem(subvol);

	if (!bino_audit_target_client_view(target))
		return;
	print_dev(out, PRINT_JSON, "client_st_dev", NULL,
		  bino_audit_subvol_client_dev(subvol));
	print_bool(out, PRINT_JSON, "own_filesystem", NULL, own);
	print_string(out, PRINT_TEXT, NULL, "%s",
		     own ? "; here a filesystem of its own, st_dev " :
			   "; here a plain directory, st_dev ");
	print_dev(out, PRINT_TEXT, NULL, "%s",
		  bino_audit_subvol_client_dev(subvol));
}

void audit_client_cannot_tell(struct output *out,
			      const struct bino_audit_target *target)
{
	if (!bino_audit_target_client_view(target))
		return;
	print_string(out, PRINT_ANY, "cannot_tell",
		     "  cannot tell: %s\n",
		     bino_audit_target_errno(target) == EOPNOTSUPP ?
			     "this client gets no file handles from the mount "
			     "(NFSv4.0 does not give them), so nothing here can "
			     "tell the server's subvolumes apart; mount with "
			     "vers=3 or vers=4.1 and later to audit it" :
			     "the server's subvolumes cannot be told apart from "
			     "the file handles here");
}

const char *audit_client_unsafe_word(const struct bino_audit_target *target)
{
	return bino_audit_target_client_view(target) ? "unsafe on this client" :
						    "unsafe for NFS clients";
}

/* The server's path of the mount @mount ("host:/path"), or NULL. */
static const char *server_path(const struct bino_mount *mount)
{
	const char *source = bino_mount_source(mount);
	const char *colon = strstr(source, ":/");

	return colon ? colon + 1 : NULL;
}

/* The vers= of @mount's options, "" if none; NULL with errno set (out of memory). */
static char *mount_vers(const struct bino_mount *mount)
{
	const char *options = bino_mount_options(mount);
	const char *v = strstr(options, "vers=");
	size_t len;

	while (v && v != options && v[-1] != ',')
		v = strstr(v + 1, "vers=");
	if (!v)
		return strdup("");
	len = strcspn(v, ",");
	return strndup(v, len);
}

/* What the client lines are written from. */
struct advice {
	const struct bino_mount *mount;
	const char *host; /* "host:" */
	const char *vers;
	const char *fstype;
};

/*
 * One fstab line: the server's directory of client path @path.  Returns 0,
 * or -1 with errno set (out of memory).
 */
static int put_fstab_line(FILE *f, const struct advice *adv, const char *path)
{
	const char *target = bino_mount_target(adv->mount);
	const char *rel = path + strlen(target);
	char *server;

	if (asprintf(&server, "%s%s", server_path(adv->mount), rel) < 0)
		return -1;
	fputs(adv->host, f);
	quote_fstab_field(f, server);
	free(server);
	fputc(' ', f);
	quote_fstab_field(f, path);
	fprintf(f, " %s _netdev%s%s 0 0", adv->fstype, *adv->vers ? "," : "",
		adv->vers);
	return 0;
}

/* The subvolumes this client shows as plain directories, below the path. */
static bool plain_subvol(const struct bino_audit_subvol *subvol)
{
	return !bino_audit_subvol_own_filesystem(subvol) &&
	       bino_audit_subvol_path(subvol);
}

static void print_line(struct output *out, const char *line)
{
	print_string(out, PRINT_ANY, NULL, "    %s\n", line);
}

/*
 * Client fstab lines: the mount itself, then each plain subvolume.
 * Returns 0, or -1 with errno set (out of memory).
 */
static int print_fstab(struct output *out, const struct advice *adv,
		       const struct bino_audit_target *target)
{
	size_t i, n = bino_audit_target_subvol_count(target);
	char *line = NULL;
	size_t len;
	FILE *f;
	int put;

	output_open_array(out, "fstab");
	for (i = 0; i <= n; i++) {
		const char *path = bino_audit_target_path(target);

		if (i) {
			const struct bino_audit_subvol *subvol =
				bino_audit_target_subvol(target, i - 1);

			if (!plain_subvol(subvol))
				continue;
			path = bino_audit_subvol_path(subvol);
		}
		f = open_memstream(&line, &len);
		if (!f)
			return -1;
		put = put_fstab_line(f, adv, i ? path : bino_mount_target(adv->mount));
		if (memstream_close(f, &line) != 0 || put != 0) {
			free(line);
			errno = ENOMEM;
			return -1;
		}
		print_line(out, line);
		free(line);
	}
	output_close(out);
	return 0;
}

/* "/OFFSET HOST:SERVER" of an autofs entry, malloc'ed, or NULL with errno set. */
static char *autofs_offset(const char *rel, const char *host, const char *server)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	quote_autofs_path(f, rel);
	fputc(' ', f);
	quote_autofs_location(f, host, server);
	return memstream_close(f, &text) == 0 ? text : NULL;
}

/* The autofs entry being written: its text, the notes after it, its size. */
struct autofs_entry {
	FILE *f; /* the entry */
	FILE *notes; /* "# not written: ..." lines */
	const char *host; /* without the ':' */
	const char *root; /* the server path of the mount */
	const char *mount_point;
	size_t used; /* what automount counts of the entry so far */
	bool full; /* an offset did not fit: none after it either */
};

/*
 * Add @subvol's offset to @entry, or a note saying why it is left out.
 * Returns 0, or -1 with errno set (out of memory).
 */
static int autofs_add_offset(struct autofs_entry *entry,
			     const struct bino_audit_subvol *subvol)
{
	const char *path = bino_audit_subvol_path(subvol);
	const char *rel = path + strlen(entry->mount_point);
	const char *reason;
	char *server, *text = NULL;

	if (asprintf(&server, "%s%s", entry->root, rel) < 0)
		return -1;
	reason = quote_autofs_refusal(server);
	if (!reason)
		reason = quote_autofs_refusal(path);
	if (!reason && !entry->full) {
		text = autofs_offset(rel, entry->host, server);
		if (!text) {
			free(server);
			return -1;
		}
		entry->full = quote_autofs_entry_refusal(entry->used + 1 +
							strlen(text)) != NULL;
	}
	if (!reason && entry->full)
		reason = quote_autofs_entry_refusal(SIZE_MAX);
	if (reason) {
		fputs("    # not written: ", entry->notes);
		quote_comment(entry->notes, path);
		fprintf(entry->notes, ": %s\n", reason);
	} else {
		fprintf(entry->f, " %s", text);
		entry->used += 1 + strlen(text);
	}
	free(text);
	free(server);
	return 0;
}

/*
 * The autofs direct-map entry: the mount, then each plain subvolume, quoted
 * as suggest quotes its map (quote.h); a subvolume the map cannot carry, or
 * that no longer fits in what automount reads of an entry, is left out and
 * said why after it, and an entry whose own key or location it cannot
 * carry is not written (null), with the reason.  Returns 0, or -1 with
 * errno set (out of memory: nothing printed).
 */
static int print_autofs(struct output *out, const struct advice *adv,
			const struct bino_audit_target *target)
{
	size_t i, len, refused_len, n = bino_audit_target_subvol_count(target);
	struct autofs_entry entry = {
		.root = server_path(adv->mount),
		.mount_point = bino_mount_target(adv->mount),
	};
	const char *reason = quote_autofs_root_refusal(entry.root);
	char *host = NULL, *text = NULL, *refused = NULL;
	int ret = -1;
	long start;

	if (!reason)
		reason = quote_autofs_key_refusal(entry.mount_point);
	if (reason) {
		print_string(out, PRINT_TEXT, NULL, "    # not written: %s\n", reason);
		print_string(out, PRINT_JSON, "autofs", NULL, NULL);
		return 0;
	}
	host = strndup(adv->host, strlen(adv->host) - 1); /* no ':' */
	entry.host = host;
	entry.f = open_memstream(&text, &len);
	entry.notes = open_memstream(&refused, &refused_len);
	if (!host || !entry.f || !entry.notes)
		goto out_streams;
	quote_autofs_path(entry.f, entry.mount_point);
	fputc(' ', entry.f);
	start = ftell(entry.f);
	fprintf(entry.f, "-fstype=nfs%s%s / ", *adv->vers ? "," : "", adv->vers);
	quote_autofs_location(entry.f, host, entry.root);
	entry.used = (size_t)(ftell(entry.f) - start);
	ret = 0;
	for (i = 0; i < n && ret == 0; i++) {
		const struct bino_audit_subvol *subvol =
			bino_audit_target_subvol(target, i);

		if (plain_subvol(subvol))
			ret = autofs_add_offset(&entry, subvol);
	}
out_streams:
	if (entry.notes && memstream_close(entry.notes, &refused) != 0)
		ret = -1;
	if (entry.f && memstream_close(entry.f, &text) != 0)
		ret = -1;
	if (ret == 0) {
		print_string(out, PRINT_ANY, "autofs", "    %s\n", text);
		print_string(out, PRINT_TEXT, NULL, "%s", refused);
	}
	free(text);
	free(refused);
	free(host);
	if (ret != 0)
		errno = ENOMEM; /* what every step above fails for */
	return ret;
}

int audit_client_advice(struct output *out, const struct bino_audit_target *target)
{
	const struct bino_mount *mount = bino_audit_target_mount(target);
	const char *path = server_path(mount);
	struct advice adv = { .mount = mount, .fstype = "nfs" };
	char *host = NULL, *vers;
	int ret;

	if (!bino_audit_target_client_view(target))
		return 0;
	if (!audit_target_unsafe(target) || !path) {
		print_string(out, PRINT_JSON, "client_advice", NULL, NULL);
		return 0;
	}
	vers = mount_vers(mount);
	host = strndup(bino_mount_source(mount),
		       (size_t)(path - bino_mount_source(mount)));
	if (!vers || !host) {
		free(vers);
		free(host);
		errno = ENOMEM;
		return -1;
	}
	adv.host = host;
	adv.vers = vers;
	output_open_object(out, "client_advice");
	print_string(out, PRINT_TEXT, NULL, "%s",
		     "  what this client can do: mount the subvolumes it shows as plain\n"
		     "  directories explicitly, if the server mounts and exports them\n"
		     "  (btrfs-ino suggest on the server; this client cannot know):\n"
		     "  client /etc/fstab (parents first):\n");
	print_bool(out, PRINT_JSON, "if_server_exports", NULL, true);
	ret = print_fstab(out, &adv, target);
	if (ret == 0) {
		print_string(out, PRINT_TEXT, NULL, "%s",
			     "  or an autofs direct-map entry (in a map named in /etc/auto.master as \"/-\"):\n");
		ret = print_autofs(out, &adv, target);
	}
	if (ret == 0)
		print_string(out, PRINT_ANY, "exec",
			     "  else, with the server unchanged: %s\n",
			     "btrfs-ino exec -- COMMAND [ARG]...");
	output_close(out);
	free(vers);
	free(host);
	return ret;
}
