/* SPDX-License-Identifier: ISC */
/* The numbers of TUNEWATCH-MIB (mib/TUNEWATCH-MIB.txt), for tunewatchd, the
 * plugins (which use numeric OIDs only and load no MIB file) and the tests.
 *
 * Only numbers: each object's name, SMI type, range and units are in the
 * column table (lib/view/columns.h), one row per object. tests/mib_text
 * reads the MIB module and holds both against it, so they cannot drift
 * apart. The enterprise arc is defined here and in the MIB's
 * MODULE-IDENTITY; MIB-README says how to move it to a registered
 * enterprise number. */
#ifndef TW_TUNEWATCH_OIDS_H
#define TW_TUNEWATCH_OIDS_H

/* tunewatchMIB ::= { netSnmpPlaypen 8863 }: Net-SNMP's arc for
 * experimental MIBs (NET-SNMP-MIB), until the project has its own. */
#define TW_MIB_ARC 1, 3, 6, 1, 4, 1, 8072, 9999, 9999, 8863
#define TW_MIB_ARC_LEN 10

/* tunewatchMIB.0 twNotifications; .1 twObjects; .2 twConformance */
#define TW_OID_NOTIFICATIONS 0
#define TW_OID_OBJECTS 1
#define TW_OID_CONFORMANCE 2

/* twObjects.N: groups and tables */
#define TW_OID_AGENT 1		/* scalars */
#define TW_OID_BUFCACHE 2	/* scalars */
#define TW_OID_DBLOCK_TABLE 3
#define TW_OID_DISK_TABLE 4
#define TW_OID_TUNABLE_TABLE 5
#define TW_OID_FINDINGS 6	/* scalars, and twFindingTable below them */
#define TW_OID_CGROUP_TABLE 9
#define TW_OID_SOCKDROP_TABLE 10
#define TW_OID_REQLAT_TABLE 11
#define TW_OID_REQHIST_TABLE 12

/* twAgent.N.0 */
#define TW_OID_AGENT_VERSION 1
#define TW_OID_AGENT_INTERVAL 2
#define TW_OID_AGENT_WINDOW 3
#define TW_OID_AGENT_SAMPLE_AGE 4
#define TW_OID_AGENT_MALFORMED 5
#define TW_OID_AGENT_WINDOW_SAMPLES 6
#define TW_OID_AGENT_WINDOW_SPAN 7
#define TW_OID_AGENT_SYSTEM 8
#define TW_OID_AGENT_SAMPLES 9
#define TW_OID_AGENT_UNPRINTABLE_NAMES 10
/* What the last walk of the cgroup hierarchy found and left out. */
#define TW_OID_AGENT_CGROUPS_WALKED 12
#define TW_OID_AGENT_CGROUPS_UNPUBLISHED 13	/* past cgroupMax */
#define TW_OID_AGENT_CGROUPS_CUT_LONG 14	/* path too long */
#define TW_OID_AGENT_CGROUPS_CUT_DEEP 15	/* too deep */
#define TW_OID_AGENT_CGROUPS_CUT_MANY 16	/* past the walk's bound */
#define TW_OID_AGENT_REQLAT_STATE 17	/* the request-latency source */
#define TW_OID_AGENT_REQLAT_REASON 18
#define TW_OID_AGENT_REQLAT_LOST 19

/* twBufferCache.N.0 */
#define TW_OID_BC_MEM_TOTAL 1
#define TW_OID_BC_MEM_AVAILABLE 2
#define TW_OID_BC_CACHED 3
#define TW_OID_BC_BUFFERS 4
#define TW_OID_BC_DIRTY 5
#define TW_OID_BC_WRITEBACK 6
#define TW_OID_BC_READ_HIT_RATIO 7
#define TW_OID_BC_HIT_RATIO_METHOD 8
#define TW_OID_BC_LOGICAL_READ_BYTES 9
#define TW_OID_BC_PHYSICAL_READ_BYTES 10
#define TW_OID_BC_HIT_RATIO_PROCESSES 11
#define TW_OID_BC_HIT_RATIO_UNREADABLE 12
#define TW_OID_BC_REFAULTS 13
#define TW_OID_BC_REFAULT_RATE 14
#define TW_OID_BC_MAJOR_FAULTS 15
#define TW_OID_BC_MAJOR_FAULT_RATE 16
#define TW_OID_BC_PAGE_IN_RATE 17
#define TW_OID_BC_MEMORY_PRESSURE 18	/* PSI some avg10 */
#define TW_OID_BC_IO_PRESSURE 19	/* PSI some avg10 */
#define TW_OID_BC_SWAP_TOTAL 20
#define TW_OID_BC_SWAP_FREE 21
#define TW_OID_BC_DIRTY_THRESHOLD 22		/* nr_dirty_threshold, bytes */
#define TW_OID_BC_DIRTY_BG_THRESHOLD 23	/* nr_dirty_background_threshold */
#define TW_OID_BC_DIRTY_LIMITED 24		/* windowed share of time throttled */
#define TW_OID_BC_RECLAIM_RATE 25		/* host-wide reclaim, pages/s */

/* twDblockTable.1 twDblockEntry.N.<class>.<instance> */
#define TW_OID_DBLOCK_ENTRY 1
#define TW_OID_DBLOCK_CLASS 1		/* INDEX */
#define TW_OID_DBLOCK_INSTANCE 2	/* INDEX */
#define TW_OID_DBLOCK_NAME 3
#define TW_OID_DBLOCK_SIZE 4
#define TW_OID_DBLOCK_IN_USE 5
#define TW_OID_DBLOCK_FREE 6
#define TW_OID_DBLOCK_LIMIT 7
#define TW_OID_DBLOCK_FAILURES 8
#define TW_OID_DBLOCK_RECENT_FAILURES 9
#define TW_OID_DBLOCK_TUNABLE 10
#define TW_OID_DBLOCK_FAILURE_EVENT 11
#define TW_OID_DBLOCK_PRESSURE_TIME 12
#define TW_OID_DBLOCK_RECENT_PRESSURE_TIME 13
#define TW_OID_DBLOCK_OWNER_UID 14	/* the one owner of the full listeners */

/* TwDblockClassType values */
#define TW_DBLOCK_SOFTNET_BACKLOG 1	/* instance: CPU */
#define TW_DBLOCK_SOFTNET_BUDGET 2	/* instance: CPU */
#define TW_DBLOCK_TCP_MEMORY 3
#define TW_DBLOCK_UDP_MEMORY 4
#define TW_DBLOCK_UDP_RCVBUF 5
#define TW_DBLOCK_UDP_SNDBUF 6
#define TW_DBLOCK_TCP_RCVBUF 7
#define TW_DBLOCK_TCP_LISTEN 8
#define TW_DBLOCK_BUDDY_ZONE 9		/* instance: node * 256 + zone number */
#define TW_DBLOCK_HIGH_ORDER 10

/* twDiskTable.1 twDiskEntry.N.<major>.<minor> */
#define TW_OID_DISK_ENTRY 1
#define TW_OID_DISK_MAJOR 1		/* INDEX */
#define TW_OID_DISK_MINOR 2		/* INDEX */
#define TW_OID_DISK_NAME 3
#define TW_OID_DISK_READS 4
#define TW_OID_DISK_WRITES 5
#define TW_OID_DISK_READ_BYTES 6
#define TW_OID_DISK_WRITTEN_BYTES 7
#define TW_OID_DISK_READ_TIME 8
#define TW_OID_DISK_WRITE_TIME 9
#define TW_OID_DISK_READ_OPS 10
#define TW_OID_DISK_WRITE_OPS 11
#define TW_OID_DISK_READ_RATE 12
#define TW_OID_DISK_WRITE_RATE 13
#define TW_OID_DISK_READ_LATENCY 14	/* r_await */
#define TW_OID_DISK_WRITE_LATENCY 15	/* w_await */
#define TW_OID_DISK_QUEUE_DEPTH 16	/* aqu-sz */
#define TW_OID_DISK_UTIL 17		/* %util */
#define TW_OID_DISK_IN_FLIGHT 18
#define TW_OID_DISK_SCHEDULER 19
#define TW_OID_DISK_NR_REQUESTS 20
#define TW_OID_DISK_READ_AHEAD_KB 21
#define TW_OID_DISK_WBT_LATENCY 22
#define TW_OID_DISK_ROTATIONAL 23
#define TW_OID_DISK_ALIAS 24		/* dm or md name */
#define TW_OID_DISK_STABLE_ID 25	/* wwid, NGUID, EUI, dm uuid */
#define TW_OID_DISK_TYPE 26

/* twTunableTable.1 twTunableEntry.N.<index> */
#define TW_OID_TUNABLE_ENTRY 1
#define TW_OID_TUNABLE_INDEX 1		/* INDEX */
#define TW_OID_TUNABLE_NAME 2
#define TW_OID_TUNABLE_VALUE 3

/* ---- The record of a change (issue 11: twObjects.7, twNotifications.4-5) */

/* twObjects.7 twChangeTable.1 twChangeEntry.N.<index> */
#define TW_OID_CHANGE_TABLE 7
#define TW_OID_CHANGE_ENTRY 1
#define TW_OID_CHANGE_INDEX 1		/* INDEX: counts down, newest first */
#define TW_OID_CHANGE_TUNABLE 2
#define TW_OID_CHANGE_SUBJECT 3
#define TW_OID_CHANGE_OLD_VALUE 4
#define TW_OID_CHANGE_NEW_VALUE 5
#define TW_OID_CHANGE_TIME 6		/* seconds since the epoch */
#define TW_OID_CHANGE_EVALUATED 7	/* TruthValue */
#define TW_OID_CHANGE_FIGURE 8
#define TW_OID_CHANGE_FIGURE_UNIT 9
#define TW_OID_CHANGE_BEFORE 10
#define TW_OID_CHANGE_AFTER 11
#define TW_OID_CHANGE_FINDING_ID 12

/* twNotifications.N */
#define TW_NOTIFY_TUNABLE_CHANGED 4
#define TW_NOTIFY_TUNABLE_CHANGE_EVALUATED 5
/* twSocketDropTable.1 twSocketDropEntry.N.<protocol>.<inode> */
#define TW_OID_SOCKDROP_ENTRY 1
#define TW_OID_SOCKDROP_PROTOCOL 1	/* INDEX: enum tw_udp_proto */
#define TW_OID_SOCKDROP_INODE 2		/* INDEX */
#define TW_OID_SOCKDROP_PROTOCOL_NAME 3
#define TW_OID_SOCKDROP_LOCAL_ADDRESS 4
#define TW_OID_SOCKDROP_LOCAL_PORT 5
#define TW_OID_SOCKDROP_DROPS 6
#define TW_OID_SOCKDROP_RECENT_DROPS 7
#define TW_OID_SOCKDROP_RX_QUEUE 8
#define TW_OID_SOCKDROP_OWNER_COMMAND 9
#define TW_OID_SOCKDROP_OWNER_PID 10
#define TW_OID_SOCKDROP_OWNER_SEARCHES_CUT 11
#define TW_OID_SOCKDROP_RCVBUF 12
#define TW_OID_SOCKDROP_RMEM_ALLOC 13
#define TW_OID_SOCKDROP_RMEM_MAX 14
#define TW_OID_SOCKDROP_OWNER_SEARCH 15	/* enum tw_owner_state */
#define TW_OID_SOCKDROP_UID 16
#define TW_OID_SOCKDROP_UID_SOCKETS 17	/* of that uid, dropping in the window */
#define TW_OID_SOCKDROP_UID_RECENT_DROPS 18
#define TW_OID_SOCKDROP_OWNER_CPU 19		/* hundredths of a percent of a CPU */
#define TW_OID_SOCKDROP_OWNER_CPU_WAIT 20
#define TW_OID_SOCKDROP_FULL_SHARE 21		/* of the window's intervals */

/* twObjects.8 twProbeTable.1 twProbeEntry.N.<major>.<minor>: the active
 * latency probe, one row per probed device, indexed as its twDiskEntry. */
#define TW_OID_PROBE_TABLE 8
#define TW_OID_PROBE_ENTRY 1
#define TW_OID_PROBE_MAJOR 1		/* INDEX */
#define TW_OID_PROBE_MINOR 2		/* INDEX */
#define TW_OID_PROBE_DEVICE 3
#define TW_OID_PROBE_STATE 4
#define TW_OID_PROBE_REASON 5
#define TW_OID_PROBE_RATE 6
#define TW_OID_PROBE_READ_SIZE 7
#define TW_OID_PROBE_WINDOW 8
#define TW_OID_PROBE_COUNT 9
#define TW_OID_PROBE_MIN 10
#define TW_OID_PROBE_P50 11
#define TW_OID_PROBE_P90 12
#define TW_OID_PROBE_P99 13
#define TW_OID_PROBE_MAX 14
#define TW_OID_PROBE_MEAN 15
#define TW_OID_PROBE_TIMEOUTS 16
#define TW_OID_PROBE_MISSED 17
#define TW_OID_PROBE_ERRORS 18
/* twGroups.10 */
#define TW_OID_PROBE_GROUP 10

/* twObjects.11 twReqLatTable.1 twReqLatEntry.N.<major>.<minor>.<direction>:
 * the distribution of every request, timed by the BPF program, one row
 * per disk and direction. */
#define TW_OID_REQLAT_ENTRY 1
#define TW_OID_REQLAT_MAJOR 1		/* INDEX */
#define TW_OID_REQLAT_MINOR 2		/* INDEX */
#define TW_OID_REQLAT_DIRECTION 3	/* INDEX: TW_REQLAT_DIR_* */
#define TW_OID_REQLAT_DEVICE 4
#define TW_OID_REQLAT_WINDOW 5
#define TW_OID_REQLAT_COUNT 6
#define TW_OID_REQLAT_P50 7
#define TW_OID_REQLAT_P90 8
#define TW_OID_REQLAT_P99 9
#define TW_OID_REQLAT_MAX 10
#define TW_OID_REQLAT_MEAN 11
#define TW_OID_REQLAT_QUEUED 12
#define TW_OID_REQLAT_QUEUE_P50 13
#define TW_OID_REQLAT_QUEUE_P90 14
#define TW_OID_REQLAT_QUEUE_P99 15
#define TW_OID_REQLAT_QUEUE_MAX 16
#define TW_OID_REQLAT_TOTAL 17

/* twReqLatDirection and twReqHistDirection values */
#define TW_REQLAT_DIR_READ 1
#define TW_REQLAT_DIR_WRITE 2

/* twObjects.12 twReqHistTable.1
 * twReqHistEntry.N.<major>.<minor>.<direction>.<bound>: its histogram,
 * cumulative. */
#define TW_OID_REQHIST_ENTRY 1
#define TW_OID_REQHIST_MAJOR 1		/* INDEX */
#define TW_OID_REQHIST_MINOR 2		/* INDEX */
#define TW_OID_REQHIST_DIRECTION 3	/* INDEX */
#define TW_OID_REQHIST_BOUND 4		/* INDEX: microseconds */
#define TW_OID_REQHIST_COUNT 5
#define TW_REQHIST_INF 4294967295u	/* the bound that stands for +Inf */

/* twGroups.19 */
#define TW_OID_REQLAT_GROUP 19

/* ---- Findings (issue 11): twFindings.N.0, and twFindingTable below it.
 * twFindingTable.1 twFindingEntry.N.<index> is the only table one level
 * below twObjects.N: column groups name it by (TW_OID_FINDINGS,
 * TW_OID_FINDING_TABLE). */
#define TW_OID_FINDING_COUNT 1
#define TW_OID_FINDING_LAST_CHANGE 2
#define TW_OID_FINDING_CAPACITY 3
#define TW_OID_FINDING_OVERFLOWS 4
#define TW_OID_FINDING_SUPPRESSED 5	/* notifications held back by the limit */
#define TW_OID_FINDING_RAISE_AFTER 6
#define TW_OID_FINDING_CLEAR_AFTER 7
#define TW_OID_FINDING_TABLE 8
#define TW_OID_FINDING_ENTRY 1
#define TW_OID_FINDING_INDEX 1		/* INDEX */
#define TW_OID_FINDING_ID 2
#define TW_OID_FINDING_SYMPTOM 3
#define TW_OID_FINDING_SUBJECT 4
#define TW_OID_FINDING_SEVERITY 5
#define TW_OID_FINDING_EVIDENCE 6
#define TW_OID_FINDING_TUNABLE 7
#define TW_OID_FINDING_CURRENT 8
#define TW_OID_FINDING_SUGGESTED 9
#define TW_OID_FINDING_APPLY 10
#define TW_OID_FINDING_PERSIST 11
#define TW_OID_FINDING_DOCUMENTATION 12
#define TW_OID_FINDING_RAISED 13
#define TW_OID_FINDING_CHANGED 14
#define TW_OID_FINDING_OWNER 15		/* whose a cgroup's subject is, in words */
#define TW_OID_FINDING_CLASS 16		/* TW_FINDING_CLASS_* */
#define TW_OID_FINDING_OWNER_UID 17
/* twFindings.N.0 after the table: notifications sent and dropped. */
#define TW_OID_FINDING_DROPPED 9	/* the queue to the master was full */
#define TW_OID_FINDING_SENT 10
#define TW_OID_FINDING_LIMIT 11		/* notificationsPerMinute in force */
/* twGroups.15 */
#define TW_OID_BOUNDS_GROUP 15

/* twFindingClass: what a finding threatens, highest first. */
#define TW_FINDING_CLASS_HOST 1
#define TW_FINDING_CLASS_SERVICE 2
#define TW_FINDING_CLASS_USER 3
#define TW_FINDING_CLASSES 3

/* TwSeverityType values, the checks' states */
#define TW_FINDING_WARNING 1
#define TW_FINDING_CRITICAL 2

/* twNotifications.N */
#define TW_NOTIFY_FINDING_RAISED 1
#define TW_NOTIFY_FINDING_CLEARED 2
#define TW_NOTIFY_FINDING_SEVERITY 3

/* twCgroupTable.1 twCgroupEntry.N.<index> */
#define TW_OID_CGROUP_ENTRY 1
#define TW_OID_CGROUP_INDEX 1		/* INDEX */
#define TW_OID_CGROUP_PATH 2
#define TW_OID_CGROUP_UNIT 3
#define TW_OID_CGROUP_VERSION 4
#define TW_OID_CGROUP_CACHE_BYTES 5
#define TW_OID_CGROUP_MEMORY_USAGE 6
#define TW_OID_CGROUP_MEMORY_LIMIT 7
#define TW_OID_CGROUP_LIMIT_NAME 8
#define TW_OID_CGROUP_REFAULTS 9
#define TW_OID_CGROUP_REFAULT_RATE 10
#define TW_OID_CGROUP_LIMIT_EVENTS 11
#define TW_OID_CGROUP_LIMIT_EVENT_RATE 12
#define TW_OID_CGROUP_MEMORY_PRESSURE 13
#define TW_OID_CGROUP_IO_PRESSURE 14
#define TW_OID_CGROUP_READ_BYTES 15
#define TW_OID_CGROUP_WRITTEN_BYTES 16
#define TW_OID_CGROUP_READ_RATE 17
#define TW_OID_CGROUP_WRITE_RATE 18
#define TW_OID_CGROUP_OWNER_KIND 19	/* enum tw_cg_owner_kind */
#define TW_OID_CGROUP_OWNER_UID 20
#define TW_OID_CGROUP_FILESET_BYTES 21
#define TW_OID_CGROUP_ANON_GROWTH 22
#define TW_OID_CGROUP_ANON_FALL 23

#endif
