#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The server fstab already mounts spool/inner (a child) but not spool (its
# parent): suggest --diff --format server-fstab puts spool's line before
# inner's.  The patched fstab passes findmnt --verify with no "wrong
# order", and after mount -a -T the mount of inner sits on the mount of
# spool (findmnt's PARENT), where the kernel shows it, not under it.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
command -v unshare >/dev/null || skip_or_fail "needs unshare"
uuid=$(blkid -p -s UUID -o value "$LOOP")
FSTAB=$OUT/fstab
printf 'UUID=%s %s btrfs subvolid=%s,nofail 0 0\n' "$uuid" "$FEX/spool/inner" "$ID_INNER" >"$FSTAB"

suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --diff --format server-fstab "$FEX"
check_suggest_rc diff 1
patch -s "$FSTAB" <"$OUT/diff" || fail "patch rejects the diff: $(cat "$OUT/diff")"
grep -q " $FEX/spool btrfs " "$FSTAB" || fail "no line for spool: $(cat "$FSTAB")"
findmnt --verify --tab-file "$FSTAB" >"$OUT/verify" 2>&1 || true
check_eq "findmnt --verify: wrong order" "" "$(grep -i 'wrong order' "$OUT/verify" || true)"

# shellcheck disable=SC2016 # expanded by the inner bash
apply_and_run "$FSTAB" bash -c 'findmnt -n -r -o TARGET,ID,PARENT' >"$OUT/mounts"
spool_id=$(awk -v t="$FEX/spool" '$1 == t { print $2 }' "$OUT/mounts")
inner_parent=$(awk -v t="$FEX/spool/inner" '$1 == t { print $3 }' "$OUT/mounts")
[[ -n $spool_id ]] || fail "spool is not mounted: $(cat "$OUT/mounts")"
check_eq "the mount of inner sits on spool's" "$spool_id" "$inner_parent"
finish
