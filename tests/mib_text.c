/* mib/TUNEWATCH-MIB.txt against the column table (lib/view/columns.c) and
 * mib/tunewatch_oids.h, by reading the MIB module itself.
 *
 * tunewatchd and the plugins use the header's numbers and the table's
 * types and never load the MIB, so nothing else would notice if they
 * drifted apart. This needs no MIB tools and no IETF base modules, so it
 * runs everywhere (smilint, which needs them, checks the MIB's grammar
 * where they exist: tests/mib_smilint.sh). The parser below reads as much
 * SMIv2 as the module uses: OBJECT-TYPE, OBJECT IDENTIFIER, textual
 * conventions, and the other macros' ::= { parent n }.
 *
 * Checked: the module sits at TW_MIB_ARC; every object of twObjects has a
 * row in the table with its name, OID, SMI type, access, range and UNITS,
 * and every row an object; the groups, tables and entries are where the
 * header says; twDblockClass's enumeration is the header's TW_DBLOCK_*.
 * Exit 0 pass, 1 fail. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tunewatch_oids.h"
#include "view/columns.h"

/* ---- Tokens ---------------------------------------------------------------- */

#define TOK_MAX 20000
#define WORD 128

static char toks[TOK_MAX][WORD];
static int quoted[TOK_MAX];	/* a "string": its text without the quotes */
static size_t ntoks;

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

static void
push(const char *s, size_t n, int q)
{
	if (ntoks == TOK_MAX) {
		fail("more than %d tokens in the MIB", TOK_MAX);
		exit(1);
	}
	if (n >= WORD)
		n = WORD - 1;	/* only descriptions are longer, and unread */
	memcpy(toks[ntoks], s, n);
	toks[ntoks][n] = '\0';
	quoted[ntoks++] = q;
}

/* ASN.1 comments run from "--" to the end of the line or the next "--". */
static void
tokenize(const char *p)
{
	while (*p != '\0') {
		const char *s = p;

		if (isspace((unsigned char)*p)) {
			p++;
		} else if (p[0] == '-' && p[1] == '-') {
			for (p += 2; *p != '\0' && *p != '\n' && !(p[0] == '-' && p[1] == '-'); p++)
				;
			if (*p == '-')
				p += 2;
		} else if (*p == '"') {
			for (p++; *p != '\0' && *p != '"'; p++)
				;
			push(s + 1, (size_t)(p - s - 1), 1);
			if (*p == '"')
				p++;
		} else if (strncmp(p, "::=", 3) == 0 || strncmp(p, "..", 2) == 0) {
			p += p[0] == ':' ? 3 : 2;
			push(s, (size_t)(p - s), 0);
		} else if (isalnum((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1]))) {
			for (p++; isalnum((unsigned char)*p) || (*p == '-' && p[1] != '-'); p++)
				;
			push(s, (size_t)(p - s), 0);
		} else {
			push(p++, 1, 0);
		}
	}
}

static int
is(size_t i, const char *s)
{
	return i < ntoks && !quoted[i] && strcmp(toks[i], s) == 0;
}

/* ---- Definitions ------------------------------------------------------------ */

struct syntax {
	char type[WORD];	/* "Unsigned32", "TwHundredths", "INTEGER" */
	int ranged;		/* (min..max) or (SIZE (min..max)) */
	long long min;
	unsigned long long max;
	size_t nenum;		/* INTEGER { label(n), ... } */
	char label[16][WORD];
	long long value[16];
};

struct object {
	char name[WORD];
	char parent[WORD];
	unsigned long sub;
	int object_type;	/* an OBJECT-TYPE, not just a node */
	struct syntax syn;
	char units[WORD];	/* "" without UNITS */
	char access[WORD];
};

struct tc {
	char name[WORD];
	struct syntax syn;
};

#define MAX_DEFS 256
static struct object objs[MAX_DEFS];
static size_t nobjs;
static struct tc tcs[32];
static size_t ntcs;

/* A syntax at token i; returns the token after it. */
static size_t
parse_syntax(size_t i, struct syntax *syn)
{
	memset(syn, 0, sizeof(*syn));
	if (is(i, "OCTET") && is(i + 1, "STRING")) {
		snprintf(syn->type, sizeof(syn->type), "OCTET STRING");
		i += 2;
	} else if (is(i, "SEQUENCE") && is(i + 1, "OF")) {
		snprintf(syn->type, sizeof(syn->type), "SEQUENCE OF %s", toks[i + 2]);
		return i + 3;
	} else {
		snprintf(syn->type, sizeof(syn->type), "%s", toks[i++]);
	}
	if (is(i, "{")) {
		for (i++; i < ntoks && !is(i, "}"); i++) {
			if (is(i + 1, "(") && syn->nenum < 16) {
				snprintf(syn->label[syn->nenum], WORD, "%s", toks[i]);
				syn->value[syn->nenum++] = strtoll(toks[i + 2], NULL, 10);
				i += 3;
			}
		}
		return i + 1;
	}
	if (is(i, "(")) {
		size_t j = i + 1;

		if (is(j, "SIZE") && is(j + 1, "("))
			j += 2;
		if (j + 2 < ntoks && is(j + 1, "..")) {
			syn->ranged = 1;
			syn->min = strtoll(toks[j], NULL, 10);
			syn->max = strtoull(toks[j + 2], NULL, 10);
		}
		while (i < ntoks && !is(i, ")"))
			i++;
		while (is(i, ")"))
			i++;
	}
	return i;
}

/* "::= { parent n }" at token i. */
static int
parse_assignment(size_t i, struct object *o)
{
	if (!is(i, "::=") || !is(i + 1, "{") || !is(i + 4, "}"))
		return 0;
	snprintf(o->parent, sizeof(o->parent), "%s", toks[i + 2]);
	o->sub = strtoul(toks[i + 3], NULL, 10);
	return 1;
}

static void
parse_module(void)
{
	size_t i;

	for (i = 0; i + 1 < ntoks; i++) {
		struct object *o = &objs[nobjs];

		if (nobjs == MAX_DEFS) {
			fail("more than %d definitions in the MIB", MAX_DEFS);
			return;
		}
		if (is(i + 1, "::=") && is(i + 2, "TEXTUAL-CONVENTION") && ntcs < 32) {
			size_t j = i + 3;

			while (j < ntoks && !is(j, "SYNTAX"))
				j++;
			snprintf(tcs[ntcs].name, WORD, "%s", toks[i]);
			parse_syntax(j + 1, &tcs[ntcs++].syn);
			continue;
		}
		if (is(i + 1, "OBJECT") && is(i + 2, "IDENTIFIER") && is(i + 3, "::=")) {
			memset(o, 0, sizeof(*o));
			snprintf(o->name, sizeof(o->name), "%s", toks[i]);
			if (parse_assignment(i + 3, o))
				nobjs++;
			continue;
		}
		/* A value's descriptor starts lower case; IMPORTS lists the
		 * macros' names after commas. */
		if (quoted[i] || !islower((unsigned char)toks[i][0]))
			continue;
		if (is(i + 1, "OBJECT-TYPE") || is(i + 1, "MODULE-IDENTITY") ||
		    is(i + 1, "OBJECT-GROUP") || is(i + 1, "MODULE-COMPLIANCE") ||
		    is(i + 1, "NOTIFICATION-TYPE")) {
			size_t j;

			memset(o, 0, sizeof(*o));
			snprintf(o->name, sizeof(o->name), "%s", toks[i]);
			o->object_type = is(i + 1, "OBJECT-TYPE");
			for (j = i + 2; j < ntoks && !is(j, "::="); j++) {
				if (!o->object_type)
					continue;
				if (is(j, "SYNTAX"))
					j = parse_syntax(j + 1, &o->syn) - 1;
				else if (is(j, "UNITS") && quoted[j + 1])
					snprintf(o->units, sizeof(o->units), "%s", toks[j + 1]);
				else if (is(j, "MAX-ACCESS"))
					snprintf(o->access, sizeof(o->access), "%s", toks[j + 1]);
			}
			if (parse_assignment(j, o))
				nobjs++;
			else
				fail("%s: no '::= { parent n }'", toks[i]);
			i = j;
		}
	}
}

static struct object *
find(const char *name)
{
	size_t i;

	for (i = 0; i < nobjs; i++)
		if (strcmp(objs[i].name, name) == 0)
			return &objs[i];
	return NULL;
}

static const struct tc *
find_tc(const char *name)
{
	size_t i;

	for (i = 0; i < ntcs; i++)
		if (strcmp(tcs[i].name, name) == 0)
			return &tcs[i];
	return NULL;
}

/* The imports an OID may hang from: netSnmpPlaypen (NET-SNMP-MIB) today,
 * enterprises (SNMPv2-SMI) once the project has its own number
 * (MIB-README, section 7). */
static const struct {
	const char *name;
	uint32_t oid[9];
	size_t len;
} roots[] = {
	{ "netSnmpPlaypen", { 1, 3, 6, 1, 4, 1, 8072, 9999, 9999 }, 9 },
	{ "enterprises", { 1, 3, 6, 1, 4, 1 }, 6 },
};

#define OID_MAX 32

/* The numeric OID of name; 0 when its parents lead to no known root. */
static size_t
oid_of(const char *name, uint32_t *out)
{
	uint32_t rev[OID_MAX];
	size_t n = 0, i, r;

	for (;;) {
		const struct object *o;

		for (r = 0; r < sizeof(roots) / sizeof(roots[0]); r++)
			if (strcmp(name, roots[r].name) == 0)
				break;
		if (r < sizeof(roots) / sizeof(roots[0]))
			break;
		o = find(name);
		if (o == NULL || n + 9 >= OID_MAX)
			return 0;
		rev[n++] = (uint32_t)o->sub;
		name = o->parent;
	}
	memcpy(out, roots[r].oid, roots[r].len * sizeof(*out));
	for (i = 0; i < n; i++)
		out[roots[r].len + i] = rev[n - 1 - i];
	return roots[r].len + n;
}

/* ---- The checks ---------------------------------------------------------------- */

static const uint32_t arc[] = { TW_MIB_ARC };
#define ARC_LEN (sizeof(arc) / sizeof(arc[0]))

/* Whether name's OID is the arc followed by the n numbers given. */
static void
expect_oid(const char *name, size_t n, ...)
{
	uint32_t want[OID_MAX], got[OID_MAX];
	size_t glen = oid_of(name, got), i;
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
check_row(const struct tw_column_group *g, unsigned col, const struct tw_column *c)
{
	const struct object *o = find(c->name);
	const struct tc *tc;
	long long lo;
	unsigned long long hi;
	int64_t min;
	uint64_t max;

	if (o == NULL || !o->object_type) {
		fail("%s: in the table, but not an OBJECT-TYPE of the MIB", c->name);
		return;
	}
	if (g->index_len == 0)
		expect_oid(c->name, 3, (uint32_t)TW_OID_OBJECTS, g->id, col);
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
	if (o->syn.ranged != c->ranged ||
	    (c->ranged && (o->syn.min != c->min || o->syn.max != c->max)))
		fail("%s: the table's range (%s%lld..%llu) is not the MIB's (%s%lld..%llu)", c->name,
		    c->ranged ? "" : "none: ", (long long)c->min, (unsigned long long)c->max,
		    o->syn.ranged ? "" : "none: ", o->syn.min, o->syn.max);
	/* A textual convention's own range, or its enumeration's, is the
	 * type's range in the table. */
	tc = find_tc(o->syn.type);
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
	for (i = 0; i < tw_column_ngroups; i++) {
		const struct tw_column_group *g = &tw_column_groups[i];
		unsigned col, first = 0;

		expect_oid(g->name, 2, (uint32_t)TW_OID_OBJECTS, g->id);
		if (g->entry != NULL)
			expect_oid(g->entry, 3, (uint32_t)TW_OID_OBJECTS, g->id, (uint32_t)1);
		for (col = 0; col < g->ncols; col++) {
			if (g->cols[col].name == NULL)
				continue;
			check_row(g, col, &g->cols[col]);
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
	uint32_t objects[OID_MAX];
	size_t olen = oid_of("twObjects", objects), i;

	for (i = 0; i < nobjs; i++) {
		uint32_t o[OID_MAX];
		size_t len = oid_of(objs[i].name, o);
		const struct tw_column_group *g;
		const struct tw_column *c = NULL;

		if (olen == 0 || len <= olen || memcmp(o, objects, olen * sizeof(*o)) != 0)
			continue;
		g = tw_column_group(o[olen]);
		if (g == NULL) {
			fail("%s: twObjects.%u is no group of the table", objs[i].name, o[olen]);
			continue;
		}
		if (len == olen + 1 || (g->index_len > 0 && len == olen + 2))
			continue;	/* the group, the table, the entry */
		if (g->index_len == 0 && len == olen + 2)
			c = tw_column(g->id, o[olen + 1]);
		else if (g->index_len > 0 && len == olen + 3 && o[olen + 1] == 1)
			c = tw_column(g->id, o[olen + 2]);
		if (c == NULL || strcmp(c->name, objs[i].name) != 0)
			fail("%s: in the MIB, but no row of the table (%s there)", objs[i].name,
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
	const struct tc *tc = find_tc("TwDblockClassType");
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
	char path[4096];
	char *text;
	size_t rows = 0, i;
	unsigned col;

	if (argc > 1)
		snprintf(path, sizeof(path), "%s", argv[1]);
	else
		snprintf(path, sizeof(path), "%s/mib/TUNEWATCH-MIB.txt", top != NULL ? top : ".");
	text = slurp(path);
	tokenize(text);
	free(text);
	if (!is(0, "TUNEWATCH-MIB") || !is(1, "DEFINITIONS")) {
		printf("FAIL: %s is not the module TUNEWATCH-MIB\n", path);
		return 1;
	}
	parse_module();
	check_groups();
	check_objects_have_rows();
	check_dblock_classes();
	for (i = 0; i < tw_column_ngroups; i++)
		for (col = 0; col < tw_column_groups[i].ncols; col++)
			rows += tw_column_groups[i].cols[col].name != NULL;
	if (fails > 0) {
		printf("%d failure(s) between %s, the column table and the header\n", fails, path);
		return 1;
	}
	printf("PASS: the %zu rows of the column table, the header and %s agree (%zu "
	    "definitions read)\n", rows, path, nobjs + ntcs);
	return 0;
}
