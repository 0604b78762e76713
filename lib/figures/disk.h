/* SPDX-License-Identifier: ISC */
/* One disk's figures over the window, in natural units: what the judges,
 * advice, lib/change and check_disklatency read of a twDiskEntry.
 *
 * The view keeps the MIB's integers; lib/view/fig_disk.c turns a row into
 * this record in one place, so every reader gets the same units and the
 * same absences. A double is TW_FIG_NONE when the row lacks it, an integer
 * tunable is -1, a string NULL; strings point into the row, which must
 * outlive the record. */
#ifndef TW_FIGURES_DISK_H
#define TW_FIGURES_DISK_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_disk_fig {
	uint32_t major, minor;
	const char *name;		/* the kernel's, shown; never NULL */
	const char *alias;		/* a dm or md name */
	const char *stable_id;		/* wwid, NGUID, EUI, dm uuid */
	const char *type;
	double read_ops_s, write_ops_s;		/* requests/s */
	double read_bytes_s, write_bytes_s;
	double r_await_ms, w_await_ms;
	double queue_depth;			/* aqu-sz, requests */
	double util_pct;
	const char *scheduler;		/* the active one */
	int64_t nr_requests;
	int64_t read_ahead_kb;
	/* Signed in the kernel's own unit: -1 is its default, so absence is
	 * TW_FIG_NONE here and not -1. */
	double wbt_lat_us;
	int rotational;			/* 1, 0, or -1 when unknown */
};

/* The part of a disk's figures that the buffer cache's choice of a disk
 * reads (its read-ahead and its writer): every disk is scanned for it
 * twice a sample, so it is decoded alone, in the same units. */
struct tw_disk_load {
	double read_ops_s, read_bytes_s, write_bytes_s;
	double util_pct;
	int64_t read_ahead_kb;			/* -1: absent */
};

#endif
