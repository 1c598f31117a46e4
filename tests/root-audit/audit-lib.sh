# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the audit tests: the root suite's fixture and assertions, plus
# running "btrfs-ino audit" and computing its expected counts from find.
# shellcheck shell=bash
AUDIT_TESTS_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../root/lib.sh
source "$AUDIT_TESTS_DIR/../root/lib.sh"

# audit NAME ARGS...: run_cli audit, the exit status in AUDIT_RC.
audit() {
	run_cli audit "$@"
	AUDIT_RC=$RUN_RC
}

check_audit_rc() {
	check_rc "$1" "$AUDIT_RC" "$2"
}

# audit_counts NAME: "LOOP HARDLINK PLAIN" of the first export in the JSON.
audit_counts() {
	jq -r '.exports[0].collisions | "\(.loop) \(.hardlink) \(.plain)"' "$OUT/$1"
}

# What expected_counts reads of each entry, as find prints it.
FIND_LISTING_FORMAT='%D\t%i\t%y\t%n\t%p\n'

# find_listing EXPORT FILE: what expected_counts reads, saved.
find_listing() {
	find "$1" -printf "$FIND_LISTING_FORMAT" >"$2"
}

# find_listing_wrapped EXPORT FILE: find_listing's, find run under
# RUN_WRAPPER (as nobody it cannot read everything, and says so).
find_listing_wrapped() {
	"${RUN_WRAPPER[@]}" find "$1" -printf "$FIND_LISTING_FORMAT" \
		>"$2" 2>/dev/null || true
}

# check_two_links LISTING PATH...: the find listing shows each PATH with
# two links.
check_two_links() {
	local listing=$1 path
	shift
	for path in "$@"; do
		grep -q $'\t2\t'"$path\$" "$listing" ||
			fail "find does not show $path with two links"
	done
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

# as_nobody: RUN_WRAPPER set to run btrfs-ino as the unprivileged user
# nobody (who may not search btrfs trees), with WORK and OUT open to it;
# the test fails under CI where that cannot be.
as_nobody() {
	{ id nobody && command -v setpriv; } >/dev/null 2>&1 ||
		skip_or_fail "needs the user nobody and setpriv"
	chmod go+rx -- "$WORK" "$OUT"
	RUN_WRAPPER=(setpriv --reuid=nobody --regid="$(id -g nobody)"
		--clear-groups --)
}

# audit_traced NAME TRACE SYSCALLS ARGS...: audit NAME under "strace -f -e
# trace=SYSCALLS" (its lines in $OUT/TRACE), inside any RUN_WRAPPER, and
# check that it printed what the untraced audit did in $OUT/json.
# LeakSanitizer cannot run under ptrace: the untraced run is the one
# checked for leaks.
audit_traced() {
	local name=$1 trace=$2 syscalls=$3 wrapper=("${RUN_WRAPPER[@]}")
	shift 3
	RUN_WRAPPER=(strace -f -e "trace=$syscalls" -o "$OUT/$trace" --
		"${wrapper[@]}")
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		audit "$name" "$@"
	RUN_WRAPPER=("${wrapper[@]}")
	check_files_eq "the audit under strace" "$OUT/json" "$OUT/$name"
}

# btrfs_with_files TOP SUBVOLUME... : a fresh btrfs mounted at TOP with
# these subvolumes, the last holding $FILES empty files f001, f002...;
# for the tests that count the audit's system calls, under strace.
btrfs_with_files() {
	local top=$1 subvol
	shift
	command -v strace >/dev/null || skip_or_fail "needs strace"
	mount_loop btrfs 256M "$top"
	for subvol in "$@"; do
		btrfs -q subvolume create -- "$top/$subvol"
	done
	(cd -- "$top/$subvol" && seq -f 'f%03g' 1 "$FILES" | xargs touch --)
}

# files_into_dirs DIR N: btrfs_with_files' fNNN in DIR moved into
# directories of N files each (d0, d1...: f001 to f00N-1 in d0).
files_into_dirs() {
	local f d
	(cd -- "$1" && for f in f[0-9][0-9][0-9]; do
		d=d$((10#${f:1} / $2))
		mkdir -p -- "$d" && mv -- "$f" "$d/"
	done)
}

# audit_then_traced TOP RC TRACE SYSCALLS: audit TOP, exported by
# $OUT/exports: exit status RC and find's counts; then the same audit
# under strace -e trace=SYSCALLS, its lines in $OUT/TRACE.
audit_then_traced() {
	local top=$1 rc=$2 trace=$3 syscalls=$4
	find_listing "$top" "$OUT/listing"
	audit json --json --exports "$OUT/exports" "$top"
	check_audit_rc json "$rc"
	check_eq "collisions (loop hardlink plain)" \
		"$(expected_counts "$top" "$OUT/listing")" "$(audit_counts json)"
	audit_traced traced "$trace" "$syscalls" --json --exports "$OUT/exports" "$top"
	check_audit_rc traced "$rc"
}

# btrfs_of_small_dirs TOP: btrfs_with_files' subvolume TOP/src of $FILES
# files in directories of 10 (one probe stat each, where the audit may not
# be sure it can search them), exported alone by $OUT/exports.
btrfs_of_small_dirs() {
	btrfs_with_files "$1" src
	files_into_dirs "$1/src" 10
	write_exports "$OUT/exports" "$1/src *(rw,no_subtree_check)"
}

# audit_stats_no_file TOP: audit TOP (exported by $OUT/exports, its keys
# colliding nowhere): exit 0, find's counts and entries, none unreadable;
# and under strace, no statx of btrfs_with_files' names (fNNN).
audit_stats_no_file() {
	audit_then_traced "$1" 0 statx statx
	check_eq "entries, unreadable" "$(wc -l <"$OUT/listing") 0" \
		"$(jq -r '.exports[0] | "\(.entries) \(.unreadable)"' "$OUT/json")"
	check_eq "statx calls of fNNN" 0 \
		"$(statx_of_names "$OUT/statx" 'f[0-9]{3}')"
}

# audit_files_stats TOP EXPECTED: audit TOP, exported by $OUT/exports, under
# RUN_WRAPPER, check its counts against EXPECTED ("LOOP HARDLINK PLAIN"),
# then again under strace: FILES_STATS is the statx calls of the names
# btrfs_with_files made (fNNN).
audit_files_stats() {
	local top=$1 expected=$2
	audit json --json --exports "$OUT/exports" "$top"
	check_audit_rc json 1
	check_eq "collisions (loop hardlink plain)" "$expected" \
		"$(audit_counts json)"
	audit_traced traced statx statx --json --exports "$OUT/exports" "$top"
	check_audit_rc traced 1
	# shellcheck disable=SC2034 # the result: the sourcing test reads it
	FILES_STATS=$(statx_of_names "$OUT/statx" 'f[0-9]{3}')
}

# statx_of_names TRACE REGEX: the statx calls in strace output TRACE whose
# path (not the empty one of an fd) matches the extended REGEX.  A count of
# them bounded only above passes when the pattern stops matching strace's
# lines: each such count has a lower-bound control (check_probes_counted).
statx_of_names() {
	grep -cE "statx\([0-9]+, \"($2)\"" "$1" || true
}

# probed_names TOP REGEX: how many directories below TOP (TOP included)
# have a first entry that is not a directory, in directory order (ls -U),
# whose name matches the extended REGEX.  An audit that may not surely
# search a directory (a user who does not own it) stats that entry as the
# directory's probe (audit_entry_nlink(), lib/audit/audit.c).
probed_names() {
	local top=$1 regex=$2 dir name n=0
	while IFS= read -r -d '' dir; do
		while IFS= read -r name; do
			[[ ! -L $dir/$name && -d $dir/$name ]] && continue
			[[ $name =~ ^($regex)$ ]] && n=$((n + 1))
			break
		done < <(ls -U -A -- "$dir")
	done < <(find "$top" -type d -print0)
	echo "$n"
}

# check_probes_counted TRACE TOP REGEX: the control of a count of
# statx_of_names TRACE REGEX.  TRACE is that of an audit of TOP by a user
# who owns none of its directories, so it probes each: the same grep must
# count at least probed_names TOP REGEX calls, and that number is not 0.
# A pattern or a trace that no longer matches strace's lines fails here.
check_probes_counted() {
	local trace=$1 top=$2 regex=$3 probes stats
	probes=$(probed_names "$top" "$regex")
	((probes > 0)) ||
		fail "control: no directory below $top has a first file named like $regex"
	stats=$(statx_of_names "$trace" "$regex")
	((stats >= probes)) ||
		fail "control: statx_of_names counts $stats calls of $regex in $(basename -- "$trace"), fewer than the $probes probes of directories whose first file is one: it does not match strace's lines"
}

# control_probes TOP: for a test whose audit of TOP (exported by
# $OUT/exports) ran as root or as the owner and so made no probe, the
# control of its count of statx calls of fNNN names: the same audit again
# as nobody, under strace (its lines in $OUT/control), then
# check_probes_counted.  RUN_WRAPPER is left as it was.
control_probes() {
	local top=$1 wrapper=("${RUN_WRAPPER[@]}")
	as_nobody
	chmod go+r -- "$OUT/exports"
	RUN_WRAPPER=(strace -f -e trace=statx -o "$OUT/control" -- "${RUN_WRAPPER[@]}")
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		audit control --json --exports "$OUT/exports" "$top"
	RUN_WRAPPER=("${wrapper[@]}")
	check_probes_counted "$OUT/control" "$top" 'f[0-9]{3}'
}

# tree_searches TRACE ID: in strace output TRACE, the lines of the searches
# of subvolume ID's tree for every item up to an inode number: its whole
# reads, and the searches of one run of inode numbers that find where its
# inode numbers end and how many of them are directories.
tree_searches() {
	grep "BTRFS_IOC_TREE_SEARCH_V2, {key={tree_id=$2,.*nr_items=4294967295" \
		"$1" || true
}

# tree_reads TRACE ID: of tree_searches TRACE ID, the whole reads (strace
# leaves out their max_objectid, the usual one), as opposed to the searches
# of one run.  A test that counts none checks tree_searches as its control.
tree_reads() {
	tree_searches "$1" "$2" | grep -vc 'max_objectid=' || true
}

# write_exports FILE LINE...: an exports(5) file.
write_exports() {
	local file=$1
	shift
	printf '%s\n' "$@" >"$file"
}

# ---------------------------------------------------------------------------
# The table that follows the verdict lines, read in its --pairs form

# The columns tree_rows reads.
TREE_COLUMNS=TYPE,ID,PARENT,OF,LOOP,HARDLINK,PLAIN,CLIENT-FS,NAME,DETAILS

# audit_tree NAME ARGS...: audit NAME with the table only, as pairs.
audit_tree() {
	local name=$1
	shift
	audit "$name" --pairs -o "$TREE_COLUMNS" "$@"
}

# tree_rows FILE: per row of an audit_tree output, "DEPTH TYPE ID PARENT OF
# LOOP HARDLINK PLAIN CLIENT_FS NAME DETAILS" separated by tabs, DEPTH
# counted from the export's row (0) through the PARENT IDs.
tree_rows() {
	awk '
		function value(key,    v) {
			if (!match($0, "(^| )" key "=\"[^\"]*\""))
				return ""
			v = substr($0, RSTART, RLENGTH)
			sub(/^ /, "", v)
			return substr(v, length(key) + 3, length(v) - length(key) - 3)
		}
		{
			type = value("TYPE"); id = value("ID"); parent = value("PARENT")
			if (type == "export") {
				split("", depth_of)
				depth = 0
			} else if (parent == "") {
				depth = 1
			} else {
				depth = depth_of[parent] + 1
			}
			if (type == "subvolume" || type == "snapshot")
				depth_of[id] = depth
			print depth "\t" type "\t" id "\t" parent "\t" value("OF") "\t" \
				value("LOOP") "\t" value("HARDLINK") "\t" value("PLAIN") "\t" \
				value("CLIENT-FS") "\t" value("NAME") "\t" value("DETAILS")
		}' "$1"
}

# tree_subvols FILE: "ID TREE_PARENT SNAPSHOT_OF" per subvolume row, where
# TREE_PARENT is the ID of the subvolume row it hangs from ("export" for the
# export's row) and SNAPSHOT_OF the source the row names, or null.
tree_subvols() {
	tree_rows "$1" | awk -F'\t' '
		$2 == "subvolume" || $2 == "snapshot" {
			print $3, ($4 == "" ? "export" : $4), ($5 == "" ? "null" : $5)
		}'
}

# tree_counts FILE: "DEPTH ID LOOP HARDLINK PLAIN" per row that shows counts
# (ID is "export", a subvolume ID, "folded" for a row of folded snapshots or
# "other" for the entries in no subvolume).
tree_counts() {
	tree_rows "$1" | awk -F'\t' '
		$6 != "" {
			id = $2 == "export" ? "export" : \
			     ($2 == "subvolume" || $2 == "snapshot") ? $3 : $2
			print $1, id, $6, $7, $8
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
# shellcheck disable=SC2034 # for the sourcing tests' exports lines
ETAB_OPTIONS="rw,async,no_subtree_check,no_root_squash"

# as_server_exporting PATH SHELL_COMMAND: run SHELL_COMMAND (eval'ed, as a
# unit's ExecStart= is read) as on a server whose /etc/exports exports PATH
# alone and whose etab is empty (no NFS server has run exportfs): a mount
# namespace of its own binds such files over both, so the system's tables
# are used as the units use them and left untouched.
as_server_exporting() {
	printf '%s *(rw,no_subtree_check)\n' "$1" >"$WORK/server.exports"
	: >"$WORK/server.etab"
	unshare --mount --propagation private bash -c '
		mount --bind "$1" /etc/exports || exit 125
		if [[ -e /var/lib/nfs/etab ]]; then
			mount --bind "$2" /var/lib/nfs/etab || exit 125
		fi
		eval "$3"' as_server_exporting "$WORK/server.exports" "$WORK/server.etab" "$2"
}

# exported_plain_dir: a small plain directory, WORK/plain (in PLAIN), with the
# etab line exportfs wrote for it in OUT/etab: a safe export in effect.
exported_plain_dir() {
	PLAIN=$WORK/plain
	mkdir -p -- "$PLAIN/a"
	echo one >"$PLAIN/a/one"
	etab_line "$PLAIN" >"$OUT/etab"
}

# spool_mounted_crossmnt: the classic fixture (--files 10) with fex/spool
# mounted on its own path, its snapshots and inner not, and fex exported with
# crossmnt in $OUT/exports; sets FEX and SPOOL.
spool_mounted_crossmnt() {
	setup_fixture --files 10
	FEX=$MNT/fex
	SPOOL=$FEX/spool
	mount -o "subvol=fex/spool" -- "$LOOP" "$SPOOL"
	write_exports "$OUT/exports" "$FEX *(rw,crossmnt,no_subtree_check)"
}
