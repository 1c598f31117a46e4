/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Quoting of a name for each configuration file format suggest writes. */
#include "quote.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/* nfs-utils' e_path holds NFS_MAXPATHLEN bytes; a longer path stops getexportent(). */
#define EXPORTS_PATH_MAX 1024
/* systemd's UNIT_NAME_MAX, with its NUL. */
#define UNIT_NAME_MAX 256

static bool has_control_byte(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p < ' ' || *p == 0x7f)
			return true;
	}
	return false;
}

/* fstab(5) and the exports(5) path: octal escapes for blanks and the like. */
static void octal_escaped(FILE *out, const char *s, const char *special)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == 0x7f || *p == '\\' || strchr(special, *p))
			fprintf(out, "\\%03o", *p);
		else
			fputc(*p, out);
	}
}

void quote_fstab_field(FILE *out, const char *s)
{
	octal_escaped(out, s, "#");
}

/*
 * nfs-utils 2.6.2 support/nfs/xio.c xgettok() appends a byte, then, if the
 * word now ends in a backslash and three octal digits below \400, replaces
 * those four by the byte they stand for: once per byte read, so a byte it
 * decoded takes part in the next test.  "\134" then "057" reads as "\057",
 * then "/".  A backslash of the name, written "\134", is therefore read
 * back as another byte exactly when the name's next three bytes are octal
 * digits below 0400 ("\3b", "\34x" and "\400" are read back as written);
 * no other byte can start a sequence, as every escape written is of a byte
 * that is not a digit.
 */
const char *quote_exports_refusal(const char *path)
{
	const char *p;

	if (strchr(path, '\n'))
		return "exports(5) cannot carry a newline: exportfs -v and "
		       "showmount print the path raw, as two lines";
	for (p = path; (p = strchr(p, '\\')); p++) {
		if (p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7')
			return "exports(5) cannot carry a backslash before three "
			       "octal digits below 400: nfs-utils decodes \\134 "
			       "to a backslash, then that backslash and the digits "
			       "after it again (\\134057 reads as /)";
	}
	if (strlen(path) > EXPORTS_PATH_MAX)
		return "exports(5) cannot carry a path longer than 1024 bytes "
		       "(NFS_MAXPATHLEN): getexportent() stops there";
	return NULL;
}

void quote_exports_path(FILE *out, const char *s)
{
	octal_escaped(out, s, "\"#");
}

/* automount's KEY_MAX_LEN: read_one() takes no longer key. */
#define AUTOFS_KEY_MAX 255
/* automount's MAPENT_MAX_LEN: read_one() drops a longer entry. */
#define AUTOFS_ENTRY_MAX 16384

/*
 * Bytes that none of automount's readers treats specially (see quote.h):
 * not blank, control, '"', '\\', '$', '&', ':', nor past ASCII; and not '#'
 * (a comment where a word starts, quoted to be plain wherever it is).
 */
static bool autofs_bare(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("/._+,=@%~-", *p)))
			return false;
	}
	return true;
}

const char *quote_autofs_refusal(const char *path)
{
	const char *p;

	if (has_control_byte(path))
		return "an autofs(5) map cannot carry a newline or another "
		       "control character: a newline ends the map entry and "
		       "automount has no escape for it";
	if (strchr(path, '"'))
		return "an autofs(5) map cannot carry a double quote: automount "
		       "reads one as the end of a quoted part, and Debian's "
		       "expandsunent() drops the backslash of an escaped one";
	for (p = path; (p = strchr(p, ' '));) {
		p += strspn(p, " ");
		if (*p == '/' || *p == '-')
			return "an autofs(5) map cannot carry a blank before "
			       "'/' or '-': automount reads an offset's location "
			       "again when it mounts it, and there such a blank "
			       "starts a multi-mount entry of its own";
	}
	return NULL;
}

const char *quote_autofs_root_refusal(const char *path)
{
	const char *reason = quote_autofs_refusal(path);

	if (reason)
		return reason;
	if (strchr(path, ' '))
		return "an autofs(5) map cannot carry a blank in the export's "
		       "own path: automount reads the location of the entry's "
		       "\"/\" offset a second time (parse_mapent()), and splits "
		       "it at blanks then";
	if (strchr(path, '\\'))
		return "an autofs(5) map cannot carry a backslash in the "
		       "export's own path: automount dequotes the location of "
		       "the entry's \"/\" offset a second time, which drops it";
	return NULL;
}

const char *quote_autofs_key_refusal(const char *key)
{
	const char *reason = quote_autofs_refusal(key);

	if (reason)
		return reason;
	if (strlen(key) + (autofs_bare(key) ? 0 : 2) > AUTOFS_KEY_MAX)
		return "an autofs(5) map key is at most 255 bytes "
		       "(KEY_MAX_LEN), and the client path is longer as written";
	return NULL;
}

const char *quote_autofs_entry_refusal(size_t length)
{
	if (length <= AUTOFS_ENTRY_MAX)
		return NULL;
	return "an autofs(5) map entry is at most 16384 bytes (MAPENT_MAX_LEN), "
	       "automount drops a longer one whole, and the subvolumes before "
	       "this one fill it: mount it with the client fstab lines";
}

void quote_autofs_path(FILE *out, const char *path)
{
	if (*path == '/')
		fputc(*path++, out);
	if (autofs_bare(path))
		fputs(path, out);
	else
		fprintf(out, "\"%s\"", path);
}

void quote_autofs_location(FILE *out, const char *host, const char *path)
{
	if (autofs_bare(host) && autofs_bare(path))
		fprintf(out, "%s:%s", host, path);
	else
		fprintf(out, "\"%s:%s\"", host, path);
}

/*
 * systemd's config_parse() reads a unit line by line, joins a line ending in
 * a backslash with the next, strips blanks at both ends of a value, and
 * path_simplify_and_warn() refuses a path that is not UTF-8.
 */
const char *quote_unit_value_refusal(const char *s)
{
	size_t len = strlen(s);

	if (has_control_byte(s))
		return "a systemd unit cannot carry a newline or another control "
		       "character: a newline would start a line of the unit's "
		       "own";
	if (!utf8_valid(s, len))
		return "a systemd unit cannot carry bytes that are not UTF-8: "
		       "systemd refuses such a path";
	if (len && s[len - 1] == ' ')
		return "a systemd unit cannot carry a blank at the end of a "
		       "value: systemd strips it";
	if (len && s[len - 1] == '\\')
		return "a systemd unit cannot carry a backslash at the end of a "
		       "value: systemd joins the next line to it";
	return NULL;
}

const char *quote_mount_unit_refusal(const char *path)
{
	const char *reason = quote_unit_value_refusal(path);
	char *name = NULL;
	size_t len = 0;
	FILE *out;

	if (reason)
		return reason;
	out = open_memstream(&name, &len);
	if (!out)
		return "its unit name could not be made (out of memory)";
	quote_mount_unit_name(out, path);
	if (fclose(out) != 0)
		len = UNIT_NAME_MAX;
	free(name);
	if (len >= UNIT_NAME_MAX)
		return "a systemd unit name is at most 255 bytes, and the "
		       "escaped path is longer";
	return NULL;
}

/* systemd unit file values: % starts a specifier. */
void quote_unit_value(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '%')
			fputc('%', out);
		fputc(*s, out);
	}
}

/* The unit name of a mount point, as "systemd-escape --path --suffix=mount". */
void quote_mount_unit_name(FILE *out, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	bool first = true;

	while (*p == '/')
		p++;
	if (!*p)
		fputc('-', out);
	for (; *p; p++, first = false) {
		if (*p == '/') {
			while (p[1] == '/')
				p++;
			if (p[1])
				fputc('-', out);
		} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			   (*p >= '0' && *p <= '9') || *p == ':' || *p == '_' ||
			   (*p == '.' && !first)) {
			fputc(*p, out);
		} else {
			fprintf(out, "\\x%02x", *p);
		}
	}
	fputs(".mount", out);
}

/* A single-quoted sh(1) word. */
void quote_sh_word(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

/* A comment: one line, whatever the bytes. */
void quote_comment(FILE *out, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p < ' ' || *p == 0x7f || *p == '\\')
			fprintf(out, "\\%03o", *p);
		else
			fputc(*p, out);
	}
}
