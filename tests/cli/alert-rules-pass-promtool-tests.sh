#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The shipped alert rules (contrib/prometheus/btrfs-ino.rules.yml), judged by
# Debian 12's promtool test rules against audits recorded on real servers
# (tests/data/prometheus, record.sh says how), each file as node_exporter's
# textfile collector would serve it from the moment it was written:
#   safe     no alert, a day later still none;
#   unsafe   BtrfsInoExportUnsafe for /data/fex, nothing else;
#   drifted  BtrfsInoDrift of kind options_differ, nothing else;
#   failing  BtrfsInoAuditFailing for the absent /data/gone, nothing else;
#   any of them three days on (no newer audit): BtrfsInoAuditStale;
#   each alert waits 15 minutes (the stale one an hour) before it fires;
#   removed  the safe file, gone after 2 hours: BtrfsInoMetricsAbsent an
#            hour later, not before.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
: "${PROMTOOL_DIR:?PROMTOOL_DIR must name where promtool is kept (the build tree)}"
mirror=${PROMTOOL_MIRROR:-http://deb.debian.org/debian}

# Debian 12's promtool, from its prometheus package, fetched once into
# PROMTOOL_DIR by a private apt and unpacked: nothing is installed (the
# package would start a Prometheus server on the machine).
cannot() { skip_or_fail "$*"; }
# shellcheck source=tests/lib/debian-apt.sh
source "$here/tests/lib/debian-apt.sh"
fetch_promtool() {
	local deb
	command -v dpkg-deb >/dev/null || cannot "no dpkg-deb to unpack prometheus"
	debian_apt "$TMP/apt" \
		"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main" \
		"$TMP/apt.log"
	(cd "$TMP" && apt-get "${APT_OPTS[@]}" download prometheus >>"$TMP/apt.log" 2>&1) ||
		cannot "apt-get download prometheus failed: $(tail -n 3 "$TMP/apt.log")"
	deb=$(echo "$TMP"/prometheus_*.deb)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$TMP" ./usr/bin/promtool ||
		cannot "$deb has no usr/bin/promtool"
	mkdir -p "$PROMTOOL_DIR"
	mv "$TMP/usr/bin/promtool" "$PROMTOOL_DIR/promtool"
	echo "promtool from ${deb##*/}"
}
[[ -x $PROMTOOL_DIR/promtool ]] || fetch_promtool
promtool=$PROMTOOL_DIR/promtool
rules=$here/contrib/prometheus/btrfs-ino.rules.yml
data=$here/tests/data/prometheus

# series FILE [MINUTES]: the recorded samples as promtool input series,
# scraped each minute from time 0 for 100 hours, or for MINUTES and then
# stale (the file removed); the last success time becomes 0, the moment
# the file was written.
series() {
	local values
	grep -v '^#' "$1" | while read -r sample value; do
		[[ $sample == btrfs_ino_audit_last_success_timestamp_seconds ]] && value=0
		values="${value}x6000"
		[[ -z ${2:-} ]] || values="${value}x$(($2 - 1)) stale"
		printf "      - series: '%s'\n        values: '%s'\n" "$sample" "$values"
	done
}
# quiet ALERT TIME: the alert does not fire at TIME.
quiet() {
	printf '      - eval_time: %s\n        alertname: %s\n        exp_alerts: []\n' "$2" "$1"
}
# fires ALERT TIME SUMMARY [LABEL=VALUE...]: it fires exactly once at TIME,
# with those labels and that summary (what the admin reads).
fires() {
	local label
	printf '      - eval_time: %s\n        alertname: %s\n' "$2" "$1"
	printf '        exp_alerts:\n          - exp_annotations:\n              summary: "%s"\n' "$3"
	printf '            exp_labels:\n              severity: warning\n'
	shift 3
	for label in "$@"; do
		printf '              %s: "%s"\n' "${label%%=*}" "${label#*=}"
	done
}
# group FILE [MINUTES]: a test group fed the recorded FILE (for MINUTES);
# its alert tests follow.
group() {
	printf '  - interval: 1m\n    input_series:\n'
	series "$data/$1.prom" "${2:-}"
	printf '    alert_rule_test:\n'
}

stale="btrfs-ino audit has not succeeded for two days: see systemctl status btrfs-ino-audit.service"
{
	printf 'rule_files:\n  - %s\nevaluation_interval: 1m\ntests:\n' "$rules"
	group safe
	for alert in BtrfsInoExportUnsafe BtrfsInoDrift BtrfsInoAuditFailing BtrfsInoAuditStale \
		BtrfsInoMetricsAbsent; do
		quiet "$alert" 1h
		quiet "$alert" 24h
	done
	group unsafe
	quiet BtrfsInoExportUnsafe 10m
	fires BtrfsInoExportUnsafe 1h \
		"NFS clients of /data/fex see colliding inode numbers: btrfs-ino suggest /data/fex" \
		path=/data/fex
	quiet BtrfsInoDrift 1h
	quiet BtrfsInoAuditFailing 1h
	quiet BtrfsInoAuditStale 1h
	fires BtrfsInoAuditStale 72h "$stale"
	group drifted
	quiet BtrfsInoDrift 10m
	quiet BtrfsInoExportUnsafe 1h
	fires BtrfsInoDrift 1h \
		"1 drift finding(s) of kind options_differ: the server does not serve what its files say" \
		kind=options_differ
	quiet BtrfsInoAuditFailing 1h
	group failing
	quiet BtrfsInoAuditFailing 10m
	quiet BtrfsInoExportUnsafe 1h
	quiet BtrfsInoDrift 1h
	fires BtrfsInoAuditFailing 1h \
		"btrfs-ino audit could not audit /data/gone, or an exports file has an error" \
		path=/data/gone
	fires BtrfsInoAuditStale 72h "$stale"
	quiet BtrfsInoAuditStale 48h30m
	group safe 120
	quiet BtrfsInoMetricsAbsent 1h
	quiet BtrfsInoMetricsAbsent 2h30m
	fires BtrfsInoMetricsAbsent 3h30m \
		"no btrfs-ino audit metrics for an hour: is btrfs-ino-audit.service's .prom file in node_exporter's textfile directory?"
} >"$TMP/tests.yml"

"$promtool" test rules "$TMP/tests.yml" >"$TMP/promtool.out" 2>&1 ||
	fail "promtool test rules: $(cat "$TMP/promtool.out")"
grep -q SUCCESS "$TMP/promtool.out" || fail "promtool said no SUCCESS: $(cat "$TMP/promtool.out")"
