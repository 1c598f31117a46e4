/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Subvolume lookups and listings.  This is the only file that includes <btrfsutil.h>, so
 * it is the one place to adapt when a distribution's libbtrfsutil differs
 * (Debian 12 ships 1.2: the classic *_fd names are used).
 */
#include "subvol.h"

#include <btrfsutil.h>
#include <errno.h>
#include <fcntl.h>
#include <endian.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "btrfsconst.h"
#include "fhandle.h"

int bino__subvolid_ioctl(int fd, uint64_t *ret)
{
	enum btrfs_util_error err;

	/* libbtrfsutil leaves errno set from the failing ioctl. */
	err = btrfs_util_subvolume_id_fd(fd, ret);
	if (err == BTRFS_UTIL_OK)
		return 0;
	if (errno == 0)
		errno = EIO;
	return -1;
}

int bino__subvolid_file_handle(int dirfd, const char *name, int at_flags,
			       uint64_t *ret)
{
	union bino__fhandle fh;

	if (bino__fhandle_at(dirfd, name, at_flags, &fh) != 0)
		return -1;
	switch (fh.handle.handle_type) {
	case FILEID_BTRFS_WITHOUT_PARENT:
	case FILEID_BTRFS_WITH_PARENT:
	case FILEID_BTRFS_WITH_PARENT_ROOT:
		break;
	default:
		errno = EOPNOTSUPP;
		return -1;
	}
	if (fh.handle.handle_bytes < BTRFS_FID_ROOT_OFFSET + sizeof(*ret)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	memcpy(ret, fh.handle.f_handle + BTRFS_FID_ROOT_OFFSET,
	       sizeof(*ret));
	return 0;
}

#define BTRFS_ROOT_SUBVOL_RDONLY (1ULL << 0)

static void subvol_info_copy(struct bino__subvol_info *ret,
			     const struct btrfs_util_subvolume_info *info)
{
	static const uint8_t zero_uuid[16];

	memset(ret, 0, sizeof(*ret));
	ret->id = info->id;
	ret->parent_id = info->parent_id;
	ret->read_only = info->flags & BTRFS_ROOT_SUBVOL_RDONLY;
	memcpy(ret->uuid, info->uuid, sizeof(ret->uuid));
	memcpy(ret->parent_uuid, info->parent_uuid, sizeof(ret->parent_uuid));
	ret->is_snapshot = memcmp(info->parent_uuid, zero_uuid,
				  sizeof(zero_uuid)) != 0;
}

/*
 * BTRFS_IOC_GET_SUBVOL_INFO answers for the subvolume holding any inode,
 * unprivileged (Linux 4.18).  libbtrfsutil's subvolume_info with ID 0 first
 * insists that @fd be a subvolume's root (EINVAL for a directory below it),
 * so it is used only where the ioctl is missing, with the ID given (which
 * needs CAP_SYS_ADMIN).
 */
int bino__subvol_info_fd(int fd, struct bino__subvol_info *ret)
{
	static const uint8_t zero_uuid[16];
	struct btrfs_ioctl_get_subvol_info_args args;
	struct btrfs_util_subvolume_info info;
	uint64_t id;

	memset(&args, 0, sizeof(args));
	/* It may return 1 on success (a tree search's "not exact"). */
	if (ioctl(fd, BTRFS_IOC_GET_SUBVOL_INFO, &args) >= 0) {
		memset(ret, 0, sizeof(*ret));
		ret->id = args.treeid;
		ret->parent_id = args.parent_id;
		ret->read_only = args.flags & BTRFS_ROOT_SUBVOL_RDONLY;
		memcpy(ret->uuid, args.uuid, sizeof(ret->uuid));
		memcpy(ret->parent_uuid, args.parent_uuid,
		       sizeof(ret->parent_uuid));
		ret->is_snapshot = memcmp(args.parent_uuid, zero_uuid,
					  sizeof(zero_uuid)) != 0;
		return 0;
	}
	if (errno != ENOTTY)
		return -1;
	if (bino__subvolid_ioctl(fd, &id) != 0)
		return -1;
	errno = 0;
	if (btrfs_util_subvolume_info_fd(fd, id, &info) != BTRFS_UTIL_OK) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	subvol_info_copy(ret, &info);
	return 0;
}

/* Call @fn for each subvolume @iter yields, then destroy it. */
static int subvol_list_iter(struct btrfs_util_subvolume_iterator *iter,
			    bino__subvol_list_fn *fn, void *data)
{
	struct btrfs_util_subvolume_info info;
	struct bino__subvol_info copy;
	enum btrfs_util_error err;
	char *sub_path;
	int ret = 0;

	for (;;) {
		errno = 0;
		err = btrfs_util_subvolume_iterator_next_info(iter, &sub_path,
							      &info);
		if (err == BTRFS_UTIL_ERROR_STOP_ITERATION)
			break;
		if (err != BTRFS_UTIL_OK) {
			btrfs_util_destroy_subvolume_iterator(iter);
			goto out_errno;
		}
		subvol_info_copy(&copy, &info);
		ret = fn(sub_path, &copy, data);
		free(sub_path);
		if (ret)
			break;
	}
	btrfs_util_destroy_subvolume_iterator(iter);
	return ret;

out_errno:
	if (errno == 0)
		errno = EIO;
	return -1;
}

int bino__subvol_list(const char *path, bool whole_fs,
		      bino__subvol_list_fn *fn, void *data)
{
	struct btrfs_util_subvolume_iterator *iter;

	errno = 0;
	if (btrfs_util_create_subvolume_iterator(
		    path, whole_fs ? BTRFS_FS_TREE_OBJECTID : 0, 0, &iter) !=
	    BTRFS_UTIL_OK) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return subvol_list_iter(iter, fn, data);
}

/* ---- the root tree, searched whole ------------------------------------ */

/*
 * libbtrfsutil's iterator names each subvolume with BTRFS_IOC_INO_LOOKUP,
 * whose answer is at most BTRFS_INO_LOOKUP_PATH_MAX (4080) bytes: one
 * subvolume deeper than that (any user can make one) ends the whole
 * listing with ENAMETOOLONG.  With CAP_SYS_ADMIN the root tree is searched
 * here instead: its ROOT_REF items (parent subvolume, directory inode,
 * name) link the subvolumes, and a directory's path inside its subvolume
 * is read up its INODE_REF items, one name at a time, so no path is too
 * long.  Nothing but the trees' metadata is read.
 */

/* A subvolume linked in the root tree: @name in directory @dirid of @parent. */
struct root_ref {
	uint64_t parent, id, dirid;
	char *name;
};

struct root_refs {
	struct root_ref *refs;
	size_t n, cap;
};

/*
 * The items a tree search reads: of tree @tree_id, the keys from
 * (@objectid, @type, 0) to (@max_objectid, @type, max) of type @type.
 */
struct tree_range {
	uint64_t tree_id;
	uint64_t objectid;
	uint64_t max_objectid;
	uint32_t type;
};

/* How a tree search ended. */
enum tree_search_end {
	TREE_SEARCH_DONE, /* every item of the range was given to @fn */
	TREE_SEARCH_STOPPED, /* @fn returned non-zero */
	TREE_SEARCH_FAILED, /* the ioctl failed: errno set */
};

/*
 * Call @fn(@header, item, @data) for each item of @range, in key order;
 * stop when @fn returns non-zero.
 */
static enum tree_search_end
tree_search(int fd, const struct tree_range *range,
	    int (*fn)(const struct btrfs_ioctl_search_header *header,
		      const void *item, void *data),
	    void *data)
{
	const uint64_t max_objectid = range->max_objectid;
	const uint32_t type = range->type;
	struct btrfs_ioctl_search_args args;
	struct btrfs_ioctl_search_key *key = &args.key;

	memset(&args, 0, sizeof(args));
	key->tree_id = range->tree_id;
	key->min_objectid = range->objectid;
	key->max_objectid = max_objectid;
	key->min_type = type;
	key->max_type = type;
	key->max_offset = UINT64_MAX;
	key->max_transid = UINT64_MAX;
	for (;;) {
		size_t pos = 0;
		uint32_t i;

		key->nr_items = 4096;
		if (ioctl(fd, BTRFS_IOC_TREE_SEARCH, &args) != 0)
			return TREE_SEARCH_FAILED;
		if (key->nr_items == 0)
			return TREE_SEARCH_DONE;
		for (i = 0; i < key->nr_items; i++) {
			struct btrfs_ioctl_search_header header;

			memcpy(&header, args.buf + pos, sizeof(header));
			pos += sizeof(header);
			if (header.type == type &&
			    fn(&header, args.buf + pos, data) != 0)
				return TREE_SEARCH_STOPPED;
			pos += header.len;
			/* The next search starts after this key. */
			key->min_objectid = header.objectid;
			key->min_type = header.type;
			key->min_offset = header.offset;
		}
		if (key->min_offset < UINT64_MAX) {
			key->min_offset++;
		} else if (key->min_type < type) {
			key->min_type++;
			key->min_offset = 0;
		} else if (key->min_objectid < max_objectid) {
			key->min_objectid++;
			key->min_type = type;
			key->min_offset = 0;
		} else {
			return TREE_SEARCH_DONE;
		}
		if (key->min_type > type) {
			if (key->min_objectid == max_objectid)
				return TREE_SEARCH_DONE;
			key->min_objectid++;
			key->min_type = type;
			key->min_offset = 0;
		}
	}
}

static int root_ref_add(const struct btrfs_ioctl_search_header *header,
			const void *item, void *data)
{
	struct root_refs *refs = data;
	struct btrfs_root_ref ref;
	struct root_ref *slot;

	if (header->len < sizeof(ref))
		return 0;
	memcpy(&ref, item, sizeof(ref));
	if (sizeof(ref) + le16toh(ref.name_len) > header->len)
		return 0;
	if (refs->n == refs->cap) {
		size_t cap = refs->cap ? 2 * refs->cap : 64;
		struct root_ref *grown = reallocarray(refs->refs, cap,
						      sizeof(*grown));

		if (!grown)
			return -1;
		refs->refs = grown;
		refs->cap = cap;
	}
	slot = &refs->refs[refs->n];
	slot->parent = header->objectid;
	slot->id = header->offset;
	slot->dirid = le64toh(ref.dirid);
	slot->name = strndup((const char *)item + sizeof(ref),
			     le16toh(ref.name_len));
	if (!slot->name)
		return -1;
	refs->n++;
	return 0;
}

/* A path being built from its last name up: prepend "name/". */
struct up_path {
	char *text; /* "" or "a/b/" */
	uint64_t parent_ino;
	bool found;
};

static int inode_ref_prepend(const struct btrfs_ioctl_search_header *header,
			     const void *item, void *data)
{
	struct up_path *up = data;
	struct btrfs_inode_ref ref;
	size_t len, old;
	char *grown;

	if (header->len < sizeof(ref))
		return 0;
	memcpy(&ref, item, sizeof(ref));
	len = le16toh(ref.name_len);
	if (sizeof(ref) + len > header->len)
		return 0;
	old = strlen(up->text);
	grown = malloc(len + 1 + old + 1);
	if (!grown)
		return -1;
	memcpy(grown, (const char *)item + sizeof(ref), len);
	grown[len] = '/';
	memcpy(grown + len + 1, up->text, old + 1);
	free(up->text);
	up->text = grown;
	up->parent_ino = header->offset;
	up->found = true;
	return 1; /* a directory has one name */
}

/* The path of directory @dirid inside subvolume @tree: "" or "a/b/". */
static char *dir_path(int fd, uint64_t tree, uint64_t dirid)
{
	struct up_path up = { .text = strdup("") };

	while (up.text && dirid != BTRFS_FIRST_FREE_OBJECTID) {
		struct tree_range refs = { .tree_id = tree, .objectid = dirid,
					   .max_objectid = dirid,
					   .type = BTRFS_INODE_REF_KEY };

		up.found = false;
		if (tree_search(fd, &refs, inode_ref_prepend, &up) ==
			    TREE_SEARCH_FAILED ||
		    !up.found) {
			if (!up.found && errno == 0)
				errno = ENOENT;
			free(up.text);
			return NULL;
		}
		dirid = up.parent_ino;
	}
	return up.text;
}

/*
 * The subvolumes below @top, parents first, each path built from its
 * parent's.  A subvolume whose directory cannot be named (deleted
 * meanwhile) is left out with those below it.
 */
static int subvol_list_tree(int fd, uint64_t top, bino__subvol_list_fn *fn,
			    void *data)
{
	static const struct tree_range root_refs = {
		.tree_id = BTRFS_ROOT_TREE_OBJECTID, .max_objectid = UINT64_MAX,
		.type = BTRFS_ROOT_REF_KEY
	};
	struct root_refs refs = { 0 };
	struct bino__subvol_info info;
	char **paths = NULL;
	size_t *queue = NULL, head = 0, tail = 0, i;
	int ret = -1;

	errno = 0;
	if (tree_search(fd, &root_refs, root_ref_add, &refs) !=
	    TREE_SEARCH_DONE) {
		if (errno == 0)
			errno = ENOMEM;
		goto out_free;
	}
	paths = calloc(refs.n + 1, sizeof(*paths));
	queue = calloc(refs.n + 1, sizeof(*queue));
	if (!paths || !queue)
		goto out_free;
	/* Breadth first from @top: queue holds ref indexes; SIZE_MAX is @top. */
	queue[tail++] = SIZE_MAX;
	ret = 0;
	while (!ret && head < tail) {
		size_t at = queue[head++];
		uint64_t parent = at == SIZE_MAX ? top : refs.refs[at].id;
		const char *parent_path = at == SIZE_MAX ? "" : paths[at];

		for (i = 0; !ret && i < refs.n; i++) {
			struct root_ref *ref = &refs.refs[i];
			char *dir;

			if (ref->parent != parent || paths[i])
				continue;
			dir = dir_path(fd, parent, ref->dirid);
			if (!dir) {
				if (errno == ENOMEM)
					ret = -1;
				continue;
			}
			if (asprintf(&paths[i], "%s%s%s%s", parent_path,
				     *parent_path ? "/" : "", dir, ref->name) < 0) {
				paths[i] = NULL;
				ret = -1;
			}
			free(dir);
			if (ret)
				break;
			memset(&info, 0, sizeof(info));
			info.id = ref->id;
			info.parent_id = parent;
			ret = fn(paths[i], &info, data);
			queue[tail++] = i;
		}
	}

out_free:
	for (i = 0; i < refs.n; i++) {
		free(refs.refs[i].name);
		if (paths)
			free(paths[i]);
	}
	free(refs.refs);
	free(paths);
	free(queue);
	return ret;
}

/*
 * Searched whole with CAP_SYS_ADMIN (above); without it (EPERM),
 * libbtrfsutil's unprivileged iterator (BTRFS_IOC_GET_SUBVOL_ROOTREF and
 * BTRFS_IOC_INO_LOOKUP_USER, Linux 4.18), which skips what the caller
 * cannot reach and stops at a path beyond 4080 bytes.  @fd must be a
 * subvolume's root.
 */
int bino__subvol_list_fd(int fd, bino__subvol_list_fn *fn, void *data)
{
	struct btrfs_util_subvolume_iterator *iter;
	uint64_t top;
	int rc;

	if (bino__subvolid_ioctl(fd, &top) != 0)
		return -1;
	rc = subvol_list_tree(fd, top, fn, data);
	if (!(rc == -1 && errno == EPERM))
		return rc;
	errno = 0;
	if (btrfs_util_create_subvolume_iterator_fd(fd, 0, 0, &iter) !=
	    BTRFS_UTIL_OK) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return subvol_list_iter(iter, fn, data);
}

int bino__fs_uuid_fd(int fd, uint8_t uuid[16])
{
	struct btrfs_ioctl_fs_info_args args;

	memset(&args, 0, sizeof(args));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &args) != 0)
		return -1;
	memcpy(uuid, args.fsid, 16);
	return 0;
}
