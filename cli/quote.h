/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Quoting of a name for each configuration file format suggest writes, so
 * that the file's own reader gives back exactly the bytes of the name.
 */
#ifndef BTRFS_INO_QUOTE_H
#define BTRFS_INO_QUOTE_H

#include <stdio.h>

/*
 * A field of fstab(5) (libmount unescapes it): blanks, control bytes, DEL,
 * backslash and '#' as three-digit octal escapes (\040).
 */
void quote_fstab_field(FILE *out, const char *s);

/*
 * The path of an exports(5) line (nfs-utils unescapes it): as an fstab
 * field, and '"' escaped too.
 */
void quote_exports_path(FILE *out, const char *s);

/*
 * A key or location of an autofs(5) map: as it is when it holds no blank,
 * '"', '\\', '#' or '&'; else double-quoted with '"' and '\\' escaped.
 */
void quote_autofs_word(FILE *out, const char *s);

/* A value in a systemd unit file: '%' (a specifier) doubled. */
void quote_unit_value(FILE *out, const char *s);

/*
 * The name of the mount unit of mount point @path, as
 * "systemd-escape --path --suffix=mount" prints it.
 */
void quote_mount_unit_name(FILE *out, const char *path);

/* A single-quoted sh(1) word. */
void quote_sh_word(FILE *out, const char *s);

#endif
