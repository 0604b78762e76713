/* SPDX-License-Identifier: ISC */
/* The column table's entries for twSocketDropTable, the UDP sockets that drop. */
#include "config.h"

#include "view/columns_rows.h"

#include "collect/sockowner.h"

const struct tw_column tw_columns_sock[] = {
	[TW_OID_SOCKDROP_PROTOCOL] = { .name = "twSockDropProtocol", .smi = TW_SMI_UNSIGNED32,
	    .access = TW_ACCESS_NOT_ACCESSIBLE, .ranged = 1, .min = 1, .max = 4, .scale = 1 },
	[TW_OID_SOCKDROP_INODE] = INDEX("twSockDropInode", 0),
	[TW_OID_SOCKDROP_PROTOCOL_NAME] = STR("twSockDropProtocolName", struct tw_view_sock,
	    proto_name, READ, NAME(struct tw_socket_record, proto_name)),
	[TW_OID_SOCKDROP_LOCAL_ADDRESS] = STR("twSockDropLocalAddress", struct tw_view_sock,
	    address, READ, NAME(struct tw_socket_record, address)),
	[TW_OID_SOCKDROP_LOCAL_PORT] = RANGED_UNITS("twSockDropLocalPort", TW_SMI_UNSIGNED32, 0,
	    65535, NULL, READ, INT(struct tw_socket_record, port)),
	[TW_OID_SOCKDROP_DROPS] = NUM("twSockDropDrops", TW_SMI_COUNTER64, "datagrams", SKIP,
	    REAL(struct tw_socket_record, drops)),
	[TW_OID_SOCKDROP_RECENT_DROPS] = NUM("twSockDropRecentDrops", TW_SMI_GAUGE32, "datagrams",
	    READ, REAL(struct tw_socket_record, recent_drops)),
	[TW_OID_SOCKDROP_RX_QUEUE] = NUM("twSockDropRxQueue", TW_SMI_GAUGE32, "bytes", SKIP,
	    REAL(struct tw_socket_record, rx_queue_bytes)),
	[TW_OID_SOCKDROP_OWNER_COMMAND] = STR("twSockDropOwnerCommand", struct tw_view_sock,
	    command, READ, TEXT(struct tw_socket_record, command)),
	[TW_OID_SOCKDROP_OWNER_PID] = NUM("twSockDropOwnerPid", TW_SMI_UNSIGNED32, NULL, READ,
	    INT(struct tw_socket_record, pid)),
	[TW_OID_SOCKDROP_OWNER_SEARCHES_CUT] = NUM("twSockDropOwnerSearchesCut",
	    TW_SMI_COUNTER64, "searches", SKIP, COUNT(struct tw_socket_record, searches_cut)),
	[TW_OID_SOCKDROP_RCVBUF] = NUM("twSockDropRcvbuf", TW_SMI_UNSIGNED32, "bytes", READ,
	    REAL(struct tw_socket_record, rcvbuf_bytes)),
	[TW_OID_SOCKDROP_RMEM_ALLOC] = NUM("twSockDropRmemAlloc", TW_SMI_GAUGE32, "bytes", SKIP,
	    REAL(struct tw_socket_record, rmem_alloc_bytes)),
	[TW_OID_SOCKDROP_RMEM_MAX] = NUM("twSockDropRmemMax", TW_SMI_UNSIGNED32, "bytes", READ,
	    REAL(struct tw_socket_record, rmem_max_bytes)),
	[TW_OID_SOCKDROP_OWNER_SEARCH] = RANGED_UNITS("twSockDropOwnerSearch",
	    TW_SMI_ENUMERATION, TW_OWNER_UNKNOWN, TW_OWNER_CUT, NULL, READ,
	    INT(struct tw_socket_record, owner_search)),
	[TW_OID_SOCKDROP_UID] = NUM("twSockDropUid", TW_SMI_UNSIGNED32, NULL, READ,
	    INT(struct tw_socket_record, uid)),
	[TW_OID_SOCKDROP_UID_SOCKETS] = NUM("twSockDropUidSockets", TW_SMI_GAUGE32, "sockets",
	    READ, REAL(struct tw_socket_record, uid_sockets)),
	[TW_OID_SOCKDROP_UID_RECENT_DROPS] = NUM("twSockDropUidRecentDrops", TW_SMI_GAUGE32,
	    "datagrams", READ, REAL(struct tw_socket_record, uid_recent_drops)),
	[TW_OID_SOCKDROP_OWNER_CPU] = SCALED("twSockDropOwnerCpu", TW_SMI_HUNDREDTHS, "percent",
	    100, "%", READ, REAL(struct tw_socket_record, owner_cpu)),
	[TW_OID_SOCKDROP_OWNER_CPU_WAIT] = SCALED("twSockDropOwnerCpuWait", TW_SMI_HUNDREDTHS,
	    "percent", 100, "%", READ, REAL(struct tw_socket_record, owner_cpu_wait)),
	[TW_OID_SOCKDROP_FULL_SHARE] = PERCENT("twSockDropFullShare",
	    REAL(struct tw_socket_record, full_share)),
};

_Static_assert(NCOLS(tw_columns_sock) == TW_VIEW_SOCK_COLS,
    "twSocketDropEntry and the view disagree");
