/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Drift between what the NFS server serves now and what its files say: the
 * etab exportfs wrote against /etc/exports and /etc/exports.d, and the
 * btrfs lines of the server fstab against the mount table and the audit.
 * Options are compared by what they set, in the library's one model of
 * them (bino_export_setting(): as exportfs 2.6.2 expands them into the
 * etab, every default written, "fsid=root" as "fsid=0", "mp" as
 * "mountpoint"), which the suggestions read too (bino_export_flags()).
 */
#include "audit_drift.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "report.h"
#include "server_fstab.h"

/* Whether @e has the option @opt of no setting (bino_export_other()). */
static bool other_in(const struct bino_export *e, const char *opt)
{
	size_t i;

	for (i = 0; i < bino_export_other_count(e); i++) {
		if (strcmp(bino_export_other(e, i), opt) == 0)
			return true;
	}
	return false;
}

/* ---- the exports drift ------------------------------------------------- */

static bool same_entry(const struct bino_export *a, const struct bino_export *b)
{
	return strcmp(bino_export_path(a), bino_export_path(b)) == 0 &&
	       strcmp(bino_export_client(a), bino_export_client(b)) == 0;
}

static const struct bino_export *find_entry(const struct bino_exports *table,
					    const struct bino_export *e)
{
	size_t i, n = bino_exports_count(table);

	for (i = 0; i < n; i++) {
		if (same_entry(bino_exports_get(table, i), e))
			return bino_exports_get(table, i);
	}
	return NULL;
}

static void print_place(struct output *out, const char *key,
			const struct bino_export *e)
{
	output_open_object(out, key);
	print_text_path(out, "file", "%s", bino_export_file(e));
	print_u64(out, PRINT_ANY, "line", ":%" PRIu64, bino_export_line(e));
	print_string(out, PRINT_JSON, "options", NULL, bino_export_options(e));
	output_close(out);
}

/* The start of one exports finding: its kind, path and client. */
static void open_finding(struct output *out, const char *kind,
			 const struct bino_export *e)
{
	output_open_object(out, NULL);
	print_string(out, PRINT_JSON, "kind", NULL, kind);
	print_text_path(out, "path", "export drift: %s", bino_export_path(e));
	print_string(out, PRINT_ANY, "client", " to %s: ", bino_export_client(e));
}

/* One difference {option, files, in_effect}; *@n counts them for text. */
static void print_difference(struct output *out, const char *option,
			     const char *file, const char *live, size_t *n)
{
	output_open_object(out, NULL);
	print_string(out, PRINT_JSON, "option", NULL, option);
	print_string(out, PRINT_ANY, "files", *n ? ", %s" : "%s", file);
	print_string(out, PRINT_ANY, "in_effect", " (in effect: %s)", live);
	output_close(out);
	(*n)++;
}

/*
 * The settings of @file's entry that differ from @live's (the library's
 * model of what options mean, bino_export_setting()), as "differences":
 * [{option, files, in_effect}]; returns their number.
 */
static size_t print_differences(struct output *out, const struct bino_export *file,
				const struct bino_export *live)
{
	size_t i, n = 0;

	output_open_array(out, "differences");
	for (i = 0; i < bino_export_setting_count(); i++) {
		const char *a = bino_export_setting(file, i);
		const char *b = bino_export_setting(live, i);

		if (strcmp(a, b) != 0)
			print_difference(out, bino_export_setting_name(i), a, b, &n);
	}
	for (i = 0; i < bino_export_other_count(file); i++) {
		const char *opt = bino_export_other(file, i);

		if (!other_in(live, opt))
			print_difference(out, opt, opt, "not set", &n);
	}
	for (i = 0; i < bino_export_other_count(live); i++) {
		const char *opt = bino_export_other(live, i);

		if (!other_in(file, opt))
			print_difference(out, opt, "not set", opt, &n);
	}
	output_close(out);
	return n;
}

/* Whether the options of @file and @live set the same. */
static bool same_settings(const struct bino_export *file,
			  const struct bino_export *live)
{
	size_t i;

	for (i = 0; i < bino_export_setting_count(); i++) {
		if (strcmp(bino_export_setting(file, i), bino_export_setting(live, i)) != 0)
			return false;
	}
	for (i = 0; i < bino_export_other_count(file); i++) {
		if (!other_in(live, bino_export_other(file, i)))
			return false;
	}
	for (i = 0; i < bino_export_other_count(live); i++) {
		if (!other_in(file, bino_export_other(live, i)))
			return false;
	}
	return true;
}

/* A finding when the options of @file are not those of @live; 1, else 0. */
static int compare_entry(struct output *out, const struct bino_export *file,
			 const struct bino_export *live)
{
	if (same_settings(file, live))
		return 0;
	open_finding(out, "options_differ", file);
	print_string(out, PRINT_TEXT, NULL, "%s", "options of ");
	print_place(out, "files", file);
	print_string(out, PRINT_TEXT, NULL, "%s", " are not those in effect (");
	print_place(out, "in_effect", live);
	print_string(out, PRINT_TEXT, NULL, "%s", "): ");
	print_differences(out, file, live);
	print_string(out, PRINT_TEXT, NULL, "%s\n", "; run exportfs -ra");
	output_close(out);
	return 1;
}

/*
 * put_confpath_why() in text: ": DIR is owned by uid 1000".  Returns 0, or
 * -1 with the reason on stderr (out of memory: nothing printed).
 */
static int print_why_text(struct output *out, const struct bino_confpath *cp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f)
		put_confpath_why(f, cp);
	if (!f || memstream_close(f, &text) != 0) {
		free(text);
		diag_no_memory();
		return -1;
	}
	print_string(out, PRINT_TEXT, NULL, ": %s", text);
	free(text);
	return 0;
}

/*
 * A finding when @e's path crosses a directory others may change, judged
 * from the outermost export above it (export_confpath()); 1, else 0, or
 * -1 with the reason on stderr (out of memory).
 */
static int check_path(struct output *out, const struct bino_exports *files,
		      const struct bino_export *e)
{
	struct bino_confpath *cp = NULL;

	if (export_confpath(files, e, &cp) != 0) {
		diag_no_memory();
		return -1;
	}
	if (!cp)
		return 0;
	open_finding(out, "path_not_safe", e);
	print_place(out, "files", e);
	if (print_why_text(out, cp) != 0) {
		output_close(out);
		bino_confpath_destroy(cp);
		return -1;
	}
	print_confpath(out, "unsafe_path", cp);
	print_string(out, PRINT_TEXT, NULL, "%s\n",
		     ": a user could make it export another directory; "
		     "suggest --diff removes the line");
	output_close(out);
	bino_confpath_destroy(cp);
	return 1;
}

/*
 * The "exports_drift" array: the number of findings, or -1 with the reason
 * on stderr; what they ask to run into @steps.
 */
static long print_exports_drift(struct output *out,
				const struct bino_exports *files,
				const struct bino_exports *live,
				struct drift_steps *steps)
{
	size_t i;
	long n = 0, unsafe;
	int found;

	output_open_array(out, "exports_drift");
	for (i = 0; files && i < bino_exports_count(files); i++) {
		const struct bino_export *e = bino_exports_get(files, i);

		if (find_entry(files, e) != e)
			continue;
		found = check_path(out, files, e);
		if (found < 0) {
			output_close(out);
			return -1;
		}
		n += found;
	}
	unsafe = n;
	steps->diff = steps->diff || unsafe > 0;
	for (i = 0; live && i < bino_exports_count(files); i++) {
		const struct bino_export *e = bino_exports_get(files, i);
		const struct bino_export *l = find_entry(live, e);

		if (find_entry(files, e) != e)
			continue; /* exportfs keeps the first */
		if (!l) {
			open_finding(out, "not_in_effect", e);
			print_string(out, PRINT_TEXT, NULL, "%s", "");
			print_place(out, "files", e);
			print_string(out, PRINT_JSON, "in_effect", NULL, NULL);
			print_string(out, PRINT_TEXT, NULL, "%s\n",
				     " is not in effect; run exportfs -ra");
			output_close(out);
			n++;
			continue;
		}
		n += compare_entry(out, e, l);
	}
	for (i = 0; live && i < bino_exports_count(live); i++) {
		const struct bino_export *l = bino_exports_get(live, i);

		if (find_entry(files, l))
			continue;
		open_finding(out, "not_in_files", l);
		print_string(out, PRINT_JSON, "files", NULL, NULL);
		print_string(out, PRINT_TEXT, NULL, "%s", "in effect (");
		print_place(out, "in_effect", l);
		print_string(out, PRINT_TEXT, NULL, "%s\n",
			     ") but in no exports file; run exportfs -ra to unexport it");
		output_close(out);
		n++;
	}
	output_close(out);
	steps->exportfs = steps->exportfs || n > unsafe;
	return n;
}

/* ---- the fstab drift --------------------------------------------------- */

/*
 * One line that must change: removed, or mounted.  Returns 0, or -1 with
 * the reason on stderr (out of memory).
 */
static int print_fstab_line(struct output *out, const char *file,
			    const struct fstab_line *line)
{
	static const char *const kinds[] = {
		[FSTAB_NOT_MOUNTED] = "not_mounted",
		[FSTAB_DELETED] = "subvolume_deleted",
		[FSTAB_SNAPSHOT] = "snapshot",
		[FSTAB_UNSAFE_PATH] = "path_not_safe",
	};
	char why[64];
	const char *removal = fstab_line_removal(line, why, sizeof(why));

	output_open_object(out, NULL);
	print_string(out, PRINT_JSON, "kind", NULL, kinds[line->state]);
	if (removal) {
		print_text_path(out, "file", "fstab drift: remove %s", file);
		print_u64(out, PRINT_ANY, "line", " line %" PRIu64 ": ", line->number);
		print_string(out, PRINT_TEXT, NULL, "%s", removal);
		if (line->confpath && print_why_text(out, line->confpath) != 0) {
			output_close(out);
			return -1;
		}
		print_string(out, PRINT_TEXT, NULL, "%s", " (");
	} else {
		print_text_path(out, "file", "fstab drift: %s", file);
		print_u64(out, PRINT_ANY, "line", ":%" PRIu64 ": ", line->number);
	}
	print_text_path(out, "source", "%s", line->source);
	print_text_path(out, "mountpoint", " on %s", line->target);
	if (line->subvolid)
		print_u64(out, PRINT_JSON, "subvolid", NULL, line->subvolid);
	else
		print_string(out, PRINT_JSON, "subvolid", NULL, NULL);
	print_confpath(out, "unsafe_path", line->confpath);
	print_string(out, PRINT_TEXT, NULL, "%s\n",
		     removal ? "); suggest --diff removes it" :
			       " is below an export but not mounted; run mount -a");
	output_close(out);
	return 0;
}

/*
 * The "fstab_drift" array: the number of findings, or -1 with the reason
 * on stderr; what they ask to run into @steps.
 */
static long print_fstab_drift(struct output *out, const struct drift_input *in,
			      struct drift_steps *steps)
{
	struct server_fstab fstab = { 0 };
	size_t i;
	long n = 0;

	if (in->fstab_file &&
	    server_fstab_read(&fstab, in->fstab_file, in->session) != 0)
		return -1;
	output_open_array(out, "fstab_drift");
	for (i = 0; i < fstab.n_lines; i++) {
		if (fstab.line[i].state == FSTAB_MOUNTED)
			continue;
		if (print_fstab_line(out, in->fstab_file, &fstab.line[i]) != 0) {
			n = -1;
			break;
		}
		if (fstab.line[i].state == FSTAB_NOT_MOUNTED)
			steps->mount_all = true;
		else
			steps->diff = true;
		n++;
	}
	output_close(out);
	server_fstab_free(&fstab);
	return n;
}

/* ---- the report -------------------------------------------------------- */

static const char *etab_state_name(enum etab_state state)
{
	switch (state) {
	case ETAB_READ:
		return "read";
	case ETAB_ERROR:
		return "error";
	case ETAB_ABSENT:
		return "absent";
	case ETAB_EMPTY:
		return "empty";
	case ETAB_NO_PATH:
		return "no_path";
	case ETAB_NOT_READ:
		break;
	}
	return NULL;
}

/*
 * Why the etab is not the table audited, on stderr: a note about the
 * machine, not a finding, so never between the table and next: (text
 * only: the JSON says it as etab_state).
 */
static void note_etab_not_audited(const struct drift_input *in)
{
	const struct audit_session *session = in->session;

	if (session->etab_state == ETAB_NO_PATH)
		diag_path(in->etab_file, "no line exports an absolute path "
			  "(line %u: %s): auditing %s instead",
			  session->etab_problem.line, session->etab_problem.message,
			  in->files_name);
	else
		diag_path(in->etab_file, "%s (no NFS server running?): "
			  "auditing %s instead",
			  session->etab_state == ETAB_ABSENT ? "absent" : "empty",
			  in->files_name);
}

static void print_export_table(struct output *out, const struct drift_input *in)
{
	const struct audit_session *session = in->session;
	const struct bino_syntax_error *problem = &session->etab_problem;
	enum etab_state state = session->etab_state;

	output_open_object(out, "export_table");
	print_string(out, PRINT_JSON, "audited", NULL, session->etab ? "etab" : "files");
	print_text_path(out, "etab", NULL, in->etab_file);
	print_string(out, PRINT_JSON, "etab_state", NULL, etab_state_name(state));
	if (problem->line) {
		output_open_object(out, "etab_problem");
		print_u64(out, PRINT_JSON, "line", NULL, problem->line);
		print_u64(out, PRINT_JSON, "column", NULL, problem->column);
		print_string(out, PRINT_JSON, "message", NULL, problem->message);
		output_close(out);
	} else {
		print_string(out, PRINT_JSON, "etab_problem", NULL, NULL);
	}
	output_close(out);
	if ((state == ETAB_ABSENT || state == ETAB_EMPTY || state == ETAB_NO_PATH) &&
	    output_format(out) == OUTPUT_TEXT && in->note_etab)
		note_etab_not_audited(in);
	else if (state == ETAB_ERROR)
		print_text_path(out, NULL,
				"etab error: %s stops at a syntax error: "
				"audited as far as it reads\n",
				in->etab_file);
}

long print_drift(struct output *out, const struct drift_input *in,
		 struct drift_steps *steps)
{
	long exports, fstab;

	*steps = (struct drift_steps){
		/* exportfs -ra writes an etab that reads whole */
		.exportfs = in->session->etab_state == ETAB_ERROR,
	};
	print_export_table(out, in);
	exports = print_exports_drift(out, in->session->files, in->session->etab,
				      steps);
	fstab = exports < 0 ? -1 : print_fstab_drift(out, in, steps);
	if (fstab < 0)
		return -1;
	if (exports || fstab || in->session->etab_state == ETAB_ERROR)
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
	return exports + fstab + (in->session->etab_state == ETAB_ERROR);
}
