#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Offline (--mountinfo FILE), a mount of this machine that the file does not
# list is no mount on that server: the audit does not walk into it, counts
# the directory it covers and reports it as "unlisted".  A tmpfs with files
# on spool/dir/loop, and the file this machine's own table without it: the
# counts and entries equal those computed from find before the tmpfs was
# mounted, even with crossmnt (issue 12).
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
loop=$fex/spool/dir/loop
find_listing "$fex" "$OUT/listing-before"
mount -t tmpfs -o size=1m tmpfs "$loop"
mkdir -- "$loop/d" && touch -- "$loop/f" "$loop/d/g"
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check,crossmnt)"
awk -v t="$loop" '$5 != t' /proc/self/mountinfo >"$OUT/server.mountinfo"
check_eq "the file lacks the tmpfs" 1 \
	"$(($(wc -l </proc/self/mountinfo) - $(wc -l <"$OUT/server.mountinfo")))"

audit json --json --exports "$OUT/exports" --mountinfo "$OUT/server.mountinfo" "$fex"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" \
	"$(expected_counts "$fex" "$OUT/listing-before")" "$(audit_counts json)"
check_eq "entries" "$(wc -l <"$OUT/listing-before")" "$(jq -r '.exports[0].entries' "$OUT/json")"
check_eq "submounts (mount point, fstype, view, client fs)" "$loop tmpfs unlisted 0" \
	"$(jq -r '.exports[0].submounts[] | "\(.mount.mountpoint) \(.mount.fstype) \(.view) \(.client_fs)"' "$OUT/json")"
check_eq "client filesystems" 1 "$(jq -r '.exports[0].client_filesystems' "$OUT/json")"

audit text --ascii --exports "$OUT/exports" --mountinfo "$OUT/server.mountinfo" "$fex"
grep -q 'not crossed: not in the mount table' "$OUT/text" ||
	fail "the tree does not say the tmpfs is not in the mount table"
umount -- "$loop"
finish
