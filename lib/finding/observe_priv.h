/* SPDX-License-Identifier: ISC */
/* The observers of each group that tw_observe (observe.c) calls; what
 * they share, a verdict's findings, is observe_verdict.h. */
#ifndef TW_FINDING_OBSERVE_PRIV_H
#define TW_FINDING_OBSERVE_PRIV_H

#include "finding/observe.h"

/* The findings of sockets (observe_socket.c): a service's each its own, a
 * user's one about that user. */
int tw_observe_sockets(const struct tw_judge_config *c, const struct tw_view *v,
    unsigned window_s, enum tw_os os, tw_observe_fn fn, void *ctx);

/* The findings of disks (observe_disk.c): probed devices' seeks, the
 * distribution's slow tails, then each disk's r_await and w_await. */
int tw_observe_disks(const struct tw_judge_config *c, const struct tw_view *v,
    unsigned window_s, enum tw_os os, tw_observe_fn fn, void *ctx);

#endif
