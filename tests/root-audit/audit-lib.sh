# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the audit tests: the root suite's fixture and assertions, plus
# running "btrfs-ino audit" and computing its expected counts from find.
AUDIT_TESTS_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../root/lib.sh
source "$AUDIT_TESTS_DIR/../root/lib.sh"

# audit NAME ARGS...: run "btrfs-ino audit ARGS" with stdout in $OUT/NAME,
# stderr in $OUT/NAME.err and the exit status in AUDIT_RC.
audit() {
	local name=$1
	shift
	AUDIT_RC=0
	"$BTRFS_INO" audit "$@" >"$OUT/$name" 2>"$OUT/$name.err" || AUDIT_RC=$?
	if ((AUDIT_RC >= 128)); then
		fail "btrfs-ino audit $* died of signal $((AUDIT_RC - 128))"
		sed -n '1,20s/^/  stderr: /p' "$OUT/$name.err" >&2
	fi
}

check_audit_rc() {
	local name=$1 expected=$2
	if [[ $AUDIT_RC != "$expected" ]]; then
		fail "$name: exit status expected $expected, got $AUDIT_RC"
		sed -n '1,10s/^/  stderr: /p' "$OUT/$name.err" >&2
	fi
}

# audit_counts NAME: "LOOP HARDLINK PLAIN" of the first export in the JSON.
audit_counts() {
	jq -r '.exports[0].collisions | "\(.loop) \(.hardlink) \(.plain)"' "$OUT/$1"
}

# find_listing EXPORT FILE: what expected_counts reads, saved.
find_listing() {
	find "$1" -printf '%D\t%i\t%y\t%n\t%p\n' >"$2"
}

# expected_counts EXPORT LISTING [CROSSED_MOUNT_POINT...]: "LOOP HARDLINK
# PLAIN" computed from the find listing (see expected-collisions.awk).
expected_counts() {
	local export=$1 listing=$2
	shift 2
	printf '%s\n' "$@" >"$OUT/crossed"
	awk -v export="$export" -f "$AUDIT_TESTS_DIR/expected-collisions.awk" \
		"$OUT/crossed" "$listing"
}

# write_exports FILE LINE...: an exports(5) file.
write_exports() {
	local file=$1
	shift
	printf '%s\n' "$@" >"$file"
}
