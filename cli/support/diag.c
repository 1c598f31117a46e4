/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One line per diagnostic, whatever bytes the path holds. */
#include "diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "escape.h"

/* One line on stderr: @prefix (may be ""), then @fmt with @args. */
static void diag_line(const char *prefix, const char *fmt, va_list args)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

/*
 * @path on stderr as text output escapes it.  When memory runs out a name
 * that needs escaping is never written raw (a newline in it would forge a
 * line): "?" stands for it.
 */
static void diag_put_path(const char *path)
{
	size_t len = strlen(path);
	char *escaped;

	if (!text_needs_escape(path, len)) {
		fputs(path, stderr);
		return;
	}
	escaped = text_escape(path, len);
	fputs(escaped ? escaped : "?", stderr);
	free(escaped);
}

/* "btrfs-ino: [COMMAND: ]PATH: ", PATH escaped; @command may be NULL. */
static void diag_path_prefix(const char *command, const char *path)
{
	fprintf(stderr, "%s: ", PROGRAM_NAME);
	if (command)
		fprintf(stderr, "%s: ", command);
	diag_put_path(path);
	fputs(": ", stderr);
}

/* The line of diag_path() and diag_command_path(); @command may be NULL. */
static void diag_vline(const char *command, const char *path, const char *fmt,
		       va_list args)
{
	diag_path_prefix(command, path);
	diag_line("", fmt, args);
}

void diag_path(const char *path, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	diag_vline(NULL, path, fmt, args);
	va_end(args);
}

void diag_command_path(const char *command, const char *path,
		       const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	diag_vline(command, path, fmt, args);
	va_end(args);
}

void diag_message(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	diag_line(PROGRAM_NAME ": ", fmt, args);
	va_end(args);
}

void diag_hint(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	diag_line("", fmt, args);
	va_end(args);
}

void diag_status_path(const char *path, const char *fmt, ...)
{
	va_list args;

	fputs("\r\033[K", stderr);
	diag_path_prefix(NULL, path);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fflush(stderr);
}

void diag_status_clear(void)
{
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

void diag_syntax(const char *file, const struct bino_syntax_error *syntax)
{
	fprintf(stderr, "%s: ", PROGRAM_NAME);
	diag_put_path(file);
	fprintf(stderr, ":%u:%u: %s\n", syntax->line, syntax->column,
		syntax->message);
}

void diag_no_memory(void)
{
	diag_message("%s", strerror(ENOMEM));
}

void diag_write_error(int errnum)
{
	diag_message("write error: %s", strerror(errnum ? errnum : EIO));
}

void diag_output_error(int errnum)
{
	if (errnum == ENOMEM)
		diag_no_memory();
	else
		diag_write_error(errnum);
}

const char *error_step(enum bino_error err)
{
	static const char *const steps[] = {
		[BINO_OK] = "ok",
		[BINO_ERROR_STOP_ITERATION] = "end",
		[BINO_ERROR_NO_MEMORY] = "memory",
		[BINO_ERROR_INVALID_ARGUMENT] = "argument",
		[BINO_ERROR_OPEN_FAILED] = "open",
		[BINO_ERROR_STAT_FAILED] = "stat",
		[BINO_ERROR_READDIR_FAILED] = "readdir",
		[BINO_ERROR_SUBVOLID_FAILED] = "subvolid",
		[BINO_ERROR_FILE_HANDLE_FAILED] = "file_handle",
		[BINO_ERROR_CHANGED_DURING_WALK] = "changed",
		[BINO_ERROR_MOUNTINFO_FAILED] = "mountinfo",
		[BINO_ERROR_EXPORTS_READ_FAILED] = "exports_read",
		[BINO_ERROR_EXPORTS_SYNTAX] = "exports_syntax",
		[BINO_ERROR_NOT_FOUND] = "not_found",
		[BINO_ERROR_MOUNTINFO_SYNTAX] = "mountinfo_syntax",
		[BINO_ERROR_MOUNT_FAILED] = "mount",
		[BINO_ERROR_UMOUNT_FAILED] = "umount",
		[BINO_ERROR_SUBVOL_INFO_FAILED] = "subvol_info",
		[BINO_ERROR_SUBVOL_DELETED] = "subvol_deleted",
	};

	if ((unsigned)err < sizeof(steps) / sizeof(steps[0]) && steps[err])
		return steps[err];
	return "unknown";
}

void diag_error(const char *path, enum bino_error err, int errnum)
{
	if (errnum)
		diag_path(path, "%s: %s", bino_strerror(err), strerror(errnum));
	else
		diag_path(path, "%s", bino_strerror(err));
}
