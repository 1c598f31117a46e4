/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* audit --format prometheus: the node_exporter textfile collector format. */
#ifndef BTRFS_INO_AUDIT_PROMETHEUS_H
#define BTRFS_INO_AUDIT_PROMETHEUS_H

#include <stdio.h>

#include "btrfsino.h"

/*
 * Write the audit's metrics to @stream in the Prometheus text exposition
 * format (version 0.0.4), every metric a gauge with HELP and TYPE:
 * per audited path its collisions per class, safe (1/0), audited (1/0),
 * entries, unreadable entries and device anomalies (devices the mount table
 * does not explain), then the exports files' errors and the audit's
 * @seconds.  Label values are paths escaped as the text report escapes
 * them, then as the format requires.  Returns 0, or -1 with errno set if
 * writing failed.
 */
int prometheus_write(FILE *stream, const struct bino_exports *exports,
		     const struct bino_audit *audit, double seconds);

#endif
