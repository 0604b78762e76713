#include "config.h"

#include "collect/blockident.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/readfile.h"
#include "util/error.h"
#include "util/escape.h"

/* Longest device name we look up: a sysfs directory entry. */
#define IDENT_DEV_MAX 255

static const char *const type_names[] = {
	[TW_DISK_TYPE_UNKNOWN] = "unknown",
	[TW_DISK_TYPE_DISK] = "disk",
	[TW_DISK_TYPE_NVME] = "nvme",
	[TW_DISK_TYPE_DM] = "dm",
	[TW_DISK_TYPE_MULTIPATH] = "multipath",
	[TW_DISK_TYPE_MD] = "md",
	[TW_DISK_TYPE_LOOP] = "loop",
	[TW_DISK_TYPE_RAM] = "ram",
	[TW_DISK_TYPE_ZRAM] = "zram",
};

void
tw_ident_init(struct tw_blockident *id)
{
	id->alias[0] = '\0';
	id->stable_id[0] = '\0';
	id->type = TW_DISK_TYPE_UNKNOWN;
}

const char *
tw_disk_type_name(enum tw_disk_type t)
{
	if ((unsigned)t >= sizeof(type_names) / sizeof(type_names[0]))
		return type_names[TW_DISK_TYPE_UNKNOWN];
	return type_names[t];
}

static int
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int
tw_ident_parse_value(const char *text, size_t len, char *out, size_t outlen)
{
	size_t start = 0;

	if (out == NULL || outlen == 0)
		return TW_E_INVAL;
	out[0] = '\0';
	if (text == NULL)
		return TW_E_INVAL;
	while (start < len && blank(text[start]))
		start++;
	while (len > start && blank(text[len - 1]))
		len--;
	if (len == start)
		return TW_E_INVAL;
	/* Whoever made the device chose its dm or md name: kept, shown. A
	 * name cut short would be another device's, so it fits whole or
	 * not at all. */
	if (tw_escape(out, outlen, text + start, len - start) != TW_OK) {
		out[0] = '\0';
		return TW_E_TOOBIG;
	}
	return TW_OK;
}

/* Does s start with prefix and go on with one or more digits only? */
static int
prefix_digits(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) != 0 || s[n] == '\0')
		return 0;
	for (s += n; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* nvme<ctrl>n<ns>: a namespace (nvme0c0n1, a multipath path's hidden
 * node, never reaches diskstats). */
static int
nvme_namespace(const char *s)
{
	const char *p = s + 4;

	if (strncmp(s, "nvme", 4) != 0 || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == 'n' && prefix_digits(p, "n");
}

enum tw_disk_type
tw_ident_classify(const char *dev, int has_dir, int has_dm, int has_md, const char *dm_uuid)
{
	if (dev == NULL)
		return TW_DISK_TYPE_UNKNOWN;
	if (has_dm)
		return dm_uuid != NULL && strncmp(dm_uuid, "mpath-", 6) == 0 ?
		    TW_DISK_TYPE_MULTIPATH : TW_DISK_TYPE_DM;
	if (has_md)
		return TW_DISK_TYPE_MD;
	if (prefix_digits(dev, "loop"))
		return TW_DISK_TYPE_LOOP;
	if (prefix_digits(dev, "ram"))
		return TW_DISK_TYPE_RAM;
	if (prefix_digits(dev, "zram"))
		return TW_DISK_TYPE_ZRAM;
	if (nvme_namespace(dev))
		return TW_DISK_TYPE_NVME;
	return has_dir ? TW_DISK_TYPE_DISK : TW_DISK_TYPE_UNKNOWN;
}

/* An attribute of dir into out; "" when missing or malformed. */
static void
read_attr(int sys_fd, const char *dir, const char *attr, char *out, size_t outlen)
{
	char path[IDENT_DEV_MAX + 64], val[512];

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	if (tw_read_value_at(sys_fd, path, val, sizeof(val)) != TW_OK)
		return;
	(void)tw_ident_parse_value(val, strlen(val), out, outlen);
}

static int
is_dir(int sys_fd, const char *dir, const char *sub)
{
	char path[IDENT_DEV_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s%s", dir, sub[0] ? "/" : "", sub);
	return fstatat(sys_fd, path, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

/* An all-zero NGUID or EUI is the kernel saying the namespace has none. */
static int
all_zero(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s != '0' && *s != '-' && *s != ':')
			return 0;
	return 1;
}

/* block/<dev>, with '/' as '!' the way sysfs names cciss/c0d0. */
static int
dev_dir(const char *dev, char *dir, size_t dirlen)
{
	size_t len, i;

	if (dev == NULL)
		return TW_E_INVAL;
	len = strlen(dev);
	if (len == 0 || len > IDENT_DEV_MAX || strcmp(dev, ".") == 0 ||
	    strcmp(dev, "..") == 0 || len + sizeof("block/") > dirlen)
		return TW_E_INVAL;
	memcpy(dir, "block/", 6);
	for (i = 0; i < len; i++)
		dir[6 + i] = dev[i] == '/' ? '!' : dev[i];
	dir[6 + len] = '\0';
	return TW_OK;
}

int
tw_ident_read(int sys_fd, const char *dev, struct tw_blockident *id)
{
	char dir[IDENT_DEV_MAX + 16], uuid[TW_IDENT_LEN], v[TW_IDENT_LEN];
	int rc, has_dm, has_md;

	tw_ident_init(id);
	if ((rc = dev_dir(dev, dir, sizeof(dir))) != TW_OK)
		return rc;
	if (sys_fd < 0 || !is_dir(sys_fd, dir, "")) {
		id->type = tw_ident_classify(dev, 0, 0, 0, NULL);
		return TW_E_ABSENT;
	}
	has_dm = is_dir(sys_fd, dir, "dm");
	has_md = is_dir(sys_fd, dir, "md");
	uuid[0] = '\0';
	if (has_dm) {
		read_attr(sys_fd, dir, "dm/name", id->alias, sizeof(id->alias));
		read_attr(sys_fd, dir, "dm/uuid", uuid, sizeof(uuid));
	} else if (has_md && strncmp(dev, "md_", 3) == 0) {
		/* A named array ("md_home") is the kernel's only md name; the
		 * /dev/md/ names are udev's, from the metadata, not in sysfs. */
		(void)tw_ident_parse_value(dev + 3, strlen(dev + 3), id->alias,
		    sizeof(id->alias));
	}
	id->type = tw_ident_classify(dev, 1, has_dm, has_md, uuid);

	/* The most specific identifier first: the kernel's own wwid (NVMe
	 * namespaces), the SCSI device's, then the NVMe IDs it is made of. */
	read_attr(sys_fd, dir, "wwid", id->stable_id, sizeof(id->stable_id));
	if (id->stable_id[0] == '\0')
		read_attr(sys_fd, dir, "device/wwid", id->stable_id, sizeof(id->stable_id));
	if (id->stable_id[0] == '\0') {
		read_attr(sys_fd, dir, "nguid", v, sizeof(v));
		if (v[0] != '\0' && !all_zero(v))
			snprintf(id->stable_id, sizeof(id->stable_id), "nguid.%.*s",
			    (int)(sizeof(id->stable_id) - 7), v);
	}
	if (id->stable_id[0] == '\0') {
		read_attr(sys_fd, dir, "eui", v, sizeof(v));
		if (v[0] != '\0' && !all_zero(v))
			snprintf(id->stable_id, sizeof(id->stable_id), "eui.%.*s",
			    (int)(sizeof(id->stable_id) - 5), v);
	}
	/* LVM's and multipath's uuids name the volume across reboots. */
	if (id->stable_id[0] == '\0' && uuid[0] != '\0')
		memcpy(id->stable_id, uuid, sizeof(uuid));
	return TW_OK;
}

int
tw_ident_slaves(int sys_fd, const char *dev, void (*each)(const char *name, void *ctx),
    void *ctx)
{
	char dir[IDENT_DEV_MAX + 32];
	struct dirent *e;
	DIR *d;
	int fd, rc;

	if ((rc = dev_dir(dev, dir, sizeof(dir))) != TW_OK)
		return rc;
	if (sys_fd < 0)
		return TW_E_ABSENT;
	strcat(dir, "/slaves");
	fd = openat(sys_fd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == EACCES ? TW_E_ACCESS : TW_E_ABSENT;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return TW_E_NOMEM;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		each(e->d_name, ctx);
	}
	closedir(d);
	return TW_OK;
}
