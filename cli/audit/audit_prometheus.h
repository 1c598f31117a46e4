/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* audit --format prometheus: the node_exporter textfile collector format. */
#ifndef BTRFS_INO_AUDIT_PROMETHEUS_H
#define BTRFS_INO_AUDIT_PROMETHEUS_H

#include <stdio.h>

#include <time.h>

#include "btrfsino.h"
#include "audit_drift.h"

/* What one run of the audit gives the metrics. */
struct prometheus_run {
	const struct audit_session *session;
	const struct drift_input *drift;
	double seconds; /* how long the audit took */
	time_t finished; /* when it ended: the last success, once renamed in */
};

/*
 * Write the audit's metrics to @stream in the Prometheus text exposition
 * format (version 0.0.4), every metric a gauge with HELP and TYPE: per
 * audited path whether it is exported (with its clients), its collisions
 * per class, safe (1/0), audited (1/0), entries, unreadable entries and
 * device anomalies (devices the mount table does not explain); then the
 * drift by kind, the exports files' errors, how long the audit took and
 * when it ended.  Label values are paths escaped as the text report escapes
 * them, then as the format requires.  *@drift_found: the drift findings, as
 * the text report counts them.  Returns 0, or -1 with the reason on stderr
 * (out of memory, or print_drift()'s).  Writes are not checked here: the
 * command checks @stream once, at the end (cli.h).
 */
int prometheus_write(FILE *stream, const struct prometheus_run *run,
		     long *drift_found);

#endif
