/* Fuzz target: whose a cgroup is (tw_cgroup_owner), and the lines made
 * from a path a delegated user named: the subject (tw_ticket_subject_cgroup)
 * and the write to a plain cgroup's limit file
 * (tw_ticket_apply_cgroup_file). The input is the path. Besides the
 * sanitizers: a unit's own cgroup is named by its last component, of unit
 * characters only, and every cgroup above it is a unit's own too (slices,
 * and a user's manager); a user's unit sits below user@UID.service of its
 * UID; a child no unit's name could have is a plain cgroup; the words fit
 * their buffers; a command is written only for a path of safe bytes, and
 * holds that path whole. */
#include "config.h"

#include "fuzz_check.h"

#include "advice/ticket.h"
#include "collect/cgroupowner.h"
#include "util/error.h"

#define MAX_PATH 300

static int
unit_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr(":-_.\\@", c) != NULL);
}

static int
safe_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr("/._-:@+", c) != NULL);
}

static void
check_unit(const char *path, const struct tw_cg_owner *o)
{
	const char *last = strrchr(path, '/') + 1, *p;
	char parent[MAX_PATH + 1], want[64];
	struct tw_cg_owner up;
	size_t n;

	FUZZ_ASSERT(o->unit != NULL && o->below_kind == TW_CG_OWNER_NONE);
	if (strcmp(path, "/") == 0) {
		FUZZ_ASSERT(strcmp(o->unit, "-.slice") == 0);
		return;
	}
	FUZZ_ASSERT(o->unit == last && last[0] != '\0' && strlen(last) <= TW_CG_UNIT_NAME_MAX);
	for (p = last; *p != '\0'; p++)
		FUZZ_ASSERT(unit_char(*p));
	if (o->kind == TW_CG_OWNER_USER_UNIT) {
		snprintf(want, sizeof(want), "/user.slice/user-%u.slice/user@%u.service/",
		    (unsigned)o->uid, (unsigned)o->uid);
		FUZZ_ASSERT(strncmp(path, want, strlen(want)) == 0);
	}
	/* Every cgroup above a unit's own is a unit's own too. */
	n = (size_t)(last - path) - 1;
	if (n > 0) {
		memcpy(parent, path, n);
		parent[n] = '\0';
		tw_cgroup_owner(parent, &up);
		FUZZ_ASSERT(up.kind == TW_CG_OWNER_SYSTEM_UNIT || up.kind == TW_CG_OWNER_USER_UNIT);
		FUZZ_ASSERT(o->kind == TW_CG_OWNER_SYSTEM_UNIT ? up.kind == TW_CG_OWNER_SYSTEM_UNIT :
		    up.kind == TW_CG_OWNER_USER_UNIT ? up.uid == o->uid :
		    strncmp(parent + n - 8, ".service", 8) == 0);
	}
}

static void
check_plain(const char *path, const struct tw_cg_owner *o)
{
	FUZZ_ASSERT(o->unit == NULL);
	if (o->below_kind == TW_CG_OWNER_NONE) {
		FUZZ_ASSERT(o->below == NULL && o->below_len == 0);
		return;
	}
	FUZZ_ASSERT(o->below_kind == TW_CG_OWNER_SYSTEM_UNIT ||
	    o->below_kind == TW_CG_OWNER_USER_UNIT);
	FUZZ_ASSERT(o->below > path && o->below + o->below_len <= path + strlen(path));
	FUZZ_ASSERT(o->below[-1] == '/' && o->below[o->below_len] == '/');
}

static void
check_words(const char *path, const struct tw_cg_owner *o)
{
	size_t len;

	for (len = 1; len < 64; len += 21) {
		char *buf = malloc(len);

		FUZZ_ASSERT(buf != NULL);
		tw_cgroup_owner_text(o, buf, len);
		FUZZ_ASSERT(strlen(buf) < len);
		tw_cgroup_owner_name(o, path, buf, len);
		FUZZ_ASSERT(strlen(buf) < len);
		free(buf);
	}
}

static void
check_lines(const char *path)
{
	char line[TW_TICKET_LINE_LEN], subject[TW_TICKET_SUBJECT_CGROUP_LEN];
	const char *p;
	int rc, safe = path[0] == '/' && path[1] != '\0';

	for (p = path; *p != '\0'; p++)
		safe = safe && safe_char(*p);
	rc = tw_ticket_apply_cgroup_file(line, sizeof(line), 1, path, "memory.limit_in_bytes",
	    134217728);
	if (rc == TW_OK) {
		FUZZ_ASSERT(tw_ticket_safe_cgroup_path(path) && safe);
		FUZZ_ASSERT(strncmp(line, "echo 134217728 > /sys/fs/cgroup/memory/", 39) == 0);
		FUZZ_ASSERT(strncmp(line + 38, path, strlen(path)) == 0);
		FUZZ_ASSERT(strcmp(line + 38 + strlen(path), "/memory.limit_in_bytes") == 0);
		for (p = line + 17; *p != '\0'; p++)
			FUZZ_ASSERT(safe_char(*p));
	} else {
		FUZZ_ASSERT(line[0] == '\0');
		FUZZ_ASSERT(rc == TW_E_INVAL || rc == TW_E_TOOBIG);
		FUZZ_ASSERT(rc == TW_E_TOOBIG || !tw_ticket_safe_cgroup_path(path));
	}
	/* A row's path (at most 255 bytes) always fits; a longer one whole
	 * or not at all. */
	rc = tw_ticket_subject_cgroup(subject, sizeof(subject), 2, path);
	if (path[0] != '/')
		FUZZ_ASSERT(rc == TW_E_INVAL && subject[0] == '\0');
	else if (strlen(path) + 15 <= sizeof(subject))
		FUZZ_ASSERT(rc == TW_OK && strncmp(subject, "/sys/fs/cgroup", 14) == 0 &&
		    strcmp(subject + 14, strcmp(path, "/") == 0 ? "" : path) == 0);
	else
		FUZZ_ASSERT(rc == TW_E_TOOBIG && subject[0] == '\0');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[MAX_PATH + 8];
	struct tw_cg_owner o;

	if (size > MAX_PATH)
		return 0;
	memcpy(path, data, size);
	path[size] = '\0';
	tw_cgroup_owner(path, &o);
	FUZZ_ASSERT(o.kind == TW_CG_OWNER_SYSTEM_UNIT || o.kind == TW_CG_OWNER_USER_UNIT ||
	    o.kind == TW_CG_OWNER_CGROUP);
	if (o.kind == TW_CG_OWNER_CGROUP)
		check_plain(path, &o);
	else
		check_unit(path, &o);
	check_words(path, &o);
	check_lines(path);
	/* A child no unit's name could have is no unit's own. */
	if (path[0] == '/') {
		strcat(path, strcmp(path, "/") == 0 ? "x%y" : "/x%y");
		tw_cgroup_owner(path, &o);
		FUZZ_ASSERT(o.kind == TW_CG_OWNER_CGROUP && o.unit == NULL);
	}
	return 0;
}
