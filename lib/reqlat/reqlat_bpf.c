/* SPDX-License-Identifier: ISC */
/* The source with libbpf: the program of reqlat.bpf.c, built into this
 * file by bpftool's skeleton, loaded and attached once; its device table
 * and epoch written through the mmapped global data, its histograms read
 * with one lookup each. */
#include "config.h"

#include "reqlat/reqlat.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "reqlat/reqdecode.h"
#include "reqlat/reqslots.h"
#include "util/error.h"
#include "util/printf.h"

#include "lib/reqlat/reqlat.skel.h"

#define DEFAULT_BTF "/sys/kernel/btf/vmlinux"

struct tw_reqlat {
	enum tw_reqlat_state state;
	char reason[TW_REQLAT_REASON_LEN];
	struct tw_reqlat_bpf *skel;
	unsigned ncpus;
	struct tw_reqslots slots;
	unsigned char *buf;	/* one lookup's values */
	size_t buflen;
};

/* libbpf's last warning, for a load's reason: it prints whole verifier
 * logs, which belong in no log line of ours. */
static char last_warning[TW_REQLAT_REASON_LEN];

/* libbpf's callback hands its own format on: not a literal, by design. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wformat-nonliteral"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif

static int
capture(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];
	size_t n;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	if (n > 0)
		snprintf(last_warning, sizeof(last_warning), "%s", line);
	return 0;
}

static void TW_PRINTF(3, 4)
set_state(struct tw_reqlat *r, enum tw_reqlat_state st, const char *fmt, ...)
{
	va_list ap;

	r->state = st;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

/* Whether the process may load the program: CAP_BPF and CAP_PERFMON, or
 * CAP_SYS_ADMIN (which stands for both on kernels before 5.8). */
static int
may_load(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	uint64_t eff;

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return geteuid() == 0;
	eff = (uint64_t)data[1].effective << 32 | data[0].effective;
#ifndef CAP_BPF
#define CAP_PERFMON 38
#define CAP_BPF 39
#endif
	return (eff >> CAP_SYS_ADMIN & 1) ||
	    ((eff >> CAP_BPF & 1) && (eff >> CAP_PERFMON & 1));
}

/* The kernel's BTF has what the program needs: the tracepoints it
 * attaches to, and QUEUE_FLAG_STATS's bit when the kernel has one. */
static int
check_btf(struct tw_reqlat *r, const char *path, unsigned *stats_bit)
{
	static const char *const tps[] = {
		"btf_trace_block_rq_insert", "btf_trace_block_rq_issue",
		"btf_trace_block_rq_complete", "btf_trace_block_rq_merge",
	};
	struct btf *btf;
	unsigned i, n;

	if (access(path, R_OK) != 0) {
		set_state(r, TW_REQLAT_NO_BTF, "no kernel BTF at %s (%s): the kernel was built "
		    "without CONFIG_DEBUG_INFO_BTF", path, strerror(errno));
		return -1;
	}
	btf = btf__parse(path, NULL);
	if (btf == NULL) {
		set_state(r, TW_REQLAT_NO_BTF, "cannot read the kernel BTF at %s: %s", path,
		    strerror(errno));
		return -1;
	}
	for (i = 0; i < sizeof(tps) / sizeof(tps[0]); i++) {
		if (btf__find_by_name_kind(btf, tps[i], BTF_KIND_TYPEDEF) < 0) {
			set_state(r, TW_REQLAT_NO_TRACEPOINTS, "the kernel has no block "
			    "tracepoint %s (CONFIG_BLK_DEV_IO_TRACE, CONFIG_TRACEPOINTS)", tps[i] + 10);
			btf__free(btf);
			return -1;
		}
	}
	*stats_bit = 64;
	n = btf__type_cnt(btf);
	for (i = 1; i < n && *stats_bit == 64; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const struct btf_enum *e;
		unsigned k;

		if (!btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (k = 0; k < btf_vlen(t); k++)
			if (strcmp(btf__name_by_offset(btf, e[k].name_off), "QUEUE_FLAG_STATS") == 0 &&
			    e[k].val >= 0 && e[k].val < 64)
				*stats_bit = (unsigned)e[k].val;
	}
	btf__free(btf);
	return 0;
}

static void
load(struct tw_reqlat *r, const struct tw_reqlat_config *c)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	const char *path = c->btf_path != NULL ? c->btf_path : DEFAULT_BTF;
	unsigned devices = c->devices != 0 ? c->devices : TW_REQLAT_DEFAULT_DEVICES;
	unsigned stats_bit;
	int ncpus, rc;

	if (devices > TW_REQLAT_MAX_DEVICES || tw_reqslots_init(&r->slots, devices) != TW_OK) {
		set_state(r, TW_REQLAT_LOAD_FAILED, "%u devices is past the %u the program holds",
		    devices, TW_REQLAT_MAX_DEVICES);
		return;
	}
	if (!may_load()) {
		set_state(r, TW_REQLAT_NO_PERMISSION, "loading the BPF program needs root, or "
		    "CAP_BPF and CAP_PERFMON, at start-up");
		return;
	}
	if (check_btf(r, path, &stats_bit) != 0)
		return;
	if ((ncpus = libbpf_num_possible_cpus()) <= 0) {
		set_state(r, TW_REQLAT_LOAD_FAILED, "cannot count the possible CPUs: %s",
		    strerror(-ncpus));
		return;
	}
	r->ncpus = (unsigned)ncpus;
	r->buflen = r->ncpus * TW_REQLAT_STRIDE;
	if ((r->buf = calloc(1, r->buflen)) == NULL) {
		set_state(r, TW_REQLAT_LOAD_FAILED, "out of memory");
		return;
	}
	libbpf_set_print(capture);
	last_warning[0] = '\0';
	if (c->btf_path != NULL)
		opts.btf_custom_path = c->btf_path;
	if ((r->skel = tw_reqlat_bpf__open_opts(&opts)) == NULL) {
		set_state(r, TW_REQLAT_LOAD_FAILED, "cannot open the BPF program: %s",
		    last_warning[0] != '\0' ? last_warning : strerror(errno));
		return;
	}
	r->skel->rodata->stats_bit = c->program_clock ? 64 : stats_bit;
	if (bpf_map__set_max_entries(r->skel->maps.hists, devices * TW_REQLAT_PER_DEV) != 0 ||
	    (rc = tw_reqlat_bpf__load(r->skel)) != 0) {
		set_state(r, errno == EPERM ? TW_REQLAT_NO_PERMISSION : TW_REQLAT_LOAD_FAILED,
		    "the kernel refused the BPF program: %s",
		    last_warning[0] != '\0' ? last_warning : strerror(errno));
		return;
	}
	if (tw_reqlat_bpf__attach(r->skel) != 0) {
		set_state(r, TW_REQLAT_LOAD_FAILED, "cannot attach to the block tracepoints: %s",
		    last_warning[0] != '\0' ? last_warning : strerror(errno));
		return;
	}
	r->state = TW_REQLAT_TIMING;
	r->reason[0] = '\0';
}

struct tw_reqlat *
tw_reqlat_open(const struct tw_reqlat_config *c)
{
	static const struct tw_reqlat_config defaults;
	struct tw_reqlat *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	if (c == NULL)
		c = &defaults;
	if (c->off)
		set_state(r, TW_REQLAT_OFF, "%s", c->off_reason != NULL ? c->off_reason :
		    "turned off");
	else
		load(r, c);
	if (r->state != TW_REQLAT_TIMING && r->skel != NULL) {
		tw_reqlat_bpf__destroy(r->skel);
		r->skel = NULL;
	}
	return r;
}

void
tw_reqlat_close(struct tw_reqlat *r)
{
	if (r == NULL)
		return;
	tw_reqlat_bpf__destroy(r->skel);
	free(r->buf);
	free(r);
}

enum tw_reqlat_state
tw_reqlat_state(const struct tw_reqlat *r, const char **reason)
{
	if (reason != NULL)
		*reason = r->reason;
	return r->state;
}

/* Write the changes of a sync into the program. A slot's histograms are
 * zeroed before its entry names the device, and an entry's slot before
 * its dev_t, so the program never counts into a slot not yet its own. */
static int
apply(struct tw_reqlat *r, const struct tw_reqslot_change *ch, size_t n)
{
	int fd = bpf_map__fd(r->skel->maps.hists);
	size_t i;
	unsigned k;

	for (i = 0; i < n; i++) {
		volatile struct tw_reqlat_dev *d = &r->skel->bss->devs[ch[i].entry];

		if (ch[i].op == TW_REQSLOT_TAKE) {
			d->dev = 0;
			continue;
		}
		memset(r->buf, 0, r->buflen);
		for (k = 0; k < TW_REQLAT_PER_DEV; k++) {
			__u32 idx = ch[i].slot * TW_REQLAT_PER_DEV + k;

			if (bpf_map_update_elem(fd, &idx, r->buf, BPF_ANY) != 0)
				return -1;
		}
		d->slot = ch[i].slot;
		__atomic_thread_fence(__ATOMIC_RELEASE);
		d->dev = ch[i].dev;
	}
	return 0;
}

static int
reserve(struct tw_reqlat_reading *rd, size_t n)
{
	struct tw_reqlat_device *p;

	if (n <= rd->cap)
		return TW_OK;
	p = realloc(rd->devs, n * sizeof(*p));
	if (p == NULL)
		return TW_E_NOMEM;
	rd->devs = p;
	rd->cap = n;
	return TW_OK;
}

static int
read_device(struct tw_reqlat *r, unsigned slot, uint32_t epoch, struct tw_reqlat_device *d)
{
	int fd = bpf_map__fd(r->skel->maps.hists);
	unsigned dir, kind;

	for (dir = 0; dir < TW_REQLAT_NDIRS; dir++)
		for (kind = 0; kind < TW_REQLAT_NKINDS; kind++) {
			__u32 idx = TW_REQLAT_INDEX(slot, dir, kind);

			if (bpf_map_lookup_elem(fd, &idx, r->buf) != 0 ||
			    tw_reqlat_decode(r->buf, r->buflen, r->ncpus, epoch,
			    &d->s[dir][kind]) != TW_OK)
				return -1;
		}
	return 0;
}

static int
fail_read(struct tw_reqlat *r, const char *what)
{
	set_state(r, TW_REQLAT_READ_FAILED, "cannot %s: %s", what, strerror(errno));
	return TW_E_IO;
}

int
tw_reqlat_sample(struct tw_reqlat *r, const struct tw_reqlat_want *want, size_t n,
    struct tw_reqlat_reading *out)
{
	struct tw_reqslot_change ch[TW_REQSLOTS_MAX_CHANGES];
	size_t nch, i;
	uint32_t epoch;
	__u32 zero = 0;
	int rc;

	out->count = 0;
	out->unslotted = 0;
	if (r->state != TW_REQLAT_TIMING)
		return TW_E_ABSENT;
	if ((rc = tw_reqslots_sync(&r->slots, want, n, ch, &nch, &out->unslotted)) != TW_OK)
		return rc;
	if (apply(r, ch, nch) != 0)
		return fail_read(r, "give a device its slot");
	/* The interval that ends now is `epoch`; the program counts the next
	 * one's largest request into the other slot. */
	epoch = r->skel->bss->epoch;
	__atomic_store_n(&r->skel->bss->epoch, epoch + 1, __ATOMIC_RELEASE);
	if ((rc = reserve(out, n)) != TW_OK)
		return rc;
	for (i = 0; i < n; i++) {
		struct tw_reqlat_device *d = &out->devs[out->count];
		int slot = tw_reqslots_find(&r->slots, want[i].major, want[i].minor, &d->gen);

		if (slot < 0)
			continue;
		d->major = want[i].major;
		d->minor = want[i].minor;
		if (read_device(r, (unsigned)slot, epoch, d) != 0)
			return fail_read(r, "read the request histograms");
		out->count++;
	}
	if (bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.counters), &zero, r->buf) != 0 ||
	    tw_reqlat_decode_counter(r->buf, r->ncpus * sizeof(uint64_t), r->ncpus,
	    &out->lost) != TW_OK)
		return fail_read(r, "read the lost-request counter");
	return TW_OK;
}
