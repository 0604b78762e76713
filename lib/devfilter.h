/* Which block devices to watch: include and exclude POSIX extended regular
 * expressions over the kernel's device name. The plugins' --device and
 * --pool options filter device and pool names the same way.
 *
 * By default loop, ram and zram devices and partitions are left out, as
 * node_exporter does: they either mirror a whole disk's figures or carry
 * none worth alerting on. */
#ifndef TW_DEVFILTER_H
#define TW_DEVFILTER_H

#include <regex.h>
#include <stddef.h>

#define TW_DISK_EXCLUDE_DEFAULT \
	"^(ram|zram|loop|fd)[0-9]+$|^(h|s|v|xv)d[a-z]+[0-9]+$|" \
	"^nvme[0-9]+n[0-9]+p[0-9]+$|^mmcblk[0-9]+p[0-9]+$|^md[0-9]+p[0-9]+$"

enum tw_devfilter_side {
	TW_DEVFILTER_INCLUDE,
	TW_DEVFILTER_EXCLUDE,
};

/* Zeroed, a filter keeps every name. */
struct tw_devfilter {
	regex_t include;
	regex_t exclude;
	int has_include;
	int has_exclude;
};

/* include NULL keeps every device the exclusion spares; exclude NULL means
 * TW_DISK_EXCLUDE_DEFAULT and "" means exclude nothing. A bad expression is
 * TW_E_INVAL with regerror()'s text in err. */
int tw_devfilter_init(struct tw_devfilter *f, const char *include, const char *exclude,
    char *err, size_t errlen);
/* Set or replace one side with expr, taken as it is ("" matches every
 * name). A bad expression is TW_E_INVAL with regerror()'s text in msg, and
 * leaves that side unset. */
int tw_devfilter_set(struct tw_devfilter *f, enum tw_devfilter_side side, const char *expr,
    char *msg, size_t msglen);
void tw_devfilter_free(struct tw_devfilter *f);
int tw_devfilter_keep(const struct tw_devfilter *f, const char *name);

#endif
