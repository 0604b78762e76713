/* SPDX-License-Identifier: ISC */
/* Judgement: whether an item of a view is bad, how bad, and which
 * evidence applies. The three checks and tunewatchd's findings both call
 * this, so a check and the agent cannot disagree about a figure.
 *
 * A judgement is a figure against a warning and a critical threshold in
 * the Monitoring Plugins range syntax (threshold/range.h), with the checks'
 * defaults; the evidence is lib/advice/evidence.c's verdict on the
 * figures behind the item. What is printed, and how, stays the caller's. */
#ifndef TW_FINDING_JUDGE_H
#define TW_FINDING_JUDGE_H

#include <stddef.h>

#include "advice/advice_cgroup.h"
#include "advice/evidence.h"
#include "advice/ticket.h"
#include "finding/finding.h"
#include "figures/cache_record.h"
#include "figures/cgroup_record.h"
#include "figures/socket_record.h"
#include "figures/pool_record.h"
#include "threshold/state.h"
#include "threshold/threshold.h"
#include "sample/poolclass.h"
#include "view/record_disk.h"
#include "view/record_probe.h"
#include "view/view.h"

/* The checks' defaults (their --help says the same). A state other than
 * OK must mean that something hurts: data is lost (a pool's failures),
 * pages are read back (refaults), requests wait (latency). A low read hit
 * ratio alone hurts no one (a one-pass read of a tree, a backup, has one
 * of 30-40 %, with no page read twice), so check_bufcache's -w and -c have
 * no default; the host's refaults are judged instead. */
#define TW_JUDGE_REFAULT_WARN "100"	/* check_bufcache --refault-warning, pages/s */
#define TW_JUDGE_REFAULT_CRIT "1000"	/* --refault-critical */
#define TW_JUDGE_POOL_WARN "0"		/* check_dblock -w: any failure */
#define TW_JUDGE_READ_WARN "20"		/* check_disklatency -w, r_await ms */
#define TW_JUDGE_READ_CRIT "50"
#define TW_JUDGE_WRITE_WARN "50"	/* --write-warning, w_await ms */
#define TW_JUDGE_WRITE_CRIT "200"
#define TW_JUDGE_PROBE_PERCENTILE 90	/* check_disklatency --probe --percentile */
#define TW_JUDGE_REQLAT_PERCENTILE 99	/* requestPercentile, of every request */
#define TW_JUDGE_CGROUP_REFAULT_WARN "100"	/* check_bufcache --cgroup, refaults/s */
#define TW_JUDGE_CGROUP_REFAULT_CRIT "1000"

/* Every threshold the checks apply. An unset one never alerts. */
struct tw_judge_config {
	struct tw_threshold hit_warn, hit_crit;		/* read hit ratio, % */
	struct tw_threshold refault_warn, refault_crit;	/* refaults/s */
	struct tw_threshold psi_warn, psi_crit;		/* memory pressure, % */
	struct tw_threshold pool_warn, pool_crit;	/* failures in the window */
	struct tw_threshold sock_warn, sock_crit;	/* a socket's drops in the window */
	struct tw_threshold cg_refault_warn, cg_refault_crit;	/* a cgroup's refaults/s */
	struct tw_threshold cg_psi_warn, cg_psi_crit;	/* a cgroup's memory pressure, % */
	struct tw_threshold read_warn, read_crit;	/* r_await, ms */
	struct tw_threshold write_warn, write_crit;	/* w_await, ms */
	struct tw_threshold queue_warn, queue_crit;	/* aqu-sz */
	struct tw_threshold util_warn, util_crit;	/* %util */
	struct tw_threshold probe_warn, probe_crit;	/* a probe percentile, ms */
	unsigned probe_percentile;	/* 50, 90 or 99 */
	/* A percentile of every request's service time, ms (twReqLatTable):
	 * reads against the first pair, writes against the second; unset by
	 * default (a site's objective, judge_reqlat.h). */
	struct tw_threshold reqlat_warn, reqlat_crit;
	struct tw_threshold reqlat_write_warn, reqlat_write_crit;
	unsigned reqlat_percentile;	/* 50, 90 or 99 */
	double min_ops;		/* latency judged from this many requests/s */
};

/* The checks' defaults: the host's refaults 100 and 1000 a second, pool
 * failures 0, r_await 20 and 50 ms, w_await 50 and 200 ms, a cgroup's
 * refaults 100 and 1000; the rest unset (the hit ratio and a percentile of
 * every request among them). */
void tw_judge_defaults(struct tw_judge_config *c);

/* ---- The buffer cache ------------------------------------------------ */

struct tw_cache_judgement {
	/* OK when the figure is absent; UNKNOWN when a threshold was set on
	 * a figure the view lacks (refaults, pressure). refaults judges the
	 * host's own (tw_evidence_host_refaults). readahead and dirty have
	 * no threshold of their own: WARNING when the figures show their
	 * precondition (a small read-ahead window that sequential reads
	 * fill; writers throttled at the dirty limit while the disks have
	 * room, evidence.h), which is harm. */
	enum tw_state hit, refaults, pressure, readahead, dirty, worst;
	int have_hit, have_refaults, have_psi;
	double host_refaults;			/* what refaults judged */
	const struct tw_view_disk *disk;	/* where read-ahead matters, or NULL */
	const struct tw_view_disk *writer;	/* the disk that took the writes, or NULL */
	/* What the evidence reads (tw_judge_cache_evidence): the cache's
	 * record judged and the two disks' records, held here so that the
	 * judgement outlives the caller's copy. */
	struct tw_cache_record bc;
	struct tw_disk_record disk_rec, writer_rec;
	enum tw_os os;
	unsigned window_s;
};

/* Judge the cache whose figures are bc; v gives the disks that read and
 * wrote (read-ahead, the dirty limit). */
void tw_judge_cache(const struct tw_judge_config *c, const struct tw_cache_record *bc,
    const struct tw_view *v, unsigned window_s, enum tw_os os, struct tw_cache_judgement *j);

/* The evidence of j's cache: it points into j, so it lasts as long as j
 * does. */
void tw_judge_cache_evidence(const struct tw_cache_judgement *j, struct tw_cache_evidence *e);

/* The verdicts of a judged cache: reads (hit ratio, refaults or
 * read-ahead bad; its read-ahead advice is about j->disk), pressure, and
 * writers at the dirty limit (dirty_shortfall sizes its advice). Each
 * has_* says whether that verdict applies. */
struct tw_cache_verdicts {
	int has_reads, has_pressure, has_dirty;
	struct tw_verdict reads, pressure, dirty;
	uint64_t dirty_shortfall;
};

void tw_judge_cache_verdicts(const struct tw_cache_judgement *j, struct tw_cache_verdicts *out);

/* ---- Message-buffer pools -------------------------------------------- */

/* The state of one pool's failures in the window; *failures gets them
 * (twDblockRecentFailures). A pool in memory pressure in the window
 * (twDblockRecentPressureTime) that did not enter it there is judged as
 * one failure: the episode under way, which began before the window.
 * Returns 0 (and OK) when the pool has no failure count to judge. */
int tw_judge_pool(const struct tw_judge_config *c, const struct tw_pool_record *f,
    enum tw_state *st, unsigned long long *failures);

/* As tw_judge_pool, for pool f of view v, with what the class needs of
 * its neighbours to hurt: a CPU whose receive softirq ran out of budget
 * (time_squeeze) but whose backlog dropped nothing in the window lost
 * nothing to it, so its budget pool is OK (*failures still says how
 * often). The lab squeezed a CPU 197 times a second (netdev_budget 8)
 * with no datagram lost and bursts no slower than at 300. */
int tw_judge_pool_of(const struct tw_judge_config *c, const struct tw_view *v,
    const struct tw_pool_record *f, enum tw_state *st, unsigned long long *failures);

/* One pool of a class as tw_judge_pool_class judged it. */
struct tw_pool_judged {
	const struct tw_pool_record *rec;
	enum tw_state state;
	unsigned long long failures;
	/* A budget pool that ran out with its backlog losing nothing: it
	 * counts among the judged, not among the failures. */
	int squeezed;
};

/* A class's pools taken together, as check_dblock and tunewatchd's
 * findings both count them: a per-CPU class is one subject (its tunable
 * is host-wide), named by its first four failing CPUs. */
struct tw_pool_judgement {
	size_t judged;			/* pools with a failure count */
	unsigned long long failures;	/* theirs, summed */
	unsigned long long counted;	/* the same less the squeezed pools' */
	enum tw_state worst;		/* of the failing pools; OK: none */
	size_t failing;			/* pools over a threshold */
	unsigned long long failing_sum;	/* their failures */
	/* What sizes the class's tunable: each CPU has a queue of its own,
	 * so a per-CPU class's worst CPU; any other class's failing_sum. */
	unsigned long long shortfall;
	char who[256];			/* "cpu1, cpu3 and others"; "" */
	/* The time every pool of the class (kept or not) spent in memory
	 * pressure in the window; NAN when none has the figure. */
	double pressure_ms;
};

typedef int (*tw_pool_keep_fn)(void *ctx, const struct tw_pool_record *f);
typedef void (*tw_pool_judged_fn)(void *ctx, const struct tw_pool_judged *pj);

/* Judge every pool of class cl in v (through tw_judge_pool_of) into *j.
 * keep (NULL: every pool) leaves pools out; each (may be NULL) is handed
 * every judged pool in the view's order, for a check's own lines. */
void tw_judge_pool_class(const struct tw_judge_config *c, const struct tw_view *v,
    const struct tw_pool_class *cl, tw_pool_keep_fn keep, tw_pool_judged_fn each, void *ctx,
    struct tw_pool_judgement *j);

/* The evidence of a class's failing pools in its own words: "cpu1
 * dropped 152 packets in the last 60 s"; for a class with a time in
 * memory pressure, that time too: "TCP entered memory pressure 2 times
 * and was in it 9.8 s of the last 10 s". */
void tw_judge_pool_evidence(const struct tw_pool_judgement *j, const struct tw_pool_class *cl,
    unsigned window_s, char *out, size_t len);

/* Compaction failures: advice only when large free blocks outside DMA are
 * gone and tasks stall. Returns TW_OK with a verdict, or an error. */
int tw_judge_highorder(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out);

/* The tcp listen queue's overflows, when every listener seen full in the
 * window was one user's (twDblockOwnerUid, sockets/listenwatch.h): no
 * tunable, that user's own backlog (tw_evidence_listen_user); TW_E_ABSENT
 * otherwise, and the pool's advice stands. */
int tw_judge_tcp_listen(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out);

/* Pruned receive queues: tcp_rmem only when TCP was not under memory
 * pressure in the window (the tcp memory pool's failures). */
int tw_judge_tcp_prune(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out);

/* ---- UDP sockets (twSocketDropTable) --------------------------------- */

/* The state of one socket's drops in the window against warn and crit
 * (check_dblock's -w/-c; tunewatchd's socketDrop* tokens); *recent gets
 * them. Returns 0 (and OK) when the row has no drop count. */
int tw_judge_socket(const struct tw_threshold *warn, const struct tw_threshold *crit,
    const struct tw_socket_record *s, enum tw_state *st, unsigned long long *recent);

/* The socket as a finding's subject: "udp 0.0.0.0:514 inode 12345", its
 * whole identity (advice/ticket.h), so that two sockets on one port are
 * two findings; no command: the id must not change when the owner is not
 * known in some sample. */
void tw_judge_socket_subject(const struct tw_socket_record *s, char *out, size_t len);

/* A user's sockets (util/uid.h) are judged as one: all of theirs that
 * dropped in the window, rows or not, against the socket thresholds, one
 * finding "sockets of user 65534" naming the worst row. No host-wide
 * sysctl: the user's own SO_RCVBUF is the knob (tw_evidence_user_sockets).
 * tunewatchd's finding and check_dblock's lines are both made here. */
struct tw_user_sockets {
	int64_t uid;
	enum tw_state state;
	unsigned long long recent;	/* their drops in the window */
	unsigned long long sockets;	/* their sockets that dropped in it */
	char subject[64];
	struct tw_verdict verdict;
};

/* Judge user uid's sockets of v; 0 when v has no row of theirs with the
 * window's figures (then *out says nothing). */
int tw_judge_user_sockets(const struct tw_view *v, int64_t uid, const struct tw_threshold *warn,
    const struct tw_threshold *crit, unsigned window_s, struct tw_user_sockets *out);

/* The verdict on socket s of v that dropped recent datagrams in window_s
 * (tw_evidence_socket), beside v's udp memory pool; lookup (may be NULL)
 * gives net.core.rmem_default, which the row does not carry. Returns
 * TW_OK or its error. */
int tw_judge_socket_verdict(const struct tw_view *v, const struct tw_socket_record *s,
    unsigned long long recent, unsigned window_s, tw_advice_lookup_fn lookup, void *ctx,
    struct tw_verdict *out);

/* The verdict on the host's "udp receive buffer" pool, which failed
 * failures times in window_s: rmem_max and rmem_default, unless every
 * socket of v that dropped in the window has a known buffer below
 * rmem_max, or none did and v's change history holds a change of
 * rmem_default or rmem_max whose window after has not closed
 * (tw_evidence_udp_rcvbuf). check_dblock and tunewatchd both
 * ask this, so that neither names a knob the other says will not help. */
int tw_judge_udp_rcvbuf(const struct tw_view *v, unsigned long long failures,
    unsigned window_s, struct tw_verdict *out);

/* ---- Probed devices (twProbeTable) ------------------------------------ */

/* A probe is judged on its record (figures/probe_record.h, view/record_probe.h). */

struct tw_probe_judgement {
	double ms;		/* the percentile judged */
	enum tw_state latency;	/* ms against the thresholds */
	enum tw_state worst;	/* CRITICAL too on timeouts or read errors */
};

/* Judge probe pr's percentile (50, 90 or 99) against warn and crit.
 * Returns 0 when it has no figure to judge (not probing, idle-skipped, too
 * few reads), 1 when judged. */
int tw_judge_probe(const struct tw_threshold *warn, const struct tw_threshold *crit,
    const struct tw_probe_record *pr, unsigned percentile, struct tw_probe_judgement *j);

/* The disk of v probed by pr, or NULL (the disk filter hides it). */
const struct tw_view_disk *tw_judge_probe_disk(const struct tw_view *v,
    const struct tw_view_probe *pr);

/* The verdict on slow seeks of ms at percentile on pr's device d (or
 * NULL): tw_evidence_probe_seek. Returns TW_OK or its error. */
int tw_judge_probe_verdict(const struct tw_probe_record *pr, const struct tw_disk_record *d,
    unsigned window_s, unsigned percentile, double ms, struct tw_verdict *out);

/* ---- Cgroups (twCgroupTable) ------------------------------------------ */

/* A cgroup's refaults/s against fwarn and fcrit, and its memory pressure
 * against pwarn and pcrit, where it has them: the worst state. */
enum tw_state tw_judge_cgroup(const struct tw_threshold *fwarn, const struct tw_threshold *fcrit,
    const struct tw_threshold *pwarn, const struct tw_threshold *pcrit,
    const struct tw_cgroup_record *c);

/* The unit whose own cgroup is at path, a system unit's or a user's, told
 * by the path alone (collect/cgroupowner.h), or NULL for a plain cgroup. */
const char *tw_judge_cgroup_unit(const char *path);

/* The name of the cgroup at path as the check prints it and labels its
 * perfdata: a system unit, "web.service of user 1000", or the path
 * (tw_cgroup_owner_name). */
void tw_judge_cgroup_name(const char *path, char *buf, size_t len);

/* What lib/advice/advice_cgroup.c judges of c: c itself (which must
 * outlive e) and, from v, the host's memory. */
void tw_judge_cgroup_evidence(const struct tw_view *v, const struct tw_cgroup_record *c,
    unsigned window_s, struct tw_advice_cgroup_evidence *e);

/* A cgroup's finding, the same for tunewatchd's twFindingTable and
 * check_bufcache --cgroup's "finding:" lines (ticket_cgroup.c): symptom
 * (CGROUP_CACHE_BOUNDED or LOW_HIT_REFAULTS), subject (the cgroup's
 * directory), owner, the limit to raise, id, apply and persist, and the
 * documentation. Its severity and evidence are the caller's.
 *
 * Who owns the cgroup decides the lines (collect/cgroupowner.h):
 *   a system unit's own: systemctl set-property --runtime, and a drop-in
 *     in /etc/systemd/system (none for a scope);
 *   a unit of user UID's manager: on cgroup v2 systemctl --user -M UID@,
 *     and the user's own drop-in; on v1, where the user's manager has no
 *     memory controller, none, with why;
 *   a plain cgroup: the write to its limit file (none, with why, for a
 *     path with bytes unsafe in a command), and nothing persists it.
 * owner says which, in words, for the finding's "owner:" line. */
void tw_judge_cgroup_finding(const struct tw_advice_cgroup_evidence *e, struct tw_finding *out);

/* ---- Disks ----------------------------------------------------------- */

/* A disk is judged on its record (figures/disk_record.h), decoded from its row
 * once (view/record_disk.h) for the judgement, its verdicts and its advice. */

struct tw_disk_judgement {
	enum tw_state read, write, queue, util, worst;
	double r_await, w_await, queue_depth, util_pct;	/* ms, ms, requests, % */
	double w_judged;	/* the write latency judged (tw_judge_write_bound) */
	int writers_held;	/* at the dirty limit in the window (tw_judge_disk_row) */
};

/* Writers held at the dirty limit this percent of the window wait on the disk. */
#define TW_JUDGE_WRITERS_HELD 10.0

/* What of a disk's write latency is waited on. A buffered write returns
 * once its data is in the page cache, so writeback queued behind itself
 * holds no writer back (a healthy 1 GiB copy gave w_await 55 ms on this
 * machine's vda). Writers wait on the disk when the dirty limit holds them
 * (dirty_limited, percent of the window, at TW_JUDGE_WRITERS_HELD or
 * more), and one that waits on its own writes (fsync, O_DSYNC) waits at
 * least the device's own time per request (util over ops). The bound: none
 * (INFINITY) where writers are held or dirty_limited is unknown
 * (TW_FIG_NONE), else the device's time per request. A commit behind a
 * backup's writeback on a fast device is not told apart: unjudged. */
double tw_judge_write_bound(const struct tw_disk_record *d, double dirty_limited);

/* The host's twBcDirtyLimited as the view has it, or TW_FIG_NONE. */
double tw_judge_dirty_limited(const struct tw_view *v);

/* Judge one disk, its write latency up to write_bound. Returns 0 when it
 * has no figures yet (first seen in the newest sample), 1 when judged. */
int tw_judge_disk(const struct tw_judge_config *c, const struct tw_disk_record *d,
    double write_bound, struct tw_disk_judgement *j);

/* The verdicts of a judged disk that is not OK: reads (slow reads or a
 * deep queue) and writes, a full queue counted once. util_only is set when
 * only utilisation is over its threshold: no tunable adds capacity. */
struct tw_disk_verdicts {
	int has_read, has_write, util_only;
	struct tw_verdict read, write;
};

void tw_judge_disk_verdicts(const struct tw_disk_record *d, const struct tw_disk_judgement *j,
    unsigned window_s, struct tw_disk_verdicts *out);

#endif
