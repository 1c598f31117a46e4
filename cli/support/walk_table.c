/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * walk's table form through libsmartcols, with columns named as in the JSON
 * Lines (upper case), the kernel's st_dev beside mountinfo's device.  --raw
 * and --pairs print every WALK_TABLE_CHUNK rows, so a big walk is not held
 * in memory; --list must see every row to align them.
 */
#include "walk_table.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <libsmartcols.h>

#include "columns.h"
#include "escape.h"

#define WALK_TABLE_CHUNK 256

enum walk_column {
	WCOL_DEV,
	WCOL_ST_DEV,
	WCOL_SUBVOLID,
	WCOL_INO,
	WCOL_TYPE,
	WCOL_DEPTH,
	WCOL_SOURCE,
	WCOL_FSTYPE,
	WCOL_MODE,
	WCOL_NLINK,
	WCOL_UID,
	WCOL_GID,
	WCOL_SIZE,
	WCOL_MTIME,
	WCOL_MNT_ID,
	WCOL_PATH,
	WCOL_NR,
};

static const struct {
	const char *name;
	double whint;
	int flags;
	bool stat;
	const char *help;
} walk_columns[WCOL_NR] = {
	[WCOL_DEV] = { "DEV", 0, 0, false,
		       "device of the mount (MAJOR:MINOR, as in mountinfo)" },
	[WCOL_ST_DEV] = { "ST_DEV", 0, 0, false,
			  "st_dev as stat(2) shows it (btrfs: per subvolume)" },
	[WCOL_SUBVOLID] = { "SUBVOLID", 0, SCOLS_FL_RIGHT, false,
			    "btrfs subvolume ID (0 off btrfs)" },
	[WCOL_INO] = { "INO", 0, SCOLS_FL_RIGHT, false, "inode number" },
	[WCOL_TYPE] = { "TYPE", 0, 0, false, "file, dir, symlink, ..." },
	[WCOL_DEPTH] = { "DEPTH", 0, SCOLS_FL_RIGHT, false,
			 "levels below the starting PATH" },
	[WCOL_SOURCE] = { "SOURCE", 0, 0, false,
			  "where the subvolume ID came from" },
	[WCOL_FSTYPE] = { "FSTYPE", 0, 0, false, "filesystem type of the mount" },
	[WCOL_MODE] = { "MODE", 0, SCOLS_FL_RIGHT, true, "st_mode, octal" },
	[WCOL_NLINK] = { "NLINK", 0, SCOLS_FL_RIGHT, true, "hard links" },
	[WCOL_UID] = { "UID", 0, SCOLS_FL_RIGHT, true, "owner" },
	[WCOL_GID] = { "GID", 0, SCOLS_FL_RIGHT, true, "group" },
	[WCOL_SIZE] = { "SIZE", 0, SCOLS_FL_RIGHT, true, "size in bytes" },
	[WCOL_MTIME] = { "MTIME", 0, SCOLS_FL_RIGHT, true,
			 "modification time, seconds since the epoch" },
	[WCOL_MNT_ID] = { "MNT_ID", 0, SCOLS_FL_RIGHT, true, "mount ID" },
	[WCOL_PATH] = { "PATH", 0.5, SCOLS_FL_NOEXTREMES, false, "the path" },
};

static const int walk_default[] = {
	WCOL_DEV, WCOL_SUBVOLID, WCOL_INO, WCOL_PATH,
};

struct walk_table {
	struct libscols_table *table;
	struct walk_table_options opts;
	size_t rows; /* held, not yet printed */
	bool printed; /* a chunk went out: no more headings */
};

static const char *walk_column_name(int col)
{
	return walk_columns[col].name;
}

int walk_table_parse_columns(const char *list, struct walk_table_options *opts)
{
	struct column_list cl = {
		.command = "walk",
		.name_of = walk_column_name,
		.n_names = WCOL_NR,
		.defaults = walk_default,
		.n_defaults = sizeof(walk_default) / sizeof(walk_default[0]),
		.cols = opts->cols,
		.max = WALK_TABLE_MAX_COLUMNS,
	};
	int ret = column_list_parse(list, &cl);

	opts->n_cols = cl.n_cols;
	return ret;
}

bool walk_table_needs_stat(const struct walk_table_options *opts)
{
	size_t i;

	for (i = 0; i < opts->n_cols; i++) {
		if (walk_columns[opts->cols[i]].stat)
			return true;
	}
	return false;
}

void walk_table_columns_help(FILE *stream)
{
	int col;

	for (col = 0; col < WCOL_NR; col++)
		fprintf(stream, "  %10s  %s\n", walk_columns[col].name,
			walk_columns[col].help);
}

struct walk_table *walk_table_create(const struct walk_table_options *opts,
				     FILE *stream)
{
	struct walk_table *table = calloc(1, sizeof(*table));
	size_t i;

	if (!table)
		return NULL;
	table->opts = *opts;
	if (!table->opts.n_cols) {
		for (i = 0; i < sizeof(walk_default) / sizeof(walk_default[0]); i++)
			table->opts.cols[i] = walk_default[i];
		table->opts.n_cols = i;
	}
	table->table = scols_new_table();
	if (!table->table)
		goto out_free;
	for (i = 0; i < table->opts.n_cols; i++) {
		int col = table->opts.cols[i];

		if (!scols_table_new_column(table->table, walk_columns[col].name,
					    walk_columns[col].whint,
					    walk_columns[col].flags))
			goto out_free;
	}
	scols_table_enable_noheadings(table->table, opts->noheadings);
	scols_table_enable_raw(table->table, opts->mode == WALK_TABLE_RAW);
	scols_table_enable_export(table->table, opts->mode == WALK_TABLE_PAIRS);
	scols_table_set_stream(table->table, stream);
	return table;

out_free:
	walk_table_destroy(table);
	errno = ENOMEM; /* libsmartcols' allocations; the destroy may change errno */
	return NULL;
}

/* The cells' text, malloc'ed: NULL when out of memory (walk_table_add() sets errno). */
static char *cell_u64(uint64_t value)
{
	char *text;

	return asprintf(&text, "%" PRIu64, value) < 0 ? NULL : text;
}

static char *cell_dev(uint64_t dev)
{
	char *text;

	return asprintf(&text, "%u:%u", major(dev), minor(dev)) < 0 ? NULL : text;
}

static char *cell_text(struct bino_entry *entry, const struct bino_stat *st,
		       enum walk_column col)
{
	struct bino_key key = bino_entry_key(entry);
	const struct bino_mount *mount;
	char *text;

	switch (col) {
	case WCOL_DEV:
		return cell_dev(key.dev);
	case WCOL_ST_DEV:
		return cell_dev(bino_entry_st_dev(entry));
	case WCOL_SUBVOLID:
		return cell_u64(key.subvolid);
	case WCOL_INO:
		return cell_u64(key.ino);
	case WCOL_TYPE:
		return strdup(bino_type_name(bino_entry_type(entry)));
	case WCOL_DEPTH:
		return cell_u64((uint64_t)bino_entry_depth(entry));
	case WCOL_SOURCE:
		return strdup(bino_source_name(bino_entry_source(entry)));
	case WCOL_FSTYPE:
		mount = bino_entry_mount(entry);
		return strdup(mount ? bino_mount_fstype(mount) : "");
	case WCOL_MODE:
		return asprintf(&text, "%06o", st->mode) < 0 ? NULL : text;
	case WCOL_NLINK:
		return cell_u64(st->nlink);
	case WCOL_UID:
		return cell_u64(st->uid);
	case WCOL_GID:
		return cell_u64(st->gid);
	case WCOL_SIZE:
		return cell_u64(st->size);
	case WCOL_MTIME:
		return asprintf(&text, "%" PRId64, (int64_t)st->mtime.sec) < 0 ?
			       NULL : text;
	case WCOL_MNT_ID:
		return cell_u64(st->mnt_id);
	case WCOL_PATH:
		/* One line per row whatever the name holds, as walk prints it. */
		return text_escape(bino_entry_path(entry),
				   bino_entry_path_length(entry));
	case WCOL_NR:
		break;
	}
	return strdup("");
}

/* Print the rows held: 0, or -1 with errno set (EIO when the write left none). */
static int walk_table_flush(struct walk_table *table)
{
	FILE *stream = scols_table_get_stream(table->table);

	if (table->printed)
		scols_table_enable_noheadings(table->table, 1);
	errno = 0; /* else a stale errno would be taken for the write's */
	if (scols_print_table(table->table) != 0 || ferror(stream)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	table->printed = true;
	scols_table_remove_lines(table->table);
	table->rows = 0;
	return 0;
}

int walk_table_add(struct walk_table *table, struct bino_entry *entry,
		   const struct bino_stat *st)
{
	struct libscols_line *line = scols_table_new_line(table->table, NULL);
	size_t i;

	if (!line) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < table->opts.n_cols; i++) {
		char *text = cell_text(entry, st, table->opts.cols[i]);

		if (!text || scols_line_refer_data(line, i, text) != 0) {
			free(text);
			errno = ENOMEM;
			return -1;
		}
	}
	if (++table->rows >= WALK_TABLE_CHUNK &&
	    table->opts.mode != WALK_TABLE_LIST)
		return walk_table_flush(table);
	return 0;
}

int walk_table_finish(struct walk_table *table)
{
	if (table->rows == 0 && (table->printed || table->opts.noheadings))
		return 0;
	return walk_table_flush(table);
}

void walk_table_destroy(struct walk_table *table)
{
	if (!table)
		return;
	scols_unref_table(table->table);
	free(table);
}
