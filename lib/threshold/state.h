/* SPDX-License-Identifier: ISC */
/* Plugin states, as the Monitoring Plugins guidelines define them.
 *
 * The numeric values are the exit codes Nagios and Icinga read, so they
 * are fixed. */
#ifndef TW_STATE_H
#define TW_STATE_H

enum tw_state {
	TW_STATE_OK = 0,
	TW_STATE_WARNING = 1,
	TW_STATE_CRITICAL = 2,
	TW_STATE_UNKNOWN = 3,
};

/* "OK", "WARNING", "CRITICAL" or "UNKNOWN"; any other value reads as
 * "UNKNOWN", so a corrupt state never prints as a healthy one. */
const char *tw_state_name(enum tw_state st);

/* Parse a state as given to --timeout-result: a name in any case ("ok",
 * "Warning", "CRITICAL", "unknown") or its exit code ("0" to "3"). Returns
 * TW_OK or TW_E_INVAL; *out is left alone on error. */
int tw_state_parse(const char *text, enum tw_state *out);

/* The more severe of two states, in the order OK < UNKNOWN < WARNING <
 * CRITICAL: one item that is certainly CRITICAL outweighs another that
 * could not be measured. A value outside the enum counts as UNKNOWN. */
enum tw_state tw_state_worst(enum tw_state a, enum tw_state b);

#endif
