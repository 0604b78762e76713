/* SPDX-License-Identifier: ISC */
/* A small reader of SMIv2 MIB modules, as much as TUNEWATCH-MIB uses:
 * OBJECT-TYPE (SYNTAX, UNITS, MAX-ACCESS), OBJECT IDENTIFIER, textual
 * conventions, and the ::= { parent n } of the other macros. It reads one
 * module's text on its own, with no import resolved but the roots the
 * OIDs hang from, so that tests can hold the MIB against the C code on
 * any machine. For tests only: it trusts its input to be a module that
 * smilint accepts. */
#ifndef TW_MIB_READER_H
#define TW_MIB_READER_H

#include <stddef.h>
#include <stdint.h>

#define MIB_WORD 128
#define MIB_OID_MAX 32

struct mib_syntax {
	char type[MIB_WORD];	/* "Unsigned32", "TwHundredths", "INTEGER" */
	int ranged;		/* (min..max) or (SIZE (min..max)) */
	long long min;
	unsigned long long max;
	size_t nenum;		/* INTEGER { label(n), ... } */
	char label[16][MIB_WORD];
	long long value[16];
};

struct mib_object {
	char name[MIB_WORD];
	char parent[MIB_WORD];
	unsigned long sub;
	int object_type;	/* an OBJECT-TYPE, not just a node */
	struct mib_syntax syn;
	char units[MIB_WORD];	/* "" without UNITS */
	char access[MIB_WORD];
};

struct mib_tc {
	char name[MIB_WORD];
	struct mib_syntax syn;
};

/* Read the module's text; -1 with a reason in err when it is not the
 * module named, or too big. */
int mib_read(const char *text, const char *module, char *err, size_t errlen);

/* The definition of a descriptor (an OBJECT-TYPE or a node), or NULL. */
const struct mib_object *mib_object(const char *name);
size_t mib_nobjects(void);
const struct mib_object *mib_object_at(size_t i);

/* A textual convention of the module, or NULL. */
const struct mib_tc *mib_tc(const char *name);

/* The numeric OID of a descriptor into out (MIB_OID_MAX entries); 0 when
 * its parents lead to no known root. */
size_t mib_oid(const char *name, uint32_t *out);

#endif
