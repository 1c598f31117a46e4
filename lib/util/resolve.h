/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Opening a directory without following a symbolic link (resolve.c says
 * why): each returns an fd, or -1 with errno, as openat(2) does.
 */
#ifndef BINO_RESOLVE_H
#define BINO_RESOLVE_H

/*
 * Open the directory @path (absolute) with @flags, following no symbolic
 * link in any of its components.
 */
int bino__resolve_no_symlinks(const char *path, int flags);

/*
 * Open the directory @path, relative to @dirfd, with @flags: never through
 * a symbolic link, never outside @dirfd (EXDEV, ELOOP or ENOTDIR otherwise).
 * Mount points on the way are crossed, as a path lookup would.
 */
int bino__resolve_beneath(int dirfd, const char *path, int flags);

/*
 * Open @path relative to @dirfd with @flags as bino__resolve_beneath()
 * does, but whatever it is and without O_DIRECTORY: with O_PATH, an
 * automount point at the end of @path is opened, not triggered.  Needs
 * openat2 (ENOSYS before Linux 5.6).
 */
int bino__resolve_beneath_as_is(int dirfd, const char *path, int flags);

/*
 * @path below @dirfd one name at a time, each opened with O_NOFOLLOW |
 * O_DIRECTORY and ".." refused (EXDEV), as RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS would; for paths beyond PATH_MAX, which openat2
 * cannot take whole.  An absolute @path starts at "/".
 */
int bino__resolve_by_names(int dirfd, const char *path, int flags);

#endif
