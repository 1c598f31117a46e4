/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test helper: run COMMAND as on a kernel without openat2(2) (before 5.6):
 * a seccomp filter makes the call fail with ENOSYS, which is checked before
 * COMMAND is run.  Usage: no-openat2 COMMAND [ARG]...
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};
	struct open_how how = { .flags = 0 };

	if (argc < 2) {
		fprintf(stderr, "usage: no-openat2 COMMAND [ARG]...\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		fprintf(stderr, "no-openat2: seccomp: %s\n", strerror(errno));
		return 2;
	}
	if (syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how)) != -1 ||
	    errno != ENOSYS) {
		fprintf(stderr, "no-openat2: openat2 still works\n");
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-openat2: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
