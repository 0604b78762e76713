/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "checkio/extraopts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkio/ini.h"
#include "util/error.h"
#include "util/readfile.h"
#include "util/printf.h"

const char *const tw_extraopts_default_paths[] = {
	"/usr/local/etc/monitoring-plugins/monitoring-plugins.ini",
	"/usr/local/etc/monitoring-plugins.ini",
	"/etc/monitoring-plugins/monitoring-plugins.ini",
	"/etc/monitoring-plugins.ini",
	/* The names older releases used. */
	"/etc/nagios/plugins.ini",
	"/usr/local/nagios/etc/plugins.ini",
	"/usr/local/etc/nagios/plugins.ini",
	"/etc/opt/nagios/plugins.ini",
	"/etc/nagios-plugins.ini",
	"/usr/local/etc/nagios-plugins.ini",
	"/etc/opt/nagios-plugins.ini",
	NULL
};

/* The names looked for in each directory of $NAGIOS_CONFIG_PATH. */
static const char *const path_file_names[] = {
	"monitoring-plugins.ini", "plugins.ini", "nagios-plugins.ini", NULL
};

struct expand {
	struct tw_buf pool;	/* the new arguments, each NUL-terminated */
	size_t nargs;
	const char *want;	/* the section we read */
	size_t want_len;
	int in_want;
	int found;
	unsigned long bad_line;
	int bad_before_section;	/* the bad line is an option with no section */
	int rc;
};

/* One line, whatever the file name or section contains. */
static void TW_PRINTF(3, 4)
errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	size_t i;

	if (errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	for (i = 0; err[i] != '\0'; i++)
		if ((unsigned char)err[i] < 0x20 || err[i] == 0x7f)
			err[i] = '?';
}

static int
pool_add(struct expand *x, const char *key, size_t klen, const char *val, size_t vlen,
    int has_val)
{
	size_t need = 2 + klen + 1 + vlen + 1;
	char *p;
	int rc;

	rc = tw_buf_reserve(&x->pool, x->pool.len + need);
	if (rc != TW_OK)
		return rc;
	p = x->pool.data + x->pool.len;
	*p++ = '-';
	if (klen > 1)
		*p++ = '-';
	memcpy(p, key, klen);
	p += klen;
	/* "key=" is the monitoring-plugins spelling of a bare "--key". */
	if (has_val && vlen > 0) {
		if (klen > 1)
			*p++ = '=';
		memcpy(p, val, vlen);
		p += vlen;
	}
	*p++ = '\0';
	x->pool.len = (size_t)(p - x->pool.data);
	x->nargs++;
	return TW_OK;
}

static int
collect(void *ctx, const struct tw_ini_item *it)
{
	struct expand *x = ctx;

	switch (it->kind) {
	case TW_INI_SECTION:
		x->in_want = it->section_len == x->want_len &&
		    memcmp(it->section, x->want, x->want_len) == 0;
		x->found |= x->in_want;
		return 0;
	case TW_INI_OPTION:
		if (it->section == NULL) {
			x->bad_line = it->line;
			x->bad_before_section = 1;
			return TW_E_INVAL;
		}
		if (!x->in_want)
			return 0;
		x->rc = pool_add(x, it->key, it->key_len, it->value, it->value_len,
		    it->value != NULL);
		return x->rc;
	case TW_INI_MALFORMED:
		if (it->section != NULL && !x->in_want)
			return 0;
		x->bad_line = it->line;
		return TW_E_INVAL;
	}
	return 0;
}

static const char *
read_error_text(int rc)
{
	switch (rc) {
	case TW_E_ABSENT:
		return "no such file";
	case TW_E_TOOBIG:
		return "larger than 1 MiB";
	default:
		return tw_strerror(rc);
	}
}

/* The default file into path; TW_E_ABSENT when there is none. */
static int
default_file(const struct tw_extraopts_env *env, char *path, size_t pathlen)
{
	const char *const *p;
	const char *dir, *end;

	if (env->mp_config_file != NULL && env->mp_config_file[0] != '\0') {
		if ((size_t)snprintf(path, pathlen, "%s", env->mp_config_file) >= pathlen)
			return TW_E_TOOBIG;
		return TW_OK;
	}
	for (dir = env->nagios_config_path; dir != NULL && *dir != '\0'; dir = end) {
		size_t dlen;

		end = strchr(dir, ':');
		dlen = end != NULL ? (size_t)(end - dir) : strlen(dir);
		end = end != NULL ? end + 1 : dir + dlen;
		if (dlen == 0)
			continue;
		for (p = path_file_names; *p != NULL; p++) {
			int n = snprintf(path, pathlen, "%.*s/%s", (int)dlen, dir, *p);

			if (n > 0 && (size_t)n < pathlen && access(path, F_OK) == 0)
				return TW_OK;
		}
	}
	for (p = env->paths != NULL ? env->paths : tw_extraopts_default_paths; *p != NULL; p++) {
		if (access(*p, F_OK) == 0) {
			if ((size_t)snprintf(path, pathlen, "%s", *p) >= pathlen)
				return TW_E_TOOBIG;
			return TW_OK;
		}
	}
	return TW_E_ABSENT;
}

/* Read one locator's options into x->pool. */
static int
expand_one(struct expand *x, const char *locator, const char *plugin,
    const struct tw_extraopts_env *env, struct tw_buf *file, char *err, size_t errlen)
{
	char path[4096], section[256];
	const char *at = locator != NULL ? strchr(locator, '@') : NULL;
	size_t slen = locator == NULL ? 0 : at != NULL ? (size_t)(at - locator) : strlen(locator);
	int rc;

	if (slen == 0) {
		locator = plugin;
		slen = strlen(plugin);
	}
	if (slen >= sizeof(section)) {
		errf(err, errlen, "extra-opts: section name too long");
		return TW_E_INVAL;
	}
	memcpy(section, locator, slen);
	section[slen] = '\0';
	if (at != NULL) {
		if (at[1] == '\0') {
			errf(err, errlen, "extra-opts: empty file name after '@'");
			return TW_E_INVAL;
		}
		if ((size_t)snprintf(path, sizeof(path), "%s", at + 1) >= sizeof(path)) {
			errf(err, errlen, "extra-opts: file name too long");
			return TW_E_INVAL;
		}
	} else {
		rc = default_file(env, path, sizeof(path));
		if (rc != TW_OK) {
			errf(err, errlen, "extra-opts: no config file found in the standard "
			    "locations (set MP_CONFIG_FILE or use --extra-opts=[section]@file)");
			return rc;
		}
	}

	/* A path the user gave: absolute, or relative to the working directory. */
	rc = tw_read_file_limit(AT_FDCWD, path, TW_EXTRAOPTS_FILE_MAX, file);
	if (rc != TW_OK) {
		errf(err, errlen, "extra-opts: cannot read %s: %s", path, read_error_text(rc));
		return rc;
	}
	x->want = section;
	x->want_len = slen;
	x->in_want = 0;
	x->found = 0;
	x->rc = TW_OK;
	rc = tw_ini_parse(file->data, file->len, collect, x, NULL);
	if (rc != 0) {
		if (x->rc != TW_OK) {
			errf(err, errlen, "extra-opts: %s", tw_strerror(x->rc));
			return x->rc;
		}
		/* Never quote the line: it may hold a pass phrase. */
		errf(err, errlen, "extra-opts: %s line %lu: %s", path, x->bad_line,
		    x->bad_before_section ? "option before any [section]" :
		    "not a [section], comment or key[=value] line");
		return TW_E_INVAL;
	}
	if (!x->found) {
		errf(err, errlen, "extra-opts: section [%s] not found in %s", section, path);
		return TW_E_ABSENT;
	}
	return TW_OK;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* "--extra-opts" or "--extra-opts=..."; 1 for the bare form, 2 with '='. */
static int
is_extra_opts(const char *arg)
{
	static const char opt[] = "--extra-opts";

	if (strncmp(arg, opt, sizeof(opt) - 1) != 0)
		return 0;
	if (arg[sizeof(opt) - 1] == '\0')
		return 1;
	return arg[sizeof(opt) - 1] == '=' ? 2 : 0;
}

int
tw_extraopts_expand(int argc, char *const argv[], const char *plugin,
    const struct tw_extraopts_env *env, int *newargc, char ***newargv,
    char *err, size_t errlen)
{
	struct tw_extraopts_env procenv;
	struct expand x;
	struct tw_buf file;
	const char **locators = NULL;
	int *keep = NULL;
	size_t nloc = 0, nkeep = 0, bytes, count, i;
	char **out = NULL, *s;
	const char *p;
	int rc = TW_OK, a, stop = 0;

	*newargv = NULL;
	*newargc = 0;
	if (errlen > 0)
		err[0] = '\0';
	if (argc < 1 || argv == NULL || argv[0] == NULL) {
		errf(err, errlen, "extra-opts: no program name");
		return TW_E_INVAL;
	}
	if (env == NULL) {
		procenv.mp_config_file = getenv("MP_CONFIG_FILE");
		procenv.nagios_config_path = getenv("NAGIOS_CONFIG_PATH");
		procenv.paths = NULL;
		env = &procenv;
	}
	if (plugin == NULL)
		plugin = base_name(argv[0]);

	memset(&x, 0, sizeof(x));
	tw_buf_init(&x.pool);
	tw_buf_init(&file);
	locators = calloc((size_t)argc, sizeof(*locators));
	keep = calloc((size_t)argc, sizeof(*keep));
	if (locators == NULL || keep == NULL) {
		rc = TW_E_NOMEM;
		goto nomem;
	}

	for (a = 1; a < argc; a++) {
		int kind = stop ? 0 : is_extra_opts(argv[a]);

		if (!stop && strcmp(argv[a], "--") == 0)
			stop = 1;
		if (kind == 0) {
			keep[nkeep++] = a;
		} else if (kind == 2) {
			locators[nloc++] = argv[a] + sizeof("--extra-opts");
		} else if (a + 1 < argc && argv[a + 1][0] != '-') {
			locators[nloc++] = argv[++a];
		} else {
			locators[nloc++] = NULL;
		}
	}
	for (i = 0; i < nloc; i++) {
		rc = expand_one(&x, locators[i], plugin, env, &file, err, errlen);
		if (rc != TW_OK)
			goto out;
	}

	/* One block: the pointer array, then every string it points to. */
	count = 1 + x.nargs + nkeep;
	bytes = (count + 1) * sizeof(char *) + strlen(argv[0]) + 1 + x.pool.len;
	for (i = 0; i < nkeep; i++)
		bytes += strlen(argv[keep[i]]) + 1;
	out = malloc(bytes);
	if (out == NULL) {
		rc = TW_E_NOMEM;
		goto nomem;
	}
	s = (char *)(out + count + 1);
	out[0] = s;
	s = stpcpy(s, argv[0]) + 1;
	for (i = 0, p = x.pool.data; i < x.nargs; i++) {
		out[1 + i] = s;
		s = stpcpy(s, p) + 1;
		p += strlen(p) + 1;
	}
	for (i = 0; i < nkeep; i++) {
		out[1 + x.nargs + i] = s;
		s = stpcpy(s, argv[keep[i]]) + 1;
	}
	out[count] = NULL;
	*newargv = out;
	*newargc = (int)count;
	goto out;

nomem:
	errf(err, errlen, "extra-opts: %s", tw_strerror(rc));
out:
	free(locators);
	free(keep);
	tw_buf_free(&x.pool);
	tw_buf_free(&file);
	return rc;
}

void
tw_extraopts_free(char **argv)
{
	free(argv);
}
