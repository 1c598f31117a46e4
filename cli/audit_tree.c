/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tree that opens the audit's text report, in the manner of findmnt's
 * and lsblk's trees: each export, the subvolumes below it under the
 * subvolume holding them, the server mounts of each subvolume, every node
 * with its verdict, so that an admin sees at a glance where the loops are.
 *
 * Components: tree_nest() finds each subvolume's parent row,
 * tree_attribute() spreads the colliding subvolume pairs over the
 * subvolumes, tree_place_mounts() hangs each server mount under a row;
 * tree_export(), tree_subvol(), tree_kids() and tree_mounts() add one row
 * per node (branch characters, name, verdict, details) to struct tree;
 * tree_write() prints the rows with the columns aligned.  Only the public
 * audit API is used.
 */
#include "audit_tree.h"

#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report.h"

/* A parent with more snapshots than this shows the first and last few. */
#define TREE_SNAPSHOTS_MAX 8
#define TREE_SNAPSHOTS_EDGE 3
/* Columns wider than this are not padded: one long path must not push all. */
#define TREE_NAME_COLUMN_MAX 48
#define TREE_VERDICT_COLUMN_MAX 40

#define NO_PARENT SIZE_MAX /* the export's row */
#define OWN_MOUNT (SIZE_MAX - 1) /* a subvolume's own mount, shown with it */

struct tree_style {
	const char *branch, *last, *vertical, *blank, *more;
};

static const struct tree_style tree_utf8 = {
	"\u251c\u2500 ", "\u2514\u2500 ", "\u2502  ", "   ", "\u2026",
};
static const struct tree_style tree_ascii = { "|- ", "`- ", "|  ", "   ", "..." };

struct tree_row {
	char *lead; /* branch characters */
	char *name, *verdict, *details;
};

struct tree {
	const struct tree_style *style;
	bool full;
	struct tree_row *rows;
	size_t n_rows, cap_rows;
	/* The branch characters of the current node's ancestors. */
	char *lead;
	size_t lead_len, lead_cap;
	bool failed;

	/* The export being drawn, per subvolume index. */
	const struct bino_audit_target *exp;
	size_t n_subvols;
	size_t *parent; /* index of the subvolume holding it, or NO_PARENT */
	uint64_t (*counts)[BINO_COLLISION_NR]; /* attributed to it */
	size_t *partners; /* pairs it is in whose counts are elsewhere */
	uint64_t *partner_ids; /* the last of those */
	size_t *placed; /* per submount: the subvolume row it hangs from */
	uint64_t unattributed[BINO_COLLISION_NR];
};

/* ---- strings ----------------------------------------------------------- */

static char *tree_printf(struct tree *tree, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *tree_printf(struct tree *tree, const char *fmt, ...)
{
	va_list args;
	char *text;
	int len;

	va_start(args, fmt);
	len = vasprintf(&text, fmt, args);
	va_end(args);
	if (len < 0) {
		tree->failed = true;
		return NULL;
	}
	return text;
}

/* A path escaped for one line of text (as walk and the report print it). */
static char *tree_path(struct tree *tree, const char *path)
{
	char *escaped = text_escape(path, strlen(path));

	if (!escaped)
		tree->failed = true;
	return escaped;
}

/* "LOOP 4 / hardlink 0 / plain 12": loops shout, they stop find. */
static char *tree_counts(struct tree *tree, const uint64_t *counts)
{
	return tree_printf(tree, "%s %" PRIu64 " / hardlink %" PRIu64
			   " / plain %" PRIu64,
			   counts[BINO_COLLISION_LOOP] ? "LOOP" : "loop",
			   counts[BINO_COLLISION_LOOP],
			   counts[BINO_COLLISION_HARDLINK],
			   counts[BINO_COLLISION_PLAIN]);
}

static bool counts_zero(const uint64_t *counts)
{
	int c;

	for (c = 0; c < BINO_COLLISION_NR; c++) {
		if (counts[c])
			return false;
	}
	return true;
}

/* Whether @path is @dir or below it. */
static bool path_below(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(path, dir, len) == 0 && (path[len] == '/' || !path[len]);
}

/* Display columns of a UTF-8 string (one per character). */
static size_t columns(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* ---- rows -------------------------------------------------------------- */

/* Add a row; takes @name, @verdict and @details (NULL after a failure). */
static void tree_add(struct tree *tree, const char *branch, char *name,
		     char *verdict, char *details)
{
	struct tree_row *row;

	if (!tree->failed && tree->n_rows == tree->cap_rows) {
		size_t cap = tree->cap_rows ? 2 * tree->cap_rows : 64;
		struct tree_row *rows = realloc(tree->rows, cap * sizeof(*rows));

		if (!rows) {
			tree->failed = true;
		} else {
			tree->rows = rows;
			tree->cap_rows = cap;
		}
	}
	if (tree->failed || !name || !verdict || !details) {
		tree->failed = true;
		free(name);
		free(verdict);
		free(details);
		return;
	}
	row = &tree->rows[tree->n_rows];
	row->lead = tree_printf(tree, "%.*s%s", (int)tree->lead_len,
				tree->lead ? tree->lead : "", branch);
	row->name = name;
	row->verdict = verdict;
	row->details = details;
	if (!row->lead) {
		free(name);
		free(verdict);
		free(details);
		return;
	}
	tree->n_rows++;
}

/* Descend: the children of the row just added get @segment in their lead. */
static size_t tree_push(struct tree *tree, const char *segment)
{
	size_t old = tree->lead_len, len = strlen(segment);

	if (tree->lead_len + len + 1 > tree->lead_cap) {
		size_t cap = 2 * (tree->lead_len + len + 1);
		char *lead = realloc(tree->lead, cap);

		if (!lead) {
			tree->failed = true;
			return old;
		}
		tree->lead = lead;
		tree->lead_cap = cap;
	}
	memcpy(tree->lead + tree->lead_len, segment, len);
	tree->lead_len += len;
	return old;
}

static void tree_pop(struct tree *tree, size_t old)
{
	tree->lead_len = old;
}

static const char *branch(const struct tree *tree, bool last)
{
	return last ? tree->style->last : tree->style->branch;
}

static const char *below(const struct tree *tree, bool last)
{
	return last ? tree->style->blank : tree->style->vertical;
}

/* ---- one export -------------------------------------------------------- */

/* The index of subvolume @id in the export, or NO_PARENT if it has none. */
static size_t subvol_index(const struct tree *tree, uint64_t id)
{
	size_t i;

	for (i = 0; i < tree->n_subvols; i++) {
		if (bino_audit_subvol_id(bino_audit_target_subvol(tree->exp, i)) == id)
			return i;
	}
	return NO_PARENT;
}

/*
 * Each pair's entries go to its subvolume b, the higher ID (usually the
 * newer, nested one: the snapshot, not its source), so that every entry
 * is counted at exactly one node and the nodes add up to the export.
 */
static void tree_attribute(struct tree *tree)
{
	size_t i, n = bino_audit_target_pair_count(tree->exp);
	int c;

	for (i = 0; i < n; i++) {
		const struct bino_audit_pair *pair =
			bino_audit_target_pair(tree->exp, i);
		size_t a = subvol_index(tree, bino_audit_pair_subvolid(pair, 0));
		size_t b = subvol_index(tree, bino_audit_pair_subvolid(pair, 1));

		for (c = 0; c < BINO_COLLISION_NR; c++) {
			if (b == NO_PARENT)
				tree->unattributed[c] += bino_audit_pair_collisions(pair, c);
			else
				tree->counts[b][c] += bino_audit_pair_collisions(pair, c);
		}
		if (a != NO_PARENT && a != b) {
			tree->partners[a]++;
			tree->partner_ids[a] = bino_audit_pair_subvolid(pair, 1);
		}
	}
}

/* The parent of each subvolume: the one holding it, met before it. */
static void tree_nest(struct tree *tree)
{
	size_t i, j;

	for (i = 0; i < tree->n_subvols; i++) {
		const struct bino_audit_subvol *subvol =
			bino_audit_target_subvol(tree->exp, i);
		uint64_t parent_id = bino_audit_subvol_parent_id(subvol);

		tree->parent[i] = NO_PARENT;
		/* Known also when the subvolume could not be opened. */
		if (i == 0 || !parent_id)
			continue;
		for (j = 0; j < i; j++) {
			if (bino_audit_subvol_id(bino_audit_target_subvol(tree->exp, j)) ==
			    parent_id) {
				tree->parent[i] = j;
				break;
			}
		}
		/* Held by something the tree does not show: under the export. */
	}
}

static bool is_snapshot(const struct bino_audit_subvol *subvol)
{
	return bino_audit_subvol_snapshot_of(subvol) ||
	       bino_audit_subvol_parent_uuid(subvol);
}

static bool has_children(const struct tree *tree, size_t index)
{
	size_t j;

	for (j = index + 1; j < tree->n_subvols; j++) {
		if (tree->parent[j] == index)
			return true;
	}
	return false;
}

/* Whether a server mount below the export hangs from subvolume @index. */
static bool has_mounts(const struct tree *tree, size_t index)
{
	const struct bino_audit_subvol *subvol =
		bino_audit_target_subvol(tree->exp, index);
	size_t k, n = bino_audit_target_submount_count(tree->exp);

	if (bino_audit_subvol_mount_count(subvol))
		return true;
	for (k = 0; k < n; k++) {
		if (tree->placed[k] == index)
			return true;
	}
	return false;
}

/* A snapshot that may be folded into "N more snapshots": a leaf. */
static bool foldable(const struct tree *tree, size_t index)
{
	return is_snapshot(bino_audit_target_subvol(tree->exp, index)) &&
	       !has_children(tree, index) && !has_mounts(tree, index);
}

/* The submount of the export that is @mount, or NULL. */
static const struct bino_audit_submount *
find_submount(const struct tree *tree, const struct bino_mount *mount)
{
	size_t i, n = bino_audit_target_submount_count(tree->exp);

	for (i = 0; i < n; i++) {
		const struct bino_audit_submount *submount =
			bino_audit_target_submount(tree->exp, i);

		/* Not by ID: an unlisted mount is of another table. */
		if (bino_audit_submount_mount(submount) == mount)
			return submount;
	}
	return NULL;
}

/* What clients see at a server mount, as the verdict column says it. */
static char *mount_verdict(struct tree *tree, const struct bino_mount *mount,
			   const struct bino_audit_submount *submount)
{
	const char *target = bino_mount_target(mount);
	const char *path = bino_audit_target_path(tree->exp);
	size_t client_fs;

	if (!submount) {
		if (path_below(path, target))
			return tree_printf(tree, "holds the export");
		return tree_printf(tree, "not below the export");
	}
	client_fs = bino_audit_submount_client_fs(submount);
	switch (bino_audit_submount_view(submount)) {
	case BINO_SUBMOUNT_CROSSMNT:
	case BINO_SUBMOUNT_NOHIDE:
	case BINO_SUBMOUNT_NFSV4:
		return tree_printf(tree, "crossed (%s): client fs %zu",
				   bino_submount_view_name(
					   bino_audit_submount_view(submount)),
				   client_fs);
	case BINO_SUBMOUNT_SAME_CONTENT:
		return tree_printf(tree, "not crossed: same content, client fs %zu",
				   client_fs);
	case BINO_SUBMOUNT_HIDDEN:
		return tree_printf(tree, "not crossed: hidden");
	case BINO_SUBMOUNT_UNLISTED:
		return tree_printf(tree, "not crossed: not in the mount table");
	}
	return tree_printf(tree, "%s", bino_submount_view_name(
				  bino_audit_submount_view(submount)));
}

static void tree_mount(struct tree *tree, const struct bino_mount *mount,
		       const struct bino_audit_submount *submount, bool last)
{
	char *target = tree_path(tree, bino_mount_target(mount));

	tree_add(tree, branch(tree, last),
		 tree_printf(tree, "mount %" PRIu64, bino_mount_id(mount)),
		 mount_verdict(tree, mount, submount),
		 tree_printf(tree, "on %s (%s)", target ? target : "",
			     bino_mount_fstype(mount)));
	free(target);
}

/* The name of subvolume @index: its path below its parent node's. */
static char *subvol_name(struct tree *tree, size_t index)
{
	const struct bino_audit_subvol *subvol =
		bino_audit_target_subvol(tree->exp, index);
	const char *path = bino_audit_subvol_path(subvol);
	const char *fs_path = bino_audit_subvol_fs_path(subvol);
	const char *base;
	char *escaped, *name;
	size_t len;

	if (index == 0 || !path) {
		/* The one holding the export: its name inside the filesystem. */
		if (!fs_path && bino_audit_subvol_id(subvol) == 5)
			return tree_printf(tree, "[top level]");
		if (!fs_path)
			return tree_printf(tree, "[subvolume holding it]");
		escaped = tree_path(tree, fs_path);
		name = escaped ? tree_printf(tree, "[%s]", escaped) : NULL;
		free(escaped);
		return name;
	}
	base = tree->parent[index] == NO_PARENT ?
		       bino_audit_target_path(tree->exp) :
		       bino_audit_subvol_path(
			       bino_audit_target_subvol(tree->exp, tree->parent[index]));
	if (!base)
		base = bino_audit_target_path(tree->exp);
	len = strlen(base);
	if (strcmp(base, "/") == 0 && path[0] == '/' && path[1])
		return tree_path(tree, path + 1);
	if (strncmp(path, base, len) == 0 && path[len] == '/' && path[len + 1])
		return tree_path(tree, path + len + 1);
	return tree_path(tree, path);
}

static char *subvol_verdict(struct tree *tree, size_t index)
{
	if (!counts_zero(tree->counts[index]))
		return tree_counts(tree, tree->counts[index]);
	if (tree->partners[index] == 1)
		return tree_printf(tree, "(counted at %" PRIu64 ")",
				   tree->partner_ids[index]);
	if (tree->partners[index])
		return tree_printf(tree, "(counted at %zu others)",
				   tree->partners[index]);
	return tree_printf(tree, "ok");
}

/*
 * How to name the source of a snapshot: its path below the export when the
 * tree shows it (its ID says the rest), else nothing.
 */
static char *source_name(struct tree *tree, uint64_t id)
{
	size_t i = subvol_index(tree, id);
	const char *path, *base = bino_audit_target_path(tree->exp);
	size_t len = strlen(base);
	char *escaped, *name;

	if (i == NO_PARENT)
		return tree_printf(tree, "%s", "");
	path = bino_audit_subvol_path(bino_audit_target_subvol(tree->exp, i));
	if (!path || strncmp(path, base, len) != 0 || path[len] != '/')
		return tree_printf(tree, "%s", "");
	escaped = tree_path(tree, path + len + 1);
	name = escaped ? tree_printf(tree, " (%s)", escaped) : NULL;
	free(escaped);
	return name;
}

static char *subvol_details(struct tree *tree, size_t index)
{
	const struct bino_audit_subvol *subvol =
		bino_audit_target_subvol(tree->exp, index);
	uint64_t id = bino_audit_subvol_id(subvol);
	uint64_t of = bino_audit_subvol_snapshot_of(subvol);
	size_t client_fs = bino_audit_subvol_client_fs(subvol);
	int info_errno = bino_audit_subvol_info_errno(subvol);
	char what[64], extra[96], *source = NULL, *details;

	if (of) {
		snprintf(what, sizeof(what), "snapshot %" PRIu64 " of %" PRIu64, id, of);
		source = source_name(tree, of);
	} else if (is_snapshot(subvol)) {
		snprintf(what, sizeof(what), "snapshot %" PRIu64 " of a subvolume not listed", id);
	} else {
		snprintf(what, sizeof(what), "subvolume %" PRIu64, id);
	}
	extra[0] = '\0';
	if (info_errno)
		snprintf(extra, sizeof(extra), ", details unknown: %s",
			 strerror(info_errno));
	else if (bino_audit_subvol_read_only(subvol))
		snprintf(extra, sizeof(extra), ", read-only");
	if (client_fs)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 ", client fs %zu", client_fs);
	details = tree_printf(tree, "%s%s%s%s", what, source ? source : "", extra,
			      index == 0 ? ", holds the export" : "");
	free(source);
	return details;
}

/*
 * The children of subvolume @index (NO_PARENT: the export), in walk order;
 * a run of more than TREE_SNAPSHOTS_MAX foldable snapshots shows its first
 * and last TREE_SNAPSHOTS_EDGE and one row for the rest.
 */
static size_t tree_children(struct tree *tree, size_t index, size_t *kids)
{
	size_t j, n = 0;

	for (j = 0; j < tree->n_subvols; j++) {
		if (j == index)
			continue;
		if (index == NO_PARENT ? (j == 0 || tree->parent[j] == NO_PARENT)
				       : tree->parent[j] == index)
			kids[n++] = j;
	}
	return n;
}

/* Whether @mount is the server mount of some subvolume of the export. */
static bool subvol_mount(const struct tree *tree, const struct bino_mount *mount)
{
	size_t i, j;

	for (i = 0; i < tree->n_subvols; i++) {
		const struct bino_audit_subvol *subvol =
			bino_audit_target_subvol(tree->exp, i);

		for (j = 0; j < bino_audit_subvol_mount_count(subvol); j++) {
			if (bino_mount_id(bino_audit_subvol_mount(subvol, j)) ==
			    bino_mount_id(mount))
				return true;
		}
	}
	return false;
}

/*
 * Where each server mount below the export hangs: with the subvolume it
 * mounts, else under the deepest subvolume holding its mount point, else
 * under the export.
 */
static void tree_place_mounts(struct tree *tree)
{
	size_t i, k, best, n = bino_audit_target_submount_count(tree->exp);

	for (k = 0; k < n; k++) {
		const struct bino_mount *mount = bino_audit_submount_mount(
			bino_audit_target_submount(tree->exp, k));
		const char *target = bino_mount_target(mount);

		tree->placed[k] = NO_PARENT;
		if (subvol_mount(tree, mount)) {
			tree->placed[k] = OWN_MOUNT;
			continue;
		}
		for (i = 0, best = 0; i < tree->n_subvols; i++) {
			const char *path = bino_audit_subvol_path(
				bino_audit_target_subvol(tree->exp, i));

			if (i == 0)
				path = bino_audit_target_path(tree->exp);
			if (path && path_below(target, path) && strlen(path) >= best) {
				best = strlen(path);
				tree->placed[k] = i;
			}
		}
	}
}

/*
 * The mount rows of subvolume @index (NO_PARENT: of the export): its own
 * server mounts, then the other mounts placed under it; the last of them
 * is the last row of the level unless @more follows.
 */
static void tree_mounts(struct tree *tree, size_t index, bool more)
{
	const struct bino_audit_subvol *subvol =
		index == NO_PARENT ? NULL : bino_audit_target_subvol(tree->exp, index);
	size_t i, n_own = subvol ? bino_audit_subvol_mount_count(subvol) : 0;
	size_t n = bino_audit_target_submount_count(tree->exp), rows = n_own;

	for (i = 0; i < n; i++)
		rows += tree->placed[i] == index;
	for (i = 0; i < n_own; i++) {
		const struct bino_mount *mount = bino_audit_subvol_mount(subvol, i);

		tree_mount(tree, mount, find_submount(tree, mount),
			   --rows == 0 && !more);
	}
	for (i = 0; i < n; i++) {
		const struct bino_audit_submount *submount =
			bino_audit_target_submount(tree->exp, i);

		if (tree->placed[i] != index)
			continue;
		tree_mount(tree, bino_audit_submount_mount(submount), submount,
			   --rows == 0 && !more);
	}
}

static void tree_subvol(struct tree *tree, size_t index, bool last);

/* Rows for the subvolumes in @kids, the last rows of their level. */
static void tree_kids(struct tree *tree, const size_t *kids, size_t n)
{
	size_t i, folded = 0, seen = 0, total = 0;
	uint64_t counts[BINO_COLLISION_NR] = { 0 };
	bool fold;
	int c;

	for (i = 0; i < n; i++)
		total += foldable(tree, kids[i]);
	fold = !tree->full && total > TREE_SNAPSHOTS_MAX;
	for (i = 0; i < n; i++) {
		if (fold && foldable(tree, kids[i])) {
			seen++;
			if (seen > TREE_SNAPSHOTS_EDGE &&
			    seen <= total - TREE_SNAPSHOTS_EDGE) {
				for (c = 0; c < BINO_COLLISION_NR; c++)
					counts[c] += tree->counts[kids[i]][c];
				if (++folded < total - 2 * TREE_SNAPSHOTS_EDGE)
					continue;
				tree_add(tree, branch(tree, false),
					 tree_printf(tree, "%s %zu more snapshots",
						     tree->style->more, folded),
					 tree_counts(tree, counts),
					 tree_printf(tree, "--full-tree lists them"));
				continue;
			}
		}
		tree_subvol(tree, kids[i], i + 1 == n);
	}
}

static void tree_subvol(struct tree *tree, size_t index, bool last)
{
	size_t n_kids, old;
	size_t *kids;

	tree_add(tree, branch(tree, last), subvol_name(tree, index),
		 subvol_verdict(tree, index), subvol_details(tree, index));
	kids = malloc(tree->n_subvols * sizeof(*kids));
	if (!kids) {
		tree->failed = true;
		return;
	}
	n_kids = tree_children(tree, index, kids);
	old = tree_push(tree, below(tree, last));
	tree_mounts(tree, index, n_kids > 0);
	tree_kids(tree, kids, n_kids);
	tree_pop(tree, old);
	free(kids);
}

static char *export_details(struct tree *tree)
{
	const struct bino_export *source = bino_audit_target_export(tree->exp);
	uint64_t unreadable = bino_audit_target_unreadable(tree->exp);
	/* The client tells apart two rows of one path (crossmnt differs). */
	char *client = source ? tree_path(tree, bino_export_client(source)) : NULL;
	char more[64] = "";
	char *details;

	if (unreadable)
		snprintf(more, sizeof(more), ", %" PRIu64 " unreadable", unreadable);
	details = tree_printf(tree, "%s%s, %" PRIu64 " entries%s, %zu client fs",
			      !source ? "not exported" :
			      bino_audit_target_covered(tree->exp) ?
				      "covered by an export to " :
				      "export to ",
			      client ? client : "",
			      bino_audit_target_entries(tree->exp), more,
			      bino_audit_target_client_fs_count(tree->exp));
	free(client);
	return details;
}

/* The export's rows before its subvolumes: mounts, and counts no subvolume has. */
static void tree_export_rest(struct tree *tree, size_t n_kids)
{
	bool other = !counts_zero(tree->unattributed);

	tree_mounts(tree, NO_PARENT, other || n_kids > 0);
	if (other)
		tree_add(tree, branch(tree, n_kids == 0),
			 tree_printf(tree, "(not in a subvolume)"),
			 tree_counts(tree, tree->unattributed),
			 tree_printf(tree, "entries off btrfs or of subvolumes not listed"));
}

static void tree_export(struct tree *tree, const struct bino_audit_target *exp)
{
	enum bino_error err = bino_audit_target_error(exp);
	uint64_t totals[BINO_COLLISION_NR];
	size_t n = bino_audit_target_subvol_count(exp), n_kids, old;
	size_t *kids;
	int c;

	memset(tree->unattributed, 0, sizeof(tree->unattributed));
	tree->exp = exp;
	tree->n_subvols = err ? 0 : n;
	if (err) {
		tree_add(tree, "", tree_path(tree, bino_audit_target_path(exp)),
			 tree_printf(tree, "not audited"),
			 audit_export_absent(exp) ?
				 tree_printf(tree, "%sabsent on this machine",
					     bino_audit_target_export(exp) ?
						     "exported, " : "") :
				 tree_printf(tree, "%s: %s", bino_strerror(err),
					     audit_export_reason(exp)));
		return;
	}
	for (c = 0; c < BINO_COLLISION_NR; c++)
		totals[c] = bino_audit_target_collisions(exp, c);
	tree_add(tree, "", tree_path(tree, bino_audit_target_path(exp)),
		 counts_zero(totals) ? tree_printf(tree, "ok") :
				       tree_counts(tree, totals),
		 export_details(tree));

	tree->parent = calloc(n + 1, sizeof(*tree->parent));
	tree->counts = calloc(n + 1, sizeof(*tree->counts));
	tree->partners = calloc(n + 1, sizeof(*tree->partners));
	tree->partner_ids = calloc(n + 1, sizeof(*tree->partner_ids));
	tree->placed = calloc(bino_audit_target_submount_count(exp) + 1,
			      sizeof(*tree->placed));
	kids = calloc(n + 1, sizeof(*kids));
	if (!tree->parent || !tree->counts || !tree->partners ||
	    !tree->partner_ids || !tree->placed || !kids) {
		tree->failed = true;
		goto out_free;
	}
	tree_nest(tree);
	tree_attribute(tree);
	tree_place_mounts(tree);
	n_kids = n ? tree_children(tree, NO_PARENT, kids) : 0;
	old = tree_push(tree, "");
	tree_export_rest(tree, n_kids);
	tree_kids(tree, kids, n_kids);
	tree_pop(tree, old);
out_free:
	free(kids);
	free(tree->placed);
	free(tree->partner_ids);
	free(tree->partners);
	free(tree->counts);
	free(tree->parent);
	tree->parent = NULL;
	tree->counts = NULL;
	tree->partners = NULL;
	tree->partner_ids = NULL;
	tree->placed = NULL;
}

/* ---- output ------------------------------------------------------------ */

static void pad(FILE *stream, size_t have, size_t want)
{
	for (; have < want; have++)
		fputc(' ', stream);
}

static void tree_write(const struct tree *tree, FILE *stream)
{
	size_t i, name_width = 0, verdict_width = 0, w;

	for (i = 0; i < tree->n_rows; i++) {
		const struct tree_row *row = &tree->rows[i];

		w = columns(row->lead) + columns(row->name);
		if (w <= TREE_NAME_COLUMN_MAX && w > name_width)
			name_width = w;
		w = columns(row->verdict);
		if (w <= TREE_VERDICT_COLUMN_MAX && w > verdict_width)
			verdict_width = w;
	}
	for (i = 0; i < tree->n_rows; i++) {
		const struct tree_row *row = &tree->rows[i];

		fprintf(stream, "%s%s", row->lead, row->name);
		pad(stream, columns(row->lead) + columns(row->name), name_width);
		fprintf(stream, "  %s", row->verdict);
		pad(stream, columns(row->verdict), verdict_width);
		fprintf(stream, "  %s\n", row->details);
	}
}

/* Whether the locale the user chose (LC_ALL, LC_CTYPE, LANG) is UTF-8. */
static bool locale_is_utf8(void)
{
	const char *current = setlocale(LC_CTYPE, NULL);
	char *saved = current ? strdup(current) : NULL;
	bool utf8 = false;

	if (setlocale(LC_CTYPE, ""))
		utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	setlocale(LC_CTYPE, saved ? saved : "C");
	free(saved);
	return utf8;
}

int audit_tree_print(FILE *stream, const struct bino_audit *audit,
		     const struct audit_tree_options *opts)
{
	struct tree tree;
	size_t i;

	memset(&tree, 0, sizeof(tree));
	tree.style = !opts->ascii && locale_is_utf8() ? &tree_utf8 : &tree_ascii;
	tree.full = opts->full;
	for (i = 0; i < bino_audit_count(audit) && !tree.failed; i++)
		tree_export(&tree, bino_audit_get(audit, i));
	if (!tree.failed) {
		bool counted = false;

		tree_write(&tree, stream);
		/* The note is about counts: none when nothing was audited. */
		for (i = 0; i < bino_audit_count(audit); i++)
			counted = counted ||
				  !bino_audit_target_error(bino_audit_get(audit, i));
		if (counted)
			fputs("(collisions between two subvolumes are counted once, at the higher ID)\n",
			      stream);
	}
	for (i = 0; i < tree.n_rows; i++) {
		free(tree.rows[i].lead);
		free(tree.rows[i].name);
		free(tree.rows[i].verdict);
		free(tree.rows[i].details);
	}
	free(tree.rows);
	free(tree.lead);
	if (tree.failed) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}
