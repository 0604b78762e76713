/* SPDX-License-Identifier: ISC */
/* mib/TUNEWATCH-MIB.txt against the column table (lib/view/columns.h) and
 * mib/tunewatch_oids.h, by reading the MIB module itself.
 *
 * tunewatchd and the plugins use the header's numbers and the table's
 * types and never load the MIB, so nothing else would notice if they
 * drifted apart. This needs no MIB tools and no IETF base modules, so it
 * runs everywhere (smilint, which needs them, checks the MIB's grammar
 * where they exist: tests/mib_smilint.sh).
 *
 * The reading is tests/mib_reader.c's; the checks are here.
 *
 * Checked: the module sits at TW_MIB_ARC; every object of twObjects has a
 * row in the table with its name, OID, SMI type, access, range and UNITS,
 * and every row an object; the groups, tables and entries are where the
 * header says; twDblockClass's enumeration is the header's TW_DBLOCK_*.
 * Exit 0 pass, 1 fail. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mib_reader.h"
#include "tunewatch_oids.h"
#include "view/columns.h"

static int fails;

static void
fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fails++;
}


/* ---- The checks ---------------------------------------------------------------- */

static const uint32_t arc[] = { TW_MIB_ARC };
#define ARC_LEN (sizeof(arc) / sizeof(arc[0]))

/* Whether name's OID is the arc followed by the n numbers given. */
static void
expect_oid(const char *name, size_t n, ...)
{
	uint32_t want[MIB_OID_MAX], got[MIB_OID_MAX];
	size_t glen = mib_oid(name, got), i;
	va_list ap;

	memcpy(want, arc, sizeof(arc));
	va_start(ap, n);
	for (i = 0; i < n; i++)
		want[ARC_LEN + i] = va_arg(ap, uint32_t);
	va_end(ap);
	if (glen != ARC_LEN + n || memcmp(got, want, glen * sizeof(*got)) != 0) {
		char g[256] = "", w[256] = "";

		for (i = 0; i < glen; i++)
			snprintf(g + strlen(g), sizeof(g) - strlen(g), ".%u", got[i]);
		for (i = 0; i < ARC_LEN + n; i++)
			snprintf(w + strlen(w), sizeof(w) - strlen(w), ".%u", want[i]);
		fail("%s is %s in the MIB; the header and the table say %s", name,
		    glen > 0 ? g : "(not found)", w);
	}
}

/* One row of the table against its object of the MIB. */
static void
check_row(const struct tw_column_group *g, uint32_t sub, unsigned col,
    const struct tw_column *c)
{
	const struct mib_object *o = mib_object(c->name);
	const struct mib_tc *tc;
	long long lo;
	unsigned long long hi;
	int64_t min;
	uint64_t max;
	int ranged;

	if (o == NULL || !o->object_type) {
		fail("%s: in the table, but not an OBJECT-TYPE of the MIB", c->name);
		return;
	}
	if (g->index_len == 0)
		expect_oid(c->name, 3, (uint32_t)TW_OID_OBJECTS, g->id, col);
	else if (sub != 0)
		expect_oid(c->name, 5, (uint32_t)TW_OID_OBJECTS, g->id, sub, (uint32_t)1, col);
	else
		expect_oid(c->name, 4, (uint32_t)TW_OID_OBJECTS, g->id, (uint32_t)1, col);
	if (strcmp(o->syn.type, tw_smi_name(c->smi)) != 0)
		fail("%s: the table says %s; the MIB says %s", c->name, tw_smi_name(c->smi),
		    o->syn.type);
	if (strcmp(o->access, c->access == TW_ACCESS_READ_ONLY ? "read-only" :
	    "not-accessible") != 0)
		fail("%s: the table says %s; the MIB says MAX-ACCESS %s", c->name,
		    c->access == TW_ACCESS_READ_ONLY ? "read-only" : "not-accessible", o->access);
	if (strcmp(o->units, c->units != NULL ? c->units : "") != 0)
		fail("%s: the table says UNITS \"%s\"; the MIB says \"%s\"", c->name,
		    c->units != NULL ? c->units : "", o->units);
	/* An enumeration of the object's own (INTEGER { a(1), b(2) }) is a
	 * range in the table: its lowest value to its highest. */
	ranged = o->syn.ranged;
	lo = o->syn.min;
	hi = o->syn.max;
	if (o->syn.nenum > 0) {
		size_t i;

		ranged = 1;
		lo = o->syn.value[0];
		hi = (unsigned long long)o->syn.value[0];
		for (i = 1; i < o->syn.nenum; i++) {
			lo = o->syn.value[i] < lo ? o->syn.value[i] : lo;
			hi = (unsigned long long)o->syn.value[i] > hi ?
			    (unsigned long long)o->syn.value[i] : hi;
		}
	}
	if (ranged != c->ranged || (c->ranged && (lo != c->min || hi != c->max)))
		fail("%s: the table's range (%s%lld..%llu) is not the MIB's (%s%lld..%llu)", c->name,
		    c->ranged ? "" : "none: ", (long long)c->min, (unsigned long long)c->max,
		    ranged ? "" : "none: ", lo, hi);
	/* A textual convention's own range, or its enumeration's, is the
	 * type's range in the table. */
	tc = mib_tc(o->syn.type);
	if (tc != NULL && !c->ranged && (tc->syn.ranged || tc->syn.nenum > 0)) {
		size_t i;

		lo = tc->syn.ranged ? tc->syn.min : tc->syn.value[0];
		hi = tc->syn.ranged ? tc->syn.max : (unsigned long long)tc->syn.value[0];
		for (i = 0; i < tc->syn.nenum; i++) {
			lo = tc->syn.value[i] < lo ? tc->syn.value[i] : lo;
			hi = (unsigned long long)tc->syn.value[i] > hi ?
			    (unsigned long long)tc->syn.value[i] : hi;
		}
		tw_column_range(c, &min, &max);
		if (min != lo || max != hi)
			fail("%s: the table's range of %s is %lld..%llu; the MIB's %lld..%llu",
			    c->name, tc->name, (long long)min, (unsigned long long)max, lo, hi);
	}
	if ((c->smi == TW_SMI_HUNDREDTHS) != (c->scale == 100))
		fail("%s: TwHundredths is the figure times 100, and only it", c->name);
}

static void
check_groups(void)
{
	size_t i;

	expect_oid("tunewatchMIB", 0);
	expect_oid("twObjects", 1, (uint32_t)TW_OID_OBJECTS);
	expect_oid("twConformance", 1, (uint32_t)TW_OID_CONFORMANCE);
	expect_oid("twDblockEntry", 3, (uint32_t)TW_OID_OBJECTS, (uint32_t)TW_OID_DBLOCK_TABLE,
	    (uint32_t)TW_OID_DBLOCK_ENTRY);
	expect_oid("twDiskEntry", 3, (uint32_t)TW_OID_OBJECTS, (uint32_t)TW_OID_DISK_TABLE,
	    (uint32_t)TW_OID_DISK_ENTRY);
	expect_oid("twTunableEntry", 3, (uint32_t)TW_OID_OBJECTS,
	    (uint32_t)TW_OID_TUNABLE_TABLE, (uint32_t)TW_OID_TUNABLE_ENTRY);
	expect_oid("twFindingEntry", 4, (uint32_t)TW_OID_OBJECTS, (uint32_t)TW_OID_FINDINGS,
	    (uint32_t)TW_OID_FINDING_TABLE, (uint32_t)TW_OID_FINDING_ENTRY);
	for (i = 0; i < tw_column_ngroups; i++) {
		const struct tw_column_group *g = &tw_column_groups[i];
		unsigned col, first = 0;

		if (tw_column_group(g->id) != g)
			fail("%s: tw_column_group(%u) does not find it", g->name, g->id);
		expect_oid(g->name, 2, (uint32_t)TW_OID_OBJECTS, g->id);
		if (g->entry != NULL)
			expect_oid(g->entry, 3, (uint32_t)TW_OID_OBJECTS, g->id, (uint32_t)1);
		for (col = 0; col < g->ncols; col++) {
			if (g->cols[col].name == NULL)
				continue;
			check_row(g, 0, col, &g->cols[col]);
			if (first == 0 && g->cols[col].access == TW_ACCESS_READ_ONLY)
				first = col;
		}
		if (first != g->first)
			fail("%s: its first accessible column is %u, not %u", g->name, first, g->first);
	}
}

/* The tables one level below a scalar group (twFindingTable). */
static void
check_subgroups(void)
{
	size_t i;

	for (i = 0; i < tw_column_nsubgroups; i++) {
		const struct tw_column_subgroup *s = &tw_column_subgroups[i];
		const struct tw_column_group *g = &s->group;
		unsigned col, first = 0;

		if (tw_column_subgroup(g->id, s->sub) != g)
			fail("%s: tw_column_subgroup(%u, %u) does not find it", g->name, g->id, s->sub);
		expect_oid(g->name, 3, (uint32_t)TW_OID_OBJECTS, g->id, s->sub);
		expect_oid(g->entry, 4, (uint32_t)TW_OID_OBJECTS, g->id, s->sub, (uint32_t)1);
		for (col = 0; col < g->ncols; col++) {
			if (g->cols[col].name == NULL)
				continue;
			check_row(g, s->sub, col, &g->cols[col]);
			if (first == 0 && g->cols[col].access == TW_ACCESS_READ_ONLY)
				first = col;
		}
		if (first != g->first)
			fail("%s: its first accessible column is %u, not %u", g->name, first, g->first);
	}
}

/* Every object below twObjects has its row (or is a group, table or
 * entry of the table). */
static void
check_objects_have_rows(void)
{
	uint32_t objects[MIB_OID_MAX];
	size_t olen = mib_oid("twObjects", objects), i;

	for (i = 0; i < mib_nobjects(); i++) {
		const struct mib_object *obj = mib_object_at(i);
		uint32_t o[MIB_OID_MAX];
		size_t len = mib_oid(obj->name, o);
		const struct tw_column_group *g;
		const struct tw_column *c = NULL;

		if (olen == 0 || len <= olen || memcmp(o, objects, olen * sizeof(*o)) != 0)
			continue;
		g = tw_column_group(o[olen]);
		if (g == NULL) {
			fail("%s: twObjects.%u is no group of the table", obj->name, o[olen]);
			continue;
		}
		/* A table below a scalar group (twFindings.8): its own
		 * group, one arc further down. */
		if (g->index_len == 0 && len >= olen + 2 &&
		    tw_column_subgroup(o[olen], o[olen + 1]) != NULL) {
			const struct tw_column_group *sub = tw_column_subgroup(o[olen], o[olen + 1]);

			if (len <= olen + 3)
				continue;	/* the table, the entry */
			if (len == olen + 4 && o[olen + 2] == 1 && o[olen + 3] < sub->ncols &&
			    sub->cols[o[olen + 3]].name != NULL)
				c = &sub->cols[o[olen + 3]];
			if (c == NULL || strcmp(c->name, obj->name) != 0)
				fail("%s: in the MIB, but no row of the table (%s there)", obj->name,
				    c != NULL ? c->name : "nothing");
			continue;
		}
		if (len == olen + 1 || (g->index_len > 0 && len == olen + 2))
			continue;	/* the group, the table, the entry */
		if (g->index_len == 0 && len == olen + 2)
			c = tw_column(g->id, o[olen + 1]);
		else if (g->index_len > 0 && len == olen + 3 && o[olen + 1] == 1)
			c = tw_column(g->id, o[olen + 2]);
		if (c == NULL || strcmp(c->name, obj->name) != 0)
			fail("%s: in the MIB, but no row of the table (%s there)", obj->name,
			    c != NULL ? c->name : "nothing");
	}
}

static void
check_dblock_classes(void)
{
	static const struct {
		long long value;
		const char *label;
	} want[] = {
		{ TW_DBLOCK_SOFTNET_BACKLOG, "softnetBacklog" },
		{ TW_DBLOCK_SOFTNET_BUDGET, "softnetBudget" },
		{ TW_DBLOCK_TCP_MEMORY, "tcpMemory" },
		{ TW_DBLOCK_UDP_MEMORY, "udpMemory" },
		{ TW_DBLOCK_UDP_RCVBUF, "udpReceiveBuffer" },
		{ TW_DBLOCK_UDP_SNDBUF, "udpSendBuffer" },
		{ TW_DBLOCK_TCP_RCVBUF, "tcpReceiveBuffer" },
		{ TW_DBLOCK_TCP_LISTEN, "tcpListenQueue" },
		{ TW_DBLOCK_BUDDY_ZONE, "buddyZone" },
		{ TW_DBLOCK_HIGH_ORDER, "highOrderPages" },
	};
	const struct mib_tc *tc = mib_tc("TwDblockClassType");
	size_t i, j;

	if (tc == NULL) {
		fail("no TEXTUAL-CONVENTION TwDblockClassType in the MIB");
		return;
	}
	if (tc->syn.nenum != sizeof(want) / sizeof(want[0]))
		fail("TwDblockClassType has %zu values; the header %zu", tc->syn.nenum,
		    sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		for (j = 0; j < tc->syn.nenum; j++)
			if (strcmp(tc->syn.label[j], want[i].label) == 0)
				break;
		if (j == tc->syn.nenum || tc->syn.value[j] != want[i].value)
			fail("TwDblockClassType: %s is %lld in the header, %s in the MIB", want[i].label,
			    want[i].value, j == tc->syn.nenum ? "missing" : "another number");
	}
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (buf = malloc((size_t)n + 1)) == NULL ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		printf("FAIL: cannot read %s: %s\n", path, strerror(errno));
		exit(1);
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

int
main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char path[4096], err[300];
	char *text;
	size_t rows = 0, i;
	int rc;
	unsigned col;

	if (argc > 1)
		snprintf(path, sizeof(path), "%s", argv[1]);
	else
		snprintf(path, sizeof(path), "%s/mib/TUNEWATCH-MIB.txt", top != NULL ? top : ".");
	text = slurp(path);
	rc = mib_read(text, "TUNEWATCH-MIB", err, sizeof(err));
	free(text);
	if (rc != 0) {
		printf("FAIL: %s: %s\n", path, err);
		return 1;
	}
	check_groups();
	check_subgroups();
	check_objects_have_rows();
	check_dblock_classes();
	for (i = 0; i < tw_column_ngroups; i++)
		for (col = 0; col < tw_column_groups[i].ncols; col++)
			rows += tw_column_groups[i].cols[col].name != NULL;
	for (i = 0; i < tw_column_nsubgroups; i++)
		for (col = 0; col < tw_column_subgroups[i].group.ncols; col++)
			rows += tw_column_subgroups[i].group.cols[col].name != NULL;
	if (fails > 0) {
		printf("%d failure(s) between %s, the column table and the header\n", fails, path);
		return 1;
	}
	printf("PASS: the %zu rows of the column table, the header and %s agree (%zu "
	    "definitions read)\n", rows, path, mib_nobjects());
	return 0;
}
