/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bino-find: a small find(1) built on libbtrfsino's public API, to copy from.
 *
 *   bino-find [-H|-L|-P] [PATH...] [-maxdepth N] [-mindepth N] [-xdev]
 *             [-name PATTERN] [-type f,d,l,b,c,p,s] [-count-links]
 *             [-print|-print0]
 *
 * Tests are ANDed, as in find.  What differs from GNU find is what identity
 * means: a directory loop is reported only when a directory truly is one of
 * its ancestors (same device, subvolume and inode), so btrfs subvolume roots,
 * which all have inode 256, and NFS exports of btrfs are walked in full; and
 * -count-links counts hard links by that identity too.  -xdev stays on the
 * mount, and enters btrfs subvolumes (GNU find stops at them, as each has its
 * own st_dev).
 *
 * Build:  cc -o bino-find bino-find.c $(pkg-config --cflags --libs btrfsino)
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <btrfsino.h>

#define PROG "bino-find"

struct options {
	const char **paths;
	size_t n_paths;
	int walk_flags; /* enum bino_walk_flags */
	int max_depth; /* -1: no limit */
	int min_depth;
	const char *name; /* -name PATTERN, or NULL */
	unsigned int types; /* -type: a bit per enum bino_type; 0 = any */
	bool print0;
	bool count_links;
};

/* Hard links met: every path of a non-directory with nlink > 1. */
struct link_count {
	struct bino_idset *true_ids; /* keyed by (dev, subvolid, ino) */
	struct bino_idset *naive_ids; /* keyed by (st_dev, ino), as tar and du do */
	unsigned long long paths;
};

static void usage(FILE *stream)
{
	fprintf(stream,
		"Usage: %s [-H|-L|-P] [PATH...] [EXPRESSION]\n"
		"Expression (all of it must hold; default PATH '.', action -print):\n"
		"  -name PATTERN   the last component matches the shell PATTERN\n"
		"  -type T[,T...]  f, d, l, b, c, p or s\n"
		"  -maxdepth N     descend at most N levels below PATH\n"
		"  -mindepth N     print nothing above level N\n"
		"  -xdev           do not descend into other mounts\n"
		"  -count-links    print hard-link counts on stderr at the end\n"
		"  -print          paths, each followed by a newline (default)\n"
		"  -print0         paths, each followed by NUL\n",
		PROG);
}

/* "bino-find: WHAT 'ARG'" and a hint, on stderr; returns -1. */
static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s '%s'\nTry '%s -help' for more information.\n",
		PROG, what, arg, PROG);
	return -1;
}

static int parse_number(const char *option, const char *arg, int *ret)
{
	char *end;
	long value;

	errno = 0;
	value = strtol(arg, &end, 10);
	if (errno || end == arg || *end || value < 0 || value > 1000000) {
		fprintf(stderr, "%s: invalid argument '%s' to '%s'\n", PROG, arg,
			option);
		return -1;
	}
	*ret = (int)value;
	return 0;
}

/* "f,d" -> the bits of BINO_TYPE_FILE and BINO_TYPE_DIR. */
static int parse_types(const char *arg, unsigned int *ret)
{
	static const char letters[] = {
		[BINO_TYPE_FILE] = 'f', [BINO_TYPE_DIR] = 'd',
		[BINO_TYPE_SYMLINK] = 'l', [BINO_TYPE_BLOCK] = 'b',
		[BINO_TYPE_CHAR] = 'c', [BINO_TYPE_FIFO] = 'p',
		[BINO_TYPE_SOCKET] = 's',
	};
	const char *p = arg;
	unsigned int types = 0;

	for (;;) {
		unsigned int t;

		for (t = BINO_TYPE_FILE; t <= BINO_TYPE_SOCKET; t++) {
			if (*p && *p == letters[t])
				break;
		}
		if (t > BINO_TYPE_SOCKET || (p[1] != ',' && p[1] != '\0'))
			return usage_error("unknown argument to -type:", arg);
		types |= 1u << t;
		if (p[1] == '\0')
			break;
		p += 2;
	}
	*ret = types;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *opts)
{
	int i = 1;

	memset(opts, 0, sizeof(*opts));
	opts->max_depth = -1;

	/* -H, -L, -P: how to treat symbolic links; the last one wins. */
	for (; i < argc && argv[i][0] == '-' && argv[i][1] && !argv[i][2] &&
	       strchr("HLP", argv[i][1]);
	     i++) {
		opts->walk_flags &= ~(BINO_WALK_FOLLOW_ARGS | BINO_WALK_FOLLOW_ALL);
		if (argv[i][1] == 'H')
			opts->walk_flags |= BINO_WALK_FOLLOW_ARGS;
		else if (argv[i][1] == 'L')
			opts->walk_flags |= BINO_WALK_FOLLOW_ALL;
	}

	/* Paths: everything up to the first word that starts an expression. */
	opts->paths = (const char **)&argv[i];
	for (; i < argc && argv[i][0] != '-'; i++)
		opts->n_paths++;

	for (; i < argc; i++) {
		const char *arg = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes_value = strcmp(arg, "-name") == 0 ||
				   strcmp(arg, "-type") == 0 ||
				   strcmp(arg, "-maxdepth") == 0 ||
				   strcmp(arg, "-mindepth") == 0;

		if (takes_value && !value)
			return usage_error("missing argument to", arg);
		if (strcmp(arg, "-name") == 0) {
			opts->name = value;
		} else if (strcmp(arg, "-type") == 0) {
			if (parse_types(value, &opts->types) < 0)
				return -1;
		} else if (strcmp(arg, "-maxdepth") == 0) {
			if (parse_number(arg, value, &opts->max_depth) < 0)
				return -1;
		} else if (strcmp(arg, "-mindepth") == 0) {
			if (parse_number(arg, value, &opts->min_depth) < 0)
				return -1;
		} else if (strcmp(arg, "-xdev") == 0 || strcmp(arg, "-mount") == 0) {
			opts->walk_flags |= BINO_WALK_XDEV;
		} else if (strcmp(arg, "-print") == 0) {
			opts->print0 = false;
		} else if (strcmp(arg, "-print0") == 0) {
			opts->print0 = true;
		} else if (strcmp(arg, "-count-links") == 0) {
			opts->count_links = true;
		} else if (strcmp(arg, "-help") == 0 || strcmp(arg, "--help") == 0) {
			usage(stdout);
			exit(EXIT_SUCCESS);
		} else {
			return usage_error("unknown predicate", arg);
		}
		if (takes_value)
			i++;
	}
	return 0;
}

/*
 * The name -name matches: the last component, and for a starting path its
 * last component too ("dir/" -> "dir", "/" -> "/"), as find does.
 */
static const char *match_name(struct bino_entry *entry, char **buf)
{
	const char *path;
	char *end, *slash;

	if (bino_entry_depth(entry) > 0)
		return bino_entry_name(entry);
	path = bino_entry_path(entry);
	free(*buf);
	*buf = strdup(path);
	if (!*buf)
		return path;
	end = *buf + strlen(*buf);
	while (end - *buf > 1 && end[-1] == '/')
		*--end = '\0';
	slash = strrchr(*buf, '/');
	return slash && slash[1] ? slash + 1 : *buf;
}

static bool matches(const struct options *opts, struct bino_entry *entry,
		    char **name_buf)
{
	if (bino_entry_depth(entry) < opts->min_depth)
		return false;
	if (opts->types && !(opts->types & (1u << bino_entry_type(entry))))
		return false;
	if (opts->name && fnmatch(opts->name, match_name(entry, name_buf), 0) != 0)
		return false;
	return true;
}

/*
 * Remember a non-directory with more than one link under two keys: its true
 * identity, and (st_dev, st_ino) as tar, rsync -H and du see it.  On a local
 * btrfs both count alike; over NFS of btrfs the second one merges files.
 */
static enum bino_error count_link(struct link_count *links,
				  struct bino_entry *entry)
{
	struct bino_key key, naive;
	struct bino_stat st;
	enum bino_error err;

	if (bino_entry_type(entry) == BINO_TYPE_DIR)
		return BINO_OK;
	if (bino_entry_stat(entry, &st) != BINO_OK || st.nlink < 2)
		return BINO_OK; /* vanished, or not a hard link: nothing to count */
	key = bino_entry_key(entry);
	memset(&naive, 0, sizeof(naive));
	naive.dev = bino_entry_st_dev(entry);
	naive.ino = key.ino;
	err = bino_idset_add(links->true_ids, &key, NULL);
	if (err == BINO_OK)
		err = bino_idset_add(links->naive_ids, &naive, NULL);
	links->paths++;
	return err;
}

/* Walk, print, report; returns find's exit status (0 or 1). */
static int run(const struct options *opts, struct link_count *links)
{
	static const char *const dot[] = { "." };
	const char *const *paths = opts->n_paths ? opts->paths : dot;
	size_t n_paths = opts->n_paths ? opts->n_paths : 1;
	struct bino_walk *walk;
	struct bino_entry *entry;
	enum bino_error err;
	char *name_buf = NULL;
	int status = EXIT_SUCCESS;

	err = bino_walk_create(paths, n_paths, opts->walk_flags, &walk);
	if (err == BINO_OK)
		err = bino_walk_set_max_depth(walk, opts->max_depth);
	if (err != BINO_OK) {
		fprintf(stderr, "%s: %s: %s\n", PROG, bino_strerror(err),
			strerror(errno));
		bino_walk_destroy(walk);
		return EXIT_FAILURE;
	}

	while ((err = bino_walk_next(walk, &entry)) == BINO_OK) {
		switch (bino_entry_event(entry)) {
		case BINO_EVENT_LOOP:
			/* GNU find's words, for a loop that really is one. */
			fprintf(stderr,
				"%s: File system loop detected; '%s' is part of the same file system loop as '%s'.\n",
				PROG, bino_entry_path(entry),
				bino_entry_loop_ancestor(entry));
			status = EXIT_FAILURE;
			continue;
		case BINO_EVENT_ERROR:
			fprintf(stderr, "%s: '%s': %s\n", PROG,
				bino_entry_path(entry),
				strerror(bino_entry_errno(entry)));
			status = EXIT_FAILURE;
			continue;
		case BINO_EVENT_ENTRY:
			break;
		}
		if (bino_entry_visit(entry) == BINO_VISIT_POST)
			continue;
		if (!matches(opts, entry, &name_buf))
			continue;
		/* bino_entry_path() is valid until the next bino_walk_next(). */
		fwrite(bino_entry_path(entry), 1, bino_entry_path_length(entry),
		       stdout);
		putchar(opts->print0 ? '\0' : '\n');
		if (opts->count_links && count_link(links, entry) != BINO_OK) {
			err = BINO_ERROR_NO_MEMORY;
			break;
		}
	}
	if (err != BINO_ERROR_STOP_ITERATION) {
		fprintf(stderr, "%s: %s: %s\n", PROG, bino_strerror(err),
			strerror(errno));
		status = EXIT_FAILURE;
	}
	free(name_buf);
	bino_walk_destroy(walk);
	return status;
}

int main(int argc, char **argv)
{
	struct link_count links = { NULL, NULL, 0 };
	struct options opts;
	int status;

	if (parse_args(argc, argv, &opts) < 0)
		return EXIT_FAILURE;
	if (opts.count_links &&
	    (bino_idset_create(&links.true_ids) != BINO_OK ||
	     bino_idset_create(&links.naive_ids) != BINO_OK)) {
		fprintf(stderr, "%s: %s\n", PROG, strerror(ENOMEM));
		bino_idset_destroy(links.true_ids);
		return EXIT_FAILURE;
	}

	status = run(&opts, &links);

	if (opts.count_links) {
		fprintf(stderr,
			"%s: %llu hard-linked paths, %zu files by true identity, %zu by (st_dev, st_ino)\n",
			PROG, links.paths, bino_idset_count(links.true_ids),
			bino_idset_count(links.naive_ids));
		bino_idset_destroy(links.true_ids);
		bino_idset_destroy(links.naive_ids);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", PROG, strerror(errno));
		status = EXIT_FAILURE;
	}
	return status;
}
