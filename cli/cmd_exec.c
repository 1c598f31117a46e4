/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino exec: run a command with libbtrfsino-exec.so preloaded, so that on
 * an NFS client of a btrfs export each server subvolume has a device number
 * of its own in the stat family.  Before exec'ing, say on stderr when the
 * preload cannot help: a setuid/setgid or file-capability program (the
 * dynamic linker ignores LD_PRELOAD for it), a statically linked one (no
 * dynamic linker), an NFS mount among the arguments whose file handles
 * cannot be read (NFSv4.0).  The command runs either way.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "btrfsino.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"

#define PRELOAD_ENV "BTRFS_INO_EXEC_PRELOAD"
#define EXIT_CANNOT_RUN 126 /* as env(1) and the shells */
#define EXIT_NOT_FOUND 127

void usage_exec(FILE *stream)
{
	fprintf(stream,
		"Usage: %s exec [--] COMMAND [ARG]...\n"
		"Run COMMAND so that, on NFS mounts of btrfs exports, each server\n"
		"subvolume has a device number of its own in stat(2): find, du, tar,\n"
		"rsync and others then see what they would see on the server.\n"
		"Everything not on such a mount is left as it is.\n\n"
		"It does not help statically linked or setuid/setgid COMMANDs, NFSv4.0\n"
		"mounts, or programs that compare st_dev with the mount table; it says so\n"
		"on stderr for COMMAND and for the mounts of its path arguments.\n\n"
		"Options:\n"
		"  -h, --help  show this help and exit\n\n"
		"Exit status: that of COMMAND; 126 COMMAND cannot be run, 127 not found,\n"
		"2 usage error or the preload library is missing.\n",
		PROGRAM_NAME);
}

/*
 * The preload library: $BTRFS_INO_EXEC_PRELOAD (tests, build tree), else
 * where the install put it relative to this program (bindir to
 * libdir/btrfs-ino/), else the configured absolute path.
 */
static bool find_preload(char *buf, size_t size)
{
	const char *env = getenv(PRELOAD_ENV);
	char exe[PATH_MAX], candidate[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env)
		return (size_t)snprintf(buf, size, "%s", env) < size &&
		       access(buf, R_OK) == 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			/* realpath: the loader gets a path without "..". */
			if ((size_t)snprintf(candidate, sizeof(candidate), "%s/%s", exe,
					     BTRFS_INO_EXEC_PRELOAD_FROM_BINDIR) <
				    sizeof(candidate) &&
			    size >= PATH_MAX && realpath(candidate, buf) &&
			    access(buf, R_OK) == 0)
				return true;
		}
	}
	if ((size_t)snprintf(buf, size, "%s", BTRFS_INO_EXEC_PRELOAD_PATH) >= size)
		return false;
	return access(buf, R_OK) == 0;
}

/* COMMAND as execvp would find it, in @buf; false if not found. */
static bool find_command(const char *command, char *buf, size_t size)
{
	const char *path = getenv("PATH");
	const char *start, *end;

	if (strchr(command, '/'))
		return (size_t)snprintf(buf, size, "%s", command) < size;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (start = path; ; start = end + 1) {
		size_t len;

		end = strchr(start, ':');
		if (!end)
			end = start + strlen(start);
		len = (size_t)(end - start);
		if ((size_t)snprintf(buf, size, "%.*s%s%s", (int)len, start,
				     len ? "/" : "", command) < size &&
		    access(buf, X_OK) == 0)
			return true;
		if (*end == '\0')
			return false;
	}
}

/* True when the ELF file @fd has program headers but no PT_INTERP. */
static bool elf_is_static(int fd)
{
	unsigned char ident[EI_NIDENT];
	Elf64_Ehdr eh64;
	Elf32_Ehdr eh32;
	uint64_t phoff;
	size_t phentsize, i, phnum;

	if (pread(fd, ident, sizeof(ident), 0) != (ssize_t)sizeof(ident) ||
	    memcmp(ident, ELFMAG, SELFMAG) != 0)
		return false; /* a script, or not a program at all */
	if (ident[EI_CLASS] == ELFCLASS64) {
		if (pread(fd, &eh64, sizeof(eh64), 0) != (ssize_t)sizeof(eh64))
			return false;
		phoff = eh64.e_phoff;
		phentsize = eh64.e_phentsize;
		phnum = eh64.e_phnum;
	} else if (ident[EI_CLASS] == ELFCLASS32) {
		if (pread(fd, &eh32, sizeof(eh32), 0) != (ssize_t)sizeof(eh32))
			return false;
		phoff = eh32.e_phoff;
		phentsize = eh32.e_phentsize;
		phnum = eh32.e_phnum;
	} else {
		return false;
	}
	if (phnum == 0 || phentsize < sizeof(uint32_t))
		return false;
	for (i = 0; i < phnum; i++) {
		uint32_t type; /* p_type is the first word in both classes */

		if (pread(fd, &type, sizeof(type), (off_t)(phoff + i * phentsize)) !=
		    (ssize_t)sizeof(type))
			return false;
		if (type == PT_INTERP)
			return false;
	}
	return true;
}

/* Say why the dynamic linker will not load the preload for @path, if so. */
static void check_program(const char *command, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return; /* exec will say what is wrong */
	}
	if ((st.st_mode & S_ISUID && st.st_uid != getuid()) ||
	    (st.st_mode & S_ISGID && st.st_gid != getgid()))
		diag_path(command,
			  "exec: set-user-ID or set-group-ID program: it runs without the preload library (secure execution); st_dev stays as NFS gives it");
	else if (fgetxattr(fd, "security.capability", NULL, 0) >= 0)
		diag_path(command,
			  "exec: program with file capabilities: it runs without the preload library (secure execution); st_dev stays as NFS gives it");
	if (elf_is_static(fd))
		diag_path(command,
			  "exec: statically linked: no dynamic linker to load the preload library; st_dev stays as NFS gives it");
	close(fd);
}

static bool is_nfs(const struct bino_mount *mount)
{
	const char *fstype = mount ? bino_mount_fstype(mount) : NULL;

	return fstype && (strcmp(fstype, "nfs") == 0 || strcmp(fstype, "nfs4") == 0);
}

/*
 * For the NFS mounts the existing paths among @args (and the working
 * directory) are on: say when the subvolume of their files cannot be told
 * from the client's file handles, as the preload library would find.
 */
static void check_mounts(int argc, char **argv)
{
	const char **paths = calloc((size_t)argc + 1, sizeof(*paths));
	uint64_t *warned = calloc((size_t)argc + 1, sizeof(*warned));
	size_t n_paths = 0, n_warned = 0, i;
	struct bino_walk *walk = NULL;
	struct bino_entry *entry;
	struct stat st;
	int a;

	if (!paths || !warned)
		goto out_free;
	paths[n_paths++] = ".";
	for (a = 1; a < argc; a++) {
		if (argv[a][0] != '\0' && stat(argv[a], &st) == 0)
			paths[n_paths++] = argv[a];
	}
	if (bino_walk_create(paths, n_paths, 0, &walk) != BINO_OK ||
	    bino_walk_set_max_depth(walk, 0) != BINO_OK ||
	    bino_walk_set_threads(walk, 1) != BINO_OK)
		goto out_free;
	while (bino_walk_next(walk, &entry) == BINO_OK) {
		const struct bino_mount *mount;

		if (bino_entry_event(entry) != BINO_EVENT_ENTRY ||
		    !(bino_entry_flags(entry) & BINO_ENTRY_IDENTITY_UNCERTAIN))
			continue;
		mount = bino_entry_mount(entry);
		if (!is_nfs(mount))
			continue;
		for (i = 0; i < n_warned; i++) {
			if (warned[i] == bino_mount_id(mount))
				break;
		}
		if (i < n_warned)
			continue;
		warned[n_warned++] = bino_mount_id(mount);
		diag_path(bino_mount_target(mount),
			  "exec: NFS mount whose file handles tell no subvolume (%s: %s)%s; st_dev stays as NFS gives it",
			  bino_strerror(bino_entry_error(entry)),
			  strerror(bino_entry_errno(entry)),
			  bino_entry_errno(entry) == EOPNOTSUPP ?
				  " - an NFSv4.0 mount? vers=3 or 4.1 and later give handles" :
				  "");
	}
out_free:
	bino_walk_destroy(walk);
	free(warned);
	free(paths);
}

/*
 * LD_PRELOAD with @preload appended, unless it is there already.  Returns 0,
 * or -1 with errno set.
 */
static int set_preload(const char *preload)
{
	const char *old = getenv("LD_PRELOAD");
	char *value;
	int ret;

	if (!old || !*old)
		return setenv("LD_PRELOAD", preload, 1);
	if (strstr(old, preload))
		return 0;
	if (asprintf(&value, "%s:%s", old, preload) < 0)
		return -1;
	ret = setenv("LD_PRELOAD", value, 1);
	free(value);
	return ret;
}

/* exec's options: an option parser (cli.h). */
static int exec_option(int opt, const char *arg, void *opts)
{
	if (opt == 'h') {
		usage_exec(stdout);
		return OPTIONS_HELP_SHOWN;
	}
	/* getopt said what was wrong: the Try line only (cli.h). */
	return usage_try("exec");
}

int cmd_exec(int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* '+': the first non-option is COMMAND; its options are its own. */
	static const struct option_parser parser = { "+h", options, exec_option };
	char preload[PATH_MAX], program[PATH_MAX];
	int ret, errnum;

	ret = options_parse(&parser, argc, argv, NULL);
	if (ret != OPTIONS_GO_ON)
		return options_exit_status(ret);
	if (optind >= argc)
		return usage_error("exec", "no COMMAND given");
	argc -= optind;
	argv += optind;

	if (!find_preload(preload, sizeof(preload))) {
		if (strcmp(preload, BTRFS_INO_EXEC_PRELOAD_PATH) == 0)
			diag_path(preload, "exec: cannot find the preload library "
				  "($%s names another)", PRELOAD_ENV);
		else
			diag_path(preload, "exec: cannot find the preload library "
				  "(installed as %s; $%s names another)",
				  BTRFS_INO_EXEC_PRELOAD_PATH, PRELOAD_ENV);
		return EXIT_USAGE;
	}
	if (!find_command(argv[0], program, sizeof(program))) {
		diag_path(argv[0], "exec: command not found");
		return EXIT_NOT_FOUND;
	}
	check_program(argv[0], program);
	check_mounts(argc, argv);
	if (set_preload(preload) != 0) {
		diag_path(argv[0], "exec: cannot set LD_PRELOAD: %s", strerror(errno));
		return EXIT_USAGE;
	}
	execv(program, argv);
	errnum = errno; /* before diag_path() may change it (cli.h) */
	diag_path(argv[0], "exec: %s", strerror(errnum));
	return errnum == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
