/* SPDX-License-Identifier: ISC */
/* Which device has which histogram slot of the BPF program, and where in
 * its device table (reqlat_abi.h) the entry naming it sits: kept here,
 * without BPF, so that tests and fuzzers can run it.
 *
 * A sync takes the slots of the devices no longer wanted and gives free
 * ones to the new devices. A slot taken back cools for one sync before it
 * is given again, so that a request the program was counting for its old
 * device when it was taken cannot land in the new device's histogram; the
 * program itself looks a request's device up again when it ends. */
#ifndef TW_REQSLOTS_H
#define TW_REQSLOTS_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "reqlat/reqseries.h"

enum tw_reqslot_op {
	TW_REQSLOT_TAKE,	/* clear table entry `entry` */
	TW_REQSLOT_GIVE,	/* zero slot's histograms, then write the entry */
};

struct tw_reqslot_change {
	enum tw_reqslot_op op;
	unsigned entry;		/* in the device table */
	unsigned slot;
	uint32_t dev;		/* TW_REQLAT_DEV(major, minor) */
};

/* A sync makes at most this many changes: every slot taken, every slot
 * given. */
#define TW_REQSLOTS_MAX_CHANGES (2 * TW_REQLAT_MAX_DEVICES)

struct tw_reqslots {
	unsigned nslots;
	struct tw_reqlat_dev table[TW_REQLAT_DEV_ENTRIES];	/* as the program sees it */
	uint8_t use[TW_REQLAT_MAX_DEVICES];			/* enum in reqslots.c */
	unsigned entry[TW_REQLAT_MAX_DEVICES];			/* a used slot's entry */
	uint64_t gen[TW_REQLAT_MAX_DEVICES];
	uint64_t next_gen;
};

/* nslots: 1 to TW_REQLAT_MAX_DEVICES. TW_OK or TW_E_INVAL. */
int tw_reqslots_init(struct tw_reqslots *s, unsigned nslots);

/* Bring the slots to want[n] (sorted by major and minor, unique; others are
 * TW_E_INVAL and change nothing). The changes to make in the program, in
 * order, go into changes[TW_REQSLOTS_MAX_CHANGES]; *unslotted counts the
 * devices wanted that found no slot or no table entry. */
int tw_reqslots_sync(struct tw_reqslots *s, const struct tw_reqlat_want *want, size_t n,
    struct tw_reqslot_change *changes, size_t *nchanges, size_t *unslotted);

/* The slot of a device, or -1; *gen: the number of its giving. */
int tw_reqslots_find(const struct tw_reqslots *s, uint32_t major, uint32_t minor,
    uint64_t *gen);

#endif
