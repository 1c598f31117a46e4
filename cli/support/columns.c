/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One reading of -o LIST for audit's tree and walk's table (columns.h). */
#include "columns.h"

#include <string.h>
#include <strings.h>

#include "cli.h"

/* The column named by the @len bytes at @name, or -1 when none is (not a failure). */
static int column_by_name(const struct column_list *cl, const char *name,
			  size_t len)
{
	int col;

	for (col = 0; col < cl->n_names; col++) {
		if (strlen(cl->name_of(col)) == len &&
		    strncasecmp(cl->name_of(col), name, len) == 0)
			return col;
	}
	return -1;
}

int column_list_parse(const char *list, struct column_list *cl)
{
	const char *p = list;

	cl->n_cols = 0;
	if (*p == '+') {
		/* findmnt -o +COL: the defaults, then the named ones. */
		memcpy(cl->cols, cl->defaults, cl->n_defaults * sizeof(*cl->cols));
		cl->n_cols = cl->n_defaults;
		p++;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		int col = column_by_name(cl, p, len);

		if (!len)
			return usage_error(cl->command, "empty column name in '%s'",
					   list);
		if (col < 0)
			return usage_error(cl->command, "unknown column '%.*s'",
					   (int)len, p);
		if (cl->n_cols == cl->max)
			return usage_error(cl->command, "more than %zu columns in '%s'",
					   cl->max, list);
		cl->cols[cl->n_cols++] = col;
		if (!p[len])
			return OPTIONS_GO_ON;
		p += len + 1;
	}
}
