/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * uthash, set up the one way the library uses it: an allocation failure is
 * an error the caller sees, never exit().  Callers still set
 * uthash_nonfatal_oom at each insertion to learn of it, and zero their keys
 * (padding included) before hashing them.
 */
#ifndef BINO_HASH_H
#define BINO_HASH_H

#define HASH_NONFATAL_OOM 1
#include <uthash.h>

#endif
