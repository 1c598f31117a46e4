#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Build the VM's initramfs: a cached base (busybox, host tools, NFS/btrfs modules) and per-run overlays.
#
# Usage:
#   mkinitramfs.sh base KERNEL_ROOT OUT.cpio [AUTOFS_ROOT]
#       KERNEL_ROOT is what fetch-kernel.sh printed; AUTOFS_ROOT what
#       "fetch-package.sh autofs" printed (automount, libautofs and its lookup, parse
#       and mount modules go in). Rebuilt only when its inputs change.
#   mkinitramfs.sh extra OUT.cpio SRC[:DEST]...
#       A second archive the kernel unpacks over the base. Without DEST: *.so* go to
#       /usr/local/lib (on LD_LIBRARY_PATH in the VM), anything else to /usr/local/bin;
#       libbtrfsino-exec.so (btrfs-ino exec's preload) to /usr/local/lib/btrfs-ino.
#       Shared libraries of executables are copied along.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# What the scenarios may call. GNU tools win over busybox applets (PATH order in /init),
# because the user reports are about GNU find.
host_bins=(
	bash find xargs stat sort wc uniq head tail cat ls cut tr tee mkdir rmdir rm cp ln mv
	touch dd env timeout sleep seq date od sha256sum md5sum du df readlink realpath
	grep sed diff comm
	mount umount losetup findmnt mountpoint
	mkfs.btrfs btrfs
	rpcbind rpc.nfsd rpc.mountd exportfs rpc.statd sm-notify mount.nfs umount.nfs nfsstat
	jq ldd
	tar rsync
)
# The modules the brief names, plus btrfs's crypto softdeps that are not built in
# (softdeps are not in modules.dep; nothing in the VM runs modprobe for them).
modules=(loop blake2b_generic xxhash_generic btrfs sunrpc grace lockd auth_rpcgss
	nfsd nfs nfsv3 nfsv4 autofs4)
# From the autofs package, relative to its root: the daemon, its library, and the
# modules a sun-format file map of NFS mounts loads (mount_nfs opens mount_bind itself).
autofs_files=(usr/sbin/automount usr/lib/x86_64-linux-gnu/libautofs.so)
autofs_modules=(lookup_file parse_sun mount_nfs mount_bind mount_autofs)

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

# The shared objects a dynamic executable needs, the loader included.
needed_libs() {
	ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
}

# The libraries ldd cannot find for $1 (the host lacks them), one name a line.
missing_libs() {
	ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 == "not" { print $1 }'
}

# Copy $1 into the tree at $2/$3, dereferencing it; the file keeps the name the
# loader or PATH looks it up by, even when the host file is a symlink.
put() {
	local src=$1 root=$2 dest=$3
	mkdir -p "$root/$(dirname "$dest")"
	cp -L --preserve=mode "$src" "$root/$dest"
}

# A host file goes to the same place as on the host, with /bin, /lib... folded
# into /usr the way Debian 12's merged /usr does.
put_host() {
	local src=$1 root=$2 dir
	dir=$(realpath "$(dirname "$src")")
	put "$src" "$root" "$dir/$(basename "$src")"
}

put_with_libs() {
	local bin=$1 root=$2 lib
	put_host "$bin" "$root"
	while read -r lib; do
		put_host "$lib" "$root"
	done < <(needed_libs "$bin")
}

make_cpio() {
	local root=$1 out=$2
	# newc is the format the kernel's initramfs unpacker reads; uncompressed because
	# decompressing under TCG costs more boot time than reading a bigger file.
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >"$out.tmp.$$"
	mv "$out.tmp.$$" "$out"
}

build_base() {
	local kroot=$1 out=$2 autofs_root=${3-} kver moddir root stamp b m f
	kver=$(basename "$(ls -d "$kroot"/lib/modules/*/)")
	moddir=$kroot/lib/modules/$kver
	[[ -f $kroot/boot/vmlinuz-$kver ]] || die "no kernel in $kroot"
	[[ -f $moddir/modules.dep ]] || die "no modules.dep in $moddir"

	local paths=() p
	for b in "${host_bins[@]}"; do
		p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$b") || die "$b not found on the host"
		paths+=("$p")
	done
	p=$(command -v busybox) || die "busybox not found (apt-get install busybox-static)"
	paths+=("$p")
	# automount comes from an unpacked package, its libraries from the host.
	local autofs_paths=() autofs_libdir=
	if [[ -n $autofs_root ]]; then
		autofs_libdir=$autofs_root/usr/lib/x86_64-linux-gnu
		for f in "${autofs_files[@]}"; do
			autofs_paths+=("$autofs_root/$f")
		done
		for m in "${autofs_modules[@]}"; do
			autofs_paths+=("$autofs_libdir/autofs/$m.so")
		done
		for p in "${autofs_paths[@]}"; do
			[[ -f $p ]] || die "$p: not in the autofs package"
			b=$(LD_LIBRARY_PATH=$autofs_libdir missing_libs "$p")
			[[ -z $b ]] || die "$p needs libraries the host lacks: ${b//$'\n'/ }"
		done
	fi

	# Rebuild when this script, the kernel, a host tool or the autofs package changes
	# (its directory is named after its version).
	stamp=$( { cat "${BASH_SOURCE[0]}" "$here/init" | sha256sum; echo "$kver"
		   ls -lL "${paths[@]}" "${autofs_paths[@]}"; } | sha256sum | cut -d' ' -f1)
	if [[ -f $out && -f $out.stamp && $(cat "$out.stamp") == "$stamp" ]]; then
		return 0
	fi

	root=$(mktemp -d)
	trap 'rm -rf "$root"' RETURN
	mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/{dev,proc,sys,run,tmp,mnt,data,etc,root,bb}
	# The kernel only sets up console fds for /init if /dev/console exists in the archive.
	mknod "$root/dev/console" c 5 1
	ln -s usr/bin "$root/bin"
	ln -s usr/sbin "$root/sbin"
	ln -s usr/lib "$root/lib"
	ln -s usr/lib64 "$root/lib64"

	for p in "${paths[@]}"; do
		put_with_libs "$p" "$root"
	done
	# The autofs files keep their paths: automount loads its modules from the
	# directory compiled into it. It keeps its fifos and pid file in /var/run.
	for p in "${autofs_paths[@]}"; do
		put "$p" "$root" "/${p#"$autofs_root"/}"
		while read -r b; do
			[[ $b == "$autofs_libdir"/* ]] || put_host "$b" "$root"
		done < <(LD_LIBRARY_PATH=$autofs_libdir needed_libs "$p")
	done
	mkdir -p "$root/var"
	ln -s ../run "$root/var/run"
	# mount.nfs decides the protocol by its own name.
	ln -s mount.nfs "$root/usr/sbin/mount.nfs4"
	ln -s umount.nfs "$root/usr/sbin/umount.nfs4"
	# Busybox applets live apart, behind the GNU tools in PATH.
	local bb
	bb=$(realpath "$(dirname "$(command -v busybox)")")/busybox
	for b in $(busybox --list); do
		ln -s "$bb" "$root/bb/$b"
	done
	ln -sf bash "$root/usr/bin/sh"

	# Modules in dependency order, decompressed: busybox insmod cannot read .ko.xz/.zst.
	local order=() seen=" "
	add_module() {
		local name=$1 path dep
		path=$(awk -F: -v n="$name" '{ f = $1; sub(/.*\//, "", f); sub(/\.ko(\.(xz|zst|gz))?$/, "", f)
			gsub(/-/, "_", f) } f == n { print $1; exit }' "$moddir/modules.dep")
		if [[ -z $path ]]; then
			grep -qE "/$name\.ko" "$moddir/modules.builtin" 2>/dev/null && return 0
			die "module $name not in modules.dep"
		fi
		[[ $seen == *" $path "* ]] && return 0
		seen+="$path "
		for dep in $(awk -F: -v p="$path" '$1 == p { print $2 }' "$moddir/modules.dep"); do
			dep=$(basename "$dep"); dep=${dep%%.ko*}
			add_module "${dep//-/_}"
		done
		order+=("$path")
	}
	for m in "${modules[@]}"; do
		add_module "$m"
	done
	mkdir -p "$root/usr/lib/modules/$kver"
	for f in "${order[@]}"; do
		local dest=$root/usr/lib/modules/$kver/${f%.ko*}.ko
		mkdir -p "$(dirname "$dest")"
		case $f in
		*.ko.xz) xz -dc "$moddir/$f" >"$dest" ;;
		*.ko.zst) zstd -qdc "$moddir/$f" >"$dest" ;;
		*.ko.gz) gzip -dc "$moddir/$f" >"$dest" ;;
		*.ko) cp "$moddir/$f" "$dest" ;;
		esac
		echo "/lib/modules/$kver/${f%.ko*}.ko"
	done >"$root/etc/modules.load"

	# What nfs-utils and libtirpc read at run time: netconfig for transports,
	# services/protocols for port and protocol names, the rpcbind/statd users,
	# nobody for squashing, and nfs-utils' state directories.
	for f in /etc/netconfig /etc/services /etc/protocols /etc/nfs.conf; do
		[[ -f $f ]] && cp "$f" "$root/etc/"
	done
	cat >"$root/etc/passwd" <<-'EOT'
		root:x:0:0:root:/root:/bin/bash
		_rpc:x:102:65534::/run/rpcbind:/usr/sbin/nologin
		statd:x:103:65534::/var/lib/nfs:/usr/sbin/nologin
		nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
	EOT
	cat >"$root/etc/group" <<-'EOT'
		root:x:0:
		nogroup:x:65534:
	EOT
	printf 'passwd: files\ngroup: files\nhosts: files\nservices: files\nprotocols: files\nrpc: files\n' \
		>"$root/etc/nsswitch.conf"
	printf '127.0.0.1\tlocalhost\n' >"$root/etc/hosts"
	echo bino-vm >"$root/etc/hostname"
	[[ -f /etc/rpc ]] && cp /etc/rpc "$root/etc/"
	mkdir -p "$root"/var/lib/nfs/{sm,sm.bak,v4recovery,rpc_pipefs} "$root/run/rpcbind"
	touch "$root"/var/lib/nfs/{etab,rmtab} "$root/etc/exports"
	chown 103:65534 "$root"/var/lib/nfs/{sm,sm.bak}

	install -m 0755 "$here/init" "$root/init"

	make_cpio "$root" "$out"
	echo "$stamp" >"$out.stamp"
}

build_extra() {
	local out=$1 root arg src dest lib
	shift
	root=$(mktemp -d)
	trap 'rm -rf "$root"' RETURN
	for arg in "$@"; do
		src=${arg%%:*}
		dest=
		[[ $arg == *:* ]] && dest=${arg#*:}
		[[ -e $src ]] || die "$src: no such file"
		if [[ -z $dest ]]; then
			case $(basename "$src") in
			libbtrfsino-exec.so) dest=/usr/local/lib/btrfs-ino/$(basename "$src") ;;
			*.so | *.so.*) dest=/usr/local/lib/$(basename "$src") ;;
			*) dest=/usr/local/bin/$(basename "$src") ;;
			esac
		fi
		put "$src" "$root" "$dest"
		# Libraries from a build tree go on the VM's LD_LIBRARY_PATH; system ones to
		# where the loader finds them anyway.
		if [[ -x $src && ! -d $src ]]; then
			while read -r lib; do
				case $lib in
				/lib/* | /usr/lib/* | /lib64/* | /usr/lib64/*) put_host "$lib" "$root" ;;
				*) put "$lib" "$root" "/usr/local/lib/$(basename "$lib")" ;;
				esac
			done < <(needed_libs "$src")
		fi
	done
	make_cpio "$root" "$out"
}

case ${1-} in
base)
	[[ $# -eq 3 || $# -eq 4 ]] || die "usage: $0 base KERNEL_ROOT OUT.cpio [AUTOFS_ROOT]"
	build_base "$2" "$3" "${4-}"
	;;
extra)
	[[ $# -ge 2 ]] || die "usage: $0 extra OUT.cpio SRC[:DEST]..."
	shift
	build_extra "$@"
	;;
*)
	die "usage: $0 base KERNEL_ROOT OUT.cpio [AUTOFS_ROOT] | extra OUT.cpio SRC[:DEST]..."
	;;
esac
