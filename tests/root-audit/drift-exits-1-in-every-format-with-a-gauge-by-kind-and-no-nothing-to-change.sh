#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Drift (an exports edit exportfs -ra has not applied) on a safe export is a
# finding in every format: text and prometheus both exit 1; the metrics count
# it by kind (options_differ 1, every other kind 0); the text's next step is
# the command the drift line names (exportfs -ra), never "nothing to change".
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

exported_plain_dir
plain=$PLAIN
write_exports "$OUT/edited" "$plain 127.0.0.1(ro,async,no_subtree_check,no_root_squash)"

audit text --etab "$OUT/etab" --exports "$OUT/edited" --fstab /dev/null
check_audit_rc text 1
check_eq "the next step" "next: exportfs -ra" \
	"$(grep '^next:' "$OUT/text")"
grep -q 'nothing to change' "$OUT/text" && fail "drift followed by nothing to change"

audit prom --format prometheus --etab "$OUT/etab" --exports "$OUT/edited" --fstab /dev/null
check_audit_rc prom 1
check_eq "the drift gauge by kind" \
	"not_in_effect 0|options_differ 1|not_in_files 0|fstab 0|etab_error 0|path_not_safe 0" \
	"$(sed -n 's/^btrfs_ino_audit_drift{kind="\([a-z_]*\)"} \([0-9]*\)$/\1 \2/p' "$OUT/prom" | paste -sd'|')"
check_eq "the export itself is safe" "btrfs_ino_audit_safe{path=\"$plain\"} 1" \
	"$(grep '^btrfs_ino_audit_safe' "$OUT/prom")"
finish
