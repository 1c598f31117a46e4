/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the server serves now against what its files say: audit's drift report. */
#ifndef BTRFS_INO_AUDIT_DRIFT_H
#define BTRFS_INO_AUDIT_DRIFT_H

#include <stdbool.h>
#include <stddef.h>

#include "btrfsino.h"
#include "output.h"
#include "audit_session.h"

/* What the drift report compares; all borrowed. */
struct drift_input {
	const struct audit_session *session;
	const char *etab_file; /* the etab asked for, or NULL */
	const char *files_name; /* what the exports files are, for text */
	const char *fstab_file; /* the server fstab to check, or NULL */
	/*
	 * Say on stderr why the etab is not the table audited: it was named,
	 * or every export is audited (with PATHs the files give the options).
	 */
	bool note_etab;
};

/* What the drift found asks the admin to run: the steps of audit's next: line. */
struct drift_steps {
	bool exportfs; /* exportfs -ra: the etab differs from the files */
	bool mount_all; /* mount -a: an fstab line below an export is not mounted */
	bool diff; /* suggest --diff: a line to remove (deleted, snapshot, unsafe path) */
};

/*
 * Print the "export_table" object (which table is audited, what became of
 * the etab), and the "exports_drift" and "fstab_drift" arrays (see
 * btrfs-ino(1), audit --json), in text a line per finding with what to
 * run.  Drift is: an entry of the exports files with no entry in effect for
 * its path and client, or one whose settings (bino_export_setting())
 * differ from those in effect; an entry in effect that no file holds; an
 * etab exportfs would not have written (it stops at a syntax error); a
 * btrfs line of @fstab_file at or below an exported path (server_fstab.h)
 * that is not mounted, whose subvolume was deleted, or that mounts a
 * snapshot.  An unreadable @fstab_file is said on stderr and not checked.
 * Returns the number of findings, or -1 with the reason on stderr (out of
 * memory, or @fstab_file could not be read again for its line numbers:
 * export_confpath(), server_fstab_read()); errno is then not the cause.
 * *@steps (zeroed first) says what the findings ask to run.
 */
long print_drift(struct output *out, const struct drift_input *in,
		 struct drift_steps *steps);

#endif
