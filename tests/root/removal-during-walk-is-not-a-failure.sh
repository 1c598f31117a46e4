#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Files and directories removed (and others created) while the walk runs
# cause no failure: the walk exits 0 or 1, its only errors are ENOENT, and
# every entry that still exists afterwards has the identity stat gives it.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

churn=$MNT/fex/spool/churn
mkdir -- "$churn"
(cd "$churn" && seq -f 'f%05g' 1 50000 | xargs touch --)
for i in $(seq 0 49); do
	mkdir -- "$churn/sub$i"
	(cd "$churn/sub$i" && seq -f 'x%02g' 1 20 | xargs touch --)
done
check_eq "entries in the churn directory" 50050 "$(find "$churn" -mindepth 1 -maxdepth 1 | wc -l)"

# Names are never reused, so a name that exists after the walk is the inode
# the walk saw under it.
churner() {
	local i=0 n rm_pid
	find "$churn" -mindepth 1 -maxdepth 1 -print0 | shuf -z |
		xargs -0 -n 16 rm -rf -- &
	rm_pid=$!
	trap 'kill "$rm_pid" 2>/dev/null; wait; exit 0' TERM
	while ((i < 2000)); do
		for n in 0 1 2 3 4 5 6 7 8 9; do
			: >"$churn/g$i-$n"
		done
		i=$((i + 1))
	done
	wait
}
churner &
churner_pid=$!
sleep 0.3

for mode in default stat stat-all; do
	case $mode in
	default) args=() ;;
	stat) args=(--stat) ;;
	stat-all) args=(--stat --stat-all) ;;
	esac
	walk "$mode" --json "${args[@]}" "$churn"
	check_walk_rc "$mode" "0 1"
	check_json "$mode"
	check_eq "$mode: records other than entries and ENOENT errors" "" \
		"$(jq -c 'select(.event != "entry" and (.event != "error" or .errno != 2))' "$OUT/$mode" | head -5)"
	if [[ $WALK_RC == 1 ]]; then
		if [[ -z $(jq -c 'select(.event == "error")' "$OUT/$mode") ]]; then
			fail "$mode: exit status 1 without an error record"
			sed -n '1,5s/^/  stderr: /p' "$OUT/$mode.err" >&2
		fi
	fi
	# In JSON every error is a record on stdout, whatever stderr also says.
	# (No colon in these paths: "btrfs-ino: PATH: ..." splits at the first.)
	sed -n 's/^btrfs-ino: \([^:]*\): .*$/\1/p' "$OUT/$mode.err" | sort -u >"$OUT/$mode.err.paths"
	jq -r 'select(.event == "error") | .path' "$OUT/$mode" | sort -u >"$OUT/$mode.rec.paths"
	check_eq "$mode: paths in error messages on stderr without an error record" "" \
		"$(comm -23 "$OUT/$mode.err.paths" "$OUT/$mode.rec.paths" | head -3)"
	echo "$mode: exit $WALK_RC, records:" "$(jq -r .event "$OUT/$mode" | sort | uniq -c | tr -s ' \n' ' ')"
done
kill "$churner_pid" 2>/dev/null || true
wait "$churner_pid" 2>/dev/null || true

# The churn must have overlapped the walks, or the test proves nothing.
left=$(find "$churn" -mindepth 1 -maxdepth 1 -name 'f*' | wc -l)
((left < 50000)) || fail "no file was removed during the walks"
((left > 0)) || echo "note: the churn removed every f* file"

for mode in default stat stat-all; do
	jq -r --arg c "$churn" 'select(.event == "entry" and .path != $c) |
		[.path, "\(.subvolid) \(.ino)"] | @tsv' "$OUT/$mode" | sort >"$OUT/$mode.keys"
	cut -f1 "$OUT/$mode.keys" | xargs -d '\n' stat -c "%n	$ID_SPOOL %i" 2>/dev/null |
		sort >"$OUT/$mode.expected" || true
	join -t $'\t' "$OUT/$mode.expected" "$OUT/$mode.keys" >"$OUT/$mode.joined"
	check_eq "$mode: surviving entries whose identity is not stat's" "" \
		"$(awk -F '\t' '$2 != $3' "$OUT/$mode.joined" | head -5)"
	((($(wc -l <"$OUT/$mode.joined")) > 0)) || fail "$mode: no walked entry survived to be checked"
done

finish
