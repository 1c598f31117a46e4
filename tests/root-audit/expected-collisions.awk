# SPDX-License-Identifier: LGPL-2.1-or-later
# The collision counts an NFS client of one export meets, computed from find
# alone, as exports(5) describes the client's view:
#  - client filesystems: the export, plus each server mount point the client
#    crosses into (first file, one mount point per line); an entry belongs to
#    the deepest one at or above it;
#  - client key: (client filesystem, st_ino); btrfs subvolumes do not change
#    it, only crossed mounts do;
#  - true identity: (st_dev, st_ino), st_dev being per subvolume on btrfs,
#    except for the empty directories (inode 2) a snapshot holds where a
#    nested subvolume was: they belong to their parent directory's subvolume.
# Second file: find EXPORT -printf '%D\t%i\t%y\t%n\t%p\n' (preorder).
# Prints "LOOP HARDLINK PLAIN":
#  loop: directories whose client key equals an ancestor's (up to the export);
#  hardlink: non-directories with nlink > 1 sharing their client key with
#            another such entry of a different identity;
#  plain: entries sharing their client key with an entry of another identity.
# Usage: awk -v export=PATH -f expected-collisions.awk CROSSED FIND_TSV
BEGIN { FS = "\t" }

FILENAME == ARGV[1] {
	if ($0 != "")
		crossed[$0] = 1
	next
}

{
	dev = $1; ino = $2; type = $3; nlink = $4; path = $5

	cfs = export; best = 0
	for (m in crossed)
		if ((path == m || index(path, m "/") == 1) && length(m) > best) {
			cfs = m
			best = length(m)
		}

	id = dev
	parent = path
	sub(/\/[^\/]*$/, "", parent)
	if (type == "d" && ino == 2 && (parent in dev_of))
		id = dev_of[parent]
	ckey = cfs SUBSEP ino
	tkey = id SUBSEP ino
	if (type == "d") {
		dev_of[path] = id
		ckey_of[path] = ckey
	}

	paths[ckey]++
	if (!((ckey, tkey) in seen)) {
		seen[ckey, tkey] = 1
		ids[ckey]++
	}
	if (type != "d" && nlink > 1) {
		link_paths[ckey]++
		if (!((ckey, tkey) in link_seen)) {
			link_seen[ckey, tkey] = 1
			link_ids[ckey]++
		}
	}

	if (type == "d" && path != export) {
		a = path
		while (a != export && a != "") {
			sub(/\/[^\/]*$/, "", a)
			if ((a in ckey_of) && ckey_of[a] == ckey) {
				loops++
				break
			}
		}
	}
}

END {
	for (k in paths)
		if (ids[k] > 1)
			plain += paths[k]
	for (k in link_paths)
		if (link_ids[k] > 1)
			hardlink += link_paths[k]
	print loops + 0, hardlink + 0, plain + 0
}
