/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "threshold/state.h"

#include <stddef.h>

#include "util/error.h"

static const char *const state_names[] = {
	[TW_STATE_OK] = "OK",
	[TW_STATE_WARNING] = "WARNING",
	[TW_STATE_CRITICAL] = "CRITICAL",
	[TW_STATE_UNKNOWN] = "UNKNOWN",
};

static int
state_valid(enum tw_state st)
{
	return st == TW_STATE_OK || st == TW_STATE_WARNING ||
	    st == TW_STATE_CRITICAL || st == TW_STATE_UNKNOWN;
}

const char *
tw_state_name(enum tw_state st)
{
	if (!state_valid(st))
		return state_names[TW_STATE_UNKNOWN];
	return state_names[st];
}

/* ASCII-only case folding: strcasecmp follows the locale, and in a Turkish
 * one "WARNING" and "warning" differ. */
static int
ascii_eq_nocase(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++) {
		char ca = *a, cb = *b;

		if (ca >= 'a' && ca <= 'z')
			ca = (char)(ca - 'a' + 'A');
		if (cb >= 'a' && cb <= 'z')
			cb = (char)(cb - 'a' + 'A');
		if (ca != cb)
			return 0;
	}
	return *a == *b;
}

int
tw_state_parse(const char *text, enum tw_state *out)
{
	size_t i;

	if (text == NULL)
		return TW_E_INVAL;
	if (text[0] >= '0' && text[0] <= '3' && text[1] == '\0') {
		*out = (enum tw_state)(text[0] - '0');
		return TW_OK;
	}
	for (i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++) {
		if (ascii_eq_nocase(text, state_names[i])) {
			*out = (enum tw_state)i;
			return TW_OK;
		}
	}
	return TW_E_INVAL;
}

/* Severity rank: the exit codes are not in severity order (UNKNOWN is 3). */
static int
state_rank(enum tw_state st)
{
	switch (st) {
	case TW_STATE_OK:
		return 0;
	case TW_STATE_UNKNOWN:
		return 1;
	case TW_STATE_WARNING:
		return 2;
	case TW_STATE_CRITICAL:
		return 3;
	}
	return 1;
}

enum tw_state
tw_state_worst(enum tw_state a, enum tw_state b)
{
	if (!state_valid(a))
		a = TW_STATE_UNKNOWN;
	if (!state_valid(b))
		b = TW_STATE_UNKNOWN;
	return state_rank(a) >= state_rank(b) ? a : b;
}
