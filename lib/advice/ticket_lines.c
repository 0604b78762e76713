/* SPDX-License-Identifier: ISC */
#include "config.h"

/* The apply and persist lines of a suggestion. They are meant to be pasted
 * into a root shell and their pieces may come from an SNMP agent, so each
 * piece is checked against a safe set first and refused otherwise: a
 * refused line costs a person a lookup, an injected one costs the host. */

#include "advice/ticket.h"

#include <stdio.h>
#include <string.h>

#include "collect/blockqueue.h"
#include "util/error.h"
#include "util/strwriter.h"
#include "view/view.h"

#define SYSCTL_D "/etc/sysctl.d/90-tunewatch.conf"
#define UDEV_RULES "/etc/udev/rules.d/60-tunewatch.rules"
#define FREEBSD_SYSCTL_CONF "/etc/sysctl.conf"
#define FREEBSD_LOADER_CONF "/boot/loader.conf"
#define SVR4_IDTUNE "/etc/conf/bin/idtune"
#define SVR4_IDBUILD "/etc/conf/bin/idbuild"

static int
is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Characters that mean nothing to sh, udev or sysctl.conf. */
static int
is_plain(char c)
{
	return is_alnum(c) || c == '.' || c == '_' || c == ':' || c == '+' || c == '-';
}

/* A word of plain characters (extra: also allowed), not starting with "-"
 * or ".", and no "..": no option, no hidden file, no way up a path. */
static int
safe_word(const char *s, size_t max, const char *extra)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > max || s[0] == '-' || s[0] == '.' || strstr(s, "..") != NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (!is_plain(s[i]) && (extra == NULL || strchr(extra, s[i]) == NULL))
			return 0;
	return 1;
}

/* Fields of plain characters separated by single spaces; a field starts
 * with "-" only before a digit ("-1"), never as an option ("-n"). */
static int
safe_value(const char *v)
{
	size_t n = strlen(v), i;

	if (n == 0 || n >= TW_ADVICE_VALUE_LEN || v[0] == ' ' || v[n - 1] == ' ')
		return 0;
	for (i = 0; i < n; i++) {
		int start = i == 0 || v[i - 1] == ' ';

		if (v[i] == ' ') {
			if (v[i + 1] == ' ')
				return 0;
		} else if (!is_plain(v[i])) {
			return 0;
		} else if (start && v[i] == '-' && !(v[i + 1] >= '0' && v[i + 1] <= '9')) {
			return 0;
		}
	}
	return 1;
}

int
tw_ticket_queue_path(char *buf, size_t len, const char *device, const char *tunable)
{
	if (device == NULL || tw_queue_attr(tunable) == NULL)
		return 0;
	snprintf(buf, len, "/sys/block/%s/%s", device, tunable);
	return 1;
}

/* Whether the advice table marks tunable on os as a loader tunable. */
static int
is_boot_tunable(enum tw_os os, const char *tunable)
{
	const struct tw_advice_rule *rules;
	size_t n = tw_advice_all(&rules), i;

	for (i = 0; i < n; i++) {
		const struct tw_advice_action *a = &rules[i].os[os];

		for (; a != NULL; a = a->twin)
			if (a->name != NULL && strcmp(a->name, tunable) == 0 &&
			    (a->flags & TW_ADV_BOOT))
				return 1;
	}
	return 0;
}

/* Check what every line needs; TW_OK when the pieces are usable. */
static int
check_input(char *buf, size_t len, enum tw_os os, const char *tunable, const char *device,
    const char *value, int need_device)
{
	const char *attr;

	if (buf == NULL || len == 0)
		return TW_E_TOOBIG;
	buf[0] = '\0';
	if ((int)os < 0 || os >= TW_OS_COUNT || tunable == NULL)
		return TW_E_INVAL;
	if (value == NULL || value[0] == '\0')
		return TW_E_ABSENT;
	if (!safe_value(value))
		return TW_E_INVAL;
	attr = os == TW_OS_LINUX ? tw_queue_attr(tunable) : NULL;
	if (attr != NULL) {
		if (!safe_word(attr, 64, "/"))
			return TW_E_INVAL;
		/* Kernel names put "!" for "/" (cciss!c0d0); it is quoted. */
		if (need_device && (device == NULL || !safe_word(device, 31, "!")))
			return TW_E_INVAL;
	} else if (!safe_word(tunable, 96, NULL)) {
		return TW_E_INVAL;
	}
	return TW_OK;
}

/* The value as one shell word: quoted when it holds spaces (a vector). */
static void
put_shell_value(struct tw_strwriter *w, const char *value)
{
	if (strchr(value, ' ') != NULL)
		tw_strwriter_printf(w, "'%s'", value);
	else
		tw_strwriter_puts(w, value);
}

int
tw_ticket_apply(char *buf, size_t len, enum tw_os os, const char *tunable,
    const char *device, const char *value)
{
	struct tw_strwriter w;
	char path[128];		/* a device of 31 and an attribute of 64 fit */
	int err = check_input(buf, len, os, tunable, device, value, 1);

	if (err != TW_OK)
		return err;
	tw_strwriter_init(&w, buf, len);
	switch (os) {
	case TW_OS_LINUX:
		if (tw_ticket_queue_path(path, sizeof(path), device, tunable)) {
			const char *q = strchr(device, '!') != NULL ? "'" : "";

			tw_strwriter_puts(&w, "echo ");
			put_shell_value(&w, value);
			tw_strwriter_printf(&w, " > %s%s%s", q, path, q);
		} else {
			tw_strwriter_printf(&w, "sysctl -w %s=", tunable);
			put_shell_value(&w, value);
		}
		break;
	case TW_OS_FREEBSD:
		if (is_boot_tunable(os, tunable))
			return TW_E_ABSENT;
		tw_strwriter_printf(&w, "sysctl %s=", tunable);
		put_shell_value(&w, value);
		break;
	default:
		/* SVR4: nothing reaches the running kernel before a relink. */
		return TW_E_ABSENT;
	}
	return tw_strwriter_finish(&w);
}

/* A udev rule line; match is the part that finds the disk. ACTION!=
 * "remove" rather than ACTION=="add|change": these lines travel in plugin
 * output, where a '|' starts performance data and is turned into '/'. */
static void
put_udev_rule(struct tw_strwriter *w, const char *match, const char *id, const char *attr,
    const char *value)
{
	tw_strwriter_printf(w, "%s: ACTION!=\"remove\", SUBSYSTEM==\"block\", %s==\"%s\", "
	    "ATTR{queue/%s}=\"%s\"", UDEV_RULES, match, id, attr, value);
}

static int
persist(char *buf, size_t len, enum tw_os os, const char *tunable, const char *device,
    const struct tw_view_disk *d, const char *value)
{
	struct tw_strwriter w;
	const char *attr;
	int err = check_input(buf, len, os, tunable, device, value, d == NULL);

	if (err != TW_OK)
		return err;
	tw_strwriter_init(&w, buf, len);
	switch (os) {
	case TW_OS_LINUX:
		attr = tw_queue_attr(tunable);
		if (attr == NULL) {
			tw_strwriter_printf(&w, "%s: %s = %s", SYSCTL_D, tunable, value);
		} else if (d == NULL) {
			put_udev_rule(&w, "KERNEL", device, attr, value);
		} else if (safe_word(d->stable_id, TW_VIEW_STR, NULL)) {
			int dm = strncmp(d->stable_id, "LVM-", 4) == 0 ||
			    strncmp(d->stable_id, "mpath-", 6) == 0;

			put_udev_rule(&w, dm ? "ENV{DM_UUID}" : "ATTRS{wwid}", d->stable_id, attr,
			    value);
		} else if (safe_word(d->name, sizeof(d->name) - 1, "!")) {
			put_udev_rule(&w, "KERNEL", d->name, attr, value);
		} else {
			return TW_E_INVAL;
		}
		break;
	case TW_OS_FREEBSD:
		if (is_boot_tunable(os, tunable))
			tw_strwriter_printf(&w, "%s: %s=\"%s\"", FREEBSD_LOADER_CONF, tunable, value);
		else
			tw_strwriter_printf(&w, "%s: %s=%s", FREEBSD_SYSCTL_CONF, tunable, value);
		break;
	default:
		tw_strwriter_printf(&w, "%s -f %s ", SVR4_IDTUNE, tunable);
		put_shell_value(&w, value);
		tw_strwriter_printf(&w, " && %s -B  # relinks the kernel: takes effect at the "
		    "next reboot", SVR4_IDBUILD);
		break;
	}
	return tw_strwriter_finish(&w);
}

int
tw_ticket_persist(char *buf, size_t len, enum tw_os os, const char *tunable,
    const char *device, const char *value)
{
	return persist(buf, len, os, tunable, device, NULL, value);
}

int
tw_ticket_persist_disk(char *buf, size_t len, enum tw_os os, const char *tunable,
    const struct tw_view_disk *d, const char *value)
{
	if (d == NULL) {
		if (buf != NULL && len > 0)
			buf[0] = '\0';
		return TW_E_INVAL;
	}
	return persist(buf, len, os, tunable, d->name, d, value);
}
