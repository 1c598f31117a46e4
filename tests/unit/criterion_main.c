/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The main() of every unit test binary: Criterion's own, except that a
 * skipped test (cr_skip_test) is not reported to meson as a pass.  Criterion
 * 2.4 exits 0 when tests were skipped and its summary does not even count
 * them; here each skip is named on stderr and the binary exits 77 (meson's
 * SKIP), or 1 under CI=true, where nothing may skip.  BINO_UNIT_ALLOW_SKIP
 * lists, comma-separated, the "suite/test" patterns (fnmatch) that may skip in
 * this configuration, e.g. allocation-failure injection under a sanitizer.
 */
#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t unexpected_skips;

/* Whether "SUITE/NAME" matches one of the comma-separated PATTERNS. */
static bool skip_allowed(const char *patterns, const char *suite,
			 const char *name)
{
	char id[512];
	const char *p = patterns;

	if (!p)
		return false;
	snprintf(id, sizeof(id), "%s/%s", suite, name);
	while (*p) {
		size_t n = strcspn(p, ",");
		char pattern[512];

		if (n > 0 && n < sizeof(pattern)) {
			memcpy(pattern, p, n);
			pattern[n] = '\0';
			if (fnmatch(pattern, id, 0) == 0)
				return true;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

/* Runs in the runner process, once per test, after the workers report. */
ReportHook(POST_TEST)(struct criterion_test_stats *stats)
{
	const char *suite = stats->test->category;
	const char *name = stats->test->name;

	if (stats->test_status != CR_STATUS_SKIPPED)
		return;
	if (skip_allowed(getenv("BINO_UNIT_ALLOW_SKIP"), suite, name)) {
		fprintf(stderr, "[SKIP] %s::%s: %s (allowed here)\n", suite,
			name, stats->message ? stats->message : "");
		return;
	}
	fprintf(stderr, "[SKIP] %s::%s: %s\n", suite, name,
		stats->message ? stats->message : "");
	unexpected_skips++;
}

int main(int argc, char *argv[])
{
	struct criterion_test_set *tests = criterion_initialize();
	const char *ci = getenv("CI");
	int result = 0;

	if (criterion_handle_args(argc, argv, true))
		result = !criterion_run_all_tests(tests);
	criterion_finalize(tests);
	if (result == 0 && unexpected_skips > 0) {
		if (ci && strcmp(ci, "true") == 0) {
			fprintf(stderr, "%zu test(s) skipped: a failure under CI=true\n",
				unexpected_skips);
			return 1;
		}
		fprintf(stderr, "%zu test(s) skipped: exit 77\n", unexpected_skips);
		return 77;
	}
	return result;
}
