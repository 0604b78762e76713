/* SPDX-License-Identifier: ISC */
/* Error codes shared by everything in lib/.
 *
 * Library functions return TW_OK or one of the negative codes below and
 * never print or exit; programs turn a code into a message with
 * tw_strerror(). */
#ifndef TW_ERROR_H
#define TW_ERROR_H

enum tw_err {
	TW_OK = 0,
	TW_E_ABSENT = -1,	/* the source does not exist on this kernel */
	TW_E_ACCESS = -2,	/* permission denied */
	TW_E_IO = -3,		/* a read failed */
	TW_E_NOMEM = -4,	/* out of memory */
	TW_E_INVAL = -5,	/* bad argument or input that cannot be used */
	TW_E_RANGE = -6,	/* a number out of range */
	TW_E_TOOBIG = -7,	/* input larger than the limit we accept */
	TW_E_TIMEOUT = -8,	/* no answer in the time allowed */
};

const char *tw_strerror(int err);

#endif
