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

# ---------------------------------------------------------------------------
# The tree that opens the text report (run with --ascii)

# tree_rows FILE: the tree's rows, "DEPTH<TAB>ROW" with the branch
# characters ("|  ", "   ", "|- ", "`- ") counted and removed.
tree_rows() {
	awk '/^\(collisions between/ { exit }
		{
			line = $0; depth = 0
			while (match(line, /^(\|  |   |\|- |`- )/)) {
				line = substr(line, 4)
				depth++
			}
			print depth "\t" line
		}' "$1"
}

# tree_subvols FILE: "ID TREE_PARENT SNAPSHOT_OF" per subvolume row, where
# TREE_PARENT is the ID of the subvolume row it hangs from ("export" for the
# export's row) and SNAPSHOT_OF the source the row names, or null.
tree_subvols() {
	tree_rows "$1" | awk -F'\t' '
		$1 == 0 { parent[0] = "export"; next }
		match($2, /  (subvolume|snapshot) [0-9]+( of [0-9]+)?/) {
			n = split(substr($2, RSTART + 2, RLENGTH - 2), w, " ")
			of = n == 4 ? w[4] : "null"
			print w[2], parent[$1 - 1], of
			parent[$1] = w[2]
			next
		}
		{ parent[$1] = "not-a-subvolume" }'
}

# tree_counts FILE: "DEPTH ID LOOP HARDLINK PLAIN" per row that shows counts
# (ID is "export", a subvolume ID, or "folded" for a row of folded snapshots).
tree_counts() {
	tree_rows "$1" | awk -F'\t' '
		match($2, /(LOOP|loop) [0-9]+ \/ hardlink [0-9]+ \/ plain [0-9]+/) {
			split(substr($2, RSTART, RLENGTH), c, " ")
			id = "export"
			if ($1 > 0 && match($2, /  (subvolume|snapshot) [0-9]+/))
				id = substr($2, RSTART + 2, RLENGTH - 2)
			else if ($1 > 0)
				id = "folded"
			sub(/^[a-z]+ /, "", id)
			print $1, id, c[2], c[5], c[8]
		}'
}

# btrfs_subvols PATH...: "ID PARENT_ID SNAPSHOT_OF" of each subvolume root
# PATH as btrfs-progs shows it (SNAPSHOT_OF: the ID whose UUID is its Parent
# UUID, or null).
btrfs_subvols() {
	local path id show parent puuid of
	for path in "$@"; do
		id=$(btrfs inspect-internal rootid -- "$path")
		show=$(btrfs subvolume show -- "$path")
		parent=$(awk -F'\t+' '/^[[:space:]]*Parent ID:/ { print $NF }' <<<"$show")
		puuid=$(awk '/^[[:space:]]*Parent UUID:/ { print $NF }' <<<"$show")
		of=null
		if [[ $puuid != - ]]; then
			of=$(btrfs subvolume list -u "$MNT" | awk -v u="$puuid" '{ for (i = 1; i < NF; i++) if ($i == "uuid" && $(i + 1) == u) print $2 }')
		fi
		printf '%s %s %s\n' "$id" "$parent" "$of"
	done
}

# ---------------------------------------------------------------------------
# The live export table (etab)

# etab_line PATH: the etab line exportfs 2.6.2 wrote (in the VM, see
# tests/data/etab/README.md) for "/srv/a 127.0.0.1(rw,async,
# no_subtree_check,no_root_squash)", with PATH in place of /srv/a.
ETAB_FIXTURE=$SRCDIR/tests/data/etab/debian12-nfs-utils-2.6.2.etab
etab_line() {
	awk -v path="$1" -F '\t' '$1 == "/srv/a" { print path "\t" $2 }' "$ETAB_FIXTURE"
}
# The exports(5) line that etab_line is exportfs's expansion of.
ETAB_OPTIONS="rw,async,no_subtree_check,no_root_squash"
