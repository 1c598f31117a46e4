/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Configuration paths: whether root may write a path into a file other
 * programs read later and resolve then, following symbolic links (mount -a
 * and systemd-fstab-generator for fstab(5) and units, nfs-utils'
 * getexportent + realpath for exports(5), automount).  Components:
 *
 *  - confpath_walk(): each directory from the trusted top down to the
 *    path's parent, opened beneath the one before it through no symbolic
 *    link (util/resolve.h, the opens btrfs-ino mount mounts with), O_PATH;
 *    the path itself opened the same way, so that a path that is a link
 *    now is not taken.
 *  - confpath_judge(): one opened directory, by fstat(2) of its fd (root
 *    owns it; no group or other write bit) and its POSIX ACL, read through
 *    /proc/self/fd since an O_PATH fd has no xattrs of its own.
 *
 * Whoever else may write a directory on the way may rename what is in it
 * and put a link in its place: such a path is left to btrfs-ino mount,
 * which resolves it every time it mounts.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "path.h"
#include "resolve.h"

struct bino_confpath {
	enum bino_confpath_reason reason;
	char *directory; /* the directory at fault; NULL when safe */
	int64_t owner; /* its owner, -1 when not opened */
	int error; /* errno of the open (or ACL read) that failed */
};

/* The on-disk ACL xattr (linux/posix_acl_xattr.h), little-endian. */
#define ACL_XATTR "system.posix_acl_access"
#define ACL_XATTR_VERSION 2
#define ACL_USER_OBJ 0x01
#define ACL_USER 0x02
#define ACL_GROUP_OBJ 0x04
#define ACL_GROUP 0x08
#define ACL_MASK 0x10
#define ACL_OTHER 0x20
#define ACL_WRITE 0x02

static unsigned int le16_at(const unsigned char *p)
{
	return p[0] | (unsigned int)p[1] << 8;
}

static uint32_t le32_at(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/*
 * Whether the ACL @acl (@len bytes) lets anyone but the owner @uid write:
 * a named user (other than @uid), the owning group, a named group or
 * others with the write bit, whatever the mask (stricter than access(2):
 * the mask is the group bits, which the owner may widen).  An ACL that
 * cannot be read as one counts as letting others write.
 */
static bool acl_lets_others_write(const unsigned char *acl, size_t len,
				  uid_t uid)
{
	size_t off;

	if (len < 4 || (len - 4) % 8 || le32_at(acl) != ACL_XATTR_VERSION)
		return true;
	for (off = 4; off < len; off += 8) {
		unsigned int tag = le16_at(acl + off), perm = le16_at(acl + off + 2);
		uint32_t id = le32_at(acl + off + 4);

		if (!(perm & ACL_WRITE) || tag == ACL_USER_OBJ || tag == ACL_MASK)
			continue;
		if (tag == ACL_USER && id == uid)
			continue;
		return true;
	}
	return false;
}

/*
 * The ACL of the directory open as @fd: BINO_CONFPATH_SAFE when it has
 * none or lets no one else write, else BINO_CONFPATH_ACL_WRITABLE (with
 * *@err set when it could not be read).
 */
static enum bino_confpath_reason confpath_acl(int fd, uid_t uid, int *err)
{
	char proc[64];
	unsigned char *acl;
	ssize_t len;
	bool others;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	len = getxattr(proc, ACL_XATTR, NULL, 0);
	if (len < 0 && (errno == ENODATA || errno == EOPNOTSUPP))
		return BINO_CONFPATH_SAFE;
	if (len <= 0 || !(acl = malloc((size_t)len))) {
		*err = len < 0 ? errno : EINVAL;
		return BINO_CONFPATH_ACL_WRITABLE;
	}
	len = getxattr(proc, ACL_XATTR, acl, (size_t)len);
	if (len < 0)
		*err = errno; /* changed meanwhile (ERANGE): not judged */
	others = len < 0 || acl_lets_others_write(acl, (size_t)len, uid);
	free(acl);
	return others ? BINO_CONFPATH_ACL_WRITABLE : BINO_CONFPATH_SAFE;
}

/* Judge the directory open as @fd into @cp; its name is @path's first @len bytes. */
static enum bino_error confpath_judge(struct bino_confpath *cp, int fd,
				      const char *path, size_t len)
{
	struct stat st;
	int err = 0;

	if (fstat(fd, &st) != 0) {
		cp->reason = BINO_CONFPATH_UNRESOLVED;
		cp->error = errno;
	} else if (st.st_uid != 0) {
		cp->reason = BINO_CONFPATH_OWNER;
	} else if (st.st_mode & S_IWOTH) {
		cp->reason = BINO_CONFPATH_OTHER_WRITABLE;
	} else if (st.st_mode & S_IWGRP) {
		cp->reason = BINO_CONFPATH_GROUP_WRITABLE;
	} else {
		cp->reason = confpath_acl(fd, st.st_uid, &err);
		cp->error = err;
	}
	if (cp->reason == BINO_CONFPATH_SAFE)
		return BINO_OK;
	if (cp->reason != BINO_CONFPATH_UNRESOLVED)
		cp->owner = st.st_uid;
	cp->directory = strndup(path, len ? len : 1);
	return cp->directory ? BINO_OK : BINO_ERROR_NO_MEMORY;
}

/* An open that failed: the name reached (@path's first @len bytes). */
static enum bino_error confpath_unresolved(struct bino_confpath *cp,
					   const char *path, size_t len)
{
	cp->reason = BINO_CONFPATH_UNRESOLVED;
	cp->error = errno;
	cp->directory = strndup(path, len ? len : 1);
	return cp->directory ? BINO_OK : BINO_ERROR_NO_MEMORY;
}

/*
 * From @top (its fd) down @path, whose rest below it is @rest: each
 * directory judged, the last name only opened.
 */
static enum bino_error confpath_walk(struct bino_confpath *cp, int top_fd,
				     const char *path, const char *rest)
{
	int fd = top_fd, next;
	enum bino_error err = BINO_OK;
	char name[NAME_MAX + 1];

	for (;;) {
		size_t len, dir_len;

		rest += strspn(rest, "/");
		if (!*rest)
			break;
		/* The directory open as fd ("/" or without its last '/') holds a name. */
		dir_len = (size_t)(rest - path);
		if (dir_len > 1)
			dir_len--;
		err = confpath_judge(cp, fd, path, dir_len);
		if (err || cp->reason != BINO_CONFPATH_SAFE)
			break;
		len = strcspn(rest, "/");
		if (len > NAME_MAX) {
			errno = ENAMETOOLONG;
			err = confpath_unresolved(cp, path, (size_t)(rest - path) + len);
			break;
		}
		memcpy(name, rest, len);
		name[len] = '\0';
		next = bino__resolve_beneath(fd, name, O_PATH);
		if (next < 0) {
			err = confpath_unresolved(cp, path, (size_t)(rest - path) + len);
			break;
		}
		if (fd != top_fd)
			close(fd);
		fd = next;
		rest += len;
	}
	if (fd != top_fd)
		close(fd);
	return err;
}

BINO_PUBLIC enum bino_error bino_confpath_create(const char *top,
						 const char *path, int flags,
						 struct bino_confpath **ret)
{
	struct bino_confpath *cp;
	enum bino_error err;
	const char *rest;
	int fd;

	if (!top || !path || !ret || flags || top[0] != '/' || path[0] != '/' ||
	    !(rest = bino__path_rest(path, top)))
		return BINO_ERROR_INVALID_ARGUMENT;
	cp = calloc(1, sizeof(*cp));
	if (!cp)
		return BINO_ERROR_NO_MEMORY;
	cp->owner = -1;
	fd = bino__resolve_no_symlinks(top, O_PATH);
	if (fd < 0) {
		err = confpath_unresolved(cp, top, strlen(top));
	} else {
		err = confpath_walk(cp, fd, path, rest);
		close(fd);
	}
	if (err) {
		bino_confpath_destroy(cp);
		return err;
	}
	*ret = cp;
	return BINO_OK;
}

BINO_PUBLIC void bino_confpath_destroy(struct bino_confpath *confpath)
{
	if (!confpath)
		return;
	free(confpath->directory);
	free(confpath);
}

BINO_PUBLIC enum bino_confpath_reason
bino_confpath_reason(const struct bino_confpath *confpath)
{
	return confpath ? confpath->reason : BINO_CONFPATH_SAFE;
}

BINO_PUBLIC const char *
bino_confpath_directory(const struct bino_confpath *confpath)
{
	return confpath ? confpath->directory : NULL;
}

BINO_PUBLIC int64_t bino_confpath_owner(const struct bino_confpath *confpath)
{
	return confpath ? confpath->owner : 0;
}

BINO_PUBLIC int bino_confpath_errno(const struct bino_confpath *confpath)
{
	return confpath ? confpath->error : 0;
}

static const char *const reason_names[] = {
	[BINO_CONFPATH_SAFE] = "safe",
	[BINO_CONFPATH_OWNER] = "owner",
	[BINO_CONFPATH_GROUP_WRITABLE] = "group_writable",
	[BINO_CONFPATH_OTHER_WRITABLE] = "other_writable",
	[BINO_CONFPATH_ACL_WRITABLE] = "acl_writable",
	[BINO_CONFPATH_UNRESOLVED] = "unresolved",
};

BINO_PUBLIC const char *
bino_confpath_reason_name(enum bino_confpath_reason reason)
{
	return (size_t)reason < sizeof(reason_names) / sizeof(*reason_names) ?
		       reason_names[reason] :
		       "unknown";
}
