/* The numbers of TUNEWATCH-MIB (mib/TUNEWATCH-MIB.txt), for tunewatchd, the
 * plugins (which use numeric OIDs only and load no MIB file) and the tests.
 *
 * Only numbers: each object's name, SMI type, range and units are in the
 * column table (lib/view/columns.c), one row per object. tests/mib_text
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
#define TW_OID_CGROUP_TABLE 9

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

#endif
