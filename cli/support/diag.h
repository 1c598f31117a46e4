/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Diagnostics on stderr that name a path without letting it break the line. */
#ifndef BTRFS_INO_DIAG_H
#define BTRFS_INO_DIAG_H

/*
 * "btrfs-ino: PATH: MESSAGE\n" on stderr, PATH escaped as text output
 * escapes it (a name may hold a newline or bytes that are not UTF-8).
 */
void diag_path(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * "btrfs-ino: COMMAND: PATH: MESSAGE\n" on stderr, PATH escaped as for
 * diag_path(): for a command that acts on many paths in one run (mount).
 */
void diag_command_path(const char *command, const char *path,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "btrfs-ino: MESSAGE\n" on stderr: a diagnostic that names no path. */
void diag_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A line after a diagnostic, without the program's name: "Try '...'",
 * "Did you mean '...'?" (util-linux and git put them so).
 */
void diag_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A status line on a terminal's stderr, drawn over the one before:
 * "btrfs-ino: PATH: MESSAGE" without a newline, PATH escaped as for
 * diag_path(); diag_status_clear() erases it before anything else is said.
 */
void diag_status_path(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag_status_clear(void);

/* The one wording of an allocation failure: "btrfs-ino: Cannot allocate memory". */
void diag_no_memory(void);

/* The one wording of a failed write of the output: "btrfs-ino: write error: ...". */
void diag_write_error(int errnum);

/*
 * The output could not be made (@errnum ENOMEM: diag_no_memory()) or
 * written (else diag_write_error()): what a command says once when it gave
 * up on its output.
 */
void diag_output_error(int errnum);

#include "btrfsino.h"

/*
 * The step that failed as a short token for JSON ("stat", "open",
 * "readdir"...): bino_strerror() gives a phrase for people.
 */
const char *error_step(enum bino_error err);

/*
 * Where a table cannot be parsed: "btrfs-ino: FILE:LINE:COLUMN: MESSAGE",
 * FILE escaped as for diag_path() (the file named may not be @syntax's own).
 */
void diag_syntax(const char *file, const struct bino_syntax_error *syntax);

/*
 * The one wording of an error on a path, in every command:
 * "btrfs-ino: PATH: Could not stat: No such file or directory".
 */
void diag_error(const char *path, enum bino_error err, int errnum);

#endif
