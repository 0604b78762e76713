/* SPDX-License-Identifier: ISC */
/* One disk's figures over the window, in natural units: what the judges,
 * advice, lib/change and check_disklatency read of a twDiskEntry.
 *
 * lib/derive/derive_disk.c makes it from the window and the sample; the view
 * keeps it as the MIB's numbers (the column table names each field), and
 * every reader decodes a view's row into it (lib/view/record_disk.c), so the
 * agent, a check over SNMP and a check's --local read the same figures,
 * rounded to the MIB's resolution. A double is TW_FIG_NONE when absent, a
 * count TW_FIG_NO_COUNT, an integer tunable -1, a string NULL; strings
 * point into what the record was made from, which must outlive it. */
#ifndef TW_FIGURES_DISK_RECORD_H
#define TW_FIGURES_DISK_RECORD_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_disk_record {
	uint32_t major, minor;
	const char *name;		/* the kernel's, shown; never NULL */
	const char *alias;		/* a dm or md name */
	const char *stable_id;		/* wwid, NGUID, EUI, dm uuid */
	const char *type;
	/* Since the device appeared; an NMS makes its own rates of these. */
	uint64_t reads, writes;			/* requests completed */
	uint64_t read_bytes, written_bytes;
	uint64_t read_time_ms, write_time_ms;	/* spent on them */
	uint64_t in_flight;			/* requests, in the newest sample */
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

/* Every figure absent: what a record is before its source fills it. */
static inline void
tw_disk_record_init(struct tw_disk_record *f)
{
	*f = (struct tw_disk_record){
		.name = "", .reads = TW_FIG_NO_COUNT, .writes = TW_FIG_NO_COUNT,
		.read_bytes = TW_FIG_NO_COUNT, .written_bytes = TW_FIG_NO_COUNT,
		.read_time_ms = TW_FIG_NO_COUNT, .write_time_ms = TW_FIG_NO_COUNT,
		.in_flight = TW_FIG_NO_COUNT, .read_ops_s = TW_FIG_NONE, .write_ops_s = TW_FIG_NONE,
		.read_bytes_s = TW_FIG_NONE, .write_bytes_s = TW_FIG_NONE, .r_await_ms = TW_FIG_NONE,
		.w_await_ms = TW_FIG_NONE, .queue_depth = TW_FIG_NONE, .util_pct = TW_FIG_NONE,
		.nr_requests = -1, .read_ahead_kb = -1, .wbt_lat_us = TW_FIG_NONE, .rotational = -1,
	};
}

/* The part of a disk's figures that the buffer cache's choice of a disk
 * reads (its read-ahead and its writer): every disk is scanned for it
 * twice a sample, so it is decoded alone, in the same units. */
struct tw_disk_load {
	double read_ops_s, read_bytes_s, write_bytes_s;
	double write_ops_s, w_await_ms;
	double util_pct;
	int64_t read_ahead_kb;			/* -1: absent */
};

#endif
