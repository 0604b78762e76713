/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probedev.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "collect/blockident.h"
#include "util/error.h"
#include "util/readfile.h"

/* A decimal number at *s, blanks before it skipped; *s moves past it. */
static int
decimal(const char **s, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	int digits = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (v > (UINT64_MAX - 9) / 10)
			return TW_E_INVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (digits == 0)
		return TW_E_INVAL;
	*s = p;
	*out = v;
	return TW_OK;
}

int
tw_probedev_parse_dev(const char *text, uint32_t *major, uint32_t *minor)
{
	const char *s = text;
	uint64_t a, b;

	if (decimal(&s, &a) != TW_OK || *s++ != ':' || decimal(&s, &b) != TW_OK)
		return TW_E_INVAL;
	while (*s == ' ' || *s == '\n')
		s++;
	if (*s != '\0' || a > UINT32_MAX || b > UINT32_MAX)
		return TW_E_INVAL;
	*major = (uint32_t)a;
	*minor = (uint32_t)b;
	return TW_OK;
}

int
tw_probedev_parse_stat(const char *text, uint64_t *ios)
{
	const char *s = text;
	uint64_t v[5];
	int i;

	for (i = 0; i < 5; i++)
		if (decimal(&s, &v[i]) != TW_OK)
			return TW_E_INVAL;
	/* Two counters of 64 bits cannot overflow in practice; saturate
	 * rather than wrap if a broken file says otherwise. */
	*ios = v[0] > UINT64_MAX - v[4] ? UINT64_MAX : v[0] + v[4];
	return TW_OK;
}

/* Fill out for block/<name>. TW_E_ABSENT without block/<name>/dev. */
static int
read_dev(int sys_fd, const char *name, struct tw_probedev *out)
{
	char path[TW_PROBEDEV_NAME_LEN + 32], val[64];
	struct tw_buf b;

	memset(out, 0, sizeof(*out));
	if (strlen(name) >= sizeof(out->name) || strchr(name, '/') != NULL ||
	    strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return TW_E_ABSENT;
	snprintf(out->name, sizeof(out->name), "%s", name);
	snprintf(path, sizeof(path), "block/%s/dev", name);
	if (tw_read_value_at(sys_fd, path, val, sizeof(val)) != TW_OK ||
	    tw_probedev_parse_dev(val, &out->major, &out->minor) != TW_OK)
		return TW_E_ABSENT;
	snprintf(path, sizeof(path), "block/%s/diskseq", name);
	if (tw_read_value_at(sys_fd, path, val, sizeof(val)) == TW_OK) {
		const char *s = val;

		if (decimal(&s, &out->diskseq) != TW_OK)
			out->diskseq = 0;
	}
	out->rotational = -1;
	snprintf(path, sizeof(path), "block/%s/queue/rotational", name);
	if (tw_read_value_at(sys_fd, path, val, sizeof(val)) == TW_OK)
		out->rotational = strcmp(val, "1") == 0 ? 1 : strcmp(val, "0") == 0 ? 0 : -1;
	tw_buf_init(&b);
	snprintf(path, sizeof(path), "block/%s/stat", name);
	if (tw_read_file_limit(sys_fd, path, 4096, &b) == TW_OK &&
	    tw_probedev_parse_stat(b.data, &out->ios) == TW_OK)
		out->has_ios = 1;
	tw_buf_free(&b);
	return TW_OK;
}

/* Walk block/ for the first entry that match() accepts. */
static int
scan_block(int sys_fd, int (*match)(int sys_fd, const char *name, const void *ctx),
    const void *ctx, struct tw_probedev *out)
{
	int fd = openat(sys_fd, "block", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;
	int rc = TW_E_ABSENT;

	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return TW_E_ABSENT;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (match(sys_fd, e->d_name, ctx) && read_dev(sys_fd, e->d_name, out) == TW_OK) {
			rc = TW_OK;
			break;
		}
	}
	closedir(d);
	return rc;
}

static int
alias_is(int sys_fd, const char *name, const void *ctx)
{
	struct tw_blockident id;

	return tw_ident_read(sys_fd, name, &id) == TW_OK && id.alias[0] != '\0' &&
	    strcmp(id.alias, (const char *)ctx) == 0;
}

static int
dev_is(int sys_fd, const char *name, const void *ctx)
{
	const dev_t *want = ctx;
	char path[TW_PROBEDEV_NAME_LEN + 32], val[64];
	uint32_t maj, min;

	snprintf(path, sizeof(path), "block/%s/dev", name);
	return strlen(name) < TW_PROBEDEV_NAME_LEN &&
	    tw_read_value_at(sys_fd, path, val, sizeof(val)) == TW_OK &&
	    tw_probedev_parse_dev(val, &maj, &min) == TW_OK && maj == major(*want) &&
	    min == minor(*want);
}

int
tw_probedev_resolve(int sys_fd, const char *spec, struct tw_probedev *out)
{
	memset(out, 0, sizeof(*out));
	if (sys_fd < 0 || spec == NULL || spec[0] == '\0')
		return TW_E_ABSENT;
	if (spec[0] == '/') {
		/* A path: whatever node it leads to, by its device number. */
		struct stat st;

		if (stat(spec, &st) != 0 || !S_ISBLK(st.st_mode))
			return TW_E_ABSENT;
		return scan_block(sys_fd, dev_is, &st.st_rdev, out);
	}
	if (read_dev(sys_fd, spec, out) == TW_OK)
		return TW_OK;
	return scan_block(sys_fd, alias_is, spec, out);
}
