#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Drift of both kinds: the etab exportfs wrote differs from the exports file
# (run exportfs -ra) and a btrfs line of the fstab below the export is not
# mounted (run mount -a).  next: is those commands, in that order, as one
# line a shell runs (joined by &&), never "suggest", which would print
# nothing of them; with a line to remove too (a deleted subvolume's), the
# suggest --diff that removes it, applied first.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture --files 10

fex=$MNT/fex
uuid=$(blkid -p -s UUID -o value "$LOOP")
etab_line "$fex" >"$OUT/etab"
write_exports "$OUT/exports" "$fex 127.0.0.1(ro,async,no_subtree_check,no_root_squash,crossmnt)"
printf '%s\n' "UUID=$uuid $fex/spool btrfs subvolid=$ID_SPOOL 0 0" >"$OUT/fstab"

audit text -q --etab "$OUT/etab" --exports "$OUT/exports" --fstab "$OUT/fstab" "$fex"
check_audit_rc text 1
grep -q 'run exportfs -ra' "$OUT/text" || fail "no exports drift: $(cat "$OUT/text")"
grep -q 'run mount -a' "$OUT/text" || fail "no fstab drift: $(cat "$OUT/text")"
check_eq "the next step" "next: exportfs -ra && mount -a" "$(grep '^next:' "$OUT/text")"

# A line whose subvolume is gone: suggest --diff removes it.
printf '%s\n' "UUID=$uuid $fex/gone btrfs subvolid=$((ID_S3 + 100)) 0 0" >>"$OUT/fstab"
audit gone -q --etab "$OUT/etab" --exports "$OUT/exports" --fstab "$OUT/fstab" "$fex"
check_audit_rc gone 1
grep -q 'suggest --diff removes it' "$OUT/gone" || fail "no removal: $(cat "$OUT/gone")"
check_eq "the next step" \
	"next: btrfs-ino suggest --diff --exports $OUT/exports | patch -d / -p0 && exportfs -ra && mount -a" \
	"$(sed -n '/^next: /,$p' "$OUT/gone" | sed 's/ \\$//; s/^ *//' | paste -sd' ')"
finish
