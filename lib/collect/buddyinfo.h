/* SPDX-License-Identifier: ISC */
/* /proc/buddyinfo: free blocks of each order (2^order pages), per node
 * and zone. Large contiguous buffers come from the high orders. */
#ifndef TW_BUDDYINFO_H
#define TW_BUDDYINFO_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

#define TW_BUDDY_MAX_ORDERS 32
#define TW_BUDDY_ZONE_LEN 16

struct tw_buddy_zone {
	uint32_t node;
	char zone[TW_BUDDY_ZONE_LEN];	/* "DMA", "DMA32", "Normal", "Movable" */
	uint32_t norders;
	uint64_t free[TW_BUDDY_MAX_ORDERS];	/* free blocks of each order */
};

struct tw_buddy_set {
	struct tw_buddy_zone *zones;	/* in file order */
	size_t count;
	size_t cap;
};

void tw_buddy_set_init(struct tw_buddy_set *s);
void tw_buddy_set_free(struct tw_buddy_set *s);

/* Lines "Node 0, zone   Normal   n0 n1 ... nK". */
int tw_buddyinfo_parse(const char *text, size_t len, struct tw_buddy_set *out,
    struct tw_parse_stats *ps);
int tw_buddyinfo_read(int proc_fd, struct tw_buf *scratch, struct tw_buddy_set *out,
    struct tw_parse_stats *ps);

#endif
