/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sample/sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sample/sampler_priv.h"
#include "util/clock.h"
#include "util/namefilter.h"
#include "util/readfile.h"
#include "util/error.h"

int
tw_sampler_open(struct tw_sampler **out, const struct tw_sampler_config *cfg,
    char *err, size_t errlen)
{
	const char *proc = cfg->proc_root ? cfg->proc_root : "/proc";
	const char *sys = cfg->sys_root ? cfg->sys_root : "/sys";
	struct tw_sampler *sp;
	long pg;
	int rc;

	*out = NULL;
	sp = calloc(1, sizeof(*sp));
	if (sp == NULL)
		return TW_E_NOMEM;
	rc = tw_namefilter_init(&sp->filter, cfg->disk_include,
	    cfg->disk_exclude != NULL ? cfg->disk_exclude : TW_DISK_EXCLUDE_DEFAULT, err, errlen);
	if (rc != TW_OK) {
		free(sp);
		return rc;
	}
	rc = tw_roots_open(&sp->roots, proc, sys);
	if (rc != TW_OK) {
		if (errlen > 0)
			snprintf(err, errlen, "cannot open proc root %s: %s", proc, tw_strerror(rc));
		tw_namefilter_free(&sp->filter);
		free(sp);
		return TW_E_ABSENT;
	}
	if (!cfg->no_cgroups &&
	    tw_cgroups_open(&sp->cgroups, cfg->cgroup_max, cfg->cgroup_rescan) != TW_OK) {
		tw_roots_close(&sp->roots);
		tw_namefilter_free(&sp->filter);
		free(sp);
		return TW_E_NOMEM;
	}
	if (sp->cgroups != NULL)
		tw_cgroups_set_proc(sp->cgroups, sp->roots.proc_fd);
	tw_buf_init(&sp->scratch);
	sp->queue_refresh = cfg->queue_refresh;
	sp->hide_paths = cfg->disk_exclude == NULL;
	sp->procio = cfg->procio;
	sp->self_pid = (int32_t)getpid();
	pg = sysconf(_SC_PAGESIZE);
	sp->page_size = pg > 0 ? (uint32_t)pg : 4096;
	tw_pressure_clock_init(&sp->tcp_pressure);
	*out = sp;
	return TW_OK;
}

void
tw_sampler_close(struct tw_sampler *sp)
{
	if (sp == NULL)
		return;
	tw_roots_close(&sp->roots);
	tw_namefilter_free(&sp->filter);
	tw_cgroups_close(sp->cgroups);
	tw_buf_free(&sp->scratch);
	free(sp->devs);
	free(sp->spare);
	free(sp);
}

int
tw_sampler_proc_fd(const struct tw_sampler *sp)
{
	return sp->roots.proc_fd;
}

/* TCP's time in memory pressure, where this sample says whether TCP is in
 * it now (net/protocols); the chrono of net/netstat where the kernel has
 * it. */
static void
tcp_pressure(struct tw_sampler *sp, struct tw_sample *s)
{
	const struct tw_protocol *tcp;
	uint64_t chrono = 0;
	int have_chrono;

	if (!(s->have & TW_SRC_BIT(TW_SRC_PROTOCOLS)) ||
	    (tcp = tw_protocols_find(&s->protos, "TCP")) == NULL ||
	    tcp->pressure == TW_PROTO_PRESSURE_NI)
		return;
	have_chrono = (s->have & TW_SRC_BIT(TW_SRC_NETSTAT)) &&
	    tw_netstat_get(&s->net, "TcpExt", "TCPMemoryPressuresChrono", &chrono) == TW_OK;
	s->tcp_pressure_ms = tw_pressure_clock_step(&sp->tcp_pressure, s->mono_ms,
	    tcp->pressure == TW_PROTO_PRESSURE_YES, have_chrono, chrono);
	s->have_tcp_pressure = 1;
}

/* Record a source's outcome; only running out of memory stops a sample. */
static int
note(struct tw_sample *s, enum tw_source src, int rc)
{
	s->err[src] = rc;
	if (rc == TW_OK)
		s->have |= TW_SRC_BIT(src);
	return rc == TW_E_NOMEM ? rc : TW_OK;
}

int
tw_sampler_take(struct tw_sampler *sp, struct tw_sample *s)
{
	int fd = sp->roots.proc_fd;
	struct tw_buf *b = &sp->scratch;
	struct tw_parse_stats *ps = &s->parse;
	int rc;

	tw_sample_clear(s);
	s->mono_ms = tw_clock_ms();
	s->page_size = sp->page_size;

	if ((rc = tw_sampler_disks(sp, s)) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_MEMINFO, tw_meminfo_read(fd, b, &s->mem, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_VMSTAT, tw_vmstat_read(fd, b, &s->vm, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_PSI_MEMORY,
	    tw_psi_read(fd, "memory", b, &s->psi_memory, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_PSI_IO, tw_psi_read(fd, "io", b, &s->psi_io, ps))) != TW_OK)
		return rc;
	if (sp->procio &&
	    (rc = note(s, TW_SRC_PROCIO,
	    tw_procio_read_all(fd, sp->self_pid, b, &s->procs, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_SOFTNET, tw_softnet_read(fd, b, &s->softnet, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_SOCKSTAT, tw_sockstat_read(fd, b, &s->sock, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_NETSTAT, tw_netstat_read(fd, b, &s->net, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_PROTOCOLS, tw_protocols_read(fd, b, &s->protos, ps))) != TW_OK)
		return rc;
	tcp_pressure(sp, s);
	if ((rc = note(s, TW_SRC_BUDDYINFO, tw_buddyinfo_read(fd, b, &s->buddy, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_SYSCTL, tw_sysctl_read_all(fd, &s->sysctl))) != TW_OK)
		return rc;
	if (sp->cgroups != NULL)
		return note(s, TW_SRC_CGROUPS, tw_cgroups_sample(sp->cgroups, sp->roots.sys_fd, b,
		    &s->cgroups, ps));
	return TW_OK;
}
