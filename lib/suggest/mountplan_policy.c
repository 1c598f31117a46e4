/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Who may have root mount their subvolumes (the policy mountplan.c's head
 * comment states): the subordinate user IDs a subuid(5) file gives each
 * user, read into ranges sorted for a binary search (counted as that
 * user), and the owners' tallies against the per-owner and all-users
 * limits, a uthash by owner so that an owner over the limit costs a probe.
 * Apart from the planning because it is the one place the limits are
 * decided; planning asks it through bino__policy_take() and
 * bino__policy_over().
 */
#include "mountplan_state.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

/* ---- subordinate IDs -------------------------------------------------- */

/* A decimal number of @len bytes at @text, below 2^32; false otherwise. */
static bool parse_id(const char *text, size_t len, uint64_t *ret)
{
	uint64_t value = 0;
	size_t i;

	if (len == 0 || len > 10)
		return false;
	for (i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return false;
		value = value * 10 + (uint64_t)(text[i] - '0');
	}
	*ret = value;
	return value <= UINT32_MAX;
}

/*
 * The user a subuid(5) owner field names: a user name (getpwnam_r), else a
 * user ID in decimal, as shadow's subordinate-ID code reads it.  False
 * when it names neither.
 */
static bool subid_owner(const char *name, int64_t *ret)
{
	struct passwd pw, *found = NULL;
	char buf[4096];
	uint64_t uid;

	if (getpwnam_r(name, &pw, buf, sizeof(buf), &found) == 0 && found) {
		*ret = found->pw_uid;
		return true;
	}
	if (!parse_id(name, strlen(name), &uid))
		return false;
	*ret = (int64_t)uid;
	return true;
}

/*
 * One line of a subuid(5) file, "owner:start:count", into @range; false
 * for a comment, a blank or malformed line.  A range whose owner names no
 * user counts as an owner of its own: its first ID.
 */
static bool subid_line(char *line, struct subid_range *range)
{
	char *first = strchr(line, ':'), *second;
	uint64_t start, count;

	line[strcspn(line, "\n")] = '\0';
	if (!first || line[0] == '#' || first == line)
		return false;
	second = strchr(first + 1, ':');
	if (!second || strchr(second + 1, ':') ||
	    !parse_id(first + 1, (size_t)(second - first - 1), &start) ||
	    !parse_id(second + 1, strlen(second + 1), &count) || count == 0 ||
	    start + count - 1 > UINT32_MAX)
		return false;
	*first = '\0';
	range->start = start;
	range->end = start + count;
	if (!subid_owner(line, &range->owner))
		range->owner = (int64_t)start;
	return true;
}

static int subid_compare(const void *a, const void *b)
{
	const struct subid_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

BINO_PUBLIC enum bino_error bino_mountplan_add_subid_file(struct bino_mountplan *plan,
							  const char *path)
{
	struct subid_range range;
	char *line = NULL;
	size_t cap = 0, i;
	FILE *file;

	if (!plan)
		return BINO_ERROR_INVALID_ARGUMENT;
	file = fopen(path ? path : "/etc/subuid", "re");
	if (!file)
		return errno == ENOENT ? BINO_OK : BINO_ERROR_OPEN_FAILED;
	while (getline(&line, &cap, file) > 0) {
		if (!subid_line(line, &range))
			continue;
		if (ARRAY_RESERVE(plan->subuids, plan->cap_subuids,
				  plan->n_subuids + 1) != 0) {
			free(line);
			fclose(file);
			return BINO_ERROR_NO_MEMORY;
		}
		plan->subuids[plan->n_subuids++] = range;
	}
	free(line);
	fclose(file);
	/* Sorted, each knowing the furthest end up to it: a binary search. */
	if (plan->n_subuids)
		qsort(plan->subuids, plan->n_subuids, sizeof(*plan->subuids),
		      subid_compare);
	for (i = 0; i < plan->n_subuids; i++) {
		plan->subuids[i].max_end = plan->subuids[i].end;
		if (i && plan->subuids[i - 1].max_end > plan->subuids[i].max_end)
			plan->subuids[i].max_end = plan->subuids[i - 1].max_end;
	}
	return BINO_OK;
}

/*
 * The owner @uid counts as: the user whose subordinate range holds it
 * (overlapping ranges, a mistake, give the one starting last), else @uid.
 */
int64_t bino__plan_counted_as(const struct bino_mountplan *plan, int64_t uid)
{
	const struct subid_range *r = plan->subuids;
	size_t lo = 0, hi = plan->n_subuids;

	if (uid < 0)
		return uid;
	/* The first range starting after @uid: those before may hold it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].start <= (uint64_t)uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && r[lo - 1].max_end > (uint64_t)uid) {
		lo--;
		if ((uint64_t)uid < r[lo].end)
			return r[lo].owner;
	}
	return uid;
}

/* ---- the owners' tallies ---------------------------------------------- */

/*
 * The tally of @owner (a bino__plan_counted_as() value), added (0) if
 * absent; NULL: ENOMEM.
 */
static struct owner_tally *owner_tally(struct path_tallies *tallies,
				       int64_t owner)
{
	struct owner_tally *tally;
	bool out_of_memory = false;

	HASH_FIND(hh, tallies->by_owner, &owner, sizeof(owner), tally);
	if (tally)
		return tally;
	if (ARRAY_RESERVE(tallies->order, tallies->cap, tallies->n + 1) != 0)
		return NULL;
	tally = calloc(1, sizeof(*tally));
	if (!tally)
		return NULL;
	tally->owner = owner;
	HASH_ADD(hh, tallies->by_owner, owner, sizeof(tally->owner), tally);
	if (out_of_memory) {
		free(tally);
		return NULL;
	}
	tallies->order[tallies->n++] = tally;
	return tally;
}

/*
 * Whether the policy lets @owner have one more mount, and why not into
 * *@skip (it is counted when allowed, and always when @mounted already).
 * Root's subvolumes always may (only the owner itself: root's subordinate
 * IDs are counted like any user's), and are not counted; OWNER_UNKNOWN is
 * not counted, as its step is refused when carried out.
 */
enum bino_error bino__policy_take(struct bino_mountplan *plan, int64_t owner,
				  bool mounted, enum bino_mountplan_skip *skip)
{
	struct owner_tally *tally;

	*skip = BINO_MOUNTPLAN_SKIP_NONE;
	if (owner == 0 || owner == OWNER_UNKNOWN)
		return BINO_OK;
	tally = owner_tally(plan->tallies, bino__plan_counted_as(plan, owner));
	if (!tally)
		return BINO_ERROR_NO_MEMORY;
	if (!mounted && tally->mounts >= plan->max_user_mounts)
		*skip = BINO_MOUNTPLAN_SKIP_OVER_LIMIT;
	else if (!mounted &&
		 plan->tallies->user_mounts >= plan->max_total_user_mounts)
		*skip = BINO_MOUNTPLAN_SKIP_OVER_TOTAL;
	if (*skip)
		return BINO_OK;
	tally->mounts++;
	plan->tallies->user_mounts++;
	return BINO_OK;
}

/*
 * Whether the policy would skip a subvolume of @owner now, without counting
 * it: what lets a subvolume of an owner over the limit cost a probe and a
 * counter, not a lookup of its path.
 */
bool bino__policy_over(const struct bino_mountplan *plan, int64_t owner)
{
	const struct owner_tally *tally;
	int64_t counted = bino__plan_counted_as(plan, owner);

	if (owner == 0 || owner == OWNER_UNKNOWN)
		return false;
	if (plan->tallies->user_mounts >= plan->max_total_user_mounts)
		return true;
	HASH_FIND(hh, plan->tallies->by_owner, &counted, sizeof(counted), tally);
	return tally && tally->mounts >= plan->max_user_mounts;
}
