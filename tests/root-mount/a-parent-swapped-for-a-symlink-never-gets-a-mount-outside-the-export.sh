#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A user who owns a directory in the export makes a subvolume in it (a/sv)
# and swaps its parent a with a symbolic link to a directory of another
# filesystem outside the export (renameat2 RENAME_EXCHANGE, in a loop),
# where a victim's subvolume has the same subvolume ID and sits at the same
# relative name.  Root runs "btrfs-ino mount" on the user's directory again
# and again (at most 200 runs or 30 s): after each run, findmnt shows no
# mount on the other filesystem, only ever a mount on the user's own
# subvolume.  The test prints how many runs and swaps it made, and how many
# runs mounted and how many refused.
source "$(dirname -- "$0")/mount-lib.sh"
: "${EXCHANGE_LOOP:?meson passes the helper}"
setup_mount_export
# The fixture's own subvolumes first, so that each racing run plans only sv.
mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0

user=$FEX/user
mkdir -p -- "$user/a"
btrfs -q subvolume create "$user/a/sv"
chown -R 1000:1000 -- "$user"
sv_id=$(btrfs inspect-internal rootid -- "$user/a/sv")

# The victim: another btrfs (autoclear loop, so unmounting it detaches it),
# whose subvolume a/sv has sv's ID.
victim=$MNT/victim
truncate -s 200M -- "$WORK/victim.img"
mkfs.btrfs -q -- "$WORK/victim.img" >/dev/null
mkdir -- "$victim"
mount -o loop -- "$WORK/victim.img" "$victim"
mkdir -- "$victim/a"
for ((n = 0; ; n++)); do
	btrfs -q subvolume create "$victim/a/h$n"
	id=$(btrfs inspect-internal rootid -- "$victim/a/h$n")
	((id < sv_id)) || break
done
check_eq "the victim's subvolume has sv's ID" "$sv_id" "$id"
mv -- "$victim/a/h$n" "$victim/a/sv"
ln -s -- "$victim/a" "$user/link"

# mounts_on DIR: the mount points strictly below DIR, from findmnt.
mounts_on() {
	findmnt -r -n -o TARGET | awk -v dir="$1" 'index($0, dir "/") == 1'
}

# The loop in a coprocess: it says "swapping", then "paused" when asked.
# exec: the coprocess is the loop itself, which the signals below are for.
coproc FLIPPER { exec "$EXCHANGE_LOOP" "$user/a" "$user/link"; }
flipper=$FLIPPER_PID
exec {from_flipper}<&"${FLIPPER[0]}"
# flipper_says WORD: the loop's next line is WORD, read within 60 s.
flipper_says() {
	local line=
	read -r -t 60 line <&"$from_flipper" || true
	[[ $line == "$1" ]] && return 0
	fail "the swapping loop said '$line', not '$1'"
	return 1
}
flipper_says swapping || exit 1
runs=0 mounted=0 refused=0 outside=0
start=$SECONDS
while ((runs < 200 && SECONDS - start < 30)); do
	runs=$((runs + 1))
	mount_cmd "run" --exports "$EXPORTS" "$user"
	check_mount_rc "run $runs" "0 1"
	grep -q -e 'refus' -e 'Could not open' "$OUT/run.err" && refused=$((refused + 1))
	# The tree holds still, a and link as at the start, while it is looked
	# at and the mounts undone.
	kill -USR1 "$flipper"
	flipper_says paused || break
	while IFS= read -r target; do
		fail "run $runs mounted outside the export, on $target"
		outside=$((outside + 1))
		umount -- "$target" || fail "could not unmount $target"
	done < <(mounts_on "$victim")
	while IFS= read -r target; do
		check_eq "what run $runs mounted in the export" "$user/a/sv $sv_id" \
			"$target $(btrfs inspect-internal rootid -- "$target")"
		mounted=$((mounted + 1))
		umount -- "$target" || fail "could not unmount $target"
	done < <(mounts_on "$user")
	kill -USR2 "$flipper"
done
kill -TERM "$flipper"
read -r -t 60 swaps <&"$from_flipper" || swaps='?'
wait "$flipper" || fail "the swapping loop failed"
printf '%s: %d runs in %d s, %s swaps; %d runs mounted sv in the export, %d refused, %d mounted outside\n' \
	"$TEST_NAME" "$runs" "$((SECONDS - start))" "$swaps" "$mounted" "$refused" "$outside"
((mounted + refused > 0)) || fail "no run ever planned sv: the race was not run"
finish
