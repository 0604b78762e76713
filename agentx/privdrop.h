/* SPDX-License-Identifier: ISC */
/* Giving up root once tunewatchd has opened what it needs. */
#ifndef TW_PRIVDROP_H
#define TW_PRIVDROP_H

#include <stddef.h>

/* Become user `name` (its uid, gid and supplementary groups) for good.
 * Returns 0, -1 when no such user exists, -2 when the system refuses; err
 * gets one line. */
int tw_privdrop(const char *name, char *err, size_t errlen);

#endif
