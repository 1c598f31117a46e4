/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The autofs oracle: what Debian 12's automount (autofs 5.1.8-2+deb12u2)
 * mounts for each direct-map entry of a map file, built at test time by
 * autofs-oracle.sh.  Debian's source package cannot be fetched everywhere
 * (its upstream tarball is missing from some mirrors), its binary package
 * can: so the words are read by the machine code Debian ships, loaded from
 * the package's libautofs.so and parse_sun.so (nothing of autofs is kept in
 * this repository):
 *  - expandsunent() of parse_sun.so, with Debian's mount-hidden-samba-shares
 *    patch (a backslash outside quotes is dropped, the byte after it kept);
 *  - sanitize_path(), dequote(), chunklen(), span_space(), skipspace(),
 *    check_colon() and the macro table of libautofs.so (its system
 *    variables empty: macro_init() reads autofs.conf).
 * What is static in those files is done here, step by step as autofs
 * 5.1.8 does it (the function named at each step); the order of its calls
 * in parse_sun.so's parse_mount() is the one objdump shows:
 *  - lookup_file.c read_one(): the map file into key and entry, with its
 *    quote and escape states, continuation lines, comments, bad entries and
 *    length limits (KEY_MAX_LEN 255, MAPENT_MAX_LEN 16384);
 *  - lookup_file.c lookup_read_map(): the key through sanitize_path() as a
 *    direct map's (LKP_DIRECT);
 *  - parse_sun.c parse_mount(): the entry expanded (expandsunent, the key
 *    for '&', the standard environment for '$'), its options, the
 *    multi-mount test (check_is_multi), then each offset (span_space,
 *    sanitize_path LKP_MULTI), its location (parse_mapent,
 *    validate_location) and its key and stored entry (update_offset_entry);
 *  - mount_subtree(): the "/" offset's stored entry read again by
 *    parse_mapent(), and every other offset's entry, when its trigger
 *    fires, through parse_mount() again: not expanded (5.1.8 skips that
 *    for an offset), options, check_is_multi, the rest as the location.
 * It stops where automount hands the mount point and location to
 * mount_nfs.so (sun_mount).
 *
 * Usage: autofs-oracle LIBDIR MAP
 * LIBDIR holds libautofs.so and autofs/parse_sun.so.  For each entry it
 * prints "entry KEY", then "mount PATH<TAB>LOCATION" for each mount, or
 * "error WHAT" where automount would refuse or misread it; bytes that are
 * blank, control, not ASCII or a backslash as \ooo.  Exit 0, or 2 when the
 * libraries cannot be loaded.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_MAX_LEN NAME_MAX
#define MAPENT_MAX_LEN 16384
#define LKP_DIRECT 0x0004
#define LKP_MULTI 0x0008

/* include/macros.h */
struct substvar {
	char *def;
	char *val;
	unsigned int readonly;
	struct substvar *next;
};

/* What the daemon (not libautofs.so) defines and the libraries name. */
const char *global_options;
unsigned int key_thread_stdenv_vars;
unsigned int key_thread_attempt_id;
#define DAEMON_STUB(name) \
	void name(void); \
	void name(void) { abort(); }
DAEMON_STUB(mount_autofs_offset)
DAEMON_STUB(master_get_logopt)
DAEMON_STUB(open_fopen_r)
DAEMON_STUB(open_sock)
DAEMON_STUB(spawnv)
DAEMON_STUB(umount_autofs_offset)
DAEMON_STUB(spawn_umount)
DAEMON_STUB(rmdir_path)
DAEMON_STUB(st_add_task)
DAEMON_STUB(open_fd)
DAEMON_STUB(lookup_nss_mount)
DAEMON_STUB(dump_core)
DAEMON_STUB(open_mount)
DAEMON_STUB(master_source_current_signal)
DAEMON_STUB(close_mount)
DAEMON_STUB(do_mount)

static int (*expandsunent)(const char *src, char *dst, const char *key,
			   const struct substvar *svc, int slashify_colons);
static char *(*sanitize_path)(const char *path, int len, unsigned type, unsigned logopt);
static char *(*dequote)(const char *str, int len, unsigned logopt);
static int (*chunklen)(const char *whence, int expect_colon);
static int (*span_space)(const char *str, unsigned maxlen);
static const char *(*skipspace)(const char *whence);
static int (*check_colon)(const char *str);

/* The standard environment addstdenv() gives a lookup by root. */
static struct substvar env[] = {
	{ "UID", "0", 1, &env[1] },	    { "USER", "root", 1, &env[2] },
	{ "HOME", "/root", 1, &env[3] },    { "GID", "0", 1, &env[4] },
	{ "GROUP", "root", 1, &env[5] },   { "SHOST", "client", 1, NULL },
};

static void put_field(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p <= 0x20 || *p >= 0x7f || *p == '\\')
			printf("\\%03o", *p);
		else
			putchar(*p);
	}
}

/* ---- lookup_file.c read_one() ------------------------------------------ */

enum read_state { ST_BEGIN, ST_COMPARE, ST_STAR, ST_BADENT, ST_ENTSPC, ST_GETENT };
enum read_found { GOT_NOTHING, GOT_STAR, GOT_REAL, GOT_PLUS };
enum read_escape { ESC_NONE, ESC_CHAR, ESC_VAL, ESC_ALL };

/*
 * The next entry of @f into @key and @mapent, as read_one() reads it: 1, or
 * 0 at the end of the file.  A bad entry, or a key or entry too long, is
 * skipped there with a warning; here it is said too ("error"), so that a
 * line the test meant is never lost silently.
 */
static int read_entry(FILE *f, char *key, char *mapent)
{
	enum read_state state = ST_BEGIN;
	enum read_found getting = GOT_NOTHING, gotten = GOT_NOTHING;
	enum read_escape escape = ESC_NONE;
	size_t key_len = 0, mapent_len = 0;
	char *p = NULL;
	int ch, nch;

	memset(key, 0, KEY_MAX_LEN + 1);
	memset(mapent, 0, MAPENT_MAX_LEN + 1);
	while ((ch = getc(f)) != EOF) {
		/* The escape state first: it decides what the byte is. */
		switch (escape) {
		case ESC_NONE:
			if (ch == '\\') {
				nch = getc(f);
				if (nch == '\n')
					continue; /* a continuation line */
				ungetc(nch, f);
				escape = ESC_CHAR;
			}
			if (ch == '"')
				escape = ESC_ALL;
			break;
		case ESC_CHAR:
			escape = ESC_VAL;
			break;
		case ESC_VAL:
			escape = ESC_NONE;
			break;
		case ESC_ALL:
			if (ch == '"')
				escape = ESC_NONE;
			break;
		}

		switch (state) {
		case ST_BEGIN:
			if (escape == ESC_NONE) {
				if (isspace(ch))
					;
				else if (ch == '#')
					state = ST_BADENT;
				else if (ch == '*') {
					state = ST_STAR;
					key[key_len++] = (char)ch;
				} else {
					if (ch == '+')
						gotten = GOT_PLUS;
					state = ST_COMPARE;
					key[key_len++] = (char)ch;
				}
			} else if (escape == ESC_ALL) {
				state = ST_COMPARE;
				key[key_len++] = (char)ch;
			} else if (escape != ESC_CHAR) {
				state = ST_BADENT;
			}
			break;
		case ST_COMPARE:
			if (ch == '\n') {
				state = ST_BEGIN;
				if (gotten == GOT_PLUS)
					goto got_it;
				if (escape == ESC_ALL) {
					printf("error unmatched \" in map key\n");
					goto next;
				}
				if (escape != ESC_VAL)
					goto got_it;
			} else if (isspace(ch) && escape == ESC_NONE) {
				getting = GOT_REAL;
				state = ST_ENTSPC;
				if (gotten == GOT_PLUS)
					goto got_it;
			} else if (escape == ESC_CHAR) {
				;
			} else if (key_len == KEY_MAX_LEN) {
				state = ST_BADENT;
				gotten = GOT_NOTHING;
				printf("error map key longer than %d bytes\n", KEY_MAX_LEN);
			} else {
				if (escape == ESC_VAL)
					key[key_len++] = '\\';
				key[key_len++] = (char)ch;
			}
			break;
		case ST_STAR:
			if (ch == '\n')
				state = ST_BEGIN;
			else if (isspace(ch) && gotten < GOT_STAR && escape == ESC_NONE) {
				getting = GOT_STAR;
				state = ST_ENTSPC;
			} else if (escape != ESC_CHAR) {
				state = ST_BADENT;
			}
			break;
		case ST_BADENT:
			if (ch == '\n') {
				nch = getc(f);
				if (nch != EOF && isblank(nch)) {
					ungetc(nch, f);
					break;
				}
				ungetc(nch, f);
				state = ST_BEGIN;
				if (gotten == GOT_REAL || gotten == getting)
					goto got_it;
				if (key_len)
					printf("error bad map entry for key %s\n", key);
				goto next;
			} else if (!isblank(ch)) {
				gotten = GOT_NOTHING;
			}
			break;
		case ST_ENTSPC:
			if (ch == '\n') {
				state = ST_BEGIN;
			} else if (!isspace(ch) || escape != ESC_NONE) {
				if (escape != ESC_NONE) {
					if (escape == ESC_CHAR)
						break;
					if (ch <= 32) {
						getting = GOT_NOTHING;
						state = ST_BADENT;
						break;
					}
					p = mapent;
					if (escape == ESC_VAL) {
						*p++ = '\\';
						mapent_len++;
					}
					*p++ = (char)ch;
					mapent_len++;
				} else {
					p = mapent;
					*p++ = (char)ch;
					mapent_len = 1;
				}
				state = ST_GETENT;
				gotten = getting;
			}
			break;
		case ST_GETENT:
			if (ch == '\n') {
				if (escape == ESC_ALL) {
					state = ST_BEGIN;
					printf("error unmatched \" in the entry of key %s\n", key);
					goto next;
				}
				nch = getc(f);
				if (nch != EOF && isblank(nch)) {
					ungetc(nch, f);
					state = ST_BADENT;
					break;
				}
				ungetc(nch, f);
				state = ST_BEGIN;
				if (gotten == GOT_REAL || gotten == getting)
					goto got_it;
			} else if (mapent_len < MAPENT_MAX_LEN) {
				if (p) {
					mapent_len++;
					*p++ = (char)ch;
				}
				nch = getc(f);
				if (nch == EOF && (gotten == GOT_REAL || gotten == getting))
					goto got_it;
				ungetc(nch, f);
			} else {
				printf("error map entry longer than %d bytes\n", MAPENT_MAX_LEN);
				state = ST_BADENT;
			}
			break;
		}
		continue;
got_it:
		if (gotten == GOT_NOTHING)
			goto next;
		return 1;
next:
		p = NULL;
		key_len = mapent_len = 0;
		memset(key, 0, KEY_MAX_LEN + 1);
		memset(mapent, 0, MAPENT_MAX_LEN + 1);
		getting = gotten = GOT_NOTHING;
		escape = ESC_NONE;
	}
	return 0;
}

/* ---- parse_sun.c ------------------------------------------------------- */

/* parse_options(): "-OPTIONS" at @p into @options (replaced); after it. */
static const char *read_options(const char *p, char **options)
{
	int len;

	if (*p++ != '-')
		return p - 1;
	free(*options);
	len = chunklen(p, 0);
	*options = dequote(p, len, 0);
	return p + len;
}

/* parse_mount()'s options: every leading "-OPTIONS" word, joined by ','. */
static const char *read_all_options(const char *p, char **options)
{
	*options = NULL;
	p = skipspace(p);
	while (*p == '-') {
		char *more = NULL, *joined;

		p = read_options(p, &more);
		if (more && *options && !strstr(more, *options)) {
			if (asprintf(&joined, "%s,%s", *options, more) < 0)
				abort();
			free(more);
			more = joined;
		}
		if (more) {
			free(*options);
			*options = more;
		}
		p = skipspace(p);
	}
	return p;
}

/* check_is_multi(): whether the rest of an entry is a multi-mount. */
static bool is_multi(const char *p)
{
	bool not_first = false;

	if (*p == '"')
		p++;
	if (*p == '/')
		return true;
	while (*p) {
		p = skipspace(p);
		if (not_first) {
			if (*p == '"')
				p++;
			if (*p == '/' || *p == '-')
				return true;
		}
		while (*p == '-') {
			p += chunklen(p, 0);
			p = skipspace(p);
		}
		p += chunklen(p, check_colon(p));
		not_first = true;
	}
	return false;
}

/* validate_location(): 1 if automount takes @loc, else 0 with why. */
static bool location_valid(const char *loc, const char **why)
{
	const char *p = loc;

	if (*p == ':')
		return true;
	if (!check_colon(p)) {
		const char *esc = strchr(p, '\\');

		if (!strchr(p, ':') || (esc && esc[1] == ':') ||
		    !strncmp(p, "file:", 5) || !strncmp(p, "yp:", 3) ||
		    !strncmp(p, "nis:", 4) || !strncmp(p, "nisplus:", 8) ||
		    !strncmp(p, "ldap:", 5) || !strncmp(p, "ldaps:", 6) ||
		    !strncmp(p, "sss:", 4) || !strncmp(p, "dir:", 4))
			return true;
		*why = "expected colon delimeter not found in location";
		return false;
	}
	for (; *p && strncmp(p, ":/", 2); p++) {
		if (!(isalnum((unsigned char)*p) || strchr("-._,()#@:[]%", *p))) {
			*why = "invalid character in the host of the location";
			return false;
		}
	}
	if (*p)
		p++;
	if (!*p) {
		*why = "invalid location";
		return false;
	}
	return true;
}

/*
 * parse_mapent(): the options and location(s) at @ent into @loc (NULL if
 * none); the length read, or 0 with @why.
 */
static int read_mapent(const char *ent, char **loc, const char **why)
{
	const char *p = ent;
	char *options = NULL;
	int l;

	if (*p == '-')
		p = read_all_options(p, &options);
	free(options);
	*loc = NULL;
	l = chunklen(p, check_colon(p));
	*loc = dequote(p, l, 0);
	if (!*loc)
		return (int)(p - ent);
	if (*p == '/') {
		*why = "location begins with \"/\"";
		goto refused;
	}
	if (!location_valid(*loc, why))
		goto refused;
	p = skipspace(p + l);
	while (*p && ((*p == '"' && p[1] != '/') || (*p != '"' && *p != '/'))) {
		char *more, *joined;

		l = chunklen(p, check_colon(p));
		more = dequote(p, l, 0);
		if (more) {
			if (*p == '/') {
				*why = "location begins with \"/\"";
				free(more);
				goto refused;
			}
			if (!location_valid(more, why)) {
				free(more);
				goto refused;
			}
			if (asprintf(&joined, "%s %s", *loc, more) < 0)
				abort();
			free(*loc);
			free(more);
			*loc = joined;
		}
		p = skipspace(p + l);
	}
	return (int)(p - ent);
refused:
	free(*loc);
	*loc = NULL;
	return 0;
}

/* An offset: its key (update_offset_entry's m_key) and stored entry. */
struct offset {
	char *key;
	char *mapent;
};

/* update_offset_entry(): the key and stored entry of offset @off. */
static bool offset_add(struct offset *o, const char *root, const char *off,
		       const char *options, const char *loc, const char **why)
{
	size_t o_len = strlen(off);

	if (!loc || !*loc) {
		*why = "syntax error in offset (no location)";
		return false;
	}
	if (!*off) {
		*why = "syntax error in offset (empty)";
		return false;
	}
	while (o_len > 1 && off[o_len - 1] == '/')
		o_len--;
	if (strlen(root) + o_len > PATH_MAX) {
		*why = "multi mount key too long";
		return false;
	}
	if (strlen(loc) + (*options ? strlen(options) + 2 : 0) > MAPENT_MAX_LEN) {
		*why = "multi mount mapent too long";
		return false;
	}
	if (asprintf(&o->key, "%s%.*s", root, (int)o_len, off) < 0 ||
	    (*options ? asprintf(&o->mapent, "-%s %s", options, loc) :
			asprintf(&o->mapent, "%s", loc)) < 0)
		abort();
	return true;
}

static void put_mount(const char *path, const char *loc)
{
	fputs("mount ", stdout);
	put_field(path);
	putchar('\t');
	put_field(loc);
	putchar('\n');
}

/* The mount of the "/" offset (mount_subtree()): its entry read again. */
static void mount_root(const char *name, const struct offset *o)
{
	const char *why = "no location";
	char *loc;

	if (!read_mapent(o->mapent, &loc, &why) || !loc) {
		printf("error the \"/\" offset's stored entry: %s\n", why);
		return;
	}
	put_mount(name, loc);
	free(loc);
}

/* The mount of another offset, its trigger fired: parse_mount() again. */
static void mount_offset(const struct offset *o)
{
	char *options;
	const char *p = read_all_options(o->mapent, &options);

	free(options);
	if (is_multi(p)) {
		fputs("error the stored entry of offset ", stdout);
		put_field(o->key);
		puts(" reads as a multi-mount of its own");
		return;
	}
	put_mount(o->key, p);
}

/* parse_mount() of a direct map's entry @mapent for key @key. */
static void parse_entry(const char *key, const char *mapent)
{
	struct offset offsets[4096];
	size_t n = 0, i;
	const char *p, *why = NULL;
	char *expanded, *options, *root_key;
	int len;

	len = expandsunent(mapent, NULL, key, env, 1);
	if (len == 0) {
		puts("error failed to expand map entry");
		return;
	}
	expanded = calloc(1, (size_t)len + 1);
	if (!expanded)
		abort();
	expandsunent(mapent, expanded, key, env, 1);
	p = read_all_options(expanded, &options);
	if (!options)
		options = strdup("");
	if (!is_multi(p)) {
		puts("error not a multi-mount entry");
		goto out;
	}
	do {
		char *off, *loc = NULL;
		int l = 0;

		if ((*p == '"' && p[1] != '/') || (*p != '"' && *p != '/')) {
			off = strdup("/");
		} else {
			l = span_space(p, (unsigned)(strlen(expanded) + 1 - (size_t)(p - expanded)));
			off = sanitize_path(p, l, LKP_MULTI, 0);
		}
		if (!off) {
			puts("error null path (an offset sanitize_path refuses)");
			goto out;
		}
		p = skipspace(p + l);
		l = read_mapent(p, &loc, &why);
		if (!l) {
			printf("error offset %s: %s\n", off, why);
			free(off);
			goto out;
		}
		p = skipspace(p + l);
		if (n == sizeof(offsets) / sizeof(offsets[0]) ||
		    !offset_add(&offsets[n], key, off, options, loc, &why)) {
			printf("error offset %s: %s\n", off, why ? why : "too many");
			free(off);
			free(loc);
			goto out;
		}
		n++;
		free(off);
		free(loc);
	} while (*p == '/' || (*p == '"' && p[1] == '/'));
	if (*p)
		printf("error text after the last offset: %s\n", p);

	if (asprintf(&root_key, "%s/", key) < 0)
		abort();
	for (i = 0; i < n; i++) {
		if (strcmp(offsets[i].key, root_key) == 0)
			mount_root(key, &offsets[i]);
		else
			mount_offset(&offsets[i]);
	}
	free(root_key);
	for (i = 0; i < n; i++) {
		free(offsets[i].key);
		free(offsets[i].mapent);
	}
out:
	free(options);
	free(expanded);
}

static void *symbol(void *lib, const char *name)
{
	void *s = dlsym(lib, name);

	if (!s) {
		fprintf(stderr, "autofs-oracle: %s\n", dlerror());
		exit(2);
	}
	return s;
}

int main(int argc, char **argv)
{
	/* read_one() may write two bytes past KEY_MAX_LEN (an escape at the end). */
	static char key[KEY_MAX_LEN + 3], mapent[MAPENT_MAX_LEN + 1];
	char *path;
	void *lib, *parse;
	FILE *f;

	if (argc != 3) {
		fputs("usage: autofs-oracle LIBDIR MAP\n", stderr);
		return 2;
	}
	if (asprintf(&path, "%s/libautofs.so", argv[1]) < 0)
		return 2;
	lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	free(path);
	if (asprintf(&path, "%s/autofs/parse_sun.so", argv[1]) < 0)
		return 2;
	parse = lib ? dlopen(path, RTLD_NOW) : NULL;
	free(path);
	if (!parse) {
		fprintf(stderr, "autofs-oracle: %s\n", dlerror());
		return 2;
	}
	expandsunent = symbol(parse, "expandsunent");
	sanitize_path = symbol(lib, "sanitize_path");
	dequote = symbol(lib, "dequote");
	chunklen = symbol(lib, "chunklen");
	span_space = symbol(lib, "span_space");
	skipspace = symbol(lib, "skipspace");
	check_colon = symbol(lib, "check_colon");

	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	while (read_entry(f, key, mapent)) {
		char *s_key = sanitize_path(key, (int)strlen(key), LKP_DIRECT, 0);

		fputs("entry ", stdout);
		put_field(s_key ? s_key : key);
		putchar('\n');
		if (!s_key) {
			puts("error the key is not a direct map's (sanitize_path)");
			continue;
		}
		parse_entry(s_key, mapent);
		free(s_key);
	}
	fclose(f);
	return 0;
}
