/* SPDX-License-Identifier: ISC */
/* A name filter: include and exclude POSIX extended regular expressions
 * over a name. The sampler filters block devices with it, the plugins'
 * --device and --pool options filter device and pool names. */
#ifndef TW_NAMEFILTER_H
#define TW_NAMEFILTER_H

#include <regex.h>
#include <stddef.h>

enum tw_namefilter_side {
	TW_NAMEFILTER_INCLUDE,
	TW_NAMEFILTER_EXCLUDE,
};

/* Zeroed, a filter keeps every name. */
struct tw_namefilter {
	regex_t include;
	regex_t exclude;
	int has_include;
	int has_exclude;
};

/* include NULL or "" keeps every name the exclusion spares; exclude NULL
 * or "" excludes nothing. A bad expression is
 * TW_E_INVAL with regerror()'s text in err. */
int tw_namefilter_init(struct tw_namefilter *f, const char *include, const char *exclude,
    char *err, size_t errlen);
/* Set or replace one side with expr, taken as it is ("" matches every
 * name). A bad expression is TW_E_INVAL with regerror()'s text in msg, and
 * leaves that side unset. */
int tw_namefilter_set(struct tw_namefilter *f, enum tw_namefilter_side side, const char *expr,
    char *msg, size_t msglen);
void tw_namefilter_free(struct tw_namefilter *f);
int tw_namefilter_keep(const struct tw_namefilter *f, const char *name);
/* The same for a thing with two names (a disk's kernel name and its alias):
 * included when either matches the inclusion, excluded when either matches
 * the exclusion, so an administrator may use the name they know. alias
 * NULL or "" is no second name. */
int tw_namefilter_keep_either(const struct tw_namefilter *f, const char *name,
    const char *alias);

#endif
