/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which device number a stat result gets under `btrfs-ino exec`.
 *
 * An NFS client shows one st_dev for a whole export, so the btrfs subvolumes
 * behind it collide (every subvolume root is inode 256; snapshots repeat
 * inode numbers), and find sees loops, du and tar merge distinct files.
 * Here each (NFS mount, server subvolume) gets a device number of its own:
 *
 * - Kind of a device: statfs f_type (NFS_SUPER_MAGIC) the first time a
 *   st_dev is met, then a lock-free table; off NFS a stat costs one probe of
 *   that table and nothing else.
 * - Subvolume: the knfsd file handle the client already holds for the inode
 *   (name_to_handle_at encodes it from the in-core inode, no RPC), decoded
 *   by lib/probe/nfshandle.c.  The export's root has a handle without an inode; its
 *   subvolume is that of a child that is not a subvolume root, looked up
 *   once per device and kept in a second table.  A device whose handles say
 *   "not btrfs" or cannot be read (NFSv4.0: EOPNOTSUPP) is remembered and
 *   passes through from then on.  The handle is asked for each stat on
 *   such a mount rather than cached per directory: a cache keyed on what
 *   stat returns, (st_dev, st_ino), is ambiguous across subvolumes (the
 *   collision being undone), and one keyed on a directory fd needs a system
 *   call to check the fd still names that directory, which costs what
 *   name_to_handle_at costs on a dentry the stat has just looked up.
 * - Device number: makedev(0x80000000 | kernel dev of the mount, subvolume
 *   id).  The kernel's dev_t has 12 bits of major, so no device it reports
 *   has a major at or above 4096: these cannot collide with a real one.
 *   Subvolume ids above 2^32 are folded to 32 bits (btrfs hands them out
 *   from 256 upwards; four billion subvolumes is far off).
 *
 * The tables are arrays of atomic words written once per device (no locks:
 * stat must stay async-signal-safe), never freed; a full table only means
 * asking again.  A device number the kernel gives another filesystem after
 * an unmount keeps its first kind for the life of the process.  Everything
 * keeps errno as the real call left it.
 */
#include "subvoldev.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nfshandle.h"

#define NFS_SUPER_MAGIC 0x6969
#define BTRFS_FIRST_FREE_OBJECTID 256 /* a subvolume's root directory */
#define SYNTHETIC_MAJOR_BIT 0x80000000u
#define TABLE_SLOTS 256 /* devices a process meets; more only costs statfs */

enum dev_kind {
	DEV_UNKNOWN = 0, /* not in the table yet */
	DEV_NOT_NFS, /* passes through */
	DEV_NFS, /* NFS; handles read so far were btrfs or not tried */
	DEV_NFS_NO_HANDLES, /* name_to_handle_at cannot help (EOPNOTSUPP) */
	DEV_NFS_NOT_BTRFS, /* the server's handles are not btrfs' */
};

/* dev << 4 | kind; 0 is an empty slot. */
static _Atomic uint64_t dev_kinds[TABLE_SLOTS];
/* dev << 32 | subvolume of the export root; 0 is an empty slot. */
static _Atomic uint64_t export_roots[TABLE_SLOTS];

static unsigned int table_slot(uint64_t key)
{
	return (unsigned int)((key * 0x9e3779b97f4a7c15ull) >> 56) % TABLE_SLOTS;
}

static enum dev_kind kind_lookup(dev_t dev)
{
	unsigned int i, slot = table_slot(dev);

	if (dev >> 60)
		return DEV_UNKNOWN;
	for (i = 0; i < TABLE_SLOTS; i++) {
		uint64_t v = atomic_load_explicit(&dev_kinds[(slot + i) % TABLE_SLOTS],
						  memory_order_acquire);

		if (v == 0)
			return DEV_UNKNOWN;
		if (v >> 4 == dev)
			return (enum dev_kind)(v & 0xf);
	}
	return DEV_UNKNOWN;
}

/* Record @kind; an NFS device may later become one of the NFS_* kinds only. */
static void kind_store(dev_t dev, enum dev_kind kind)
{
	uint64_t want = (uint64_t)dev << 4 | kind;
	unsigned int i, slot = table_slot(dev);

	if (dev >> 60)
		return;
	for (i = 0; i < TABLE_SLOTS; i++) {
		_Atomic uint64_t *p = &dev_kinds[(slot + i) % TABLE_SLOTS];
		uint64_t v = atomic_load_explicit(p, memory_order_acquire);

		while (v == 0 || (v >> 4 == dev && (v & 0xf) == DEV_NFS &&
				  kind != DEV_NFS)) {
			if (atomic_compare_exchange_weak_explicit(
				    p, &v, want, memory_order_acq_rel,
				    memory_order_acquire))
				return;
		}
		if (v >> 4 == dev)
			return;
	}
}

static uint64_t export_root_lookup(dev_t dev)
{
	unsigned int i, slot = table_slot(dev);

	for (i = 0; i < TABLE_SLOTS; i++) {
		uint64_t v = atomic_load_explicit(
			&export_roots[(slot + i) % TABLE_SLOTS], memory_order_acquire);

		if (v == 0)
			return 0;
		if (v >> 32 == dev)
			return v & 0xffffffffu;
	}
	return 0;
}

static void export_root_store(dev_t dev, uint64_t subvolid)
{
	uint64_t want = (uint64_t)dev << 32 | subvolid;
	unsigned int i, slot = table_slot(dev);

	if (dev >> 32 || subvolid >> 32 || subvolid == 0)
		return; /* does not fit: looked up again next time */
	for (i = 0; i < TABLE_SLOTS; i++) {
		_Atomic uint64_t *p = &export_roots[(slot + i) % TABLE_SLOTS];
		uint64_t v = 0;

		if (atomic_compare_exchange_strong_explicit(p, &v, want,
							    memory_order_acq_rel,
							    memory_order_acquire) ||
		    v >> 32 == dev)
			return;
	}
}

static bool target_is_fd(const struct bino_stat_target *t)
{
	return t->path[0] == '\0' && (t->flags & AT_EMPTY_PATH);
}

/*
 * The kind of @dev, which a stat of @t just gave: statfs of the same inode,
 * opened O_PATH so that a symbolic link is looked at itself where the stat
 * did.  Cached only when a second look confirms the device (no rename raced).
 */
static enum dev_kind kind_probe(const struct bino_stat_target *t, dev_t dev)
{
	static int (*_Atomic real_fstat)(int, struct stat *);
	int (*fstat_fn)(int, struct stat *) = atomic_load(&real_fstat);
	struct statfs sfs;
	struct stat st;
	enum dev_kind kind = DEV_UNKNOWN;
	int fd;

	if (!fstat_fn) {
		fstat_fn = (int (*)(int, struct stat *))bino_preload_next("fstat");
		if (!fstat_fn)
			return DEV_UNKNOWN;
		atomic_store(&real_fstat, fstat_fn);
	}
	if (target_is_fd(t) && t->dirfd != AT_FDCWD)
		fd = t->dirfd;
	else
		fd = openat(t->dirfd, target_is_fd(t) ? "." : t->path,
			    O_PATH | O_CLOEXEC |
				    (t->flags & AT_SYMLINK_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd < 0)
		return DEV_UNKNOWN;
	if (fstatfs(fd, &sfs) == 0 && fstat_fn(fd, &st) == 0 && st.st_dev == dev) {
		kind = sfs.f_type == NFS_SUPER_MAGIC ? DEV_NFS : DEV_NOT_NFS;
		kind_store(dev, kind);
	}
	if (fd != t->dirfd)
		close(fd);
	return kind;
}

/*
 * The subvolume of an export's root directory @fd, whose handle names the
 * export rather than an inode: that of its first child that is not a
 * subvolume root.  0 when no child tells (empty, unreadable, all subvolumes).
 */
static uint64_t export_root_scan(int fd, dev_t dev)
{
	char buffer[4096] __attribute__((aligned(8)));
	uint64_t subvolid = 0;
	long n;
	int dirfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dirfd < 0)
		return 0;
	while (subvolid == 0 &&
	       (n = syscall(SYS_getdents64, dirfd, buffer, sizeof(buffer))) > 0) {
		long offset = 0;

		while (offset < n) {
			/* struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name */
			const char *name = buffer + offset + 19;
			unsigned short reclen;
			struct bino_nfs_fh fh;
			int errnum;

			memcpy(&reclen, buffer + offset + 16, sizeof(reclen));
			offset += reclen;
			if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
				continue;
			if (bino__nfs_fh_of(dirfd, name, 0, &fh, &errnum) !=
			    BINO_OK)
				continue;
			if (fh.kind == BINO_NFS_FH_OTHER) {
				kind_store(dev, DEV_NFS_NOT_BTRFS);
				break;
			}
			if (fh.kind == BINO_NFS_FH_BTRFS &&
			    fh.objectid != BTRFS_FIRST_FREE_OBJECTID) {
				subvolid = fh.root_objectid;
				break;
			}
		}
	}
	close(dirfd);
	return subvolid;
}

static uint64_t export_root_subvolid(const struct bino_stat_target *t, dev_t dev)
{
	uint64_t subvolid = export_root_lookup(dev);
	int fd;

	if (subvolid)
		return subvolid;
	if (target_is_fd(t))
		fd = t->dirfd;
	else
		fd = openat(t->dirfd, t->path, O_PATH | O_CLOEXEC | O_DIRECTORY);
	if (fd < 0)
		return 0;
	subvolid = export_root_scan(fd, dev);
	if (fd != t->dirfd)
		close(fd);
	export_root_store(dev, subvolid);
	return subvolid;
}

static dev_t synthetic_dev(dev_t raw, uint64_t subvolid)
{
	uint32_t kernel_dev = major(raw) << 20 | (minor(raw) & 0xfffff);

	return makedev(SYNTHETIC_MAJOR_BIT | (kernel_dev & ~SYNTHETIC_MAJOR_BIT),
		       (uint32_t)(subvolid ^ (subvolid >> 32)));
}

static bool subvol_dev(const struct bino_stat_target *t, dev_t raw, ino_t ino,
		       dev_t *ret)
{
	enum dev_kind kind = kind_lookup(raw);
	struct bino_nfs_fh fh;
	uint64_t subvolid;
	int flags = t->flags & AT_EMPTY_PATH;
	int errnum;

	if (kind == DEV_UNKNOWN)
		kind = kind_probe(t, raw);
	if (kind != DEV_NFS)
		return false;
	if (!(t->flags & AT_SYMLINK_NOFOLLOW))
		flags |= AT_SYMLINK_FOLLOW;
	if (bino__nfs_fh_of(t->dirfd, t->path, flags, &fh, &errnum) != BINO_OK) {
		/* EOPNOTSUPP: no export operations (NFSv4.0) or not knfsd's. */
		if (errnum == EOPNOTSUPP || errnum == EOVERFLOW)
			kind_store(raw, DEV_NFS_NO_HANDLES);
		return false;
	}
	if (fh.fileid != ino)
		return false; /* the path now names another inode */
	switch (fh.kind) {
	case BINO_NFS_FH_BTRFS:
		subvolid = fh.root_objectid;
		break;
	case BINO_NFS_FH_EXPORT_ROOT:
		subvolid = export_root_subvolid(t, raw);
		if (subvolid == 0)
			return false;
		break;
	default:
		kind_store(raw, DEV_NFS_NOT_BTRFS);
		return false;
	}
	*ret = synthetic_dev(raw, subvolid);
	return true;
}

bool bino_preload_subvol_dev(const struct bino_stat_target *target,
			     dev_t raw_dev, ino_t ino, dev_t *ret)
{
	struct bino_stat_target t = *target;
	int saved_errno = errno;
	bool done;

	if (!t.path) {
		/* statx(fd, NULL, AT_EMPTY_PATH), which Linux 6.11 accepts */
		if (!(t.flags & AT_EMPTY_PATH))
			return false;
		t.path = "";
	}
	done = subvol_dev(&t, raw_dev, ino, ret);
	errno = saved_errno;
	return done;
}

void *bino_preload_next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}
