# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by tests/install: a fresh build of the source tree installed into a
# temporary DESTDIR, the way a distribution packages it, and pkg-config
# pointed at that DESTDIR.  Sourced after `set -euo pipefail`.
#
# meson passes SRCDIR (the source tree) and MESON (the meson command); the
# cli-suite tests also get BTRFS_INO (the built binary).
# shellcheck shell=bash
export LC_ALL=C
: "${SRCDIR:?SRCDIR must name the source tree}"

# shellcheck source=tests/lib/common.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/../lib/common.sh"

# multiarch_libdir PREFIX: where Debian puts libraries under PREFIX
# (PREFIX/lib/x86_64-linux-gnu), from the compiler, not from meson.
multiarch_libdir() {
	local triplet
	triplet=$(${CC:-cc} -print-multiarch 2>/dev/null || true)
	if [[ -n $triplet ]]; then
		printf '%s/lib/%s\n' "$1" "$triplet"
	else
		printf '%s/lib\n' "$1"
	fi
}

# install_tree DIR PREFIX [MESON OPTION]...: configure a build of SRCDIR in
# DIR/build with --prefix=PREFIX, build it and `meson install --destdir
# DIR/dest`.  Sets DEST (the DESTDIR), PREFIX and LIBDIR (absolute, as
# installed, without DEST).  A build failure fails the test.
install_tree() {
	local dir=$1
	PREFIX=$2
	shift 2
	DEST=$dir/dest
	local meson=${MESON:-meson}
	# shellcheck disable=SC2086 # MESON may be "python3 /path/meson.py"
	$meson setup "$dir/build" "$SRCDIR" --prefix="$PREFIX" -Dtests=disabled \
		"$@" >"$dir/setup.log" 2>&1 ||
		{ tail -n 30 "$dir/setup.log" >&2; fail "meson setup failed"; exit 1; }
	ninja -C "$dir/build" >"$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; fail "the build failed"; exit 1; }
	# shellcheck disable=SC2086
	$meson install -C "$dir/build" --destdir "$DEST" --no-rebuild \
		>"$dir/install.log" 2>&1 ||
		{ tail -n 30 "$dir/install.log" >&2; fail "meson install failed"; exit 1; }
	LIBDIR=$(multiarch_libdir "$PREFIX")
}

# install_units DIR: install_tree DIR DIR/root, with DIR/root made a link to
# the tree in DESTDIR, so that ExecStart= names an executable file as
# systemd-analyze verify requires.  Sets UNITDIR: where the units are, as
# systemd.pc says for that prefix.
# shellcheck disable=SC2034 # UNITDIR is the result: the sourcing test reads it
install_units() {
	install_tree "$1" "$1/root"
	ln -s -- "$DEST$1/root" "$1/root"
	UNITDIR=$1/root/lib/systemd/system
	if pkg-config --exists systemd; then
		UNITDIR=$(pkg-config --define-variable=rootprefix="$1/root" \
			--variable=systemdsystemunitdir systemd)
	fi
}

# dest_pkg_config ARGS...: pkg-config as a program built against the DESTDIR
# tree sees it: the .pc files under DEST, and every path they name moved
# under DEST (PKG_CONFIG_SYSROOT_DIR; --define-prefix cannot, as it takes
# the prefix to be two levels above the .pc file, wrong for lib/TRIPLET).
dest_pkg_config() {
	PKG_CONFIG_SYSROOT_DIR=$DEST PKG_CONFIG_PATH=$DEST$LIBDIR/pkgconfig \
		pkg-config "$@"
}

# dest_cc OUTPUT SOURCE [CFLAGS]...: compile SOURCE against the DESTDIR
# install, the way the README tells users to.
dest_cc() {
	local output=$1 source=$2 flags
	shift 2
	flags=$(dest_pkg_config --cflags --libs btrfsino) || {
		fail "pkg-config does not know btrfsino in $DEST$LIBDIR/pkgconfig"
		exit 1
	}
	# shellcheck disable=SC2086 # flags are words
	${CC:-cc} "$@" -o "$output" "$source" $flags || {
		fail "cannot compile $source against the installed tree ($flags)"
		exit 1
	}
}

# dest_run PROGRAM ARGS...: run with the DESTDIR's library directory first.
dest_run() {
	LD_LIBRARY_PATH=$DEST$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$@"
}

# man_example FILE: the complete program of libbtrfsino(3) (between its
# "example-begin" and "example-end" comments), with roff escapes undone.
man_example() {
	sed -n '/^\.\\" example-begin/,/^\.\\" example-end/p' "$1" |
		sed -e '/^\./d' -e 's/\\e/\\/g' -e 's/\\-/-/g' \
			-e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g'
}

# The expressions bino-find is compared with find on: every -type letter
# the trees have, -name with wildcards, the depth limits, and combinations.
FIND_EXPRESSIONS=(
	''
	'-name *.txt'
	'-name [ab]*'
	'-name *spaces*'
	'-type f'
	'-type d'
	'-type l'
	'-type p'
	'-type f,l'
	'-type d -name s?'
	'-name hard* -type f'
	'-maxdepth 0'
	'-maxdepth 1'
	'-maxdepth 3 -type d'
	'-mindepth 2 -maxdepth 4 -type f'
)

# compare_with_find BINO_FIND ROOT WORKDIR: for each of FIND_EXPRESSIONS,
# bino-find ROOT EXPR prints the paths GNU find ROOT EXPR prints (order
# aside), exits 0 and is silent on stderr; -print0 output is the same bytes
# after sorting.  Returns (does not exit) with the number of differences.
compare_with_find() {
	local bino_find=$1 root=$2 work=$3 expr rc failures=0
	local -a args
	for expr in "${FIND_EXPRESSIONS[@]}"; do
		read -r -a args <<<"$expr"
		find "$root" "${args[@]}" | sort >"$work/find.out"
		rc=0
		dest_run "$bino_find" "$root" "${args[@]}" >"$work/bino.raw" 2>"$work/bino.err" || rc=$?
		sort "$work/bino.raw" >"$work/bino.out"
		if [[ $rc != 0 || -s $work/bino.err ]]; then
			printf '%s: FAIL: bino-find %s: exit %s, stderr: %s\n' "$TEST_NAME" \
				"$expr" "$rc" "$(head -3 "$work/bino.err")" >&2
			failures=$((failures + 1))
		fi
		if ! cmp -s "$work/find.out" "$work/bino.out"; then
			printf '%s: FAIL: bino-find %s differs from find (- find, + bino-find):\n' \
				"$TEST_NAME" "$expr" >&2
			diff -u "$work/find.out" "$work/bino.out" | sed -n '3,23p' >&2 || true
			failures=$((failures + 1))
		fi
		[[ -s $work/find.out ]] || [[ $expr == '-type p' || $expr == '-type l' ]] ||
			printf '%s: note: find %s finds nothing\n' "$TEST_NAME" "$expr" >&2
	done

	find "$root" -print0 | sort -z >"$work/find.z"
	dest_run "$bino_find" "$root" -print0 | sort -z >"$work/bino.z"
	if ! cmp -s "$work/find.z" "$work/bino.z"; then
		printf '%s: FAIL: bino-find -print0 differs from find -print0\n' "$TEST_NAME" >&2
		failures=$((failures + 1))
	fi
	find "$root" -type f -name '*.txt' -print0 | sort -z >"$work/find.z"
	dest_run "$bino_find" "$root" -type f -name '*.txt' -print0 | sort -z >"$work/bino.z"
	if ! cmp -s "$work/find.z" "$work/bino.z"; then
		printf '%s: FAIL: bino-find -type f -name *.txt -print0 differs from find\n' "$TEST_NAME" >&2
		failures=$((failures + 1))
	fi
	return "$failures"
}

# expected_link_summary ROOT: the line bino-find -count-links prints, from
# find: paths of non-directories with more than one link, and their
# distinct (st_dev, st_ino) -- on a local filesystem, btrfs included (each
# subvolume has its own st_dev), that is also the number of true identities.
expected_link_summary() {
	local paths ids
	paths=$(find "$1" ! -type d -links +1 | wc -l)
	ids=$(find "$1" ! -type d -links +1 -printf '%D:%i\n' | sort -u | wc -l)
	printf 'bino-find: %d hard-linked paths, %d files by true identity, %d by (st_dev, st_ino)\n' \
		"$paths" "$ids" "$ids"
}

# help_options ARGS...: the options `btrfs-ino ARGS --help` lists, one per
# line, sorted: from the option column of lines that start with blanks and a
# dash ("  -0, --print0   ..." gives -0 and --print0).
help_options() {
	"$BTRFS_INO" "$@" --help | sed -nE '/^ +-/{s/^ +//; s/  .*//; p}' |
		grep -oE -- '--?[A-Za-z0-9][A-Za-z0-9-]*' | sort -u
}

# help_commands: the commands `btrfs-ino --help` lists under "Commands:".
help_commands() {
	"$BTRFS_INO" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
		on { print $1 }'
}

# debian_packages DIR: debian/ as a distribution uses it: the tracked and
# not ignored files of SRCDIR copied into DIR/src, made a git repository
# (so that what the build leaves can be asked of git), and
# dpkg-buildpackage -us -uc -b there.  Sets DEB_VERSION (debian/changelog's)
# and DEBS: the paths of libbtrfsino1, libbtrfsino-dev and btrfs-ino, in
# that order.  A build failure fails the test.
debian_packages() {
	local dir=$1 package deb
	mkdir -p "$dir/src"
	git -C "$SRCDIR" ls-files -co --exclude-standard -z |
		(cd "$SRCDIR" && xargs -0 cp --parents -t "$dir/src")
	git -C "$dir/src" init -q
	git -C "$dir/src" add -A
	git -C "$dir/src" -c user.name=test -c user.email=test@localhost commit -qm source
	(cd "$dir/src" && dpkg-buildpackage -us -uc -b) >"$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; fail "dpkg-buildpackage failed"; exit 1; }
	DEB_VERSION=$(dpkg-parsechangelog -l "$dir/src/debian/changelog" -S Version)
	DEBS=()
	for package in libbtrfsino1 libbtrfsino-dev btrfs-ino; do
		deb=$dir/${package}_${DEB_VERSION}_$(dpkg --print-architecture).deb
		[[ -f $deb ]] || { fail "no package $package ($deb)"; exit 1; }
		DEBS+=("$deb")
	done
}
