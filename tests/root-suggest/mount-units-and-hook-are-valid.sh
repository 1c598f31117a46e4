#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --format mount-units: one unit per subvolume below the export that is not
# a snapshot (btrfs subvolume list -q: no parent_uuid), named as
# systemd-escape --path names its mount point, which systemd-analyze verify
# accepts, and each has What=, Where=, Type=btrfs and Options= with
# subvolid=.  --format snapshot-hook is a shell script (sh -n) that mounts
# by no path of its own: it runs btrfs-ino mount on the export (which
# resolves each mount point beneath it and verifies it), never btrfs
# inspect-internal rootid or mount; run after a new snapshot, it mounts
# that snapshot on its own path.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v systemd-analyze >/dev/null || skip_or_fail "needs systemd-analyze (package systemd)"
setup_export

suggest units.txt --exports "$EXPORTS" --format mount-units "$FEX"
check_suggest_rc units.txt 0
mkdir -- "$OUT/units"
awk -v dir="$OUT/units" '/^# file: \/etc\/systemd\/system\// {
	f = dir "/" substr($3, length("/etc/systemd/system/") + 1); next }
	f { print > f }' "$OUT/units.txt"

expected_plain_subvols | while IFS=$'\t' read -r id path; do
	printf '%s %s\n' "$(systemd-escape --path --suffix=mount -- "$path")" "$id"
done | sort >"$OUT/expected"
for unit in "$OUT/units"/*.mount; do
	[[ -e $unit ]] || continue
	printf '%s %s\n' "$(basename -- "$unit")" \
		"$(sed -n 's/^Options=.*subvolid=\([0-9]*\)$/\1/p' "$unit")"
done | sort >"$OUT/actual"
check_eq "units expected" 2 "$(wc -l <"$OUT/expected")"
check_files_eq "unit names and subvolume IDs" "$OUT/expected" "$OUT/actual"
for unit in "$OUT/units"/*.mount; do
	[[ -e $unit ]] || continue
	for key in What=/dev/disk/by-uuid/ Where=/ Type=btrfs Options=; do
		grep -q "^$key" "$unit" || fail "$(basename -- "$unit"): no $key"
	done
done
(cd "$OUT/units" && systemd-analyze verify --man=no ./*.mount) >"$OUT/verify" 2>&1 ||
	fail "systemd-analyze verify: $(cat "$OUT/verify")"

suggest hook --exports "$EXPORTS" --format snapshot-hook "$FEX"
check_suggest_rc hook 0
check_eq "shebang first" "#!/bin/sh" "$(head -n 1 "$OUT/hook")"
sh -n "$OUT/hook" || fail "sh -n rejects the hook"
check_eq "the hook's one command" \
	"exec btrfs-ino mount --quiet --exports '$EXPORTS' -- '$FEX'" \
	"$(config_lines "$OUT/hook" | grep -v -x 'set -eu')"

# A new snapshot, then the hook as the snapshot job runs it.
SNAP=$FEX/spool/.snapshot/s4
btrfs -q subvolume snapshot -- "$FEX/spool" "$SNAP" >/dev/null
mkdir -- "$OUT/bin"
ln -s -- "$BTRFS_INO" "$OUT/bin/btrfs-ino"
# shellcheck disable=SC2016 # expanded by the inner sh
PATH=$OUT/bin:$PATH BLKID_FILE=/dev/null unshare -m --propagation private -- \
	sh -c 'sh "$0" "$1" >/dev/null && findmnt -n -o OPTIONS --mountpoint "$1"' \
	"$OUT/hook" "$SNAP" >"$OUT/hook.run" 2>"$OUT/hook.err" || fail "the hook failed: $(cat "$OUT/hook.err")"
check_eq "the hook mounted the new snapshot on its path" \
	"subvolid=$(btrfs inspect-internal rootid -- "$SNAP")" \
	"$(grep -o 'subvolid=[0-9]*' "$OUT/hook.run")"
finish
