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
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "btrfsconst.h"
#include "fhandle.h"
#include "hash.h"
#include "strbuf.h"

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

enum bino_error bino__subvolid_file_handle(int dirfd, const char *name,
					   int at_flags, uint64_t *ret,
					   int *errnum)
{
	union bino__fhandle fh;

	*errnum = EOPNOTSUPP;
	if (bino__fhandle_at(dirfd, name, at_flags, &fh) != 0) {
		*errnum = errno;
		return BINO_ERROR_FILE_HANDLE_FAILED;
	}
	switch (fh.handle.handle_type) {
	case FILEID_BTRFS_WITHOUT_PARENT:
	case FILEID_BTRFS_WITH_PARENT:
	case FILEID_BTRFS_WITH_PARENT_ROOT:
		break;
	default:
		return BINO_ERROR_FILE_HANDLE_FAILED;
	}
	if (fh.handle.handle_bytes < BTRFS_FID_ROOT_OFFSET + sizeof(*ret))
		return BINO_ERROR_FILE_HANDLE_FAILED;
	memcpy(ret, fh.handle.f_handle + BTRFS_FID_ROOT_OFFSET,
	       sizeof(*ret));
	return BINO_OK;
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
enum bino_error bino__subvol_info_fd(int fd, struct bino__subvol_info *ret,
				     int *errnum)
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
		return BINO_OK;
	}
	if (errno != ENOTTY || bino__subvolid_ioctl(fd, &id) != 0) {
		*errnum = errno;
		return BINO_ERROR_SUBVOL_INFO_FAILED;
	}
	errno = 0;
	if (btrfs_util_subvolume_info_fd(fd, id, &info) != BTRFS_UTIL_OK) {
		*errnum = errno ? errno : EIO;
		return BINO_ERROR_SUBVOL_INFO_FAILED;
	}
	subvol_info_copy(ret, &info);
	return BINO_OK;
}

/* Call @fn for each subvolume @iter yields, then destroy it. */
static enum bino_error subvol_list_iter(struct btrfs_util_subvolume_iterator *iter,
					bino__subvol_list_fn *fn, void *data,
					int *errnum)
{
	struct btrfs_util_subvolume_info info;
	struct bino__subvol_info copy;
	enum btrfs_util_error util_err;
	enum bino_error err = BINO_OK;
	char *sub_path;

	*errnum = 0;
	while (!err) {
		errno = 0;
		util_err = btrfs_util_subvolume_iterator_next_info(
			iter, &sub_path, &info);
		if (util_err == BTRFS_UTIL_ERROR_STOP_ITERATION)
			break;
		if (util_err != BTRFS_UTIL_OK) {
			*errnum = errno ? errno : EIO;
			err = BINO_ERROR_SUBVOL_INFO_FAILED;
			break;
		}
		subvol_info_copy(&copy, &info);
		err = fn(sub_path, &copy, data);
		free(sub_path);
	}
	btrfs_util_destroy_subvolume_iterator(iter);
	return err;
}

enum bino_error bino__subvol_list(const char *path, bool whole_fs,
				  bino__subvol_list_fn *fn, void *data,
				  int *errnum)
{
	struct btrfs_util_subvolume_iterator *iter;

	errno = 0;
	if (btrfs_util_create_subvolume_iterator(
		    path, whole_fs ? BTRFS_FS_TREE_OBJECTID : 0, 0, &iter) !=
	    BTRFS_UTIL_OK) {
		*errnum = errno ? errno : EIO;
		return BINO_ERROR_SUBVOL_INFO_FAILED;
	}
	return subvol_list_iter(iter, fn, data, errnum);
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

/* What a tree search's item function says after an item. */
enum tree_item_next {
	TREE_ITEM_MORE, /* give it the next item */
	TREE_ITEM_ENOUGH, /* it has what it wanted: stop */
	TREE_ITEM_NO_MEMORY, /* stop: out of memory */
};

/* How a tree search ended. */
enum tree_search_end {
	TREE_SEARCH_DONE, /* every item of the range was given to @fn */
	TREE_SEARCH_STOPPED, /* @fn said enough */
	TREE_SEARCH_NO_MEMORY, /* @fn ran out of memory */
	TREE_SEARCH_FAILED, /* the ioctl failed: the cause in *errnum */
};

typedef enum tree_item_next tree_item_fn(
	const struct btrfs_ioctl_search_header *header, const void *item,
	void *data);

/*
 * Go on after the last key returned (in @key's min fields), within the
 * range's @type up to @max_objectid; false past it.
 */
static bool tree_search_after(struct btrfs_ioctl_search_key *key,
			      uint64_t max_objectid, uint32_t type)
{
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
		return false;
	}
	if (key->min_type > type) {
		if (key->min_objectid == max_objectid)
			return false;
		key->min_objectid++;
		key->min_type = type;
		key->min_offset = 0;
	}
	return true;
}

/*
 * How much a tree search reads per call.  A search range is a range of
 * whole keys, so the ROOT_REFs of the root tree come with every
 * subvolume's ROOT_ITEM (some 440 bytes) and ROOT_BACKREF between them:
 * 4 KiB (BTRFS_IOC_TREE_SEARCH's buffer) took 16,000 calls at 100,000
 * subvolumes, 64 KiB takes a thousand.
 */
#define TREE_SEARCH_BUF (64 * 1024)

/* A BTRFS_IOC_TREE_SEARCH_V2 argument with its buffer. */
struct tree_search_args {
	struct btrfs_ioctl_search_args_v2 args;
	uint8_t buf[TREE_SEARCH_BUF];
};

/*
 * The items of the buffer @args was filled with: @fn's verdict on the
 * first it stopped at, or TREE_ITEM_MORE with @key's min fields at the
 * last key returned.
 */
static enum tree_item_next tree_search_items(const struct tree_search_args *s,
					     struct btrfs_ioctl_search_key *key,
					     uint32_t type, tree_item_fn *fn,
					     void *data)
{
	const uint8_t *buf = (const uint8_t *)s->args.buf;
	enum tree_item_next next = TREE_ITEM_MORE;
	size_t pos = 0;
	uint32_t i;

	for (i = 0; next == TREE_ITEM_MORE && i < key->nr_items; i++) {
		struct btrfs_ioctl_search_header header;

		memcpy(&header, buf + pos, sizeof(header));
		pos += sizeof(header);
		if (header.type == type)
			next = fn(&header, buf + pos, data);
		pos += header.len;
		/* The next search starts after this key. */
		key->min_objectid = header.objectid;
		key->min_type = header.type;
		key->min_offset = header.offset;
	}
	return next;
}

/*
 * Call @fn(@header, item, @data) for each item of @range, in key order,
 * until it says enough or fails; a failed search gives its cause in @errnum.
 */
static enum tree_search_end tree_search(int fd, const struct tree_range *range,
					tree_item_fn *fn, void *data,
					int *errnum)
{
	struct tree_search_args *s = malloc(sizeof(*s));
	struct btrfs_ioctl_search_key *key;
	enum tree_search_end end = TREE_SEARCH_DONE;
	enum tree_item_next next;

	if (!s)
		return TREE_SEARCH_NO_MEMORY;
	key = &s->args.key;
	memset(&s->args, 0, sizeof(s->args));
	key->tree_id = range->tree_id;
	key->min_objectid = range->objectid;
	key->max_objectid = range->max_objectid;
	key->min_type = range->type;
	key->max_type = range->type;
	key->max_offset = UINT64_MAX;
	key->max_transid = UINT64_MAX;
	for (;;) {
		/* The buffer is full long before: 2,048 headers fill it. */
		key->nr_items = 4096;
		s->args.buf_size = sizeof(s->buf);
		if (ioctl(fd, BTRFS_IOC_TREE_SEARCH_V2, &s->args) != 0) {
			*errnum = errno;
			end = TREE_SEARCH_FAILED;
			break;
		}
		if (key->nr_items == 0)
			break;
		next = tree_search_items(s, key, range->type, fn, data);
		if (next != TREE_ITEM_MORE) {
			end = next == TREE_ITEM_ENOUGH ? TREE_SEARCH_STOPPED :
							 TREE_SEARCH_NO_MEMORY;
			break;
		}
		if (!tree_search_after(key, range->max_objectid, range->type))
			break;
	}
	free(s);
	return end;
}

static enum tree_item_next
root_ref_add(const struct btrfs_ioctl_search_header *header, const void *item,
	     void *data)
{
	struct root_refs *refs = data;
	struct btrfs_root_ref ref;
	struct root_ref *slot;

	if (header->len < sizeof(ref))
		return TREE_ITEM_MORE;
	memcpy(&ref, item, sizeof(ref));
	if (sizeof(ref) + le16toh(ref.name_len) > header->len)
		return TREE_ITEM_MORE;
	if (refs->n == refs->cap) {
		size_t cap = refs->cap ? 2 * refs->cap : 64;
		struct root_ref *grown = reallocarray(refs->refs, cap,
						      sizeof(*grown));

		if (!grown)
			return TREE_ITEM_NO_MEMORY;
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
		return TREE_ITEM_NO_MEMORY;
	refs->n++;
	return TREE_ITEM_MORE;
}

/* A path being built from its last name up: prepend "name/". */
struct up_path {
	char *text; /* "" or "a/b/" */
	uint64_t parent_ino;
	bool found;
};

static enum tree_item_next
inode_ref_prepend(const struct btrfs_ioctl_search_header *header,
		  const void *item, void *data)
{
	struct up_path *up = data;
	struct btrfs_inode_ref ref;
	size_t len, old;
	char *grown;

	if (header->len < sizeof(ref))
		return TREE_ITEM_MORE;
	memcpy(&ref, item, sizeof(ref));
	len = le16toh(ref.name_len);
	if (sizeof(ref) + len > header->len)
		return TREE_ITEM_MORE;
	old = strlen(up->text);
	grown = malloc(len + 1 + old + 1);
	if (!grown)
		return TREE_ITEM_NO_MEMORY;
	memcpy(grown, (const char *)item + sizeof(ref), len);
	grown[len] = '/';
	memcpy(grown + len + 1, up->text, old + 1);
	free(up->text);
	up->text = grown;
	up->parent_ino = header->offset;
	up->found = true;
	return TREE_ITEM_ENOUGH; /* a directory has one name */
}

/*
 * The path of directory @dirid inside subvolume @tree, "" or "a/b/", into
 * *@ret: BINO_OK, BINO_ERROR_NO_MEMORY, or BINO_ERROR_NOT_FOUND when it
 * cannot be named (not linked any more, or its tree cannot be searched).
 */
static enum bino_error dir_path(int fd, uint64_t tree, uint64_t dirid,
				char **ret)
{
	struct up_path up = { .text = strdup("") };
	enum tree_search_end end;
	int errnum;

	while (up.text && dirid != BTRFS_FIRST_FREE_OBJECTID) {
		struct tree_range refs = { .tree_id = tree, .objectid = dirid,
					   .max_objectid = dirid,
					   .type = BTRFS_INODE_REF_KEY };

		up.found = false;
		end = tree_search(fd, &refs, inode_ref_prepend, &up, &errnum);
		if (end == TREE_SEARCH_NO_MEMORY ||
		    (end == TREE_SEARCH_FAILED && errnum == ENOMEM)) {
			free(up.text);
			return BINO_ERROR_NO_MEMORY;
		}
		if (end == TREE_SEARCH_FAILED || !up.found) {
			free(up.text);
			return BINO_ERROR_NOT_FOUND;
		}
		dirid = up.parent_ino;
	}
	if (!up.text)
		return BINO_ERROR_NO_MEMORY;
	*ret = up.text;
	return BINO_OK;
}

/* A listing of the root tree's subvolumes, parents before children. */
/* A directory named once per listing: its path in its subvolume. */
struct dir_name {
	struct dir_key {
		uint64_t tree, dirid;
	} key;
	char *path; /* "" or "a/b/" */
	UT_hash_handle hh;
};

struct root_listing {
	int fd;
	struct root_refs refs;
	char **paths; /* by ref index, NULL until listed */
	size_t *queue; /* ref indexes; SIZE_MAX is the top */
	size_t head, tail;
	/*
	 * The directories named so far: one user's 100,000 subvolumes in one
	 * directory name it once, not with 100,000 searches per level.
	 */
	struct dir_name *dirs;
};

/*
 * dir_path() once per directory of a listing: *@ret is the listing's copy
 * (valid while the listing lives).
 */
static enum bino_error listing_dir_path(struct root_listing *l, uint64_t tree,
					uint64_t dirid, const char **ret)
{
	struct dir_name *name;
	struct dir_key key;
	enum bino_error err;
	bool out_of_memory = false;

	memset(&key, 0, sizeof(key));
	key.tree = tree;
	key.dirid = dirid;
	HASH_FIND(hh, l->dirs, &key, sizeof(key), name);
	if (name) {
		*ret = name->path;
		return BINO_OK;
	}
	name = calloc(1, sizeof(*name));
	if (!name)
		return BINO_ERROR_NO_MEMORY;
	err = dir_path(l->fd, tree, dirid, &name->path);
	if (err) {
		free(name);
		return err;
	}
	name->key = key;
	HASH_ADD(hh, l->dirs, key, sizeof(name->key), name);
	if (out_of_memory) {
		free(name->path);
		free(name);
		return BINO_ERROR_NO_MEMORY;
	}
	*ret = name->path;
	return BINO_OK;
}

static void listing_dirs_free(struct root_listing *l)
{
	struct dir_name *name, *tmp;

	HASH_ITER(hh, l->dirs, name, tmp) {
		HASH_DEL(l->dirs, name);
		free(name->path);
		free(name);
	}
}

/*
 * List the subvolumes linked in subvolume @parent (at @parent_path) not
 * listed yet, each queued for its own children.
 */
static enum bino_error tree_list_children(struct root_listing *l,
					  uint64_t parent,
					  const char *parent_path,
					  bino__subvol_list_fn *fn, void *data)
{
	struct bino__subvol_info info;
	enum bino_error err = BINO_OK, named;
	size_t i, hi = l->refs.n;

	/*
	 * The refs are in key order, (parent, ROOT_REF, ID): those of
	 * @parent are one run, found by a binary search, so a listing costs
	 * its subvolumes, not their square.
	 */
	for (i = 0; i < hi;) {
		size_t mid = i + (hi - i) / 2;

		if (l->refs.refs[mid].parent < parent)
			i = mid + 1;
		else
			hi = mid;
	}
	for (; !err && i < l->refs.n && l->refs.refs[i].parent == parent; i++) {
		struct root_ref *ref = &l->refs.refs[i];
		const char *dir;

		if (l->paths[i])
			continue;
		named = listing_dir_path(l, parent, ref->dirid, &dir);
		if (named == BINO_ERROR_NO_MEMORY)
			return named;
		if (named != BINO_OK)
			continue; /* deleted meanwhile: left out */
		l->paths[i] = bino__str_concat((const char *const[]){
			parent_path, *parent_path ? "/" : "", dir, ref->name }, 4);
		if (!l->paths[i])
			return BINO_ERROR_NO_MEMORY;
		memset(&info, 0, sizeof(info));
		info.id = ref->id;
		info.parent_id = parent;
		err = fn(l->paths[i], &info, data);
		l->queue[l->tail++] = i;
	}
	return err;
}

/*
 * The subvolumes below @top, parents first, each path built from its
 * parent's.  A subvolume whose directory cannot be named (deleted
 * meanwhile) is left out with those below it.
 */
static enum bino_error subvol_list_tree(int fd, uint64_t top,
					bino__subvol_list_fn *fn, void *data,
					int *errnum)
{
	static const struct tree_range root_refs = {
		.tree_id = BTRFS_ROOT_TREE_OBJECTID, .max_objectid = UINT64_MAX,
		.type = BTRFS_ROOT_REF_KEY
	};
	struct root_listing l = { .fd = fd };
	enum bino_error err = BINO_ERROR_NO_MEMORY;
	size_t i;

	*errnum = ENOMEM;
	switch (tree_search(fd, &root_refs, root_ref_add, &l.refs, errnum)) {
	case TREE_SEARCH_DONE:
		break;
	case TREE_SEARCH_FAILED:
		err = BINO_ERROR_SUBVOL_INFO_FAILED;
		/* fall through */
	default:
		goto out_free;
	}
	l.paths = calloc(l.refs.n + 1, sizeof(*l.paths));
	l.queue = calloc(l.refs.n + 1, sizeof(*l.queue));
	if (!l.paths || !l.queue)
		goto out_free;
	/* Breadth first from @top. */
	l.queue[l.tail++] = SIZE_MAX;
	err = BINO_OK;
	while (!err && l.head < l.tail) {
		size_t at = l.queue[l.head++];

		err = tree_list_children(&l,
					 at == SIZE_MAX ? top : l.refs.refs[at].id,
					 at == SIZE_MAX ? "" : l.paths[at], fn,
					 data);
	}
	if (err != BINO_ERROR_NO_MEMORY)
		*errnum = 0;
out_free:
	for (i = 0; i < l.refs.n; i++) {
		free(l.refs.refs[i].name);
		if (l.paths)
			free(l.paths[i]);
	}
	free(l.refs.refs);
	free(l.paths);
	free(l.queue);
	listing_dirs_free(&l);
	return err;
}

/* ---- the paths of some subvolumes, by ID ------------------------------ */

/* A subvolume's one link, read from its ROOT_BACKREF item. */
struct backref {
	uint64_t parent, dirid;
	char *name;
};

static enum tree_item_next
backref_read(const struct btrfs_ioctl_search_header *header, const void *item,
	     void *data)
{
	struct backref *link = data;
	struct btrfs_root_ref ref;

	if (header->len < sizeof(ref))
		return TREE_ITEM_MORE;
	memcpy(&ref, item, sizeof(ref));
	if (sizeof(ref) + le16toh(ref.name_len) > header->len)
		return TREE_ITEM_MORE;
	link->parent = header->offset;
	link->dirid = le64toh(ref.dirid);
	link->name = strndup((const char *)item + sizeof(ref),
			     le16toh(ref.name_len));
	return link->name ? TREE_ITEM_ENOUGH : TREE_ITEM_NO_MEMORY;
}

/*
 * The path of subvolume @id relative to the root of subvolume @top, read
 * up its links (ROOT_BACKREF, then the directory's INODE_REFs), into
 * *@ret: BINO_OK, BINO_ERROR_NO_MEMORY, or BINO_ERROR_NOT_FOUND when it is
 * not below @top (or not linked any more, or deeper than a path can be).
 */
static enum bino_error subvol_path_below(struct root_listing *l, uint64_t top,
					 uint64_t id, char **ret)
{
	char *path = strdup(""), *longer;
	enum bino_error err = BINO_OK;
	enum tree_search_end end;
	const char *dir;
	int errnum, depth;

	for (depth = 0; path && !err && id != top; depth++) {
		struct tree_range range = {
			.tree_id = BTRFS_ROOT_TREE_OBJECTID, .objectid = id,
			.max_objectid = id, .type = BTRFS_ROOT_BACKREF_KEY };
		struct backref link = { .name = NULL };

		end = tree_search(l->fd, &range, backref_read, &link, &errnum);
		if (end == TREE_SEARCH_NO_MEMORY)
			err = BINO_ERROR_NO_MEMORY;
		else if (end != TREE_SEARCH_STOPPED || depth > PATH_MAX / 2)
			err = BINO_ERROR_NOT_FOUND;
		else
			err = listing_dir_path(l, link.parent, link.dirid, &dir);
		if (!err && asprintf(&longer, "%s%s%s%s", dir, link.name,
				     *path ? "/" : "", path) < 0)
			err = BINO_ERROR_NO_MEMORY;
		free(link.name);
		if (err)
			break;
		free(path);
		path = longer;
		id = link.parent;
	}
	if (!path)
		return BINO_ERROR_NO_MEMORY;
	if (err)
		free(path);
	else
		*ret = path;
	return err;
}

enum bino_error bino__subvol_paths_fd(int fd, const uint64_t *ids, size_t n,
				      bino__subvol_list_fn *fn, void *data,
				      int *errnum)
{
	struct root_listing l = { .fd = fd };
	struct bino__subvol_info info;
	enum bino_error err = BINO_OK, found;
	uint64_t top;
	char *path;
	size_t i;

	if (bino__subvolid_ioctl(fd, &top) != 0) {
		*errnum = errno;
		return BINO_ERROR_SUBVOLID_FAILED;
	}
	*errnum = 0;
	for (i = 0; !err && i < n; i++) {
		found = subvol_path_below(&l, top, ids[i], &path);
		if (found == BINO_ERROR_NO_MEMORY)
			err = found;
		if (found != BINO_OK || ids[i] == top)
			continue;
		memset(&info, 0, sizeof(info));
		info.id = ids[i];
		err = fn(path, &info, data);
		free(path);
	}
	listing_dirs_free(&l);
	return err;
}

/*
 * Searched whole with CAP_SYS_ADMIN (above); without it (EPERM),
 * libbtrfsutil's unprivileged iterator (BTRFS_IOC_GET_SUBVOL_ROOTREF and
 * BTRFS_IOC_INO_LOOKUP_USER, Linux 4.18), which skips what the caller
 * cannot reach and stops at a path beyond 4080 bytes.  @fd must be a
 * subvolume's root.
 */
enum bino_error bino__subvol_list_fd(int fd, bino__subvol_list_fn *fn,
				     void *data, int *errnum)
{
	struct btrfs_util_subvolume_iterator *iter;
	enum bino_error err;
	uint64_t top;

	if (bino__subvolid_ioctl(fd, &top) != 0) {
		*errnum = errno;
		return BINO_ERROR_SUBVOLID_FAILED;
	}
	err = subvol_list_tree(fd, top, fn, data, errnum);
	if (!(err == BINO_ERROR_SUBVOL_INFO_FAILED && *errnum == EPERM))
		return err;
	errno = 0;
	if (btrfs_util_create_subvolume_iterator_fd(fd, 0, 0, &iter) !=
	    BTRFS_UTIL_OK) {
		*errnum = errno ? errno : EIO;
		return BINO_ERROR_SUBVOL_INFO_FAILED;
	}
	return subvol_list_iter(iter, fn, data, errnum);
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
