/* SPDX-License-Identifier: ISC OR GPL-2.0-only */
/* Two programs that do nothing, on the tracepoints the request-latency
 * program uses: what the kernel's BPF statistics charge a program that
 * runs at every issue and every completion before it does any work, the
 * floor that bench/reqlat_cost.py takes from tunewatchd's figures. */
#include "reqlat_kernel.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* The kernel lets a program call its GPL-only helpers only when the
 * program says it is GPL-compatible; this file is ISC or GPL-2.0, which
 * the kernel reads as "Dual BSD/GPL". */
char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("tp_btf/block_rq_issue")
int BPF_PROG(tw_floor_issue, struct request *rq)
{
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(tw_floor_complete, struct request *rq)
{
	return 0;
}
