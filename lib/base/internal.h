/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by the library's own files only: export marker and small helpers. */

/*
 * The library's one internal error convention (binding for lib/):
 *
 * - A function that can fail returns enum bino_error: BINO_OK on success,
 *   otherwise the value naming the step that failed.  When the caller needs
 *   the cause, the function gives the errno through an `int *errnum`
 *   out-parameter (last) or through the error slot of the object it works
 *   on; it does not leave the caller to read errno after other calls.
 * - Only a thin wrapper of one system call, documented as such at its
 *   declaration, returns 0 / -1 with errno set, like the call it wraps;
 *   and a function that opens a file descriptor returns it, or -1 with
 *   errno set, as openat(2) does (documented so at its declaration).
 * - A callback of the library's own returns enum bino_error too: BINO_OK
 *   goes on, BINO_ERROR_STOP_ITERATION stops without an error, anything
 *   else stops and is passed up.
 * - No "bool plus an enum out-parameter": the enum is the return value.
 * - No bare multi-valued ints (-1/0/1/2): a result with several non-error
 *   outcomes is a named enum whose values say what happened.  A plain bool
 *   is fine for a yes/no question that cannot fail.
 * - The public API keeps its own documented shapes (include/btrfsino.h).
 * - The seam is one place: only a public (BINO_PUBLIC) function turns an
 *   internal errnum into errno, once, just before it returns; no internal
 *   function leaves errno for its caller to read, and none saves and
 *   restores errno around its cleanup to keep a cause alive (the cause is
 *   already in *errnum, where free() and close() cannot reach it).
 * - lib/util/ knows nothing of the project, not even enum bino_error: its
 *   helpers answer as the libc call they stand for (ARRAY_RESERVE as
 *   realloc: 0, or -1 with ENOMEM; bino__text_escape as strdup: NULL).
 */
#ifndef BINO_INTERNAL_H
#define BINO_INTERNAL_H

#include "btrfsino.h"

/* Everything is hidden unless marked; lib/libbtrfsino.sym lists the same set. */
#define BINO_PUBLIC __attribute__((visibility("default")))

#endif
