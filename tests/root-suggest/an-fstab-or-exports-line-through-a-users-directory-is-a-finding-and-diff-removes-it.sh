#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Lines written before #36: a server fstab line and an exports line for
# $EXP/alice/later/sub, whose path crosses $EXP/alice, a directory a user
# owns, and an fstab line through a link root left in its own directory
# ($EXP/proj/link -> alice/later), which mount -a would follow.  audit
# --fstab reports each as a finding of kind path_not_safe naming the
# directory (or link) and why (fstab_drift, exports_drift, the text report
# and the drift gauge's path_not_safe kind), exit status 1; the same lines
# for a subvolume below root's directories are no such finding.  suggest
# --diff, applied with patch -d / -p0, removes exactly those lines; audited
# again, they are gone.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v patch >/dev/null || skip_or_fail "needs patch"
setup_config_paths
uuid=$(blkid -p -s UUID -o value "${LOOPS[0]}")
BAD=$EXP/alice/later/sub
GOOD=$EXP/proj/area/sub
FSTAB=$OUT/fstab
printf '%s\n' "# server fstab" \
	"UUID=$uuid $BAD btrfs subvolid=$(btrfs inspect-internal rootid -- "$BAD"),nofail 0 0" \
	"UUID=$uuid $GOOD btrfs subvolid=$(btrfs inspect-internal rootid -- "$GOOD"),nofail 0 0" \
	"UUID=$uuid $EXP/proj/link/sub btrfs subvolid=$(btrfs inspect-internal rootid -- "$BAD"),nofail 0 0" \
	>"$FSTAB"
ln -s -- ../alice/later "$EXP/proj/link"
printf '%s\n' "$EXP 127.0.0.1(rw,no_subtree_check,crossmnt)" \
	"$BAD 127.0.0.1(rw,no_subtree_check,nohide)" \
	"$GOOD 127.0.0.1(rw,no_subtree_check,nohide)" >"$EXPORTS"

run_cli audit audit-json --json --exports "$EXPORTS" --fstab "$FSTAB" "$EXP"
check_rc audit-json "$RUN_RC" 1
check_eq "fstab_drift: the line through alice/" \
	"2 path_not_safe $BAD $EXP/alice owner $USER_ID|3 not_mounted $GOOD null|4 path_not_safe $EXP/proj/link/sub $EXP/proj/link unresolved null" \
	"$(jq -r '.fstab_drift[] | "\(.line) \(.kind) \(.mountpoint) \(.unsafe_path |
		if . then "\(.directory) \(.reason) \(.owner)" else "null" end)"' \
		"$OUT/audit-json" | paste -sd '|')"
check_eq "exports_drift: the line through alice/" \
	"path_not_safe $BAD 127.0.0.1 2 $EXP/alice owner $USER_ID" \
	"$(jq -r '.exports_drift[] | [.kind, .path, .client, .files.line,
		.unsafe_path.directory, .unsafe_path.reason, .unsafe_path.owner] |
		map(tostring) | join(" ")' "$OUT/audit-json")"

# The metrics count each such line under path_not_safe, the fstab ones
# not under fstab too: the good line, not mounted, is the one fstab drift.
run_cli audit audit-prom --format prometheus --exports "$EXPORTS" --fstab "$FSTAB" "$EXP"
check_rc audit-prom "$RUN_RC" 1
check_eq "the drift gauge by kind" \
	"not_in_effect 0|options_differ 0|not_in_files 0|fstab 1|etab_error 0|path_not_safe 3" \
	"$(sed -n 's/^btrfs_ino_audit_drift{kind="\([a-z_]*\)"} \([0-9]*\)$/\1 \2/p' "$OUT/audit-prom" | paste -sd'|')"

run_cli audit audit-text --exports "$EXPORTS" --fstab "$FSTAB" "$EXP"
check_rc audit-text "$RUN_RC" 1
for expected in \
	"fstab drift: remove $FSTAB line 2: a user could change its path, leave it to btrfs-ino mount: $EXP/alice is owned by uid $USER_ID (UUID=$uuid on $BAD); suggest --diff removes it" \
	"fstab drift: remove $FSTAB line 4: a user could change its path, leave it to btrfs-ino mount: $EXP/proj/link is a symbolic link (or not a directory) (UUID=$uuid on $EXP/proj/link/sub); suggest --diff removes it" \
	"export drift: $BAD to 127.0.0.1: $EXPORTS:2: $EXP/alice is owned by uid $USER_ID: a user could make it export another directory; suggest --diff removes the line"; do
	grep -qxF -- "$expected" "$OUT/audit-text" || fail "audit text lacks: $expected"
done

suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --diff "$EXP"
check_suggest_rc diff 1
cp -- "$FSTAB" "$OUT/fstab.before"
cp -- "$EXPORTS" "$OUT/exports.before"
patch -s -d / -p0 <"$OUT/diff" >"$OUT/patch.log" 2>&1 || fail "patch: $(cat "$OUT/patch.log")"
check_eq "the fstab lines removed" "$(sed -n '2p;4p' "$OUT/fstab.before")" \
	"$(diff "$OUT/fstab.before" "$FSTAB" | sed -n 's/^< //p')"
check_eq "the exports lines removed" "$(sed -n 2p "$OUT/exports.before")" \
	"$(diff "$OUT/exports.before" "$EXPORTS" | sed -n 's/^< //p')"
run_cli audit again --json --exports "$EXPORTS" --fstab "$FSTAB" "$EXP"
check_eq "audited again: no line through alice/" 0 \
	"$(jq '[.fstab_drift[], .exports_drift[] | select(.kind == "path_not_safe")] | length' "$OUT/again")"
finish
