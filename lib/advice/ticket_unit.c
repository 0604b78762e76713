#include "config.h"

/* The apply and persist lines of a systemd unit's property (a service's
 * own memory limit). The unit's name comes from the cgroup tree through
 * an SNMP agent, so it is checked as strictly as a sysctl's: systemd's
 * own characters only, and a backslash only in the "\xNN" escapes that
 * systemd writes (user\x2dsvc.service), which the shell must see quoted. */

#include "advice/ticket.h"

#include <stdint.h>
#include <string.h>

#include "util/error.h"
#include "util/strwriter.h"

#define DROP_IN_DIR "/etc/systemd/system"
/* A user's own units and drop-ins (systemd.unit(5), the user unit search
 * path): relative to that user's home, which only the user's host knows. */
#define USER_DROP_IN_DIR "~/.config/systemd/user"
#define DROP_IN_FILE "90-tunewatch.conf"

/* systemd's UNIT_NAME_MAX, NUL included. */
#define UNIT_NAME_MAX 256

static int
is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int
tw_ticket_safe_unit(const char *unit)
{
	size_t n, i;

	if (unit == NULL)
		return 0;
	n = strlen(unit);
	if (n == 0 || n >= UNIT_NAME_MAX || unit[0] == '-' || unit[0] == '.' ||
	    strstr(unit, "..") != NULL || strchr(unit, '.') == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		if (unit[i] == '\\') {
			if (unit[i + 1] != 'x' || !is_hex(unit[i + 2]) || !is_hex(unit[i + 3]))
				return 0;
			i += 3;
		} else if (!is_alnum(unit[i]) && strchr(":_.@-", unit[i]) == NULL) {
			return 0;
		}
	}
	return 1;
}

/* A property is one CamelCase word (MemoryHigh); a value a size systemd
 * reads ("128M", "1073741824") or "infinity". */
static int
safe_property(const char *p)
{
	size_t i;

	if (p == NULL || !(p[0] >= 'A' && p[0] <= 'Z') || strlen(p) > 64)
		return 0;
	for (i = 0; p[i] != '\0'; i++)
		if (!is_alnum(p[i]))
			return 0;
	return 1;
}

static int
safe_size(const char *v)
{
	size_t n = strspn(v, "0123456789");

	if (strcmp(v, "infinity") == 0)
		return 1;
	if (n == 0 || n > 20)
		return 0;
	return v[n] == '\0' || (strchr("KMGT", v[n]) != NULL && v[n + 1] == '\0');
}

static int
check_input(char *buf, size_t len, const char *unit, const char *property, const char *value)
{
	if (buf == NULL || len == 0)
		return TW_E_TOOBIG;
	buf[0] = '\0';
	if (value == NULL || value[0] == '\0')
		return TW_E_ABSENT;
	if (!tw_ticket_safe_unit(unit) || !safe_property(property) || !safe_size(value))
		return TW_E_INVAL;
	return TW_OK;
}

const char *
tw_ticket_unit_section(const char *unit)
{
	static const struct {
		const char *suffix, *section;
	} types[] = {
		{ ".service", "Service" }, { ".slice", "Slice" }, { ".socket", "Socket" },
		{ ".mount", "Mount" }, { ".swap", "Swap" },
	};
	size_t n = unit != NULL ? strlen(unit) : 0, i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t k = strlen(types[i].suffix);

		if (n > k && strcmp(unit + n - k, types[i].suffix) == 0)
			return types[i].section;
	}
	return NULL;
}

int
tw_ticket_apply_unit(char *buf, size_t len, const char *unit, const char *property,
    const char *value)
{
	struct tw_strwriter w;
	int err = check_input(buf, len, unit, property, value);
	const char *q;

	if (err != TW_OK)
		return err;
	/* --runtime: the change ends with the boot, and the drop-in of the
	 * persist line is the one place that keeps it (without it systemctl
	 * writes one of its own under /etc/systemd/system.control). */
	q = strchr(unit, '\\') != NULL ? "'" : "";
	tw_strwriter_init(&w, buf, len);
	tw_strwriter_printf(&w, "systemctl set-property --runtime %s%s%s %s=%s", q, unit, q,
	    property, value);
	return tw_strwriter_finish(&w);
}

int
tw_ticket_persist_unit(char *buf, size_t len, const char *unit, const char *property,
    const char *value)
{
	struct tw_strwriter w;
	int err = check_input(buf, len, unit, property, value);
	const char *section;

	if (err != TW_OK)
		return err;
	/* A scope (or another unit made at run time) has no file to add to. */
	if ((section = tw_ticket_unit_section(unit)) == NULL)
		return TW_E_ABSENT;
	tw_strwriter_init(&w, buf, len);
	tw_strwriter_printf(&w, "%s/%s.d/%s: [%s] %s=%s", DROP_IN_DIR, unit, DROP_IN_FILE, section,
	    property, value);
	return tw_strwriter_finish(&w);
}

int
tw_ticket_apply_user_unit(char *buf, size_t len, uint32_t uid, const char *unit,
    const char *property, const char *value)
{
	struct tw_strwriter w;
	int err = check_input(buf, len, unit, property, value);
	const char *q;

	if (err != TW_OK)
		return err;
	/* -M UID@ is user UID's manager on this host (".host" implied): root
	 * reaches it without the user's session or environment. */
	q = strchr(unit, '\\') != NULL ? "'" : "";
	tw_strwriter_init(&w, buf, len);
	tw_strwriter_printf(&w, "systemctl --user -M %u@ set-property --runtime %s%s%s %s=%s",
	    (unsigned)uid, q, unit, q, property, value);
	return tw_strwriter_finish(&w);
}

int
tw_ticket_persist_user_unit(char *buf, size_t len, uint32_t uid, const char *unit,
    const char *property, const char *value)
{
	struct tw_strwriter w;
	int err = check_input(buf, len, unit, property, value);
	const char *section;

	if (err != TW_OK)
		return err;
	if ((section = tw_ticket_unit_section(unit)) == NULL)
		return TW_E_ABSENT;
	tw_strwriter_init(&w, buf, len);
	tw_strwriter_printf(&w, "%s/%s.d/%s (in the home of user %u): [%s] %s=%s", USER_DROP_IN_DIR,
	    unit, DROP_IN_FILE, (unsigned)uid, section, property, value);
	return tw_strwriter_finish(&w);
}
