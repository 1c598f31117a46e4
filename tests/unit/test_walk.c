/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The walker's public contract, checked against trees each test builds itself. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "btrfsino.h"

/* ---- the temporary tree ------------------------------------------------ */

static char root[64];

/* Remove @name below @dirfd and everything in it, without path lengths. */
static void remove_tree_at(int parent, const char *name)
{
	struct dirent *dent;
	DIR *dir;
	int fd;

	if (unlinkat(parent, name, 0) == 0 || errno != EISDIR)
		return;
	fchmodat(parent, name, 0700, 0);
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((dent = readdir(dir))) {
		if (strcmp(dent->d_name, ".") != 0 &&
		    strcmp(dent->d_name, "..") != 0)
			remove_tree_at(dirfd(dir), dent->d_name);
	}
	closedir(dir);
	unlinkat(parent, name, AT_REMOVEDIR);
}

static void setup(void)
{
	strcpy(root, "/tmp/bino-walk-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
}

static void teardown(void)
{
	struct rlimit limit;

	/* Tests may have lowered it; removal needs a descriptor per level. */
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
		limit.rlim_cur = limit.rlim_max;
		setrlimit(RLIMIT_NOFILE, &limit);
	}
	if (root[0])
		remove_tree_at(AT_FDCWD, root);
}

TestSuite(walk_create, .init = setup, .fini = teardown);
TestSuite(walk_pre_order, .init = setup, .fini = teardown);
TestSuite(walk_post_order, .init = setup, .fini = teardown);
TestSuite(walk_prune, .init = setup, .fini = teardown);
TestSuite(walk_max_depth, .init = setup, .fini = teardown);
TestSuite(walk_symlinks, .init = setup, .fini = teardown);
TestSuite(walk_errors, .init = setup, .fini = teardown);
TestSuite(walk_fds, .init = setup, .fini = teardown);
TestSuite(walk_stat, .init = setup, .fini = teardown);

/* @rel below the tree's root, in a buffer of PATH_MAX bytes. */
static char *under(char *buf, const char *rel)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", root, rel);

	cr_assert(n > 0 && n < PATH_MAX);
	return buf;
}

static void make_dir(const char *rel)
{
	char path[PATH_MAX];

	cr_assert_eq(mkdir(under(path, rel), 0755), 0, "mkdir %s: %s", rel,
		     strerror(errno));
}

static void make_file(const char *rel)
{
	char path[PATH_MAX];
	int fd = open(under(path, rel), O_WRONLY | O_CREAT | O_EXCL, 0644);

	cr_assert(fd >= 0, "create %s: %s", rel, strerror(errno));
	cr_assert_eq(write(fd, "hello", 5), 5);
	close(fd);
}

static void make_symlink(const char *target, const char *rel)
{
	char path[PATH_MAX];

	cr_assert_eq(symlink(target, under(path, rel)), 0, "symlink %s: %s",
		     rel, strerror(errno));
}

static void make_fifo(const char *rel)
{
	char path[PATH_MAX];

	cr_assert_eq(mkfifo(under(path, rel), 0644), 0);
}

static void make_socket(const char *rel)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	char path[PATH_MAX];

	cr_assert(fd >= 0);
	under(path, rel);
	cr_assert(strlen(path) < sizeof(addr.sun_path));
	strcpy(addr.sun_path, path);
	cr_assert_eq(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	close(fd);
}

static struct stat lstat_of(const char *path)
{
	struct stat st;

	cr_assert_eq(lstat(path, &st), 0, "lstat %s: %s", path,
		     strerror(errno));
	return st;
}

/* ---- recording a walk -------------------------------------------------- */

/* What one bino_walk_next() returned, copied out of the walk. */
struct seen {
	char *path;
	int depth;
	enum bino_event event;
	enum bino_visit visit;
	enum bino_type type;
	int flags;
	struct bino_key key;
	enum bino_error error;
	int error_errno;
	char *loop_ancestor;
	char *fstype;
};

struct walk_log {
	struct seen *v;
	size_t n;
};

static void log_entry(struct walk_log *log, struct bino_entry *entry)
{
	const struct bino_mount *mount = bino_entry_mount(entry);
	const char *ancestor = bino_entry_loop_ancestor(entry);
	struct seen *s;

	log->v = realloc(log->v, (log->n + 1) * sizeof(*log->v));
	cr_assert_not_null(log->v);
	s = &log->v[log->n++];
	s->path = strdup(bino_entry_path(entry));
	cr_assert_eq(strlen(s->path), bino_entry_path_length(entry));
	s->depth = bino_entry_depth(entry);
	s->event = bino_entry_event(entry);
	s->visit = bino_entry_visit(entry);
	s->type = bino_entry_type(entry);
	s->flags = bino_entry_flags(entry);
	s->key = bino_entry_key(entry);
	s->error = bino_entry_error(entry);
	s->error_errno = bino_entry_errno(entry);
	s->loop_ancestor = ancestor ? strdup(ancestor) : NULL;
	s->fstype = mount ? strdup(bino_mount_fstype(mount)) : NULL;
}

static void log_free(struct walk_log *log)
{
	size_t i;

	for (i = 0; i < log->n; i++) {
		free(log->v[i].path);
		free(log->v[i].loop_ancestor);
		free(log->v[i].fstype);
	}
	free(log->v);
	log->v = NULL;
	log->n = 0;
}

/* Walk @paths to the end, recording every entry. */
static void collect(const char *const *paths, size_t n_paths, int flags,
		    int max_depth, struct walk_log *log)
{
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;
	enum bino_error err;

	cr_assert_eq(bino_walk_create(paths, n_paths, flags, &walk), BINO_OK);
	if (max_depth >= 0)
		cr_assert_eq(bino_walk_set_max_depth(walk, max_depth), BINO_OK);
	while ((err = bino_walk_next(walk, &entry)) == BINO_OK)
		log_entry(log, entry);
	cr_assert_eq(err, BINO_ERROR_STOP_ITERATION, "walk ended with %s",
		     bino_strerror(err));
	bino_walk_destroy(walk);
}

static void collect_root(int flags, int max_depth, struct walk_log *log)
{
	const char *paths[] = { root };

	collect(paths, 1, flags, max_depth, log);
}

/* The index of the first record of @path with @visit, or -1. */
static long log_find(const struct walk_log *log, const char *path,
		     enum bino_visit visit)
{
	size_t i;

	for (i = 0; i < log->n; i++) {
		if (strcmp(log->v[i].path, path) == 0 &&
		    log->v[i].visit == visit)
			return (long)i;
	}
	return -1;
}

static size_t log_count(const struct walk_log *log, const char *path)
{
	size_t i, n = 0;

	for (i = 0; i < log->n; i++)
		n += strcmp(log->v[i].path, path) == 0;
	return n;
}

static bool has_prefix(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	return strncmp(path, dir, len) == 0 && path[len] == '/';
}

static void print_log(const struct walk_log *log)
{
	size_t i;

	for (i = 0; i < log->n; i++)
		cr_log_info("  [%zu] %s depth=%d event=%d visit=%d type=%s",
			    i, log->v[i].path, log->v[i].depth,
			    log->v[i].event, log->v[i].visit,
			    bino_type_name(log->v[i].type));
}

/*
 * The tree most tests walk:
 *   file  dir/inner  dir/sub/deep  link -> dir  empty/
 */
static void make_small_tree(void)
{
	make_file("file");
	make_dir("dir");
	make_file("dir/inner");
	make_dir("dir/sub");
	make_file("dir/sub/deep");
	make_symlink("dir", "link");
	make_dir("empty");
}

/* ---- bino_walk_create and the name tables -------------------------------- */

Test(walk_create, rejects_an_empty_list_of_paths)
{
	const char *paths[] = { root };
	struct bino_walk *walk = NULL;

	cr_assert_eq(bino_walk_create(paths, 0, 0, &walk),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_walk_create(NULL, 1, 0, &walk),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_null(walk);
}

/* As find(1) does: an empty path is no file, and the others are walked. */
Test(walk_create, reports_an_empty_path_as_an_error_entry)
{
	const char *paths[] = { "", root };
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;

	cr_assert_eq(bino_walk_create(paths, 2, 0, &walk), BINO_OK);
	cr_assert_eq(bino_walk_next(walk, &entry), BINO_OK);
	cr_assert_eq(bino_entry_event(entry), BINO_EVENT_ERROR);
	cr_assert_str_eq(bino_entry_path(entry), "");
	cr_assert_eq(bino_entry_errno(entry), ENOENT);
	cr_assert_eq(bino_walk_next(walk, &entry), BINO_OK);
	cr_assert_str_eq(bino_entry_path(entry), root);
	bino_walk_destroy(walk);
}

Test(walk_create, rejects_unknown_flag_bits)
{
	const char *paths[] = { root };
	struct bino_walk *walk = NULL;

	cr_assert_eq(bino_walk_create(paths, 1, 1 << 9, &walk),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_walk_create(paths, 1, 1 << 30, &walk),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_walk_create(paths, 1, -1, &walk),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_null(walk);
}

Test(walk_create, accepts_every_documented_flag)
{
	const char *paths[] = { root };
	struct bino_walk *walk = NULL;
	int all = BINO_WALK_POST_ORDER | BINO_WALK_XDEV |
		  BINO_WALK_SAME_SUBVOL | BINO_WALK_FOLLOW_ARGS |
		  BINO_WALK_FOLLOW_ALL | BINO_WALK_STAT_ALL |
		  BINO_WALK_NO_STATX_SUBVOL | BINO_WALK_NO_SUBVOL_IOCTL;

	cr_assert_eq(bino_walk_create(paths, 1, all, &walk), BINO_OK);
	cr_assert_not_null(walk);
	bino_walk_destroy(walk);
}

Test(walk_create, destroy_accepts_null)
{
	bino_walk_destroy(NULL);
}

Test(walk_create, strerror_names_every_error_value)
{
	enum bino_error err;

	for (err = BINO_OK; err <= BINO_ERROR_UMOUNT_FAILED; err++) {
		const char *msg = bino_strerror(err);

		cr_assert_not_null(msg, "value %d", err);
		cr_assert_str_neq(msg, "Unknown error", "value %d", err);
	}
}

Test(walk_create, strerror_of_an_unknown_value_is_unknown_error)
{
	cr_assert_str_eq(bino_strerror((enum bino_error)(BINO_ERROR_SUBVOL_DELETED + 1)),
			 "Unknown error");
	cr_assert_str_eq(bino_strerror((enum bino_error)1000), "Unknown error");
	cr_assert_str_eq(bino_strerror((enum bino_error)-1), "Unknown error");
}

Test(walk_create, type_names_are_the_documented_words)
{
	cr_assert_str_eq(bino_type_name(BINO_TYPE_UNKNOWN), "unknown");
	cr_assert_str_eq(bino_type_name(BINO_TYPE_FILE), "file");
	cr_assert_str_eq(bino_type_name(BINO_TYPE_DIR), "dir");
	cr_assert_str_eq(bino_type_name(BINO_TYPE_SYMLINK), "symlink");
	cr_assert_str_eq(bino_type_name(BINO_TYPE_BLOCK), "block");
	cr_assert_str_eq(bino_type_name(BINO_TYPE_CHAR), "char");
	cr_assert_str_eq(bino_type_name(BINO_TYPE_FIFO), "fifo");
	cr_assert_str_eq(bino_type_name(BINO_TYPE_SOCKET), "socket");
	cr_assert_str_eq(bino_type_name((enum bino_type)99), "unknown");
}

Test(walk_create, source_names_are_the_documented_words)
{
	cr_assert_str_eq(bino_source_name(BINO_SOURCE_NONE), "none");
	cr_assert_str_eq(bino_source_name(BINO_SOURCE_STATX), "statx");
	cr_assert_str_eq(bino_source_name(BINO_SOURCE_IOCTL), "ioctl");
	cr_assert_str_eq(bino_source_name(BINO_SOURCE_FILE_HANDLE),
			 "file_handle");
	cr_assert_str_eq(bino_source_name(BINO_SOURCE_NFS_HANDLE),
			 "nfs_handle");
	cr_assert_str_eq(bino_source_name(BINO_SOURCE_UNKNOWN), "unknown");
	cr_assert_str_eq(bino_source_name((enum bino_source)99), "unknown");
}

/* ---- pre-order --------------------------------------------------------- */

Test(walk_pre_order, lists_exactly_the_tree_built_with_depths_and_types)
{
	static const struct {
		const char *rel;
		int depth;
		enum bino_type type;
	} want[] = {
		{ "", 0, BINO_TYPE_DIR },
		{ "file", 1, BINO_TYPE_FILE },
		{ "dir", 1, BINO_TYPE_DIR },
		{ "dir/inner", 2, BINO_TYPE_FILE },
		{ "dir/sub", 2, BINO_TYPE_DIR },
		{ "dir/sub/deep", 3, BINO_TYPE_FILE },
		{ "link", 1, BINO_TYPE_SYMLINK },
		{ "empty", 1, BINO_TYPE_DIR },
		{ "fifo", 1, BINO_TYPE_FIFO },
		{ "sock", 1, BINO_TYPE_SOCKET },
	};
	const size_t n_want = sizeof(want) / sizeof(*want);
	struct walk_log log = { 0 };
	size_t i;

	make_small_tree();
	make_fifo("fifo");
	make_socket("sock");
	collect_root(0, -1, &log);
	print_log(&log);

	cr_assert_eq(log.n, n_want, "entries: got %zu, want %zu", log.n,
		     n_want);
	for (i = 0; i < n_want; i++) {
		char path[PATH_MAX];
		long at;

		if (want[i].rel[0])
			under(path, want[i].rel);
		else
			strcpy(path, root);
		at = log_find(&log, path, BINO_VISIT_PRE);
		cr_assert(at >= 0, "%s not listed", path);
		cr_assert_eq(log_count(&log, path), 1, "%s listed twice", path);
		cr_assert_eq(log.v[at].event, BINO_EVENT_ENTRY, "%s", path);
		cr_assert_eq(log.v[at].depth, want[i].depth, "%s depth", path);
		cr_assert_eq(log.v[at].type, want[i].type, "%s: got %s want %s",
			     path, bino_type_name(log.v[at].type),
			     bino_type_name(want[i].type));
	}
	log_free(&log);
}

Test(walk_pre_order, lists_each_directory_before_its_contents)
{
	struct walk_log log = { 0 };
	size_t i;

	make_small_tree();
	collect_root(0, -1, &log);

	for (i = 1; i < log.n; i++) {
		char *parent = strdup(log.v[i].path);
		long at;

		*strrchr(parent, '/') = '\0';
		at = log_find(&log, parent, BINO_VISIT_PRE);
		cr_assert(at >= 0 && (size_t)at < i,
			  "%s (at %zu) before its directory %s (at %ld)",
			  log.v[i].path, i, parent, at);
		free(parent);
	}
	log_free(&log);
}

Test(walk_pre_order, marks_only_the_start_path_as_start)
{
	struct walk_log log = { 0 };
	size_t i;

	make_small_tree();
	collect_root(0, -1, &log);

	cr_assert_str_eq(log.v[0].path, root);
	cr_assert(log.v[0].flags & BINO_ENTRY_START);
	for (i = 1; i < log.n; i++)
		cr_assert_not(log.v[i].flags & BINO_ENTRY_START, "%s",
			      log.v[i].path);
	log_free(&log);
}

Test(walk_pre_order, key_inode_and_device_are_those_lstat_reports)
{
	struct walk_log log = { 0 };
	size_t i;

	make_small_tree();
	make_fifo("fifo");
	collect_root(0, -1, &log);

	cr_assert_gt(log.n, 0);
	for (i = 0; i < log.n; i++) {
		struct stat st = lstat_of(log.v[i].path);

		cr_assert_eq(log.v[i].key.ino, (uint64_t)st.st_ino,
			     "%s: ino %lu, lstat %lu", log.v[i].path,
			     (unsigned long)log.v[i].key.ino,
			     (unsigned long)st.st_ino);
		cr_assert_eq(log.v[i].key.dev, (uint64_t)st.st_dev, "%s",
			     log.v[i].path);
	}
	log_free(&log);
}

/* The fstype mountinfo gives the mount with @mnt_id, parsed here by hand. */
static char *fstype_of_mount(uint64_t mnt_id)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	char *found = NULL;

	cr_assert_not_null(f);
	while (!found && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");
		char *end;

		if (strtoull(line, NULL, 10) != mnt_id || !sep)
			continue;
		sep += 3;
		end = strchr(sep, ' ');
		cr_assert_not_null(end);
		found = strndup(sep, (size_t)(end - sep));
	}
	fclose(f);
	cr_assert_not_null(found, "mount %lu not in mountinfo",
			   (unsigned long)mnt_id);
	return found;
}

Test(walk_pre_order, subvolid_is_zero_and_mount_is_the_tree_s_own_off_btrfs)
{
	struct walk_log log = { 0 };
	struct statx stx;
	char *fstype;
	size_t i;

	cr_assert_eq(statx(AT_FDCWD, root, 0, STATX_MNT_ID, &stx), 0);
	cr_assert(stx.stx_mask & STATX_MNT_ID, "kernel without STATX_MNT_ID");
	fstype = fstype_of_mount(stx.stx_mnt_id);
	if (strcmp(fstype, "btrfs") == 0) {
		free(fstype);
		cr_skip_test("/tmp is btrfs: subvolume ids are not 0 there");
	}
	make_small_tree();
	collect_root(0, -1, &log);

	for (i = 0; i < log.n; i++) {
		cr_assert_eq(log.v[i].key.subvolid, 0, "%s", log.v[i].path);
		cr_assert_not_null(log.v[i].fstype, "%s has no mount",
				   log.v[i].path);
		cr_assert_str_eq(log.v[i].fstype, fstype, "%s", log.v[i].path);
	}
	free(fstype);
	log_free(&log);
}

Test(walk_pre_order, hard_links_get_equal_keys_and_other_files_do_not)
{
	struct walk_log log = { 0 };
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
	long ia, ib, ic;

	make_dir("d1");
	make_dir("d2");
	make_file("d1/a");
	make_file("d2/c");
	cr_assert_eq(link(under(a, "d1/a"), under(b, "d2/b")), 0);
	under(c, "d2/c");
	collect_root(0, -1, &log);

	ia = log_find(&log, a, BINO_VISIT_PRE);
	ib = log_find(&log, b, BINO_VISIT_PRE);
	ic = log_find(&log, c, BINO_VISIT_PRE);
	cr_assert(ia >= 0 && ib >= 0 && ic >= 0);
	cr_assert(bino_key_equal(&log.v[ia].key, &log.v[ib].key));
	cr_assert_not(bino_key_equal(&log.v[ia].key, &log.v[ic].key));
	log_free(&log);
}

Test(walk_pre_order, start_paths_are_walked_one_after_another_in_order)
{
	struct walk_log log = { 0 };
	char one[PATH_MAX], two[PATH_MAX], f1[PATH_MAX], f2[PATH_MAX];
	const char *paths[] = { under(two, "two"), under(one, "one") };

	make_dir("one");
	make_dir("two");
	make_file("one/f1");
	make_file("two/f2");
	under(f1, "one/f1");
	under(f2, "two/f2");
	collect(paths, 2, 0, -1, &log);

	cr_assert_eq(log.n, 4);
	cr_assert_str_eq(log.v[0].path, two);
	cr_assert_str_eq(log.v[1].path, f2);
	cr_assert_str_eq(log.v[2].path, one);
	cr_assert_eq(log.v[2].depth, 0);
	cr_assert_str_eq(log.v[3].path, f1);
	log_free(&log);
}

/* ---- post-order -------------------------------------------------------- */

static void make_post_order_tree(void)
{
	make_small_tree();
	make_dir("dir/sub/more");
	make_file("dir/sub/more/x");
	make_dir("dir/sub/more/empty");
}

Test(walk_post_order, visits_every_directory_twice_and_the_rest_once)
{
	struct walk_log log = { 0 };
	size_t i;

	make_post_order_tree();
	collect_root(BINO_WALK_POST_ORDER, -1, &log);

	for (i = 0; i < log.n; i++) {
		const struct seen *s = &log.v[i];

		if (s->type == BINO_TYPE_DIR) {
			cr_assert_eq(log_count(&log, s->path), 2, "%s",
				     s->path);
			cr_assert(log_find(&log, s->path, BINO_VISIT_PRE) >= 0);
			cr_assert(log_find(&log, s->path, BINO_VISIT_POST) >= 0);
		} else {
			cr_assert_eq(log_count(&log, s->path), 1, "%s",
				     s->path);
			cr_assert_eq(s->visit, BINO_VISIT_PRE, "%s", s->path);
		}
	}
	log_free(&log);
}

Test(walk_post_order, post_visit_comes_after_all_descendants)
{
	struct walk_log log = { 0 };
	size_t i, j;

	make_post_order_tree();
	collect_root(BINO_WALK_POST_ORDER, -1, &log);

	for (i = 0; i < log.n; i++) {
		long pre;

		if (log.v[i].visit != BINO_VISIT_POST)
			continue;
		pre = log_find(&log, log.v[i].path, BINO_VISIT_PRE);
		cr_assert(pre >= 0 && (size_t)pre < i, "%s", log.v[i].path);
		for (j = 0; j < log.n; j++) {
			if (!has_prefix(log.v[j].path, log.v[i].path))
				continue;
			cr_assert(j > (size_t)pre && j < i,
				  "%s at %zu is outside %s's visits %ld..%zu",
				  log.v[j].path, j, log.v[i].path, pre, i);
		}
	}
	log_free(&log);
}

Test(walk_post_order, post_visit_has_the_pre_visit_s_identity)
{
	struct walk_log log = { 0 };
	size_t i;

	make_post_order_tree();
	collect_root(BINO_WALK_POST_ORDER, -1, &log);

	for (i = 0; i < log.n; i++) {
		long pre;

		if (log.v[i].visit != BINO_VISIT_POST)
			continue;
		pre = log_find(&log, log.v[i].path, BINO_VISIT_PRE);
		cr_assert(bino_key_equal(&log.v[i].key, &log.v[pre].key),
			  "%s", log.v[i].path);
		cr_assert_eq(log.v[i].depth, log.v[pre].depth);
		cr_assert_eq(log.v[i].type, BINO_TYPE_DIR);
	}
	log_free(&log);
}

/* Lines of `find ROOT ARGS`; names here hold no newline. */
static char **find_lines(const char *args, size_t *n)
{
	char command[PATH_MAX + 64];
	char line[PATH_MAX];
	char **lines = NULL;
	FILE *f;

	snprintf(command, sizeof(command), "find '%s' %s", root, args);
	f = popen(command, "r");
	cr_assert_not_null(f);
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		lines = realloc(lines, (*n + 1) * sizeof(*lines));
		lines[(*n)++] = strdup(line);
	}
	cr_assert_eq(pclose(f), 0, "%s failed", command);
	return lines;
}

static void free_lines(char **lines, size_t n)
{
	while (n-- > 0)
		free(lines[n]);
	free(lines);
}

Test(walk_post_order, files_then_directories_in_find_depth_order)
{
	struct walk_log log = { 0 };
	size_t n_find, i, k = 0;
	char **want;

	make_post_order_tree();
	want = find_lines("-depth", &n_find);
	collect_root(BINO_WALK_POST_ORDER, -1, &log);

	/* What find -depth prints: non-directories, and directories post. */
	for (i = 0; i < log.n; i++) {
		bool is_dir = log.v[i].type == BINO_TYPE_DIR;

		if (is_dir != (log.v[i].visit == BINO_VISIT_POST))
			continue;
		cr_assert(k < n_find, "extra entry %s", log.v[i].path);
		cr_assert_str_eq(log.v[i].path, want[k],
				 "position %zu: walk %s, find -depth %s", k,
				 log.v[i].path, want[k]);
		k++;
	}
	cr_assert_eq(k, n_find, "walk printed %zu, find -depth %zu", k,
		     n_find);
	free_lines(want, n_find);
	log_free(&log);
}

/* ---- prune ------------------------------------------------------------- */

static void make_prune_tree(void)
{
	make_dir("a");
	make_file("a/x");
	make_dir("a/y");
	make_file("a/y/z");
	make_dir("b");
	make_file("b/w");
}

/* Walk the root, pruning @prune_rel at its PRE visit. */
static void collect_pruning(const char *prune_rel, int flags,
			    struct walk_log *log)
{
	const char *paths[] = { root };
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;
	char prune[PATH_MAX];
	enum bino_error err;

	under(prune, prune_rel);
	cr_assert_eq(bino_walk_create(paths, 1, flags, &walk), BINO_OK);
	while ((err = bino_walk_next(walk, &entry)) == BINO_OK) {
		log_entry(log, entry);
		if (strcmp(bino_entry_path(entry), prune) == 0 &&
		    bino_entry_visit(entry) == BINO_VISIT_PRE)
			bino_walk_prune(walk);
	}
	cr_assert_eq(err, BINO_ERROR_STOP_ITERATION);
	bino_walk_destroy(walk);
}

Test(walk_prune, after_a_pre_visit_skips_the_directory_s_contents)
{
	struct walk_log log = { 0 };
	char a[PATH_MAX], w[PATH_MAX];
	size_t i;

	make_prune_tree();
	collect_pruning("a", 0, &log);

	under(a, "a");
	cr_assert_eq(log_count(&log, a), 1);
	for (i = 0; i < log.n; i++)
		cr_assert_not(has_prefix(log.v[i].path, a), "%s listed",
			      log.v[i].path);
	cr_assert(log_find(&log, under(w, "b/w"), BINO_VISIT_PRE) >= 0,
		  "the sibling's contents are still walked");
	cr_assert_eq(log.n, 4, "root, a, b, b/w; got %zu", log.n);
	log_free(&log);
}

Test(walk_prune, in_post_order_skips_contents_but_keeps_the_post_visit)
{
	struct walk_log log = { 0 };
	char a[PATH_MAX];
	long pre, post;
	size_t i;

	make_prune_tree();
	collect_pruning("a", BINO_WALK_POST_ORDER, &log);

	under(a, "a");
	for (i = 0; i < log.n; i++)
		cr_assert_not(has_prefix(log.v[i].path, a), "%s listed",
			      log.v[i].path);
	pre = log_find(&log, a, BINO_VISIT_PRE);
	post = log_find(&log, a, BINO_VISIT_POST);
	cr_assert(pre >= 0 && post == pre + 1, "pre %ld post %ld", pre, post);
	log_free(&log);
}

/* ---- maximum depth ----------------------------------------------------- */

Test(walk_max_depth, zero_lists_only_the_start_path_marked_pruned)
{
	struct walk_log log = { 0 };

	make_small_tree();
	collect_root(0, 0, &log);

	cr_assert_eq(log.n, 1);
	cr_assert_str_eq(log.v[0].path, root);
	cr_assert_eq(log.v[0].depth, 0);
	cr_assert_eq(log.v[0].type, BINO_TYPE_DIR);
	cr_assert(log.v[0].flags & BINO_ENTRY_PRUNED);
	log_free(&log);
}

Test(walk_max_depth, one_lists_the_start_and_its_children_only)
{
	static const char *const want[] = { "file", "dir", "link", "empty" };
	struct walk_log log = { 0 };
	size_t i;

	make_small_tree();
	collect_root(0, 1, &log);
	print_log(&log);

	cr_assert_eq(log.n, 5);
	cr_assert_str_eq(log.v[0].path, root);
	cr_assert_not(log.v[0].flags & BINO_ENTRY_PRUNED);
	for (i = 0; i < sizeof(want) / sizeof(*want); i++) {
		char path[PATH_MAX];
		long at = log_find(&log, under(path, want[i]), BINO_VISIT_PRE);

		cr_assert(at >= 0, "%s missing", path);
		cr_assert_eq(log.v[at].depth, 1);
		cr_assert_eq(!!(log.v[at].flags & BINO_ENTRY_PRUNED),
			     log.v[at].type == BINO_TYPE_DIR,
			     "%s: only directories are pruned", path);
	}
	log_free(&log);
}

Test(walk_max_depth, is_refused_once_the_walk_has_begun)
{
	const char *paths[] = { root };
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;
	int deepest = 0;

	make_small_tree();
	cr_assert_eq(bino_walk_create(paths, 1, 0, &walk), BINO_OK);
	cr_assert_eq(bino_walk_next(walk, &entry), BINO_OK);
	cr_assert_eq(bino_walk_set_max_depth(walk, 0),
		     BINO_ERROR_INVALID_ARGUMENT);
	while (bino_walk_next(walk, &entry) == BINO_OK) {
		if (bino_entry_depth(entry) > deepest)
			deepest = bino_entry_depth(entry);
	}
	cr_assert_eq(deepest, 3, "the refused limit must not apply");
	bino_walk_destroy(walk);
}

/* ---- symbolic links ---------------------------------------------------- */

Test(walk_symlinks, follow_all_reports_a_link_to_an_ancestor_as_a_loop)
{
	struct walk_log log = { 0 };
	char up[PATH_MAX], a[PATH_MAX];
	long at, at_a;
	size_t i;

	make_dir("a");
	make_file("a/file");
	make_dir("a/b");
	make_symlink("../../a", "a/b/up");
	collect_root(BINO_WALK_FOLLOW_ALL, -1, &log);
	print_log(&log);

	under(up, "a/b/up");
	under(a, "a");
	at = log_find(&log, up, BINO_VISIT_PRE);
	at_a = log_find(&log, a, BINO_VISIT_PRE);
	cr_assert(at >= 0 && at_a >= 0);
	cr_assert_eq(log.v[at].event, BINO_EVENT_LOOP);
	cr_assert_not_null(log.v[at].loop_ancestor);
	cr_assert_str_eq(log.v[at].loop_ancestor, a);
	cr_assert(bino_key_equal(&log.v[at].key, &log.v[at_a].key));
	for (i = 0; i < log.n; i++)
		cr_assert_not(has_prefix(log.v[i].path, up),
			      "descended into the loop: %s", log.v[i].path);
	log_free(&log);
}

Test(walk_symlinks, follow_all_reports_a_link_to_the_start_path_as_a_loop)
{
	struct walk_log log = { 0 };
	char top[PATH_MAX];
	long at;

	make_dir("a");
	make_symlink("..", "a/top");
	collect_root(BINO_WALK_FOLLOW_ALL, -1, &log);

	at = log_find(&log, under(top, "a/top"), BINO_VISIT_PRE);
	cr_assert(at >= 0);
	cr_assert_eq(log.v[at].event, BINO_EVENT_LOOP);
	cr_assert_str_eq(log.v[at].loop_ancestor, root);
	cr_assert_eq(log.n, 3, "root, a, a/top; got %zu", log.n);
	log_free(&log);
}

Test(walk_symlinks, without_follow_a_link_to_a_directory_is_a_symlink_entry)
{
	struct walk_log log = { 0 };
	char up[PATH_MAX];
	long at;
	size_t i;

	make_dir("a");
	make_dir("a/b");
	make_symlink("../../a", "a/b/up");
	collect_root(0, -1, &log);

	at = log_find(&log, under(up, "a/b/up"), BINO_VISIT_PRE);
	cr_assert(at >= 0);
	cr_assert_eq(log.v[at].event, BINO_EVENT_ENTRY);
	cr_assert_eq(log.v[at].type, BINO_TYPE_SYMLINK);
	cr_assert_null(log.v[at].loop_ancestor);
	cr_assert_eq(log.v[at].key.ino, (uint64_t)lstat_of(up).st_ino);
	for (i = 0; i < log.n; i++)
		cr_assert_not(has_prefix(log.v[i].path, up), "%s",
			      log.v[i].path);
	log_free(&log);
}

/* start -> real; real holds f and inner -> ../other; other holds g. */
static void make_link_chain(char *start)
{
	make_dir("real");
	make_file("real/f");
	make_dir("other");
	make_file("other/g");
	make_symlink("../other", "real/inner");
	make_symlink("real", "start");
	under(start, "start");
}

Test(walk_symlinks, follow_args_follows_only_a_start_path_symlink)
{
	struct walk_log log = { 0 };
	char start[PATH_MAX], f[PATH_MAX + 8], inner[PATH_MAX + 8];
	char real[PATH_MAX];
	const char *paths[] = { start };
	struct stat st;

	make_link_chain(start);
	collect(paths, 1, BINO_WALK_FOLLOW_ARGS, -1, &log);
	print_log(&log);

	cr_assert_eq(stat(under(real, "real"), &st), 0);
	cr_assert_eq(log.n, 3);
	cr_assert_str_eq(log.v[0].path, start);
	cr_assert_eq(log.v[0].type, BINO_TYPE_DIR);
	cr_assert_eq(log.v[0].key.ino, (uint64_t)st.st_ino);
	snprintf(f, sizeof(f), "%s/f", start);
	snprintf(inner, sizeof(inner), "%s/inner", start);
	cr_assert(log_find(&log, f, BINO_VISIT_PRE) > 0);
	cr_assert(log_find(&log, inner, BINO_VISIT_PRE) > 0);
	cr_assert_eq(log.v[log_find(&log, inner, BINO_VISIT_PRE)].type,
		     BINO_TYPE_SYMLINK);
	log_free(&log);
}

Test(walk_symlinks, start_path_symlink_is_a_symlink_entry_without_follow)
{
	struct walk_log log = { 0 };
	char start[PATH_MAX];
	const char *paths[] = { start };

	make_link_chain(start);
	collect(paths, 1, 0, -1, &log);

	cr_assert_eq(log.n, 1);
	cr_assert_str_eq(log.v[0].path, start);
	cr_assert_eq(log.v[0].type, BINO_TYPE_SYMLINK);
	cr_assert_eq(log.v[0].key.ino, (uint64_t)lstat_of(start).st_ino);
	log_free(&log);
}

Test(walk_symlinks, follow_all_follows_links_below_the_start_path_too)
{
	struct walk_log log = { 0 };
	char start[PATH_MAX], g[PATH_MAX + 16], other_g[PATH_MAX];
	const char *paths[] = { start };
	long at;

	make_link_chain(start);
	collect(paths, 1, BINO_WALK_FOLLOW_ALL, -1, &log);

	snprintf(g, sizeof(g), "%s/inner/g", start);
	at = log_find(&log, g, BINO_VISIT_PRE);
	cr_assert(at >= 0, "%s not listed", g);
	cr_assert_eq(log.v[at].type, BINO_TYPE_FILE);
	cr_assert_eq(log.v[at].key.ino,
		     (uint64_t)lstat_of(under(other_g, "other/g")).st_ino);
	cr_assert_eq(log.n, 4, "start, f, inner, inner/g; got %zu", log.n);
	log_free(&log);
}

Test(walk_symlinks, follow_all_keeps_a_dangling_symlink_as_a_symlink_entry)
{
	struct walk_log log = { 0 };
	char dangling[PATH_MAX];
	long at;

	make_symlink("nowhere", "dangling");
	collect_root(BINO_WALK_FOLLOW_ALL, -1, &log);

	at = log_find(&log, under(dangling, "dangling"), BINO_VISIT_PRE);
	cr_assert(at >= 0);
	cr_assert_eq(log.v[at].event, BINO_EVENT_ENTRY);
	cr_assert_eq(log.v[at].type, BINO_TYPE_SYMLINK);
	cr_assert_eq(log.v[at].key.ino, (uint64_t)lstat_of(dangling).st_ino);
	cr_assert_eq(log.n, 2);
	log_free(&log);
}

/* ---- error entries ----------------------------------------------------- */

Test(walk_errors, missing_start_path_is_an_enoent_entry_and_the_walk_goes_on)
{
	struct walk_log log = { 0 };
	char missing[PATH_MAX], good[PATH_MAX], f[PATH_MAX];
	const char *paths[] = { under(missing, "missing"), under(good, "good") };

	make_dir("good");
	make_file("good/f");
	collect(paths, 2, 0, -1, &log);

	cr_assert_eq(log.n, 3);
	cr_assert_str_eq(log.v[0].path, missing);
	cr_assert_eq(log.v[0].depth, 0);
	cr_assert_eq(log.v[0].event, BINO_EVENT_ERROR);
	cr_assert_eq(log.v[0].error, BINO_ERROR_STAT_FAILED, "got %s",
		     bino_strerror(log.v[0].error));
	cr_assert_eq(log.v[0].error_errno, ENOENT, "got %s",
		     strerror(log.v[0].error_errno));
	cr_assert_str_eq(log.v[1].path, good);
	cr_assert_eq(log.v[1].event, BINO_EVENT_ENTRY);
	cr_assert_str_eq(log.v[2].path, under(f, "good/f"));
	log_free(&log);
}

/*
 * Run as nobody, keeping root as the saved user ID so the test can take its
 * privileges back (capabilities leave the effective set on the switch).
 */
static bool drop_privileges(void)
{
	if (geteuid() != 0)
		return false;
	cr_assert_eq(setresgid(65534, 65534, 0), 0);
	cr_assert_eq(setresuid(65534, 65534, 0), 0);
	return true;
}

static void regain_privileges(bool dropped)
{
	if (!dropped)
		return;
	cr_assert_eq(setresuid(0, 0, 0), 0);
	cr_assert_eq(setresgid(0, 0, 0), 0);
}

Test(walk_errors, unreadable_directory_is_listed_then_reported_with_eacces)
{
	struct walk_log log = { 0 };
	char locked[PATH_MAX], hidden[PATH_MAX], w[PATH_MAX];
	bool dropped;
	long at;
	size_t i;

	make_dir("locked");
	make_file("locked/hidden");
	make_dir("open");
	make_file("open/w");
	cr_assert_eq(chmod(root, 0755), 0);
	cr_assert_eq(chmod(under(locked, "locked"), 0), 0);
	under(hidden, "locked/hidden");
	dropped = drop_privileges();
	collect_root(0, -1, &log);
	regain_privileges(dropped);
	print_log(&log);

	at = log_find(&log, locked, BINO_VISIT_PRE);
	cr_assert(at >= 0 && (size_t)at + 1 < log.n);
	cr_assert_eq(log.v[at].event, BINO_EVENT_ENTRY);
	cr_assert_eq(log.v[at].type, BINO_TYPE_DIR);
	cr_assert_str_eq(log.v[at + 1].path, locked);
	cr_assert_eq(log.v[at + 1].event, BINO_EVENT_ERROR);
	cr_assert_eq(log.v[at + 1].error, BINO_ERROR_OPEN_FAILED, "got %s",
		     bino_strerror(log.v[at + 1].error));
	cr_assert_eq(log.v[at + 1].error_errno, EACCES, "got %s",
		     strerror(log.v[at + 1].error_errno));
	for (i = 0; i < log.n; i++)
		cr_assert_str_neq(log.v[i].path, hidden);
	cr_assert(log_find(&log, under(w, "open/w"), BINO_VISIT_PRE) >= 0,
		  "the walk must go on after the error");
	cr_assert_eq(log.n, 5, "root, locked, its error, open, open/w");
	log_free(&log);
}

Test(walk_errors, unreadable_directory_in_post_order_still_gets_its_post_visit)
{
	struct walk_log log = { 0 };
	char locked[PATH_MAX];
	bool dropped;
	long pre, post;

	make_dir("locked");
	cr_assert_eq(chmod(root, 0755), 0);
	cr_assert_eq(chmod(under(locked, "locked"), 0), 0);
	dropped = drop_privileges();
	collect_root(BINO_WALK_POST_ORDER, -1, &log);
	regain_privileges(dropped);

	pre = log_find(&log, locked, BINO_VISIT_PRE);
	post = log_find(&log, locked, BINO_VISIT_POST);
	cr_assert(pre >= 0 && post == pre + 2, "pre %ld post %ld", pre, post);
	cr_assert_eq(log.v[pre + 1].event, BINO_EVENT_ERROR);
	cr_assert_eq(log.v[post].event, BINO_EVENT_ENTRY);
	log_free(&log);
}

/* ---- bounded file descriptors ------------------------------------------ */

#define DEEP_LEVELS 300
#define DEEP_NAME_LEN 100
#define FD_LIMIT 16

static void deep_dir_name(char *buf, int level)
{
	memset(buf, 'n', DEEP_NAME_LEN);
	snprintf(buf, 5, "%04d", level);
	buf[4] = 'n';
	buf[DEEP_NAME_LEN] = '\0';
}

static void deep_file_name(char *buf, int level)
{
	sprintf(buf, "file-%d", level);
}

/*
 * Open descriptors below @below, listed through @fd, an fd of /proc/self/fd.
 * Those at or above the limit the test started with are a tool's own
 * (valgrind keeps its descriptors there, out of the program's reach).
 */
static int count_open_fds(int fd, long below)
{
	char buf[4096] __attribute__((aligned(8)));
	int n = 0;
	long got;

	cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
	while ((got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (off < got) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			if (d->d_name[0] != '.' &&
			    strtol(d->d_name, NULL, 10) < below)
				n++;
			off += d->d_reclen;
		}
	}
	return n;
}

Test(walk_fds, deep_tree_beyond_path_max_is_walked_within_16_descriptors)
{
	/* dirs[k]: the path of the directory at level k, built here. */
	static size_t dir_len[DEEP_LEVELS + 1];
	static bool seen_dir[DEEP_LEVELS + 1], seen_file[DEEP_LEVELS + 1];
	char *expected = malloc((size_t)(DEEP_LEVELS + 1) * (DEEP_NAME_LEN + 1) +
				sizeof(root));
	const char *paths[] = { root };
	struct rlimit limit;
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;
	enum bino_error err;
	int fd, level, max_fds = 0, n_entries = 0, fd_dir;
	long start_limit;

	/* Build it relative to an fd: the paths are too long for mkdir(2). */
	strcpy(expected, root);
	dir_len[0] = strlen(root);
	fd = open(root, O_RDONLY | O_DIRECTORY);
	cr_assert(fd >= 0);
	for (level = 0; level <= DEEP_LEVELS; level++) {
		char name[DEEP_NAME_LEN + 1];
		int file, next;

		deep_file_name(name, level);
		file = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		cr_assert(file >= 0);
		close(file);
		if (level == DEEP_LEVELS)
			break;
		deep_dir_name(name, level + 1);
		cr_assert_eq(mkdirat(fd, name, 0755), 0);
		next = openat(fd, name, O_RDONLY | O_DIRECTORY);
		cr_assert(next >= 0);
		close(fd);
		fd = next;
		dir_len[level + 1] = dir_len[level] + 1 + DEEP_NAME_LEN;
		expected[dir_len[level]] = '/';
		memcpy(expected + dir_len[level] + 1, name, DEEP_NAME_LEN + 1);
	}
	close(fd);
	cr_assert_gt(dir_len[DEEP_LEVELS], PATH_MAX);

	/* Opened first: counting must not depend on a free descriptor. */
	fd_dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
	cr_assert(fd_dir >= 0);
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &limit), 0);
	start_limit = (long)limit.rlim_cur;
	limit.rlim_cur = FD_LIMIT;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
	cr_assert_eq(bino_walk_create(paths, 1, 0, &walk), BINO_OK);
	while ((err = bino_walk_next(walk, &entry)) == BINO_OK) {
		const char *path = bino_entry_path(entry);
		size_t len = bino_entry_path_length(entry);
		int depth = bino_entry_depth(entry);
		int open_fds = count_open_fds(fd_dir, start_limit);
		char name[DEEP_NAME_LEN + 1];
		size_t parent_len;

		if (open_fds > max_fds)
			max_fds = open_fds;
		n_entries++;
		cr_assert_eq(bino_entry_event(entry), BINO_EVENT_ENTRY,
			     "depth %d: %s (%s)", depth,
			     bino_strerror(bino_entry_error(entry)),
			     strerror(bino_entry_errno(entry)));
		if (depth == 0) {
			cr_assert_str_eq(path, root);
			seen_dir[0] = true;
			continue;
		}
		cr_assert(depth <= DEEP_LEVELS + 1);
		/* A child of the level depth-1 directory: file or directory. */
		parent_len = dir_len[depth - 1];
		cr_assert_gt(len, parent_len + 1, "depth %d", depth);
		cr_assert(memcmp(path, expected, parent_len) == 0 &&
				  path[parent_len] == '/',
			  "depth %d: path does not extend its directory's",
			  depth);
		if (bino_entry_type(entry) == BINO_TYPE_DIR) {
			deep_dir_name(name, depth);
			cr_assert(depth <= DEEP_LEVELS);
			cr_assert_not(seen_dir[depth]);
			seen_dir[depth] = true;
		} else {
			deep_file_name(name, depth - 1);
			cr_assert_not(seen_file[depth - 1]);
			seen_file[depth - 1] = true;
		}
		cr_assert_str_eq(path + parent_len + 1, name, "depth %d",
				 depth);
	}
	cr_assert_eq(err, BINO_ERROR_STOP_ITERATION);
	bino_walk_destroy(walk);
	close(fd_dir);

	for (level = 0; level <= DEEP_LEVELS; level++) {
		cr_assert(seen_dir[level], "directory of level %d missing",
			  level);
		cr_assert(seen_file[level], "file of level %d missing", level);
	}
	cr_assert_eq(n_entries, 2 * (DEEP_LEVELS + 1));
	cr_assert_leq(max_fds, FD_LIMIT, "%d descriptors open", max_fds);
	free(expected);
}

/* ---- stat -------------------------------------------------------------- */

Test(walk_stat, fields_equal_what_lstat_reports)
{
	struct timespec times[2] = { { 1000000000, 123456789 },
				     { 1234567890, 987654321 } };
	const char *paths[] = { root };
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;
	char file[PATH_MAX], hard[PATH_MAX];
	int n = 0;

	make_small_tree();
	make_fifo("fifo");
	under(file, "file");
	cr_assert_eq(chown(file, 1234, 5678), 0);
	cr_assert_eq(utimensat(AT_FDCWD, file, times, 0), 0);
	cr_assert_eq(link(file, under(hard, "hard")), 0);
	cr_assert_eq(bino_walk_create(paths, 1, 0, &walk), BINO_OK);
	while (bino_walk_next(walk, &entry) == BINO_OK) {
		const char *path = bino_entry_path(entry);
		struct stat st = lstat_of(path);
		struct bino_stat got;

		cr_assert_eq(bino_entry_stat(entry, &got), BINO_OK, "%s", path);
		cr_assert_eq(got.mode, st.st_mode, "%s mode %o, lstat %o",
			     path, got.mode, st.st_mode);
		cr_assert_eq(got.nlink, st.st_nlink, "%s", path);
		cr_assert_eq(got.uid, st.st_uid, "%s", path);
		cr_assert_eq(got.gid, st.st_gid, "%s", path);
		cr_assert_eq(got.size, (uint64_t)st.st_size, "%s", path);
		cr_assert_eq(got.mtime.sec, st.st_mtim.tv_sec, "%s", path);
		cr_assert_eq(got.mtime.nsec, (uint32_t)st.st_mtim.tv_nsec,
			     "%s", path);
		n++;
	}
	bino_walk_destroy(walk);
	cr_assert_eq(n, 10);
}

Test(walk_stat, of_a_file_deleted_after_it_was_returned_fails_with_enoent)
{
	const char *paths[] = { root };
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;
	struct bino_stat st;
	char gone[PATH_MAX];

	make_file("gone");
	under(gone, "gone");
	cr_assert_eq(bino_walk_create(paths, 1, 0, &walk), BINO_OK);
	cr_assert_eq(bino_walk_next(walk, &entry), BINO_OK);
	cr_assert_str_eq(bino_entry_path(entry), root);
	cr_assert_eq(bino_walk_next(walk, &entry), BINO_OK);
	cr_assert_str_eq(bino_entry_path(entry), gone);
	cr_assert_eq(unlink(gone), 0);
	errno = 0;
	cr_assert_eq(bino_entry_stat(entry, &st), BINO_ERROR_STAT_FAILED);
	cr_assert_eq(errno, ENOENT, "errno %s", strerror(errno));
	bino_walk_destroy(walk);
}

Test(walk_fds, leave_a_descriptor_to_the_caller_under_a_16_fd_limit)
{
	const char *paths[] = { root };
	char rel[PATH_MAX] = "d";
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;
	struct rlimit limit;
	int level, n = 0, failed_at = -1, open_errno = 0;

	for (level = 0; level < 40; level++) {
		make_dir(rel);
		strcat(rel, "/d");
	}
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &limit), 0);
	limit.rlim_cur = FD_LIMIT;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
	cr_assert_eq(bino_walk_create(paths, 1, 0, &walk), BINO_OK);
	while (bino_walk_next(walk, &entry) == BINO_OK) {
		/* e.g. to read the file just listed */
		int fd = open("/dev/null", O_RDONLY);

		if (fd < 0 && failed_at < 0) {
			failed_at = n;
			open_errno = errno;
		}
		if (fd >= 0)
			close(fd);
		n++;
	}
	bino_walk_destroy(walk);
	cr_assert_eq(failed_at, -1, "open() after entry %d (depth %d): %s",
		     failed_at, failed_at, strerror(open_errno));
	cr_assert_eq(n, 41);
}
