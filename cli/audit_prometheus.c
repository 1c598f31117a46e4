/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The audit as Prometheus gauges, for node_exporter's textfile collector. */
#include "audit_prometheus.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report.h"

#define METRIC_PREFIX "btrfs_ino_audit_"

/*
 * @path as a label value: the exposition format carries any UTF-8 with \\,
 * \" and \n escaped, so a UTF-8 path is given as it is (a label a query can
 * match against the path itself); a path that is not UTF-8 cannot be, and
 * is given text-escaped as the report prints it.
 */
static void put_label(FILE *stream, const char *path)
{
	size_t len = strlen(path);
	char *escaped = NULL;
	const char *p = path;

	if (!utf8_valid(path, len)) {
		escaped = text_escape(path, len);
		p = escaped ? escaped : "?";
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

static uint64_t path_value(const struct bino_audit_target *export,
			   enum path_metric metric)
{
	size_t i, n;
	uint64_t anomalies = 0;

	switch (metric) {
	case METRIC_SAFE:
		return !audit_export_unsafe(export);
	case METRIC_AUDITED:
		return 1;
	case METRIC_ENTRIES:
		return bino_audit_target_entries(export);
	case METRIC_UNREADABLE:
		return bino_audit_target_unreadable(export);
	case METRIC_ANOMALIES:
		n = bino_audit_target_device_count(export);
		for (i = 0; i < n; i++)
			anomalies += bino_audit_device_kind(bino_audit_target_device(
					     export, i)) == BINO_DEVICE_ANOMALY;
		return anomalies;
	}
	return 0;
}

static void put_path_metric(FILE *stream, const struct bino_audit *audit,
			    enum path_metric metric, const char *name,
			    const char *help)
{
	size_t i, n = bino_audit_count(audit);

	put_header(stream, name, help);
	for (i = 0; i < n; i++) {
		const struct bino_audit_target *export = bino_audit_get(audit, i);
		bool error = bino_audit_target_error(export) != BINO_OK;

		/* A path not audited has no values but its audited 0. */
		if (error && metric != METRIC_AUDITED)
			continue;
		fprintf(stream, METRIC_PREFIX "%s{path=\"", name);
		put_label(stream, bino_audit_target_path(export));
		fprintf(stream, "\"} %" PRIu64 "\n",
			error ? 0 : path_value(export, metric));
	}
}

int prometheus_write(FILE *stream, const struct bino_exports *exports,
		     const struct bino_audit *audit, double seconds)
{
	size_t i, n = bino_audit_count(audit);
	int c;

	put_header(stream, "collisions",
		   "Entries of the path whose client (st_dev, st_ino) a distinct file shares, per class.");
	for (i = 0; i < n; i++) {
		const struct bino_audit_target *export = bino_audit_get(audit, i);

		if (bino_audit_target_error(export))
			continue;
		for (c = 0; c < BINO_COLLISION_NR; c++) {
			fprintf(stream, METRIC_PREFIX "collisions{path=\"");
			put_label(stream, bino_audit_target_path(export));
			fprintf(stream, "\",class=\"%s\"} %" PRIu64 "\n",
				bino_collision_name(c),
				bino_audit_target_collisions(export, c));
		}
	}
	put_path_metric(stream, audit, METRIC_SAFE, "safe",
			"1 if NFS clients of the path see no collision, 0 if unsafe.");
	put_path_metric(stream, audit, METRIC_AUDITED, "audited",
			"1 if the path could be audited, 0 if not (absent, unreadable).");
	put_path_metric(stream, audit, METRIC_ENTRIES, "entries",
			"Entries walked below the path.");
	put_path_metric(stream, audit, METRIC_UNREADABLE, "unreadable",
			"Entries below the path that could not be read.");
	put_path_metric(stream, audit, METRIC_ANOMALIES, "device_anomalies",
			"Devices met below the path that the mount table does not list.");
	put_header(stream, "exports_errors",
		   "Errors in the exports files: exportfs stops reading there.");
	fprintf(stream, METRIC_PREFIX "exports_errors %zu\n",
		bino_exports_error_count(exports));
	put_header(stream, "duration_seconds", "How long the audit took.");
	fprintf(stream, METRIC_PREFIX "duration_seconds %.6f\n", seconds);
	if (fflush(stream) != 0 || ferror(stream)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
