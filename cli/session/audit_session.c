/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What audit and suggest start from, in one place so both commands accept
 * the same files, audit alike and word their errors alike: the exports and
 * mount tables, and the audit run with its progress line.
 */
#include "diag.h"
#include "audit_session.h"

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


#define SYSTEM_EXPORTS "/etc/exports"
#define SYSTEM_EXPORTS_GLOB "/etc/exports.d/*.exports"

/*
 * Add the exports file @path to @exports; a syntax error is said and what
 * came before it kept, a missing file skipped when @missing_ok.  Returns
 * 0, or -1 with the reason on stderr.
 */
static int add_exports_file(struct bino_exports *exports, const char *path,
			    bool missing_ok)
{
	struct bino_syntax_error syntax;
	enum bino_error err;

	memset(&syntax, 0, sizeof(syntax));
	err = bino_exports_add_file(exports, path, &syntax);
	if (err == BINO_OK)
		return 0;
	/* exportfs stops there too: the report shows it, and what came before. */
	if (err == BINO_ERROR_EXPORTS_SYNTAX) {
		diag_syntax(syntax.file[0] ? syntax.file : path, &syntax);
		return 0;
	}
	if (err == BINO_ERROR_EXPORTS_READ_FAILED && missing_ok &&
	    errno == ENOENT)
		return 0;
	diag_path(path, "%s: %s",
		bino_strerror(err), strerror(errno));
	return -1;
}

int read_exports(const char *exports_file, struct bino_exports **ret)
{
	struct bino_exports *exports;
	glob_t found;
	size_t i;
	int rc, glob_rc;

	if (bino_exports_create(&exports) != BINO_OK) {
		diag_no_memory();
		return -1;
	}
	if (exports_file) {
		rc = add_exports_file(exports, exports_file, false);
	} else {
		rc = add_exports_file(exports, SYSTEM_EXPORTS, true);
		/* No match is no file; a directory not read is none either. */
		glob_rc = rc == 0 ? glob(SYSTEM_EXPORTS_GLOB, 0, NULL, &found) :
				    GLOB_NOMATCH;
		if (glob_rc == GLOB_NOSPACE) {
			diag_no_memory();
			rc = -1;
		}
		if (glob_rc == 0) {
			for (i = 0; i < found.gl_pathc && rc == 0; i++)
				rc = add_exports_file(exports, found.gl_pathv[i],
						      true);
			globfree(&found);
		}
	}
	if (rc != 0) {
		bino_exports_destroy(exports);
		return -1;
	}
	*ret = exports;
	return 0;
}

int read_mounts(const char *mountinfo_file, struct bino_mounts **ret)
{
	struct bino_syntax_error syntax;
	enum bino_error err;

	memset(&syntax, 0, sizeof(syntax));
	err = bino_mounts_read(mountinfo_file, &syntax, ret);
	/* Offline, the file is the server's whole mount table: never empty. */
	if (err == BINO_OK && mountinfo_file && bino_mounts_count(*ret) == 0) {
		diag_path(mountinfo_file, "lists no mounts: not a mount table");
		bino_mounts_destroy(*ret);
		*ret = NULL;
		return -1;
	}
	if (err == BINO_OK)
		return 0;
	if (err == BINO_ERROR_MOUNTINFO_SYNTAX)
		diag_syntax(syntax.file, &syntax);
	else
		diag_path(mountinfo_file ? mountinfo_file : "mount table", "%s: %s",
			bino_strerror(err), strerror(errno));
	return -1;
}

/*
 * The live table of @session: @path read whole (ETAB_READ), or up to a
 * syntax error (ETAB_ERROR, where in etab_problem), or not there, empty or
 * with no line of an absolute path (ETAB_ABSENT, ETAB_EMPTY, ETAB_NO_PATH:
 * etab NULL).  Returns 0, or -1 with the reason on stderr when it cannot
 * be read.
 */
static int read_etab(const char *path, struct audit_session *session)
{
	enum etab_state *state = &session->etab_state;
	struct bino_exports **ret = &session->etab;
	struct bino_syntax_error syntax;
	struct bino_exports *etab;
	enum bino_error err;

	*ret = NULL;
	if (bino_exports_create(&etab) != BINO_OK) {
		diag_no_memory();
		return -1;
	}
	memset(&syntax, 0, sizeof(syntax));
	err = bino_exports_add_file(etab, path, &syntax);
	if (err == BINO_ERROR_EXPORTS_READ_FAILED && errno == ENOENT) {
		*state = ETAB_ABSENT;
		bino_exports_destroy(etab);
		return 0;
	}
	if (err != BINO_OK && err != BINO_ERROR_EXPORTS_SYNTAX) {
		diag_path(path, "%s: %s",
			bino_strerror(err), strerror(errno));
		bino_exports_destroy(etab);
		return -1;
	}
	if (err == BINO_ERROR_EXPORTS_SYNTAX) {
		diag_syntax(path, &syntax);
		session->etab_problem = syntax;
	}
	if (err == BINO_OK && bino_exports_count(etab) == 0) {
		/* Its lines were left out, each with a warning: say which. */
		*state = bino_exports_warning_count(etab) ? ETAB_NO_PATH : ETAB_EMPTY;
		if (*state == ETAB_NO_PATH)
			session->etab_problem = *bino_exports_warning(etab, 0);
		bino_exports_destroy(etab);
		return 0;
	}
	*state = err == BINO_OK ? ETAB_READ : ETAB_ERROR;
	*ret = etab;
	return 0;
}

static void show_audit_progress(const struct bino_audit_target *target,
				uint64_t entries, void *data)
{
	(void)data;
	diag_status_path(bino_audit_target_path(target),
			 "%" PRIu64 " entries audited", entries);
}

/* The request's PATHs, else the exports, into @audit: the library's error (errno set), kept. */
static enum bino_error audit_session_add(const struct audit_request *request,
					 struct bino_audit *audit)
{
	enum bino_error err = BINO_OK;
	size_t i;

	for (i = 0; !err && i < request->n_paths; i++)
		err = bino_audit_add_path(audit, request->paths[i]);
	if (!err && request->n_paths == 0)
		err = bino_audit_add_exports(audit);
	return err;
}

enum audit_session_end audit_session_run(const struct audit_request *request,
					 struct audit_session *session)
{
	bool progress = !request->quiet && isatty(STDERR_FILENO);
	enum bino_error err;
	int errnum;

	memset(session, 0, sizeof(*session));
	if (read_exports(request->exports_file, &session->files) != 0)
		return AUDIT_SESSION_FAILED;
	session->exports = session->files;
	if (request->etab_file) {
		if (read_etab(request->etab_file, session) != 0)
			goto out_release;
		if (session->etab)
			session->exports = session->etab;
	}
	if (read_mounts(request->mountinfo_file, &session->mounts) != 0)
		goto out_release;
	err = bino_audit_create(session->exports, session->mounts,
				request->flags, &session->audit);
	if (!err)
		err = audit_session_add(request, session->audit);
	if (err) {
		diag_message("%s: %s", bino_strerror(err),
			strerror(errno));
		goto out_release;
	}
	if (bino_audit_count(session->audit) == 0 &&
	    !(request->n_paths == 0 && request->no_exports_is_a_result)) {
		if (request->nothing_to_do)
			diag_message("%s",
				request->nothing_to_do);
		audit_session_release(session);
		return AUDIT_SESSION_NOTHING_TO_AUDIT;
	}
	if (bino_audit_count(session->audit) == 0)
		return AUDIT_SESSION_RAN; /* nothing exported: the answer */
	if (progress)
		bino_audit_set_progress(session->audit, show_audit_progress, NULL);
	err = bino_audit_run(session->audit);
	errnum = errno; /* before the status line is cleared (cli.h) */
	if (progress)
		diag_status_clear();
	if (err) {
		diag_message("audit failed: %s: %s",
			bino_strerror(err), strerror(errnum));
		goto out_release;
	}
	return AUDIT_SESSION_RAN;

out_release:
	audit_session_release(session);
	return AUDIT_SESSION_FAILED;
}

void audit_session_release(struct audit_session *session)
{
	bino_audit_destroy(session->audit);
	bino_mounts_destroy(session->mounts);
	bino_exports_destroy(session->etab);
	bino_exports_destroy(session->files);
	memset(session, 0, sizeof(*session));
}
