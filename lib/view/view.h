/* SPDX-License-Identifier: ISC */
/* The view: every figure TUNEWATCH-MIB publishes, in the MIB's own
 * numbering and units, built from the window and the newest sample.
 *
 * tunewatchd serves its MIB from a view; a plugin reading the MIB over
 * SNMP fills a view from the answers; a plugin in --local mode builds one
 * from two samples of its own. The checks read only views, so the three
 * paths agree by construction.
 *
 * Each group keeps its numbers in col[], indexed by the MIB's column or
 * scalar number (mib/tunewatch_oids.h), and says in `has` (bit N for column
 * N) which are present: a figure that cannot be given is absent, never a
 * made-up zero.
 *
 * Every string of a view is shown (util/escape.h): the names in it were
 * escaped where they entered the sample, what is built around them is
 * tunewatch's own text, and each is copied in cut at a character's
 * boundary. So whatever reads a view (the MIB, a check's output, a trap)
 * gets valid UTF-8 without a control character. */
#ifndef TW_VIEW_H
#define TW_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "tunewatch_oids.h"


#define TW_VIEW_BIT(col) (UINT32_C(1) << (col))

#define TW_VIEW_AGENT_COLS (TW_OID_AGENT_REQLAT_LOST + 1)
#define TW_VIEW_BC_COLS (TW_OID_BC_RECLAIM_RATE + 1)
#define TW_VIEW_DISK_COLS (TW_OID_DISK_TYPE + 1)
#define TW_VIEW_POOL_COLS (TW_OID_DBLOCK_OWNER_UID + 1)
#define TW_VIEW_CHANGE_COLS (TW_OID_CHANGE_FINDING_ID + 1)

/* twChangeTable holds at most this many changes, the newest. */
#define TW_VIEW_CHANGES 32
#define TW_VIEW_SOCK_COLS (TW_OID_SOCKDROP_FULL_SHARE + 1)
#define TW_VIEW_PROBE_COLS (TW_OID_PROBE_ERRORS + 1)
#define TW_VIEW_CGROUP_COLS (TW_OID_CGROUP_ANON_FALL + 1)
#define TW_VIEW_REQLAT_COLS (TW_OID_REQLAT_TOTAL + 1)
#define TW_VIEW_REQHIST_COLS (TW_OID_REQHIST_COUNT + 1)

#define TW_VIEW_STR 128
/* A change's subject: "host", a disk, or a cgroup's path (a DisplayString
 * holds 255 characters, a cgroup path up to TW_CG_PATH_LEN - 1). */
#define TW_VIEW_SUBJECT 256

/* ---- Findings (twFindings): kept by lib/finding/tracker.c, which hands
 * them to the build (struct tw_view_finding_in). */
#define TW_VIEW_FINDSUM_COLS (TW_OID_FINDING_LIMIT + 1)
#define TW_VIEW_FINDING_COLS (TW_OID_FINDING_OWNER_UID + 1)
#define TW_VIEW_FINDING_STR 256		/* a DisplayString's 255 and a NUL */

struct tw_view_findsum {
	uint32_t has;		/* none while findings are off */
	uint64_t col[TW_VIEW_FINDSUM_COLS];
};

struct tw_view_finding {
	uint32_t index;		/* twFindingIndex: kept while the finding lasts */
	uint32_t has;
	uint64_t col[TW_VIEW_FINDING_COLS];
	char id[20];
	char symptom[32];
	char subject[TW_VIEW_FINDING_STR];	/* a cgroup's is its whole path */
	char evidence[TW_VIEW_FINDING_STR];
	char tunable[TW_VIEW_FINDING_STR];
	char current[TW_VIEW_STR];
	char suggested[TW_VIEW_STR];
	char apply[TW_VIEW_FINDING_STR];
	char persist[TW_VIEW_FINDING_STR];
	char documentation[TW_VIEW_FINDING_STR];
	char owner[TW_VIEW_FINDING_STR];	/* "" but for a cgroup */
};

struct tw_view_agent {
	uint32_t has;
	uint64_t col[TW_VIEW_AGENT_COLS];
	char version[32];
	char system[TW_VIEW_STR];
	char reqlat_state[24];		/* twAgentReqLatState */
	char reqlat_reason[192];
	uint64_t newest_ms;	/* monotonic stamp of the newest sample, for the
				 * sample's age at the time of a request */
};

struct tw_view_bufcache {
	uint32_t has;
	uint64_t col[TW_VIEW_BC_COLS];
	char method[TW_VIEW_STR];
};

struct tw_view_disk {
	uint32_t major;
	uint32_t minor;
	uint32_t has;
	uint64_t col[TW_VIEW_DISK_COLS];
	char name[32];			/* shown, as the sample has it */
	char scheduler[32];
	char alias[TW_VIEW_STR];
	char stable_id[TW_VIEW_STR];
	char type[16];
};

struct tw_view_pool {
	uint32_t cls;
	uint32_t instance;
	uint32_t has;
	uint64_t col[TW_VIEW_POOL_COLS];
	char name[48];
	char tunable[64];
	char event[TW_VIEW_STR];
};

struct tw_view_tunable {
	uint32_t index;		/* 1-based, tw_sysctl_id + 1 */
	char name[64];
	char value[TW_VIEW_STR];
};

/* One row of twChangeTable (lib/change/ keeps the history). */
struct tw_view_change {
	uint32_t index;		/* counts down from UINT32_MAX: newest first */
	uint32_t has;
	uint64_t col[TW_VIEW_CHANGE_COLS];
	char tunable[64];
	char subject[TW_VIEW_SUBJECT];
	char old_value[TW_VIEW_STR];
	char new_value[TW_VIEW_STR];
	char figure[64];
	char unit[16];
	char finding_id[20];	/* "tw-" and 12 hex digits; "" for none */
};

/* A socket that dropped (twSocketDropTable), built in view/sockview.c. */
struct tw_view_sock {
	uint32_t proto;		/* enum tw_udp_proto */
	uint32_t inode;
	uint32_t has;
	uint64_t col[TW_VIEW_SOCK_COLS];
	char proto_name[16];
	char address[48];	/* INET6_ADDRSTRLEN */
	char command[64];	/* a comm's 15 bytes, shown: up to 60 */
};

/* A probed device (twProbeTable), from the probe set's rows. */
struct tw_view_probe {
	uint32_t major;
	uint32_t minor;
	uint32_t has;
	uint64_t col[TW_VIEW_PROBE_COLS];
	char device[32];
	char state[24];
	char reason[TW_VIEW_STR];
};

/* A cgroup (twCgroupTable). The path and the unit hold a whole
 * DisplayString each: a unit is named whole or not at all, because the
 * checks hand it back to systemctl (advice/ticket_unit.c). */
struct tw_view_cgroup {
	uint32_t index;
	uint32_t has;
	uint64_t col[TW_VIEW_CGROUP_COLS];
	char path[256];
	char unit[256];
	char limit_name[32];
};

/* One disk's reads or writes timed by the request-latency source
 * (twReqLatTable), built in view/viewreqlat.c. */
struct tw_view_reqlat {
	uint32_t major;
	uint32_t minor;
	uint32_t dir;		/* TW_REQLAT_DIR_READ or _WRITE */
	uint32_t has;
	uint64_t col[TW_VIEW_REQLAT_COLS];
	char device[32];
};

/* One bound of its histogram (twReqHistTable): col[TW_OID_REQHIST_COUNT]
 * requests took less than bound microseconds. */
struct tw_view_reqhist {
	uint32_t major;
	uint32_t minor;
	uint32_t dir;
	uint32_t bound;		/* TW_REQHIST_INF: +Inf */
	uint32_t has;
	uint64_t col[TW_VIEW_REQHIST_COLS];
};

struct tw_view {
	struct tw_view_agent agent;
	struct tw_view_bufcache bc;
	struct tw_view_disk *disks;	/* sorted by (major, minor) */
	size_t ndisks;
	size_t disks_cap;
	struct tw_view_pool *pools;	/* sorted by (class, instance) */
	size_t npools;
	size_t pools_cap;
	struct tw_view_tunable *tunables;	/* sorted by index */
	size_t ntunables;
	size_t tunables_cap;
	struct tw_view_change changes[TW_VIEW_CHANGES];	/* sorted by index */
	size_t nchanges;
	struct tw_view_sock *socks;	/* sorted by (proto, inode) */
	size_t nsocks;
	size_t socks_cap;
	struct tw_view_probe *probes;	/* sorted by (major, minor) */
	size_t nprobes;
	size_t probes_cap;
	/* Findings: the tracker's, judged from this view's figures. */
	struct tw_view_findsum findsum;
	struct tw_view_finding *findings;	/* sorted by index */
	size_t nfindings;
	size_t findings_cap;
	struct tw_view_cgroup *cgroups;	/* sorted by index */
	size_t ncgroups;
	size_t cgroups_cap;
	struct tw_view_reqlat *reqlats;	/* sorted by (major, minor, dir) */
	size_t nreqlats;
	size_t reqlats_cap;
	struct tw_view_reqhist *reqhists;	/* sorted by (major, minor, dir, bound) */
	size_t nreqhists;
	size_t reqhists_cap;
};

/* What the agent knows of itself. */
struct tw_view_settings {
	const char *version;
	const char *system;	/* "Linux 6.1.0-18-amd64" */
	unsigned interval_s;
	unsigned window_s;
};

void tw_view_init(struct tw_view *v);
void tw_view_free(struct tw_view *v);

/* Make room for n rows (for views filled by other means, such as SNMP).
 * Making room for disks retires their records (view/record_disk.h) until
 * they are decoded again. */
int tw_view_reserve_disks(struct tw_view *v, size_t n);
int tw_view_reserve_pools(struct tw_view *v, size_t n);
int tw_view_reserve_tunables(struct tw_view *v, size_t n);
int tw_view_reserve_socks(struct tw_view *v, size_t n);
int tw_view_reserve_probes(struct tw_view *v, size_t n);
int tw_view_reserve_findings(struct tw_view *v, size_t n);
int tw_view_reserve_cgroups(struct tw_view *v, size_t n);
int tw_view_reserve_reqlats(struct tw_view *v, size_t n);
int tw_view_reserve_reqhists(struct tw_view *v, size_t n);

/* The bounds of twReqHistTable's ladder, in increasing order, the last
 * TW_REQHIST_INF; *n gets how many. */
const uint32_t *tw_view_reqhist_bounds(size_t *n);

/* Look a tunable's value up by name; NULL when the view does not have it. */
const char *tw_view_tunable(const struct tw_view *v, const char *name);

/* A row by its index, in the order the view keeps its table in (a binary
 * search); NULL when the view has no such row. */
const struct tw_view_disk *tw_view_find_disk(const struct tw_view *v, uint32_t major,
    uint32_t minor);
const struct tw_view_pool *tw_view_find_pool(const struct tw_view *v, uint32_t cls,
    uint32_t instance);
const struct tw_view_cgroup *tw_view_find_cgroup(const struct tw_view *v, uint32_t index);

/* Whether a row (&v->agent, &v->bc, a disk or a pool) has column col. */
#define tw_view_has(row, col) (((row)->has & TW_VIEW_BIT(col)) != 0)

#endif
