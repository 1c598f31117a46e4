/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libbtrfsino - walk a filesystem by true inode identity.
 *
 * Btrfs subvolumes are separate inode namespaces inside one filesystem, and
 * NFS exports hide their anonymous device numbers, so (st_dev, st_ino) is not
 * a unique key for a file there.  This library walks trees keyed on
 * (dev, subvolid, ino) instead, detects directory loops and hard links by that
 * identity, and describes what an NFS export of a tree would expose.
 *
 * Conventions used throughout:
 *  - One error shape: a failure is an enum bino_error naming the step that
 *    failed, with errno holding the cause.  Fallible functions return it
 *    (BINO_OK is success, never a negative errno) and leave errno set; what
 *    records a failure and goes on (a walk entry, an audited export, an
 *    audited subvolume's details) keeps the same pair, read with its
 *    *_error() and *_errno() getters.  A file that cannot be parsed
 *    (exports, mountinfo) also fills a struct bino_syntax_error with the
 *    place; exports tables keep their errors and warnings in that shape too.
 *    A function returning enum bino_error is marked BINO_WARN_UNUSED.
 *  - Objects are opaque and created by *_create(), released by *_destroy()
 *    (which accepts NULL).  Output parameters come last.
 *  - NULL: a function given NULL for its object or for an output parameter
 *    does nothing with it: one returning enum bino_error returns
 *    BINO_ERROR_INVALID_ARGUMENT (also the *_error() getters); a getter
 *    returns NULL, 0, false or an all-zero struct; a void function (destroy,
 *    prune, set_progress) returns.  tests/abi checks every function.
 *  - Plain getters take a const object.  bino_entry_stat() is the exception
 *    that is not a plain getter: it caches what it stat'ed in the entry.
 *  - "Pair" results (bino_audit_example, bino_audit_pair) are opaque and
 *    name their two sides by an int @which, 0 or 1.
 *  - No public struct or array is sized by an enum (the *_NR enumerators
 *    count the values this version knows, for loops, and may grow): counts
 *    per class are read through functions taking the enum.
 *  - Unknown flag bits are rejected with BINO_ERROR_INVALID_ARGUMENT.
 *  - There is no global state: separate objects may be used from separate
 *    threads concurrently; one object must not be used by two threads at once.
 */
#ifndef BTRFSINO_H
#define BTRFSINO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BINO_VERSION_MAJOR, _MINOR, _MICRO and _STRING: the version compiled against. */
#include "btrfsino-version.h"

/*
 * BINO_WARN_UNUSED - Marks a function whose enum bino_error result must not
 * be ignored: the compiler warns where a call drops it (GCC and Clang).
 */
#if defined(__GNUC__) || defined(__clang__)
#define BINO_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define BINO_WARN_UNUSED
#endif

/**
 * bino_version() - The version of the library in use at run time.
 *
 * Return: a static string such as "1.2.0", the BINO_VERSION_STRING the
 * library was built with (a program's own copy of the macro is the version
 * it was compiled against).
 */
const char *bino_version(void);

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/**
 * enum bino_error - What a library call failed to do.
 *
 * Each value names the step that failed (the error shape is stated at the
 * top of this header).  Every value is returned somewhere in the library.
 */
enum bino_error {
	BINO_OK = 0,
	/** An iterator has no more items; not an error. */
	BINO_ERROR_STOP_ITERATION,
	BINO_ERROR_NO_MEMORY,
	BINO_ERROR_INVALID_ARGUMENT,
	BINO_ERROR_OPEN_FAILED,
	BINO_ERROR_STAT_FAILED,
	BINO_ERROR_READDIR_FAILED,
	/** The subvolume id of a btrfs inode could not be determined. */
	BINO_ERROR_SUBVOLID_FAILED,
	/** name_to_handle_at() failed. */
	BINO_ERROR_FILE_HANDLE_FAILED,
	/** A directory reopened by path is no longer the directory walked. */
	BINO_ERROR_CHANGED_DURING_WALK,
	BINO_ERROR_MOUNTINFO_FAILED,
	BINO_ERROR_EXPORTS_READ_FAILED,
	BINO_ERROR_EXPORTS_SYNTAX,
	/** The mount table lists no mount holding a path; errno is 0. */
	BINO_ERROR_NOT_FOUND,
	/** A mount table file is not in mountinfo format. */
	BINO_ERROR_MOUNTINFO_SYNTAX,
	/** mount(2) failed. */
	BINO_ERROR_MOUNT_FAILED,
	/** umount2(2) failed. */
	BINO_ERROR_UMOUNT_FAILED,
	/** The details of a btrfs subvolume could not be read. */
	BINO_ERROR_SUBVOL_INFO_FAILED,
	/**
	 * The subvolume a mount step is for was deleted since the plan:
	 * nothing to mount; errno is ENOENT.
	 */
	BINO_ERROR_SUBVOL_DELETED,
};

/**
 * bino_strerror() - A message describing an error code.
 * @err: any value, including ones this version does not know.
 *
 * Return: a static string; never NULL.
 */
const char *bino_strerror(enum bino_error err);

/* ------------------------------------------------------------------------ */
/* Identity                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_key - The true identity of an inode.
 * @dev: st_dev of the filesystem (for btrfs: the device of the mount the walk
 *       started on, not the anonymous per-subvolume device).  Encoded as by
 *       makedev(3).
 * @subvolid: the btrfs subvolume (tree) id the inode lives in; 0 on
 *       filesystems without subvolumes.
 * @ino: the inode number.
 *
 * A value type: compare with bino_key_equal().  Two distinct inodes never
 * share a key; the hard links of one inode always do.
 */
struct bino_key {
	uint64_t dev;
	uint64_t subvolid;
	uint64_t ino;
};

/** bino_key_equal() - Whether two keys name the same inode. */
bool bino_key_equal(const struct bino_key *a, const struct bino_key *b);

/**
 * enum bino_source - Where an entry's subvolume id came from.
 * @BINO_SOURCE_NONE: not on btrfs; subvolid is 0 by definition.
 * @BINO_SOURCE_STATX: statx(2) STATX_SUBVOL (Linux 6.10 and later).
 * @BINO_SOURCE_IOCTL: the btrfs INO_LOOKUP ioctl through libbtrfsutil, made
 *                     once per subvolume.
 * @BINO_SOURCE_FILE_HANDLE: the root objectid in the btrfs file handle from
 *                     name_to_handle_at(2).
 * @BINO_SOURCE_NFS_HANDLE: decoded from the NFS file handle of an NFS client
 *                     mount (knfsd's handle of a btrfs inode).
 * @BINO_SOURCE_UNKNOWN: nothing could tell; the identity is uncertain and
 *                     bino_entry_flags() has BINO_ENTRY_IDENTITY_UNCERTAIN.
 *
 * Non-directories inherit the value of their directory.
 */
enum bino_source {
	BINO_SOURCE_NONE,
	BINO_SOURCE_STATX,
	BINO_SOURCE_IOCTL,
	BINO_SOURCE_FILE_HANDLE,
	BINO_SOURCE_NFS_HANDLE,
	BINO_SOURCE_UNKNOWN,
};

/**
 * bino_source_name() - A short stable name for a source ("statx", "ioctl",
 * "file_handle", "nfs_handle", "none", "unknown").
 *
 * Return: a static string; "unknown" for values this version does not know.
 */
const char *bino_source_name(enum bino_source source);

/* ------------------------------------------------------------------------ */
/* Identity sets                                                             */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_idset - A set of identities, for hard-link-aware callers.
 *
 * Add only what must be remembered (e.g. entries with nlink > 1) so memory
 * stays proportional to those, not to the tree.
 *
 * Part of the 1.0 API although the library and the CLI do not use it: a
 * caller of bino_walk_next() that counts each inode once (hard links, as
 * examples/bino-find.c -count-links and the example of libbtrfsino(3) do)
 * needs a set keyed on the whole identity, and struct bino_key has no
 * public hash.
 */
struct bino_idset;

/**
 * bino_idset_create() - Create an empty set.
 * @ret: on success, the new set; release it with bino_idset_destroy().
 *
 * Return: BINO_OK or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_idset_create(struct bino_idset **ret);

/**
 * bino_idset_add() - Add a key to a set.
 * @set: the set.
 * @key: the key; copied.
 * @was_present: if not NULL, set to whether the key was already a member.
 *
 * Return: BINO_OK or BINO_ERROR_NO_MEMORY (the set is unchanged then).
 */
BINO_WARN_UNUSED
enum bino_error bino_idset_add(struct bino_idset *set,
			       const struct bino_key *key, bool *was_present);

/** bino_idset_contains() - Whether @key is a member of @set. */
bool bino_idset_contains(const struct bino_idset *set,
			 const struct bino_key *key);

/** bino_idset_count() - The number of members of @set. */
size_t bino_idset_count(const struct bino_idset *set);

/** bino_idset_destroy() - Release a set; NULL is accepted. */
void bino_idset_destroy(struct bino_idset *set);

/* ------------------------------------------------------------------------ */
/* Mount table                                                               */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_mounts - A snapshot of a mount table (mountinfo format).
 * struct bino_mount - One mount in it; owned by the table.
 */
struct bino_mounts;
struct bino_mount;
struct bino_syntax_error; /* defined with the exports parser, below */

/**
 * bino_mounts_create() - Read a mount table.
 * @mountinfo_path: a file in /proc/self/mountinfo format, or NULL for the
 *                  calling process's own table.
 * @ret: on success, the table; release it with bino_mounts_destroy().
 *
 * Return: BINO_OK, BINO_ERROR_NO_MEMORY, BINO_ERROR_MOUNTINFO_FAILED (the
 * file cannot be read) or BINO_ERROR_MOUNTINFO_SYNTAX (it is not in
 * mountinfo format; bino_mounts_create_checked() says where).
 */
BINO_WARN_UNUSED
enum bino_error bino_mounts_create(const char *mountinfo_path,
				   struct bino_mounts **ret);

/**
 * bino_mounts_create_checked() - Read a mount table, saying where a file is
 * malformed.  Since 1.2.
 * @mountinfo_path: as for bino_mounts_create().
 * @err: if not NULL, where the first malformed line is described: file,
 *       line (blank lines and '#' comments counted) and the column of the
 *       first field that is wrong, with what was expected there.
 * @ret: as for bino_mounts_create().
 *
 * Return: as for bino_mounts_create(), plus BINO_ERROR_MOUNTINFO_SYNTAX for a
 * file that is not in mountinfo format.
 */
BINO_WARN_UNUSED
enum bino_error bino_mounts_create_checked(const char *mountinfo_path,
					   struct bino_syntax_error *err,
					   struct bino_mounts **ret);

/**
 * bino_mounts_read() - The 1.0 name of bino_mounts_create_checked(), the
 * same function; new code uses that name.
 * @mountinfo_path: as for bino_mounts_create_checked().
 * @err: as for bino_mounts_create_checked().
 * @ret: as for bino_mounts_create_checked().
 *
 * Return: as for bino_mounts_create_checked().
 */
BINO_WARN_UNUSED
enum bino_error bino_mounts_read(const char *mountinfo_path,
				 struct bino_syntax_error *err,
				 struct bino_mounts **ret);

/** bino_mounts_destroy() - Release a table; NULL is accepted. */
void bino_mounts_destroy(struct bino_mounts *mounts);

/** bino_mounts_count() - The number of mounts in the table. */
size_t bino_mounts_count(const struct bino_mounts *mounts);

/**
 * bino_mounts_get() - The @index'th mount, in table order.
 *
 * Return: a mount valid as long as the table, or NULL if out of range.
 */
const struct bino_mount *bino_mounts_get(const struct bino_mounts *mounts,
					 size_t index);

/**
 * bino_mounts_find_id() - The mount with a given mount ID (statx
 * STATX_MNT_ID, mountinfo field 1).
 *
 * Return: the mount, or NULL if the table has none with that ID.
 */
const struct bino_mount *bino_mounts_find_id(const struct bino_mounts *mounts,
					     uint64_t mnt_id);

/**
 * bino_mounts_find_dev() - The first mount whose device number is @dev.
 *
 * Anonymous devices of btrfs subvolumes are never listed; NULL then.
 */
const struct bino_mount *bino_mounts_find_dev(const struct bino_mounts *mounts,
					      uint64_t dev);

/** bino_mount_id() - The mount ID (mountinfo field 1). */
uint64_t bino_mount_id(const struct bino_mount *mount);
/** bino_mount_parent_id() - The parent mount's ID (mountinfo field 2). */
uint64_t bino_mount_parent_id(const struct bino_mount *mount);
/** bino_mount_dev() - The device number, encoded as by makedev(3). */
uint64_t bino_mount_dev(const struct bino_mount *mount);
/** bino_mount_root() - The path inside the filesystem that is mounted. */
const char *bino_mount_root(const struct bino_mount *mount);
/** bino_mount_target() - The mount point. */
const char *bino_mount_target(const struct bino_mount *mount);
/** bino_mount_fstype() - The filesystem type, e.g. "btrfs". */
const char *bino_mount_fstype(const struct bino_mount *mount);
/** bino_mount_source() - The mount source, e.g. "/dev/sda1". */
const char *bino_mount_source(const struct bino_mount *mount);
/** bino_mount_options() - Per-mount and superblock options, joined. */
const char *bino_mount_options(const struct bino_mount *mount);
/**
 * bino_mount_subvolid() - The btrfs "subvolid=" option of the mount.
 *
 * Return: the id, or 0 if the mount has none (not btrfs).
 */
uint64_t bino_mount_subvolid(const struct bino_mount *mount);

/* ------------------------------------------------------------------------ */
/* Walking                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_walk - An iterator over the entries below one or more paths.
 * struct bino_entry - One entry; owned by the walk.
 */
struct bino_walk;
struct bino_entry;

/**
 * enum bino_walk_flags - Options for bino_walk_create().
 * @BINO_WALK_POST_ORDER: visit each directory a second time after its
 *     contents (bino_entry_visit() is BINO_VISIT_POST), as find -depth needs.
 * @BINO_WALK_XDEV: do not descend into directories on another mount than
 *     their starting path (find -xdev).  The mount roots are still returned.
 * @BINO_WALK_SAME_SUBVOL: do not descend into directories of another
 *     subvolume than their starting path.  Their roots are still returned.
 * @BINO_WALK_FOLLOW_ARGS: follow symbolic links given as starting paths
 *     (find -H).
 * @BINO_WALK_FOLLOW_ALL: follow every symbolic link (find -L).
 * @BINO_WALK_STAT_ALL: statx every entry while walking, instead of deriving
 *     the identity of non-directories from readdir's d_ino where that is
 *     known to be exact.
 * @BINO_WALK_NO_STATX_SUBVOL: do not use statx STATX_SUBVOL, as on kernels
 *     older than 6.10 (for testing the fallbacks).
 * @BINO_WALK_NO_SUBVOL_IOCTL: do not use the btrfs ioctl either, leaving the
 *     file handle as the source (for testing the fallbacks).
 * @BINO_WALK_STAT_AHEAD: the caller will call bino_entry_stat() on most
 *     entries: the helper threads (bino_walk_set_threads()) stat the
 *     entries of the directories they read, of up to 128 entries, so that
 *     bino_entry_stat() answers without a syscall on the caller's thread.
 *     Without helpers it changes nothing.
 */
enum bino_walk_flags {
	BINO_WALK_POST_ORDER = 1 << 0,
	BINO_WALK_XDEV = 1 << 1,
	BINO_WALK_SAME_SUBVOL = 1 << 2,
	BINO_WALK_FOLLOW_ARGS = 1 << 3,
	BINO_WALK_FOLLOW_ALL = 1 << 4,
	BINO_WALK_STAT_ALL = 1 << 5,
	BINO_WALK_NO_STATX_SUBVOL = 1 << 6,
	BINO_WALK_NO_SUBVOL_IOCTL = 1 << 7,
	BINO_WALK_STAT_AHEAD = 1 << 8,
};

/**
 * bino_walk_create() - Start a walk.
 * @paths: the starting paths, walked one after another in this order.
 * @n_paths: how many; at least one.
 * @flags: a bitwise or of enum bino_walk_flags.
 * @ret: on success, the walk; release it with bino_walk_destroy().
 *
 * The starting paths are only copied here; problems with them (ENOENT,
 * EACCES) are delivered as error entries by bino_walk_next().  The process's
 * mount table is read once, here.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (no path, unknown flag),
 * BINO_ERROR_NO_MEMORY or BINO_ERROR_MOUNTINFO_FAILED.
 */
BINO_WARN_UNUSED
enum bino_error bino_walk_create(const char *const *paths, size_t n_paths,
				 int flags, struct bino_walk **ret);

/**
 * bino_walk_set_max_depth() - Do not descend below @depth (find -maxdepth);
 * starting paths are depth 0.  A negative value means no limit (the default).
 *
 * Return: BINO_OK, or BINO_ERROR_INVALID_ARGUMENT once the walk has begun.
 */
BINO_WARN_UNUSED
enum bino_error bino_walk_set_max_depth(struct bino_walk *walk, int depth);

/**
 * bino_walk_set_threads() - Open, stat and read directories on @threads - 1
 * helper threads (1, the default, uses none).  The helpers read the
 * subdirectories of the directories the walk is in, deepest first, and the
 * walk takes their results when it reaches them, so that disk and network
 * waits overlap and the caller's thread is left the caller's work.  Entries
 * and their order are the same with any value; bino_walk_next() is still
 * called from one thread only.
 *
 * Return: BINO_OK, or BINO_ERROR_INVALID_ARGUMENT for a value below 1 or
 * once the walk has begun.
 */
BINO_WARN_UNUSED
enum bino_error bino_walk_set_threads(struct bino_walk *walk, int threads);

/**
 * bino_walk_next() - The next entry.
 * @walk: the walk.
 * @ret: on BINO_OK, the entry; valid until the next call on @walk.
 *
 * Problems with single entries never end the walk: they come back as entries
 * whose bino_entry_event() is BINO_EVENT_ERROR or BINO_EVENT_LOOP.
 *
 * Return: BINO_OK, BINO_ERROR_STOP_ITERATION when done, or
 * BINO_ERROR_NO_MEMORY (the walk cannot go on).
 */
BINO_WARN_UNUSED
enum bino_error bino_walk_next(struct bino_walk *walk,
			       struct bino_entry **ret);

/**
 * bino_walk_prune() - Do not descend into the directory just returned.
 *
 * Meaningful after a BINO_VISIT_PRE entry of a directory; a no-op otherwise.
 */
void bino_walk_prune(struct bino_walk *walk);

/** bino_walk_destroy() - End a walk and release it; NULL is accepted. */
void bino_walk_destroy(struct bino_walk *walk);

/**
 * bino_walk_mounts() - The newest mount table the walk read: at creation,
 * or again when it met a mount made since (see bino_entry_mount()).
 *
 * Return: the table, owned by and valid as long as @walk.
 */
const struct bino_mounts *bino_walk_mounts(const struct bino_walk *walk);

/** enum bino_event - What an entry reports. */
enum bino_event {
	/** An entry of the tree. */
	BINO_EVENT_ENTRY,
	/** A directory whose identity equals an ancestor's; not entered. */
	BINO_EVENT_LOOP,
	/** The entry could not be read; see bino_entry_error(). */
	BINO_EVENT_ERROR,
};

/** enum bino_visit - Before or after a directory's contents. */
enum bino_visit {
	BINO_VISIT_PRE,
	BINO_VISIT_POST,
};

/** enum bino_type - The type of an entry, as in st_mode. */
enum bino_type {
	BINO_TYPE_UNKNOWN,
	BINO_TYPE_FILE,
	BINO_TYPE_DIR,
	BINO_TYPE_SYMLINK,
	BINO_TYPE_BLOCK,
	BINO_TYPE_CHAR,
	BINO_TYPE_FIFO,
	BINO_TYPE_SOCKET,
};

/**
 * bino_type_name() - "file", "dir", "symlink", "block", "char", "fifo",
 * "socket" or "unknown".
 */
const char *bino_type_name(enum bino_type type);

/**
 * enum bino_entry_flags - Facts about an entry.
 * @BINO_ENTRY_START: a starting path.
 * @BINO_ENTRY_SUBVOL_ROOT: the root directory of a btrfs subvolume.
 * @BINO_ENTRY_MOUNT_ROOT: the root of a mount (a mount point, or a starting
 *     path that is one).
 * @BINO_ENTRY_IDENTITY_UNCERTAIN: the subvolume id could not be determined;
 *     bino_entry_errno() says why.
 * @BINO_ENTRY_PRUNED: a directory not entered because of XDEV, SAME_SUBVOL
 *     or the maximum depth.
 * @BINO_ENTRY_SUBVOL_PLACEHOLDER: the empty directory (inode 2) a btrfs
 *     snapshot holds where its source had a nested subvolume.  It has no
 *     subvolume of its own and is keyed in its parent's; NFS servers cannot
 *     serve it (ESTALE).
 */
enum bino_entry_flags {
	BINO_ENTRY_START = 1 << 0,
	BINO_ENTRY_SUBVOL_ROOT = 1 << 1,
	BINO_ENTRY_MOUNT_ROOT = 1 << 2,
	BINO_ENTRY_IDENTITY_UNCERTAIN = 1 << 3,
	BINO_ENTRY_PRUNED = 1 << 4,
	BINO_ENTRY_SUBVOL_PLACEHOLDER = 1 << 5,
};

/**
 * bino_entry_path() - The path: the starting path as given, then "/" and
 * names.  May contain any byte but NUL, and be longer than PATH_MAX.
 */
const char *bino_entry_path(const struct bino_entry *entry);
/** bino_entry_path_length() - strlen(bino_entry_path(entry)). */
size_t bino_entry_path_length(const struct bino_entry *entry);
/** bino_entry_name() - The last component (the whole path at depth 0). */
const char *bino_entry_name(const struct bino_entry *entry);
/** bino_entry_depth() - 0 for starting paths, +1 for each level below. */
int bino_entry_depth(const struct bino_entry *entry);
/** bino_entry_event() - Entry, loop or error. */
enum bino_event bino_entry_event(const struct bino_entry *entry);
/** bino_entry_visit() - BINO_VISIT_POST for a directory's second visit. */
enum bino_visit bino_entry_visit(const struct bino_entry *entry);
/** bino_entry_type() - The type; symbolic links are followed per the flags. */
enum bino_type bino_entry_type(const struct bino_entry *entry);
/** bino_entry_flags() - A bitwise or of enum bino_entry_flags. */
int bino_entry_flags(const struct bino_entry *entry);
/**
 * bino_entry_key() - The true identity.  All zero for error entries that
 * could not be identified.
 */
struct bino_key bino_entry_key(const struct bino_entry *entry);
/**
 * bino_entry_st_dev() - st_dev as stat(2) reports it: on btrfs the anonymous
 * device of the entry's subvolume, which mountinfo does not list.  0 for
 * error entries.
 */
uint64_t bino_entry_st_dev(const struct bino_entry *entry);
/** bino_entry_source() - Where the subvolume id came from. */
enum bino_source bino_entry_source(const struct bino_entry *entry);
/**
 * bino_entry_error() - For BINO_EVENT_ERROR entries, the step that failed
 * (and for uncertain identities, the step that could not tell); BINO_OK
 * otherwise.
 */
BINO_WARN_UNUSED
enum bino_error bino_entry_error(const struct bino_entry *entry);
/** bino_entry_errno() - The errno that goes with bino_entry_error(). */
int bino_entry_errno(const struct bino_entry *entry);
/**
 * bino_entry_loop_ancestor() - For BINO_EVENT_LOOP entries, the path of the
 * ancestor with the same identity; NULL otherwise.  Valid as long as @entry.
 */
const char *bino_entry_loop_ancestor(const struct bino_entry *entry);
/**
 * bino_entry_mount() - The mount the entry is on, from the walk's mount
 * table (via statx STATX_MNT_ID).  A mount made during the walk (an
 * automount it triggers, an NFS submount) makes the walk read the table
 * again, up to 64 times.
 *
 * Return: the mount, valid as long as the walk, or NULL when unknown (the
 * mount is gone from the table, or the entry could not be stat'ed).
 */
const struct bino_mount *bino_entry_mount(const struct bino_entry *entry);

/** struct bino_timestamp - A time in seconds and nanoseconds since the epoch. */
struct bino_timestamp {
	int64_t sec;
	uint32_t nsec;
};

/**
 * struct bino_stat - The stat fields a find-like program needs.
 * @mnt_id: the mount ID (statx STATX_MNT_ID); 0 if the kernel lacks it.
 * @has_btime: whether @btime is known.
 */
struct bino_stat {
	uint32_t mode;
	uint32_t uid;
	uint32_t gid;
	uint64_t nlink;
	uint64_t size;
	uint64_t blocks;
	uint64_t rdev;
	uint64_t mnt_id;
	struct bino_timestamp atime;
	struct bino_timestamp mtime;
	struct bino_timestamp ctime;
	struct bino_timestamp btime;
	bool has_btime;
};

/**
 * bino_entry_stat() - The entry's stat fields, fetched on first use.
 * @entry: an entry of event BINO_EVENT_ENTRY or BINO_EVENT_LOOP.
 * @ret: on BINO_OK, the fields.
 *
 * Entries the walk identified from readdir alone are stat'ed here, once.
 *
 * Return: BINO_OK, or BINO_ERROR_STAT_FAILED (e.g. ENOENT: the entry vanished
 * after it was read).
 */
BINO_WARN_UNUSED
enum bino_error bino_entry_stat(struct bino_entry *entry,
				struct bino_stat *ret);

/* ------------------------------------------------------------------------ */
/* Exports (exports(5))                                                      */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_exports - An NFS export table parsed from exports(5) files.
 * struct bino_export - One exported path with one client specification;
 *     owned by the table.  A line "/p a(rw) b(ro)" gives two.
 *
 * The file is read as nfs-utils 2.6.2's exportfs reads it (getexportent()
 * and parseopts()): "#" starts a comment where a word could start (inside a
 * word it is an ordinary byte); a backslash before a newline continues the
 * line; double quotes may enclose any part of a word (also newlines);
 * "\ooo" (three octal digits, below \400) stands for that byte.  A word
 * "-opts" gives default options for the clients after it on the line; the
 * word right after it is always a client, even if it starts with '-'; a
 * client without "(...)" gets only the defaults; "(opts)" without a host is
 * the client "*"; a line with no client, or ending in "-opts", also exports
 * to "*".  "host (rw)" is therefore two clients, "host" and "*"(rw), as
 * exportfs reads it.
 *
 * Like exportfs, reading a file stops at its first error and keeps what came
 * before (the entries before the bad one, also earlier clients on its line);
 * the error is returned and kept in the table (bino_exports_error()).  What
 * exportfs only warns about (a client without options, an option list
 * without a host, a quote that runs past its line) is kept in the table as
 * a warning (bino_exports_warning()) and the entry is read as exportfs reads
 * it.  Differences from exportfs, all reported as errors or warnings: a NUL
 * byte (also from "\000") and a line over BINO_EXPORTS_LINE_MAX bytes are
 * errors; an entry whose path is not absolute is left out with a warning.
 *
 * The live table exportfs writes for mountd (/var/lib/nfs/etab: a line
 * "path<TAB>client(options)" per client, every option it knows written out)
 * is exports(5) text too and is read the same way.
 */
struct bino_exports;
struct bino_export;

/** BINO_EXPORTS_LINE_MAX - The longest line accepted, in bytes, newline
 * excluded; longer lines are a syntax error, never truncated. */
#define BINO_EXPORTS_LINE_MAX 65536

/**
 * struct bino_syntax_error - A place in a file and what is wrong there: where
 *     reading a file stopped, or (for exports files) a warning.  Filled by
 *     bino_mounts_create_checked() (a mountinfo file, with
 *     BINO_ERROR_MOUNTINFO_SYNTAX), bino_exports_add_file() and
 *     bino_exports_add_buffer() (with BINO_ERROR_EXPORTS_SYNTAX; kept as
 *     bino_exports_error()), and kept for exports warnings
 *     (bino_exports_warning()).  A value type.
 * @file: the file name as given (truncated to fit).
 * @line: 1-based line number.
 * @column: 1-based byte column.
 * @message: what is wrong, in English.
 */
struct bino_syntax_error {
	char file[256];
	unsigned int line;
	unsigned int column;
	char message[256];
};

/**
 * enum bino_export_flags - Export options that decide what clients see.
 * @BINO_EXPORT_CROSSMNT: crossmnt (nocrossmnt clears it).
 * @BINO_EXPORT_NOHIDE: nohide (hide clears it).
 * @BINO_EXPORT_SUBTREE_CHECK: subtree_check (no_subtree_check, the default,
 *     clears it).
 * @BINO_EXPORT_RO: read-only, the default; rw clears it.
 * @BINO_EXPORT_FSID: an fsid= option (number, "root" or UUID) applies.
 *
 * Where options contradict, the later one wins.
 */
enum bino_export_flags {
	BINO_EXPORT_CROSSMNT = 1 << 0,
	BINO_EXPORT_NOHIDE = 1 << 1,
	BINO_EXPORT_SUBTREE_CHECK = 1 << 2,
	BINO_EXPORT_RO = 1 << 3,
	BINO_EXPORT_FSID = 1 << 4,
};

/**
 * bino_exports_create() - Create an empty table.
 * @ret: on success, the table; release it with bino_exports_destroy().
 *
 * Return: BINO_OK or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_exports_create(struct bino_exports **ret);

/**
 * bino_exports_add_file() - Parse an exports(5) file into a table.
 * @exports: the table.
 * @path: the file.
 * @err: if not NULL, where the syntax error is described (zeroed otherwise).
 *
 * The file's entries and warnings are appended to the table.  Where exportfs
 * stops reading the file (an unknown option such as "no_subtree,check", a
 * value exportfs refuses such as "anonuid=x", "fsid=" that is neither a
 * number, "root" nor a UUID, an unknown sec= flavour, a bad option list, a
 * client of 512 bytes or more, a path of 1025 or more, a line starting with
 * \r, \v or \f; and for us also a NUL byte or an over-long line), the
 * entries before it are kept, the error is appended to the table too (see
 * bino_exports_error()), and BINO_ERROR_EXPORTS_SYNTAX is returned.  On
 * other errors nothing from the file is added.
 *
 * Return: BINO_OK, BINO_ERROR_EXPORTS_SYNTAX (part of the file added),
 * BINO_ERROR_INVALID_ARGUMENT (@exports or @path NULL),
 * BINO_ERROR_EXPORTS_READ_FAILED (errno set) or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_exports_add_file(struct bino_exports *exports,
				      const char *path,
				      struct bino_syntax_error *err);

/**
 * bino_exports_add_buffer() - Parse exports(5) text held in memory.
 * @exports: the table.
 * @name: the name to report in errors and bino_export_file().
 * @text: the text; need not be NUL-terminated.  Any byte may appear; a NUL
 *        is reported as a syntax error, other bytes are kept as they are.
 * @length: its length in bytes.
 * @err: as for bino_exports_add_file().
 *
 * Return: as for bino_exports_add_file(), without the read failure
 * (BINO_ERROR_INVALID_ARGUMENT also for @name NULL, or @text NULL with a
 * non-zero @length).
 */
BINO_WARN_UNUSED
enum bino_error bino_exports_add_buffer(struct bino_exports *exports,
					const char *name, const char *text,
					size_t length,
					struct bino_syntax_error *err);

/** bino_exports_destroy() - Release a table; NULL is accepted. */
void bino_exports_destroy(struct bino_exports *exports);

/** bino_exports_count() - The number of (path, client) pairs. */
size_t bino_exports_count(const struct bino_exports *exports);

/**
 * bino_exports_get() - The @index'th (path, client) pair in file order.
 *
 * Return: the export, valid as long as the table, or NULL if out of range.
 */
const struct bino_export *bino_exports_get(const struct bino_exports *exports,
					   size_t index);

/** bino_export_path() - The exported path, unescaped. */
const char *bino_export_path(const struct bino_export *exp);
/** bino_export_client() - The client specification ("*" when omitted). */
const char *bino_export_client(const struct bino_export *exp);
/** bino_export_file() - The file the line came from. */
const char *bino_export_file(const struct bino_export *exp);
/** bino_export_line() - The 1-based line the path starts on. */
unsigned int bino_export_line(const struct bino_export *exp);
/**
 * bino_export_last_line() - The 1-based line the path's entry ends on: the
 * same as bino_export_line() unless the entry is continued with
 * backslash-newline.  Replacing an entry means replacing every line from the
 * first to this one.
 */
unsigned int bino_export_last_line(const struct bino_export *exp);
/**
 * bino_export_options() - The options as they apply to this client: the
 * line's default options ("-opts") followed by the client's own, joined by
 * commas, in the order written.
 */
const char *bino_export_options(const struct bino_export *exp);
/** bino_export_flags() - A bitwise or of enum bino_export_flags. */
int bino_export_flags(const struct bino_export *exp);
/** bino_export_fsid() - The fsid= value, or NULL if none. */
const char *bino_export_fsid(const struct bino_export *exp);

/**
 * bino_export_setting_count() - The number of settings exports(5) options
 * decide: access, sync, wdelay, hide, crossmnt, secure, root_squash,
 * all_squash, subtree_check, locks, acl, pnfs, rdirplus, security_label,
 * mountpoint, fsid, anonuid, anongid, sec, refer and replicas, in that
 * order.  Two entries whose settings and other options
 * (bino_export_other()) are equal export alike, however their options are
 * written.  Since 1.2.
 */
size_t bino_export_setting_count(void);

/**
 * bino_export_setting_name() - The @index'th setting's name ("access"), or
 * NULL from bino_export_setting_count() on.  Since 1.2.
 */
const char *bino_export_setting_name(size_t index);

/**
 * bino_export_setting() - What @exp's options (later ones win) set the
 * @index'th setting to, as exportfs 2.6.2 writes it into the etab: a
 * keyword ("rw", "nocrossmnt"; auth_nlm is "secure_locks", mp is
 * "mountpoint"), a number in decimal (anonuid, anongid, fsid, where
 * fsid=root is "0"; a UUID as written), the sec= flavours joined by ':',
 * or a path; when no option sets it, the default ("ro", "nocrossmnt",
 * "sys", "no fsid"...).  Since 1.2.
 *
 * Return: valid as long as the table, or NULL (NULL @exp, @index out of
 * range).
 */
const char *bino_export_setting(const struct bino_export *exp, size_t index);

/**
 * bino_export_other_count() - The number of @exp's options that set none
 * of the settings (squash_uids=, squash_gids=), each once.  Since 1.2.
 */
size_t bino_export_other_count(const struct bino_export *exp);

/**
 * bino_export_other() - The @index'th of them, as written; valid as long as
 * the table, or NULL if out of range.  Since 1.2.
 */
const char *bino_export_other(const struct bino_export *exp, size_t index);

/**
 * bino_exports_error_count() - The number of files whose reading stopped at a
 * syntax error (at most one error per file added).
 */
size_t bino_exports_error_count(const struct bino_exports *exports);

/**
 * bino_exports_error() - The @index'th syntax error, in the order the files
 * were added: the same as the @err that bino_exports_add_file() or
 * bino_exports_add_buffer() filled.  The entries of that file before it are
 * in the table; nothing after it is.
 *
 * Return: the error, valid as long as the table, or NULL if out of range.
 */
const struct bino_syntax_error *
bino_exports_error(const struct bino_exports *exports, size_t index);

/** bino_exports_warning_count() - The number of warnings, see below. */
size_t bino_exports_warning_count(const struct bino_exports *exports);

/**
 * bino_exports_warning() - The @index'th warning in file order: something
 * exportfs reads on after (a client word without "(options)" on a line
 * without "-options", which is often a blank inside a path or before "(";
 * "(options)" without a host; a quote that runs past its line) or that the
 * table leaves out (a relative path), at the file, line and column of the
 * word concerned, with a message in English.
 *
 * Return: the warning, valid as long as the table, or NULL if out of range.
 */
const struct bino_syntax_error *
bino_exports_warning(const struct bino_exports *exports, size_t index);

/**
 * bino_exports_resolve() - Which export's clients reach @path, and with
 * what options: the export the audit applies (bino_audit_add_path(),
 * bino_audit_target_export() and bino_audit_target_flags()), found without
 * an audit, for a caller that acts on exported trees (btrfs-ino mount).
 * @exports: the export table; its paths and @path are compared after
 *     realpath(3).
 * @server_mounts: the server's mount table, deciding whether a server
 *     mount between an export above @path and @path hides @path from that
 *     export's clients, or gives them the options of its own export.
 * @path: the path; it must exist here.
 * @resolved: on success, @path resolved by realpath(3); release it with
 *     free(3).
 * @entry: on success, the entry of @exports that names *@resolved (the
 *     first in file order), else one of the nearest export above it whose
 *     clients reach it (bino_audit_target_covered()); NULL when it is not
 *     exported.  Valid as long as @exports.
 * @flags: on success, the enum bino_export_flags its clients get there
 *     (those of a mount crossed on the way); 0 when not exported.
 *
 * Nothing is walked or opened but by realpath(3); no privilege is needed.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (NULL, empty @path),
 * BINO_ERROR_STAT_FAILED (@path cannot be resolved; errno says why, ENOENT
 * when it does not exist) or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_exports_resolve(const struct bino_exports *exports,
				     const struct bino_mounts *server_mounts,
				     const char *path, char **resolved,
				     const struct bino_export **entry,
				     int *flags);

/* ------------------------------------------------------------------------ */
/* Audit                                                                     */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_audit - What the NFS clients of some exported trees see, and
 * where (st_dev, st_ino) stops naming one file for them.
 * struct bino_audit_target - One audited path; owned by the audit.
 *
 * The model is the Linux NFS server's (knfsd, exports(5)):
 *  - An export is one client filesystem (one st_dev on the client).
 *  - A server mount below it is a separate client filesystem only when the
 *    client filesystem it is in has crossmnt (inherited by what it crosses
 *    into, unless that is exported with its own options), or when its mount
 *    point is exported with nohide; with BINO_AUDIT_NFSV4, also when its
 *    mount point is exported at all (NFSv4 clients cross into every
 *    exported mount).  Otherwise the client sees the directory the mount
 *    covers: where that is what is mounted (a btrfs subvolume or a bind
 *    mount on its own path) the content is audited as part of the parent's
 *    client filesystem, else it cannot be seen from here and is skipped.
 *  - A btrfs subvolume is never a client filesystem of its own: it is part
 *    of the client filesystem it is reached in, with the same client device,
 *    and its inodes keep their plain numbers (256 for every subvolume root).
 *
 * Within a client filesystem the client key of an entry is (client
 * filesystem, inode number).  The audit walks each path on the server by
 * true identity (struct bino_key) and counts, per enum bino_collision, the
 * entries whose client key is shared by distinct true identities.
 *
 * Unprivileged, everything readable is audited; subvolume details come from
 * BTRFS_IOC_GET_SUBVOL_INFO (Linux 4.18).  Root adds: directories others
 * cannot read, snapshot sources outside the audited trees (which need the
 * whole-filesystem subvolume list), and speed: which btrfs inodes have
 * several links is read from each subvolume's tree
 * (BTRFS_IOC_TREE_SEARCH_V2) instead of stat'ing the files whose client key
 * collides.  Results are the same either way.
 */
struct bino_audit;
struct bino_audit_target;
struct bino_audit_example;
struct bino_audit_submount;
struct bino_audit_subvol;
struct bino_audit_device;

/**
 * enum bino_audit_flags - Options for bino_audit_create().
 * @BINO_AUDIT_NFSV4: model NFSv4 clients, which also cross into mounts that
 *     are exported without nohide (see struct bino_audit).
 */
enum bino_audit_flags {
	BINO_AUDIT_NFSV4 = 1 << 0,
};

/**
 * enum bino_collision - Classes of entries whose client key is not unique.
 * @BINO_COLLISION_LOOP: directories whose client key equals that of one of
 *     their ancestors (whatever their identities): GNU find, ls -R, du and
 *     fts(3) users report a loop and do not descend.  Every such directory
 *     of the tree is counted, also inside another one.
 * @BINO_COLLISION_HARDLINK: non-directories with more than one link that
 *     share their client key with another such entry of a different
 *     identity: tar, rsync -H, cp -a and du merge them.
 * @BINO_COLLISION_PLAIN: every entry that shares its client key with an
 *     entry of a different identity: same-file checks (cp, mv, diff, cmp,
 *     find -samefile) mistake them for one file.
 * @BINO_COLLISION_NR: the number of classes.
 */
enum bino_collision {
	BINO_COLLISION_LOOP,
	BINO_COLLISION_HARDLINK,
	BINO_COLLISION_PLAIN,
	BINO_COLLISION_NR,
};

/**
 * bino_collision_name() - "loop", "hardlink" or "plain".
 *
 * Return: a static string; "unknown" for values this version does not know.
 */
const char *bino_collision_name(enum bino_collision collision);

/**
 * bino_collision_tools() - The tools that collisions of a class break.
 *
 * Return: a static NULL-terminated array of static strings (e.g. "find",
 * "rsync -H"); an empty array for values this version does not know.
 */
const char *const *bino_collision_tools(enum bino_collision collision);

/** BINO_AUDIT_EXAMPLES_MAX - Examples kept per export and class. */
#define BINO_AUDIT_EXAMPLES_MAX 10

/**
 * bino_audit_create() - Prepare an audit.
 * @exports: the server's export table, borrowed: it must outlive the audit.
 *     NULL audits every path as exported with default options.
 * @server_mounts: the server's mount table, borrowed likewise, deciding which
 *     mounts the clients cross into and which subvolumes are mounted; NULL
 *     uses the process's own table, read by bino_audit_run().  A table read
 *     from a file reproduces a server offline.
 * @flags: a bitwise or of enum bino_audit_flags.
 * @ret: on success, the audit; release it with bino_audit_destroy().
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (unknown flag) or
 * BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_audit_create(const struct bino_exports *exports,
				  const struct bino_mounts *server_mounts,
				  int flags, struct bino_audit **ret);

/** bino_audit_destroy() - Release an audit and its results; NULL is accepted. */
void bino_audit_destroy(struct bino_audit *audit);

/**
 * bino_audit_add_path() - Audit a path.
 * @audit: the audit, not yet run.
 * @path: the path; copied.  If the export table exports it (after both are
 *     resolved with realpath(3)) it is audited with the options of every
 *     client specification that differs in crossmnt.  Else, if an export of
 *     a directory above it covers it (the nearest one, as mountd chooses),
 *     it is audited as that export's clients see it there: with the
 *     options of each of its client specifications (or of a server mount
 *     they cross into on the way, see bino_audit_target_covered()).  Else
 *     (or when a server mount on the way is hidden from those clients) it
 *     is audited once with default options and bino_audit_target_export()
 *     NULL.
 *
 * A path that cannot be resolved (it does not exist on this machine) is
 * still added, with the options of the exports that name it as written, so
 * that an export of an offline server that is absent here is reported as
 * exported; its audit then fails with bino_audit_target_error()
 * (BINO_ERROR_STAT_FAILED).  A path already added is not added again.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (empty path, audit already
 * run), BINO_ERROR_MOUNTINFO_FAILED (a path below an export, no server
 * mount table given, and the process's cannot be read) or
 * BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_audit_add_path(struct bino_audit *audit, const char *path);

/**
 * bino_audit_add_exports() - Audit every path of the export table, in file
 * order, as bino_audit_add_path() does.
 *
 * Return: as for bino_audit_add_path().
 */
BINO_WARN_UNUSED
enum bino_error bino_audit_add_exports(struct bino_audit *audit);

/**
 * bino_audit_add_btrfs_mounts() - Audit every mounted btrfs filesystem of
 * the server mount table: the first mount of each device, as
 * bino_audit_add_path() does.
 *
 * Return: as for bino_audit_add_path(), and BINO_ERROR_MOUNTINFO_FAILED when
 * the process's mount table is needed and cannot be read.
 */
BINO_WARN_UNUSED
enum bino_error bino_audit_add_btrfs_mounts(struct bino_audit *audit);

/**
 * typedef bino_audit_progress_fn - Called while walking, every few thousand
 * entries and once at the end of each path.
 * @target: the path being audited; valid during the call.
 * @entries: entries walked so far in it.
 * @data: as given to bino_audit_set_progress().
 */
typedef void bino_audit_progress_fn(const struct bino_audit_target *target,
				    uint64_t entries, void *data);

/** bino_audit_set_progress() - Set or (with NULL) clear the progress call. */
void bino_audit_set_progress(struct bino_audit *audit,
			     bino_audit_progress_fn *fn, void *data);

/**
 * bino_audit_run() - Walk every path added and compute the results.
 *
 * Problems with one path (it does not exist, is unreadable) are recorded in
 * its bino_audit_target_error() and the others are still audited.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (no path added, or run
 * twice), BINO_ERROR_MOUNTINFO_FAILED or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_audit_run(struct bino_audit *audit);

/** bino_audit_count() - The number of audited paths. */
size_t bino_audit_count(const struct bino_audit *audit);

/**
 * bino_audit_get() - The @index'th audited path, in the order added.
 *
 * Return: valid as long as @audit, or NULL if out of range.
 */
const struct bino_audit_target *bino_audit_get(const struct bino_audit *audit,
					       size_t index);

/**
 * bino_audit_target_path() - The path audited: resolved by realpath(3), or
 * as given when that failed.  Valid as long as the audit.
 */
const char *bino_audit_target_path(const struct bino_audit_target *target);
/**
 * bino_audit_target_export() - The export table entry whose options were
 * applied, or NULL when the path is not exported (default options).  It
 * exports the path itself, or a directory above it (see
 * bino_audit_target_covered()).
 */
const struct bino_export *
bino_audit_target_export(const struct bino_audit_target *target);
/**
 * bino_audit_target_covered() - Whether bino_audit_target_export() exports a
 * directory above the path rather than the path itself: the path is then
 * audited as that export's clients see it there (the same client
 * filesystem, or the one of a server mount they cross into on the way), and
 * it is that export's entry a change of options belongs on.
 */
bool bino_audit_target_covered(const struct bino_audit_target *target);
/** bino_audit_target_flags() - The enum bino_export_flags applied. */
int bino_audit_target_flags(const struct bino_audit_target *target);
/**
 * bino_audit_target_mount() - The server mount holding the path: of
 * the server mount table (see bino_audit_create()), the one whose mount
 * point is the longest prefix of the path (of two on one point, the later).
 * bino_suggestion_mount() is the same mount.
 *
 * Return: the mount, valid as long as that table; NULL before the run or
 * when the path could not be audited.
 */
const struct bino_mount *
bino_audit_target_mount(const struct bino_audit_target *target);
/**
 * bino_audit_target_error() - Why the path could not be audited at all, or
 * BINO_OK: e.g. BINO_ERROR_STAT_FAILED with ENOENT (it does not exist here;
 * an exported path keeps its bino_audit_target_export()), or
 * BINO_ERROR_NOT_FOUND with errno 0 (the server mount table lists no mount
 * holding it).
 */
BINO_WARN_UNUSED
enum bino_error bino_audit_target_error(const struct bino_audit_target *target);
/** bino_audit_target_errno() - The errno that goes with the error. */
int bino_audit_target_errno(const struct bino_audit_target *target);
/** bino_audit_target_entries() - Entries walked, the root included. */
uint64_t bino_audit_target_entries(const struct bino_audit_target *target);
/**
 * bino_audit_target_unreadable() - Entries that could not be read (error
 * entries of the walk); what is below them is not audited.
 */
uint64_t bino_audit_target_unreadable(const struct bino_audit_target *target);
/** bino_audit_target_collisions() - The count of a class; 0 if unknown. */
uint64_t bino_audit_target_collisions(const struct bino_audit_target *target,
				      enum bino_collision collision);
/**
 * bino_audit_target_client_fs_count() - Client filesystems in the export:
 * 1 for the export itself plus one per crossed mount.  Client filesystem
 * indices below count from 0, the export's own.
 */
size_t
bino_audit_target_client_fs_count(const struct bino_audit_target *target);

/**
 * bino_audit_target_example_count() - Examples kept for a class, at most
 * BINO_AUDIT_EXAMPLES_MAX, in walk order.
 */
size_t bino_audit_target_example_count(const struct bino_audit_target *target,
				       enum bino_collision collision);
/**
 * bino_audit_target_example() - The @index'th example of a class.
 *
 * Return: valid as long as the audit, or NULL if out of range.
 */
const struct bino_audit_example *
bino_audit_target_example(const struct bino_audit_target *target,
			  enum bino_collision collision, size_t index);
/**
 * bino_audit_example_path() - One path of the pair: @which 0 is the entry
 * seen first (for loops, the ancestor), 1 the colliding one.  NULL for other
 * values of @which.  Valid as long as the audit.
 */
const char *bino_audit_example_path(const struct bino_audit_example *example,
				    int which);
/** bino_audit_example_key() - The true identity of path @which (0 or 1). */
struct bino_key bino_audit_example_key(const struct bino_audit_example *example,
				       int which);
/** bino_audit_example_client_fs() - The client filesystem of both paths. */
size_t bino_audit_example_client_fs(const struct bino_audit_example *example);

/**
 * struct bino_audit_pair - Subvolumes whose entries collide; owned by the
 * audit.  Each colliding entry is paired with the first entry of its client
 * key (for loops, the nearest ancestor with its client key), whichever of
 * the two subvolumes either is in; a pair does not say which side was met
 * first.  Opaque, like bino_audit_example, so that a new collision class
 * changes no struct size.
 */
struct bino_audit_pair;

/**
 * bino_audit_pair_subvolid() - One subvolume ID of the pair: @which 0 is the
 * lower, 1 the higher (equal to the lower when both entries have the same
 * subvolume ID, as two entries off btrfs do); 0 off btrfs and for other
 * values of @which.
 */
uint64_t bino_audit_pair_subvolid(const struct bino_audit_pair *pair,
				  int which);
/**
 * bino_audit_pair_collisions() - The entries of a class counted for this
 * pair; 0 for a class this version does not know.
 */
uint64_t bino_audit_pair_collisions(const struct bino_audit_pair *pair,
				    enum bino_collision collision);

/** bino_audit_target_pair_count() - The number of subvolume pairs. */
size_t bino_audit_target_pair_count(const struct bino_audit_target *target);
/**
 * bino_audit_target_pair() - The @index'th pair, by ascending subvolume IDs.
 *
 * Return: valid as long as the audit, or NULL if out of range.
 */
const struct bino_audit_pair *
bino_audit_target_pair(const struct bino_audit_target *target, size_t index);

/**
 * enum bino_submount_view - What a client sees at a server mount point.
 * @BINO_SUBMOUNT_CROSSMNT: a separate client filesystem, by crossmnt.
 * @BINO_SUBMOUNT_NOHIDE: a separate client filesystem, its mount point being
 *     exported with nohide.
 * @BINO_SUBMOUNT_NFSV4: a separate client filesystem for NFSv4 clients, its
 *     mount point being exported (BINO_AUDIT_NFSV4).
 * @BINO_SUBMOUNT_SAME_CONTENT: not crossed, but the mount shows the very
 *     directory it covers, audited as part of the parent's client filesystem.
 * @BINO_SUBMOUNT_HIDDEN: not crossed: clients see the directory underneath,
 *     which the server's walk cannot; not audited.
 * @BINO_SUBMOUNT_UNLISTED: a mount of this machine that the server mount
 *     table given to bino_audit_create() does not list, when that table was
 *     read from a file (bino_mounts_create() with a path: another server,
 *     offline): on that server the directory is no mount point, and what it
 *     holds there is the directory underneath, which cannot be read here.
 *     Not crossed: counted as for BINO_SUBMOUNT_HIDDEN.  With the process's
 *     own table, a mount made since it was read is walked as before.
 */
enum bino_submount_view {
	BINO_SUBMOUNT_CROSSMNT,
	BINO_SUBMOUNT_NOHIDE,
	BINO_SUBMOUNT_NFSV4,
	BINO_SUBMOUNT_SAME_CONTENT,
	BINO_SUBMOUNT_HIDDEN,
	BINO_SUBMOUNT_UNLISTED,
};

/**
 * bino_submount_view_name() - "crossmnt", "nohide", "nfsv4", "same_content",
 * "hidden" or "unlisted"; "unknown" for values this version does not know.
 */
const char *bino_submount_view_name(enum bino_submount_view view);

/** bino_audit_target_submount_count() - Server mounts met below the path. */
size_t bino_audit_target_submount_count(const struct bino_audit_target *target);
/**
 * bino_audit_target_submount() - The @index'th, in walk order.
 *
 * Return: valid as long as the audit, or NULL if out of range.
 */
const struct bino_audit_submount *
bino_audit_target_submount(const struct bino_audit_target *target,
			   size_t index);
/**
 * bino_audit_submount_mount() - The mount, from the server mount table
 * (valid as long as that table); for BINO_SUBMOUNT_UNLISTED, from the
 * process's own table (valid as long as the audit).
 */
const struct bino_mount *
bino_audit_submount_mount(const struct bino_audit_submount *submount);
/** bino_audit_submount_view() - What clients see there. */
enum bino_submount_view
bino_audit_submount_view(const struct bino_audit_submount *submount);
/**
 * bino_audit_submount_client_fs() - The client filesystem of the mount's
 * content: its own index when crossed, the parent's otherwise.
 */
size_t bino_audit_submount_client_fs(const struct bino_audit_submount *submount);

/** bino_audit_target_subvol_count() - Btrfs subvolumes in the audited tree. */
size_t bino_audit_target_subvol_count(const struct bino_audit_target *target);
/**
 * bino_audit_target_subvol() - The @index'th subvolume in walk order; the
 * first is the one holding the audited path.
 *
 * Return: valid as long as the audit, or NULL if out of range.
 */
const struct bino_audit_subvol *
bino_audit_target_subvol(const struct bino_audit_target *target, size_t index);
/** bino_audit_subvol_id() - The subvolume (tree) ID. */
uint64_t bino_audit_subvol_id(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_path() - Where the walk met its root directory, or NULL
 * for a subvolume that holds the audited path below its root.
 */
const char *bino_audit_subvol_path(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_fs_path() - Its path inside the filesystem (from the
 * mount's root in mountinfo, e.g. "/fex/spool"), or NULL if unknown.
 */
const char *bino_audit_subvol_fs_path(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_info_error() - BINO_OK when the details below are known,
 * else the step that failed to read them (they then read as 0, false, NULL,
 * but for bino_audit_subvol_parent_id()): BINO_ERROR_OPEN_FAILED (its root
 * directory), BINO_ERROR_SUBVOL_INFO_FAILED (the btrfs query), or
 * BINO_ERROR_CHANGED_DURING_WALK (another subvolume is there now).
 */
BINO_WARN_UNUSED
enum bino_error
bino_audit_subvol_info_error(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_info_errno() - The errno that goes with
 * bino_audit_subvol_info_error(): 0 when the details are known (ESTALE for
 * BINO_ERROR_CHANGED_DURING_WALK).
 */
int bino_audit_subvol_info_errno(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_parent_id() - The subvolume holding it; 0 for 5.  Known
 * also when the other details are not (bino_audit_subvol_info_errno()), for
 * a subvolume met below its parent's directory (not through a mount): the
 * subvolume of that directory.  0 if unknown.
 */
uint64_t bino_audit_subvol_parent_id(const struct bino_audit_subvol *subvol);
/** bino_audit_subvol_read_only() - Whether it is read-only. */
bool bino_audit_subvol_read_only(const struct bino_audit_subvol *subvol);
/** bino_audit_subvol_uuid() - Its 16-byte UUID, or NULL if unknown. */
const uint8_t *bino_audit_subvol_uuid(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_parent_uuid() - The 16-byte UUID of the subvolume it is
 * a snapshot of, or NULL if it is no snapshot (or unknown).
 */
const uint8_t *
bino_audit_subvol_parent_uuid(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_snapshot_of() - The ID of the subvolume it is a snapshot
 * of, when that still exists and could be listed (see struct bino_audit);
 * 0 otherwise.
 */
uint64_t bino_audit_subvol_snapshot_of(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_client_fs() - The client filesystem it is part of
 * (where the walk met it).
 */
size_t bino_audit_subvol_client_fs(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_target_client_view() - Whether the path is on an NFS client
 * mount of this machine (fstype nfs or nfs4 in its own mount table; not with
 * a server table read from a file) and was audited as this client sees it.
 *
 * Then the export model does not apply: a client filesystem is one st_dev
 * of this client (its mount, or a submount it made where it crossed into a
 * server mount), so the collisions are those of the client's own
 * (st_dev, st_ino) against the true identity (the client's st_dev, the
 * server's subvolume id from the NFS file handle, ino); the export options
 * (bino_audit_target_flags()) are the defaults and mean nothing.  Where the
 * client gets no file handles (NFSv4.0: name_to_handle_at() fails with
 * EOPNOTSUPP) nothing can tell subvolumes apart: the path is not audited,
 * bino_audit_target_error() is BINO_ERROR_FILE_HANDLE_FAILED with that
 * errno.  A snapshot's empty placeholder (knfsd cannot serve it: ESTALE,
 * or listed, as the client's cache has it) is left out: neither an entry
 * nor unreadable.
 */
bool bino_audit_target_client_view(const struct bino_audit_target *target);
/**
 * bino_audit_subvol_client_dev() - With bino_audit_target_client_view():
 * st_dev as this client reports it at the subvolume's root (at the audited
 * path for the subvolume holding it); 0 otherwise.
 */
uint64_t bino_audit_subvol_client_dev(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_own_filesystem() - With bino_audit_target_client_view():
 * whether this client shows the subvolume as a filesystem of its own (its
 * st_dev differs from the directory it was met in; always for the one
 * holding the audited path), rather than as a plain directory of its parent
 * (whose inode numbers it then shares).  false otherwise.
 */
bool bino_audit_subvol_own_filesystem(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_mount_count() - Server mounts of it: btrfs mounts of the
 * same filesystem with subvolid= equal to its ID, or mounts (binds) whose
 * root is its path in the filesystem.
 */
size_t bino_audit_subvol_mount_count(const struct bino_audit_subvol *subvol);
/**
 * bino_audit_subvol_mount() - The @index'th such mount, from the server
 * mount table (valid as long as that table), or NULL if out of range.
 */
const struct bino_mount *
bino_audit_subvol_mount(const struct bino_audit_subvol *subvol, size_t index);

/**
 * enum bino_device_kind - A raw st_dev met in the walk.
 * @BINO_DEVICE_LISTED: /proc/self/mountinfo lists it.
 * @BINO_DEVICE_BTRFS_SUBVOL: not listed, expected: the anonymous device of a
 *     btrfs subvolume.
 * @BINO_DEVICE_OVERLAY: not listed, expected: overlayfs reports the devices
 *     of its layers.
 * @BINO_DEVICE_ANOMALY: not listed, and nothing explains it.
 */
enum bino_device_kind {
	BINO_DEVICE_LISTED,
	BINO_DEVICE_BTRFS_SUBVOL,
	BINO_DEVICE_OVERLAY,
	BINO_DEVICE_ANOMALY,
};

/**
 * bino_device_kind_name() - "listed", "btrfs_subvolume", "overlayfs" or
 * "anomaly"; "unknown" for values this version does not know.
 */
const char *bino_device_kind_name(enum bino_device_kind kind);

/** bino_audit_target_device_count() - Distinct raw st_dev values met. */
size_t bino_audit_target_device_count(const struct bino_audit_target *target);
/**
 * bino_audit_target_device() - The @index'th, in the order first met.
 *
 * Return: valid as long as the audit, or NULL if out of range.
 */
const struct bino_audit_device *
bino_audit_target_device(const struct bino_audit_target *target, size_t index);
/** bino_audit_device_dev() - The st_dev, encoded as by makedev(3). */
uint64_t bino_audit_device_dev(const struct bino_audit_device *device);
/** bino_audit_device_kind() - Listed, expected or an anomaly. */
enum bino_device_kind
bino_audit_device_kind(const struct bino_audit_device *device);
/** bino_audit_device_entries() - Entries met with it. */
uint64_t bino_audit_device_entries(const struct bino_audit_device *device);
/** bino_audit_device_path() - The first entry met with it. */
const char *bino_audit_device_path(const struct bino_audit_device *device);
/** bino_audit_device_subvolid() - The btrfs subvolume it belongs to, or 0. */
uint64_t bino_audit_device_subvolid(const struct bino_audit_device *device);
/**
 * bino_audit_device_mount() - The mount it was reached through, from the
 * process's own mount table (valid as long as the audit), or NULL if unknown.
 */
const struct bino_mount *
bino_audit_device_mount(const struct bino_audit_device *device);

/* ------------------------------------------------------------------------ */
/* Suggestions                                                               */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_suggestion - What would make one audited export safe.
 *
 * knfsd gives a btrfs subvolume a client filesystem of its own only where
 * the server mounts it (see struct bino_audit): no exports(5) option alone
 * helps while the subvolumes are plain directories.  A suggestion therefore
 * lists every subvolume below the export (each to be mounted on its own
 * path, by filesystem UUID and subvolume ID, with the options of the mount
 * holding the export minus subvol= and subvolid=), and the placeholder
 * directories snapshots hold, which no configuration can serve.  How to
 * phrase that (fstab(5), exports(5), autofs(5), systemd.mount(5)) is the
 * caller's business; the suggestion itself changes nothing on the system.
 */
struct bino_suggestion;

/**
 * bino_suggestion_create() - Work out what one audited path needs.
 * @target: an audited path of a run audit (bino_audit_get()); borrowed, and
 *     the suggestion is valid only as long as its audit.
 * @server_mounts: the server's mount table, as given to bino_audit_create()
 *     (it names the mount holding the path, whose options are kept); NULL
 *     reads the process's own table.  Borrowed: it must outlive the
 *     suggestion.
 * @flags: 0; other values are rejected.
 * @ret: on success, the suggestion; release it with
 *     bino_suggestion_destroy().
 *
 * Reads the filesystem UUID (BTRFS_IOC_FS_INFO), lstat(2)s where
 * snapshots may hold placeholders, and opens (O_PATH) each directory from
 * the export down to each subvolume to judge its path
 * (bino_suggestion_subvol_confpath()); no privilege is needed.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (NULL, unknown flag, or an
 * audited path whose bino_audit_target_error() is set),
 * BINO_ERROR_MOUNTINFO_FAILED, BINO_ERROR_NOT_FOUND (no mount of
 * @server_mounts holds the path: the same answer as
 * bino_audit_target_mount() NULL) or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_suggestion_create(const struct bino_audit_target *target,
				       const struct bino_mounts *server_mounts,
				       int flags, struct bino_suggestion **ret);

/** bino_suggestion_destroy() - Release a suggestion; NULL is accepted. */
void bino_suggestion_destroy(struct bino_suggestion *suggestion);

/**
 * bino_suggestion_needed() - Whether the audit found the path unsafe (any
 * collision counted); false means there is nothing to change.
 */
bool bino_suggestion_needed(const struct bino_suggestion *suggestion);

/**
 * bino_suggestion_mount() - The server mount holding the path (the one
 * whose mount point is its longest prefix), from @server_mounts.
 */
const struct bino_mount *
bino_suggestion_mount(const struct bino_suggestion *suggestion);

/**
 * bino_suggestion_fs_uuid() - The 16-byte UUID of the btrfs filesystem, as
 * "UUID=" in fstab(5) names it; NULL when the path is not on btrfs or the
 * UUID could not be read.  Valid as long as @suggestion.
 */
const uint8_t *bino_suggestion_fs_uuid(const struct bino_suggestion *suggestion);

/**
 * bino_suggestion_mount_options() - The options of
 * bino_suggestion_mount() without subvol= and subvolid=, without seclabel
 * (the kernel shows it on SELinux systems; no mount takes it) and without
 * repeats, comma-separated, for the subvolume mounts; "defaults" when none
 * remain.  Valid as long as @suggestion.
 */
const char *
bino_suggestion_mount_options(const struct bino_suggestion *suggestion);

/**
 * bino_suggestion_subvol_count() - The btrfs subvolumes strictly below the
 * path that the audit met (snapshots included), each of which the server
 * must mount on its own path.
 */
size_t bino_suggestion_subvol_count(const struct bino_suggestion *suggestion);

/**
 * bino_suggestion_subvol() - The @index'th, in walk order (a subvolume
 * before those nested in it, as mounts must be made).
 *
 * Return: a subvolume of the audit (read it with bino_audit_subvol_*()),
 * valid as long as the audit, or NULL if out of range.
 */
const struct bino_audit_subvol *
bino_suggestion_subvol(const struct bino_suggestion *suggestion, size_t index);

/**
 * bino_suggestion_subvol_mounted() - Whether the @index'th subvolume is
 * already mounted on its own path on the server (its line is then already
 * in effect); false if out of range.
 */
bool bino_suggestion_subvol_mounted(const struct bino_suggestion *suggestion,
				    size_t index);

/**
 * bino_suggestion_placeholder_count() - Placeholder directories found: the
 * empty directories (inode 2) snapshots hold where their source had a nested
 * subvolume.  knfsd cannot serve them (ESTALE), whatever the configuration.
 * Only the places where a subvolume of the audited tree would have been are
 * looked at, not the whole tree.
 */
size_t
bino_suggestion_placeholder_count(const struct bino_suggestion *suggestion);

/**
 * bino_suggestion_placeholder() - The @index'th placeholder's path, sorted
 * by strcmp(3); valid as long as @suggestion, or NULL if out of range.
 */
const char *bino_suggestion_placeholder(const struct bino_suggestion *suggestion,
					size_t index);

/**
 * bino_suggestion_subvol_confpath() - Whether the @index'th subvolume's
 * path may be written into configuration that outlives the run (struct
 * bino_confpath), judged from the export the path is exported by (else
 * from the path itself) when the suggestion was made.  A subvolume whose
 * path is not safe gets no line naming it (fstab, units, exports, client
 * lines, autofs): btrfs-ino mount resolves it when it mounts it.
 *
 * Return: valid as long as @suggestion, or NULL if out of range.
 */
const struct bino_confpath *
bino_suggestion_subvol_confpath(const struct bino_suggestion *suggestion,
				size_t index);

/**
 * bino_subvol_exists() - Whether a btrfs filesystem's subvolume tree still
 * holds a subvolume, whatever became of the paths that lead to it: one
 * whose mount point is missing still exists, a deleted one does not (so
 * an fstab line naming it is stale, and only then).
 * @path: a directory on the filesystem, in any of its subvolumes (the
 *     mount point of one, say).
 * @fs_uuid: NULL, or the 16-byte UUID (as blkid and "UUID=" name it) that
 *     the filesystem at @path must have.
 * @subvolid: the subvolume's ID (5: the top level), as fstab's subvolid=
 *     names it; 0: it is named by @fs_path instead.
 * @fs_path: with @subvolid 0, its path from the top level, as fstab's
 *     subvol= names it ("/@snapshots/@home" or "@snapshots/@home"; "/" is
 *     the top level); else ignored, and may be NULL.
 * @ret: on success, whether it exists.
 *
 * Lists the whole subvolume tree from the top level (libbtrfsutil's
 * iterator): needs CAP_SYS_ADMIN.  Nothing is changed.
 *
 * Return: BINO_OK; BINO_ERROR_NOT_FOUND (errno 0) when the filesystem at
 * @path is not btrfs or not @fs_uuid's: nothing can be said from there;
 * BINO_ERROR_OPEN_FAILED (@path); BINO_ERROR_SUBVOL_INFO_FAILED (the tree
 * could not be listed); BINO_ERROR_INVALID_ARGUMENT (no @path or @ret, or
 * neither @subvolid nor @fs_path); errno set for the cause.
 */
BINO_WARN_UNUSED
enum bino_error bino_subvol_exists(const char *path, const uint8_t *fs_uuid,
				   uint64_t subvolid, const char *fs_path,
				   bool *ret);

/* ------------------------------------------------------------------------ */
/* Configuration paths                                                       */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_confpath - Whether root may name a path in a file that other
 * programs read later (fstab(5), systemd.mount(5), exports(5), autofs(5)).
 *
 * Those programs follow symbolic links when they read the file (mount -a,
 * systemd-fstab-generator's Where=, nfs-utils' realpath of an export): a
 * user who may rename a directory on the path, or replace it, decides where
 * root mounts or what it exports, at the next boot.  A path is safe when
 * every directory from a trusted top (the export, which root chose) down to
 * the path's parent is owned by root and writable by no one else: no group
 * or other write bit (sticky or not), and no POSIX ACL entry
 * (system.posix_acl_access) granting write to a user or group other than
 * the owner, masked or not.  The path itself may belong to anyone (a
 * user's subvolume): renaming inside it does not move it.  Each directory
 * is opened beneath the one before it through no symbolic link (openat2
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, as btrfs-ino mount opens mount
 * points) and judged by fstat(2) of the opened directory, never by path.
 */
struct bino_confpath;

/**
 * enum bino_confpath_reason - Why a path is not safe for configuration.
 * @BINO_CONFPATH_SAFE: it is safe.
 * @BINO_CONFPATH_OWNER: a directory on the way belongs to a user other than
 *     root (bino_confpath_owner()).
 * @BINO_CONFPATH_GROUP_WRITABLE: a directory on the way is group-writable.
 * @BINO_CONFPATH_OTHER_WRITABLE: a directory on the way is world-writable.
 * @BINO_CONFPATH_ACL_WRITABLE: the POSIX ACL of a directory on the way lets
 *     another user or group write (or could not be read as one).
 * @BINO_CONFPATH_UNRESOLVED: a directory on the way (or the path) could not
 *     be opened beneath the top through no symbolic link; errno in
 *     bino_confpath_errno() (ELOOP or ENOTDIR: a symbolic link; ENOENT).
 * @BINO_CONFPATH_NR: the number of values this version knows.
 */
enum bino_confpath_reason {
	BINO_CONFPATH_SAFE,
	BINO_CONFPATH_OWNER,
	BINO_CONFPATH_GROUP_WRITABLE,
	BINO_CONFPATH_OTHER_WRITABLE,
	BINO_CONFPATH_ACL_WRITABLE,
	BINO_CONFPATH_UNRESOLVED,
	BINO_CONFPATH_NR,
};

/**
 * bino_confpath_reason_name() - "safe", "owner", "group_writable",
 * "other_writable", "acl_writable" or "unresolved"; "unknown" for values
 * this version does not know.  A static string.
 */
const char *bino_confpath_reason_name(enum bino_confpath_reason reason);

/**
 * bino_confpath_create() - Judge @path for configuration, from @top down.
 * @top: an absolute directory the caller trusts (the export), opened
 *     through no symbolic link; it is itself judged when @path is below it.
 * @path: an absolute path at or below @top, as written (not resolved).
 * @flags: 0; other values are rejected.
 * @ret: on success, the judgement; release it with bino_confpath_destroy().
 *
 * Needs no privilege: directories are opened with O_PATH (search
 * permission only) and their ACL read through /proc/self/fd.  A path that
 * cannot be judged is a judgement (BINO_CONFPATH_UNRESOLVED), not an error.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (NULL, a relative path,
 * @path not at or below @top, unknown flag) or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_confpath_create(const char *top, const char *path,
				     int flags, struct bino_confpath **ret);

/** bino_confpath_destroy() - Release a judgement; NULL is accepted. */
void bino_confpath_destroy(struct bino_confpath *confpath);

/**
 * bino_confpath_reason() - BINO_CONFPATH_SAFE, or why the path is not
 * safe (the first directory at fault from the top down).
 */
enum bino_confpath_reason
bino_confpath_reason(const struct bino_confpath *confpath);

/**
 * bino_confpath_directory() - The directory at fault (for
 * BINO_CONFPATH_UNRESOLVED, the name that could not be opened), a prefix
 * of the path; NULL when the path is safe.  Valid as long as @confpath.
 */
const char *bino_confpath_directory(const struct bino_confpath *confpath);

/**
 * bino_confpath_owner() - The owner (a user ID) of the directory at fault;
 * -1 when none was opened (safe, or unresolved).
 */
int64_t bino_confpath_owner(const struct bino_confpath *confpath);

/**
 * bino_confpath_errno() - For BINO_CONFPATH_UNRESOLVED (and an ACL that
 * could not be read), the errno of the failed call; else 0.
 */
int bino_confpath_errno(const struct bino_confpath *confpath);

/* ------------------------------------------------------------------------ */
/* Mount plans                                                               */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_mountplan - The server mounts that make the btrfs subvolumes
 * below some exports filesystems of their own for NFS clients, as steps.
 * struct bino_mountplan_step - One step; owned by the plan.
 *
 * A plan is made from suggestions (struct bino_suggestion: each subvolume
 * not mounted on its own path gets a mount step with exactly the facts the
 * server fstab lines are written from) and from the mount table (each btrfs
 * mount below an exported path whose root subvolume was deleted gets an
 * unmount step).  Making a plan changes nothing; bino_mountplan_step_apply()
 * carries out one step.
 */
struct bino_mountplan;
struct bino_mountplan_step;

/**
 * enum bino_mountplan_action - What a step does.
 * @BINO_MOUNTPLAN_MOUNT: mount a subvolume on its own path.
 * @BINO_MOUNTPLAN_UMOUNT: unmount a mount whose subvolume was deleted.
 * @BINO_MOUNTPLAN_SKIP: nothing: a subvolume the policy does not mount
 *     (bino_mountplan_step_skip() says why); listed so that a dry run can
 *     show it.
 */
enum bino_mountplan_action {
	BINO_MOUNTPLAN_MOUNT,
	BINO_MOUNTPLAN_UMOUNT,
	BINO_MOUNTPLAN_SKIP,
};

/**
 * enum bino_mountplan_skip - Why the policy does not mount a subvolume.
 *
 * The policy: a subvolume whose root directory root owns is always mounted
 * (only root can make one: a snapshot takes its source's owner, and only
 * the source's owner may snapshot it).  Any other owner's subvolumes are
 * mounted while that owner has fewer than the plan's limit
 * (bino_mountplan_set_max_user_mounts()) mounted below the audited path,
 * those mounted already counted, so that no user can make root mount
 * without bound.  A user's subordinate user IDs (subuid(5):
 * bino_mountplan_add_subid_file()) count as that user, so that chowning
 * subvolumes to them inside a user namespace earns nothing; and all owners
 * other than root together have at most the plan's cap
 * (bino_mountplan_set_max_total_user_mounts()) below the audited path, so
 * that many users, or IDs no file names, cannot add up to more.  A mount
 * point longer than PATH_MAX is never mounted on: mount(8), findmnt(8) and
 * exportfs(8) could not name it.
 *
 * @BINO_MOUNTPLAN_SKIP_NONE: not skipped.
 * @BINO_MOUNTPLAN_SKIP_OVER_LIMIT: its owner (bino_mountplan_step_owner())
 *     has as many subvolume mounts below the audited path as the limit.
 * @BINO_MOUNTPLAN_SKIP_PATH_TOO_LONG: its path is PATH_MAX bytes or longer.
 * @BINO_MOUNTPLAN_SKIP_OVER_TOTAL: the owners other than root have, all
 *     together, as many subvolume mounts below the audited path as the cap
 *     (bino_mountplan_set_max_total_user_mounts()).
 */
enum bino_mountplan_skip {
	BINO_MOUNTPLAN_SKIP_NONE,
	BINO_MOUNTPLAN_SKIP_OVER_LIMIT,
	BINO_MOUNTPLAN_SKIP_PATH_TOO_LONG,
	BINO_MOUNTPLAN_SKIP_OVER_TOTAL,
};

/**
 * bino_mountplan_create() - Create an empty plan.
 * @flags: 0; other values are rejected.
 * @ret: on success, the plan; release it with bino_mountplan_destroy().
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_mountplan_create(int flags, struct bino_mountplan **ret);

/** bino_mountplan_destroy() - Release a plan; NULL is accepted. */
void bino_mountplan_destroy(struct bino_mountplan *plan);

/*
 * BINO_MOUNTPLAN_DEFAULT_MAX_USER_MOUNTS - The limit of a plan whose
 * bino_mountplan_set_max_user_mounts() was not called.
 */
#define BINO_MOUNTPLAN_DEFAULT_MAX_USER_MOUNTS 100

/**
 * bino_mountplan_set_max_user_mounts() - Set how many subvolume mounts an
 * owner other than root may have below one audited path (see enum
 * bino_mountplan_skip); applies to suggestions added afterwards.
 * @plan: the plan.
 * @max: the limit; BINO_MOUNTPLAN_DEFAULT_MAX_USER_MOUNTS unless set.  0
 *     mounts no user's subvolume.
 *
 * Return: BINO_OK or BINO_ERROR_INVALID_ARGUMENT (NULL).
 */
BINO_WARN_UNUSED
enum bino_error bino_mountplan_set_max_user_mounts(struct bino_mountplan *plan,
						   size_t max);

/*
 * BINO_MOUNTPLAN_DEFAULT_MAX_TOTAL_USER_MOUNTS - The cap of a plan whose
 * bino_mountplan_set_max_total_user_mounts() was not called: ten owners at
 * the default per-owner limit.  Every mount is a line each reader of
 * /proc/self/mountinfo (systemd, at each mount change; mountd; findmnt)
 * parses, and an entry knfsd may cross into: a server with a thousand
 * user subvolume mounts below one export is already far from the usual.
 */
#define BINO_MOUNTPLAN_DEFAULT_MAX_TOTAL_USER_MOUNTS 1000

/**
 * bino_mountplan_set_max_total_user_mounts() - Set how many subvolume
 * mounts all owners other than root together may have below one audited
 * path (see enum bino_mountplan_skip); applies to paths added afterwards.
 * @plan: the plan.
 * @max: the cap; BINO_MOUNTPLAN_DEFAULT_MAX_TOTAL_USER_MOUNTS unless set.
 *     0 mounts no user's subvolume.
 *
 * Return: BINO_OK or BINO_ERROR_INVALID_ARGUMENT (NULL).
 */
BINO_WARN_UNUSED
enum bino_error
bino_mountplan_set_max_total_user_mounts(struct bino_mountplan *plan,
					 size_t max);

/**
 * bino_mountplan_add_subid_file() - Count the subordinate user IDs that a
 * subuid(5) file gives each user as that user, for the per-owner limit:
 * a subvolume owned by an ID inside user X's range counts as X's
 * (bino_mountplan_step_counted_as()).  Applies to paths added afterwards;
 * a plan given no file counts each user ID apart.
 * @plan: the plan.
 * @path: the file; NULL for /etc/subuid.
 *
 * Lines are "owner:start:count" as shadow writes them; the owner is a user
 * name (getpwnam_r(3)) or, failing that, a user ID in decimal.  Comments
 * ("#"), blank and malformed lines are ignored; a range whose owner names
 * no user counts as an owner of its own (its first ID).  Root's
 * subordinate IDs count as root's but, unlike root's own subvolumes, are
 * limited.  Group IDs (subgid(5)) are not read: the policy counts owners,
 * which are user IDs.  The file is read now and not kept open.
 *
 * Return: BINO_OK (also when the file does not exist),
 * BINO_ERROR_INVALID_ARGUMENT (NULL @plan), BINO_ERROR_OPEN_FAILED (errno
 * set) or BINO_ERROR_NO_MEMORY (the ranges read before it are kept).
 */
BINO_WARN_UNUSED
enum bino_error bino_mountplan_add_subid_file(struct bino_mountplan *plan,
					      const char *path);

/**
 * bino_mountplan_add_suggestion() - Plan a mount for every subvolume of
 * @suggestion that is not mounted on its own path
 * (bino_suggestion_subvol_mounted()), in its order (parents first), or a
 * skip step where the policy refuses it (enum bino_mountplan_skip).  A
 * path the plan has already is not added again; a suggestion for a path
 * that is not on btrfs, or whose filesystem UUID is unknown, adds nothing.
 * @plan: the plan.
 * @suggestion: borrowed; the facts are copied.
 *
 * The audited path is opened (through no symbolic link) and its identity
 * kept, and each subvolume's root is opened beneath it (as
 * bino_mountplan_step_apply() does) for its owner.  What cannot be opened
 * is still planned, and refused when carried out.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (NULL) or
 * BINO_ERROR_NO_MEMORY (steps added before stay).
 */
BINO_WARN_UNUSED
enum bino_error
bino_mountplan_add_suggestion(struct bino_mountplan *plan,
			      const struct bino_suggestion *suggestion);

/**
 * bino_mountplan_add_subvols() - Plan a mount for every btrfs subvolume
 * strictly below the directory @path that is not mounted on its own path,
 * or a skip step where the policy refuses it (enum bino_mountplan_skip),
 * with the facts bino_mountplan_add_suggestion() gives the same subvolume:
 * the filesystem's UUID, the subvolume ID, the device and the options of
 * the mount of @mounts holding @path (without subvol= and subvolid=).
 * The subvolumes come from the btrfs subvolume tree, not from the files:
 * those below the subvolume holding @path, and below each mount of the
 * same filesystem under @path, parents first.  A subvolume is planned
 * only where a lookup from @path reaches its root now (through no
 * symbolic link, not hidden by another mount): never a snapshot's empty
 * placeholder (inode 2).  Its root is opened (O_PATH, never read) and
 * stat'ed for its identity and owner: the cost grows with the subvolumes,
 * not with the files.  A path the plan has already is not added again;
 * @path on another filesystem than btrfs adds nothing.
 * @plan: the plan.
 * @mounts: the server's mount table (this machine's: the subvolumes are
 * read from the live filesystem); borrowed, the facts are copied.
 * @path: an absolute path (an exported directory), with no symbolic link.
 *
 * Listing every subvolume needs CAP_SYS_ADMIN (libbtrfsutil searches the
 * root tree).  Without it, on Linux 4.18 and later, the unprivileged
 * listing (BTRFS_IOC_GET_SUBVOL_ROOTREF, BTRFS_IOC_INO_LOOKUP_USER) is used,
 * which leaves out the subvolumes the caller cannot reach: a plan made by
 * a user is a preview that may miss some; on older kernels it fails.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (NULL, relative @path),
 * BINO_ERROR_NOT_FOUND (no mount of @mounts holds @path),
 * BINO_ERROR_OPEN_FAILED (@path or its subvolume's root cannot be opened
 * through no symbolic link, or is not a subvolume's root: a filesystem
 * mounted from a directory), BINO_ERROR_SUBVOL_INFO_FAILED (the subvolume
 * tree or the filesystem's UUID could not be read; errno says why: EPERM
 * without privilege on an old kernel), and nothing is added; or
 * BINO_ERROR_NO_MEMORY (steps added before stay).
 */
BINO_WARN_UNUSED
enum bino_error bino_mountplan_add_subvols(struct bino_mountplan *plan,
					   const struct bino_mounts *mounts,
					   const char *path);

/**
 * bino_mountplan_add_subvol_ids() - Plan, as bino_mountplan_add_subvols()
 * does, only the subvolumes @ids strictly below @path: for a keeper that
 * learns which subvolumes were created (bino_fswatch_added_id()) and
 * plans them without listing every other.  Each ID's path is read up its
 * links in the subvolume tree from the subvolume holding @path (one found
 * only below another mount of the filesystem, or no longer linked, is
 * passed over), then checked, given its owner and held to the limits as
 * bino_mountplan_add_subvols() does, counting on from the tallies of the
 * last bino_mountplan_add_subvols() of @path on this plan (the mounts
 * each owner had then, and those planned since): a user over a limit
 * gets a skip step, at the cost of a counter.  A subvolume whose path has
 * a step in the plan already is left out.  The cost grows with @n, not
 * with the subvolumes of the filesystem.
 * @plan: the plan.
 * @mounts: the server's mount table now; borrowed.
 * @path: an absolute path given to bino_mountplan_add_subvols() before.
 * @ids: @n subvolume IDs; borrowed.
 * @n: how many.
 *
 * Needs CAP_SYS_ADMIN (the subvolume tree is searched).
 *
 * Return: as for bino_mountplan_add_subvols(), and BINO_ERROR_NOT_FOUND
 * (errno 0) when @path was never given to bino_mountplan_add_subvols() on
 * @plan (there are no tallies to count on from: plan it whole).
 */
BINO_WARN_UNUSED
enum bino_error bino_mountplan_add_subvol_ids(struct bino_mountplan *plan,
					      const struct bino_mounts *mounts,
					      const char *path,
					      const uint64_t *ids, size_t n);

/**
 * bino_mountplan_add_stale() - Plan to unmount every btrfs mount of
 * @mounts strictly below @path whose root subvolume was deleted (mountinfo
 * shows its root as "PATH//deleted").  A mount point already planned is not
 * added again.  The step keeps the mount's ID, and @path's identity (when
 * @path can be opened through no symbolic link; else the step is refused
 * when carried out): it unmounts only that mount, reached beneath @path.
 * @plan: the plan.
 * @mounts: the server's mount table; borrowed, the facts are copied.
 * @path: an absolute path (an exported directory), with no symbolic link.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (NULL, relative @path) or
 * BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino_mountplan_add_stale(struct bino_mountplan *plan,
					 const struct bino_mounts *mounts,
					 const char *path);

/** bino_mountplan_count() - The number of steps; 0 for NULL. */
size_t bino_mountplan_count(const struct bino_mountplan *plan);

/**
 * bino_mountplan_unreached() - How many subvolumes the subvolume tree
 * listed below the paths given to bino_mountplan_add_subvols() whose root
 * no lookup found (ENOENT), so that they have no step; 0 for NULL.
 *
 * Btrfs links a new subvolume in the root tree while the transaction that
 * makes it commits, and its name appears in its directory only when the
 * call that made it returns: a plan made in between sees it and cannot
 * reach it.  A keeper that sees a count above 0 plans again a moment
 * later.  The count stays above 0 while another mount hides a directory
 * that holds a subvolume.
 */
size_t bino_mountplan_unreached(const struct bino_mountplan *plan);

/**
 * bino_mountplan_owner_count() - How many owners other than root the policy
 * counted below the path of the last bino_mountplan_add_subvols() or
 * bino_mountplan_add_suggestion() call (each owner with its subordinate
 * IDs folded in: bino_mountplan_add_subid_file()); 0 for NULL.
 */
size_t bino_mountplan_owner_count(const struct bino_mountplan *plan);
/**
 * bino_mountplan_owner_uid() - The @index'th owner counted (in the order
 * met), as a user ID; 0 when out of range.  Valid until the next
 * bino_mountplan_add_subvols() or bino_mountplan_add_suggestion().
 */
int64_t bino_mountplan_owner_uid(const struct bino_mountplan *plan,
				 size_t index);
/**
 * bino_mountplan_owner_mounts() - The subvolume mounts of the @index'th
 * owner counted below that path: those there already and those planned;
 * 0 when out of range.
 */
size_t bino_mountplan_owner_mounts(const struct bino_mountplan *plan,
				   size_t index);
/**
 * bino_mountplan_user_mounts() - The subvolume mounts of all owners other
 * than root below that path, there already and planned (what the cap of
 * bino_mountplan_set_max_total_user_mounts() bounds); 0 for NULL.
 */
size_t bino_mountplan_user_mounts(const struct bino_mountplan *plan);

/**
 * bino_mountplan_get() - The @index'th step, in the order added (the order
 * to carry them out in).
 *
 * Return: valid as long as @plan, or NULL if out of range.
 */
const struct bino_mountplan_step *
bino_mountplan_get(const struct bino_mountplan *plan, size_t index);

/** bino_mountplan_step_action() - Mount, unmount or skip. */
enum bino_mountplan_action
bino_mountplan_step_action(const struct bino_mountplan_step *step);
/** bino_mountplan_step_path() - The mount point. */
const char *bino_mountplan_step_path(const struct bino_mountplan_step *step);
/**
 * bino_mountplan_step_source() - For a mount, the device mounted (that of
 * the mount holding the export: the filesystem of
 * bino_mountplan_step_fs_uuid()); for an unmount, the mount's source.
 */
const char *bino_mountplan_step_source(const struct bino_mountplan_step *step);
/**
 * bino_mountplan_step_fs_uuid() - The 16-byte filesystem UUID of a mount
 * step, or NULL for an unmount.
 */
const uint8_t *
bino_mountplan_step_fs_uuid(const struct bino_mountplan_step *step);
/**
 * bino_mountplan_step_subvolid() - The subvolume mounted, or the deleted
 * one the mount shows (0 when its mount options do not say).
 */
uint64_t bino_mountplan_step_subvolid(const struct bino_mountplan_step *step);
/**
 * bino_mountplan_step_options() - The options of a mount step, as its
 * server fstab line has them: bino_suggestion_mount_options() (unless
 * "defaults") then "subvolid=N"; NULL for an unmount.
 */
const char *
bino_mountplan_step_options(const struct bino_mountplan_step *step);
/**
 * bino_mountplan_step_skip() - Why a skip step is skipped;
 * BINO_MOUNTPLAN_SKIP_NONE for the others.
 */
enum bino_mountplan_skip
bino_mountplan_step_skip(const struct bino_mountplan_step *step);
/**
 * bino_mountplan_step_owner() - The owner (a user ID) of the root directory
 * of the subvolume a mount or skip step is for, when planned; -1 when it
 * could not be opened then (such a mount step is refused when carried out),
 * and for an unmount.
 */
int64_t bino_mountplan_step_owner(const struct bino_mountplan_step *step);
/**
 * bino_mountplan_step_counted_as() - The owner a mount or skip step is
 * counted as by the policy: bino_mountplan_step_owner(), or the user whose
 * subordinate ID that is (bino_mountplan_add_subid_file()); -1 as the
 * owner is.
 */
int64_t
bino_mountplan_step_counted_as(const struct bino_mountplan_step *step);
/**
 * bino_mountplan_step_fs_path() - For an unmount, the deleted subvolume's
 * path inside the filesystem (the mount's root without "//deleted"); NULL
 * for a mount.
 */
const char *
bino_mountplan_step_fs_path(const struct bino_mountplan_step *step);

/**
 * bino_mountplan_step_apply() - Carry out one step; the one call here that
 * changes the system.  Needs CAP_SYS_ADMIN.
 *
 * Users may own the directories on the way and rename them meanwhile, so
 * nothing is done by path: the audited path the step lies below is opened
 * through no symbolic link and must still be the directory the plan saw;
 * the mount point is opened beneath it through no symbolic link
 * (openat2(2) RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS); the step acts on that
 * descriptor (through /proc/self/fd).  A mount step mounts only on the root
 * of the planned subvolume itself: inode 256 of that subvolume ID on the
 * filesystem of that UUID, owned as planned, so a snapshot's placeholder
 * directory (inode 2) or a path changed since the plan is never mounted
 * on; it mount(2)s with the step's options split into mount flags and
 * btrfs options as mount(8) does.  An unmount step unmounts only the mount
 * whose ID the plan read (statx(2) STX_MNT_ID), detached (MNT_DETACH):
 * what it shows is deleted already, and a process working inside must not
 * keep it.  A skip step does nothing.
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (NULL),
 * BINO_ERROR_OPEN_FAILED (the mount point is not what was planned, errno
 * telling how: ENOENT gone, ELOOP or ENOTDIR a symbolic link on the way,
 * EXDEV outside the audited path, ESTALE another directory, subvolume,
 * filesystem, owner or mount, or the audited path itself replaced or not
 * opened when planned),
 * BINO_ERROR_SUBVOL_DELETED (a mount step whose subvolume no longer exists,
 * deleted since the plan, found when its path is gone or leads elsewhere,
 * or when mount(2) fails with ENOENT: nothing to mount, errno ENOENT; told
 * by the root tree, so CAP_SYS_ADMIN),
 * BINO_ERROR_NO_MEMORY, BINO_ERROR_MOUNT_FAILED or
 * BINO_ERROR_UMOUNT_FAILED, errno telling why.
 */
BINO_WARN_UNUSED
enum bino_error
bino_mountplan_step_apply(const struct bino_mountplan_step *step);

/* ------------------------------------------------------------------------ */
/* Filesystem watches                                                        */
/* ------------------------------------------------------------------------ */

/**
 * struct bino_fswatch - Tells whether the subvolumes of the btrfs
 * filesystem holding a path changed since the last look, for a keeper that
 * looks often (a mount plan made again only then).
 *
 * A look opens the path, reads the filesystem's UUID and generation
 * (BTRFS_IOC_FS_INFO, Linux 5.10: it grows when a transaction starts), its
 * count of committed transactions (/sys/fs/btrfs/FSID/commit_stats, Linux
 * 6.0: it grows when a commit ends) and, with CAP_SYS_ADMIN, a digest of
 * the subvolume links (ROOT_REF, ROOT_BACKREF) in the root tree's leaves
 * written in that generation (BTRFS_IOC_TREE_SEARCH_V2 with min_transid,
 * which skips every older subtree: a subvolume created inside a
 * transaction already running at the last look changes it at once), and
 * closes the path again: a few system calls, whatever the number of
 * subvolumes and files, and nothing that keeps the filesystem from being
 * unmounted.  When one of them moved, and only then, the look digests
 * every subvolume link in the root tree (its leaves, from memory: about a
 * millisecond for 1,000 subvolumes), and reports a change only when that
 * digest differs: a subvolume was created, deleted or renamed, whatever
 * else the transactions wrote.  The links are digested in subvolume ID
 * order, so a look tells a creation (an ID above every ID known before:
 * BINO_FSWATCH_ADDED, with the new IDs) from any other change.  A directory moved with subvolumes in it
 * changes no link.  Without CAP_SYS_ADMIN, a change of generation or
 * commit count is reported, and once more 35 seconds later (when its
 * transaction has been committed, every 30 s by default); with no counter
 * at all every look is a change.
 */
struct bino_fswatch;

/**
 * enum bino_fswatch_change - What a look saw.
 * @BINO_FSWATCH_UNCHANGED: the same filesystem and the same subvolume
 *     links (without CAP_SYS_ADMIN: no transaction since).
 * @BINO_FSWATCH_CHANGED: a subvolume link was removed or changed (a
 *     subvolume deleted, renamed or moved; without CAP_SYS_ADMIN: a
 *     transaction started or was committed), or another filesystem is at
 *     the path now: plan again.
 * @BINO_FSWATCH_ADDED: subvolumes were created, and nothing else changed:
 *     their IDs are bino_fswatch_added_id()'s (with CAP_SYS_ADMIN only).
 */
enum bino_fswatch_change {
	BINO_FSWATCH_UNCHANGED,
	BINO_FSWATCH_CHANGED,
	BINO_FSWATCH_ADDED,
};

/**
 * bino_fswatch_create() - Watch the btrfs filesystem holding @path, its
 * first look made now (the baseline the next look is compared with: make
 * the watch before the plan it guards).
 * @path: a directory on btrfs; copied.
 * @flags: 0; other values are rejected.
 * @ret: on success, the watch; release it with bino_fswatch_destroy().
 *
 * Return: BINO_OK, BINO_ERROR_INVALID_ARGUMENT, BINO_ERROR_NO_MEMORY,
 * BINO_ERROR_OPEN_FAILED (@path cannot be opened) or
 * BINO_ERROR_SUBVOL_INFO_FAILED (ENOTTY: not on btrfs), errno set.
 */
BINO_WARN_UNUSED
enum bino_error bino_fswatch_create(const char *path, int flags,
				    struct bino_fswatch **ret);

/**
 * bino_fswatch_check() - Look again at the filesystem holding the path;
 * this look becomes the one the next is compared with.
 * @watch: the watch.
 * @ret: on success, what the look saw.
 *
 * Return: as for bino_fswatch_create() (then the last successful look is
 * kept: a filesystem mounted there again is a change).
 */
BINO_WARN_UNUSED
enum bino_error bino_fswatch_check(struct bino_fswatch *watch,
				   enum bino_fswatch_change *ret);

/**
 * bino_fswatch_check_added() - Look again at the filesystem holding the
 * path for subvolumes created since the last look only, at a cost that
 * grows with them, not with the subvolumes of the filesystem: for a keeper
 * that will plan everything again anyway (it saw a change) but must not
 * wait to mount what is new.  The root tree's items above the highest
 * subvolume ID the watch knows, in the leaves written since the last look
 * began (BTRFS_IOC_TREE_SEARCH_V2 with min_transid), are searched: each
 * ROOT_BACKREF item there is a subvolume created since (IDs only grow
 * while a filesystem is mounted).  A deletion, a rename or another
 * subvolume's change is not looked for: the next bino_fswatch_check()
 * compares the links with those of the last look it made, and reports
 * BINO_FSWATCH_CHANGED if this look told of any.
 * @watch: the watch.
 * @ret: on success, BINO_FSWATCH_ADDED (bino_fswatch_added_id()),
 *     BINO_FSWATCH_UNCHANGED (none; always without CAP_SYS_ADMIN) or
 *     BINO_FSWATCH_CHANGED (another filesystem is at the path).
 *
 * Return: as for bino_fswatch_create().
 */
BINO_WARN_UNUSED
enum bino_error bino_fswatch_check_added(struct bino_fswatch *watch,
					 enum bino_fswatch_change *ret);

/**
 * bino_fswatch_added_count() - How many subvolumes the last look reported
 * as created (BINO_FSWATCH_ADDED; it may hold some for
 * BINO_FSWATCH_CHANGED too); 0 for NULL or another result.
 */
size_t bino_fswatch_added_count(const struct bino_fswatch *watch);

/**
 * bino_fswatch_added_id() - The @index'th subvolume ID the last look
 * reported as created, in ascending order; 0 out of range.  Valid until
 * the next look: each ID is reported by one look only.
 */
uint64_t bino_fswatch_added_id(const struct bino_fswatch *watch, size_t index);

/** bino_fswatch_path() - The path watched; valid while @watch is. */
const char *bino_fswatch_path(const struct bino_fswatch *watch);

/** bino_fswatch_destroy() - Release a watch; NULL is accepted. */
void bino_fswatch_destroy(struct bino_fswatch *watch);

#ifdef __cplusplus
}
#endif

#endif /* BTRFSINO_H */
