/* SPDX-License-Identifier: ISC */
/* Whether any UDP socket can have dropped since the last look, from the
 * host's counters alone: the kernel counts every datagram it drops on a
 * UDP or UDP-Lite socket (sk_drops: a full buffer, a bad checksum, a
 * socket filter) in InErrors of its protocol too (udp.c and udp6's
 * udp*_queue_rcv_one_skb). When the sum of Udp and UdpLite InErrors of
 * /proc/net/snmp and Udp6InErrors and UdpLite6InErrors of
 * /proc/net/snmp6 has not moved, no socket's drops grew, and the socket
 * files (a line per socket, costly on a host with tens of thousands of
 * them) need not be read. */
#ifndef TW_DROPGATE_H
#define TW_DROPGATE_H

#include <stdint.h>

#include "collect/netstat.h"
#include "util/readfile.h"

/* The sum, from the sample's net/snmp counters (net) and net/snmp6 under
 * proc_fd. TW_E_ABSENT when net has no Udp InErrors (the caller then
 * reads the socket files every time); a kernel without IPv6 adds 0. */
int tw_dropgate_sum(int proc_fd, struct tw_buf *scratch, const struct tw_netstat_set *net,
    uint64_t *sum);

/* The value of one "Name value" line of snmp6's text; TW_E_ABSENT. */
int tw_dropgate_snmp6(const char *text, size_t len, const char *name, uint64_t *value);

#endif
