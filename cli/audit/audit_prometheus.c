/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The audit as Prometheus gauges, for node_exporter's textfile collector. */
#include "audit_prometheus.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "diag.h"
#include "escape.h"
#include "output.h"
#include "report.h"

#define METRIC_PREFIX "btrfs_ino_audit_"

/*
 * @path as a label value: the exposition format carries any UTF-8 with \\,
 * \" and \n escaped, so a UTF-8 path is given as it is (a label a query can
 * match against the path itself); a path that is not UTF-8 cannot be, and
 * is given text-escaped as the report prints it.  Returns 0, or -1 with
 * errno set (out of memory).
 */
static int put_label(FILE *stream, const char *path)
{
	size_t len = strlen(path);
	char *escaped = NULL;
	const char *p = path;

	if (!utf8_valid(path, len)) {
		escaped = text_escape(path, len);
		if (!escaped)
			return -1;
		p = escaped;
	}
	for (; *p; p++) {
		if (*p == '\n') {
			fputs("\\n", stream);
			continue;
		}
		if (*p == '\\' || *p == '"')
			fputc('\\', stream);
		fputc(*p, stream);
	}
	free(escaped);
	return 0;
}

static void put_header(FILE *stream, const char *name, const char *help)
{
	fprintf(stream, "# HELP " METRIC_PREFIX "%s %s\n# TYPE " METRIC_PREFIX
			"%s gauge\n", name, help, name);
}

/* Which per-path value a metric holds. */
enum path_metric {
	METRIC_SAFE,
	METRIC_AUDITED,
	METRIC_ENTRIES,
	METRIC_UNREADABLE,
	METRIC_ANOMALIES,
};

static uint64_t path_value(const struct bino_audit_target *target,
			   enum path_metric metric)
{
	size_t i, n;
	uint64_t anomalies = 0;

	switch (metric) {
	case METRIC_SAFE:
		return !audit_target_unsafe(target);
	case METRIC_AUDITED:
		return 1;
	case METRIC_ENTRIES:
		return bino_audit_target_entries(target);
	case METRIC_UNREADABLE:
		return bino_audit_target_unreadable(target);
	case METRIC_ANOMALIES:
		n = bino_audit_target_device_count(target);
		for (i = 0; i < n; i++)
			anomalies += bino_audit_device_kind(bino_audit_target_device(
					     target, i)) == BINO_DEVICE_ANOMALY;
		return anomalies;
	}
	return 0;
}

/* A per-path metric: 0, or -1 with errno set (out of memory). */
static int put_path_metric(FILE *stream, const struct bino_audit *audit,
			   enum path_metric metric, const char *name,
			   const char *help)
{
	size_t i, n = bino_audit_count(audit);

	put_header(stream, name, help);
	for (i = 0; i < n; i++) {
		const struct bino_audit_target *target = bino_audit_get(audit, i);
		bool error = bino_audit_target_error(target) != BINO_OK;

		/* A path not audited has no values but its audited 0. */
		if (error && metric != METRIC_AUDITED)
			continue;
		fprintf(stream, METRIC_PREFIX "%s{path=\"", name);
		if (put_label(stream, bino_audit_target_path(target)) != 0)
			return -1;
		fprintf(stream, "\"} %" PRIu64 "\n",
			error ? 0 : path_value(target, metric));
	}
	return 0;
}

/* The per-path metrics after the collisions, in the order written. */
static const struct {
	enum path_metric metric;
	const char *name, *help;
} path_metrics[] = {
	{ METRIC_SAFE, "safe", "1 if NFS clients of the path see no collision, 0 if unsafe." },
	{ METRIC_AUDITED, "audited",
	  "1 if the path could be audited, 0 if not (absent, unreadable)." },
	{ METRIC_ENTRIES, "entries", "Entries walked below the path." },
	{ METRIC_UNREADABLE, "unreadable", "Entries below the path that could not be read." },
	{ METRIC_ANOMALIES, "device_anomalies",
	  "Devices met below the path that the mount table does not list." },
};

/* The collisions per path and class: 0, or -1 with errno set (out of memory). */
static int put_collisions(FILE *stream, const struct bino_audit *audit)
{
	size_t i, n = bino_audit_count(audit);
	int c;

	put_header(stream, "collisions",
		   "Entries of the path whose client (st_dev, st_ino) a distinct file shares, per class.");
	for (i = 0; i < n; i++) {
		const struct bino_audit_target *target = bino_audit_get(audit, i);

		if (bino_audit_target_error(target))
			continue;
		for (c = 0; c < BINO_COLLISION_NR; c++) {
			fprintf(stream, METRIC_PREFIX "collisions{path=\"");
			if (put_label(stream, bino_audit_target_path(target)) != 0)
				return -1;
			fprintf(stream, "\",class=\"%s\"} %" PRIu64 "\n",
				bino_collision_name(c),
				bino_audit_target_collisions(target, c));
		}
	}
	return 0;
}

/*
 * Whether each audited path is exported (or below an export), with the
 * clients of its export line(s): the paths an alert is about, and that the
 * audit looked at exactly those.  Returns 0, or -1 with errno set (out of
 * memory).
 */
static int put_exported(FILE *stream, const struct bino_exports *exports,
			const struct bino_audit *audit)
{
	size_t i, n = bino_audit_count(audit), len;
	char *clients = NULL;
	int put;
	FILE *f;

	put_header(stream, "exported",
		   "1 if the path is exported (or below an export), with its export's clients; 0 if not.");
	for (i = 0; i < n; i++) {
		const struct bino_audit_target *target = bino_audit_get(audit, i);

		f = open_memstream(&clients, &len);
		if (!f)
			return -1;
		write_export_clients(f, exports, target);
		if (memstream_close(f, &clients) != 0)
			return -1;
		fprintf(stream, METRIC_PREFIX "exported{path=\"");
		put = put_label(stream, bino_audit_target_path(target));
		fputs("\",clients=\"", stream);
		if (put == 0)
			put = put_label(stream, clients);
		fprintf(stream, "\"} %d\n", bino_audit_target_export(target) != NULL);
		free(clients);
		if (put != 0)
			return -1;
	}
	return 0;
}

/* The drift kinds always given, so that an alert compares with 0, not absence. */
static const char *const drift_kinds[] = {
	"not_in_effect", "options_differ", "not_in_files", "fstab", "etab_error",
	"path_not_safe",
};
enum { N_DRIFT_KINDS = sizeof(drift_kinds) / sizeof(drift_kinds[0]) };

/* @kind's slot in drift_kinds; exports drift of a kind not listed counts as its own. */
static size_t drift_slot(const char *kind)
{
	size_t i;

	for (i = 0; i < N_DRIFT_KINDS; i++)
		if (strcmp(drift_kinds[i], kind) == 0)
			return i;
	return N_DRIFT_KINDS;
}

/*
 * Count each finding of the JSON array @list by its "kind"; with @as, under
 * @as (fstab drift is one kind), but for a path_not_safe line, which is
 * counted as such wherever it is: a line a user can re-point is the one
 * finding an alert must never fold into another.
 */
static void count_kinds(struct json_object *list, const char *as,
			uint64_t counts[N_DRIFT_KINDS + 1])
{
	size_t i;

	for (i = 0; i < json_object_array_length(list); i++) {
		struct json_object *kind;
		const char *name = NULL;

		if (json_object_object_get_ex(json_object_array_get_idx(list, i),
					      "kind", &kind))
			name = json_object_get_string(kind);
		if (!name || (as && strcmp(name, "path_not_safe") != 0))
			name = as;
		if (name)
			counts[drift_slot(name)]++;
	}
}

/*
 * The drift the text report would print, counted by kind: the report is
 * rendered as its JSON and counted there, so that the gauge and the text
 * can never disagree on what is drift.  Returns the total (as
 * print_drift()), or -1 with the reason on stderr (print_drift()'s, or
 * out of memory for its JSON).
 */
static long count_drift(const struct drift_input *drift,
			uint64_t counts[N_DRIFT_KINDS + 1])
{
	struct json_object *doc = NULL, *list;
	struct drift_steps steps;
	struct output *out;
	size_t len;
	char *text = NULL;
	long found;
	bool said;
	FILE *f;

	f = open_memstream(&text, &len);
	out = f ? output_create(OUTPUT_JSON, f) : NULL;
	if (!out) {
		if (f)
			fclose(f);
		free(text);
		diag_no_memory();
		return -1;
	}
	output_begin(out);
	found = print_drift(out, drift, &steps);
	said = found < 0; /* print_drift() said why; our own JSON fails for memory */
	if (output_end(out) != 0)
		found = -1;
	output_destroy(out);
	if (memstream_close(f, &text) != 0)
		found = -1;
	if (found >= 0)
		doc = json_tokener_parse(text);
	free(text);
	if (!doc) {
		if (!said)
			diag_no_memory();
		return -1;
	}
	if (json_object_object_get_ex(doc, "exports_drift", &list))
		count_kinds(list, NULL, counts);
	if (json_object_object_get_ex(doc, "fstab_drift", &list))
		count_kinds(list, "fstab", counts);
	if (drift->session->etab_state == ETAB_ERROR)
		counts[drift_slot("etab_error")]++;
	json_object_put(doc);
	return found;
}

/* The drift gauges: 0, or -1 with the reason on stderr (count_drift()). */
static int put_drift(FILE *stream, const struct drift_input *drift,
		     long *found)
{
	uint64_t counts[N_DRIFT_KINDS + 1] = { 0 };
	size_t i;

	*found = count_drift(drift, counts);
	if (*found < 0)
		return -1;
	put_header(stream, "drift",
		   "Differences between what the server serves and its files, by kind (run exportfs -ra, fix fstab).");
	for (i = 0; i < N_DRIFT_KINDS; i++)
		fprintf(stream, METRIC_PREFIX "drift{kind=\"%s\"} %" PRIu64 "\n",
			drift_kinds[i], counts[i]);
	if (counts[N_DRIFT_KINDS])
		fprintf(stream, METRIC_PREFIX "drift{kind=\"other\"} %" PRIu64 "\n",
			counts[N_DRIFT_KINDS]);
	return 0;
}

int prometheus_write(FILE *stream, const struct prometheus_run *run,
		     long *drift_found)
{
	const struct bino_audit *audit = run->session->audit;
	size_t i;

	if (put_exported(stream, run->session->exports, audit) != 0 ||
	    put_collisions(stream, audit) != 0)
		goto out_no_memory;
	for (i = 0; i < sizeof(path_metrics) / sizeof(path_metrics[0]); i++) {
		if (put_path_metric(stream, audit, path_metrics[i].metric,
				    path_metrics[i].name, path_metrics[i].help) != 0)
			goto out_no_memory;
	}
	if (put_drift(stream, run->drift, drift_found) != 0)
		return -1;
	put_header(stream, "exports_errors",
		   "Errors in the exports files: exportfs stops reading there.");
	fprintf(stream, METRIC_PREFIX "exports_errors %zu\n",
		bino_exports_error_count(run->session->files));
	put_header(stream, "duration_seconds", "How long the audit took.");
	fprintf(stream, METRIC_PREFIX "duration_seconds %.6f\n", run->seconds);
	/* Written only by a run that audited: the file keeps the last one's. */
	put_header(stream, "last_success_timestamp_seconds",
		   "When the last audit that could audit its paths ended (Unix time).");
	fprintf(stream, METRIC_PREFIX "last_success_timestamp_seconds %lld\n",
		(long long)run->finished);
	return 0;

out_no_memory:
	diag_no_memory();
	return -1;
}
