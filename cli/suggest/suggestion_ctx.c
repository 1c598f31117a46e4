/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The small steps every block of a suggestion is written with
 * (suggestion_ctx.h): the subvolume facts the blocks ask of one export
 * (its path, whether configuration may name it), a refusal said in the
 * block and on stderr, and the memory stream an edit's text or reason is
 * written into before it joins the edit list (suggestion_edits.h).  Shared
 * by the server's blocks (suggestion_server_mounts.c, suggestion_exports.c)
 * and the clients' (suggestion_client.c).
 */
#include "suggestion_ctx.h"

#include <errno.h>
#include <stdlib.h>

#include "cli.h"
#include "diag.h"
#include "quote.h"
#include "server_fstab.h"
#include "suggestion_edits.h"

const char *subvol_path(const struct suggest_ctx *ctx, size_t i)
{
	return bino_audit_subvol_path(bino_suggestion_subvol(ctx->sug, i));
}

/*
 * The line (or unit, or map entry) for @path is not written: its format
 * cannot carry the name, for @reason (quote.h).  Said in the block, as a
 * comment, and on stderr.
 */
void put_refusal(const struct suggest_ctx *ctx, const char *path,
		 const char *reason)
{
	fputs("# not written: ", ctx->out);
	quote_comment(ctx->out, path);
	fprintf(ctx->out, ": %s\n", reason);
	fprintf(stderr, "%s: ", PROGRAM_NAME);
	quote_comment(stderr, path);
	fprintf(stderr, ": not written: %s\n", reason);
}

FILE *text_open(struct text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
	return t->f;
}

/* Close @t: 0, or -1 with errno set (out of memory) and nothing left to free. */
int text_close(struct text *t)
{
	int errnum;

	if (fclose(t->f) == 0)
		return 0;
	errnum = errno;
	free(t->buf);
	t->buf = NULL;
	errno = errnum;
	return -1;
}

/*
 * Add an edit of @kind with the text of @t (closed here and freed) as its
 * new lines.  Returns its index, or -1 with errno set (out of memory).
 */
long add_text_edit(struct edit_list *list, enum edit_kind kind,
		   const char *file, size_t first, size_t last,
		   struct text *t)
{
	long i = -1;
	int errnum;

	if (text_close(t) != 0)
		return -1;
	i = edit_add(list, kind, file, first, last);
	if (i >= 0 && edit_add_text(list, i, t->buf, t->len) != 0)
		i = -1;
	errnum = errno;
	free(t->buf);
	errno = errnum;
	return i;
}

/* A note with the text of @t (closed here) as its reason: 0, or -1 with errno set. */
int add_text_note(struct edit_list *list, struct text *t)
{
	long i = -1;

	if (text_close(t) != 0)
		return -1;
	i = edit_add(list, EDIT_NOTE, NULL, 0, 0);
	if (i < 0) {
		int errnum = errno;

		free(t->buf);
		errno = errnum;
		return -1;
	}
	list->edit[i].reason = t->buf;
	return 0;
}

/* A note with @text: 0, or -1 with errno set (out of memory). */
int add_note(struct edit_list *list, const char *text)
{
	long i = edit_add(list, EDIT_NOTE, NULL, 0, 0);

	return i < 0 ? -1 : edit_set_reason(list, i, "%s", text);
}

/* put_refusal() as an edit: a note in the block, and a line on stderr. */
int refuse_edit(struct edit_list *list, const char *path, const char *reason)
{
	struct text t;

	fprintf(stderr, "%s: ", PROGRAM_NAME);
	quote_comment(stderr, path);
	fprintf(stderr, ": not written: %s\n", reason);
	if (!text_open(&t))
		return -1;
	fputs("not written: ", t.f);
	quote_comment(t.f, path);
	fprintf(t.f, ": %s", reason);
	return add_text_note(list, &t);
}

/* Whether subvolume @i's path may be named in configuration. */
bool config_safe(const struct suggest_ctx *ctx, size_t i)
{
	return bino_confpath_reason(bino_suggestion_subvol_confpath(ctx->sug, i)) ==
	       BINO_CONFPATH_SAFE;
}

/* "left to btrfs-ino mount ...: PATH: why" (no "# "), one line. */
static void put_left(FILE *out, const struct suggest_ctx *ctx, size_t i)
{
	fputs("left to btrfs-ino mount, named in no line: ", out);
	quote_comment(out, subvol_path(ctx, i));
	fputs(": ", out);
	put_confpath_why(out, bino_suggestion_subvol_confpath(ctx->sug, i));
	fputs(", so a user could make the path lead elsewhere", out);
}

/* put_left() as a comment line of a block. */
void put_left_comment(const struct suggest_ctx *ctx, size_t i)
{
	fputs("# ", ctx->out);
	put_left(ctx->out, ctx, i);
	fputc('\n', ctx->out);
}

/* put_left() as a note of an edit list: 0, or -1 with errno set. */
int left_edit(const struct suggest_ctx *ctx, struct edit_list *list,
	      size_t i)
{
	struct text t;

	if (!text_open(&t))
		return -1;
	put_left(t.f, ctx, i);
	return add_text_note(list, &t);
}

/*
 * Edit @e's reason: @removal, and for a path a user could change, which
 * directory and why (put_confpath_why()).  0, or -1 with errno set.
 */
int set_removal_reason(struct edit_list *list, long e,
		       const char *removal,
		       const struct bino_confpath *confpath)
{
	struct text t;

	if (!confpath)
		return edit_set_reason(list, e, "%s", removal);
	if (!text_open(&t))
		return -1;
	fprintf(t.f, "%s: ", removal);
	put_confpath_why(t.f, confpath);
	if (text_close(&t) != 0)
		return -1;
	free(list->edit[e].reason);
	list->edit[e].reason = t.buf;
	return 0;
}

/* The edits @make makes, as the block's text: 0, or -1 (said). */
int put_edits(const struct suggest_ctx *ctx, suggest_edits_fn *make)
{
	struct edit_list list = { 0 };
	int rc = make(ctx, &list);

	if (rc != 0)
		diag_no_memory();
	else
		edits_write_text(ctx->out, &list);
	edit_list_free(&list);
	return rc;
}
