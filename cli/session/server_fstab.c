/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The server fstab read by libmount, not by a reader of our own: a line is
 * what mount -a makes of it.  libmount gives the entries but not their
 * line numbers, which the messages and the diff need: the file is scanned
 * once more for the lines libmount reads as entries (not blank, not a
 * comment, not one it rejected), in order.  Then each btrfs line at or
 * below an export is told against the audit's subvolumes, and its mount
 * point judged from the outermost export above it (bino_confpath): a line
 * whose path a user could change is a line to remove, whatever its state.
 */
#include "server_fstab.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libmount.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "diag.h"
#include "path.h"
#include "quote.h"
#include "report.h"

/* ---- reading ----------------------------------------------------------- */

/* The line numbers libmount rejected, in order, with the file's name. */
struct rejected {
	const char *file;
	unsigned int *line;
	size_t n, cap;
	bool no_memory;
};

/*
 * libmount's parser error callback: says the line on stderr and returns 1
 * (libmount's "skip it, read on"); a number it cannot keep sets r->no_memory.
 */
static int on_parse_error(struct libmnt_table *table, const char *file, int line)
{
	struct rejected *r = mnt_table_get_userdata(table);

	(void)file;
	diag_path(r->file, "line %d: libmount cannot read it: skipped", line);
	if (ARRAY_RESERVE(r->line, r->cap, r->n + 1) != 0)
		r->no_memory = true;
	else
		r->line[r->n++] = (unsigned int)line;
	return 1; /* skip the line, read on */
}

static bool rejected(const struct rejected *r, unsigned int line)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->line[i] == line)
			return true;
	}
	return false;
}

/*
 * The numbers of the lines that are entries, in file order, into
 * *@numbers: as libmount skips them, a line blank or starting with '#'
 * after its blanks is none.  Returns how many, or -1 (errno set).
 */
static long entry_lines(const char *file, const struct rejected *r,
			unsigned int **numbers)
{
	size_t n = 0, cap = 0, size = 0;
	unsigned int number = 0;
	char *line = NULL;
	int errnum;
	FILE *f = fopen(file, "re");

	*numbers = NULL;
	if (!f)
		return -1;
	while (getline(&line, &size, f) >= 0) {
		const char *s = line + strspn(line, " \t");

		number++;
		if (*s == '\0' || *s == '\n' || *s == '#' || rejected(r, number))
			continue;
		if (ARRAY_RESERVE(*numbers, cap, n + 1) != 0) {
			n = (size_t)-1;
			break;
		}
		(*numbers)[n++] = number;
	}
	errnum = errno;
	free(line);
	fclose(f);
	errno = errnum;
	return (long)n;
}

/* ---- what became of a line's subvolume -------------------------------- */

void print_confpath(struct output *out, const char *key,
		    const struct bino_confpath *confpath)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!confpath || bino_confpath_reason(confpath) == BINO_CONFPATH_SAFE) {
		print_string(out, PRINT_JSON, key, NULL, NULL);
		return;
	}
	output_open_object(out, key);
	print_string(out, PRINT_JSON, "reason", NULL,
		     bino_confpath_reason_name(bino_confpath_reason(confpath)));
	print_text_path(out, "directory", NULL, bino_confpath_directory(confpath));
	if (bino_confpath_owner(confpath) >= 0)
		print_i64(out, PRINT_JSON, "owner", NULL, bino_confpath_owner(confpath));
	else
		print_string(out, PRINT_JSON, "owner", NULL, NULL);
	print_i64(out, PRINT_JSON, "errno", NULL, bino_confpath_errno(confpath));
	f = open_memstream(&text, &len);
	if (f)
		put_confpath_why(f, confpath);
	/* Out of memory: the message is null (the reason still says why). */
	if (!f || memstream_close(f, &text) != 0)
		text = NULL;
	print_string(out, PRINT_JSON, "message", NULL, text);
	free(text);
	output_close(out);
}

/*
 * The outermost path of @n_tables export tables that @target is at or
 * below (@strictly: below), or NULL.
 */
static const char *outermost_export(const struct bino_exports *const *tables,
				    size_t n_tables, const char *target,
				    bool strictly)
{
	const char *top = NULL;
	size_t t, i;

	for (t = 0; t < n_tables; t++) {
		for (i = 0; tables[t] && i < bino_exports_count(tables[t]); i++) {
			const char *path = bino_export_path(bino_exports_get(tables[t], i));

			if (path[0] != '/' ||
			    !(strictly ? bino__path_below(target, path) :
					 bino__path_at_or_below(target, path)))
				continue;
			if (!top || strlen(path) < strlen(top))
				top = path;
		}
	}
	return top;
}

/* Whether @target is at or below a path exported by @session. */
static bool below_an_export(const struct audit_session *session,
			    const char *target)
{
	const struct bino_exports *tables[2] = { session->files, session->etab };

	return outermost_export(tables, 2, target, false) != NULL;
}

/*
 * Whether @cp is a finding: a directory others may write, or a symbolic
 * link (or no directory) on the way below @top, which mount -a and
 * nfs-utils would follow.  A name that is gone (a deleted subvolume's
 * mount point) is not one others changed, and @top itself is root's
 * choice, as the export is: neither is a finding.
 */
static bool finding(const struct bino_confpath *cp, const char *top)
{
	switch (bino_confpath_reason(cp)) {
	case BINO_CONFPATH_SAFE:
		return false;
	case BINO_CONFPATH_UNRESOLVED:
		return bino_confpath_errno(cp) != ENOENT &&
		       strcmp(bino_confpath_directory(cp), top) != 0;
	default:
		return true;
	}
}

/*
 * The judgement of @target from the outermost export above it, into *@ret
 * (NULL when none is above it, or it is no finding()).  0, or -1 with errno
 * set (the library's: out of memory, as @target is below an export).
 */
static int judge(const struct bino_exports *const *tables, size_t n_tables,
		 const char *target, struct bino_confpath **ret)
{
	const char *top = outermost_export(tables, n_tables, target, true);

	*ret = NULL;
	if (!top)
		return 0;
	if (bino_confpath_create(top, target, 0, ret) != BINO_OK) {
		*ret = NULL;
		return -1;
	}
	if (!finding(*ret, top)) {
		bino_confpath_destroy(*ret);
		*ret = NULL;
	}
	return 0;
}

int export_confpath(const struct bino_exports *exports,
		    const struct bino_export *e, struct bino_confpath **ret)
{
	return judge(&exports, 1, bino_export_path(e), ret);
}

void put_confpath_why(FILE *out, const struct bino_confpath *confpath)
{
	const char *dir = bino_confpath_directory(confpath);
	int err = bino_confpath_errno(confpath);

	quote_comment(out, dir ? dir : "(unknown)");
	switch (bino_confpath_reason(confpath)) {
	case BINO_CONFPATH_OWNER:
		fprintf(out, " is owned by uid %" PRId64, bino_confpath_owner(confpath));
		break;
	case BINO_CONFPATH_GROUP_WRITABLE:
		fputs(" is group-writable", out);
		break;
	case BINO_CONFPATH_OTHER_WRITABLE:
		fputs(" is world-writable", out);
		break;
	case BINO_CONFPATH_ACL_WRITABLE:
		fputs(err ? " has an ACL that could not be read" :
			    " has an ACL that lets others write", out);
		break;
	case BINO_CONFPATH_UNRESOLVED:
		if (err == ELOOP || err == ENOTDIR)
			fputs(" is a symbolic link (or not a directory)", out);
		else
			fprintf(out, " cannot be opened through no symbolic link (%s)",
				strerror(err));
		break;
	default:
		fputs(" is safe", out);
		break;
	}
}

static bool mounted(const struct bino_mounts *mounts, const char *target)
{
	size_t i;

	for (i = 0; mounts && i < bino_mounts_count(mounts); i++) {
		if (strcmp(bino_mount_target(bino_mounts_get(mounts, i)), target) == 0)
			return true;
	}
	return false;
}

/* What the audits of the paths holding a line know of its subvolume. */
struct known {
	/* an audited path holding the line, or NULL */
	const struct bino_audit_target *audited;
	const struct bino_audit_subvol *subvol; /* the line's, when met */
};

static struct known look_up(const struct bino_audit *audit,
			    const struct fstab_line *line)
{
	struct known known = { NULL, NULL };
	size_t i, j;

	for (i = 0; audit && i < bino_audit_count(audit); i++) {
		const struct bino_audit_target *t = bino_audit_get(audit, i);

		if (bino_audit_target_error(t) ||
		    !bino__path_at_or_below(line->target, bino_audit_target_path(t)))
			continue;
		known.audited = t;
		for (j = 0; j < bino_audit_target_subvol_count(t); j++) {
			const struct bino_audit_subvol *s = bino_audit_target_subvol(t, j);
			const char *path = bino_audit_subvol_path(s);

			if (line->subvolid ? bino_audit_subvol_id(s) == line->subvolid :
					     path && strcmp(path, line->target) == 0) {
				known.subvol = s;
				return known;
			}
		}
	}
	return known;
}

/* The 16 bytes of a UUID as blkid prints it (36 characters): 0, or -1. */
static int uuid_parse_text(const char *text, uint8_t uuid[16])
{
	const char *p = text;
	unsigned int byte;
	size_t n;

	if (strlen(text) != 36)
		return -1;
	for (n = 0; n < 16; n++, p += 2) {
		if (n == 4 || n == 6 || n == 8 || n == 10) {
			if (*p++ != '-')
				return -1;
		}
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) ||
		    sscanf(p, "%2x", &byte) != 1)
			return -1;
		uuid[n] = (uint8_t)byte;
	}
	return 0;
}

/*
 * Whether the subvolume tree of @fs's filesystem is known to no longer
 * hold the subvolume @fs names (its subvolid=, else its subvol=): asked of
 * the filesystem holding @audited, the audited path that holds the line,
 * when the line's source names that filesystem (UUID=, else the same
 * source).  A missing mount point is no deletion, nor is anything that
 * cannot be asked: the line then stays.
 */
static bool known_deleted(const struct bino_audit_target *audited,
			  struct libmnt_fs *fs, const struct fstab_line *line)
{
	const struct bino_mount *m = bino_audit_target_mount(audited);
	const char *tag = NULL, *tag_value = NULL;
	char *value = NULL, *subvol = NULL;
	uint8_t uuid[16];
	bool by_uuid = false, exists = true;
	size_t len = 0;

	if (!m)
		return false;
	if (mnt_fs_get_tag(fs, &tag, &tag_value) == 0) {
		if (strcmp(tag, "UUID") != 0 || uuid_parse_text(tag_value, uuid) != 0)
			return false;
		by_uuid = true;
	} else if (strcmp(line->source, bino_mount_source(m)) != 0) {
		return false;
	}
	if (!line->subvolid &&
	    (mnt_fs_get_option(fs, "subvol", &value, &len) != 0 || !value ||
	     !(subvol = strndup(value, len))))
		return false; /* the default subvolume, or out of memory */
	if (bino_subvol_exists(bino_mount_target(m), by_uuid ? uuid : NULL,
			       line->subvolid, subvol, &exists) != BINO_OK)
		exists = true;
	free(subvol);
	return !exists;
}

static enum fstab_state line_state(const struct audit_session *session,
				   struct libmnt_fs *fs,
				   const struct fstab_line *line)
{
	struct known known = look_up(session->audit, line);

	if (line->confpath)
		return FSTAB_UNSAFE_PATH;
	if (known.subvol && bino_audit_subvol_parent_uuid(known.subvol))
		return FSTAB_SNAPSHOT;
	/* Not met where the audit looked: gone only if the tree says so. */
	if (!known.subvol && known.audited &&
	    known_deleted(known.audited, fs, line))
		return FSTAB_DELETED;
	return mounted(session->mounts, line->target) ? FSTAB_MOUNTED :
							FSTAB_NOT_MOUNTED;
}

/* ---- the file ---------------------------------------------------------- */

static uint64_t subvolid_of(struct libmnt_fs *fs)
{
	char *value = NULL, *end;
	size_t len = 0;
	char text[24];
	uint64_t id;

	if (mnt_fs_get_option(fs, "subvolid", &value, &len) != 0 || !value ||
	    len == 0 || len >= sizeof(text))
		return 0;
	memcpy(text, value, len);
	text[len] = '\0';
	errno = 0;
	id = strtoull(text, &end, 10);
	return errno || *end ? 0 : id;
}

/*
 * Add @fs, line @number, when it is a btrfs line below an export.
 * Returns 0, or -1 with errno set (out of memory).
 */
static int add_line(struct server_fstab *fstab, struct libmnt_fs *fs,
		    unsigned int number, const struct audit_session *session)
{
	const char *type = mnt_fs_get_fstype(fs), *target = mnt_fs_get_target(fs);
	const struct bino_exports *tables[2] = { session->files, session->etab };
	struct fstab_line *line;

	if (!type || strcmp(type, "btrfs") != 0 || !target || target[0] != '/' ||
	    !below_an_export(session, target))
		return 0;
	if (ARRAY_RESERVE(fstab->line, fstab->cap_lines, fstab->n_lines + 1) != 0)
		return -1;
	line = &fstab->line[fstab->n_lines];
	memset(line, 0, sizeof(*line));
	line->number = number;
	line->source = strdup(mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "none");
	line->target = strdup(target);
	if (!line->source || !line->target) {
		free(line->source);
		free(line->target);
		errno = ENOMEM;
		return -1;
	}
	fstab->n_lines++;
	line->subvolid = subvolid_of(fs);
	line->nofail = mnt_fs_get_option(fs, "nofail", NULL, NULL) == 0;
	if (judge(tables, 2, line->target, &line->confpath) != 0)
		return -1;
	line->state = line_state(session, fs, line);
	return 0;
}

/*
 * The entries of @table, numbered by the scan of the file.  Returns 0, or
 * -1 with errno set.
 */
static int add_lines(struct server_fstab *fstab, struct libmnt_table *table,
		     const struct rejected *r, const struct audit_session *session)
{
	struct libmnt_iter *iter = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	unsigned int *numbers;
	long n = entry_lines(fstab->file, r, &numbers);
	size_t i = 0;
	int rc = 0, errnum;

	if (!iter || n < 0) {
		errnum = iter ? errno : ENOMEM;
		mnt_free_iter(iter);
		free(numbers);
		errno = errnum;
		return -1;
	}
	/* When the scan disagrees with libmount, line numbers are unknown (0). */
	if ((size_t)n != (size_t)mnt_table_get_nents(table))
		n = 0;
	while (rc == 0 && mnt_table_next_fs(table, iter, &fs) == 0) {
		rc = add_line(fstab, fs, i < (size_t)n ? numbers[i] : 0, session);
		i++;
	}
	errnum = errno;
	mnt_free_iter(iter);
	free(numbers);
	errno = errnum;
	return rc;
}

int server_fstab_read(struct server_fstab *fstab, const char *file,
		      const struct audit_session *session)
{
	struct rejected r = { .file = file };
	struct libmnt_table *table;
	int rc = -1, err, errnum;

	memset(fstab, 0, sizeof(*fstab));
	fstab->file = strdup(file);
	table = mnt_new_table();
	if (!fstab->file || !table) {
		errno = ENOMEM;
		goto out;
	}
	mnt_table_set_userdata(table, &r);
	mnt_table_set_parser_errcb(table, on_parse_error);
	err = mnt_table_parse_file(table, file);
	if (err) {
		/* Missing is none; unreadable is said, and checked no further. */
		if (err != -ENOENT)
			diag_path(file, "%s: not checked", strerror(-err));
		rc = 0;
		goto out;
	}
	errno = ENOMEM; /* what r.no_memory says */
	rc = r.no_memory ? -1 : add_lines(fstab, table, &r, session);
out:
	/* Out of memory, or the file not read again for its line numbers. */
	errnum = errno;
	if (rc && errnum == ENOMEM)
		diag_no_memory();
	else if (rc)
		diag_path(file, "%s", strerror(errnum));
	mnt_unref_table(table);
	free(r.line);
	return rc;
}

void server_fstab_free(struct server_fstab *fstab)
{
	size_t i;

	for (i = 0; i < fstab->n_lines; i++) {
		free(fstab->line[i].source);
		free(fstab->line[i].target);
		bino_confpath_destroy(fstab->line[i].confpath);
	}
	free(fstab->line);
	free(fstab->file);
	memset(fstab, 0, sizeof(*fstab));
}

const struct fstab_line *server_fstab_find(const struct server_fstab *fstab,
					   const char *target)
{
	size_t i;

	for (i = 0; fstab && i < fstab->n_lines; i++) {
		const struct fstab_line *line = &fstab->line[i];

		if (strcmp(line->target, target) == 0 &&
		    (line->state == FSTAB_MOUNTED || line->state == FSTAB_NOT_MOUNTED))
			return line;
	}
	return NULL;
}

const char *fstab_line_removal(const struct fstab_line *line, char *buf,
			       size_t size)
{
	if (line->state == FSTAB_SNAPSHOT)
		snprintf(buf, size, "leave this snapshot to btrfs-ino mount");
	else if (line->state == FSTAB_DELETED && line->subvolid)
		snprintf(buf, size, "subvolume %" PRIu64 " deleted", line->subvolid);
	else if (line->state == FSTAB_DELETED)
		snprintf(buf, size, "its subvolume was deleted");
	else if (line->state == FSTAB_UNSAFE_PATH)
		snprintf(buf, size, "a user could change its path, leave it to btrfs-ino mount");
	else
		return NULL;
	return buf;
}
