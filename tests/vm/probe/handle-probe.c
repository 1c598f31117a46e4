// SPDX-License-Identifier: LGPL-2.1-or-later
// Print what name_to_handle_at() returns for each path (raw, and decoded where the layout is known).
//
// Usage: handle-probe [-r MOUNT_DIR] PATH...
// One line per path, key=value, so a scenario can pick fields with sed:
//   path=P dev=MAJ:MIN ino=N type=T bytes=B hex=...   then decoded fields, or
//   path=P dev=MAJ:MIN ino=N errno=NAME
// With -r, the handles are then resolved again with open_by_handle_at() relative to
// MOUNT_DIR after dropping the dentry and inode caches, so an NFS client has to ask
// the server (whose own caches are dropped too: same kernel):
//   reopen=P result=OK|ERRNO_NAME
// Decoding, for reading the findings (the kernel defines these layouts, the probe only assumes them):
//   btrfs (types 0x4d-0x4f): u64 objectid, u64 root_objectid, u32 gen, [parent fields], packed LE.
//   Linux NFS client (type == bytes / 4): u32 fileid_hi, u32 fileid_lo, u32 S_IFMT bits,
//     u16 server_fh_size, server_fh bytes. A knfsd server fh: u8 version (1), u8 auth_type,
//     u8 fsid_type, u8 fileid_type, fsid (length by fsid_type), then the exporting
//     filesystem's fileid (btrfs: as above).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define PROBE_HANDLE_MAX 128

enum {
	PROBE_FILEID_BTRFS_WITHOUT_PARENT = 0x4d,
	PROBE_FILEID_BTRFS_WITH_PARENT = 0x4e,
	PROBE_FILEID_BTRFS_WITH_PARENT_ROOT = 0x4f,
};

/* Bytes of fsid that follow the knfsd header, by fsid_type (fs/nfsd/nfsfh.h). */
static int probe_knfsd_fsid_len(unsigned int fsid_type)
{
	static const int len[] = { 8, 4, 12, 8, 8, 8, 16, 24 };

	return fsid_type < sizeof(len) / sizeof(len[0]) ? len[fsid_type] : -1;
}

static uint64_t probe_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t probe_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void probe_hex(const char *key, const unsigned char *p, size_t n)
{
	printf(" %s=", key);
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
}

/* A btrfs fid at p (n bytes), type t; off is its offset in the whole handle. */
static void probe_btrfs_fid(const unsigned char *p, size_t n, unsigned int t, size_t off)
{
	if (n < 20)
		return;
	printf(" btrfs_objectid=%" PRIu64 " btrfs_root=%" PRIu64 " btrfs_root_off=%zu btrfs_gen=%" PRIu32,
	       probe_le64(p), probe_le64(p + 8), off + 8, probe_le32(p + 16));
	if (t >= PROBE_FILEID_BTRFS_WITH_PARENT && n >= 32)
		printf(" btrfs_parent_objectid=%" PRIu64 " btrfs_parent_gen=%" PRIu32,
		       probe_le64(p + 20), probe_le32(p + 28));
	if (t == PROBE_FILEID_BTRFS_WITH_PARENT_ROOT && n >= 40)
		printf(" btrfs_parent_root=%" PRIu64, probe_le64(p + 32));
}

static int probe_is_btrfs_type(unsigned int t)
{
	return t >= PROBE_FILEID_BTRFS_WITHOUT_PARENT && t <= PROBE_FILEID_BTRFS_WITH_PARENT_ROOT;
}

/* The NFS client's handle: its own 12-byte prefix, then the server's handle. */
static void probe_nfs_client(const unsigned char *h, size_t n)
{
	const size_t fh_off = 14;
	uint16_t fh_size;
	const unsigned char *fh;

	if (n < fh_off)
		return;
	memcpy(&fh_size, h + 12, sizeof(fh_size));
	printf(" nfs_fileid=%" PRIu64 " nfs_fmt=0%o nfs_fh_size=%u nfs_fh_off=%zu",
	       (uint64_t)probe_le32(h) << 32 | probe_le32(h + 4), probe_le32(h + 8), fh_size, fh_off);
	if (fh_off + fh_size > n || fh_size < 4)
		return;
	fh = h + fh_off;
	printf(" knfsd_version=%u knfsd_auth=%u knfsd_fsid_type=%u knfsd_fileid_type=0x%02x",
	       fh[0], fh[1], fh[2], fh[3]);
	if (fh[0] != 1)
		return;
	int fsid_len = probe_knfsd_fsid_len(fh[2]);
	if (fsid_len < 0 || 4 + (size_t)fsid_len > fh_size)
		return;
	probe_hex("knfsd_fsid", fh + 4, fsid_len);
	size_t fileid_off = 4 + fsid_len;
	probe_hex("knfsd_fileid", fh + fileid_off, fh_size - fileid_off);
	printf(" knfsd_fileid_off=%zu", fh_off + fileid_off);
	if (probe_is_btrfs_type(fh[3]))
		probe_btrfs_fid(fh + fileid_off, fh_size - fileid_off, fh[3], fh_off + fileid_off);
}

struct probe_handle {
	struct file_handle fh;
	unsigned char bytes[PROBE_HANDLE_MAX];
};

static int probe_path(const char *path, struct probe_handle *out)
{
	struct probe_handle h;
	struct stat st;
	int mount_id;

	printf("path=%s", path);
	if (lstat(path, &st) < 0) {
		printf(" stat_errno=%s\n", strerrorname_np(errno));
		return 1;
	}
	printf(" dev=%u:%u ino=%ju", major(st.st_dev), minor(st.st_dev), (uintmax_t)st.st_ino);

	h.fh.handle_bytes = PROBE_HANDLE_MAX;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0) {
		printf(" errno=%s\n", strerrorname_np(errno));
		return 1;
	}
	printf(" mount_id=%d type=%d bytes=%u", mount_id, h.fh.handle_type, h.fh.handle_bytes);
	probe_hex("hex", h.fh.f_handle, h.fh.handle_bytes);
	if (probe_is_btrfs_type(h.fh.handle_type))
		probe_btrfs_fid(h.fh.f_handle, h.fh.handle_bytes, h.fh.handle_type, 0);
	else if ((unsigned int)h.fh.handle_type * 4 == h.fh.handle_bytes)
		probe_nfs_client(h.fh.f_handle, h.fh.handle_bytes);
	printf("\n");
	*out = h;
	return 0;
}

/* Forget cached dentries and inodes so a handle has to be decoded from scratch. */
static void probe_drop_caches(void)
{
	FILE *f = fopen("/proc/sys/vm/drop_caches", "w");

	if (!f) {
		perror("handle-probe: /proc/sys/vm/drop_caches");
		return;
	}
	fputs("2\n", f);
	fclose(f);
}

static void probe_reopen(int mount_fd, const char *path, struct probe_handle *h)
{
	int fd;

	printf("reopen=%s", path);
	fd = open_by_handle_at(mount_fd, &h->fh, O_PATH);
	if (fd < 0) {
		printf(" result=%s\n", strerrorname_np(errno));
		return;
	}
	printf(" result=OK\n");
	close(fd);
}

int main(int argc, char *argv[])
{
	const char *mount_dir = NULL;
	struct probe_handle *handles;
	int *ok, failed = 0, first = 1;

	if (argc > 2 && strcmp(argv[1], "-r") == 0) {
		mount_dir = argv[2];
		first = 3;
	}
	if (argc <= first) {
		fprintf(stderr, "usage: %s [-r MOUNT_DIR] PATH...\n", argv[0]);
		return 2;
	}
	handles = calloc(argc, sizeof(*handles));
	ok = calloc(argc, sizeof(*ok));
	if (!handles || !ok) {
		perror("handle-probe");
		return 2;
	}
	for (int i = first; i < argc; i++) {
		ok[i] = probe_path(argv[i], &handles[i]) == 0;
		failed |= !ok[i];
	}
	if (mount_dir) {
		int mount_fd = open(mount_dir, O_RDONLY | O_DIRECTORY);

		if (mount_fd < 0) {
			perror(mount_dir);
			return 2;
		}
		probe_drop_caches();
		for (int i = first; i < argc; i++) {
			if (ok[i])
				probe_reopen(mount_fd, argv[i], &handles[i]);
		}
		close(mount_fd);
	}
	free(ok);
	free(handles);
	return failed;
}
