/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Quoting of a name for each configuration file format suggest writes, so
 * that the file's own reader gives back exactly the bytes of the name; and,
 * per format, the one place that decides which names the format cannot
 * carry.  A caller asks quote_*_refusal() first and writes no line for a
 * refused name, only the reason (names are chosen by whoever may create a
 * subvolume, so a name must never be able to add or change a line).
 */
#ifndef BTRFS_INO_QUOTE_H
#define BTRFS_INO_QUOTE_H

#include <stdio.h>

/*
 * A field of fstab(5): blanks, control bytes, DEL, backslash and '#' as
 * three-digit octal escapes (\040), which libmount decodes once each.  Every
 * name can be carried: there is no refusal for fstab.
 */
void quote_fstab_field(FILE *out, const char *s);

/*
 * Why @path cannot be the path of an exports(5) line, as a phrase for
 * "exports(5) cannot carry ...", or NULL when quote_exports_path() writes it
 * so that nfs-utils' getexportent() reads it back exactly.  Refused: a
 * newline (exportfs -v prints paths raw), a backslash followed by an octal
 * digit (xgettok() decodes "\134" to a backslash and then decodes it again
 * with the digits after it: "\134057" becomes "/"), and more than
 * NFS_MAXPATHLEN (1024) bytes.
 */
const char *quote_exports_refusal(const char *path);

/*
 * The path of an exports(5) line (nfs-utils unescapes it): as an fstab
 * field, and '"' escaped too.  Only for a path quote_exports_refusal()
 * accepts.
 */
void quote_exports_path(FILE *out, const char *s);

/*
 * Why @s cannot be a word of an autofs(5) map, or NULL: a control byte (a
 * newline ends the map entry, and automount has no escape for one).
 */
const char *quote_autofs_refusal(const char *s);

/*
 * A key or location of an autofs(5) map: as it is when it holds no blank,
 * '"', '\\', '#' or '&'; else double-quoted with '"' and '\\' escaped.
 */
void quote_autofs_word(FILE *out, const char *s);

/*
 * Why @s cannot be a value in a systemd unit file, or NULL: a control byte
 * (a newline would start a line of the unit's own, e.g. "[Install]"),
 * bytes that are not UTF-8 (systemd refuses such paths), or a blank or a
 * backslash at its end (systemd strips the one and continues the line
 * after the other).
 */
const char *quote_unit_value_refusal(const char *s);

/*
 * Why @path cannot be the Where= of a mount unit, or NULL: as a unit value,
 * or its unit name would be longer than systemd's 255 bytes.
 */
const char *quote_mount_unit_refusal(const char *path);

/* A value in a systemd unit file: '%' (a specifier) doubled. */
void quote_unit_value(FILE *out, const char *s);

/*
 * The name of the mount unit of mount point @path, as
 * "systemd-escape --path --suffix=mount" prints it.
 */
void quote_mount_unit_name(FILE *out, const char *path);

/* A single-quoted sh(1) word: every byte can be carried. */
void quote_sh_word(FILE *out, const char *s);

/*
 * @s in a "#" comment line of any of the formats: control bytes, DEL and
 * backslash as octal escapes, so that the comment stays one line.
 */
void quote_comment(FILE *out, const char *s);

#endif
