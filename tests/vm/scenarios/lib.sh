# SPDX-License-Identifier: LGPL-2.1-or-later
# Helpers the VM scenarios share: a btrfs scratch filesystem, the classic layout, an NFS server, client mounts, checks.
# Sourced by scenarios running as PID 1's child inside the VM (see tests/vm/init).
# shellcheck shell=bash

failures=0

# Print a step so the console log reads as a transcript.
say() {
	printf '== %s\n' "$*"
}

# check DESCRIPTION COMMAND...: record a failed expectation without stopping, so one
# run shows every NFS version's result.
check() {
	local what=$1
	shift
	if "$@"; then
		printf 'ok   %s\n' "$what"
	else
		printf 'FAIL %s\n' "$what"
		failures=$((failures + 1))
	fi
}

# The scenario's exit status: 0 when every check held.
finish() {
	if [[ $failures -eq 0 ]]; then
		say "all checks passed"
		return 0
	fi
	say "$failures check(s) failed"
	return 1
}

# scratch_btrfs MNT [SIZE]: a fresh btrfs on a loop file in tmpfs (RAM is the only disk).
scratch_btrfs() {
	local mnt=$1 size=${2:-512M}
	truncate -s "$size" /tmp/btrfs.img
	# -q still prints a note about changed defaults.
	mkfs.btrfs -q -f /tmp/btrfs.img >/dev/null
	mkdir -p "$mnt"
	mount -o loop /tmp/btrfs.img "$mnt"
}

# fill_tree DIR NDIRS NFILES: NDIRS directories of NFILES small files each, plus
# hard links and symlinks, so a walk meets every kind of entry.
fill_tree() {
	local dir=$1 ndirs=$2 nfiles=$3 d f
	for ((d = 0; d < ndirs; d++)); do
		mkdir -p "$dir/d$d"
		for ((f = 0; f < nfiles; f++)); do
			echo "$d/$f" >"$dir/d$d/f$f"
		done
	done
	for ((d = 0; d < ndirs; d += 2)); do
		ln "$dir/d$d/f0" "$dir/d$d/hardlink-f0"
		ln -s "f1" "$dir/d$d/symlink-f1"
	done
	ln -s d0 "$dir/link-to-d0"
}

# classic_layout ROOT: the layout of the user report that started it all.
#   ROOT/fex                      subvolume, exported
#   ROOT/fex/{files,docs/}        plain content
#   ROOT/fex/spool                nested subvolume, a few hundred entries
#   ROOT/fex/spool/.snapshot/s1   snapshot of spool
#   ROOT/fex/spool/.snapshot/s2   read-only snapshot, holds an empty placeholder for s1
#   ROOT/fex/spool/.snapshot/s3   snapshot, placeholders for s1 and s2
classic_layout() {
	local root=$1
	btrfs -q subvolume create "$root/fex"
	echo readme >"$root/fex/README"
	fill_tree "$root/fex/docs" 3 5
	btrfs -q subvolume create "$root/fex/spool"
	fill_tree "$root/fex/spool" 20 12
	mkdir "$root/fex/spool/.snapshot"
	# Snapshots taken one after another, the spool changing in between, as a cron job would.
	btrfs -q subvolume snapshot "$root/fex/spool" "$root/fex/spool/.snapshot/s1"
	echo new >"$root/fex/spool/d0/after-s1"
	btrfs -q subvolume snapshot -r "$root/fex/spool" "$root/fex/spool/.snapshot/s2"
	echo new >"$root/fex/spool/d1/after-s2"
	btrfs -q subvolume snapshot "$root/fex/spool" "$root/fex/spool/.snapshot/s3"
}

# nfs_server_start EXPORTS_LINE...: write /etc/exports and start the daemons a Debian
# nfs-kernel-server would (rpcbind, statd for v3 locking, mountd, nfsd).
nfs_server_start() {
	printf '%s\n' "$@" >/etc/exports
	mkdir -p /proc/fs/nfsd /run/rpc_pipefs
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	mountpoint -q /run/rpc_pipefs || mount -t rpc_pipefs sunrpc /run/rpc_pipefs
	rpcbind -w
	rpc.statd --no-notify
	exportfs -ra
	rpc.mountd
	# The shortest grace period nfsd allows: NFSv4 opens wait for it to end.
	rpc.nfsd --grace-time 10 --lease-time 10 4
	nfsd_end_grace
}

# nfsd_end_grace: end nfsd's NFSv4 grace period now (as nfsdcld does once no client
# has state to reclaim): a fresh server has none, and every v4 open in the first ten
# seconds would wait for it.
nfsd_end_grace() {
	echo Y >/proc/fs/nfsd/v4_end_grace
}

# nfs_mount VERS MNT [SOURCE]: mount the export the way a user would, vers=VERS.
nfs_mount() {
	local vers=$1 mnt=$2 src=${3:-127.0.0.1:/data/fex}
	mkdir -p "$mnt"
	mount -t nfs -o "vers=$vers" "$src" "$mnt"
}

# need_btrfs_ino: skip (exit 77) a scenario that calls btrfs-ino when the VM has none
# (run-vm.sh --btrfs-ino BUILD_DIR ships it).
need_btrfs_ino() {
	if ! command -v btrfs-ino >/dev/null; then
		echo "btrfs-ino not in the VM (run-vm.sh --btrfs-ino BUILD_DIR); skipping"
		exit 77
	fi
}

# walk_table ROOT JSON: the records of `btrfs-ino walk --json ROOT` saved in JSON as one
# tab-separated line each, in walk order, with one jq run (jq starts slowly under TCG).
# Columns, named as walk_rows knows them: path (relative to ROOT, "." for ROOT itself),
# event, type, ino, subvolid, source, fstype, flags (comma-separated: subvol_root,
# mount_root, subvol_placeholder, identity_uncertain; "-" for none), reason
# (uncertain_reason), errno, step; "-" where the record has no such key.
walk_table() {
	jq -r --arg root "$1" '
		def flag($k): if .[$k] == true then [$k] else [] end;
		[(if .path == $root then "." else .path | ltrimstr($root + "/") end),
		 .event, .type, .ino, .subvolid, .source, .fstype,
		 ([flag("subvol_root"), flag("mount_root"), flag("subvol_placeholder"),
		   flag("identity_uncertain")] | add | join(",") | if . == "" then "-" else . end),
		 .uncertain_reason, .errno, .step]
		| map(if . == null then "-" else tostring end) | @tsv' "$2"
}

# walk_rows TABLE [AWK_CONDITION [AWK_ACTION]]: the lines of a walk_table for which the
# condition holds (all by default), with the columns named: path, event, type, ino,
# subvolid, source, fstype, flags, reason, errno, step; has(FLAG) tests the flags column.
# e.g. walk_rows t 'event == "entry" && !has("identity_uncertain")' '{ print path }'
walk_rows() {
	awk -F'\t' '
		function has(f) { return index("," flags ",", "," f ",") > 0 }
		{ path = $1; event = $2; type = $3; ino = $4; subvolid = $5; source = $6
		  fstype = $7; flags = $8; reason = $9; errno = $10; step = $11 }
		'"${2:-1}"' '"${3:-}" "$1"
}

# walk_records JSON PATH...: the records for the PATHs (absolute, as walked), as printed.
walk_records() {
	local json=$1
	shift
	jq -c 'select(.path as $p | any($ARGS.positional[]; . == $p))' "$json" --args "$@"
}

# suggest_server_apply FSTAB EXPORTS: apply btrfs-ino suggest's server blocks as an admin
# would: mount -a -T FSTAB, the lines of EXPORTS (comments dropped) as /etc/exports,
# exportfs -ra. mountd reads /etc/mtab to find the mounts crossmnt reaches (it crashes
# without one); Debian has it as a symlink.
suggest_server_apply() {
	local fstab=$1 exports=$2
	[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
	say "applying: mount -a -T $(basename "$fstab"), /etc/exports from $(basename "$exports"), exportfs -ra"
	mount -a -T "$fstab"
	findmnt -R -o TARGET,FSROOT /data | sed 's/^/   /'
	grep -v '^#' "$exports" >/etc/exports
	exportfs -ra
	exportfs -v | sed 's/^/   /' | cut -c1-150
}

# server_truth DIR: what GNU find on the server lists below DIR, as paths relative to DIR
# (/tmp/server.list), and the placeholder directories (inode 2) that knfsd cannot serve
# (/tmp/placeholders).
server_truth() {
	local dir=$1
	find "$dir" | sed "s|^$dir||" | sort >/tmp/server.list
	find "$dir" -type d -inum 2 | sed "s|^$dir||" | sort >/tmp/placeholders
	say "server: $(wc -l </tmp/server.list) entries, $(wc -l </tmp/placeholders) placeholder(s):" \
		"$(tr '\n' ' ' </tmp/placeholders)"
}

# client_find MNT TAG: GNU find on a client path, the way a user runs it. Its output and
# errors go to /tmp/find-TAG.out and .err, the paths relative to MNT, sorted, to
# /tmp/client-TAG.list; find_rc and find_loops (its "File system loop detected" lines)
# are set.
client_find() {
	local mnt=$1 tag=$2
	find_rc=0
	find "$mnt" >"/tmp/find-$tag.out" 2>"/tmp/find-$tag.err" || find_rc=$?
	sed "s|^$mnt||" "/tmp/find-$tag.out" | sort >"/tmp/client-$tag.list"
	find_loops=$(grep -c 'File system loop detected' "/tmp/find-$tag.err" || true)
	say "client $tag: find exits $find_rc, lists $(wc -l <"/tmp/client-$tag.list") entries," \
		"$find_loops loop message(s), $(wc -l <"/tmp/find-$tag.err") error line(s)"
	sed 's/^/   stderr: /' "/tmp/find-$tag.err" | head -n 8
}

# lists_server_entries LIST: the client listing is the server's, path for path (find
# prints the placeholders it cannot stat, too).
lists_server_entries() {
	diff -u /tmp/server.list "$1" >/dev/null
}

# check_find_like_server TAG MNT: client_find TAG on MNT worked as on the server: no loop,
# the server's entries path for path, errors only ESTALE at the placeholders.
check_find_like_server() {
	local tag=$1 mnt=$2
	check "$tag: no loop message" test "$find_loops" -eq 0
	check "$tag: find lists exactly the server's entries" \
		lists_server_entries "/tmp/client-$tag.list"
	check "$tag: the only errors are ESTALE at the placeholders" \
		only_placeholder_errors "/tmp/find-$tag.err" "$mnt"
}

# only_placeholder_errors ERR MNT: every error line names a placeholder and says ESTALE.
only_placeholder_errors() {
	local err=$1 mnt=$2 line
	while IFS= read -r line; do
		[[ $line == *'Stale file handle' ]] || return 1
		line=${line#"find: '$mnt"}
		grep -qxF -- "${line%%\'*}" /tmp/placeholders || return 1
	done <"$err"
}

# start_keeper NAME ARGS...: btrfs-ino mount --watch ARGS in the background, its pid
# in NAME_pid, until it says it watches.
start_keeper() {
	local name=$1 i
	shift
	btrfs-ino mount --watch "$@" >"/tmp/$name.out" 2>"/tmp/$name.err" &
	printf -v "${name}_pid" '%s' $!
	for ((i = 0; i < 100; i++)); do
		grep -q ': watching$' "/tmp/$name.err" && break
		sleep 0.1
	done
	check "the $name keeper watches" grep -q ': watching$' "/tmp/$name.err"
}

# stop_keeper NAME: SIGTERM ends it with 0.
stop_keeper() {
	local pid=${1}_pid rc=0
	check "the $1 keeper still runs" kill -0 "${!pid}"
	kill -TERM "${!pid}"
	wait "${!pid}" || rc=$?
	check "SIGTERM ends the $1 keeper with 0 (got $rc)" test "$rc" -eq 0
	sed "s/^/   $1: /" "/tmp/$1.out" "/tmp/$1.err" | tail -n 30
}

# reference_cpu DIR: fill DIR (on tmpfs) with a fixed tree and print the user + system
# CPU seconds of 20 runs of `btrfs-ino walk` over it: a workload whose cost on the host
# is known (bench/client-idle.sh runs it there), so that a CPU figure measured under TCG,
# which slows each system call many times, can be divided by the slowdown it shows.
reference_cpu() {
	local dir=$1 TIMEFORMAT='%3U %3S' i
	fill_tree "$dir" 20 250
	{ time for ((i = 0; i < 20; i++)); do btrfs-ino walk "$dir" >/dev/null 2>&1; done; } 2>&1 |
		awk '{ printf "%.3f\n", $1 + $2 }'
}

# rotation_clients: /data/vol exported with crossmnt (no fstab), and a client of each
# NFS version in the scenario's array versions that mounts it once on /mnt/vVERS, their
# NFS submounts expiring after 3 s (fs.nfs.nfs_mountpoint_timeout; 500 s by default: a
# night's idle).
rotation_clients() {
	local v
	[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
	: >/etc/fstab
	nfs_server_start '/data/vol 127.0.0.1(rw,async,no_subtree_check,no_root_squash,crossmnt)'
	echo 3 >/proc/sys/fs/nfs/nfs_mountpoint_timeout
	# shellcheck disable=SC2154 # versions: the scenario's
	for v in "${versions[@]}"; do
		nfs_mount "$v" "/mnt/v$v" 127.0.0.1:/data/vol
	done
}
