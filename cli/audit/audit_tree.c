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
 * tree_export(), tree_subvol(), tree_kids() and tree_mounts() add one
 * libsmartcols line per node under its parent's; tree_table() defines the
 * columns (-o) and the form (tree, --list, --raw, --pairs), and libsmartcols
 * fits them to the terminal as findmnt's are.  Only the public audit API is
 * used.
 */
#include "audit_tree.h"
#include "columns.h"

#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "escape.h"
#include "report.h"

/* A parent with more snapshots than this shows the first and last few. */
#define TREE_SNAPSHOTS_MAX 8
#define TREE_SNAPSHOTS_EDGE 3

#define NO_PARENT SIZE_MAX /* the export's row */
#define OWN_MOUNT (SIZE_MAX - 1) /* a subvolume's own mount, shown with it */

/* The columns, as -o names them; the tree is always NAME. */
enum tree_column {
	COL_NAME,
	COL_TYPE,
	COL_ID,
	COL_PARENT,
	COL_OF,
	COL_LOOP,
	COL_HARDLINK,
	COL_PLAIN,
	COL_CLIENT_FS,
	COL_EXPORT,
	COL_DETAILS,
	COL_NR,
};

static const struct {
	const char *name;
	double whint;
	int flags;
	const char *help;
} tree_columns[COL_NR] = {
	[COL_NAME] = { "NAME", 0.3, SCOLS_FL_TREE | SCOLS_FL_NOEXTREMES,
		       "export path, subvolume path below its parent, mount" },
	[COL_TYPE] = { "TYPE", 0, 0,
		       "export, subvolume, snapshot, mount, folded or other" },
	[COL_ID] = { "ID", 0, SCOLS_FL_RIGHT, "subvolume ID or mount ID" },
	[COL_PARENT] = { "PARENT", 0, SCOLS_FL_RIGHT,
			 "ID of the subvolume row it hangs from" },
	[COL_OF] = { "OF", 0, SCOLS_FL_RIGHT, "a snapshot's source subvolume ID" },
	[COL_LOOP] = { "LOOP", 0, SCOLS_FL_RIGHT, "loop collisions counted here" },
	[COL_HARDLINK] = { "HARDLINK", 0, SCOLS_FL_RIGHT,
			   "hardlink collisions counted here" },
	[COL_PLAIN] = { "PLAIN", 0, SCOLS_FL_RIGHT,
			"plain collisions counted here" },
	[COL_CLIENT_FS] = { "CLIENT-FS", 0, SCOLS_FL_RIGHT,
			    "the client filesystem it is in" },
	[COL_EXPORT] = { "EXPORT", 0, SCOLS_FL_NOEXTREMES, "the audited path" },
	[COL_DETAILS] = { "DETAILS", 0.5, SCOLS_FL_TRUNC,
			  "what it is and what clients see" },
};

static const int tree_default[] = {
	COL_NAME, COL_LOOP, COL_HARDLINK, COL_PLAIN, COL_DETAILS,
};

struct tree {
	struct libscols_table *table;
	int cols[COL_NR]; /* per tree_column: its table column, or -1 */
	bool full;
	bool color;
	bool flat; /* --list, --raw or --pairs: no tree to show a row's parent */
	bool failed;
	const struct bino_exports *exports; /* to name every client, or NULL */
	/* The line new rows hang from (NULL: top level). */
	struct libscols_line *parent;
	struct libscols_line *last; /* the row added last */
	uint64_t parent_id; /* the subvolume ID of @parent, 0 if none */

	/* The export being drawn, per subvolume index. */
	const struct bino_audit_target *target;
	size_t n_subvols;
	size_t *parent_of; /* index of the subvolume holding it, or NO_PARENT */
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

/* ---- rows -------------------------------------------------------------- */

/* Set cell @col of @line to @text, which it takes (NULL after a failure). */
static void tree_cell(struct tree *tree, struct libscols_line *line,
		      enum tree_column col, char *text, const char *color)
{
	if (!text) {
		tree->failed = true;
		return;
	}
	if (tree->failed || tree->cols[col] < 0) {
		free(text);
		return;
	}
	if (scols_line_refer_data(line, (size_t)tree->cols[col], text) != 0) {
		free(text);
		tree->failed = true;
		return;
	}
	if (color && tree->color)
		scols_cell_set_color(scols_line_get_cell(line, (size_t)tree->cols[col]),
				     color);
}

static void tree_u64(struct tree *tree, struct libscols_line *line,
		     enum tree_column col, uint64_t value)
{
	tree_cell(tree, line, col, tree_printf(tree, "%" PRIu64, value), NULL);
}

/* The three counts; loops in red (they stop find), the others in yellow. */
static void tree_counts(struct tree *tree, struct libscols_line *line,
			const uint64_t *counts)
{
	static const enum tree_column col[BINO_COLLISION_NR] = {
		[BINO_COLLISION_LOOP] = COL_LOOP,
		[BINO_COLLISION_HARDLINK] = COL_HARDLINK,
		[BINO_COLLISION_PLAIN] = COL_PLAIN,
	};
	int c;

	for (c = 0; c < BINO_COLLISION_NR; c++)
		tree_cell(tree, line, col[c],
			  tree_printf(tree, "%" PRIu64, counts[c]),
			  !counts[c] ? NULL :
			  c == BINO_COLLISION_LOOP ? "red" : "yellow");
}

/*
 * Add a row under the current parent: its type, @name and @details (taken,
 * NULL after a failure), and its ID (0: none).  Returns the line or NULL.
 */
static struct libscols_line *tree_add(struct tree *tree, const char *type,
				      uint64_t id, char *name, char *details)
{
	struct libscols_line *line = NULL;

	if (!tree->failed)
		line = scols_table_new_line(tree->table, tree->parent);
	if (!line) {
		tree->failed = true;
		free(name);
		free(details);
		return NULL;
	}
	tree->last = line;
	tree_cell(tree, line, COL_NAME, name, NULL);
	tree_cell(tree, line, COL_DETAILS, details, NULL);
	tree_cell(tree, line, COL_TYPE, strdup(type), NULL);
	if (id)
		tree_u64(tree, line, COL_ID, id);
	if (tree->parent_id)
		tree_u64(tree, line, COL_PARENT, tree->parent_id);
	tree_cell(tree, line, COL_EXPORT,
		  tree_path(tree, bino_audit_target_path(tree->target)), NULL);
	return line;
}

/* What tree_push() changes, for tree_pop(). */
struct tree_level {
	struct libscols_line *parent;
	uint64_t parent_id;
};

/* Descend: the next rows hang from the row just added (subvolume @id). */
static struct tree_level tree_push(struct tree *tree, uint64_t id)
{
	struct tree_level old = { tree->parent, tree->parent_id };

	tree->parent = tree->last;
	tree->parent_id = id;
	return old;
}

static void tree_pop(struct tree *tree, struct tree_level old)
{
	tree->parent = old.parent;
	tree->parent_id = old.parent_id;
}

/* ---- one export -------------------------------------------------------- */

/* The index of subvolume @id in the export, or NO_PARENT if it has none. */
static size_t subvol_index(const struct tree *tree, uint64_t id)
{
	size_t i;

	for (i = 0; i < tree->n_subvols; i++) {
		if (bino_audit_subvol_id(bino_audit_target_subvol(tree->target, i)) == id)
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
	size_t i, n = bino_audit_target_pair_count(tree->target);
	int c;

	for (i = 0; i < n; i++) {
		const struct bino_audit_pair *pair =
			bino_audit_target_pair(tree->target, i);
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
			bino_audit_target_subvol(tree->target, i);
		uint64_t parent_id = bino_audit_subvol_parent_id(subvol);

		tree->parent_of[i] = NO_PARENT;
		/* Known also when the subvolume could not be opened. */
		if (i == 0 || !parent_id)
			continue;
		for (j = 0; j < i; j++) {
			if (bino_audit_subvol_id(bino_audit_target_subvol(tree->target, j)) ==
			    parent_id) {
				tree->parent_of[i] = j;
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
		if (tree->parent_of[j] == index)
			return true;
	}
	return false;
}

/* Whether a server mount below the export hangs from subvolume @index. */
static bool has_mounts(const struct tree *tree, size_t index)
{
	const struct bino_audit_subvol *subvol =
		bino_audit_target_subvol(tree->target, index);
	size_t k, n = bino_audit_target_submount_count(tree->target);

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
	return is_snapshot(bino_audit_target_subvol(tree->target, index)) &&
	       !has_children(tree, index) && !has_mounts(tree, index);
}

/* The submount of the export that is @mount, or NULL. */
static const struct bino_audit_submount *
find_submount(const struct tree *tree, const struct bino_mount *mount)
{
	size_t i, n = bino_audit_target_submount_count(tree->target);

	for (i = 0; i < n; i++) {
		const struct bino_audit_submount *submount =
			bino_audit_target_submount(tree->target, i);

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
	const char *path = bino_audit_target_path(tree->target);
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
		return tree_printf(tree, "crossed by clients (%s)%s",
				   bino_submount_view_name(
					   bino_audit_submount_view(submount)),
				   client_fs ? ", own fs on clients" : "");
	case BINO_SUBMOUNT_SAME_CONTENT:
		/* Not crossed: the client filesystem is its parent's. */
		return tree_printf(tree, "not crossed: clients see the same content");
	case BINO_SUBMOUNT_HIDDEN:
		return tree_printf(tree, "not crossed: hidden from clients");
	case BINO_SUBMOUNT_UNLISTED:
		return tree_printf(tree, "not crossed: not in the mount table");
	}
	return tree_printf(tree, "%s", bino_submount_view_name(
				  bino_audit_submount_view(submount)));
}

/* A mount's row name: its path below the export, else its whole path. */
static char *mount_name(struct tree *tree, const struct bino_mount *mount)
{
	const char *target = bino_mount_target(mount);
	const char *path = bino_audit_target_path(tree->target);
	size_t len = strlen(path);

	if (strcmp(path, "/") == 0 && target[1])
		return tree_path(tree, target + 1);
	if (strncmp(target, path, len) == 0 && target[len] == '/')
		return tree_path(tree, target + len + 1);
	return tree_path(tree, target);
}

static void tree_mount(struct tree *tree, const struct bino_mount *mount,
		       const struct bino_audit_submount *submount)
{
	char *verdict = mount_verdict(tree, mount, submount);
	struct libscols_line *line;

	line = tree_add(tree, "mount", bino_mount_id(mount), mount_name(tree, mount),
			tree_printf(tree, "%s mount, %s", bino_mount_fstype(mount),
				    verdict ? verdict : ""));
	if (line && submount)
		tree_u64(tree, line, COL_CLIENT_FS,
			 bino_audit_submount_client_fs(submount));
	free(verdict);
}

/* The name of subvolume @index: its path below its parent node's. */
static char *subvol_name(struct tree *tree, size_t index)
{
	const struct bino_audit_subvol *subvol =
		bino_audit_target_subvol(tree->target, index);
	const char *path = bino_audit_subvol_path(subvol);
	const char *fs_path = bino_audit_subvol_fs_path(subvol);
	const char *base;
	char *escaped, *name;
	size_t len;

	/*
	 * Its name inside the filesystem (mount -o subvol=, findmnt's [/path]):
	 * without a tree its path would be its mount row's name too.
	 */
	if (index == 0 || !path || (tree->flat && fs_path)) {
		if (!fs_path && bino_audit_subvol_id(subvol) == 5)
			return tree_printf(tree, "[top level]");
		if (!fs_path)
			return tree_printf(tree, "[subvolume holding it]");
		escaped = tree_path(tree, fs_path);
		name = escaped ? tree_printf(tree, "subvol=%s", escaped) : NULL;
		free(escaped);
		return name;
	}
	base = tree->parent_of[index] == NO_PARENT ?
		       bino_audit_target_path(tree->target) :
		       bino_audit_subvol_path(
			       bino_audit_target_subvol(tree->target, tree->parent_of[index]));
	if (!base)
		base = bino_audit_target_path(tree->target);
	len = strlen(base);
	if (strcmp(base, "/") == 0 && path[0] == '/' && path[1])
		return tree_path(tree, path + 1);
	if (strncmp(path, base, len) == 0 && path[len] == '/' && path[len + 1])
		return tree_path(tree, path + len + 1);
	return tree_path(tree, path);
}

/* Where a subvolume's collisions are counted if not at its own row. */
static char *subvol_counted_at(struct tree *tree, size_t index)
{
	if (!counts_zero(tree->counts[index]))
		return tree_printf(tree, "%s", "");
	if (tree->partners[index] == 1)
		return tree_printf(tree, "collisions counted at %" PRIu64 ", ",
				   tree->partner_ids[index]);
	if (tree->partners[index])
		return tree_printf(tree, "collisions counted at %zu others, ",
				   tree->partners[index]);
	return tree_printf(tree, "%s", "");
}

/*
 * How to name the source of a snapshot: its path below the export when the
 * tree shows it (its ID says the rest), else nothing.
 */
static char *source_name(struct tree *tree, uint64_t id)
{
	size_t i = subvol_index(tree, id);
	const char *path, *base = bino_audit_target_path(tree->target);
	size_t len = strlen(base);
	char *escaped, *name;

	if (i == NO_PARENT)
		return tree_printf(tree, "%s", "");
	path = bino_audit_subvol_path(bino_audit_target_subvol(tree->target, i));
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
		bino_audit_target_subvol(tree->target, index);
	uint64_t id = bino_audit_subvol_id(subvol);
	uint64_t of = bino_audit_subvol_snapshot_of(subvol);
	size_t client_fs = bino_audit_subvol_client_fs(subvol);
	int info_errno = bino_audit_subvol_info_errno(subvol);
	char what[64], extra[96], *source = NULL, *counted, *details;
	/* Own only where not that of the row it hangs from (CLIENT-FS). */
	size_t parent_fs = tree->parent_of[index] == NO_PARENT ? 0 :
		bino_audit_subvol_client_fs(bino_audit_target_subvol(
			tree->target, tree->parent_of[index]));

	if (of) {
		snprintf(what, sizeof(what), "snapshot %" PRIu64 " of %" PRIu64, id, of);
		source = source_name(tree, of);
	} else if (is_snapshot(subvol)) {
		snprintf(what, sizeof(what), "snapshot %" PRIu64 " of a subvolume not listed", id);
	} else {
		snprintf(what, sizeof(what), "subvolume %" PRIu64, id);
	}
	extra[0] = '\0';
	/* A client cannot ask the server's btrfs: no ioctl error to show. */
	if (info_errno && !bino_audit_target_client_view(tree->target))
		snprintf(extra, sizeof(extra), ", details unknown: %s",
			 strerror(info_errno));
	else if (bino_audit_subvol_read_only(subvol))
		snprintf(extra, sizeof(extra), ", read-only");
	if (client_fs != parent_fs)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 ", own fs on clients");
	counted = subvol_counted_at(tree, index);
	details = tree_printf(tree, "%s%s%s%s%s", counted ? counted : "", what,
			      source ? source : "", extra,
			      index == 0 ? ", holds the export" : "");
	free(counted);
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
		if (index == NO_PARENT ? (j == 0 || tree->parent_of[j] == NO_PARENT)
				       : tree->parent_of[j] == index)
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
			bino_audit_target_subvol(tree->target, i);

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
	size_t i, k, best, n = bino_audit_target_submount_count(tree->target);

	for (k = 0; k < n; k++) {
		const struct bino_mount *mount = bino_audit_submount_mount(
			bino_audit_target_submount(tree->target, k));
		const char *target = bino_mount_target(mount);

		tree->placed[k] = NO_PARENT;
		if (subvol_mount(tree, mount)) {
			tree->placed[k] = OWN_MOUNT;
			continue;
		}
		for (i = 0, best = 0; i < tree->n_subvols; i++) {
			const char *path = bino_audit_subvol_path(
				bino_audit_target_subvol(tree->target, i));

			if (i == 0)
				path = bino_audit_target_path(tree->target);
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
static void tree_mounts(struct tree *tree, size_t index)
{
	const struct bino_audit_subvol *subvol =
		index == NO_PARENT ? NULL : bino_audit_target_subvol(tree->target, index);
	size_t i, n_own = subvol ? bino_audit_subvol_mount_count(subvol) : 0;
	size_t n = bino_audit_target_submount_count(tree->target);

	for (i = 0; i < n_own; i++) {
		const struct bino_mount *mount = bino_audit_subvol_mount(subvol, i);

		tree_mount(tree, mount, find_submount(tree, mount));
	}
	for (i = 0; i < n; i++) {
		const struct bino_audit_submount *submount =
			bino_audit_target_submount(tree->target, i);

		if (tree->placed[i] != index)
			continue;
		tree_mount(tree, bino_audit_submount_mount(submount), submount);
	}
}

static void tree_subvol(struct tree *tree, size_t index);

/* Rows for the subvolumes in @kids, the last rows of their level. */
static void tree_kids(struct tree *tree, const size_t *kids, size_t n)
{
	size_t i, folded = 0, seen = 0, total = 0;
	uint64_t counts[BINO_COLLISION_NR] = { 0 };
	struct libscols_line *line;
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
				line = tree_add(tree, "folded", 0,
						tree_printf(tree, "%zu more snapshots",
							    folded),
						tree_printf(tree, "--full-tree lists them"));
				if (line)
					tree_counts(tree, line, counts);
				continue;
			}
		}
		tree_subvol(tree, kids[i]);
	}
}

static void tree_subvol(struct tree *tree, size_t index)
{
	const struct bino_audit_subvol *subvol =
		bino_audit_target_subvol(tree->target, index);
	uint64_t id = bino_audit_subvol_id(subvol);
	struct libscols_line *line;
	struct tree_level old;
	size_t n_kids;
	size_t *kids;

	line = tree_add(tree, is_snapshot(subvol) ? "snapshot" : "subvolume", id,
			subvol_name(tree, index), subvol_details(tree, index));
	if (!line)
		return;
	tree_counts(tree, line, tree->counts[index]);
	if (bino_audit_subvol_snapshot_of(subvol))
		tree_u64(tree, line, COL_OF, bino_audit_subvol_snapshot_of(subvol));
	tree_u64(tree, line, COL_CLIENT_FS, bino_audit_subvol_client_fs(subvol));
	kids = malloc(tree->n_subvols * sizeof(*kids));
	if (!kids) {
		tree->failed = true;
		return;
	}
	n_kids = tree_children(tree, index, kids);
	old = tree_push(tree, id);
	tree_mounts(tree, index);
	tree_kids(tree, kids, n_kids);
	tree_pop(tree, old);
	free(kids);
}

/* "exported to A, B", or on a client the server's export it mounts. */
static char *export_source(struct tree *tree)
{
	const struct bino_mount *mount = bino_audit_target_mount(tree->target);
	char *text = NULL, *escaped;
	size_t len;
	FILE *f;

	if (bino_audit_target_client_view(tree->target) && mount) {
		escaped = tree_path(tree, bino_mount_source(mount));
		text = tree_printf(tree, "NFS mount of %s", escaped ? escaped : "");
		free(escaped);
		return text;
	}
	if (!bino_audit_target_export(tree->target))
		return tree_printf(tree, "not exported");
	f = open_memstream(&text, &len);
	if (!f) {
		tree->failed = true;
		return NULL;
	}
	fputs(bino_audit_target_covered(tree->target) ? "covered by an export to " :
						      "exported to ", f);
	write_export_clients(f, tree->exports, tree->target);
	if (memstream_close(f, &text) != 0)
		tree->failed = true;
	return text;
}

static char *export_details(struct tree *tree)
{
	uint64_t unreadable = bino_audit_target_unreadable(tree->target);
	size_t client_fs = bino_audit_target_client_fs_count(tree->target);
	char *source = export_source(tree);
	char more[64] = "";
	char *details;

	if (unreadable)
		snprintf(more, sizeof(more), ", %" PRIu64 " unreadable", unreadable);
	details = tree_printf(tree, "%s, %" PRIu64 " entries%s, %zu fs on clients",
			      source ? source : "",
			      bino_audit_target_entries(tree->target), more, client_fs);
	free(source);
	return details;
}

/* The export's rows before its subvolumes: mounts, and counts no subvolume has. */
static void tree_export_rest(struct tree *tree)
{
	struct libscols_line *line;

	tree_mounts(tree, NO_PARENT);
	if (counts_zero(tree->unattributed))
		return;
	line = tree_add(tree, "other", 0, tree_printf(tree, "(not in a subvolume)"),
			tree_printf(tree, "entries off btrfs or of subvolumes not listed"));
	if (line)
		tree_counts(tree, line, tree->unattributed);
}

static void tree_export(struct tree *tree, const struct bino_audit_target *target)
{
	enum bino_error err = bino_audit_target_error(target);
	uint64_t totals[BINO_COLLISION_NR];
	size_t n = bino_audit_target_subvol_count(target), n_kids;
	struct libscols_line *line;
	struct tree_level old;
	size_t *kids;
	int c;

	memset(tree->unattributed, 0, sizeof(tree->unattributed));
	tree->target = target;
	tree->n_subvols = err ? 0 : n;
	tree->parent = NULL;
	tree->parent_id = 0;
	if (err) {
		/* Why is said once, on stderr. */
		tree_add(tree, "export", 0,
			 tree_path(tree, bino_audit_target_path(target)),
			 audit_target_absent(target) ?
				 tree_printf(tree, "not audited: %sabsent on this machine",
					     bino_audit_target_export(target) ?
						     "exported, " : "") :
				 tree_printf(tree, "not audited"));
		return;
	}
	for (c = 0; c < BINO_COLLISION_NR; c++)
		totals[c] = bino_audit_target_collisions(target, c);
	line = tree_add(tree, "export", 0,
			tree_path(tree, bino_audit_target_path(target)),
			export_details(tree));
	if (!line)
		return;
	tree_counts(tree, line, totals);

	tree->parent_of = calloc(n + 1, sizeof(*tree->parent_of));
	tree->counts = calloc(n + 1, sizeof(*tree->counts));
	tree->partners = calloc(n + 1, sizeof(*tree->partners));
	tree->partner_ids = calloc(n + 1, sizeof(*tree->partner_ids));
	tree->placed = calloc(bino_audit_target_submount_count(target) + 1,
			      sizeof(*tree->placed));
	kids = calloc(n + 1, sizeof(*kids));
	if (!tree->parent_of || !tree->counts || !tree->partners ||
	    !tree->partner_ids || !tree->placed || !kids) {
		tree->failed = true;
		goto out_free;
	}
	tree_nest(tree);
	tree_attribute(tree);
	tree_place_mounts(tree);
	n_kids = n ? tree_children(tree, NO_PARENT, kids) : 0;
	old = tree_push(tree, 0);
	tree_export_rest(tree);
	tree_kids(tree, kids, n_kids);
	tree_pop(tree, old);
out_free:
	free(kids);
	free(tree->placed);
	free(tree->partner_ids);
	free(tree->partners);
	free(tree->counts);
	free(tree->parent_of);
	tree->parent_of = NULL;
	tree->counts = NULL;
	tree->partners = NULL;
	tree->partner_ids = NULL;
	tree->placed = NULL;
}

/* ---- output ------------------------------------------------------------ */

/* Whether the locale in effect (set by audit_tree_print) is UTF-8. */
static bool locale_is_utf8(void)
{
	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

static const char *tree_column_name(int col)
{
	return tree_columns[col].name;
}

int audit_tree_parse_columns(const char *list, struct audit_tree_options *opts)
{
	struct column_list cl = {
		.command = "audit",
		.name_of = tree_column_name,
		.n_names = COL_NR,
		.defaults = tree_default,
		.n_defaults = sizeof(tree_default) / sizeof(tree_default[0]),
		.cols = opts->cols,
		.max = sizeof(opts->cols) / sizeof(opts->cols[0]),
	};
	int ret = column_list_parse(list, &cl);

	opts->n_cols = cl.n_cols;
	return ret;
}

void audit_tree_columns_help(FILE *stream)
{
	int col;

	for (col = 0; col < COL_NR; col++)
		fprintf(stream, "  %10s  %s\n", tree_columns[col].name,
			tree_columns[col].help);
}

/* The table and its columns: 0, or -1 (out of memory; the caller sets errno). */
static int tree_table(struct tree *tree, const struct audit_tree_options *opts)
{
	size_t i, n = opts->n_cols;
	const int *cols = opts->cols;
	int defaults[COL_NR];

	if (!n) {
		for (i = 0; i < sizeof(tree_default) / sizeof(tree_default[0]); i++)
			defaults[i] = tree_default[i];
		cols = defaults;
		n = i;
	}
	tree->table = scols_new_table();
	if (!tree->table)
		return -1;
	for (i = 0; i < COL_NR; i++)
		tree->cols[i] = -1;
	for (i = 0; i < n; i++) {
		int flags = tree_columns[cols[i]].flags;
		struct libscols_column *column;

		if (opts->mode != AUDIT_TREE_TREE)
			flags &= ~SCOLS_FL_TREE;
		column = scols_table_new_column(tree->table,
						tree_columns[cols[i]].name,
						tree_columns[cols[i]].whint, flags);
		/* In JSON a count is a number (null when the row has none). */
		if (!column || (flags & SCOLS_FL_RIGHT &&
				scols_column_set_json_type(column, SCOLS_JSON_NUMBER) != 0))
			return -1;
		tree->cols[cols[i]] = (int)i;
	}
	if (opts->json && (scols_table_set_name(tree->table, "audit") != 0 ||
			   scols_table_enable_json(tree->table, 1) != 0))
		return -1;
	scols_table_enable_ascii(tree->table, opts->ascii || !locale_is_utf8());
	scols_table_enable_noheadings(tree->table, opts->noheadings);
	scols_table_enable_raw(tree->table, opts->mode == AUDIT_TREE_RAW);
	scols_table_enable_export(tree->table, opts->mode == AUDIT_TREE_PAIRS);
	scols_table_enable_colors(tree->table, opts->color);
	tree->color = opts->color;
	return 0;
}

int audit_tree_print(FILE *stream, const struct bino_audit *audit,
		     const struct audit_tree_options *opts)
{
	const char *current = setlocale(LC_CTYPE, NULL);
	char *saved = current ? strdup(current) : NULL;
	struct tree tree;
	size_t i;
	int ret = -1, errnum;

	/*
	 * The user's character set, for the tree's characters and the width
	 * of names, while the table is built and printed only.
	 */
	setlocale(LC_CTYPE, "");
	memset(&tree, 0, sizeof(tree));
	tree.full = opts->full;
	tree.flat = opts->mode != AUDIT_TREE_TREE;
	tree.exports = opts->exports;
	if (tree_table(&tree, opts) != 0) {
		errno = ENOMEM;
		goto out_table;
	}
	for (i = 0; i < bino_audit_count(audit) && !tree.failed; i++)
		tree_export(&tree, bino_audit_get(audit, i));
	if (tree.failed) {
		errno = ENOMEM;
		goto out_table;
	}
	scols_table_set_stream(tree.table, stream);
	errno = 0;
	if (scols_print_table(tree.table) != 0 || ferror(stream)) {
		if (!errno)
			errno = EIO;
		goto out_table;
	}
	ret = 0;
out_table:
	errnum = errno; /* the cleanup below may change it */
	scols_unref_table(tree.table);
	setlocale(LC_CTYPE, saved ? saved : "C");
	free(saved);
	if (ret != 0)
		errno = errnum;
	return ret;
}
