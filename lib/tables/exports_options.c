/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The exports(5) option lists: checks every option and value of
 * "-defaults" and "client(options)" as nfs-utils 2.6.2's parseopts()
 * (support/nfs/exports.c) does, so that what exportfs refuses stops the
 * file here too, and turns the options of an entry into its flags and fsid.
 * Kept apart from the word reader: it sees whole words, never the bytes of
 * the file.
 *
 * Components:
 *  - optlist_*(): the options as written, joined by commas (util/strbuf.h),
 *    and where each one is in the word (for error columns);
 *  - option_check() and its value checks (anonuid/anongid, squash_uids,
 *    fsid, sec): one option, as parseopts() reads it;
 *  - bino__parser_read_options(): one option list, split at commas;
 *  - bino__export_apply(): what the options mean for an entry (later ones win).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "exports_parse.h"

void bino__optlist_reset(struct optlist *list)
{
	list->text.length = 0;
	if (list->text.data)
		list->text.data[0] = '\0';
	list->count = 0;
}

static bool optlist_add(struct optlist *list, const char *bytes, size_t n)
{
	size_t offset;

	if (ARRAY_RESERVE(list->spans, list->capacity, list->count + 1))
		return false;
	offset = list->text.length + (list->text.length ? 1 : 0);
	if (!bino__strbuf_append_item(&list->text, bytes, n))
		return false;
	list->spans[list->count].offset = offset;
	list->spans[list->count].length = n;
	list->count++;
	return true;
}

void bino__optlist_free(struct optlist *list)
{
	free(list->text.data);
	free(list->spans);
}

/* ------------------------------------------------------------------------ */
/* Options (parseopts())                                                    */
/* ------------------------------------------------------------------------ */

/*
 * The one model of what options mean, which parseopts() checks against,
 * the audit's drift compares by and the suggestions read (flags): each
 * setting with its name and the value exportfs 2.6.2 writes into the etab
 * when no option names it (exports(5))...
 */
static const struct {
	const char *name;
	const char *fallback;
} settings[SETTING_NR] = {
	[SETTING_ACCESS] = { "access", "ro" },
	[SETTING_SYNC] = { "sync", "sync" },
	[SETTING_WDELAY] = { "wdelay", "wdelay" },
	[SETTING_HIDE] = { "hide", "hide" },
	[SETTING_CROSSMNT] = { "crossmnt", "nocrossmnt" },
	[SETTING_SECURE] = { "secure", "secure" },
	[SETTING_ROOT_SQUASH] = { "root_squash", "root_squash" },
	[SETTING_ALL_SQUASH] = { "all_squash", "no_all_squash" },
	[SETTING_SUBTREE_CHECK] = { "subtree_check", "no_subtree_check" },
	[SETTING_LOCKS] = { "locks", "secure_locks" },
	[SETTING_ACL] = { "acl", "acl" },
	[SETTING_PNFS] = { "pnfs", "no_pnfs" },
	[SETTING_RDIRPLUS] = { "rdirplus", "rdirplus" },
	[SETTING_SECURITY_LABEL] = { "security_label", "no security_label" },
	[SETTING_MOUNTPOINT] = { "mountpoint", "no mountpoint" },
	[SETTING_FSID] = { "fsid", "no fsid" },
	[SETTING_ANONUID] = { "anonuid", "65534" },
	[SETTING_ANONGID] = { "anongid", "65534" },
	[SETTING_SEC] = { "sec", "sys" },
	[SETTING_REFER] = { "refer", "no refer" },
	[SETTING_REPLICAS] = { "replicas", "no replicas" },
};

/*
 * ...and the keywords of parseopts() that take no value: the setting each
 * sets, and to what (the etab's word: auth_nlm is secure_locks).
 */
static const struct {
	const char *name;
	enum export_setting setting;
	const char *value;
} keywords[] = {
	{ "ro", SETTING_ACCESS, "ro" },
	{ "rw", SETTING_ACCESS, "rw" },
	{ "sync", SETTING_SYNC, "sync" },
	{ "async", SETTING_SYNC, "async" },
	{ "wdelay", SETTING_WDELAY, "wdelay" },
	{ "no_wdelay", SETTING_WDELAY, "no_wdelay" },
	{ "hide", SETTING_HIDE, "hide" },
	{ "nohide", SETTING_HIDE, "nohide" },
	{ "crossmnt", SETTING_CROSSMNT, "crossmnt" },
	{ "nocrossmnt", SETTING_CROSSMNT, "nocrossmnt" },
	{ "secure", SETTING_SECURE, "secure" },
	{ "insecure", SETTING_SECURE, "insecure" },
	{ "root_squash", SETTING_ROOT_SQUASH, "root_squash" },
	{ "no_root_squash", SETTING_ROOT_SQUASH, "no_root_squash" },
	{ "all_squash", SETTING_ALL_SQUASH, "all_squash" },
	{ "no_all_squash", SETTING_ALL_SQUASH, "no_all_squash" },
	{ "subtree_check", SETTING_SUBTREE_CHECK, "subtree_check" },
	{ "no_subtree_check", SETTING_SUBTREE_CHECK, "no_subtree_check" },
	{ "secure_locks", SETTING_LOCKS, "secure_locks" },
	{ "auth_nlm", SETTING_LOCKS, "secure_locks" },
	{ "insecure_locks", SETTING_LOCKS, "insecure_locks" },
	{ "no_auth_nlm", SETTING_LOCKS, "insecure_locks" },
	{ "acl", SETTING_ACL, "acl" },
	{ "no_acl", SETTING_ACL, "no_acl" },
	{ "pnfs", SETTING_PNFS, "pnfs" },
	{ "no_pnfs", SETTING_PNFS, "no_pnfs" },
	{ "nordirplus", SETTING_RDIRPLUS, "nordirplus" },
	{ "security_label", SETTING_SECURITY_LABEL, "security_label" },
	{ "mountpoint", SETTING_MOUNTPOINT, "mountpoint" },
	{ "mp", SETTING_MOUNTPOINT, "mountpoint" },
};

/* Its "name=" options whose value it takes as it is. */
static const char *const free_value_options[] = {
	"mountpoint", "mp", "refer", "replicas",
};

/* flav_map[] in exports.c. */
static const char *const sec_flavors[] = {
	"krb5", "krb5i", "krb5p", "unix", "sys", "null", "none",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static bool option_is(const char *opt, size_t n, const char *name)
{
	return strlen(name) == n && memcmp(opt, name, n) == 0;
}

/* Whether @opt is "@name=..."; the value is what follows. */
static bool option_has_value(const char *opt, size_t n, const char *name,
			     const char **value, size_t *value_length)
{
	size_t k = strlen(name);

	if (n <= k || memcmp(opt, name, k) != 0 || opt[k] != '=')
		return false;
	*value = opt + k + 1;
	*value_length = n - k - 1;
	return true;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * Whether strtol(s, &end, 10) (@hex false) or strtoul(s, &end, 0) (@hex
 * true) reads all of @s: C-locale spaces, a sign, then digits; with base 0,
 * "0x" and hex digits or "0" and octal ones.  Overflow does not matter:
 * exportfs does not check errno.
 */
static bool is_c_integer(const char *s, size_t n, bool base0)
{
	size_t i = 0;
	size_t digits = 0;

	while (i < n && is_space((unsigned char)s[i]))
		i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	if (base0 && n - i > 2 && s[i] == '0' &&
	    (s[i + 1] == 'x' || s[i + 1] == 'X') && is_xdigit(s[i + 2])) {
		for (i += 2; i < n && is_xdigit(s[i]); i++)
			digits++;
	} else if (base0 && i < n && s[i] == '0') {
		for (; i < n && is_octal(s[i]); i++)
			digits++;
	} else {
		for (; i < n && is_digit(s[i]); i++)
			digits++;
	}
	return digits > 0 && i == n;
}

/* valid_uuid(): 32 hex digits, whatever else there is. */
static bool is_uuid(const char *s, size_t n)
{
	size_t digits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (is_xdigit(s[i]))
			digits++;
	}
	return digits == 32;
}

/*
 * parsenum(): an optional '-' and digits from @s[*i], as atoi() reads them:
 * (int)strtol(), so out-of-range values saturate to LONG_MIN or LONG_MAX
 * and wrap to int as GCC does.
 */
static int parse_squash_number(const char *s, size_t n, size_t *i)
{
	unsigned long long v = 0;
	bool negative = false;
	bool over = false;
	long value;

	if (*i < n && s[*i] == '-') {
		negative = true;
		(*i)++;
	}
	for (; *i < n && is_digit(s[*i]); (*i)++) {
		unsigned int d = (unsigned int)(s[*i] - '0');

		if (v > (ULLONG_MAX - d) / 10)
			over = true;
		else
			v = v * 10 + d;
	}
	if (negative)
		value = over || v > (unsigned long long)LONG_MAX + 1 ? LONG_MIN :
			v == (unsigned long long)LONG_MAX + 1 ? LONG_MIN :
			-(long)v;
	else
		value = over || v > (unsigned long long)LONG_MAX ? LONG_MAX :
			(long)v;
	return (int)value;
}

/*
 * parsesquash() as exportfs calls it: on the option cut at its first comma,
 * so one id or range "a-b", then nothing or ')'.
 */
static const char *squash_check(const char *s, size_t n)
{
	size_t i = 0;
	int first = parse_squash_number(s, n, &i);
	int last = first;

	if (i < n && s[i] == '-') {
		i++;
		last = parse_squash_number(s, n, &i);
	}
	if (first == -1 || last == -1)
		return "uid/gid -1 not permitted";
	if (i < n && s[i] != ')')
		return "bad uid/gid list";
	return NULL;
}

/* parse_flavors(): flavours joined by ':'; the first unknown one, or NULL. */
static const char *sec_check(const char *s, size_t n, size_t *bad,
			     size_t *bad_length)
{
	size_t start = 0;
	size_t i;

	for (i = 0; i <= n; i++) {
		bool found = false;
		size_t k;

		if (i < n && s[i] != ':')
			continue;
		for (k = 0; k < ARRAY_SIZE(sec_flavors); k++) {
			if (option_is(s + start, i - start, sec_flavors[k]))
				found = true;
		}
		if (!found) {
			*bad = start;
			*bad_length = i - start;
			return "unknown flavor";
		}
		start = i + 1;
	}
	return NULL;
}

/*
 * Check one option as parseopts() does.  On error, fill @message and return
 * the offset in @opt the error points at.
 */
static bool option_check(const char *opt, size_t n, char *message,
			 size_t size, size_t *offset)
{
	char quoted[128];
	const char *value;
	const char *why = NULL;
	const char *hint = "";
	size_t length;
	size_t bad = 0;
	size_t bad_length = n;
	size_t i;

	*offset = 0;
	for (i = 0; i < ARRAY_SIZE(keywords); i++) {
		if (option_is(opt, n, keywords[i].name))
			return true;
	}
	for (i = 0; i < ARRAY_SIZE(free_value_options); i++) {
		if (option_has_value(opt, n, free_value_options[i], &value,
				     &length))
			return true;
	}
	if (option_has_value(opt, n, "anonuid", &value, &length)) {
		if (is_c_integer(value, length, false))
			return true;
		why = "bad anonuid";
	} else if (option_has_value(opt, n, "anongid", &value, &length)) {
		if (is_c_integer(value, length, false))
			return true;
		why = "bad anongid";
	} else if (option_has_value(opt, n, "squash_uids", &value, &length) ||
		   option_has_value(opt, n, "squash_gids", &value, &length)) {
		why = squash_check(value, length);
		if (!why)
			return true;
	} else if (option_has_value(opt, n, "fsid", &value, &length)) {
		if (option_is(value, length, "root") ||
		    is_c_integer(value, length, true) || is_uuid(value, length))
			return true;
		why = "bad fsid";
		hint = " (want a number, \"root\" or a UUID)";
	} else if (option_has_value(opt, n, "sec", &value, &length)) {
		why = sec_check(value, length, &bad, &bad_length);
		if (!why)
			return true;
		*offset = (size_t)(value - opt) + bad;
		bino__quote_bytes(quoted, sizeof(quoted), value + bad,
				  bad_length);
		snprintf(message, size, "%s \"%s\"", why, quoted);
		return false;
	} else {
		why = "unknown keyword";
	}
	bino__quote_bytes(quoted, sizeof(quoted), opt, n);
	snprintf(message, size, "%s \"%s\"%s", why, quoted, hint);
	return false;
}

/*
 * Check the options in bytes [@begin, @end) of the current word and add them
 * to @list, as parseopts() reads them: blanks and tabs before an option are
 * dropped, an option ends at a comma, and a comma at the end is allowed.
 */
bool bino__parser_read_options(struct parser *p, size_t begin, size_t end,
			       struct optlist *list)
{
	const struct word *w = &p->word;
	size_t i = begin;

	while (i < end && (w->bytes[i] == ' ' || w->bytes[i] == '\t'))
		i++;
	while (i < end) {
		const char *comma = memchr(w->bytes + i, ',', end - i);
		size_t stop = comma ? (size_t)(comma - w->bytes) : end;
		char message[sizeof(p->error.message)];
		size_t offset;

		if (!option_check(w->bytes + i, stop - i, message,
				  sizeof(message), &offset)) {
			bino__parser_fail(p, w->at[i + offset < w->length ?
						   i + offset : i],
					  message);
			return false;
		}
		if (!optlist_add(list, w->bytes + i, stop - i)) {
			bino__parser_no_memory(p);
			return false;
		}
		i = comma ? stop + 1 : end;
		while (i < end && (w->bytes[i] == ' ' || w->bytes[i] == '\t'))
			i++;
	}
	return true;
}

/* ------------------------------------------------------------------------ */
/* What the options mean (bino__export_apply())                             */
/* ------------------------------------------------------------------------ */

static enum bino_error setting_set(struct bino_export *e, enum export_setting s,
				   char *value)
{
	if (!value)
		return BINO_ERROR_NO_MEMORY;
	free(e->setting[s]);
	e->setting[s] = value;
	return BINO_OK;
}

/* A number as exportfs reads it (strtoull(), base 0 for fsid), in decimal. */
static char *decimal(const char *s, size_t n, int base)
{
	char *copy = strndup(s, n), *end, *text = NULL;
	unsigned long long v;

	if (!copy)
		return NULL;
	errno = 0;
	v = strtoull(copy, &end, base);
	if (errno || *end || end == copy)
		return copy;
	free(copy);
	return asprintf(&text, "%llu", v) < 0 ? NULL : text;
}

/*
 * sec=: the flavours in order, the first sec= of the list replacing the
 * default and each later one adding its own (the options after each are
 * compared flat).
 */
static char *sec_value(const struct bino_export *e, const char *v, size_t n,
		       bool *first_sec)
{
	char *text = NULL;
	const char *had = e->setting[SETTING_SEC];

	if (*first_sec || !had) {
		*first_sec = false;
		return strndup(v, n);
	}
	return asprintf(&text, "%s:%.*s", had, (int)n, v) < 0 ? NULL : text;
}

/* An option of no setting, kept once as written. */
static enum bino_error other_add(struct bino_export *e, const char *opt, size_t n)
{
	size_t i;

	for (i = 0; i < e->n_other; i++) {
		if (option_is(opt, n, e->other[i]))
			return BINO_OK;
	}
	if (ARRAY_RESERVE(e->other, e->cap_other, e->n_other + 1) ||
	    !(e->other[e->n_other] = strndup(opt, n)))
		return BINO_ERROR_NO_MEMORY;
	e->n_other++;
	return BINO_OK;
}

/*
 * One option of @n bytes at @opt, valid (bino__parser_read_options() said
 * so).
 */
static enum bino_error option_apply(struct bino_export *e, const char *opt,
				    size_t n, bool *first_sec)
{
	const char *v;
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(keywords); i++) {
		if (option_is(opt, n, keywords[i].name))
			return setting_set(e, keywords[i].setting,
					   strdup(keywords[i].value));
	}
	if (option_has_value(opt, n, "mp", &v, &len) ||
	    option_has_value(opt, n, "mountpoint", &v, &len))
		return setting_set(e, SETTING_MOUNTPOINT, strndup(v, len));
	if (option_has_value(opt, n, "refer", &v, &len))
		return setting_set(e, SETTING_REFER, strndup(v, len));
	if (option_has_value(opt, n, "replicas", &v, &len))
		return setting_set(e, SETTING_REPLICAS, strndup(v, len));
	if (option_has_value(opt, n, "anonuid", &v, &len))
		return setting_set(e, SETTING_ANONUID, decimal(v, len, 10));
	if (option_has_value(opt, n, "anongid", &v, &len))
		return setting_set(e, SETTING_ANONGID, decimal(v, len, 10));
	if (option_has_value(opt, n, "sec", &v, &len))
		return setting_set(e, SETTING_SEC, sec_value(e, v, len, first_sec));
	if (option_has_value(opt, n, "fsid", &v, &len)) {
		char *raw = strndup(v, len);

		if (!raw)
			return BINO_ERROR_NO_MEMORY;
		free(e->fsid);
		e->fsid = raw;
		return setting_set(e, SETTING_FSID, option_is(v, len, "root") ?
						      strdup("0") : decimal(v, len, 0));
	}
	return other_add(e, opt, n);
}

/* Whether setting @s of @e is @value (set, or by default). */
static bool setting_is(const struct bino_export *e, enum export_setting s,
		       const char *value)
{
	const char *v = e->setting[s] ? e->setting[s] : settings[s].fallback;

	return strcmp(v, value) == 0;
}

enum bino_error bino__export_apply(struct bino_export *e)
{
	const char *p = e->options;
	bool first_sec = true;
	enum bino_error err;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n && (err = option_apply(e, p, n, &first_sec)) != BINO_OK)
			return err;
		p += n;
		if (*p == ',')
			p++;
	}
	e->flags = (setting_is(e, SETTING_ACCESS, "ro") ? BINO_EXPORT_RO : 0) |
		   (setting_is(e, SETTING_HIDE, "nohide") ? BINO_EXPORT_NOHIDE : 0) |
		   (setting_is(e, SETTING_CROSSMNT, "crossmnt") ? BINO_EXPORT_CROSSMNT : 0) |
		   (setting_is(e, SETTING_SUBTREE_CHECK, "subtree_check") ?
			    BINO_EXPORT_SUBTREE_CHECK : 0) |
		   (e->fsid ? BINO_EXPORT_FSID : 0);
	return BINO_OK;
}

void bino__export_settings_free(struct bino_export *e)
{
	size_t i;

	for (i = 0; i < SETTING_NR; i++)
		free(e->setting[i]);
	for (i = 0; i < e->n_other; i++)
		free(e->other[i]);
	free(e->other);
}

/* ---- public API -------------------------------------------------------- */

BINO_PUBLIC size_t bino_export_setting_count(void)
{
	return SETTING_NR;
}

BINO_PUBLIC const char *bino_export_setting_name(size_t index)
{
	return index < SETTING_NR ? settings[index].name : NULL;
}

BINO_PUBLIC const char *bino_export_setting(const struct bino_export *exp,
					    size_t index)
{
	if (!exp || index >= SETTING_NR)
		return NULL;
	return exp->setting[index] ? exp->setting[index] : settings[index].fallback;
}

BINO_PUBLIC size_t bino_export_other_count(const struct bino_export *exp)
{
	return exp ? exp->n_other : 0;
}

BINO_PUBLIC const char *bino_export_other(const struct bino_export *exp,
					  size_t index)
{
	if (!exp || index >= exp->n_other)
		return NULL;
	return exp->other[index];
}
