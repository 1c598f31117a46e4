/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino mount [--watch] --client DIR...: the client keeper.  A Linux
 * NFS client crosses into a server's mount below a crossmnt export only on
 * traversal, and that submount expires when idle; GNU find's lstat comes
 * first, so a cold find sees the server's snapshots as directories of the
 * parent filesystem and reports loops.  The keeper makes each server mount
 * below DIR a mount of the client's own that does not expire
 * (client_hold.c), and removes it once the server no longer has it, so
 * that tools never meet ESTALE from a mount it made.
 *
 * How it learns of server mounts, and why so cheaply: a full walk of DIR's
 * directories at the start and on SIGHUP (each directory read, each
 * subdirectory looked at without triggering anything: STATX_ATTR_AUTOMOUNT
 * is a server mount nothing crossed).  Then, once a second, only the
 * directories that can gain one: DIR itself, its subdirectories, and each
 * directory that held a server mount (where snapshots are taken) get one
 * statx with AT_STATX_FORCE_SYNC (one GETATTR each, whatever the number of
 * mounts or files); a directory whose mtime, ctime or inode changed is
 * read again (READDIR, and a look at its subdirectories).  A subvolume
 * root seen there that the server has not mounted yet (its keeper mounts
 * it a second or so after the snapshot) keeps its directory read again for
 * PENDING_TICKS ticks.  The directory above each directory that held a
 * server mount is watched too, and read two levels deep when it changes
 * (its subdirectories not watched on their own): a layout with a new
 * directory per snapshot (snapper's .snapshots/N/snapshot) is kept so,
 * each new N read when .snapshots changes (a server mount named
 * .snapshots is watched so from the start, empty as snapper makes it),
 * and a point whose N is gone is gone.  That layout costs a GETATTR a
 * second per snapshot, each N being watched (a snapshot deleted while its
 * N stays is seen so); flat layouts (.snapshot/NAME, btrbk's) cost one or
 * two in all.  A watched directory that is gone is no longer watched.  A server mount
 * anywhere else new is found by the next SIGHUP (systemctl reload).
 * A server mount someone else crossed (the kernel's submount, a mount made
 * by hand, or one an earlier run of the keeper made: mount IDs are not
 * kept across runs) is left to them, and looked at again in turn,
 * FOREIGN_PER_TICK a tick: once it is an untriggered server mount again,
 * the keeper holds it.  A look goes through the mount, and that alone
 * keeps the kernel's submount from expiring while it comes round more
 * often than fs.nfs.nfs_mountpoint_timeout (500 s by default: 1,000
 * foreign mounts come round every 125 s).
 *
 * The owner bound is the server keeper's (--max-user-mounts,
 * --max-total-user-mounts): the owner is the numeric uid the server
 * serves for the subvolume's root, counted below each DIR.
 */
#include "client_keeper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "array.h"
#include "cli.h"
#include "client_hold.h"
#include "diag.h"
#include "escape.h"
#include "resolve.h"

/* How often the watched directories are looked at. */
#define TICK_MS 1000
/* How many ticks a directory is read again after it showed an unmounted subvolume. */
#define PENDING_TICKS 10
/*
 * How many ticks a directory that changed is left before it is read: the
 * server's keeper mounts a new snapshot a second or so after it appears,
 * and a vers=3 client that looked up the name before keeps it as a plain
 * directory (knfsd's READDIRPLUS gives no handle for a mount point, so
 * nothing tells the client its handle changed) until the directory
 * changes again.
 */
#define SETTLE_TICKS 2
/* How many mounts of others are looked at again each tick (in turn). */
#define FOREIGN_PER_TICK 8
/*
 * The subvolume snapper takes each snapshot below, as N/snapshot: watched
 * two levels deep from the start, before it holds a snapshot.
 */
#define SNAPPER_DIR ".snapshots"

enum point_state {
	POINT_HELD, /* the keeper's mount (mnt_id) */
	POINT_FOREIGN, /* crossed or mounted by someone else: looked at in turn */
	POINT_SKIPPED, /* over the owner bound: said once */
	POINT_FAILED, /* the hold failed: tried again when its directory changes */
};

/* A server mount below DIR. */
struct point {
	char *rel; /* its path below DIR */
	uint64_t mnt_id; /* POINT_HELD: the mount the keeper made */
	uint32_t uid; /* its owner on the server */
	enum point_state state;
	bool seen; /* in the last read of its directory */
};

/* A directory looked at each tick. */
struct watched_dir {
	char *rel; /* below DIR; "" for DIR */
	struct statx_timestamp mtime, ctime;
	uint64_t ino;
	bool looked; /* the fields above hold a look */
	bool deep; /* above a directory that held a server mount: read two levels */
	unsigned int pending; /* ticks left to read it again regardless */
	unsigned int settle; /* ticks left before a change seen is read */
};

/* One DIR. */
struct client_root {
	char *path; /* as given */
	int fd; /* DIR, opened once: every path is resolved below it */
	struct point *points;
	size_t n_points, cap_points;
	struct watched_dir *dirs;
	size_t n_dirs, cap_dirs;
	size_t next_look; /* the point the next look at others' mounts starts from */
};

struct keeper {
	const struct client_options *opts;
	struct client_root *roots;
	size_t n_roots;
	bool failed; /* a mount or unmount failed */
	bool no_memory;
};

/* "@parent/@name", or @name when @parent is DIR ("").  NULL with errno set. */
static char *rel_join(const char *parent, const char *name)
{
	char *rel;

	if (!*parent)
		return strdup(name);
	if (asprintf(&rel, "%s/%s", parent, name) < 0)
		return NULL;
	return rel;
}

/* @rel's last name. */
static const char *rel_base(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? slash + 1 : rel;
}

/*
 * How deep @rel lies below @dir: 0 in @dir itself, 1 in a subdirectory of
 * it, and so on; -1 when it is not below @dir.
 */
static int rel_depth(const char *rel, const char *dir)
{
	size_t len = strlen(dir);
	int depth = 0;

	if (len) {
		if (strncmp(rel, dir, len) != 0 || rel[len] != '/')
			return -1;
		rel += len + 1;
	}
	while ((rel = strchr(rel, '/')))
		rel++, depth++;
	return depth;
}

/* Say @what about DIR/@rel on stderr ("btrfs-ino: mount: PATH: WHAT"). */
static void say_path(struct keeper *k, const struct client_root *root,
		     const char *rel, const char *what)
{
	char *path = rel_join(root->path, rel);

	if (!path) {
		k->no_memory = true;
		return;
	}
	diag_command_path("mount", path, "%s", what);
	free(path);
}

/*
 * Print "ACTION DIR/@rel" and @tail on stdout, flushed (a keeper's log),
 * the path escaped as walk and audit print paths: the server's users
 * choose the names, a newline included.
 */
static void print_action(struct keeper *k, const struct client_root *root,
			 const char *action, const char *rel, const char *tail)
{
	char *path = rel_join(root->path, rel), *shown = path;

	if (path && text_needs_escape(path, strlen(path)))
		shown = text_escape(path, strlen(path));
	if (shown) {
		printf("%s %s%s\n", action, shown, tail);
		fflush(stdout);
	} else {
		k->no_memory = true;
	}
	if (shown != path)
		free(shown);
	free(path);
}

static ssize_t point_find(const struct client_root *root, const char *rel)
{
	size_t i;

	for (i = 0; i < root->n_points; i++) {
		if (strcmp(root->points[i].rel, rel) == 0)
			return (ssize_t)i;
	}
	return -1;
}

static ssize_t dir_find(const struct client_root *root, const char *rel)
{
	size_t i;

	for (i = 0; i < root->n_dirs; i++) {
		if (strcmp(root->dirs[i].rel, rel) == 0)
			return (ssize_t)i;
	}
	return -1;
}

/*
 * Watch @rel (taken over) unless it is watched, @deep to read two levels:
 * 0, or -1 with errno set.
 */
static int dir_watch(struct client_root *root, char *rel, unsigned int pending,
		     bool deep)
{
	ssize_t i;

	if (!rel)
		return -1;
	i = dir_find(root, rel);
	if (i >= 0) {
		free(rel);
		if (root->dirs[i].pending < pending)
			root->dirs[i].pending = pending;
		root->dirs[i].deep |= deep;
		return 0;
	}
	if (ARRAY_RESERVE(root->dirs, root->cap_dirs, root->n_dirs + 1) != 0) {
		free(rel);
		return -1;
	}
	root->dirs[root->n_dirs++] = (struct watched_dir){
		.rel = rel, .pending = pending, .deep = deep,
	};
	return 0;
}

/* Watch the directory of @rel, @pending ticks read again. */
static void dir_watch_parent(struct keeper *k, struct client_root *root,
			     const char *rel, unsigned int pending)
{
	const char *slash = strrchr(rel, '/');
	char *parent = strndup(rel, slash ? (size_t)(slash - rel) : 0);

	if (!parent || dir_watch(root, parent, pending, false) != 0)
		k->no_memory = true;
}

/*
 * Watch the directory above the directory of the point @rel, read two
 * levels deep: where snapper makes a new directory per snapshot.
 */
static void dir_watch_grandparent(struct keeper *k, struct client_root *root,
				  const char *rel)
{
	const char *slash = strrchr(rel, '/'), *up;
	char *grandparent;

	if (!slash)
		return; /* its directory is DIR */
	for (up = slash; up > rel && up[-1] != '/'; up--)
		;
	grandparent = strndup(rel, up > rel ? (size_t)(up - 1 - rel) : 0);
	if (!grandparent || dir_watch(root, grandparent, 0, true) != 0)
		k->no_memory = true;
}

/* How many points of @uid (any owner but root when @uid is 0) the keeper holds. */
static size_t held_by(const struct client_root *root, uint32_t uid)
{
	size_t i, n = 0;

	for (i = 0; i < root->n_points; i++) {
		const struct point *p = &root->points[i];

		if (p->state == POINT_HELD && p->uid != 0 &&
		    (uid == 0 || p->uid == uid))
			n++;
	}
	return n;
}

/* Why the owner bound refuses a mount of @uid's, or NULL. */
static const char *over_bound(const struct keeper *k,
			      const struct client_root *root, uint32_t uid)
{
	if (uid == 0)
		return NULL;
	if (held_by(root, uid) >= k->opts->max_user_mounts)
		return "skipped: its owner has reached --max-user-mounts";
	if (held_by(root, 0) >= k->opts->max_total_user_mounts)
		return "skipped: the owners other than root have reached "
		       "--max-total-user-mounts";
	return NULL;
}

/*
 * Say why the mount of DIR/@rel failed (@errnum): a refusal when its path
 * no longer leads to what was planned (a change users can make), else a
 * failure of the run.
 */
static void say_hold_failed(struct keeper *k, const struct client_root *root,
			    const char *rel, int errnum)
{
	const char *refused = NULL;
	char *what;

	switch (errnum) {
	case ESTALE:
		refused = "not the server mount planned (another directory, "
			  "owner or mount there now)";
		break;
	case ENOENT:
		refused = "no longer there";
		break;
	case ELOOP:
	case ENOTDIR:
	case EXDEV:
		refused = "a symbolic link (or not a directory) on the way";
		break;
	default:
		k->failed = true;
		say_path(k, root, rel, strerror(errnum));
		return;
	}
	if (asprintf(&what, "refused: %s", refused) < 0) {
		k->no_memory = true;
		return;
	}
	say_path(k, root, rel, what);
	free(what);
}

/* Hold the point @i, an untriggered server mount: its state set. */
static void point_hold(struct keeper *k, struct client_root *root, size_t i)
{
	struct point *p = &root->points[i];
	const char *refused = over_bound(k, root, p->uid);
	char tail[64];

	if (refused) {
		if (p->state != POINT_SKIPPED)
			say_path(k, root, p->rel, refused);
		p->state = POINT_SKIPPED;
		return;
	}
	snprintf(tail, sizeof(tail), ": the server's mount, owner uid %" PRIu32,
		 p->uid);
	if (k->opts->dry_run ||
	    client_hold(root->fd, p->rel, p->uid, &p->mnt_id) == 0) {
		p->state = POINT_HELD;
		print_action(k, root, "mount", p->rel, tail);
		return;
	}
	p->state = POINT_FAILED;
	say_hold_failed(k, root, p->rel, errno);
}

/*
 * Take note of the entry @rel, met as @entry (a server mount or a mount):
 * hold it, or know it as someone else's.  Whether it is a mount to walk
 * into.
 */
static bool point_meet(struct keeper *k, struct client_root *root,
		       const char *rel, const struct client_entry *entry)
{
	ssize_t found = point_find(root, rel);
	struct point *p;

	if (found < 0) {
		char *copy = strdup(rel);

		if (!copy || ARRAY_RESERVE(root->points, root->cap_points,
					   root->n_points + 1) != 0) {
			free(copy);
			k->no_memory = true;
			return false;
		}
		found = (ssize_t)root->n_points++;
		root->points[found] = (struct point){
			.rel = copy, .uid = entry->uid, .state = POINT_FAILED,
		};
		dir_watch_parent(k, root, rel, 0);
		dir_watch_grandparent(k, root, rel);
		/* Snapper's own subvolume, empty until its first snapshot. */
		if (strcmp(rel_base(rel), SNAPPER_DIR) == 0 &&
		    dir_watch(root, strdup(rel), 0, true) != 0)
			k->no_memory = true;
	}
	p = &root->points[found];
	p->seen = true;
	if (entry->kind == CLIENT_ENTRY_MOUNTED) {
		if (p->state != POINT_HELD || p->mnt_id != entry->mnt_id)
			p->state = POINT_FOREIGN;
		return true;
	}
	/* Untriggered: a mount the keeper made there is gone (unmounted by hand). */
	if (p->state == POINT_HELD && !k->opts->dry_run)
		p->state = POINT_FAILED;
	if (p->state != POINT_HELD) {
		p->uid = entry->uid;
		point_hold(k, root, (size_t)found);
	}
	return p->state == POINT_HELD && !k->opts->dry_run;
}

/* The point @i is gone from the server: unmount the keeper's mount, forget it. */
static void point_gone(struct keeper *k, struct client_root *root, size_t i)
{
	struct point *p = &root->points[i];

	if (p->state == POINT_HELD) {
		print_action(k, root, "umount", p->rel, ": gone from the server");
		if (!k->opts->dry_run &&
		    client_release(root->fd, p->rel, p->mnt_id) != 0) {
			say_path(k, root, p->rel, errno == ESTALE ?
				 "refused: another mount than the keeper's is there" :
				 strerror(errno));
			k->failed = errno != ESTALE;
		}
	}
	free(p->rel);
	root->points[i] = root->points[--root->n_points];
}

/* A walk's directories still to read: paths below DIR. */
struct walk_stack {
	char **rels;
	size_t n, cap;
};

/*
 * Take note of the subdirectory @name of @rel: a server mount, a mount,
 * an unmounted subvolume; a subdirectory of DIR is watched.  With @stack,
 * push what the walk reads next.
 */
static void read_entry(struct keeper *k, struct client_root *root, int dirfd,
		       const char *rel, const char *name, struct walk_stack *stack)
{
	struct client_entry entry;
	bool descend = true;
	char *child;

	if (client_entry_look(dirfd, name, &entry) != 0 || !entry.is_dir)
		return;
	child = rel_join(rel, name);
	if (!child) {
		k->no_memory = true;
		return;
	}
	if (entry.kind == CLIENT_ENTRY_SERVER_MOUNT ||
	    entry.kind == CLIENT_ENTRY_MOUNTED) {
		descend = point_meet(k, root, child, &entry);
	} else {
		if (entry.kind == CLIENT_ENTRY_UNMOUNTED_SUBVOL)
			dir_watch_parent(k, root, child, PENDING_TICKS);
		if (!*rel && dir_watch(root, strdup(child), 0, false) != 0)
			k->no_memory = true;
	}
	if (stack && descend &&
	    ARRAY_RESERVE(stack->rels, stack->cap, stack->n + 1) == 0) {
		stack->rels[stack->n++] = child;
		return;
	}
	free(child);
}

/* Open the directory @rel below DIR to read it: NULL with errno set. */
static DIR *dir_open(const struct client_root *root, const char *rel)
{
	int fd = bino__resolve_beneath(root->fd, *rel ? rel : ".",
				       O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);

	if (!dir && fd >= 0) {
		int errnum = errno;

		close(fd);
		errno = errnum;
	}
	return dir;
}

/* Take note of each subdirectory of @dir, DIR/@rel (closed here); push them onto @stack. */
static void read_entries(struct keeper *k, struct client_root *root, DIR *dir,
			 const char *rel, struct walk_stack *stack)
{
	struct dirent *d;

	while ((d = readdir(dir))) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0 ||
		    (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN))
			continue;
		read_entry(k, root, dirfd(dir), rel, d->d_name, stack);
	}
	closedir(dir);
}

/*
 * Read the directories among @children (freed here), met by a deep read:
 * a new N of snapper's, where a snapshot's server mount is.  The points
 * of one watched (read when it changes) or unreadable are left as they
 * were.
 */
static void read_children(struct keeper *k, struct client_root *root,
			  struct walk_stack *children)
{
	size_t i, j;

	for (i = 0; i < children->n; i++) {
		char *rel = children->rels[i];
		bool watched = dir_find(root, rel) >= 0;
		DIR *dir = watched ? NULL : dir_open(root, rel);

		if (watched || (!dir && errno != ENOENT)) {
			for (j = 0; j < root->n_points; j++)
				root->points[j].seen |=
					rel_depth(root->points[j].rel, rel) == 0;
		}
		if (dir)
			read_entries(k, root, dir, rel, NULL);
		free(rel);
	}
	free(children->rels);
}

/*
 * Read the directory @rel, with @deep its subdirectories too: each
 * subdirectory taken note of, the points it no longer has gone.  With
 * @stack, push the directories to walk next.  Whether @rel is gone.
 */
static bool read_dir(struct keeper *k, struct client_root *root,
		     const char *rel, struct walk_stack *stack, bool deep)
{
	struct walk_stack children = { 0 };
	DIR *dir = dir_open(root, rel);
	bool gone = !dir && errno == ENOENT;
	size_t i;

	/* A directory gone has no points left; one unreadable is left as it was. */
	if (!dir && !gone)
		return false;
	for (i = 0; i < root->n_points; i++) {
		int depth = rel_depth(root->points[i].rel, rel);

		root->points[i].seen = depth != 0 && !(deep && depth == 1);
	}
	if (dir)
		read_entries(k, root, dir, rel, deep ? &children : stack);
	read_children(k, root, &children);
	for (i = root->n_points; i-- > 0;) {
		if (!root->points[i].seen)
			point_gone(k, root, i);
	}
	return gone;
}

/* Walk every directory below DIR (the start, and SIGHUP). */
static void root_walk(struct keeper *k, struct client_root *root)
{
	struct walk_stack stack = { 0 };
	char *rel = strdup("");

	while (rel) {
		read_dir(k, root, rel, &stack, false);
		free(rel);
		rel = stack.n ? stack.rels[--stack.n] : NULL;
	}
	free(stack.rels);
}

/*
 * Whether the watched directory @i changed since its last look (one
 * GETATTR: AT_STATX_FORCE_SYNC passes the attribute cache).  A directory
 * gone is unwatched.
 */
static bool dir_changed(struct client_root *root, size_t i)
{
	struct watched_dir *w = &root->dirs[i];
	struct statx stx;
	bool changed;
	int fd;

	fd = bino__resolve_beneath(root->fd, *w->rel ? w->rel : ".",
				   O_PATH | O_CLOEXEC);
	if (fd < 0 || statx(fd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC,
			    STATX_MTIME | STATX_CTIME | STATX_INO, &stx) != 0) {
		if (fd >= 0)
			close(fd);
		return true; /* read again: its points are gone */
	}
	close(fd);
	changed = !w->looked || stx.stx_ino != w->ino ||
		  memcmp(&stx.stx_mtime, &w->mtime, sizeof(w->mtime)) != 0 ||
		  memcmp(&stx.stx_ctime, &w->ctime, sizeof(w->ctime)) != 0;
	w->looked = true;
	w->ino = stx.stx_ino;
	w->mtime = stx.stx_mtime;
	w->ctime = stx.stx_ctime;
	return changed;
}

/* Look again at a point someone else crossed: hold it once theirs is gone. */
static void point_look_again(struct keeper *k, struct client_root *root, size_t i)
{
	struct client_entry entry;
	const char *rel = root->points[i].rel, *slash = strrchr(rel, '/');
	char *parent = strndup(rel, slash ? (size_t)(slash - rel) : 0);
	int fd;

	if (!parent) {
		k->no_memory = true;
		return;
	}
	fd = bino__resolve_beneath(root->fd, *parent ? parent : ".",
				   O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(parent);
	if (fd < 0)
		return;
	if (client_entry_look(fd, slash ? slash + 1 : rel, &entry) == 0 &&
	    entry.kind == CLIENT_ENTRY_SERVER_MOUNT) {
		root->points[i].uid = entry.uid;
		point_hold(k, root, i);
	}
	close(fd);
}

/* Look again at the next FOREIGN_PER_TICK mounts of others, in turn. */
static void root_look_again(struct keeper *k, struct client_root *root)
{
	size_t seen, looked = 0;

	for (seen = 0; seen < root->n_points && looked < FOREIGN_PER_TICK; seen++) {
		size_t i = root->next_look++ % root->n_points;

		if (root->points[i].state == POINT_FOREIGN) {
			point_look_again(k, root, i);
			looked++;
		}
	}
}

/* One tick over DIR: the watched directories, and the points of others. */
static void root_tick(struct keeper *k, struct client_root *root)
{
	size_t i;

	/* By index: reading a directory may watch more. */
	for (i = 0; i < root->n_dirs; i++) {
		struct watched_dir *w = &root->dirs[i];
		bool read = false;

		if (dir_changed(root, i) && !w->settle)
			w->settle = SETTLE_TICKS;
		else if (w->settle)
			read = --w->settle == 0;
		if (w->pending) {
			w->pending--;
			read = true;
		}
		if (read && read_dir(k, root, w->rel, NULL, w->deep) && *w->rel) {
			/* Gone: unwatched (its points went with it). */
			free(root->dirs[i].rel);
			root->dirs[i--] = root->dirs[--root->n_dirs];
		}
	}
	root_look_again(k, root);
}

/*
 * Open DIR, which must be an NFS mount (or a directory of one).  0, or -1
 * with the reason on stderr.
 */
static int root_open(struct client_root *root, const char *path)
{
	struct statfs sfs;

	memset(root, 0, sizeof(*root));
	root->path = strdup(path);
	if (!root->path) {
		diag_no_memory();
		return -1;
	}
	root->fd = open(path, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (root->fd < 0 || fstatfs(root->fd, &sfs) != 0) {
		diag_command_path("mount", path, "%s", strerror(errno));
		return -1;
	}
	if (sfs.f_type != NFS_SUPER_MAGIC) {
		diag_command_path("mount", path, "not on NFS: --client takes "
				  "the client's NFS mount of an export");
		return -1;
	}
	return 0;
}

static void root_close(struct client_root *root)
{
	size_t i;

	for (i = 0; i < root->n_points; i++)
		free(root->points[i].rel);
	for (i = 0; i < root->n_dirs; i++)
		free(root->dirs[i].rel);
	free(root->points);
	free(root->dirs);
	free(root->path);
	if (root->fd >= 0)
		close(root->fd);
}

/* Walk every DIR. */
static void keeper_walk(struct keeper *k)
{
	size_t i;

	for (i = 0; i < k->n_roots; i++)
		root_walk(k, &k->roots[i]);
}

/*
 * The keeper: a tick each TICK_MS, a walk on SIGHUP, until SIGTERM or
 * SIGINT (EXIT_CLEAN).  EXIT_USAGE if it cannot start or runs out of
 * memory, with the reason on stderr.
 */
static int keeper_watch(struct keeper *k, int sigfd)
{
	struct signalfd_siginfo info;
	struct pollfd pfd = { .fd = sigfd, .events = POLLIN };
	size_t i;

	for (i = 0; !k->opts->quiet && i < k->n_roots; i++)
		diag_command_path("mount", k->roots[i].path, "watching");
	for (;;) {
		int ready = poll(&pfd, 1, TICK_MS);

		if (ready < 0 && errno != EINTR) {
			diag_message("mount: poll: %s", strerror(errno));
			return EXIT_USAGE;
		}
		if (ready > 0 && read(sigfd, &info, sizeof(info)) == sizeof(info)) {
			if (info.ssi_signo != SIGHUP)
				return EXIT_CLEAN;
			keeper_walk(k);
		}
		for (i = 0; ready == 0 && i < k->n_roots; i++)
			root_tick(k, &k->roots[i]);
		if (k->no_memory) {
			diag_no_memory();
			return EXIT_USAGE;
		}
	}
}

int client_keeper_run(const struct client_options *opts, char *const *dirs,
		      size_t n_dirs)
{
	struct keeper k = { .opts = opts };
	int ret = EXIT_USAGE, sigfd = -1;
	sigset_t signals;
	size_t i;

	k.roots = calloc(n_dirs, sizeof(*k.roots));
	if (!k.roots) {
		diag_no_memory();
		return EXIT_USAGE;
	}
	for (i = 0; i < n_dirs; i++) {
		k.roots[i].fd = -1;
		k.n_roots++;
		if (root_open(&k.roots[i], dirs[i]) != 0)
			goto out_close;
	}
	/* Blocked before the walk: a SIGHUP during it asks for another. */
	sigemptyset(&signals);
	sigaddset(&signals, SIGHUP);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	if (opts->watch) {
		sigprocmask(SIG_BLOCK, &signals, NULL);
		sigfd = signalfd(-1, &signals, SFD_CLOEXEC);
		if (sigfd < 0) {
			diag_message("mount: signalfd: %s", strerror(errno));
			goto out_close;
		}
	}
	keeper_walk(&k);
	if (k.no_memory)
		diag_no_memory();
	else if (opts->watch)
		ret = keeper_watch(&k, sigfd);
	else
		ret = k.failed ? EXIT_FINDINGS : EXIT_CLEAN;
out_close:
	if (sigfd >= 0)
		close(sigfd);
	for (i = 0; i < k.n_roots; i++)
		root_close(&k.roots[i]);
	free(k.roots);
	return ret;
}
