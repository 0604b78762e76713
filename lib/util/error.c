/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "util/error.h"

const char *
tw_strerror(int err)
{
	switch (err) {
	case TW_OK:
		return "success";
	case TW_E_ABSENT:
		return "not available on this system";
	case TW_E_ACCESS:
		return "permission denied";
	case TW_E_IO:
		return "read error";
	case TW_E_NOMEM:
		return "out of memory";
	case TW_E_INVAL:
		return "invalid input";
	case TW_E_RANGE:
		return "number out of range";
	case TW_E_TOOBIG:
		return "input too large";
	case TW_E_TIMEOUT:
		return "no answer in time";
	}
	return "unknown error";
}
