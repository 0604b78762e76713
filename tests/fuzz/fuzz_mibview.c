/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_mv_get and tw_mv_next (lib/view/mibview.c) on
 * fuzzed OIDs over a small fixed view.
 *
 * The view's instances are listed and sorted here, from the view's own
 * data, without mibview.c's search (only its tw_oid_cmp, which
 * check_mibview tests on its own); every GETNEXT must then give exactly the first
 * listed instance after the request (at or after it when inclusive), and
 * so be strictly greater, or END past the last one; every GET must find an
 * OID exactly when it is listed, with the view's value, and otherwise say
 * noSuchObject or noSuchInstance as SNMP defines them. A short walk goes on
 * from each answer.
 *
 * Input: a flags byte (bit 0 inclusive, bits 1-2 the request time), then
 * the OID, one sub-identifier a byte: 0-239 as they are, 240-254 for
 * 2^32-1 down to 2^32-15, and 255 followed by four little-endian bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "view/mibview.h"
#include "tunewatch_oids.h"
#include "figures/cache_record.h"
#include "view/view.h"

#define REQ_MAX 40		/* longer requests are cut */
#define REF_MAX 512
#define NEWEST_MS 1000

struct ref {
	uint32_t oid[TW_MV_OID_MAX];
	size_t len;
	int is_str;
	const char *str;
	uint64_t num;
	int is_age;		/* twAgentSampleAge: computed at request time */
};

static struct tw_view view;
static struct tw_view_disk disks[5];
static struct tw_view_pool pools[3];
static struct tw_view_tunable tunables[3];
static struct tw_view_probe probe;
static struct tw_view_finding findings[2];
static struct tw_view_cgroup cgroups[3];
static struct tw_view_reqlat reqlats[2];
static struct tw_view_reqhist reqhists[3];
static struct ref refs[REF_MAX];
static size_t nrefs;

static int
ref_cmp(const void *x, const void *y)
{
	const struct ref *a = x, *b = y;

	return tw_oid_cmp(a->oid, a->len, b->oid, b->len);
}

static struct ref *
add_ref(size_t len, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e)
{
	struct ref *r;

	FUZZ_ASSERT(nrefs < REF_MAX);
	r = &refs[nrefs++];
	memset(r, 0, sizeof(*r));
	r->oid[0] = a;
	r->oid[1] = b;
	r->oid[2] = c;
	r->oid[3] = d;
	r->oid[4] = e;
	r->len = len;
	return r;
}

/* A cell of a table whose index has more than two arcs. */
static struct ref *
add_ref_index(uint32_t table, uint32_t col, const uint32_t *idx, size_t n)
{
	struct ref *r = add_ref(3 + n, table, 1, col, 0, 0);

	memcpy(r->oid + 3, idx, n * sizeof(*idx));
	return r;
}

static void
ref_str(struct ref *r, const char *s)
{
	r->is_str = 1;
	r->str = s;
}

/* Rows with some cells missing, an empty row, and indexes at 0 and at
 * 2^32-1, so that walks cross gaps and the ends of every range. */
static void
build_view(void)
{
	unsigned col;
	size_t i;

	memset(&view, 0, sizeof(view));
	view.agent.has = TW_VIEW_BIT(TW_OID_AGENT_VERSION) | TW_VIEW_BIT(TW_OID_AGENT_INTERVAL) |
	    TW_VIEW_BIT(TW_OID_AGENT_SAMPLE_AGE) | TW_VIEW_BIT(TW_OID_AGENT_SYSTEM) |
	    TW_VIEW_BIT(TW_OID_AGENT_SAMPLES) | TW_VIEW_BIT(TW_OID_AGENT_CGROUPS_WALKED) |
	    TW_VIEW_BIT(TW_OID_AGENT_CGROUPS_CUT_MANY);
	view.agent.col[TW_OID_AGENT_CGROUPS_WALKED] = 8192;
	view.agent.col[TW_OID_AGENT_CGROUPS_CUT_MANY] = UINT32_MAX;
	strcpy(view.agent.version, "0.1.0");
	strcpy(view.agent.system, "Linux 6.1.0-18-amd64");
	view.agent.col[TW_OID_AGENT_INTERVAL] = 5;
	view.agent.col[TW_OID_AGENT_SAMPLES] = UINT64_MAX;
	view.agent.newest_ms = NEWEST_MS;
	view.bc.has = TW_VIEW_BIT(TW_OID_BC_MEM_TOTAL) | TW_VIEW_BIT(TW_OID_BC_HIT_RATIO_METHOD) |
	    TW_VIEW_BIT(TW_OID_BC_IO_PRESSURE);
	view.bc.col[TW_OID_BC_MEM_TOTAL] = UINT64_C(1) << 34;
	strcpy(view.bc.method, TW_HIT_RATIO_METHOD);
	view.bc.col[TW_OID_BC_IO_PRESSURE] = 12;

	pools[0].cls = 1;
	pools[0].instance = 0;
	pools[0].has = TW_VIEW_BIT(TW_OID_DBLOCK_NAME) | TW_VIEW_BIT(TW_OID_DBLOCK_SIZE);
	strcpy(pools[0].name, "cpu0 backlog");
	pools[0].col[TW_OID_DBLOCK_SIZE] = 1000;
	pools[1].cls = 9;
	pools[1].instance = 2;
	pools[1].has = TW_VIEW_BIT(TW_OID_DBLOCK_NAME) | TW_VIEW_BIT(TW_OID_DBLOCK_TUNABLE) |
	    TW_VIEW_BIT(TW_OID_DBLOCK_FAILURE_EVENT);
	strcpy(pools[1].name, "node0 Normal");
	strcpy(pools[1].tunable, "vm.min_free_kbytes");
	strcpy(pools[1].event, "a high-order allocation failed");
	pools[2].cls = 9;
	pools[2].instance = UINT32_MAX;
	pools[2].has = TW_VIEW_BIT(TW_OID_DBLOCK_FAILURES) |
	    TW_VIEW_BIT(TW_OID_DBLOCK_RECENT_PRESSURE_TIME);
	pools[2].col[TW_OID_DBLOCK_FAILURES] = 7;
	pools[2].col[TW_OID_DBLOCK_RECENT_PRESSURE_TIME] = 9800;
	view.pools = pools;
	view.npools = view.pools_cap = 3;

	disks[0].major = 0;
	disks[0].minor = 0;
	disks[0].has = TW_VIEW_BIT(TW_OID_DISK_NAME);
	strcpy(disks[0].name, "zero");
	disks[1].major = 8;
	disks[1].minor = 0;
	strcpy(disks[1].name, "sda");
	strcpy(disks[1].scheduler, "mq-deadline");
	strcpy(disks[1].alias, "vg0-root");
	strcpy(disks[1].stable_id, "naa.5000c500a1b2c3d4");
	strcpy(disks[1].type, "dm");
	for (col = TW_OID_DISK_NAME; col < TW_VIEW_DISK_COLS; col++) {
		disks[1].has |= TW_VIEW_BIT(col);
		disks[1].col[col] = 100 + col;
	}
	disks[2].major = 8;
	disks[2].minor = 16;	/* no cells at all */
	disks[3].major = 259;
	disks[3].minor = 0;
	disks[3].has = TW_VIEW_BIT(TW_OID_DISK_NAME) | TW_VIEW_BIT(TW_OID_DISK_ROTATIONAL);
	strcpy(disks[3].name, "nvme0n1");
	disks[4].major = UINT32_MAX;
	disks[4].minor = UINT32_MAX;
	disks[4].has = TW_VIEW_BIT(TW_OID_DISK_SCHEDULER) | TW_VIEW_BIT(TW_OID_DISK_READ_LATENCY);
	strcpy(disks[4].scheduler, "none");
	disks[4].col[TW_OID_DISK_READ_LATENCY] = 48000;
	view.disks = disks;
	view.ndisks = view.disks_cap = 5;

	tunables[0].index = 1;
	strcpy(tunables[0].name, "vm.dirty_ratio");
	strcpy(tunables[0].value, "20");
	tunables[1].index = 9;
	strcpy(tunables[1].name, "net.core.netdev_max_backlog");
	strcpy(tunables[1].value, "1000");
	tunables[2].index = 22;
	strcpy(tunables[2].name, "net.ipv4.tcp_max_syn_backlog");
	strcpy(tunables[2].value, "");
	view.tunables = tunables;
	view.ntunables = view.tunables_cap = 3;
	/* One change, its index at the top of the range (they count down). */
	view.changes[0].index = UINT32_MAX;
	view.changes[0].has = TW_VIEW_BIT(TW_OID_CHANGE_TUNABLE) | TW_VIEW_BIT(TW_OID_CHANGE_BEFORE);
	strcpy(view.changes[0].tunable, "vm.swappiness");
	view.changes[0].col[TW_OID_CHANGE_BEFORE] = 15200;
	view.nchanges = 1;

	/* twProbeTable, twObjects.8, past a gap: one row at the top index. */
	probe.major = probe.minor = UINT32_MAX;
	probe.has = TW_VIEW_BIT(TW_OID_PROBE_DEVICE) | TW_VIEW_BIT(TW_OID_PROBE_P50);
	strcpy(probe.device, "sdz");
	probe.col[TW_OID_PROBE_P50] = 8000;
	view.probes = &probe;
	view.nprobes = view.probes_cap = 1;

	/* twFindings' scalars, twFindingTable one level below them, and the
	 * scalars numbered after the table. */
	view.findsum.has = TW_VIEW_BIT(TW_OID_FINDING_COUNT) |
	    TW_VIEW_BIT(TW_OID_FINDING_CAPACITY) | TW_VIEW_BIT(TW_OID_FINDING_CLEAR_AFTER) |
	    TW_VIEW_BIT(TW_OID_FINDING_DROPPED) | TW_VIEW_BIT(TW_OID_FINDING_LIMIT);
	view.findsum.col[TW_OID_FINDING_DROPPED] = UINT64_MAX;
	view.findsum.col[TW_OID_FINDING_LIMIT] = 600;
	view.findsum.col[TW_OID_FINDING_COUNT] = 2;
	view.findsum.col[TW_OID_FINDING_CAPACITY] = 256;
	view.findsum.col[TW_OID_FINDING_CLEAR_AFTER] = 3;
	findings[0].index = 1;
	findings[0].has = TW_VIEW_BIT(TW_OID_FINDING_ID) | TW_VIEW_BIT(TW_OID_FINDING_SEVERITY);
	strcpy(findings[0].id, "tw-0123456789ab");
	findings[0].col[TW_OID_FINDING_SEVERITY] = TW_FINDING_CRITICAL;
	findings[1].index = UINT32_MAX;
	findings[1].has = TW_VIEW_BIT(TW_OID_FINDING_ID) | TW_VIEW_BIT(TW_OID_FINDING_CHANGED);
	strcpy(findings[1].id, "tw-ba9876543210");
	findings[1].col[TW_OID_FINDING_CHANGED] = UINT32_MAX;
	view.findings = findings;
	view.nfindings = view.findings_cap = 2;

	/* twObjects.9, past a gap in twObjects' numbers. */
	cgroups[0].index = 1;
	cgroups[0].has = TW_VIEW_BIT(TW_OID_CGROUP_PATH) | TW_VIEW_BIT(TW_OID_CGROUP_UNIT) |
	    TW_VIEW_BIT(TW_OID_CGROUP_LIMIT_NAME) | TW_VIEW_BIT(TW_OID_CGROUP_REFAULT_RATE);
	strcpy(cgroups[0].path, "/system.slice/nginx.service");
	strcpy(cgroups[0].unit, "nginx.service");
	strcpy(cgroups[0].limit_name, "memory.high");
	cgroups[0].col[TW_OID_CGROUP_REFAULT_RATE] = 4263800;
	cgroups[1].index = 7;	/* no cells at all */
	cgroups[2].index = UINT32_MAX;
	cgroups[2].has = TW_VIEW_BIT(TW_OID_CGROUP_PATH) | TW_VIEW_BIT(TW_OID_CGROUP_WRITE_RATE);
	strcpy(cgroups[2].path, "/docker/0123");
	cgroups[2].col[TW_OID_CGROUP_WRITE_RATE] = UINT64_MAX;
	view.cgroups = cgroups;
	view.ncgroups = view.cgroups_cap = 3;

	/* twObjects.11 and .12, indexes of three and four arcs, with the
	 * agent's scalars of the source at twAgent.17-19, past a gap. */
	view.agent.has |= TW_VIEW_BIT(TW_OID_AGENT_REQLAT_STATE) |
	    TW_VIEW_BIT(TW_OID_AGENT_REQLAT_LOST);
	strcpy(view.agent.reqlat_state, "timing");
	view.agent.col[TW_OID_AGENT_REQLAT_LOST] = 3;
	reqlats[0].major = 8;
	reqlats[0].dir = TW_REQLAT_DIR_READ;
	reqlats[0].has = TW_VIEW_BIT(TW_OID_REQLAT_DEVICE) | TW_VIEW_BIT(TW_OID_REQLAT_P99);
	strcpy(reqlats[0].device, "sda");
	reqlats[0].col[TW_OID_REQLAT_P99] = 2047;
	reqlats[1].major = UINT32_MAX;
	reqlats[1].minor = UINT32_MAX;
	reqlats[1].dir = TW_REQLAT_DIR_WRITE;
	reqlats[1].has = TW_VIEW_BIT(TW_OID_REQLAT_TOTAL);
	reqlats[1].col[TW_OID_REQLAT_TOTAL] = UINT64_MAX;
	view.reqlats = reqlats;
	view.nreqlats = view.reqlats_cap = 2;
	for (i = 0; i < 3; i++) {
		reqhists[i].major = 8;
		reqhists[i].dir = TW_REQLAT_DIR_READ;
		reqhists[i].has = TW_VIEW_BIT(TW_OID_REQHIST_COUNT);
		reqhists[i].col[TW_OID_REQHIST_COUNT] = 10 * i;
	}
	reqhists[0].bound = 0;
	reqhists[1].bound = 2048;
	reqhists[2].bound = TW_REQHIST_INF;
	view.reqhists = reqhists;
	view.nreqhists = view.reqhists_cap = 3;

	/* The instances, from the data above. */
	for (col = 1; col < 32; col++) {
		struct ref *r;

		if (view.agent.has & TW_VIEW_BIT(col)) {
			r = add_ref(3, TW_OID_AGENT, col, 0, 0, 0);
			if (col == TW_OID_AGENT_VERSION)
				ref_str(r, view.agent.version);
			else if (col == TW_OID_AGENT_SYSTEM)
				ref_str(r, view.agent.system);
			else if (col == TW_OID_AGENT_REQLAT_STATE)
				ref_str(r, view.agent.reqlat_state);
			else if (col == TW_OID_AGENT_SAMPLE_AGE)
				r->is_age = 1;
			else
				r->num = view.agent.col[col];
		}
		if (view.bc.has & TW_VIEW_BIT(col)) {
			r = add_ref(3, TW_OID_BUFCACHE, col, 0, 0, 0);
			if (col == TW_OID_BC_HIT_RATIO_METHOD)
				ref_str(r, view.bc.method);
			else
				r->num = view.bc.col[col];
		}
		for (i = 0; i < view.npools; i++) {
			const struct tw_view_pool *p = &pools[i];

			if (!(p->has & TW_VIEW_BIT(col)))
				continue;
			r = add_ref(5, TW_OID_DBLOCK_TABLE, 1, col, p->cls, p->instance);
			if (col == TW_OID_DBLOCK_NAME)
				ref_str(r, p->name);
			else if (col == TW_OID_DBLOCK_TUNABLE)
				ref_str(r, p->tunable);
			else if (col == TW_OID_DBLOCK_FAILURE_EVENT)
				ref_str(r, p->event);
			else
				r->num = p->col[col];
		}
		for (i = 0; i < view.ndisks; i++) {
			const struct tw_view_disk *d = &disks[i];

			if (!(d->has & TW_VIEW_BIT(col)))
				continue;
			r = add_ref(5, TW_OID_DISK_TABLE, 1, col, d->major, d->minor);
			if (col == TW_OID_DISK_NAME)
				ref_str(r, d->name);
			else if (col == TW_OID_DISK_SCHEDULER)
				ref_str(r, d->scheduler);
			else if (col == TW_OID_DISK_ALIAS)
				ref_str(r, d->alias);
			else if (col == TW_OID_DISK_STABLE_ID)
				ref_str(r, d->stable_id);
			else if (col == TW_OID_DISK_TYPE)
				ref_str(r, d->type);
			else
				r->num = d->col[col];
		}
		for (i = 0; i < view.ntunables; i++) {
			const struct tw_view_tunable *t = &tunables[i];

			if (col != TW_OID_TUNABLE_NAME && col != TW_OID_TUNABLE_VALUE)
				continue;
			r = add_ref(4, TW_OID_TUNABLE_TABLE, 1, col, t->index, 0);
			ref_str(r, col == TW_OID_TUNABLE_NAME ? t->name : t->value);
		}
		if (view.changes[0].has & TW_VIEW_BIT(col)) {
			r = add_ref(4, TW_OID_CHANGE_TABLE, 1, col, view.changes[0].index, 0);
			if (col == TW_OID_CHANGE_TUNABLE)
				ref_str(r, view.changes[0].tunable);
			else
				r->num = view.changes[0].col[col];
		}
		if (probe.has & TW_VIEW_BIT(col)) {
			r = add_ref(5, TW_OID_PROBE_TABLE, 1, col, probe.major, probe.minor);
			if (col == TW_OID_PROBE_DEVICE)
				ref_str(r, probe.device);
			else
				r->num = probe.col[col];
		}
		if (view.findsum.has & TW_VIEW_BIT(col))
			add_ref(3, TW_OID_FINDINGS, col, 0, 0, 0)->num = view.findsum.col[col];
		for (i = 0; i < view.nfindings; i++) {
			const struct tw_view_finding *f = &findings[i];

			if (!(f->has & TW_VIEW_BIT(col)))
				continue;
			r = add_ref(5, TW_OID_FINDINGS, TW_OID_FINDING_TABLE, 1, col, f->index);
			if (col == TW_OID_FINDING_ID)
				ref_str(r, f->id);
			else
				r->num = f->col[col];
		}
		for (i = 0; i < view.nreqlats; i++) {
			const struct tw_view_reqlat *q = &reqlats[i];
			uint32_t idx[3] = { q->major, q->minor, q->dir };

			if (!(q->has & TW_VIEW_BIT(col)))
				continue;
			r = add_ref_index(TW_OID_REQLAT_TABLE, col, idx, 3);
			if (col == TW_OID_REQLAT_DEVICE)
				ref_str(r, q->device);
			else
				r->num = q->col[col];
		}
		for (i = 0; i < view.nreqhists; i++) {
			const struct tw_view_reqhist *q = &reqhists[i];
			uint32_t idx[4] = { q->major, q->minor, q->dir, q->bound };

			if (q->has & TW_VIEW_BIT(col))
				add_ref_index(TW_OID_REQHIST_TABLE, col, idx, 4)->num = q->col[col];
		}
		for (i = 0; i < view.ncgroups; i++) {
			const struct tw_view_cgroup *g = &cgroups[i];

			if (!(g->has & TW_VIEW_BIT(col)))
				continue;
			r = add_ref(4, TW_OID_CGROUP_TABLE, 1, col, g->index, 0);
			if (col == TW_OID_CGROUP_PATH)
				ref_str(r, g->path);
			else if (col == TW_OID_CGROUP_UNIT)
				ref_str(r, g->unit);
			else if (col == TW_OID_CGROUP_LIMIT_NAME)
				ref_str(r, g->limit_name);
			else
				r->num = g->col[col];
		}
	}
	qsort(refs, nrefs, sizeof(refs[0]), ref_cmp);
	for (i = 1; i < nrefs; i++)
		FUZZ_ASSERT(ref_cmp(&refs[i - 1], &refs[i]) < 0);
}

static void
check_value(const struct ref *r, uint64_t now_ms, const struct tw_ber_value *val)
{
	if (r->is_str) {
		FUZZ_ASSERT(val->type == TW_BER_OCTET_STRING);
		FUZZ_ASSERT(val->str == r->str && val->len == strlen(r->str));
	} else if (r->is_age) {
		uint64_t age = now_ms > NEWEST_MS ? now_ms - NEWEST_MS : 0;

		FUZZ_ASSERT(val->type == TW_BER_GAUGE32);
		FUZZ_ASSERT(val->num == (age > UINT32_MAX ? UINT32_MAX : age));
	} else {
		FUZZ_ASSERT(val->type != TW_BER_OCTET_STRING && val->num == r->num);
	}
}

/* The first instance after oid (at or after it when inclusive), or NULL. */
static const struct ref *
expected_next(const uint32_t *oid, size_t len, int inclusive)
{
	size_t i;

	for (i = 0; i < nrefs; i++) {
		int c = tw_oid_cmp(refs[i].oid, refs[i].len, oid, len);

		if (c > 0 || (c == 0 && inclusive))
			return &refs[i];
	}
	return NULL;
}

/* noSuchObject when no object of the MIB has that OID's prefix, else
 * noSuchInstance. */
static enum tw_mv_result
expected_miss(const uint32_t *oid, size_t len)
{
	if (len < 2)
		return TW_MV_NO_SUCH_OBJECT;
	switch (oid[0]) {
	case TW_OID_AGENT:
		/* twAgent 11 is not (yet) allocated. */
		return (oid[1] >= 1 && oid[1] <= TW_OID_AGENT_UNPRINTABLE_NAMES) ||
		    (oid[1] >= TW_OID_AGENT_CGROUPS_WALKED && oid[1] < TW_VIEW_AGENT_COLS) ?
		    TW_MV_NO_SUCH_INSTANCE : TW_MV_NO_SUCH_OBJECT;
	case TW_OID_BUFCACHE:
		return oid[1] >= 1 && oid[1] < TW_VIEW_BC_COLS ? TW_MV_NO_SUCH_INSTANCE :
		    TW_MV_NO_SUCH_OBJECT;
	case TW_OID_DBLOCK_TABLE:
		return len >= 3 && oid[1] == 1 && oid[2] >= TW_OID_DBLOCK_NAME &&
		    oid[2] <= TW_OID_DBLOCK_OWNER_UID ? TW_MV_NO_SUCH_INSTANCE :
		    TW_MV_NO_SUCH_OBJECT;
	case TW_OID_DISK_TABLE:
		return len >= 3 && oid[1] == 1 && oid[2] >= TW_OID_DISK_NAME &&
		    oid[2] < TW_VIEW_DISK_COLS ? TW_MV_NO_SUCH_INSTANCE :
		    TW_MV_NO_SUCH_OBJECT;
	case TW_OID_TUNABLE_TABLE:
		return len >= 3 && oid[1] == 1 && oid[2] >= TW_OID_TUNABLE_NAME &&
		    oid[2] <= TW_OID_TUNABLE_VALUE ? TW_MV_NO_SUCH_INSTANCE :
		    TW_MV_NO_SUCH_OBJECT;
	case TW_OID_CHANGE_TABLE:
		return len >= 3 && oid[1] == 1 && oid[2] >= TW_OID_CHANGE_TUNABLE &&
		    oid[2] < TW_VIEW_CHANGE_COLS ? TW_MV_NO_SUCH_INSTANCE : TW_MV_NO_SUCH_OBJECT;
	case TW_OID_SOCKDROP_TABLE:	/* no rows in this view */
		return len >= 3 && oid[1] == 1 && oid[2] >= TW_OID_SOCKDROP_PROTOCOL_NAME &&
		    oid[2] <= TW_OID_SOCKDROP_FULL_SHARE ? TW_MV_NO_SUCH_INSTANCE :
		    TW_MV_NO_SUCH_OBJECT;
	case TW_OID_PROBE_TABLE:
		return len >= 3 && oid[1] == 1 && oid[2] >= TW_OID_PROBE_DEVICE &&
		    oid[2] <= TW_OID_PROBE_ERRORS ? TW_MV_NO_SUCH_INSTANCE :
		    TW_MV_NO_SUCH_OBJECT;
	case TW_OID_FINDINGS:
		if (oid[1] == TW_OID_FINDING_TABLE)
			return len >= 4 && oid[2] == 1 && oid[3] >= TW_OID_FINDING_ID &&
			    oid[3] <= TW_OID_FINDING_OWNER_UID ? TW_MV_NO_SUCH_INSTANCE :
			    TW_MV_NO_SUCH_OBJECT;
		return (oid[1] >= 1 && oid[1] <= TW_OID_FINDING_CLEAR_AFTER) ||
		    (oid[1] >= TW_OID_FINDING_DROPPED && oid[1] <= TW_OID_FINDING_LIMIT) ?
		    TW_MV_NO_SUCH_INSTANCE : TW_MV_NO_SUCH_OBJECT;
	case TW_OID_CGROUP_TABLE:
		return len >= 3 && oid[1] == 1 && oid[2] >= TW_OID_CGROUP_PATH &&
		    oid[2] < TW_VIEW_CGROUP_COLS ? TW_MV_NO_SUCH_INSTANCE :
		    TW_MV_NO_SUCH_OBJECT;
	case TW_OID_REQLAT_TABLE:
		return len >= 3 && oid[1] == 1 && oid[2] >= TW_OID_REQLAT_DEVICE &&
		    oid[2] < TW_VIEW_REQLAT_COLS ? TW_MV_NO_SUCH_INSTANCE : TW_MV_NO_SUCH_OBJECT;
	case TW_OID_REQHIST_TABLE:
		return len >= 3 && oid[1] == 1 && oid[2] == TW_OID_REQHIST_COUNT ?
		    TW_MV_NO_SUCH_INSTANCE : TW_MV_NO_SUCH_OBJECT;
	}
	return TW_MV_NO_SUCH_OBJECT;
}

static size_t
decode_oid(const uint8_t *data, size_t size, uint32_t *oid)
{
	size_t i = 0, len = 0;

	while (i < size && len < REQ_MAX) {
		uint8_t b = data[i++];

		if (b < 0xf0) {
			oid[len++] = b;
		} else if (b < 0xff) {
			oid[len++] = UINT32_MAX - (uint32_t)(b - 0xf0);
		} else {
			if (size - i < 4)
				break;
			oid[len++] = (uint32_t)data[i] | (uint32_t)data[i + 1] << 8 |
			    (uint32_t)data[i + 2] << 16 | (uint32_t)data[i + 3] << 24;
			i += 4;
		}
	}
	return len;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t times[4] = { 1500, 0, UINT64_MAX, NEWEST_MS + UINT32_MAX };
	uint32_t decoded[REQ_MAX], next[TW_MV_OID_MAX], cur[TW_MV_OID_MAX];
	const struct ref *want;
	struct tw_ber_value val;
	enum tw_mv_result res;
	uint32_t *oid;
	uint64_t now_ms;
	size_t len, nlen, clen, step;
	int inclusive;

	if (nrefs == 0)
		build_view();
	if (size < 1)
		return 0;
	inclusive = data[0] & 1;
	now_ms = times[(data[0] >> 1) & 3];
	len = decode_oid(data + 1, size - 1, decoded);
	/* Exactly as long as the request, so a read past it is seen. */
	oid = malloc(len * sizeof(*oid));
	FUZZ_ASSERT(oid != NULL || len == 0);
	if (len > 0)
		memcpy(oid, decoded, len * sizeof(*oid));

	/* GET: found exactly when listed. */
	want = expected_next(oid, len, 1);
	res = tw_mv_get(&view, now_ms, oid, len, &val);
	if (want != NULL && tw_oid_cmp(want->oid, want->len, oid, len) == 0) {
		FUZZ_ASSERT(res == TW_MV_FOUND);
		check_value(want, now_ms, &val);
	} else {
		FUZZ_ASSERT(res == expected_miss(oid, len));
	}

	/* GETNEXT, then a few more steps of a walk. */
	want = expected_next(oid, len, inclusive);
	nlen = 0;
	res = tw_mv_next(&view, now_ms, oid, len, inclusive, next, &nlen, &val);
	for (step = 0;; step++) {
		if (want == NULL) {
			FUZZ_ASSERT(res == TW_MV_END);
			break;
		}
		FUZZ_ASSERT(res == TW_MV_FOUND);
		FUZZ_ASSERT(nlen == want->len && tw_oid_cmp(next, nlen, want->oid, want->len) == 0);
		if (step == 0)
			FUZZ_ASSERT(tw_oid_cmp(next, nlen, oid, len) > (inclusive ? -1 : 0));
		check_value(want, now_ms, &val);
		if (step == 3)
			break;
		memcpy(cur, next, nlen * sizeof(*cur));
		clen = nlen;
		want = expected_next(cur, clen, 0);
		res = tw_mv_next(&view, now_ms, cur, clen, 0, next, &nlen, &val);
		if (res == TW_MV_FOUND)
			FUZZ_ASSERT(tw_oid_cmp(next, nlen, cur, clen) > 0);
	}
	free(oid);
	return 0;
}
