/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Drift between what the NFS server serves now and what its files say: the
 * etab exportfs wrote against /etc/exports and /etc/exports.d, and the
 * btrfs lines of the server fstab against the mount table.  Options are
 * compared by what they set, as exportfs 2.6.2 expands them into the etab
 * (every default written, "fsid=root" as "fsid=0", "mp" as "mountpoint").
 */
#include "diag.h"
#include "audit_drift.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btrfs-ino.h"
#include "report.h"
#include "server_fstab.h"

/* ---- what a list of options sets --------------------------------------- */

/* A setting and its value when no option names it (exports(5)). */
static const struct {
	const char *key;
	const char *fallback;
} settings[] = {
	{ "access", "ro" },
	{ "sync", "sync" },
	{ "wdelay", "wdelay" },
	{ "hide", "hide" },
	{ "crossmnt", "nocrossmnt" },
	{ "secure", "secure" },
	{ "root_squash", "root_squash" },
	{ "all_squash", "no_all_squash" },
	{ "subtree_check", "no_subtree_check" },
	{ "locks", "secure_locks" },
	{ "acl", "acl" },
	{ "pnfs", "no_pnfs" },
	{ "rdirplus", "rdirplus" },
	{ "security_label", "no security_label" },
	{ "mountpoint", "no mountpoint" },
	{ "fsid", "no fsid" },
	{ "anonuid", "65534" },
	{ "anongid", "65534" },
	{ "sec", "sys" },
	{ "refer", "no refer" },
	{ "replicas", "no replicas" },
};

#define N_SETTINGS (sizeof(settings) / sizeof(settings[0]))

/* The keywords without a value: the setting each sets, and to what. */
static const struct {
	const char *name;
	const char *key;
	const char *value;
} keywords[] = {
	{ "ro", "access", "ro" },
	{ "rw", "access", "rw" },
	{ "sync", "sync", "sync" },
	{ "async", "sync", "async" },
	{ "wdelay", "wdelay", "wdelay" },
	{ "no_wdelay", "wdelay", "no_wdelay" },
	{ "hide", "hide", "hide" },
	{ "nohide", "hide", "nohide" },
	{ "crossmnt", "crossmnt", "crossmnt" },
	{ "nocrossmnt", "crossmnt", "nocrossmnt" },
	{ "secure", "secure", "secure" },
	{ "insecure", "secure", "insecure" },
	{ "root_squash", "root_squash", "root_squash" },
	{ "no_root_squash", "root_squash", "no_root_squash" },
	{ "all_squash", "all_squash", "all_squash" },
	{ "no_all_squash", "all_squash", "no_all_squash" },
	{ "subtree_check", "subtree_check", "subtree_check" },
	{ "no_subtree_check", "subtree_check", "no_subtree_check" },
	{ "secure_locks", "locks", "secure_locks" },
	{ "auth_nlm", "locks", "secure_locks" },
	{ "insecure_locks", "locks", "insecure_locks" },
	{ "no_auth_nlm", "locks", "insecure_locks" },
	{ "acl", "acl", "acl" },
	{ "no_acl", "acl", "no_acl" },
	{ "pnfs", "pnfs", "pnfs" },
	{ "no_pnfs", "pnfs", "no_pnfs" },
	{ "nordirplus", "rdirplus", "nordirplus" },
	{ "security_label", "security_label", "security_label" },
	{ "mountpoint", "mountpoint", "mountpoint" },
	{ "mp", "mountpoint", "mountpoint" },
};

#define N_KEYWORDS (sizeof(keywords) / sizeof(keywords[0]))
#define N_EXTRA 16

/* What one option list sets: a value per setting, and unknown options. */
struct effect {
	char *value[N_SETTINGS];
	char *extra[N_EXTRA]; /* options of no setting above, as written */
	size_t n_extra;
};

static size_t setting_index(const char *key)
{
	size_t i;

	for (i = 0; i < N_SETTINGS; i++) {
		if (strcmp(settings[i].key, key) == 0)
			return i;
	}
	abort(); /* the tables above disagree */
}

static void effect_set(struct effect *e, const char *key, char *value)
{
	size_t i = setting_index(key);

	free(e->value[i]);
	e->value[i] = value;
}

static void effect_free(struct effect *e)
{
	size_t i;

	for (i = 0; i < N_SETTINGS; i++)
		free(e->value[i]);
	for (i = 0; i < e->n_extra; i++)
		free(e->extra[i]);
}

/* A number as exportfs reads it (strtoul(), base 0 for fsid), in decimal. */
static char *decimal(const char *s, int base)
{
	char *end, *text = NULL;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, base);
	if (errno || *end || end == s)
		return strdup(s);
	if (asprintf(&text, "%llu", n) < 0)
		return NULL;
	return text;
}

/* One option of @len bytes at @opt; false when out of memory. */
static bool effect_add(struct effect *e, const char *opt, size_t len,
		       bool *first_sec)
{
	char *text = strndup(opt, len), *eq, *value;
	size_t i;

	if (!text)
		return false;
	for (i = 0; i < N_KEYWORDS; i++) {
		if (strcmp(text, keywords[i].name) == 0) {
			free(text);
			value = strdup(keywords[i].value);
			if (!value)
				return false;
			effect_set(e, keywords[i].key, value);
			return true;
		}
	}
	eq = strchr(text, '=');
	if (eq) {
		*eq = '\0';
		value = eq + 1;
		if (strcmp(text, "mp") == 0 || strcmp(text, "mountpoint") == 0 ||
		    strcmp(text, "refer") == 0 || strcmp(text, "replicas") == 0) {
			value = strdup(value);
		} else if (strcmp(text, "anonuid") == 0 ||
			   strcmp(text, "anongid") == 0) {
			value = decimal(value, 10);
		} else if (strcmp(text, "fsid") == 0) {
			value = strcmp(value, "root") == 0 ? strdup("0") :
							     decimal(value, 0);
		} else if (strcmp(text, "sec") == 0) {
			/* The flavours in order; options after each are compared flat. */
			size_t s = setting_index("sec");

			if (*first_sec || !e->value[s]) {
				value = strdup(value);
			} else if (asprintf(&value, "%s:%s", e->value[s],
					    eq + 1) < 0) {
				value = NULL;
			}
			*first_sec = false;
		} else {
			*eq = '=';
			goto extra;
		}
		if (!value) {
			free(text);
			return false;
		}
		effect_set(e, strcmp(text, "mp") == 0 ? "mountpoint" : text,
			   value);
		free(text);
		return true;
	}
extra:
	if (e->n_extra == N_EXTRA) {
		free(text);
		return true;
	}
	e->extra[e->n_extra++] = text;
	return true;
}

static bool effect_of(const char *options, struct effect *e)
{
	bool first_sec = true;
	const char *p = options;

	memset(e, 0, sizeof(*e));
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n && !effect_add(e, p, n, &first_sec)) {
			effect_free(e);
			return false;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return true;
}

static const char *effect_value(const struct effect *e, size_t i)
{
	return e->value[i] ? e->value[i] : settings[i].fallback;
}

static bool extra_in(const struct effect *e, const char *opt)
{
	size_t i;

	for (i = 0; i < e->n_extra; i++) {
		if (strcmp(e->extra[i], opt) == 0)
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
 * The settings of @file's entry that differ from @live's, as
 * "differences": [{option, files, in_effect}]; returns their number.
 */
static size_t print_differences(struct output *out, const struct effect *file,
				const struct effect *live)
{
	size_t i, n = 0;

	output_open_array(out, "differences");
	for (i = 0; i < N_SETTINGS; i++) {
		const char *a = effect_value(file, i), *b = effect_value(live, i);

		if (strcmp(a, b) != 0)
			print_difference(out, settings[i].key, a, b, &n);
	}
	for (i = 0; i < file->n_extra; i++) {
		if (!extra_in(live, file->extra[i]))
			print_difference(out, file->extra[i], file->extra[i],
					 "not set", &n);
	}
	for (i = 0; i < live->n_extra; i++) {
		if (!extra_in(file, live->extra[i]))
			print_difference(out, live->extra[i], "not set",
					 live->extra[i], &n);
	}
	output_close(out);
	return n;
}

/* Whether the options of @file and @live set the same; -1 out of memory. */
static int compare_entry(struct output *out, const struct bino_export *file,
			 const struct bino_export *live, bool print)
{
	struct effect a, b;
	size_t i;
	int differ = 0;

	if (!effect_of(bino_export_options(file), &a))
		return -1;
	if (!effect_of(bino_export_options(live), &b)) {
		effect_free(&a);
		return -1;
	}
	for (i = 0; i < N_SETTINGS && !differ; i++)
		differ = strcmp(effect_value(&a, i), effect_value(&b, i)) != 0;
	for (i = 0; i < a.n_extra && !differ; i++)
		differ = !extra_in(&b, a.extra[i]);
	for (i = 0; i < b.n_extra && !differ; i++)
		differ = !extra_in(&a, b.extra[i]);
	if (differ && print) {
		open_finding(out, "options_differ", file);
		print_string(out, PRINT_TEXT, NULL, "%s", "options of ");
		print_place(out, "files", file);
		print_string(out, PRINT_TEXT, NULL, "%s", " are not those in effect (");
		print_place(out, "in_effect", live);
		print_string(out, PRINT_TEXT, NULL, "%s", "): ");
		print_differences(out, &a, &b);
		print_string(out, PRINT_TEXT, NULL, "%s\n",
			     "; run exportfs -ra");
		output_close(out);
	}
	effect_free(&a);
	effect_free(&b);
	return differ;
}

static long print_exports_drift(struct output *out,
				const struct bino_exports *files,
				const struct bino_exports *live)
{
	size_t i;
	long n = 0;

	output_open_array(out, "exports_drift");
	for (i = 0; live && i < bino_exports_count(files); i++) {
		const struct bino_export *e = bino_exports_get(files, i);
		const struct bino_export *l = find_entry(live, e);
		int differ;

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
		differ = compare_entry(out, e, l, true);
		if (differ < 0)
			return -1;
		n += differ;
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
	return n;
}

/* ---- the fstab drift --------------------------------------------------- */

/* One line that must change: removed, or mounted. */
static void print_fstab_line(struct output *out, const char *file,
			     const struct fstab_line *line)
{
	static const char *const kinds[] = {
		[FSTAB_NOT_MOUNTED] = "not_mounted",
		[FSTAB_DELETED] = "subvolume_deleted",
		[FSTAB_SNAPSHOT] = "snapshot",
	};
	char why[64];
	const char *removal = fstab_line_removal(line, why, sizeof(why));

	output_open_object(out, NULL);
	print_string(out, PRINT_JSON, "kind", NULL, kinds[line->state]);
	if (removal) {
		print_text_path(out, "file", "fstab drift: remove %s", file);
		print_u64(out, PRINT_ANY, "line", " line %" PRIu64 ": ", line->number);
		print_string(out, PRINT_TEXT, NULL, "%s (", removal);
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
	print_string(out, PRINT_TEXT, NULL, "%s\n",
		     removal ? "); suggest --diff removes it" :
			       " is below an export but not mounted; run mount -a");
	output_close(out);
}

static long print_fstab_drift(struct output *out, const struct drift_input *in)
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
		print_fstab_line(out, in->fstab_file, &fstab.line[i]);
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
	case ETAB_NOT_READ:
		break;
	}
	return NULL;
}

static void print_export_table(struct output *out, const struct drift_input *in)
{
	enum etab_state state = in->session->etab_state;
	bool live = in->session->etab != NULL;

	output_open_object(out, "export_table");
	print_string(out, PRINT_JSON, "audited", NULL, live ? "etab" : "files");
	print_text_path(out, "etab", NULL, in->etab_file);
	print_string(out, PRINT_JSON, "etab_state", NULL, etab_state_name(state));
	output_close(out);
	if (state == ETAB_ABSENT || state == ETAB_EMPTY) {
		print_text_path(out, NULL, "note: %s", in->etab_file);
		print_string(out, PRINT_TEXT, NULL, " is %s (no NFS server running?): ",
			     state == ETAB_ABSENT ? "absent" : "empty");
		print_string(out, PRINT_TEXT, NULL, "auditing %s instead\n",
			     in->files_name);
	} else if (state == ETAB_ERROR) {
		print_text_path(out, NULL,
				"etab error: %s stops at a syntax error: "
				"audited as far as it reads\n",
				in->etab_file);
	}
}

long print_drift(struct output *out, const struct drift_input *in)
{
	long exports, fstab;

	print_export_table(out, in);
	exports = print_exports_drift(out, in->session->files, in->session->etab);
	if (exports < 0)
		return -1;
	fstab = print_fstab_drift(out, in);
	if (fstab < 0)
		return -1;
	if (exports || fstab || (in->session->etab_state != ETAB_NOT_READ &&
				 in->session->etab_state != ETAB_READ))
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
	return exports + fstab + (in->session->etab_state == ETAB_ERROR);
}
