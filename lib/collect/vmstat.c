#include "config.h"

#include "collect/vmstat.h"

#include <string.h>

#include "util/error.h"

/* Keys kept as they are. */
static const struct {
	const char *key;
	enum tw_vm_field field;
} vm_keys[] = {
	{ "pgpgin", TW_VM_PGPGIN },
	{ "pgpgout", TW_VM_PGPGOUT },
	{ "pgfault", TW_VM_PGFAULT },
	{ "pgmajfault", TW_VM_PGMAJFAULT },
	{ "workingset_refault_file", TW_VM_REFAULT_FILE },
	{ "workingset_activate_file", TW_VM_ACTIVATE_FILE },
	{ "compact_stall", TW_VM_COMPACT_STALL },
	{ "compact_fail", TW_VM_COMPACT_FAIL },
	{ "nr_dirty", TW_VM_NR_DIRTY },
	{ "nr_writeback", TW_VM_NR_WRITEBACK },
	{ "nr_dirty_threshold", TW_VM_DIRTY_THRESHOLD },
	{ "nr_dirty_background_threshold", TW_VM_DIRTY_BG_THRESHOLD },
};

/* The reclaim that is the host's, not a cgroup's: the kernel counts a
 * cgroup's reclaim at its own limit in pgsteal_anon and _file and in the
 * cgroup, never under these (mm/vmscan.c counts them only when the
 * reclaim is not a cgroup's). Before 4.8 each was split by zone. */
static const char *const pgsteal_host[] = {
	"pgsteal_kswapd", "pgsteal_direct", "pgsteal_khugepaged", "pgsteal_proactive",
};

/* What one parse saw of the keys that have an older or split form. */
struct vm_legacy {
	int has_refault, has_activate, has_stall, has_stall_zones, has_steal;
	uint64_t refault, activate, stall, stall_zones, steal;
};

struct vm_parse {
	struct tw_vmstat *out;
	struct vm_legacy lg;
};

#define ALLOCSTALL_PREFIX "allocstall_"

static int
vm_parse_line(void *ctx, const char *line, size_t len)
{
	struct vm_parse *vp = ctx;
	struct tw_vmstat *out = vp->out;
	struct vm_legacy *lg = &vp->lg;
	struct tw_tokens it;
	const char *key, *val, *extra;
	size_t klen, vlen, elen, i, plen = sizeof(ALLOCSTALL_PREFIX) - 1;
	uint64_t v;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &key, &klen) || !tw_tokens_next(&it, &val, &vlen) ||
	    tw_tokens_next(&it, &extra, &elen))
		return TW_E_INVAL;
	if (tw_parse_u64(val, vlen, &v) != TW_OK)
		return TW_E_INVAL;

	for (i = 0; i < sizeof(vm_keys) / sizeof(vm_keys[0]); i++) {
		if (tw_token_is(key, klen, vm_keys[i].key)) {
			out->v[vm_keys[i].field] = v;
			out->present |= UINT32_C(1) << vm_keys[i].field;
			return TW_OK;
		}
	}
	if (tw_token_is(key, klen, "workingset_refault")) {
		lg->has_refault = 1;
		lg->refault = v;
	} else if (tw_token_is(key, klen, "workingset_activate")) {
		lg->has_activate = 1;
		lg->activate = v;
	} else if (tw_token_is(key, klen, "allocstall")) {
		lg->has_stall = 1;
		lg->stall = v;
	} else if (klen > plen && memcmp(key, ALLOCSTALL_PREFIX, plen) == 0) {
		/* One counter per zone since 4.8 (dma, dma32, normal, movable,
		 * device): their sum is the old single counter. The sum wraps
		 * modulo 2^64 like the counters themselves, which the window's
		 * wrap handling expects. */
		lg->has_stall_zones = 1;
		lg->stall_zones += v;
	} else {
		for (i = 0; i < sizeof(pgsteal_host) / sizeof(pgsteal_host[0]); i++) {
			size_t n = strlen(pgsteal_host[i]);

			/* "pgsteal_kswapd" or, split by zone, "pgsteal_kswapd_normal". */
			if (klen >= n && memcmp(key, pgsteal_host[i], n) == 0 &&
			    (klen == n || key[n] == '_')) {
				lg->has_steal = 1;
				lg->steal += v;
				break;
			}
		}
	}
	return TW_OK;
}

int
tw_vmstat_parse(const char *text, size_t len, struct tw_vmstat *out,
    struct tw_parse_stats *ps)
{
	struct vm_parse vp;
	const struct vm_legacy *lg = &vp.lg;
	uint32_t bit;
	int rc;

	memset(&vp, 0, sizeof(vp));
	vp.out = out;
	if ((rc = tw_parse_lines(text, len, vm_parse_line, &vp, ps)) != TW_OK)
		return rc;

	/* The older keys count only when this text has no _file key: on 5.9+
	 * the older ones, if present, also counted anonymous pages. */
	bit = UINT32_C(1) << TW_VM_REFAULT_FILE;
	if (lg->has_refault && !(out->present & bit)) {
		out->v[TW_VM_REFAULT_FILE] = lg->refault;
		out->present |= bit;
	}
	bit = UINT32_C(1) << TW_VM_ACTIVATE_FILE;
	if (lg->has_activate && !(out->present & bit)) {
		out->v[TW_VM_ACTIVATE_FILE] = lg->activate;
		out->present |= bit;
	}
	if (lg->has_stall_zones || lg->has_stall) {
		out->v[TW_VM_ALLOCSTALL] = lg->has_stall_zones ? lg->stall_zones : lg->stall;
		out->present |= UINT32_C(1) << TW_VM_ALLOCSTALL;
	}
	if (lg->has_steal) {
		out->v[TW_VM_PGSTEAL_HOST] = lg->steal;
		out->present |= UINT32_C(1) << TW_VM_PGSTEAL_HOST;
	}
	return TW_OK;
}

int
tw_vmstat_read(int proc_fd, struct tw_buf *scratch, struct tw_vmstat *out,
    struct tw_parse_stats *ps)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = tw_read_file_at(proc_fd, "vmstat", scratch)) != TW_OK)
		return rc;
	return tw_vmstat_parse(scratch->data, scratch->len, out, ps);
}
