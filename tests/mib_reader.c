/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "mib_reader.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tokens ---------------------------------------------------------------- */

#define TOK_MAX 20000

static char toks[TOK_MAX][MIB_WORD];
static int quoted[TOK_MAX];	/* a "string": its text without the quotes */
static size_t ntoks;

static char error[256];	/* the first thing the reader could not read */

static void
set_error(const char *fmt, ...)
{
	va_list ap;

	if (error[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(error, sizeof(error), fmt, ap);
	va_end(ap);
}

static void
push(const char *s, size_t n, int q)
{
	if (ntoks == TOK_MAX) {
		set_error("more than %d tokens", TOK_MAX);
		return;
	}
	if (n >= MIB_WORD)
		n = MIB_WORD - 1;	/* only descriptions are longer, and unread */
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

#define MAX_DEFS 512
static struct mib_object objs[MAX_DEFS];
static size_t nobjs;
static struct mib_tc tcs[32];
static size_t ntcs;

/* A syntax at token i; returns the token after it. */
static size_t
parse_syntax(size_t i, struct mib_syntax *syn)
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
				snprintf(syn->label[syn->nenum], MIB_WORD, "%s", toks[i]);
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
parse_assignment(size_t i, struct mib_object *o)
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
		struct mib_object *o = &objs[nobjs];

		if (nobjs == MAX_DEFS) {
			set_error("more than %d definitions", MAX_DEFS);
			return;
		}
		if (is(i + 1, "::=") && is(i + 2, "TEXTUAL-CONVENTION") && ntcs < 32) {
			size_t j = i + 3;

			while (j < ntoks && !is(j, "SYNTAX"))
				j++;
			snprintf(tcs[ntcs].name, MIB_WORD, "%s", toks[i]);
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
		    is(i + 1, "NOTIFICATION-TYPE") || is(i + 1, "NOTIFICATION-GROUP")) {
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
				set_error("%s: no '::= { parent n }'", toks[i]);
			i = j;
		}
	}
}

const struct mib_object *
mib_object(const char *name)
{
	size_t i;

	for (i = 0; i < nobjs; i++)
		if (strcmp(objs[i].name, name) == 0)
			return &objs[i];
	return NULL;
}

const struct mib_tc *
mib_tc(const char *name)
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

/* The numeric OID of name; 0 when its parents lead to no known root. */
size_t
mib_oid(const char *name, uint32_t *out)
{
	uint32_t rev[MIB_OID_MAX];
	size_t n = 0, i, r;

	for (;;) {
		const struct mib_object *o;

		for (r = 0; r < sizeof(roots) / sizeof(roots[0]); r++)
			if (strcmp(name, roots[r].name) == 0)
				break;
		if (r < sizeof(roots) / sizeof(roots[0]))
			break;
		o = mib_object(name);
		if (o == NULL || n + 9 >= MIB_OID_MAX)
			return 0;
		rev[n++] = (uint32_t)o->sub;
		name = o->parent;
	}
	memcpy(out, roots[r].oid, roots[r].len * sizeof(*out));
	for (i = 0; i < n; i++)
		out[roots[r].len + i] = rev[n - 1 - i];
	return roots[r].len + n;
}

size_t
mib_nobjects(void)
{
	return nobjs;
}

const struct mib_object *
mib_object_at(size_t i)
{
	return &objs[i];
}

int
mib_read(const char *text, const char *module, char *err, size_t errlen)
{
	tokenize(text);
	if (error[0] == '\0' && (!is(0, module) || !is(1, "DEFINITIONS")))
		set_error("not the module %s", module);
	if (error[0] == '\0')
		parse_module();
	if (error[0] != '\0') {
		snprintf(err, errlen, "%s", error);
		return -1;
	}
	return 0;
}
