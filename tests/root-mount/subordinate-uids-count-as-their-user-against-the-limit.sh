#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A user's subordinate uids (/etc/subuid, "owner:start:count") count as
# that user against --max-user-mounts: in a private mount namespace a test
# subuid file is bound over /etc/subuid giving nobody 100000-165535, uid
# 1000 300000-300099 (by number) and a name no user has 400000-400009 (an
# owner of its own, counted as 400000); with a comment and malformed lines
# (ignored, so 200001 stays an owner of its own: a range past 2^32, a
# negative start, a count of 0, a line of 8,000 bytes), and a last line
# without its newline.  With --max-user-mounts
# 2: of five subvolumes owned by five of nobody's subordinate uids two are
# mounted, three skipped "counted as uid 65534"; of 1000's own and two of
# its subordinates', two; of the unnamed range's three, two; 200001's one
# is mounted.  --dry-run counts them: "count uid 65534: 2 of ...".  Owners
# from stat, mounts from findmnt.
source "$(dirname -- "$0")/mount-lib.sh"
[[ -f /etc/subuid ]] || skip_or_fail "no /etc/subuid to bind a test file over"
setup_mount_export

u=$FEX/u
mkdir -- "$u"
export OUT U=$u
make_owned() { # NAME UID
	btrfs -q subvolume create "$u/$1"
	chown "$2:$2" -- "$u/$1"
}
for n in 1 2 3 4 5; do
	make_owned "a$n" "10000$n"
done
make_owned b1 1000
make_owned b2 300001
make_owned b3 300002
for n in 1 2 3; do
	make_owned "c$n" "40000$n"
done
make_owned d1 200001
cat >"$OUT/subuid" <<'END'
# subordinate uids for the test
not a subuid line
nobody:100000:65536
daemon:200000:x
1000:300000:100
::
nobody:4294967290:100
nobody:-5:10
nobody:500000:0
no-such-user-btrfs-ino-test:400000:10
END
# A line longer than any buffer, and a last line without its newline.
{ printf 'nobody:600000:10%08000d\n' 0; printf 'nobody:700000:10'; } >>"$OUT/subuid"

# In a namespace of its own: the bound file and the mounts end with it.
# shellcheck disable=SC2016 # expanded by the inner bash
in_namespace() {
	unshare -m --propagation private -- bash -c '
		mount --bind "$1" /etc/subuid || exit 99
		shift
		"$@"' bash "$OUT/subuid" "$@"
}
# shellcheck disable=SC2034 # run_cli (tests/root/lib.sh) reads it
RUN_WRAPPER=(in_namespace)
mount_cmd dry --dry-run --max-user-mounts 2 --exports "$EXPORTS"
check_mount_rc dry 0
check_eq "three of nobody's subordinates' skipped, counted as nobody" 3 \
	"$(grep -c "^skip $u/a[1-5]: its owner, uid 10000[1-5], counted as uid 65534, has reached --max-user-mounts 2 below $FEX\$" "$OUT/dry")"
check_eq "one of 1000's and its subordinates' skipped" 1 \
	"$(grep -c "^skip $u/b[1-3]: its owner, uid [0-9]*,\( counted as uid 1000,\)\? has reached --max-user-mounts 2 below $FEX\$" "$OUT/dry")"
check_eq "one of the unnamed range's skipped, counted as its first uid" 1 \
	"$(grep -c "^skip $u/c[1-3]: its owner, uid 40000[1-3], counted as uid 400000, has reached" "$OUT/dry")"
check_eq "nothing else skipped" 5 "$(grep -c '^skip ' "$OUT/dry")"
for owner in 65534 1000 400000; do
	check_eq "--dry-run counts uid $owner at the limit" 1 \
		"$(grep -cxF "count uid $owner: 2 of --max-user-mounts 2 below $FEX" "$OUT/dry")"
done
check_eq "--dry-run counts 200001 (its range malformed) apart" 1 \
	"$(grep -cxF "count uid 200001: 1 of --max-user-mounts 2 below $FEX" "$OUT/dry")"

# The real run, and the mount points it leaves, seen inside the namespace.
# shellcheck disable=SC2016 # expanded by the inner bash
in_namespace bash -c '
	"$@" >"$OUT/real" 2>"$OUT/real.err"
	echo "$?" >"$OUT/real.rc"
	findmnt -n -l -o TARGET | grep -F "$U/" | sort >"$OUT/mounted"' \
	bash "$BTRFS_INO" mount -q --max-user-mounts 2 --exports "$EXPORTS" ||
	fail "the namespace did not run"
check_eq "the run exits 0" 0 "$(cat "$OUT/real.rc")"
check_eq "the run says it skipped five" \
	"btrfs-ino: mount: $FEX: skipped 5 subvolumes by the mount policy (--dry-run lists them)" \
	"$(cat "$OUT/real.err")"
while IFS= read -r m; do stat -c %u -- "$m"; done <"$OUT/mounted" >"$OUT/owners"
check_eq "two of nobody's subordinates mounted" 2 "$(grep -c '^10000[1-5]$' "$OUT/owners")"
check_eq "two of 1000 and its subordinates mounted" 2 "$(grep -c -e '^1000$' -e '^30000[12]$' "$OUT/owners")"
check_eq "two of the unnamed range mounted" 2 "$(grep -c '^40000[1-3]$' "$OUT/owners")"
check_eq "200001's mounted" 1 "$(grep -c '^200001$' "$OUT/owners")"
finish
