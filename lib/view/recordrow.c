/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/recordrow.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "figures/fig.h"
#include "util/escape.h"

/* ---- Each group's fields, by kind -------------------------------------------
 * Every disk is decoded and projected each sample (10,000 in bench/), so
 * the column table is read once into a list of each group's fields of
 * each kind: the loops below then do one kind's work without asking which
 * kind a column is. */

struct field {
	uint32_t off;		/* in the record */
	uint8_t col;
	uint8_t is_signed;	/* TW_FIG_REAL: an INTEGER on the wire */
	uint32_t str_off;	/* TW_FIG_TEXT, TW_FIG_NAME: in the row */
	uint32_t str_size;
	const struct tw_column *c;
};

#define KINDS (TW_FIG_NAME + 1)

struct fields {
	unsigned n[KINDS];
	struct field f[KINDS][32];	/* a row has at most 32 columns (its `has`) */
};

/* By group number: tw_column_groups numbers its groups 1 to 12. */
#define MAX_GROUP 16
static struct fields group_fields[MAX_GROUP];
static pthread_once_t fields_once = PTHREAD_ONCE_INIT;

static void
fill_fields(const struct tw_column_group *g, struct fields *out)
{
	unsigned col;

	memset(out->n, 0, sizeof(out->n));
	for (col = g->first; col < g->ncols && col < 32; col++) {
		const struct tw_column *c = &g->cols[col];
		struct field *fd;

		if (c->name == NULL || c->fig == TW_FIG_NO_FIELD || (unsigned)c->fig >= KINDS)
			continue;
		fd = &out->f[c->fig][out->n[c->fig]++];
		fd->off = (uint32_t)c->fig_off;
		fd->col = (uint8_t)col;
		fd->is_signed = (uint8_t)tw_column_signed(c);
		fd->str_off = (uint32_t)c->str_off;
		fd->str_size = (uint32_t)c->str_size;
		fd->c = c;
	}
}

static void
make_fields(void)
{
	size_t i;

	for (i = 0; i < tw_column_ngroups; i++)
		if (tw_column_groups[i].id < MAX_GROUP)
			fill_fields(&tw_column_groups[i], &group_fields[tw_column_groups[i].id]);
}

/* g's fields; for a group not in tw_column_groups (a table one level
 * down), made in *own. */
static const struct fields *
fields_of(const struct tw_column_group *g, struct fields *own)
{
	if (g >= tw_column_groups && g < tw_column_groups + tw_column_ngroups &&
	    g->id < MAX_GROUP) {
		pthread_once(&fields_once, make_fields);
		return &group_fields[g->id];
	}
	fill_fields(g, own);
	return own;
}

static int
empty(const struct fields *fs)
{
	unsigned k;

	for (k = 0; k < KINDS; k++)
		if (fs->n[k] > 0)
			return 0;
	return 1;
}

/* A row keeps its numbers in col[] at g->col_off and says which columns
 * it has in a 32-bit word at g->has_off (view.h); this file knows rows
 * only through those offsets. */
static uint32_t
row_has(const struct tw_column_group *g, const void *row)
{
	uint32_t has;

	memcpy(&has, (const char *)row + g->has_off, sizeof(has));
	return has;
}

/* A field of a record, copied in and out so that no pointer of the
 * field's type is made from the record's address. */
#define PUT(rec, fd, value, type) \
	do { type v_ = (value); memcpy((char *)(rec) + (fd)->off, &v_, sizeof(v_)); } while (0)
#define GET(rec, fd, out) memcpy(&(out), (const char *)(rec) + (fd)->off, sizeof(out))
#define EACH(fs, kind, fd) \
	for (fd = (fs)->f[kind]; fd < (fs)->f[kind] + (fs)->n[kind]; fd++)

/* ---- Decode -------------------------------------------------------------------- */

void
tw_recordrow_decode(const struct tw_column_group *g, const void *row, void *rec)
{
	struct fields own;
	const struct fields *fs = fields_of(g, &own);
	const struct field *fd;
	const char *r = row;
	const uint64_t *n;
	uint32_t has;

	/* A group with no figures may keep no numbers either (twTunableTable). */
	if (empty(fs))
		return;
	n = (const uint64_t *)(const void *)(r + g->col_off);
	has = row_has(g, row);
#define ON(fd) ((has >> (fd)->col) & 1)
	EACH(fs, TW_FIG_REAL, fd)
		PUT(rec, fd, !ON(fd) ? TW_FIG_NONE : (fd->is_signed ? (double)(int64_t)n[fd->col] :
		    (double)n[fd->col]) / fd->c->scale, double);
	EACH(fs, TW_FIG_COUNT, fd)
		PUT(rec, fd, ON(fd) ? n[fd->col] : TW_FIG_NO_COUNT, uint64_t);
	EACH(fs, TW_FIG_INT, fd)
		PUT(rec, fd, ON(fd) ? (int64_t)n[fd->col] : -1, int64_t);
	/* A TruthValue: true is 1, false 2. */
	EACH(fs, TW_FIG_TRUTH, fd)
		PUT(rec, fd, !ON(fd) ? -1 : n[fd->col] == 1 ? 1 : n[fd->col] == 2 ? 0 : -1, int);
	EACH(fs, TW_FIG_TEXT, fd)
		PUT(rec, fd, ON(fd) ? r + fd->str_off : NULL, const char *);
	EACH(fs, TW_FIG_NAME, fd)
		PUT(rec, fd, r + fd->str_off, const char *);
#undef ON
}

/* ---- Project ------------------------------------------------------------------- */

/* A number the column's type can hold: clamped to its range. */
static uint64_t
clamp(const struct tw_column *c, uint64_t n)
{
	uint64_t lo = c->min > 0 ? (uint64_t)c->min : 0;

	return n < lo ? lo : n > c->max ? c->max : n;
}

void
tw_recordrow_project(const struct tw_column_group *g, const void *rec, void *row)
{
	struct fields own;
	const struct fields *fs = fields_of(g, &own);
	const struct field *fd;
	char *r = row;
	uint64_t *n;
	uint32_t has;

	if (empty(fs))
		return;
	n = (uint64_t *)(void *)(r + g->col_off);
	has = row_has(g, row);
#define SET(fd, value) do { n[(fd)->col] = (value); has |= UINT32_C(1) << (fd)->col; } while (0)
	EACH(fs, TW_FIG_REAL, fd) {
		double x;

		GET(rec, fd, x);
		if (!isnan(x))
			SET(fd, tw_column_encode(fd->c, x));
	}
	EACH(fs, TW_FIG_COUNT, fd) {
		uint64_t v;

		GET(rec, fd, v);
		if (v != TW_FIG_NO_COUNT)
			SET(fd, clamp(fd->c, v));
	}
	EACH(fs, TW_FIG_INT, fd) {
		int64_t v;

		GET(rec, fd, v);
		if (v >= 0)
			SET(fd, clamp(fd->c, (uint64_t)v));
	}
	EACH(fs, TW_FIG_TRUTH, fd) {
		int t;

		GET(rec, fd, t);
		if (t == 0 || t == 1)
			SET(fd, t ? 1 : 2);
	}
	/* Shown, whatever the record holds (a name put in a sample by hand). */
	EACH(fs, TW_FIG_TEXT, fd) {
		const char *s;

		GET(rec, fd, s);
		if (s != NULL) {
			(void)tw_escape_copy(r + fd->str_off, fd->str_size, s);
			has |= UINT32_C(1) << fd->col;
		}
	}
	EACH(fs, TW_FIG_NAME, fd) {
		const char *s;

		GET(rec, fd, s);
		(void)tw_escape_copy(r + fd->str_off, fd->str_size, s);
		has |= UINT32_C(1) << fd->col;
	}
#undef SET
	memcpy(r + g->has_off, &has, sizeof(has));
}
