/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "findconf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding/tracker.h"
#include "util/ratelimit.h"
#include "util/error.h"
#include "util/scan.h"

static struct tw_finding_options *target;

/* Each threshold token and where it goes. */
static const struct {
	const char *token;
	size_t off;
} thresholds[] = {
	{ "hitRatioWarning", offsetof(struct tw_judge_config, hit_warn) },
	{ "hitRatioCritical", offsetof(struct tw_judge_config, hit_crit) },
	{ "refaultWarning", offsetof(struct tw_judge_config, refault_warn) },
	{ "refaultCritical", offsetof(struct tw_judge_config, refault_crit) },
	{ "pressureWarning", offsetof(struct tw_judge_config, psi_warn) },
	{ "pressureCritical", offsetof(struct tw_judge_config, psi_crit) },
	{ "poolFailuresWarning", offsetof(struct tw_judge_config, pool_warn) },
	{ "poolFailuresCritical", offsetof(struct tw_judge_config, pool_crit) },
	{ "socketDropWarning", offsetof(struct tw_judge_config, sock_warn) },
	{ "socketDropCritical", offsetof(struct tw_judge_config, sock_crit) },
	{ "cgroupRefaultWarning", offsetof(struct tw_judge_config, cg_refault_warn) },
	{ "cgroupRefaultCritical", offsetof(struct tw_judge_config, cg_refault_crit) },
	{ "cgroupPressureWarning", offsetof(struct tw_judge_config, cg_psi_warn) },
	{ "cgroupPressureCritical", offsetof(struct tw_judge_config, cg_psi_crit) },
	{ "probeLatencyWarning", offsetof(struct tw_judge_config, probe_warn) },
	{ "probeLatencyCritical", offsetof(struct tw_judge_config, probe_crit) },
	{ "requestLatencyWarning", offsetof(struct tw_judge_config, reqlat_warn) },
	{ "requestLatencyCritical", offsetof(struct tw_judge_config, reqlat_crit) },
	{ "requestWriteLatencyWarning", offsetof(struct tw_judge_config, reqlat_write_warn) },
	{ "requestWriteLatencyCritical", offsetof(struct tw_judge_config, reqlat_write_crit) },
	{ "readLatencyWarning", offsetof(struct tw_judge_config, read_warn) },
	{ "readLatencyCritical", offsetof(struct tw_judge_config, read_crit) },
	{ "writeLatencyWarning", offsetof(struct tw_judge_config, write_warn) },
	{ "writeLatencyCritical", offsetof(struct tw_judge_config, write_crit) },
	{ "queueWarning", offsetof(struct tw_judge_config, queue_warn) },
	{ "queueCritical", offsetof(struct tw_judge_config, queue_crit) },
	{ "utilWarning", offsetof(struct tw_judge_config, util_warn) },
	{ "utilCritical", offsetof(struct tw_judge_config, util_crit) },
};

#define NTHRESHOLDS (sizeof(thresholds) / sizeof(thresholds[0]))

/* A whole number from lo to hi, or -1. */
static long
whole(const char *text, long lo, long hi)
{
	char *end;
	long v;

	if (*text < '0' || *text > '9')
		return -1;
	v = strtol(text, &end, 10);
	if (*end != '\0' || v < lo || v > hi)
		return -1;
	return v;
}

static void
parse_token(const char *token, char *line)
{
	struct tw_finding_options *o = target;
	char *value = tw_trim(line), msg[160];
	size_t i;
	long n;

	if (*value == '\0') {
		config_perror("a value is needed");
		return;
	}
	for (i = 0; i < NTHRESHOLDS; i++) {
		struct tw_threshold *t;

		if (strcmp(token, thresholds[i].token) != 0)
			continue;
		t = (struct tw_threshold *)((char *)&o->judge + thresholds[i].off);
		if (tw_threshold_parse(t, value) != TW_OK) {
			snprintf(msg, sizeof(msg), "%s '%s' is not a range (such as 20, 90: or "
			    "@10:20); ignored", token, value);
			config_perror(msg);
		}
		return;
	}
	if (strcmp(token, "findings") == 0) {
		if (strcmp(value, "yes") == 0 || strcmp(value, "no") == 0)
			o->off = strcmp(value, "no") == 0;
		else
			config_perror("findings wants yes or no; ignored");
	} else if (strcmp(token, "findingRaiseAfter") == 0 ||
	    strcmp(token, "findingClearAfter") == 0) {
		if ((n = whole(value, 1, 1000)) < 0) {
			snprintf(msg, sizeof(msg), "%s wants 1 to 1000 samples, not '%s'; ignored",
			    token, value);
			config_perror(msg);
		} else if (strcmp(token, "findingRaiseAfter") == 0) {
			o->raise_after = (unsigned)n;
		} else {
			o->clear_after = (unsigned)n;
		}
	} else if (strcmp(token, "notificationsPerMinute") == 0) {
		if ((n = whole(value, 0, 1000000)) < 0) {
			snprintf(msg, sizeof(msg), "notificationsPerMinute wants a number of "
			    "notifications a minute, at most %d (0: %d), not '%s'; ignored",
			    TW_RATELIMIT_CEILING, TW_RATELIMIT_CEILING, value);
			config_perror(msg);
		} else {
			if (n > TW_RATELIMIT_CEILING) {
				snprintf(msg, sizeof(msg), "notificationsPerMinute %ld is above the "
				    "ceiling; %d a minute it is", n, TW_RATELIMIT_CEILING);
				config_pwarn(msg);
			}
			o->per_minute = (unsigned)n;
		}
	} else if (strcmp(token, "probePercentile") == 0) {
		if ((n = whole(value, 50, 99)) != 50 && n != 90 && n != 99) {
			snprintf(msg, sizeof(msg), "probePercentile wants 50, 90 or 99 (the "
			    "percentiles twProbeTable publishes), not '%s'; ignored", value);
			config_perror(msg);
		} else {
			o->judge.probe_percentile = (unsigned)n;
		}
	} else if (strcmp(token, "requestPercentile") == 0) {
		if ((n = whole(value, 50, 99)) != 50 && n != 90 && n != 99) {
			snprintf(msg, sizeof(msg), "requestPercentile wants 50, 90 or 99 (the "
			    "percentiles twReqLatTable publishes), not '%s'; ignored", value);
			config_perror(msg);
		} else {
			o->judge.reqlat_percentile = (unsigned)n;
		}
	} else if (strcmp(token, "minOps") == 0) {
		if ((n = whole(value, 0, 1000000000)) < 0) {
			snprintf(msg, sizeof(msg), "minOps wants requests per second, 0 to "
			    "1000000000, not '%s'; ignored", value);
			config_perror(msg);
		} else {
			o->judge.min_ops = (double)n;
		}
	}
}

void
tw_findconf_register(struct tw_finding_options *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->raise_after = TW_TRACKER_DEFAULT_RAISE;
	o->clear_after = TW_TRACKER_DEFAULT_CLEAR;
	o->per_minute = TW_DEFAULT_NOTIFICATIONS_PER_MINUTE;
	tw_judge_defaults(&o->judge);
	target = o;
	for (i = 0; i < NTHRESHOLDS; i++)
		register_app_config_handler(thresholds[i].token, parse_token, NULL, "RANGE");
	register_app_config_handler("findings", parse_token, NULL, "yes|no");
	register_app_config_handler("findingRaiseAfter", parse_token, NULL, "SAMPLES");
	register_app_config_handler("findingClearAfter", parse_token, NULL, "SAMPLES");
	register_app_config_handler("notificationsPerMinute", parse_token, NULL, "NUMBER");
	register_app_config_handler("probePercentile", parse_token, NULL, "50|90|99");
	register_app_config_handler("requestPercentile", parse_token, NULL, "50|90|99");
	register_app_config_handler("minOps", parse_token, NULL, "NUMBER");
}
