/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Suggestions: what the server must mount so that NFS clients see each btrfs
 * subvolume of an audited export as a filesystem of its own.  Components:
 *
 *  - suggest_filesystem(): the server mount holding the export path (the
 *    longest mount point prefix), its filesystem UUID and its options
 *    without subvol= and subvolid= (suggest_options()).
 *  - suggest_subvols(): the audit's subvolumes strictly below the path on
 *    that filesystem, each marked when already mounted on its own path.
 *  - suggest_confpaths(): whether each subvolume's path may be named in
 *    configuration (confpath.c), judged from the export holding the path.
 *  - suggest_placeholders(): the empty inode-2 directories snapshots hold,
 *    looked for only where a subvolume of the tree (or a placeholder of the
 *    snapshot's source) would be, with lstat(2), not by a second walk.
 *
 * Everything is read from the audit and the mount table; nothing is
 * changed and nothing is printed.  Phrasing it is the caller's business.
 *
 * bino_subvol_exists() stands beside them: whether a subvolume an fstab
 * line names is still in the filesystem's subvolume tree, the one test of
 * "deleted" (a missing mount point is none).
 */
#include "suggest_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "btrfsconst.h"
#include "mounts.h"
#include "path.h"
#include "subvol.h"

struct bino_suggestion {
	const struct bino_audit_target *target;
	const struct bino_mounts *server;
	struct bino_mounts *own_mounts;
	const struct bino_mount *filesystem;
	bool needed;
	bool has_uuid;
	uint8_t uuid[16];
	char *options;
	const struct bino_audit_subvol **subvols;
	bool *mounted;
	struct bino_confpath **confpaths;
	size_t n_subvols;
	char **placeholders;
	size_t n_placeholders, cap_placeholders;
};

static enum bino_error suggest_filesystem(struct bino_suggestion *s)
{
	const char *path = bino_audit_target_path(s->target);
	int fd;

	/* The same rule as bino_audit_target_mount(): they agree. */
	s->filesystem = bino__mounts_holding(s->server, path);
	if (!s->filesystem) {
		errno = 0;
		return BINO_ERROR_NOT_FOUND;
	}
	if (strcmp(bino_mount_fstype(s->filesystem), "btrfs") != 0)
		return BINO_OK;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		s->has_uuid = bino__fs_uuid_fd(fd, s->uuid) == 0;
		close(fd);
	}
	return BINO_OK;
}

static enum bino_error suggest_options(struct bino_suggestion *s)
{
	s->options = bino__mount_options_for_subvol(s->filesystem);
	return s->options ? BINO_OK : BINO_ERROR_NO_MEMORY;
}

/* Whether the subvolume @subvol lives on the filesystem of the export. */
static bool suggest_same_fs(const struct bino_suggestion *s,
			    const struct bino_audit_subvol *subvol)
{
	uint8_t uuid[16];
	bool same;
	int fd;

	if (!s->has_uuid)
		return true;
	fd = open(bino_audit_subvol_path(subvol),
		  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return true; /* keep what cannot be told apart */
	same = bino__fs_uuid_fd(fd, uuid) != 0 ||
	       memcmp(uuid, s->uuid, sizeof(uuid)) == 0;
	close(fd);
	return same;
}

static enum bino_error suggest_subvols(struct bino_suggestion *s)
{
	const char *path = bino_audit_target_path(s->target);
	size_t i, j, n = bino_audit_target_subvol_count(s->target);

	s->subvols = calloc(n ? n : 1, sizeof(*s->subvols));
	s->mounted = calloc(n ? n : 1, sizeof(*s->mounted));
	s->confpaths = calloc(n ? n : 1, sizeof(*s->confpaths));
	if (!s->subvols || !s->mounted || !s->confpaths)
		return BINO_ERROR_NO_MEMORY;
	if (strcmp(bino_mount_fstype(s->filesystem), "btrfs") != 0)
		return BINO_OK;
	for (i = 0; i < n; i++) {
		const struct bino_audit_subvol *subvol =
			bino_audit_target_subvol(s->target, i);
		const char *subvol_path = bino_audit_subvol_path(subvol);
		bool mounted = false;

		if (!subvol_path || !bino__path_below(subvol_path, path) ||
		    !suggest_same_fs(s, subvol))
			continue;
		for (j = 0; j < bino_audit_subvol_mount_count(subvol); j++) {
			const struct bino_mount *mount =
				bino_audit_subvol_mount(subvol, j);

			if (strcmp(bino_mount_target(mount), subvol_path) == 0)
				mounted = true;
		}
		s->mounted[s->n_subvols] = mounted;
		s->subvols[s->n_subvols++] = subvol;
	}
	return BINO_OK;
}

/*
 * The top the subvolumes' paths are judged from: the export the path is
 * exported by when it holds the path (a directory between the two is on
 * the way too), else the path itself.
 */
static const char *suggest_top(const struct bino_suggestion *s)
{
	const struct bino_export *e = bino_audit_target_export(s->target);
	const char *path = bino_audit_target_path(s->target);

	if (e && bino_export_path(e)[0] == '/' &&
	    bino__path_at_or_below(path, bino_export_path(e)))
		return bino_export_path(e);
	return path;
}

static enum bino_error suggest_confpaths(struct bino_suggestion *s)
{
	const char *top = suggest_top(s);
	enum bino_error err;
	size_t i;

	for (i = 0; i < s->n_subvols; i++) {
		err = bino_confpath_create(top, bino_audit_subvol_path(s->subvols[i]),
					   0, &s->confpaths[i]);
		if (err)
			return err;
	}
	return BINO_OK;
}

/* ---- placeholders ------------------------------------------------------ */

static bool suggest_is_placeholder(const struct bino_suggestion *s,
				   const char *path)
{
	struct stat st;
	size_t i;

	if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_ino != BTRFS_EMPTY_SUBVOL_DIR_OBJECTID)
		return false;
	for (i = 0; i < s->n_placeholders; i++) {
		if (strcmp(s->placeholders[i], path) == 0)
			return false; /* known already */
	}
	return true;
}

/*
 * If @snapshot's path with @source_path replaced by its own at the start of
 * @candidate names a placeholder, record it (one more in *@added).
 */
static enum bino_error suggest_try(struct bino_suggestion *s,
				   const char *snapshot,
				   const char *source_path,
				   const char *candidate, size_t *added)
{
	const char *rel = candidate + strlen(source_path);
	char *path;

	path = malloc(strlen(snapshot) + strlen(rel) + 1);
	if (!path)
		return BINO_ERROR_NO_MEMORY;
	strcpy(path, snapshot);
	strcat(path, rel);
	if (!suggest_is_placeholder(s, path)) {
		free(path);
		return BINO_OK;
	}
	if (ARRAY_RESERVE(s->placeholders, s->cap_placeholders,
			  s->n_placeholders + 1)) {
		free(path);
		return BINO_ERROR_NO_MEMORY;
	}
	s->placeholders[s->n_placeholders++] = path;
	(*added)++;
	return BINO_OK;
}

static const struct bino_audit_subvol *
suggest_find_subvol(const struct bino_suggestion *s, uint64_t id)
{
	size_t i, n = bino_audit_target_subvol_count(s->target);

	for (i = 0; i < n; i++) {
		const struct bino_audit_subvol *subvol =
			bino_audit_target_subvol(s->target, i);

		if (bino_audit_subvol_id(subvol) == id)
			return subvol;
	}
	return NULL;
}

/*
 * One pass over the snapshots: where the source has a subvolume or a
 * placeholder, the snapshot may have a placeholder: how many were added,
 * in *@added.
 */
static enum bino_error suggest_placeholder_pass(struct bino_suggestion *s,
						size_t *added)
{
	size_t i, j, n = bino_audit_target_subvol_count(s->target);
	enum bino_error err;

	*added = 0;

	for (i = 0; i < s->n_subvols; i++) {
		const char *snapshot = bino_audit_subvol_path(s->subvols[i]);
		const struct bino_audit_subvol *source = suggest_find_subvol(
			s, bino_audit_subvol_snapshot_of(s->subvols[i]));
		const char *source_path;
		size_t known = s->n_placeholders;

		if (!source || !(source_path = bino_audit_subvol_path(source)))
			continue;
		for (j = 0; j < n; j++) {
			const char *other = bino_audit_subvol_path(
				bino_audit_target_subvol(s->target, j));

			if (!other || !bino__path_below(other, source_path))
				continue;
			err = suggest_try(s, snapshot, source_path, other,
					  added);
			if (err)
				return err;
		}
		for (j = 0; j < known; j++) {
			if (!bino__path_below(s->placeholders[j], source_path))
				continue;
			err = suggest_try(s, snapshot, source_path,
					  s->placeholders[j], added);
			if (err)
				return err;
		}
	}
	return BINO_OK;
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum bino_error suggest_placeholders(struct bino_suggestion *s)
{
	size_t pass, added;
	enum bino_error err;

	/* Snapshots of snapshots inherit placeholders: go on until stable. */
	for (pass = 0; pass <= s->n_subvols; pass++) {
		err = suggest_placeholder_pass(s, &added);
		if (err)
			return err;
		if (added == 0)
			break;
	}
	if (s->n_placeholders)
		qsort(s->placeholders, s->n_placeholders,
		      sizeof(*s->placeholders), compare_paths);
	return BINO_OK;
}

/* ---- public API -------------------------------------------------------- */

BINO_PUBLIC enum bino_error
bino_suggestion_create(const struct bino_audit_target *target,
		       const struct bino_mounts *server_mounts, int flags,
		       struct bino_suggestion **ret)
{
	struct bino_suggestion *s;
	enum bino_error err;
	int c;

	if (!target || !ret || flags || bino_audit_target_error(target))
		return BINO_ERROR_INVALID_ARGUMENT;
	s = calloc(1, sizeof(*s));
	if (!s)
		return BINO_ERROR_NO_MEMORY;
	s->target = target;
	s->server = server_mounts;
	if (!s->server) {
		err = bino_mounts_create(NULL, &s->own_mounts);
		if (err)
			goto out_free;
		s->server = s->own_mounts;
	}
	for (c = 0; c < BINO_COLLISION_NR; c++)
		s->needed = s->needed || bino_audit_target_collisions(target, c);
	err = suggest_filesystem(s);
	if (!err)
		err = suggest_options(s);
	if (!err)
		err = suggest_subvols(s);
	if (!err)
		err = suggest_confpaths(s);
	if (!err)
		err = suggest_placeholders(s);
	if (err)
		goto out_free;
	*ret = s;
	return BINO_OK;

out_free:
	bino_suggestion_destroy(s);
	return err;
}

BINO_PUBLIC void bino_suggestion_destroy(struct bino_suggestion *suggestion)
{
	size_t i;

	if (!suggestion)
		return;
	for (i = 0; i < suggestion->n_placeholders; i++)
		free(suggestion->placeholders[i]);
	free(suggestion->placeholders);
	for (i = 0; suggestion->confpaths && i < suggestion->n_subvols; i++)
		bino_confpath_destroy(suggestion->confpaths[i]);
	free(suggestion->confpaths);
	free(suggestion->subvols);
	free(suggestion->mounted);
	free(suggestion->options);
	bino_mounts_destroy(suggestion->own_mounts);
	free(suggestion);
}

BINO_PUBLIC bool bino_suggestion_needed(const struct bino_suggestion *suggestion)
{
	if (!suggestion)
		return false;
	return suggestion->needed;
}

BINO_PUBLIC const struct bino_mount *
bino_suggestion_mount(const struct bino_suggestion *suggestion)
{
	if (!suggestion)
		return NULL;
	return suggestion->filesystem;
}

BINO_PUBLIC const uint8_t *
bino_suggestion_fs_uuid(const struct bino_suggestion *suggestion)
{
	if (!suggestion)
		return NULL;
	return suggestion->has_uuid ? suggestion->uuid : NULL;
}

BINO_PUBLIC const char *
bino_suggestion_mount_options(const struct bino_suggestion *suggestion)
{
	if (!suggestion)
		return NULL;
	return suggestion->options;
}

const char *bino__suggestion_path(const struct bino_suggestion *suggestion)
{
	return bino_audit_target_path(suggestion->target);
}

BINO_PUBLIC size_t
bino_suggestion_subvol_count(const struct bino_suggestion *suggestion)
{
	if (!suggestion)
		return 0;
	return suggestion->n_subvols;
}

BINO_PUBLIC const struct bino_audit_subvol *
bino_suggestion_subvol(const struct bino_suggestion *suggestion, size_t index)
{
	if (!suggestion)
		return NULL;
	return index < suggestion->n_subvols ? suggestion->subvols[index] : NULL;
}

BINO_PUBLIC bool
bino_suggestion_subvol_mounted(const struct bino_suggestion *suggestion,
			       size_t index)
{
	if (!suggestion)
		return false;
	return index < suggestion->n_subvols && suggestion->mounted[index];
}

BINO_PUBLIC const struct bino_confpath *
bino_suggestion_subvol_confpath(const struct bino_suggestion *suggestion,
				size_t index)
{
	if (!suggestion)
		return NULL;
	return index < suggestion->n_subvols ? suggestion->confpaths[index] : NULL;
}

BINO_PUBLIC size_t
bino_suggestion_placeholder_count(const struct bino_suggestion *suggestion)
{
	if (!suggestion)
		return 0;
	return suggestion->n_placeholders;
}

BINO_PUBLIC const char *
bino_suggestion_placeholder(const struct bino_suggestion *suggestion,
			    size_t index)
{
	if (!suggestion)
		return NULL;
	return index < suggestion->n_placeholders ?
		       suggestion->placeholders[index] :
		       NULL;
}

/* ---- bino_subvol_exists() -------------------------------------------- */

/* The subvolume looked for: by ID, or (ID 0) by its path from the top. */
struct subvol_wanted {
	uint64_t id;
	const char *path; /* without leading '/' */
};

static enum bino_error subvol_match(const char *path,
				    const struct bino__subvol_info *info,
				    void *data)
{
	const struct subvol_wanted *w = data;

	if (w->id ? info->id == w->id : strcmp(path, w->path) == 0)
		return BINO_ERROR_STOP_ITERATION;
	return BINO_OK;
}

/*
 * Whether the filesystem of the open @fd is btrfs, and @fs_uuid's when it
 * is given: BINO_OK, or BINO_ERROR_NOT_FOUND (errnum 0) when it is not.
 */
static enum bino_error subvol_fs_check(int fd, const uint8_t *fs_uuid,
				       int *errnum)
{
	uint8_t uuid[16];

	*errnum = 0;
	if (bino__fs_uuid_fd(fd, uuid) != 0) {
		if (errno != ENOTTY) {
			*errnum = errno;
			return BINO_ERROR_SUBVOL_INFO_FAILED;
		}
		return BINO_ERROR_NOT_FOUND;
	}
	if (fs_uuid && memcmp(uuid, fs_uuid, sizeof(uuid)) != 0)
		return BINO_ERROR_NOT_FOUND;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error bino_subvol_exists(const char *path,
					       const uint8_t *fs_uuid,
					       uint64_t subvolid,
					       const char *fs_path, bool *ret)
{
	struct subvol_wanted w = { subvolid, fs_path };
	enum bino_error err;
	int fd, errnum = 0;

	if (!path || !ret || (!subvolid && !fs_path)) {
		errno = EINVAL;
		return BINO_ERROR_INVALID_ARGUMENT;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return BINO_ERROR_OPEN_FAILED; /* errno is open(2)'s */
	err = subvol_fs_check(fd, fs_uuid, &errnum);
	close(fd);
	if (err) {
		errno = errnum;
		return err;
	}
	while (w.path && *w.path == '/')
		w.path++;
	/* The top level is in no listing: it is the filesystem itself. */
	if (subvolid == BTRFS_FS_TREE_OBJECTID || (!subvolid && !*w.path)) {
		*ret = true;
		return BINO_OK;
	}
	err = bino__subvol_list(path, true, subvol_match, &w, &errnum);
	if (err != BINO_OK && err != BINO_ERROR_STOP_ITERATION) {
		errno = errnum;
		return err;
	}
	*ret = err == BINO_ERROR_STOP_ITERATION;
	return BINO_OK;
}
