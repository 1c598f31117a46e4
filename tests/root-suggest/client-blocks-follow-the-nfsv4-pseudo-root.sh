#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# With an NFSv4 pseudo-root (an export with fsid=0) NFSv4 clients name paths
# relative to it and NFSv3 clients by the server's path: --format
# client-fstab mounts the export and every subvolume (btrfs subvolume list)
# with vers=4 and the path below the pseudo-root, then offers the same with
# vers=3 and server paths, commented out; --format autofs likewise.  A path
# outside the pseudo-root gets vers=3 lines only; fsid=0 on "/" changes
# nothing.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
client=$WORK/client
printf '%s\n' "$MNT 127.0.0.1(rw,fsid=0,no_subtree_check,crossmnt)" \
	"$FEX 127.0.0.1(rw,no_subtree_check)" >"$EXPORTS"

# expected_lines VERS STRIP PREFIX: "PREFIXnfs1:PATH MOUNTPOINT nfs
# _netdev,vers=VERS 0 0", PATH the server path without STRIP.
expected_lines() {
	local path
	for path in "$FEX" $(expected_subvols | cut -f2); do
		printf '%snfs1:%s %s%s nfs _netdev,vers=%s 0 0\n' "$3" "${path#"$2"}" \
			"$client" "${path#"$FEX"}" "$1"
	done
}

suggest fstab --exports "$EXPORTS" --format client-fstab --server nfs1 \
	--client-dir "$client" "$FEX"
check_suggest_rc fstab 0
expected_lines 4 "$MNT" "" | sort >"$OUT/v4.expected"
config_lines "$OUT/fstab" | sort >"$OUT/v4.lines"
check_files_eq "NFSv4 lines: paths below the pseudo-root" "$OUT/v4.expected" "$OUT/v4.lines"
expected_lines 3 "" "#" | sort >"$OUT/v3.expected"
{ grep '^#nfs1:' "$OUT/fstab" || true; } | sort >"$OUT/v3.lines"
check_files_eq "NFSv3 lines, commented: server paths" "$OUT/v3.expected" "$OUT/v3.lines"

# offsets STRIP: "OFFSET nfs1:PATH" of the export and each subvolume, sorted.
offsets() {
	local path
	for path in "$FEX" $(expected_subvols | cut -f2); do
		printf '%s nfs1:%s\n' "${path#"$FEX"}" "${path#"$1"}"
	done | sed 's|^ |/ |' | sort
}
suggest autofs --exports "$EXPORTS" --format autofs --server nfs1 \
	--client-dir "$client" "$FEX"
check_suggest_rc autofs 0
grep -v -e '^# ' -e '^#$' "$OUT/autofs" >"$OUT/autofs.lines" || true
check_eq "autofs: the NFSv4 entry's key and options" "$client -fstype=nfs,vers=4 \\" \
	"$(head -n 1 "$OUT/autofs.lines")"
offsets "$MNT" >"$OUT/v4-offsets.expected"
sed -n '2,$p' "$OUT/autofs.lines" | grep -v '^#' | sed 's/^\t//; s/ \\$//' | sort >"$OUT/v4-offsets"
check_files_eq "autofs: its offsets, below the pseudo-root" "$OUT/v4-offsets.expected" \
	"$OUT/v4-offsets"
v3=$(grep "^#$client " "$OUT/autofs.lines" || true)
check_eq "autofs: the NFSv3 entry, commented, its key and options" "#$client -fstype=nfs,vers=3" \
	"$(cut -d' ' -f1,2 <<<"$v3")"
offsets "" >"$OUT/v3-offsets.expected"
cut -d' ' -f3- <<<"$v3" | xargs -n 2 | sort >"$OUT/v3-offsets"
check_files_eq "autofs: its offsets, server paths" "$OUT/v3-offsets.expected" "$OUT/v3-offsets"

# The path outside the pseudo-root: NFSv3 only.
printf '%s\n' "$FEX/spool 127.0.0.1(rw,fsid=root,no_subtree_check)" \
	"$FEX 127.0.0.1(rw,no_subtree_check)" >"$OUT/outside-exports"
suggest outside --exports "$OUT/outside-exports" --format client-fstab --server nfs1 \
	--client-dir "$client" "$FEX"
check_suggest_rc outside 0
expected_lines 3 "" "" | sort >"$OUT/outside.expected"
config_lines "$OUT/outside" | sort >"$OUT/outside.lines"
check_files_eq "outside the pseudo-root: vers=3 lines only" "$OUT/outside.expected" \
	"$OUT/outside.lines"

# fsid=0 on /: NFSv4 paths are the server's, nothing to pin.
printf '%s\n' "/ 127.0.0.1(ro,fsid=0)" "$FEX 127.0.0.1(rw,no_subtree_check)" >"$OUT/slash-exports"
suggest slash --exports "$OUT/slash-exports" --format client-fstab --server nfs1 \
	--client-dir "$client" "$FEX"
check_eq "fsid=0 on /: lines as without it" "nfs _netdev 0 0" \
	"$(config_lines "$OUT/slash" | awk '{ print $3, $4, $5, $6 }' | sort -u)"
finish
