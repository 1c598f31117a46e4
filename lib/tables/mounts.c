/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mount table, read once with libmount (the only file that includes
 * <libmount.h>) and copied into our own records, so that the table lives
 * exactly as long as its owner.  The lookups its users need are indexed
 * once, when it is read (mounts_index()):
 *
 *  - by mount ID and by device (the first mount of each): uthash probes;
 *  - by mount point: the visible mounts (of several on one point, the last
 *    mounted) sorted by mount point, for the mount at a point
 *    (bino__mounts_at()), the mount holding a path (bino__mounts_holding(),
 *    one probe per ancestor) and the mounts below a directory
 *    (bino__mounts_below(), one contiguous run, as all the strings sharing
 *    a prefix are in sorted order).
 */
#include "mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hash.h"
#include "path.h"

#include "statx.h"

struct bino_mount {
	uint64_t id;
	uint64_t parent_id;
	uint64_t dev;
	uint64_t subvolid;
	char *root;
	char *target;
	char *fstype;
	char *source;
	char *options;
	enum bino_fs_kind kind;
	bool has_file_mountpoints;
	UT_hash_handle by_id;
	UT_hash_handle by_dev;
};

struct bino_mounts {
	struct bino_mount *mounts;
	size_t count;
	bool from_file; /* read from a file given, not the process's own */
	struct bino_mount *index; /* uthash head over mounts[], keyed by id */
	struct bino_mount *dev_index; /* the first mount of each dev */
	/* The visible mounts (the last of each mount point), by mount point. */
	const struct bino_mount **visible;
	size_t n_visible;
};

static const char *const dino_exact_fstypes[] = {
	"ext2", "ext3", "ext4", "xfs", "tmpfs", "ramfs", "devtmpfs", "f2fs",
	"jfs", "reiserfs", "vfat", "exfat", "ntfs3",
};

static enum bino_fs_kind fs_kind_from_name(const char *fstype)
{
	size_t i;

	if (!fstype)
		return BINO_FS_OTHER;
	if (strcmp(fstype, "btrfs") == 0)
		return BINO_FS_BTRFS;
	if (strcmp(fstype, "nfs") == 0 || strcmp(fstype, "nfs4") == 0)
		return BINO_FS_NFS;
	for (i = 0; i < sizeof(dino_exact_fstypes) / sizeof(*dino_exact_fstypes); i++) {
		if (strcmp(fstype, dino_exact_fstypes[i]) == 0)
			return BINO_FS_DINO_EXACT;
	}
	return BINO_FS_OTHER;
}

static char *strdup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static enum bino_error mount_copy(struct bino_mount *mount,
				  struct libmnt_fs *fs)
{
	char *value = NULL;
	size_t value_size = 0;

	mount->id = (uint64_t)mnt_fs_get_id(fs);
	mount->parent_id = (uint64_t)mnt_fs_get_parent_id(fs);
	mount->dev = (uint64_t)mnt_fs_get_devno(fs);
	mount->root = strdup_or_empty(mnt_fs_get_root(fs));
	mount->target = strdup_or_empty(mnt_fs_get_target(fs));
	mount->fstype = strdup_or_empty(mnt_fs_get_fstype(fs));
	mount->source = strdup_or_empty(mnt_fs_get_source(fs));
	mount->options = strdup_or_empty(mnt_fs_get_options(fs));
	if (!mount->root || !mount->target || !mount->fstype ||
	    !mount->source || !mount->options)
		return BINO_ERROR_NO_MEMORY;
	if (mnt_fs_get_option(fs, "subvolid", &value, &value_size) == 0 &&
	    value && value_size > 0) {
		char digits[32];

		if (value_size < sizeof(digits)) {
			memcpy(digits, value, value_size);
			digits[value_size] = '\0';
			mount->subvolid = strtoull(digits, NULL, 10);
		}
	}
	mount->kind = fs_kind_from_name(mount->fstype);
	return BINO_OK;
}

/*
 * A mount on a regular file (a bind-mounted file) hides behind a readdir
 * entry that looks like any other; mark the mount holding its parent
 * directory so the walker stats that directory's entries.  Only mounts in
 * the live table can be checked; for a table read from a file this is left
 * unset.
 */
static void mark_file_mountpoints(struct bino_mounts *mounts)
{
	size_t i;

	for (i = 0; i < mounts->count; i++) {
		struct bino_mount *mount = &mounts->mounts[i];
		struct bino_mount *parent;
		struct bino_kstatx stx;

		if (bino__statx(AT_FDCWD, mount->target,
				AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT |
					AT_STATX_DONT_SYNC,
				&stx) != 0)
			continue;
		if (S_ISDIR(stx.mode))
			continue;
		HASH_FIND(by_id, mounts->index, &mount->parent_id,
			  sizeof(mount->parent_id), parent);
		if (parent)
			parent->has_file_mountpoints = true;
	}
}

/* By mount point, then table order (the array's): the last is visible. */
static int compare_targets(const void *a, const void *b)
{
	const struct bino_mount *const *ma = a, *const *mb = b;
	int cmp = strcmp((*ma)->target, (*mb)->target);

	if (cmp)
		return cmp;
	return *ma < *mb ? -1 : *ma > *mb;
}

/* The visible mounts, sorted by mount point. */
static enum bino_error mounts_index_targets(struct bino_mounts *mounts)
{
	size_t i, n = 0;

	mounts->visible = calloc(mounts->count ? mounts->count : 1,
				 sizeof(*mounts->visible));
	if (!mounts->visible)
		return BINO_ERROR_NO_MEMORY;
	for (i = 0; i < mounts->count; i++)
		mounts->visible[i] = &mounts->mounts[i];
	qsort(mounts->visible, mounts->count, sizeof(*mounts->visible),
	      compare_targets);
	for (i = 0; i < mounts->count; i++) {
		if (i + 1 < mounts->count &&
		    strcmp(mounts->visible[i]->target,
			   mounts->visible[i + 1]->target) == 0)
			continue; /* hidden by a later mount on the same point */
		mounts->visible[n++] = mounts->visible[i];
	}
	mounts->n_visible = n;
	return BINO_OK;
}

static enum bino_error mounts_index(struct bino_mounts *mounts)
{
	bool out_of_memory = false;
	size_t i;

	for (i = 0; i < mounts->count; i++) {
		struct bino_mount *mount = &mounts->mounts[i];
		struct bino_mount *existing;

		HASH_FIND(by_id, mounts->index, &mount->id, sizeof(mount->id),
			  existing);
		if (existing)
			continue;
		HASH_ADD(by_id, mounts->index, id, sizeof(mount->id), mount);
		if (out_of_memory)
			return BINO_ERROR_NO_MEMORY;
	}
	for (i = 0; i < mounts->count; i++) {
		struct bino_mount *mount = &mounts->mounts[i];
		struct bino_mount *existing;

		HASH_FIND(by_dev, mounts->dev_index, &mount->dev,
			  sizeof(mount->dev), existing);
		if (existing)
			continue;
		HASH_ADD(by_dev, mounts->dev_index, dev, sizeof(mount->dev),
			 mount);
		if (out_of_memory)
			return BINO_ERROR_NO_MEMORY;
	}
	return mounts_index_targets(mounts);
}

/* What the parser callback knows of the file being read. */
struct parse_state {
	struct bino_syntax_error *err;
	bool failed;
};

static void syntax_error(struct bino_syntax_error *err, const char *file,
			 unsigned int line, const char *message)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", file);
	err->line = line;
	snprintf(err->message, sizeof(err->message), "%s", message);
}

/*
 * The shape of a mountinfo line (proc_pid_mountinfo(5)), blank-separated:
 *
 *   ID PARENT MAJOR:MINOR ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE [SUPER_OPTIONS]
 *
 * libmount decides the format of a whole file from its first line (a file
 * whose first line does not start with two numbers is read as fstab) and
 * then names only the line that failed: a shell prompt pasted above a good
 * table is reported at the first good line.  So every line is checked here
 * first, and the first one that is not mountinfo is named with the column
 * of the field that is wrong.  Blank lines and '#' comments are skipped, as
 * libmount skips them.
 */
/* The unread rest of a line: [p, end). */
struct line_cursor {
	const char *p, *end;
};

static void cursor_skip_blanks(struct line_cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* The next blank-separated field (length 0 at the end of the line). */
static size_t cursor_field(struct line_cursor *c, const char **field)
{
	const char *q;

	cursor_skip_blanks(c);
	*field = c->p;
	for (q = c->p; q < c->end && *q != ' ' && *q != '\t'; q++)
		;
	c->p = q;
	return (size_t)(q - *field);
}

/* Whether @len bytes at @s are decimal digits whose value is in [@min, @max]. */
static bool decimal_in(const char *s, size_t len, uint64_t min, uint64_t max)
{
	uint64_t value = 0;
	size_t i;

	if (len == 0)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		value = value * 10 + (uint64_t)(s[i] - '0');
		if (value > max)
			return false;
	}
	return value >= min;
}

/* MAJOR:MINOR, each a 32-bit number. */
static bool devno_valid(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);

	return colon &&
	       decimal_in(s, (size_t)(colon - s), 0, UINT32_MAX) &&
	       decimal_in(colon + 1, len - (size_t)(colon - s) - 1, 0,
			  UINT32_MAX);
}

/*
 * What is wrong with one line, or NULL if it has the shape of mountinfo;
 * *@column is then the 1-based byte column of the wrong field (one past the
 * end of the line when a field is missing).
 */
static const char *mountinfo_line_problem(const char *line, size_t len,
					  unsigned int *column)
{
	struct line_cursor c = { line, line + len };
	const char *field;
	size_t n;

#define PROBLEM(message)                                                 \
	do {                                                             \
		*column = (unsigned int)(field - line + 1);              \
		return message;                                          \
	} while (0)
	n = cursor_field(&c, &field);
	if (!decimal_in(field, n, 1, INT32_MAX))
		PROBLEM("not a mountinfo line: expected a mount ID (a number above 0)");
	n = cursor_field(&c, &field);
	if (!decimal_in(field, n, 0, INT32_MAX))
		PROBLEM("expected the parent mount ID (a number)");
	n = cursor_field(&c, &field);
	if (!devno_valid(field, n))
		PROBLEM("expected the device as MAJOR:MINOR");
	if (cursor_field(&c, &field) == 0)
		PROBLEM("expected the root of the mount");
	n = cursor_field(&c, &field);
	if (n == 0 || *field != '/')
		PROBLEM("expected the mount point (an absolute path)");
	if (cursor_field(&c, &field) == 0)
		PROBLEM("expected the mount options");
	do {
		n = cursor_field(&c, &field);
		if (n == 0)
			PROBLEM("expected \" - \" before the filesystem type");
	} while (n != 1 || *field != '-');
	if (cursor_field(&c, &field) == 0)
		PROBLEM("expected the filesystem type after \" - \"");
	/* The source may be empty (two blanks), not absent. */
	field = c.p;
	if (c.p == c.end)
		PROBLEM("expected the mount source after the filesystem type");
#undef PROBLEM
	return NULL;
}

/* Check every line of @path; false with @err filled at the first bad one. */
static bool mountinfo_file_valid(const char *path, struct bino_syntax_error *err)
{
	FILE *file = fopen(path, "re");
	unsigned int line = 0, column = 0;
	const char *problem = NULL;
	char *text = NULL;
	size_t size = 0;
	ssize_t len;

	if (!file)
		return true; /* libmount reports why it cannot be read */
	while (!problem && (len = getline(&text, &size, file)) >= 0) {
		const char *p = text;

		line++;
		if (len > 0 && text[len - 1] == '\n')
			len--;
		if (len > 0 && text[len - 1] == '\r')
			len--;
		while (p < text + len && (*p == ' ' || *p == '\t'))
			p++;
		if (p == text + len || *p == '#')
			continue;
		problem = mountinfo_line_problem(text, (size_t)len, &column);
	}
	free(text);
	fclose(file);
	if (problem && err) {
		syntax_error(err, path, line, problem);
		err->column = column;
	}
	return !problem;
}

/* libmount skips a line it cannot parse unless told to stop: stop. */
static int parse_error_stop(struct libmnt_table *table, const char *file,
			    int line)
{
	struct parse_state *state = mnt_table_get_userdata(table);

	if (!state->failed) {
		syntax_error(state->err, file, (unsigned int)line,
			     "not a mountinfo line");
		if (state->err)
			state->err->column = 1;
	}
	state->failed = true;
	return -EINVAL;
}

BINO_PUBLIC enum bino_error bino_mounts_create(const char *mountinfo_path,
					       struct bino_mounts **ret)
{
	return bino_mounts_create_checked(mountinfo_path, NULL, ret);
}

/*
 * What libmount would read wrong, refused before it reads: a directory (an
 * empty table to it) and, for a file named (@checked), a line that is not
 * mountinfo.  BINO_OK, or the error with the cause in @errnum.
 */
static enum bino_error mountinfo_check(const char *path, bool checked,
				       struct bino_syntax_error *err,
				       int *errnum)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		*errnum = errno;
		return BINO_ERROR_MOUNTINFO_FAILED;
	}
	if (S_ISDIR(st.st_mode)) {
		*errnum = EISDIR;
		return BINO_ERROR_MOUNTINFO_FAILED;
	}
	if (checked && !mountinfo_file_valid(path, err)) {
		*errnum = EINVAL;
		return BINO_ERROR_MOUNTINFO_SYNTAX;
	}
	return BINO_OK;
}

/*
 * Parse @path into @table, checked first (mountinfo_check()) and stopped at
 * the first line libmount cannot parse (said in @state's syntax error).
 * BINO_OK, or the error with the cause in @errnum.
 */
static enum bino_error mountinfo_parse(struct libmnt_table *table,
				       const char *path, bool checked,
				       struct parse_state *state, int *errnum)
{
	enum bino_error error;

	error = mountinfo_check(path, checked, state->err, errnum);
	if (error)
		return error;
	mnt_table_set_userdata(table, state);
	mnt_table_set_parser_errcb(table, parse_error_stop);
	errno = 0;
	if (mnt_table_parse_file(table, path) == 0 && !state->failed)
		return BINO_OK;
	if (state->failed) {
		*errnum = EINVAL;
		return BINO_ERROR_MOUNTINFO_SYNTAX;
	}
	*errnum = errno ? errno : EINVAL;
	return BINO_ERROR_MOUNTINFO_FAILED;
}

/* The mounts of @table copied into @mounts, indexed: BINO_OK or NO_MEMORY. */
static enum bino_error mounts_copy_table(struct bino_mounts *mounts,
					 struct libmnt_table *table)
{
	int n = mnt_table_get_nents(table);
	enum bino_error error = BINO_OK;
	struct libmnt_iter *iter;
	struct libmnt_fs *fs;

	mounts->mounts = calloc(n > 0 ? (size_t)n : 1, sizeof(*mounts->mounts));
	iter = mnt_new_iter(MNT_ITER_FORWARD);
	if (!mounts->mounts || !iter)
		error = BINO_ERROR_NO_MEMORY;
	while (!error && mnt_table_next_fs(table, iter, &fs) == 0 &&
	       mounts->count < (size_t)n)
		error = mount_copy(&mounts->mounts[mounts->count++], fs);
	mnt_free_iter(iter);
	return error ? error : mounts_index(mounts);
}

BINO_PUBLIC enum bino_error
bino_mounts_create_checked(const char *mountinfo_path,
			   struct bino_syntax_error *err,
			   struct bino_mounts **ret)
{
	const char *path = mountinfo_path ? mountinfo_path : "/proc/self/mountinfo";
	struct parse_state state = { .err = err };
	enum bino_error error = BINO_ERROR_NO_MEMORY;
	struct libmnt_table *table;
	struct bino_mounts *mounts;
	int errnum = ENOMEM;

	if (!ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	mounts = calloc(1, sizeof(*mounts));
	if (!mounts)
		return BINO_ERROR_NO_MEMORY;
	table = mnt_new_table();
	if (table)
		error = mountinfo_parse(table, path, mountinfo_path != NULL,
					&state, &errnum);
	if (!error)
		error = mounts_copy_table(mounts, table); /* errnum: ENOMEM */
	mnt_unref_table(table);
	if (error) {
		bino_mounts_destroy(mounts);
		errno = errnum;
		return error;
	}
	if (!mountinfo_path)
		mark_file_mountpoints(mounts);
	mounts->from_file = mountinfo_path != NULL;
	*ret = mounts;
	return BINO_OK;
}

/* The 1.0 name of bino_mounts_create_checked(), kept for the ABI. */
BINO_PUBLIC enum bino_error bino_mounts_read(const char *mountinfo_path,
					     struct bino_syntax_error *err,
					     struct bino_mounts **ret)
	__attribute__((alias("bino_mounts_create_checked")));

/* The strings one entry of the table owns (the entry is in the array). */
static void mount_free_strings(struct bino_mount *mount)
{
	free(mount->root);
	free(mount->target);
	free(mount->fstype);
	free(mount->source);
	free(mount->options);
}

BINO_PUBLIC void bino_mounts_destroy(struct bino_mounts *mounts)
{
	size_t i;

	if (!mounts)
		return;
	HASH_CLEAR(by_id, mounts->index);
	HASH_CLEAR(by_dev, mounts->dev_index);
	free(mounts->visible);
	for (i = 0; i < mounts->count; i++)
		mount_free_strings(&mounts->mounts[i]);
	free(mounts->mounts);
	free(mounts);
}

BINO_PUBLIC size_t bino_mounts_count(const struct bino_mounts *mounts)
{
	if (!mounts)
		return 0;
	return mounts->count;
}

BINO_PUBLIC const struct bino_mount *
bino_mounts_get(const struct bino_mounts *mounts, size_t index)
{
	if (!mounts)
		return NULL;
	return index < mounts->count ? &mounts->mounts[index] : NULL;
}

BINO_PUBLIC const struct bino_mount *
bino_mounts_find_id(const struct bino_mounts *mounts, uint64_t mnt_id)
{
	struct bino_mount *found;

	if (!mounts)
		return NULL;

	HASH_FIND(by_id, mounts->index, &mnt_id, sizeof(mnt_id), found);
	return found;
}

BINO_PUBLIC const struct bino_mount *
bino_mounts_find_dev(const struct bino_mounts *mounts, uint64_t dev)
{
	struct bino_mount *found;

	if (!mounts)
		return NULL;
	HASH_FIND(by_dev, mounts->dev_index, &dev, sizeof(dev), found);
	return found;
}

/*
 * Compare mount point @target with the first @len bytes of @path ("/" when
 * @len is 0, the root).
 */
static int compare_prefix(const char *target, const char *path, size_t len)
{
	int cmp;

	if (len == 0)
		return strcmp(target, "/");
	cmp = strncmp(target, path, len);
	if (cmp)
		return cmp;
	return target[len] != '\0';
}

/* The index in visible[] of the first mount point not before the prefix. */
static size_t visible_lower_bound(const struct bino_mounts *mounts,
				  const char *path, size_t len)
{
	size_t low = 0, high = mounts->n_visible;

	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (compare_prefix(mounts->visible[mid]->target, path, len) < 0)
			low = mid + 1;
		else
			high = mid;
	}
	return low;
}

/* The visible mount on the first @len bytes of @path, or NULL. */
static const struct bino_mount *visible_at(const struct bino_mounts *mounts,
					   const char *path, size_t len)
{
	size_t i = visible_lower_bound(mounts, path, len);

	if (i < mounts->n_visible &&
	    compare_prefix(mounts->visible[i]->target, path, len) == 0)
		return mounts->visible[i];
	return NULL;
}

const struct bino_mount *bino__mounts_at(const struct bino_mounts *mounts,
					 const char *target)
{
	return visible_at(mounts, target, strlen(target));
}

size_t bino__mounts_below(const struct bino_mounts *mounts, const char *dir,
			  const struct bino_mount *const **ret)
{
	size_t first, end;

	/* Past @dir itself: every mount point below it sorts after it. */
	first = visible_lower_bound(mounts, dir, strlen(dir));
	while (first < mounts->n_visible &&
	       !bino__path_below(mounts->visible[first]->target, dir))
		first++;
	for (end = first; end < mounts->n_visible &&
			  bino__path_below(mounts->visible[end]->target, dir);
	     end++)
		;
	*ret = mounts->visible + first;
	return end - first;
}

const struct bino_mount *bino__mounts_holding(const struct bino_mounts *mounts,
					      const char *path)
{
	const struct bino_mount *mount;
	size_t len = strlen(path);

	if (path[0] != '/')
		return NULL;
	/* The path itself, then each ancestor up to the root ("" here). */
	for (;;) {
		if (path[len] == '/' || path[len] == '\0') {
			mount = visible_at(mounts, path, len);
			if (mount)
				return mount;
		}
		if (len == 0)
			return NULL;
		len--;
	}
}

BINO_PUBLIC uint64_t bino_mount_id(const struct bino_mount *mount)
{
	if (!mount)
		return 0;
	return mount->id;
}

BINO_PUBLIC uint64_t bino_mount_parent_id(const struct bino_mount *mount)
{
	if (!mount)
		return 0;
	return mount->parent_id;
}

BINO_PUBLIC uint64_t bino_mount_dev(const struct bino_mount *mount)
{
	if (!mount)
		return 0;
	return mount->dev;
}

BINO_PUBLIC const char *bino_mount_root(const struct bino_mount *mount)
{
	if (!mount)
		return NULL;
	return mount->root;
}

BINO_PUBLIC const char *bino_mount_target(const struct bino_mount *mount)
{
	if (!mount)
		return NULL;
	return mount->target;
}

BINO_PUBLIC const char *bino_mount_fstype(const struct bino_mount *mount)
{
	if (!mount)
		return NULL;
	return mount->fstype;
}

BINO_PUBLIC const char *bino_mount_source(const struct bino_mount *mount)
{
	if (!mount)
		return NULL;
	return mount->source;
}

BINO_PUBLIC const char *bino_mount_options(const struct bino_mount *mount)
{
	if (!mount)
		return NULL;
	return mount->options;
}

BINO_PUBLIC uint64_t bino_mount_subvolid(const struct bino_mount *mount)
{
	if (!mount)
		return 0;
	return mount->subvolid;
}

bool bino__mounts_from_file(const struct bino_mounts *mounts)
{
	return mounts->from_file;
}

enum bino_fs_kind bino__mount_fs_kind(const struct bino_mount *mount)
{
	return mount->kind;
}

bool bino__mount_has_file_mountpoints(const struct bino_mount *mount)
{
	return mount->has_file_mountpoints;
}

/* Whether option @opt (@len bytes) is dropped or already in @out. */
static bool option_dropped(const char *opt, size_t len, const char *out)
{
	const char *p = out;

	if ((len == 8 && strncmp(opt, "seclabel", 8) == 0) ||
	    (len >= 7 && strncmp(opt, "subvol=", 7) == 0) ||
	    (len >= 9 && strncmp(opt, "subvolid=", 9) == 0) ||
	    (len == 6 && strncmp(opt, "subvol", 6) == 0) ||
	    (len == 8 && strncmp(opt, "subvolid", 8) == 0) || len == 0)
		return true;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && strncmp(p, opt, len) == 0)
			return true;
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

char *bino__mount_options_for_subvol(const struct bino_mount *mount)
{
	const char *in = bino_mount_options(mount);
	size_t out_len = 0;
	char *out = malloc(strlen(in) + sizeof("defaults"));

	if (!out)
		return NULL;
	out[0] = '\0';
	while (*in) {
		size_t n = strcspn(in, ",");

		if (!option_dropped(in, n, out)) {
			if (out_len)
				out[out_len++] = ',';
			memcpy(out + out_len, in, n);
			out_len += n;
			out[out_len] = '\0';
		}
		in += n;
		if (*in == ',')
			in++;
	}
	if (!out_len)
		strcpy(out, "defaults");
	return out;
}
