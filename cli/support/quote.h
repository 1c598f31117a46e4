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

#include <stddef.h>
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
 * newline (exportfs -v prints paths raw), a backslash followed by three
 * octal digits below 400 (xgettok() decodes "\134" to a backslash and then
 * decodes it again with the digits after it: "\134057" becomes "/"), and
 * more than NFS_MAXPATHLEN (1024) bytes.
 */
const char *quote_exports_refusal(const char *path);

/*
 * The path of an exports(5) line (nfs-utils unescapes it): as an fstab
 * field, and '"' escaped too.  Only for a path quote_exports_refusal()
 * accepts.
 */
void quote_exports_path(FILE *out, const char *s);

/*
 * autofs(5), as Debian 12's automount (autofs 5.1.8) reads a direct map's
 * multi-mount entry "KEY -OPTIONS / HOST:ROOT /OFFSET HOST:PATH ...":
 * lookup_file.c reads the key and the entry (quotes, escapes, continuation
 * lines), parse_sun.c expands the entry (expandsunent(): '$' and '&'
 * substituted, a ':' after the first ":/" of a word made '/', Debian's
 * patch drops a backslash outside quotes), splits it into words (chunklen,
 * span_space) and dequotes each (dequote, sanitize_path: outside quotes, a
 * control byte or a byte past ASCII makes it refuse an offset).  Text
 * inside double quotes passes every one of those steps unchanged, but for
 * '"' itself (and "//", which sanitize_path makes "/": no path has it); so
 * a word is written bare when it holds only bytes none of them treats
 * specially, else double-quoted.  Then the stored location is read
 * again when it is mounted: the "/" offset's by parse_mapent() (dequoted a
 * second time, split at blanks), every other one's by parse_mount()
 * (check_is_multi: after a blank, a '/' or '-' starts a multi-mount of its
 * own).  tests/root-suggest/autofs-oracle.c reads the map with Debian's
 * own code.
 */

/*
 * Why @path (a server path or client directory of an autofs(5) map entry)
 * cannot be in the map, or NULL: a control byte (a newline ends the entry,
 * and automount has no escape for one), a '"' (it can only end a quoted
 * part, and its escape loses its backslash to Debian's expandsunent()), or
 * a blank before a '/' or '-' (an offset's location read again would be a
 * multi-mount).
 */
const char *quote_autofs_refusal(const char *path);

/*
 * Why @path cannot be the server path of the entry's "/" offset, or NULL:
 * as quote_autofs_refusal(), or a blank or a backslash (that location is
 * dequoted twice, and split at blanks the second time).
 */
const char *quote_autofs_root_refusal(const char *path);

/*
 * Why @key (the client path an entry is for) cannot be the key of a direct
 * map entry, or NULL: as quote_autofs_refusal(), or longer than the 255
 * bytes (KEY_MAX_LEN) automount reads of a key, as written.
 */
const char *quote_autofs_key_refusal(const char *key);

/*
 * Why an entry whose bytes after the key, continuation lines joined, are
 * @length cannot be written, or NULL: automount's read_one() takes at most
 * 16384 of them (MAPENT_MAX_LEN) and drops a longer entry whole.
 */
const char *quote_autofs_entry_refusal(size_t length);

/*
 * A key or an offset (an absolute path, or "/"): its leading '/' bare (the
 * word reads as a path; automount takes a quote before it too), the rest
 * as it is or double-quoted.  Only for a path the refusals accept.
 */
void quote_autofs_path(FILE *out, const char *path);

/*
 * The location "HOST:PATH" of an offset: as it is, or double-quoted whole
 * (a quote opened after "HOST:" would let chunklen() run on past the next
 * blank).  Only for a path the refusals accept.
 */
void quote_autofs_location(FILE *out, const char *host, const char *path);

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
