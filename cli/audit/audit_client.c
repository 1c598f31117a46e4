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

/* One fstab line: the server's directory of client path @path. */
static void put_fstab_line(FILE *f, const struct advice *adv, const char *path)
{
	const char *target = bino_mount_target(adv->mount);
	const char *rel = path + strlen(target);
	char *server;

	fputs(adv->host, f);
	if (asprintf(&server, "%s%s", server_path(adv->mount), rel) < 0)
		return;
	quote_fstab_field(f, server);
	free(server);
	fputc(' ', f);
	quote_fstab_field(f, path);
	fprintf(f, " %s _netdev%s%s 0 0", adv->fstype, *adv->vers ? "," : "",
		adv->vers);
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

/* Client fstab lines: the mount itself, then each plain subvolume. */
static void print_fstab(struct output *out, const struct advice *adv,
			const struct bino_audit_target *target)
{
	size_t i, n = bino_audit_target_subvol_count(target);
	char *line;
	size_t len;
	FILE *f;

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
			continue;
		put_fstab_line(f, adv, i ? path : bino_mount_target(adv->mount));
		if (fclose(f) == 0) {
			print_line(out, line);
			free(line);
		}
	}
	output_close(out);
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
	if (fclose(f) != 0)
		return NULL;
	return text;
}

/*
 * The autofs direct-map entry: the mount, then each plain subvolume, quoted
 * as suggest quotes its map (quote.h); a subvolume the map cannot carry, or
 * that no longer fits in what automount reads of an entry, is left out and
 * said why after it, and an entry whose own key or location it cannot
 * carry is not written (null), with the reason.
 */
static void print_autofs(struct output *out, const struct advice *adv,
			 const struct bino_audit_target *target)
{
	size_t i, n = bino_audit_target_subvol_count(target);
	const char *mount_point = bino_mount_target(adv->mount);
	const char *root = server_path(adv->mount);
	const char *reason = quote_autofs_root_refusal(root);
	char *host = strndup(adv->host, strlen(adv->host) - 1); /* no ':' */
	char *entry = NULL, *refused = NULL;
	size_t len, refused_len, used = 0;
	bool full = false;
	FILE *f = NULL, *notes = NULL;
	long start;

	if (!reason)
		reason = quote_autofs_key_refusal(mount_point);
	if (reason) {
		print_string(out, PRINT_TEXT, NULL, "    # not written: %s\n", reason);
		print_string(out, PRINT_JSON, "autofs", NULL, NULL);
		goto out_host;
	}
	f = open_memstream(&entry, &len);
	notes = open_memstream(&refused, &refused_len);
	if (!host || !f || !notes)
		goto out_streams;
	quote_autofs_path(f, mount_point);
	fputc(' ', f);
	start = ftell(f);
	fprintf(f, "-fstype=nfs%s%s / ", *adv->vers ? "," : "", adv->vers);
	quote_autofs_location(f, host, root);
	used = (size_t)(ftell(f) - start);
	for (i = 0; i < n; i++) {
		const struct bino_audit_subvol *subvol =
			bino_audit_target_subvol(target, i);
		const char *path = bino_audit_subvol_path(subvol);
		const char *rel;
		char *server, *text = NULL;

		if (!plain_subvol(subvol))
			continue;
		rel = path + strlen(mount_point);
		if (asprintf(&server, "%s%s", root, rel) < 0)
			continue;
		reason = quote_autofs_refusal(server);
		if (!reason)
			reason = quote_autofs_refusal(path);
		if (!reason) {
			text = autofs_offset(rel, host, server);
			full = full || !text ||
			       quote_autofs_entry_refusal(used + 1 + strlen(text));
			if (full)
				reason = quote_autofs_entry_refusal(SIZE_MAX);
		}
		if (reason) {
			fputs("    # not written: ", notes);
			quote_comment(notes, path);
			fprintf(notes, ": %s\n", reason);
		} else if (text) { /* never NULL here: a missing one is "full" */
			fprintf(f, " %s", text);
			used += 1 + strlen(text);
		}
		free(text);
		free(server);
	}
out_streams:
	if (notes && fclose(notes) != 0)
		refused = NULL;
	if (f && fclose(f) == 0 && notes) {
		print_string(out, PRINT_ANY, "autofs", "    %s\n", entry);
		if (refused)
			print_string(out, PRINT_TEXT, NULL, "%s", refused);
	}
	free(entry);
	free(refused);
out_host:
	free(host);
}

void audit_client_advice(struct output *out, const struct bino_audit_target *target)
{
	const struct bino_mount *mount = bino_audit_target_mount(target);
	const char *path = server_path(mount);
	struct advice adv = { .mount = mount, .fstype = "nfs" };
	char *host = NULL, *vers;

	if (!bino_audit_target_client_view(target))
		return;
	if (!audit_target_unsafe(target) || !path) {
		print_string(out, PRINT_JSON, "client_advice", NULL, NULL);
		return;
	}
	vers = mount_vers(mount);
	host = strndup(bino_mount_source(mount),
		       (size_t)(path - bino_mount_source(mount)));
	if (!vers || !host) {
		free(vers);
		free(host);
		return;
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
	print_fstab(out, &adv, target);
	print_string(out, PRINT_TEXT, NULL, "%s",
		     "  or an autofs direct-map entry (in a map named in /etc/auto.master as \"/-\"):\n");
	print_autofs(out, &adv, target);
	print_string(out, PRINT_ANY, "exec",
		     "  else, with the server unchanged: %s\n",
		     "btrfs-ino exec -- COMMAND [ARG]...");
	output_close(out);
	free(vers);
	free(host);
}
