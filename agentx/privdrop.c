/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "privdrop.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

int
tw_privdrop(const char *name, char *err, size_t errlen)
{
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(name);
	if (pw == NULL) {
		snprintf(err, errlen, "no such user '%s'", name);
		return -1;
	}
	if (getuid() == pw->pw_uid && geteuid() == pw->pw_uid)
		return 0;
	/* Groups first: after setuid() we could no longer change them. */
	if (initgroups(pw->pw_name, pw->pw_gid) != 0 || setgid(pw->pw_gid) != 0 ||
	    setuid(pw->pw_uid) != 0) {
		snprintf(err, errlen, "cannot become user '%s': %s", name, strerror(errno));
		return -2;
	}
	/* A process that can get root back has not dropped it. */
	if (pw->pw_uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		snprintf(err, errlen, "still able to regain root after becoming '%s'", name);
		return -2;
	}
	return 0;
}
