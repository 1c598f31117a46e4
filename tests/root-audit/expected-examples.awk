# SPDX-License-Identifier: LGPL-2.1-or-later
# The examples and subvolume pairs an audit reports for one export with no
# server mounts below it, computed from find alone, in find's (preorder,
# readdir) order, which is the walk's.  Identities and client keys as in
# expected-collisions.awk (one client filesystem).  Per class, each entry
# that collides with a different identity than the first of its key is an
# example (first path, its path), the first 10 kept; loops pair a directory
# with its nearest ancestor of the same inode number.  Pairs count, per
# unordered pair of subvolumes, the colliding entries: all of a key's
# entries met until its second identity go to (first, second), then each
# entry to (first, its own), entries of the first identity to (first,
# second).
# First file: "st_dev<TAB>subvolid" lines; second: find EXPORT -printf
# '%D\t%i\t%y\t%n\t%p\n'.  Prints "example CLASS PATH_A SUBVOL_A PATH_B
# SUBVOL_B" and "pair A B LOOP HARDLINK PLAIN" lines, tab-separated.
# Usage: awk -v export=PATH -f expected-examples.awk SUBVOLS FIND_TSV
BEGIN { FS = OFS = "\t" }

FILENAME == ARGV[1] {
	subvol_of[$1] = $2
	next
}

function pair(a, b, class, count,    k) {
	a = subvol_of[a]; b = subvol_of[b]
	if (a + 0 > b + 0) { k = a; a = b; b = k }
	k = a OFS b
	pairs[k, class] += count
	pair_keys[k] = 1
}

function example(class, path_a, id_a, path_b, id_b) {
	if (n_examples[class] >= 10)
		return
	examples[class, n_examples[class]++] = path_a OFS subvol_of[id_a] OFS \
		path_b OFS subvol_of[id_b]
}

# One entry of identity id in a class's group of key k (arrays by class).
function group_add(class, k, id, path,    count) {
	if (!((class, k) in first)) {
		first[class, k] = id
		first_path[class, k] = path
		paths[class, k] = 1
		return
	}
	paths[class, k]++
	if (id == first[class, k]) {
		if ((class, k) in other)
			pair(first[class, k], other[class, k], class, 1)
		return
	}
	count = ((class, k) in other) ? 1 : paths[class, k]
	pair(first[class, k], id, class, count)
	if (!((class, k) in other))
		other[class, k] = id
	example(class, first_path[class, k], first[class, k], path, id)
}

{
	dev = $1; ino = $2; type = $3; nlink = $4; path = $5
	id = dev
	parent = path
	sub(/\/[^\/]*$/, "", parent)
	if (type == "d" && ino == 2 && (parent in dev_of))
		id = dev_of[parent]
	if (type == "d") {
		dev_of[path] = id
		ino_of[path] = ino
	}
	if (type == "d" && path != export) {
		a = path
		while (a != export && a != "") {
			sub(/\/[^\/]*$/, "", a)
			if ((a in ino_of) && ino_of[a] == ino) {
				pair(dev_of[a], id, "loop", 1)
				example("loop", a, dev_of[a], path, id)
				break
			}
		}
	}
	group_add("plain", ino, id, path)
	if (type != "d" && nlink > 1)
		group_add("hardlink", ino, id, path)
}

END {
	split("loop hardlink plain", classes, " ")
	for (c = 1; c <= 3; c++)
		for (i = 0; i < n_examples[classes[c]]; i++)
			print "example", classes[c], examples[classes[c], i]
	for (k in pair_keys)
		print "pair", k, pairs[k, "loop"] + 0, pairs[k, "hardlink"] + 0,
			pairs[k, "plain"] + 0 | "sort -k2,2n -k3,3n"
}
