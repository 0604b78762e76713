/* The OIDs of TUNEWATCH-MIB (mib/TUNEWATCH-MIB.txt), for tunewatchd and the
 * plugins, which use numeric OIDs only and load no MIB file.
 *
 * The enterprise arc is defined here and in the MIB's MODULE-IDENTITY;
 * tests/mib_oids.sh checks every number below against the MIB with
 * snmptranslate, so the two cannot drift apart. MIB-README says how to move
 * the arc to a registered enterprise number. */
#ifndef TW_TUNEWATCH_OIDS_H
#define TW_TUNEWATCH_OIDS_H

/* tunewatchMIB ::= { netSnmpPlaypen 8863 }: Net-SNMP's arc for
 * experimental MIBs (NET-SNMP-MIB), until the project has its own. */
#define TW_MIB_ARC 1, 3, 6, 1, 4, 1, 8072, 9999, 9999, 8863
#define TW_MIB_ARC_LEN 10

/* tunewatchMIB.1 twObjects; .2 twConformance */
#define TW_OID_OBJECTS 1
#define TW_OID_CONFORMANCE 2

/* twObjects.N: groups and tables */
#define TW_OID_AGENT 1		/* scalars */
#define TW_OID_BUFCACHE 2	/* scalars */
#define TW_OID_DBLOCK_TABLE 3
#define TW_OID_DISK_TABLE 4
#define TW_OID_TUNABLE_TABLE 5

/* twAgent.N.0 */
#define TW_OID_AGENT_VERSION 1		/* DisplayString */
#define TW_OID_AGENT_INTERVAL 2		/* Unsigned32 seconds */
#define TW_OID_AGENT_WINDOW 3		/* Unsigned32 seconds */
#define TW_OID_AGENT_SAMPLE_AGE 4	/* Unsigned32 milliseconds */
#define TW_OID_AGENT_MALFORMED 5	/* Counter64 lines */
#define TW_OID_AGENT_WINDOW_SAMPLES 6	/* Unsigned32 */
#define TW_OID_AGENT_WINDOW_SPAN 7	/* Unsigned32 milliseconds */
#define TW_OID_AGENT_SYSTEM 8		/* DisplayString, e.g. "Linux 6.1.0-18-amd64" */
#define TW_OID_AGENT_SAMPLES 9		/* Counter64 */

/* twBufferCache.N.0 */
#define TW_OID_BC_MEM_TOTAL 1		/* CounterBasedGauge64 bytes */
#define TW_OID_BC_MEM_AVAILABLE 2	/* CounterBasedGauge64 bytes */
#define TW_OID_BC_CACHED 3		/* CounterBasedGauge64 bytes */
#define TW_OID_BC_BUFFERS 4		/* CounterBasedGauge64 bytes */
#define TW_OID_BC_DIRTY 5		/* CounterBasedGauge64 bytes */
#define TW_OID_BC_WRITEBACK 6		/* CounterBasedGauge64 bytes */
#define TW_OID_BC_READ_HIT_RATIO 7	/* TwHundredths percent, windowed */
#define TW_OID_BC_HIT_RATIO_METHOD 8	/* DisplayString */
#define TW_OID_BC_LOGICAL_READ_BYTES 9	/* Counter64 bytes */
#define TW_OID_BC_PHYSICAL_READ_BYTES 10	/* Counter64 bytes */
#define TW_OID_BC_HIT_RATIO_PROCESSES 11	/* Unsigned32 */
#define TW_OID_BC_HIT_RATIO_UNREADABLE 12	/* Unsigned32 */
#define TW_OID_BC_REFAULTS 13		/* Counter64 pages */
#define TW_OID_BC_REFAULT_RATE 14	/* TwHundredths pages/s, windowed */
#define TW_OID_BC_MAJOR_FAULTS 15	/* Counter64 */
#define TW_OID_BC_MAJOR_FAULT_RATE 16	/* TwHundredths faults/s, windowed */
#define TW_OID_BC_PAGE_IN_RATE 17	/* TwHundredths KiB/s, windowed */
#define TW_OID_BC_MEMORY_PRESSURE 18	/* TwHundredths percent (PSI some avg10) */
#define TW_OID_BC_IO_PRESSURE 19	/* TwHundredths percent (PSI some avg10) */
#define TW_OID_BC_SWAP_TOTAL 20		/* CounterBasedGauge64 bytes */
#define TW_OID_BC_SWAP_FREE 21		/* CounterBasedGauge64 bytes */

/* twDblockTable.1 twDblockEntry.N.<class>.<instance> */
#define TW_OID_DBLOCK_ENTRY 1
#define TW_OID_DBLOCK_CLASS 1		/* INDEX: TwDblockClassType, not-accessible */
#define TW_OID_DBLOCK_INSTANCE 2	/* INDEX: Unsigned32, not-accessible */
#define TW_OID_DBLOCK_NAME 3		/* DisplayString */
#define TW_OID_DBLOCK_SIZE 4		/* Unsigned32 bytes */
#define TW_OID_DBLOCK_IN_USE 5		/* Gauge32 */
#define TW_OID_DBLOCK_FREE 6		/* Gauge32 */
#define TW_OID_DBLOCK_LIMIT 7		/* Gauge32 */
#define TW_OID_DBLOCK_FAILURES 8	/* Counter64 */
#define TW_OID_DBLOCK_RECENT_FAILURES 9	/* Gauge32, windowed */
#define TW_OID_DBLOCK_TUNABLE 10	/* DisplayString */
#define TW_OID_DBLOCK_FAILURE_EVENT 11	/* DisplayString: what one failure is */

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
#define TW_OID_DISK_MAJOR 1		/* INDEX: Unsigned32, not-accessible */
#define TW_OID_DISK_MINOR 2		/* INDEX: Unsigned32, not-accessible */
#define TW_OID_DISK_NAME 3		/* DisplayString */
#define TW_OID_DISK_READS 4		/* Counter64 */
#define TW_OID_DISK_WRITES 5		/* Counter64 */
#define TW_OID_DISK_READ_BYTES 6	/* Counter64 bytes */
#define TW_OID_DISK_WRITTEN_BYTES 7	/* Counter64 bytes */
#define TW_OID_DISK_READ_TIME 8		/* Counter64 milliseconds */
#define TW_OID_DISK_WRITE_TIME 9	/* Counter64 milliseconds */
#define TW_OID_DISK_READ_OPS 10		/* TwHundredths reads/s, windowed */
#define TW_OID_DISK_WRITE_OPS 11	/* TwHundredths writes/s, windowed */
#define TW_OID_DISK_READ_RATE 12	/* CounterBasedGauge64 bytes/s, windowed */
#define TW_OID_DISK_WRITE_RATE 13	/* CounterBasedGauge64 bytes/s, windowed */
#define TW_OID_DISK_READ_LATENCY 14	/* Unsigned32 microseconds (r_await), windowed */
#define TW_OID_DISK_WRITE_LATENCY 15	/* Unsigned32 microseconds (w_await), windowed */
#define TW_OID_DISK_QUEUE_DEPTH 16	/* TwHundredths (aqu-sz), windowed */
#define TW_OID_DISK_UTIL 17		/* TwHundredths percent (%util), windowed */
#define TW_OID_DISK_IN_FLIGHT 18	/* Gauge32 */
#define TW_OID_DISK_SCHEDULER 19	/* DisplayString */
#define TW_OID_DISK_NR_REQUESTS 20	/* Unsigned32 */
#define TW_OID_DISK_READ_AHEAD_KB 21	/* Unsigned32 kilobytes */
#define TW_OID_DISK_WBT_LATENCY 22	/* Integer32 microseconds */
#define TW_OID_DISK_ROTATIONAL 23	/* TruthValue */

/* twTunableTable.1 twTunableEntry.N.<index> */
#define TW_OID_TUNABLE_ENTRY 1
#define TW_OID_TUNABLE_INDEX 1		/* INDEX: Unsigned32 (1..), not-accessible */
#define TW_OID_TUNABLE_NAME 2		/* DisplayString */
#define TW_OID_TUNABLE_VALUE 3		/* DisplayString */

#endif
