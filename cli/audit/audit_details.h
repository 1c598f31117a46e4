/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* audit's per-path details: --verbose text and the JSON document, one renderer. */
#ifndef BTRFS_INO_AUDIT_DETAILS_H
#define BTRFS_INO_AUDIT_DETAILS_H

#include "btrfsino.h"
#include "output.h"
#include "suggestion.h"

/* How the report of a path ended (cli.h: an enum names each outcome). */
enum details_end {
	DETAILS_WHOLE, /* printed whole */
	/*
	 * --suggest made no suggestion: said on stderr, the rest printed; a
	 * finding, the run goes on
	 */
	DETAILS_NO_SUGGESTION,
	DETAILS_FAILED, /* out of memory: said on stderr; the report stops */
};

/*
 * One audited path: an object of the "exports" array in JSON, its detailed
 * report in text.  @exports: the table audited (every client of the export
 * is named); @suggest: with --suggest, else NULL; @covering: as for
 * audit_details_suggestion().
 */
enum details_end audit_details_export(struct output *out, const struct bino_exports *exports,
			  const struct bino_audit_target *target,
			  const struct suggest_config *suggest,
			  const struct bino_audit_target *covering);

/*
 * With --suggest: what suggest prints for the export, after its report
 * (unsafe ones only, on stdout), or under "suggestion" in JSON (null if not
 * audited).  @covering: the audited path whose tree holds the export's
 * (suggestion_covering()), or NULL; its suggestion names the export's
 * mounts, so the export gets a line saying so ("suggestion_in" in JSON),
 * as suggest does.  DETAILS_WHOLE or DETAILS_NO_SUGGESTION.
 */
enum details_end audit_details_suggestion(struct output *out,
			      const struct suggest_config *config,
			      const struct bino_audit_target *target,
			      const struct bino_audit_target *covering);

#endif
