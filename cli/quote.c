/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Quoting of a name for each configuration file format suggest writes. */
#include "quote.h"

#include <stdbool.h>
#include <string.h>

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

void quote_exports_path(FILE *out, const char *s)
{
	octal_escaped(out, s, "\"#");
}

/* autofs(5): a word with blanks or quotes is double-quoted. */
void quote_autofs_word(FILE *out, const char *s)
{
	const char *p;

	if (!strpbrk(s, " \t\"\\#&")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputc('"', out);
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
