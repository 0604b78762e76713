/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "util/namefilter.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"

int
tw_namefilter_set(struct tw_namefilter *f, enum tw_namefilter_side side, const char *expr,
    char *msg, size_t msglen)
{
	regex_t *re = side == TW_NAMEFILTER_INCLUDE ? &f->include : &f->exclude;
	int *has = side == TW_NAMEFILTER_INCLUDE ? &f->has_include : &f->has_exclude;
	int rc;

	if (*has)
		regfree(re);
	*has = 0;
	rc = regcomp(re, expr, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		if (msglen > 0)
			regerror(rc, re, msg, msglen);
		return TW_E_INVAL;
	}
	*has = 1;
	return TW_OK;
}

static int
compile(struct tw_namefilter *f, enum tw_namefilter_side side, const char *expr,
    const char *what, char *err, size_t errlen)
{
	char msg[128];

	if (tw_namefilter_set(f, side, expr, msg, sizeof(msg)) != TW_OK) {
		if (errlen > 0)
			snprintf(err, errlen, "bad %s expression '%s': %s", what, expr, msg);
		return TW_E_INVAL;
	}
	return TW_OK;
}

int
tw_namefilter_init(struct tw_namefilter *f, const char *include, const char *exclude,
    char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	if (include != NULL && include[0] != '\0' &&
	    compile(f, TW_NAMEFILTER_INCLUDE, include, "include", err, errlen) != TW_OK)
		return TW_E_INVAL;
	if (exclude != NULL && exclude[0] != '\0' &&
	    compile(f, TW_NAMEFILTER_EXCLUDE, exclude, "exclude", err, errlen) != TW_OK) {
		tw_namefilter_free(f);
		return TW_E_INVAL;
	}
	return TW_OK;
}

void
tw_namefilter_free(struct tw_namefilter *f)
{
	if (f->has_include)
		regfree(&f->include);
	if (f->has_exclude)
		regfree(&f->exclude);
	f->has_include = 0;
	f->has_exclude = 0;
}

static int
matches(const regex_t *re, const char *name)
{
	return name != NULL && name[0] != '\0' && regexec(re, name, 0, NULL, 0) == 0;
}

int
tw_namefilter_keep_either(const struct tw_namefilter *f, const char *name, const char *alias)
{
	if (f->has_include && !matches(&f->include, name) && !matches(&f->include, alias))
		return 0;
	if (f->has_exclude && (matches(&f->exclude, name) || matches(&f->exclude, alias)))
		return 0;
	return 1;
}

int
tw_namefilter_keep(const struct tw_namefilter *f, const char *name)
{
	if (f->has_include && regexec(&f->include, name, 0, NULL, 0) != 0)
		return 0;
	if (f->has_exclude && regexec(&f->exclude, name, 0, NULL, 0) == 0)
		return 0;
	return 1;
}
