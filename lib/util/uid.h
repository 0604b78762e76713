/* SPDX-License-Identifier: ISC */
/* Whose a thing is: root, the system's service accounts, or a user.
 *
 * A user is a uid at or above TW_UID_USER_MIN, login.defs' UID_MIN on
 * Debian and most systems: a person's account, which anyone who can log
 * in may hold, nobody (65534) included. Below it are root and the
 * accounts the system's services run as, which the administrator made.
 * What only a user's things show (their sockets, their cgroups) is that
 * user's to fix, and must neither crowd out the host's findings nor move a
 * knob the whole host shares. */
#ifndef TW_UTIL_UID_H
#define TW_UTIL_UID_H

#include <stdint.h>

#define TW_UID_USER_MIN 1000

/* 1 for a user's uid; 0 for root, a service account and -1 (none). */
static inline int
tw_uid_is_user(int64_t uid)
{
	return uid >= TW_UID_USER_MIN && uid <= UINT32_MAX;
}

#endif
