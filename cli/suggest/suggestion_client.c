/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The clients' blocks of a suggestion: client fstab lines and the autofs
 * multi-mount entry that may stand in for them, each mounting the export
 * and every subvolume explicitly.  Both follow the server's NFSv4
 * pseudo-root (an fsid=0 export, found once by find_v4_root()): NFSv4
 * lines name paths below it and pin vers=4, with NFSv3 lines beside them.
 * The autofs entry holds only what Debian's automount reads back as meant
 * (quote.h), up to the length automount reads of an entry.
 */
#include "suggestion_ctx.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "quote.h"

#define AUTOFS_MAP "/etc/auto.btrfs-ino"

/* The path below the export of a subvolume, e.g. "/spool" ("" for the export). */
static const char *rel_path(const struct suggest_ctx *ctx, const char *path)
{
	size_t len = strlen(ctx->path);

	if (strcmp(ctx->path, "/") == 0)
		return path;
	return strncmp(path, ctx->path, len) == 0 ? path + len : path;
}

/*
 * Where a client mounts the server path @path; 0, or -1 with errno set
 * (out of memory: nothing written, never the server path in its place).
 */
static int put_client_path(const struct suggest_ctx *ctx, const char *path,
			   void (*put)(FILE *, const char *))
{
	const char *dir = ctx->config->client_dir ? ctx->config->client_dir : ctx->path;
	const char *rel = rel_path(ctx, path);
	size_t len = strlen(dir);
	char *joined = malloc(len + strlen(rel) + 2);

	if (!joined)
		return -1;
	strcpy(joined, dir);
	while (len > 1 && joined[len - 1] == '/')
		joined[--len] = '\0';
	strcpy(joined + (strcmp(joined, "/") == 0 && *rel ? 0 : len), rel);
	put(ctx->out, joined);
	free(joined);
	return 0;
}

/* "line 3 of FILE", or "lines 3-5 of FILE" for a continued entry. */
static void put_line_range(FILE *out, const struct bino_export *e)
{
	unsigned int first = bino_export_line(e), last = bino_export_last_line(e);

	if (last > first)
		fprintf(out, "lines %u-%u of ", first, last);
	else
		fprintf(out, "line %u of ", first);
	quote_fstab_field(out, bino_export_file(e));
}

/* Whether @fsid makes an export the NFSv4 pseudo-root: "root" or 0. */
static bool is_v4_root_fsid(const char *fsid)
{
	return fsid && (strcmp(fsid, "root") == 0 ||
			(*fsid && strspn(fsid, "0") == strlen(fsid)));
}

/*
 * The fsid=0 export NFSv4 clients of the path start from: one for a client
 * (as written) of a line that exports the path, else the first.  Without
 * one, knfsd makes the pseudo-root "/" and NFSv4 paths are the server's.
 */
void find_v4_root(struct suggest_ctx *ctx)
{
	const struct bino_exports *exports = ctx->config->exports;
	const struct bino_export *line, *first = NULL;
	size_t i, j, n = exports ? bino_exports_count(exports) : 0;
	char *resolved;

	for (i = 0; i < n && !ctx->v4_root_export; i++) {
		const struct bino_export *e = bino_exports_get(exports, i);

		if (!is_v4_root_fsid(bino_export_fsid(e)))
			continue;
		if (!first)
			first = e;
		for (j = 0; (line = next_export_line(ctx, &j));) {
			if (strcmp(bino_export_client(line), bino_export_client(e)) == 0)
				ctx->v4_root_export = e;
		}
	}
	if (!ctx->v4_root_export)
		ctx->v4_root_export = first;
	if (!ctx->v4_root_export)
		return;
	resolved = realpath(bino_export_path(ctx->v4_root_export), NULL);
	snprintf(ctx->v4_root, sizeof(ctx->v4_root), "%s",
		 resolved ? resolved : bino_export_path(ctx->v4_root_export));
	free(resolved);
}

/*
 * The path an NFS @vers (3 or 4) client mounts for server path @path:
 * itself, or (NFSv4 with a pseudo-root) relative to the pseudo-root, "/"
 * for the root itself; NULL when NFSv4 clients cannot reach it.
 */
static const char *mount_path(const struct suggest_ctx *ctx, const char *path,
			      int vers)
{
	size_t len = strlen(ctx->v4_root);

	if (vers != 4 || !ctx->v4_root_export || strcmp(ctx->v4_root, "/") == 0)
		return path;
	if (strncmp(path, ctx->v4_root, len) != 0 ||
	    (path[len] != '/' && path[len] != '\0'))
		return NULL;
	return path[len] ? path + len : "/";
}

/* The NFS versions the client lines are for: none pinned, or 4 then 3. */
static int client_versions(const struct suggest_ctx *ctx, int vers[2])
{
	if (!ctx->v4_root_export || strcmp(ctx->v4_root, "/") == 0) {
		vers[0] = 0;
		return 1;
	}
	if (!mount_path(ctx, ctx->path, 4)) {
		vers[0] = 3;
		return 1;
	}
	vers[0] = 4;
	vers[1] = 3;
	return 2;
}

/* What the client blocks say about NFS versions. */
static void put_versions_comment(const struct suggest_ctx *ctx,
				 const char *alternative)
{
	FILE *out = ctx->out;
	int vers[2];

	if (client_versions(ctx, vers) == 1 && vers[0] == 0) {
		fputs("# Works with NFSv3 and NFSv4 (add vers= to pin one); parents first.\n", out);
		return;
	}
	fputs("# The server has an NFSv4 pseudo-root: fsid=0 on ", out);
	quote_fstab_field(out, ctx->v4_root);
	fputs(" (", out);
	put_line_range(out, ctx->v4_root_export);
	fputs(").\n# NFSv4 clients name paths relative to it, NFSv3 clients by the server's\n", out);
	if (vers[0] == 3)
		fprintf(out, "# path.  %s is outside it, so NFSv4 clients cannot reach it: the\n"
			     "# lines pin vers=3.  Parents first.\n", ctx->shown_path);
	else
		fprintf(out, "# path: the lines pin vers=4; for NFSv3 use %s\n"
			     "# (vers=3, server paths) instead.  Parents first.\n", alternative);
}

/*
 * put_client_path() of the export into a string (the client's DIR, as
 * @put writes it), or NULL with errno set (out of memory).
 */
static char *client_dir(const struct suggest_ctx *ctx,
			void (*put)(FILE *, const char *))
{
	struct suggest_ctx c = *ctx;
	struct text t;

	c.out = text_open(&t);
	if (!c.out)
		return NULL;
	if (put_client_path(&c, ctx->path, put) != 0) {
		int errnum = errno;

		if (text_close(&t) == 0)
			free(t.buf);
		errno = errnum;
		return NULL;
	}
	return text_close(&t) == 0 ? t.buf : NULL;
}

static void put_raw(FILE *out, const char *s)
{
	fputs(s, out);
}

int client_keeper(const struct suggest_ctx *ctx, char **dir, char **unit)
{
	static const char prefix[] = "btrfs-ino-client@", suffix[] = ".mount";
	char *name = client_dir(ctx, quote_mount_unit_name);
	size_t len = name ? strlen(name) : 0;

	*dir = name ? client_dir(ctx, put_raw) : NULL;
	*unit = *dir ? malloc(sizeof(prefix) + len + strlen(".service")) : NULL;
	if (!*unit) {
		free(name);
		free(*dir);
		*dir = NULL;
		errno = ENOMEM;
		return -1;
	}
	/* The mount unit's name is the instance, escaped, then ".mount". */
	if (len >= strlen(suffix))
		name[len - strlen(suffix)] = '\0';
	sprintf(*unit, "%s%s.service", prefix, name);
	free(name);
	return 0;
}

/*
 * What both client blocks say first: explicit mounts are for a static
 * layout and for clients that are not Linux; a Linux client of a server
 * that rotates snapshots runs the client keeper on its mount DIR (the
 * command, and its unit: client_keeper()), which mounts each new server
 * mount before tools look and removes a deleted one's: no line per
 * snapshot on any client.  0, or -1 with the reason on stderr (out of
 * memory).
 */
static int put_keeper_comment(const struct suggest_ctx *ctx, const char *what)
{
	char *dir, *unit;

	if (client_keeper(ctx, &dir, &unit) != 0) {
		diag_no_memory();
		return -1;
	}
	fprintf(ctx->out,
		"# %s.\n"
		"# They are for a static layout and for clients that are not Linux.\n"
		"# A Linux client whose server rotates snapshots runs the client keeper\n"
		"# instead: it mounts each subvolume the server has mounted below DIR (an\n"
		"# NFS mount of the export) before tools look, and removes a deleted\n"
		"# one's mount, with no line per snapshot on any client:\n"
		"#   btrfs-ino mount --watch --client ", what);
	quote_sh_word(ctx->out, dir);
	fprintf(ctx->out, "\n"
		"# or: systemctl enable --now %s\n"
		"# Without either, a client crosses into a server mount only when it\n"
		"# traverses it: find's lstat of the directory comes first and shows the\n"
		"# parent's device (a loop), and NFS submounts expire when idle, so tools\n"
		"# that start cold meet the loops again.\n", unit);
	free(dir);
	free(unit);
	return 0;
}

/*
 * One client fstab line: the server's @path on its client mount point; 0,
 * or -1 with errno set (out of memory: the line is left unfinished).
 */
static int put_client_fstab_line(const struct suggest_ctx *ctx,
				 const char *path, int vers, const char *prefix)
{
	fprintf(ctx->out, "%s%s:", prefix, ctx->server);
	quote_fstab_field(ctx->out, mount_path(ctx, path, vers));
	fputc(' ', ctx->out);
	if (put_client_path(ctx, path, quote_fstab_field) != 0)
		return -1;
	if (vers)
		fprintf(ctx->out, " nfs _netdev,vers=%d 0 0\n", vers);
	else
		fputs(" nfs _netdev 0 0\n", ctx->out);
	return 0;
}

int block_client_fstab(const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug);
	FILE *out = ctx->out;
	int v, n_vers, vers[2];

	if (put_keeper_comment(ctx, "Client /etc/fstab: the export and every subvolume mounted\n"
				    "# explicitly, so that tools work from a cold start") != 0)
		return -1;
	put_versions_comment(ctx, "the commented lines after them");
	n_vers = client_versions(ctx, vers);
	for (v = 0; v < n_vers; v++) {
		const char *prefix = v ? "#" : "";

		if (v)
			fputs("# NFSv3:\n", out);
		if (put_client_fstab_line(ctx, ctx->path, vers[v], prefix) != 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (config_safe(ctx, i)) {
				if (put_client_fstab_line(ctx, subvol_path(ctx, i),
							  vers[v], prefix) != 0)
					return -1;
			} else if (v == 0) {
				put_left_comment(ctx, i);
			}
		}
	}
	return 0;
}

/* Why server path @path has no place in the autofs map (quote.h), or NULL. */
static const char *autofs_refusal(const struct suggest_ctx *ctx, const char *path)
{
	const char *dir = ctx->config->client_dir;
	const char *reason = quote_autofs_refusal(path);

	return reason || !dir ? reason : quote_autofs_refusal(dir);
}

/*
 * Why the entry cannot be written at all, or NULL: its key (the export's
 * client path) or the location of its "/" offset (the export's path).
 */
static const char *autofs_root_refusal(const struct suggest_ctx *ctx)
{
	const char *dir = ctx->config->client_dir;
	const char *reason = quote_autofs_root_refusal(ctx->path);

	return reason ? reason : quote_autofs_key_refusal(dir ? dir : ctx->path);
}

/* "/OFFSET LOCATION" of server path @path ("/" for the export itself). */
static void put_autofs_offset(FILE *out, const struct suggest_ctx *ctx,
			      const char *path, int vers)
{
	const char *rel = rel_path(ctx, path);

	quote_autofs_path(out, *rel ? rel : "/");
	fputc(' ', out);
	quote_autofs_location(out, ctx->server, mount_path(ctx, path, vers));
}

/* The length of put_autofs_offset()'s text, or SIZE_MAX with errno set. */
static size_t autofs_offset_len(const struct suggest_ctx *ctx,
				const char *path, int vers)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return SIZE_MAX;
	put_autofs_offset(f, ctx, path, vers);
	if (fclose(f) != 0)
		len = SIZE_MAX;
	free(text);
	return len;
}

/*
 * How many of the subvolumes, in order, the entry can hold, in *@fit:
 * automount drops an entry longer than it reads whole
 * (quote_autofs_entry_refusal()), so the ones after are left out.  Counted
 * with the longer locations (NFSv3's, or unpinned) and " \t" before each
 * offset, as automount reads them.  0, or -1 with errno set (out of memory:
 * never taken for an entry too long).
 */
static int autofs_fit(const struct suggest_ctx *ctx, size_t *fit)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug), used, len;
	int vers[2], n_vers = client_versions(ctx, vers), v = vers[n_vers - 1];

	len = autofs_offset_len(ctx, ctx->path, v);
	if (len == SIZE_MAX)
		return -1;
	used = strlen("-fstype=nfs,vers=3 \t") + len;
	for (i = 0; i < n; i++) {
		if (autofs_refusal(ctx, subvol_path(ctx, i)) || !config_safe(ctx, i))
			continue;
		len = autofs_offset_len(ctx, subvol_path(ctx, i), v);
		if (len == SIZE_MAX)
			return -1;
		if (quote_autofs_entry_refusal(used + 2 + len))
			break;
		used += 2 + len;
	}
	*fit = i;
	return 0;
}

/*
 * The autofs multi-mount entry for NFS @vers (0: unpinned), its lines
 * joined by @sep (" \\\n\t", or " " for the one-line commented form), with
 * the first @fit subvolumes.  Subvolumes the map cannot name are left out
 * (block_autofs says why).  0, or -1 with errno set (out of memory: the
 * entry is left unfinished).
 */
static int put_autofs_entry(const struct suggest_ctx *ctx, int vers,
			    const char *prefix, const char *sep, size_t fit)
{
	size_t i;
	FILE *out = ctx->out;

	fputs(prefix, out);
	if (put_client_path(ctx, ctx->path, quote_autofs_path) != 0)
		return -1;
	fputs(" -fstype=nfs", out);
	if (vers)
		fprintf(out, ",vers=%d", vers);
	fputs(sep, out);
	put_autofs_offset(out, ctx, ctx->path, vers);
	for (i = 0; i < fit; i++) {
		if (autofs_refusal(ctx, subvol_path(ctx, i)) || !config_safe(ctx, i))
			continue;
		fputs(sep, out);
		put_autofs_offset(out, ctx, subvol_path(ctx, i), vers);
	}
	fputc('\n', out);
	return 0;
}

int block_autofs(const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug), fit;
	const char *reason;
	int n_vers, vers[2];

	if (put_keeper_comment(ctx, "Client autofs map (instead of the client fstab): one direct-map\n"
				    "# multi-mount entry, so the export and every subvolume are mounted\n"
				    "# together, explicitly, on first access") != 0)
		return -1;
	fputs("# Put it in " AUTOFS_MAP " and the line \"/- " AUTOFS_MAP "\" in\n"
	      "# /etc/auto.master; tested with Debian 12's automount.  vers= goes\n"
	      "# after -fstype=nfs.\n", ctx->out);
	put_versions_comment(ctx, "the commented entry after it");
	reason = autofs_root_refusal(ctx);
	if (reason) {
		put_refusal(ctx, ctx->path, reason);
		return 0;
	}
	if (autofs_fit(ctx, &fit) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		reason = autofs_refusal(ctx, subvol_path(ctx, i));
		if (!reason && i >= fit)
			reason = quote_autofs_entry_refusal(SIZE_MAX);
		if (!config_safe(ctx, i))
			put_left_comment(ctx, i);
		else if (reason)
			put_refusal(ctx, subvol_path(ctx, i), reason);
	}
	n_vers = client_versions(ctx, vers);
	if (put_autofs_entry(ctx, vers[0], "", " \\\n\t", fit) != 0)
		return -1;
	if (n_vers > 1) {
		fputs("# NFSv3:\n", ctx->out);
		return put_autofs_entry(ctx, vers[1], "#", " ", fit);
	}
	return 0;
}
