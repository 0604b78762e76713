/* /sys/block/<dev>: the names an administrator knows a device by, beside
 * the kernel's own: the device-mapper name (dm/name: "vg0-root" for dm-3),
 * the md array name, a stable identifier (wwid, NVMe NGUID or EUI, the
 * device-mapper uuid) and what kind of device it is. They change rarely,
 * so the sampler reads them when a device appears and with its queue
 * tunables (blockqueue.h). Kernel names survive no reboot; these do. */
#ifndef TW_BLOCKIDENT_H
#define TW_BLOCKIDENT_H

#include <stddef.h>

#define TW_IDENT_LEN 128

/* Append, never reorder: the names are published (twDiskType). */
enum tw_disk_type {
	TW_DISK_TYPE_UNKNOWN,	/* no /sys/block/<dev> to say */
	TW_DISK_TYPE_DISK,	/* a whole disk (sd, vd, xvd, mmcblk...) */
	TW_DISK_TYPE_NVME,	/* an NVMe namespace */
	TW_DISK_TYPE_DM,	/* a device-mapper device (LVM, crypt...) */
	TW_DISK_TYPE_MULTIPATH,	/* a dm-multipath head */
	TW_DISK_TYPE_MD,	/* an md (software RAID) array */
	TW_DISK_TYPE_LOOP,
	TW_DISK_TYPE_RAM,
	TW_DISK_TYPE_ZRAM,
};

/* Both names are shown (util/escape.h). */
struct tw_blockident {
	char alias[TW_IDENT_LEN];	/* dm or md name; "" when none */
	char stable_id[TW_IDENT_LEN];	/* "" when the device has none */
	enum tw_disk_type type;
};

void tw_ident_init(struct tw_blockident *id);

/* The word twDiskType publishes for t: "disk", "nvme", "dm", ... */
const char *tw_disk_type_name(enum tw_disk_type t);

/* One sysfs name or identifier into out, shown (util/escape.h): blanks and
 * newlines around it are dropped, blanks inside kept (a SCSI t10 wwid has
 * them), anything else a name may hold escaped. TW_E_INVAL when nothing is
 * left, TW_E_TOOBIG when its shown form does not fit; out is "" on error. */
int tw_ident_parse_value(const char *text, size_t len, char *out, size_t outlen);

/* The kind of device dev is, from its name and what its sysfs directory
 * has: a dm/ directory (with dm/uuid, "mpath-..." for multipath), an md/
 * directory. has_dir says /sys/block/<dev> exists at all. */
enum tw_disk_type tw_ident_classify(const char *dev, int has_dir, int has_dm, int has_md,
    const char *dm_uuid);

/* Read dev's names under sys_fd (the --sys-root). TW_E_ABSENT when there is
 * no block/<dev> (a partition, or no sysfs); a missing or malformed
 * attribute leaves its field "" and is never an error. */
int tw_ident_read(int sys_fd, const char *dev, struct tw_blockident *id);

/* Call each(name, ctx) for every entry of block/<dev>/slaves: the devices
 * a dm device (a multipath head: its paths) is built on. TW_E_ABSENT
 * without such a directory. */
int tw_ident_slaves(int sys_fd, const char *dev, void (*each)(const char *name, void *ctx),
    void *ctx);

#endif
