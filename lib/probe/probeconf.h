/* SPDX-License-Identifier: ISC */
/* The probe's lines of tunewatchd.conf:
 *
 *   probe DEVICE [RATE]       DEVICE: a kernel name (sdb), a path under
 *                             /dev (/dev/disk/by-id/wwn-0x5000c500a1b2c3d4)
 *                             or an alias as twDiskAlias has it (vg0-root);
 *                             RATE: reads a second, 1 to 10 (default 1)
 *   probeTimeout SECONDS      a read slower than this is a timeout (1-60,
 *                             default 5)
 *   probeIdleTime SECONDS     a rotational disk without I/O of its own for
 *                             this long is not probed, so it may spin down
 *                             (0: probe it anyway; default 600)
 *
 * Parsed here, without Net-SNMP, so that a fuzzer can run the parser. */
#ifndef TW_PROBECONF_H
#define TW_PROBECONF_H

#include <stddef.h>

#define TW_PROBE_SPEC_LEN 256
#define TW_PROBE_DEFAULT_IDLE_S 600
#define TW_PROBE_MAX_TIMEOUT_S 60

struct tw_probe_spec {
	char device[TW_PROBE_SPEC_LEN];
	unsigned rate;
};

/* The value of a "probe" line (what follows the token). TW_OK, or
 * TW_E_INVAL with one line in err (no device, a bad rate, a third word,
 * a device name with a blank or control byte, or one longer than
 * TW_PROBE_SPEC_LEN - 1). */
int tw_probeconf_parse(const char *value, struct tw_probe_spec *out, char *err,
    size_t errlen);

/* A whole number of seconds from lo to hi, the whole text. TW_OK or
 * TW_E_INVAL. */
int tw_probeconf_seconds(const char *value, unsigned lo, unsigned hi, unsigned *out);

#endif
