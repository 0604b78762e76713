/* SPDX-License-Identifier: ISC */
/* The column table's rows of twSocketDropTable, the UDP sockets that drop. */
#include "config.h"

#include "view/columns_rows.h"

#include "collect/sockowner.h"

const struct tw_column tw_columns_sock[] = {
	[TW_OID_SOCKDROP_PROTOCOL] = { .name = "twSockDropProtocol", .smi = TW_SMI_UNSIGNED32,
	    .access = TW_ACCESS_NOT_ACCESSIBLE, .ranged = 1, .min = 1, .max = 4, .scale = 1 },
	[TW_OID_SOCKDROP_INODE] = INDEX("twSockDropInode", 0),
	[TW_OID_SOCKDROP_PROTOCOL_NAME] = STR("twSockDropProtocolName", struct tw_view_sock,
	    proto_name, READ),
	[TW_OID_SOCKDROP_LOCAL_ADDRESS] = STR("twSockDropLocalAddress", struct tw_view_sock,
	    address, READ),
	[TW_OID_SOCKDROP_LOCAL_PORT] = RANGED_UNITS("twSockDropLocalPort", TW_SMI_UNSIGNED32, 0,
	    65535, NULL, READ),
	[TW_OID_SOCKDROP_DROPS] = NUM("twSockDropDrops", TW_SMI_COUNTER64, "datagrams", SKIP),
	[TW_OID_SOCKDROP_RECENT_DROPS] = NUM("twSockDropRecentDrops", TW_SMI_GAUGE32, "datagrams",
	    READ),
	[TW_OID_SOCKDROP_RX_QUEUE] = NUM("twSockDropRxQueue", TW_SMI_GAUGE32, "bytes", SKIP),
	[TW_OID_SOCKDROP_OWNER_COMMAND] = STR("twSockDropOwnerCommand", struct tw_view_sock,
	    command, READ),
	[TW_OID_SOCKDROP_OWNER_PID] = NUM("twSockDropOwnerPid", TW_SMI_UNSIGNED32, NULL, READ),
	[TW_OID_SOCKDROP_OWNER_SEARCHES_CUT] = NUM("twSockDropOwnerSearchesCut",
	    TW_SMI_COUNTER64, "searches", SKIP),
	[TW_OID_SOCKDROP_RCVBUF] = NUM("twSockDropRcvbuf", TW_SMI_UNSIGNED32, "bytes", READ),
	[TW_OID_SOCKDROP_RMEM_ALLOC] = NUM("twSockDropRmemAlloc", TW_SMI_GAUGE32, "bytes", SKIP),
	[TW_OID_SOCKDROP_RMEM_MAX] = NUM("twSockDropRmemMax", TW_SMI_UNSIGNED32, "bytes", READ),
	[TW_OID_SOCKDROP_OWNER_SEARCH] = RANGED_UNITS("twSockDropOwnerSearch",
	    TW_SMI_ENUMERATION, TW_OWNER_UNKNOWN, TW_OWNER_CUT, NULL, READ),
};

_Static_assert(NCOLS(tw_columns_sock) == TW_VIEW_SOCK_COLS,
    "twSocketDropEntry and the view disagree");
