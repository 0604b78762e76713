/* SPDX-License-Identifier: ISC */
/* The "tune:" lines: for a symptom, the rule to show and its current value.
 * The rules themselves are lib/advice's; this chooses which to print, with
 * -v and --os, and where current values come from. */
#ifndef TW_PLUGIN_ADVISE_H
#define TW_PLUGIN_ADVISE_H

#include <stdint.h>

#include "advice/advice.h"
#include "advice/evidence.h"
#include "checkio/output.h"
#include "view/record_disk.h"
#include "view/view.h"

struct tw_plugin;

/* Append the "tune:" advice for symptom sym to out: the first rule that
 * names a tunable on p->os and has something to change (with -v, every
 * rule, followed by the other systems' names), with current values from
 * lookup (NULL: the tunable table, see tunables.h) and detail as the
 * evidence. A per-device tunable is named /sys/block/<disk>/queue/...
 * when disk is given. Returns how many lines were added.
 *
 * Each "tune:" line is followed by its ticket (lib/advice/ticket.h):
 *   "  finding: tw-...", "  apply: ...", "  persist: ..."
 * indented, so that a reader (or contrib/notify) takes them as the
 * tune: line's own. The finding's subject is subject ("cache", a pool
 * class), or the disk's stable id for a per-device tunable and when
 * subject is NULL. */
int tw_plugin_advise(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    enum tw_symptom sym, tw_advice_lookup_fn lookup, void *ctx,
    const struct tw_view_disk *disk, const char *subject, const char *detail);

/* tw_plugin_advise for a pool's symptom with the host's values, a queue
 * sized from what it dropped (shortfall: lib/advice/shortfall.h). */
int tw_plugin_advise_pool(const struct tw_plugin *p, const struct tw_view *v,
    struct tw_out *out, enum tw_symptom sym, uint64_t shortfall, const char *subject,
    const char *detail);

/* The advice for what a verdict found: a "tune:" line for each finding,
 * its figures as the evidence, or one "no tunable: ..." line when no
 * precondition holds, which has a finding id too (its symptom, subject
 * and no tunable: a ticket for a person). Returns how many lines were
 * added. */
int tw_plugin_verdict(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_verdict *verdict, tw_advice_lookup_fn lookup, void *ctx,
    const struct tw_view_disk *disk, const char *subject);

/* Current values for advice about one device: its queue attributes
 * ("queue/nr_requests") from its disk row, "kernel.osrelease" from the
 * agent's system, anything else from the tunable table. Set one up with tw_device_lookup_init(). */
struct tw_device_lookup {
	const struct tw_plugin *p;
	const struct tw_view *v;
	struct tw_disk_record rec;		/* the device's, decoded once */
	const struct tw_disk_record *d;	/* &rec, or NULL: no device */
	char buf[32];
};

void tw_device_lookup_init(struct tw_device_lookup *c, const struct tw_plugin *p,
    const struct tw_view *v, const struct tw_view_disk *d);

const char *tw_plugin_device_lookup(void *ctx, const char *name);

#endif
