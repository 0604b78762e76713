#include "config.h"

#include "collect/sysctl.h"

#include <string.h>

#include "util/readfile.h"
#include "util/scan.h"
#include "util/error.h"
#include "util/escape.h"

/* In enum order: the index is the MIB's table index. */
static const char *const sysctl_names[] = {
	[TW_SYSCTL_VM_DIRTY_RATIO] = "vm.dirty_ratio",
	[TW_SYSCTL_VM_DIRTY_BACKGROUND_RATIO] = "vm.dirty_background_ratio",
	[TW_SYSCTL_VM_DIRTY_BYTES] = "vm.dirty_bytes",
	[TW_SYSCTL_VM_DIRTY_BACKGROUND_BYTES] = "vm.dirty_background_bytes",
	[TW_SYSCTL_VM_VFS_CACHE_PRESSURE] = "vm.vfs_cache_pressure",
	[TW_SYSCTL_VM_SWAPPINESS] = "vm.swappiness",
	[TW_SYSCTL_VM_MIN_FREE_KBYTES] = "vm.min_free_kbytes",
	[TW_SYSCTL_VM_WATERMARK_SCALE_FACTOR] = "vm.watermark_scale_factor",
	[TW_SYSCTL_NET_CORE_NETDEV_MAX_BACKLOG] = "net.core.netdev_max_backlog",
	[TW_SYSCTL_NET_CORE_NETDEV_BUDGET] = "net.core.netdev_budget",
	[TW_SYSCTL_NET_CORE_NETDEV_BUDGET_USECS] = "net.core.netdev_budget_usecs",
	[TW_SYSCTL_NET_CORE_RMEM_MAX] = "net.core.rmem_max",
	[TW_SYSCTL_NET_CORE_RMEM_DEFAULT] = "net.core.rmem_default",
	[TW_SYSCTL_NET_CORE_WMEM_MAX] = "net.core.wmem_max",
	[TW_SYSCTL_NET_CORE_WMEM_DEFAULT] = "net.core.wmem_default",
	[TW_SYSCTL_NET_CORE_SOMAXCONN] = "net.core.somaxconn",
	[TW_SYSCTL_NET_CORE_BUSY_POLL] = "net.core.busy_poll",
	[TW_SYSCTL_NET_IPV4_TCP_MEM] = "net.ipv4.tcp_mem",
	[TW_SYSCTL_NET_IPV4_TCP_RMEM] = "net.ipv4.tcp_rmem",
	[TW_SYSCTL_NET_IPV4_TCP_WMEM] = "net.ipv4.tcp_wmem",
	[TW_SYSCTL_NET_IPV4_UDP_MEM] = "net.ipv4.udp_mem",
	[TW_SYSCTL_NET_IPV4_TCP_MAX_SYN_BACKLOG] = "net.ipv4.tcp_max_syn_backlog",
};

/* An id appended to the enum without its name here fails the build. */
_Static_assert(sizeof(sysctl_names) / sizeof(sysctl_names[0]) == TW_SYSCTL_COUNT,
    "sysctl_names must name every enum tw_sysctl_id");

/* Longest path: "sys/" and the longest name. */
#define SYSCTL_PATH_LEN 64

const char *
tw_sysctl_name(enum tw_sysctl_id id)
{
	/* The enum may be unsigned: compare as int so a negative id fails. */
	if ((int)id < 0 || (int)id >= TW_SYSCTL_COUNT)
		return NULL;
	return sysctl_names[id];
}

int
tw_sysctl_lookup(const char *name)
{
	int i;

	if (name == NULL)
		return -1;
	for (i = 0; i < TW_SYSCTL_COUNT; i++)
		if (sysctl_names[i] != NULL && strcmp(sysctl_names[i], name) == 0)
			return i;
	return -1;
}

/* A value as it is published: the kernel separates a vector's fields by
 * tabs ("4096\t131072\t6291456"), which a DisplayString should not hold,
 * so each run of blanks is one space and blanks around the value go;
 * anything else is shown as
 * util/escape.h says (every value read today is numbers). */
static int
shown_value(const char *raw, char *out, size_t outlen)
{
	char spaced[TW_SYSCTL_VALUE_LEN];
	size_t i, n = 0;

	for (i = 0; raw[i] != '\0' && n + 1 < sizeof(spaced); i++) {
		if (raw[i] != ' ' && raw[i] != '\t')
			spaced[n++] = raw[i];
		else if (n > 0 && spaced[n - 1] != ' ')
			spaced[n++] = ' ';
	}
	while (n > 0 && spaced[n - 1] == ' ')
		n--;
	return tw_escape(out, outlen, spaced, n);
}

int
tw_sysctl_read_all(int proc_fd, struct tw_sysctl_set *out)
{
	char path[SYSCTL_PATH_LEN], raw[TW_SYSCTL_VALUE_LEN];
	int i;

	if (out == NULL)
		return TW_E_INVAL;
	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		struct tw_sysctl_value *v = &out->v[i];
		const char *name = sysctl_names[i];
		size_t j, len = name != NULL ? strlen(name) : sizeof(path);

		/* "vm.dirty_ratio" lives at sys/vm/dirty_ratio. The names are
		 * ours and short; the check keeps a long one added later from
		 * being cut silently. */
		if (len + sizeof("sys/") > sizeof(path)) {
			v->rc = TW_E_TOOBIG;
			v->text[0] = '\0';
			continue;
		}
		memcpy(path, "sys/", 4);
		for (j = 0; j <= len; j++)
			path[4 + j] = name[j] == '.' ? '/' : name[j];
		v->rc = tw_read_value_at(proc_fd, path, raw, sizeof(raw));
		if (v->rc == TW_OK)
			v->rc = shown_value(raw, v->text, sizeof(v->text));
		if (v->rc != TW_OK)
			v->text[0] = '\0';
	}
	return TW_OK;
}

int
tw_sysctl_field(const char *text, unsigned n, int64_t *out)
{
	struct tw_tokens it;
	const char *tok;
	size_t tlen;
	unsigned i;

	if (text == NULL || out == NULL)
		return TW_E_INVAL;
	tw_tokens_init(&it, text, strlen(text));
	for (i = 0; i <= n; i++)
		if (!tw_tokens_next(&it, &tok, &tlen))
			return TW_E_INVAL;
	return tw_parse_i64(tok, tlen, out);
}
