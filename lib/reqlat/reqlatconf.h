/* SPDX-License-Identifier: ISC */
/* The request-latency source's lines of tunewatchd.conf:
 *
 *   requestLatency yes|no       time every request with the BPF program
 *                               (default yes where the build and kernel
 *                               allow)
 *   requestLatencyDevices N     slots for devices, 1 to 128 (default 32):
 *                               the program's histograms take N times 6
 *                               KiB a possible CPU
 *   requestLatencyIssueClock kernel|program
 *                               a request's issue time: the kernel's own
 *                               stamp where it keeps one (default), or
 *                               the program's clock at block_rq_issue
 *
 * Parsed here, without Net-SNMP, so that a fuzzer can run the parser. */
#ifndef TW_REQLATCONF_H
#define TW_REQLATCONF_H

#include <stddef.h>

/* "yes" or "no", alone (blanks around it allowed): 1 or 0 in *on. TW_OK,
 * or TW_E_INVAL with one line in err. */
int tw_reqlatconf_switch(const char *value, int *on, char *err, size_t errlen);

/* "kernel" or "program": 1 in *program for program. TW_OK, or
 * TW_E_INVAL with one line in err. */
int tw_reqlatconf_clock(const char *value, int *program, char *err, size_t errlen);

/* A number of device slots, 1 to TW_REQLAT_MAX_DEVICES. TW_OK, or
 * TW_E_INVAL with one line in err. */
int tw_reqlatconf_devices(const char *value, unsigned *out, char *err, size_t errlen);

#endif
