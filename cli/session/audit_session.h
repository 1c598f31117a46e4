/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What audit and suggest start from: the tables they read, and the audit run. */
#ifndef BTRFS_INO_AUDIT_SESSION_H
#define BTRFS_INO_AUDIT_SESSION_H

#include "btrfsino.h"

/*
 * Parse @exports_file, or with NULL the system's /etc/exports and
 * the *.exports files in /etc/exports.d (missing ones are fine).  A syntax
 * error is reported on stderr as "btrfs-ino: FILE:LINE:COLUMN: MESSAGE" and
 * the lines before it kept, as exportfs keeps them.  Returns 0, or -1 with
 * the reason on stderr.
 */
int read_exports(const char *exports_file, struct bino_exports **ret);

/*
 * Read @mountinfo_file (NULL: this process's own table); a malformed file is
 * reported as "btrfs-ino: FILE:LINE:COLUMN: MESSAGE".  Returns 0, or -1 with
 * the reason on stderr.
 */
int read_mounts(const char *mountinfo_file, struct bino_mounts **ret);

/* What to audit, from a command's options. */
struct audit_request {
	const char *exports_file; /* NULL: the system's exports files */
	/*
	 * The live export table (exportfs's etab) to audit instead of the
	 * exports files, which are then read to compare; NULL: none.
	 */
	const char *etab_file;
	const char *mountinfo_file; /* NULL: this process's own table */
	int flags; /* enum bino_audit_flags */
	bool quiet; /* no progress line, even on a terminal */
	/*
	 * Without @paths every exported path is audited; with this, no export
	 * at all is a result (nothing exported, nothing unsafe) rather than
	 * nothing to do.
	 */
	bool no_exports_is_a_result;
	char *const *paths;
	size_t n_paths;
	/*
	 * For stderr when there is nothing to audit, after "btrfs-ino: ";
	 * NULL: say nothing.
	 */
	const char *nothing_to_do;
};

/* What became of the etab of an audit_request. */
enum etab_state {
	ETAB_NOT_READ, /* none asked for */
	ETAB_READ, /* read whole: it is the table audited */
	ETAB_ERROR, /* reading it stopped at a syntax error: audited as read */
	ETAB_ABSENT, /* no such file: the exports files are audited */
	ETAB_EMPTY, /* no line: the exports files are audited */
	/* lines, but none exports an absolute path: the files are audited */
	ETAB_NO_PATH,
};

/* The tables read and the audit run; release with audit_session_release(). */
struct audit_session {
	struct bino_exports *exports; /* the table audited: etab or files */
	struct bino_exports *files; /* the exports files (may be @exports) */
	struct bino_exports *etab; /* the etab read, or NULL */
	enum etab_state etab_state;
	/*
	 * ETAB_ERROR: where reading the etab stopped; ETAB_NO_PATH: the first
	 * line left out.  Else zero.
	 */
	struct bino_syntax_error etab_problem;
	struct bino_mounts *mounts;
	struct bino_audit *audit;
};

/* How audit_session_run() ended. */
enum audit_session_end {
	AUDIT_SESSION_RAN, /* it ran, or nothing exported is the result */
	AUDIT_SESSION_NOTHING_TO_AUDIT, /* said as @nothing_to_do */
	AUDIT_SESSION_FAILED, /* the problem said on stderr */
};

/*
 * Read the tables, add the paths and run the audit, with a progress line on
 * stderr when it is a terminal.  Nothing to audit is no path named and
 * nothing exported.  @session is released unless the audit ran.
 */
enum audit_session_end audit_session_run(const struct audit_request *request,
					 struct audit_session *session);
void audit_session_release(struct audit_session *session);

#endif
