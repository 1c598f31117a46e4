/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * uthash, set up the one way the library uses it: an allocation failure is
 * an error the caller sees, never exit().  A function that inserts declares
 *
 *	bool out_of_memory = false;
 *
 * and tests it after each HASH_ADD: uthash sets it (through
 * uthash_nonfatal_oom below) when it could not grow the table, and the
 * element is then not in it.  Keys are zeroed (padding included) before
 * they are hashed.
 */
#ifndef BINO_HASH_H
#define BINO_HASH_H

#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) (out_of_memory = true)
#include <uthash.h>

#endif
