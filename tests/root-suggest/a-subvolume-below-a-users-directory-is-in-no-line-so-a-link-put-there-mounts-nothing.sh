#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# #36's attack: a subvolume in a directory the user owns
# ($EXP/alice/later/sub).  The user renames later/ away (allowed even while
# sub is mounted) and puts at later/sub a link to a directory root sources;
# mount -a (and systemd-fstab-generator's Where=) would then mount the
# filesystem there.  So no line of the server fstab, the mount units,
# exports-nohide, the client fstab, the autofs map or --diff names it, and
# each block says why, naming $EXP/alice; after the user's rename and link,
# mount -a of the suggested server fstab mounts nothing on the link's
# target, and the subvolumes through root's directories are still mounted.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_config_paths
SUB=$EXP/alice/later/sub

for format in server-fstab mount-units exports-nohide client-fstab autofs; do
	suggest "$format" --exports "$EXPORTS" --server srv --format "$format" "$EXP"
	check_suggest_rc "$format" 0
	check_eq "$format: no line names $SUB" "" \
		"$(named_paths "$format" "$OUT/$format" | grep -Fx -- "$SUB" || true)"
	check_eq "$format: the block says who could move it" \
		"$SUB|$EXP/alice is owned by uid $USER_ID" \
		"$(left_notes "$OUT/$format" | grep -F -- "$SUB|" || true)"
done
: >"$OUT/fstab"
suggest diff --exports "$EXPORTS" --fstab "$OUT/fstab" --diff "$EXP"
check_eq "--diff: no line names $SUB" "" "$(grep -F -- " $SUB " "$OUT/diff" || true)"

# The user's move, as the user: later/ renamed, later/sub a link to a
# directory of root's (the test's tree is opened to others for it).
TARGET=$WORK/profile.d
install -d -m 0755 -- "$TARGET"
chmod 0711 -- "$WORK"
setpriv --reuid="$USER_ID" --regid="$(id -g nobody)" --clear-groups -- \
	sh -c 'mv -- "$1/later" "$1/later.old" && mkdir -- "$1/later" &&
		ln -s -- "$2" "$1/later/sub"' sh "$EXP/alice" "$TARGET" ||
	fail "the user could not rename later/ and put the link"
chmod 0700 -- "$WORK"
[[ -L $SUB ]] || fail "$SUB is no link"

config_lines "$OUT/server-fstab" >"$OUT/server.fstab"
# shellcheck disable=SC2016 # expanded by the inner bash
apply_and_run "$OUT/server.fstab" bash -c 'findmnt -n -o TARGET -- "$1" || true;
	findmnt -n -o TARGET -- "$2" || true' bash "$TARGET" "$EXP/proj/area/sub" \
	>"$OUT/mounted" 2>"$OUT/mounted.err" || fail "mount -a: $(cat "$OUT/mounted.err")"
check_eq "mount -a mounted root's subvolume, and nothing on the link's target" \
	"$EXP/proj/area/sub" "$(cat "$OUT/mounted")"
finish
